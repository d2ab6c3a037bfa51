"""The jmsctl command line: thin wiring of options to the core and exit codes (grep-like)."""

from __future__ import annotations

import os
import signal


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """Ctrl-C while the modules below load (most of start-up): nothing is open yet, so end now,
    as the running program would (status 130), rather than with a trace from inside an import."""
    os.write(2, b"\n")
    os._exit(130)


try:
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when SIGINT is ignored (a background job)
        signal.signal(signal.SIGINT, _interrupted_while_starting)
except ValueError:  # imported outside the main thread: signals are not this module's to handle
    pass

import codecs  # noqa: E402
import io  # noqa: E402
import sys  # noqa: E402

import typer  # noqa: E402

from jmsctl.cli.commands.check import check  # noqa: E402
from jmsctl.cli.commands.explain import explain  # noqa: E402
from jmsctl.cli.commands.filter import filter_command  # noqa: E402
from jmsctl.cli.commands.get import get  # noqa: E402
from jmsctl.cli.commands.show import show  # noqa: E402
from jmsctl.cli.commands.spark import spark_app  # noqa: E402
from jmsctl.cli.commands.table import table  # noqa: E402
from jmsctl.cli.commands.test import test  # noqa: E402
from jmsctl.cli.commands.validate import validate_command  # noqa: E402

app = typer.Typer(
    name="jmsctl",
    help="Jakarta Messaging (JMS) selectors and message dumps: check, explain, test.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command()(check)
app.command()(explain)
app.command(name="test")(test)
app.command(name="filter")(filter_command)
app.command(name="get")(get)
app.command(name="table")(table)
app.command(name="show")(show)
app.command(name="validate")(validate_command)
app.add_typer(spark_app, name="spark")

if signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
    signal.signal(signal.SIGINT, signal.default_int_handler)  # loaded: Ctrl-C is KeyboardInterrupt again (main)


def main() -> None:
    """Entry point: a closed pipe exits quietly, Ctrl-C exits 130, neither prints a traceback;
    text that cannot be encoded (lone surrogates from arguments that are not UTF-8) never stops output."""
    _robust_streams()
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        sys.exit(130)
    except BrokenPipeError:
        # Python flushes stdout at exit; point it at devnull so that flush cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(128 + signal.SIGPIPE)


def _unencodable(exc: UnicodeError) -> tuple[str | bytes, int]:
    """Encoding error handler for stdout and stderr: the original byte for U+DC80..U+DCFF (how Python
    decodes invalid UTF-8 in arguments), a backslash escape for anything else; never an exception."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    try:
        return codecs.lookup_error("surrogateescape")(exc)
    except UnicodeEncodeError:
        return codecs.backslashreplace_errors(exc)


def _robust_streams() -> None:
    codecs.register_error("jmsctl-unencodable", _unencodable)
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:  # started with the descriptor closed: write nowhere rather than crash
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
        elif isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="jmsctl-unencodable")

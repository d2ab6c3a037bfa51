"""The jmsctl command line: thin wiring of options to the core and exit codes (grep-like)."""

from __future__ import annotations

import os
import signal
import sys

import typer

from jmsctl.cli.commands.check import check
from jmsctl.cli.commands.explain import explain
from jmsctl.cli.commands.filter import filter_command
from jmsctl.cli.commands.get import get
from jmsctl.cli.commands.show import show
from jmsctl.cli.commands.table import table
from jmsctl.cli.commands.test import test
from jmsctl.cli.commands.validate import validate_command

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


def main() -> None:
    """Entry point: a closed pipe exits quietly, Ctrl-C exits 130, neither prints a traceback."""
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

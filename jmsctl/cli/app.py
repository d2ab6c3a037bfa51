"""The jmsctl command line: thin wiring of options to the core and exit codes (grep-like)."""

from __future__ import annotations

import os
import signal

from jmsctl import _command_line, _interrupted_while_starting  # the start-up's SIGINT handler (jmsctl/__init__.py installs it first)


def _begin_starting(handler: Any = _interrupted_while_starting) -> bool:
    """Whether the start-up handler (or ``handler``) was installed (and is to be removed by ``_end_starting``)."""
    try:
        if signal.getsignal(signal.SIGINT) in (signal.default_int_handler, _interrupted_while_starting):  # not when ignored (a background job)
            signal.signal(signal.SIGINT, handler)
            return True
    except ValueError:  # imported outside the main thread: signals are not this module's to handle
        pass
    return False


def _end_starting(installed: bool) -> None:
    if installed and signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # loaded: Ctrl-C is KeyboardInterrupt again (main)


_starting = _begin_starting()

import codecs  # noqa: E402
import gc  # noqa: E402
import importlib  # noqa: E402
import io  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
from collections.abc import Iterator, MutableMapping  # noqa: E402
from typing import Any  # noqa: E402

import typer  # noqa: E402
from typer.core import TyperArgument, TyperGroup  # noqa: E402

from jmsctl._version import VERSION  # noqa: E402

# Each command's module, in the order of ``jmsctl --help``. A module is imported when its command runs
# (or when help lists it): ``jmsctl filter`` does not load what explain, show or validate need (rich,
# the printer, the explainer, the validator...), which was a fifth of its start-up time.
SELECTORS, MESSAGES, BROKERS, DOCS, SPARK = "Selectors", "Messages", "Brokers", "Documents", "Spark"  # the groups of jmsctl --help, in this order

# One line registers a command: its name, its module and function (or typer app), and its group.
COMMANDS: dict[str, tuple[str, ...]] = {
    "check": ("jmsctl.cli.commands.check", "check", SELECTORS),
    "explain": ("jmsctl.cli.commands.explain", "explain", SELECTORS),
    "test": ("jmsctl.cli.commands.test", "test", SELECTORS),
    "scan": ("jmsctl.cli.commands.scan", "scan", SELECTORS),
    "diff": ("jmsctl.cli.commands.diff", "diff", SELECTORS),
    "overlap": ("jmsctl.cli.commands.overlap", "overlap", SELECTORS),
    "coverage": ("jmsctl.cli.commands.coverage", "coverage", SELECTORS),
    "filter": ("jmsctl.cli.commands.filter", "filter_command", MESSAGES),
    "show": ("jmsctl.cli.commands.show", "show", MESSAGES),
    "get": ("jmsctl.cli.commands.get", "get", MESSAGES),
    "table": ("jmsctl.cli.commands.table", "table", MESSAGES),
    "validate": ("jmsctl.cli.commands.validate", "validate_command", MESSAGES),
    "convert": ("jmsctl.cli.commands.convert", "convert", MESSAGES),
    "profile": ("jmsctl.cli.commands.profile", "profile_command", MESSAGES),
    "view": ("jmsctl.cli.commands.view", "view", MESSAGES),
    "browse": ("jmsctl.cli.commands.broker", "browse", BROKERS),
    "send": ("jmsctl.cli.commands.broker", "send", BROKERS),
    "watch": ("jmsctl.cli.commands.broker", "watch", BROKERS),
    "move": ("jmsctl.cli.commands.act", "move", BROKERS),
    "copy": ("jmsctl.cli.commands.act", "copy", BROKERS),
    "purge": ("jmsctl.cli.commands.act", "purge", BROKERS),
    "docs": ("jmsctl.cli.commands.docs", "docs", DOCS),
    "spark": ("jmsctl.cli.commands.spark", "spark_app", SPARK),  # a group: typer lists groups after commands
}


def _no_options() -> None:
    """The group callback: typer makes a group of an app only if it has a callback or registered
    commands, and the commands here are not registered. Without options or a body it changes nothing
    in usage, help or behaviour."""


def load_command(name: str) -> Any:
    """The click command for ``COMMANDS[name]``, built by typer exactly as ``app.command()`` and
    ``app.add_typer()`` would (the same defaults, through a group as the root app's are)."""
    installed = _begin_starting()  # loading a command is start-up too (see _interrupted_while_starting)
    try:
        module, attr = COMMANDS[name][:2]
        target = getattr(importlib.import_module(module), attr)
        holder = typer.Typer(add_completion=False)
        holder.callback()(_no_options)
        if isinstance(target, typer.Typer):
            holder.add_typer(target, name=name)
        else:
            holder.command(name=name)(target)
        group = typer.main.get_command(holder)
        assert isinstance(group, TyperGroup)
        command = group.commands[name]
        finish(command, name)
        return command
    finally:
        _end_starting(installed)


class _LazyCommands(MutableMapping[str, Any]):
    """``TyperGroup.commands`` whose entries are built on first access: looking one command up
    (``jmsctl filter``) loads only that one; listing names (suggestions for a mistyped one) loads none."""

    def __init__(self) -> None:
        self._loaded: dict[str, Any] = {}
        self._names = list(COMMANDS)

    def __getitem__(self, name: str) -> Any:
        if name not in self._loaded:
            if name not in self._names:
                raise KeyError(name)
            self._loaded[name] = load_command(name)
        return self._loaded[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._loaded[name] = command
        if name not in self._names:
            self._names.append(name)

    def __delitem__(self, name: str) -> None:
        self._names.remove(name)
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names


SHORT_HELP = 64  # characters of a command's line in jmsctl --help: one line in 80 columns


def short_help(text: str | None) -> str:
    """A command's line in the list: the first sentence of its help, cut to one line at a word."""
    first = " ".join((text or "").strip().split("\n\n", 1)[0].split())
    first = first.split(". ", 1)[0]
    first = first[:-1] if first.endswith(".") and not first.endswith("...") else first
    if len(first) > SHORT_HELP:
        first = first[: SHORT_HELP - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return first


def finish(command: Any, name: str | None = None) -> None:
    """What every command gets however it was built (lazily, or registered as in tests): its group
    in --help, a one-line summary, and usage lines with the real arity (``FILE...``, ``[SELECTOR...]``)."""
    if name is not None:
        entry = COMMANDS.get(name, ())
        command.rich_help_panel = entry[2] if len(entry) > 2 else MESSAGES
    if not command.short_help:
        command.short_help = short_help(command.help)
    for param in command.params:
        if isinstance(param, TyperArgument) and not isinstance(param, _Argument):
            param.__class__ = _Argument
        _plain_range(param)
        _plain_text(param)
    for sub in getattr(command, "commands", {}).values():
        finish(sub)


def _plain_text(param: Any) -> None:
    """No ``<str>`` beside a text argument or option in the help: the argument's own name says it
    (SELECTOR, FILE...), and an option without a metavar gets its long name (``--file`` -> FILE)."""
    from typer._click import types as click_types

    if type(param.type) is not click_types.StringParamType:
        return
    if isinstance(param, TyperArgument):
        param.type = _UNTYPED
    elif param.metavar is None and not getattr(param, "is_flag", False):
        long = next((opt for opt in param.opts if opt.startswith("--")), None)
        param.metavar = long.lstrip("-").upper().replace("-", "_") if long else None


def _untyped() -> Any:
    from typer._click import types as click_types

    class Untyped(click_types.StringParamType):
        def get_metavar(self, param: Any, ctx: Any) -> str | None:
            return ""  # rich help prints no type column for an empty metavar

    return Untyped()


_UNTYPED = _untyped()


def _plain_range(param: Any) -> None:
    """A number option's help without click's placeholders (``<int range> [x>=0]``): a metavar that
    names the value (N, NUMBER) and no range; an out-of-range value still says the range."""
    from typer._click import types as click_types  # typer 0.28 carries its own click

    kind = type(param.type)
    if not isinstance(param.type, click_types._NumberRangeBase) or getattr(kind, "plain", False):
        return
    if param.metavar is None and not isinstance(param, TyperArgument):
        param.metavar = "N" if isinstance(param.type, click_types.IntRange) else "NUMBER"

    class Plain(kind):  # type: ignore[valid-type, misc]
        plain = True

        def _describe_range(self) -> str:
            return ""  # the help's range column: nothing

        def convert(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                return super().convert(value, param, ctx)
            except click_types.BadParameter as exc:
                if "not in the range" not in exc.message:
                    raise
                self.fail(f"{value} is not in the range {kind._describe_range(self)}", param, ctx)

    param.type.__class__ = Plain


class _Argument(TyperArgument):
    """An argument shown as it is typed: ``FILE...`` (several), ``[SELECTOR]`` (optional), never
    typer's ``{FILE}``; a metavar with a space (``SELECTOR [FILE...]``) already says it all."""

    def make_metavar(self, ctx: Any, *, usage: bool = False) -> str:
        name = self.metavar or (self.name or "").upper()
        if " " in name:
            return name
        if self.nargs != 1 and not name.endswith("..."):
            name += "..."
        return f"[{name}]" if usage and not self.required else name


class ErrorStyleGroup(TyperGroup):
    """A typer group whose click errors are written in jmsctl's one error style, and whose
    commands are finished (``finish``) when it is built with them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, command in list(self.commands.items()):
            finish(command, name)

    def main(  # type: ignore[override]
        self, args: Any = None, prog_name: Any = None, complete_var: Any = None, standalone_mode: bool = True, **kwargs: Any
    ) -> Any:
        """click's main, with usage errors (and every other click error) in jmsctl's one error style
        (``jmsctl: error: ...``, exit 2; see cli/errors.py) instead of typer's boxes."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **kwargs)
        from typer._click import exceptions as click_errors  # typer 0.28 carries its own click

        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False, **kwargs)
        except click_errors.NoArgsIsHelpError:  # the help was printed as the error was made
            sys.exit(2)
        except click_errors.ClickException as exc:
            _click_error(exc, sys.argv[1:] if args is None else list(args))
            sys.exit(2)
        sys.exit(status if isinstance(status, int) else 0)


class _Group(ErrorStyleGroup):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        commands = _LazyCommands()
        commands.update(self.commands)
        self.commands = commands

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)


def _click_error(exc: Any, args: list[str]) -> None:
    """One line, as the README promises: ``jmsctl: error: CMD: message; see 'jmsctl CMD --help'``
    (click's usage line and its pointer to the help are folded into it, not three lines)."""
    from jmsctl.cli.errors import say

    ctx = getattr(exc, "ctx", None)
    path = ctx.command_path[len(ctx.find_root().command_path) :].strip() if ctx is not None else ""
    command = ctx.command_path if ctx is not None else " ".join(["jmsctl", *args[:1]] if args[:1] and args[0] in COMMANDS else ["jmsctl"])
    help_at = f"; see '{command} --help'"
    say(f"{path + ': ' if path else ''}{exc.format_message().rstrip('.')}{_dash_hint(exc, args, command)}{help_at}")


def _dash_hint(exc: Any, args: list[str], command: str) -> str:
    """For an unknown option that is a selector beginning with '-' (``-1 < x``, ``-x > 2``), where to put it."""
    name = getattr(exc, "option_name", None)
    if not isinstance(name, str) or not name.startswith("-") or name.startswith("--"):
        return ""
    given = [arg for arg in args if isinstance(arg, str) and arg.startswith(name) and arg != name] or [name]
    if any(re.search(r"[\s=<>'()]", arg) for arg in given) or re.fullmatch(r"-[0-9.]", name):
        from jmsctl.cli.errors import shell_word

        example = f"{command} [OPTIONS] -- {shell_word(given[0])}" + (" FILE..." if command.endswith("filter") else "")
        return f" (a selector that begins with '-' goes after `--`, with the options before it: {example})"
    return ""


def _show_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"jmsctl {VERSION}\n")
        raise typer.Exit(0)


def root_options(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version, help="Print jmsctl's version and exit."),
) -> None:
    # The root command's own options (no docstring: the app's help is its description).
    pass


HELP = (f"Jakarta Messaging (JMS) selectors and message dumps (jmsctl {VERSION}).\n\n"
        "Example: jmsctl filter \"JMSType = 'car'\" samples/orders.ndjson --count")

app = typer.Typer(
    name="jmsctl",
    help=HELP,
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish (values: cli/complete.py)
    pretty_exceptions_enable=False,
    cls=_Group,
)
app.callback()(root_options)


def main() -> None:
    try:
        _main()
    except SystemExit as exc:
        _finishing(exc.code)
        raise


def _finishing(code: object) -> None:
    """Python's exit after the command: a Ctrl-C from here on ends the process at once, rather than with a
    trace from Python's finalization. The command's work is done and said, so its status stands (and no
    second line is written after its last one) once what it wrote is flushed; a flush that fails or is
    cut (the signal inside the finalization's own flush) ends it 130. A status that is a message (Python
    prints it on the way out) keeps the start-up handler: 130."""
    if code is not None and not isinstance(code, int):
        _begin_starting()
        return
    # Every object alive now set aside from the cyclic collector: Python's finalization then does not walk
    # them all again (10-14 ms of every `check` or `filter`: bench/README.md, "Issue 36, fourth pass").
    # Objects are still freed as their counts drop; only cycles stay.
    gc.freeze()
    status = code or 0

    def interrupted(signum: int, frame: object) -> None:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # any failure here is "interrupted", said by the status
            os._exit(130)
        os._exit(status)

    _begin_starting(interrupted)


def _main() -> None:
    """Entry point: a closed pipe exits quietly, Ctrl-C exits 130, neither prints a traceback;
    text that cannot be encoded (lone surrogates from arguments that are not UTF-8) never stops output."""
    _robust_streams()
    try:
        _end_starting(_starting)  # from here Ctrl-C is KeyboardInterrupt, caught below (not while the import of this module ends)
        app(prog_name="jmsctl")  # also under python -m: completion scripts and usage name the command people type
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        sys.exit(130)
    except BrokenPipeError:
        # Python flushes stdout at exit; point it at devnull so that flush cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(128 + signal.SIGPIPE)
    except BaseException as exc:  # last: the clauses above come first
        # A signal a command turned into jmsctl.cleanup.Stopped outside the block that reports it (while it
        # writes the error it is ending with): that line stands, and the signal's status is the exit's.
        cleanup = sys.modules.get("jmsctl.cleanup")
        if cleanup is not None and isinstance(exc, cleanup.Stopped):
            sys.exit(exc.status)
        raise


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


# This module loaded (its classes too). Imported by a program (tests, a library user): Ctrl-C is KeyboardInterrupt
# again now. In the command line the start-up handler stays until _main's try, which catches KeyboardInterrupt:
# a Ctrl-C while Python ends this import (its module lock) would otherwise be a trace from importlib.
if not _command_line():
    _end_starting(_starting)

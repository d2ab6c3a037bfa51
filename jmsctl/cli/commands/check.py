"""``jmsctl check``: validate selectors from arguments, files (one per line) or stdin."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Optional

import orjson
import typer

from jmsctl import selector as sel
from jmsctl.analysis.encoded import GUARD_SECONDS
from jmsctl.cli.complete import names_for_selector
from jmsctl.cli.errors import fail
from jmsctl.cli.options import DIALECT_HELP, Dialect
from jmsctl.cli.render import Format, Source, concise, console, diagnostic_json, github, plain_output, print_full
from jmsctl.diagnostics import Diagnostic

if TYPE_CHECKING:  # rich is loaded only to print through it: "1 selector checked" on a pipe does not need it
    from rich.console import Console


def _from_lines(name: str, text: str) -> list[Source]:
    """One selector per line; blank lines and lines starting with '#' are skipped."""
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(Source(name, line, i, is_file=name != "<stdin>"))
    return out


def _read(path: str) -> str:
    """A file or stdin ('-') as UTF-8 text; stdin is decoded as strictly as a file, whatever the locale."""
    from jmsctl.messages.loader import InputError, opened

    name = "<stdin>" if path == "-" else path
    try:
        if path != "-":
            with opened(path) as f:
                return f.read().decode("utf-8")
        if sys.stdin is None:
            raise _IOFailure("<stdin>: closed")
        raw = getattr(sys.stdin, "buffer", None)
        return raw.read().decode("utf-8") if raw is not None else sys.stdin.read()
    except UnicodeDecodeError:
        raise _IOFailure(f"{name}: not UTF-8 text") from None
    except InputError as exc:
        raise _IOFailure(str(exc)) from None
    except OSError as exc:
        raise _IOFailure(f"{name}: {exc.strerror or exc}") from None


class _IOFailure(Exception):
    pass


def check(
    selectors: Optional[list[str]] = typer.Argument(  # noqa: UP045, B008
        None, metavar="SELECTOR...", autocompletion=names_for_selector, help="Selectors to check; '-' reads one selector per line from stdin."
    ),
    file: Optional[list[str]] = typer.Option(None, "--file", "-f", help="A file of selectors, one per line ('#' comments, blank lines skipped)."),  # noqa: UP045, B008
    output_format: Format = typer.Option(Format.full, "--format", help="full (carets, hints), concise, json or github annotations."),  # noqa: B008
    strict: bool = typer.Option(False, "--strict", help="Treat warnings as errors (exit 1)."),
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    portability: bool = typer.Option(False, "--portability", help="Also warn (W020-W030, with a witness message) where a broker dialect reads the selector differently from the standard."),
    against: Optional[list[str]] = typer.Option(None, "--against", metavar="DIALECT", help="Dialects --portability compares with (repeatable; default: every broker dialect but ibm)."),  # noqa: UP045, B008
    mistyped: bool = typer.Option(False, "--mistyped", help="With --portability: also try witnesses whose properties have a kind the selector does not expect (an int where LIKE wants a String)."),
    solver_timeout: float = typer.Option(GUARD_SECONDS, "--solver-timeout", min=0, metavar="SECONDS", help="A wall-clock guard on proving W040 (selects nothing) or W041 (selects everything) for one selector (the solver's budget is in its own resource units, so the warnings do not depend on the load); 0 turns them off."),
    fix: bool = typer.Option(False, "--fix", help="Print each selector fixed (proven fixes only; what each assumes, and the fixes not applied, on stderr)."),
    diff: bool = typer.Option(False, "--diff", help="Print the fixes as a unified diff (of each file, or of each argument) instead of the fixed selectors."),
    like: Optional[list[str]] = typer.Option(None, "--like", metavar="DUMP", help="W016 exactly: an unquoted word is warned when no message of DUMP carries a property of that name (repeatable)."),  # noqa: UP045, B008
    properties: Optional[list[str]] = typer.Option(None, "--properties", metavar="NAMES", help="W016 exactly: the property names the messages carry, comma-separated (repeatable)."),  # noqa: UP045, B008
) -> None:
    """Check selectors for errors and warnings.

    Selectors come as arguments, from files (-f, one a line) or stdin ('-'). Exit 0 all valid, 1 any invalid (or a warning with --strict), 2 usage or input error (an empty input too). The rules: docs/SEMANTICS.md.

    Example: jmsctl check -f samples/selectors.txt --format concise
    """
    sources: list[Source] = []
    texts: dict[str, str] = {}  # each file's whole text, for --diff
    args = selectors or []
    try:
        for i, text in enumerate(args, 1):
            if text == "-":
                texts["<stdin>"] = _read("-")
                sources.extend(_from_lines("<stdin>", texts["<stdin>"]))
            else:
                sources.append(Source("<arg>" if len(args) == 1 else f"<arg{i}>", text))
        for path in file or []:
            name = "<stdin>" if path == "-" else path
            texts[name] = _read(path)
            sources.extend(_from_lines(name, texts[name]))
    except _IOFailure as exc:
        fail(str(exc))
    if not args and not file:
        fail("check: give selectors as arguments, -f FILE, or '-' for stdin")
    if not sources:  # an empty file or stdin: nothing was checked, which is not "all valid" (grep -f /dev/null: 2)
        names = [p if p != "-" else "<stdin>" for p in [*(a for a in args if a == "-"), *(file or [])]]
        fail(f"{', '.join(dict.fromkeys(names))}: no selectors to check (empty input)")
    unknown = [d for d in against or [] if d not in sel.DIALECTS]
    if unknown:
        fail(f"check: unknown dialect {unknown[0]!r} for --against: one of {', '.join(sel.DIALECTS)}")
    if (against or mistyped) and not portability:
        fail("check: --against and --mistyped go with --portability")
    lint = _portability_lint(against, mistyped) if portability else None
    if like or properties:
        lint = carried_lint(like or [], properties or [], dialect.value, lint)
    from jmsctl.analysis.vacuity import with_vacuity

    lint = with_vacuity(lint, dialect.value, solver_timeout)
    with closed_pipe_exits_quietly():
        if fix or diff:
            from jmsctl.cli.commands.check_fix import report_fixes

            status = report_fixes(sources, texts, output_format is Format.json, diff, dialect.value, lint, portability, write_json)
        else:
            status = _report(sources, output_format, strict, dialect.value, lint)
    raise typer.Exit(status)


Lint = Callable[[str, tuple[Diagnostic, ...]], tuple[Diagnostic, ...]]


def _portability_lint(against: list[str] | None, mistyped: bool) -> Lint:
    """The selector's own diagnostics plus the portability lint's (imported only when asked for)."""
    from jmsctl.analysis import portability

    return lambda text, own: portability.combined(own, portability.diagnostics(text, against or None, mistyped=mistyped))


def carried_lint(like: list[str], properties: list[str], dialect: str, then: Lint | None) -> Lint:
    """W016 decided by the property names the dumps' messages carry (jmsctl/analysis/carried.py)."""
    from jmsctl.analysis import carried

    try:
        names = carried.names_in_dumps(like) | carried.names_in_lists(properties)
    except carried.CarriedError as exc:
        fail(f"--like: {exc}")

    def lint(text: str, own: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
        found = carried.refine(sel.analyze(text, dialect), own, names)
        return found if then is None else then(text, found)

    return lint


def _report(sources: list[Source], fmt: Format, strict: bool, dialect: str = "jakarta", lint: Lint | None = None) -> int:
    """Write the diagnostics; the text formats stream them, selector by selector (``| head`` sees them at once)."""
    con: Console | None = None  # made for the first line that rich prints (a plain summary needs none)
    json_results: list[dict[str, Any]] = []
    invalid = warnings = 0
    for src in sources:
        analysis = sel.analyze(src.text, dialect)
        found = analysis.diagnostics if lint is None else lint(src.text, analysis.diagnostics)
        found_warnings = [d for d in found if not d.is_error]
        bad = bool(analysis.errors) or (strict and bool(found_warnings))
        invalid += bad
        warnings += len(found_warnings)
        if fmt is Format.json:
            json_results.append({"source": src.name, "line": src.first_line, "selector": src.text, "valid": not bad,
                                 "diagnostics": [diagnostic_json(src, d) for d in found]})
        elif fmt is Format.full and found:
            con = con or pipe_aware(console())
            print_full(con, src, found)
        elif fmt is Format.github:
            for d in found:
                sys.stdout.write(github(src, d, as_error=strict) + "\n")  # --strict: a warning fails the run, so it is an error
        else:
            for d in found:
                sys.stdout.write(concise(src, d) + "\n")
    checked = len(sources)
    if fmt is Format.json:
        summary = {"checked": checked, "valid": checked - invalid, "invalid": invalid, "warnings": warnings}
        write_json({"selectors": json_results, "summary": summary})
    elif fmt is Format.full and con is None and plain_output():
        sys.stdout.write(summary_line(checked, invalid, warnings) + "\n")  # what rich prints there, without loading it
    elif fmt is Format.full:
        con = con or pipe_aware(console())
        con.print(summary_line(checked, invalid, warnings), markup=False, style="bold red" if invalid else "bold green")
    elif fmt is Format.github:
        # A notice in the log (and the annotations list): the run's outcome in one line, as full's last line.
        level = "error" if invalid else "notice"
        sys.stdout.write(f"::{level} title=jmsctl check::{summary_line(checked, invalid, warnings)}\n")
    return 1 if invalid else 0


def summary_line(checked: int, invalid: int, warnings: int) -> str:
    noun = "selector" if checked == 1 else "selectors"
    return f"{checked} {noun} checked: {checked - invalid} valid, {invalid} invalid, {warnings} warning{'s' if warnings != 1 else ''}"


# ----- shared by check, explain and test ----------------------------------------------------

_SIGPIPE = int(getattr(signal, "SIGPIPE", 13))
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def write_json(doc: Any) -> None:
    """Indented JSON on stdout, whatever the document holds.

    orjson refuses lone surrogates (a selector argument that was not valid UTF-8 arrives as
    U+DC80..U+DCFF) and nesting deeper than 254 levels (explain's tree of a deeply nested
    selector); the standard library writes both, and the surrogates become JSON escapes.
    """
    try:
        text = orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode()
    except orjson.JSONEncodeError:
        text = json.dumps(doc, indent=2, ensure_ascii=False)
        text = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    # In pieces: one huge write that a closing pipe cuts short "succeeds" with a short count, which
    # TextIOWrapper ignores; the next piece then fails as it should (see closed_pipe_exits_quietly).
    text += "\n"
    for i in range(0, len(text), _PIECE):
        sys.stdout.write(text[i : i + _PIECE])


_PIECE = 1 << 16


def pipe_aware(con: Console) -> Console:
    """A console that lets a closed pipe reach closed_pipe_exits_quietly (rich would exit 1 itself)."""
    setattr(con, "on_broken_pipe", _broken_pipe)  # noqa: B010 - an instance attribute overriding the method
    return con


def _broken_pipe() -> None:
    raise BrokenPipeError(errno.EPIPE, "Broken pipe")


@contextmanager
def closed_pipe_exits_quietly() -> Iterator[None]:
    """stdout closed early (``| head -1``): no traceback, and the status SIGPIPE gives (141), as
    filter and show do. Typer would exit 1 instead, which for check means 'invalid selectors'."""
    try:
        yield
        sys.stdout.flush()  # inside: a failing flush at interpreter exit would print a traceback
    except BrokenPipeError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())  # Python flushes stdout at exit: that must not fail again
            os.close(devnull)
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        raise typer.Exit(128 + _SIGPIPE) from None

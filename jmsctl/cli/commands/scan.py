"""``jmsctl scan PATH...``: find selectors in source and config files and check them where they are."""

from __future__ import annotations

import sys
from enum import Enum
from typing import Any, Optional

import typer

from jmsctl.analysis.encoded import GUARD_SECONDS
from jmsctl.cli.commands.check import carried_lint, closed_pipe_exits_quietly, pipe_aware, write_json
from jmsctl.cli.errors import fail, say
from jmsctl.cli.options import DIALECT_HELP, Dialect
from jmsctl.cli.render import Source, concise, console, diagnostic_json, github, print_full
from jmsctl.diagnostics import Diagnostic, locate
from jmsctl.scan import FileResult, scan_file
from jmsctl.scan.verify import Lint
from jmsctl.scan.walk import Filters, WalkError, files
from jmsctl.selector import DIALECTS, analyze

VERSION = "0.1.0"


class ScanFormat(str, Enum):
    full = "full"
    concise = "concise"
    json = "json"
    github = "github"
    sarif = "sarif"


def scan(
    paths: list[str] = typer.Argument(..., metavar="PATH", help="Files and directories to scan (directories: what .gitignore does not ignore)."),  # noqa: B008
    include: Optional[list[str]] = typer.Option(None, "--include", metavar="GLOB", help="Scan only files matching GLOB (a name, or a path with '/'); repeatable."),  # noqa: UP045, B008
    exclude: Optional[list[str]] = typer.Option(None, "--exclude", metavar="GLOB", help="Skip files and directories matching GLOB; repeatable."),  # noqa: UP045, B008
    output_format: ScanFormat = typer.Option(ScanFormat.full, "--format", help="full (carets, hints), concise, json, github annotations or sarif (SARIF 2.1.0)."),  # noqa: B008
    strict: bool = typer.Option(False, "--strict", help="Treat warnings as errors (exit 1)."),
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    portability: bool = typer.Option(False, "--portability", help="Also warn, as check does, where a broker dialect reads a selector differently from the standard (selectors known whole)."),
    against: Optional[list[str]] = typer.Option(None, "--against", metavar="DIALECT", help="Dialects --portability compares with (repeatable; default: every broker dialect but ibm)."),  # noqa: UP045, B008
    mistyped: bool = typer.Option(False, "--mistyped", help="With --portability: also try witnesses whose properties have a kind the selector does not expect."),
    like: Optional[list[str]] = typer.Option(None, "--like", metavar="DUMP", help="W016 exactly: an unquoted word is warned when no message of DUMP carries a property of that name (repeatable)."),  # noqa: UP045, B008
    properties: Optional[list[str]] = typer.Option(None, "--properties", metavar="NAMES", help="W016 exactly: the property names the messages carry, comma-separated (repeatable)."),  # noqa: UP045, B008
    solver_timeout: float = typer.Option(GUARD_SECONDS, "--solver-timeout", min=0, metavar="SECONDS", help="A wall-clock guard on proving W040 (selects nothing) or W041 (selects everything) for one selector (the solver's budget is in its own resource units, so the warnings do not depend on the load); 0 turns them off. Not under --dialect artemis|activemq: the solver encodes only the standard's and ibm's reading."),
    fix: bool = typer.Option(False, "--fix", help="Rewrite the files in place with the proven fixes, where a selector is one constant literal (what each assumes on stderr); then report what remains."),
    diff: bool = typer.Option(False, "--diff", help="Print the fixes as a unified diff (git apply takes it) instead of writing them; exit 1 when there is one."),
) -> None:
    """Find selectors in source and config files, check them in place.

    Each is checked at its line and column. Reads Java, Kotlin, Scala, Groovy, XML, .properties, YAML and Python files. Exit 0 clean, 1 findings, 2 usage or I/O error.

    Example: jmsctl scan src/ --format concise
    """
    unknown = [d for d in against or [] if d not in DIALECTS]
    if unknown:
        fail(f"scan: unknown dialect {unknown[0]!r} for --against: one of {', '.join(DIALECTS)}")
    if (against or mistyped) and not portability:
        fail("scan: --against and --mistyped go with --portability")
    lint = _portability_lint(against, mistyped) if portability else None
    if like or properties:
        lint = carried_lint(like or [], properties or [], dialect.value, lint)
    from jmsctl.analysis.vacuity import with_vacuity

    lint = with_vacuity(lint, dialect.value, solver_timeout)
    filters = Filters(tuple(include or ()), tuple(exclude or ()))
    results: list[FileResult] = []
    failures: list[str] = []
    scanned = 0
    for path in paths:
        try:
            for name in files(path, filters):
                scanned += 1
                result = _scan_file(name, failures, dialect.value, lint)
                if result is not None:
                    results.append(result)
        except WalkError as exc:
            failures.append(str(exc))
    if fix and diff:
        fail("scan: --fix writes the files, --diff prints the patch instead: give one")
    applied: list[dict[str, Any]] | None = [] if fix else None
    if fix or diff:
        from jmsctl.cli.commands.scan_fix import apply_fixes

        # A file read with cuts (a large one, scan/cuts.py) is fixed from its whole text.
        results = [r if not (r.cuts and r.selectors) else _scan_file(r.path, failures, dialect.value, lint, whole=True) or r
                   for r in results]
        with closed_pipe_exits_quietly():
            status, written = apply_fixes(results, dialect.value, lint, write=fix, failures=failures, applied=applied)
        if diff or failures:
            for message in failures:
                say(message)
            raise typer.Exit(2 if failures else status)
        results = [r if r.path not in written else _scan_file(r.path, failures, dialect.value, lint) or r for r in results]
    for message in failures:
        say(message)
    with closed_pipe_exits_quietly():
        status = _report(results, scanned, output_format, strict, applied)
    raise typer.Exit(2 if failures else status)


def _portability_lint(against: list[str] | None, mistyped: bool) -> Lint:
    from jmsctl.analysis import portability

    return lambda text, own: portability.combined(own, portability.diagnostics(text, against or None, mistyped=mistyped))


def _scan_file(name: str, failures: list[str], dialect: str, lint: Lint | None, whole: bool = False) -> FileResult | None:
    try:
        return scan_file(name, analyze_text=lambda text: analyze(text, dialect), lint=lint, whole=whole)
    except OSError as exc:
        failures.append(f"{name}: {exc.strerror or exc}")
        return None
    except (ValueError, LookupError, RecursionError, MemoryError) as exc:  # a defect of an extractor: said, never a traceback
        failures.append(f"{name}: not scanned: {type(exc).__name__}: {exc}")
        return None


def _items(results: list[FileResult]) -> list[tuple[FileResult, Diagnostic]]:
    out: list[tuple[FileResult, Diagnostic]] = []
    for r in results:
        out.extend((r, d) for d in r.notes)
        for c in r.selectors:
            out.extend((r, d) for d in c.diagnostics)
    return out


def _report(results: list[FileResult], scanned: int, fmt: ScanFormat, strict: bool, applied: list[dict[str, Any]] | None = None) -> int:
    selectors = [c for r in results for c in r.selectors]
    invalid = sum(1 for c in selectors if c.errors or (strict and c.warnings))
    warnings = sum(c.warnings for c in selectors)
    dynamic = sum(1 for c in selectors if c.found.dynamic or any(d.code == "I001" for d in c.diagnostics))
    summary = {"files": scanned, "selectors": len(selectors), "valid": len(selectors) - invalid, "invalid": invalid,
               "built_at_run_time": dynamic, "warnings": warnings}
    if fmt is ScanFormat.sarif:
        from jmsctl.scan.sarif import document

        write_json(document(((r.path, r.text, d) for r, d in _items(results)), VERSION))
    elif fmt is ScanFormat.json:
        doc = {"selectors": [_selector_json(r, c, strict) for r in results for c in r.selectors],
               "files_not_scanned": [_diagnostic_json(r, d) for r in results for d in r.notes],
               "summary": summary}
        if applied is not None:  # after --fix: what was written, at the places the files held before
            doc["fixes_applied"] = applied
        write_json(doc)
    elif fmt is ScanFormat.full:
        con = pipe_aware(console())
        for r, d in _items(results):
            print_full(con, _source(r), [d])
        con.print(f"{len(selectors)} selector{'s' if len(selectors) != 1 else ''} in {scanned} file{'s' if scanned != 1 else ''}: "
                  f"{len(selectors) - invalid} valid, {invalid} invalid, {dynamic} built at run time, "
                  f"{warnings} warning{'s' if warnings != 1 else ''}", markup=False, style="bold red" if invalid else "bold green")
    else:
        render = concise if fmt is ScanFormat.concise else github
        for r, d in _items(results):
            sys.stdout.write(render(_source(r), d) + "\n")
    return 1 if invalid else 0


def _source(r: FileResult) -> Source:
    return Source(r.path, r.text, 1, is_file=True)


def _selector_json(r: FileResult, c: Any, strict: bool) -> dict[str, Any]:
    at = locate(r.text, c.found.start)
    bad = bool(c.errors) or (strict and bool(c.warnings))
    return {"source": r.path, "line": at.line, "column": at.column, "kind": c.found.kind, "selector": c.text,
            "destination": c.found.destination or None,  # where the code or config names it: overlap groups by it
            "built_at_run_time": any(d.code == "I001" for d in c.diagnostics), "valid": not bad,
            "diagnostics": [_diagnostic_json(r, d) for d in c.diagnostics]}


def _diagnostic_json(r: FileResult, d: Diagnostic) -> dict[str, Any]:
    out = diagnostic_json(_source(r), d)
    if r.cuts:
        out["offset"] = r.file_offset(d.span.start)
    return out


__all__ = ["scan"]

"""``jmsctl check``: validate selectors from arguments, files (one per line) or stdin."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import orjson
import typer

from jmsctl import selector as sel
from jmsctl.cli.render import Format, Source, concise, console, diagnostic_json, github, print_full


def _from_lines(name: str, text: str) -> list[Source]:
    """One selector per line; blank lines and lines starting with '#' are skipped."""
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(Source(name, line, i, is_file=name != "<stdin>"))
    return out


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise _IOFailure(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise _IOFailure(f"{path}: {exc.strerror or exc}") from None


class _IOFailure(Exception):
    pass


def check(
    selectors: Optional[list[str]] = typer.Argument(None, help="Selectors to check; '-' reads one selector per line from stdin."),  # noqa: UP045, B008
    file: Optional[list[str]] = typer.Option(None, "--file", "-f", help="A file of selectors, one per line ('#' comments, blank lines skipped)."),  # noqa: UP045, B008
    output_format: Format = typer.Option(Format.full, "--format", help="full (carets, hints), concise, json or github annotations."),  # noqa: B008
    strict: bool = typer.Option(False, "--strict", help="Treat warnings as errors (exit 1)."),
) -> None:
    """Validate selectors. Exit 0 all valid, 1 any invalid, 2 usage or I/O error."""
    sources: list[Source] = []
    args = selectors or []
    try:
        for i, text in enumerate(args, 1):
            if text == "-":
                sources.extend(_from_lines("<stdin>", _read("-")))
            else:
                sources.append(Source("<arg>" if len(args) == 1 else f"<arg{i}>", text))
        for path in file or []:
            sources.extend(_from_lines("<stdin>" if path == "-" else path, _read(path)))
    except _IOFailure as exc:
        console(stderr=True).print(f"jmsctl check: {exc}", markup=False)
        raise typer.Exit(2) from None
    if not args and not file:
        console(stderr=True).print("jmsctl check: give selectors as arguments, -f FILE, or '-' for stdin", markup=False)
        raise typer.Exit(2)
    raise typer.Exit(_report(sources, output_format, strict))


def _report(sources: list[Source], fmt: Format, strict: bool) -> int:
    con = console()
    results = []
    invalid = warnings = 0
    for src in sources:
        analysis = sel.analyze(src.text)
        bad = bool(analysis.errors) or (strict and bool(analysis.warnings))
        invalid += bad
        warnings += len(analysis.warnings)
        results.append((src, analysis, bad))
    if fmt is Format.json:
        doc = {
            "selectors": [
                {"source": s.name, "line": s.first_line, "selector": s.text, "valid": not bad,
                 "diagnostics": [diagnostic_json(s, d) for d in a.diagnostics]}
                for s, a, bad in results
            ],
            "summary": {"checked": len(results), "valid": len(results) - invalid, "invalid": invalid, "warnings": warnings},
        }
        sys.stdout.write(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        for src, analysis, _ in results:
            if fmt is Format.full:
                print_full(con, src, analysis.diagnostics)
            else:
                render = concise if fmt is Format.concise else github
                for d in analysis.diagnostics:
                    sys.stdout.write(render(src, d) + "\n")
        if fmt is Format.full:
            noun = "selector" if len(results) == 1 else "selectors"
            con.print(f"{len(results)} {noun} checked: {len(results) - invalid} valid, {invalid} invalid, {warnings} warning{'s' if warnings != 1 else ''}",
                      markup=False, style="bold red" if invalid else "bold green")
    return 1 if invalid else 0

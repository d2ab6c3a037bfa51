"""``jmsctl test``: run selector test files (JSONL cases) and report every failure."""

from __future__ import annotations

import sys

import orjson
import typer

from jmsctl.cli.render import console
from jmsctl.testcases import CaseResult, run_file


def test(
    files: list[str] = typer.Argument(..., help="JSONL files of selector test cases."),  # noqa: B008
    output_format: str = typer.Option("text", "--format", help="text or json."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="List passing cases too."),
) -> None:
    """Run selector test cases; summary 'N passed, M failed'; exit 1 on any failure, 2 on I/O error."""
    err = console(stderr=True)
    results: list[CaseResult] = []
    for path in files:
        try:
            results.extend(run_file(path))
        except OSError as exc:
            err.print(f"jmsctl test: {path}: {exc.strerror or exc}", markup=False)
            raise typer.Exit(2) from None
    failed = [r for r in results if not r.passed]
    passed = len(results) - len(failed)
    if output_format == "json":
        doc = {"passed": passed, "failed": len(failed), "failures": [vars(r) for r in failed]}
        sys.stdout.write(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        con = console()
        for r in results:
            if not r.passed:
                con.print(f"[bold red]FAIL[/] {r.id} [dim]({r.location})[/]")
                con.print(f"  selector: {r.selector!r}", markup=False)
                con.print(f"  expected: {r.expected}", markup=False)
                con.print(f"  actual:   {r.actual}" + (f" ({r.detail})" if r.detail else ""), markup=False)
            elif verbose:
                con.print(f"[green]ok[/]   {r.id}")
        sys.stdout.flush()
        print(f"{passed} passed, {len(failed)} failed")
    raise typer.Exit(1 if failed else 0)

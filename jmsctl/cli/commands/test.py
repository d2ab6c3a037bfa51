"""``jmsctl test``: run selector test files (JSONL cases) and report every failure."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from typing import Any

import typer

from jmsctl.cli.commands.check import closed_pipe_exits_quietly, pipe_aware, write_json
from jmsctl.cli.errors import fail, say
from jmsctl.cli.options import TextOrJson
from jmsctl.cli.render import console, escape
from jmsctl.messages.loader import InputError
from jmsctl.testcases import CaseResult, InvalidLine, read_cases, run_case


def test(
    files: list[str] = typer.Argument(..., metavar="FILE...", help="JSONL files of selector test cases."),  # noqa: B008
    output_format: TextOrJson = typer.Option(TextOrJson.text, "--format", help="text (for a person) or json."),  # noqa: B008
    verbose: bool = typer.Option(False, "--verbose", help="List passing cases too."),
) -> None:
    """Run selector test cases (JSONL files).

    One case a line: {"id": "o-1", "selector": "weight > 2500", "message": {"properties": {"weight": 2600}}, "expect": "match"}; expect is match, nomatch, error or valid.

    Ends with 'N passed, M failed'. Exit 0 all passed, 1 any failure, 2 a malformed case or an unreadable file. The rules: docs/SEMANTICS.md.

    Example: jmsctl test samples/orders-tests.jsonl
    """
    results: list[CaseResult] = []
    for path in files:
        try:
            results.extend(_run_file(path))
        except InputError as exc:
            fail(str(exc))
    # A case that cannot be run (not JSON, not a case) is bad input, not a failing selector: exit 2, as grep.
    invalid = [r for r in results if r.actual == INVALID]
    failed = [r for r in results if not r.passed and r.actual != INVALID]
    passed = len(results) - len(failed) - len(invalid)
    for r in invalid:
        say(f"{r.location}: invalid test case{f' {r.id!r}' if r.id not in ('?', r.location) else ''}: {r.detail}")
    with closed_pipe_exits_quietly():
        if output_format is TextOrJson.json:
            write_json({"passed": passed, "failed": len(failed), "invalid": len(invalid),
                        "failures": [vars(r) for r in failed], "invalid_cases": [vars(r) for r in invalid]})
        else:
            con = pipe_aware(console())
            for r in results:
                if r.actual == INVALID:
                    continue
                if not r.passed:
                    con.print(f"[bold red]FAIL[/] {escape(r.id)}" + (f" [dim]({escape(r.location)})[/]" if r.id != r.location else ""))
                    con.print(f"  selector: {r.selector!r}", markup=False)
                    con.print(f"  expected: {r.expected}", markup=False)
                    con.print(f"  actual:   {r.actual}" + (f" ({r.detail})" if r.detail else ""), markup=False)
                elif verbose:
                    con.print(f"[green]ok[/]   {escape(r.id)}")
            sys.stdout.flush()
            print(f"{passed} passed, {len(failed)} failed" + (f", {len(invalid)} invalid" if invalid else ""))
    raise typer.Exit(2 if invalid else 1 if failed else 0)


INVALID = "invalid test case"  # the ``actual`` of a case that could not be run (testcases._problem)


SNIFF = 5  # lines of a file read before it is judged no test-case file (as a dump is judged: messages/rejections.py)


def _cases(path: str) -> Iterator[tuple[str, Any]]:
    """``read_cases``, after a look at the first SNIFF lines: when none of them is a JSON object with
    a "selector" (a message dump, a selector list, prose), the file is no test-case file: one error
    for the file (InputError), not one per line."""
    cases = read_cases(path)
    first = list(itertools.islice(cases, SNIFF))
    if first and not any(isinstance(case, dict) and "selector" in case for _, case in first):
        name = "<stdin>" if path == "-" else path
        raise InputError(f'{name}: not a test-case file: its first {len(first)} line{"s" if len(first) > 1 else ""} hold no case '
                         '(a JSON object with "selector" and "expect" a line; see jmsctl test --help)')
    yield from first
    yield from cases


def _run_file(path: str) -> Iterator[CaseResult]:
    """Every case of a file; a case that makes the runner fail is a failed case that says why, not a traceback."""
    for location, case in _cases(path):
        if isinstance(case, InvalidLine):
            yield CaseResult("?", location, "", "?", INVALID, False, f"invalid JSON: {case.reason}")
            continue
        try:
            yield run_case(case, location)
        except Exception as exc:  # a malformed case the runner does not check for (e.g. "warnings": 5)
            fields = case if isinstance(case, dict) else {}
            selector = fields.get("selector")
            yield CaseResult(str(fields.get("id", location)), location, selector if isinstance(selector, str) else "",
                             str(fields.get("expect", "?")), INVALID, False,
                             f"the case could not be run: {type(exc).__name__}: {exc}")

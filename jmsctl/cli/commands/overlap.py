"""``jmsctl overlap``: can two consumers' selectors both select one message? Every pair: disjoint
(proved) or a witness both select (competing consumers on a queue: the broker picks one)."""

from __future__ import annotations

import functools
import io
import itertools
import sys
from typing import Any, Optional

import orjson
import typer

from jmsctl.analysis import solver
from jmsctl.analysis.encoded import DEFAULT_RLIMIT
from jmsctl.cli import sets
from jmsctl.cli.commands.check import closed_pipe_exits_quietly, pipe_aware
from jmsctl.cli.errors import fail
from jmsctl.cli.options import DIALECT_HELP, Dialect, TextOrJson
from jmsctl.cli.render import Source, console


def overlap(
    selectors: Optional[list[str]] = typer.Argument(None, metavar="SELECTOR...", help="Selectors; '-' reads stdin: one a line, or the output of `jmsctl scan --format json`."),  # noqa: UP045, B008
    file: Optional[list[str]] = typer.Option(None, "--file", "-f", help="A file of selectors, one a line ('#' comments)."),  # noqa: UP045, B008
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    timeout: float = typer.Option(solver.DEFAULT_TIMEOUT, "--timeout", min=0.01, help=sets.TIMEOUT_HELP),
    rlimit: int = typer.Option(DEFAULT_RLIMIT, "--rlimit", min=1, metavar="UNITS", help=sets.RLIMIT_HELP),
    output_format: TextOrJson = typer.Option(TextOrJson.text, "--format", help="text (the witness as show prints it) or json (one object a pair)."),  # noqa: B008
) -> None:
    """Prove no message is selected by two selectors, or show one.

    Every pair is compared. Exit 0 all disjoint (proved), 1 some overlap (with a witness selected by both), 2 usage or input error, 3 unknown.

    Example: jmsctl overlap "region = 'EU'" "region <> 'US' AND amount > 100"
    """
    if not selectors and not file:
        fail("overlap: give selectors as arguments, -f FILE, or '-' for stdin")
    groups = _scan_groups() if selectors == ["-"] and not file else None
    if groups is None:
        groups = {None: sets.sources(selectors or [], file or [])}
    for srcs in groups.values():
        sets.validated(srcs, dialect.value)
    if sum(len(s) for s in groups.values()) < 2:
        fail("overlap: at least two selectors are needed")
    printer = sets.Printer(output_format is TextOrJson.json, dialect.value, pipe_aware(console()))
    with closed_pipe_exits_quietly():
        for destination, srcs in groups.items():
            for a, b in itertools.combinations(srcs, 2):
                answer = sets.ask(functools.partial(solver.overlap, a.text, b.text, dialect.value, timeout, rlimit=rlimit))
                headline = {"disjoint": "no message is selected by both", "overlap": "a message both select",
                            "unknown": "no answer"}[answer.result]
                if destination is not None:
                    headline += f" (destination {destination})"
                extra = {"destination": destination} if destination is not None else None
                printer.answer(answer, (sets.where(a), sets.where(b)), (a.text, b.text), headline, extra)
        if not printer.json:
            sets.summary(printer.console, printer, "disjoint", "overlap")
    raise typer.Exit(printer.status)


def _scan_groups() -> dict[Any, list[Source]] | None:
    """stdin: scan's JSON document (each selector known whole and valid, at file:line, by destination),
    or else selectors one a line (None: the caller reads them)."""
    raw = sys.stdin.buffer.read() if sys.stdin is not None else b""
    if not raw.lstrip().startswith(b"{"):
        sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")  # read again as lines
        return None
    try:
        doc = orjson.loads(raw)
        items = doc["selectors"]
        if not isinstance(items, list):
            raise TypeError
    except (orjson.JSONDecodeError, KeyError, TypeError):
        fail("<stdin>: not the output of `jmsctl scan --format json` (a JSON object with a 'selectors' list)")
    groups: dict[Any, list[Source]] = {}
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("selector"), str):
            fail(f"<stdin>: selectors[{i}]: not a scan result (no 'selector' string)")
        where = f"{item.get('source', '?')}:{item.get('line', '?')}"
        if item.get("built_at_run_time") or not item.get("valid", True):
            sys.stderr.write(f"jmsctl: note: {where}: skipped ({'built at run time' if item.get('built_at_run_time') else 'invalid'})\n")
            continue
        groups.setdefault(item.get("destination"), []).append(Source(where, item["selector"]))
    return groups

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
    witness: Optional[str] = typer.Option(None, "--witness", metavar="FILE", help=sets.WITNESS_HELP),  # noqa: UP045
    show_all: bool = typer.Option(False, "--all", help="Text: also each disjoint pair, and each witness as a table (show's)."),
    output_format: TextOrJson = typer.Option(TextOrJson.text, "--format", help="text (the witness as show prints it) or json (one object a pair)."),  # noqa: B008
) -> None:
    """Prove no message is selected by two selectors, or show one.

    Every pair is compared. Text: a matrix of the answers, then the overlapping pairs with their witnesses, then the unknown ones (--all: the disjoint ones too). Exit 0 all disjoint (proved), 1 some overlap (with a witness selected by both), 2 usage or input error, 3 unknown.

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
    printer = sets.Printer(output_format is TextOrJson.json, dialect.value, pipe_aware(console()), table=show_all)
    with sets.witness_output(witness) as printer.witnesses, closed_pipe_exits_quietly():
        for destination, srcs in groups.items():
            answers: dict[tuple[int, int], solver.Answer] = {}
            for (i, a), (j, b) in itertools.combinations(enumerate(srcs), 2):
                answers[i, j] = answer = sets.ask(functools.partial(solver.overlap, a.text, b.text, dialect.value, timeout, rlimit=rlimit))
                if printer.json:
                    extra = {"destination": destination} if destination is not None else {}
                    extra["sources"] = [sets.where(a), sets.where(b)]  # file:line (scan's, -f's), <argN> for arguments
                    printer.answer(answer, (sets.where(a), sets.where(b)), (a.text, b.text), "", extra)
            if not printer.json:
                _text(printer, destination, srcs, answers, show_all)
        if not printer.json:
            sets.summary(printer.console, printer, "disjoint", "overlap")
    raise typer.Exit(printer.status)


HEADLINES = {"disjoint": "no message is selected by both", "overlap": "a message both select", "unknown": "no answer"}
MARKS = {"overlap": "X", "disjoint": ".", "unknown": "?"}


def _text(printer: sets.Printer, destination: Any, srcs: list[Source], answers: dict[tuple[int, int], solver.Answer],
          show_all: bool) -> None:
    """A person's view of one group: the matrix (X overlap, . disjoint, ? unknown), then the
    overlapping pairs, then the unknown ones; the disjoint pairs only with --all."""
    from rich.text import Text

    con = printer.console
    width = len(str(len(srcs)))
    title = f"{len(srcs)} selectors" + (f", destination {destination}" if destination is not None else "")
    con.print(Text(title, style="bold"))
    con.print(" " * (width + 2) + " ".join(f"{j + 1:>{width}}" for j in range(len(srcs))))
    for i, src in enumerate(srcs):
        cells = ["-" if i == j else MARKS[answers[min(i, j), max(i, j)].result] for j in range(len(srcs))]
        con.print(Text(f"{i + 1:>{width}}  " + " ".join(f"{c:>{width}}" for c in cells) + f"  {sets.where(src)}: ") + Text(src.text))
    con.print(Text("X overlap, . disjoint (proved), ? unknown", style="dim"))
    con.print()
    order = ("overlap", "unknown", "disjoint") if show_all else ("overlap", "unknown")
    for result in order:
        for (i, j), answer in answers.items():
            if answer.result == result:
                a, b = srcs[i], srcs[j]
                printer.answer(answer, (f"{i + 1} {sets.where(a)}", f"{j + 1} {sets.where(b)}"), (a.text, b.text), HEADLINES[result])
    for answer in answers.values():  # the counts of the pairs not printed
        if answer.result not in order:
            printer.proved += 1


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

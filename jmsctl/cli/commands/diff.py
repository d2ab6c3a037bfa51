"""``jmsctl diff``: do two selectors select the same messages? A proof, or a witness selected by one."""

from __future__ import annotations

import functools
from typing import Optional

import typer

from jmsctl.analysis import solver
from jmsctl.analysis.encoded import DEFAULT_RLIMIT
from jmsctl.cli import sets
from jmsctl.cli.commands.check import closed_pipe_exits_quietly, pipe_aware
from jmsctl.cli.errors import fail
from jmsctl.cli.options import DIALECT_HELP, Dialect, TextOrJson
from jmsctl.cli.render import console


def diff(
    selectors: Optional[list[str]] = typer.Argument(None, metavar="OLD NEW", help="The two selectors to compare."),  # noqa: UP045, B008
    file: Optional[list[str]] = typer.Option(None, "--file", "-f", help="Twice: -f OLD -f NEW, selectors paired by line ('#' comments and blank lines skipped)."),  # noqa: UP045, B008
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    timeout: float = typer.Option(solver.DEFAULT_TIMEOUT, "--timeout", min=0.01, help=sets.TIMEOUT_HELP),
    rlimit: int = typer.Option(DEFAULT_RLIMIT, "--rlimit", min=1, metavar="UNITS", help=sets.RLIMIT_HELP),
    witness: Optional[str] = typer.Option(None, "--witness", metavar="FILE", help=sets.WITNESS_HELP),  # noqa: UP045
    output_format: TextOrJson = typer.Option(TextOrJson.text, "--format", help="text (the witness as show prints it) or json (one object a pair)."),  # noqa: B008
) -> None:
    """Prove two selectors select the same messages, or show a witness.

    Exit 0 equivalent (proved), 1 different (with a witness message and each selector's verdict), 2 usage or input error, 3 unknown (the solver spent its --rlimit budget, or the --timeout guard fired).

    Example: jmsctl diff "NOT (a > 1)" "a <= 1"
    """
    args, files = selectors or [], file or []
    if args and files:
        fail("diff: give two selectors, or -f OLD -f NEW, not both")
    if files:
        if len(files) != 2:
            fail("diff: -f takes two files, OLD and NEW")
        old, new = sets.file_sources(files[0]), sets.file_sources(files[1])
        if len(old) != len(new):
            fail(f"diff: {files[0]} has {len(old)} selectors and {files[1]} {len(new)}: they are paired by line")
        if not old:
            fail(f"diff: {files[0]}: no selectors to compare (empty input)")
    else:
        if len(args) != 2:
            fail("diff: give two selectors, OLD and NEW (or -f OLD -f NEW)")
        old, new = sets.sources(args[:1], []), sets.sources(args[1:], [])
    sets.validated([*old, *new], dialect.value)
    printer = sets.Printer(output_format is TextOrJson.json, dialect.value, pipe_aware(console()))
    with sets.witness_output(witness) as printer.witnesses, closed_pipe_exits_quietly():
        for a, b in zip(old, new, strict=True):
            answer = sets.ask(functools.partial(solver.equivalent, a.text, b.text, dialect.value, timeout, rlimit=rlimit))
            headline = {"equivalent": "the same messages are selected", "different": "a message selected by one only",
                        "unknown": "no answer"}[answer.result]
            labels = (f"old {sets.where(a)}", f"new {sets.where(b)}") if files else ("old", "new")
            printer.answer(answer, labels, (a.text, b.text), headline, {"sources": [sets.where(a), sets.where(b)]} if files else None)
        if not printer.json and len(old) > 1:
            sets.summary(printer.console, printer, "equivalent", "different")
    raise typer.Exit(printer.status)

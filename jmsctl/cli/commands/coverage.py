"""``jmsctl coverage``: does some consumer select every message? A proof, or a witness selected by
none (on a queue such a message is stuck: no consumer ever takes it)."""

from __future__ import annotations

from typing import Optional

import orjson
import typer

from jmsctl.analysis import solver
from jmsctl.analysis.encoded import DEFAULT_RLIMIT
from jmsctl.analysis.smt import Domain
from jmsctl.cli import sets
from jmsctl.cli.commands.check import closed_pipe_exits_quietly, pipe_aware
from jmsctl.cli.errors import fail
from jmsctl.cli.options import DIALECT_HELP, Dialect, TextOrJson
from jmsctl.cli.render import Source, console


def coverage(
    selectors: Optional[list[str]] = typer.Argument(None, metavar="SELECTOR...", help="The consumers' selectors; '-' reads one a line from stdin."),  # noqa: UP045, B008
    file: Optional[list[str]] = typer.Option(None, "--file", "-f", help="A file of selectors, one a line ('#' comments)."),  # noqa: UP045, B008
    given: Optional[str] = typer.Option(None, "--given", metavar="SELECTOR", help="Only messages this selector selects (what the producers send)."),  # noqa: UP045
    like: Optional[str] = typer.Option(None, "--like", metavar="DUMP", help="Only messages shaped like the dump's: its names with the types they have there (absent where some message lacks one), values free. A `jmsctl profile --format json` document works too."),  # noqa: UP045
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    timeout: float = typer.Option(solver.DEFAULT_TIMEOUT, "--timeout", min=0.01, help=sets.TIMEOUT_HELP),
    rlimit: int = typer.Option(DEFAULT_RLIMIT, "--rlimit", min=1, metavar="UNITS", help=sets.RLIMIT_HELP),
    witness: Optional[str] = typer.Option(None, "--witness", metavar="FILE", help=sets.WITNESS_HELP),  # noqa: UP045
    output_format: TextOrJson = typer.Option(TextOrJson.text, "--format", help="text (the witness as show prints it) or json (one object)."),  # noqa: B008
) -> None:
    """Prove every message is selected by some selector, or show one.

    Exit 0 covered (proved), 1 gap (with a witness selected by none), 2 usage or input error, 3 unknown.

    Example: jmsctl coverage "type = 'sports'" "type = 5" "value <= 3"
    """
    srcs = sets.sources(selectors or [], file or [])
    if not srcs:
        fail("coverage: give the consumers' selectors as arguments, -f FILE or '-' for stdin")
    given_src = Source("--given", given) if given is not None else None
    sets.validated([*srcs, *([given_src] if given_src else [])], dialect.value)
    domain = _shape_domain(like) if like is not None else Domain()
    printer = sets.Printer(output_format is TextOrJson.json, dialect.value, pipe_aware(console()))
    texts = [s.text for s in srcs]
    with sets.witness_output(witness) as printer.witnesses, closed_pipe_exits_quietly():
        answer = sets.ask(lambda: solver.coverage(texts, given, dialect.value, timeout, domain, rlimit=rlimit))
        what = "messages" + (" the --given selector selects" if given is not None else "") + (f" shaped like {like}" if like else "")
        headline = {"covered": f"every one of the {what} is selected", "gap": f"one of the {what} is selected by none",
                    "unknown": "no answer"}[answer.result]
        labels = [sets.where(s) for s in srcs] + (["--given"] if given is not None else [])
        printer.answer(answer, labels, [*texts, *([given] if given is not None else [])], headline, given=given)
    raise typer.Exit(printer.status)


def _shape_domain(path: str) -> Domain:
    """The messages shaped like a dump (or a profile document): per name its types, and absent when
    some message lacks it; names the dump never has are absent."""
    from jmsctl.analysis.profile import profile_records
    from jmsctl.analysis.shape import Shape
    from jmsctl.messages.loader import InputError, read_records

    shape = _profile_document(path)
    if shape is None:
        rejected: list[str] = []

        def records():  # type: ignore[no-untyped-def]
            for record in read_records(path):
                if record.error is not None and len(rejected) < 1:
                    rejected.append(f"{record.location}: {record.error.field}: {record.error.reason}")
                yield record

        try:
            shape = Shape.from_profile(profile_records(records()))
        except InputError as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"{path}: {exc.strerror or exc}")
        if rejected:
            fail(f"{rejected[0]} (a shape needs every message of --like; `jmsctl validate` lists them all)")
    return Domain({s.name: frozenset({*s.types, *([None] if s.absent else [])}) for s in shape}, closed=True)


def _profile_document(path: str) -> Shape | None:  # type: ignore[name-defined] # noqa: F821
    from jmsctl.analysis.shape import Shape

    try:
        with open(path, "rb") as f:
            head = f.read(1 << 20)
            if not head.lstrip().startswith(b"{") or b'"profile"' not in head:
                return None
            doc = orjson.loads(head + f.read())
    except (OSError, orjson.JSONDecodeError):
        return None
    try:
        return Shape.from_json(doc)
    except ValueError as exc:
        fail(f"{path}: {exc}")

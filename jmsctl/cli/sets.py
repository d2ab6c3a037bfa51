"""What ``diff``, ``overlap`` and ``coverage`` share: reading selectors, asking the solver, and
printing its answers (text for a person, one JSON object a line for a program) with their exit status.

Text shows the witness the way ``show`` does, its JSON line (every command reads it back), and per
selector its verdict with the conditions that decided it (``explain``'s reasons)."""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from rich.console import Console
from rich.text import Text

from jmsctl import selector as sel
from jmsctl.analysis import solver
from jmsctl.cli.commands.check import _from_lines, _IOFailure, _read
from jmsctl.cli.errors import fail
from jmsctl.cli.render import Source

EQUIVALENT, DIFFERENT, UNKNOWN = 0, 1, 3  # exit statuses: proved, a witness, no answer (2 is a usage error)
TIMEOUT_HELP = ("A wall-clock guard per question, seconds: past it the answer is 'unknown' (exit 3) and says that the clock, not "
                "the budget, ended it (on a busy machine it may then differ). Never a guess.")
WITNESS_HELP = ("Also write each witness message to FILE, one JSON line each (the dump format: `jmsctl show` and `filter` "
                "read it); the file is written whole or not at all.")
RLIMIT_HELP = ("The solver's budget per question in its own resource units (z3's rlimit): the same question gets the same "
               "answer at any machine load; past it the answer is 'unknown' (exit 3).")


def sources(args: Sequence[str], files: Sequence[str]) -> list[Source]:
    """Selectors from arguments (``-`` reads stdin, one a line) and files (one a line, '#' comments)."""
    out: list[Source] = []
    try:
        for i, text in enumerate(args, 1):
            if text == "-":
                out.extend(_from_lines("<stdin>", _read("-")))
            else:
                out.append(Source("<arg>" if len(args) == 1 else f"<arg{i}>", text))
        for path in files:
            out.extend(_from_lines("<stdin>" if path == "-" else path, _read(path)))
    except _IOFailure as exc:
        fail(str(exc))
    return out


def file_sources(path: str) -> list[Source]:
    try:
        return _from_lines("<stdin>" if path == "-" else path, _read(path))
    except _IOFailure as exc:
        fail(str(exc))


def where(src: Source) -> str:
    return f"{src.name}:{src.first_line}" if src.is_file else src.name


def validated(srcs: Sequence[Source], dialect: str) -> None:
    """Every selector must be valid in the dialect: else one error line naming it, exit 2."""
    for src in srcs:
        analysis = sel.analyze(src.text, dialect)
        if not analysis.valid:
            d = analysis.errors[0]
            fail(f"{where(src)}: invalid selector ({d.code}: {d.message}); `jmsctl check` shows every error")


def witness_json(doc: Any) -> str:
    """The witness as one JSON line, each float and double spelled as the explanation and the table
    spell it (`2.1474836E9`, `1.0E20`: Java's shortest form), still a JSON number that reads back
    to the same value; the rest as orjson writes it."""
    from jmsctl.values import f32_repr, java_double_repr, to_f32

    spelled: dict[str, str] = {}

    def walk(x: Any, in_float: bool = False) -> Any:
        if isinstance(x, float) and math.isfinite(x):
            token = f"\x00jmsctl-number-{len(spelled)}\x00"
            spelled[token] = f32_repr(to_f32(x)) if in_float else java_double_repr(x)
            return token
        if isinstance(x, dict):
            is_float = x.get("type") == "float"
            return {k: walk(v, is_float and k == "value") for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        return x

    text = orjson.dumps(walk(doc)).decode()
    for token, spelling in spelled.items():
        text = text.replace(orjson.dumps(token).decode(), spelling)
    return text


@contextlib.contextmanager
def witness_output(path: str | None) -> Iterator[Any]:
    """``--witness FILE``, opened before any question (a bad path fails first) and committed at the
    end; on an error the old file is left as it was."""
    if path is None:
        yield None
        return
    from jmsctl.outputs import OutputError, open_output

    try:
        out = open_output(path)
    except OutputError as exc:
        fail(str(exc))
    try:
        yield out
        out.commit()
    except OSError as exc:
        out.discard()
        fail(f"{path}: {exc.strerror or exc}")
    except BaseException:
        out.discard()
        raise


def ask(question: Callable[[], solver.Answer]) -> solver.Answer:
    """The solver's answer; a witness the engine rejects is a bug, reported as one error line."""
    try:
        return question()
    except solver.WitnessRejected as exc:
        fail(f"internal error, please report: {exc}")


@dataclass
class Printer:
    """Answers on stdout, in the chosen format; ``status`` is the exit status so far."""

    json: bool
    dialect: str
    console: Console
    proved: int = 0
    found: int = 0
    unknown: int = 0
    witnesses: Any = None  # --witness FILE's output: each witness's JSON line
    table: bool = True  # each witness also as show's table

    def answer(self, answer: solver.Answer, labels: Sequence[str], texts: Sequence[str], headline: str,
               extra: dict[str, Any] | None = None, given: str | None = None) -> None:
        """One answer; ``given`` (coverage's --given, the last of ``texts``) gets its own JSON field,
        ``given`` with its selector and verdict, so that it never reads as one more covering selector."""
        if isinstance(answer, solver.Proof):
            self.proved += 1
        elif isinstance(answer, solver.Witness):
            self.found += 1
            if self.witnesses is not None:
                self.witnesses.write((witness_json(answer.message) + "\n").encode())
        else:
            self.unknown += 1
        if self.json:
            doc = {**(extra or {}), "selectors": list(texts), **solver.as_json(answer)}
            if given is not None:
                doc["selectors"] = list(texts[:-1])
                verdicts = doc["verdicts"]
                doc["given"] = {"selector": given, "verdict": verdicts[-1] if verdicts else None}
                if verdicts:
                    doc["verdicts"] = verdicts[:-1]
            witness = doc.pop("witness")
            line = orjson.dumps(doc).decode()
            sys.stdout.write(f'{line[:-1]},"witness":{witness_json(witness)}}}\n')
            return
        con = self.console
        style = "bold green" if isinstance(answer, solver.Proof) else "bold red" if isinstance(answer, solver.Witness) else "bold yellow"
        title = Text(answer.result, style=style)
        title.append(f": {headline}", style="bold")
        con.print(title)
        for label, text in zip(labels, texts, strict=True):
            con.print(Text(f"  {label}: ", style="blue") + Text(text))
        if isinstance(answer, solver.Unknown):
            con.print(Text(f"  {answer.reason}", style="yellow"))
        elif isinstance(answer, solver.Witness):
            self._witness(answer, labels, texts)
        con.print()

    def _witness(self, answer: solver.Witness, labels: Sequence[str], texts: Sequence[str]) -> None:
        from jmsctl.cli.commands.show import render_message
        from jmsctl.selector.explainer import explain
        from jmsctl.selector.why import deciding

        con = self.console
        message = solver.read_witness(answer.message)
        con.print(Text("  witness: ", style="blue") + Text(witness_json(answer.message) if answer.message else "{} (no headers, no properties)"))
        for label, text, verdict in zip(labels, texts, answer.verdicts, strict=True):
            line = Text(f"  {label} -> ", style="blue")
            line.append(verdict, style="green" if verdict == "TRUE" else "red")
            reasons = deciding(explain(text, message.get, self.dialect))
            if reasons:
                line.append("  because " + "; ".join(str(r) for r in reasons[:3]) + (" ..." if len(reasons) > 3 else ""), style="dim")
            con.print(line)
        if self.table:
            for part in render_message(_spelled_view(message), plain=not con.is_terminal):
                con.print(part)

    @property
    def status(self) -> int:
        if self.found:
            return DIFFERENT
        return UNKNOWN if self.unknown else EQUIVALENT


def _spelled_view(message: Any) -> Any:
    """show's view of the witness, its floats and doubles spelled as in the explanation."""
    import dataclasses

    from jmsctl.messages.printer import message_view
    from jmsctl.values import DOUBLE, FLOAT, format_plain

    view = message_view("witness", message)
    rows = []
    for row in view.properties:
        value = message.properties.get(row.name)
        if value is not None and value[0] in (FLOAT, DOUBLE):
            row = dataclasses.replace(row, value=format_plain(*value))
        rows.append(row)
    return dataclasses.replace(view, properties=tuple(rows))


def summary(con: Console, printer: Printer, proved: str, found: str) -> None:
    """The last line of the text format: how many of each answer."""
    parts = [f"{printer.proved} {proved}", f"{printer.found} {found}"]
    if printer.unknown:
        parts.append(f"{printer.unknown} unknown")
    con.print(Text(", ".join(parts), style="bold"))


__all__ = ["Printer", "ask", "file_sources", "sources", "summary", "validated", "where"]

"""What ``diff``, ``overlap`` and ``coverage`` share: reading selectors, asking the solver, and
printing its answers (text for a person, one JSON object a line for a program) with their exit status.

Text shows the witness the way ``show`` does, its JSON line (every command reads it back), and per
selector its verdict with the conditions that decided it (``explain``'s reasons)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
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

    def answer(self, answer: solver.Answer, labels: Sequence[str], texts: Sequence[str], headline: str,
               extra: dict[str, Any] | None = None, given: str | None = None) -> None:
        """One answer; ``given`` (coverage's --given, the last of ``texts``) gets its own JSON field,
        ``given`` with its selector and verdict, so that it never reads as one more covering selector."""
        if isinstance(answer, solver.Proof):
            self.proved += 1
        elif isinstance(answer, solver.Witness):
            self.found += 1
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
            sys.stdout.write(orjson.dumps(doc).decode() + "\n")
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
        from jmsctl.messages.printer import message_view
        from jmsctl.selector.explainer import explain
        from jmsctl.selector.why import deciding

        con = self.console
        message = solver.read_witness(answer.message)
        con.print(Text("  witness: ", style="blue") + Text(orjson.dumps(answer.message).decode() if answer.message else "{} (no headers, no properties)"))
        for label, text, verdict in zip(labels, texts, answer.verdicts, strict=True):
            line = Text(f"  {label} -> ", style="blue")
            line.append(verdict, style="green" if verdict == "TRUE" else "red")
            reasons = deciding(explain(text, message.get, self.dialect))
            if reasons:
                line.append("  because " + "; ".join(str(r) for r in reasons[:3]) + (" ..." if len(reasons) > 3 else ""), style="dim")
            con.print(line)
        for part in render_message(message_view("witness", message), plain=not con.is_terminal):
            con.print(part)

    @property
    def status(self) -> int:
        if self.found:
            return DIFFERENT
        return UNKNOWN if self.unknown else EQUIVALENT


def summary(con: Console, printer: Printer, proved: str, found: str) -> None:
    """The last line of the text format: how many of each answer."""
    parts = [f"{printer.proved} {proved}", f"{printer.found} {found}"]
    if printer.unknown:
        parts.append(f"{printer.unknown} unknown")
    con.print(Text(", ".join(parts), style="bold"))


__all__ = ["Printer", "ask", "file_sources", "sources", "summary", "validated", "where"]

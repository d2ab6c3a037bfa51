"""Diagnostics for people (rustc-style with carets and colour) and for machines (concise, JSON,
GitHub workflow annotations). Colour only on a terminal, never with NO_COLOR set."""

from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from jmsctl.diagnostics import Diagnostic, locate

# rich is imported where it is used: a command that prints no diagnostic (a filter run) does not load it.
if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


class Format(str, Enum):
    full = "full"
    concise = "concise"
    json = "json"
    github = "github"


def console(stderr: bool = False) -> Console:
    """Rich console that colours only a terminal and honours NO_COLOR (rich reads it too)."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    if plain_output(stream):
        # Plain text: no escape sequences at all (NO_COLOR asks for no colour; bold is no better).
        width = shutil.get_terminal_size((200, 24)).columns if is_terminal(stream) else 200
        return Console(stderr=stderr, highlight=False, force_terminal=False, no_color=True, soft_wrap=True, width=width)
    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def plain_output(stream: Any = None) -> bool:
    """Whether ``console`` prints plain text there (no escape sequences): not a terminal, or NO_COLOR."""
    return bool(os.environ.get("NO_COLOR")) or not is_terminal(stream)


def is_terminal(stream: Any = None) -> bool:
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


@dataclass(frozen=True)
class Source:
    """Where a selector came from: ``name`` and the line of the file it starts on (1 for arguments)."""

    name: str
    text: str
    first_line: int = 1
    is_file: bool = False


def position(src: Source, diag: Diagnostic) -> tuple[int, int, int, int]:
    start, end = locate(src.text, diag.span.start), locate(src.text, diag.span.end)
    offset = src.first_line - 1
    return start.line + offset, start.column, end.line + offset, end.column


# The section of the documents that states the rule a diagnostic enforces (shown as "= rule: ...").
RULES = {
    "E001": "docs/SEMANTICS.md#lexical-rules", "E002": "docs/SEMANTICS.md#grammar", "E003": "docs/SEMANTICS.md#grammar",
    "E004": "docs/SEMANTICS.md#string-literals", "E005": "docs/SEMANTICS.md#string-literals",
    "E006": "docs/SEMANTICS.md#precedence", "E007": "docs/SEMANTICS.md#precedence", "E008": "docs/SEMANTICS.md#comments",
    "E010": "docs/SEMANTICS.md#integer-literals", "E011": "docs/SEMANTICS.md#integer-literals",
    "E012": "docs/SEMANTICS.md#floating-point-literals", "E013": "docs/SEMANTICS.md#integer-literals",
    "E014": "docs/SEMANTICS.md#keywords", "E015": "docs/SEMANTICS.md#keywords", "E016": "docs/SEMANTICS.md#precedence",
    "E101": "docs/SEMANTICS.md#conditions-and-values", "E102": "docs/SEMANTICS.md#conditions-and-values",
    "E104": "docs/SEMANTICS.md#operand-rules", "E105": "docs/SEMANTICS.md#in", "E106": "docs/SEMANTICS.md#like",
    "E107": "docs/SEMANTICS.md#like", "E108": "docs/SEMANTICS.md#like", "E109": "docs/SEMANTICS.md#operand-rules",
    "E110": "docs/SEMANTICS.md#operand-rules", "E111": "docs/SEMANTICS.md#operand-rules", "E112": "docs/SEMANTICS.md#operand-rules",
    "E113": "docs/SEMANTICS.md#headers",
    "W001": "docs/SEMANTICS.md#integer-literals", "W002": "docs/SEMANTICS.md#headers", "W003": "docs/SEMANTICS.md#precedence",
    "W004": "docs/SEMANTICS.md#jmsx-properties", "W006": "docs/SEMANTICS.md#headers", "W009": "docs/SEMANTICS.md#comments",
    "W010": "docs/SEMANTICS.md#type-mismatches", "W011": "docs/SEMANTICS.md#precedence", "W012": "docs/SEMANTICS.md#comparisons",
    "W014": "docs/SEMANTICS.md#headers",
    **{f"W0{n}": "docs/dialects.md#the-rules" for n in range(20, 35)},
}


_BREAK = re.compile(r"\r\n|[\r\n\u2028\u2029]")


def one_line(text: str) -> str:
    """A message, note or hint that quotes the selector (a YAML block scalar spans lines) as one
    line: each line break shown as ``\\n``, so that no bare continuation line follows it."""
    return _BREAK.sub("\\\\n", text)


def openable(cited: str) -> str:
    """``docs/SEMANTICS.md#like`` as a reader can open it wherever jmsctl is installed (the wheel
    holds no docs/ directory): ``jmsctl docs SEMANTICS#like`` (cli/commands/docs.py)."""
    name, _, anchor = cited.partition("#")
    return f"jmsctl docs {name.removeprefix('docs/').removesuffix('.md')}{'#' + anchor if anchor else ''}"


def concise(src: Source, diag: Diagnostic) -> str:
    line, col, _, _ = position(src, diag)
    return f"{src.name}:{line}:{col}: {diag.code} {one_line(diag.message)}"


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def github(src: Source, diag: Diagnostic, as_error: bool = False) -> str:
    """A workflow command; ``as_error``: a warning as ``::error`` too (it fails the run, with --strict)."""
    line, col, end_line, end_col = position(src, diag)
    severity = diag.severity.value
    level = "error" if diag.is_error or (as_error and severity == "warning") else "notice" if severity == "info" else "warning"
    props = [f"title={_gh_escape(diag.code, True)}"]
    message = diag.message + "".join(f" ({note})" for note in diag.notes)
    message = message if not diag.hint else f"{message} (hint: {diag.hint})"
    if src.is_file:
        props = [f"file={_gh_escape(src.name, True)}", f"line={line}", f"col={col}", f"endLine={end_line}", f"endColumn={end_col}", *props]
    else:
        message = f"{src.name}:{line}:{col}: {message}"
    return f"::{level} {','.join(props)}::{_gh_escape(message)}"


def diagnostic_json(src: Source, diag: Diagnostic) -> dict[str, Any]:
    d = diag.to_dict(src.text)
    line, col, end_line, end_col = position(src, diag)
    d.update(source=src.name, line=line, column=col, end_line=end_line, end_column=end_col)
    if diag.code in RULES:
        d["rule"] = RULES[diag.code]
    return d


SHOWN = 120  # characters of a long source line shown around a diagnostic's position
BEFORE = 40  # of which before the position, when the line is cut
CUT = "..."


def window(line: str, column: int) -> tuple[str, int, int]:
    """The part of a source line shown for a diagnostic at ``column`` (1-based): the whole line when
    it is short, otherwise SHOWN characters around the column with CUT marking what is left out
    (a 1 MB selector is one line; printing it whole for each of its diagnostics would flood the
    terminal). Returns (text, the column in it, the end of the source characters in it)."""
    if len(line) <= SHOWN:
        return line, column, len(line)
    start = max(0, min(column - 1 - BEFORE, len(line) - SHOWN))
    end = start + SHOWN
    head = CUT if start > 0 else ""
    text = head + line[start:end] + (CUT if end < len(line) else "")
    return text, column - start + len(head), len(head) + end - start


def full(src: Source, diag: Diagnostic) -> Text:
    """rustc-style: header, location, source line (a window of a long one), caret under the span,
    expected and hint."""
    from rich.cells import cell_len
    from rich.text import Text

    line, col, _, _ = position(src, diag)
    pos = locate(src.text, diag.span.start)
    colour = "red" if diag.is_error else "cyan" if diag.severity.value == "info" else "yellow"
    out = Text()
    out.append(f"{diag.severity.value}[{diag.code}]", style=f"bold {colour}")
    out.append(f": {one_line(diag.message)}\n", style="bold")
    gutter = " " * len(str(line))
    out.append(f"{gutter}--> ", style="blue")
    out.append(f"{src.name}:{line}:{col}\n")
    text, column, source_end = window(pos.line_text, pos.column)
    shown = text.replace("\t", " ")
    out.append(f"{gutter} |\n", style="blue")
    out.append(f"{line} | ", style="blue")
    out.append(shown + "\n")
    width = max(1, min(diag.span.end - diag.span.start, source_end - column + 1))
    pad = " " * cell_len(shown[: column - 1])
    carets = "^" * max(1, cell_len(shown[column - 1 : column - 1 + width]))
    out.append(f"{gutter} | ", style="blue")
    out.append(pad + carets, style=f"bold {colour}")
    if diag.expected:
        out.append(" expected " + ", ".join(diag.expected), style=colour)
    out.append("\n")
    for note in diag.notes:
        out.append(f"{gutter} = ", style="blue")
        out.append(one_line(note) + "\n")
    if diag.hint:
        out.append(f"{gutter} = ", style="blue")
        out.append("hint: ", style="bold")
        out.append(one_line(diag.hint) + "\n")
    if diag.code in RULES:
        out.append(f"{gutter} = ", style="blue")
        out.append(f"rule: {openable(RULES[diag.code])}\n", style="dim")
    return out


def escape(markup: str) -> str:
    """rich's ``escape`` (re-exported: text printed with markup on shows as itself)."""
    from rich.markup import escape as rich_escape

    return rich_escape(markup)


def print_full(con: Console, src: Source, diags: tuple[Diagnostic, ...] | list[Diagnostic]) -> None:
    for d in diags:
        con.print(full(src, d))


__all__ = ["RULES", "Format", "Source", "concise", "console", "diagnostic_json", "escape", "full", "github", "is_terminal", "one_line", "openable",
           "plain_output", "print_full", "window"]

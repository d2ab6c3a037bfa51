"""Diagnostics as data: a code, a message and a source span; rendering belongs to the CLI."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"  # a note that is neither: 'jmsctl scan' says which selectors it could not check


class Span(NamedTuple):
    """Half-open range of code point offsets into the selector text (a tuple: built per node, cheaply)."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Position:
    line: int  # 1-based
    column: int  # 1-based, in code points
    line_text: str


def locate(source: str, offset: int) -> Position:
    """Line and column of an offset; CR, LF and CRLF end lines, as Java's line terminators do.

    Counts with str methods (C speed): called once or twice per diagnostic, on selectors of up to
    megabytes, a character loop here made many diagnostics on a long selector quadratic.
    """
    limit = min(offset, len(source))
    line = 1 + source.count("\r", 0, limit) + source.count("\n", 0, limit) - source.count("\r\n", 0, limit)
    last = max(source.rfind("\r", 0, limit), source.rfind("\n", 0, limit))
    if last < 0:
        line_start = 0
    elif source[last] == "\r" and source.startswith("\n", last + 1):
        line_start = last + 2  # CRLF, also when the offset falls between its two characters
    else:
        line_start = last + 1
    ends = [i for i in (source.find("\r", line_start), source.find("\n", line_start)) if i >= 0]
    end = min(ends) if ends else len(source)
    return Position(line, offset - line_start + 1, source[line_start:end])


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span
    expected: tuple[str, ...] = ()
    hint: str | None = None
    notes: tuple[str, ...] = field(default=())
    # JSON-ready fields added to ``to_dict`` (the portability lint's witnesses); not compared or hashed.
    data: tuple[tuple[str, Any], ...] = field(default=(), compare=False, hash=False)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_dict(self, source: str) -> dict[str, object]:
        """The JSON shape of ``check --format json`` and ``explain --format json``."""
        start = locate(source, self.span.start)
        end = locate(source, self.span.end)
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "line": start.line,
            "column": start.column,
            "end_line": end.line,
            "end_column": end.column,
            "offset": self.span.start,
            "length": self.span.end - self.span.start,
            "expected": list(self.expected),
            "hint": self.hint,
            **({"notes": list(self.notes)} if self.notes else {}),
            **dict(self.data),
        }


def error(code: str, message: str, span: Span, *, expected: tuple[str, ...] = (), hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, span, expected, hint)


def warning(code: str, message: str, span: Span, *, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, message, span, (), hint)


class SelectorError(Exception):
    """Raised inside the parser pipeline to stop at the first syntax error; carries the diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic

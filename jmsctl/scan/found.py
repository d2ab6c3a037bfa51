"""What an extractor finds: a selector as pieces of text, each character tied to where it is written.

A selector in source code is rarely the characters between two quotes: escapes (``\\"``,
``\\u00e9``, ``&apos;``, ``%27``), concatenations (``"a = 1 " + "AND b = 2"``) and text blocks
separate the selector's characters from the file's. ``Mapped`` keeps, for every character of the
decoded text, the file offsets of the source characters it was decoded from, so a diagnostic at
selector offset i is reported at the file's line and column of that character. Decoding layers
compose (a Java literal, then the URL-decoding of a Camel URI inside it). ``Hole`` is a part only
known at run time (a variable, a ``${placeholder}``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from jmsctl.diagnostics import Diagnostic


@dataclass(frozen=True)
class Mapped:
    """Decoded text; ``starts[i]``/``ends[i]`` are the file offsets of the source of character i."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @staticmethod
    def verbatim(text: str, at: int) -> Mapped:
        """Characters written as themselves, from file offset ``at``."""
        return Mapped(text, tuple(range(at, at + len(text))), tuple(range(at + 1, at + len(text) + 1)))

    @staticmethod
    def build(pieces: Iterable[tuple[str, int, int]]) -> Mapped:
        """From (decoded text, source start, source end) pieces: every character of a piece maps to
        the piece's whole source (an escape such as ``\\u00e9`` is one character from six)."""
        text: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        for chars, start, end in pieces:
            text.append(chars)
            starts.extend([start] * len(chars))
            ends.extend([end] * len(chars))
        return Mapped("".join(text), tuple(starts), tuple(ends))

    def __len__(self) -> int:
        return len(self.text)

    def slice(self, start: int, end: int) -> Mapped:
        return Mapped(self.text[start:end], self.starts[start:end], self.ends[start:end])

    def then(self, decode: Callable[[str], Sequence[tuple[str, int, int]]]) -> Mapped:
        """Another decoding layer: ``decode`` gives (text, start, end) pieces in offsets of ``self.text``."""
        pieces = decode(self.text)
        return Mapped.build((chars, self.starts[a], self.ends[b - 1] if b > a else self.starts[a]) for chars, a, b in pieces)


@dataclass(frozen=True)
class Hole:
    """A part of a selector known only at run time; ``start``/``end`` are file offsets of its source."""

    start: int
    end: int
    source: str  # as written: 'color', '${app.selector}', '%s'


Piece = Mapped | Hole


def join(pieces: Iterable[Piece]) -> tuple[Piece, ...]:
    """Adjacent Mapped pieces merged into one (a concatenation of literals is one text), in one pass."""
    out: list[Piece] = []
    run: list[Mapped] = []

    def flush() -> None:
        if run:
            out.append(run[0] if len(run) == 1 else
                       Mapped("".join(m.text for m in run), tuple(x for m in run for x in m.starts), tuple(x for m in run for x in m.ends)))
            run.clear()

    for p in pieces:
        if isinstance(p, Mapped):
            if p.text:
                run.append(p)
        else:
            flush()
            out.append(p)
    flush()
    return tuple(out)


@dataclass(frozen=True)
class Found:
    """One selector found in a file: its pieces, where the expression is written, and by what."""

    pieces: tuple[Piece, ...]
    start: int  # file offsets of the whole expression (for a selector that is all hole)
    end: int
    kind: str  # the place: 'createConsumer', '@JmsListener', '<filter string>', ...
    printf: bool = field(default=False)  # given to String.format: %s is a placeholder even inside quotes
    message_format: bool = field(default=False)  # given to MessageFormat.format: {0} is one everywhere
    # One literal of the file (one string token, attribute value, property value, YAML scalar): what
    # 'scan --fix' may rewrite. False for a concatenation, a constant built of parts, anything unsure.
    literal: bool = field(default=False)
    # Whether something fills in ${...} and #{...} before the selector is used (Spring in
    # @JmsListener attributes and configuration files, Camel in URIs). False for a plain API call,
    # where '${x}' inside quotes is text the selector compares with (W015).
    resolves: bool = field(default=True)
    role: str = field(default="")  # the argument it is: 'argument 2 of createConsumer(Destination destination, String messageSelector)'
    # The queue or topic the selector filters, where the code or config names it (a literal, a
    # createQueue("x"), @JmsListener(destination), <queue name>, a URI's path): overlap groups by it.
    destination: str = field(default="")

    @property
    def dynamic(self) -> bool:
        return any(isinstance(p, Hole) for p in self.pieces)


class NotScanned(Exception):
    """A file an extractor could not read (not well-formed XML, a refused DOCTYPE): the
    diagnostic (an info, at file offsets) says where and why; never silent."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic

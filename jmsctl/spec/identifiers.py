"""What a selector identifier is (docs/SEMANTICS.md#identifiers), for the lexer and for property names:
Java identifier characters (tables generated from Java) and the reserved words, ASCII case-insensitive.

The full tables (javachars.py) make character classes of 646 and 762 ranges: importing them and
compiling the regexes built from them took about 40 ms of every start of the command line, while
nearly every selector and property name is ASCII. So each regex exists twice: compiled from the
tables' ASCII part for ASCII text, and from the whole tables (imported then) the first time a text
that is not ASCII needs it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

KEYWORDS = frozenset({"NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE", "NULL", "TRUE", "FALSE"})

# javachars.py's tables below U+0080 (tests/test_identifiers_java.py checks that they still are),
# written out so that ASCII text never needs the tables. Java's identifier parts include the ASCII
# controls that Character.isIdentifierIgnorable accepts: U+0000..U+0008, U+000E..U+001B, U+007F.
ASCII_IDENTIFIER_START: tuple[tuple[int, int], ...] = ((0x24, 0x24), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
ASCII_IDENTIFIER_PART: tuple[tuple[int, int], ...] = (
    (0x00, 0x08), (0x0E, 0x1B), (0x24, 0x24), (0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A), (0x7F, 0x7F),
)


def char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "[" + "".join(f"\\U{lo:08x}" if lo == hi else f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges) + "]"


@cache
def unicode_classes() -> tuple[str, str]:
    """The identifier start and part classes from the whole tables."""
    from jmsctl.spec.javachars import IDENTIFIER_PART, IDENTIFIER_START

    return char_class(IDENTIFIER_START), char_class(IDENTIFIER_PART)


ASCII_CLASSES = (char_class(ASCII_IDENTIFIER_START), char_class(ASCII_IDENTIFIER_PART))


class IdentifierRegex:
    """A regex written around the identifier classes, ``build(start_class, part_class) -> pattern``.

    On an ASCII text the ASCII regex gives exactly the full regex's results: a character class is
    only ever tested on characters of the text, and on ASCII characters the two sets of classes
    agree. Each regex is compiled the first time a text needs it (most are never needed in a short run).
    """

    __slots__ = ("_ascii", "_build", "_flags", "_unicode")

    def __init__(self, build: Callable[[str, str], str], flags: int = 0) -> None:
        self._build = build
        self._flags = flags
        self._ascii: re.Pattern[str] | None = None
        self._unicode: re.Pattern[str] | None = None

    @property
    def ascii(self) -> re.Pattern[str]:
        if self._ascii is None:
            self._ascii = re.compile(self._build(*ASCII_CLASSES), self._flags)
        return self._ascii

    def for_text(self, text: str) -> re.Pattern[str]:
        """The regex to run on ``text`` (at any position of it)."""
        return self.pattern(text.isascii())

    def pattern(self, ascii_text: bool) -> re.Pattern[str]:
        """The regex for a text that is ASCII (``str.isascii()``) or not."""
        if ascii_text:
            return self.ascii
        if self._unicode is None:
            self._unicode = re.compile(self._build(*unicode_classes()), self._flags)
        return self._unicode

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.for_text(text).match(text, pos)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.for_text(text).fullmatch(text)


IDENTIFIER = IdentifierRegex(lambda start, part: f"{start}{part}*")
IDENTIFIER_START_CHAR = IdentifierRegex(lambda start, part: start)
IDENTIFIER_PART_CHAR = IdentifierRegex(lambda start, part: part)


def is_keyword(name: str) -> bool:
    """Keywords are case-insensitive in ASCII only: 'ın' (dotless i) is not IN."""
    return name.isascii() and name.upper() in KEYWORDS


def is_identifier(name: str) -> bool:
    """A selector identifier: Java identifier characters, and not a reserved word."""
    return IDENTIFIER.fullmatch(name) is not None and not is_keyword(name)

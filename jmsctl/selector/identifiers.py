"""What a selector identifier is (SEMANTICS.md section 1), for the lexer and for property names:
Java identifier characters (tables generated from Java) and the reserved words, ASCII case-insensitive."""

from __future__ import annotations

import re

from jmsctl.selector.javachars import IDENTIFIER_PART, IDENTIFIER_START

KEYWORDS = frozenset({"NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE", "NULL", "TRUE", "FALSE"})


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "[" + "".join(f"\\U{lo:08x}" if lo == hi else f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges) + "]"


IDENT_START_CLASS = _char_class(IDENTIFIER_START)
IDENT_PART_CLASS = _char_class(IDENTIFIER_PART)
IDENTIFIER = re.compile(f"{IDENT_START_CLASS}{IDENT_PART_CLASS}*")


def is_keyword(name: str) -> bool:
    """Keywords are case-insensitive in ASCII only: 'ın' (dotless i) is not IN."""
    return name.isascii() and name.upper() in KEYWORDS


def is_identifier(name: str) -> bool:
    """A selector identifier: Java identifier characters, and not a reserved word."""
    return IDENTIFIER.fullmatch(name) is not None and not is_keyword(name)

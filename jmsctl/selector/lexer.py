"""Selector text -> tokens, with the javadoc's lexical rules and targeted diagnostics.

A hand-written lexer (fed to the LALR parser) because the rules are Java's, not lark's:
Java identifier characters of any script, ASCII-only case-insensitive keywords, Java numeric
literal forms, and the common mistakes (``!=``, ``==``, ``"..."``, ``/*``) recognised by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jmsctl.diagnostics import Diagnostic, SelectorError, Span, error
from jmsctl.selector.limits import clip
from jmsctl.selector.literals import NUMBER_PATTERN
from jmsctl.spec.identifiers import IDENTIFIER_START_CHAR, KEYWORDS, IdentifierRegex

OPERATORS = {
    "=": "EQ",
    "<>": "NE",
    "<": "LT",
    "<=": "LE",
    ">": "GT",
    ">=": "GE",
    "+": "PLUS",
    "-": "MINUS",
    "*": "STAR",
    "/": "SLASH",
    "(": "LPAR",
    ")": "RPAR",
    ",": "COMMA",
}

WHITESPACE = " \t\f\r\n"  # docs/SEMANTICS.md#white-space: nothing else, no vertical tab or NBSP

_MASTER = IdentifierRegex(
    lambda start, part: rf"""
    (?P<WS>[ \t\f\r\n]+)
  | (?P<STRING>'[^']*(?:''[^']*)*')
  | (?P<NUMBER>{NUMBER_PATTERN})
  | (?P<IDENT>{start}{part}*)
  | (?P<OP><>|<=|>=|[=<>+\-*/(),])
    """,
    re.VERBOSE,
)
_IDENT_PART = IdentifierRegex(lambda start, part: f"(?:{part}|\\.)+")


class Token(str):
    """A token: its text (the string itself; a string literal's value, unquoted), its terminal name in
    grammar.lark (``type``) and where it is in the selector. The attributes of lark's Token that the
    parser reads, without importing lark (a fifth of the start of ``jmsctl check``)."""

    __slots__ = ("end_pos", "start_pos", "type")
    type: str
    start_pos: int | None
    end_pos: int | None

    def __new__(cls, kind: str, value: str, start_pos: int | None = None, end_pos: int | None = None) -> Token:
        self = super().__new__(cls, value)
        self.type = kind
        self.start_pos = start_pos
        self.end_pos = end_pos
        return self

    @property
    def value(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Token, (self.type, str(self), self.start_pos, self.end_pos))


def _token(kind: str, value: str, start: int, end: int) -> Token:
    return Token(kind, value, start, end)


def tokens(text: str) -> Iterator[Token]:
    """Yield tokens; raise SelectorError at the first character that starts no token."""
    pos = 0
    n = len(text)
    ascii_text = text.isascii()
    match = _MASTER.pattern(ascii_text).match
    while pos < n:
        m = match(text, pos)
        if m is None:
            raise SelectorError(_bad_character(text, pos))
        kind = m.lastgroup
        end = m.end()
        if kind == "WS":
            pos = end
            continue
        raw = m.group()
        if kind == "IDENT":
            upper = raw.upper() if raw.isascii() else ""
            if upper in KEYWORDS:
                yield _token(upper, raw, pos, end)
            else:
                yield _token("IDENT", raw, pos, end)
        elif kind == "STRING":
            yield _token("STRING", raw[1:-1].replace("''", "'"), pos, end)
        elif kind == "NUMBER":
            tail = _IDENT_PART.pattern(ascii_text).match(text, end)
            if tail is not None:
                bad = text[pos : tail.end()]
                raise SelectorError(
                    error("E010", f"malformed numeric literal '{clip(bad)}'", Span(pos, tail.end()),
                          hint="an identifier must start with a letter, '_' or '$'; a number ends before any letter other than its suffix")
                )
            yield _token("NUMBER", raw, pos, end)
        else:
            if raw == "=" and text.startswith("==", pos):
                raise SelectorError(error("E007", "'==' is not a selector operator", Span(pos, pos + 2), expected=("'='",), hint="equality is a single '='"))
            if raw == "/" and text.startswith("/*", pos):
                raise SelectorError(error("E008", "SQL comments are not supported in selectors", Span(pos, pos + 2), hint="remove the comment"))
            yield _token(OPERATORS[raw], raw, pos, end)
        pos = end


def _bad_character(text: str, pos: int) -> Diagnostic:
    ch = text[pos]
    span = Span(pos, pos + 1)
    if ch == "'":
        return error("E004", "unterminated string literal", Span(pos, len(text)), expected=("a closing quote \"'\"",),
                     hint="a quote inside a string is written twice: 'it''s'")
    if ch == "!" and text.startswith("!=", pos):
        return error("E006", "'!=' is not a selector operator", Span(pos, pos + 2), expected=("'<>'",), hint="'not equal' is written '<>'")
    if ch == '"':
        close = text.find('"', pos + 1)
        end = len(text) if close < 0 else close + 1
        return error("E005", "double quotes do not delimit strings in selectors", Span(pos, end),
                     expected=("a string literal in single quotes",), hint="write string literals in single quotes: 'value' "
                     "(Artemis and the Qpid JMS client read \"name\" as a quoted property name: --dialect artemis)")
    if ch == "." and pos > 0 and IDENTIFIER_START_CHAR.match(text, pos + 1):
        return error("E001", "unexpected character '.'", span, hint="a property name cannot contain '.'; names are Java identifiers")
    if ch == ";":
        return error("E001", "unexpected character ';'", span, hint="a selector is one expression; remove the ';'")
    if ch in "&|":  # C and Java's && and || (check --fix rewrites them: jmsctl/analysis/fixes.py)
        word, pair = ("AND", "&&") if ch == "&" else ("OR", "||")
        doubled = text.startswith(pair, pos)
        fix = "; check --fix and scan --fix rewrite it" if doubled else ""
        return error("E001", f"unexpected character '{ch}'", span,
                     hint=f"'{pair if doubled else ch}' is written {word} in a selector (a = 1 {word} b = 2){fix}")
    if ch == "\u00a0" or ch == "\u000b":
        name = "no-break space" if ch == "\u00a0" else "vertical tab"
        return error("E001", f"unexpected {name} (U+{ord(ch):04X})", span, hint="white space is space, tab, form feed, CR and LF only")
    shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
    return error("E001", f"unexpected character '{shown}'", span)

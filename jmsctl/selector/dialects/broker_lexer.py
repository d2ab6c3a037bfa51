"""The brokers' JavaCC token manager (the lexing stage of broker_parser.py): longest match,
declaration order on ties, tokens made only when the parser asks for one (text after a complete
selector is never lexed). The tokens are those of apache/activemq
``activemq-client/src/main/grammar/SelectorParser.jj`` and apache/activemq-artemis
``artemis-selector/src/main/javacc/StrictParser.jj`` (``HyphenatedParser.jj``, whose <ID> also
takes '-' after its first character, for a selector that begins with ``hyphenated_props:``); the
string rewrites of Artemis's JMS client (SelectorTranslator) are applied to the string tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jmsctl.diagnostics import Diagnostic, SelectorError, Span, error
from jmsctl.selector.dialects import Dialect

KEYWORDS = ("NOT", "AND", "OR", "BETWEEN", "LIKE", "ESCAPE", "IN", "IS", "TRUE", "FALSE", "NULL", "XPATH", "XQUERY")
_WS = " \t\n\r\f"
ID = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
HYPHENATED_ID = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*")  # apache/activemq-artemis artemis-selector/src/main/javacc/HyphenatedParser.jj:133
_EXP = r"[eE][+-]?[0-9]+"
_NUMBERS = (  # declaration order breaks ties of equal length (JavaCC)
    ("DEC", re.compile(r"[1-9][0-9]*[lL]?")),
    ("HEX", re.compile(r"0[xX][0-9a-fA-F]+")),
    ("OCT", re.compile(r"0[0-7]*")),
    ("FLOAT", re.compile(rf"[0-9]+\.[0-9]*(?:{_EXP})?|\.[0-9]+(?:{_EXP})?|[0-9]+{_EXP}")),
)
_DIGITS = frozenset("0123456789")
_ID_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
_STRING = re.compile(r"'(?:[^']|'')*'")
_QUOTED_ID = re.compile(r'"(?:[^"]|"")*"')
_LINE_COMMENT = re.compile(r"--[^\n\r]*(?:\r\n|\n|\r)")
_BLOCK_COMMENT = re.compile(r"/\*[^*]*\*+(?:[^/*][^*]*\*+)*/")
_OPERATORS = ("<>", "<=", ">=", "=", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",")


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str
    text: str
    start: int
    end: int


class _Lexer:
    """JavaCC's token manager: longest match, declaration order on ties, tokens made on demand."""

    def __init__(self, text: str, dialect: Dialect, hyphenated: bool = False) -> None:
        self.text = text
        self.dialect = dialect
        self.id = HYPHENATED_ID if hyphenated else ID  # HyphenatedParser.jj: <ID> takes '-' after its first character
        self.pos = 0
        self.toks: list[Tok] = []
        self.rewrites = rewrites(text, dialect)

    def get(self, i: int) -> Tok:
        while len(self.toks) <= i:
            self.toks.append(self._next())
        return self.toks[i]

    def _next(self) -> Tok:
        text, d = self.text, self.dialect
        pos = self.pos
        while True:
            while pos < len(text) and text[pos] in _WS:
                pos += 1
            m = None
            if d.line_comments and text.startswith("--", pos):
                m = _LINE_COMMENT.match(text, pos)
            elif d.block_comments and text.startswith("/*", pos):
                m = _BLOCK_COMMENT.match(text, pos)
            if m is None:
                break
            pos = m.end()
        if pos >= len(text):
            self.pos = pos
            return Tok("EOF", "", pos, pos)
        kind, end = self._token_at(pos)
        self.pos = end
        raw = text[pos:end]
        if kind == "STRING" and self.rewrites:
            for start, stop, replacement in reversed(self.rewrites):
                if pos <= start and stop <= end:
                    raw = raw[: start - pos] + replacement + raw[stop - pos :]
        return Tok(kind, raw, pos, end)

    def _token_at(self, pos: int) -> tuple[str, int]:
        """The longest token at ``pos``. Its first character decides which tokens can match: only
        the number tokens compete with each other (on a tie the first declared wins)."""
        text = self.text
        ch = text[pos]
        m = None
        if ch in _DIGITS:
            best_kind, best_end = "", pos
            for kind, rx in _NUMBERS:
                m = rx.match(text, pos)
                if m is not None and m.end() > best_end:
                    best_kind, best_end = kind, m.end()
            return best_kind, best_end
        if ch in _ID_START:
            m = self.id.match(text, pos)
            assert m is not None
            word = m.group().upper()
            return (word if word in KEYWORDS else "ID"), m.end()
        if ch == "'":
            m = _STRING.match(text, pos)
            kind = "STRING"
        elif ch == '"' and self.dialect.quoted_identifiers:
            m = _QUOTED_ID.match(text, pos)
            kind = "QUOTED_ID"
        elif ch == ".":
            m = _NUMBERS[3][1].match(text, pos)
            kind = "FLOAT"
        if m is not None:
            return kind, m.end()
        for op in _OPERATORS:
            if text.startswith(op, pos):
                return op, pos + len(op)
        raise SelectorError(_lexical(text, pos))


def _lexical(text: str, pos: int) -> Diagnostic:
    ch = text[pos]
    if ch == "'":
        return error("E004", "unterminated string literal", Span(pos, len(text)), hint="a quote inside a string is written twice: 'it''s'")
    if not ch.isascii() and (ch.isalpha() or ch == "_"):
        return error("E001", f"unexpected character '{ch}': the broker's identifiers are ASCII letters, digits, '_' and '$' only",
                     Span(pos, pos + 1), hint="rename the property with ASCII characters")
    shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
    return error("E001", f"unexpected character '{shown}'", Span(pos, pos + 1))


def _translate(text: str, match: str) -> list[int]:
    """Artemis SelectorTranslator.parse(): where ``match`` is replaced, in ``text`` positions: not
    part of a longer Java identifier; inside quotes only if ``match`` itself starts with a quote."""
    if match not in text:
        return []
    in_quote, at, positions = False, 0, []
    in_quotes_too = match[0] == "'"
    for i, c in enumerate(text):
        if c == "'":
            in_quote = not in_quote
        if (not in_quote or in_quotes_too) and c == match[at]:
            at += 1
            if at == len(match):
                before = i - len(match)
                ok = not (i < len(text) - 1 and _java_identifier_part(text[i + 1]))
                ok = ok and not (before >= 0 and _java_identifier_part(text[before]))
                if ok:
                    positions.append(i - len(match) + 1)
                at = 0
        else:
            at = 0
    return positions


def _java_identifier_part(c: str) -> bool:
    return c.isalnum() or c in "_$" or ord(c) < 9 or 0x0E <= ord(c) <= 0x1B or 0x7F <= ord(c) <= 0x9F


_DELIVERY_MODE_LITERALS = (("'PERSISTENT'", "'DURABLE'"), ("'NON_PERSISTENT'", "'NON_DURABLE'"))


def rewrites(text: str, dialect: Dialect) -> list[tuple[int, int, str]]:
    """(start, end, replacement) in ``text``: Artemis's JMS client rewrites the delivery mode
    literals (SelectorTranslator.convertToActiveMQFilterString) before the server parses. Applied
    to the string tokens that contain them, so that positions stay those of the text as written."""
    if not dialect.rewrite_delivery_mode_literals:
        return []
    # The second replacement runs on the first one's output; neither creates the other's match, so
    # both can be found in the text as written.
    return sorted((p, p + len(match), replace) for match, replace in _DELIVERY_MODE_LITERALS for p in _translate(text, match))


__all__ = ["ID", "KEYWORDS", "Tok", "rewrites"]

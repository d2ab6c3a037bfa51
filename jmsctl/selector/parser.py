"""Selector text -> AST through one cached lark LALR parser; lark errors -> diagnostics."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from jmsctl.diagnostics import Diagnostic, SelectorError, Span, error
from jmsctl.selector import lexer
from jmsctl.selector.builder import Builder
from jmsctl.selector.nodes import Node


class _SelectorLexer(Lexer):
    __future_interface__ = 0

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, data: str) -> Any:  # type: ignore[override]
        return lexer.tokens(data)


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = resources.files("jmsctl.selector").joinpath("grammar.lark").read_text(encoding="utf-8")
    lark = Lark(grammar, parser="lalr", lexer=_SelectorLexer, transformer=Builder(), maybe_placeholders=False)
    return lark


def parse(text: str) -> Node | None:
    """The AST of a selector (None for an empty one); raises SelectorError at the first syntax error."""
    try:
        return _lark().parse(text)  # type: ignore[return-value]
    except UnexpectedToken as exc:
        raise SelectorError(_unexpected(text, exc)) from None
    except UnexpectedInput as exc:  # pragma: no cover - the custom lexer raises SelectorError itself
        pos = getattr(exc, "pos_in_stream", 0) or 0
        raise SelectorError(error("E002", "syntax error", Span(pos, pos + 1))) from None


_OPERAND_START = {"IDENT", "NUMBER", "STRING", "TRUE", "FALSE", "LPAR", "PLUS", "MINUS"}
_COMPARISON = {"EQ", "NE", "LT", "LE", "GT", "GE"}
_ARITHMETIC = {"PLUS", "MINUS", "STAR", "SLASH"}
_PREDICATE = {"BETWEEN", "IN", "LIKE", "IS"}
_NAMES = {
    "EQ": "'='", "NE": "'<>'", "LT": "'<'", "LE": "'<='", "GT": "'>'", "GE": "'>='",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
    "LPAR": "'('", "RPAR": "')'", "COMMA": "','",
    "IDENT": "an identifier", "NUMBER": "a number", "STRING": "a string literal",
    "$END": "the end of the selector",
}


def describe_expected(expected: set[str]) -> tuple[str, ...]:
    """lark's terminal names -> a short list a person can act on."""
    out: list[str] = []
    rest = set(expected)
    if len(rest & _OPERAND_START) >= 4:
        out.append("a condition or operand" if "NOT" in rest else "an operand (identifier, literal or '(')")
        rest -= _OPERAND_START | {"NOT"}
    if rest & _PREDICATE or len(rest & _COMPARISON) > 1:
        if rest & _COMPARISON:
            out.append("a comparison operator")
        if rest & _ARITHMETIC:
            out.append("an arithmetic operator")
        if rest & _PREDICATE:
            out.append("BETWEEN, IN, LIKE or IS")
        rest -= _COMPARISON | _ARITHMETIC | _PREDICATE
        rest.discard("NOT")
    for name in sorted(rest, key=lambda t: (t == "$END", t)):
        out.append(_NAMES.get(name, name))
    return tuple(out)


def _token_text(tok: Token) -> str:
    if tok.type == "$END":
        return "end of selector"
    if tok.type == "STRING":
        return "string literal"
    if tok.type == "IDENT":
        return f"identifier '{tok}'"
    if tok.type == "NUMBER":
        return f"number {tok}"
    return f"'{tok}'" if tok.type in _NAMES else str(tok).upper()


def _previous_token(text: str, pos: int) -> Token | None:
    prev = None
    for tok in lexer.tokens(text[:pos]):
        prev = tok
    return prev


def _acceptable(text: str, start: int, exc: UnexpectedToken) -> set[str]:
    """The terminals that can follow the text before the error.

    Replays the prefix without the offending token: by the time lark raises, it has already
    reduced on that token (AND is no longer acceptable after 'x = 1' once ')' forced the reduction).
    """
    try:
        ip = _lark().parse_interactive(text[:start])
        ip.exhaust_lexer()
        return set(ip.accepts())
    except Exception:  # pragma: no cover - fall back to lark's own, narrower set
        return set(exc.expected)


def _unexpected(text: str, exc: UnexpectedToken) -> Diagnostic:
    tok: Token = exc.token
    at_end = tok.type == "$END"
    start = len(text) if at_end else (tok.start_pos or 0)
    expected = describe_expected(_acceptable(text, start, exc))
    end = start if at_end else (tok.end_pos or start + 1)
    span = Span(start, max(end, start))
    prev = _previous_token(text, start)

    if tok.type == "NULL":
        return error("E015", "NULL can only be tested with IS NULL or IS NOT NULL", span, expected=expected,
                     hint="write 'x IS NULL'; a comparison with NULL would always be unknown")
    if prev is not None and prev.type == "NOT" and tok.type in _COMPARISON | _PREDICATE | {"STAR", "SLASH"}:
        pspan = Span(prev.start_pos or 0, prev.end_pos or 0)
        return error("E014", "NOT is a reserved word and cannot be used as an identifier", pspan,
                     expected=expected, hint="reserved words: NOT AND OR BETWEEN LIKE IN IS ESCAPE NULL TRUE FALSE (any case)")
    if tok.type in lexer.KEYWORDS and "IDENT" in exc.expected and tok.type not in ("NOT", "TRUE", "FALSE"):
        return error("E014", f"{str(tok).upper()} is a reserved word and cannot be used as an identifier", span,
                     expected=expected, hint="reserved words: NOT AND OR BETWEEN LIKE IN IS ESCAPE NULL TRUE FALSE (any case)")
    if prev is not None and prev.type == "IS" and tok.type == "IDENT":
        return error("E002", f"unexpected {_token_text(tok)} after IS", span, expected=("NULL", "NOT NULL"),
                     hint="IS tests for NULL only: 'x IS NULL' or 'x IS NOT NULL'")
    if tok.type == "RPAR" and "RPAR" not in exc.expected and "IDENT" not in exc.expected:
        return error("E002", "unbalanced ')': there is no '(' to close", span, expected=expected)
    if prev is not None and prev.type in ("IN", "LPAR", "COMMA") and tok.type == "RPAR":
        return error("E002", "unexpected ')'", span, expected=("a string literal",),
                     hint="an IN list holds one or more string literals: x IN ('a', 'b')")
    if at_end:
        return error("E003", "unexpected end of selector", span, expected=expected)
    hint = None
    if tok.type in ("IDENT", "NUMBER", "STRING", "LPAR") and "AND" in exc.expected:
        hint = "join conditions with AND or OR"
    return error("E002", f"unexpected {_token_text(tok)}", span, expected=expected, hint=hint)

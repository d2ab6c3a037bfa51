"""What E003 (unexpected end) lists as expected: only the tokens that could start a valid ending.

The parser's list comes from the grammar, which is deliberately permissive (``x IN ('a' + 1)`` and
``a = b = c`` parse, so that the checker can name the mistake): after ``x IN ('a'`` it accepts ``+``,
which the checker then rejects (E105). A token is kept here when some short ending that starts with
it makes the whole selector valid: the text, the token, one of a few ends (an operand, a comparison,
a closing IN list...) and the parentheses still open are parsed and checked. Only for selectors up to
``LIMIT`` characters, and within a budget of tries: an error path, but each try parses the whole text.
"""

from __future__ import annotations

import dataclasses

from jmsctl.diagnostics import Diagnostic, SelectorError
from jmsctl.selector import lexer
from jmsctl.selector.checker import check
from jmsctl.selector.parser import _replay, describe_expected, parse

LIMIT = 2000
BUDGET = 40_000  # characters parsed in all, for one diagnostic (about 0.1 s at worst)

# A sample of each terminal, as a person would type it ('|' between alternatives: an ESCAPE character
# must not be the last of the pattern).
_SAMPLE = {
    "IDENT": "x", "NUMBER": "1", "STRING": "'a'|'!'", "TRUE": "TRUE", "FALSE": "FALSE", "NULL": "NULL",
    "LPAR": "(", "RPAR": ")", "COMMA": ",", "EQ": "=", "NE": "<>", "LT": "<", "LE": "<=", "GT": ">", "GE": ">=",
    "PLUS": "+", "MINUS": "-", "STAR": "*", "SLASH": "/", "AND": "AND", "OR": "OR", "NOT": "NOT",
    "BETWEEN": "BETWEEN", "IN": "IN", "LIKE": "LIKE", "IS": "IS", "ESCAPE": "ESCAPE",
}

# Ends tried after the token, by what the token is; the parentheses still open are closed after them.
_AFTER_OPERAND = ("", " = 1", " = 'a'", " AND 2", " AND x = 1")
_AFTER_OPERATOR = (" 1", " x", " 'a'", " '!'", " TRUE", " x = 1", " 1 = 1", " 1 AND 2")
_ENDS = {
    **dict.fromkeys(("IDENT", "NUMBER", "STRING", "TRUE", "FALSE", "NULL", "RPAR"), _AFTER_OPERAND),
    "BETWEEN": (" 1 AND 2",),
    "IN": (" ('a')",),
    "IS": (" NULL", " NOT NULL"),
    "NOT": (" x = 1", " TRUE", " IN ('a')", " LIKE 'a'", " BETWEEN 1 AND 2", " NULL"),
    "LPAR": (" x = 1", " 1", " 'a'", " 1) = 1", " 1) AND 2"),
}


def _valid(text: str) -> bool:
    try:
        ast = parse(text)
    except SelectorError:
        return False
    return not any(d.is_error for d in check(ast, text))


def _open_parentheses(text: str) -> int:
    depth = 0
    try:
        for tok in lexer.tokens(text):
            depth += (tok.type == "LPAR") - (tok.type == "RPAR")
    except SelectorError:
        return 0
    return max(depth, 0)


class _Budget(Exception):
    """The tries allowed for one diagnostic are spent: the parser's list stands, unnarrowed."""


def viable(text: str, terminal: str, tries: list[int] | None = None) -> bool:
    """Whether ``text`` followed by ``terminal`` can still end as a valid selector (``tries``: a
    countdown of parses allowed, shared by the terminals of one diagnostic)."""
    sample = _SAMPLE.get(terminal)
    if sample is None:
        return True  # a terminal this module does not know: keep the parser's word for it
    depth = _open_parentheses(text)
    for one in sample.split("|"):
        for end in _ENDS.get(terminal, _AFTER_OPERATOR):
            tail = f" {one}{end}"
            close = max(0, depth + tail.count("(") - tail.count(")"))
            if tries is not None:
                tries[0] -= 1
                if tries[0] < 0:
                    raise _Budget
            if _valid(text + tail + ")" * close):
                return True
    return False


class _NoFallback:
    """The parser's error, for ``_replay``'s fallback, which the prefix (parsed once already) never takes."""

    def __init__(self) -> None:
        self.expected: set[str] = set()


def narrow(text: str, diag: Diagnostic) -> Diagnostic:
    """E003 with its expected tokens reduced to the viable ones (the diagnostic itself otherwise)."""
    if diag.code != "E003" or len(text) > LIMIT:
        return diag
    acceptable, _ = _replay(text, len(text), _NoFallback())  # type: ignore[arg-type]
    tries = [BUDGET // max(len(text), 20)]  # each try parses the whole text: the work stays near BUDGET characters
    try:
        kept = {t for t in acceptable if t != "$END" and viable(text, t, tries)}
    except _Budget:
        return diag
    if not kept:
        return diag
    expected = describe_expected(kept)
    if kept >= _ARITHMETIC and not kept & _COMPARISON:  # describe_expected names them one by one here
        expected = ("an arithmetic operator", *(e for e in expected if e not in _ARITHMETIC_NAMES))
    predicates = [p for p in ("BETWEEN", "IN", "LIKE", "IS") if p in kept]
    if predicates and len(predicates) < 4:  # describe_expected names all four whenever one is there
        listed = ", ".join(predicates[:-1]) + (" or " if len(predicates) > 1 else "") + predicates[-1]
        expected = tuple(listed if e == "BETWEEN, IN, LIKE or IS" else e for e in expected)
    return dataclasses.replace(diag, expected=expected)


_ARITHMETIC = {"PLUS", "MINUS", "STAR", "SLASH"}
_ARITHMETIC_NAMES = {"'+'", "'-'", "'*'", "'/'"}
_COMPARISON = {"EQ", "NE", "LT", "LE", "GT", "GE"}


__all__ = ["LIMIT", "narrow", "viable"]

"""The parser's callbacks (lark's, by the rules' names) -> AST nodes, run inside the LALR parser (no
intermediate parse tree).

Parentheses and still-undecoded numbers travel as small wrappers so that a unary minus directly
in front of a number is folded into the literal (docs/SEMANTICS.md#integer-literals: ``-9223372036854775808``
is valid) while ``-(9223372036854775808)`` is not.
"""

from __future__ import annotations

from typing import Any

from jmsctl.diagnostics import SelectorError, Span, error
from jmsctl.selector import nodes as n
from jmsctl.selector.lexer import Token
from jmsctl.selector.literals import LiteralError, decode_number
from jmsctl.values import BOOLEAN, STRING


class _Paren:
    __slots__ = ("node", "span")

    def __init__(self, node: n.Node, span: Span) -> None:
        self.node = node
        self.span = span


class _Num:
    __slots__ = ("token",)

    def __init__(self, token: Token) -> None:
        self.token = token


Item = n.Node | _Paren | _Num | Token


def _tok_span(tok: Token) -> Span:
    return Span(tok.start_pos or 0, tok.end_pos or 0)


def _span(x: Item) -> Span:
    if isinstance(x, Token):
        return _tok_span(x)
    if isinstance(x, _Num):
        return _tok_span(x.token)
    return x.span


def _literal(text: str, negative: bool, span: Span, source_text: str) -> n.Literal:
    try:
        value = decode_number(text, negative)
    except LiteralError as exc:
        raise SelectorError(error(exc.code, exc.message, span, hint=exc.hint)) from None
    return n.Literal(value, span, source_text)


def _node(x: Item) -> n.Node:
    if isinstance(x, _Num):
        tok = x.token
        return _literal(str(tok), False, _tok_span(tok), str(tok))
    if isinstance(x, _Paren):
        return x.node
    return x  # type: ignore[return-value]


def _whole(children: list[Any]) -> Span:
    return Span(_span(children[0]).start, _span(children[-1]).end)


class Builder:
    """Stateless: one instance serves every parse (the parser is cached and shared). A method per
    rule name or alias of grammar.lark, given the rule's children, as a lark Transformer's are."""

    def start(self, children: list[Item]) -> n.Node | None:
        return _node(children[0]) if children else None

    def or_(self, c: list[Item]) -> n.Node:
        return n.Or(_node(c[0]), _node(c[2]), _whole(c))

    def and_(self, c: list[Item]) -> n.Node:
        return n.And(_node(c[0]), _node(c[2]), _whole(c))

    def not_(self, c: list[Item]) -> n.Node:
        return n.Not(_node(c[1]), _whole(c))

    def cmp_op(self, c: list[Token]) -> Token:
        return c[0]

    def comparison(self, c: list[Item]) -> n.Node:
        op = c[1]
        assert isinstance(op, Token)
        return n.Comparison(str(op), _node(c[0]), _node(c[2]), _whole(c), _tok_span(op))

    def between(self, c: list[Item]) -> n.Node:
        negated = len(c) == 6
        lo, hi = (c[3], c[5]) if negated else (c[2], c[4])
        return n.Between(negated, _node(c[0]), _node(lo), _node(hi), _whole(c))

    def in_items(self, c: list[Item]) -> list[n.Node]:
        return [_node(x) for x in c if not isinstance(x, Token)]

    def in_(self, c: list[Any]) -> n.Node:
        negated = len(c) == 6
        items = c[4] if negated else c[3]
        return n.InList(negated, _node(c[0]), tuple(items), _whole(c))

    def like(self, c: list[Item]) -> n.Node:
        negated = isinstance(c[1], Token) and c[1].type == "NOT"
        rest = c[3:] if negated else c[2:]
        escape = _node(rest[2]) if len(rest) == 3 else None
        return n.Like(negated, _node(c[0]), _node(rest[0]), escape, _whole(c))

    def is_null(self, c: list[Item]) -> n.Node:
        return n.IsNull(len(c) == 4, _node(c[0]), _whole(c))

    def arithmetic(self, c: list[Item]) -> n.Node:
        op = c[1]
        assert isinstance(op, Token)
        return n.Arithmetic(str(op), _node(c[0]), _node(c[2]), _whole(c), _tok_span(op))

    def unary(self, c: list[Item]) -> n.Node:
        op, operand = c
        assert isinstance(op, Token)
        if isinstance(operand, _Num):
            # A sign directly in front of a number is part of the literal (range and type).
            span = Span(_tok_span(op).start, _tok_span(operand.token).end)
            text = str(operand.token)
            return _literal(text, op.type == "MINUS", span, str(op) + text)
        return n.Unary(str(op), _node(operand), _whole(c))

    def number(self, c: list[Token]) -> _Num:
        return _Num(c[0])

    def string(self, c: list[Token]) -> n.Node:
        tok = c[0]
        return n.Literal((STRING, str(tok)), _tok_span(tok), "")

    def boolean(self, c: list[Token]) -> n.Node:
        tok = c[0]
        return n.Literal((BOOLEAN, tok.type == "TRUE"), _tok_span(tok), str(tok))

    def identifier(self, c: list[Token]) -> n.Node:
        tok = c[0]
        return n.Identifier(str(tok), _tok_span(tok))

    def paren(self, c: list[Any]) -> _Paren:
        return _Paren(_node(c[1]), _whole(c))

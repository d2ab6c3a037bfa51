"""The selector AST: typed, frozen nodes with source spans.

Spans take no part in equality, so an AST printed and parsed again compares equal to the original.
The parser accepts a slightly larger language than the javadoc (any operand in an IN list, chained
comparisons, ...) so that the checker can say precisely what is wrong; only a checked AST reaches
a backend.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jmsctl.diagnostics import Span

# Re-exported: the AST's users read the javadoc's names from here too (their home is jmsctl/spec).
from jmsctl.spec import HEADERS as HEADERS
from jmsctl.spec import JMSX_TYPES as JMSX_TYPES
from jmsctl.spec import IdentifierKind as IdentifierKind
from jmsctl.spec import identifier_kind as identifier_kind
from jmsctl.values import TypedValue

NO_SPAN = Span(0, 0)


@dataclass(frozen=True, slots=True)
class Literal:
    """A literal with its Java type; ``text`` is the source spelling (for warnings and explain)."""

    value: TypedValue
    span: Span = field(default=NO_SPAN, compare=False, repr=False)
    text: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Identifier:
    name: str
    span: Span = field(default=NO_SPAN, compare=False, repr=False)

    @property
    def kind(self) -> IdentifierKind:
        return identifier_kind(self.name)


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # '+' or '-'
    operand: Node
    span: Span = field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Arithmetic:
    op: str  # '+', '-', '*', '/'
    left: Node
    right: Node
    span: Span = field(default=NO_SPAN, compare=False, repr=False)
    op_span: Span = field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Comparison:
    op: str  # '=', '<>', '<', '<=', '>', '>='
    left: Node
    right: Node
    span: Span = field(default=NO_SPAN, compare=False, repr=False)
    op_span: Span = field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Between:
    negated: bool
    operand: Node
    low: Node
    high: Node
    span: Span = field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class InList:
    negated: bool
    operand: Node
    items: tuple[Node, ...]
    span: Span = field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Like:
    negated: bool
    operand: Node
    pattern: Node
    escape: Node | None
    span: Span = field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class IsNull:
    negated: bool
    operand: Node
    span: Span = field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Not:
    operand: Node
    span: Span = field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class And:
    left: Node
    right: Node
    span: Span = field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Or:
    left: Node
    right: Node
    span: Span = field(default=NO_SPAN, compare=False, repr=False)


Node = Literal | Identifier | Unary | Arithmetic | Comparison | Between | InList | Like | IsNull | Not | And | Or

PREDICATES = (Comparison, Between, InList, Like, IsNull)
LOGICAL = (Not, And, Or)


def children(node: Node) -> tuple[Node, ...]:
    """Operands in source order, for generic walks (checker, explainer, tests)."""
    if isinstance(node, (Literal, Identifier)):
        return ()
    if isinstance(node, (Unary, Not, IsNull)):
        return (node.operand,)
    if isinstance(node, (Arithmetic, Comparison, And, Or)):
        return (node.left, node.right)
    if isinstance(node, Between):
        return (node.operand, node.low, node.high)
    if isinstance(node, InList):
        return (node.operand, *node.items)
    if node.escape is None:
        return (node.operand, node.pattern)
    return (node.operand, node.pattern, node.escape)


def chain(node: And | Or) -> list[Node]:
    """The operands of an AND (OR) chain, in source order: every AND (OR) directly under it, however
    parenthesised, is part of the chain (the operators are associative, also in three-valued logic)."""
    kind = type(node)
    out: list[Node] = []
    stack: list[Node] = [node]
    while stack:
        cur = stack.pop()
        if type(cur) is kind:
            stack.append(cur.right)  # type: ignore[union-attr]
            stack.append(cur.left)  # type: ignore[union-attr]
        else:
            out.append(cur)
    return out


def walk(node: Node) -> list[Node]:
    """All nodes, pre-order, without recursion (deep selectors must not hit Python's stack limit)."""
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(children(n)))
    return out


def node_label(node: Node) -> str:
    """A short name for a node in trees and messages."""
    if isinstance(node, Literal):
        return "literal"
    if isinstance(node, Identifier):
        return node.kind.value
    if isinstance(node, (Arithmetic, Comparison)):
        return f"{type(node).__name__} {node.op}"
    if isinstance(node, Unary):
        return f"unary {node.op}"
    negated = getattr(node, "negated", False)
    names = {Between: "BETWEEN", InList: "IN", Like: "LIKE", IsNull: "IS NULL", Not: "NOT", And: "AND", Or: "OR"}
    name = names[type(node)]
    if negated:
        name = "IS NOT NULL" if isinstance(node, IsNull) else f"NOT {name}"
    return name

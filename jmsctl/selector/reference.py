"""A slow, plain tree-walking evaluator that records every node's value and the reason for it.

It is what ``explain --message`` shows, and the reference the compiled evaluator is tested
against: it evaluates every node (no short-circuit, no specialisation), straight from the
rulings, through the shared value model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jmsctl.selector import nodes as n
from jmsctl.selector.like import compile_like
from jmsctl.values import (
    BOOLEAN,
    STRING,
    TYPE_ERROR,
    Tri,
    Value,
    arithmetic,
    compare,
    format_value,
    is_type_error_operand,
    negate,
    tri_and,
    tri_name,
    tri_not,
    tri_or,
    unary_plus,
    unlike_types,
)


@dataclass(frozen=True)
class NodeResult:
    value: Any  # a Value for value nodes, a Tri for conditions
    is_condition: bool
    reason: str

    def shown(self) -> str:
        return tri_name(self.value) if self.is_condition else format_value(self.value)


@dataclass
class Evaluation:
    result: Tri = None
    results: dict[int, NodeResult] = field(default_factory=dict)
    whole_false: str | None = None  # IBM dialect: why the complete selector is FALSE

    def of(self, node: n.Node) -> NodeResult:
        return self.results[id(node)]

    @property
    def selected(self) -> bool:
        return self.result is True


def evaluate(node: n.Node | None, get: Callable[[str], Any], dialect: str = "jakarta") -> Evaluation:
    ev = Evaluation()
    if node is None:
        ev.result = True
        return ev
    walker = _Walker(get, dialect == "ibm", ev)
    result = walker.cond(node)
    ev.result = False if ev.whole_false is not None else result
    return ev


def _pair(a: Value, b: Value) -> str:
    return f"{format_value(a)} and {format_value(b)}"


class _Walker:
    def __init__(self, get: Callable[[str], Any], ibm: bool, ev: Evaluation) -> None:
        self.get, self.ibm, self.ev = get, ibm, ev

    def _record(self, node: n.Node, value: Any, is_condition: bool, reason: str) -> Any:
        self.ev.results[id(node)] = NodeResult(value, is_condition, reason)
        return value

    def _whole_false(self, why: str) -> None:
        if self.ev.whole_false is None:
            self.ev.whole_false = why

    def value(self, node: n.Node) -> Value:
        if isinstance(node, n.Literal):
            return self._record(node, node.value, False, "literal")  # type: ignore[no-any-return]
        if isinstance(node, n.Identifier):
            v = self.get(node.name)
            why = f"{node.kind.value} {node.name} is absent: NULL" if v is None else f"{node.kind.value} {node.name}"
            return self._record(node, v, False, why)  # type: ignore[no-any-return]
        if isinstance(node, n.Unary):
            a = self.value(node.operand)
            r = negate(a) if node.op == "-" else unary_plus(a)
            if self.ibm and a is None:
                self._whole_false("IBM: arithmetic on NULL makes the whole selector FALSE")
            return self._record(node, r, False, self._arith_reason(node.op, (a,), r))  # type: ignore[no-any-return]
        assert isinstance(node, n.Arithmetic)
        a, b = self.value(node.left), self.value(node.right)
        r = arithmetic(node.op, a, b)
        if self.ibm and r is None and (a is None or b is None):
            self._whole_false("IBM: arithmetic on NULL makes the whole selector FALSE")
        return self._record(node, r, False, self._arith_reason(node.op, (a, b), r))  # type: ignore[no-any-return]

    def _arith_reason(self, op: str, operands: tuple[Value, ...], r: Value) -> str:
        if r is TYPE_ERROR:
            bad = next(o for o in operands if is_type_error_operand(o))
            return f"{format_value(bad)} is not a number: type error"
        if r is None:
            if any(o is None for o in operands):
                return "an operand is NULL: NULL"
            return "integer division by zero: NULL"
        shown = " ".join(f"{op} {format_value(o)}" if i or len(operands) == 1 else format_value(o) for i, o in enumerate(operands))
        return f"{shown} in {r[0].java_name} arithmetic"  # type: ignore[index]

    def cond(self, node: n.Node) -> Tri:
        if isinstance(node, (n.And, n.Or)):
            a, b = self.cond(node.left), self.cond(node.right)
            op = "AND" if isinstance(node, n.And) else "OR"
            r = tri_and(a, b) if op == "AND" else tri_or(a, b)
            return self._record(node, r, True, f"{tri_name(a)} {op} {tri_name(b)}")  # type: ignore[no-any-return]
        if isinstance(node, n.Not):
            a = self.cond(node.operand)
            return self._record(node, tri_not(a), True, f"NOT {tri_name(a)}")  # type: ignore[no-any-return]
        if isinstance(node, n.Comparison):
            return self._comparison(node)
        if isinstance(node, n.Between):
            return self._between(node)
        if isinstance(node, (n.InList, n.Like)):
            return self._string_predicate(node)
        if isinstance(node, n.IsNull):
            v = self.value(node.operand)
            r = (v is None) is not node.negated
            return self._record(node, r, True, f"{'NULL' if v is None else format_value(v)} {'IS NOT' if node.negated else 'IS'} NULL")  # type: ignore[no-any-return]
        if isinstance(node, n.Literal):
            return self._record(node, bool(node.value[1]), True, "boolean literal")  # type: ignore[no-any-return]
        assert isinstance(node, n.Identifier)
        v = self.value(node)
        if v is None:
            return self._record(node, None, True, f"{node.name} is absent: UNKNOWN")  # type: ignore[no-any-return]
        if v[0] is BOOLEAN:  # type: ignore[index]
            return self._record(node, v[1], True, f"boolean {node.kind.value} {node.name}")  # type: ignore[index, no-any-return]
        return self._record(node, False, True, f"{format_value(v)} is not a boolean: FALSE")  # type: ignore[no-any-return]

    def _comparison(self, node: n.Comparison) -> Tri:
        a, b = self.value(node.left), self.value(node.right)
        r = compare(node.op, a, b)
        if self.ibm and unlike_types(a, b):
            self._whole_false(f"IBM: comparing unlike types ({_pair(a, b)}) makes the whole selector FALSE")
        return self._record(node, r, True, _comparison_reason(node.op, a, b, r))  # type: ignore[no-any-return]

    def _between(self, node: n.Between) -> Tri:
        v, lo, hi = self.value(node.operand), self.value(node.low), self.value(node.high)
        if node.negated:
            r1, r2 = compare("<", v, lo), compare(">", v, hi)
            r, why = tri_or(r1, r2), f"x < low is {tri_name(r1)}, x > high is {tri_name(r2)}"
        else:
            r1, r2 = compare(">=", v, lo), compare("<=", v, hi)
            r, why = tri_and(r1, r2), f"x >= low is {tri_name(r1)}, x <= high is {tri_name(r2)}"
        if self.ibm:
            if unlike_types(v, lo) or unlike_types(v, hi):
                self._whole_false("IBM: BETWEEN on unlike types makes the whole selector FALSE")
            elif v is None or lo is None or hi is None:
                r, why = node.negated, f"IBM: {'NOT BETWEEN' if node.negated else 'BETWEEN'} with a NULL operand is {tri_name(node.negated)}"
        return self._record(node, r, True, why)  # type: ignore[no-any-return]

    def _string_predicate(self, node: n.InList | n.Like) -> Tri:
        v = self.value(node.operand)
        literals = node.items if isinstance(node, n.InList) else (node.pattern,) if node.escape is None else (node.pattern, node.escape)
        for lit in literals:
            self.value(lit)
        what = "IN" if isinstance(node, n.InList) else "LIKE"
        if v is None:
            return self._record(node, None, True, f"NULL {what}: UNKNOWN")  # type: ignore[no-any-return]
        if v[0] is not STRING:  # type: ignore[index]
            return self._record(node, None, True, f"{what} is defined for Strings only, not {format_value(v)}: UNKNOWN")  # type: ignore[no-any-return]
        s = v[1]  # type: ignore[index]
        if isinstance(node, n.InList):
            hit = s in {item.value[1] for item in node.items}  # type: ignore[union-attr]
            why = f"{format_value(v)} is {'' if hit else 'not '}in the list"
        else:
            escape = node.escape.value[1] if node.escape is not None else None  # type: ignore[union-attr]
            hit = compile_like(node.pattern.value[1], escape)(s)  # type: ignore[union-attr]
            why = f"{format_value(v)} {'matches' if hit else 'does not match'} the pattern"
        return self._record(node, hit is not node.negated, True, why)  # type: ignore[no-any-return]


def _comparison_reason(op: str, a: Value, b: Value, r: Tri) -> str:
    if a is TYPE_ERROR or b is TYPE_ERROR:
        return "an operand is a type error: FALSE"
    if a is None or b is None:
        return "an operand is NULL: UNKNOWN"
    ta, tb = a[0], b[0]  # type: ignore[index]
    if ta.is_numeric and tb.is_numeric:
        return f"{format_value(a)} {op} {format_value(b)}"
    if ta is not tb:
        return f"unlike types ({ta.java_name} and {tb.java_name}): FALSE"
    if op not in ("=", "<>"):
        return f"{ta.java_name} values take only = and <>: FALSE"
    return f"{format_value(a)} {op} {format_value(b)}"

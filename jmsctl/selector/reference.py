"""A slow, plain tree-walking evaluator that records every node's value and the reason for it.

It is what ``explain --message`` shows, and the reference the compiled evaluator is tested
against: it evaluates every node (no short-circuit, no specialisation), straight from the
rulings, through the shared value model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jmsctl.selector import dialects
from jmsctl.selector import nodes as n
from jmsctl.selector.like import compile_like
from jmsctl.selector.limits import clip
from jmsctl.values import (
    BOOLEAN,
    DOUBLE,
    FLOAT,
    LONG,
    STRING,
    TYPE_ERROR,
    JType,
    Tri,
    Value,
    arithmetic,
    as_float,
    compare,
    format_plain,
    format_value,
    is_type_error_operand,
    negate,
    promote,
    tri_and,
    tri_name,
    tri_not,
    tri_or,
    unary_plus,
    unlike_types,
)


def _shown(v: Value) -> str:
    """A value as explain shows it: a huge String is cut (it may be read in many places)."""
    return clip(format_value(v), 200)


@dataclass(frozen=True)
class NodeResult:
    value: Any  # a Value for value nodes, a Tri for conditions
    is_condition: bool
    reason: str

    def shown(self) -> str:
        return tri_name(self.value) if self.is_condition else _shown(self.value)


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
    walker = _Walker(get, dialects.get(dialect).ibm_whole_false, ev)
    result = walker.run(node)
    ev.result = False if ev.whole_false is not None else result
    return ev


def _pair(a: Value, b: Value) -> str:
    return f"{_shown(a)} and {_shown(b)}"


class _Walker:
    def __init__(self, get: Callable[[str], Any], ibm: bool, ev: Evaluation) -> None:
        self.get, self.ibm, self.ev = get, ibm, ev

    def _record(self, node: n.Node, value: Any, is_condition: bool, reason: str) -> Any:
        self.ev.results[id(node)] = NodeResult(value, is_condition, reason)
        return value

    def _whole_false(self, why: str) -> None:
        if self.ev.whole_false is None:
            self.ev.whole_false = why

    def run(self, root: n.Node) -> Tri:
        """Every node, post-order and left to right, with an explicit stack (any depth, any chain length).

        A node's operands leave their values on ``values``; the node takes them off and leaves its own.
        """
        values: list[Any] = []
        stack: list[tuple[n.Node, bool, bool]] = [(root, True, False)]  # (node, as a condition, operands done)
        while stack:
            node, is_cond, done = stack.pop()
            if done:
                values.append(self._finish(node, is_cond, values))
                continue
            operands = _operands(node, is_cond)
            if not operands:
                values.append(self._leaf(node, is_cond))
                continue
            stack.append((node, is_cond, True))
            stack.extend(reversed(operands))
        return values.pop()  # type: ignore[no-any-return]

    def _leaf(self, node: n.Node, is_cond: bool) -> Any:
        if isinstance(node, n.Literal):
            if is_cond:
                return self._record(node, bool(node.value[1]), True, "boolean literal")
            return self._record(node, node.value, False, "literal")
        if not isinstance(node, n.Identifier):
            raise TypeError(f"not a {'condition' if is_cond else 'value'}: {type(node).__name__}")  # the checker rejects it
        v = self.get(node.name)
        why = f"{node.kind.value} {node.name} is absent: NULL" if v is None else f"{node.kind.value} {node.name}"
        self._record(node, v, False, why)
        if not is_cond:
            return v
        if v is None:
            return self._record(node, None, True, f"{node.name} is absent: UNKNOWN")
        if v[0] is BOOLEAN:
            return self._record(node, v[1], True, f"boolean {node.kind.value} {node.name}")
        if self.ibm:  # docs/SEMANTICS.md#ibm-dialect: 'x' stands for 'x = TRUE', a comparison of unlike types
            self._whole_false(f"IBM: {node.name} ({_shown(v)}) used as a condition is not a boolean: the whole selector is FALSE")
        return self._record(node, False, True, f"{_shown(v)} is not a boolean: FALSE")

    def _finish(self, node: n.Node, is_cond: bool, values: list[Any]) -> Any:
        """The value of a node whose operands' values are on top of ``values`` (taken off here)."""
        if isinstance(node, n.Unary):
            a = values.pop()
            r = negate(a) if node.op == "-" else unary_plus(a)
            if self.ibm and a is None:
                self._whole_false("IBM: arithmetic on NULL makes the whole selector FALSE")
            return self._record(node, r, False, self._arith_reason(node.op, (a,), r))
        if isinstance(node, n.Arithmetic):
            b, a = values.pop(), values.pop()
            r = arithmetic(node.op, a, b)
            if self.ibm and r is None and (a is None or b is None):
                self._whole_false("IBM: arithmetic on NULL makes the whole selector FALSE")
            return self._record(node, r, False, self._arith_reason(node.op, (a, b), r))
        if isinstance(node, (n.And, n.Or)):
            b, a = values.pop(), values.pop()
            op = "AND" if isinstance(node, n.And) else "OR"
            t = tri_and(a, b) if op == "AND" else tri_or(a, b)
            return self._record(node, t, True, f"{tri_name(a)} {op} {tri_name(b)}")
        if isinstance(node, n.Not):
            a = values.pop()
            return self._record(node, tri_not(a), True, f"NOT {tri_name(a)}")
        if isinstance(node, n.Comparison):
            b, a = values.pop(), values.pop()
            return self._comparison(node, a, b)
        if isinstance(node, n.Between):
            hi, lo, v = values.pop(), values.pop(), values.pop()
            return self._between(node, v, lo, hi)
        if isinstance(node, (n.InList, n.Like)):
            count = len(node.items) if isinstance(node, n.InList) else 1 if node.escape is None else 2
            del values[len(values) - count :]  # the literals' values (recorded for explain)
            return self._string_predicate(node, values.pop())
        assert isinstance(node, n.IsNull)
        v = values.pop()
        null = (v is None) is not node.negated
        return self._record(node, null, True, f"{'NULL' if v is None else _shown(v)} {'IS NOT' if node.negated else 'IS'} NULL")

    def _arith_reason(self, op: str, operands: tuple[Value, ...], r: Value) -> str:
        if r is TYPE_ERROR:
            bad = next(o for o in operands if is_type_error_operand(o))
            return f"{_shown(bad)} is not a number: type error"
        if r is None:
            if any(o is None for o in operands):
                return "an operand is NULL: NULL"
            return "integer division by zero: NULL"
        shown = " ".join(f"{op} {_shown(o)}" if i or len(operands) == 1 else _shown(o) for i, o in enumerate(operands))
        return f"{shown} in {r[0].java_name} arithmetic"  # type: ignore[index]

    def _comparison(self, node: n.Comparison, a: Value, b: Value) -> Tri:
        r = compare(node.op, a, b)
        if self.ibm and unlike_types(a, b):
            self._whole_false(f"IBM: comparing unlike types ({_pair(a, b)}) makes the whole selector FALSE")
        return self._record(node, r, True, _comparison_reason(node.op, a, b, r))  # type: ignore[no-any-return]

    def _between(self, node: n.Between, v: Value, lo: Value, hi: Value) -> Tri:
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

    def _string_predicate(self, node: n.InList | n.Like, v: Value) -> Tri:
        what = "IN" if isinstance(node, n.InList) else "LIKE"
        if v is None:
            return self._record(node, None, True, f"NULL {what}: UNKNOWN")  # type: ignore[no-any-return]
        if v[0] is not STRING:  # type: ignore[index]
            return self._record(node, None, True, f"{what} is defined for Strings only, not {_shown(v)}: UNKNOWN")  # type: ignore[no-any-return]
        s = v[1]  # type: ignore[index]
        if isinstance(node, n.InList):
            hit = s in {item.value[1] for item in node.items}  # type: ignore[union-attr]
            why = f"{_shown(v)} is {'' if hit else 'not '}in the list"
        else:
            escape = node.escape.value[1] if node.escape is not None else None  # type: ignore[union-attr]
            hit = compile_like(node.pattern.value[1], escape)(s)  # type: ignore[union-attr]
            why = f"{_shown(v)} {'matches' if hit else 'does not match'} the pattern"
        return self._record(node, hit is not node.negated, True, why)  # type: ignore[no-any-return]


def _operands(node: n.Node, is_cond: bool) -> list[tuple[n.Node, bool, bool]]:
    """Stack entries for a node's operands, in source order: (operand, as a condition, not done)."""
    if isinstance(node, (n.Literal, n.Identifier)):
        return []
    if isinstance(node, (n.And, n.Or)):
        return [(node.left, True, False), (node.right, True, False)]
    if isinstance(node, n.Not):
        return [(node.operand, True, False)]
    if is_cond and not isinstance(node, n.PREDICATES):
        raise TypeError(f"not a condition: {type(node).__name__}")  # the checker rejects it
    if not is_cond and not isinstance(node, (n.Unary, n.Arithmetic)):
        raise TypeError(f"not a value: {type(node).__name__}")
    return [(c, False, False) for c in n.children(node)]


def _promoted(v: Value, other: JType) -> str:
    """The operand as shown, with its promotion where the promotion changes its value (an int
    rounded to float decides `16777216.0 (float) = 16777217 (int → float 16777216.0)`: TRUE)."""
    t, x = v  # type: ignore[misc]
    target = promote(t, other)
    if target in (FLOAT, DOUBLE) and t <= LONG:
        widened = as_float(t, x, target)
        if widened != x:
            return f"{format_plain(t, x)} ({t.java_name} → {target.java_name} {format_plain(target, widened)})"
    return _shown(v)


def _comparison_reason(op: str, a: Value, b: Value, r: Tri) -> str:
    if a is TYPE_ERROR or b is TYPE_ERROR:
        return "an operand is a type error: FALSE"
    if a is None or b is None:
        return "an operand is NULL: UNKNOWN"
    ta, tb = a[0], b[0]  # type: ignore[index]
    if ta.is_numeric and tb.is_numeric:
        return f"{_promoted(a, tb)} {op} {_promoted(b, ta)}"
    if ta is not tb:
        return f"unlike types ({ta.java_name} and {tb.java_name}): FALSE"
    if op not in ("=", "<>"):
        return f"{ta.java_name} values take only = and <>: FALSE"
    return f"{_shown(a)} {op} {_shown(b)}"

"""A cheap proof that selectors are never TRUE together (``disjoint``; one selector: ``never``), before the full encoding:
each name's value is abstracted to its kind, and every value relation to one unknown per pair of
operands, shared wherever the same two operands meet again.

`s LIKE 'a%b'` against `f - f / t <= s` (s a String in one, a number in the other), `n > t`
against `n = t` (one order of n and t, whatever their types), `flag IS NULL` against `+flag = f`:
z3 and cvc5 spent up to 2.6 s of the full encoding's floating-point terms on pairs like these in
the 200-selector overlap matrix (bench/README.md); here they are a formula of a few integers.

Why it is sound: for any message, give every unknown its value on that message (a name's kind:
absent, boolean, int, long, float, double or String, as smt.py's value table; the order of two
operands' promoted values, one of LT, EQ, GT, unordered; whether a divisor is zero; whether a
String matches a LIKE or an IN list; a boolean's value). Each abstract condition then has the
verdict the engine gives, by the same kind rules as smt.py (a String or boolean in arithmetic is
an error that compares FALSE, NULL is UNKNOWN, integer division by zero is NULL). So a message
selected by every selector satisfies the abstract formula, and "no solution" is a proof. The
converse does not hold (`x = 1` and `x = 2` are two unrelated orders): "a solution" proves nothing.
Jakarta's reading only (IBM's NOT BETWEEN is TRUE on NULL).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import z3

from jmsctl.analysis.folding import and_all, or_all
from jmsctl.analysis.smt import FIXED_TYPES, K, Unsupported
from jmsctl.selector import nodes as n
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, LONG, STRING, JType

Tri = tuple[z3.BoolRef, z3.BoolRef]  # (is TRUE, is FALSE)
Kinds = dict[K, z3.BoolRef]  # the kinds a value may have, each with its guard
TRUE_F, FALSE_F = z3.BoolVal(True), z3.BoolVal(False)
NUMERIC = (K.I32, K.I64, K.F32, K.F64)
LT, EQ, GT = 0, 1, 2  # an order's values; anything else is unordered (a NaN)
RLIMIT = 400_000  # z3's units for one question (most take a few thousand; one bench pair 104,000)


def kind_of(t: JType | None) -> K:
    if t is None:
        return K.NULL
    if t is BOOLEAN:
        return K.BOOL
    if t is STRING:
        return K.STR
    return K.I64 if t is LONG else K.F32 if t is FLOAT else K.F64 if t is DOUBLE else K.I32


def _shared(key: tuple[object, ...], make: type) -> z3.ExprRef:
    """The unknown of a key of AST nodes, named by its repr (exact: spans are left out, values and
    strings written as Python writes them): the same unknown in every selector and every process."""
    return make(f"kinds!{key!r}")


class Abstraction:
    """One selector's abstract (is TRUE, is FALSE) and its names' kind constraints."""

    def __init__(self, ast: n.Node | None) -> None:
        self.constraints: list[z3.BoolRef] = []
        self._names: set[str] = set()
        self.tri: Tri = (TRUE_F, FALSE_F) if ast is None else self.cond(ast)

    # ----- values ----------------------------------------------------------------------------

    def kind_var(self, name: str) -> tuple[z3.ArithRef, list[K]]:
        var = z3.Int(f"kinds!{name}")  # by name: the same unknown in every selector
        fixed = FIXED_TYPES.get(name)
        allowed = [K.NULL, kind_of(fixed)] if fixed is not None else [K.NULL, K.BOOL, K.I32, K.I64, K.F32, K.F64, K.STR]
        if name not in self._names:
            self._names.add(name)
            self.constraints.append(or_all([var == int(k) for k in allowed]))
        return var, allowed

    def value(self, node: n.Node) -> Kinds:
        if isinstance(node, n.Literal):
            return {kind_of(node.value[0]): TRUE_F}
        if isinstance(node, n.Identifier):
            var, allowed = self.kind_var(node.name)
            return {k: var == int(k) for k in allowed}
        if isinstance(node, n.Unary):
            out: Kinds = {}
            for k, g in self.value(node.operand).items():
                _add(out, K.ERR if k in (K.BOOL, K.STR) else k, g)
            return out
        if isinstance(node, n.Arithmetic):
            return self._arithmetic(node)
        raise Unsupported(f"not a value: {type(node).__name__}")

    def _arithmetic(self, node: n.Arithmetic) -> Kinds:
        a, b = self.value(node.left), self.value(node.right)
        out: Kinds = {}
        for (ka, ga), (kb, gb) in itertools.product(a.items(), b.items()):
            g = and_all(ga, gb)
            if ka in (K.ERR, K.BOOL, K.STR) or kb in (K.ERR, K.BOOL, K.STR):
                _add(out, K.ERR, g)
            elif K.NULL in (ka, kb):
                _add(out, K.NULL, g)
            else:
                k = _promoted(ka, kb)
                if k in (K.I32, K.I64) and node.op == "/":  # a zero divisor gives NULL
                    zero = _shared(("zero", node.right), z3.Bool)
                    _add(out, K.NULL, and_all(g, zero))
                    _add(out, k, and_all(g, z3.Not(zero)))
                else:
                    _add(out, k, g)
        return out

    # ----- conditions ------------------------------------------------------------------------

    def cond(self, node: n.Node) -> Tri:
        if isinstance(node, (n.And, n.Or)):
            parts = [self.cond(c) for c in n.chain(node)]
            ts, fs = [t for t, _ in parts], [f for _, f in parts]
            return (and_all(*ts), or_all(fs)) if isinstance(node, n.And) else (or_all(ts), and_all(*fs))
        if isinstance(node, n.Not):
            t, f = self.cond(node.operand)
            return f, t
        if isinstance(node, n.Comparison):
            return self.compare(node.op, node.left, node.right)
        if isinstance(node, n.Between):
            if node.negated:
                (t1, f1), (t2, f2) = self.compare("<", node.operand, node.low), self.compare(">", node.operand, node.high)
                return or_all([t1, t2]), and_all(f1, f2)
            (t1, f1), (t2, f2) = self.compare(">=", node.operand, node.low), self.compare("<=", node.operand, node.high)
            return and_all(t1, t2), or_all([f1, f2])
        if isinstance(node, n.InList):
            return self._string_test(node.operand, node.negated, ("in", node.operand, node.items))
        if isinstance(node, n.Like):
            return self._string_test(node.operand, node.negated, ("like", node.operand, node.pattern, node.escape))
        if isinstance(node, n.IsNull):
            null = self.value(node.operand).get(K.NULL, FALSE_F)
            return (z3.Not(null), null) if node.negated else (null, z3.Not(null))
        if isinstance(node, n.Literal) and node.value[0] is BOOLEAN:
            return (TRUE_F, FALSE_F) if node.value[1] else (FALSE_F, TRUE_F)
        if isinstance(node, n.Identifier):
            v = self.value(node)
            other = or_all([g for k, g in v.items() if k not in (K.NULL, K.BOOL)])
            if K.BOOL not in v:
                return FALSE_F, other
            b = z3.Bool(f"kinds!{node.name}!value")
            return and_all(v[K.BOOL], b), or_all([and_all(v[K.BOOL], z3.Not(b)), other])
        raise Unsupported(f"not a condition: {type(node).__name__}")

    def _string_test(self, operand: n.Node, negated: bool, key: tuple[object, ...]) -> Tri:
        g = self.value(operand).get(K.STR)
        if g is None:
            return FALSE_F, FALSE_F  # NULL and every other kind: UNKNOWN
        hit = _shared(key, z3.Bool)
        t, f = and_all(g, hit), and_all(g, z3.Not(hit))
        return (f, t) if negated else (t, f)

    def compare(self, op: str, left: n.Node, right: n.Node) -> Tri:
        a, b = self.value(left), self.value(right)
        if repr(left) > repr(right):  # one orientation for the two operands, wherever they meet
            left, right, op = right, left, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
            a, b = b, a
        order = _shared(("order", left, right), z3.Int)
        hit = {"=": order == EQ, "<>": order != EQ, "<": order == LT, ">": order == GT,
               "<=": z3.Or(order == LT, order == EQ), ">=": z3.Or(order == GT, order == EQ)}[op]
        trues: list[z3.BoolRef] = []
        falses: list[z3.BoolRef] = []
        for (ka, ga), (kb, gb) in itertools.product(a.items(), b.items()):
            g = and_all(ga, gb)
            if K.ERR in (ka, kb):
                falses.append(g)
            elif K.NULL in (ka, kb):
                continue  # UNKNOWN
            elif (ka in NUMERIC and kb in NUMERIC) or (ka is kb and op in ("=", "<>")):
                trues.append(and_all(g, hit))
                falses.append(and_all(g, z3.Not(hit)))
            else:  # unlike kinds, or a String or boolean ordered: FALSE
                falses.append(g)
        return or_all(trues), or_all(falses)


def _add(out: Kinds, k: K, g: z3.BoolRef) -> None:
    if z3.is_false(g):
        return
    out[k] = or_all([out[k], g]) if k in out else g


def _promoted(ka: K, kb: K) -> K:
    if ka in (K.I32, K.I64) and kb in (K.I32, K.I64):
        return K.I32 if ka is kb is K.I32 else K.I64
    return K.F64 if K.F64 in (ka, kb) else K.F32


def never_together(abstractions: Sequence[Abstraction], rlimit: int = RLIMIT) -> bool:
    """Proved: no message makes every selector TRUE (their abstractions have no common solution),
    within ``rlimit`` units (RLIMIT at most)."""
    ctx = z3.Context()  # a context of its own: the answer depends on the question only (budget.fresh)
    s = z3.SimpleSolver(ctx=ctx)  # z3's SMT core without the tactics' set-up: 0.8 ms where Solver takes 2.3 (load 3)
    s.set("rlimit", max(1, min(RLIMIT, rlimit)))
    for a in abstractions:
        s.add(*(c.translate(ctx) for c in (*a.constraints, a.tri[0])))
    return s.check() == z3.unsat


@functools.lru_cache(maxsize=4096)
def abstraction(ast: n.Node | None) -> Abstraction | None:
    """The selector's abstraction (made once), or None where it has a construct outside the encoding."""
    try:
        return Abstraction(ast)
    except Unsupported:
        return None


__all__ = ["Abstraction", "abstraction", "never_together"]

"""Checked AST -> a tree of Python closures: the local evaluator.

Compiled once per selector; evaluating a message only calls closures, never re-walks the AST.
The hot shapes (identifier compared with a literal, AND/OR chains) get specialised closures.
A closure receives ``get``, the message's ``name -> typed value | None`` lookup (dict.get of a
message view, or anything with that shape).

Dialect ``ibm`` (docs/SEMANTICS.md#ibm-dialect) raises ``_WholeSelectorFalse`` from the innermost
operation and evaluates every operand (no short-circuit), so that whether a selector is
FALSE does not depend on evaluation order.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from jmsctl.selector import dialects
from jmsctl.selector import nodes as n
from jmsctl.selector.like import compile_like
from jmsctl.values import (
    BOOLEAN,
    BYTE,
    COMPARATORS,
    DOUBLE,
    FLOAT,
    LONG,
    STRING,
    TYPE_ERROR,
    Tri,
    TypedValue,
    Value,
    arithmetic,
    compare,
    int_to_f32,
    negate,
    unary_plus,
    unlike_types,
)

Getter = Callable[[str], Any]
Cond = Callable[[Getter], Tri]
Val = Callable[[Getter], Value]

FLIP = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


class _WholeSelectorFalse(Exception):
    """IBM dialect: an operation that makes the complete selector FALSE."""


def compile_selector(node: n.Node | None, dialect: str = "jakarta") -> Callable[[Getter], Tri]:
    """The evaluation function of a checked AST; None (no selector) selects everything."""
    if node is None:
        return lambda get: True
    if dialects.get(dialect).ibm_whole_false:
        inner = _Compiler(ibm=True).cond(node)

        def ibm(get: Getter) -> Tri:
            try:
                return inner(get)
            except _WholeSelectorFalse:
                return False

        return ibm
    return _Compiler(ibm=False).cond(node)


class _Compiler:
    def __init__(self, ibm: bool) -> None:
        self.ibm = ibm

    # ----- values ---------------------------------------------------------------------------

    def value(self, node: n.Node) -> Val:
        if isinstance(node, n.Literal):
            v = node.value
            return lambda get: v
        if isinstance(node, n.Identifier):
            name = node.name
            return lambda get: get(name)
        if isinstance(node, n.Unary):
            return self._unary(node)
        if isinstance(node, n.Arithmetic):
            return self._arithmetic(node)
        raise TypeError(f"not a value: {node!r}")  # the checker rejects conditions as values

    def _unary(self, node: n.Unary) -> Val:
        f = self.value(node.operand)
        op = negate if node.op == "-" else unary_plus
        if self.ibm:
            def ibm_unary(get: Getter) -> Value:
                a = f(get)
                if a is None:
                    raise _WholeSelectorFalse
                return op(a)
            return ibm_unary
        return lambda get: op(f(get))

    def _arithmetic(self, node: n.Arithmetic) -> Val:
        left, right, op = self.value(node.left), self.value(node.right), node.op
        if self.ibm:
            def ibm_arith(get: Getter) -> Value:
                a, b = left(get), right(get)
                result = arithmetic(op, a, b)
                if result is None and (a is None or b is None):
                    raise _WholeSelectorFalse  # IBM: arithmetic on NULL
                return result
            return ibm_arith
        return lambda get: arithmetic(op, left(get), right(get))

    # ----- conditions -----------------------------------------------------------------------

    def cond(self, node: n.Node) -> Cond:
        if isinstance(node, n.And):
            return self._junction(node, n.And)
        if isinstance(node, n.Or):
            return self._junction(node, n.Or)
        if isinstance(node, n.Not):
            f = self.cond(node.operand)

            def not_(get: Getter) -> Tri:
                a = f(get)
                return None if a is None else not a
            return not_
        if isinstance(node, n.Comparison):
            return self._comparison(node)
        if isinstance(node, n.Between):
            return self._between(node)
        if isinstance(node, n.InList):
            return self._in(node)
        if isinstance(node, n.Like):
            return self._like(node)
        if isinstance(node, n.IsNull):
            return self._is_null(node)
        if isinstance(node, n.Literal):
            constant = bool(node.value[1])
            return lambda get: constant
        if isinstance(node, n.Identifier):
            return self._boolean_identifier(node.name)
        raise TypeError(f"not a condition: {node!r}")

    def _junction(self, node: n.And | n.Or, kind: type) -> Cond:
        # 'a AND b AND c' is one closure over three.
        fs = tuple(self.cond(o) for o in n.chain(node))
        if kind is n.And:
            return _all_of(fs) if self.ibm else _and(fs)
        return _any_of(fs) if self.ibm else _or(fs)

    def _comparison(self, node: n.Comparison) -> Cond:
        op = node.op
        if not self.ibm:
            if isinstance(node.left, n.Identifier) and isinstance(node.right, n.Literal):
                return _ident_vs_literal(node.left.name, op, node.right.value)
            if isinstance(node.right, n.Identifier) and isinstance(node.left, n.Literal):
                return _ident_vs_literal(node.right.name, FLIP[op], node.left.value)
        left, right = self.value(node.left), self.value(node.right)
        if not self.ibm:
            for arith, lit, cop in ((node.left, node.right, op), (node.right, node.left, FLIP[op])):
                if isinstance(arith, n.Arithmetic) and isinstance(lit, n.Literal):
                    special = _double_arith_vs_literal(arith, cop, lit.value, lambda get: compare(op, left(get), right(get)))
                    if special is not None:
                        return special
        if self.ibm:
            def ibm_compare(get: Getter) -> Tri:
                a, b = left(get), right(get)
                if unlike_types(a, b):
                    raise _WholeSelectorFalse
                return compare(op, a, b)
            return ibm_compare
        return lambda get: compare(op, left(get), right(get))

    def _between(self, node: n.Between) -> Cond:
        e, lo, hi = self.value(node.operand), self.value(node.low), self.value(node.high)
        negated, ibm = node.negated, self.ibm

        def between(get: Getter) -> Tri:
            v, a, b = e(get), lo(get), hi(get)
            if ibm:
                if unlike_types(v, a) or unlike_types(v, b):
                    raise _WholeSelectorFalse
                if v is None or a is None or b is None:
                    return negated  # IBM: BETWEEN with NULL is FALSE, NOT BETWEEN TRUE
            if negated:  # e < a OR e > b
                r1, r2 = compare("<", v, a), compare(">", v, b)
                if r1 is True or r2 is True:
                    return True
                return None if r1 is None or r2 is None else False
            r1, r2 = compare(">=", v, a), compare("<=", v, b)
            if r1 is False or r2 is False:
                return False
            return None if r1 is None or r2 is None else True

        return between

    def _in(self, node: n.InList) -> Cond:
        name = node.operand.name  # type: ignore[union-attr]
        values = frozenset(item.value[1] for item in node.items)  # type: ignore[union-attr]
        negated = node.negated

        def in_(get: Getter) -> Tri:
            v = get(name)
            if v is None or v[0] is not STRING:
                return None  # NULL, or a type IN is not defined for: UNKNOWN both ways
            return (v[1] in values) is not negated

        return in_

    def _like(self, node: n.Like) -> Cond:
        name = node.operand.name  # type: ignore[union-attr]
        escape = node.escape.value[1] if node.escape is not None else None  # type: ignore[union-attr]
        matches = compile_like(node.pattern.value[1], escape)  # type: ignore[union-attr]
        negated = node.negated

        def like(get: Getter) -> Tri:
            v = get(name)
            if v is None or v[0] is not STRING:
                return None
            return matches(v[1]) is not negated

        return like

    def _is_null(self, node: n.IsNull) -> Cond:
        name = node.operand.name  # type: ignore[union-attr]
        if node.negated:
            return lambda get: get(name) is not None
        return lambda get: get(name) is None

    def _boolean_identifier(self, name: str) -> Cond:
        if self.ibm:
            def ibm_boolean(get: Getter) -> Tri:
                v = get(name)
                if v is None:
                    return None
                if v[0] is not BOOLEAN:
                    raise _WholeSelectorFalse  # docs/SEMANTICS.md#ibm-dialect: 'x' stands for 'x = TRUE', unlike types
                return v[1]  # type: ignore[no-any-return]
            return ibm_boolean

        def boolean(get: Getter) -> Tri:
            v = get(name)
            if v is None:
                return None
            return v[1] if v[0] is BOOLEAN else False

        return boolean


def _and(fs: tuple[Cond, ...]) -> Cond:
    if len(fs) == 2:
        f1, f2 = fs

        def and2(get: Getter) -> Tri:
            a = f1(get)
            if a is False:
                return False
            b = f2(get)
            if b is False:
                return False
            return a and b  # both True/None: None wins

        return and2
    if len(fs) == 3:
        g1, g2, g3 = fs

        def and3(get: Getter) -> Tri:
            a = g1(get)
            if a is False:
                return False
            b = g2(get)
            if b is False:
                return False
            c = g3(get)
            if c is False:
                return False
            return a and b and c

        return and3

    def and_n(get: Getter) -> Tri:
        result: Tri = True
        for f in fs:
            r = f(get)
            if r is False:
                return False
            if r is None:
                result = None
        return result

    return and_n


def _or(fs: tuple[Cond, ...]) -> Cond:
    if len(fs) == 2:
        f1, f2 = fs

        def or2(get: Getter) -> Tri:
            a = f1(get)
            if a is True:
                return True
            b = f2(get)
            if b is True:
                return True
            return None if a is None or b is None else False

        return or2

    def or_n(get: Getter) -> Tri:
        result: Tri = False
        for f in fs:
            r = f(get)
            if r is True:
                return True
            if r is None:
                result = None
        return result

    return or_n


def _all_of(fs: tuple[Cond, ...]) -> Cond:
    def all_of(get: Getter) -> Tri:
        results = [f(get) for f in fs]
        if False in results:
            return False
        return None if None in results else True

    return all_of


def _any_of(fs: tuple[Cond, ...]) -> Cond:
    def any_of(get: Getter) -> Tri:
        results = [f(get) for f in fs]
        if True in results:
            return True
        return None if None in results else False

    return any_of


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def _double_arith_vs_literal(arith: n.Arithmetic, op: str, lit: TypedValue, generic: Cond) -> Cond | None:
    """``a * b > literal`` (``+ - *`` of two identifiers against a number; Jakarta reading): when
    one operand is a double and the other a number, Java promotes both to double, and the
    comparison with the literal is on doubles. Any other operand types go to ``generic``."""
    a, b, tl = arith.left, arith.right, lit[0]
    if not (isinstance(a, n.Identifier) and isinstance(b, n.Identifier) and arith.op in _ARITH and BYTE <= tl <= DOUBLE):
        return None
    an, bn, fop, cmp = a.name, b.name, _ARITH[arith.op], COMPARATORS[op]
    vl = float(lit[1]) if tl <= LONG else lit[1]  # as_float(tl, value, DOUBLE); a float literal is an exact double

    def double_arith(get: Getter) -> Tri:
        x, y = get(an), get(bn)
        if x is not None and y is not None:
            tx, vx = x
            ty, vy = y
            if (tx is DOUBLE and BYTE <= ty <= DOUBLE) or (ty is DOUBLE and BYTE <= tx <= DOUBLE):
                return cmp(fop(float(vx), float(vy)), vl)
        return generic(get)

    return double_arith


def _ident_vs_literal(name: str, op: str, lit: TypedValue) -> Cond:
    """``name op literal``, specialised on the literal's type (the javadoc example's shape)."""
    tl, vl = lit
    if tl is STRING or tl is BOOLEAN:
        if op == "=":
            return lambda get: None if (v := get(name)) is None else v == lit
        if op == "<>":
            return lambda get: None if (v := get(name)) is None else (v[0] is tl and v[1] != vl)
        return lambda get: None if get(name) is None else False  # ordering on String/boolean: FALSE
    opf = COMPARATORS[op]
    as_double = float(vl)
    as_float = vl if tl is FLOAT else (int_to_f32(vl) if tl <= LONG else None)
    if BYTE <= tl <= LONG:
        def integral_literal(get: Getter) -> Tri:
            v = get(name)
            if v is None:
                return None
            t, x = v
            if BYTE <= t <= LONG:
                return opf(x, vl)
            if t is DOUBLE:
                return opf(x, as_double)
            if t is FLOAT:
                return opf(x, as_float)
            return False
        return integral_literal

    def floating_literal(get: Getter) -> Tri:
        v = get(name)
        if v is None:
            return None
        t, x = v
        if t is DOUBLE:
            return opf(x, as_double)
        if t is FLOAT:
            return opf(x, as_float if tl is FLOAT else vl)
        if BYTE <= t <= LONG:
            return opf(int_to_f32(x) if tl is FLOAT else float(x), vl)
        return False
    return floating_literal


__all__ = ["TYPE_ERROR", "compile_selector"]

"""Checked selector AST -> one ``pyspark.sql.Column`` over the message layout (schema.py).

The Spark backend of the same AST the local evaluator compiles (``jmsctl.selector.compiler``), with
the same rulings (SEMANTICS.md): no Python UDF, no SQL text, nothing that depends on Spark session
settings. The Column is TRUE, FALSE or NULL (UNKNOWN) per row; ``compile_column`` gives it.

Values and conditions are ``typed.Val`` and ``typed.Cond`` (typed.py explains the representation):
a type code column and payload columns, each operation built from Java's rules (javaops.py), each
value's possible kinds known statically so that only branches that can occur are generated.

Nested arithmetic refers to its operands several times (their type and payloads), so a deep chain
would grow exponentially as an expression tree. An operand whose expression is already large is
bound once with a higher-order function (``transform(array(struct(...)), v -> ...)[0]``, a JVM
lambda, not Python) and referred to through the lambda variable: the Column stays linear in the
selector's size. Ordinary selectors never reach that size and stay fully code-generated.

Dialect ``ibm`` (SEMANTICS.md section 5) carries a second boolean per node, ``w``: some operation
makes the whole selector FALSE. Every node contributes to it, whatever the evaluation order, as
the local evaluator evaluates every operand under that dialect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from pyspark.sql import Column
from pyspark.sql import functions as F

from jmsctl.selector import nodes as n
from jmsctl.spark import javaops as J
from jmsctl.spark.like import like_column
from jmsctl.spark.typed import (
    BOOLEAN_K,
    ERR,
    FLOAT_K,
    INT_LIKE,
    INTEGRAL,
    NOCONST,
    NOT_NUMBER,
    NULLK,
    NUMERIC,
    STRING_K,
    Case,
    Cond,
    R,
    Val,
    any_of,
    arith_kinds,
    as_double,
    as_float,
    both,
    equality,
    identifier,
    is_in,
    literal,
    null,
    nullable,
    numeric_parts,
    or_w,
    pack,
    unary_kinds,
    unless,
    unpack,
    val_arith_kinds,
)
from jmsctl.values import JType, arithmetic, negate, unary_plus, unlike_types
from jmsctl.values import compare as compare_values

CHAIN = 3  # operators in a left-deep arithmetic chain from which it is folded by one aggregate
_OPS = ("+", "-", "*", "/")
_TYPES = {"t": "int", "i": "bigint", "f": "float", "d": "double", "w": "boolean"}  # a packed number
BIND_LIMIT = 5000  # expression text size (characters) above which an operand is bound once (see above)


def compile_column(node: n.Node | None, dialect: str = "jakarta") -> Column:
    """The selector as a Column: TRUE / FALSE / NULL (UNKNOWN). No selector selects every row."""
    if node is None:
        return J.lit(True)
    cond = _Compiler(ibm=dialect == "ibm").cond(node)
    if cond.w is None:
        return cond.c
    return F.when(cond.w, J.lit(False)).otherwise(cond.c)


# ----- helpers -------------------------------------------------------------------------------

class _Compiler:
    def __init__(self, ibm: bool) -> None:
        self.ibm = ibm

    # ----- binding ----------------------------------------------------------------------------

    def _bind(self, v: Val, use: Callable[[Val], R]) -> R:
        """``use(v)``; when v's expression is large, with v evaluated once through a JVM lambda."""
        if v.const is not NOCONST or v.size() <= BIND_LIMIT:
            return use(v)
        results: list[R] = []

        def body(x: Column) -> Column:
            get = x.getField
            inner = Val(
                v.kinds,
                get("t"),
                i=None if v.i is None else get("i"),
                f=None if v.f is None else get("f"),
                d=None if v.d is None else get("d"),
                s=None if v.s is None else get("s"),
                b=None if v.b is None else get("b"),
                w=None if v.w is None else get("w"),
                small=True,
            )
            r = use(inner)
            results.append(r)
            return pack(r)

        bound = F.transform(F.array(pack(v)), body).getItem(0)
        return unpack(results[0], bound)

    def _bind2(self, a: Val, b: Val, use: Callable[[Val, Val], R]) -> R:
        return self._bind(a, lambda x: self._bind(b, lambda y: use(x, y)))

    # ----- values -----------------------------------------------------------------------------

    def value(self, node: n.Node) -> Val:
        if isinstance(node, n.Literal):
            return literal(node.value)
        if isinstance(node, n.Identifier):
            return identifier(node.name)
        if isinstance(node, n.Unary):
            a = self.value(node.operand)
            if a.const is not NOCONST:
                folded = literal(negate(a.const) if node.op == "-" else unary_plus(a.const))
                if not self.ibm:
                    return folded
                return replace(folded, w=J.lit(True) if a.const is None else a.w)  # IBM: arithmetic on NULL
            return self._bind(a, lambda x: self._unary(node.op, x))
        if isinstance(node, n.Arithmetic):
            first: n.Node = node
            spine: list[tuple[str, n.Node]] = []  # the left-deep chain: first op1 r1 op2 r2 ...
            while isinstance(first, n.Arithmetic):
                spine.append((first.op, first.right))
                first = first.left
            acc = self.value(first)
            steps = [(op, self.value(right)) for op, right in reversed(spine)]
            while steps and acc.const is not NOCONST and steps[0][1].const is not NOCONST:
                op, b = steps.pop(0)
                acc = self._fold_constants(op, acc, b)
            if len(steps) >= CHAIN:
                return self._chain(acc, steps)
            for op, b in steps:
                acc = self._step(op, acc, b)
            return acc
        raise TypeError(f"not a value: {node!r}")  # the checker rejects conditions as values

    def _fold_constants(self, op: str, a: Val, b: Val) -> Val:
        """A literal-only operation, evaluated here by the shared value model."""
        r = arithmetic(op, a.const, b.const)
        folded = literal(r)
        if not self.ibm:
            return folded
        triggered = r is None and (a.const is None or b.const is None)  # IBM: arithmetic on NULL
        return replace(folded, w=J.lit(True) if triggered else or_w(a.w, b.w))

    def _step(self, op: str, a: Val, b: Val) -> Val:
        return self._bind2(a, b, lambda x, y: self._arithmetic(op, x, y))

    def _chain(self, acc: Val, steps: list[tuple[str, Val]]) -> Val:
        """A left-deep chain ``v0 op1 v1 op2 v2 ...`` folded by one ``aggregate`` over its right
        operands, each step the arithmetic of one node on lambda variables: evaluated left to
        right with Java's promotion at each step, as the tree would be, in an expression of
        constant size (no nesting, however long the chain)."""
        ops = sorted({op for op, _ in steps}, key=_OPS.index)
        x_kinds = frozenset().union(*(v.kinds for _, v in steps))
        kinds, acc_kinds = acc.kinds, set(acc.kinds)
        for op, v in steps:
            kinds = arith_kinds(op, kinds, v.kinds)
            acc_kinds |= kinds
        elements = F.array(*[self._packed(v, _OPS.index(op)) for op, v in steps])

        def merge(a: Column, x: Column) -> Column:
            left, right = self._unpacked(a, frozenset(acc_kinds)), self._unpacked(x, x_kinds)
            results = {op: self._arithmetic(op, left, right) for op in ops}
            if len(ops) == 1:
                return self._packed(results[ops[0]])
            code = x.getField("op")
            fields: dict[str, Column] = {}
            for name in _TYPES:
                case: Column | None = None
                for op, r in results.items():
                    value = self._field(r, name)
                    case = F.when(code == _OPS.index(op), value) if case is None else case.when(code == _OPS.index(op), value)
                fields[name] = case  # type: ignore[assignment]
            return self._struct(fields)

        folded = F.aggregate(elements, self._packed(acc), merge)
        return replace(self._unpacked(folded, kinds), packed=folded, small=False)

    def _field(self, v: Val, name: str) -> Column:
        value = getattr(v, name)
        if value is None:
            return J.lit(False) if name == "w" else null(_TYPES[name])
        return value.cast(_TYPES[name])

    def _struct(self, fields: dict[str, Column], op: int | None = None) -> Column:
        cols = [c.cast(_TYPES[k]).alias(k) for k, c in fields.items() if k != "w" or self.ibm]
        if op is not None:
            cols.append(J.lit(op).alias("op"))
        return F.struct(*cols)

    def _packed(self, v: Val, op: int | None = None) -> Column:
        """A numeric value as struct<t int, i bigint, f float, d double[, w boolean][, op int]>."""
        return self._struct({name: self._field(v, name) for name in _TYPES}, op)

    def _unpacked(self, col: Column, kinds: frozenset[int]) -> Val:
        get = col.getField
        return Val(kinds, get("t"), i=get("i"), f=get("f"), d=get("d"), w=get("w") if self.ibm else None, small=True)

    def _unary(self, op: str, a: Val) -> Val:
        t = Case().when(is_in(a, NOT_NUMBER), J.lit(ERR)).when(is_in(a, INT_LIKE), J.lit(3)).otherwise(a.t)
        i = a.i if a.may(INTEGRAL) else None
        if i is not None and op == "-":
            ints = a.kinds & INTEGRAL
            if ints <= INT_LIKE:
                i = J.wrap32(-i)
            elif ints == {4}:
                i = J.long_negate(i)
            else:
                i = J.narrow(J.long_negate(i), a.t != 4)
        f = a.f if a.may(INTEGRAL | FLOAT_K) else None
        d = a.d if a.may(NUMERIC) else None
        if op == "-":
            f = None if f is None else -f
            d = None if d is None else -d
        w = or_w(a.w, nullable(a) if self.ibm and NULLK in a.kinds else None)  # type: ignore[arg-type]
        return Val(unary_kinds(a), t, i=i, f=f, d=d, w=w)

    def _arithmetic(self, op: str, a: Val, b: Val) -> Val:
        kinds = val_arith_kinds(op, a, b)
        err = any_of(is_in(a, NOT_NUMBER), is_in(b, NOT_NUMBER))
        any_null = any_of(nullable(a), nullable(b))
        case = Case().when(err, J.lit(ERR)).when(any_null, null("int"))
        both_integral = a.may(INTEGRAL) and b.may(INTEGRAL) and a.i is not None and b.i is not None
        by_zero: Column | None = None  # integer division by zero: NULL, payloads included
        if op == "/" and both_integral and NULLK in kinds:
            by_zero = (b.i == 0) & a.i.isNotNull()  # type: ignore[union-attr]
            case.when(by_zero, null("int"))
        promoted = {max(ka, kb, 3) for ka in a.kinds & NUMERIC for kb in b.kinds & NUMERIC}
        t = case.otherwise(J.lit(next(iter(promoted))) if len(promoted) == 1 else F.greatest(a.t, b.t, J.lit(3)))
        i = None
        if both_integral:
            ints = {max(ka, kb, 3) for ka in a.kinds & INTEGRAL for kb in b.kinds & INTEGRAL}
            if ints == {3}:
                i = J.int_op(op, a.i, b.i)  # type: ignore[arg-type]
            elif ints == {4}:
                i = J.long_op(op, a.i, b.i)  # type: ignore[arg-type]
            else:
                i = J.narrow(J.long_op(op, a.i, b.i), (a.t <= 3) & (b.t <= 3))  # type: ignore[arg-type]
        f = d = None
        if int(JType.FLOAT) in kinds:
            x, y = as_float(a, True), as_float(b, True)
            f = None if x is None or y is None else unless(by_zero, J.floating_op(op, x, y, as_float=True), "float")
        if int(JType.DOUBLE) in kinds:
            x, y = as_double(a, True), as_double(b, True)
            d = None if x is None or y is None else unless(by_zero, J.floating_op(op, x, y, as_float=False), "double")
        w = or_w(a.w, b.w)
        if self.ibm and any_null is not False and err is not True:
            trigger = Case().when(err, J.lit(False)).when(any_null, J.lit(True)).otherwise(J.lit(False))
            w = or_w(w, trigger)
        return Val(kinds, t, i=i, f=f, d=d, w=w)

    # ----- conditions -------------------------------------------------------------------------

    def cond(self, node: n.Node) -> Cond:
        if isinstance(node, (n.And, n.Or)):
            return self._junction(node)
        if isinstance(node, n.Not):
            negations = 0
            while isinstance(node, n.Not):  # NOT NOT x is x in three-valued logic
                node, negations = node.operand, negations + 1
            inner = self.cond(node)
            return Cond(~inner.c, inner.w) if negations % 2 else inner
        if isinstance(node, n.Comparison):
            a, b = self.value(node.left), self.value(node.right)
            return self._bind2(a, b, lambda x, y: self._compare(node.op, x, y))
        if isinstance(node, n.Between):
            return self._between(node)
        if isinstance(node, n.InList):
            v = identifier(node.operand.name)  # type: ignore[union-attr]
            if v.s is None:
                return Cond(null("boolean"))  # not a String: UNKNOWN both ways
            match = v.s.isin(*[item.value[1] for item in node.items])  # type: ignore[union-attr]
            return Cond(~match if node.negated else match)
        if isinstance(node, n.Like):
            v = identifier(node.operand.name)  # type: ignore[union-attr]
            if v.s is None:
                return Cond(null("boolean"))
            escape = node.escape.value[1] if node.escape is not None else None  # type: ignore[union-attr]
            match = like_column(v.s, node.pattern.value[1], escape)  # type: ignore[union-attr]
            return Cond(~match if node.negated else match)
        if isinstance(node, n.IsNull):
            is_null = identifier(node.operand.name).is_null()  # type: ignore[union-attr]
            return Cond(~is_null if node.negated else is_null)
        if isinstance(node, n.Literal):
            return Cond(J.lit(bool(node.value[1])))
        if isinstance(node, n.Identifier):
            v = identifier(node.name)  # a boolean identifier as a condition: x = TRUE
            return Cond(F.when(~v.is_null(), F.coalesce(v.b, J.lit(False)) if v.b is not None else J.lit(False)))
        raise TypeError(f"not a condition: {node!r}")

    def _junction(self, node: n.And | n.Or) -> Cond:
        kind = type(node)
        operands: list[n.Node] = []
        stack: list[n.Node] = [node]
        while stack:  # flatten chains of one operator iteratively (10,000-term OR chains)
            cur = stack.pop()
            if isinstance(cur, kind):
                stack.append(cur.right)  # type: ignore[union-attr]
                stack.append(cur.left)  # type: ignore[union-attr]
            else:
                operands.append(cur)
        conds = [self.cond(o) for o in operands]
        while len(conds) > 1:  # a balanced tree: Spark's expression depth stays logarithmic
            paired = [self._combine(kind, conds[k], conds[k + 1]) for k in range(0, len(conds) - 1, 2)]
            conds = paired + ([conds[-1]] if len(conds) % 2 else [])
        return conds[0]

    @staticmethod
    def _combine(kind: type, a: Cond, b: Cond) -> Cond:
        c = a.c & b.c if kind is n.And else a.c | b.c  # SQL's three-valued AND/OR: the javadoc's tables
        return Cond(c, or_w(a.w, b.w))

    def _compare(self, op: str, a: Val, b: Val) -> Cond:
        w = or_w(a.w, b.w, self._unlike(a, b) if self.ibm else None)
        return Cond(self._comparison(op, a, b), w)

    def _comparison(self, op: str, a: Val, b: Val) -> Column:
        """``coalesce(comparison in each possible promoted type, = / <> of Strings and booleans,
        FALSE for unlike types)``: a part is NULL unless both operands are of its types, and every
        part is NULL when an operand is NULL, which the last part turns into UNKNOWN."""
        if a.const is not NOCONST and b.const is not NOCONST:
            return J.lit(compare_values(op, a.const, b.const), "boolean")
        parts = numeric_parts(op, a, b)
        if a.may(STRING_K) and b.may(STRING_K):
            parts.append(equality(op, a.s, b.s))  # type: ignore[arg-type]
        if a.may(BOOLEAN_K) and b.may(BOOLEAN_K):
            parts.append(equality(op, a.b, b.b))  # type: ignore[arg-type]
        err = any_of(is_in(a, frozenset({ERR})), is_in(b, frozenset({ERR})))
        known = both(~a.is_null() if NULLK in a.kinds else True, ~b.is_null() if NULLK in b.kinds else True)
        last = Case().when(err, J.lit(False)).when(known, J.lit(False)).otherwise(null("boolean"))
        return F.coalesce(*parts, last) if parts else last

    def _unlike(self, a: Val, b: Val) -> Column:
        """IBM: a comparison of unlike types (type errors included) makes the whole selector FALSE."""
        if a.const is not NOCONST and b.const is not NOCONST:
            return J.lit(unlike_types(a.const, b.const))
        err = any_of(is_in(a, frozenset({ERR})), is_in(b, frozenset({ERR})))
        any_null = any_of(nullable(a), nullable(b))
        both_numbers = both(is_in(a, NUMERIC), is_in(b, NUMERIC))
        return Case().when(err, J.lit(True)).when(any_null, J.lit(False)).when(both_numbers, J.lit(False)).otherwise(a.t != b.t)

    def _between(self, node: n.Between) -> Cond:
        e, lo, hi = self.value(node.operand), self.value(node.low), self.value(node.high)
        return self._bind(e, lambda x: self._bind2(lo, hi, lambda y, z: self._between_of(node.negated, x, y, z)))

    def _between_of(self, negated: bool, e: Val, lo: Val, hi: Val) -> Cond:
        # The javadoc's equivalences: e >= lo AND e <= hi; NOT BETWEEN is e < lo OR e > hi.
        if negated:
            c = self._comparison("<", e, lo) | self._comparison(">", e, hi)
        else:
            c = self._comparison(">=", e, lo) & self._comparison("<=", e, hi)
        w = or_w(e.w, lo.w, hi.w)
        if self.ibm:
            w = or_w(w, self._unlike(e, lo) | self._unlike(e, hi))
            any_null = any_of(nullable(e), nullable(lo), nullable(hi))
            c = Case().when(any_null, J.lit(negated)).otherwise(c)  # IBM: NULL operand: FALSE, NOT TRUE
        return Cond(c, w)


__all__ = ["BIND_LIMIT", "compile_column"]

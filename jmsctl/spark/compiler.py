"""Checked selector AST -> one ``pyspark.sql.Column`` over the message layout (schema.py).

The Spark backend of the same AST the local evaluator compiles (``jmsctl.selector.compiler``), with
the same rulings (docs/SEMANTICS.md): no Python UDF, no SQL text, nothing that depends on Spark session
settings. The Column is TRUE, FALSE or NULL (UNKNOWN) per row; ``compile_column`` gives it.

Values and conditions are ``typed.Val`` and ``typed.Cond`` (typed.py explains the representation):
a type code column and payload columns, each operation built from Java's rules (javaops.py), each
value's possible kinds known statically so that only branches that can occur are generated.

Arithmetic (arith.py) is written out as one expression when it is small (``weight * 2 + 1``), and
otherwise run by one ``aggregate`` as a stack machine of constant size. A comparison or BETWEEN
refers to its operands several times; an operand whose expression is large (an arithmetic result)
is bound once with a higher-order function (``transform(array(struct(...)), v -> ...)[0]``, a JVM
lambda, not Python) and referred to through the lambda variable. So the Column stays linear in
the selector's size, and ordinary selectors stay fully code-generated.

Dialect ``ibm`` (docs/SEMANTICS.md#ibm-dialect) carries a second boolean per node, ``w``: some operation
makes the whole selector FALSE. Every node contributes to it, whatever the evaluation order, as
the local evaluator evaluates every operand under that dialect.
"""

from __future__ import annotations

from collections.abc import Callable

from pyspark.sql import Column
from pyspark.sql import functions as F

from jmsctl.selector import dialects
from jmsctl.selector import nodes as n
from jmsctl.spark import arith as A
from jmsctl.spark import javaops as J
from jmsctl.spark.like import like_column
from jmsctl.spark.schema import SELECTOR_HEADERS
from jmsctl.spark.typed import (
    BOOLEAN_K,
    ERR,
    INTEGRAL,
    NOCONST,
    NULLK,
    NUMERIC,
    PROPERTIES,
    STRING_K,
    Case,
    Cond,
    R,
    Val,
    any_of,
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
    property_value,
    unpack,
)
from jmsctl.values import compare as compare_values
from jmsctl.values import unlike_types

SHARED_LOOKUPS = 40  # property references from which the properties are looked up once per row
BIND_LIMIT = 5000  # expression text size (characters) above which an operand is bound once (see above)


def compile_column(
    node: n.Node | None, dialect: str = "jakarta", *, inline_ops: int = A.INLINE_OPS, shared_lookups: int = SHARED_LOOKUPS
) -> Column:
    """The selector as a Column: TRUE / FALSE / NULL (UNKNOWN). No selector selects every row.

    ``inline_ops`` and ``shared_lookups`` choose between equivalent forms (arithmetic written out
    or run as a stack machine; properties looked up per reference or once): the tests force each."""
    if node is None:
        return J.lit(True)
    if dialects.get(dialect).is_broker:
        raise ValueError(f"the {dialect} dialect has no Spark column compiler: its selectors run on the local evaluator in Spark")
    compiler = _Compiler(ibm=dialects.get(dialect).ibm_whole_false, inline_ops=inline_ops)
    references = [x.name for x in n.walk(node) if isinstance(x, n.Identifier) and x.name not in SELECTOR_HEADERS]
    if len(references) <= shared_lookups:
        cond = compiler.cond(node)
    else:
        cond = compiler.cond_with_shared_properties(node, sorted(set(references)))
    if cond.w is None:
        return cond.c
    return F.when(cond.w, J.lit(False)).otherwise(cond.c)


# ----- the compiler ----------------------------------------------------------------------------

class _Compiler:
    def __init__(self, ibm: bool, inline_ops: int) -> None:
        self.ibm, self.inline_ops = ibm, inline_ops
        self.shared: dict[str, Val] = {}  # properties looked up once (cond_with_shared_properties)

    def ident(self, name: str) -> Val:
        return self.shared[name] if name in self.shared else identifier(name)

    def cond_with_shared_properties(self, node: n.Node, names: list[str]) -> Cond:
        """The condition inside one lambda over every property it reads, each looked up once: a
        selector that reads properties many times (``x = 1 OR x = 2 OR ... OR x = 500``) would
        otherwise repeat a map lookup per reference, and its generated code outgrows the JVM's."""
        entries = F.struct(*[F.col(PROPERTIES).getItem(name).alias(f"p{k}") for k, name in enumerate(names)])
        results: list[Cond] = []

        def body(x: Column) -> Column:
            self.shared = {name: property_value(x.getField(f"p{k}")) for k, name in enumerate(names)}
            try:
                results.append(self.cond(node))
            finally:
                self.shared = {}
            return pack(results[0])

        bound = F.transform(F.array(entries), body).getItem(0)
        return unpack(results[0], bound)

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
                views=v.views,
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
            return self.ident(node.name)
        if isinstance(node, (n.Unary, n.Arithmetic)):
            prog = A.program(node, self.ibm, self.ident)
            if sum(1 for op, _ in prog if op != "push") <= self.inline_ops:
                return A.run_inline(prog, self.ibm, self._bind2)
            return A.run_machine(prog, self.ibm)
        raise TypeError(f"not a value: {node!r}")  # the checker rejects conditions as values

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
            v = self.ident(node.operand.name)  # type: ignore[union-attr]
            if v.s is None:
                return Cond(null("boolean"))  # not a String: UNKNOWN both ways
            match = v.s.isin(*[item.value[1] for item in node.items])  # type: ignore[union-attr]
            return Cond(~match if node.negated else match)
        if isinstance(node, n.Like):
            v = self.ident(node.operand.name)  # type: ignore[union-attr]
            if v.s is None:
                return Cond(null("boolean"))
            escape = node.escape.value[1] if node.escape is not None else None  # type: ignore[union-attr]
            match = like_column(v.s, node.pattern.value[1], escape)  # type: ignore[union-attr]
            return Cond(~match if node.negated else match)
        if isinstance(node, n.IsNull):
            is_null = self.ident(node.operand.name).is_null()  # type: ignore[union-attr]
            return Cond(~is_null if node.negated else is_null)
        if isinstance(node, n.Literal):
            return Cond(J.lit(bool(node.value[1])))
        if isinstance(node, n.Identifier):
            v = self.ident(node.name)  # a boolean identifier as a condition: x = TRUE
            cond = F.when(~v.is_null(), F.coalesce(v.b, J.lit(False)) if v.b is not None else J.lit(False))
            if not self.ibm:
                return Cond(cond)
            # IBM (docs/SEMANTICS.md#ibm-dialect): a non-boolean value makes the whole selector FALSE
            not_boolean = ~v.is_null() & v.b.isNull() if v.b is not None else ~v.is_null()
            return Cond(cond, not_boolean)
        raise TypeError(f"not a condition: {node!r}")

    def _junction(self, node: n.And | n.Or) -> Cond:
        kind = type(node)
        conds = [self.cond(o) for o in n.chain(node)]  # 10,000-term OR chains: no recursion
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
        total = _total_part(op, a, b)
        if total is not None:
            return total
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


def _total_part(op: str, a: Val, b: Val) -> Column | None:
    """The comparison alone when both operands can only be NULL or of one part's types (a header
    against a literal, mostly): then that part is NULL exactly when an operand is NULL, and a plain
    ``JMSType = 'car'`` is what Spark can push down to a parquet scan."""
    kinds = (a.kinds | b.kinds) - {NULLK}
    if kinds <= STRING_K and a.s is not None and b.s is not None:
        return equality(op, a.s, b.s)
    if kinds <= BOOLEAN_K and a.b is not None and b.b is not None:
        return equality(op, a.b, b.b)
    if kinds <= INTEGRAL and a.i is not None and b.i is not None:
        return J.compare(op, a.i, b.i)
    return None


__all__ = ["BIND_LIMIT", "compile_column"]

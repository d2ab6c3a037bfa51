"""Typed values and conditions as Spark Columns: the pieces the selector compiler assembles.

A value is a ``Val``: a type code column ``t`` (the ``JType`` code, 8 for a type error, NULL for
NULL) and payload columns. ``i`` (bigint) is set exactly for byte/short/int/long, ``s`` for String,
``b`` for boolean; ``f`` (float) is set for float and may also be set for an integral value, ``d``
(double) for double and may be set for any number (the layout stores a property's float and double
promotions there). Readers take the most precise payload first (``i``, then ``f``, then ``d``),
which lets arithmetic compute its integral, float and double results side by side, each NULL
exactly where it does not apply, with no dispatch on ``t``; and a comparison is

    coalesce(integral part, float part, double part, String part, boolean part, last)

where a part is NULL unless both operands are of its types (the first non-NULL part is the
comparison in the promoted type: Java's binary numeric promotion), and ``last`` is FALSE for
unlike types and type errors, NULL (UNKNOWN) when an operand is NULL.

Each value also carries its possible kinds, known statically (a literal is one kind, ``JMSPriority``
is int or NULL), so that only the branches that can occur are generated, and its value when it is
known statically (literal-only subexpressions are evaluated by ``jmsctl.values``).

A condition is a ``Cond``: a nullable boolean (NULL is UNKNOWN) and, under the IBM dialect, ``w``:
some operation in it makes the whole selector FALSE (docs/SEMANTICS.md#ibm-dialect).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from pyspark.sql import Column
from pyspark.sql import functions as F

from jmsctl.spark import javaops as J
from jmsctl.spark.schema import SELECTOR_HEADERS
from jmsctl.values import TYPE_ERROR, JType, Value, int_to_f32

NULLK = -1  # in a kind set: the value may be NULL
ERR = 8  # the type code of a type error (a String or boolean in arithmetic)
INTEGRAL = frozenset({1, 2, 3, 4})
NUMERIC = frozenset({1, 2, 3, 4, 5, 6})
NOT_NUMBER = frozenset({0, 7, ERR})
ANY_PROPERTY = frozenset({0, 1, 2, 3, 4, 5, 6, 7, NULLK})
INT_LIKE = frozenset({1, 2, 3})
FLOAT_K = frozenset({int(JType.FLOAT)})
DOUBLE_K = frozenset({int(JType.DOUBLE)})
STRING_K = frozenset({int(JType.STRING)})
BOOLEAN_K = frozenset({int(JType.BOOLEAN)})
PROPERTIES = "properties"

HEADER_KINDS = {"JMSPriority": JType.INT, "JMSTimestamp": JType.LONG}


class NoConst:
    pass


NOCONST: Any = NoConst()


@dataclass(frozen=True)
class Val:
    kinds: frozenset[int]
    t: Column
    i: Column | None = None
    f: Column | None = None
    d: Column | None = None
    s: Column | None = None
    b: Column | None = None
    w: Column | None = None
    small: bool = False  # a literal or an identifier: never worth binding
    views: bool = False  # f and d hold the value's float and double promotions whenever they exist
    const: Any = NOCONST  # the value when it is known statically (a typed value, None, TYPE_ERROR)
    null: Column | None = None  # a cheaper NULL test than ``t IS NULL`` where there is one
    packed: Column | None = field(default=None, compare=False)

    def may(self, codes: frozenset[int] | set[int]) -> bool:
        return bool(self.kinds & codes)

    def is_null(self) -> Column:
        return self.null if self.null is not None else self.t.isNull()

    def size(self) -> int:
        """The size of the value's expressions, as the length of their text (tracks the tree size)."""
        return 0 if self.small else sum(len(str(c)) for c in self.payloads().values())

    def payloads(self) -> dict[str, Column]:
        out = {"t": self.t}
        out.update((k, c) for k, c in (("i", self.i), ("f", self.f), ("d", self.d), ("s", self.s), ("b", self.b), ("w", self.w)) if c is not None)
        return out


@dataclass(frozen=True)
class Cond:
    c: Column
    w: Column | None = None
    packed: Column | None = field(default=None, compare=False)

    def payloads(self) -> dict[str, Column]:
        return {"c": self.c} if self.w is None else {"c": self.c, "w": self.w}


R = TypeVar("R", Val, Cond)


def or_w(*ws: Column | None) -> Column | None:
    present = [w for w in ws if w is not None]
    if not present:
        return None
    out = present[0]
    for w in present[1:]:
        out = out | w
    return out


def is_in(v: Val, codes: frozenset[int]) -> Column | bool:
    """Whether the value's type is one of ``codes``: a Column, or a bool when known statically.
    NULL for a NULL value (a ``when`` then takes the branch as not taken)."""
    possible = (v.kinds - {NULLK}) & codes
    if not possible:
        return False
    if v.kinds <= codes:
        return True
    if len(possible) == 1:
        return v.t == J.lit(next(iter(possible)))
    return v.t.isin(*sorted(possible))


def any_of(*conds: Column | bool) -> Column | bool:
    cols = [c for c in conds if c is not False]
    if any(c is True for c in cols):
        return True
    if not cols:
        return False
    out: Any = cols[0]
    for c in cols[1:]:
        out = out | c
    return out  # type: ignore[no-any-return]


class Case:
    """A CASE WHEN chain where conditions known statically prune branches."""

    def __init__(self) -> None:
        self.branches: list[tuple[Column, Column]] = []
        self.final: Column | None = None

    def when(self, cond: Column | bool, value: Column) -> Case:
        if self.final is not None or cond is False:
            return self
        if cond is True:
            self.final = value
        else:
            self.branches.append((cond, value))  # type: ignore[arg-type]
        return self

    def otherwise(self, value: Column | None) -> Column:
        final = self.final if self.final is not None else value
        if not self.branches:
            return final if final is not None else J.lit(None)
        out = F.when(*self.branches[0])
        for cond, val in self.branches[1:]:
            out = out.when(cond, val)
        return out.otherwise(final) if final is not None else out


def null(dtype: str) -> Column:
    return J.null(dtype)


def literal(value: Value) -> Val:
    """A statically known value (a literal, or a folded literal-only expression)."""
    if value is None:
        return Val(frozenset({NULLK}), null("int"), const=None)
    if value is TYPE_ERROR:
        return Val(frozenset({ERR}), J.lit(ERR), const=TYPE_ERROR)
    t, v = value  # type: ignore[misc]
    code = int(t)
    out = Val(frozenset({code}), J.lit(code), const=value, small=True, views=True)
    if t is JType.BOOLEAN:
        return replace(out, b=J.lit(v))
    if t is JType.STRING:
        return replace(out, s=J.lit(v))
    if t is JType.FLOAT:
        return replace(out, f=J.lit(v, "float"), d=J.lit(v))
    if t is JType.DOUBLE:
        return replace(out, d=J.lit(v))
    return replace(out, i=J.lit_long(v), f=J.lit(int_to_f32(v), "float"), d=J.lit(float(v)))


def identifier(name: str) -> Val:
    return J.memo(("identifier", name), lambda: make_identifier(name))  # type: ignore[no-any-return]


def make_identifier(name: str) -> Val:
    if name in SELECTOR_HEADERS:
        col = F.col(name)
        jt = HEADER_KINDS.get(name, JType.STRING)
        code = int(jt)
        t = F.when(col.isNotNull(), J.lit(code))
        kinds = frozenset({code, NULLK})
        if jt is JType.STRING:
            return Val(kinds, t, s=col, null=col.isNull(), small=True)
        return Val(kinds, t, i=col.cast("bigint"), null=col.isNull(), small=True)
    return property_value(F.col(PROPERTIES).getItem(name))


def property_value(entry: Column) -> Val:
    """A property read from its layout struct (``properties[name]``, or that struct bound once)."""
    t = entry.getField("t")
    return Val(
        ANY_PROPERTY,
        t,
        i=entry.getField("i"),
        f=entry.getField("f"),
        d=entry.getField("d"),
        s=entry.getField("s"),
        b=entry.getField("b"),
        null=t.isNull(),
        small=True,
        views=True,
    )


def numeric_const(v: Val) -> tuple[JType, Any] | None:
    c = v.const
    if isinstance(c, tuple) and c[0].is_numeric:
        return c
    return None


def as_float(v: Val, with_integral: bool) -> Column | None:
    """The value promoted to float (an integer rounded once, a float as is), NULL for other types.

    ``with_integral=False`` leaves integers out: where the other operand cannot be a float, an
    integer never reaches float promotion (the integral comparison came first)."""
    c = numeric_const(v)
    if c is not None:
        if c[0] is JType.FLOAT:
            return J.lit(c[1], "float")
        return J.lit(int_to_f32(c[1]), "float") if c[0].is_integral and with_integral else None
    if v.views:
        return v.f if v.may(INTEGRAL | FLOAT_K) else None
    parts = []
    if with_integral and v.may(INTEGRAL) and v.i is not None:
        parts.append(J.to_float(v.i))
    if v.may(FLOAT_K) and v.f is not None:
        parts.append(v.f)
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else F.coalesce(*parts)


def as_double(v: Val, with_narrower: bool) -> Column | None:
    """The value promoted to double, NULL for non-numbers. ``with_narrower=False`` leaves integers
    and floats out: where the other operand cannot be a double, they were compared before."""
    c = numeric_const(v)
    if c is not None:
        return J.lit(float(c[1])) if with_narrower or c[0] is JType.DOUBLE else None
    if v.views:
        return v.d if v.may(NUMERIC) else None
    parts = []
    if with_narrower and v.may(INTEGRAL) and v.i is not None:
        parts.append(v.i.cast("double"))
    if with_narrower and v.may(FLOAT_K) and v.f is not None:
        parts.append(v.f.cast("double"))
    if v.may(DOUBLE_K) and v.d is not None:
        parts.append(v.d)
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else F.coalesce(*parts)


def may_nan(v: Val, double: bool) -> bool:
    if v.const is not NOCONST:
        value = v.const
        return isinstance(value, tuple) and value[0] in (JType.FLOAT, JType.DOUBLE) and value[1] != value[1]
    return v.may(FLOAT_K) or (double and v.may(DOUBLE_K))


def val_arith_kinds(op: str, a: Val, b: Val) -> frozenset[int]:
    b_may_be_zero = b.const is NOCONST or (isinstance(b.const, tuple) and b.const[1] == 0)
    return arith_kinds(op, a.kinds, b.kinds, b_may_be_zero)


def arith_kinds(op: str, a: frozenset[int], b: frozenset[int], b_may_be_zero: bool = True) -> frozenset[int]:
    """The kinds ``a op b`` can have (docs/SEMANTICS.md#numeric-promotion), from its operands' kinds."""
    out: set[int] = set()
    for ka in a:
        for kb in b:
            if ka in NOT_NUMBER or kb in NOT_NUMBER:
                out.add(ERR)
            elif NULLK in (ka, kb):
                out.add(NULLK)
            else:
                p = max(ka, kb, 3)
                out.add(p)
                if op == "/" and p <= 4 and b_may_be_zero:
                    out.add(NULLK)
    return frozenset(out)


def unary_kinds(a: Val) -> frozenset[int]:
    return frozenset(ERR if k in NOT_NUMBER else NULLK if k == NULLK else max(k, 3) for k in a.kinds)


def both(x: Column | bool, y: Column | bool) -> Column | bool:
    if x is False or y is False:
        return False
    if x is True:
        return y
    if y is True:
        return x
    return x & y  # type: ignore[operator]


def nullable(v: Val) -> Column | bool:
    return v.is_null() if NULLK in v.kinds else False


def pack(r: Val | Cond) -> Column:
    if r.packed is not None:
        return r.packed
    return F.struct(*[c.alias(k) for k, c in r.payloads().items()])


def unpack(r: R, col: Column) -> R:
    """The fields of a bound result, read from the struct column the lambda produced."""
    get = col.getField
    if isinstance(r, Cond):
        return Cond(get("c"), None if r.w is None else get("w"), packed=col)  # type: ignore[return-value]
    fields = {k: get(k) for k in r.payloads()}
    return replace(  # type: ignore[return-value]
        r,
        t=fields["t"],
        i=fields.get("i"),
        f=fields.get("f"),
        d=fields.get("d"),
        s=fields.get("s"),
        b=fields.get("b"),
        w=fields.get("w"),
        null=None,
        packed=col,
    )




def unless(cond: Column | None, value: Column, dtype: str) -> Column:
    return value if cond is None else F.when(cond, null(dtype)).otherwise(value)


def equality(op: str, x: Column, y: Column) -> Column:
    """Strings and booleans: = and <> compare; ordering is FALSE (NULL unless both are that type)."""
    if op == "=":
        return x == y
    if op == "<>":
        return x != y
    return F.when(x.isNotNull() & y.isNotNull(), J.lit(False))


def numeric_parts(op: str, a: Val, b: Val) -> list[Column]:
    """The comparison in each promoted type that can occur, most precise first (see the module doc)."""
    parts = []
    if a.may(INTEGRAL) and b.may(INTEGRAL) and a.i is not None and b.i is not None:
        parts.append(J.compare(op, a.i, b.i))
    if a.may(INTEGRAL | FLOAT_K) and b.may(INTEGRAL | FLOAT_K) and (a.may(FLOAT_K) or b.may(FLOAT_K)):
        x, y = as_float(a, b.may(FLOAT_K)), as_float(b, a.may(FLOAT_K))
        if x is not None and y is not None:
            parts.append(J.floating_compare(op, x, y, may_nan(a, False), may_nan(b, False), "float"))
    if a.may(NUMERIC) and b.may(NUMERIC) and (a.may(DOUBLE_K) or b.may(DOUBLE_K)):
        x, y = as_double(a, b.may(DOUBLE_K)), as_double(b, a.may(DOUBLE_K))
        if x is not None and y is not None:
            parts.append(J.floating_compare(op, x, y, may_nan(a, True), may_nan(b, True), "double"))
    return parts

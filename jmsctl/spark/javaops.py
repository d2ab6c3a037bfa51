"""Java's numeric operations as Spark Columns that never raise, whatever ``spark.sql.ansi.enabled`` says.

Spark's own ``+ - * /`` raise on int/long overflow and on division by zero in ANSI mode (Spark 4's
default) and wrap or give NULL otherwise. Nothing here depends on that setting:

- long ``+ - *``: ``try_add`` / ``try_subtract`` / ``try_multiply`` (NULL on overflow in either mode),
  and only on overflow the exact result as decimal(38,0) (|a*b| < 2^126 < 10^38) reduced modulo
  2^64; a decimal of scale 0 has the same type whatever the decimal settings say;
- int arithmetic: computed in bigint (no int product reaches 2^63) and narrowed to 32 bits with
  shifts (``(x << 32) >> 32`` sign-extends the low 32 bits: Java's wrap-around);
- integer division: ``div`` (truncates toward zero, as Java) only for divisors other than 0 (NULL,
  docs/SEMANTICS.md#numeric-promotion) and -1 (negation, which wraps for MIN_VALUE);
- floating division: the IEEE result for a zero divisor is built with ``when`` (Spark would give
  NULL or raise); the sign of a zero divisor is read with ``pow(z, -1)`` (-Infinity for -0.0);
- float arithmetic is Spark's float arithmetic (Java's, rounded to float at each step); an int or
  long becomes a float through ``cast(i as float) * 1.0f``: the optimizer removes
  ``cast(cast(long as float) as double)`` as a "widening" pair, which would skip the rounding
  (``16777217`` must become ``1.6777216E7``);
- comparisons of floating values put NaN right (Spark treats NaN = NaN as true and NaN as larger
  than everything; Java's NaN is unequal and unordered) and need no change for -0.0 = 0.0.

Every ``when`` below guards an expression that could raise: Spark evaluates only the branch taken.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from pyspark import SparkContext
from pyspark.sql import Column
from pyspark.sql import functions as F

LONG_MIN = -(1 << 63)

_MEMO: dict[tuple[Any, ...], Any] = {}
_OWNER: list[Any] = [None]


def memo(key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """``make()``, once per key and Spark context: every Column built from Python costs a Py4J
    round trip, and selectors are made of a few constants and identifiers used over and over
    (Columns are immutable, so sharing them is safe)."""
    owner = SparkContext._active_spark_context
    if owner is None:
        return make()
    if _OWNER[0] is not owner:
        _MEMO.clear()
        _OWNER[0] = owner
    if key not in _MEMO:
        _MEMO[key] = make()
    return _MEMO[key]


def lit(value: Any, dtype: str | None = None) -> Column:
    # The key has the type and repr: -0.0 is not 0.0 and True is not 1 here.
    return memo(("lit", type(value).__name__, repr(value), dtype), lambda: F.lit(value) if dtype is None else F.lit(value).cast(dtype))


def null(dtype: str) -> Column:
    return lit(None, dtype)


def lit_long(v: int) -> Column:
    return lit(v, "bigint")


def wrap32(x: Column) -> Column:
    """The low 32 bits of a bigint, sign-extended: Java's (int) narrowing."""
    return F.shiftright(F.shiftleft(x, 32), 32)


def narrow(x: Column, is_int: Column) -> Column:
    """``wrap32(x)`` where ``is_int`` holds, ``x`` elsewhere, with ``x`` written once."""
    bits = F.when(is_int, lit(32)).otherwise(lit(0))
    return F.call_function("shiftright", F.call_function("shiftleft", x, bits), bits)


def to_float(i: Column) -> Column:
    """Java's int/long -> float conversion (rounded once), in a form the optimizer keeps."""
    return i.cast("float") * lit(1.0, "float")


# ----- long arithmetic with wrap-around ------------------------------------------------------

_TWO63 = Decimal(1 << 63)
_TWO64 = Decimal(1 << 64)


def _wrap64(exact: Column) -> Column:
    """An exact integer (decimal of scale 0, |x| < 2^127) reduced to Java's long: modulo 2^64."""
    return (F.pmod(exact + lit(_TWO63), lit(_TWO64)) - lit(_TWO63)).cast("bigint")


def _exact(op: str, a: Column, b: Column) -> Column:
    # decimal(20,0) holds any long; the sum, difference and product (|a*b| < 2^126 < 10^38) fit in
    # decimal(38,0), the type Spark gives them whatever spark.sql.decimalOperations.* say.
    x, y = a.cast("decimal(20,0)"), b.cast("decimal(20,0)")
    return x + y if op == "+" else x - y if op == "-" else x * y


_TRY = {"+": F.try_add, "-": F.try_subtract, "*": F.try_multiply}


def long_op(op: str, a: Column, b: Column) -> Column:
    """long ``+ - *`` with wrap-around: Spark's checked operation (NULL on overflow in both ANSI
    modes), and only where it overflowed the exact result in decimal, reduced modulo 2^64."""
    if op == "/":
        return long_divide(a, b)
    return F.coalesce(_TRY[op](a, b), _wrap64(_exact(op, a, b)))


def long_negate(a: Column) -> Column:
    m = lit_long(LONG_MIN)
    return F.when(a == m, m).otherwise(-a)


def long_divide(a: Column, b: Column) -> Column:
    """Truncating division; NULL for a zero divisor; MIN / -1 wraps to MIN."""
    return F.when(b == 0, null("bigint")).when(b == -1, long_negate(a)).otherwise(F.call_function("div", a, b))



def int_op(op: str, a: Column, b: Column) -> Column:
    """int arithmetic on int-range bigints: exact in bigint, then wrapped to 32 bits."""
    if op == "+":
        return wrap32(a + b)
    if op == "-":
        return wrap32(a - b)
    if op == "*":
        return wrap32(a * b)
    return wrap32(F.when(b == 0, null("bigint")).otherwise(F.call_function("div", a, b)))


# ----- floating arithmetic -------------------------------------------------------------------

def _negative_zero(z: Column) -> Column:
    """For a zero ``z``: whether it is -0.0 (1 / -0.0 is -Infinity; pow does not raise)."""
    return F.pow(z.cast("double"), lit(-1.0)) < 0


def ieee_divide(x: Column, y: Column, as_float: bool) -> Column:
    """``x / y`` under IEEE 754 for doubles, or floats (computed in double and rounded once: exact)."""
    xd, yd = x.cast("double"), y.cast("double")
    negative = (xd < 0) != _negative_zero(yd)
    by_zero = (
        F.when(F.isnan(xd) | (xd == 0), lit(float("nan")))
        .when(negative, lit(float("-inf")))
        .otherwise(lit(float("inf")))
    )
    result = F.when(xd.isNull(), null("double")).when(yd == 0, by_zero).otherwise(xd / yd)
    return result.cast("float") if as_float else result


def floating_op(op: str, x: Column, y: Column, as_float: bool) -> Column:
    if op == "/":
        return ieee_divide(x, y, as_float)
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    return x * y


# ----- comparisons ---------------------------------------------------------------------------

def compare(op: str, x: Column, y: Column) -> Column:
    if op == "=":
        return x == y
    if op == "<>":
        return x != y
    if op == "<":
        return x < y
    if op == "<=":
        return x <= y
    if op == ">":
        return x > y
    return x >= y


_NAN_SIDE = {"=": "x", "<": "y", "<=": "y", ">": "x", ">=": "x"}


def floating_compare(op: str, x: Column, y: Column, x_nan: bool, y_nan: bool, dtype: str) -> Column:
    """A Java comparison of two floating values of type ``dtype``; NULL if either is NULL or where
    a NaN makes the answer FALSE (the caller's final FALSE then applies).

    Spark orders NaN above everything and makes NaN = NaN true; Java's NaN is unequal to
    everything and unordered. For each operator Spark differs from Java only when one particular
    side is NaN (``=``: either, so one side suffices; ``<`` ``<=``: the right; ``>`` ``>=``: the
    left), and that side is read through ``nanvl(side, NULL)``. ``<>`` is TRUE with any NaN, which
    Spark gets wrong only for two NaNs. ``x_nan`` / ``y_nan``: whether that side can be NaN at all.
    """
    if op == "<>":
        unequal = x != y
        return unequal | (F.isnan(x) & F.isnan(y)) if x_nan and y_nan else unequal
    side = _NAN_SIDE[op]
    if side == "x" and op == "=" and not x_nan:
        side = "y"
    if side == "x" and x_nan:
        x = F.nanvl(x, null(dtype))
    elif side == "y" and y_nan:
        y = F.nanvl(y, null(dtype))
    return compare(op, x, y)

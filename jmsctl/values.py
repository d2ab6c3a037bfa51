"""The one value model shared by every backend: Java's eight property types, NULL and type errors.

A typed value is a plain tuple ``(JType, python_value)`` so that the hot path (the compiled
evaluator) can unpack it without attribute lookups. NULL is ``None``; a String or boolean
used in arithmetic is the ``TYPE_ERROR`` singleton (docs/SEMANTICS.md#type-mismatches: it wins over NULL and
makes a comparison FALSE). Conditions are ``True`` / ``False`` / ``None`` (UNKNOWN).

Floats are stored as Python floats that hold an exactly representable float32 value, so
comparisons need no conversion; arithmetic rounds results back to float32 (``to_f32``).
"""

from __future__ import annotations

import math
import operator
import struct
from collections.abc import Callable
from enum import IntEnum
from fractions import Fraction
from typing import Any, Final


class JType(IntEnum):
    """Java's property types, ordered so that numeric promotion is ``max`` over BYTE..DOUBLE."""

    BOOLEAN = 0
    BYTE = 1
    SHORT = 2
    INT = 3
    LONG = 4
    FLOAT = 5
    DOUBLE = 6
    STRING = 7

    @property
    def java_name(self) -> str:
        return "String" if self is JType.STRING else self.name.lower()

    @classmethod
    def from_name(cls, name: str) -> JType | None:
        """``int``, ``String``/``string`` ... to a JType; None when it names no property type."""
        return _BY_NAME.get(name.lower())

    @property
    def is_numeric(self) -> bool:
        return JType.BYTE <= self <= JType.DOUBLE

    @property
    def is_integral(self) -> bool:
        return JType.BYTE <= self <= JType.LONG


_BY_NAME = {t.name.lower(): t for t in JType}

BOOLEAN: Final = JType.BOOLEAN
BYTE: Final = JType.BYTE
SHORT: Final = JType.SHORT
INT: Final = JType.INT
LONG: Final = JType.LONG
FLOAT: Final = JType.FLOAT
DOUBLE: Final = JType.DOUBLE
STRING: Final = JType.STRING


class _TypeError:
    """A String or boolean operand in arithmetic: compares FALSE, never UNKNOWN."""

    _instance: _TypeError | None = None

    def __new__(cls) -> _TypeError:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "TYPE_ERROR"

    def __reduce__(self) -> str:
        return "TYPE_ERROR"


TYPE_ERROR: Final = _TypeError()

TypedValue = tuple[JType, Any]
Value = TypedValue | None | _TypeError
Tri = bool | None

RANGES: Final = {
    BYTE: (-(1 << 7), (1 << 7) - 1),
    SHORT: (-(1 << 15), (1 << 15) - 1),
    INT: (-(1 << 31), (1 << 31) - 1),
    LONG: (-(1 << 63), (1 << 63) - 1),
}
INT_MIN, INT_MAX = RANGES[INT]
LONG_MIN, LONG_MAX = RANGES[LONG]
FLOAT_MAX: Final = struct.unpack("<f", b"\xff\xff\x7f\x7f")[0]

_F32 = struct.Struct("<f")
_F32_OVERFLOW_MIDPOINT: Final = 2.0**128 - 2.0**103  # halfway between Float.MAX_VALUE and 2^128


def to_f32(x: float) -> float:
    """Round a double to the nearest float32 (IEEE round-half-even); overflow gives infinity."""
    try:
        return _F32.unpack(_F32.pack(x))[0]  # type: ignore[no-any-return]
    except OverflowError:
        return math.copysign(math.inf, x)


def int_to_f32(v: int) -> float:
    """Java's int/long -> float conversion, rounded once (float(v) then to_f32 would round twice)."""
    if -(1 << 24) <= v <= (1 << 24):
        return float(v)
    sign = -1 if v < 0 else 1
    mag = -v if v < 0 else v
    shift = mag.bit_length() - 24
    q, r = divmod(mag, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return sign * float(q << shift)


def fraction_to_f32(q: Fraction) -> float:
    """Correctly rounded decimal/hex -> float32 for literals (avoids double rounding at midpoints)."""
    d = float(q)  # correctly rounded to double; may raise OverflowError
    f = to_f32(d)
    if math.isinf(f):
        # d may be exactly the overflow midpoint (MAX + half an ulp) while q lies below it.
        if abs(d) == _F32_OVERFLOW_MIDPOINT and abs(q) < _F32_OVERFLOW_MIDPOINT:
            return math.copysign(FLOAT_MAX, d)
        return f
    if f == d:
        return f
    lo, hi = (f, _next_f32(f, d)) if f < d else (_next_f32(f, d), f)
    mid = (lo + hi) / 2  # exact in double: float32 neighbours differ in 25 significant bits at most
    if d != mid:
        return f
    exact_mid = Fraction(mid)
    if q < exact_mid:
        return lo
    if q > exact_mid:
        return hi
    return lo if _f32_bits(lo) % 2 == 0 else hi


def _f32_bits(f: float) -> int:
    return int.from_bytes(_F32.pack(f), "little")


def _next_f32(f: float, toward: float) -> float:
    bits = _f32_bits(f)
    if f == 0.0:
        step = struct.unpack("<f", (1).to_bytes(4, "little"))[0]
        return math.copysign(step, toward)
    bits += 1 if (toward > f) == (f > 0) else -1
    return _F32.unpack(bits.to_bytes(4, "little"))[0]  # type: ignore[no-any-return]


def wrap32(v: int) -> int:
    if INT_MIN <= v <= INT_MAX:
        return v
    return ((v + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def wrap64(v: int) -> int:
    if LONG_MIN <= v <= LONG_MAX:
        return v
    return ((v + (1 << 63)) & 0xFFFFFFFFFFFFFFFF) - (1 << 63)


def java_idiv(x: int, y: int) -> int:
    """Java integer division truncates toward zero (Python's // floors)."""
    q = abs(x) // abs(y)
    return -q if (x < 0) != (y < 0) else q


def ieee_div(x: float, y: float) -> float:
    """IEEE 754 division: Python raises on a zero divisor, Java gives +-Infinity or NaN."""
    if y == 0.0:
        if x == 0.0 or math.isnan(x):
            return math.nan
        negative = (math.copysign(1.0, x) < 0) != (math.copysign(1.0, y) < 0)
        return -math.inf if negative else math.inf
    return x / y


def promote(a: JType, b: JType) -> JType:
    """Java binary numeric promotion: byte/short/int operate as int, then long, float, double."""
    t = a if a > b else b
    return INT if t < INT else t


def as_float(t: JType, v: Any, target: JType) -> float:
    """Widen a numeric value to float (float32 value) or double, as Java's promotion does."""
    if t <= LONG:
        return int_to_f32(v) if target is FLOAT else float(v)
    return v  # type: ignore[no-any-return]  # float32 values are exact doubles


def _arith_int(op: str, x: int, y: int, wrap: Callable[[int], int]) -> int | None:
    if op == "+":
        return wrap(x + y)
    if op == "-":
        return wrap(x - y)
    if op == "*":
        return wrap(x * y)
    if y == 0:
        return None  # docs/SEMANTICS.md#numeric-promotion: integer division by zero is NULL
    return wrap(java_idiv(x, y))


def _arith_float(op: str, x: float, y: float) -> float:
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    return ieee_div(x, y)


def arithmetic(op: str, a: Value, b: Value) -> Value:
    """``a op b`` under Java binary numeric promotion; a type error wins over NULL."""
    if is_type_error_operand(a) or is_type_error_operand(b):
        return TYPE_ERROR
    if a is None or b is None:
        return None
    ta, va = a  # type: ignore[misc]
    tb, vb = b  # type: ignore[misc]
    t = promote(ta, tb)
    if t is INT:
        r = _arith_int(op, va, vb, wrap32)
        return None if r is None else (INT, r)
    if t is LONG:
        r = _arith_int(op, va, vb, wrap64)
        return None if r is None else (LONG, r)
    x, y = as_float(ta, va, t), as_float(tb, vb, t)
    result = _arith_float(op, x, y)
    return (FLOAT, to_f32(result)) if t is FLOAT else (DOUBLE, result)


def negate(a: Value) -> Value:
    """Unary minus: unary numeric promotion, then Java negation (MIN_VALUE wraps to itself)."""
    if is_type_error_operand(a):
        return TYPE_ERROR
    if a is None:
        return None
    t, v = a  # type: ignore[misc]
    if t <= INT:
        return (INT, wrap32(-v))
    if t is LONG:
        return (LONG, wrap64(-v))
    return (t, -v)


def unary_plus(a: Value) -> Value:
    """Unary plus: only unary numeric promotion (a byte becomes an int)."""
    if is_type_error_operand(a):
        return TYPE_ERROR
    if a is None:
        return None
    t, v = a  # type: ignore[misc]
    return (INT, v) if t < INT else a


def is_type_error_operand(a: Value) -> bool:
    """True for TYPE_ERROR itself and for String/boolean values used as numbers."""
    if a is TYPE_ERROR:
        return True
    return a is not None and not (BYTE <= a[0] <= DOUBLE)  # type: ignore[index]


COMPARATORS: Final[dict[str, Callable[[Any, Any], bool]]] = {
    "=": operator.eq,
    "<>": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def compare(op: str, a: Value, b: Value) -> Tri:
    """A comparison under docs/SEMANTICS.md#comparisons: type error FALSE, NULL UNKNOWN, unlike types FALSE."""
    if a is TYPE_ERROR or b is TYPE_ERROR:
        return False
    if a is None or b is None:
        return None
    ta, va = a  # type: ignore[misc]
    tb, vb = b  # type: ignore[misc]
    if BYTE <= ta <= DOUBLE and BYTE <= tb <= DOUBLE:
        if ta <= LONG and tb <= LONG:
            return COMPARATORS[op](va, vb)
        t = promote(ta, tb)
        return COMPARATORS[op](as_float(ta, va, t), as_float(tb, vb, t))
    if ta is not tb:
        return False
    if op == "=":
        return va == vb  # type: ignore[no-any-return]
    if op == "<>":
        return va != vb  # type: ignore[no-any-return]
    return False  # String and boolean comparison is restricted to = and <>


def unlike_types(a: Value, b: Value) -> bool:
    """Whether a comparison of a and b compares non-like types (the IBM dialect's 'whole selector FALSE')."""
    if a is TYPE_ERROR or b is TYPE_ERROR:
        return True
    if a is None or b is None:
        return False
    ta, tb = a[0], b[0]  # type: ignore[index]
    if ta.is_numeric and tb.is_numeric:
        return False
    return ta is not tb


def tri_and(a: Tri, b: Tri) -> Tri:
    if a is False or b is False:
        return False
    return None if a is None or b is None else True


def tri_or(a: Tri, b: Tri) -> Tri:
    if a is True or b is True:
        return True
    return None if a is None or b is None else False


def tri_not(a: Tri) -> Tri:
    return None if a is None else not a


def tri_name(a: Tri) -> str:
    return "UNKNOWN" if a is None else ("TRUE" if a else "FALSE")


# ----- construction and display -------------------------------------------------------------


def in_range(t: JType, v: int) -> bool:
    lo, hi = RANGES[t]
    return lo <= v <= hi


def f32_repr(f: float) -> str:
    """The shortest decimal that reads back as the same float32 (Java's Float.toString spirit)."""
    if math.isnan(f) or math.isinf(f):
        return java_double_repr(f)
    for digits in range(1, 10):
        text = f"{f:.{digits}g}"
        if to_f32(float(text)) == f:
            return _pretty_float(text)
    return repr(f)


def java_double_repr(d: float) -> str:
    if math.isnan(d):
        return "NaN"
    if math.isinf(d):
        return "Infinity" if d > 0 else "-Infinity"
    return _pretty_float(repr(d))


def _pretty_float(text: str) -> str:
    if "e" in text or "E" in text:
        mantissa, exp = text.lower().split("e")
        if "." not in mantissa:
            mantissa += ".0"
        return f"{mantissa}E{int(exp)}"
    return text if "." in text else text + ".0"


def format_value(v: Value) -> str:
    """A value as a person reads it, with its Java type: ``2600 (int)``, ``'blue' (String)``."""
    if v is None:
        return "NULL"
    if v is TYPE_ERROR:
        return "type error"
    t, x = v  # type: ignore[misc]
    return f"{format_plain(t, x)} ({t.java_name})"


def format_plain(t: JType, x: Any) -> str:
    if t is STRING:
        return "'" + str(x).replace("'", "''") + "'"
    if t is BOOLEAN:
        return "TRUE" if x else "FALSE"
    if t is FLOAT:
        return f32_repr(x)
    if t is DOUBLE:
        return java_double_repr(x)
    return str(x)

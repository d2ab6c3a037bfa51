"""The value model: Java conversions, wrap-around, division, rounding and the comparison rules."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from jmsctl.values import (
    BOOLEAN,
    BYTE,
    DOUBLE,
    FLOAT,
    INT,
    LONG,
    STRING,
    TYPE_ERROR,
    arithmetic,
    compare,
    format_value,
    fraction_to_f32,
    ieee_div,
    int_to_f32,
    java_idiv,
    negate,
    to_f32,
    wrap32,
    wrap64,
)


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def test_wrap_around_is_twos_complement() -> None:
    assert wrap32(2**31) == -(2**31)
    assert wrap32(-(2**31) - 1) == 2**31 - 1
    assert wrap64(2**63) == -(2**63)
    assert wrap64(2**64 + 5) == 5


def test_integer_division_truncates_toward_zero() -> None:
    assert java_idiv(-7, 2) == -3
    assert java_idiv(7, -2) == -3
    assert java_idiv(-7, -2) == 3


def test_int_min_divided_by_minus_one_wraps() -> None:
    assert arithmetic("/", (INT, -(2**31)), (INT, -1)) == (INT, -(2**31))
    assert arithmetic("/", (LONG, -(2**63)), (INT, -1)) == (LONG, -(2**63))


def test_integer_division_by_zero_is_null_and_floating_is_ieee() -> None:
    assert arithmetic("/", (INT, 5), (INT, 0)) is None
    assert arithmetic("/", (INT, 5), (DOUBLE, 0.0)) == (DOUBLE, math.inf)
    assert arithmetic("/", (INT, 5), (DOUBLE, -0.0)) == (DOUBLE, -math.inf)
    assert math.isnan(ieee_div(0.0, 0.0))
    assert ieee_div(-1.0, 0.0) == -math.inf


def test_type_error_wins_over_null() -> None:
    assert arithmetic("+", (STRING, "5"), None) is TYPE_ERROR
    assert arithmetic("+", None, (BOOLEAN, True)) is TYPE_ERROR
    assert arithmetic("+", None, (INT, 1)) is None
    assert compare("=", TYPE_ERROR, None) is False
    assert negate((STRING, "x")) is TYPE_ERROR


def test_byte_arithmetic_is_int_arithmetic() -> None:
    assert arithmetic("*", (BYTE, 100), (BYTE, 100)) == (INT, 10000)
    assert negate((BYTE, -128)) == (INT, 128)


def test_float_arithmetic_rounds_to_float() -> None:
    r = arithmetic("*", (FLOAT, to_f32(0.1)), (INT, 3))
    assert r == (FLOAT, to_f32(to_f32(0.1) * 3))
    assert r[1] != 0.3


def test_to_f32_overflow_gives_infinity() -> None:
    assert to_f32(1e39) == math.inf
    assert to_f32(-1e39) == -math.inf


@given(st.integers(-(2**63), 2**63 - 1))
def test_int_to_f32_rounds_once(v: int) -> None:
    assert int_to_f32(v) == fraction_to_f32(Fraction(v))


def test_long_to_float_double_rounding_trap() -> None:
    v = 2**60 + 2**36 + 1  # via double it rounds twice and lands on the wrong float
    assert int_to_f32(v) == float(2**60 + 2**37)
    assert to_f32(float(v)) != int_to_f32(v)


def test_fraction_to_f32_breaks_the_double_rounding_tie_correctly() -> None:
    a, b = 1 + 2**-23, 1 + 2**-22  # neighbouring floats; their midpoint is a double
    mid = Fraction(1) + Fraction(3, 2**24)
    just_below = mid - Fraction(1, 2**60)
    assert float(just_below) == float(mid)  # the double cannot tell them apart
    assert fraction_to_f32(just_below) == a
    assert fraction_to_f32(mid + Fraction(1, 2**60)) == b
    assert f32_bits(fraction_to_f32(mid)) % 2 == 0  # an exact tie goes to even


def test_comparisons_follow_java() -> None:
    nan = (DOUBLE, math.nan)
    assert compare("=", nan, nan) is False
    assert compare("<>", nan, nan) is True
    assert compare("=", (DOUBLE, -0.0), (INT, 0)) is True
    assert compare("=", (LONG, 16777217), (FLOAT, 16777216.0)) is True  # long widened to float
    assert compare("=", (LONG, 2**53 + 1), (DOUBLE, float(2**53))) is True
    assert compare("=", (FLOAT, to_f32(0.1)), (DOUBLE, 0.1)) is False
    assert compare("<", (STRING, "a"), (STRING, "b")) is False
    assert compare("<>", (STRING, "1"), (INT, 1)) is False
    assert compare("=", (BOOLEAN, True), (INT, 1)) is False
    assert compare("=", None, None) is None


def test_format_value_names_the_java_type() -> None:
    assert format_value((FLOAT, to_f32(0.1))) == "0.1 (float)"
    assert format_value((DOUBLE, math.inf)) == "Infinity (double)"
    assert format_value((STRING, "it's")) == "'it''s' (String)"
    assert format_value(None) == "NULL"


def test_float_literal_just_below_the_overflow_midpoint_is_max_value() -> None:
    mid = Fraction(2**128 - 2**103)
    assert fraction_to_f32(mid - Fraction(1, 10**20)) == 3.4028234663852886e38
    assert fraction_to_f32(-(mid - 1)) == -3.4028234663852886e38
    assert fraction_to_f32(mid) == math.inf  # the exact tie rounds to even: infinity (Java: too large)

"""The primitives' ``valueOf(String)`` as JDK 17 runs them, exactly (messages/conversion.py tells
the rules; scripts/java/ValueOfOracle.java checks them against the JVM).

Beneath selector/ and messages/ alike: the property getters read a String property through them,
and the broker dialects' ``convert_string_expressions`` switch converts a String compared with a
number or a boolean through them, as ActiveMQ's ComparisonExpression does.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any, Final

from jmsctl.exceptions import NullPointerException, NumberFormatException
from jmsctl.values import BOOLEAN, BYTE, FLOAT, INT, LONG, RANGES, SHORT, STRING, JType, fraction_to_f32

NULL_STRING_MESSAGE: Final = "Cannot parse null string"
NULL_TRIM_MESSAGE: Final = 'Cannot invoke "String.trim()" because "in" is null'


def value_of(text: str | None, target: JType) -> Any:
    """``Boolean/Byte/Short/Integer/Long/Float/Double.valueOf(text)`` (String: the text itself)."""
    if target is STRING:
        return text
    if target is BOOLEAN:
        return boolean_value_of(text)
    if target.is_integral:
        return integral_value_of(text, target)
    return floating_value_of(text, target)


def boolean_value_of(text: str | None) -> bool:
    """``Boolean.valueOf``: ``"true".equalsIgnoreCase(text)``; null and everything else are false.

    No character outside ASCII equals a letter of "true" under equalsIgnoreCase (checked on the JVM
    for the whole BMP), so ASCII case folding is exact.
    """
    return text is not None and len(text) == 4 and text.isascii() and text.lower() == "true"


# Character.digit(ch, 10) >= 0 in JDK 17 (Unicode 13): the BMP's decimal digit (Nd) blocks, each
# ten consecutive characters starting at these zeros (listed by the JVM; Integer.parseInt works on
# UTF-16 chars, so supplementary digits such as U+1D7CE are never digits there).
_DIGIT_ZEROS: Final = (
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10,
)  # fmt: skip
_DIGITS: Final = {chr(z + k): k for z in _DIGIT_ZEROS for k in range(10)}


def _for_input_string(text: str) -> NumberFormatException:
    return NumberFormatException(f'For input string: "{text}"')


def integral_value_of(text: str | None, target: JType) -> int:
    """``Byte/Short/Integer/Long.valueOf(text)`` (radix 10), with JDK 17's exception messages."""
    if text is None:
        raise NumberFormatException(NULL_STRING_MESSAGE)
    parse_type = LONG if target is LONG else INT  # Byte and Short parse an int, then range-check it
    lo, hi = RANGES[parse_type]
    n = len(text)
    if n == 0:
        raise _for_input_string(text)
    i = 0
    negative = False
    first = text[0]
    if first < "0":  # possible leading '+' or '-'
        if first == "-":
            negative = True
        elif first != "+":
            raise _for_input_string(text)
        if n == 1:  # a lone sign
            raise _for_input_string(text)
        i = 1
    limit = -lo if negative else hi
    acc = 0
    for ch in text[i:]:
        d = _DIGITS.get(ch, -1)
        if d < 0:
            raise _for_input_string(text)
        acc = acc * 10 + d
        if acc > limit:
            raise _for_input_string(text)
    v = -acc if negative else acc
    if target is BYTE or target is SHORT:
        tlo, thi = RANGES[target]
        if not tlo <= v <= thi:
            raise NumberFormatException(f'Value out of range. Value:"{text}" Radix:10')
    return v


# ----- Float.valueOf / Double.valueOf ---------------------------------------------------------

_JAVA_TRIM: Final = "".join(chr(c) for c in range(0x21))  # String.trim(): every char <= U+0020
_HEX_FLOAT: Final = re.compile(r"([-+])?0[xX](?:([0-9a-fA-F]+)\.?|([0-9a-fA-F]*)\.([0-9a-fA-F]+))[pP]([-+])?([0-9]+)[fFdD]?")
_MAX_DIGITS: Final = 1100  # more significant digits than correct rounding can need (Java keeps as many)


class _Malformed(Exception):
    pass


def floating_value_of(text: str | None, target: JType) -> float:
    """``Float.valueOf`` / ``Double.valueOf``: JDK 17's FloatingDecimal grammar, correctly rounded.

    For ``FLOAT`` the result is the float32 value (as a Python float) rounded once from the text.
    """
    if text is None:
        raise NullPointerException(NULL_TRIM_MESSAGE)
    s = text.strip(_JAVA_TRIM)
    if not s:
        raise NumberFormatException("empty String")
    try:
        return _parse_floating(s, target is FLOAT)
    except (_Malformed, IndexError):
        raise _for_input_string(s) from None


def _parse_floating(s: str, to_float: bool) -> float:
    n = len(s)
    i = 0
    negative = False
    if s[0] in "+-":
        negative = s[0] == "-"
        i = 1
    c = s[i]  # IndexError for a lone sign, as Java's StringIndexOutOfBoundsException
    if c == "N":
        if s[i:] == "NaN":
            return math.nan
        raise _Malformed
    if c == "I":
        if s[i:] == "Infinity":
            return -math.inf if negative else math.inf
        raise _Malformed
    if c == "0" and n > i + 1 and s[i + 1] in "xX":
        return _parse_hex(s, to_float)
    # Decimal: digits and at most one point (Java reports a second point at once), an exponent, a suffix.
    int_digits: list[str] = []
    frac_digits: list[str] = []
    dec_seen = False
    while i < n:
        c = s[i]
        if c == ".":
            if dec_seen:
                raise NumberFormatException("multiple points")
            dec_seen = True
        elif "0" <= c <= "9":
            (frac_digits if dec_seen else int_digits).append(c)
        else:
            break
        i += 1
    if not int_digits and not frac_digits:
        raise _Malformed  # no digit at all, not even a 0
    exponent = 0
    if i < n and s[i] in "eE":
        i += 1
        exp_negative = False
        if s[i] in "+-":  # IndexError for "1e", as Java's StringIndexOutOfBoundsException
            exp_negative = s[i] == "-"
            i += 1
        start = i
        while i < n and "0" <= s[i] <= "9":
            if exponent < 10**12:  # beyond this any value is infinite or zero: stop growing
                exponent = exponent * 10 + ord(s[i]) - 48
            i += 1
        if i == start:
            raise _Malformed
        if exp_negative:
            exponent = -exponent
    if i < n and (i != n - 1 or s[i] not in "fFdD"):
        raise _Malformed
    sig = "".join(int_digits + frac_digits).lstrip("0")
    if not sig:
        return -0.0 if negative else 0.0
    scale = exponent - len(frac_digits)
    stripped = sig.rstrip("0")
    scale += len(sig) - len(stripped)
    # value = stripped * 10^scale = 0.stripped * 10^point
    return _round_decimal(stripped, len(stripped) + scale, negative, to_float)


def _round_decimal(sig: str, point: int, negative: bool, to_float: bool) -> float:
    if point > 400:
        mag = math.inf
    elif point < -400:
        mag = 0.0
    else:
        if len(sig) > _MAX_DIGITS:  # keep a sticky non-zero digit: same rounding, bounded work
            sig = sig[:_MAX_DIGITS] + "1"
        q = Fraction(int(sig)) * Fraction(10) ** (point - len(sig))
        mag = _round_fraction(q, to_float)
    return -mag if negative else mag


def _round_fraction(q: Fraction, to_float: bool) -> float:
    try:
        return fraction_to_f32(q) if to_float else float(q)
    except OverflowError:
        return math.inf


def _parse_hex(s: str, to_float: bool) -> float:
    m = _HEX_FLOAT.fullmatch(s)
    if m is None:
        raise _Malformed
    sign, whole, int_part, frac_part, exp_sign, exp_digits = m.groups()
    if whole is not None:
        int_part, frac_part = whole, ""
    hex_digits = (int_part or "") + frac_part
    sig = int(hex_digits, 16)
    negative = sign == "-"
    if sig == 0:
        return -0.0 if negative else 0.0
    exp_text = exp_digits.lstrip("0") or "0"
    exponent = int(exp_text) if len(exp_text) <= 12 else 10**12
    if exp_sign == "-":
        exponent = -exponent
    e2 = exponent - 4 * len(frac_part)
    top = sig.bit_length() + e2
    if top > 1100:
        mag = math.inf
    elif top < -1200:
        mag = 0.0
    else:
        q = Fraction(sig) * (Fraction(2) ** e2)
        mag = _round_fraction(q, to_float)
    return -mag if negative else mag


__all__ = ["NULL_STRING_MESSAGE", "NULL_TRIM_MESSAGE", "boolean_value_of", "floating_value_of", "integral_value_of", "value_of"]

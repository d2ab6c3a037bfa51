"""Property getters as Java runs them: the javadoc's conversion table and the primitives' ``valueOf``.

``read_as(value, target)`` answers what ``getBooleanProperty`` ... ``getStringProperty`` return for a
typed value ``(JType, value)`` or for an absent property (``None``):

- a cell not in the conversion table raises MessageFormatException;
- widening (byte to short/int/long, float to double) keeps the value;
- String to a primitive is the primitive's ``valueOf(String)``, reproduced exactly (JDK 17):
  ``Boolean.valueOf`` never fails; ``Byte/Short/Integer/Long.valueOf`` take an optional sign and
  decimal digits (any BMP Unicode decimal digit, as ``Character.digit`` does, no white space, no
  hex, no ``_``, no ``L``); ``Float/Double.valueOf`` trim characters <= U+0020 and take Java's
  floating-point grammar (``NaN``, ``Infinity``, hex ``0x1p3``, ``f/F/d/D`` suffixes), rounded
  correctly from the decimal text (float directly, never through double);
- anything to String is ``String.valueOf``: ``Float.toString`` / ``Double.toString`` are JDK 17's
  ``FloatingDecimal`` algorithm, ported digit for digit (it is not always the shortest decimal:
  ``2e23`` prints ``1.9999999999999998E23``, ``2^62`` prints ``4.6116860184273879E18``; the
  shortest-decimal algorithm arrived in JDK 19 with JDK-4511638);
- an absent property read as a primitive is ``valueOf(null)``: boolean false, byte..long
  NumberFormatException, float and double NullPointerException; String and object read ``None``.

Every error message is the one JDK 17 gives (checked against the JVM: scripts/java/ValueOfOracle.java
generates tests/data/valueof.jsonl and tests/data/tostring.jsonl).
"""

from __future__ import annotations

import math
import re
import struct
from fractions import Fraction
from typing import Any, Final

from jmsctl.exceptions import MessageFormatException, NullPointerException, NumberFormatException
from jmsctl.values import (
    BOOLEAN,
    BYTE,
    DOUBLE,
    FLOAT,
    INT,
    LONG,
    RANGES,
    SHORT,
    STRING,
    JType,
    TypedValue,
    fraction_to_f32,
)

# ----- the conversion table (row: type written, column: type read) ---------------------------

CONVERSIONS: Final[dict[JType, frozenset[JType]]] = {
    BOOLEAN: frozenset({BOOLEAN, STRING}),
    BYTE: frozenset({BYTE, SHORT, INT, LONG, STRING}),
    SHORT: frozenset({SHORT, INT, LONG, STRING}),
    INT: frozenset({INT, LONG, STRING}),
    LONG: frozenset({LONG, STRING}),
    FLOAT: frozenset({FLOAT, DOUBLE, STRING}),
    DOUBLE: frozenset({DOUBLE, STRING}),
    STRING: frozenset(JType),
}


def can_read(source: JType, target: JType) -> bool:
    """Whether a property written as ``source`` may be read with the ``target`` getter."""
    return target in CONVERSIONS[source]


def _article(t: JType) -> str:
    return "an" if t is INT else "a"


# ----- the getters ---------------------------------------------------------------------------

# JDK 17's messages for valueOf(null): Integer.parseInt(null) and FloatingDecimal's in.trim().
NULL_STRING_MESSAGE: Final = "Cannot parse null string"
NULL_TRIM_MESSAGE: Final = 'Cannot invoke "String.trim()" because "in" is null'


def read_as(value: TypedValue | None, target: JType) -> Any:
    """What ``get<Target>Property`` returns for this value (``None`` is an absent property)."""
    if value is None:
        return _read_absent(target)
    source, v = value
    if target not in CONVERSIONS[source]:
        raise MessageFormatException(f"cannot read {_article(source)} {source.java_name} property as {target.java_name}")
    if source is target:
        return v
    if target is STRING:
        return java_to_string(value)
    if source is STRING:
        return value_of(v, target)
    return v  # widening: byte/short/int to a wider integer, float to double (exact)


def _read_absent(target: JType) -> Any:
    if target is STRING:
        return None
    return value_of(None, target)


def read_object(value: TypedValue | None) -> TypedValue | None:
    """``getObjectProperty``: the value as written (Boolean, Byte, ..., String), or None when absent."""
    return value


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


# ----- String.valueOf ------------------------------------------------------------------------


def java_to_string(value: TypedValue | None) -> str:
    """``String.valueOf`` of the objectified value: what Java prints (``null`` when absent)."""
    if value is None:
        return "null"
    t, v = value
    if t is STRING:
        return v  # type: ignore[no-any-return]
    if t is BOOLEAN:
        return "true" if v else "false"
    if t is FLOAT:
        return float_to_string(v)
    if t is DOUBLE:
        return double_to_string(v)
    return str(v)


def double_to_string(d: float) -> str:
    """``Double.toString(d)`` exactly as JDK 17 prints it."""
    bits = struct.unpack("<Q", struct.pack("<d", d))[0]
    negative = bool(bits >> 63)
    fract = bits & ((1 << 52) - 1)
    bin_exp = (bits >> 52) & 0x7FF
    if bin_exp == 0x7FF:
        return "NaN" if fract else ("-Infinity" if negative else "Infinity")
    if bin_exp == 0:
        if fract == 0:
            return "-0.0" if negative else "0.0"
        leading_zeros = 64 - fract.bit_length()
        shift = leading_zeros - 11
        fract <<= shift
        bin_exp = 1 - shift
        n_significant = 64 - leading_zeros
    else:
        fract |= 1 << 52
        n_significant = 53
    digits, dec_exponent = _dtoa(bin_exp - 1023, fract, n_significant)
    return _java_format(negative, digits, dec_exponent)


def float_to_string(f: float) -> str:
    """``Float.toString(f)`` exactly as JDK 17 prints it (``f`` holds a float32 value)."""
    bits = struct.unpack("<I", struct.pack("<f", f))[0]
    negative = bool(bits >> 31)
    fract = bits & ((1 << 23) - 1)
    bin_exp = (bits >> 23) & 0xFF
    if bin_exp == 0xFF:
        return "NaN" if fract else ("-Infinity" if negative else "Infinity")
    if bin_exp == 0:
        if fract == 0:
            return "-0.0" if negative else "0.0"
        leading_zeros = 32 - fract.bit_length()
        shift = leading_zeros - 8
        fract <<= shift
        bin_exp = 1 - shift
        n_significant = 32 - leading_zeros
    else:
        fract |= 1 << 23
        n_significant = 24
    digits, dec_exponent = _dtoa(bin_exp - 127, fract << 29, n_significant)
    return _java_format(negative, digits, dec_exponent)


# The port of jdk.internal.math.FloatingDecimal.BinaryToASCIIBuffer (JDK 17): dtoa, developLongDigits,
# roundup, estimateDecExp and getChars, with Java's int/long overflow reproduced where it computes
# in int or long, and exact integers where it uses FDBigInteger.

_N_5_BITS: Final = (0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56, 59, 61)
_INSIGNIFICANT_DIGITS: Final = (
    0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 9,
    10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 15, 16, 16, 16, 17, 17, 17,
    18, 18, 18, 19,
)  # fmt: skip
_EXP_ONE: Final = 1023 << 52
_SIGNIF_MASK: Final = (1 << 52) - 1


def _wrap(v: int, bits: int) -> int:
    half = 1 << (bits - 1)
    return ((v + half) & ((1 << bits) - 1)) - half


def _jdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def _jrem(a: int, b: int) -> int:
    return a - b * _jdiv(a, b)


def _estimate_dec_exp(fract_bits: int, bin_exp: int) -> int:
    d2 = struct.unpack("<d", struct.pack("<Q", _EXP_ONE | (fract_bits & _SIGNIF_MASK)))[0]
    d = (d2 - 1.5) * 0.289529654 + 0.176091259 + float(bin_exp) * 0.301029995663981
    return math.floor(d)  # estimateDecExp's bit twiddling is floor() (|d| < 2^52 here)


def _develop_long_digits(dec_exponent: int, lvalue: int, insignificant: int) -> tuple[list[int], int]:
    if insignificant != 0:
        pow10 = 10**insignificant
        residue = lvalue % pow10
        lvalue //= pow10
        dec_exponent += insignificant
        if residue >= pow10 >> 1:
            lvalue += 1
    text = str(lvalue)
    kept = text.rstrip("0")
    return [ord(ch) - 48 for ch in kept], dec_exponent + len(text)


def _dtoa(bin_exp: int, fract_bits: int, n_significant: int) -> tuple[list[int], int]:
    """Digits and decimal exponent (value = 0.d1d2... * 10^exp) of a positive finite value."""
    tail_zeros = (fract_bits & -fract_bits).bit_length() - 1
    n_fract_bits = 53 - tail_zeros
    n_tiny_bits = max(0, n_fract_bits - bin_exp - 1)
    if -21 <= bin_exp <= 62 and n_tiny_bits == 0:
        # An integer that fits a long: its digits, less those beyond the precision.
        p2 = bin_exp - n_significant - 1
        insignificant = _INSIGNIFICANT_DIGITS[p2] if bin_exp > n_significant and 1 < p2 < len(_INSIGNIFICANT_DIGITS) else 0
        lvalue = fract_bits << (bin_exp - 52) if bin_exp >= 52 else fract_bits >> (52 - bin_exp)
        return _develop_long_digits(0, lvalue, insignificant)
    dec_exp = _estimate_dec_exp(fract_bits, bin_exp)
    b5 = max(0, -dec_exp)
    b2 = b5 + n_tiny_bits + bin_exp
    s5 = max(0, dec_exp)
    s2 = s5 + n_tiny_bits
    m5 = b5
    m2 = b2 - n_significant
    fract_bits >>= tail_zeros
    b2 -= n_fract_bits - 1
    common = min(b2, s2)
    b2 -= common
    s2 -= common
    m2 -= common
    if n_fract_bits == 1:  # an exact power of two: the next smaller value is half as far away
        m2 -= 1
    if m2 < 0:
        b2 -= m2
        s2 -= m2
        m2 = 0
    b_bits = n_fract_bits + b2 + (_N_5_BITS[b5] if b5 < len(_N_5_BITS) else b5 * 3)
    ten_s_bits = s2 + 1 + (_N_5_BITS[s5 + 1] if s5 + 1 < len(_N_5_BITS) else (s5 + 1) * 3)
    digits: list[int] = []
    if b_bits < 64 and ten_s_bits < 64:
        width = 32 if b_bits < 32 and ten_s_bits < 32 else 64

        def w(v: int) -> int:
            return _wrap(v, width)

        b = w(w(w(fract_bits) * 5**b5) << b2)
        s = w(5**s5 << s2)
        m = w(5**m5 << m2)
        tens = w(s * 10)
        q = _jdiv(b, s)
        b = w(10 * _jrem(b, s))
        m = w(m * 10)
        low = b < m
        high = w(b + m) > tens
        if q == 0 and not high:
            dec_exp -= 1  # the estimate was one too high: drop the leading zero
        else:
            digits.append(q)
        if dec_exp < -3 or dec_exp >= 8:  # E-form needs a digit after the point
            high = low = False
        while not low and not high:
            q = _jdiv(b, s)
            b = w(10 * _jrem(b, s))
            m = w(m * 10)
            if m > 0:
                low = b < m
                high = w(b + m) > tens
            else:  # m overflowed
                low = high = True
            digits.append(q)
        low_digit_difference = w(w(b << 1) - tens)
    else:
        s_val = 5**s5 << s2
        b_val = fract_bits * 5**b5 << b2
        m_val = 10 * (5**m5 << m2)
        ten_s = 10 * s_val
        q, r = divmod(b_val, s_val)
        b_val = 10 * r
        low = b_val < m_val
        high = b_val + m_val >= ten_s  # FDBigInteger's test is >=, the int/long one is >
        if q == 0 and not high:
            dec_exp -= 1
        else:
            digits.append(q)
        if dec_exp < -3 or dec_exp >= 8:
            high = low = False
        while not low and not high:
            q, r = divmod(b_val, s_val)
            b_val = 10 * r
            m_val *= 10
            low = b_val < m_val
            high = b_val + m_val >= ten_s
            digits.append(q)
        low_digit_difference = (2 * b_val > ten_s) - (2 * b_val < ten_s) if high and low else 0
    dec_exponent = dec_exp + 1
    if high:
        if low:
            if low_digit_difference == 0:
                if digits[-1] & 1:
                    dec_exponent = _roundup(digits, dec_exponent)
            elif low_digit_difference > 0:
                dec_exponent = _roundup(digits, dec_exponent)
        else:
            dec_exponent = _roundup(digits, dec_exponent)
    return digits, dec_exponent


def _roundup(digits: list[int], dec_exponent: int) -> int:
    i = len(digits) - 1
    q = digits[i]
    if q == 9:
        while q == 9 and i > 0:
            digits[i] = 0
            i -= 1
            q = digits[i]
        if q == 9:  # carry out: 1 followed by the zeros, one more in the exponent
            digits[0] = 1
            return dec_exponent + 1
    digits[i] = q + 1
    return dec_exponent


def _java_format(negative: bool, digits: list[int], dec_exponent: int) -> str:
    """FloatingDecimal.getChars: plain for 1e-3 <= |x| < 1e7, otherwise d.dddE[-]n."""
    text = "".join(chr(48 + d) for d in digits)
    n = len(text)
    out = "-" if negative else ""
    if 0 < dec_exponent < 8:
        k = min(n, dec_exponent)
        out += text[:k]
        if k < dec_exponent:
            out += "0" * (dec_exponent - k) + ".0"
        else:
            out += "." + (text[k:] if k < n else "0")
    elif -3 < dec_exponent <= 0:
        out += "0." + "0" * -dec_exponent + text
    else:
        out += text[0] + "." + (text[1:] if n > 1 else "0") + "E"
        out += str(dec_exponent - 1) if dec_exponent > 0 else "-" + str(-dec_exponent + 1)
    return out


__all__ = [
    "CONVERSIONS",
    "NULL_STRING_MESSAGE",
    "NULL_TRIM_MESSAGE",
    "boolean_value_of",
    "can_read",
    "double_to_string",
    "float_to_string",
    "floating_value_of",
    "integral_value_of",
    "java_to_string",
    "read_as",
    "read_object",
    "value_of",
]

"""Java's ``Double.toString`` and ``Float.toString`` exactly as JDK 17 prints them.

A port of ``jdk.internal.math.FloatingDecimal.BinaryToASCIIBuffer``: not always the shortest
decimal (``2e23`` prints ``1.9999999999999998E23``, ``2^62`` prints ``4.6116860184273879E18``;
the shortest-decimal algorithm arrived in JDK 19 with JDK-4511638), checked against the JVM by
tests/data/tostring.jsonl (scripts/java/ValueOfOracle.java). Used wherever jmsctl shows a
number the way Java would: getters' String conversion, ``show``, ``get``.
"""

from __future__ import annotations

import math
import struct
from typing import Final

from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, STRING, TypedValue


def double_to_string(d: float) -> str:
    """``Double.toString(d)`` exactly as JDK 17 prints it."""
    return _to_string(struct.unpack("<Q", struct.pack("<d", d))[0], width=64, fraction_bits=52, bias=1023)


def float_to_string(f: float) -> str:
    """``Float.toString(f)`` exactly as JDK 17 prints it (``f`` holds a float32 value)."""
    return _to_string(struct.unpack("<I", struct.pack("<f", f))[0], width=32, fraction_bits=23, bias=127)


def _to_string(bits: int, width: int, fraction_bits: int, bias: int) -> str:
    """The shared front of Double/Float.toString: specials, subnormal normalisation, then dtoa."""
    exp_bits = width - 1 - fraction_bits
    negative = bool(bits >> (width - 1))
    fract = bits & ((1 << fraction_bits) - 1)
    bin_exp = (bits >> fraction_bits) & ((1 << exp_bits) - 1)
    if bin_exp == (1 << exp_bits) - 1:
        return "NaN" if fract else ("-Infinity" if negative else "Infinity")
    if bin_exp == 0:
        if fract == 0:
            return "-0.0" if negative else "0.0"
        leading_zeros = width - fract.bit_length()
        shift = leading_zeros - exp_bits
        fract <<= shift
        bin_exp = 1 - shift
        n_significant = width - leading_zeros
    else:
        fract |= 1 << fraction_bits
        n_significant = fraction_bits + 1
    # dtoa works on a 52-bit fraction: a float's 23 bits are shifted up by 29
    digits, dec_exponent = _dtoa(bin_exp - bias, fract << (52 - fraction_bits), n_significant)
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

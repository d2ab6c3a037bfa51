"""Java numeric literal syntax and values (docs/SEMANTICS.md#integer-literals, #floating-point-literals), decoded exactly.

Integer literals become Java bit patterns or range-checked decimals; floating literals are
rounded once, from the exact decimal (or hex) value, to double or float.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from jmsctl.selector.limits import clip
from jmsctl.values import DOUBLE, FLOAT, INT, INT_MAX, INT_MIN, LONG, LONG_MAX, LONG_MIN, TypedValue, fraction_to_f32, wrap32, wrap64

# One alternation per Java literal form; validated in detail by decode_number.
NUMBER_PATTERN = r"""
  0[xX][0-9a-fA-F_]*(?:\.[0-9a-fA-F_]*)?[pP][+-]?[0-9_]*[fFdD]?
| 0[xX][0-9a-fA-F_]*[lL]?
| 0[bB][0-9_]*[lL]?
| (?:[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9_]*)?[fFdD]?
| [0-9][0-9_]*(?:[eE][+-]?[0-9_]*[fFdD]?|[fFdD]|[lL])?
"""


@dataclass(frozen=True)
class LiteralError(Exception):
    code: str
    message: str
    hint: str | None = None


def _digits(group: str, what: str, allowed: str) -> str:
    """Strip underscores, which Java allows only between digits."""
    if group == "":
        raise LiteralError("E010", f"{what} has no digits")
    if group[0] == "_" or group[-1] == "_":
        raise LiteralError("E010", f"'_' may only stand between digits in {what}")
    plain = group.replace("_", "")
    bad = next((c for c in plain if c not in allowed), None)
    if bad is not None:
        raise LiteralError("E010", f"'{bad}' is not a digit of {what}")
    return plain


def is_floating(text: str) -> bool:
    lower = text.lower()
    if lower.startswith("0x"):
        return "p" in lower
    if lower.startswith("0b"):
        return False
    return "." in lower or "e" in lower or lower[-1] in "fd"


def decode_number(text: str, negative: bool) -> TypedValue:
    """The typed value of a numeric literal, with a unary minus directly in front folded in."""
    if is_floating(text):
        return _decode_floating(text, negative)
    return _decode_integer(text, negative)


def _decode_integer(text: str, negative: bool) -> TypedValue:
    long_suffix = text[-1] in "lL"
    body = text[:-1] if long_suffix else text
    lower = body.lower()
    if lower.startswith("0x"):
        return _pattern(int(_digits(body[2:], "a hexadecimal literal", "0123456789abcdefABCDEF"), 16), long_suffix, negative, text)
    if lower.startswith("0b"):
        return _pattern(int(_digits(body[2:], "a binary literal", "01"), 2), long_suffix, negative, text)
    if len(body) > 1 and body[0] == "0":
        digits = _digits(body, "a decimal literal", "0123456789")
        if any(c in "89" for c in digits):
            raise LiteralError(
                "E013",
                f"'{clip(text)}' is not a valid octal literal: a leading 0 makes the digits octal (0-7)",
                hint="remove the leading zero for a decimal number",
            )
        return _pattern(int(digits, 8), long_suffix, negative, text)
    digits = _digits(body, "a decimal literal", "0123456789")
    # More than 19 digits is beyond any long, and int() refuses very long decimal strings.
    value = int(digits) if len(digits) <= 19 else LONG_MAX + 2
    if negative:
        value = -value
    if not LONG_MIN <= value <= LONG_MAX:
        raise LiteralError(
            "E011",
            f"the integer literal {'-' if negative else ''}{clip(text)} is outside the range of long",
            hint="exact numeric literals must lie in -9223372036854775808..9223372036854775807",
        )
    if long_suffix or not INT_MIN <= value <= INT_MAX:
        return (LONG, value)
    return (INT, value)


def _pattern(bits: int, long_suffix: bool, negative: bool, text: str) -> TypedValue:
    """Hex, octal and binary literals are two's-complement bit patterns, as in Java."""
    if not long_suffix and bits <= 0xFFFFFFFF:
        value = bits - (1 << 32) if bits > INT_MAX else bits
        return (INT, wrap32(-value) if negative else value)
    if bits <= 0xFFFFFFFFFFFFFFFF:
        value = bits - (1 << 64) if bits > LONG_MAX else bits
        return (LONG, wrap64(-value) if negative else value)
    raise LiteralError("E011", f"the literal {clip(text)} has more than 64 bits", hint="a long holds at most 64 bits")


_HEX_FLOAT = re.compile(r"0[xX]([0-9a-fA-F_]*)(?:\.([0-9a-fA-F_]*))?[pP]([+-]?)([0-9_]*)$")
_DEC_FLOAT = re.compile(r"([0-9_]*)(?:\.([0-9_]*))?(?:[eE]([+-]?)([0-9_]*))?$")


def _decode_floating(text: str, negative: bool) -> TypedValue:
    suffix = text[-1] if text[-1] in "fFdD" else ""
    body = text[:-1] if suffix else text
    target = FLOAT if suffix in ("f", "F") else DOUBLE
    exact = _hex_value(body) if body[:2].lower() == "0x" else _decimal_value(body)
    if negative:
        exact = -exact
    try:
        value = fraction_to_f32(exact) if target is FLOAT else float(exact)
    except OverflowError:
        value = math.inf
    name = "float" if target is FLOAT else "double"
    if math.isinf(value):
        raise LiteralError("E012", f"the floating-point literal {clip(text)} is too large for a {name}", hint="Java rejects literals that overflow to infinity")
    if value == 0.0 and exact != 0:
        raise LiteralError("E012", f"the floating-point literal {clip(text)} is too small for a {name}: it would round to zero", hint="Java rejects non-zero literals that round to zero")
    if negative and value == 0.0:
        value = -0.0
    return (target, value)


def _decimal_value(body: str) -> Fraction:
    m = _DEC_FLOAT.match(body)
    if m is None:  # pragma: no cover - the lexer only hands over NUMBER_PATTERN matches
        raise LiteralError("E010", f"'{clip(body)}' is not a floating-point literal")
    whole, frac, sign, exp = m.groups()
    whole_digits = _digits(whole, "a floating-point literal", "0123456789") if whole else ""
    frac_digits = _digits(frac, "a floating-point literal", "0123456789") if frac else ""
    if not whole_digits and not frac_digits:
        raise LiteralError("E010", f"'{clip(body)}' has no digits")
    exponent = _exponent(exp, sign, "an exponent") if exp is not None else 0
    digits = ((whole_digits or "0") + frac_digits).lstrip("0")
    exponent -= len(frac_digits)
    if not digits:
        return Fraction(0)
    if len(digits) > _KEPT_DIGITS:
        # Round correctly without a huge integer (int() refuses long decimal strings): a double's
        # rounding boundaries have at most 767 significant digits, so the first 800 digits and a
        # sticky 1 for any non-zero digit dropped after them round exactly as the full literal does.
        dropped = digits[_KEPT_DIGITS:]
        exponent += len(dropped)
        digits = digits[:_KEPT_DIGITS]
        if dropped.strip("0"):
            digits += "1"
            exponent -= 1
    if exponent > 400:  # far beyond double (mantissa >= 1): avoid building a huge integer
        return Fraction(10) ** 400
    if exponent < -(400 + len(digits)):
        return Fraction(1, 10**500)
    return int(digits) * Fraction(10) ** exponent


_KEPT_DIGITS = 800


def _exponent(group: str, sign: str, what: str) -> int:
    """An exponent's value, clamped far beyond any float (int() refuses very long decimal strings)."""
    plain = _digits(group, what, "0123456789").lstrip("0") or "0"
    value = int(plain) if len(plain) <= 9 else 10**9
    return -value if sign == "-" else value


def _hex_value(body: str) -> Fraction:
    m = _HEX_FLOAT.match(body)
    if m is None:
        raise LiteralError("E010", f"'{clip(body)}' is not a hexadecimal floating-point literal")
    whole, frac, sign, exp = m.groups()
    hexdigits = "0123456789abcdefABCDEF"
    whole_digits = _digits(whole, "a hexadecimal literal", hexdigits) if whole else ""
    frac_digits = _digits(frac, "a hexadecimal literal", hexdigits) if frac else ""
    if not whole_digits and not frac_digits:
        raise LiteralError("E010", f"'{clip(body)}' has no hexadecimal digits")
    exponent = _exponent(exp, sign, "a binary exponent")
    mantissa = int((whole_digits or "0") + frac_digits, 16)  # base 16: no digit limit, linear
    exponent -= 4 * len(frac_digits)
    if mantissa == 0:
        return Fraction(0)
    bits = mantissa.bit_length()
    if bits > 200:  # keep 200 significant bits and a sticky bit: rounds as the full literal does
        shift = bits - 200
        sticky = 1 if mantissa & ((1 << shift) - 1) else 0
        mantissa = (mantissa >> shift) << 1 | sticky
        exponent += shift - 1
    # Clamp far beyond any double (the value is in [2^(e+bits-1), 2^(e+bits))) before exponentiation.
    top = exponent + mantissa.bit_length()
    if top > 2000:
        return Fraction(2) ** 2000
    if top < -2000:
        return Fraction(1, 2**2100)
    return mantissa * Fraction(2) ** exponent

"""Java numeric literal syntax and values (SEMANTICS.md section 1), decoded exactly.

Integer literals become Java bit patterns or range-checked decimals; floating literals are
rounded once, from the exact decimal (or hex) value, to double or float.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

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
                f"'{text}' is not a valid octal literal: a leading 0 makes the digits octal (0-7)",
                hint="remove the leading zero for a decimal number",
            )
        return _pattern(int(digits, 8), long_suffix, negative, text)
    value = int(_digits(body, "a decimal literal", "0123456789"))
    if negative:
        value = -value
    if not LONG_MIN <= value <= LONG_MAX:
        raise LiteralError(
            "E011",
            f"the integer literal {'-' if negative else ''}{text} is outside the range of long",
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
    raise LiteralError("E011", f"the literal {text} has more than 64 bits", hint="a long holds at most 64 bits")


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
        raise LiteralError("E012", f"the floating-point literal {text} is too large for a {name}", hint="Java rejects literals that overflow to infinity")
    if value == 0.0 and exact != 0:
        raise LiteralError("E012", f"the floating-point literal {text} is too small for a {name}: it would round to zero", hint="Java rejects non-zero literals that round to zero")
    if negative and value == 0.0:
        value = -0.0
    return (target, value)


def _decimal_value(body: str) -> Fraction:
    m = _DEC_FLOAT.match(body)
    if m is None:  # pragma: no cover - the lexer only hands over NUMBER_PATTERN matches
        raise LiteralError("E010", f"'{body}' is not a floating-point literal")
    whole, frac, sign, exp = m.groups()
    whole_digits = _digits(whole, "a floating-point literal", "0123456789") if whole else ""
    frac_digits = _digits(frac, "a floating-point literal", "0123456789") if frac else ""
    if not whole_digits and not frac_digits:
        raise LiteralError("E010", f"'{body}' has no digits")
    exponent = 0
    if exp is not None:
        exponent = int(_digits(exp, "an exponent", "0123456789"))
        if sign == "-":
            exponent = -exponent
    mantissa = int((whole_digits or "0") + frac_digits)
    exponent -= len(frac_digits)
    if mantissa == 0:
        return Fraction(0)
    if exponent > 400:  # far beyond double (mantissa >= 1): avoid building a huge integer
        return Fraction(10) ** 400
    if exponent < -(400 + len(str(mantissa))):
        return Fraction(1, 10**500)
    return mantissa * Fraction(10) ** exponent


def _hex_value(body: str) -> Fraction:
    m = _HEX_FLOAT.match(body)
    if m is None:
        raise LiteralError("E010", f"'{body}' is not a hexadecimal floating-point literal")
    whole, frac, sign, exp = m.groups()
    hexdigits = "0123456789abcdefABCDEF"
    whole_digits = _digits(whole, "a hexadecimal literal", hexdigits) if whole else ""
    frac_digits = _digits(frac, "a hexadecimal literal", hexdigits) if frac else ""
    if not whole_digits and not frac_digits:
        raise LiteralError("E010", f"'{body}' has no hexadecimal digits")
    exponent = int(_digits(exp, "a binary exponent", "0123456789"))
    if sign == "-":
        exponent = -exponent
    mantissa = int((whole_digits or "0") + frac_digits, 16)
    exponent -= 4 * len(frac_digits)
    exponent = max(min(exponent, 2000), -2000)  # beyond any double: clamp before exponentiation
    return mantissa * Fraction(2) ** exponent

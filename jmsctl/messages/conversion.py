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

from typing import Any, Final

from jmsctl.exceptions import MessageFormatException
from jmsctl.javatext import java_to_string
from jmsctl.valueof import (
    NULL_STRING_MESSAGE,
    NULL_TRIM_MESSAGE,
    boolean_value_of,
    floating_value_of,
    integral_value_of,
    value_of,
)
from jmsctl.values import (
    BOOLEAN,
    BYTE,
    DOUBLE,
    FLOAT,
    INT,
    LONG,
    SHORT,
    STRING,
    JType,
    TypedValue,
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


__all__ = [
    "CONVERSIONS",
    "NULL_STRING_MESSAGE",
    "NULL_TRIM_MESSAGE",
    "boolean_value_of",
    "can_read",
    "floating_value_of",
    "integral_value_of",
    "java_to_string",
    "read_as",
    "read_object",
    "value_of",
]

"""Selectors on your own objects: the small protocol a selector reads, and an adapter for plain
Python mappings (no copying: values are typed when the selector asks for them).

A selector evaluates anything with ``get(name) -> (JType, value) | None``: a ``Message``, a dict of
typed values, or your object. ``plain_values`` lets a mapping of ordinary Python values stand in:
bool -> boolean, int -> int (long outside the int range), float -> double, str -> String, a
``(JType, value)`` tuple as given, None or absent -> NULL; the six headers in their selector types
(JMSDeliveryMode 2/1 or the strings, JMSPriority int, JMSTimestamp long).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from jmsctl.values import BOOLEAN, DOUBLE, INT, LONG, STRING, JType, TypedValue, in_range

_MODES = {2: "PERSISTENT", 1: "NON_PERSISTENT", "PERSISTENT": "PERSISTENT", "NON_PERSISTENT": "NON_PERSISTENT"}


class SelectorValues(Protocol):
    """What a compiled selector reads: ``get(name)`` -> ``(JType, value)`` or None."""

    def get(self, name: str, /) -> TypedValue | None: ...


def typed(value: Any) -> TypedValue | None:
    """A plain Python value as a typed value, by the same rules as FORMAT.md's bare values."""
    if value is None:
        return None
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], JType):
        return value  # type: ignore[return-value]
    t = type(value)
    if t is bool:
        return (BOOLEAN, value)
    if t is int:
        if in_range(INT, value):
            return (INT, value)
        if in_range(LONG, value):
            return (LONG, value)
        raise ValueError(f"{value} is outside the range of long")
    if t is float:
        return (DOUBLE, value)
    if t is str:
        return (STRING, value)
    raise TypeError(f"{type(value).__name__} is not a property type (boolean, byte, short, int, long, float, double, String)")


class plain_values:
    """Wrap a mapping of plain Python values so that a selector can read it."""

    __slots__ = ("_mapping",)

    def __init__(self, mapping: Mapping[str, Any]) -> None:
        self._mapping = mapping

    def get(self, name: str, /) -> TypedValue | None:
        value = self._mapping.get(name)
        if value is None:
            return None
        if name == "JMSDeliveryMode" and value in _MODES:
            return (STRING, _MODES[value])
        if name == "JMSTimestamp" and type(value) is int:
            return (LONG, value)
        return typed(value)

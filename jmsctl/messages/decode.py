"""JSON values (already parsed) -> typed messages, per FORMAT.md; every rejection names its field."""

from __future__ import annotations

import base64
import binascii
import math
import sys
from typing import Any

from jmsctl.messages.model import BytesValue, Message
from jmsctl.spec import BODY_TYPES, DELIVERY_MODES, HEADER_NAMES, LONG_HEADERS, PRIORITY_RANGE, STRING_HEADERS
from jmsctl.values import (
    BOOLEAN,
    DOUBLE,
    FLOAT,
    FLOAT_MAX,
    INT,
    LONG,
    RANGES,
    STRING,
    JType,
    TypedValue,
    in_range,
    int_to_f32,
    to_f32,
)

SPECIAL_FLOATS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


class RecordError(Exception):
    """A record that is not a valid message: ``field`` is a path such as ``properties.weight``."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason


class WrittenFloat(float):
    """A JSON number written with a fraction or exponent, from the exact (standard library) parse."""


class AmbiguousNumber(Exception):
    """A double from orjson that may have been written as an integer beyond 64 bits (orjson
    reads those as doubles); the loader parses that record again exactly."""


AMBIGUOUS_BEYOND = 9.223372036854775807e18  # orjson keeps integers in [-2^63, 2^64) exact


def _is_int(v: Any) -> bool:
    return type(v) is int  # bool is an int subclass in Python, never an integer here


_INT_MIN, _INT_MAX = RANGES[INT]
_LONG_MIN, _LONG_MAX = RANGES[LONG]


def decode_value(v: Any, where: str) -> TypedValue:
    """A bare or typed property value (FORMAT.md 'Property values')."""
    t = type(v)
    if t is str:
        return (STRING, v)
    if t is int:  # the range checks inlined: this runs for every numeric property the filter reads
        if _INT_MIN <= v <= _INT_MAX:
            return (INT, v)
        if _LONG_MIN <= v <= _LONG_MAX:
            return (LONG, v)
        raise RecordError(where, f"integer {v} is outside the range of long")
    if t is bool:
        return (BOOLEAN, v)
    if t is float:
        if -AMBIGUOUS_BEYOND < v < AMBIGUOUS_BEYOND or not v.is_integer():
            return (DOUBLE, v)
        raise AmbiguousNumber(where)
    if t is WrittenFloat:
        return (DOUBLE, float(v))
    if t is dict:
        return _decode_typed(v, where)
    if v is None:
        raise RecordError(where, "null is not a property value")
    raise RecordError(where, f"{_article(_json_kind(v))} is not a property value; use a bare value or {{\"type\": T, \"value\": V}}")


def _article(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _json_kind(v: Any) -> str:
    if isinstance(v, bool):
        return "JSON boolean"
    if isinstance(v, (int, float)):
        return "JSON number"
    if isinstance(v, str):
        return "JSON string"
    if v is None:
        return "JSON null"
    return "JSON array" if isinstance(v, list) else "JSON object"


def _decode_typed(obj: dict[str, Any], where: str) -> TypedValue:
    if set(obj) != {"type", "value"}:
        raise RecordError(where, "a typed value is an object with exactly the keys \"type\" and \"value\"")
    name, v = obj["type"], obj["value"]
    jt = JType.from_name(name) if isinstance(name, str) and name in _TYPE_NAMES else None
    if jt is None:
        raise RecordError(where, f"unknown type {name!r}; expected one of {', '.join(_TYPE_NAMES)}")
    return decode_as(jt, v, where)


def decode_as(jt: JType, v: Any, where: str) -> TypedValue:
    """A JSON value given as the Java type ``jt`` (a typed value's ``value``, or a value in a map
    that names its type, as fmtn/a's): the checks of a typed value, without building one."""
    if jt is BOOLEAN:
        if type(v) is not bool:
            raise RecordError(where, f"a boolean value must be true or false, not {v!r}")
        return (BOOLEAN, v)
    if jt is STRING:
        if type(v) is not str:
            raise RecordError(where, "a string value must be a JSON string")
        return (STRING, v)
    if jt.is_integral:
        if not _is_int(v):
            raise RecordError(where, f"{_article(jt.java_name)} value must be a JSON integer, not {v!r}")
        lo, hi = RANGES[jt]
        if not lo <= v <= hi:
            raise RecordError(where, f"{v} is outside the range of {jt.java_name} ({lo}..{hi})")
        return (jt, v)
    return (jt, _floating(v, jt, where))


_TYPE_NAMES = ("boolean", "byte", "short", "int", "long", "float", "double", "string")


def _floating(v: Any, jt: JType, where: str) -> float:
    if type(v) is str:
        if v in SPECIAL_FLOATS:
            return SPECIAL_FLOATS[v]
        raise RecordError(where, f"{_article(jt.java_name)} value must be a number or \"NaN\", \"Infinity\", \"-Infinity\", not {v!r}")
    if not (_is_int(v) or isinstance(v, float)):
        raise RecordError(where, f"{_article(jt.java_name)} value must be a number, not {v!r}")
    if jt is FLOAT:
        f = int_to_f32(v) if _is_int(v) else to_f32(float(v))
        if math.isinf(f) or abs(v) > FLOAT_MAX * 2:
            raise RecordError(where, f"{v} is outside the range of float")
        return f
    try:
        return float(v)
    except OverflowError:
        raise RecordError(where, f"{v} is outside the range of double") from None


def decode_message(obj: Any) -> Message:
    """One record -> Message, or RecordError naming the field."""
    if type(obj) is not dict:
        raise RecordError("", f"a message is a JSON object, not {_article(_json_kind(obj))}")
    unknown = set(obj) - {"type", "headers", "properties", "body", "source"}
    if unknown:
        raise RecordError(sorted(unknown)[0], "unknown top-level key; a message has only type, headers, properties, body and source")
    headers = _decode_headers(obj.get("headers", {}))
    properties, nulls = _decode_properties(obj.get("properties", {}))
    body_type, body = _decode_body(obj.get("type"), obj.get("body"), "body" in obj)
    source = obj.get("source")
    if source is not None and type(source) is not dict:
        raise RecordError("source", "must be a JSON object (what the dump knew beyond JMS), or absent")
    return Message(headers, properties, body_type, body, nulls, source=source or None)


def _decode_properties(props: Any) -> tuple[dict[str, TypedValue], tuple[str, ...]]:
    if type(props) is not dict:
        raise RecordError("properties", "must be a JSON object")
    out: dict[str, TypedValue] = {}
    nulls: list[str] = []
    for name, v in props.items():
        if v is None:
            nulls.append(name)
            continue
        out[name] = decode_value(v, f"properties.{name}")
    return out, tuple(nulls)


def _decode_headers(headers: Any) -> dict[str, Any]:
    if type(headers) is not dict:
        raise RecordError("headers", "must be a JSON object")
    for name, v in headers.items():
        where = f"headers.{name}"
        if name not in HEADER_NAMES:
            raise RecordError(where, "unknown header; headers are " + ", ".join(HEADER_NAMES))
        if v is None:
            continue
        if name in STRING_HEADERS and type(v) is not str:
            raise RecordError(where, "must be a string or null")
        if name in LONG_HEADERS and not (_is_int(v) and in_range(LONG, v)):
            raise RecordError(where, "must be an integer in the range of long, or null")
        if name == "JMSPriority" and not (_is_int(v) and v in PRIORITY_RANGE):
            raise RecordError(where, f"must be an integer 0..9, not {v!r}")
        if name == "JMSDeliveryMode" and (type(v) not in (int, str) or v not in DELIVERY_MODES):
            raise RecordError(where, "must be \"PERSISTENT\", \"NON_PERSISTENT\", 2 or 1")
        if name == "JMSRedelivered" and type(v) is not bool:
            raise RecordError(where, "must be true or false")
    return {k: v for k, v in headers.items() if v is not None}


def _decode_body(kind: Any, body: Any, present: bool) -> tuple[str, Any]:
    if kind is None:
        kind = "text" if type(body) is str else "message"
        if present and body is not None and kind == "message":
            raise RecordError("body", "a body without \"type\" must be a string (a text message)")
    if kind not in BODY_TYPES:
        raise RecordError("type", f"unknown message type {kind!r}; expected one of {', '.join(BODY_TYPES)}")
    if body is None:
        return kind, None
    if kind == "message":
        raise RecordError("body", "a message of type \"message\" has no body")
    if kind == "text":
        if type(body) is not str:
            raise RecordError("body", "a text body is a JSON string")
        return kind, body
    if kind in ("bytes", "object"):
        return kind, _base64(body, "body")
    if kind == "map":
        if type(body) is not dict:
            raise RecordError("body", "a map body is a JSON object")
        return kind, {k: _body_value(v, f"body.{k}") for k, v in body.items()}
    if type(body) is not list:
        raise RecordError("body", "a stream body is a JSON array")
    return kind, [_body_value(v, f"body[{i}]") for i, v in enumerate(body)]


def _body_value(v: Any, where: str) -> TypedValue | BytesValue:
    if type(v) is dict and v.get("type") == "bytes":
        if set(v) != {"type", "value"}:
            raise RecordError(where, "a bytes value is {\"type\": \"bytes\", \"value\": BASE64}")
        return BytesValue(_base64(v["value"], where))
    return decode_value(v, where)


def _base64(v: Any, where: str) -> bytes:
    if type(v) is not str:
        raise RecordError(where, "must be a base64 string")
    try:
        return _b64decode(v)
    except (binascii.Error, ValueError):
        raise RecordError(where, "is not valid base64") from None


if sys.version_info >= (3, 11):
    # What base64.b64decode(v, validate=True) does on 3.11+, without its Python-level steps (an
    # ASCII-only str is accepted as is; any other str raises ValueError, as in b64decode).
    def _b64decode(v: str) -> bytes:
        return binascii.a2b_base64(v, strict_mode=True)
else:  # pragma: no cover - Python 3.10

    def _b64decode(v: str) -> bytes:
        return base64.b64decode(v, validate=True)

"""Typed messages -> JSON in the FORMAT.md notation, such that decoding gives the same message."""

from __future__ import annotations

import base64
import math
from typing import Any

from jmsctl.messages.model import BytesValue, Message
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, INT, LONG, STRING, TypedValue, f32_repr, in_range


def message_json(message: Message) -> dict[str, Any]:
    """A message in the FORMAT.md notation, such that decoding it gives the same message.

    Values are written bare where the bare form decodes to the same Java type (String, boolean,
    int, long outside the int range, finite double), typed otherwise. Headers written as JSON
    null are absent from a decoded message and so from the result; null properties stay null.
    """
    out: dict[str, Any] = {"type": message.body_type}
    if message.headers:
        out["headers"] = dict(message.headers)
    if message.properties or message.null_properties:
        props: dict[str, Any] = {name: typed_json(v) for name, v in message.properties.items()}
        for name in message.null_properties:
            props[name] = None
        out["properties"] = props
    body = message.body
    if body is not None:
        kind = message.body_type
        if kind in ("bytes", "object"):
            out["body"] = base64.b64encode(body).decode("ascii")
        elif kind == "map":
            out["body"] = {k: _body_value_json(v) for k, v in body.items()}
        elif kind == "stream":
            out["body"] = [_body_value_json(v) for v in body]
        else:
            out["body"] = body
    return out


def typed_json(value: TypedValue) -> Any:
    """A property value, bare when that reads back as the same type, else ``{"type", "value"}``."""
    t, v = value
    if t is STRING or t is BOOLEAN or t is INT:
        return v
    if t is LONG and not in_range(INT, v):
        return v
    if t.is_integral:
        return {"type": t.name.lower(), "value": v}
    if math.isnan(v):
        v = "NaN"
    elif math.isinf(v):
        v = "Infinity" if v > 0 else "-Infinity"
    elif t is DOUBLE:
        return v
    elif t is FLOAT:
        v = float(f32_repr(v))  # the shortest decimal that reads back as this float: 0.1, not 0.10000000149011612
    return {"type": t.name.lower(), "value": v}


def _body_value_json(v: TypedValue | BytesValue) -> Any:
    if isinstance(v, BytesValue):
        return {"type": "bytes", "value": base64.b64encode(v.data).decode("ascii")}
    return typed_json(v)

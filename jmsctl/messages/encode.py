"""Typed messages -> JSON in the FORMAT.md notation, such that decoding gives the same message.

Two spellings: compact (values bare wherever the bare form reads back as the same Java type, as
``filter`` writes records that came from JSON arrays) and typed (every value ``{"type", "value"}``,
as ``show --format json`` writes for people who want the types spelled out).
"""

from __future__ import annotations

import base64
import math
from typing import Any

from jmsctl.messages.model import BytesValue, Message
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, INT, LONG, STRING, TypedValue, f32_repr, in_range


def message_json(message: Message, location: str | None = None, *, typed: bool = False) -> dict[str, Any]:
    """A message as a JSON-ready dict (``location`` first when given). Headers written as JSON
    null are absent from a decoded message and so from the result; null properties stay null."""
    out: dict[str, Any] = {} if location is None else {"location": location}
    out["type"] = message.body_type
    if message.headers or typed:
        out["headers"] = dict(message.headers)
    if message.properties or message.null_properties or typed:
        props: dict[str, Any] = {name: typed_json(v, typed=typed) for name, v in message.properties.items()}
        props.update(dict.fromkeys(message.null_properties))
        out["properties"] = props
    body = message.body
    if body is not None:
        kind = message.body_type
        if kind in ("bytes", "object"):
            out["body"] = base64.b64encode(body).decode("ascii")
        elif kind == "map":
            out["body"] = {k: _body_value_json(v, typed) for k, v in body.items()}
        elif kind == "stream":
            out["body"] = [_body_value_json(v, typed) for v in body]
        else:
            out["body"] = body
    if message.source:
        out["source"] = message.source
    return out


def typed_json(value: TypedValue, *, typed: bool = False) -> Any:
    """A property value: bare when that reads back as the same type (unless ``typed``), else
    ``{"type", "value"}`` with NaN and the infinities as their strings."""
    t, v = value
    if not typed:
        if t is STRING or t is BOOLEAN or t is INT or (t is LONG and not in_range(INT, v)):
            return v
        if t is DOUBLE and math.isfinite(v):
            return v
    if t is FLOAT or t is DOUBLE:
        if math.isnan(v):
            v = "NaN"
        elif math.isinf(v):
            v = "Infinity" if v > 0 else "-Infinity"
        elif t is FLOAT:
            v = float(f32_repr(v))  # the shortest decimal that reads back as this float: 0.1, not 0.10000000149011612
    return {"type": t.name.lower(), "value": v}


def _body_value_json(v: TypedValue | BytesValue, typed: bool) -> Any:
    if isinstance(v, BytesValue):
        return {"type": "bytes", "value": base64.b64encode(v.data).decode("ascii")}
    return typed_json(v, typed=typed)

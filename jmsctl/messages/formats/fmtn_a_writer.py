"""Messages -> the JSON array the ``a`` client dumps (``a -d``) and restores (``a -R``).

Source: fmtn/a ``src/main/java/co/nordlander/a/MessageDump.java`` (the fields, one typed map per
property type), ``MessageDumpWriter.java`` (bodies: text as is, bytes and object as standard
base64, ``type`` ``""`` with an empty body for every other message) and ``MessageDumpReader.java``
(``a -R``: only TextMessage, BytesMessage and ObjectMessage are restored; null headers are skipped).
Jackson writes a float's NaN and infinities as the strings "NaN", "Infinity", "-Infinity".

Streamed: one array element at a time. What the format cannot hold is counted in ``lost``.
"""

from __future__ import annotations

import base64
import math
from collections import Counter
from collections.abc import Iterable
from typing import IO, Any

import orjson

from jmsctl.messages.model import DELIVERY_MODES, Message
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, JType, f32_repr

_MAPS: dict[JType, str] = {STRING: "stringProperties", INT: "intProperties", LONG: "longProperties", FLOAT: "floatProperties",
                           DOUBLE: "doubleProperties", BOOLEAN: "boolProperties", SHORT: "shortProperties", BYTE: "byteProperties"}
_TYPES = {"text": "TextMessage", "bytes": "BytesMessage", "object": "ObjectMessage"}


def _number(t: JType, v: Any) -> Any:
    if t in (FLOAT, DOUBLE):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        if t is FLOAT:
            return float(f32_repr(v))  # written as the float's own shortest decimal (0.1, not 0.10000000149011612), as Jackson does
    return v


def message_dump(message: Message, lost: Counter[str]) -> dict[str, Any]:
    h = message.headers
    mode = h.get("JMSDeliveryMode")
    dump: dict[str, Any] = {
        "JMSCorrelationID": h.get("JMSCorrelationID"), "JMSMessageID": h.get("JMSMessageID"), "JMSType": h.get("JMSType"),
        "JMSDeliveryMode": None if mode is None else (2 if DELIVERY_MODES[mode] == "PERSISTENT" else 1),
        "JMSExpiration": h.get("JMSExpiration"), "JMSPriority": h.get("JMSPriority"), "JMSRedelivered": h.get("JMSRedelivered"),
        "JMSTimestamp": h.get("JMSTimestamp"),
    }
    for header in ("JMSDestination", "JMSReplyTo", "JMSDeliveryTime"):
        if h.get(header) is not None:
            lost[f"{header} (not in a's dump)"] += 1
    maps: dict[str, dict[str, Any]] = {name: {} for name in _MAPS.values()}
    for name, (t, v) in message.properties.items():
        maps[_MAPS[t]][name] = _number(t, v)
    for name in message.null_properties:
        maps["stringProperties"][name] = None  # a -R: setStringProperty(name, null)
    dump.update(maps)
    source = message.source or {}
    dump["objectProperties"] = dict(source.get("objectProperties", {})) if source.get("format") == "fmtn-a" else {}
    kind, body = message.body_type, message.body
    if kind in _TYPES:
        dump["type"] = _TYPES[kind]
        dump["body"] = body if kind == "text" else (None if body is None else base64.b64encode(body).decode("ascii"))
    else:
        dump["type"], dump["body"] = "", ""
        label = "plain" if kind == "message" else kind
        lost[f"{label} messages: written with type \"\" and no body, as a -d does ({'their bodies are lost; ' if body is not None else ''}"
             "a -R restores only Text, Bytes and Object messages)"] += 1
    return dump


def write(messages: Iterable[Message], out: IO[bytes], lost: Counter[str] | None = None) -> None:
    lost = Counter() if lost is None else lost
    out.write(b"[")
    sep = b"\n"
    for message in messages:
        out.write(sep + orjson.dumps(message_dump(message, lost)))
        sep = b",\n"
    out.write(b"\n]\n")

"""The Artemis XML reader's typing as it was before issue 23's rewrite (jmsctl main 1d57a69,
jmsctl/messages/formats/artemis_xml.py: ``build_message`` and ``_properties``), kept as the oracle of
tests/test_artemis_xml_differential.py only: not in the package, not in the format registry."""

from __future__ import annotations

import base64
import struct
from typing import Any

from jmsctl.messages.decode import RecordError
from jmsctl.messages.formats import artemis_core as ac
from jmsctl.messages.formats import artemis_xml_build as ax  # the build stage (issue 35 item 29)
from jmsctl.messages.model import BytesValue, Message
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, RANGES, SHORT, STRING, TypedValue

_INTEGRAL = {jt: RANGES[jt] for jt in (BYTE, SHORT, INT, LONG)}
_HEADER_PROPERTIES = frozenset(ax.HEADER_PROPERTIES)


def build_message(msg: ax.Pending, export: bool, destination: str | None) -> Message:
    attrs = msg.attrs
    kind = attrs.get("type", "default")
    body_type = ax.BODY_TYPES.get(kind.lower())
    if body_type is None:
        raise RecordError("type", f"unknown message type {kind!r}; expected one of {', '.join(ax.BODY_TYPES)}")
    headers: dict[str, Any] = {}
    if "user-id" in attrs:
        headers["JMSMessageID"] = "ID:" + attrs["user-id"]
    if "timestamp" in attrs:
        headers["JMSTimestamp"] = ax._integral(attrs["timestamp"], LONG, "timestamp")
    if "expiration" in attrs:
        headers["JMSExpiration"] = ax._integral(attrs["expiration"], LONG, "expiration")
    if "priority" in attrs:
        priority = ax._integral(attrs["priority"], BYTE, "priority")
        if not 0 <= priority <= 9:
            raise RecordError("priority", f"priority {priority} is outside the JMS range 0..9")
        headers["JMSPriority"] = priority
    if destination is not None:
        headers["JMSDestination"] = destination
    properties, nulls, source = _properties(msg, headers)
    source.update(format=ax.NAME, line=msg.line, variant="data exp" if export else "consumer --data")
    if "id" in attrs:
        source["id"] = ax._integral(attrs["id"], LONG, "id")
    if msg.queues:
        source["queues"] = list(msg.queues)
    if msg.large:
        source["large"] = True
    body = ax._body(msg, body_type, export, source)
    return Message(headers, properties, body_type, body, nulls, True, source)


def _properties(msg: ax.Pending, headers: dict[str, Any]) -> tuple[dict[str, TypedValue], tuple[str, ...], dict[str, Any]]:
    """The typed properties, the null ones, and what ``source`` keeps (bytes properties, internal
    names). The usual spellings (a type as the exporter writes it, a canonical integer) take the
    short way; anything else goes through ``_property_type`` / ``_value``, which word the errors."""
    properties: dict[str, TypedValue] = {}
    nulls: list[str] = []
    source: dict[str, Any] = {}
    internal: list[str] = []
    for raw_name, text, kind in msg.properties:
        try:
            jt = ax.PROPERTY_TYPES[kind]  # type: ignore[index]  # the writer's spelling
        except KeyError:
            jt = ax._property_type(raw_name, kind)  # any case, or the error
        name = raw_name
        if raw_name[:1] == "_":
            name = ax.JMSX_PROPERTIES.get(raw_name, raw_name)
            if ax.is_internal(name):
                internal.append(name)
        if text == ax.NULL_VALUE:
            nulls.append(name)
            continue
        if jt is STRING:
            if name in _HEADER_PROPERTIES:
                headers[name] = text
            else:
                properties[name] = (STRING, text)
            continue
        if jt is None:
            try:
                data = ax.b64decode(text)
            except ax.CoreError as exc:
                raise RecordError(f"properties.{raw_name}", f"the bytes value {exc}") from None
            source.setdefault("bytes_properties", {})[name] = base64.b64encode(data).decode("ascii")  # source stays JSON
            continue
        bounds = _INTEGRAL.get(jt)
        if bounds is not None and text.isdigit() and text.isascii() and int(text) <= bounds[1]:
            properties[name] = (jt, int(text))
        elif jt is BOOLEAN and (text == "true" or text == "false"):
            properties[name] = (BOOLEAN, text == "true")
        else:
            properties[name] = ax._value(text, jt, f"properties.{raw_name}")  # the other spellings, and every error
    if internal:
        source["internal"] = internal
    return properties, tuple(nulls), source


# decode_map_body as it was before issue 23's third pass (jmsctl main 8b5667b,
# jmsctl/messages/formats/artemis_core.py): a cursor object, one struct.unpack per field.
class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise ac.CoreError(f"the map body ends early (needs {n} bytes at offset {self.pos}, has {len(self.data) - self.pos})")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def unpack(self, fmt: str) -> Any:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        return ac.simple_string_text(self.take(int(self.unpack(">i"))))


def decode_map_body(raw: bytes) -> dict[str, Any]:
    cur = _Cursor(raw)
    out: dict[str, Any] = {}
    if cur.unpack(">b") == ac._NULL:
        return out
    for _ in range(int(cur.unpack(">i"))):
        key = cur.string()
        code = int(cur.unpack(">b"))
        if code in ac._FIXED:
            fmt, jt = ac._FIXED[code]
            value = cur.unpack(fmt)
            out[key] = (jt, float(value) if jt in (FLOAT, DOUBLE) else value)
        elif code == ac._BOOLEAN:
            out[key] = (BOOLEAN, cur.take(1) != b"\x00")
        elif code == ac._STRING:
            out[key] = (STRING, cur.string())
        elif code == ac._BYTES:
            out[key] = BytesValue(cur.take(int(cur.unpack(">i"))))
        elif code == ac._CHAR:
            out[key] = (STRING, chr(int(cur.unpack(">H"))))
        elif code == ac._NULL:
            raise ac.CoreError(f"map entry {key!r} is null: the message model has no null map value")
        else:
            raise ac.CoreError(f"map entry {key!r} has the unknown type byte {code}")
    if cur.pos != len(raw):
        raise ac.CoreError(f"the map body has {len(raw) - cur.pos} bytes after its last entry")
    return out

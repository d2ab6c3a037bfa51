"""The build stage of the Artemis XML reader (artemis_xml.py): one ``<message>`` as read (``Pending``,
filled by expat's handlers or by artemis_xml_scan.py) -> a Message, or only the selector's view of it.

Names and types: apache/activemq-artemis ``artemis-cli/.../commands/tools/xml/`` XmlDataConstants.java
(property type names), XmlDataExporterUtil.java (body type names, base64), XMLMessageExporter.java
(``_AMQ_NULL``, one CDATA per 1000-byte chunk of a large body); the mapping to JMS headers is
``docs/artemis-xml.md``.
"""

from __future__ import annotations

import base64
import binascii
import math
from dataclasses import dataclass, field
from typing import Any

from jmsctl.messages.decode import RecordError
from jmsctl.messages.formats.artemis_core import (
    JMSX_PROPERTIES,
    NULL_VALUE,
    CoreError,
    b64decode,
    decode_map_body,
    decode_text_body,
    is_text_body,
)
from jmsctl.messages.model import Message, selector_view
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, RANGES, SHORT, STRING, JType, TypedValue, to_f32

NAME = "artemis-xml"

BODY_TYPES = {"default": "message", "text": "text", "bytes": "bytes", "map": "map", "stream": "stream", "object": "object"}
"""XmlDataExporterUtil.getMessagePrettyType; compared case-insensitively (the xsd spells them in capitals)."""

PROPERTY_TYPES: dict[str, JType | None] = {
    "boolean": BOOLEAN, "byte": BYTE, "short": SHORT, "integer": INT, "long": LONG, "float": FLOAT, "double": DOUBLE,
    "string": STRING, "simple-string": STRING, "bytes": None,
}
"""XmlDataConstants.PROPERTY_TYPE_*: ``bytes`` (None) has no JMS property type."""

HEADER_PROPERTIES = ("JMSCorrelationID", "JMSType", "JMSReplyTo")
"""Stored by Artemis's JMS client as ordinary String properties of these names (MessageUtil)."""


def is_internal(name: str) -> bool:
    """Artemis's internal properties (``_AMQ_DUPL_ID``, ``__AMQ_CID`` ...): kept, flagged, never an
    application name to judge."""
    return name.startswith(("_AMQ_", "__AMQ_"))


@dataclass
class Pending:
    """One ``<message>`` being read."""

    line: int
    attrs: dict[str, str]
    properties: list[tuple[str, str, str | None]] = field(default_factory=list)  # name, value, type
    queues: list[str] = field(default_factory=list)
    body_seen: bool = False
    large: bool = False
    sections: list[str] = field(default_factory=list)  # the CDATA sections of the body, each whole
    text: list[str] = field(default_factory=list)  # the body's characters outside CDATA
    size: int = 0  # characters of body held so far
    oversized: bool = False


def build_message(msg: Pending, export: bool, destination: str | None) -> Message:
    body_type, headers = _headers(msg.attrs, destination)
    properties, nulls, source = _properties(msg.properties, headers)
    source["format"] = NAME
    source["line"] = msg.line
    source["variant"] = "data exp" if export else "consumer --data"
    attrs = msg.attrs
    text = attrs.get("id")
    if text is not None:
        source["id"] = int(text) if len(text) < 19 and text.isdigit() and text.isascii() else _integral(text, LONG, "id")
    if msg.queues:
        source["queues"] = list(msg.queues)
    if msg.large:
        source["large"] = True
    body = _body(msg, body_type, export, source)
    return Message(headers, properties, body_type, body, nulls, True, source)


def raw_names(names: frozenset[str]) -> frozenset[str]:
    """The property names as written that are read as one of ``names`` (a JMSX name is written as
    Artemis's own: ``_AMQ_GROUP_ID`` for ``JMSXGroupID``)."""
    return names | {raw for raw, jmsx in JMSX_PROPERTIES.items() if jmsx in names}


def build_view(msg: Pending, destination: str | None, raw: frozenset[str]) -> dict[str, TypedValue]:
    """The selector's view of the message, typed along ``raw`` (``raw_names``) alone: the headers
    (a few attributes) and only the properties of those names, in the order written, so that a
    name written twice ends as ``build_message`` ends it; no body. The RecordErrors are
    ``build_message``'s, for these values."""
    _, headers = _headers(msg.attrs, destination)
    properties, _, _ = _properties([p for p in msg.properties if p[0] in raw], headers)
    return selector_view(headers, properties)


def _headers(attrs: dict[str, str], destination: str | None) -> tuple[str, dict[str, Any]]:
    """The body type and the headers a message's attributes give."""
    kind = attrs.get("type", "default")
    body_type = BODY_TYPES.get(kind.lower())
    if body_type is None:
        raise RecordError("type", f"unknown message type {kind!r}; expected one of {', '.join(BODY_TYPES)}")
    headers: dict[str, Any] = {}
    if "user-id" in attrs:
        headers["JMSMessageID"] = "ID:" + attrs["user-id"]
    text = attrs.get("timestamp")
    if text is not None:  # the short way: up to 18 ASCII digits always fit a long
        headers["JMSTimestamp"] = int(text) if len(text) < 19 and text.isdigit() and text.isascii() else _integral(text, LONG, "timestamp")
    text = attrs.get("expiration")
    if text is not None:
        headers["JMSExpiration"] = int(text) if len(text) < 19 and text.isdigit() and text.isascii() else _integral(text, LONG, "expiration")
    text = attrs.get("priority")
    if text is not None:
        priority = _PRIORITIES.get(text)
        if priority is None:
            priority = _integral(text, BYTE, "priority")
            if not 0 <= priority <= 9:
                raise RecordError("priority", f"priority {priority} is outside the JMS range 0..9")
        headers["JMSPriority"] = priority
    if destination is not None:
        headers["JMSDestination"] = destination
    return body_type, headers


_INTEGRAL: dict[JType, tuple[int, int]] = {jt: RANGES[jt] for jt in (BYTE, SHORT, INT, LONG)}
_HEADER_PROPERTIES = frozenset(HEADER_PROPERTIES)
_PRIORITIES = {str(p): p for p in range(10)}
_INFINITIES = (math.inf, -math.inf)
_SHORT_INTEGRAL: dict[str | None, tuple[JType, int]] = {kind: (jt, RANGES[jt][1]) for kind, jt in PROPERTY_TYPES.items() if jt in _INTEGRAL}
"""The exporter's integral type names -> (type, maximum): an unsigned ASCII number up to it is read directly."""


def _properties(written: list[tuple[str, str, str | None]], headers: dict[str, Any]) -> tuple[dict[str, TypedValue], tuple[str, ...], dict[str, Any]]:
    """The typed properties, the null ones, and what ``source`` keeps (bytes properties, internal
    names). The usual spellings take the short way, tried in the order of how common they are (a
    string, an integral number, a boolean); anything else goes through ``_property_type`` /
    ``_value``, which word the errors."""
    properties: dict[str, TypedValue] = {}
    nulls: list[str] = []
    source: dict[str, Any] = {}
    internal: list[str] = []
    for raw_name, text, kind in written:
        name = raw_name
        if raw_name[:1] == "_":
            name = JMSX_PROPERTIES.get(raw_name, raw_name)
            if name.startswith(("_AMQ_", "__AMQ_")):  # is_internal
                internal.append(name)
        if text == NULL_VALUE:
            if kind not in PROPERTY_TYPES:
                _property_type(raw_name, kind)  # the error
            nulls.append(name)
            continue
        if kind == "string":
            if name in _HEADER_PROPERTIES:
                headers[name] = text
            else:
                properties[name] = (STRING, text)
            continue
        short = _SHORT_INTEGRAL.get(kind)
        if short is not None:
            if text.isdigit() and text.isascii():
                v = int(text)
                if v <= short[1]:
                    properties[name] = (short[0], v)
                    continue
            properties[name] = _value(text, short[0], f"properties.{raw_name}")  # a sign, a leading zero ... and every error
            continue
        if kind == "double" or kind == "float":  # as _value reads them, without its dispatch; its words for the errors
            try:
                f = float(text.strip())
            except ValueError:
                properties[name] = _value(text, PROPERTY_TYPES[kind], f"properties.{raw_name}")  # type: ignore[arg-type]
                continue
            if kind == "double":
                properties[name] = (DOUBLE, f)
                continue
            f32 = to_f32(f)
            if f32 not in _INFINITIES or f in _INFINITIES:
                properties[name] = (FLOAT, f32)
                continue
            properties[name] = _value(text, FLOAT, f"properties.{raw_name}")  # out of range: the error
        try:
            jt = PROPERTY_TYPES[kind]  # type: ignore[index]  # the writer's spelling
        except KeyError:
            jt = _property_type(raw_name, kind)  # any case, or the error
        if jt is STRING:
            if name in _HEADER_PROPERTIES:
                headers[name] = text
            else:
                properties[name] = (STRING, text)
        elif jt is None:
            try:
                data = b64decode(text)
            except CoreError as exc:
                raise RecordError(f"properties.{raw_name}", f"the bytes value {exc}") from None
            source.setdefault("bytes_properties", {})[name] = binascii.b2a_base64(data, newline=False).decode("ascii")  # base64.b64encode: source stays JSON
        elif jt is BOOLEAN and (text == "true" or text == "false"):
            properties[name] = (BOOLEAN, text == "true")
        else:
            properties[name] = _value(text, jt, f"properties.{raw_name}")  # the other spellings, and every error
    if internal:
        source["internal"] = internal
    return properties, tuple(nulls), source


def _property_type(name: str, kind: str | None) -> JType | None:
    where = f"properties.{name}"
    if kind is None:
        raise RecordError(where, "the property has no type attribute")
    if kind.lower() not in PROPERTY_TYPES:
        raise RecordError(where, f"unknown property type {kind!r}; expected one of {', '.join(PROPERTY_TYPES)}")
    return PROPERTY_TYPES[kind.lower()]


def _value(text: str, jt: JType, where: str) -> TypedValue:
    """A value as Java's toString wrote it (Boolean.parseBoolean, Integer.parseInt, Float.parseFloat ...)."""
    if jt is STRING:
        return (STRING, text)
    if jt is BOOLEAN:
        if text.lower() not in ("true", "false"):
            raise RecordError(where, f"a boolean is true or false, not {text!r}")
        return (BOOLEAN, text.lower() == "true")
    if jt.is_integral:
        return (jt, _integral(text, jt, where))
    try:
        f = float(text.strip())
    except ValueError:
        raise RecordError(where, f"not {'a float' if jt is FLOAT else 'a double'}: {text!r}") from None
    if jt is FLOAT:
        f32 = to_f32(f)
        if math.isinf(f32) and not math.isinf(f):
            raise RecordError(where, f"{text} is outside the range of float")
        return (FLOAT, f32)
    return (DOUBLE, f)


def _integral(text: str, jt: JType, where: str) -> int:
    if text.isdigit() and text.isascii():  # the usual spelling: no sign
        v = int(text)
        if v <= _INTEGRAL[jt][1]:
            return v
    body = text[1:] if text[:1] in "+-" else text
    if not body.isascii() or not body.isdigit():
        raise RecordError(where, f"not {'an' if jt is INT else 'a'} {jt.java_name}: {text!r}")
    v = int(text)
    lo, hi = RANGES[jt]
    if not lo <= v <= hi:
        raise RecordError(where, f"{v} is outside the range of {jt.java_name} ({lo}..{hi})")
    return v


def _body(msg: Pending, body_type: str, export: bool, source: dict[str, Any]) -> Any:
    if not msg.body_seen:
        return None
    if msg.large:
        raw = _chunks(msg)
    elif body_type == "text" and not export:
        text = "".join(msg.sections) if msg.sections else "".join(msg.text).strip()
        try:  # consumer --data writes plain text; a core text buffer in base64 is the export's way
            raw = b64decode(text)
        except CoreError:
            return text
        if not is_text_body(raw):
            return text
        source["text_encoding"] = "core"
    else:
        raw = _base64(msg)
    return _typed_body(raw, body_type, source)


def _base64(msg: Pending) -> bytes:
    text = "".join(msg.sections) if msg.sections else "".join("".join(msg.text).split())
    try:
        return b64decode(text.strip())
    except CoreError as exc:
        raise RecordError("body", f"the body {exc}") from None


def _chunks(msg: Pending) -> bytes:
    """A large body: each CDATA section is base64 of its own (XMLMessageExporter writes one per
    1000-byte chunk), so each is decoded alone. Every chunk but the last has the first's size: a
    shorter one in the middle means a chunk went missing or was cut."""
    sections = msg.sections or "".join(msg.text).split()
    parts: list[bytes] = []
    for i, text in enumerate(sections, 1):
        try:
            parts.append(b64decode(text.strip()))
        except CoreError as exc:
            raise RecordError("body", f"large-message chunk {i} of {len(sections)} {exc}") from None
    for i, part in enumerate(parts[1:-1], 2):
        if len(part) != len(parts[0]):
            raise RecordError("body", f"large-message chunk {i} of {len(parts)} holds {len(part)} bytes, not {len(parts[0])} as the "
                              "others: a chunk is missing or cut")
    if len(parts) > 1 and len(parts[-1]) > len(parts[0]):
        raise RecordError("body", f"large-message chunk {len(parts)} (the last) holds more bytes than the others: chunks are damaged")
    return b"".join(parts)


def _typed_body(raw: bytes, body_type: str, source: dict[str, Any]) -> Any:
    try:
        if body_type == "text":
            return decode_text_body(raw)
        if body_type == "map":
            return decode_map_body(raw) if raw else {}
    except CoreError as exc:
        raise RecordError("body", str(exc)) from None
    if body_type in ("bytes", "object"):
        return raw
    if raw:  # a plain message with a body, a stream body: kept as Artemis wrote them
        source["body_base64"] = base64.b64encode(raw).decode("ascii")  # source stays JSON
    return None

"""fmtn/a JSON dumps (``a -d``, read back by ``a -R``): one JSON array of message objects with the
JMS headers at the top level, one typed map per property type and the body as text or base64.

Source: fmtn/a ``src/main/java/co/nordlander/a/MessageDump.java`` (the fields),
``MessageDumpWriter.java`` (``a -d``: Jackson, commons-codec ``encodeBase64String``; ``type`` is
``""`` for a message that is neither text, bytes nor object) and ``MessageDumpReader.java``
(``a -R``). The array is read element by element (``jsonstream``): constant memory, and one
broken element is one rejected record. Every rule is in docs/FORMAT.md ("fmtn-a").
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from typing import IO, Any

from jmsctl.messages.decode import AmbiguousNumber, RecordError, decode_as
from jmsctl.messages.formats import FORMAT_DOC, Format, ReadOptions, first_line_start, fmtn_a_writer
from jmsctl.messages.formats.jsonstream import NotAnArray, elements
from jmsctl.messages.jsontext import JSONError, parse_json, parse_json_exact
from jmsctl.messages.model import Message
from jmsctl.messages.records import Record, duplicate_key_error, record_too_large
from jmsctl.values import JType

NAME = "fmtn-a"

# The typed maps of MessageDump and the JMS type each holds (Jackson writes every map, empty or not).
TYPED_MAPS = {
    "stringProperties": "string", "intProperties": "int", "longProperties": "long", "floatProperties": "float",
    "doubleProperties": "double", "boolProperties": "boolean", "shortProperties": "short", "byteProperties": "byte",
}
_MAP_TYPES: dict[str, JType] = {key: JType[name.upper()] for key, name in TYPED_MAPS.items()}
OBJECT_MAP = "objectProperties"  # name -> base64 of a Java-serialized object: kept as bytes, never deserialized
HEADERS = ("JMSCorrelationID", "JMSMessageID", "JMSType", "JMSDeliveryMode", "JMSExpiration", "JMSRedelivered", "JMSTimestamp", "JMSPriority")
BODY_TYPES = {"TextMessage": "text", "BytesMessage": "bytes", "ObjectMessage": "object", "": "message"}
KEYS = frozenset((*HEADERS, *TYPED_MAPS, OBJECT_MAP, "body", "type"))

_MARKERS = re.compile(rb'"(?:string|int|long|float|double|bool|short|byte|object)Properties"\s*:|"type"\s*:\s*"(?:TextMessage|BytesMessage|ObjectMessage)"')
_HEADER_KEY = re.compile(rb'"JMS(?:MessageID|DeliveryMode|Timestamp|CorrelationID)"\s*:')
_OURS = re.compile(rb'"(?:headers|properties)"\s*:')


def sniff(head: bytes) -> float:
    """An array whose objects carry fmtn/a's own keys (typed property maps, the body types' Java
    names); less sure, JMS headers with no ``headers`` object around them (jmsctl's own arrays)."""
    if not first_line_start(head).startswith(b"["):
        return 0.0
    if _MARKERS.search(head):
        return 0.95
    return 0.7 if _HEADER_KEY.search(head) and not _OURS.search(head) else 0.0


def read(stream: IO[bytes], name: str, options: ReadOptions) -> Iterator[Record]:
    try:
        for element in elements(stream, options.max_record_size):
            location = f"{name}:[{element.index}]"
            if element.problem:
                yield Record(location, None, None, RecordError("", f"{element.problem} (see {FORMAT_DOC}, fmtn-a)"))
            elif element.data is None:
                yield Record(location, None, None, record_too_large(element.size, options.max_record_size))
            else:
                yield _record(location, element.index, element.data)
    except NotAnArray as exc:
        yield Record(name, None, None, RecordError("", f"{exc}: an fmtn-a dump is one JSON array (see {FORMAT_DOC})"))


def _record(location: str, index: int, raw: bytes) -> Record:
    try:
        obj = parse_json(raw)
    except JSONError as exc:
        return Record(location, None, None, RecordError("", f"invalid JSON: {exc}"))
    duplicate = duplicate_key_error(raw, obj)
    if duplicate is not None:
        return Record(location, None, None, duplicate)
    try:
        try:
            message = decode_dump(obj, index)
        except AmbiguousNumber:
            message = decode_dump(parse_json_exact(raw), index)
    except RecordError as err:
        mid = obj.get("JMSMessageID") if isinstance(obj, dict) else None
        where = f"{location} ({mid})" if isinstance(mid, str) else location
        return Record(where, None, None, err)
    mid = message.headers.get("JMSMessageID")
    message.properties_read_only = True
    return Record(f"{location} ({mid})" if mid else location, None, message, None)


def decode_dump(obj: Any, index: int) -> Message:
    """One MessageDump object -> Message; RecordError naming the field."""
    if type(obj) is not dict:
        raise RecordError("", "an fmtn-a message is a JSON object")
    unknown = sorted(set(obj) - KEYS)
    if unknown:  # Jackson's default (FAIL_ON_UNKNOWN_PROPERTIES): a -R refuses them too
        raise RecordError(unknown[0], "not a field of an fmtn-a message (" + ", ".join(sorted(KEYS)) + ")")
    headers = _headers(obj)
    properties: dict[str, Any] = {}
    nulls: list[str] = []
    for key, jtype in _MAP_TYPES.items():
        for prop, value in _map(obj, key).items():
            if prop in properties or prop in nulls:
                raise RecordError(f"{key}.{prop}", "the property is also in another typed map: a message has one value per name")
            if value is None:
                nulls.append(prop)
                continue
            properties[prop] = decode_as(jtype, value, f"{key}.{prop}")
    source: dict[str, Any] = {"format": NAME, "index": index}
    objects = _map(obj, OBJECT_MAP)
    if objects:  # our value model has no object property: kept where selectors do not look
        for prop, value in objects.items():
            if prop in properties:
                raise RecordError(f"{OBJECT_MAP}.{prop}", "the property is also in another typed map")
            _base64(value, f"{OBJECT_MAP}.{prop}")
        source["objectProperties"] = dict(objects)
    body_type, body = _body(obj)
    return Message(headers, properties, body_type, body, tuple(nulls), source=source)


def _headers(obj: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in HEADERS:
        v = obj.get(name)
        if v is None:
            continue
        if name in ("JMSCorrelationID", "JMSMessageID", "JMSType"):
            if type(v) is not str:
                raise RecordError(name, "must be a string or null")
        elif name == "JMSDeliveryMode":
            if type(v) is not int or v not in (1, 2):  # javax.jms.DeliveryMode: 1 NON_PERSISTENT, 2 PERSISTENT
                raise RecordError(name, f"must be 1 (NON_PERSISTENT) or 2 (PERSISTENT), not {v!r}")
        elif name == "JMSRedelivered":
            if type(v) is not bool:
                raise RecordError(name, "must be true or false")
        elif name == "JMSPriority":
            if type(v) is not int or not 0 <= v <= 9:
                raise RecordError(name, f"must be an integer 0..9, not {v!r}")
        elif type(v) is not int or not -(1 << 63) <= v < (1 << 63):
            raise RecordError(name, "must be an integer in the range of long")
        out[name] = v
    return out


def _map(obj: dict[str, Any], key: str) -> dict[str, Any]:
    value = obj.get(key)
    if value is None:
        return {}
    if type(value) is not dict:
        raise RecordError(key, "must be a JSON object of property name -> value")
    return value


def _body(obj: dict[str, Any]) -> tuple[str, Any]:
    kind = obj.get("type")
    if kind is None:
        kind = ""  # an old dump without "type": a plain message, as a dump of one would say
    if type(kind) is not str or kind not in BODY_TYPES:
        raise RecordError("type", f"must be one of {', '.join(repr(k) for k in BODY_TYPES)} (fmtn-a dumps no map or stream messages), not {kind!r}")
    body_type, body = BODY_TYPES[kind], obj.get("body")
    if body is not None and type(body) is not str:
        raise RecordError("body", "must be a string or null")
    if body_type == "message":
        return body_type, None  # a -d writes "" as the body of a plain message
    if body_type == "text" or body is None:
        return body_type, body
    return body_type, _base64(body, "body")


_SPACE = re.compile(r"\s+")


def _base64(text: Any, where: str) -> bytes:
    """commons-codec's decodeBase64 reads both alphabets and line breaks (older encodeBase64String
    wrote CRLF every 76 characters); anything else is an error here, where commons-codec skips it."""
    if type(text) is not str:
        raise RecordError(where, "must be a base64 string")
    compact = _SPACE.sub("", text)
    try:
        if "-" in compact or "_" in compact:
            return base64.b64decode(compact.translate(_URL_SAFE) + "=" * (-len(compact) % 4), validate=True)
        return base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise RecordError(where, "not base64") from None


_URL_SAFE = str.maketrans("-_", "+/")

FORMAT = Format(NAME, "fmtn/a JSON dump (a -d): one array, typed property maps", sniff, read, fmtn_a_writer.write)

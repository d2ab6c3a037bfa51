"""The validating msgspec schema of one NDJSON record, for the fast filter (``jmsctl.filter.fast``).

``decode(raw)`` reads a line into one of the record Structs below, which spell out FORMAT.md:
unknown keys, header types and ranges, property values (bare, or typed with the range of their
type), and the body *by message type* (a tagged union on ``type``: a text body is a string, a
bytes or object body valid base64, a map an object of body values, ...), so no cross-field rule is
left to Python. Every byte of the line is decoded (no field is skipped), so its JSON syntax, UTF-8
and number ranges are checked too. The schema is *at least as strict* as ``decode_message``: where
the two could differ (an integer beyond long, a float next to Float.MAX_VALUE, ``"type": null``)
it refuses, and a refusal is never a verdict: the plain path decides such a line.

Fields default to ``UNSET``, so that a decoded record tells which keys were present, and typed
values count themselves as they are made (``TYPED_MADE``): ``members(rec, typed)`` counts the
keys, and ``keys_unique(raw, rec, typed)`` uses the count to prove cheaply that no object of the
line repeats a key (the loader rejects repeated keys; msgspec and orjson keep the last one).

msgspec's base64 decoding accepts a subset of what ``binascii.a2b_base64(strict_mode=True)`` (the
loader's rule) accepts; tests/test_fastpath.py checks it.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType
from msgspec.structs import astuple

from jmsctl.values import FLOAT_MAX, LONG_MAX, LONG_MIN

_Long = Annotated[int, Meta(ge=LONG_MIN, le=LONG_MAX)]
_Special = Literal["NaN", "Infinity", "-Infinity"]
# |v| <= this rounds to a finite float32 for certain; larger floats go to the plain path.
_F32_SAFE = math.nextafter(FLOAT_MAX, 0.0)


class Headers(Struct, forbid_unknown_fields=True, gc=False):
    # msgspec reads these annotations at run time: no `X | None` spelling on Python 3.10 (UP007/UP045).
    JMSMessageID: Union[str, UnsetType, None] = UNSET  # noqa: UP007
    JMSTimestamp: Union[_Long, UnsetType, None] = UNSET  # noqa: UP007
    JMSCorrelationID: Union[str, UnsetType, None] = UNSET  # noqa: UP007
    JMSType: Union[str, UnsetType, None] = UNSET  # noqa: UP007
    JMSDeliveryMode: Union[Literal[1, 2, "PERSISTENT", "NON_PERSISTENT"], UnsetType, None] = UNSET  # noqa: UP007
    JMSPriority: Union[Annotated[int, Meta(ge=0, le=9)], UnsetType, None] = UNSET  # noqa: UP007
    JMSDestination: Union[str, UnsetType, None] = UNSET  # noqa: UP007
    JMSReplyTo: Union[str, UnsetType, None] = UNSET  # noqa: UP007
    JMSExpiration: Union[_Long, UnsetType, None] = UNSET  # noqa: UP007
    JMSDeliveryTime: Union[_Long, UnsetType, None] = UNSET  # noqa: UP007
    JMSRedelivered: Union[bool, UnsetType, None] = UNSET  # noqa: UP007


TYPED_MADE: list[Any] = []
"""The typed values decoded since it was last cleared: msgspec calls ``__post_init__``, here this
list's C ``append``, with each one it makes (counted without a Python call or a walk). One list for
the process: clear, decode and count under one lock (``fastpath`` holds it per chunk)."""


class Typed(Struct, tag_field="type", forbid_unknown_fields=True, gc=False):
    """A ``{"type": T, "value": V}`` object: two members."""

    __post_init__ = TYPED_MADE.append  # type: ignore[misc]  # a C callable: msgspec calls it with the instance


class TBoolean(Typed, tag="boolean"):
    value: bool


class TByte(Typed, tag="byte"):
    value: Annotated[int, Meta(ge=-(1 << 7), le=(1 << 7) - 1)]


class TShort(Typed, tag="short"):
    value: Annotated[int, Meta(ge=-(1 << 15), le=(1 << 15) - 1)]


class TInt(Typed, tag="int"):
    value: Annotated[int, Meta(ge=-(1 << 31), le=(1 << 31) - 1)]


class TLong(Typed, tag="long"):
    value: _Long


class TFloat(Typed, tag="float"):
    value: Union[_Long, Annotated[float, Meta(ge=-_F32_SAFE, le=_F32_SAFE)], _Special]  # noqa: UP007


class TDouble(Typed, tag="double"):
    value: Union[_Long, float, _Special]  # noqa: UP007


class TString(Typed, tag="string"):
    value: str


class TBytes(Typed, tag="bytes"):
    value: bytes  # base64 in JSON


TYPED = (TBoolean, TByte, TShort, TInt, TLong, TFloat, TDouble, TString)

_Property = Union[str, bool, _Long, float, None, TBoolean, TByte, TShort, TInt, TLong, TFloat, TDouble, TString]  # noqa: UP007
_BodyValue = Union[str, bool, _Long, float, TBoolean, TByte, TShort, TInt, TLong, TFloat, TDouble, TString, TBytes]  # noqa: UP007
_Properties = Union[dict[str, _Property], UnsetType]  # noqa: UP007
Property = _Property  # one property value, as the whole schema reads it (filter.partial decodes one alone)


class Record(Struct, forbid_unknown_fields=True, gc=False, tag_field="type"):
    """The fields every record has; a subclass per message type says what its body may be."""

    headers: Union[Headers, UnsetType] = UNSET  # noqa: UP007
    properties: _Properties = UNSET
    source: Union[dict[str, Any], UnsetType, None] = UNSET  # noqa: UP007  (docs/FORMAT.md: kept, never selected on)


class Text(Record, tag="text"):
    body: Union[str, UnsetType, None] = UNSET  # noqa: UP007


class Bytes(Record, tag="bytes"):
    body: Union[bytes, UnsetType, None] = UNSET  # noqa: UP007


class Object(Record, tag="object"):
    body: Union[bytes, UnsetType, None] = UNSET  # noqa: UP007


class Map(Record, tag="map"):
    body: Union[dict[str, _BodyValue], UnsetType, None] = UNSET  # noqa: UP007


class Stream(Record, tag="stream"):
    body: Union[list[_BodyValue], UnsetType, None] = UNSET  # noqa: UP007


class Plain(Record, tag="message"):
    body: Union[UnsetType, None] = UNSET  # noqa: UP007


class Untyped(Struct, forbid_unknown_fields=True, gc=False):
    """A record without ``type``: a text message (string body) or a plain message (no body)."""

    headers: Union[Headers, UnsetType] = UNSET  # noqa: UP007
    properties: _Properties = UNSET
    body: Union[str, UnsetType, None] = UNSET  # noqa: UP007
    source: Union[dict[str, Any], UnsetType, None] = UNSET  # noqa: UP007


decode_typed = msgspec.json.Decoder(Union[Text, Bytes, Object, Map, Stream, Plain]).decode  # noqa: UP007
decode_untyped = msgspec.json.Decoder(Untyped).decode
ValidationError = msgspec.ValidationError
DecodeError = ValueError  # msgspec's DecodeError and ValidationError are ValueErrors


def decode(raw: bytes) -> Any:
    """A record Struct (Text, Bytes, ... or Untyped), or ValueError: the line is not vouched for."""
    try:
        return decode_typed(raw)
    except ValidationError:
        return decode_untyped(raw)  # most often no "type" (the tag is required above)


# ----- how many members the line's objects have ---------------------------------------------------

HEADER_FIELDS = len(Headers.__struct_fields__)


def members(rec: Any, typed: int) -> int:
    """The number of object members of a decoded record, ``typed`` of its values being typed
    (``len(TYPED_MADE)`` after its decode): keys at every level, a repeated key of an object
    counted once (the decode kept one member per distinct key)."""
    n = 2 * typed if type(rec) is Untyped else 2 * typed + 1  # a typed value has 2 members; "type"
    h = rec.headers
    if h is not UNSET:
        n += 1 + HEADER_FIELDS - astuple(h).count(UNSET)
    p = rec.properties
    if p is not UNSET:
        n += 1 + len(p)
    b = rec.body
    if b is not UNSET:
        n += 1 + len(b) if type(b) is dict else 1
    return n


def colon_after_space(text: bytes) -> bool:
    """Whether white space comes before some ':' (then a key may end without '":')."""
    return b" :" in text or b"\t:" in text or b"\r:" in text


# The header strings that hold colons as a rule ("ID:...", "queue://..."), by field index (the fast
# path's loop reads the first two, 0 and 6, directly).
COLON_HEADERS = tuple(Headers.__struct_fields__.index(name) for name in ("JMSMessageID", "JMSDestination", "JMSReplyTo"))
assert COLON_HEADERS[:2] == (0, 6)


def header_colons(h: Any) -> int:
    """The colons of the decoded JMSMessageID, JMSDestination and JMSReplyTo."""
    if h is UNSET:
        return 0
    ht = astuple(h)
    return sum(ht[i].count(":") for i in COLON_HEADERS if type(ht[i]) is str)


def keys_unique(raw: bytes, rec: Any, typed: int, colon_escapes: bool = True) -> bool:
    """True when no object of ``raw`` repeats a key, proved from its decoded record ``rec`` (with
    ``typed`` typed values); False means "not proved". ``colon_escapes``: ``raw`` may spell a colon
    as ``\\u003a`` (False only when it holds no ``\\u003``).

    ``members(rec)`` is at most the number of keys of ``raw`` (the decode kept one member per
    distinct key of each object), and equal exactly when no key repeats. Two counts of the text are
    at least the number of keys, so that when one of them equals ``members(rec)``, no key repeats:

    - the colons, less those of the decoded JMSMessageID, JMSDestination and JMSReplyTo: every key
      is followed by one colon (after white space, perhaps) and any other colon is inside a string,
      where the colons of those headers are among them unless an escape spelled one;
    - ``'":'``, when no white space comes before a colon: then every key ends with one."""
    # members(rec, typed) and header_colons(rec.headers), inlined: this runs for every line.
    h, p, b = rec.headers, rec.properties, rec.body
    m = 2 * typed if type(rec) is Untyped else 2 * typed + 1
    c = raw.count(b":")
    d = 0
    if h is not UNSET:
        ht = astuple(h)
        m += HEADER_FIELDS + 1 - ht.count(UNSET)
        for i in COLON_HEADERS:
            if type(ht[i]) is str:
                d += ht[i].count(":")
    if p is not UNSET:
        m += 1 + len(p)
    if b is not UNSET:
        m += 1 + len(b) if type(b) is dict else 1
    if c == m or (c - d == m and not (colon_escapes and b"\\u003" in raw)):
        return True
    return raw.count(b'":') == m and not colon_after_space(raw)


__all__ = [
    "COLON_HEADERS",
    "HEADER_FIELDS",
    "TYPED",
    "TYPED_MADE",
    "Bytes",
    "DecodeError",
    "Headers",
    "Map",
    "Object",
    "Plain",
    "Property",
    "Record",
    "Stream",
    "TBoolean",
    "TByte",
    "TBytes",
    "TDouble",
    "TFloat",
    "TInt",
    "TLong",
    "TShort",
    "TString",
    "Text",
    "Typed",
    "Untyped",
    "ValidationError",
    "colon_after_space",
    "decode",
    "decode_typed",
    "decode_untyped",
    "header_colons",
    "keys_unique",
    "members",
]

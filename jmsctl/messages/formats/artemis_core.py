"""Artemis's own byte encodings that its XML export carries: base64 in either alphabet, the core
text body buffer, and the typed-properties map body. Pure functions on bytes, shared by the reader
and the writer of ``artemis_xml``.

Sources (apache/activemq-artemis): ``artemis-cli/.../tools/xml/XmlDataExporterUtil.java`` (base64,
URL-safe alphabet, no line breaks), ``artemis-commons/.../api/core/SimpleString.java`` (a string is an
int32 big-endian byte length, then each char as two bytes, low byte first), ``TextMessageUtil``
(a text body is a nullable SimpleString: one byte 0 = null / 1 = present, then the string) and
``artemis-commons/.../utils/collections/TypedProperties.java`` (a map body).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import struct
from typing import Any

from jmsctl.messages.model import BytesValue
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, JType, TypedValue

_URL_TO_STANDARD = bytes.maketrans(b"-_", b"+/")

NULL_VALUE = "_AMQ_NULL"  # XmlDataConstants.NULL: a null property, written with type bytes

JMSX_PROPERTIES = {"_AMQ_GROUP_ID": "JMSXGroupID", "_AMQ_GROUP_SEQUENCE": "JMSXGroupSeq", "_AMQ_VALIDATED_USER": "JMSXUserID"}
"""Artemis's own names of JMSX properties (Message.HDR_GROUP_ID, HDR_GROUP_SEQUENCE, HDR_VALIDATED_USER)."""


class CoreError(ValueError):
    """Bytes that are not what Artemis writes: the message's error, the rest of the file goes on."""


def b64decode(text: str | bytes) -> bytes:
    """Base64 in the URL-safe alphabet (what Artemis writes) or the standard one, padding optional;
    anything else (white space inside included) is a CoreError."""
    data = text.encode("ascii", "replace") if isinstance(text, str) else text
    data = data.translate(_URL_TO_STANDARD)
    if len(data) % 4 == 1:
        raise CoreError("is not valid base64 (its length is not that of any base64 text)")
    data += b"=" * (-len(data) % 4)
    try:
        return binascii.a2b_base64(data, strict_mode=True)
    except binascii.Error as exc:
        raise CoreError(f"is not valid base64 ({exc})") from None


def b64encode(data: bytes) -> str:
    """What Artemis writes: the URL-safe alphabet, padded, on one line."""
    return base64.urlsafe_b64encode(data).decode("ascii")


def simple_string_bytes(text: str) -> bytes:
    """A SimpleString's data: every UTF-16 code unit, low byte first (lone surrogates kept)."""
    return text.encode("utf-16-le", "surrogatepass")


def simple_string_text(data: bytes) -> str:
    if len(data) % 2:
        raise CoreError(f"a string of {len(data)} bytes: Artemis strings are two bytes per char")
    return codecs.utf_16_le_decode(data, "surrogatepass", True)[0]  # bytes.decode would go through the codec's Python wrapper


def decode_text_body(raw: bytes) -> str | None:
    """A core text body buffer -> its text (None: a null text); CoreError when the buffer is not one
    (empty, a marker other than 0/1, a length prefix that does not match the bytes that follow)."""
    if not raw:
        raise CoreError("the text body buffer is empty (expected a 1-byte null marker, a length and the text)")
    marker = raw[0]
    if marker == 0:
        if len(raw) != 1:
            raise CoreError(f"the text body is marked null but {len(raw) - 1} bytes follow the marker")
        return None
    if marker != 1:
        raise CoreError(f"the text body starts with byte {marker}, not 0 (null) or 1 (a text)")
    if len(raw) < 5:
        raise CoreError(f"the text body buffer ends inside its length prefix ({len(raw)} bytes)")
    (length,) = struct.unpack_from(">i", raw, 1)
    held = len(raw) - 5
    if length != held:
        raise CoreError(f"the text body's length prefix says {length} bytes but {held} follow")
    return simple_string_text(raw[5:])


def is_text_body(raw: bytes) -> bool:
    try:
        decode_text_body(raw)
    except CoreError:
        return False
    return True


def encode_text_body(text: str | None) -> bytes:
    if text is None:
        return b"\x00"
    data = simple_string_bytes(text)
    return b"\x01" + struct.pack(">i", len(data)) + data


# DataConstants (artemis-commons/.../utils/DataConstants.java): the type byte of a typed value.
_NULL, _NOT_NULL, _BOOLEAN, _BYTE, _BYTES, _SHORT, _INT, _LONG, _FLOAT, _DOUBLE, _STRING, _CHAR = range(12)
_FIXED = {_BYTE: (">b", BYTE), _SHORT: (">h", SHORT), _INT: (">i", INT), _LONG: (">q", LONG), _FLOAT: (">f", FLOAT), _DOUBLE: (">d", DOUBLE)}
_CODES = {jt: (code, fmt) for code, (fmt, jt) in _FIXED.items()}


_INT32 = struct.Struct(">i").unpack_from
_FAST: dict[int, tuple[Any, int, JType, bool]] = {
    code: (struct.Struct(fmt).unpack_from, struct.calcsize(fmt), jt, jt in (FLOAT, DOUBLE)) for code, (fmt, jt) in _FIXED.items()
}
"""The fixed-size types by code: (reader, width, type, read as a Python float)."""


def _early(n: int, pos: int, end: int) -> CoreError:
    return CoreError(f"the map body ends early (needs {n} bytes at offset {pos}, has {end - pos})")


def _sized(raw: bytes, pos: int, end: int) -> tuple[bytes, int]:
    """An int32 length at ``pos`` and that many bytes after it; and the offset past them."""
    if end - pos < 4:
        raise _early(4, pos, end)
    (n,) = _INT32(raw, pos)
    pos += 4
    if n < 0 or end - pos < n:
        raise _early(n, pos, end)
    return raw[pos : pos + n], pos + n


def decode_map_body(raw: bytes) -> dict[str, TypedValue | BytesValue]:
    """TypedProperties.encode's bytes -> map entries; a char becomes a one-char String, a null
    entry is a CoreError (the message model has no null map value). Read by offsets into ``raw``
    (no copies but the strings'): a map body costs about what the rest of its message does."""
    out: dict[str, TypedValue | BytesValue] = {}
    end = len(raw)
    if end < 1:
        raise _early(1, 0, end)
    if raw[0] == _NULL:
        return out
    if end < 5:
        raise _early(4, 1, end)
    (count,) = _INT32(raw, 1)
    pos = 5
    for _ in range(count):
        data, pos = _sized(raw, pos, end)
        key = simple_string_text(data)
        if pos >= end:
            raise _early(1, pos, end)
        code = raw[pos]
        code = code - 256 if code > 127 else code  # a signed byte, as Java reads it
        pos += 1
        fixed = _FAST.get(code)
        if fixed is not None:
            read, width, jt, real = fixed
            if end - pos < width:
                raise _early(width, pos, end)
            value = read(raw, pos)[0]
            pos += width
            out[key] = (jt, float(value) if real else value)
        elif code == _BOOLEAN:
            if pos >= end:
                raise _early(1, pos, end)
            out[key] = (BOOLEAN, raw[pos] != 0)
            pos += 1
        elif code in (_STRING, _BYTES):
            data, pos = _sized(raw, pos, end)
            out[key] = (STRING, simple_string_text(data)) if code == _STRING else BytesValue(data)
        elif code == _CHAR:
            if end - pos < 2:
                raise _early(2, pos, end)
            out[key] = (STRING, chr(int.from_bytes(raw[pos : pos + 2], "big")))
            pos += 2
        elif code == _NULL:
            raise CoreError(f"map entry {key!r} is null: the message model has no null map value")
        else:
            raise CoreError(f"map entry {key!r} has the unknown type byte {code}")
    if pos != end:
        raise CoreError(f"the map body has {end - pos} bytes after its last entry")
    return out


def encode_map_body(entries: dict[str, TypedValue | BytesValue]) -> bytes:
    if not entries:
        return bytes([_NULL])
    parts = [bytes([_NOT_NULL]), struct.pack(">i", len(entries))]
    for key, value in entries.items():
        k = simple_string_bytes(key)
        parts.append(struct.pack(">i", len(k)) + k)
        if isinstance(value, BytesValue):
            parts.append(struct.pack(">bi", _BYTES, len(value.data)) + value.data)
            continue
        jt, v = value
        if jt is BOOLEAN:
            parts.append(bytes([_BOOLEAN, 1 if v else 0]))
        elif jt is STRING:
            s = simple_string_bytes(v)
            parts.append(struct.pack(">bi", _STRING, len(s)) + s)
        else:
            code, fmt = _CODES[jt]
            parts.append(bytes([code]) + struct.pack(fmt, v))
    return b"".join(parts)

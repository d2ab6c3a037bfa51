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
import struct

from jmsctl.messages.model import BytesValue
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, TypedValue

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
    return data.decode("utf-16-le", "surrogatepass")


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


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise CoreError(f"the map body ends early (needs {n} bytes at offset {self.pos}, has {len(self.data) - self.pos})")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def unpack(self, fmt: str) -> object:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        n = self.unpack(">i")
        return simple_string_text(self.take(int(n)))  # type: ignore[call-overload]


def decode_map_body(raw: bytes) -> dict[str, TypedValue | BytesValue]:
    """TypedProperties.encode's bytes -> map entries; a char becomes a one-char String, a null
    entry is a CoreError (the message model has no null map value)."""
    cur = _Cursor(raw)
    out: dict[str, TypedValue | BytesValue] = {}
    if cur.unpack(">b") == _NULL:
        return out
    count = int(cur.unpack(">i"))  # type: ignore[call-overload]
    for _ in range(count):
        key = cur.string()
        code = int(cur.unpack(">b"))  # type: ignore[call-overload]
        if code in _FIXED:
            fmt, jt = _FIXED[code]
            value = cur.unpack(fmt)
            out[key] = (jt, float(value) if jt in (FLOAT, DOUBLE) else value)  # type: ignore[arg-type]
        elif code == _BOOLEAN:
            out[key] = (BOOLEAN, cur.take(1) != b"\x00")
        elif code == _STRING:
            out[key] = (STRING, cur.string())
        elif code == _BYTES:
            out[key] = BytesValue(cur.take(int(cur.unpack(">i"))))  # type: ignore[call-overload]
        elif code == _CHAR:
            out[key] = (STRING, chr(int(cur.unpack(">H"))))  # type: ignore[call-overload]
        elif code == _NULL:
            raise CoreError(f"map entry {key!r} is null: the message model has no null map value")
        else:
            raise CoreError(f"map entry {key!r} has the unknown type byte {code}")
    if cur.pos != len(raw):
        raise CoreError(f"the map body has {len(raw) - cur.pos} bytes after its last entry")
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

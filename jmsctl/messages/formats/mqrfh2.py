"""IBM MQ's MQRFH2 header: the JMS message inside MQ message data, read and written.

The fixed part (cmqc.h MQRFH2: StrucId ``RFH ``, Version 2, StrucLength, Encoding, CodedCharSetId,
Format, Flags, NameValueCCSID), then NameValueLength-prefixed XML folders: ``<mcd>`` (message
domain ``Msd``: jms_none, jms_text, jms_bytes, jms_map, jms_stream, jms_object; ``Type`` is JMSType),
``<jms>`` (Dst, Rto, Tms, Exp, Pri, Dlv, Cid, Gid, Seq) and ``<usr>`` (application properties,
typed by a ``dt`` attribute). References: IBM MQ documentation "MQRFH2 - Rules and formatting
header 2", "The MQRFH2 header and JMS", "Mapping JMS fields onto IBM MQ fields".

The folders are XML from the file: parsed with expat, a DOCTYPE or an entity refused.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any
from xml.parsers import expat

FIXED = 36
STRUC_ID = b"RFH "
ENC_REVERSED = 2  # MQENC_INTEGER_REVERSED in the low nibble: little-endian integers (x86); 1 is big-endian

# CCSIDs -> Python codecs, the usual ones (IBM's CCSID registry).
CODECS = {1208: "utf-8", 819: "latin-1", 1252: "cp1252", 437: "cp437", 850: "cp850", 1200: "utf-16-be", 1202: "utf-16-le",
          13488: "utf-16-be", 17584: "utf-16-be", 367: "ascii", 37: "cp037", 500: "cp500", 273: "cp273", 1140: "cp1140",
          1141: "cp1141", 5348: "cp1252", 923: "iso8859-15"}
CHARSET_NAMES = {1208: "UTF-8", 819: "ISO-8859-1", 1252: "windows-1252", 437: "IBM437", 850: "IBM850", 1200: "UTF-16",
                 37: "IBM037", 500: "IBM500", 367: "US-ASCII"}


class RFH2Error(Exception):
    """An MQRFH2 header that cannot be read: the message's error, its ``field`` a path."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


@dataclass
class Folder:
    """An XML element of a folder: its attributes, text and children, in order."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    text: str = ""
    children: list[Folder] = field(default_factory=list)

    def child(self, tag: str) -> Folder | None:
        return next((c for c in self.children if c.tag == tag), None)


@dataclass
class RFH2:
    encoding: int
    ccsid: int
    format: str
    folders: list[Folder]
    length: int


def int_order(encoding: int) -> str:
    return "<" if encoding & 0xF == ENC_REVERSED else ">"


def parse(data: bytes, encoding: int) -> RFH2:
    """The MQRFH2 at the start of ``data`` (integers in the order ``encoding`` gives)."""
    if len(data) < FIXED or data[:4] != STRUC_ID:
        raise RFH2Error("data", "FMT is MQHRF2 but the data does not start with an MQRFH2 ('RFH ')")
    order = int_order(encoding)
    version, length, enc, ccsid = struct.unpack(order + "4i", data[4:20])
    fmt = data[20:28].decode("latin-1")
    _flags, nv_ccsid = struct.unpack(order + "2i", data[28:36])
    if version != 2:
        raise RFH2Error("rfh2.Version", f"version {version}, not 2")
    if length < FIXED or length > len(data):
        raise RFH2Error("rfh2.StrucLength", f"{length} overruns the message data ({len(data)} bytes)" if length > len(data)
                        else f"{length} is shorter than the fixed part ({FIXED} bytes)")
    codec = CODECS.get(nv_ccsid, "utf-8" if nv_ccsid in (0, -2) else None)
    if codec is None:
        raise RFH2Error("rfh2.NameValueCCSID", f"CCSID {nv_ccsid} is not one jmsctl decodes")
    folders = []
    pos = FIXED
    while pos < length:
        if pos + 4 > length:
            raise RFH2Error("rfh2.NameValueLength", f"a folder length at byte {pos} is cut by StrucLength {length}")
        (size,) = struct.unpack(order + "i", data[pos : pos + 4])
        pos += 4
        if size < 0 or pos + size > length:
            raise RFH2Error("rfh2.NameValueLength", f"{size} at byte {pos - 4} overruns the header (StrucLength {length})")
        text = data[pos : pos + size].decode(codec, errors="replace").rstrip(" \x00")
        pos += size
        if text:
            folders.append(_xml(text))
    return RFH2(enc, ccsid, fmt, folders, length)


def _xml(text: str) -> Folder:
    """One folder's XML -> its element tree (expat; a DOCTYPE or entity declaration refused)."""
    root: list[Folder] = []
    stack: list[Folder] = []
    p = expat.ParserCreate()

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = Folder(tag, dict(attrs))
        (stack[-1].children if stack else root).append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        if stack:
            stack[-1].text += data

    def refuse(*_: Any) -> None:
        raise RFH2Error("rfh2", "a folder with a DOCTYPE or an entity declaration is refused")

    p.StartElementHandler = start
    p.EndElementHandler = end
    p.CharacterDataHandler = chars
    p.StartDoctypeDeclHandler = refuse
    p.EntityDeclHandler = refuse
    p.ExternalEntityRefHandler = refuse  # type: ignore[assignment]
    try:
        p.Parse(text, True)
    except expat.ExpatError as exc:
        raise RFH2Error("rfh2", f"a folder is not XML: {exc}") from None
    if len(root) != 1:
        raise RFH2Error("rfh2", "a folder is not one XML element")
    return root[0]


def build(folders: list[str], encoding: int, ccsid: int, fmt: str) -> bytes:
    """An MQRFH2 (NameValueCCSID 1208) holding ``folders`` (XML texts), for the data that follows in
    ``ccsid``/``fmt``; each folder padded with spaces to a multiple of 4 bytes, as MQ requires."""
    order = int_order(encoding)
    parts = []
    for text in folders:
        raw = text.encode("utf-8")
        raw += b" " * (-len(raw) % 4)
        parts.append(struct.pack(order + "i", len(raw)) + raw)
    body = b"".join(parts)
    head = STRUC_ID + struct.pack(order + "4i", 2, FIXED + len(body), encoding, ccsid) + fmt.ljust(8)[:8].encode("ascii")
    return head + struct.pack(order + "2i", 0, 1208) + body

"""IBM MQ ``dmpmqmsg`` / QLOAD text, with the JMS message in an MQRFH2 header.

Source: ibm-messaging/mq-q-qload ``src/qloadfnc.c``: ``WriteFileMQMD`` (one ``A <CODE> <value>``
line per MQMD field of the ``Flds`` table: numbers decimal, byte fields hex, character fields raw;
``N`` when no descriptor was written), ``WriteFileMessageHex``/``String``/``TextLine`` (``X`` hex,
``S "text"`` with ``~`` escaping ``"`` and ``~``, ``T`` a text line) and ``ReadFileMessage`` (how
``dmpmqmsg -i`` reads it back: ``*`` comments and blank lines ignored, a message is its ``A`` lines
then its data lines, a ``T`` line gives its text and a newline). The JMS headers come from the
``<jms>``/``<mcd>`` folders and the MQMD as IBM's "Mapping JMS fields onto IBM MQ fields" says
(``mqrfh2``). Every rule and decision is in docs/FORMAT.md ("ibm-dmpmqmsg").
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from jmsctl.exceptions import NumberFormatException
from jmsctl.messages.conversion import value_of
from jmsctl.messages.decode import RecordError
from jmsctl.messages.formats import FORMAT_DOC, Format, ReadOptions
from jmsctl.messages.formats import mqrfh2 as rfh
from jmsctl.messages.model import DELIVERY_MODES, BytesValue, Message
from jmsctl.messages.records import Record, record_too_large
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, JType, TypedValue, f32_repr

NAME = "ibm-dmpmqmsg"

# qloadfnc.c Flds: code -> (kind, length in bytes); AID/AOD are the character forms of AIX/AOX.
FIELDS: dict[str, tuple[str, int]] = {
    "VER": ("long", 4), "RPT": ("long", 4), "MST": ("long", 4), "EXP": ("long", 4), "FDB": ("long", 4), "ENC": ("long", 4),
    "CCS": ("long", 4), "FMT": ("char", 8), "PRI": ("long", 4), "PER": ("long", 4), "MSI": ("byte", 24), "COI": ("byte", 24),
    "BOC": ("long", 4), "RTQ": ("char", 48), "RTM": ("char", 48), "USR": ("char", 12), "ACC": ("byte", 32), "AID": ("char", 32),
    "AIX": ("byte", 32), "PAT": ("long", 4), "PAN": ("char", 28), "PTD": ("char", 8), "PTT": ("char", 8), "AOD": ("char", 4),
    "AOX": ("byte", 4), "GRP": ("byte", 24), "MSQ": ("long", 4), "OFF": ("long", 4), "MSF": ("long", 4), "ORL": ("long", 4),
}
DEFAULT_ENCODING = 546  # MQENC_NATIVE on Linux/Windows x86 (reversed integers): QLOAD's default MQMD on those platforms

_SNIFF_HEAD = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\* (?:DMPMQMSG|QLOAD) ")
_SNIFF_ATTR = re.compile(rb"^A (?:VER|RPT|MST|FMT|PRI|PER|MSI) ", re.M)
_HEX = re.compile(rb"[0-9A-Fa-f]*")
_INDEX = re.compile(rb"\* Index (\d+)")


def sniff(head: bytes) -> float:
    if _SNIFF_HEAD.match(head):
        return 1.0
    return 0.9 if len(_SNIFF_ATTR.findall(head)) >= 3 else 0.0


@dataclass
class _Pending:
    line: int
    index: int
    mqmd: dict[str, Any] = field(default_factory=dict)
    described: bool = True  # False after an N line
    data: list[bytes] = field(default_factory=list)
    size: int = 0
    error: RecordError | None = None


def read(stream: IO[bytes], name: str, options: ReadOptions) -> Iterator[Record]:
    pending: _Pending | None = None
    in_data = False
    count = 0
    hint: int | None = None  # the number of the "* Index n" line before the message
    for lineno, raw in enumerate(stream, 1):
        line = raw.rstrip(b"\r\n")
        if not line:
            continue
        kind = line[:1]
        if kind == b"*":
            m = _INDEX.match(line)
            hint = int(m.group(1)) if m else hint
            continue
        if kind in (b"A", b"N") and line[1:2] in (b" ", b""):
            if pending is None or in_data:
                if pending is not None:
                    yield _record(pending, name, options)
                count += 1
                pending, in_data = _Pending(lineno, hint if hint is not None else count), False
                hint = None
            if kind == b"N":
                pending.described = False
            elif pending.error is None:
                pending.error = _attribute(pending, line)
            continue
        if kind in (b"X", b"S", b"T") and line[1:2] in (b" ", b""):
            if pending is None:
                count += 1
                pending = _Pending(lineno, hint if hint is not None else count)
                pending.error = RecordError("", "message data with no descriptor before it (no A or N line)")
            in_data = True
            if pending.error is None:
                pending.error = _data(pending, kind, line, options.max_record_size)
            continue
        where = _Pending(lineno, count + 1) if pending is None else pending
        if where.error is None:
            where.error = RecordError("", f"line {lineno}: not a dmpmqmsg line (A, N, X, S, T or a * comment): {line[:40]!r}")
        if pending is None:
            yield _record(where, name, options)
    if pending is not None:
        if not in_data and pending.error is None:
            pending.error = RecordError("", "the file ends after the message descriptor, before the message data: truncated")
        yield _record(pending, name, options)


def _attribute(pending: _Pending, line: bytes) -> RecordError | None:
    code = line[2:5].decode("latin-1")
    spec = FIELDS.get(code)
    where = f"mqmd.{code}"
    if spec is None:
        return RecordError(where, "not an MQMD field dmpmqmsg writes")
    value = line[6:]
    kind, length = spec
    if kind == "long":
        if not re.fullmatch(rb"-?[0-9]{1,10}", value) or not -(1 << 31) <= int(value) < (1 << 31):
            return RecordError(where, f"not a 32-bit number: {value[:40]!r}")
        pending.mqmd[code] = int(value)
    elif kind == "byte":
        if not re.fullmatch(rb"(?:[0-9A-Fa-f]{2})*", value) or len(value) > 2 * length:
            return RecordError(where, f"not hex of at most {length} bytes")
        pending.mqmd[code] = bytes.fromhex(value.decode("ascii")).ljust(length, b"\x00")
    else:
        pending.mqmd[code] = _text(value[:length]).ljust(length)  # as dmpmqmsg -i reads it: blank-padded
    return None


def _data(pending: _Pending, kind: bytes, line: bytes, limit: int) -> RecordError | None:
    if kind == b"X":
        digits = _HEX.match(line, 2).group()  # type: ignore[union-attr]  # a text column may follow the hex
        if len(digits) % 2:
            return RecordError("data", "badly formed hex: an odd number of digits")
        chunk = bytes.fromhex(digits.decode("ascii"))
    elif kind == b"T":
        chunk = line[2:] + b"\n"  # ReadMessageTextLine gives each T line a newline
    else:
        text = line[1:].lstrip(b" ")
        if not text.startswith(b'"'):
            chunk = text.rstrip(b" ")
        else:
            m = re.fullmatch(rb'"((?:[^"~]|~["~])*)"(.*)', text, re.S)
            if m is None:
                return RecordError("data", 'a string line with no closing " or a ~ that escapes neither " nor ~')
            chunk = re.sub(rb'~(["~])', rb"\1", m.group(1))
    pending.size += len(chunk)
    if pending.size > limit:
        pending.data = []
        return record_too_large(pending.size, limit)
    pending.data.append(chunk)
    return None


def _record(pending: _Pending, name: str, options: ReadOptions) -> Record:
    msi = pending.mqmd.get("MSI")
    mid = "ID:" + msi.hex() if isinstance(msi, bytes) and any(msi) else None
    location = f"{name}:{pending.line} (message {pending.index}" + (f", {mid})" if mid else ")")
    if pending.error is not None:
        if pending.error.reason.startswith("record too large"):
            return Record(location, None, None, pending.error)
        return Record(location, None, None, RecordError(pending.error.field, f"{pending.error.reason} (see {FORMAT_DOC}, ibm-dmpmqmsg)"))
    try:
        message = _message(pending, b"".join(pending.data))
    except RecordError as err:
        return Record(location, None, None, err)
    except rfh.RFH2Error as err:
        return Record(location, None, None, RecordError(err.field, err.reason))
    message.properties_read_only = True
    return Record(location, None, message, None)


def _message(pending: _Pending, data: bytes) -> Message:
    md = pending.mqmd
    fmt = md.get("FMT", " " * 8)
    encoding, ccsid = md.get("ENC", DEFAULT_ENCODING), md.get("CCS", 0)
    folders: dict[str, rfh.Folder] = {}
    source: dict[str, Any] = {"format": NAME, "index": pending.index, "line": pending.line}
    if fmt.rstrip() == "MQHRF2":
        header = rfh.parse(data, encoding)
        data = data[header.length :]
        fmt, encoding, ccsid = header.format, header.encoding, header.ccsid or ccsid
        folders = {f.tag: f for f in header.folders}
        other = [tag for tag in folders if tag not in ("mcd", "jms", "usr")]
        if other:
            source["rfh2_other_folders"] = other
    if pending.described:
        source["mqmd"] = {code: v.hex() if isinstance(v, bytes) else v for code, v in md.items()}
    headers = _headers(md, folders)
    properties, nulls = _properties(md, folders, fmt, encoding, ccsid, source)
    body_type, body = _body(folders.get("mcd"), fmt, ccsid, data)
    return Message(headers, properties, body_type, body, nulls, source=source)


def _headers(md: dict[str, Any], folders: dict[str, rfh.Folder]) -> dict[str, Any]:
    """MQMD first, then the <jms> folder over it (IBM's receive mapping)."""
    h: dict[str, Any] = {}
    if isinstance(md.get("MSI"), bytes) and any(md["MSI"]):
        h["JMSMessageID"] = "ID:" + md["MSI"].hex()
    if isinstance(md.get("COI"), bytes) and any(md["COI"]):
        h["JMSCorrelationID"] = "ID:" + md["COI"].hex()
    if 0 <= md.get("PRI", -1) <= 9:
        h["JMSPriority"] = md["PRI"]
    if md.get("PER") in (0, 1):  # MQPER_NOT_PERSISTENT, MQPER_PERSISTENT (2, as the queue's default, says nothing)
        h["JMSDeliveryMode"] = "PERSISTENT" if md["PER"] == 1 else "NON_PERSISTENT"
    stamp = _put_time(md.get("PTD", ""), md.get("PTT", ""))
    if stamp is not None:
        h["JMSTimestamp"] = stamp
    if md.get("RTQ", "").strip():
        h["JMSReplyTo"] = f"queue://{md.get('RTM', '').strip()}/{md['RTQ'].strip()}"
    if "BOC" in md:
        h["JMSRedelivered"] = md["BOC"] > 0
    jms, mcd = folders.get("jms"), folders.get("mcd")
    for tag, header in (("Dst", "JMSDestination"), ("Rto", "JMSReplyTo"), ("Cid", "JMSCorrelationID")):
        node = jms.child(tag) if jms else None
        if node is not None:
            h[header] = node.text
    for tag, header, low, high in (("Tms", "JMSTimestamp", -(1 << 63), (1 << 63) - 1), ("Exp", "JMSExpiration", -(1 << 63), (1 << 63) - 1),
                                   ("Pri", "JMSPriority", 0, 9), ("Dlv", "JMSDeliveryMode", 1, 2)):
        node = jms.child(tag) if jms else None
        if node is not None:
            number = _number(node.text, f"rfh2.jms.{tag}", low, high)
            h[header] = DELIVERY_MODES[number] if header == "JMSDeliveryMode" else number
    node = mcd.child("Type") if mcd else None
    if node is not None:
        h["JMSType"] = node.text
    return h


def _number(text: str, where: str, low: int, high: int) -> int:
    if not re.fullmatch(r"\s*-?[0-9]{1,19}\s*", text) or not low <= int(text) <= high:
        raise RecordError(where, f"{text[:40]!r} is not a number in {low}..{high}")
    return int(text)


def _put_time(date: str, time: str) -> int | None:
    """PutDate YYYYMMDD and PutTime HHMMSSTH (UTC, hundredths) -> epoch milliseconds."""
    if not re.fullmatch(r"[0-9]{8}", date.strip()) or not re.fullmatch(r"[0-9]{8}", time.strip()):
        return None
    try:
        when = dt.datetime.strptime(date.strip() + time.strip()[:6], "%Y%m%d%H%M%S").replace(tzinfo=dt.timezone.utc)
    except ValueError:
        return None
    return int(when.timestamp()) * 1000 + int(time.strip()[6:8]) * 10


_DT: dict[str, JType] = {"i1": BYTE, "i2": SHORT, "i4": INT, "int": INT, "i8": LONG, "r4": FLOAT, "r8": DOUBLE, "boolean": BOOLEAN,
                         "string": STRING}


def _typed(node: rfh.Folder, where: str) -> TypedValue | BytesValue | None:
    """An element typed by ``dt`` (untyped: String); None for ``xsi:nil``; bin.hex as bytes."""
    if node.attrs.get("xsi:nil") == "true":
        return None
    kind = node.attrs.get("dt", "string")
    if kind == "bin.hex":
        if not re.fullmatch(r"(?:[0-9A-Fa-f]{2})*", node.text.strip()):
            raise RecordError(where, "bin.hex value is not hex")
        return BytesValue(bytes.fromhex(node.text.strip()))
    jtype = _DT.get(kind)
    if jtype is None:
        raise RecordError(where, f"unknown dt {kind!r} (i1 i2 i4 i8 r4 r8 boolean bin.hex string)")
    if jtype is BOOLEAN:
        if node.text.strip() not in ("0", "1", "true", "false"):
            raise RecordError(where, f"{node.text[:40]!r} is not a boolean (0, 1, true, false)")
        return (BOOLEAN, node.text.strip() in ("1", "true"))
    try:
        return (jtype, value_of(node.text if jtype is STRING else node.text.strip(), jtype))
    except NumberFormatException:
        raise RecordError(where, f"{node.text[:40]!r} is not {jtype.java_name} (dt {kind})") from None


def _properties(md: dict[str, Any], folders: dict[str, rfh.Folder], fmt: str, encoding: int, ccsid: int,
                source: dict[str, Any]) -> tuple[dict[str, TypedValue], tuple[str, ...]]:
    props: dict[str, TypedValue] = {}
    nulls: list[str] = []
    if md:  # what IBM MQ classes for JMS derive from the MQMD
        if "BOC" in md:
            props["JMSXDeliveryCount"] = (INT, md["BOC"] + 1)
        if md.get("USR", "").strip():
            props["JMSXUserID"] = (STRING, md["USR"].strip())
        if md.get("PAN", "").strip():
            props["JMSXAppID"] = (STRING, md["PAN"].strip())
        props["JMS_IBM_Format"] = (STRING, fmt.ljust(8))
        props["JMS_IBM_Encoding"] = (INT, encoding)
        props["JMS_IBM_Character_Set"] = (STRING, rfh.CHARSET_NAMES.get(ccsid, str(ccsid)))
        for code, prop in (("MST", "JMS_IBM_MsgType"), ("PAT", "JMS_IBM_PutApplType")):
            if code in md:
                props[prop] = (INT, md[code])
        for code, prop in (("PTD", "JMS_IBM_PutDate"), ("PTT", "JMS_IBM_PutTime")):
            if md.get(code, "").strip():
                props[prop] = (STRING, md[code].strip())
    jms = folders.get("jms")
    for tag, prop, jtype in (("Gid", "JMSXGroupID", STRING), ("Seq", "JMSXGroupSeq", INT)):
        node = jms.child(tag) if jms else None
        if node is not None:
            props[prop] = (jtype, node.text if jtype is STRING else _number(node.text, f"rfh2.jms.{tag}", -(1 << 31), (1 << 31) - 1))
    usr = folders.get("usr")
    for node in usr.children if usr else ():
        value = _typed(node, f"rfh2.usr.{node.tag}")
        if value is None:
            nulls.append(node.tag)
        elif isinstance(value, BytesValue):  # a byte[] is no JMS property type
            source.setdefault("binary_properties", {})[node.tag] = value.data.hex()
        else:
            props[node.tag] = value
    return props, tuple(nulls)


_DOMAINS = {"jms_none": "message", "jms_text": "text", "jms_bytes": "bytes", "jms_map": "map", "jms_stream": "stream", "jms_object": "object"}


def _body(mcd: rfh.Folder | None, fmt: str, ccsid: int, data: bytes) -> tuple[str, Any]:
    msd = mcd.child("Msd") if mcd else None
    if msd is not None:
        if msd.text.strip() not in _DOMAINS:
            raise RecordError("rfh2.mcd.Msd", f"{msd.text[:40]!r} is not a JMS message domain ({', '.join(_DOMAINS)})")
        kind = _DOMAINS[msd.text.strip()]
    else:
        kind = "text" if fmt.rstrip() == "MQSTR" else "bytes"  # no RFH2: IBM's JMS reads MQSTR as text, the rest as bytes
    if kind == "message":
        return kind, None
    if kind in ("bytes", "object"):
        return kind, data
    text = _decode(data, ccsid)
    if kind == "text":
        return kind, text
    if not text.strip():
        return kind, {} if kind == "map" else []
    root = rfh._xml(text)
    items = [(node.attrs.get("name", ""), _typed(node, f"body.{node.attrs.get('name', i)}")) for i, node in enumerate(root.children)]
    if any(v is None for _, v in items):
        raise RecordError("body", "a map or stream entry cannot be nil")
    if kind == "map":
        return kind, dict(items)
    return kind, [v for _, v in items]


def _decode(data: bytes, ccsid: int) -> str:
    codec = rfh.CODECS.get(ccsid, "utf-8" if ccsid in (0, -2) else None)
    if codec is None:
        raise RecordError("body", f"CCSID {ccsid} is not one jmsctl decodes")
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        raise RecordError("body", f"not valid CCSID {ccsid} text at byte {exc.start}") from None


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


# ----- writing ------------------------------------------------------------------------------------

_XML_TYPE = {BYTE: "i1", SHORT: "i2", INT: "i4", LONG: "i8", FLOAT: "r4", DOUBLE: "r8", BOOLEAN: "boolean"}
_FROM_MQMD = {"JMSXDeliveryCount", "JMSXUserID", "JMSXAppID", "JMSXGroupID", "JMSXGroupSeq"}
_KINDS = {v: k for k, v in _DOMAINS.items()}
WIDTH = 25  # dmpmqmsg's default data width, in bytes per line


def write(messages: Iterable[Message], out: IO[bytes], created: str | None = None) -> None:
    """Messages as a dmpmqmsg file that ``dmpmqmsg -i`` loads: an MQMD per message, the JMS
    message in an MQRFH2 (big-endian, UTF-8). What the format cannot hold: a JMSMessageID that is
    not ``ID:`` + 48 hex digits (the MQMD holds 24 bytes) and JMSExpiration beyond the <jms> folder."""
    stamp = created or dt.datetime.now(dt.timezone.utc).strftime("%a %b %d %H:%M:%S %Y")
    out.write(f"* DMPMQMSG Version:jmsctl Created:{stamp}\n* Written by jmsctl from messages (see {FORMAT_DOC})\n\n".encode())
    for index, message in enumerate(messages, 1):
        out.write(f"* Index {index}\n".encode())
        out.write(_mqmd_lines(message))
        out.write(_data_lines(_payload(message)) + b"\n")


def _payload(message: Message) -> bytes:
    from xml.sax.saxutils import escape  # here, not at the top: it imports urllib and http (start-up of every command)

    h, props = message.headers, message.properties
    jms = [f"<{tag}>{escape(str(v))}</{tag}>" for tag, v in (
        ("Dst", h.get("JMSDestination")), ("Rto", h.get("JMSReplyTo")), ("Tms", h.get("JMSTimestamp")), ("Exp", h.get("JMSExpiration")),
        ("Pri", h.get("JMSPriority")), ("Dlv", None if h.get("JMSDeliveryMode") is None else 2 if DELIVERY_MODES[h["JMSDeliveryMode"]] == "PERSISTENT" else 1),
        ("Cid", h.get("JMSCorrelationID")), ("Gid", props.get("JMSXGroupID", (None, None))[1]), ("Seq", props.get("JMSXGroupSeq", (None, None))[1]),
    ) if v is not None]
    mcd = f"<mcd><Msd>{_KINDS[message.body_type]}</Msd>" + (f"<Type>{escape(h['JMSType'])}</Type>" if h.get("JMSType") is not None else "") + "</mcd>"
    usr = [_element(name, v) for name, v in props.items() if name not in _FROM_MQMD and not name.startswith("JMS_IBM_")]
    usr += [f"<{name} xsi:nil='true'></{name}>" for name in message.null_properties]
    folders = [mcd, "<jms>" + "".join(jms) + "</jms>"] + (["<usr>" + "".join(usr) + "</usr>"] if usr else [])
    body, fmt = _body_bytes(message)
    return rfh.build(folders, 273, 1208, fmt) + body


def _element(name: str, value: TypedValue | BytesValue, tag: str | None = None) -> str:
    from xml.sax.saxutils import escape, quoteattr

    tag = tag or name
    attr = f" name={quoteattr(name)}" if tag == "elt" and name else ""
    if isinstance(value, BytesValue):
        return f"<{tag}{attr} dt='bin.hex'>{value.data.hex().upper()}</{tag}>"
    t, v = value
    if t is STRING:
        return f"<{tag}{attr}>{escape(v)}</{tag}>"
    if t is BOOLEAN:
        text = "1" if v else "0"
    elif t is FLOAT:
        text = f32_repr(v) if math.isfinite(v) else ("NaN" if math.isnan(v) else "Infinity" if v > 0 else "-Infinity")
    elif t is DOUBLE:
        text = repr(v) if math.isfinite(v) else ("NaN" if math.isnan(v) else "Infinity" if v > 0 else "-Infinity")
    else:
        text = str(v)
    return f"<{tag}{attr} dt='{_XML_TYPE[t]}'>{text}</{tag}>"


def _body_bytes(message: Message) -> tuple[bytes, str]:
    body = message.body
    if message.body_type == "text":
        return (body or "").encode("utf-8"), "MQSTR"
    if message.body_type in ("bytes", "object"):
        return body or b"", ""
    if message.body_type == "map":
        return ("<map>" + "".join(_element(k, v, "elt") for k, v in (body or {}).items()) + "</map>").encode(), ""
    if message.body_type == "stream":
        return ("<stream>" + "".join(_element("", v, "elt") for v in body or []) + "</stream>").encode(), ""
    return b"", ""


def _mqmd_lines(message: Message) -> bytes:
    h, props = message.headers, message.properties
    mid = h.get("JMSMessageID") or ""
    msi = bytes.fromhex(mid[3:]) if re.fullmatch(r"ID:[0-9a-fA-F]{48}", mid) else mid.encode("utf-8")[:24].ljust(24, b"\x00")
    cid = h.get("JMSCorrelationID") or ""
    coi = bytes.fromhex(cid[3:]) if re.fullmatch(r"ID:[0-9a-fA-F]{48}", cid) else bytes(24)
    mode = h.get("JMSDeliveryMode")
    per = 2 if mode is None else 1 if DELIVERY_MODES[mode] == "PERSISTENT" else 0
    count = props.get("JMSXDeliveryCount", (INT, 1))[1]
    stamp = h.get("JMSTimestamp")
    when = dt.datetime.fromtimestamp(stamp / 1000, dt.timezone.utc) if isinstance(stamp, int) and stamp > 0 else None
    fields: list[tuple[str, Any]] = [
        ("VER", 2), ("RPT", 0), ("MST", 8), ("EXP", -1), ("FDB", 0), ("ENC", 273), ("CCS", 1208), ("FMT", "MQHRF2  "),
        ("PRI", h.get("JMSPriority", 4)), ("PER", per), ("MSI", msi.hex().upper()), ("COI", coi.hex().upper()),
        ("BOC", max(0, int(count) - 1) if isinstance(count, int) else 0), ("RTQ", ""), ("RTM", ""),
        ("USR", props.get("JMSXUserID", (STRING, ""))[1]), ("ACC", "00" * 32), ("AIX", "00" * 32), ("PAT", 28),
        ("PAN", props.get("JMSXAppID", (STRING, ""))[1]), ("PTD", when.strftime("%Y%m%d") if when else ""),
        ("PTT", when.strftime("%H%M%S") + f"{when.microsecond // 10000:02d}" if when else ""), ("AOX", "00" * 4),
        ("GRP", "00" * 24), ("MSQ", 1), ("OFF", 0), ("MSF", 0), ("ORL", -1),
    ]
    return "".join(f"A {code} {value}\n" for code, value in fields).encode("utf-8")


def _data_lines(data: bytes) -> bytes:
    """Printable runs as S lines (``~`` escaping ``"`` and ``~``), the rest as X lines, as
    ``dmpmqmsg -dA`` writes them."""
    out: list[bytes] = []
    for m in re.finditer(rb"[\x20-\x7e]+|[^\x20-\x7e]+", data):
        run = m.group()
        printable = 0x20 <= run[0] <= 0x7E
        step = WIDTH * 2 - 2 if printable else WIDTH
        for i in range(0, len(run), step):
            part = run[i : i + step]
            out.append(b'S "' + re.sub(rb'(["~])', rb"~\1", part) + b'"\n' if printable else b"X " + part.hex().upper().encode() + b"\n")
    return b"".join(out) or b'S ""\n'


FORMAT = Format(NAME, "IBM MQ dmpmqmsg / QLOAD text, JMS in an MQRFH2", sniff, read, write)

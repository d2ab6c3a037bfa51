"""Messages for people (``jmsctl show``): a Message -> a view of plain rows and texts, and back to JSON.

The view is data (strings with Java-style values, hex dump lines, a body kind); the CLI turns it
into rich tables and syntax highlighting on a terminal, plain text when piped. Nothing here
interprets a body beyond reading it: a serialized Java object is shown as bytes, never
deserialized. ``message_json`` writes every value typed and decodes back to an equal Message.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from typing import Any

from jmsctl.messages.conversion import java_to_string
from jmsctl.messages.model import DELIVERY_MODES, BytesValue, Message
from jmsctl.spec import HEADER_NAMES
from jmsctl.values import STRING, TypedValue

TYPE_NAMES = {
    "message": "Message",
    "text": "TextMessage",
    "bytes": "BytesMessage",
    "map": "MapMessage",
    "stream": "StreamMessage",
    "object": "ObjectMessage",
}
HEX_LIMIT = 512  # bytes of a bytes/object body shown in the hex dump
INLINE_BYTES_LIMIT = 32  # bytes of a byte[] map entry or stream item shown inline
NULL_PROPERTY = "(null: absent for selectors)"
OBJECT_NOTE = "serialized Java object: never deserialized"


@dataclass(frozen=True)
class HeaderRow:
    name: str
    value: str
    note: str = ""  # the date of a time header, the written form of a delivery mode, ...


@dataclass(frozen=True)
class PropertyRow:
    name: str
    java_type: str  # "" for a property written as JSON null
    value: str
    mark: str = ""  # JMSX / JMS_ / reserved JMS name


@dataclass(frozen=True)
class EntryRow:
    """A map entry (key is the name) or a stream item (key is the index)."""

    key: str
    java_type: str
    value: str


@dataclass(frozen=True)
class HexLine:
    offset: str
    hex: str
    ascii: str


@dataclass(frozen=True)
class BodyView:
    """kind: "none", "text" (with syntax "json", "xml" or ""), "hex", "map" or "stream"."""

    kind: str
    summary: str
    text: str = ""
    syntax: str = ""
    hex_lines: tuple[HexLine, ...] = ()
    more: str = ""  # the line after a cut hex dump
    entries: tuple[EntryRow, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class MessageView:
    location: str
    type_name: str
    headers: tuple[HeaderRow, ...]
    properties: tuple[PropertyRow, ...]
    body: BodyView
    source: tuple[HeaderRow, ...] = ()  # what the dump knew beyond JMS (Message.source), flattened


def message_view(location: str, message: Message) -> MessageView:
    headers = tuple(header_row(name, message.headers[name]) for name in HEADER_NAMES if name in message.headers)
    source = tuple(source_rows(message.source)) if message.source else ()
    return MessageView(visible(location), TYPE_NAMES[message.body_type], headers, property_rows(message), body_view(message), source)


def source_rows(source: dict[str, Any], prefix: str = "") -> list[HeaderRow]:
    """``Message.source`` as rows: nested objects flattened to dotted names, other values as JSON."""
    rows: list[HeaderRow] = []
    for key, value in source.items():
        if isinstance(value, dict) and value:
            rows += source_rows(value, f"{prefix}{key}.")
            continue
        if isinstance(value, (bytes, bytearray)):
            text = f"byte[{len(value)}] " + bytes(value[:INLINE_BYTES_LIMIT]).hex(" ")
        elif isinstance(value, str):
            text = value
        else:
            text = json.dumps(value, ensure_ascii=False, default=str)
        rows.append(HeaderRow(visible(prefix + str(key)), visible(text)))
    return rows


# ----- strings ---------------------------------------------------------------------------------

# Characters that would drive a terminal, break a line or reorder text: C0 (but tab and newline),
# DEL, C1, lone surrogates (unprintable), line/paragraph separators and bidi controls.
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_JAVA_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_JAVA_SPECIAL = re.compile(r'[\\"\n\r\t\b\f]|' + _INVISIBLE.pattern)


def _u_escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04X}"


def visible(text: str) -> str:
    """Text with its invisible or terminal-driving characters as ``\\uXXXX`` (tab and newline kept)."""
    return _INVISIBLE.sub(_u_escape, text)


def java_string(text: str) -> str:
    """A Java string literal: ``"a\\tb"``; every special character visible."""
    return '"' + _JAVA_SPECIAL.sub(lambda m: _JAVA_ESCAPES.get(m.group()) or _u_escape(m), text) + '"'


def _header_string(text: str) -> str:
    """Header strings bare (``ID:1``, ``queue://orders``) unless quoting is needed to see them."""
    if text and text.strip() == text and not _JAVA_SPECIAL.search(text):
        return text
    return java_string(text)


# ----- headers -----------------------------------------------------------------------------------

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
_ZERO_MEANS = {"JMSExpiration": "never", "JMSTimestamp": "not set (timestamps disabled)", "JMSDeliveryTime": "not set"}


def iso_millis(millis: int) -> str:
    """Milliseconds since the epoch -> ``2023-11-14T22:13:20.000Z`` (or a note outside year 1..9999)."""
    try:
        when = _EPOCH + dt.timedelta(milliseconds=millis)
    except OverflowError:
        return "(outside the dates of years 1..9999)"
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def header_row(name: str, value: Any) -> HeaderRow:
    if name in _ZERO_MEANS:
        return HeaderRow(name, str(value), _ZERO_MEANS[name] if value == 0 else iso_millis(value))
    if name == "JMSDeliveryMode":
        mode = DELIVERY_MODES[value]
        return HeaderRow(name, mode, "" if value == mode else f"written {value}")
    if name == "JMSPriority":
        return HeaderRow(name, str(value), "" if 0 <= value <= 9 else "outside 0..9")
    if isinstance(value, bool):
        return HeaderRow(name, "true" if value else "false")
    return HeaderRow(name, _header_string(value) if isinstance(value, str) else str(value))


# ----- properties and typed values ---------------------------------------------------------------


def java_value(value: TypedValue) -> str:
    """A value as Java's toString would print it, strings as literals: ``2600``, ``0.1``, ``"blue"``."""
    return java_string(value[1]) if value[0] is STRING else java_to_string(value)


def property_mark(name: str) -> str:
    if name.startswith("JMSX"):
        return "JMSX"
    if name.startswith("JMS_"):
        return "JMS_"
    return "reserved JMS name" if name.startswith("JMS") else ""


def property_rows(message: Message) -> tuple[PropertyRow, ...]:
    rows = [PropertyRow(visible(n), t.java_name, java_value((t, v)), property_mark(n)) for n, (t, v) in message.properties.items()]
    rows += [PropertyRow(visible(n), "", NULL_PROPERTY, property_mark(n)) for n in message.null_properties]
    return tuple(sorted(rows, key=lambda r: r.name))


# ----- bodies ------------------------------------------------------------------------------------


def body_view(message: Message) -> BodyView:
    kind, body = message.body_type, message.body
    if body is None:
        return BodyView("none", "(no body)" if kind == "message" else f"(no body: a {TYPE_NAMES[kind]} without one)")
    if kind == "text":
        return text_view(body)
    if kind in ("bytes", "object"):
        return hex_view(body, kind)
    if kind == "map":
        rows = tuple(EntryRow(visible(name), *_entry(body[name])) for name in sorted(body))
        return BodyView("map", f"map, {_count(len(rows), 'entry', 'entries')}", entries=rows)
    rows = tuple(EntryRow(str(i), *_entry(v)) for i, v in enumerate(body))
    return BodyView("stream", f"stream, {_count(len(rows), 'item')}", entries=rows)


def _count(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _entry(v: TypedValue | BytesValue) -> tuple[str, str]:
    if isinstance(v, BytesValue):
        shown = v.data[:INLINE_BYTES_LIMIT].hex(" ")
        more = f" ... ({len(v.data) - INLINE_BYTES_LIMIT} more)" if len(v.data) > INLINE_BYTES_LIMIT else ""
        return f"byte[{len(v.data)}]", (shown + more) or "(empty)"
    return v[0].java_name, java_value(v)


_SYNTAX_LIMIT = 1 << 20  # larger texts are shown as they are (pretty-printing and highlighting cost)


def text_view(text: str) -> BodyView:
    """Pretty-printed JSON, XML or plain text, never cut; the summary gives the size."""
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    size = f"text, {_count(len(text), 'character')}, {_count(len(text.encode('utf-8', 'surrogatepass')), 'byte')} UTF-8, {_count(lines, 'line')}"
    notes: list[str] = []
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
        notes.append("CRLF line ends shown as newlines")
    shown = visible(text)
    if shown != text:
        notes.append("invisible and control characters shown as \\uXXXX")
    stripped = text.strip()
    if len(text) <= _SYNTAX_LIMIT and stripped[:1] in ("{", "[") and (pretty := pretty_json(stripped)) is not None:
        return BodyView("text", size + ", JSON (pretty-printed)", text=visible(pretty), syntax="json", notes=tuple(notes))
    if stripped.startswith("<") and stripped.endswith(">"):
        syntax = "xml" if len(text) <= _SYNTAX_LIMIT else ""
        return BodyView("text", size + ", XML", text=shown, syntax=syntax, notes=tuple(notes))
    return BodyView("text", size, text=shown, notes=tuple(notes))


class _Number(str):
    """A JSON number kept as written (1e400 stays 1e400, 0.10 stays 0.10)."""


def pretty_json(text: str) -> str | None:
    """JSON re-indented by two spaces, numbers and duplicate keys kept as written; None if not JSON."""
    try:
        doc = json.loads(text, parse_float=_Number, parse_int=_Number, parse_constant=_no_constant, object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):
        return None
    out: list[str] = []
    try:
        _pretty(doc, 0, out)
    except RecursionError:  # pragma: no cover - json.loads fails first
        return None
    return "".join(out)


class _Pairs(list):  # type: ignore[type-arg]
    """An object's (key, value) pairs in order, duplicates kept."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _pretty(v: Any, depth: int, out: list[str]) -> None:
    pad = "  " * (depth + 1)
    if isinstance(v, list):  # a _Pairs object or an array
        is_obj = isinstance(v, _Pairs)
        open_, close = ("{", "}") if is_obj else ("[", "]")
        if not v:
            out.append(open_ + close)
            return
        out.append(open_ + "\n")
        for i, item in enumerate(v):
            out.append(pad)
            if is_obj:
                out.append(json.dumps(item[0], ensure_ascii=False) + ": ")
                item = item[1]
            _pretty(item, depth + 1, out)
            out.append(",\n" if i < len(v) - 1 else "\n")
        out.append("  " * depth + close)
    elif isinstance(v, _Number):
        out.append(str(v))
    else:
        out.append(json.dumps(v, ensure_ascii=False))


def hex_lines(data: bytes, start: int = 0) -> tuple[HexLine, ...]:
    """``xxd`` layout: 16 bytes a line as 8 groups of 2, ASCII with '.' for the rest."""
    lines = []
    for off in range(0, len(data), 16):
        chunk = data[off : off + 16]
        groups = " ".join(chunk[i : i + 2].hex() for i in range(0, len(chunk), 2))
        text = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in chunk)
        lines.append(HexLine(f"{start + off:08x}", groups.ljust(39), text))
    return tuple(lines)


def hex_text(line: HexLine) -> str:
    return f"{line.offset}: {line.hex}  {line.ascii}"


def hex_view(data: bytes, kind: str) -> BodyView:
    summary = f"{kind}, {_count(len(data), 'byte')}"
    notes = (OBJECT_NOTE, *java_serial_notes(data)) if kind == "object" else ()
    if not data:
        return BodyView("hex", summary, text="(empty)", notes=notes)
    more = ""
    if len(data) > HEX_LIMIT:
        summary += f" (first {HEX_LIMIT} shown)"
        more = f"... {_count(len(data) - HEX_LIMIT, 'more byte')} not shown ({len(data)} in all)"
    return BodyView("hex", summary, hex_lines=hex_lines(data[:HEX_LIMIT]), more=more, notes=notes)


def java_serial_notes(data: bytes) -> tuple[str, ...]:
    """What the stream header says, read as bytes: the magic number and the first class name."""
    if data[:4] != b"\xac\xed\x00\x05":
        return ("no Java serialization header (AC ED 00 05)",)
    if data[4:6] != b"\x73\x72" or len(data) < 8:  # TC_OBJECT TC_CLASSDESC
        return ("Java serialization stream (AC ED 00 05)",)
    length = int.from_bytes(data[6:8], "big")
    name = data[8 : 8 + length].decode("utf-8", "replace")
    return (f"Java serialization stream, class {visible(name)} (from the header)",)


__all__ = [
    "BodyView",
    "EntryRow",
    "HeaderRow",
    "HexLine",
    "MessageView",
    "PropertyRow",
    "body_view",
    "hex_text",
    "java_string",
    "java_value",
    "message_view",
    "visible",
]

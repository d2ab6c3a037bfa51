"""ActiveMQ Classic ``activemq browse`` text: what operators paste into tickets.

Source: apache/activemq ``activemq-console/src/main/java/org/apache/activemq/console/filter/
MapTransformFilter.java`` (a message -> ``JMS_HEADER_FIELD:``/``JMS_CUSTOM_FIELD:``/``JMS_BODY_FIELD:``
keys, every value through ``toString``) and ``.../formatter/CommandShellOutputFormatter.java``
(``printMessage``: one ``key = value`` line per entry in no fixed order, then a blank line).

Every value is text. Headers are parsed back (priority, times, ``persistent``); properties cannot
be: they load as Strings (JMSX ones with their specification types), with one warning per file,
unless ``--types`` gives their types. Each rule, with the decisions where the text is ambiguous, is
in docs/FORMAT.md ("activemq-browse").
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from jmsctl.exceptions import NumberFormatException
from jmsctl.messages.conversion import java_to_string, value_of
from jmsctl.messages.decode import RecordError
from jmsctl.messages.formats import FORMAT_DOC, Format, ReadOptions
from jmsctl.messages.model import DELIVERY_MODES, BytesValue, Message
from jmsctl.messages.records import Record, record_too_large
from jmsctl.spec import JMSX_TYPES
from jmsctl.values import STRING, JType, TypedValue

NAME = "activemq-browse"
_FIELD = re.compile(r"JMS_(HEADER|CUSTOM|BODY)_FIELD:(.*?) =(?: (.*)|)$", re.S)  # split at the first " = "
_SNIFF = re.compile(rb"^JMS_(?:HEADER|CUSTOM|BODY)_FIELD:\S.*? =", re.M)
_CONSOLE = re.compile(rb"^(?:Java Runtime: |ACTIVEMQ_HOME: |Extensions classpath:)", re.M)


def sniff(head: bytes) -> float:
    if _SNIFF.search(head):
        return 1.0
    return 0.5 if _CONSOLE.search(head) else 0.0  # the console's preamble, no message yet (an empty queue)


@dataclass
class _Pending:
    """One message's lines as read: (kind, key, value) fields in order, where it starts."""

    line: int
    index: int
    fields: list[tuple[str, str, list[str]]] = field(default_factory=list)  # the value in parts, joined at the end
    keys: set[tuple[str, str]] = field(default_factory=set)
    size: int = 0
    oversized: bool = False


def read(stream: IO[bytes], name: str, options: ReadOptions) -> Iterator[Record]:
    reader = _Reader(name, options)
    yield from reader.lines(stream)
    if reader.untyped:
        shown = ", ".join(sorted(reader.untyped)[:5]) + (", ..." if len(reader.untyped) > 5 else "")
        what = "have no type in --types" if options.types else "are untyped in activemq browse text"
        options.warning(name, f"{len(reader.untyped)} properties ({shown}) {what} and are read as Strings: a numeric comparison "
                              "on them is FALSE (unlike types) where the broker compared numbers; give their types with --types SCHEMA.json "
                              f"(see {FORMAT_DOC}, activemq-browse)")


class _Reader:
    def __init__(self, name: str, options: ReadOptions) -> None:
        self.name = name
        self.options = options
        self.untyped: set[str] = set()
        self.index = 0

    def lines(self, stream: IO[bytes]) -> Iterator[Record]:
        current: _Pending | None = None
        blanks = 0  # blank lines since the last field line: a separator, or inside a text value
        for lineno, raw in enumerate(stream, 1):
            text = _decode(raw).rstrip("\r\n")
            if not text.strip():
                blanks += 1
                continue
            m = _FIELD.match(text)
            if m is None:  # a line of the value before (a body with line breaks), or the console's own lines first
                if current is not None and current.fields:
                    self._extend(current, "\n" * (blanks + 1) + text)
                blanks = 0
                continue
            kind, key, value = m.group(1), m.group(2), m.group(3) or ""
            if current is None or (blanks and current.fields) or (kind, key) in current.keys:
                if current is not None:
                    yield self._record(current)
                current = _Pending(lineno, self.index)
                self.index += 1
            blanks = 0
            current.keys.add((kind, key))
            current.fields.append((kind, key, []))
            self._extend(current, value)
        if current is not None:
            yield self._record(current)

    def _extend(self, current: _Pending, text: str) -> None:
        current.size += len(text)
        if current.size > self.options.max_record_size:
            current.oversized = True
            for f in current.fields:
                f[2].clear()
            return
        current.fields[-1][2].append(text)

    def _record(self, pending: _Pending) -> Record:
        location = f"{self.name}:{pending.line}"
        if pending.oversized:
            return Record(location, None, None, record_too_large(pending.size, self.options.max_record_size))
        ident = next(("".join(v) for k, key, v in pending.fields if k == "HEADER" and key == "JMSMessageID"), None)
        if ident:
            location += f" ({ident})"
        try:
            message = self._message(pending)
        except RecordError as err:
            return Record(location, None, None, err)
        message.properties_read_only = True
        return Record(location, None, message, None)

    def _message(self, pending: _Pending) -> Message:
        headers: dict[str, Any] = {}
        properties: dict[str, TypedValue] = {}
        body: dict[str, str] = {}
        for kind, key, parts in pending.fields:
            value = "".join(parts)
            if kind == "HEADER":
                parsed = _header(key, value)
                if parsed is not None:
                    headers[key] = parsed
            elif kind == "CUSTOM":
                properties[key] = self._property(key, value)
            else:
                body[key] = value
        source: dict[str, Any] = {"format": NAME, "index": pending.index, "line": pending.line}
        body_type, content = _body(body, source)
        return Message(headers, properties, body_type, content, source=source)

    def _property(self, key: str, value: str) -> TypedValue:
        types = self.options.types or {}
        target: JType | None = types.get(key)  # (BOOLEAN is 0: no truth tests on a JType)
        if target is None:
            target = JType.from_name(JMSX_TYPES.get(key, ""))
        if target is None or target is STRING:
            if target is None and not key.startswith(("JMSX", "JMS_")):
                self.untyped.add(key)
            return (STRING, value)
        try:
            return (target, value_of(value, target))
        except NumberFormatException:
            given = "--types" if key in types else "the JMS specification"
            raise RecordError(f"properties.{key}", f"{value!r} is not {target.java_name} (the type {given} gives it)") from None


_MODES = {"persistent": "PERSISTENT", "non-persistent": "NON_PERSISTENT", "PERSISTENT": "PERSISTENT", "NON_PERSISTENT": "NON_PERSISTENT",
          "2": "PERSISTENT", "1": "NON_PERSISTENT"}


def _header(key: str, value: str) -> Any:
    """A header's text -> its FORMAT.md value; None for ``null`` (the JMX variant prints absent ones so)."""
    where = f"headers.{key}"
    if value == "null" and key not in ("JMSMessageID",):
        return None
    if key in ("JMSMessageID", "JMSCorrelationID", "JMSType", "JMSReplyTo"):
        return value
    if key == "JMSDestination":  # the physical name: browse browses queues only
        return value if "://" in value else f"queue://{value}"
    if key == "JMSDeliveryMode":
        if value not in _MODES:
            raise RecordError(where, f"{value!r} is neither persistent nor non-persistent")
        return _MODES[value]
    if key == "JMSRedelivered":
        if value not in ("true", "false"):
            raise RecordError(where, f"{value!r} is neither true nor false")
        return value == "true"
    if key in ("JMSExpiration", "JMSTimestamp", "JMSPriority", "JMSDeliveryTime"):
        if not re.fullmatch(r"-?[0-9]{1,19}", value):
            raise RecordError(where, f"{value!r} is not a number")
        number = int(value)
        if key == "JMSPriority" and not 0 <= number <= 9:
            raise RecordError(where, f"{number} is outside 0..9")
        if not -(1 << 63) <= number < (1 << 63):
            raise RecordError(where, f"{number} is outside the range of long")
        return number
    raise RecordError(where, "not a JMS header (activemq browse prints JMSCorrelationID, JMSDeliveryMode, JMSDestination, "
                             "JMSExpiration, JMSMessageID, JMSPriority, JMSRedelivered, JMSReplyTo, JMSTimestamp, JMSType)")


def _body(fields: dict[str, str], source: dict[str, Any]) -> tuple[str, Any]:
    """The body fields -> (type, body). Only a text body is in the dump whole; a bytes body is
    printed as NULs, an object as its class and toString, a stream as toString: their type is
    kept and the body reported lost (``source.body_lost``)."""
    if not fields:
        return "message", None  # a plain Message (or a TextMessage whose text is null: the text cannot tell)
    if set(fields) <= {"JMSText"} or set(fields) <= {"Text"}:
        return "text", next(iter(fields.values()))
    if any(k.startswith("JMSBytes:") for k in fields) or "BodyLength" in fields:
        source["body_lost"] = "activemq browse prints no bytes body (only NULs of its length)"
        lengths = [len(v) for k, v in fields.items() if k.startswith("JMSBytes:")]
        if lengths:
            source["body_length"] = sum(lengths)
        return "bytes", None
    if set(fields) <= {"JMSObjectClass", "JMSObjectString"}:
        source["body_lost"] = "activemq browse prints an object body as its class and toString"
        source["object_class"] = fields.get("JMSObjectClass", "")
        source["object_string"] = fields.get("JMSObjectString", "")
        return "object", None
    if set(fields) == {"JMSStreamMessage"}:
        source["body_lost"] = "activemq browse prints a stream body as the message's toString"
        return "stream", None
    return "map", {k: (STRING, v) for k, v in fields.items()}  # a MapMessage: one line per entry, untyped


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")  # a console in another charset: keep every byte visible


# ----- writing: what browse prints ---------------------------------------------------------------

PREAMBLE = ("Java Runtime: Debian 17.0.13 /usr/lib/jvm/java-17-openjdk-amd64\n  Heap sizes: current=63488k  free=61372k  max=1007616k\n"
            "    JVM args: -Xms64M -Xmx1G -Dactivemq.classpath=/var/lib/activemq/conf\nExtensions classpath:\n  []\n"
            "ACTIVEMQ_HOME: /usr/share/activemq\nACTIVEMQ_BASE: /var/lib/activemq\nACTIVEMQ_CONF: /var/lib/activemq/conf\n"
            "ACTIVEMQ_DATA: /var/lib/activemq/data\n")


def write(messages: Iterable[Message], out: IO[bytes]) -> None:
    """Messages as ``activemq browse`` prints them (MapTransformFilter's keys, every value through
    Java's toString, the entries in a Hashtable's order: here a fixed scramble), after the
    console's preamble. The text cannot hold property types, bytes, object or stream bodies, a
    topic destination or a null property (see docs/FORMAT.md)."""
    out.write(PREAMBLE.encode())
    for message in messages:
        lines = _fields(message)
        lines.sort(key=lambda kv: zlib.crc32(kv[0].encode()))
        out.write("".join(f"{k} = {v}\n" for k, v in lines).encode("utf-8") + b"\n")


def _fields(message: Message) -> list[tuple[str, str]]:
    h = message.headers
    out = [(f"JMS_HEADER_FIELD:{k}", str(h[k])) for k in ("JMSCorrelationID", "JMSMessageID", "JMSType") if h.get(k) is not None]
    mode = h.get("JMSDeliveryMode")
    persistent = mode is None or DELIVERY_MODES[mode] == "PERSISTENT"  # the JMS default when the dump has none
    out.append(("JMS_HEADER_FIELD:JMSDeliveryMode", "persistent" if persistent else "non-persistent"))
    for k, default in (("JMSExpiration", 0), ("JMSPriority", 4), ("JMSTimestamp", 0)):
        out.append((f"JMS_HEADER_FIELD:{k}", str(h.get(k, default))))
    out.append(("JMS_HEADER_FIELD:JMSRedelivered", "true" if h.get("JMSRedelivered") else "false"))
    for k in ("JMSDestination", "JMSReplyTo"):
        if h.get(k):
            out.append((f"JMS_HEADER_FIELD:{k}", h[k].split("://", 1)[-1]))  # getPhysicalName()
    out += [(f"JMS_CUSTOM_FIELD:{k}", java_to_string(v)) for k, v in message.properties.items()]
    body = message.body
    if message.body_type == "text" and body is not None:
        out.append(("JMS_BODY_FIELD:JMSText", body))
    elif message.body_type == "map" and body:
        out += [(f"JMS_BODY_FIELD:{k}", f"[B@{zlib.crc32(v.data):x}" if isinstance(v, BytesValue) else java_to_string(v)) for k, v in body.items()]
    elif message.body_type == "bytes":
        out.append(("JMS_BODY_FIELD:JMSBytes:1", "\x00" * len(body or b"")))
    return out


FORMAT = Format(NAME, "ActiveMQ Classic 'activemq browse' text (untyped)", sniff, read, write)

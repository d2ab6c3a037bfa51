"""Messages -> an Artemis XML export that ``artemis data imp`` reads back (and ``artemis_xml`` too).

What the importer needs (apache/activemq-artemis ``artemis-cli/.../tools/xml/XmlDataImporter.java``):
the bindings before the messages (a message is sent to the address its first queue is bound to), and
at least one queue per message. So the messages are spooled to a temporary file while the bindings
they use are collected, then the document is written: bindings, then the spooled messages. The layout
is XmlDataExporter's PrettyPrintHandler (three spaces per level, each CDATA on its own line: the
importer ends a base64 chunk at the white space after it).

What the format cannot hold is counted in ``lost`` (a description -> number of messages), for
``jmsctl convert`` to say once.
"""

from __future__ import annotations

import math
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable
from typing import IO, Any

from jmsctl.messages.formats.artemis_core import JMSX_PROPERTIES, NULL_VALUE, b64decode, b64encode, encode_map_body, encode_text_body
from jmsctl.messages.model import Message
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, STRING, JType, TypedValue, f32_repr

DEFAULT_QUEUE = "jmsctl.import"
"""Where a message without a JMSDestination goes: the importer needs a queue for every message."""

LARGE = 100 * 1024  # Artemis's default min-large-message-size: larger bodies are written in chunks
CHUNK = 1000  # XMLMessageExporter.LARGE_MESSAGE_CHUNK_SIZE

_TYPE_NAMES = {JType.BOOLEAN: "boolean", JType.BYTE: "byte", JType.SHORT: "short", JType.INT: "integer", JType.LONG: "long",
               JType.FLOAT: "float", JType.DOUBLE: "double", JType.STRING: "string"}
_ARTEMIS_NAMES = {v: k for k, v in JMSX_PROPERTIES.items()}
_BODY_TYPES = {"message": "default", "text": "text", "bytes": "bytes", "map": "map", "stream": "stream", "object": "object"}
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
_TO_ESCAPE = re.compile('[&<>"\t\n\r]')


def _attr(text: str, lost: Counter[str]) -> str:
    if _NOT_XML.search(text):
        lost["strings holding characters XML 1.0 cannot hold (control characters, lone surrogates): replaced by U+FFFD"] += 1
        text = _NOT_XML.sub("\ufffd", text)
    return _TO_ESCAPE.sub(lambda m: _ESCAPES[m.group()], text)


def _java_text(value: TypedValue) -> str:
    """The value as Java's toString writes it, so that parseInt / parseFloat ... read it back."""
    t, v = value
    if t is BOOLEAN:
        return "true" if v else "false"
    if t in (FLOAT, DOUBLE):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return f32_repr(v) if t is FLOAT else repr(float(v))
    return str(v)


def _destination(dest: Any, lost: Counter[str]) -> tuple[str, str, str]:
    """(queue, address, routing type) for a JMSDestination."""
    if isinstance(dest, str) and dest.startswith("queue://"):
        return dest[8:], dest[8:], "ANYCAST"
    if isinstance(dest, str) and dest.startswith("topic://"):
        return dest[8:], dest[8:], "MULTICAST"
    if dest is None:
        lost[f"no JMSDestination: written to the queue {DEFAULT_QUEUE} (artemis data imp needs a queue), read back as queue://{DEFAULT_QUEUE}"] += 1
        return DEFAULT_QUEUE, DEFAULT_QUEUE, "ANYCAST"
    lost["JMSDestination neither queue:// nor topic://: written as a queue of that name"] += 1
    return str(dest), str(dest), "ANYCAST"


class _Bindings:
    def __init__(self) -> None:
        self.queues: dict[str, tuple[str, str]] = {}
        self.addresses: dict[str, set[str]] = {}

    def queue_for(self, queue: str, address: str, routing: str) -> str:
        """The queue name (a topic and a queue of one name need two queues)."""
        name = queue
        while name in self.queues and self.queues[name] != (address, routing):
            name += ".topic" if routing == "MULTICAST" else ".queue"
        self.queues[name] = (address, routing)
        self.addresses.setdefault(address, set()).add(routing)
        return name


def write(messages: Iterable[Message], out: IO[bytes], lost: Counter[str] | None = None) -> None:
    """The whole document to ``out``; ``lost`` counts what could not be written as it was."""
    lost = Counter() if lost is None else lost
    bindings = _Bindings()
    with tempfile.TemporaryFile() as spool:
        for n, message in enumerate(messages, 1):
            spool.write(_message_xml(message, n, bindings, lost).encode("utf-8"))
        out.write(b'<?xml version="1.0" encoding="UTF-8"?>\n<activemq-journal>\n   <bindings>\n')
        for address, routings in bindings.addresses.items():
            out.write(f'      <address-binding routing-types="{",".join(sorted(routings))}" name="{_attr(address, lost)}" id="0"/>\n'.encode())
        for i, (queue, (address, routing)) in enumerate(bindings.queues.items(), 1):
            out.write(f'      <queue-binding address="{_attr(address, lost)}" filter-string="" name="{_attr(queue, lost)}" id="{i}" '
                      f'routing-type="{routing}"/>\n'.encode())
        out.write(b"   </bindings>\n   <messages>\n")
        spool.seek(0)
        shutil.copyfileobj(spool, out)
        out.write(b"   </messages>\n</activemq-journal>\n")


def _message_xml(message: Message, n: int, bindings: _Bindings, lost: Counter[str]) -> str:
    src = message.source if message.source and message.source.get("format") == "artemis-xml" else {}
    h = message.headers
    attrs = [f'id="{src.get("id", n)}"']
    for header, attr in (("JMSPriority", "priority"), ("JMSExpiration", "expiration"), ("JMSTimestamp", "timestamp")):
        if h.get(header) is not None:
            attrs.append(f'{attr}="{h[header]}"')
    attrs.append(f'type="{_BODY_TYPES[message.body_type]}"')
    mid = h.get("JMSMessageID")
    if mid is not None:
        if not mid.startswith("ID:"):
            lost["JMSMessageID not starting with ID: (Artemis writes ID: + user-id): read back with ID: in front"] += 1
        attrs.append(f'user-id="{_attr(mid[3:] if mid.startswith("ID:") else mid, lost)}"')
    for header in ("JMSDeliveryMode", "JMSRedelivered", "JMSDeliveryTime"):
        if h.get(header) is not None:
            lost[f"{header} (not in Artemis's export)"] += 1
    lines = [f'      <message {" ".join(attrs)}>', "         <properties>"]
    props = _properties(message, src, lost)
    lines += [f'            <property name="{_attr(k, lost)}" value="{v}" type="{t}"/>' for k, v, t in props]
    queue, address, routing = _destination(h.get("JMSDestination"), lost)
    lines += ["         </properties>", "         <queues>", f'            <queue name="{_attr(bindings.queue_for(queue, address, routing), lost)}"/>',
              "         </queues>"]
    lines += _body_xml(message, src, lost)
    lines.append("      </message>\n")
    return "\n".join(lines)


def _properties(message: Message, src: dict[str, Any], lost: Counter[str]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    for header in ("JMSCorrelationID", "JMSType", "JMSReplyTo"):  # String properties in Artemis (MessageUtil)
        v = message.headers.get(header)
        if v is not None:
            out.append((header, _attr(v, lost), "string"))
    for name, value in message.properties.items():
        if value[0] is STRING and value[1] == NULL_VALUE:
            lost[f"String properties whose value is {NULL_VALUE}: read back as null (Artemis's null marker)"] += 1
        out.append((_ARTEMIS_NAMES.get(name, name), _attr(_java_text(value), lost), _TYPE_NAMES[value[0]]))
    out += [(_ARTEMIS_NAMES.get(name, name), NULL_VALUE, "bytes") for name in message.null_properties]
    out += [(name, b64encode(b64decode(text)), "bytes") for name, text in src.get("bytes_properties", {}).items()]
    return out


def _raw_body(message: Message, src: dict[str, Any], lost: Counter[str]) -> bytes | None:
    kind, body = message.body_type, message.body
    if kind == "text":  # always the export's core buffer: it holds any text, XML's excluded characters too
        return encode_text_body(body)
    if kind in ("bytes", "object"):
        return body if body is not None else None
    if kind == "map":
        return encode_map_body(body) if body is not None else None
    if "body_base64" in src:
        return b64decode(src["body_base64"])
    if kind == "stream" and body is not None:
        lost["stream bodies (Artemis's stream encoding is not written by jmsctl): written empty"] += 1
    return None


def _body_xml(message: Message, src: dict[str, Any], lost: Counter[str]) -> list[str]:
    raw = _raw_body(message, src, lost)
    if raw is None:
        return []
    if len(raw) < LARGE and not src.get("large"):
        return ["         <body>", f"            <![CDATA[{b64encode(raw)}]]>", "         </body>"]
    chunks = [f"            <![CDATA[{b64encode(raw[i:i + CHUNK])}]]>" for i in range(0, len(raw), CHUNK)]
    return ['         <body isLarge="true">', *chunks, "         </body>"]

"""Artemis XML (``artemis data exp``, root ``<activemq-journal>``; ``artemis consumer --data``, root
``<messages>``) -> the loader's Records, streamed: expat is fed blocks, each ``<message>`` becomes a
Record when its end tag is read and nothing of it is kept, so memory stays flat on a file of any size.

Sources (apache/activemq-artemis, ``artemis-cli/.../commands/tools/xml/``): ``XmlDataConstants.java``
(names), ``XMLMessageExporter.java`` (what is written: attributes, ``_AMQ_NULL`` bytes properties,
one base64 CDATA per 1000-byte chunk of a large body, plain text bodies for ``consumer --data``),
``XmlDataExporterUtil.java`` (property type names, base64 alphabet), ``XMLMessageImporter.java``
(how ``artemis data imp`` reads it back: each CDATA decoded on its own). The mapping to JMS headers
is ``docs/artemis-xml.md``.

XML is hostile input: a DOCTYPE (hence any entity, external or internal) is refused before anything
in it is read; expat never fetches anything.

Speed: expat reads the prolog, then hands each message it meets to ``artemis_xml_scan``, which reads
the exporter's own layout with one regular expression (taking a message apart costs 0.6 of the
instructions expat and its handlers did); a message it cannot vouch for goes back to expat, resumed
at that message. Both give the same Records, errors and line numbers included. Stages: this module reads
(expat's handlers, the scanner's hand-offs, errors and resumption); artemis_xml_build.py makes a read
message into a Message or its selector view; artemis_xml_writer.py writes.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from functools import partial
from typing import IO, Any
from xml.parsers import expat

from jmsctl.messages.decode import RecordError
from jmsctl.messages.formats import Format, ReadOptions
from jmsctl.messages.formats.artemis_xml_build import (  # noqa: F401 - the build stage's names, read here and by users of this module
    BODY_TYPES,
    HEADER_PROPERTIES,
    NAME,
    PROPERTY_TYPES,
    Pending,
    build_message,
    build_view,
    is_internal,
    raw_names,
)
from jmsctl.messages.formats.artemis_xml_writer import write as _write
from jmsctl.messages.records import UNREAD, Partial, Record, Unread, record_too_large
from jmsctl.messages.sources import InputError

BLOCK = 1 << 16

EXPORT_ROOT = "activemq-journal"  # artemis data exp
CONSUMER_ROOT = "messages"  # artemis consumer --data


class RefusedXML(InputError):
    """A DOCTYPE (DTD, entity declarations, external entities): the whole file is refused."""


_ROOT = re.compile(rb"<(?:!DOCTYPE\s+)?(?:activemq-journal|messages)[\s>/\[]")


def sniff(head: bytes) -> float:
    """Markup whose root (or DOCTYPE, refused when read) is ``activemq-journal`` or ``messages``:
    sure. Other XML is not claimed (a file of no format gets the registry's one error)."""
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not start.startswith(b"<"):
        return 0.0
    return 0.95 if _ROOT.search(head) else 0.0


class _Parser:
    """The expat handlers: a small state machine over the element names Artemis writes.

    Speed is the handlers' count of Python calls and pyexpat's objects: expat and pyexpat are more
    than half of the time. Inside a ``<message>`` the handlers are swapped for two that only sort
    its children (a property's three attribute strings kept as a tuple, typed once the message is
    whole); outside, the others track the document's structure. Character data is handled inside
    a body only."""

    def __init__(self, name: str, max_size: int, raw: frozenset[str] | None = None) -> None:
        self.name = name
        self.max_size = max_size
        self.raw = raw  # raw_names(ReadOptions.names): Partial records, typed along these only
        self.done: list[Record | Partial] = []
        self.root: str | None = None
        self.depth = 0  # outside messages: elements open
        self.stack: list[str] = []  # outside messages: the open elements
        self.line_offset = 0  # expat's line + this = the document's line (expat resumed mid-document, after a prefix)
        self.resume_at: int | None = None  # a message starting at this byte index or after goes to the scanner (None: never)
        self.utf8 = True  # the document declares no encoding but UTF-8 (the scanner reads UTF-8 only)
        self.nested = 0  # inside a message: <message> elements open within it
        self.addresses: dict[str, list[str]] = {}  # address -> routing types (address-binding)
        self.queue_bindings: dict[str, tuple[str, str]] = {}  # queue -> (address, routing type)
        self.msg: Pending | None = None
        self.props: list[tuple[str, str, str | None]] = []  # the current message's properties
        self.in_body = False
        self.in_cdata = False
        self.cdata: list[str] = []
        # Attributes as one list (name, value, name, value ...) and names not interned: expat's
        # strings go to the handlers as they are, no dict or hash made for a property's three
        # attributes (a third of the handlers' cost). The few other elements make their dict.
        p = expat.ParserCreate(intern=None)
        p.ordered_attributes = True
        p.buffer_text = True
        p.buffer_size = BLOCK
        p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        p.XmlDeclHandler = self._declaration
        p.StartDoctypeDeclHandler = self._doctype
        p.EntityDeclHandler = self._entity
        p.ExternalEntityRefHandler = self._external
        p.StartElementHandler = self._start
        p.EndElementHandler = self._end
        p.CharacterDataHandler = None  # set inside a body only: the layout's white space elsewhere costs no call
        p.StartCdataSectionHandler = self._cdata_start
        p.EndCdataSectionHandler = self._cdata_end
        self.parser = p

    @property
    def line(self) -> int:
        return self.parser.CurrentLineNumber + self.line_offset

    def _declaration(self, version: str, encoding: str | None, standalone: int) -> None:
        self.utf8 = encoding is None or encoding.upper() == "UTF-8"

    # hostile XML
    def _refuse(self, what: str) -> None:
        raise RefusedXML(f"{self.name}:{self.line}: refused: the XML has {what}; "
                         "DTDs and entities are never read (they can expand without bound or read other files)")

    def _doctype(self, *_: Any) -> None:
        self._refuse("a DOCTYPE declaration")

    def _entity(self, *_: Any) -> None:  # pragma: no cover - the DOCTYPE is refused first
        self._refuse("an entity declaration")

    def _external(self, *_: Any) -> int:  # pragma: no cover - the DOCTYPE is refused first
        self._refuse("an external entity")
        return 0

    # structure, outside messages
    def _start(self, tag: str, attributes: list[str]) -> None:
        attrs = _dict(attributes)
        self.depth += 1
        if self.depth == 1:
            if tag not in (EXPORT_ROOT, CONSUMER_ROOT):
                raise InputError(f"{self.name}:{self.line}: not Artemis XML: the root element is <{tag}>, "
                                 f"not <{EXPORT_ROOT}> (artemis data exp) or <{CONSUMER_ROOT}> (artemis consumer --data)")
            self.root = tag
        elif tag == "message":
            p = self.parser
            if self.resume_at is not None and p.CurrentByteIndex >= self.resume_at and self.utf8 and tuple(self.stack) in _SCANNABLE:
                raise _Resume(p.CurrentByteIndex, self.line, p.CurrentColumnNumber)
            self.msg = Pending(self.line, attrs)
            self.props = self.msg.properties
            p.StartElementHandler = self._start_in
            p.EndElementHandler = self._end_in
            return
        self.stack.append(tag)
        if tag == "address-binding":
            self.addresses[attrs.get("name", "")] = attrs.get("routing-types", "").split(",")
        elif tag == "queue-binding":
            self.queue_bindings[attrs.get("name", "")] = (attrs.get("address", ""), attrs.get("routing-type", ""))

    def _end(self, tag: str) -> None:
        self.depth -= 1
        self.stack.pop()

    # inside a message: most elements are properties
    def _start_in(self, tag: str, attributes: list[str]) -> None:
        if tag == "property":
            if len(attributes) == 6 and attributes[0] == "name" and attributes[2] == "value" and attributes[4] == "type":
                self.props.append((attributes[1], attributes[3], attributes[5]))  # the exporter's order
            else:
                attrs = _dict(attributes)
                self.props.append((attrs.get("name", ""), attrs.get("value", ""), attrs.get("type")))
            return
        if tag == "queue":
            self.msg.queues.append(_dict(attributes).get("name", ""))  # type: ignore[union-attr]
        elif tag == "body":
            msg = self.msg
            msg.body_seen = True  # type: ignore[union-attr]
            msg.large = bool(attributes) and _dict(attributes).get("isLarge", "").lower() == "true"  # type: ignore[union-attr]
            self.in_body = True
            self.parser.CharacterDataHandler = self._chars
        elif tag == "message":
            self.nested += 1

    def _end_in(self, tag: str) -> None:
        if tag == "property":
            return
        if tag == "body":
            self.in_body = False
            self.parser.CharacterDataHandler = None
        elif tag == "message":
            if self.nested:
                self.nested -= 1
                return
            self.depth -= 1
            self.done.append(self._record(self.msg, self.root == EXPORT_ROOT))  # type: ignore[arg-type]
            self.msg = None
            self.parser.StartElementHandler = self._start
            self.parser.EndElementHandler = self._end

    def _chars(self, data: str) -> None:
        msg = self.msg
        if not self.in_body or msg is None or msg.oversized:
            return
        msg.size += len(data)
        if msg.size > self.max_size:
            msg.oversized, msg.sections, msg.text, self.cdata = True, [], [], []
            return
        (self.cdata if self.in_cdata else msg.text).append(data)

    def _cdata_start(self) -> None:
        if self.in_body:
            self.in_cdata = True
            self.cdata = []

    def _cdata_end(self) -> None:
        if self.in_body and self.msg is not None:
            self.in_cdata = False
            if not self.msg.oversized:
                self.msg.sections.append("".join(self.cdata))
            self.cdata = []

    def _record(self, msg: Pending, export: bool) -> Record | Partial:
        attrs = msg.attrs
        user_id = attrs.get("user-id")
        location = f"{self.name}:{msg.line}" if user_id is None else f"{self.name}:{msg.line} (ID:{user_id})"  # as fmtn-a's: position, then the id
        if self.raw is not None and not msg.oversized:
            try:
                view = build_view(msg, destination(self.queue_bindings, msg.queues), self.raw)
            except RecordError:
                pass  # the whole message's rejection, word for word (an earlier value may be the first wrong)
            else:
                return Partial(location, view, partial(self._whole, msg, export, location))
        return self._whole(msg, export, location)

    def _whole(self, msg: Pending, export: bool, location: str) -> Record:
        attrs = msg.attrs
        if msg.oversized:
            err = record_too_large(msg.size, self.max_size)
            return Record(location, None, None, RecordError("body", f"message id {attrs.get('id')}: {err.reason}"))
        try:
            return Record(location, None, build_message(msg, export, destination(self.queue_bindings, msg.queues)), None)
        except RecordError as exc:
            return Record(location, None, None, RecordError(exc.field, f"message id {attrs.get('id')}: {exc.reason}"))


def _dict(attributes: list[str]) -> dict[str, str]:
    """expat's ordered attributes as a dict (XML forbids a name twice: expat refuses it)."""
    pairs = iter(attributes)
    return dict(zip(pairs, pairs, strict=True))


def destination(queue_bindings: dict[str, tuple[str, str]], queues: list[str]) -> str | None:
    """The JMS destination: the address the message's first queue is bound to, ``queue://`` when
    that binding is ANYCAST, ``topic://`` when MULTICAST; no binding: the queue itself."""
    if not queues:
        return None
    address, routing = queue_bindings.get(queues[0], (queues[0], "ANYCAST"))
    return ("topic://" if routing.upper() == "MULTICAST" else "queue://") + address


def prolog(stream: IO[bytes], name: str) -> tuple[str, dict[str, tuple[str, str]]]:
    """The root element and the queue bindings, read up to the first message (a DOCTYPE or another
    root is refused as by ``read``): what a reader of the messages alone (Spark's) needs."""
    p = _Parser(name, 0)
    p.parser.StartElementHandler = _stop_at_message(p)
    try:
        while block := stream.read(BLOCK):
            p.parser.Parse(block, False)
    except _FirstMessage:
        pass
    except expat.ExpatError as exc:
        raise InputError(f"{name}:{exc.lineno}: the XML is broken before its first message: {expat.errors.messages[exc.code]}") from None
    if p.root is None:
        raise InputError(f"{name}: not Artemis XML: no root element")
    return p.root, p.queue_bindings


class _FirstMessage(Exception):
    pass


def _stop_at_message(p: _Parser) -> Any:
    def start(tag: str, attrs: list[str]) -> None:
        if tag == "message":
            raise _FirstMessage
        p._start(tag, attrs)
    return start


def read(stream: IO[bytes], name: str, max_record_size: int = 16 * 1024 * 1024, fast: bool = True,
         names: frozenset[str] | None = None, required: tuple[tuple[str, frozenset[str]], ...] = ()) -> Iterator[Record | Partial | Unread]:
    """Every ``<message>`` of the document, in order. A document that breaks off (truncated or
    malformed) gives every message before the break, then one rejected Record naming the break; a
    DOCTYPE or a root that is not Artemis's is an InputError (nothing read). ``fast=False``: expat
    reads every message (the reference the scanner is tested against). ``names``: a message whose
    headers and properties of these names type without an error comes as a ``Partial``; with
    ``required`` too (``ReadOptions.required``), a message the scanner proves holds none of a
    required value's texts comes as ``UNREAD``, its values neither decoded nor typed."""
    if names is None:
        return _Reader(stream, name, max_record_size, fast).records()
    from jmsctl.messages.formats import artemis_xml_scan as scan  # its patterns take a while to compile: not for a sniff

    groups = needles(required)
    unread = scan.unread_test(groups, max_record_size) if groups else None
    return _Reader(stream, name, max_record_size, fast, raw_names(names), unread).records()


_FROM_ATTRIBUTES = frozenset({"JMSPriority", "JMSTimestamp", "JMSExpiration", "JMSDestination", "JMSDeliveryMode", "JMSRedelivered"})
"""Headers made from a message's attributes or queues, or never exported: no property's text is their value."""


def needles(required: tuple[tuple[str, frozenset[str]], ...]) -> list[tuple[bytes, ...]]:
    """For each (name, strings) whose value is a property's text as written: the texts one of which
    a message must hold to be selected. JMSMessageID is ``ID:`` and the ``user-id`` attribute."""
    groups = []
    for name, strings in required:
        if name in _FROM_ATTRIBUTES:
            continue
        texts = [t[3:] if t.startswith("ID:") else t for t in strings] if name == "JMSMessageID" else strings
        groups.append(tuple(t.encode("utf-8", "surrogatepass") for t in texts))
    return groups


class _Resume(Exception):
    """expat met a message the scanner may read: where it starts in what expat was given."""

    def __init__(self, index: int, line: int, column: int) -> None:
        super().__init__(index)
        self.index, self.line, self.column = index, line, column


_SCANNABLE = {(EXPORT_ROOT, "messages"), (CONSUMER_ROOT,)}
"""Where the messages of both variants are: the scanner takes a message only there."""
_LIMIT = 1 << 20
"""The scanner holds at most this much text waiting for a ``</message>`` (a large body): past it, expat reads on."""
_MISS, _HIT, _GIVE_UP = 5, 2, 40
"""A message the scanner hands to expat costs about 2.5 times what one it reads saves (a new parser,
the failed match): each adds ``_MISS`` to a debt, each it reads takes ``_HIT`` off; at ``_GIVE_UP``
(8 misses in a row, or one every other message for a while) the document is not the exporter's
layout enough to pay, and expat reads the rest."""


class _Reader:
    """expat and the scanner taking turns over one document.

    expat reads the prolog; at a message where the scanner may go on, its handler raises _Resume and
    that parser is dropped. The scanner reads messages while they match; at one it cannot take, a
    fresh expat goes on from there, fed first the open elements (``<activemq-journal><messages>``)
    and as many spaces as the message's column, so that its line and column numbers are the
    document's once offset. Memory stays flat: the scanner holds at most ``_LIMIT`` of text, expat
    the last two blocks."""

    def __init__(self, stream: IO[bytes], name: str, max_size: int, fast: bool, raw: frozenset[str] | None = None, unread: Any = None) -> None:
        self.stream, self.name, self.max_size, self.raw = stream, name, max_size, raw
        self.fast = fast
        self.seen = 0
        self.buf = b""  # read, not yet taken: starts at (line, column)
        self.line = 1
        self.column = 0
        self.eof = False
        self.debt = 0
        self.p = _Parser(name, max_size, raw)
        self.unread = unread  # scan.unread_test: an exporter's message it proves not selected is UNREAD

    def records(self) -> Iterator[Record | Partial | Unread]:
        self.buf = self.stream.read(BLOCK)
        while 0 < len(self.buf) < 4:  # enough to tell UTF-16 (a stream may hand out less than asked)
            more = self.stream.read(BLOCK)
            if not more:
                break
            self.buf += more
        self.eof = not self.buf
        if self.buf[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in self.buf[:4]:  # UTF-16: expat's alone
            self.fast = False
        resumed = yield from self._expat(first=True)
        while resumed:
            yield from self._scan()
            resumed = yield from self._expat(first=False)
        if self.p.root is None and self.seen == 0:
            raise InputError(f"{self.name}: not Artemis XML: no root element")

    def _expat(self, first: bool) -> Generator[Record | Partial | Unread, None, bool]:
        """expat from ``buf`` on: True when it hands over to the scanner, False at the document's end or break."""
        old = self.p
        p = self.p = _Parser(self.name, self.max_size, self.raw)
        prefix = b""
        if not first:
            prefix = b"".join(b"<" + tag.encode() + b">" for tag in old.stack) + b"\n" + b" " * self.column
            p.line_offset = self.line - 2
            p.utf8, p.addresses, p.queue_bindings = old.utf8, old.addresses, old.queue_bindings
        take = self.fast and self.debt < _GIVE_UP
        threshold = len(prefix) + (0 if first else 1)  # not the message the scanner just left to expat
        window, window_at = prefix + self.buf, 0  # what was fed, from this index: where a message may be handed back
        parser = p.parser
        try:
            chunk = window
            while True:
                p.resume_at = max(threshold, window_at) if take else None
                parser.Parse(chunk, self.eof)
                if p.done:
                    self.seen += len(p.done)
                    yield from p.done
                    p.done.clear()
                if self.eof:
                    return False
                last = chunk
                chunk = self.stream.read(BLOCK)
                self.eof = not chunk
                window_at += len(window) - len(last)
                window = last + chunk
        except _Resume as here:
            yield from p.done
            self.seen += len(p.done)
            self.buf = window[here.index - window_at:]
            self.line, self.column = here.line, here.column
            return True
        except expat.ExpatError as exc:
            yield from p.done
            self.seen += len(p.done)
            yield _broken(self.name, exc, self.seen, p.line_offset)
            return False

    def _scan(self) -> Iterator[Record | Partial | Unread]:
        """Messages from ``buf`` while the scanner's patterns take them; returns at the first they do
        not, with ``buf``, ``line`` and ``column`` at that message's ``<``. The scanner reads bytes:
        what it matches is ASCII but for the values, which ``parts`` decodes."""
        from jmsctl.messages.formats import artemis_xml_scan as scan

        buf, line, column = self.buf, self.line, self.column
        p, exporter, full, parts, lines = self.p, scan.EXPORTER.match, scan.MESSAGE.match, scan.parts, scan.lines
        export = p.root == EXPORT_ROOT
        unread = self.unread
        while True:
            cut = buf.rfind(b"</message>")
            if cut < 0:
                if self.eof or len(buf) > _LIMIT:
                    break
                block = self.stream.read(BLOCK)
                self.eof = not block
                buf += block
                continue
            end = cut + 10
            crlf = buf.find(b"\r", 0, end) >= 0
            i = 0
            done: list[Record | Partial | Unread] = []
            while True:
                m = exporter(buf, i, end)
                if m is not None:
                    if unread is not None and unread(m):
                        j = m.end()
                        line += lines(buf, i, j) if crlf else buf.count(b"\n", i, j)
                        i = j
                        done.append(UNREAD)
                        continue
                    got = parts(m, self.max_size, True)
                else:
                    m = full(buf, i, end)
                    if m is None:
                        break
                    got = parts(m, self.max_size, False)
                if got is None:
                    break
                lt = m.start(1) - 8
                j = m.end()
                line += lines(buf, i, lt) if crlf else buf.count(b"\n", i, lt)
                msg = Pending(line, *got)
                line += lines(buf, lt, j) if crlf else buf.count(b"\n", lt, j)
                i = j
                done.append(p._record(msg, export))
            if i:
                self.debt = max(0, self.debt - _HIT * len(done))
                br = max(buf.rfind(b"\n", 0, i), buf.rfind(b"\r", 0, i))
                column = len(buf[br + 1:i].decode()) if br >= 0 else column + len(buf[:i].decode())  # characters, as expat counts
                buf = buf[i:]
                self.seen += len(done)
                yield from done
            if i < end:
                break
        # hand over at the first thing the scanner did not take, past the white space before it
        rest = buf.lstrip(b" \t\r\n")
        gap = buf[:len(buf) - len(rest)]
        if gap:
            breaks = lines(gap, 0, len(gap))
            line += breaks
            column = len(gap) - max(gap.rfind(b"\n"), gap.rfind(b"\r")) - 1 if breaks else column + len(gap)
        self.buf, self.line, self.column = rest, line, column
        self.debt += _MISS


def _broken(name: str, exc: expat.ExpatError, seen: int, line_offset: int = 0) -> Record:
    """The one rejected Record of a document that breaks off at ``exc``, after ``seen`` messages."""
    what = "the document ends before it is complete (truncated)" if _truncated(exc) else f"the XML is broken: {expat.errors.messages[exc.code]}"
    return Record(f"{name}:{exc.lineno + line_offset}", None, None, RecordError(
        "", f"{what} (column {exc.offset + 1}); the {seen} complete messages before it were read, nothing after it"))


def _truncated(exc: expat.ExpatError) -> bool:
    return exc.code in (expat.errors.codes[expat.errors.XML_ERROR_NO_ELEMENTS], expat.errors.codes[expat.errors.XML_ERROR_UNCLOSED_TOKEN],
                        expat.errors.codes[expat.errors.XML_ERROR_UNCLOSED_CDATA_SECTION], expat.errors.codes[expat.errors.XML_ERROR_PARTIAL_CHAR])


def _read(stream: IO[bytes], name: str, options: ReadOptions) -> Iterator[Record | Partial | Unread]:
    return read(stream, name, options.max_record_size, names=options.names, required=options.required)


FORMAT = Format(NAME, "Artemis XML export (artemis data exp, artemis consumer --data)", sniff, _read, _write, (".xml",))

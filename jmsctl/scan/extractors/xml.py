"""Selectors in XML: attributes and elements named selector / messageSelector / message-selector
(Spring ``<jms:listener selector>``, Mule ``<jms:selector expression>``, ActiveMQ
``<filteredDestination selector>``, EJB 2 ``<message-selector>``), EJB ``activation-config-property``
name/value pairs, Spring ``<property name="messageSelector" value=...>``, Artemis and ActiveMQ
``<filter string="..."/>``, and endpoint URIs with ``selector=`` in any attribute.

Parsed with expat, safely: a DOCTYPE with an internal subset (where entities are declared) is
refused, external DTDs and entities are never read, so no entity is ever expanded. expat finds the
elements; their raw text is then read from the file to map every character (``&apos;``,
``&#39;``, CDATA, attribute-value normalisation) back to its line and column.
"""

from __future__ import annotations

import re
from typing import Any
from xml.parsers import expat

from jmsctl.diagnostics import Diagnostic, Severity, Span
from jmsctl.scan.extractors import Extractor, uri
from jmsctl.scan.found import Found, Mapped, NotScanned

SELECTOR_NAMES = {"selector", "messageselector", "message-selector"}
# <filter string="..."/> (Artemis broker.xml), <selector string="..."/> (artemis-jms.xml), Mule <jms:selector expression="..."/>
_FILTER_ELEMENTS = {"filter", *SELECTOR_NAMES}
# WildFly messaging-activemq: <queue filter="...">, <divert filter="...">, <bridge filter="...">
_FILTER_ATTRIBUTE = {"queue", "core-queue", "divert", "bridge", "jms-queue"}
_DESTINATION_ATTRIBUTES = {"destination", "destination-name", "destinationname", "queue", "topic", "address"}
_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "apos": "'", "quot": '"'}
_REFERENCE = re.compile(r"&(#[0-9]+|#x[0-9A-Fa-f]+|[A-Za-z]+);|<!\[CDATA\[(.*?)\]\]>|<!--.*?-->|\r\n|[\t\n\r]", re.DOTALL)
_TAG = re.compile(r"<[^\s/>]+(?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*\s*/?>")


def decode(raw: str, at: int, attribute: bool) -> Mapped:
    """XML text (an attribute value or element content) with references and CDATA decoded;
    in an attribute, line ends and tabs are spaces (XML 1.0 section 3.3.3)."""
    parts: list[tuple[str, int, int]] = []
    pos = 0
    for m in _REFERENCE.finditer(raw):
        parts.extend((ch, at + i, at + i + 1) for i, ch in enumerate(raw[pos : m.start()], pos))
        whole = m.group()
        if m.group(1) is not None:
            ref = m.group(1)
            ch = chr(int(ref[2:], 16)) if ref.startswith("#x") else chr(int(ref[1:])) if ref.startswith("#") else _ENTITIES.get(ref, whole)
            parts.append((ch, at + m.start(), at + m.end()))
        elif m.group(2) is not None:
            start = m.start() + 9
            parts.extend((ch, at + i, at + i + 1) for i, ch in enumerate(m.group(2), start))
        elif whole.startswith("<!--"):
            pass
        else:
            parts.append((" " if attribute else ("\n" if whole[0] == "\r" else whole), at + m.start(), at + m.end()))
        pos = m.end()
    parts.extend((ch, at + i, at + i + 1) for i, ch in enumerate(raw[pos:], pos))
    return Mapped.build(parts)


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.data = text.encode("utf-8")
        self.ascii = len(self.data) == len(text)
        self.found: list[Found] = []
        self.stack: list[dict[str, Any]] = []
        self.parser = expat.ParserCreate("utf-8")  # the text is given as UTF-8 whatever the declaration says
        self.parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        self.parser.StartDoctypeDeclHandler = self._doctype
        self.parser.EntityDeclHandler = self._entity
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self._byte, self._char = 0, 0

    def offset(self, byte_index: int) -> int:
        if self.ascii:
            return byte_index
        if byte_index < self._byte:
            self._byte, self._char = 0, 0
        self._char += len(self.data[self._byte : byte_index].decode("utf-8", errors="replace"))
        self._byte = byte_index
        return self._char

    def _doctype(self, name: str, sysid: Any, pubid: Any, has_internal_subset: bool) -> None:
        if has_internal_subset:
            raise NotScanned(self._note("a DOCTYPE with an internal subset is refused (entities are never expanded)"))

    def _entity(self, *args: Any) -> None:
        raise NotScanned(self._note("entity declarations are refused"))

    def _note(self, why: str) -> Diagnostic:
        at = self.offset(self.parser.CurrentByteIndex)
        return Diagnostic("I002", Severity.INFO, f"not scanned: {why}", Span(at, at))

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        at = self.offset(self.parser.CurrentByteIndex)
        m = _TAG.match(self.text, at)
        tag_end = m.end() if m else at  # the tag is searched in place, not copied: a value may be megabytes of data
        local = name.rsplit(":", 1)[-1].lower()
        element = {"local": local, "attrs": attrs, "at": at, "content": tag_end, "children": 0,
                   "self_closing": self.text.startswith("/>", tag_end - 2, tag_end), "values": {}}
        if self.stack:
            self.stack[-1]["children"] += 1
        self.stack.append(element)
        for attr, value in attrs.items():
            attr_local = attr.rsplit(":", 1)[-1].lower()
            wanted = attr_local in SELECTOR_NAMES or (local in _FILTER_ELEMENTS and attr_local in ("string", "expression")) \
                or (local in _FILTER_ATTRIBUTE and attr_local == "filter") \
                or (local == "property" and attr_local == "value" and attrs.get("name", "").lower().endswith("selector"))
            has_uri = "selector=" in value.lower() and uri.OPTION.search(value) is not None
            if not (wanted or has_uri):
                continue
            mapped = self._attribute(at, tag_end, attr)
            if mapped is None:
                continue
            if wanted:
                self.found.append(Found((mapped,), mapped.starts[0] if mapped.text else at, at, f"<{local} {attr_local}>", literal=True,
                                        destination=self._destination(local, attrs)))
            else:
                self.found.extend(Found((s,), s.starts[0] if s.text else at, at, "endpoint URI", literal=True, destination=uri.destination(mapped.text)) for s in uri.selectors(mapped))

    def _destination(self, local: str, attrs: dict[str, str]) -> str:
        """The queue or topic a selector attribute filters: the element's own destination attribute
        (Spring ``<jms:listener destination>``), the name of a ``<queue filter>`` (WildFly), or of
        the queue around a ``<filter string>`` (Artemis broker.xml ``<queue name><filter/></queue>``)."""
        for key, value in attrs.items():
            if key.rsplit(":", 1)[-1].lower() in _DESTINATION_ATTRIBUTES:
                return value.strip()
        if local in _FILTER_ATTRIBUTE:
            return attrs.get("name", "").strip()
        if local in _FILTER_ELEMENTS and len(self.stack) >= 2 and self.stack[-2]["local"] in _FILTER_ATTRIBUTE:
            return str(self.stack[-2]["attrs"].get("name", "")).strip()
        return ""

    def _attribute(self, at: int, tag_end: int, attr: str) -> Mapped | None:
        m = re.compile(r"\s" + re.escape(attr) + r"\s*=\s*(\"([^\"]*)\"|'([^']*)')").search(self.text, at, tag_end)
        if m is None:
            return None
        group = 2 if m.group(2) is not None else 3
        return decode(m.group(group), m.start(group), attribute=True)

    def _end(self, name: str) -> None:
        element = self.stack.pop()
        if element["self_closing"]:
            return
        end = self.offset(self.parser.CurrentByteIndex)
        local = element["local"]
        content = (element["content"], end) if element["children"] == 0 else None  # decoded only when read: most text is no selector
        parent = self.stack[-1] if self.stack else None
        if content is not None and parent is not None:
            parent["values"][local] = content
        if content is not None and local in SELECTOR_NAMES and not element["attrs"]:
            self._add(self._content(content), element, f"<{local}>")
        elif local == "activation-config-property":
            key, value = element["values"].get("activation-config-property-name"), element["values"].get("activation-config-property-value")
            if key is not None and value is not None and self._content(key).text.strip().lower() == "messageselector":
                self._add(self._content(value), element, "<activation-config-property>")
        elif local == "property" and element["attrs"].get("name", "").lower().endswith("selector") and "value" in element["values"]:
            self._add(self._content(element["values"]["value"]), element, "<property>")

    def _content(self, span: tuple[int, int]) -> Mapped:
        start, end = span
        return decode(self.text[start:end], start, attribute=False)

    def _add(self, content: Mapped, element: dict[str, Any], kind: str) -> None:
        lead = len(content.text) - len(content.text.lstrip())
        trimmed = content.slice(lead, len(content.text.rstrip()))
        self.found.append(Found((trimmed,), trimmed.starts[0] if trimmed.text else element["at"], element["at"], kind, literal=True))


def extract(path: str, text: str) -> list[Found]:
    reader = _Reader(text)
    try:
        reader.parser.Parse(reader.data, True)
    except expat.ExpatError as exc:
        line_start = _line_start(text, exc.lineno)
        at = line_start + exc.offset
        raise NotScanned(Diagnostic("I002", Severity.INFO, f"not scanned: not well-formed XML ({expat.ErrorString(exc.code)})",
                                    Span(at, at))) from None
    return reader.found


def _line_start(text: str, line: int) -> int:
    pos = 0
    for _ in range(line - 1):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    return pos


EXTRACTOR = Extractor(
    name="xml",
    suffixes=(".xml",),
    trigger=re.compile(rb"[Ss]elector|SELECTOR|<(?:\w+:)?filter\b|\sfilter\s*="),
    extract=extract,
    words=(b"elect", b"ELECT", b"filter"),
)

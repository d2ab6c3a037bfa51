"""A ``<message>`` as Artemis's exporter lays it out, read by one regular expression instead of expat.

Why: expat alone costs more a message than the whole NDJSON loader (its bare parse, then pyexpat's
strings and lists for every tag and a Python call for each). Nearly every message of a real export
has one layout (XMLMessageExporter through PrettyPrintHandler: attributes in double quotes, then
``<properties>`` of ``<property name= value= type=/>``, ``<queues>``, ``<body>`` of base64 CDATA).

``MESSAGE`` accepts only well-formed XML of that layout: white space between the tags, attribute
values without ``<``, control characters or references other than the five named ones and
character numbers, CDATA of the base64 alphabet only. What it accepts, expat would read to the same
strings, because each string is the text between two quotes (no ``"`` can be inside) with its
references replaced. ``parts`` answers None for the few matches it cannot vouch for (a reference to
a character XML forbids, an attribute named twice, a body near the size limit); the reader gives
that message, and anything ``MESSAGE`` refuses (comments, other quoting or order, a DOCTYPE ...), to
expat, which words the error. tests/test_artemis_xml_scan.py holds the two readers to the same
Records on random and damaged documents.
"""

from __future__ import annotations

import re
from typing import Any

_WS = r"[ \t\r\n]*"
_CHARS = r'[^"<&\x00-\x1f\ufffe\uffff]*'  # XML forbids the C0 controls but for tab, LF and CR, which
# an attribute value turns into spaces: they are left to expat too
_VALUE = _CHARS + r"(?:&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);" + _CHARS + r")*"  # the loop unrolled: 3x faster than an alternation
_BASE64 = r"[A-Za-z0-9+/=_-]*"  # XmlDataExporterUtil: the standard and the URL-safe alphabet

MESSAGE = re.compile(
    _WS + r"<message((?:[ \t\r\n]+[a-z][a-z-]*=\"" + _VALUE + r'")*)' + _WS + r">"
    + r"(?:" + _WS + r"<properties>((?:" + _WS + r'<property name="' + _VALUE + r'" value="' + _VALUE + r'" type="[a-z-]+"/>)*)'
    + _WS + r"</properties>)?"
    + r"(?:" + _WS + r"<queues>((?:" + _WS + r'<queue name="' + _VALUE + r'"/>)*)' + _WS + r"</queues>)?"
    + r"(?:" + _WS + r'<body( isLarge="true")?>((?:' + _WS + r"<!\[CDATA\[" + _BASE64 + r"\]\]>)*" + _WS + r")</body>)?"
    + _WS + r"</message>"
)
"""Group 1: the message's attributes; 2: the properties; 3: the queues; 4: ``isLarge``; 5: the body's content."""

_REFERENCE = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


class _Forbidden(Exception):
    """A character reference to a character XML does not allow: expat's error to give."""


def _character(m: re.Match[str]) -> str:
    ref = m.group(1)
    if ref[0] != "#":
        return _NAMED[ref]
    n = int(ref[2:], 16) if ref[1] == "x" else int(ref[1:])
    if not (0x20 <= n <= 0xD7FF or n in (0x9, 0xA, 0xD) or 0xE000 <= n <= 0xFFFD or 0x10000 <= n <= 0x10FFFF):  # XML 1.0 Char
        raise _Forbidden
    return chr(n)


def _unescape(values: list[str]) -> list[str]:
    return [_REFERENCE.sub(_character, v) if "&" in v else v for v in values]


def parts(m: re.Match[str], max_size: int) -> tuple[dict[str, str], list[tuple[str, str, str | None]], list[str], bool, bool, list[str], list[str]] | None:
    """A match of ``MESSAGE`` as expat's handlers would have sorted it: the message's attributes, its
    properties (name, value, type), queues, whether it has a body and a large one, the body's CDATA
    sections and its other text. None: expat must read this message."""
    raw = m.group(1).split('"')  # [' id=', '7', ' type=', 'text', '']: no quote is inside a value
    keys = [k.lstrip(" \t\r\n")[:-1] for k in raw[0:-1:2]]
    values = raw[1::2]
    props_text = m.group(2)
    props: list[Any] = []
    queues: list[str] = []
    try:
        if "&" in m.group(1):
            values = _unescape(values)
        attrs = dict(zip(keys, values, strict=True))
        if len(attrs) != len(keys):  # an attribute named twice: not well-formed
            return None
        if props_text:
            fields = props_text.split('"')  # ['<property name=', N, ' value=', V, ' type=', T, '/>...', ...]
            names, texts = fields[1::6], fields[3::6]
            if "&" in props_text:
                names, texts = _unescape(names), _unescape(texts)
            props = list(zip(names, texts, fields[5::6]))
        queues_text = m.group(3)
        if queues_text:
            queues = queues_text.split('"')[1::2]
            if "&" in queues_text:
                queues = _unescape(queues)
    except _Forbidden:
        return None
    content = m.group(5)
    if content is None:
        return attrs, props, queues, False, False, [], []
    if len(content) > max_size:  # expat counts fewer characters (no markup); near the limit, it decides
        return None
    if "<" not in content:
        return attrs, props, queues, True, m.group(4) is not None, [], [content] if content else []
    sections = [piece[: piece.index("]]>")] for piece in content.split("<![CDATA[")[1:]]
    return attrs, props, queues, True, m.group(4) is not None, sections, []


def lines(text: str, start: int, end: int, crlf: bool) -> int:
    """The line breaks in ``text[start:end]`` as expat counts them (CR LF, CR and LF each one)."""
    if not crlf:
        return text.count("\n", start, end)
    return text.count("\n", start, end) + text.count("\r", start, end) - text.count("\r\n", start, end)

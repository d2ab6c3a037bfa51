"""A ``<message>`` as Artemis's exporter lays it out, read by one regular expression instead of expat.

Why: expat alone costs more a message than the whole NDJSON loader (its bare parse, then pyexpat's
strings and lists for every tag and a Python call for each). Nearly every message of a real export
has one layout (XMLMessageExporter through PrettyPrintHandler: attributes in double quotes, then
``<properties>`` of ``<property name= value= type=/>``, ``<queues>``, ``<body>`` of base64 CDATA).

The patterns accept only well-formed XML of that layout: white space between the tags, attribute
values without ``<``, control characters or references other than the five named ones and
character numbers, CDATA of the base64 alphabet only. What they accept, expat would read to the
same strings, because each string is the text between two quotes (no ``"`` can be inside) with its
references replaced. They read bytes: all they match is ASCII but for the values, which ``parts``
decodes as UTF-8 (and refuses as expat would). ``parts`` answers None for the few matches it cannot
vouch for (bad UTF-8, a reference to a character XML forbids, an attribute named twice, a body near
the size limit); the reader gives that message, and anything the patterns refuse (comments, other
quoting or order, a DOCTYPE ...), to expat, which words the error. tests/test_artemis_xml_scan.py
holds the two readers to the same Records on random and damaged documents.
"""

from __future__ import annotations

import re
import sys
from typing import Any

_MANY = rb"*+" if sys.version_info >= (3, 11) else rb"*"  # possessive: sre keeps no backtracking state, 15 % fewer instructions
_WS = rb"[ \t\r\n]" + _MANY
_CHARS = rb'[^"<&\x00-\x1f]' + _MANY  # XML forbids the C0 controls but for tab, LF and CR, which an
# attribute value turns into spaces: they are left to expat too; bytes from 0x80 are checked as UTF-8 once decoded
_VALUE = _CHARS + rb"(?:&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);" + _CHARS + rb")" + _MANY  # the loop unrolled;
# possessive, the group costs nothing when no reference is there
_BASE64 = rb"[A-Za-z0-9+/=_-]" + _MANY  # XmlDataExporterUtil: the standard and the URL-safe alphabet


def _message(head: bytes, value: bytes) -> re.Pattern[bytes]:
    return re.compile(
        _WS + rb"<message(" + head + rb")" + _WS + rb">"
        + rb"(?:" + _WS + rb"<properties>((?:" + _WS + rb'<property name="' + value + rb'" value="' + value + rb'" type="[a-z-]+"/>)'
        + _MANY + rb")" + _WS + rb"</properties>)?"
        + rb"(?:" + _WS + rb"<queues>((?:" + _WS + rb'<queue name="' + value + rb'"/>)' + _MANY + rb")" + _WS + rb"</queues>)?"
        + rb"(?:" + _WS + rb'<body( isLarge="true")?>(' + _WS + rb"<!\[CDATA\[(" + _BASE64 + rb")\]\]>" + _WS
        + rb"|(?:" + _WS + rb"<!\[CDATA\[" + _BASE64 + rb"\]\]>)" + _MANY + _WS + rb")</body>)?"
        + _WS + rb"</message>"
    )


_EXPORTER_ATTRIBUTES = ("id", "priority", "expiration", "timestamp", "type", "user-id")
EXPORTER = _message(b"".join(b" " + a.encode() + b'="' + _VALUE + b'"' for a in _EXPORTER_ATTRIBUTES[:5])
                    + b'(?: user-id="' + _VALUE + b'")?', _VALUE)
"""A message as XMLMessageExporter writes it: the attributes in its order, so named by position.
Groups: 1 the message's attributes; 2 the properties; 3 the queues; 4 ``isLarge``; 5 the body's content;
6 its CDATA when it is the only one (as most are)."""
MESSAGE = _message(rb'(?:[ \t\r\n]+[a-z][a-z-]*="' + _VALUE + rb'")*', _VALUE)
"""The same layout with the message's attributes in any order."""

_REFERENCE = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


class _Forbidden(Exception):
    """A character XML does not allow (as a reference or as UTF-8): expat's error to give."""


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


def _text(raw: bytes) -> str:
    """A group's bytes as text: only its values can hold bytes from 0x80, each a whole UTF-8 character XML allows."""
    if raw.isascii():
        return raw.decode("ascii")
    try:
        text = raw.decode()
    except UnicodeDecodeError:
        raise _Forbidden from None
    if "\ufffe" in text or "\uffff" in text:
        raise _Forbidden
    return text


def parts(m: re.Match[bytes], max_size: int, exporter: bool) -> tuple[dict[str, str], list[tuple[str, str, str | None]], list[str], bool, bool, list[str], list[str]] | None:
    """A match of ``EXPORTER`` (``exporter``) or ``MESSAGE`` as expat's handlers would have sorted
    it: the message's attributes, its properties (name, value, type), queues, whether it has a body
    and a large one, the body's CDATA sections and its other text. None: expat must read this message."""
    props: list[Any] = []
    queues: list[str] = []
    try:
        head = _text(m.group(1))
        raw = head.split('"')  # [' id=', '7', ' type=', 'text', '']: no quote is inside a value
        values = raw[1::2]
        if "&" in head:
            values = _unescape(values)
        if exporter:
            attrs = dict(zip(_EXPORTER_ATTRIBUTES, values, strict=False))  # user-id is optional
        else:
            keys = [k.lstrip(" \t\r\n")[:-1] for k in raw[0:-1:2]]
            attrs = dict(zip(keys, values, strict=True))
            if len(attrs) != len(keys):  # an attribute named twice: not well-formed
                return None
        props_raw = m.group(2)
        if props_raw:
            fields = _text(props_raw).split('"')  # ['<property name=', N, ' value=', V, ' type=', T, '/>...', ...]
            names, texts = fields[1::6], fields[3::6]
            if b"&" in props_raw:
                names, texts = _unescape(names), _unescape(texts)
            props = list(zip(names, texts, fields[5::6], strict=True))
        queues_raw = m.group(3)
        if queues_raw:
            queues = _text(queues_raw).split('"')[1::2]
            if b"&" in queues_raw:
                queues = _unescape(queues)
    except _Forbidden:
        return None
    start, end = m.span(5)
    if start < 0:
        return attrs, props, queues, False, False, [], []
    if end - start > max_size:  # expat counts fewer characters (no markup); near the limit, it decides
        return None
    single = m.group(6)
    if single is not None:
        return attrs, props, queues, True, m.group(4) is not None, [single.decode("ascii")], []
    body = m.group(5).decode("ascii")  # base64 and white space
    if "<" not in body:
        return attrs, props, queues, True, m.group(4) is not None, [], [body] if body else []
    sections = [piece[: piece.index("]]>")] for piece in body.split("<![CDATA[")[1:]]
    return attrs, props, queues, True, m.group(4) is not None, sections, []


def unread_test(groups: list[tuple[bytes, ...]], max_size: int) -> Any:
    """A test of an ``EXPORTER`` match: True when the message need not be read at all, because some
    group has none of its needles in the message's bytes (a value the selector needs is not there:
    with no reference in the message, each value's text is its bytes) and ``parts`` would take it
    (valid UTF-8 without U+FFFE or U+FFFF, no reference, not near the size limit): skipping it hides
    no error of the document's."""

    def unread(m: re.Match[bytes]) -> bool:
        region = m.group(0)
        for needles in groups:
            for needle in needles:
                if needle in region:
                    break
            else:
                break  # a group with no needle there
        else:
            return False
        if b"&" in region or len(region) > max_size:
            return False
        if region.isascii():
            return True
        try:
            text = region.decode()
        except UnicodeDecodeError:
            return False
        return "\ufffe" not in text and "\uffff" not in text

    return unread


def lines(text: bytes, start: int, end: int) -> int:
    """The line breaks in ``text[start:end]`` as expat counts them (CR LF, CR and LF each one)."""
    return text.count(b"\n", start, end) + text.count(b"\r", start, end) - text.count(b"\r\n", start, end)

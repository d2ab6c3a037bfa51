"""Endpoint URIs with a selector option (Camel ``jms:queue:orders?selector=...``, Spring Integration,
ActiveMQ ``consumer.selector``): the option's value, URL-decoded, each character mapped back.

Not a file type of its own: the other extractors hand it the strings they find (a Java literal, an
XML attribute, a properties value), already decoded one layer, and the two mappings compose. Camel
decodes query values as ``application/x-www-form-urlencoded`` (``+`` is a space, ``%XX`` UTF-8 bytes)
except inside ``RAW(...)`` (camel-util URISupport.parseQuery).
"""

from __future__ import annotations

import re

from jmsctl.scan.found import Mapped

OPTION = re.compile(r"[?&]((?:[\w-]+\.)?(?:message)?selector)=", re.IGNORECASE)
_PERCENT = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def selectors(value: Mapped) -> list[Mapped]:
    """The decoded values of every selector option in a URI-like string (usually none or one)."""
    out = []
    for m in OPTION.finditer(value.text):
        start = m.end()
        if value.text.startswith("RAW(", start):
            close = value.text.find(")", start + 4)
            end = close if close >= 0 else len(value.text)
            out.append(value.slice(start + 4, end))
            continue
        amp = value.text.find("&", start)
        end = amp if amp >= 0 else len(value.text)
        out.append(value.slice(start, end).then(url_decode))
    return out


_PATH = re.compile(r"[A-Za-z][\w+.-]*:(?://)?(?:(?:queue|topic|temp-queue|temp-topic):(?://)?)?([^?&#]+)\?")


def destination(text: str) -> str:
    """The queue or topic an endpoint URI names (``jms:queue:orders?selector=...`` -> ``orders``), or ''."""
    m = _PATH.search(text)
    return m.group(1).strip() if m else ""


def url_decode(text: str) -> list[tuple[str, int, int]]:
    """Pieces (decoded text, start, end) of form-URL-encoded text: '+' is a space; a run of %XX is
    decoded as UTF-8 (each character mapped to its own escapes when they can be told apart)."""
    pieces: list[tuple[str, int, int]] = []
    pos = 0
    for m in _PERCENT.finditer(text):
        pieces.extend(_plain(text, pos, m.start()))
        raw = bytes(int(m.group()[i + 1 : i + 3], 16) for i in range(0, len(m.group()), 3))
        i = 0
        while i < len(raw):
            length = _utf8_length(raw[i])
            chunk = raw[i : i + length]
            chars = chunk.decode("utf-8", errors="replace")
            pieces.append((chars, m.start() + 3 * i, m.start() + 3 * (i + len(chunk))))
            i += max(1, len(chunk))
        pos = m.end()
    pieces.extend(_plain(text, pos, len(text)))
    return pieces


def _plain(text: str, start: int, end: int) -> list[tuple[str, int, int]]:
    return [(" " if ch == "+" else ch, i, i + 1) for i, ch in enumerate(text[start:end], start)]


def _utf8_length(lead: int) -> int:
    return 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4

"""Selectors in Java ``.properties`` files: keys ending in ``selector`` (``jms.selector``,
``consumer.messageSelector``, ``app.message-selector``), and endpoint URIs with ``selector=`` in
any value. Read as java.util.Properties.load reads: logical lines joined at an odd number of
trailing backslashes, key ended by '=', ':' or white space, escapes (\\uXXXX, \\t, \\n, ...)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from jmsctl.scan.extractors import Extractor, selector_key, uri
from jmsctl.scan.found import Found, Mapped

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|.)", re.DOTALL)


def _logical_lines(text: str) -> list[list[tuple[str, int]]]:
    """Each logical line as (physical part, its file offset) pairs; continuation parts lose their
    leading white space, as Properties.load does."""
    out: list[list[tuple[str, int]]] = []
    current: list[tuple[str, int]] = []
    for body, start in _lines(text):
        if current:
            stripped = body.lstrip(" \t\f")
            start += len(body) - len(stripped)
            body = stripped
        elif not body.strip() or body.lstrip(" \t\f")[:1] in ("#", "!"):
            continue
        trailing = len(body) - len(body.rstrip("\\"))
        if trailing % 2 == 1:
            current.append((body[:-1], start))
            continue
        current.append((body, start))
        out.append(current)
        current = []
    if current:
        out.append(current)
    return out


_LINE_END = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # str.splitlines's line ends


def _lines(text: str) -> Iterator[tuple[str, int]]:
    """Each line as ``text.splitlines()`` cuts them, without a CR or LF ending it, and its offset;
    sliced one at a time (a list of every line would copy the whole file once more)."""
    pos = 0
    for m in _LINE_END.finditer(text):
        yield text[pos : m.start() if m.group() in ("\r\n", "\r", "\n") else m.end()], pos
        pos = m.end()
    if pos < len(text):
        yield text[pos:], pos


def _decode(parts: list[tuple[str, int]]) -> Mapped:
    pieces: list[tuple[str, int, int]] = []
    for body, at in parts:
        pos = 0
        for m in _ESCAPE.finditer(body):
            pieces.extend((ch, at + i, at + i + 1) for i, ch in enumerate(body[pos : m.start()], pos))
            e = m.group(1)
            ch = chr(int(e[1:], 16)) if len(e) == 5 and e[0] == "u" else _ESCAPES.get(e, e)
            pieces.append((ch, at + m.start(), at + m.end()))
            pos = m.end()
        pieces.extend((ch, at + i, at + i + 1) for i, ch in enumerate(body[pos:], pos))
    return Mapped.build(pieces)


_MAY_BE_SELECTOR = re.compile(r"\\u|" + r"\\*".join("selector"), re.IGNORECASE)
"""'selector' in any case, backslashes anywhere in it (``sel\\ector`` is read 'selector'), or a
\\u escape, which may spell any letter."""


def _may_hold_selector(parts: list[tuple[str, int]]) -> bool:
    """Whether a logical line may have a selector key or a URI selector option (searched in place:
    a long line of data is not copied)."""
    if len(parts) == 1:
        return _MAY_BE_SELECTOR.search(parts[0][0]) is not None
    return _MAY_BE_SELECTOR.search("".join(body for body, _ in parts)) is not None


def _split(line: Mapped) -> tuple[str, Mapped]:
    """Key and value: the key ends at the first unescaped '=', ':' or white space (escapes are
    already decoded: an escaped separator is told apart by its two-character source)."""
    t = line.text
    i = len(t) - len(t.lstrip(" \t\f"))
    start = i
    while i < len(t) and not (t[i] in "=: \t\f" and line.ends[i] - line.starts[i] == 1):
        i += 1
    key = t[start:i]
    while i < len(t) and t[i] in " \t\f":
        i += 1
    if i < len(t) and t[i] in "=:" and line.ends[i] - line.starts[i] == 1:
        i += 1
        while i < len(t) and t[i] in " \t\f":
            i += 1
    return key, line.slice(i, len(t))


def extract(path: str, text: str) -> list[Found]:
    found: list[Found] = []
    for parts in _logical_lines(text):
        if not _may_hold_selector(parts):
            continue  # not decoded: a long value of data would cost a tuple per character
        line = _decode(parts)
        key, value = _split(line)
        at = value.starts[0] if value.text else parts[0][1]
        if selector_key(key):
            trimmed = value.slice(0, len(value.text.rstrip()))
            found.append(Found((trimmed,), at, at, f"property {key}", literal=True))
        elif uri.OPTION.search(value.text):
            found.extend(Found((s,), s.starts[0] if s.text else at, at, "endpoint URI", literal=True, destination=uri.destination(value.text)) for s in uri.selectors(value))
    return found


EXTRACTOR = Extractor(name="properties", suffixes=(".properties",), trigger=re.compile(rb"[Ss]elector|SELECTOR"), extract=extract)

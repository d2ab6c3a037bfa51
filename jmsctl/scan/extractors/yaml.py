"""Selectors in YAML (Spring Boot ``application.yml``, Helm values, Camel K routes): mapping keys
ending in ``selector`` (``selector:``, ``messageSelector:``, ``message-selector:``) and endpoint URIs
with ``selector=`` in any value. Scalars: plain, 'single-quoted' (''), "double-quoted" (backslash
escapes) and block scalars (| literal, > folded), read line by line (YAML 1.2 chapters 7-8) so
that every character keeps its position; no YAML library needed, no tags or anchors followed."""

from __future__ import annotations

import re

from jmsctl.scan.extractors import Extractor, selector_key, uri
from jmsctl.scan.found import Found, Mapped

_KEY = re.compile(r"""^(?P<indent>[ ]*)(?:-[ ]+)*(?P<key>"[^"\n]*"|'[^'\n]*'|[^\s#'"{\[][^:#\n]*?)[ ]*:(?:[ ]+|$)(?P<value>.*)$""")
_STR_TAG = re.compile(r"!!str[ \t]+")
# A key and its scalar inside a flow mapping on one line: {selector: "a <> 1", destination: q}
_FLOW_PAIR = re.compile(r"""[{,][ \t]*(?P<key>"[^"\n]*"|'[^'\n]*'|[^\s'"{}\[\],:#][^{}\[\],:#\n]*?)[ \t]*:[ \t]+"""
                        r"""(?P<value>"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'|[^\s,{}\[\]#][^,{}\[\]\n]*?)[ \t]*(?=[,}])""")
_DQ_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "\\": "\\", "/": "/", " ": " ", "e": "\x1b"}
_DQ_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")


def _scalar(value: str, at: int, lines: list[tuple[str, int]], index: int, indent: int) -> Mapped | None:
    """The scalar starting at ``value`` (file offset ``at``), on line ``index``; a plain or quoted
    scalar may go on over more-indented lines (folded: each line break is one space)."""
    tag = _STR_TAG.match(value)
    if tag is not None:  # !!str: the scalar after it is a string, as without the tag
        value, at = value[tag.end() :], at + tag.end()
    if value[:1] in ("{", "[", "&", "*", "!"):
        return None  # a flow collection, an anchor, an alias or a tag: not a selector string
    if value[:1] in ("|", ">"):
        return _block(value[0] == "|", lines, index, indent)
    quote = value[0] if value[:1] in ("'", '"') else None
    if quote is None:
        value = re.split(r"[ \t]#", value, maxsplit=1)[0].rstrip()
        if not value:
            return None
    raw = _folded(value, at, lines, index, indent, quote)
    if quote == '"':
        return raw.then(_double)
    if quote == "'":
        return raw.then(_single)
    return raw


def _closes(text: str, quote: str, start: int) -> bool:
    i = start
    while i < len(text):
        if quote == '"' and text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            if quote == "'" and text.startswith("''", i):
                i += 2
                continue
            return True
        i += 1
    return False


def _folded(value: str, at: int, lines: list[tuple[str, int]], index: int, indent: int, quote: str | None) -> Mapped:
    """The scalar's raw text over its lines: the continuation lines (indented deeper than the key)
    without their indentation, joined by a space standing for the line break."""
    parts = [Mapped.verbatim(value, at)]
    if quote is None or not _closes(value, quote, 1):
        for line, offset in lines[index + 1 :]:
            stripped = line.lstrip(" \t")
            own = len(line) - len(stripped)
            if not stripped or own <= indent or (quote is None and (stripped.startswith("#") or _KEY.match(line))):
                break
            text = re.split(r"[ \t]#", stripped, maxsplit=1)[0].rstrip() if quote is None else stripped.rstrip()
            previous = parts[-1]
            parts.append(Mapped(" ", (previous.ends[-1] if previous.text else offset,), (offset,)))
            parts.append(Mapped.verbatim(text, offset + own))
            if quote is not None and _closes(text, quote, 0):
                break
    if len(parts) == 1:
        return parts[0]
    return Mapped("".join(p.text for p in parts), sum((p.starts for p in parts), ()), sum((p.ends for p in parts), ()))


def _single(raw: str) -> list[tuple[str, int, int]]:
    """'...' with '' for a quote; offsets in ``raw`` (which starts with the opening quote)."""
    out, i = [], 1
    while i < len(raw):
        if raw.startswith("''", i):
            out.append(("'", i, i + 2))
            i += 2
        elif raw[i] == "'":
            break
        else:
            out.append((raw[i], i, i + 1))
            i += 1
    return out


def _double(raw: str) -> list[tuple[str, int, int]]:
    """"..." with backslash escapes; offsets in ``raw``."""
    out: list[tuple[str, int, int]] = []
    i = 1
    while i < len(raw) and raw[i] != '"':
        m = _DQ_ESCAPE.match(raw, i)
        if m is not None:
            e = m.group(1)
            ch = chr(int(e[1:], 16)) if e[0] in "xuU" and len(e) > 1 else _DQ_ESCAPES.get(e, e)
            out.append((ch, i, m.end()))
            i = m.end()
        else:
            out.append((raw[i], i, i + 1))
            i += 1
    return out


def _block(literal: bool, lines: list[tuple[str, int]], index: int, indent: int) -> Mapped | None:
    """The lines after the indicator indented deeper than the key; folded: lines joined by spaces."""
    body: list[tuple[str, int]] = []
    block_indent = None
    for line, at in lines[index + 1 :]:
        if not line.strip():
            body.append(("", at))
            continue
        own = len(line) - len(line.lstrip(" "))
        if own <= indent:
            break
        block_indent = own if block_indent is None else block_indent
        body.append((line[block_indent:], at + block_indent))
    while body and not body[-1][0]:
        body.pop()
    if not body:
        return None
    pieces: list[tuple[str, int, int]] = []
    for k, (text, at) in enumerate(body):
        pieces.extend((ch, at + i, at + i + 1) for i, ch in enumerate(text))
        if k + 1 < len(body):
            pieces.append(("\n" if literal or not text else " ", at + len(text), at + len(text) + 1))
    return Mapped.build(pieces)


def extract(path: str, text: str) -> list[Found]:
    lines: list[tuple[str, int]] = []
    pos = 0
    for raw in text.splitlines(keepends=True):
        lines.append((raw.rstrip("\r\n"), pos))
        pos += len(raw)
    found: list[Found] = []
    for index, (line, at) in enumerate(lines):
        if "{" in line:
            found.extend(_flow(line, at))
        m = _KEY.match(line)
        if m is None:
            continue
        key = m.group("key").strip("\"'")
        if "{" in key or "[" in key:
            continue  # '- {selector: ...}': a flow mapping, read by _flow
        value_at = at + m.start("value")
        is_selector = selector_key(key)
        if not is_selector and "selector=" not in m.group("value").lower():
            continue
        value = _scalar(m.group("value"), value_at, lines, index, len(m.group("indent")))
        if value is None:
            continue
        if is_selector:
            found.append(Found((value,), value.starts[0] if value.text else value_at, value_at, f"YAML key {key}", literal=True))
        else:
            found.extend(Found((s,), s.starts[0] if s.text else value_at, value_at, "endpoint URI", literal=True, destination=uri.destination(value.text)) for s in uri.selectors(value))
    return found


def _flow(line: str, at: int) -> list[Found]:
    """Selector keys inside a one-line flow mapping (``{selector: "a <> 1"}``): plain, '...' or "..."."""
    out = []
    for m in _FLOW_PAIR.finditer(line):
        key = m.group("key").strip("\"'")
        if not selector_key(key):
            continue
        raw, start = m.group("value"), at + m.start("value")
        tag = _STR_TAG.match(raw)
        if tag is not None:
            raw, start = raw[tag.end() :], start + tag.end()
        value = Mapped.verbatim(raw, start)
        value = value.then(_double) if raw.startswith('"') else value.then(_single) if raw.startswith("'") else value
        out.append(Found((value,), value.starts[0] if value.text else start, start, f"YAML key {key}", literal=True,
                         destination=_sibling(line, m.start(), "destination")))
    return out


def _sibling(line: str, at: int, name: str) -> str:
    """The plain or quoted scalar of key ``name`` in the flow mapping around ``at`` ('' if none)."""
    start, end = line.rfind("{", 0, at + 1), line.find("}", at)
    for m in _FLOW_PAIR.finditer(line, max(start, 0), end + 1 if end >= 0 else len(line)):
        if m.group("key").strip("\"'") == name:
            return m.group("value").strip("\"'")
    return ""


EXTRACTOR = Extractor(name="yaml", suffixes=(".yml", ".yaml"), trigger=re.compile(rb"[Ss]elector|SELECTOR"), extract=extract)

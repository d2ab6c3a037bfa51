"""Selectors in Python: stomp.py ``conn.subscribe(..., headers={"selector": ...})`` (or the
``selector=`` keyword header), qpid-proton ``Selector("...")`` (proton.reactor) and any
``"selector": value`` dict entry or ``selector=value`` keyword argument. Python's own tokenizer
finds the strings; their escapes are decoded here with each character mapped (the file is never
evaluated). f-strings' replacement fields are holes."""

from __future__ import annotations

import io
import re
import tokenize

from jmsctl.scan.extractors import Extractor
from jmsctl.scan.found import Found, Hole, Mapped, Piece, join

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b", "0": "\0", "\\": "\\", "'": "'", '"': '"', "\n": ""}
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[0-7]{1,3}|N\{[^}]*\}|.)", re.DOTALL)
_FIELD = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
_PREFIX = re.compile(r"^([rRbBuUfF]*)('''|\"\"\"|'|\")")


def _string(tok: str, at: int) -> list[Piece]:
    m = _PREFIX.match(tok)
    if m is None:
        return [Hole(at, at + len(tok), tok)]
    prefix, quote = m.group(1).lower(), m.group(2)
    start = m.end()
    body = tok[start : len(tok) - len(quote)]
    at += start
    raw, fstring = "r" in prefix, "f" in prefix
    pieces: list[Piece] = []
    pos = 0
    if fstring:
        for f in _FIELD.finditer(body):
            pieces.append(_plain(body[pos : f.start()], at + pos, raw))
            if f.group() in ("{{", "}}"):
                pieces.append(Mapped.build([(f.group()[0], at + f.start(), at + f.end())]))
            else:
                pieces.append(Hole(at + f.start(), at + f.end(), f.group()))
            pos = f.end()
    pieces.append(_plain(body[pos:], at + pos, raw))
    return pieces


def _plain(body: str, at: int, raw: bool) -> Mapped:
    if raw:
        return Mapped.verbatim(body, at)
    parts: list[tuple[str, int, int]] = []
    pos = 0
    for m in _ESCAPE.finditer(body):
        parts.extend((ch, at + i, at + i + 1) for i, ch in enumerate(body[pos : m.start()], pos))
        e = m.group(1)
        if e[0] in "xuU" and len(e) > 1:
            ch = chr(int(e[1:], 16))
        elif e[0] in "01234567":
            ch = chr(int(e, 8))
        elif e[0] == "N" and len(e) > 1:
            import unicodedata

            try:
                ch = unicodedata.lookup(e[2:-1])
            except KeyError:
                ch = m.group()
        else:
            ch = _ESCAPES.get(e, m.group())
        parts.append((ch, at + m.start(), at + m.end()))
        pos = m.end()
    parts.extend((ch, at + i, at + i + 1) for i, ch in enumerate(body[pos:], pos))
    return Mapped.build(parts)


# 'selector' means many things in Python (scrapy and parsel's Selector, the selectors module, CSS):
# read only in a file that uses a messaging client.
MESSAGING = re.compile(r"stomp|proton|qpid|activemq|artemis|jms", re.IGNORECASE)


def extract(path: str, text: str) -> list[Found]:
    if MESSAGING.search(text) is None:
        return []
    line_starts = [0]  # tokenize's lines end at '\n' only (a form feed or a lone '\r' does not end one)
    pos = text.find("\n")
    while pos >= 0:
        line_starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    try:
        toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []

    def offset(pos: tuple[int, int]) -> int:
        return line_starts[pos[0] - 1] + pos[1]

    found: list[Found] = []
    for i, t in enumerate(toks):
        start = None
        kind = ""
        if t.type == tokenize.STRING and i + 1 < len(toks) and toks[i + 1].string == ":" \
                and _string(t.string, 0) and _key(t.string) == "selector" and (i == 0 or toks[i - 1].string in ("{", ",")):
            start, kind = i + 2, "'selector' header"
        elif t.type == tokenize.NAME and t.string == "selector" and i + 1 < len(toks) and toks[i + 1].string == "=" \
                and i > 0 and toks[i - 1].string in ("(", ","):
            start, kind = i + 2, "selector= argument"
        elif t.type == tokenize.NAME and t.string == "Selector" and i + 1 < len(toks) and toks[i + 1].string == "(":
            start, kind = i + 2, "proton Selector"  # Selector(value, name='selector'): the first argument
            if start + 1 < len(toks) and toks[start].type == tokenize.NAME and toks[start + 1].string == "=":
                if toks[start].string != "value":
                    continue
                start += 2
        if start is None:
            continue
        pieces: list[Piece] = []
        j = start
        depth = 0
        while j < len(toks):
            s = toks[j]
            if depth == 0 and s.string in (",", ")", "}", "]"):
                break
            if s.string in ("(", "[", "{"):
                depth += 1
            elif s.string in (")", "]", "}"):
                depth -= 1
            if s.type == tokenize.STRING and depth == 0:
                pieces.extend(_string(s.string, offset(s.start)))
            elif s.string != "+" or depth:
                pieces.append(Hole(offset(s.start), offset(s.end), s.string))
            j += 1
        if j == start or (j == start + 1 and toks[start].string == "None"):
            continue
        joined = join(pieces)
        # One plain string token, all of it: what 'scan --fix' may rewrite (not an f-string, bytes or a concatenation).
        literal = (j == start + 1 and toks[start].type == tokenize.STRING and len(joined) == 1 and isinstance(joined[0], Mapped)
                   and not set(_PREFIX.match(toks[start].string).group(1).lower()) & set("fbt"))  # type: ignore[union-attr]
        found.append(Found(joined, offset(toks[start].start), offset(toks[j - 1].end), kind, resolves=False, literal=literal,  # Python fills no ${...}
                           destination=_destination(toks, i)))
    return found


def _destination(toks: list[tokenize.TokenInfo], i: int) -> str:
    """The ``destination="/queue/orders"`` keyword of the call the selector is given to
    (stomp.py's ``conn.subscribe(destination=..., headers={"selector": ...})``), or ''."""
    depth, k = 0, i - 1
    while k >= 0:  # back to the '(' of the enclosing call
        text = toks[k].string
        if text in (")", "]", "}"):
            depth += 1
        elif text in ("(", "[", "{"):
            if depth == 0 and text == "(":
                break
            depth = max(0, depth - 1)
        k -= 1
    if k < 0:
        return ""
    if k >= 1 and toks[k - 1].string == "subscribe" and k + 2 < len(toks) and toks[k + 1].type == tokenize.STRING and toks[k + 2].string == ",":
        pieces = _string(toks[k + 1].string, 0)  # stomp.py subscribe(destination, id, ...): the first argument
        return pieces[0].text if len(pieces) == 1 and isinstance(pieces[0], Mapped) else ""
    depth = 0
    for j in range(k + 1, len(toks) - 2):
        text = toks[j].string
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and text == "destination" and toks[j + 1].string == "=" and toks[j + 2].type == tokenize.STRING:
            pieces = _string(toks[j + 2].string, 0)
            return pieces[0].text if len(pieces) == 1 and isinstance(pieces[0], Mapped) else ""
    return ""


def _key(tok: str) -> str:
    m = _PREFIX.match(tok)
    return tok[m.end() : len(tok) - len(m.group(2))].lower() if m else ""


EXTRACTOR = Extractor(name="python", suffixes=(".py",), trigger=re.compile(rb"[Ss]elector"), extract=extract,
                      context=MESSAGING, keep=(b"stomp", b"proton", b"qpid", b"mq", b"artemis", b"jms"))

"""Tokens of Java, Kotlin, Scala and Groovy, enough to find calls, annotations and constants; and
their string literals decoded with every character mapped to the file (Found's ``Mapped``).

Literal forms (JLS 3.10.5-3.10.7; Kotlin, Scala and Groovy references): "..." with backslash
escapes (\\uXXXX, octal, \\s); Java text blocks (incidental indentation and trailing spaces
stripped, then escapes); triple-quoted raw strings of Kotlin, Scala and Groovy; Groovy '...' and
'''...'''. Templates are holes: Kotlin "$x" and "${...}", Groovy GStrings, Scala s"" / f"".
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from jmsctl.scan.found import Hole, Mapped, Piece

# A literal's body is one run of plain characters, then escapes each followed by another run, each
# repetition possessive (Python 3.11): a plain ``(?:[^"\\]|\\.)*`` keeps a backtracking entry per
# character, 200 bytes each, so that a 5 MB literal took 1 GB to read. Without possessive
# repetitions (3.10) only the repetition over escapes keeps entries: memory grows with the escapes
# of a literal, not with its length.
_P = "+" if sys.version_info >= (3, 11) else ""
_TOKEN = re.compile(
    rf"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<triple>\"\"\"[^"\\]*{_P}(?:(?:\\.|"(?!""))[^"\\]*{_P})*{_P}(?:\"\"\"|\Z)|'''[^'\\]*{_P}(?:(?:\\.|'(?!''))[^'\\]*{_P})*{_P}(?:'''|\Z))
  | (?P<string>"[^"\\\n]*{_P}(?:\\.[^"\\\n]*{_P})*{_P}"?)
  | (?P<char>'[^'\\\n]*{_P}(?:\\.[^'\\\n]*{_P})*{_P}'?)
  | (?P<ident>[^\W\d][\w$]*|\$[\w$]*)
  | (?P<number>\d[\w.]*)
  | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str  # 'string', 'ident', 'punct', 'number'
    text: str
    start: int
    end: int
    newline_before: bool
    prefix: str = ""  # Scala's interpolator (s, f, raw) glued to the string
    source: str | None = None  # a long literal: the file, its text then left out (see ``literal``)

    @property
    def literal(self) -> str:
        """The token as written. A literal longer than LONG_LITERAL is not copied out of the file
        when the file is read (most are data, not selectors): it is sliced when asked for."""
        return self.text if self.source is None else self.source[self.start : self.end]


LONG_LITERAL = 1 << 16


def tokens(text: str, language: str) -> list[Tok]:
    out: list[Tok] = []
    newline = False
    groovy = language == "groovy"
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        if kind == "ws" or kind == "comment":
            newline = newline or "\n" in m.group()
            continue
        if kind == "triple":
            kind = "string"
        elif kind == "char":
            if not groovy:
                newline = False
                continue
            kind = "string"
        long = kind == "string" and m.end() - m.start() > LONG_LITERAL
        tok = Tok(kind, "" if long else m.group(), m.start(), m.end(), newline, "", text if long else None)
        if kind == "string" and out and out[-1].kind == "ident" and out[-1].end == tok.start and out[-1].text in ("s", "f", "raw"):
            tok = Tok(kind, tok.text, tok.start, tok.end, out[-1].newline_before, out.pop().text, tok.source)
        out.append(tok)
        newline = False
    return out


_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "s": " ", '"': '"', "'": "'", "\\": "\\", "$": "$"}
_ESCAPE = re.compile(r"\\(u+[0-9A-Fa-f]{4}|[0-7]{1,3}|\n|.)", re.DOTALL)
_TEMPLATE = re.compile(r"\$\{[^{}\"]*\}|\$[A-Za-z_][\w]*")


def decode(tok: Tok, language: str) -> list[Piece]:
    """The literal's pieces: Mapped text and Holes for template expressions."""
    raw, at = tok.literal, tok.start
    triple = raw.startswith(('"""', "'''"))
    q = 3 if triple else 1
    body_start = at + q
    body = raw[q : len(raw) - q] if len(raw) >= 2 * q and raw.endswith(raw[:q]) else raw[q:]
    if triple and language == "java":
        return [java_text_block(body, body_start)]
    raw_string = (triple and language != "groovy") or tok.prefix == "raw"
    templated = (language == "kotlin") or (language == "groovy" and raw.startswith('"')) or tok.prefix in ("s", "f", "raw")
    if not templated:
        return [_unescape(body, body_start) if not raw_string else Mapped.verbatim(body, body_start)]
    pieces: list[Piece] = []
    pos = 0
    for m in _TEMPLATE.finditer(body):
        if m.start() > 0 and body[m.start() - 1] == "\\" and not raw_string:
            continue  # \$x is a dollar sign
        if language == "scala" and m.start() > 0 and body[m.start() - 1] == "$":
            continue  # $$ is a dollar sign
        chunk = body[pos : m.start()]
        pieces.append(Mapped.verbatim(chunk, body_start + pos) if raw_string else _unescape(chunk, body_start + pos))
        pieces.append(Hole(body_start + m.start(), body_start + m.end(), m.group()))
        pos = m.end()
    rest = body[pos:]
    pieces.append(Mapped.verbatim(rest, body_start + pos) if raw_string else _unescape(rest, body_start + pos))
    return pieces


def _unescape(body: str, at: int) -> Mapped:
    parts: list[tuple[str, int, int]] = []
    pos = 0
    for m in _ESCAPE.finditer(body):
        if m.start() > pos:
            parts.extend((ch, at + i, at + i + 1) for i, ch in enumerate(body[pos : m.start()], pos))
        parts.append((_escaped(m.group(1)), at + m.start(), at + m.end()))
        pos = m.end()
    parts.extend((ch, at + i, at + i + 1) for i, ch in enumerate(body[pos:], pos))
    return Mapped.build(parts)


def _escaped(e: str) -> str:
    if e[0] == "u":
        return chr(int(e.lstrip("u"), 16))
    if e[0] in "01234567":
        return chr(int(e, 8))
    if e == "\n":
        return ""  # a text block's line continuation
    return _ESCAPES.get(e, e)


def java_text_block(body: str, at: int) -> Mapped:
    """JLS 3.10.6: content from the line after the opening delimiter; incidental white space (the
    smallest indentation of the non-blank lines and of the closing delimiter's line) and trailing
    white space removed from every line; then escapes."""
    first_nl = body.find("\n")
    if first_nl < 0:
        return Mapped.verbatim("", at)
    content_at = first_nl + 1
    lines = body[content_at:].split("\n")
    closing_own_line = lines[-1].strip() == ""
    significant = [ln for ln in lines[:-1] if ln.strip()] + ([lines[-1]] if closing_own_line or lines[-1].strip() else [])
    indent = min((len(ln) - len(ln.lstrip(" \t\f")) for ln in significant), default=0)
    parts: list[Mapped] = []
    pos = at + content_at
    for i, ln in enumerate(lines):
        last = i == len(lines) - 1
        if last and closing_own_line:
            break
        stripped = ln[indent:].rstrip(" \t\f") if ln.strip() else ""
        lead = len(ln) - len(ln.lstrip(" \t\f")) if not ln.strip() else indent
        parts.append(_unescape(stripped, pos + min(lead, len(ln))))
        if not last:
            parts.append(Mapped.verbatim("\n", pos + len(ln)))
        pos += len(ln) + 1
    merged = Mapped("".join(p.text for p in parts), tuple(x for p in parts for x in p.starts), tuple(x for p in parts for x in p.ends))
    return _drop_continuations(merged)


def _drop_continuations(m: Mapped) -> Mapped:
    """A backslash written alone (one source character) at the end of a line joins it to the next."""
    t = m.text
    drop: set[int] = set()
    for i in range(len(t) - 1):
        if t[i] == "\\" and t[i + 1] == "\n" and m.ends[i] - m.starts[i] == 1:
            drop.update((i, i + 1))
    if not drop:
        return m
    keep = [i for i in range(len(t)) if i not in drop]
    return Mapped("".join(t[i] for i in keep), tuple(m.starts[i] for i in keep), tuple(m.ends[i] for i in keep))

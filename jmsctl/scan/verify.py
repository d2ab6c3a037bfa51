"""A Found selector -> diagnostics at file offsets: placeholders become holes, holes get stand-ins,
the engine checks the text, and only what cannot depend on a hole's value is reported.

A hole's role is certain inside quotes (it is part of a string: the stand-in is a letter) and
alone as an operand (between operators, parentheses, commas or AND/OR/NOT/BETWEEN/LIKE/IN: the
stand-in is an identifier, whose type is unknown to the checker, so no type rule fires on it).
Anywhere else (``x ${op} 5``, ``prop_${n}``) it is uncertain, and a syntax error is then not
reported at all. Diagnostics whose span touches a stand-in are dropped in every case: they would
be about the stand-in, not the selector. One info per dynamic selector says it was not checked
whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from jmsctl.diagnostics import Diagnostic, Severity, Span
from jmsctl.scan.found import Found, Hole, Mapped, Piece
from jmsctl.selector import Analysis, analyze
from jmsctl.selector.hints import PRINTF

_URL_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_MESSAGE_FORMAT = re.compile(r"\{[0-9]+(?:,[^{}\n]*)?\}")
_SPRING = re.compile(r"\$\{[^{}\n]*\}|#\{[^{}\n]*\}|\{\{[^{}\n]*\}\}")  # Spring/Maven, SpEL, Camel
IN_QUOTES = "\ue000"  # a private-use character: no rule reads a string's content but LIKE's escapes
OPERAND = "_jmsctl_hole_"
_BEFORE_OK = re.compile(r"(?:^\s*|[=<>+\-*/(,]\s*|\b(?:AND|OR|NOT|BETWEEN|LIKE|ESCAPE|IN)\s+)$", re.IGNORECASE)
_AFTER_OK = re.compile(r"^(?:\s*(?:$|[=<>+\-*/),])|\s+(?:AND|OR|NOT|BETWEEN|LIKE|ESCAPE|IN|IS)\b)", re.IGNORECASE)

INFO_CODE = "I001"


@dataclass(frozen=True)
class Checked:
    """One found selector, checked: the text shown to people, and diagnostics in file offsets."""

    found: Found
    text: str  # decoded, holes written as in the source
    diagnostics: tuple[Diagnostic, ...]

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)


def placeholders(found: Found) -> list[Piece]:
    """The pieces with ${x}, #{x}, and (outside the selector's quotes, or everywhere in a format
    string) {0} and %s cut out as holes."""
    out: list[Piece] = []
    quoted = False
    for piece in found.pieces:
        if isinstance(piece, Hole):
            out.append(piece)
            continue
        pos = 0
        for m in _placeholder_matches(piece.text, quoted, found):
            out.append(piece.slice(pos, m.start()))
            out.append(Hole(piece.starts[m.start()], piece.ends[m.end() - 1], m.group()))
            pos = m.end()
        out.append(piece.slice(pos, len(piece)))
        quoted = (quoted + piece.text.count("'") - _quotes_in_holes(piece.text)) % 2 == 1
    return [p for p in out if isinstance(p, Hole) or p.text]


def _quotes_in_holes(text: str) -> int:
    return sum(m.group().count("'") for m in _SPRING.finditer(text))  # (a quote inside ${...} is rare either way)


def _placeholder_matches(text: str, quoted: bool, found: Found) -> list[re.Match[str]]:
    """Placeholders in one piece, in order, not overlapping."""
    state = quoted
    quote_state = []  # quote state before each character
    for ch in text:
        quote_state.append(state)
        if ch == "'":
            state = not state
    # ${x} and #{x} are filled in where a framework resolves them (found.resolves); elsewhere, inside
    # quotes they are text the selector compares with (W015 says so), outside them still a template.
    matches = [m for m in _SPRING.finditer(text) if found.resolves or not quote_state[m.start()]]
    taken = [(m.start(), m.end()) for m in matches]
    for pattern, everywhere in ((_MESSAGE_FORMAT, found.message_format), (PRINTF, found.printf)):
        for m in pattern.finditer(text):
            if pattern is PRINTF and not everywhere and _URL_ESCAPE.match(text, m.start()):
                continue  # not given to String.format: '%27b' is URL encoding (E017 says so), not a '%b' specifier
            if (everywhere or not quote_state[m.start()]) and not any(a < m.end() and m.start() < b for a, b in taken):
                matches.append(m)
                taken.append((m.start(), m.end()))
    return sorted(matches, key=lambda m: m.start())


Lint = Callable[[str, tuple[Diagnostic, ...]], tuple[Diagnostic, ...]]


def verify(found: Found, analyze_text: Callable[[str], Analysis] = analyze, lint: Lint | None = None, path: str = "") -> Checked:
    """``lint`` (check's --portability) adds its diagnostics to a selector known whole: a witness
    message for a text with a stand-in in it would be about the stand-in."""
    pieces = placeholders(found)
    shown = "".join(p.text if isinstance(p, Mapped) else _written(p) for p in pieces)
    holes = [p for p in pieces if isinstance(p, Hole)]
    if not any(isinstance(p, Mapped) and p.text.strip() for p in pieces):
        if not holes:
            return Checked(found, shown, ())  # an empty selector selects every message: nothing to check
        return Checked(found, shown, (_info(found, holes, checked=False, path=path),))
    text, starts, ends, stand_ins, certain = _stand_in(pieces)
    analysis = analyze_text(text)
    diags = list(analysis.diagnostics if lint is None or holes else lint(text, analysis.diagnostics))
    if holes and not certain and analysis.ast is None:
        diags = []
    diags = [d for d in diags if not any(_touches(d.span, s) for s in stand_ins)]
    out = [_to_file(_with_role(_shown(d, holes), found), starts, ends) for d in diags]
    if holes:
        out.insert(0, _info(found, holes, checked=True, path=path))
    return Checked(found, shown, tuple(out))


def _with_role(d: Diagnostic, found: Found) -> Diagnostic:
    """W018 in code: which argument of which call the bare name is, and what the signature expects there."""
    if d.code != "W018" or not found.role:
        return d
    note = f"it is {found.role}"
    if "name" in found.role.lower() and "messageSelector" in found.role:
        note += ": the subscription name is another argument; are the two swapped?"
    return Diagnostic(d.code, d.severity, d.message, d.span, d.expected, d.hint, (*d.notes, note), d.data)


def _written(hole: Hole) -> str:
    """A hole as shown in the selector's text: a placeholder as written, code as «code»."""
    if _SPRING.fullmatch(hole.source) or _MESSAGE_FORMAT.fullmatch(hole.source) or PRINTF.fullmatch(hole.source) or hole.source.startswith("$"):
        return hole.source
    return f"«{hole.source}»"


def _stand_in(pieces: list[Piece]) -> tuple[str, list[int], list[int], list[Span], bool]:
    """The text the engine checks, its file offsets, the spans of the stand-ins, and whether every
    hole's role is certain."""
    text: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    stand_ins: list[Span] = []
    certain = True
    quoted = False
    length = 0
    for i, p in enumerate(pieces):
        if isinstance(p, Mapped):
            text.append(p.text)
            starts.extend(p.starts)
            ends.extend(p.ends)
            length += len(p.text)
            quoted = (quoted + p.text.count("'")) % 2 == 1
            continue
        chars = IN_QUOTES if quoted else OPERAND
        if not quoted:
            prev_hole = i > 0 and isinstance(pieces[i - 1], Hole)
            nxt = pieces[i + 1] if i + 1 < len(pieces) else None
            after = "" if nxt is None else (nxt.text[:40] if isinstance(nxt, Mapped) else "?")
            before = "".join(text)[-40:]
            certain = certain and not prev_hole and bool(_BEFORE_OK.search(before)) and bool(_AFTER_OK.match(after))
        stand_ins.append(Span(length, length + len(chars)))
        text.append(chars)
        starts.extend([p.start] * len(chars))
        ends.extend([p.end] * len(chars))
        length += len(chars)
    return "".join(text), starts, ends, stand_ins, certain


def _shown(d: Diagnostic, holes: list[Hole]) -> Diagnostic:
    """Stand-ins in a message or hint (a suggested rewrite) written back as the source's holes."""
    message, hint = d.message, d.hint
    for h in holes:
        for stand_in in (OPERAND, IN_QUOTES):
            if stand_in in message or (hint and stand_in in hint):
                message = message.replace(stand_in, h.source, 1) if stand_in in message else message
                hint = hint.replace(stand_in, h.source, 1) if hint and stand_in in hint else hint
                break
    return Diagnostic(d.code, d.severity, message, d.span, d.expected, hint, d.notes)


def _touches(span: Span, hole: Span) -> bool:
    if span.start == span.end:
        return hole.start <= span.start <= hole.end
    return span.start < hole.end and hole.start < span.end


def _to_file(d: Diagnostic, starts: list[int], ends: list[int]) -> Diagnostic:
    n = len(starts)
    if d.span.end > d.span.start:
        s = min(d.span.start, n - 1)
        e = min(d.span.end, n) - 1
        span = Span(starts[s], max(ends[e], starts[s]))
    else:
        at = starts[d.span.start] if d.span.start < n else ends[-1]
        span = Span(at, at)
    return Diagnostic(d.code, d.severity, d.message, span, d.expected, d.hint, d.notes)


def _info(found: Found, holes: list[Hole], checked: bool, path: str = "") -> Diagnostic:
    parts = ", ".join(h.source if len(h.source) <= 40 else h.source[:37] + "..." for h in holes[:3])
    more = f" and {len(holes) - 3} more" if len(holes) > 3 else ""
    done = "the constant parts were checked" if checked else "no constant part to check"
    notes = tuple(dict.fromkeys(who for h in holes if (who := filled_by(h.source, found, path))))
    return Diagnostic(INFO_CODE, Severity.INFO, "not checked: built at run time", Span(holes[0].start, holes[0].end),
                      hint=f"known only at run time: {parts}{more}; {done}", notes=notes)


_INTERPOLATES = {".kt": "Kotlin", ".kts": "Kotlin", ".groovy": "Groovy", ".gradle": "Groovy", ".scala": "Scala", ".sc": "Scala"}


def filled_by(source: str, found: Found, path: str) -> str:
    """Who fills a placeholder in (issue 22: said instead of W015's warning), or '' for code."""
    language = next((lang for suffix, lang in _INTERPOLATES.items() if path.endswith(suffix)), "")
    if source.startswith("$") and not source.startswith("${") and language:
        return f"{language} interpolates {source} into the string"
    if source.startswith(("${", "#{")):
        if language and found.kind not in ("@JmsListener", "@ActivationConfigProperty") and not found.resolves:
            return f"{language} interpolates {source} into the string"
        if found.kind == "@JmsListener":
            return f"Spring resolves {source} in @JmsListener attributes before the selector is used"
        if found.kind == "endpoint URI":
            return f"{source} is resolved when the endpoint URI is (Camel or Spring property placeholders)"
        if path.endswith((".properties", ".yml", ".yaml")):
            return f"Spring resolves {source} in configuration files before the selector is used"
        if path.endswith(".xml"):
            return f"{source} is a property placeholder, resolved by Spring or the server's configuration"
        if found.kind == "@ActivationConfigProperty":
            return f"{source} is replaced by the container when descriptor property replacement is on"
    if source.startswith("{{"):
        return f"Camel resolves the property placeholder {source}"
    if found.printf and source.startswith("%"):
        return f"String.format fills {source} in"
    if found.message_format and source.startswith("{"):
        return f"MessageFormat.format fills {source} in"
    return ""

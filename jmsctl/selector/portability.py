"""Portability lint: where a selector's meaning depends on the broker, shown with a witness.

For each target dialect the selector is parsed and evaluated under that dialect's rules and under
the standard's (``jakarta``), over the messages of witness.py; a WITNESS is a message on which the
two verdicts (match or not) differ. Known kinds of difference get their own code, message and hint,
each confirmed on the witness, not guessed from the text:

- a site with a rewrite that means the same under the standard (``NOT a = 1`` -> ``NOT (a = 1)``,
  a literal -> its decimal value, ``--`` -> ``- -``) is reported when the rewrite makes the dialect
  agree with the standard on a witness;
- what is left is searched again: an absent header the dialect reads as a value, an integer
  division it does not truncate, a string literal it rewrites, or else a generic difference.

Parse-level differences (accepted by one, rejected by the other) are reported too. Nothing here
knows a broker's rules: they are the dialect registry's; this module only compares verdicts.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from jmsctl import selector as sel
from jmsctl.diagnostics import Diagnostic, Severity, Span
from jmsctl.exceptions import InvalidSelectorException
from jmsctl.messages.encode import typed_json
from jmsctl.selector import nodes as n
from jmsctl.selector.limits import clip
from jmsctl.selector.reference import evaluate as reference_evaluate
from jmsctl.selector.witness import Candidate, Ingredients, header_candidates, ingredients, messages
from jmsctl.values import STRING, format_plain, java_idiv

STANDARD = "jakarta"
BUDGET = 1500  # messages tried per search; a clean selector costs one search per dialect
MAX_SITES = 24  # rewrite sites (NOT, literals, '--') examined per dialect, in source order
MAX_EVALUATIONS = 200_000  # verdicts computed per selector, all dialects and searches together
MAX_LENGTH = 100_000  # characters: a longer selector is not compared (W030 says so)
NAMES = {"jakarta": "the standard", "ibm": "IBM MQ", "artemis": "Artemis", "activemq": "ActiveMQ"}
CODES = {
    "W020": "a dialect rejects a selector the standard accepts",
    "W021": "a dialect accepts a selector the standard rejects",
    "W022": "NOT binds tighter than a comparison",
    "W023": "integer division is not truncated",
    "W024": "a numeric literal is read as another value",
    "W025": "an absent header is read as a value",
    "W026": "'--' starts a comment",
    "W027": "a string literal is rewritten",
    "W028": "a property is ignored (read as NULL)",
    "W029": "a dialect's verdict differs from the standard's",
    "W030": "not compared: the selector is too long for the lint",
}


def default_targets() -> tuple[str, ...]:
    """The brokers' dialects: every registered one but the standard and IBM (whose whole-selector
    FALSE rule differs on most selectors that negate a typed comparison; ask for it by name)."""
    return tuple(d for d in sel.DIALECTS if d not in (STANDARD, "ibm"))


def title(dialect: str) -> str:
    """A short name for messages (the registry's title for a dialect this module does not know)."""
    if dialect in NAMES:
        return NAMES[dialect]
    try:
        return str(import_module("jmsctl.selector.dialects").get(dialect).title)
    except (ImportError, ValueError, AttributeError):
        return dialect


# ----- one dialect's reading -------------------------------------------------------------------

def _analyze(text: str, dialect: str) -> sel.Analysis:
    if _TAKES_DIALECT:
        return sel.analyze(text, dialect)  # type: ignore[call-arg]
    return sel.analyze(text)


_TAKES_DIALECT = len(inspect.signature(sel.analyze).parameters) > 1


class _Readings:
    """Compiled selectors per (text, dialect), and verdicts per (text, dialect, message), cached."""

    def __init__(self) -> None:
        self.evaluations = 0
        self._compiled: dict[tuple[str, str], Any] = {}
        self._verdicts: dict[tuple[str, str, Candidate], str] = {}
        self._messages: dict[Candidate, Any] = {}

    def compiled(self, text: str, dialect: str) -> Any:
        key = (text, dialect)
        if key not in self._compiled:
            try:
                self._compiled[key] = getattr(sel, "compile")(text, dialect)  # noqa: B009 - 'compile' the selector API
            except InvalidSelectorException:
                self._compiled[key] = None
        return self._compiled[key]

    @property
    def exhausted(self) -> bool:
        return self.evaluations >= MAX_EVALUATIONS

    def verdict(self, text: str, dialect: str, c: Candidate) -> str:
        """match, nomatch or error; an exception while evaluating is nomatch (not delivered)."""
        key = (text, dialect, c)
        found = self._verdicts.get(key)
        if found is None:
            compiled = self.compiled(text, dialect)
            self.evaluations += 1
            if compiled is None:
                found = "error"
            else:
                msg = self._messages.get(c)
                if msg is None:
                    msg = self._messages[c] = c.message()
                try:
                    found = "match" if compiled.evaluate(msg) is True else "nomatch"
                except Exception:  # a dialect may model the broker's exception so
                    found = "nomatch"
            self._verdicts[key] = found
        return found


# ----- findings --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    """One difference for one dialect, before dialects with the same finding are merged."""

    code: str
    dialect: str
    span: Span
    message: str  # with {who} for the dialect names and {s} for a verb's third-person s
    hint: str | None
    witness: Candidate | None
    key: str = ""  # what makes two dialects' findings the same finding


@dataclass(frozen=True)
class Witness:
    """A message and every compared dialect's verdict on it (the standard's first)."""

    message: dict[str, Any]
    verdicts: tuple[tuple[str, str], ...]

    def note(self) -> str:
        shown = ", ".join(f"{'standard' if d == STANDARD else d}: {v}" for d, v in self.verdicts)
        return f"witness: {_compact(self.message)} -> {shown}"


@dataclass(frozen=True)
class Report:
    """A merged finding: the diagnostic ``check --portability`` prints and its witnesses as data."""

    diagnostic: Diagnostic
    dialects: tuple[str, ...]
    witnesses: tuple[Witness, ...] = field(default=())

    def to_dict(self, source: str) -> dict[str, Any]:
        """The diagnostic's JSON with ``dialects`` and ``witnesses`` (message, verdict per dialect)."""
        return self.diagnostic.to_dict(source)


def _compact(message: dict[str, Any]) -> str:
    import json

    return json.dumps(message, ensure_ascii=False, separators=(", ", ": ")) if message else "{} (no headers, no properties)"


def witness_json(c: Candidate) -> dict[str, Any]:
    """The witness as a message in the dump format (``jmsctl explain --message`` reads it)."""
    out: dict[str, Any] = {}
    if c.headers:
        out["headers"] = dict(c.headers)
    if c.properties:
        out["properties"] = {k: typed_json(v) for k, v in c.properties}
    return out


# ----- the lint --------------------------------------------------------------------------------

def diagnostics(text: str, against: Sequence[str] | None = None, budget: int = BUDGET, *,
                mistyped: bool = False) -> tuple[Diagnostic, ...]:
    """The lint's warnings, as ``check --portability`` adds them to the selector's own diagnostics."""
    return tuple(r.diagnostic for r in lint(text, against, budget, mistyped=mistyped))


SUPERSEDES = {"W022": "W011", "W026": "W009"}  # the lint's confirmed finding replaces the checker's static warning


def combined(own: Sequence[Diagnostic], found: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    """A selector's diagnostics with the lint's, without a static warning a confirmed finding repeats."""
    replaced = {(SUPERSEDES[d.code], d.span.start) for d in found if d.code in SUPERSEDES}
    kept = [d for d in own if (d.code, d.span.start) not in replaced]
    return (*kept, *found)


def lint(text: str, against: Sequence[str] | None = None, budget: int = BUDGET, *, mistyped: bool = False) -> list[Report]:
    """Every target dialect whose reading of ``text`` differs from the standard's, merged per kind.

    Properties hold the kinds of value the selector expects of them (witness.expected_kinds) unless
    ``mistyped``: then also values of other kinds (an int where LIKE expects a String)."""
    targets = [d for d in (against if against is not None else default_targets()) if d != STANDARD and d in sel.DIALECTS]
    if not targets:
        return []
    if len(text) > MAX_LENGTH:
        note = Diagnostic("W030", Severity.WARNING, f"not compared with {' and '.join(title(d) for d in targets)}: the selector is "
                          f"longer than {MAX_LENGTH:,} characters", Span(0, 0), (), "compare a shorter selector, or its parts")
        return [Report(note, tuple(targets))]
    readings = _Readings()
    std = _analyze(text, STANDARD)
    analyses = {d: _analyze(text, d) for d in targets}
    ing = ingredients([std.ast, *(a.ast for a in analyses.values())], None if mistyped else std.ast)
    findings: list[Finding] = []
    for d in targets:
        findings += _dialect_findings(text, d, std, analyses[d], ing, readings, budget)
    return _merge(text, findings, readings)


def _dialect_findings(text: str, d: str, std: sel.Analysis, mine: sel.Analysis, ing: Ingredients,
                      readings: _Readings, budget: int) -> list[Finding]:
    if not std.valid and not mine.valid:
        return []
    if std.valid and not mine.valid:
        first = mine.errors[0]
        return [Finding("W020", d, first.span, "{who} reject{s} this selector: " + first.message, _rejected_hint(text, first), None,
                        key=first.message)]
    if not std.valid:
        found = _search(text, ing, budget, lambda c: readings.verdict(text, d, c) == "match", readings)
        first = std.errors[0]
        if first.code == "E113":  # a JMS name the standard does not let a selector read
            name = text[first.span.start : first.span.end]
            verb = "evaluate{s}" if found is not None else "accept{s}"
            return [Finding("W021", d, first.span, f"{{who}} {verb} {clip(name)}, which the standard does not let a selector read",
                            "not portable: the standard rejects the selector", found, key=verb + name)]
        return [Finding("W021", d, first.span, "{who} accept{s} this selector, which the standard rejects: " + first.message,
                        "not portable: write it in the standard's syntax", found, key=first.message)]
    if text.strip() == "" or std.ast is None:
        return []
    out: list[Finding] = []
    repaired = text
    accepted: list[tuple[int, int, str]] = []
    for site in _sites(text, std.ast, mine.ast)[:MAX_SITES]:
        fixed = _apply(text, [*accepted, *site.edits])

        def explained(c: Candidate, fixed: str = fixed, before: str = repaired) -> bool:
            want = readings.verdict(text, STANDARD, c)
            return readings.verdict(before, d, c) != want and readings.verdict(fixed, d, c) == want

        focus = [x.name for x in n.walk(std.ast) if isinstance(x, n.Identifier) and site.span.start <= x.span.start < site.span.end]
        found = _search(text, ing, budget, explained, readings, focus=focus)
        if found is not None:
            out.append(Finding(site.code, d, site.span, site.message, site.hint, found, key=site.message))
            accepted += site.edits
            repaired = fixed
    out += _residual(text, repaired, d, std.ast, ing, readings, budget)
    return out


def _search(text: str, ing: Ingredients, budget: int, pred: Callable[[Candidate], bool], readings: _Readings,
            present: frozenset[str] = frozenset(), focus: Sequence[str] = ()) -> Candidate | None:
    for c in messages(text, ing, budget, present, focus):
        if readings.exhausted:
            return None
        if pred(c):
            return c
    return None


def _residual(text: str, repaired: str, d: str, ast: n.Node, ing: Ingredients, readings: _Readings, budget: int) -> list[Finding]:
    """Differences no rewrite explains: absent headers (then searched again without them), integer
    division, rewritten string literals, or generic."""
    out: list[Finding] = []
    present: frozenset[str] = frozenset()

    def differs(c: Candidate) -> bool:  # on what was written, and not explained by the rewrites above
        want = readings.verdict(text, STANDARD, c)
        return readings.verdict(text, d, c) != want and readings.verdict(repaired, d, c) != want

    for _ in range(len(ing.names) + 1):
        found = _search(text, ing, budget, differs, readings, present)
        if found is None:
            return out
        header = _absent_header(text, repaired, d, found, ing, readings)
        if header is not None:
            name, value = header
            out.append(Finding("W025", d, _first_span(ast, name), f"{{who}} read{{s}} an absent {name} as {_shown_header(value)}; the standard reads NULL",
                               f"only messages without {name} differ (dump files, hand-made test messages): "
                               f"brokers set {name} on the messages they deliver", found, key=name))
            present = present | {name}
            continue
        out.append(_classify(text, repaired, d, ast, found, ing, readings))
        return out
    return out


def _absent_header(text: str, repaired: str, d: str, c: Candidate, ing: Ingredients, readings: _Readings) -> tuple[str, Any] | None:
    """A header absent from ``c`` that the dialect reads as if it were set to some value."""
    theirs = readings.verdict(repaired, d, c)
    for name in c.absent(x for x in ing.names if x in _HEADER_NAMES):
        for value in header_candidates(name, ing):
            filled = c.with_value(name, value)
            if readings.verdict(repaired, d, filled) == theirs == readings.verdict(text, STANDARD, filled):
                return name, value
    return None


_HEADER_NAMES = frozenset(("JMSPriority", "JMSDeliveryMode", "JMSTimestamp", "JMSType", "JMSCorrelationID", "JMSMessageID",
                           "JMSExpiration", "JMSRedelivered", "JMSDestination", "JMSReplyTo", "JMSDeliveryTime"))


def _shown_header(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)


def _classify(text: str, repaired: str, d: str, ast: n.Node, c: Candidate, ing: Ingredients, readings: _Readings) -> Finding:
    division = _inexact_division(ast, c)
    if division is not None:
        node, q, exact = division
        src = text[node.span.start : node.span.end]
        return Finding("W023", d, node.span, f"{{who}} do{{es}} not truncate integer division: on the witness `{clip(src)}` is {q} "
                       f"in the standard and {exact} on {{who}}",
                       "avoid integer division in a selector: compare with a product (`x >= 3 * y`), or make an operand "
                       "a double (`x / 2.0`) where a fraction is meant", c, key="division")
    ignored = _ignored_property(text, repaired, d, c, ing, readings)
    if ignored is not None:
        return Finding("W028", d, _first_span(ast, ignored), f"{{who}} ignore{{s}} the property {clip(ignored)}: it reads NULL whatever the message holds",
                       f"use another property name than {clip(ignored)}", c, key=ignored)
    literal = _rewritten_string(text, repaired, d, ast, c, readings)
    if literal is not None:
        return Finding("W027", d, literal.span, f"{{who}} rewrite{{s}} the string literal {clip(format_plain(*literal.value))}: "
                       "a property with that value is not selected as the standard selects it",
                       "compare JMSDeliveryMode with these values only; for other names use another value", c, key=literal.value[1])
    return Finding("W029", d, Span(0, len(text)), "{who} give{s} a different verdict from the standard on this message",
                   "see the witness; the dialect table in the README lists the known differences", c, key="generic")


def _ignored_property(original: str, text: str, d: str, c: Candidate, ing: Ingredients, readings: _Readings) -> str | None:
    """A property of the witness the dialect never reads: on every message tried, removing it leaves
    the dialect's verdict as it was, while it changes the standard's somewhere."""
    for name, _ in c.properties:
        tried = [m for m in messages(original, ing, IGNORED_SAMPLE) if any(p[0] == name for p in m.properties)]
        pairs = [(m, Candidate(m.headers, tuple(p for p in m.properties if p[0] != name))) for m in tried]
        if all(readings.verdict(text, d, m) == readings.verdict(text, d, w) for m, w in pairs) and any(
                readings.verdict(original, STANDARD, m) != readings.verdict(original, STANDARD, w) for m, w in pairs):
            return name
    return None


IGNORED_SAMPLE = 300


def _inexact_division(ast: n.Node, c: Candidate) -> tuple[n.Arithmetic, int, str] | None:
    """A '/' of two integers with a remainder on the witness: (node, the standard's quotient, the exact one)."""
    divisions = [x for x in n.walk(ast) if isinstance(x, n.Arithmetic) and x.op == "/"]
    if not divisions:
        return None
    ev = reference_evaluate(ast, c.message().get, STANDARD)
    for node in divisions:
        a, b = ev.of(node.left).value, ev.of(node.right).value
        if isinstance(a, tuple) and isinstance(b, tuple) and a[0].is_integral and b[0].is_integral and b[1] != 0 and a[1] % b[1]:
            return node, java_idiv(a[1], b[1]), repr(a[1] / b[1])
    return None


def _rewritten_string(text: str, repaired: str, d: str, ast: n.Node, c: Candidate, readings: _Readings) -> n.Literal | None:
    """A string literal that, renamed in the selector and in the witness alike, makes the dialect agree."""
    for lit in (x for x in n.walk(ast) if isinstance(x, n.Literal) and x.value[0] is STRING):
        value = lit.value[1]
        if not any(v == (STRING, value) for _, v in c.properties) and value not in dict(c.headers).values():
            continue
        renamed_value = value + "\u2063"  # an invisible separator: no broker gives it a meaning
        quoted, renamed_quoted = format_plain(STRING, value), format_plain(STRING, renamed_value)
        text2, repaired2 = text.replace(quoted, renamed_quoted), repaired.replace(quoted, renamed_quoted)
        c2 = Candidate(tuple((k, renamed_value if v == value else v) for k, v in c.headers),
                       tuple((k, (STRING, renamed_value) if v == (STRING, value) else v) for k, v in c.properties))
        if readings.verdict(repaired2, d, c2) == readings.verdict(text2, STANDARD, c2):
            return lit
    return None


def _first_span(ast: n.Node, name: str) -> Span:
    for node in n.walk(ast):
        if isinstance(node, n.Identifier) and node.name == name:
            return node.span
    return ast.span


# ----- sites: places with a rewrite that the standard reads the same way -------------------------

@dataclass(frozen=True)
class _Site:
    code: str
    span: Span
    message: str
    hint: str
    edits: tuple[tuple[int, int, str], ...]  # replace original[start:end]; insertions have start == end


def _apply(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """The original text with non-overlapping edits, applied from the end so offsets stay valid."""
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _sites(text: str, ast: n.Node, theirs: n.Node | None) -> list[_Site]:
    return [*_not_sites(text, ast), *_literal_sites(text, ast, theirs), *_comment_sites(text)]


def _not_sites(text: str, ast: n.Node) -> Iterable[_Site]:
    for node in n.walk(ast):
        if not isinstance(node, n.Not) or not isinstance(node.operand, n.PREDICATES):
            continue
        op = node.operand
        if text[node.span.start : op.span.start].strip().upper() != "NOT":
            continue  # NOT (a = 1): already parenthesised
        leaf = _leftmost(op)
        src = text[node.span.start : node.span.end]
        operand = text[op.span.start : op.span.end]
        read_as = f"(NOT {text[leaf.span.start:leaf.span.end]}){text[leaf.span.end:op.span.end]}"
        yield _Site("W022", node.span, f"{{who}} read{{s}} `{clip(src)}` as `{clip(read_as)}`",
                    f"write `NOT ({clip(operand)})`: parentheses make every broker read it the same way",
                    ((op.span.start, op.span.start, "("), (op.span.end, op.span.end, ")")))


def _leftmost(node: n.Node) -> n.Node:
    """The first primary of an expression: what a NOT binding tighter than everything applies to."""
    while True:
        kids = n.children(node)
        if not kids or isinstance(node, n.Unary) or kids[0].span.start != node.span.start:
            return node
        node = kids[0]


def _literal_sites(text: str, ast: n.Node, theirs: n.Node | None) -> Iterable[_Site]:
    if theirs is None:
        return
    their_literals = {(x.span.start, x.span.end): x for x in n.walk(theirs) if isinstance(x, n.Literal)}
    for lit in n.walk(ast):
        if not isinstance(lit, n.Literal) or not lit.value[0].is_numeric:
            continue
        other = their_literals.get((lit.span.start, lit.span.end))
        if other is None or other.value == lit.value:
            continue
        src = text[lit.span.start : lit.span.end]
        decimal = format_plain(*lit.value)
        yield _Site("W024", lit.span, f"{{who}} read{{s}} the literal `{clip(src)}` as {format_plain(*other.value)} "
                    f"({other.value[0].java_name}); the standard reads {decimal} ({lit.value[0].java_name})",
                    f"write the value in decimal: `{decimal}`", ((lit.span.start, lit.span.end, f" {decimal} " if decimal.startswith("-") else decimal),))


_STRING_OR_DASHES = re.compile(r"'(?:[^']|'')*'?|--")


def _comment_sites(text: str) -> Iterable[_Site]:
    for m in _STRING_OR_DASHES.finditer(text):
        if m.group() != "--":
            continue
        start = m.start()
        end_of_line = min((i for i in (text.find("\n", start), text.find("\r", start)) if i >= 0), default=len(text))
        rest = text[start:end_of_line]
        yield _Site("W026", Span(start, end_of_line), f"{{who}} read{{s}} `{clip(rest)}` as a comment; the standard reads a double minus",
                    "selectors have no comments: write `- -` with a space for a double minus, or remove the text",
                    ((start, start + 2, "- -"),))


def _rejected_hint(text: str, first: Diagnostic) -> str:
    shown = text[first.span.start : max(first.span.end, first.span.start + 1)]
    if re.search(r"\d[lL]\b", shown):
        return "drop the `L` suffix: an integer literal beyond the int range is a long anyway"
    if any(ord(ch) > 127 for ch in shown):
        return "use ASCII letters, digits, `_` and `$` in names: not every broker reads other Java letters"
    return "write it in the subset every broker parses"


# ----- merging per kind across dialects --------------------------------------------------------

def _merge(text: str, findings: list[Finding], readings: _Readings) -> list[Report]:
    groups: dict[tuple[str, int, int, str], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.code, f.span.start, f.span.end, f.key or f.message), []).append(f)
    out: list[Report] = []
    for (code, _, _, _), group in groups.items():
        dialects = tuple(f.dialect for f in group)
        who = " and ".join(title(d) for d in dialects)
        first = group[0]
        message = first.message.replace("{who}", who).replace("{s}", "" if len(dialects) > 1 else "s")
        message = message.replace("{es}", "" if len(dialects) > 1 else "es")
        witnesses: list[Witness] = []
        covered: set[str] = set()
        for f in group:
            if f.witness is None or f.dialect in covered:
                continue
            verdicts = [(STANDARD, readings.verdict(text, STANDARD, f.witness))]
            for d in dialects:
                v = readings.verdict(text, d, f.witness)
                verdicts.append((d, v))
                if v != verdicts[0][1] or d == f.dialect:
                    covered.add(d)
            witnesses.append(Witness(witness_json(f.witness), tuple(verdicts)))
        notes = tuple(w.note() for w in witnesses)
        if code == "W021" and not witnesses:
            notes = ("it selected none of the messages tried",)
        data = (("dialects", list(dialects)), ("witnesses", [{"message": w.message, "verdicts": dict(w.verdicts)} for w in witnesses]))
        diag = Diagnostic(code, Severity.WARNING, message, first.span, (), first.hint, notes, data)
        out.append(Report(diag, dialects, tuple(witnesses)))
    out.sort(key=lambda r: (r.diagnostic.span.start, r.diagnostic.code))
    return out


__all__ = ["BUDGET", "CODES", "Report", "Witness", "combined", "default_targets", "diagnostics", "lint", "title", "witness_json"]

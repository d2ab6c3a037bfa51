"""Portability lint: where a selector's meaning depends on the broker, shown with a witness.

For each target dialect the selector is parsed and evaluated under that dialect's rules and under
the standard's (``jakarta``), over the messages of witness.py; a WITNESS is a message on which the
two verdicts (match or not) differ. Known kinds of difference get their own code, message and hint,
each confirmed on the witness, not guessed from the text:

- rewrites.py: a site with an edit the standard reads the same way (``NOT a = 1`` -> ``NOT (a = 1)``,
  a literal -> its decimal value, ``--`` -> ``- -``) is reported when the edit makes the dialect
  agree with the standard on a witness;
- difference_kinds.py: what is left is searched again and named: an absent header the dialect
  reads as a value, an integer division it does not truncate, a property it ignores, a string
  literal it rewrites, ... or else a generic difference.

Parse-level differences (accepted by one, rejected by the other) are reported too. Nothing here
knows a broker's rules: they are the dialect registry's; this module only compares verdicts.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from jmsctl import selector as sel
from jmsctl.analysis import difference_kinds, rewrites
from jmsctl.analysis.difference_kinds import Finding
from jmsctl.analysis.encoded import ENCODED
from jmsctl.analysis.witness import STANDARD, Candidate, Ingredients, Readings, ingredients, messages
from jmsctl.diagnostics import Diagnostic, Severity, Span
from jmsctl.messages.encode import typed_json
from jmsctl.selector import nodes as n
from jmsctl.selector.limits import clip

BUDGET = 1500  # messages tried per search; a clean selector costs one search per dialect
MAX_SITES = 24  # rewrite sites (NOT, literals, '--') examined per dialect, in source order
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
    "W030": "not compared, or only in part: the selector is too big for the lint",
    "W031": "a property's Java type (byte, short, float, long) changes the verdict",
    "W032": "= or <> or BETWEEN with a NULL operand is not UNKNOWN",
    "W033": "Strings are ordered with < <= > >=",
    "W034": "LIKE or IN on a value that is not a String is not UNKNOWN",
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


# ----- findings --------------------------------------------------------------------------------
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
    std = _analyze(text, STANDARD)
    readings = Readings(len(n.walk(std.ast)) if std.ast is not None else len(text) // 4)
    analyses = {d: _analyze(text, d) for d in targets}
    ing = ingredients([std.ast, *(a.ast for a in analyses.values())], None if mistyped else std.ast)
    findings: list[Finding] = []
    for d in targets:
        findings += _dialect_findings(text, d, std, analyses[d], ing, readings, budget)
    reports = _merge(text, findings, readings)
    if readings.exhausted:  # what was found stands; what was not looked at is said
        reports.append(Report(Diagnostic("W030", Severity.WARNING, f"compared only in part with {' and '.join(title(d) for d in targets)}: "
                                         f"the lint's budget ({readings.evaluations:,} evaluations) ran out on a selector this size",
                                         Span(0, 0), (), "compare a shorter selector, or its parts"), tuple(targets)))
    return reports


def _dialect_findings(text: str, d: str, std: sel.Analysis, mine: sel.Analysis, ing: Ingredients,
                      readings: Readings, budget: int) -> list[Finding]:
    if not std.valid and not mine.valid:
        return []
    if std.valid and not mine.valid:
        first = mine.errors[0]
        return [Finding("W020", d, first.span, "{who} reject{s} this selector: " + first.message, rewrites.rejected_hint(text, first), None,
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
    for site in rewrites.sites(text, std.ast, mine.ast)[:MAX_SITES]:
        fixed = rewrites.apply(text, [*accepted, *site.edits])

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


def _search(text: str, ing: Ingredients, budget: int, pred: Callable[[Candidate], bool], readings: Readings,
            present: frozenset[str] = frozenset(), focus: Sequence[str] = ()) -> Candidate | None:
    for c in messages(text, ing, budget, present, focus):
        if readings.exhausted:
            return None
        if pred(c):
            return c
    return None


def _residual(text: str, repaired: str, d: str, ast: n.Node, ing: Ingredients, readings: Readings, budget: int) -> list[Finding]:
    """Differences no rewrite explains: each header read as a value when absent (searched for first,
    header by header; then every message keeps it), then one more kind (integer division, a type, ...)
    or a generic difference."""
    out: list[Finding] = []
    present: frozenset[str] = frozenset()

    def differs(c: Candidate) -> bool:  # on what was written, and not explained by the rewrites above
        want = readings.verdict(text, STANDARD, c)
        return readings.verdict(text, d, c) != want and readings.verdict(repaired, d, c) != want

    for name in (x for x in ing.names if x in difference_kinds.HEADER_LIKE):
        def absent_read(c: Candidate, name: str = name) -> bool:
            return name in c.absent((name,)) and differs(c) and _reads_absent(c, name)

        def _reads_absent(c: Candidate, name: str) -> bool:
            found = difference_kinds.absent_header(text, repaired, d, c, ing, readings)
            return found is not None and found[0] == name

        found = _search(text, ing, budget, absent_read, readings, present, focus=(name,))
        if found is not None:
            value = difference_kinds.absent_header(text, repaired, d, found, ing, readings)
            shown = difference_kinds.shown_header(value[1]) if value is not None and value[1] is not None else "a value"
            out.append(Finding("W025", d, difference_kinds.first_span(ast, name), f"{{who}} read{{s}} an absent {name} as {shown}; the standard reads NULL",
                               f"only messages without {name} differ (dump files, hand-made test messages): "
                               f"{{who}} keep{{s}} {name} in a message field that always has a value", found, key=name))
            present = present | {name}
    found = _search(text, ing, budget, differs, readings, present)
    if found is None and d in ENCODED and not present:
        found = _solved(text, d, differs, ing)
    if found is not None:
        out.append(difference_kinds.classify(text, repaired, d, ast, found, ing, readings))
    return out


SOLVER_TIMEOUT = 30.0  # a wall-clock guard per dialect after the bounded search found nothing; the budget is in resource units


def _solved(text: str, d: str, differs: Callable[[Candidate], bool], ing: Ingredients) -> Candidate | None:
    """A dialect the solver encodes (ibm): a witness the bounded search missed, or None (proved the
    same, or no answer within SOLVER_TIMEOUT). Properties keep to the kinds of value the selector
    expects of them, as in the search (``ing.kinds``; all kinds with --mistyped)."""
    from jmsctl.analysis import smt, solver
    from jmsctl.analysis.witness import BOOLEAN_KIND, NUMBER_KIND, STRING_KIND
    from jmsctl.values import BOOLEAN, STRING, JType

    by_kind = {STRING_KIND: {STRING}, BOOLEAN_KIND: {BOOLEAN}, NUMBER_KIND: {t for t in JType if t.is_numeric}}
    domain = smt.Domain({name: frozenset({None, *(t for k in kinds for t in by_kind[k])}) for name, kinds in ing.kinds})
    answer = solver.readings_differ(text, STANDARD, d, SOLVER_TIMEOUT, domain)
    if not isinstance(answer, solver.Witness):
        return None
    message = solver.read_witness(answer.message)
    c = Candidate(tuple(message.headers.items()), tuple(message.properties.items()))
    return c if differs(c) else None


# ----- merging per kind across dialects --------------------------------------------------------

def _conjugated(text: str, who: str, count: int) -> str:
    """``{who} read{s}`` -> ``Artemis and ActiveMQ read`` / ``ActiveMQ reads``."""
    return text.replace("{who}", who).replace("{s}", "" if count > 1 else "s").replace("{es}", "" if count > 1 else "es")


def _merge(text: str, findings: list[Finding], readings: Readings) -> list[Report]:
    groups: dict[tuple[str, int, int, str], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.code, f.span.start, f.span.end, f.key or f.message), []).append(f)
    out: list[Report] = []
    for (code, _, _, _), group in groups.items():
        dialects = tuple(f.dialect for f in group)
        who = " and ".join(title(d) for d in dialects)
        first = group[0]
        message, hint = (_conjugated(x, who, len(dialects)) if x is not None else None for x in (first.message, first.hint))
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
        diag = Diagnostic(code, Severity.WARNING, str(message), first.span, (), hint, notes, data)
        out.append(Report(diag, dialects, tuple(witnesses)))
    out.sort(key=lambda r: (r.diagnostic.span.start, r.diagnostic.code))
    return out


__all__ = ["BUDGET", "CODES", "Report", "Witness", "combined", "default_targets", "diagnostics", "lint", "title", "witness_json"]

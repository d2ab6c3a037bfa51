"""Fixes for the mistakes check names (``check --fix``, ``scan --fix``): applied only when proven.

Two kinds, as ruff has safe and unsafe fixes, with a proof behind "safe":

- the original is invalid: a fix makes it valid (``!=`` -> ``<>``, ``==`` -> ``=``, ``NOT=`` ->
  ``<>``, ``IS TRUE`` -> ``= TRUE``, ``&&`` -> ``AND``, ``JMSCorrelationId`` -> ``JMSCorrelationID``,
  ``"blue"`` -> ``'blue'``, a URL-encoded selector -> its decoded text). Fixes are applied one
  error at a time, re-parsing after each; the result is applicable only when it is valid, and it
  is labelled with what each fix assumes (the writer's intent is a guess: say which).
- the original is valid: a rewrite is applicable only when it provably selects the same messages:
  it parses to the same AST (spans and spellings aside, a float's sign kept), or the solver
  (analysis/solver.py) proves the two equivalent. The portability rewrites (``NOT a = 1`` ->
  ``NOT (a = 1)``, a literal in decimal, ``--`` -> ``- -``) under ``--portability`` are such.
  A rewrite that changes what is selected (``jmsType`` -> ``JMSType``, ``color = red`` ->
  ``color = 'red'``, the IN-list split) is a suggestion: shown with the solver's witness (a
  message on which the two differ), never applied.

``Fixed.edits`` are the smallest edits from the original to the fixed text (``scan --fix``
writes only those characters into the source, keeping the file's own escaping elsewhere).
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import unquote_plus

import orjson

from jmsctl import selector as sel
from jmsctl.analysis import rewrites
from jmsctl.diagnostics import Diagnostic
from jmsctl.selector import nodes as n
from jmsctl.selector.hints import outside_quotes
from jmsctl.selector.limits import clip
from jmsctl.selector.lints.in_list_string import split_items

MAX_ROUNDS = 50  # errors fixed one at a time; a selector with more is left to a person
_DIFF_LIMIT = 20_000  # characters: longer texts get one edit (common prefix and suffix kept)

Edit = tuple[int, int, str]  # replace original[start:end] with the text (start == end: insert)


@dataclass(frozen=True)
class Fix:
    """One fix: the code it answers, what it does, and (for an invalid original) what it assumes."""

    code: str
    title: str  # "'!=' -> '<>'"
    assumes: str = ""


@dataclass(frozen=True)
class Suggestion:
    """A rewrite shown, never applied: it changes which messages are selected."""

    code: str
    title: str
    text: str  # the whole selector rewritten
    why: str  # why it is not applied


@dataclass(frozen=True)
class Fixed:
    original: str
    text: str  # the selector with every applicable fix (the original when none applies)
    fixes: tuple[Fix, ...]
    valid: bool  # the fixed text is a valid selector
    proof: str  # why applying is safe: 'same AST', 'made valid', or why nothing was applied
    suggestions: tuple[Suggestion, ...] = ()

    @property
    def changed(self) -> bool:
        return self.text != self.original

    @property
    def edits(self) -> tuple[Edit, ...]:
        return minimal_edits(self.original, self.text)


# ----- invalid originals: one fixer per error code ---------------------------------------------

Fixer = Callable[[str, Diagnostic], tuple[Edit, Fix] | None]


def _spaced(text: str, start: int, end: int, word: str) -> Edit:
    """``word`` in place of text[start:end], with a space on each side where the neighbour is not one."""
    before = " " if start > 0 and not text[start - 1].isspace() else ""
    after = " " if end < len(text) and not text[end].isspace() else ""
    return (start, end, before + word + after)


def _not_equal(text: str, d: Diagnostic) -> tuple[Edit, Fix] | None:
    if text.startswith("!=", d.span.start):
        return (d.span.start, d.span.start + 2, "<>"), Fix("E006", "'!=' -> '<>'", "'!=' meant not-equal")
    return None


def _double_equal(text: str, d: Diagnostic) -> tuple[Edit, Fix] | None:
    if text.startswith("==", d.span.start):
        return (d.span.start, d.span.start + 2, "="), Fix("E007", "'==' -> '='", "'==' meant equality")
    return None


_NOT_OP = re.compile(r"NOT\s*(=|<>)", re.IGNORECASE)


def _not_comparison(text: str, d: Diagnostic) -> tuple[Edit, Fix] | None:
    m = _NOT_OP.fullmatch(text, d.span.start, d.span.end)
    if m is None:
        return None
    new = "<>" if m.group(1) == "=" else "="
    written = text[d.span.start : d.span.end]
    return _spaced(text, d.span.start, d.span.end, new), Fix("E016", f"'{written}' -> '{new}'", f"'{written}' meant the negated comparison")


_IS_BOOLEAN = re.compile(r"\bIS(\s+NOT)?\s+(TRUE|FALSE)\b", re.IGNORECASE)


def _is_boolean(text: str, d: Diagnostic) -> tuple[Edit, Fix] | None:
    if d.code != "E002" or not d.message.startswith("IS takes only NULL"):
        return None
    for m in _IS_BOOLEAN.finditer(outside_quotes(text)):
        if m.start(2) == d.span.start:
            op = "<>" if m.group(1) else "="
            value = text[m.start(2) : m.end(2)]
            before = "" if m.start() > 0 and text[m.start() - 1].isspace() else " "
            written = " ".join(text[m.start() : m.end()].split())
            return (m.start(), m.start(2), f"{before}{op} "), Fix("E002", f"'{written}' -> '{op} {value}'",
                                                                   f"{written.upper()} meant '{op} {value.upper()}' (a NULL property then selects nothing)")
    return None


def _logical(text: str, d: Diagnostic) -> tuple[Edit, Fix] | None:
    at = d.span.start
    for pair, word in (("&&", "AND"), ("||", "OR")):
        if text.startswith(pair, at):
            return _spaced(text, at, at + 2, word), Fix("E001", f"'{pair}' -> '{word}'", f"'{pair}' meant {word}")
    return None


def _header_case(text: str, d: Diagnostic) -> tuple[Edit, Fix] | None:
    if d.code != "E113" or len(d.expected) != 1 or not d.expected[0].startswith("JMS"):
        return None
    written = text[d.span.start : d.span.end]
    meant = d.expected[0]
    return (d.span.start, d.span.end, meant), Fix("E113", f"{written} -> {meant}", f"{written} meant the header {meant}")


def _double_quoted(text: str, d: Diagnostic) -> tuple[Edit, Fix] | None:
    inner = text[d.span.start + 1 : d.span.end - 1]
    if not text.startswith('"', d.span.start) or d.span.end - d.span.start < 2 or text[d.span.end - 1] != '"':
        return None
    new = "'" + inner.replace("'", "''") + "'"
    return (d.span.start, d.span.end, new), Fix("E005", f"{clip(text[d.span.start:d.span.end])} -> {clip(new)}",
                                                   "the double-quoted text meant a string literal")


def _url_encoded(text: str, d: Diagnostic) -> tuple[Edit, Fix] | None:
    decoded = unquote_plus(text)
    if decoded == text:
        return None
    return (0, len(text), decoded), Fix("E017", "URL-decoded", "the text was copied URL-encoded from an endpoint URI")


FIXERS: dict[str, tuple[Fixer, ...]] = {
    "E006": (_not_equal,),
    "E007": (_double_equal,),
    "E016": (_not_comparison,),
    "E002": (_is_boolean,),
    "E001": (_logical,),
    "E113": (_header_case,),
    "E005": (_double_quoted,),
    "E017": (_url_encoded,),
}


def _repair(text: str, dialect: str) -> tuple[str, list[Fix], sel.Analysis]:
    """Fix the first error, parse again, until valid or no fixer answers (or MAX_ROUNDS)."""
    fixes: list[Fix] = []
    analysis = sel.analyze(text, dialect)
    for _ in range(MAX_ROUNDS):
        if analysis.valid:
            break
        first = analysis.errors[0]
        got = next((r for f in FIXERS.get(first.code, ()) if (r := f(text, first)) is not None), None)
        if got is None:
            break
        edit, fix = got
        text = rewrites.apply(text, [edit])
        fixes.append(fix)
        analysis = sel.analyze(text, dialect)
    return text, fixes, analysis


# ----- valid originals: proven rewrites, and suggestions ---------------------------------------


def shape(node: n.Node) -> list[object]:
    """The AST as a flat list, spans and spellings aside, a float's sign and NaN kept (``==`` on
    nodes calls -0.0 and 0.0 equal, and NaN unequal to itself). Iterative: no depth limit."""
    out: list[object] = []
    for x in n.walk(node):
        if isinstance(x, n.Literal):
            t, v = x.value
            out.append(("lit", t, repr(v) if isinstance(v, float) and (math.isnan(v) or v == 0) else v))
        elif isinstance(x, n.Identifier):
            out.append(("id", x.name))
        else:
            out.append((type(x).__name__, getattr(x, "op", None), getattr(x, "negated", None),
                        len(x.items) if isinstance(x, n.InList) else None, isinstance(x, n.Like) and x.escape is not None))
    return out


PROOF_TIMEOUT = 30.0  # a wall-clock guard per rewrite; the budget is the solver's resource units (the same proofs at any load)


def prove(a: str, b: str, dialect: str = "jakarta") -> tuple[bool, str]:
    """Whether ``a`` and ``b`` select the same messages, and how that is known: the same AST, or
    the solver's proof (jmsctl/analysis/solver.py, jakarta and ibm); else why not (its witness
    message, on which one selects and the other does not), or why unknown."""
    if same_ast(a, b, dialect):
        return True, "same AST"
    try:
        from jmsctl.analysis import solver
    except ImportError as exc:  # pragma: no cover - z3 is a dependency; said, not assumed
        return False, f"not proven ({exc})"
    answer = solver.equivalent(a, b, dialect, PROOF_TIMEOUT)
    if isinstance(answer, solver.Proof):
        return True, "proved equivalent"
    if isinstance(answer, solver.Witness):
        witness = orjson.dumps(answer.message).decode()
        return False, f"it changes which messages are selected: on {witness} the selector is {answer.verdicts[0]}, the rewrite {answer.verdicts[1]}"
    return False, f"not proven to select the same messages ({answer.reason})"


def same_ast(a: str, b: str, dialect: str = "jakarta") -> bool:
    """Both valid and parsed to the same tree: they select the same messages under ``dialect``."""
    x, y = sel.analyze(a, dialect), sel.analyze(b, dialect)
    return x.valid and y.valid and x.ast is not None and y.ast is not None and shape(x.ast) == shape(y.ast)


def _portability_sites(text: str, ast: n.Node, reported: Iterable[str], dialects: Sequence[str]) -> list[tuple[rewrites.Site, str]]:
    codes = set(reported)
    out: dict[tuple[Edit, ...], tuple[rewrites.Site, str]] = {}
    for d in dialects:
        theirs = sel.analyze(text, d).ast
        for site in rewrites.sites(text, ast, theirs):
            if site.code in codes:
                out.setdefault(site.edits, (site, d))
    return list(out.values())


def _suggestions(text: str, analysis: sel.Analysis, found: Sequence[Diagnostic] | None, dialect: str) -> list[Suggestion]:
    """Rewrites of a valid selector that the solver does not prove the same: shown, never applied,
    with its witness (a message on which they differ)."""
    out: list[Suggestion] = []
    ast = analysis.ast
    if ast is None:
        return out
    for d in (analysis.warnings if found is None else [d for d in found if not d.is_error]):
        edit: Edit | None = None
        title = ""
        if d.code in ("W014", "W004") and "did you mean" in d.message:
            meant = d.message.rsplit("did you mean ", 1)[1].rstrip("?")
            edit, title = (d.span.start, d.span.end, meant), f"{text[d.span.start:d.span.end]} -> {meant}"
        elif d.code == "W016":
            word = text[d.span.start : d.span.end]
            edit, title = (d.span.start, d.span.end, f"'{word}'"), f"{word} -> '{word}'"
        elif d.code == "W017":
            owner = next((x for x in n.walk(ast) if isinstance(x, n.InList) and any(i.span == d.span for i in x.items)), None)
            if owner is not None and owner.items:
                items = split_items(owner)
                start, end = owner.items[0].span.start, owner.items[-1].span.end
                if items:
                    edit, title = (start, end, items[1:-1]), f"IN {items}"
        if edit is not None:
            rewritten = rewrites.apply(text, [edit])
            same, why = prove(text, rewritten, dialect)
            if not same:  # a rewrite proved the same would be a fix; these name a different meaning
                out.append(Suggestion(d.code, title, rewritten, why))
    return out


def fix(text: str, dialect: str = "jakarta", *, portability: Sequence[Diagnostic] | None = None,
        against: Sequence[str] = ("artemis", "activemq"), found: Sequence[Diagnostic] | None = None) -> Fixed:
    """Every applicable fix of one selector. ``portability``: the portability lint's diagnostics
    of ``text`` (``--portability``): the rewrites that answer them are applied where proven.
    ``found``: the diagnostics of ``text`` as reported (W016 told the dumps' names): what the
    suggestions answer when no fix changed the text."""
    repaired, fixes, analysis = _repair(text, dialect)
    if fixes and not analysis.valid:  # half a repair is no repair: all or nothing
        return Fixed(text, text, (), False, f"not fixed: still invalid after {len(fixes)} fix{'es' if len(fixes) > 1 else ''} "
                     f"({analysis.errors[0].code} {analysis.errors[0].message})")
    if not analysis.valid:
        first = analysis.errors[0]
        return Fixed(text, text, (), False, f"not fixed: no fix for {first.code} {first.message}")
    if fixes:
        why = _selects_nothing(repaired, analysis, dialect, fixes)
        if why:
            return Fixed(text, text, (), False, f"not fixed: {why}")
    proof = "made valid" if fixes else "unchanged"
    if portability and analysis.ast is not None and not fixes:
        sites = _portability_sites(repaired, analysis.ast, (d.code for d in portability), against)
        edits = [_tidy(repaired, e) for site, _ in sites for e in site.edits]
        if edits:
            candidate = rewrites.apply(repaired, edits)
            same, how = prove(repaired, candidate, dialect)
            if same:
                fixes += [Fix(site.code, _title(repaired, site)) for site, _ in sites]
                repaired = candidate
                proof = how
                analysis = sel.analyze(repaired, dialect)
    return Fixed(text, repaired, tuple(fixes), analysis.valid, proof,
                 tuple(_suggestions(repaired, analysis, found if repaired == text else None, dialect)))


def _selects_nothing(text: str, analysis: sel.Analysis, dialect: str, fixes: Sequence[Fix]) -> str:
    """Why a repair must not be applied: it compares literals only (a constant condition) or the
    solver proves it selects no message (W040). A CI step that fixes and passes would otherwise
    silently break a consumer; '' when neither."""
    quoted = any(f.code == "E005" for f in fixes)
    also = (" (in Artemis and the Qpid JMS client \"...\" is a quoted property name: `--dialect artemis` "
            "reads it so)") if quoted else ""
    for x in n.walk(analysis.ast) if analysis.ast is not None else ():
        if isinstance(x, n.PREDICATES) and not any(isinstance(y, n.Identifier) for y in n.walk(x)):
            return f"the fixed selector would compare literals only: `{clip(text[x.span.start:x.span.end])}`{also}"
    from jmsctl.analysis import vacuity

    if any(d.code == "W040" for d in vacuity.diagnostics(text, dialect)):
        return f"the fixed selector `{clip(text)}` would select no message (W040){also}"
    return ""


def _tidy(text: str, edit: Edit) -> Edit:
    """A rewrite's padding spaces dropped where the text already has one (`x = -1`, not `x =  -1 `)."""
    start, end, new = edit
    if new.startswith(" ") and start > 0 and text[start - 1].isspace():
        new = new[1:]
    if new.endswith(" ") and (end >= len(text) or text[end].isspace()):
        new = new[:-1]
    return (start, end, new)


def _title(text: str, site: rewrites.Site) -> str:
    start, end = site.span
    edits = [_tidy(text, e) for e in site.edits]
    grown = sum(len(new) - (b - a) for a, b, new in edits)
    return f"`{clip(text[start:end])}` -> `{clip(rewrites.apply(text, edits)[start : end + grown].strip())}`"


def describe(f: Fix, proof: str) -> str:
    """A fix in one line, with why it is safe: what it assumes, or the proof that nothing changes."""
    why = f"assumes {f.assumes}" if f.assumes else f"{proof}: selects the same messages"
    return f"{f.code}: {f.title} ({why})"


def minimal_edits(a: str, b: str) -> tuple[Edit, ...]:
    """The edits that turn ``a`` into ``b``, character-wise smallest (difflib) for texts of
    ordinary length; beyond ``_DIFF_LIMIT`` one edit between the common prefix and suffix."""
    if a == b:
        return ()
    if len(a) + len(b) > _DIFF_LIMIT:
        p = 0
        while p < min(len(a), len(b)) and a[p] == b[p]:
            p += 1
        s = 0
        while s < min(len(a), len(b)) - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
            s += 1
        return ((p, len(a) - s, b[p : len(b) - s]),)
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return tuple((i1, i2, b[j1:j2]) for tag, i1, i2, j1, j2 in ops if tag != "equal")


__all__ = ["Edit", "Fix", "Fixed", "Suggestion", "describe", "fix", "minimal_edits", "prove", "same_ast", "shape"]

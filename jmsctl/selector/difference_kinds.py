"""What kind of difference a witness shows, for what no rewrite explains (see rewrites.py): an
absent header read as a value, an integer division not truncated, a property the dialect ignores,
a string literal it rewrites. Each kind is confirmed on the witness (or on the messages around it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jmsctl.diagnostics import Span
from jmsctl.selector import nodes as n
from jmsctl.selector.limits import clip
from jmsctl.selector.reference import evaluate as reference_evaluate
from jmsctl.selector.witness import STANDARD, Candidate, Ingredients, Readings, header_candidates, messages
from jmsctl.values import STRING, format_plain, java_idiv


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


def absent_header(text: str, repaired: str, d: str, c: Candidate, ing: Ingredients, readings: Readings) -> tuple[str, Any] | None:
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


def shown_header(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)


def classify(text: str, repaired: str, d: str, ast: n.Node, c: Candidate, ing: Ingredients, readings: Readings) -> Finding:
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
        return Finding("W028", d, first_span(ast, ignored), f"{{who}} ignore{{s}} the property {clip(ignored)}: it reads NULL whatever the message holds",
                       f"use another property name than {clip(ignored)}", c, key=ignored)
    literal = _rewritten_string(text, repaired, d, ast, c, readings)
    if literal is not None:
        return Finding("W027", d, literal.span, f"{{who}} rewrite{{s}} the string literal {clip(format_plain(*literal.value))}: "
                       "a property with that value is not selected as the standard selects it",
                       "compare JMSDeliveryMode with these values only; for other names use another value", c, key=literal.value[1])
    return Finding("W029", d, Span(0, len(text)), "{who} give{s} a different verdict from the standard on this message",
                   "see the witness; the dialect table in the README lists the known differences", c, key="generic")


def _ignored_property(original: str, text: str, d: str, c: Candidate, ing: Ingredients, readings: Readings) -> str | None:
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


def _rewritten_string(text: str, repaired: str, d: str, ast: n.Node, c: Candidate, readings: Readings) -> n.Literal | None:
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


def first_span(ast: n.Node, name: str) -> Span:
    for node in n.walk(ast):
        if isinstance(node, n.Identifier) and node.name == name:
            return node.span
    return ast.span


__all__ = ["Finding", "absent_header", "classify", "first_span", "shown_header"]

"""What kind of difference a witness shows, for what no rewrite explains (see rewrites.py): an
absent header read as a value, an integer division not truncated, a property whose Java type
(byte, short, float, long) changes the verdict, a property the dialect ignores, a string literal it
rewrites, an = or <> with a NULL operand, Strings ordered with < or >, LIKE or IN on a non-String.
The first kinds are confirmed by changing the witness (or the selector) and watching the verdicts
agree; the last three are named from the standard's evaluation of the witness.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from jmsctl.analysis.witness import FIELD_PROPERTIES, STANDARD, Candidate, Ingredients, Readings, header_candidates, messages
from jmsctl.diagnostics import Span
from jmsctl.selector import nodes as n
from jmsctl.selector.limits import clip
from jmsctl.selector.reference import evaluate as reference_evaluate
from jmsctl.values import BOOLEAN, DOUBLE, INT, LONG, STRING, JType, format_plain, in_range, java_idiv


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
    """A header absent from ``c`` that the dialect reads as if it were set: (name, the value it reads:
    the dialect table's default when that fits the verdicts, else the one value that does, else None)."""
    theirs = readings.verdict(repaired, d, c)
    for name in c.absent(x for x in ing.names if x in HEADER_LIKE):
        fitting = [v for v in header_candidates(name, ing)
                   if readings.verdict(repaired, d, c.with_value(name, v)) == theirs == readings.verdict(text, STANDARD, c.with_value(name, v))]
        if fitting:
            default = _table_default(d, name)
            return name, default if default in fitting else fitting[0] if len(fitting) == 1 else None
    return None


def _table_default(dialect: str, name: str) -> Any:
    """The header's default in the dialect table (dialects.Dialect.header_defaults), as a JSON header value."""
    try:
        found = import_module("jmsctl.selector.dialects").get(dialect).header_defaults.get(name)
    except (ImportError, ValueError, AttributeError):
        return None
    return found[1] if isinstance(found, tuple) else None


HEADER_LIKE = frozenset(("JMSPriority", "JMSDeliveryMode", "JMSTimestamp", "JMSType", "JMSCorrelationID", "JMSMessageID",
                         "JMSExpiration", "JMSRedelivered", "JMSDestination", "JMSReplyTo", "JMSDeliveryTime", *FIELD_PROPERTIES))


def shown_header(value: Any) -> str:
    if isinstance(value, tuple):  # a typed property value
        value = value[1]
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
    named = _named_by_evaluation(text, repaired, d, ast, c, readings)
    if named is not None:
        return named
    return Finding("W029", d, Span(0, len(text)), "{who} give{s} a different verdict from the standard on this message",
                   "see the witness; docs/dialects.md lists each dialect's rules", c, key="generic")


_SAME_VALUE_TYPES = (INT, LONG, DOUBLE)


def _java_type(text: str, repaired: str, d: str, c: Candidate, readings: Readings) -> tuple[str, JType, JType] | None:
    """A property whose value, held as another Java type (same value), makes the dialect agree."""
    want = readings.verdict(text, STANDARD, c)
    for name, (t, v) in c.properties:
        if t is STRING or t is BOOLEAN:
            continue
        for other in _SAME_VALUE_TYPES:
            if other is t or (other is not DOUBLE and (not float(v).is_integer() or not in_range(other, int(v)))):
                continue
            value = (other, float(v) if other is DOUBLE else int(v))
            if other is DOUBLE and float(value[1]) != v:
                continue
            moved = c.with_value(name, value)
            if readings.verdict(text, STANDARD, moved) == want and readings.verdict(repaired, d, moved) == want:
                return name, t, other
    return None


def _named_by_evaluation(text: str, repaired: str, d: str, ast: n.Node, c: Candidate, readings: Readings) -> Finding | None:
    """Kinds read off the standard's evaluation of the witness (which node meets what)."""
    typed = _java_type(text, repaired, d, c, readings)
    if typed is not None:
        name, t, other = typed
        return Finding("W031", d, first_span(ast, name), f"{{who}} give{{s}} another verdict when {clip(name)} is a {t.java_name}: "
                       f"held as {'an' if other is INT else 'a'} {other.java_name} (the same value) it agrees with the standard",
                       "brokers compare and negate byte, short, float and long values each their own way: give properties "
                       "a selector reads the same type on every producer (int or long, double)", c, key=f"{name}:{t.java_name}")
    ev = reference_evaluate(ast, c.message().get, STANDARD)
    for node in n.walk(ast):
        src = clip(text[node.span.start : node.span.end])
        if isinstance(node, n.Comparison):
            a, b = ev.of(node.left).value, ev.of(node.right).value
            if node.op in ("=", "<>") and (a is None or b is None):
                return Finding("W032", d, node.span, f"{{who}} do{{es}} not read `{src}` as UNKNOWN when an operand is NULL",
                               "test for NULL first (`x IS NOT NULL AND ...`): an absent property then selects nothing on every broker",
                               c, key=f"null:{node.span.start}")
            if node.op not in ("=", "<>") and _is_string(a) and _is_string(b):
                return Finding("W033", d, node.span, f"{{who}} order{{s}} Strings with `{node.op}` in `{src}`; the standard: FALSE",
                               "ordering is for numbers: compare Strings with =, <>, LIKE or IN", c, key=f"order:{node.span.start}")
        elif isinstance(node, n.Between) and any(ev.of(x).value is None for x in (node.operand, node.low, node.high)):
            return Finding("W032", d, node.span, f"{{who}} do{{es}} not read `{src}` as UNKNOWN when an operand is NULL",
                           "test for NULL first (`x IS NOT NULL AND ...`): an absent property then selects nothing on every broker",
                           c, key=f"null:{node.span.start}")
        elif isinstance(node, (n.Like, n.InList)):
            v = ev.of(node.operand).value
            if v is not None and not _is_string(v):
                what = "LIKE" if isinstance(node, n.Like) else "IN"
                return Finding("W034", d, node.span, f"{{who}} do{{es}} not read `{src}` as UNKNOWN when the value is not a String",
                               f"{what} is for Strings: test other values with = or BETWEEN", c, key=f"like:{node.span.start}")
    return None


def _is_string(v: Any) -> bool:
    return isinstance(v, tuple) and v[0] is STRING


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

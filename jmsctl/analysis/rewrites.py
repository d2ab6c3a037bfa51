"""Rewrites that mean the same under the standard: the portability lint's probes.

A site is a place in a selector with an edit the standard reads the same way (``NOT a = 1`` ->
``NOT (a = 1)``, a literal -> its decimal value, ``--`` -> ``- -``); when the edit makes a dialect
agree with the standard on a witness, the site is what that dialect reads differently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from jmsctl.diagnostics import Diagnostic, Span
from jmsctl.selector import nodes as n
from jmsctl.selector.limits import clip
from jmsctl.values import format_plain


@dataclass(frozen=True)
class Site:
    code: str
    span: Span
    message: str
    hint: str
    edits: tuple[tuple[int, int, str], ...]  # replace original[start:end]; insertions have start == end


def apply(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """The original text with non-overlapping edits, applied from the end so offsets stay valid."""
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def sites(text: str, ast: n.Node, theirs: n.Node | None) -> list[Site]:
    return [*_not_sites(text, ast), *_literal_sites(text, ast, theirs), *_comment_sites(text)]


def _not_sites(text: str, ast: n.Node) -> Iterable[Site]:
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
        yield Site("W022", node.span, f"{{who}} read{{s}} `{clip(src)}` as `{clip(read_as)}`",
                    f"write `NOT ({clip(operand)})`: parentheses make every broker read it the same way",
                    ((op.span.start, op.span.start, "("), (op.span.end, op.span.end, ")")))


def _leftmost(node: n.Node) -> n.Node:
    """The first primary of an expression: what a NOT binding tighter than everything applies to."""
    while True:
        kids = n.children(node)
        if not kids or isinstance(node, n.Unary) or kids[0].span.start != node.span.start:
            return node
        node = kids[0]


def _literal_sites(text: str, ast: n.Node, theirs: n.Node | None) -> Iterable[Site]:
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
        yield Site("W024", lit.span, f"{{who}} read{{s}} the literal `{clip(src)}` as {format_plain(*other.value)} "
                    f"({other.value[0].java_name}); the standard reads {decimal} ({lit.value[0].java_name})",
                    f"write the value in decimal: `{decimal}`", ((lit.span.start, lit.span.end, f" {decimal} " if decimal.startswith("-") else decimal),))


_STRING_OR_DASHES = re.compile(r"'(?:[^']|'')*'?|--")


def _comment_sites(text: str) -> Iterable[Site]:
    for m in _STRING_OR_DASHES.finditer(text):
        if m.group() != "--":
            continue
        start = m.start()
        end_of_line = min((i for i in (text.find("\n", start), text.find("\r", start)) if i >= 0), default=len(text))
        rest = text[start:end_of_line]
        yield Site("W026", Span(start, end_of_line), f"{{who}} read{{s}} `{clip(rest)}` as a comment; the standard reads a double minus",
                    "selectors have no comments: write `- -` with a space for a double minus, or remove the text",
                    ((start, start + 2, "- -"),))


def rejected_hint(text: str, first: Diagnostic) -> str:
    shown = text[first.span.start : max(first.span.end, first.span.start + 1)]
    if re.search(r"\d[lL]\b", shown):
        return "drop the `L` suffix: an integer literal beyond the int range is a long anyway"
    if any(ord(ch) > 127 for ch in shown):
        return "use ASCII letters, digits, `_` and `$` in names: not every broker reads other Java letters"
    return "write it in the subset every broker parses"



__all__ = ["Site", "apply", "rejected_hint", "sites"]

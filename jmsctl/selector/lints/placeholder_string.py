"""W015: a template placeholder inside a string literal (``clientID = '${clientID}'``, ``id = '%s'``).

Valid, and compared with the placeholder's own text unless something fills it in before the
selector reaches the broker: Spring resolves ``${...}`` in ``@JmsListener`` attributes and in its
configuration files, ``String.format`` fills ``%s``, but a selector written in plain code is used
as written. ``jmsctl scan`` knows which: where the language or framework fills it in, the part is
a run-time hole (I001 says who fills it) and this rule does not see it.
"""

from __future__ import annotations

import re

from jmsctl.diagnostics import Diagnostic, Span, warning
from jmsctl.selector import nodes as n
from jmsctl.selector.hints import TEMPLATE
from jmsctl.selector.limits import clip
from jmsctl.selector.lints import Rule
from jmsctl.values import STRING

# printf's %s, %d, %1$s, %08.2f: only where no letter or digit follows (not '5%discount', not '100% sure').
PRINTF = re.compile(r"%(?:[0-9]+\$)?[-#+0,(]*[0-9]*(?:\.[0-9]+)?[sdfxXeEgG](?![A-Za-z0-9])")
_WHO = {"$": "a Spring, Maven or shell placeholder", "#": "a SpEL expression", "{": "a placeholder"}


def _literals(node: n.Node) -> list[tuple[n.Literal, bool]]:
    """String literals compared with something, and whether printf's % is a placeholder there
    (not in a LIKE pattern, where '%s' is 'ends with s')."""
    kind = type(node)
    if kind is n.Comparison:
        left, right = node.left, node.right  # type: ignore[union-attr]
        if type(left) is not n.Literal and type(right) is not n.Literal:
            return []
        return [(x, True) for x in (left, right) if type(x) is n.Literal]  # type: ignore[misc]
    if kind is n.InList:
        return [(x, True) for x in node.items if type(x) is n.Literal]  # type: ignore[union-attr, misc]
    if kind is n.Like and type(node.pattern) is n.Literal:  # type: ignore[union-attr]
        return [(node.pattern, False)]  # type: ignore[union-attr, list-item]
    return []


_MARKS = re.compile(r"[{%]")  # every placeholder holds one: most strings are rejected by this one search


def placeholder(text: str, printf: bool) -> re.Match[str] | None:
    if _MARKS.search(text) is None:
        return None
    found = TEMPLATE.search(text)
    if found is None and printf:
        found = PRINTF.search(text)
    return found


def describe(shown: str) -> str:
    if shown.startswith("{{"):
        return "a Camel property placeholder"
    if shown.startswith("%"):
        return "a String.format placeholder"
    if shown.startswith("{"):
        return "a MessageFormat placeholder"
    return _WHO.get(shown[0], "a placeholder")


def run(node: n.Node, source: str) -> list[Diagnostic]:
    """(A list, not a generator: the checker calls this for every comparison, and most have nothing.)"""
    out: list[Diagnostic] = []
    for lit, printf in _literals(node):
        if lit.value[0] is not STRING or ("{" not in lit.value[1] and "%" not in lit.value[1]):
            continue
        found = placeholder(lit.value[1], printf)
        if found is None:
            continue
        shown = clip(found.group())
        # The placeholder's position in the source: the literal's text with '' for each quote.
        at = source.find(found.group(), lit.span.start, lit.span.end)
        span = Span(at, at + len(found.group())) if at >= 0 else lit.span
        out.append(warning("W015", f"{shown} inside a string literal is {describe(found.group())}: the selector compares with the text "
                      f"{clip(lit.text or repr(lit.value[1]))} itself unless something fills it in first", span,
                      hint="fill the value in before the selector is used (plain Java, JMS and brokers never do); "
                           "Spring resolves ${...} only in @JmsListener attributes and its configuration files"))
    return out


RULE = Rule("W015", "a template placeholder inside a string literal (`id = '${id}'`, `'%s'`, `'{0}'`): compared as text unless filled in first",
            (n.Comparison, n.InList, n.Like), run)

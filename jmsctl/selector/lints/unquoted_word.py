"""W016: an unquoted word compared with a property (``color = red``, ``status <> ACTIVE``).

Valid: two properties compared, and a message rarely carries a property named ``red``, so the
comparison is UNKNOWN and selects nothing; a missing pair of quotes, nearly always. Alone the
rule guesses from the word's shape: a lower-case word (``red``), a capitalised one
(``London``) or an upper-case constant (``ACTIVE``, ``ORDER_CREATED``) on the right of a
property name; not single letters (``a = b`` is how tests compare two properties), not a
camelCase or snake_case name (``oldPrice``, ``old_price``). Told which properties the messages carry (``--like DUMP`` / ``--properties``,
jmsctl/analysis/), it warns exactly: the word is not one of them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from jmsctl.diagnostics import Diagnostic, warning
from jmsctl.selector import nodes as n
from jmsctl.selector.limits import clip
from jmsctl.selector.lints import Rule

_LOWER = re.compile(r"[a-z][a-z0-9]+")  # red, order, eu2
_UPPER = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")  # ACTIVE, ORDER_CREATED
_CAPITALISED = re.compile(r"[A-Z][a-z]+")  # Red, London


def _style(name: str) -> str | None:
    """The shape of a word that reads as a value, or None for a name that reads as a property."""
    for style, pattern in (("lower", _LOWER), ("upper", _UPPER), ("capitalised", _CAPITALISED)):
        if pattern.fullmatch(name):
            return style
    return None


def looks_like_value(word: str, other: str) -> bool:
    """Whether ``word``, compared with the property ``other``, reads as a value missing its quotes:
    a plain word (``red``, ``ACTIVE``, ``London``) beside a name of at least two characters."""
    return len(word) >= 2 and len(other) >= 2 and word != other and _style(word) is not None


def _application(node: n.Node) -> bool:
    return isinstance(node, n.Identifier) and node.kind is n.IdentifierKind.APPLICATION


def suspects(node: n.Comparison, properties: Collection[str] | None = None) -> Iterator[tuple[n.Identifier, n.Identifier]]:
    """(the property, the unquoted word) of a comparison of two identifiers, by shape alone or, given
    the names the messages carry, exactly: the word is none of them and the other side is one (or a header)."""
    if node.op not in ("=", "<>") or not isinstance(node.left, n.Identifier) or not isinstance(node.right, n.Identifier):
        return
    left, right = node.left, node.right
    for prop, word in ((left, right), (right, left)):
        if not _application(word):
            continue
        if properties is not None:
            known_prop = prop.kind is not n.IdentifierKind.APPLICATION or prop.name in properties
            if word.name in properties:
                continue
            if known_prop:
                yield prop, word
                return
        if prop.name in _NUMERIC_HEADERS:
            continue  # JMSPriority = high: quotes would not help (W002 would say so), nor is it two properties
        if word is right and (looks_like_value(word.name, prop.name) or _header_beside(prop, word)):
            yield prop, word
            return


_NUMERIC_HEADERS = ("JMSPriority", "JMSTimestamp", "JMSXDeliveryCount", "JMSXGroupSeq", "JMSXRcvTimestamp", "JMSXState")


def _header_beside(prop: n.Identifier, word: n.Identifier) -> bool:
    """``JMSType = car``: a String header compared with a bare word is a value missing its quotes."""
    return prop.name in n.HEADERS and len(word.name) >= 2


def diagnostic(node: n.Comparison, prop: n.Identifier, word: n.Identifier, why: str = "") -> Diagnostic:
    return warning("W016", f"{clip(word.name)} is not quoted: it is read as a property, so this compares {clip(prop.name)} with "
                   f"the property {clip(word.name)}{why}, not with the text {clip(word.name)}", word.span,
                   hint=f"did you mean the string '{clip(word.name)}'?")


def run(node: n.Node, source: str) -> list[Diagnostic]:
    if type(node.right) is not n.Identifier or type(node.left) is not n.Identifier:  # type: ignore[union-attr]
        return []  # the common case, first: a literal on one side
    assert isinstance(node, n.Comparison)
    return [diagnostic(node, prop, word) for prop, word in suspects(node)]


RULE = Rule("W016", "an unquoted word compared with a property (`color = red`): two properties compared, not a text (`--like`, `--properties`: exactly)",
            (n.Comparison,), run)

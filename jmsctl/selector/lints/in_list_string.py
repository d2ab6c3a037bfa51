"""W017: one string holding a whole list inside IN (``JMSType IN ('closed, saleUpdate')``).

Valid: the list has one item, the text with its comma, which no message carries when the
values were meant. The hint (and ``check --fix``, shown only: it changes what is selected) splits it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jmsctl.diagnostics import Diagnostic, warning
from jmsctl.selector import nodes as n
from jmsctl.selector.limits import clip
from jmsctl.selector.lints import Rule
from jmsctl.values import STRING

_PART = re.compile(r"[^\s,']+(?: [^\s,']+)?")  # a value: a word, or two (not a sentence)


def parts(text: str) -> list[str] | None:
    """The values a listed string holds ('closed, saleUpdate' -> ['closed', 'saleUpdate']), or None."""
    if "," not in text:
        return None
    out = [p.strip() for p in text.split(",")]
    if len(out) < 2 or not all(_PART.fullmatch(p) for p in out):
        return None
    return out


def quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def split_items(node: n.InList) -> str:
    """The IN list written with every listed string split: ('closed', 'saleUpdate')."""
    items: list[str] = []
    for item in node.items:
        got = parts(item.value[1]) if isinstance(item, n.Literal) and item.value[0] is STRING else None
        if got is not None:
            items.extend(quoted(p) for p in got)
        elif isinstance(item, n.Literal) and item.value[0] is STRING:
            items.append(quoted(item.value[1]))
        else:
            return ""
    return "(" + ", ".join(items) + ")"


def run(node: n.Node, source: str) -> Iterator[Diagnostic]:
    assert isinstance(node, n.InList)
    for item in node.items:
        if not isinstance(item, n.Literal) or item.value[0] is not STRING:
            continue
        got = parts(item.value[1])
        if got is None:
            continue
        written = split_items(node)
        yield warning("W017", f"IN with the one string {clip(quoted(item.value[1]))}: it matches that text, commas included, "
                      f"not the {len(got)} values it lists", item.span,
                      hint=f"did you mean IN {clip(written)}?" if written else "write each value as its own string literal")


RULE = Rule("W017", "one string holding a list inside IN (`x IN ('a, b')`): one value with a comma, not two", (n.InList,), run)

"""A broker LIKE pattern as a z3 regular expression, for broker_encoding.py: the pieces of the very
regex the broker evaluator matches with (selector/dialects/broker_evaluator.like_regex, after
apache/activemq ``filter/ComparisonExpression.java`` LikeExpression, lines 78-110: the escape
character escapes only '_', '%' and itself, an escaped one written as ``\\x`` and its hex digits)."""

from __future__ import annotations

import re

import z3

from jmsctl.analysis.smt import string_val
from jmsctl.selector import nodes as n
from jmsctl.selector.dialects.broker_evaluator import like_regex as broker_like_regex


def like_regex(node: n.Like) -> z3.ReRef:
    """The broker's LIKE regex (broker_evaluator.like_regex): the escape character escapes only
    '_', '%' and itself; an escaped one is written as ``\\x`` and its hex digits."""
    assert isinstance(node.pattern, n.Literal)
    pattern = node.pattern.value[1]
    escape = node.escape.value[1] if isinstance(node.escape, n.Literal) else None
    parts: list[z3.ReRef] = []
    any_char = z3.AllChar(z3.ReSort(z3.StringSort()))
    for piece in _like_pieces(broker_like_regex(pattern, escape).pattern):
        parts.append(z3.Star(any_char) if piece is None else any_char if piece == "" else z3.Re(string_val(piece)))
    if not parts:
        return z3.Re(z3.StringVal(""))
    return z3.Concat(*parts) if len(parts) > 1 else parts[0]


def _like_pieces(regex: str) -> list[str | None]:
    """The pieces of like_regex's output: None for ``.*?``, "" for ``.``, else literal text (re.escape'd in it)."""
    out: list[str | None] = []
    for m in re.finditer(r"\.\*\?|\.|\\(.)|(.)", regex, re.DOTALL):
        if m.group(0) == ".*?":
            out.append(None)
        elif m.group(0) == ".":
            out.append("")
        else:
            ch = m.group(1) if m.group(1) is not None else m.group(2)
            if out and isinstance(out[-1], str) and out[-1] != "":
                out[-1] += ch
            else:
                out.append(ch)
    return out


__all__ = ["like_regex"]

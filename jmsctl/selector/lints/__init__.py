"""Lints: selectors that are valid but almost surely mean something else than was written (issue 22).

One module per rule, as ruff keeps one rule per module: each module defines ``RULE``, naming its
code, the node types it reads, and a function from (node, source) to diagnostics. The checker
runs every rule in its one walk over the AST (a dict lookup per node: no second walk); ``ROOT``
rules look at the whole selector only. Adding a rule is a module and a line in ``_MODULES``.
Rules here read the selector alone; a lint that needs messages (``--like DUMP``) lives in
jmsctl/analysis/ and refines these with what the messages carry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from jmsctl.diagnostics import Diagnostic
from jmsctl.selector import nodes as n

Run = Callable[[n.Node, str], Iterable[Diagnostic]]


@dataclass(frozen=True)
class Rule:
    code: str
    summary: str  # the README table's words
    nodes: tuple[type, ...]  # node types the rule reads; empty with ``root``
    run: Run
    root: bool = False  # read only the whole selector's node


_MODULES = ("placeholder_string", "unquoted_word", "in_list_string", "bare_identifier")


@cache
def rules() -> tuple[Rule, ...]:
    return tuple(importlib.import_module(f"jmsctl.selector.lints.{name}").RULE for name in _MODULES)


@cache
def by_node_type() -> dict[type, tuple[Run, ...]]:
    """Node type -> the run functions of the rules that read it (the checker's dispatch: one dict
    lookup per node, and a call per rule only where a rule reads that node type)."""
    out: dict[type, list[Run]] = {}
    for rule in rules():
        for kind in rule.nodes:
            out.setdefault(kind, []).append(rule.run)
    return {k: tuple(v) for k, v in out.items()}


@cache
def root_rules() -> tuple[Rule, ...]:
    return tuple(r for r in rules() if r.root)


def codes() -> tuple[str, ...]:
    return tuple(r.code for r in rules())


def run_all(node: n.Node, source: str) -> list[Diagnostic]:
    """Every rule over a whole AST, in source order: for the brokers' dialects, whose checks are not
    the checker's (the standard's checker runs the rules in its own walk). The rules read the
    selector as written, which the brokers' grammar builds into the same nodes."""
    out: list[Diagnostic] = []
    for rule in root_rules():
        out.extend(rule.run(node, source))
    lints = by_node_type()
    for child in n.walk(node):
        for run in lints.get(type(child), ()):
            out.extend(run(child, source))
    out.sort(key=lambda d: (d.span.start, d.code))
    return out


__all__ = ["Rule", "by_node_type", "codes", "root_rules", "rules", "run_all"]

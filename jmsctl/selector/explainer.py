"""AST (x message) -> an explanation as data: tree with static types, canonical form, the
identifiers read, warnings, and with a message every node's value and why. Rendering is the CLI's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jmsctl import selector as sel
from jmsctl.diagnostics import Diagnostic
from jmsctl.selector import nodes as n
from jmsctl.selector.checker import static_type
from jmsctl.selector.reference import Evaluation, evaluate
from jmsctl.selector.unparser import unparse
from jmsctl.values import tri_name


@dataclass
class ExplainNode:
    label: str
    static_type: str
    source: str  # the node's own text in the selector
    children: list[ExplainNode] = field(default_factory=list)
    value: str | None = None  # with a message: TRUE/FALSE/UNKNOWN or a typed value
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"node": self.label, "type": self.static_type, "source": self.source}
        if self.value is not None:
            d["value"] = self.value
            d["reason"] = self.reason
        if self.children:
            d["children"] = [c.to_dict() for c in self.children]
        return d


@dataclass(frozen=True)
class IdentifierUse:
    name: str
    kind: str
    static_type: str


@dataclass
class Explanation:
    selector: str
    dialect: str
    diagnostics: tuple[Diagnostic, ...]
    canonical: str | None = None
    identifiers: list[IdentifierUse] = field(default_factory=list)
    tree: ExplainNode | None = None
    result: str | None = None  # TRUE/FALSE/UNKNOWN with a message
    selected: bool | None = None
    whole_false: str | None = None

    @property
    def valid(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    def to_dict(self) -> dict[str, Any]:
        return {
            "selector": self.selector,
            "dialect": self.dialect,
            "valid": self.valid,
            "canonical": self.canonical,
            "identifiers": [vars(i) for i in self.identifiers],
            "diagnostics": [d.to_dict(self.selector) for d in self.diagnostics],
            "tree": self.tree.to_dict() if self.tree else None,
            "result": self.result,
            "selected": self.selected,
            "whole_selector_false": self.whole_false,
        }


def explain(text: str, get: Callable[[str], Any] | None = None, dialect: str = "jakarta") -> Explanation:
    """Explain a selector; with ``get`` (a message's value lookup) also evaluate it, node by node."""
    analysis = sel.analyze(text)
    out = Explanation(text, dialect, analysis.diagnostics)
    if not analysis.valid:
        return out
    ast = analysis.ast
    out.canonical = unparse(ast)
    out.identifiers = _identifiers(ast)
    if ast is None:
        if get is not None:
            out.result, out.selected = "TRUE", True
        return out
    ev = evaluate(ast, get, dialect) if get is not None else None
    out.tree = _tree(ast, text, ev)
    if ev is not None:
        out.result, out.selected, out.whole_false = tri_name(ev.result), ev.selected, ev.whole_false
    return out


def _identifiers(ast: n.Node | None) -> list[IdentifierUse]:
    seen: dict[str, IdentifierUse] = {}
    for node in n.walk(ast) if ast is not None else []:
        if isinstance(node, n.Identifier) and node.name not in seen:
            seen[node.name] = IdentifierUse(node.name, node.kind.value, static_type(node))
    return list(seen.values())


def _tree(node: n.Node, text: str, ev: Evaluation | None) -> ExplainNode:
    label = n.node_label(node)
    if isinstance(node, n.Identifier):
        label = f"{node.name} ({node.kind.value})"
    elif isinstance(node, n.Literal):
        label = f"{text[node.span.start:node.span.end]} (literal)"
    out = ExplainNode(label, static_type(node), text[node.span.start : node.span.end])
    if ev is not None:
        res = ev.of(node)
        out.value, out.reason = res.shown(), res.reason
    out.children = [_tree(c, text, ev) for c in n.children(node)]
    return out

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
from jmsctl.selector.limits import clip
from jmsctl.selector.reference import Evaluation, evaluate
from jmsctl.selector.unparser import unparse
from jmsctl.values import JType, Tri, tri_name


@dataclass
class ExplainNode:
    label: str
    static_type: str
    source: str  # the node's own text in the selector
    children: list[ExplainNode] = field(default_factory=list)
    value: str | None = None  # with a message: TRUE/FALSE/UNKNOWN or a typed value
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The tree as nested dicts ("children" lists), built without recursion."""
        root = self._own_dict()
        stack = [(self, root)]
        while stack:
            node, d = stack.pop()
            if node.children:
                kids = [c._own_dict() for c in node.children]
                d["children"] = kids
                stack.extend(zip(node.children, kids, strict=True))
        return root

    def _own_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"node": self.label, "type": self.static_type, "source": self.source}
        if self.value is not None:
            d["value"] = self.value
            d["reason"] = self.reason
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
    analysis = sel.analyze(text, dialect)
    out = Explanation(text, dialect, analysis.diagnostics)
    if not analysis.valid:
        return out
    ast = analysis.ast
    if sel.dialects.get(dialect).is_broker:
        return _explain_broker(out, ast, get, dialect)
    out.canonical = unparse(ast)
    out.identifiers = _identifiers(ast)
    if ast is None:
        if get is not None:
            out.result, out.selected = "TRUE", True
        return out
    ev = evaluate(ast, get, dialect) if get is not None else None
    out.tree = _tree(ast, text, ev, {})
    if ev is not None:
        out.result, out.selected, out.whole_false = tri_name(ev.result), ev.selected, ev.whole_false
    return out


def _explain_broker(out: Explanation, ast: n.Node | None, get: Callable[[str], Any] | None, dialect: str) -> Explanation:
    """A broker dialect: its own parse (canonical text fully parenthesised, so that it reads the same
    under either grammar) and the engine's verdict, delivered or not; no per-node values (the
    reference walker follows the standard's value model, not the engine's)."""
    from jmsctl.selector.dialects import broker_parser
    from jmsctl.selector.dialects.broker_evaluator import compile_java

    out.canonical = broker_parser.canonical(ast) if ast is not None else None
    out.identifiers = _identifiers(ast)
    if ast is not None:
        out.tree = _tree(ast, out.selector, None, {})
    if get is not None:
        out.selected = compile_java(ast, sel.dialects.get(dialect).for_selector(out.selector))(get) is True
        out.result = "TRUE" if out.selected else "FALSE"
    return out


def _identifiers(ast: n.Node | None) -> list[IdentifierUse]:
    seen: dict[str, IdentifierUse] = {}
    for node in n.walk(ast) if ast is not None else []:
        if isinstance(node, n.Identifier) and node.name not in seen:
            seen[node.name] = IdentifierUse(node.name, node.kind.value, static_type(node))
    return list(seen.values())


def _tree(root: n.Node, text: str, ev: Evaluation | None, types: dict[int, JType | None]) -> ExplainNode:
    """The explanation tree, built without recursion; an AND/OR chain is one node over all its operands."""
    out, operands = _explain_node(root, text, ev, types)
    stack = [(out, operands)]
    while stack:
        parent, operands = stack.pop()
        for operand in operands:
            child, grandchildren = _explain_node(operand, text, ev, types)
            parent.children.append(child)
            stack.append((child, grandchildren))
    return out


def _explain_node(node: n.Node, text: str, ev: Evaluation | None, types: dict[int, JType | None]) -> tuple[ExplainNode, list[n.Node]]:
    """A node of the explanation (without its children yet) and the AST nodes to explain under it."""
    operands = n.chain(node) if isinstance(node, (n.And, n.Or)) else list(n.children(node))
    label = n.node_label(node)
    if isinstance(node, n.Identifier):
        label = f"{clip(node.name)} ({node.kind.value})"
    elif isinstance(node, n.Literal):
        label = f"{clip(text[node.span.start:node.span.end])} (literal)"
    elif isinstance(node, (n.And, n.Or)) and len(operands) > 2:
        label = f"{label} ({len(operands):,} operands)"
    out = ExplainNode(label, static_type(node, types), clip(text[node.span.start : node.span.end], SOURCE_SHOWN))
    if ev is not None:
        res = ev.of(node)
        out.value, out.reason = res.shown(), res.reason
        if isinstance(node, (n.And, n.Or)) and len(operands) > 2:
            out.reason = _chain_reason("AND" if isinstance(node, n.And) else "OR", [ev.of(o).value for o in operands])
    return out, operands


SOURCE_SHOWN = 1000  # a node's source text in the explanation is cut beyond this (nested nodes repeat it)


def _chain_reason(op: str, values: list[Tri]) -> str:
    if len(values) <= 6:
        return f" {op} ".join(tri_name(v) for v in values)
    counts = [(sum(1 for v in values if v is want), name) for want, name in ((True, "TRUE"), (False, "FALSE"), (None, "UNKNOWN"))]
    return f"{len(values):,} operands: " + ", ".join(f"{c:,} {name}" for c, name in counts if c)

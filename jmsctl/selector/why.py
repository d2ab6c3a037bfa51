"""Why one message was or was not selected, in a few lines: the conditions that decided it.

``explain`` shows the whole tree on one message; ``filter --explain`` needs, for each message it
writes, only what decided the verdict. From an evaluated explanation tree (``explainer.explain``):

- selected (TRUE): the conditions that made it TRUE: every operand of an AND, the first TRUE
  operand of an OR, and under NOT the condition that was FALSE;
- not selected (FALSE or UNKNOWN): the first condition that was FALSE or UNKNOWN: the first such
  operand of an AND, every operand of an OR (each failed), and under NOT the condition that was TRUE.
"""

from __future__ import annotations

from dataclasses import dataclass

from jmsctl.selector.explainer import ExplainNode, Explanation


@dataclass(frozen=True)
class Reason:
    """One deciding condition: its text in the selector, its value and why it has it."""

    source: str
    value: str
    why: str | None
    negated: bool = False  # under a NOT (an odd number of them): its value is the opposite of its effect

    def __str__(self) -> str:
        text = f"{self.source}: {self.value}" + (f" ({self.why})" if self.why and self.why != self.value else "")
        return text + (", under NOT" if self.negated else "")


def _kind(node: ExplainNode) -> str:
    """AND, OR or NOT for the logical nodes (``AND (5 operands)`` too; not ``NOT LIKE``), else the label."""
    return node.label.split(" (", 1)[0]


def deciding(ex: Explanation) -> list[Reason]:
    """The conditions that decided the verdict of an evaluated explanation (see the module doc)."""
    if ex.tree is None or ex.tree.value is None:
        if ex.result is None:
            return []
        # An empty selector, or a broker dialect (its engine gives the verdict, not values per node).
        return [Reason(ex.canonical or "(empty selector)", ex.result, ex.whole_false)]
    reasons: list[Reason] = []
    want_true = ex.tree.value == "TRUE"
    stack: list[tuple[ExplainNode, bool, bool]] = [(ex.tree, want_true, False)]
    while stack:  # in the selector's order (operands pushed in reverse); no recursion along a chain
        node, true_side, negated = stack.pop()
        kind = _kind(node)
        if kind == "AND" and node.children:
            chosen = node.children if true_side else [next(c for c in node.children if c.value != "TRUE")]
        elif kind == "OR" and node.children:
            chosen = [next(c for c in node.children if c.value == "TRUE")] if true_side else node.children
        elif kind == "NOT" and node.children and node.children[0].value in ("TRUE", "FALSE"):
            stack.append((node.children[0], not true_side, not negated))
            continue
        else:
            reasons.append(Reason(node.source, node.value or "?", node.reason, negated))
            continue
        stack.extend((c, true_side, negated) for c in reversed(chosen))
    if ex.whole_false:
        reasons.append(Reason(ex.selector, ex.result or "FALSE", ex.whole_false))
    return reasons


__all__ = ["Reason", "deciding"]

"""AST -> canonical selector text: fully parenthesised, upper-case keywords, literals that keep
their Java type (``5L``, ``0.1f``), so that parsing the output gives back the same AST."""

from __future__ import annotations

from jmsctl.selector import nodes as n
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, INT_MAX, INT_MIN, LONG, STRING, TypedValue, f32_repr


def literal_text(value: TypedValue) -> str:
    t, v = value
    if t is STRING:
        return "'" + v.replace("'", "''") + "'"
    if t is BOOLEAN:
        return "TRUE" if v else "FALSE"
    if t is LONG:
        return f"{v}L" if INT_MIN <= v <= INT_MAX else str(v)
    if t is FLOAT:
        return f32_repr(v).replace("E", "e") + "f"
    if t is DOUBLE:
        text = repr(v)
        return text if any(c in text for c in ".e") else text + ".0"
    return str(v)


def unparse(node: n.Node | None) -> str:
    """Canonical text; the empty selector is the empty string."""
    if node is None:
        return ""
    text = _unparse(node)
    if text.startswith("(") and _balanced_outer(text):
        return text[1:-1]
    return text


def _balanced_outer(text: str) -> bool:
    """Whether the first '(' closes at the very end (so the outer pair can be dropped)."""
    depth = 0
    in_string = False
    for i, ch in enumerate(text):
        if ch == "'":
            in_string = not in_string
        elif not in_string:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    return i == len(text) - 1
    return False


def _unparse(node: n.Node) -> str:
    if isinstance(node, n.Literal):
        return literal_text(node.value)
    if isinstance(node, n.Identifier):
        return node.name
    if isinstance(node, n.Unary):
        inner = _unparse(node.operand)
        if isinstance(node.operand, n.Literal):
            inner = f"({inner})"  # '-(5)' is not the literal -5: keep the parentheses
        return f"({node.op}{inner})" if not inner.startswith(("-", "+")) else f"({node.op} {inner})"
    if isinstance(node, (n.Arithmetic, n.Comparison)):
        return f"({_unparse(node.left)} {node.op} {_unparse(node.right)})"
    if isinstance(node, n.And):
        return f"({_unparse(node.left)} AND {_unparse(node.right)})"
    if isinstance(node, n.Or):
        return f"({_unparse(node.left)} OR {_unparse(node.right)})"
    if isinstance(node, n.Not):
        return f"(NOT {_unparse(node.operand)})"
    neg = "NOT " if getattr(node, "negated", False) else ""
    if isinstance(node, n.Between):
        return f"({_unparse(node.operand)} {neg}BETWEEN {_unparse(node.low)} AND {_unparse(node.high)})"
    if isinstance(node, n.InList):
        items = ", ".join(_unparse(i) for i in node.items)
        return f"({_unparse(node.operand)} {neg}IN ({items}))"
    if isinstance(node, n.Like):
        escape = f" ESCAPE {_unparse(node.escape)}" if node.escape is not None else ""
        return f"({_unparse(node.operand)} {neg}LIKE {_unparse(node.pattern)}{escape})"
    return f"({_unparse(node.operand)} IS {'NOT ' if node.negated else ''}NULL)"

"""AST -> canonical selector text: fully parenthesised, upper-case keywords, literals that keep
their Java type (``5L``, ``0.1f``), so that parsing the output gives back the same AST.

Every operator is parenthesised except within a chain of one logical operator, which is written
flat (``(a = 1) AND (b = 2) AND (c = 3)``): a 10,000-term OR chain stays readable and shallow."""

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


Piece = str | n.Node


def _unparse(root: n.Node) -> str:
    """Every node parenthesised, written with an explicit stack of pieces (text or nodes still to write)."""
    out: list[str] = []
    stack: list[Piece] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        else:
            stack.extend(reversed(_pieces(item)))
    return "".join(out)


def _pieces(node: n.Node) -> list[Piece]:
    if isinstance(node, n.Literal):
        return [literal_text(node.value)]
    if isinstance(node, n.Identifier):
        return [node.name]
    if isinstance(node, n.Unary):
        if isinstance(node.operand, n.Literal):
            return [f"({node.op}(", node.operand, "))"]  # '-(5)' is not the literal -5: keep the parentheses
        return [f"({node.op}", node.operand, ")"]  # the operand is parenthesised or a name: never '--x'
    if isinstance(node, (n.Arithmetic, n.Comparison)):
        return ["(", node.left, f" {node.op} ", node.right, ")"]
    if isinstance(node, (n.And, n.Or)):
        # A left-deep chain (what 'a AND b AND c' parses to) is written flat: it parses back the same.
        op = " AND " if isinstance(node, n.And) else " OR "
        kind = type(node)
        rights: list[n.Node] = []
        cur: n.Node = node
        while type(cur) is kind:
            rights.append(cur.right)  # type: ignore[union-attr]
            cur = cur.left  # type: ignore[union-attr]
        pieces: list[Piece] = ["(", cur]
        for operand in reversed(rights):
            pieces += [op, operand]
        pieces.append(")")
        return pieces
    if isinstance(node, n.Not):
        return ["(NOT ", node.operand, ")"]
    neg = "NOT " if getattr(node, "negated", False) else ""
    if isinstance(node, n.Between):
        return ["(", node.operand, f" {neg}BETWEEN ", node.low, " AND ", node.high, ")"]
    if isinstance(node, n.InList):
        items: list[Piece] = []
        for i, item in enumerate(node.items):
            items += [", ", item] if i else [item]
        return ["(", node.operand, f" {neg}IN (", *items, "))"]
    if isinstance(node, n.Like):
        escape: list[Piece] = [" ESCAPE ", node.escape] if node.escape is not None else []
        return ["(", node.operand, f" {neg}LIKE ", node.pattern, *escape, ")"]
    return ["(", node.operand, f" IS {'NOT ' if node.negated else ''}NULL)"]

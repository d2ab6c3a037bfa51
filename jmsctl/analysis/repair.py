"""Witnesses by repair: messages that nearly make a pair of selectors TRUE, changed one atom at a
time by the engine's own arithmetic: a property compared with `=` (or `<=`, `>=`, BETWEEN's low
end) to an expression gets the value the expression has on the message; a property read as a
condition gets TRUE (FALSE under NOT); a String tested by IN or LIKE one it matches (or "zqz");
an operand absent from the expression is given 1 first (a header a plain value: JMSPriority 4),
and last every name a plain value (1, 1.5, 0).

`b = -d - 0.1 OR s = (f)` beside `1.5f - f - 10L NOT BETWEEN -JMSDeliveryMode AND +t AND s`: the
second's message has s TRUE (so `s = f` cannot hold), d gets 1 and b then -1.1. The solver spent
seconds of floating-point terms on pairs like these and gave up; the engine computes -1.1 at once.
Nothing here is a proof: every message is only a candidate, judged by the caller (the engine on
both selectors after the dump format's round trip), and a failed search says nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from jmsctl.analysis.smt import FIXED_TYPES, HEADER_TYPES
from jmsctl.messages.model import Message
from jmsctl.selector import nodes as n
from jmsctl.selector.like import split_pattern
from jmsctl.values import BOOLEAN, DOUBLE, INT, LONG, RANGES, STRING, TYPE_ERROR, TypedValue, Value, arithmetic, negate, unary_plus

PHASE = 120  # messages judged at most in each of the two phases (each a few engine evaluations)
ROUNDS = 3  # repairs in a row
FILL: TypedValue = (INT, 1)  # an absent operand's first value: not 0, which a divisor must avoid
PLAIN: tuple[TypedValue, ...] = (FILL, (DOUBLE, 1.5), (INT, 0))  # a name's plain values (a double: `a / 0` is not NULL)
HEADER_FILL: dict[str, TypedValue] = {"JMSPriority": (INT, 4), "JMSTimestamp": (LONG, 1), "JMSDeliveryMode": (STRING, "PERSISTENT"),
                                      "JMSType": (STRING, "a"), "JMSCorrelationID": (STRING, "a")}  # an absent header's
FREE_TEXT = ("JMSType", "JMSCorrelationID")  # headers that hold any String (an IN or LIKE atom's value too)

Repair = tuple[str, n.Node | TypedValue]  # a property, and the expression (or the value) it gets


ONE = n.Literal((INT, 1))
NEGATED = {"=": "<>", "<>": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def solved_for(side: n.Node, target: n.Node) -> list[Repair]:
    """(property, expression) for each property of ``side`` that, given the expression's value,
    makes ``side`` equal ``target`` in exact arithmetic: sums, differences, products, quotients and
    signs inverted (`JMSXGroupSeq = f * t - s`: s gets f * t - JMSXGroupSeq). Rounding and integer
    division may spoil it: the engine judges every candidate."""
    if isinstance(side, n.Identifier):
        return [(side.name, target)] if side.name not in HEADER_TYPES else []
    if isinstance(side, n.Unary):
        return solved_for(side.operand, target if side.op == "+" else n.Unary("-", target))
    if not isinstance(side, n.Arithmetic):
        return []
    left, right, op = side.left, side.right, side.op
    inverse = {"+": ("-", "-"), "-": ("+", None), "*": ("/", "/"), "/": ("*", None)}[op]
    out = solved_for(left, n.Arithmetic(inverse[0], target, right))
    out += solved_for(right, n.Arithmetic(inverse[1], target, left) if inverse[1] else n.Arithmetic(op, left, target))
    return out


def repairs(asts: Sequence[n.Node | None]) -> list[Repair]:
    """The atoms of the selectors that a change of one property may make TRUE, in order."""
    out: dict[tuple[str, object], Repair] = {}

    def add(found: list[Repair]) -> None:
        for name, source in found:
            if isinstance(source, tuple) or not any(isinstance(x, n.Identifier) and x.name == name for x in n.walk(source)):
                out.setdefault((name, source), (name, source))

    def equal(a: n.Node, op: str, b: n.Node) -> None:
        """Repairs that make ``a op b`` TRUE: a or b solved for b (a), shifted by one where strict."""
        shift = {"<": "-", ">": "+", "<>": "+"}.get(op)  # a := b, or b - 1 for a < b ...
        add(solved_for(a, _shifted(b, shift)))
        back = {"<": "+", ">": "-", "<>": "+"}.get(op)  # ... b := a, or a + 1 for a < b
        add(solved_for(b, _shifted(a, back)))

    def walk(node: n.Node, negated: bool) -> None:
        if isinstance(node, (n.And, n.Or)):
            for c in n.chain(node):
                walk(c, negated)
        elif isinstance(node, n.Not):
            walk(node.operand, not negated)
        elif isinstance(node, n.Identifier):
            if node.name not in HEADER_TYPES:
                add([(node.name, (BOOLEAN, not negated))])
        elif isinstance(node, n.Comparison):
            equal(node.left, NEGATED[node.op] if negated else node.op, node.right)
        elif isinstance(node, n.Between):
            if node.negated != negated:  # outside: below the low end or above the high end
                equal(node.operand, "<", node.low)
                equal(node.operand, ">", node.high)
            else:
                equal(node.operand, ">=", node.low)
                equal(node.operand, "<=", node.high)
        elif isinstance(node, (n.InList, n.Like)) and isinstance(node.operand, n.Identifier):
            if node.negated != negated:
                add([(node.operand.name, (STRING, "zqz"))])  # in no list the corpus has, like no pattern without %
            elif isinstance(node, n.InList) and isinstance(item := node.items[0], n.Literal):
                add([(node.operand.name, item.value)])
            elif isinstance(node, n.Like) and isinstance(node.pattern, n.Literal):
                escape = node.escape.value[1] if isinstance(node.escape, n.Literal) else None
                segments = split_pattern(node.pattern.value[1], escape)
                add([(node.operand.name, (STRING, "".join("a" if c is None else c for seg in segments for c in seg)))])

    for ast in asts:
        if ast is not None:
            walk(ast, False)
    names = sorted({x.name for ast in asts if ast is not None for x in n.walk(ast) if isinstance(x, n.Identifier)})
    for name in names:  # last: a name given a plain value (1, 1.5, 0, or a header's), where no atom says more
        if name in HEADER_FILL:
            out.setdefault((name, HEADER_FILL[name]), (name, HEADER_FILL[name]))
        elif name not in HEADER_TYPES:
            for plain in PLAIN:
                out.setdefault((name, plain), (name, plain))
    return list(out.values())


def _shifted(node: n.Node, op: str | None) -> n.Node:
    """``node``, or one more or less (a String literal: itself and "a", for `<>`)."""
    if op is None:
        return node
    if isinstance(node, n.Literal) and node.value[0] is STRING:
        return n.Literal((STRING, node.value[1] + "a"))
    return n.Arithmetic(op, node, ONE)


def value(node: n.Node, view: dict[str, TypedValue]) -> Value:
    """The engine's value of an expression on the message (values.py's arithmetic)."""
    if isinstance(node, n.Literal):
        return node.value
    if isinstance(node, n.Identifier):
        return view.get(node.name)
    if isinstance(node, n.Unary):
        a = value(node.operand, view)
        return negate(a) if node.op == "-" else unary_plus(a)
    if isinstance(node, n.Arithmetic):
        return arithmetic(node.op, value(node.left, view), value(node.right, view))
    return TYPE_ERROR


def _fitted(name: str, v: Value) -> TypedValue | None:
    """The value as the property may hold it (a JMSX property keeps its type: an integral number
    in an int's range becomes an int), or None."""
    if v is None or v is TYPE_ERROR or not isinstance(v, tuple):
        return None
    fixed = FIXED_TYPES.get(name)
    if fixed is None or v[0] is fixed:
        return v
    if fixed is INT and v[0].is_numeric and float(v[1]).is_integer():
        lo, hi = RANGES[INT]
        if lo <= int(v[1]) <= hi:
            return (INT, int(v[1]))
    return None


def _applied(m: Message, name: str, source: n.Node | TypedValue) -> Message | None:
    props = dict(m.properties)
    if name in HEADER_TYPES:  # a header: its plain value, or a String atom's for a free-text one
        given = source if name in FREE_TEXT and isinstance(source, tuple) and source[0] is STRING else HEADER_FILL.get(name)
        return None if given is None or m.headers.get(name) == given[1] else Message({**m.headers, name: given[1]}, props)
    if isinstance(source, tuple):
        if source[0].is_numeric and source != FILL and name in props:  # 1.5 and 0 (no atom gives a number): absent names only
            return None
        new = _fitted(name, source)
    else:
        view, headers = dict(m.selector_values()), dict(m.headers)
        for x in sorted({x.name for x in n.walk(source) if isinstance(x, n.Identifier) and x.name not in view}):
            if x in HEADER_FILL:
                headers[x] = HEADER_FILL[x][1]
                view[x] = HEADER_FILL[x]
            elif x in HEADER_TYPES or _fitted(x, FILL) is None:
                return None
            else:
                props[x] = view[x] = FILL
        new = _fitted(name, value(source, view))
        m = Message(headers, m.properties)
    if new is None or props.get(name) == new:
        return None
    props[name] = new
    return Message(m.headers, props)


def candidates(asts: Sequence[n.Node | None], starts: Sequence[Message]) -> Iterator[Message]:
    """The starting messages, then each repaired once, then again (ROUNDS), at most PHASE messages
    with the atoms' repairs only, then as many more with the plain values too (a name's plain
    values multiply the repairs of every message: alone they would crowd out the second round)."""
    fixes = repairs(asts)
    atoms = [(name, source) for name, source in fixes if not (isinstance(source, tuple) and source[0].is_numeric)]
    seen: set[str] = set()
    for phase in (atoms, fixes):
        frontier, count = list(starts), 0
        for _ in range(ROUNDS + 1):
            following: list[Message] = []
            for m in frontier:
                key = repr((sorted(m.headers.items()), sorted(m.properties.items())))
                if key not in seen:
                    seen.add(key)
                    yield m
                    count += 1
                    if count >= PHASE:
                        break
                following += [r for name, source in phase if (r := _applied(m, name, source)) is not None]
            else:
                frontier = following
                continue
            break


__all__ = ["candidates", "repairs", "value"]

"""Hypothesis strategies: valid selector ASTs (built from nodes, printed by the unparser) and
messages with every value the model allows, edge values first."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from jmsctl.selector import nodes as n
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, RANGES, SHORT, STRING, to_f32

NAMES = ["a", "b", "s", "flag", "f", "d", "l", "JMSPriority", "JMSType", "JMSTimestamp", "JMSDeliveryMode", "JMSXGroupSeq"]
STRINGS = ["", "a", "ab", "blue", "car", "%", "_", "a%b", "it's", "PERSISTENT", "NON_PERSISTENT", "x\ny", "é", "😀", "12993", "5",
           "a.b", "a\\b", "x\r\ny", "\u2028", "[a]$", "a*b"]  # regex metacharacters, backslash, line terminators (LIKE traps)
F32_EDGES = [0.0, -0.0, 0.1, 0.5, 1.0, -1.0, 3.4028234663852886e38, 1.401298464324817e-45, 16777216.0, math.nan, math.inf, -math.inf]
D_EDGES = [0.0, -0.0, 0.1, 2500.5, 1e308, 5e-324, 9007199254740993.0, math.nan, math.inf, -math.inf, -95.7]


def _int_edges(t):
    lo, hi = RANGES[t]
    return [0, 1, -1, 2, 7, -7, lo, hi, lo + 1, hi - 1]


def typed_values():
    ints = {t: st.one_of(st.sampled_from(_int_edges(t)), st.integers(*RANGES[t])) for t in (BYTE, SHORT, INT, LONG)}
    return st.one_of(
        *(v.map(lambda x, t=t: (t, x)) for t, v in ints.items()),
        st.one_of(st.sampled_from(F32_EDGES), st.floats(width=32)).map(lambda x: (FLOAT, to_f32(x))),
        st.one_of(st.sampled_from(D_EDGES), st.floats()).map(lambda x: (DOUBLE, x)),
        st.booleans().map(lambda x: (BOOLEAN, x)),
        st.one_of(st.sampled_from(STRINGS), st.text(max_size=6)).map(lambda x: (STRING, x)),
    )


@st.composite
def messages(draw):
    """A selector view: any property may hold any type; headers only their own types."""
    view = {}
    for name in NAMES:
        if draw(st.booleans()):
            continue
        if name == "JMSPriority":
            view[name] = (INT, draw(st.integers(0, 9)))
        elif name == "JMSTimestamp":
            view[name] = (LONG, draw(st.integers(*RANGES[LONG])))
        elif name == "JMSDeliveryMode":
            view[name] = (STRING, draw(st.sampled_from(["PERSISTENT", "NON_PERSISTENT"])))
        elif name == "JMSType":
            view[name] = (STRING, draw(st.sampled_from(STRINGS)))
        else:
            view[name] = draw(typed_values())
    return view


def numeric_literals():
    finite_f32 = st.floats(width=32, allow_nan=False, allow_infinity=False)
    finite_d = st.floats(allow_nan=False, allow_infinity=False)
    return st.one_of(
        st.integers(*RANGES[INT]).map(lambda x: (INT, x)),
        st.sampled_from(_int_edges(INT)).map(lambda x: (INT, x)),
        st.sampled_from(_int_edges(LONG)).map(lambda x: (LONG, x)),
        st.integers(*RANGES[LONG]).map(lambda x: (LONG, x)),
        finite_f32.filter(lambda x: x == 0 or abs(x) >= 1.2e-38).map(lambda x: (FLOAT, to_f32(x))),
        finite_d.filter(lambda x: x == 0 or abs(x) >= 2.3e-308).map(lambda x: (DOUBLE, x)),
        st.sampled_from([0.1, 2500.5, -95.7, 7e3]).map(lambda x: (DOUBLE, x)),
    ).map(n.Literal)


identifiers = st.sampled_from(NAMES).map(n.Identifier)
string_literals = st.sampled_from(STRINGS).map(lambda s: n.Literal((STRING, s)))


def values(depth: int = 3):
    base = st.one_of(identifiers, numeric_literals())
    if depth <= 0:
        return base
    sub = st.deferred(lambda: values(depth - 1))
    return st.one_of(
        base,
        st.builds(n.Unary, st.sampled_from(["-", "+"]), sub),
        st.builds(n.Arithmetic, st.sampled_from(["+", "-", "*", "/"]), sub, sub),
    )


_CMP = ["=", "<>", "<", "<=", ">", ">="]


@st.composite
def comparisons(draw, depth: int = 2):
    op = draw(st.sampled_from(_CMP))
    if op in ("=", "<>") and draw(st.booleans()):
        other = draw(st.one_of(string_literals, st.booleans().map(lambda b: n.Literal((BOOLEAN, b)))))
        ident = draw(identifiers)
        return n.Comparison(op, ident, other) if draw(st.booleans()) else n.Comparison(op, other, ident)
    left, right = draw(values(depth)), draw(values(depth))
    return n.Comparison(op, left, right)


@st.composite
def like_patterns(draw):
    chars = draw(st.lists(st.sampled_from(["a", "b", "%", "_", "!", ".", "*", "\n", "😀", "\\", "[", "]", "$", "\r", "\u2028"]), max_size=8))
    escape = draw(st.sampled_from([None, "!"]))
    out = []
    for c in chars:
        if escape is not None and c == escape:
            out.append(escape + draw(st.sampled_from(["%", "_", escape])))
        else:
            out.append(c)
    pattern = n.Literal((STRING, "".join(out)))
    return pattern, (n.Literal((STRING, escape)) if escape else None)


@st.composite
def predicates(draw):
    kind = draw(st.sampled_from(["cmp", "between", "in", "like", "null", "bool", "ident"]))
    negated = draw(st.booleans())
    if kind == "cmp":
        return draw(comparisons())
    if kind == "between":
        return n.Between(negated, draw(values(2)), draw(values(1)), draw(values(1)))
    if kind == "in":
        items = tuple(draw(st.lists(string_literals, min_size=1, max_size=4)))
        return n.InList(negated, draw(identifiers), items)
    if kind == "like":
        pattern, escape = draw(like_patterns())
        return n.Like(negated, draw(identifiers), pattern, escape)
    if kind == "null":
        return n.IsNull(negated, draw(identifiers))
    if kind == "bool":
        return n.Literal((BOOLEAN, negated))
    return draw(identifiers)


def conditions(depth: int = 3):
    if depth <= 0:
        return predicates()
    sub = st.deferred(lambda: conditions(depth - 1))
    return st.one_of(
        predicates(),
        st.builds(n.Not, sub),
        st.builds(n.And, sub, sub),
        st.builds(n.Or, sub, sub),
    )


# Token soup: sequences of selector-ish fragments, mostly near-valid, to stress the parser.
FRAGMENTS = [
    "x", "y", "JMSType", "JMSFoo", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "NULL", "ESCAPE", "TRUE", "FALSE",
    "=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "(", ")", ",", "'a'", "'", "''", "\"a\"", "1", "-1", "0x1F", "010",
    "08", "1.5", "1e3", "1e", ".", "!=", "==", "/*", "--", ";", " ", "\n", "\t", "9223372036854775808", "2147483648L", "0b2",
    "größe", "€", "😀", "\u00a0", "\u200b",
]
token_soup = st.lists(st.sampled_from(FRAGMENTS), max_size=14).map(lambda xs: " ".join(xs) if len(xs) % 2 else "".join(xs))

"""Questions about one name compared with numbers, answered at once and exactly, before any formula:
`x = 0` against `x = -0.0`, `x = 0.5` against `x = 0.5f`, `amount > 100` against `amount > 100.0`, and
the part on `x` of `x = 1 AND a = b AND b = c` against `x = 2`. z3 took seconds on some of these
(an int converted to floating point, bit by bit).

Why a few messages decide: a comparison of ``x`` of type T with a numeric literal converts both to
their promoted type P (Java's binary numeric promotion) and compares there, and the conversion of x
from T to P never decreases (ints round to the nearest float, floats widen exactly). So each of
``conv(x) >= c`` and ``conv(x) > c`` is FALSE up to some x of T and TRUE from there on; every
comparison, BETWEEN and NOT of them is a boolean function of those. Between two consecutive
points where one of them turns TRUE, every condition on x keeps its verdict, so the selectors'
verdicts on the points where they turn, their neighbours, one point inside each gap, the ends of
each type, NaN, both zeros and the non-numeric values (absent, a String, both booleans) are all
the verdicts there are. The engine computes each of them: this module encodes no semantics of its
own, it only picks the messages.
"""

from __future__ import annotations

import functools
import itertools
import math
import struct
from collections.abc import Callable, Iterator, Sequence

from jmsctl.messages.model import Message
from jmsctl.selector import nodes as n
from jmsctl.spec import JMSX_TYPES, PRIORITY_RANGE
from jmsctl.values import (
    BOOLEAN,
    BYTE,
    DOUBLE,
    FLOAT,
    INT,
    LONG,
    RANGES,
    SHORT,
    STRING,
    JType,
    TypedValue,
    as_float,
    negate,
    promote,
    to_f32,
)

NUMERIC = (BYTE, SHORT, INT, LONG, FLOAT, DOUBLE)
HEADERS = {"JMSPriority": INT, "JMSTimestamp": LONG, "JMSDeliveryMode": STRING, "JMSMessageID": STRING,
           "JMSCorrelationID": STRING, "JMSType": STRING}
MAX_POINTS = 20_000  # messages at most; a question that would need more is left to the solver


def name_of(ast: n.Node | None) -> str | None:
    """The one name a selector compares with numeric literals only (AND, OR, NOT, comparisons,
    BETWEEN, IS NULL, the name as a condition), or None if it is anything else."""
    names: set[str] = set()

    def ok(node: n.Node) -> bool:
        if isinstance(node, (n.And, n.Or)):
            return all(ok(c) for c in n.chain(node))
        if isinstance(node, n.Not):
            return ok(node.operand)
        if isinstance(node, n.Literal):
            return node.value[0] is BOOLEAN
        if isinstance(node, n.Identifier):
            names.add(node.name)
            return True
        if isinstance(node, n.IsNull):
            return isinstance(node.operand, n.Identifier) and ok(node.operand)
        parts: tuple[n.Node, ...]
        if isinstance(node, n.Comparison):
            parts = (node.left, node.right)
        elif isinstance(node, n.Between):
            parts = (node.operand, node.low, node.high)
            if not isinstance(node.operand, n.Identifier):
                return False
        else:
            return False
        ids = [p for p in parts if isinstance(p, n.Identifier)]
        if len(ids) != 1 or not all(p is ids[0] or number(p) is not None for p in parts):
            return False
        names.add(ids[0].name)
        return True

    if ast is None or not ok(ast) or len(names) != 1:
        return None
    return names.pop()


def number(node: n.Node) -> TypedValue | None:
    """A numeric literal, or a sign before one (``-0.0``), as its typed value."""
    if isinstance(node, n.Literal) and node.value[0] in NUMERIC:
        return node.value
    if isinstance(node, n.Unary) and isinstance(node.operand, (n.Literal, n.Unary)):
        inner = number(node.operand)
        if inner is None:
            return None
        out = negate(inner) if node.op == "-" else inner
        return out if isinstance(out, tuple) else None
    return None


def literals(asts: Sequence[n.Node | None]) -> list[TypedValue]:
    out: dict[tuple[JType, float | int, str], TypedValue] = {}
    for ast in asts:
        for node in n.walk(ast) if ast is not None else ():
            v = number(node)
            if v is not None:
                out[(v[0], v[1], repr(v[1]))] = v
    return list(out.values())


# ----- each numeric type as an ordered sequence of indices --------------------------------------


def _f_index(t: JType, x: float) -> int:
    """The position of a (non-NaN) float or double in its type's order: -0.0 just before 0.0."""
    bits = struct.unpack("<i", struct.pack("<f", x))[0] if t is FLOAT else struct.unpack("<q", struct.pack("<d", x))[0]
    return bits if bits >= 0 else -(bits & (0x7FFFFFFF if t is FLOAT else 0x7FFFFFFFFFFFFFFF)) - 1


def _f_value(t: JType, i: int) -> float:
    bits = i if i >= 0 else (-i - 1) | (-0x80000000 if t is FLOAT else -0x8000000000000000)
    return float(struct.unpack("<f", struct.pack("<i", bits))[0]) if t is FLOAT else float(struct.unpack("<d", struct.pack("<q", bits))[0])


def _bounds(t: JType, lo_hi: tuple[int, int] | None = None) -> tuple[int, int]:
    if t in (FLOAT, DOUBLE):
        return _f_index(t, -math.inf), _f_index(t, math.inf)
    return lo_hi if lo_hi is not None else RANGES[t]


def _value(t: JType, i: int) -> float | int:
    return _f_value(t, i) if t in (FLOAT, DOUBLE) else i


def _first_true(t: JType, lo: int, hi: int, c: TypedValue, strict: bool) -> int:
    """The first index of type t in [lo, hi] whose value, promoted with c, is >= c (> c when strict);
    hi + 1 if none. The predicate never turns back from TRUE to FALSE (the conversion is monotone)."""
    p = promote(t, c[0])
    cv = as_float(c[0], c[1], p) if p in (FLOAT, DOUBLE) else c[1]

    def holds(i: int) -> bool:
        x = _value(t, i)
        xv = as_float(t, x, p) if p in (FLOAT, DOUBLE) else x
        return xv > cv if strict else xv >= cv

    a, b = lo, hi + 1
    while a < b:
        mid = (a + b) // 2
        if holds(mid):
            b = mid
        else:
            a = mid + 1
    return a


def values_of(t: JType, lits: Sequence[TypedValue], lo_hi: tuple[int, int] | None = None) -> list[float | int]:
    """The values of type t that take every verdict the comparisons with ``lits`` can give."""
    lo, hi = _bounds(t, lo_hi)
    cuts = {lo, hi}
    for c in lits:
        if c[0] in (FLOAT, DOUBLE) and math.isnan(c[1]):
            continue
        for strict in (False, True):
            i = _first_true(t, lo, hi, c, strict)
            cuts.update(j for j in (i - 1, i) if lo <= j <= hi)
    ordered = sorted(cuts)
    points = set(ordered)
    for a, b in itertools.pairwise(ordered):
        if b - a > 1:
            points.add(a + 1)
            points.add((a + b) // 2)
    out: list[float | int] = [_value(t, i) for i in sorted(points)]
    if t in (FLOAT, DOUBLE):
        out += [math.nan, 0.0, -0.0]
    return out


def messages(name: str, lits: Sequence[TypedValue], absent_last: bool = False) -> Iterator[Message] | None:
    """Messages whose values of ``name`` take every verdict the selectors can give (see above), or
    None when that would be more than MAX_POINTS; the message without it first (or last)."""
    table = _table(name, tuple(sorted(lits, key=repr)))
    if table is None:
        return None
    header = HEADERS.get(name)

    def build() -> Iterator[Message]:
        if not absent_last:
            yield Message({}, {})
        for v in table:
            if header is not None:
                yield Message({name: v[1]}, {})
            else:
                yield Message({}, {name: v})
        if absent_last:
            yield Message({}, {})

    return build()


@functools.lru_cache(maxsize=4096)
def _table(name: str, lits: tuple[TypedValue, ...]) -> tuple[TypedValue, ...] | None:
    header = HEADERS.get(name)
    jmsx = JType.from_name(JMSX_TYPES[name]) if name in JMSX_TYPES else None
    fixed = header or jmsx
    table: list[TypedValue] = []
    for t in (INT, LONG, DOUBLE, FLOAT, SHORT, BYTE):  # the witness found first is the plainest
        if fixed is not None and t is not fixed:
            continue
        lo_hi = (PRIORITY_RANGE.start, PRIORITY_RANGE.stop - 1) if name == "JMSPriority" else None
        table += [(t, v if t not in (FLOAT, DOUBLE) else (to_f32(v) if t is FLOAT else v)) for v in values_of(t, lits, lo_hi)]
        if len(table) > MAX_POINTS:
            return None
    if fixed is None:
        table += [(STRING, "a"), (BOOLEAN, True), (BOOLEAN, False)]
    elif fixed is STRING:
        table += [(STRING, "PERSISTENT"), (STRING, "NON_PERSISTENT")] if name == "JMSDeliveryMode" else [(STRING, "ID:a")]
    return tuple(table)




def decide(asts: Sequence[n.Node | None], judge: Callable[[Message], bool | None], present: bool = False) -> tuple[bool, Message | None]:
    """Ask ``judge`` of every message that matters for selectors on one name: (True, the first it
    accepts), or (True, None) when it accepts none, i.e. the claim is proved. (False, None) when the
    selectors are not of that form, or ``judge`` said None (a message it could not judge) for one."""
    found = {name_of(a) for a in asts if a is not None and any(isinstance(x, n.Identifier) for x in n.walk(a))}
    if len(found) > 1 or None in found:
        return False, None
    name = found.pop() if found else None
    candidates = messages(name, literals(asts), absent_last=present) if name is not None else iter([Message({}, {})])  # constants
    if candidates is None:
        return False, None
    undecided = False
    for m in candidates:
        verdict = judge(m)
        if verdict:
            return True, m
        if verdict is None:
            undecided = True
    return (False, None) if undecided else (True, None)


def never_by_name(conjuncts: Sequence[n.Node], all_true: Callable[[Sequence[n.Node], Message], bool]) -> bool:
    """Proved: no message makes every one of ``conjuncts`` (the parts of one or more ANDs) TRUE,
    because those on some one name are never TRUE together (`x = 1 AND a = b` against `x = 2`)."""
    groups: dict[str, list[n.Node]] = {}
    for c in conjuncts:
        name = name_of(c)
        if name is not None:
            groups.setdefault(name, []).append(c)
    for name, parts in groups.items():
        candidates = messages(name, literals(parts))
        if candidates is not None and not any(all_true(parts, m) for m in candidates):
            return True
    return False


__all__ = ["decide", "messages", "name_of", "never_by_name", "values_of"]

"""The broker encoding's verdict on one concrete message, for the differential tests: every slot the
selector reads fixed to the message's value, and z3 asked whether the selector can be TRUE and
whether it can be FALSE (an exact encoding answers exactly one; an approximate one may answer both)."""

from __future__ import annotations

import math
from typing import Any

import z3

from jmsctl import selector as sel
from jmsctl.analysis import broker_encoding, smt
from jmsctl.selector import dialects
from jmsctl.selector import nodes as n
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, STRING, tri_name

RLIMIT = 3_000_000  # z3's units per check: a message's verdict normally takes a few thousand


def _fix(slot: smt.Slot, value: Any) -> list[z3.BoolRef]:
    t = None if value is None else value[0]
    out = [slot.is_type(t)]
    if t is None:
        return out
    v = value[1]
    if t is BOOLEAN:
        out.append(slot.b == z3.BoolVal(v))
    elif t is STRING:
        out.append(slot.s == smt.string_val(v))
    elif t is FLOAT or t is DOUBLE:
        x = slot.f if t is FLOAT else slot.d
        sort = smt.F32S if t is FLOAT else smt.F64S
        if math.isnan(v):
            out.append(z3.fpIsNaN(x))
        else:
            val = z3.FPVal(v, sort)
            out.append(z3.And(z3.fpEQ(x, val), z3.fpIsNegative(x) == (math.copysign(1.0, v) < 0)))
    else:
        out.append(slot.i == z3.BitVecVal(v, 64))
    return out


def encoded_verdicts(text: str, dialect: str, values: dict[str, Any]) -> set[str] | None:
    """{"TRUE"}, {"FALSE"}, both (approximate), or None when the message lies outside the solver's
    message domain (a header value the slots do not allow) or z3 spent RLIMIT."""
    ast = sel.analyze(text, dialect).ast
    message = smt.Message()
    tri, _, sides = broker_encoding.encode(ast, dialects.get(dialect).for_selector(text), message)
    names = {x.name for x in n.walk(ast) if isinstance(x, n.Identifier)} if ast is not None else set()
    fixes: list[z3.BoolRef] = []
    for name in names:
        if name in message.slots:
            fixes += _fix(message.slots[name], values.get(name))
    s = z3.Solver()
    s.set("rlimit", RLIMIT)
    s.add(*message.constraints, *sides, *fixes)
    if s.check() != z3.sat:
        return None
    out = set()
    for verdict, f in (("TRUE", tri[0]), ("FALSE", tri[1])):
        s.push()
        s.add(f)
        outcome = s.check()
        if outcome == z3.unknown:  # a value's bits too costly for the per-message budget: no verdict
            return None
        if outcome == z3.sat:
            out.add(verdict)
        s.pop()
    return out


def engine_verdict(text: str, dialect: str, message: Any) -> str:
    try:
        return tri_name(sel.evaluate(text, message, dialect))
    except Exception:  # the broker's exception: not delivered
        return "FALSE"

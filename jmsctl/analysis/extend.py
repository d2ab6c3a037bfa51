"""A witness for a pair from a message one selector selects: the other selector solved with the
names they share fixed to that message's values (`JMSXGroupSeq = t` beside `+0 / JMSXGroupSeq >= n
- b`, whose message has JMSXGroupSeq 1: then t = 1).

With the shared names constants, the floating-point terms on them fold away (z3's simplify
computes them), and what is left is a formula on the other selector's own names: in the
200-selector overlap matrix, pairs whose whole formula z3 and cvc5 gave up on after seconds.
Sound as any witness: the merged message (the first message, plus the solved names) is judged
by the engine after the dump format's round trip (solver.py); a failed search proves nothing.
The budget is z3's and cvc5's resource units, as for every other question (budget.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import z3

from jmsctl.analysis import smt, witness_message
from jmsctl.analysis.budget import Budget, fresh, hot_names, solve
from jmsctl.messages.model import Message
from jmsctl.selector import nodes as n
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, STRING, TypedValue

RLIMIT = 150_000  # z3's units for one attempt (a folded formula takes a few thousand)
CVC5_UNITS = 150_000  # cvc5's units for one attempt


def fixed_terms(slot: smt.Slot, value: TypedValue | None) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
    """The substitutions that give a slot exactly this value (type and representation)."""
    t = None if value is None else value[0]
    g, sub = smt.GROUPS[t]
    out: list[tuple[z3.ExprRef, z3.ExprRef]] = [(slot.group, z3.IntVal(g)), (slot.sub, z3.IntVal(sub))]
    if value is None:
        return out
    v = value[1]
    if t is BOOLEAN:
        out.append((slot.b, z3.BoolVal(bool(v))))
    elif t is FLOAT:
        out.append((slot.f, z3.FPVal(v, smt.F32S)))
    elif t is DOUBLE:
        out.append((slot.d, z3.FPVal(v, smt.F64S)))
    elif t is STRING:
        out.append((slot.s, smt.string_val(v)))
    else:
        out.append((slot.i, z3.BitVecVal(v, 64)))
    return out


def solve_rest(ast: n.Node, tri_true: z3.BoolRef, names: frozenset[str], given: dict[str, TypedValue],
               fixed: frozenset[str], timeout: float) -> dict[str, TypedValue | None] | None:
    """Values of the selector's names outside ``fixed`` that make it TRUE, each name of ``fixed``
    having its value in ``given`` (absent when not there); None when the budget finds none."""
    message = smt.Message()
    subs: list[tuple[z3.ExprRef, z3.ExprRef]] = []
    for name in sorted(names):
        slot = message.slot(name)
        if name in fixed:
            try:
                subs += fixed_terms(slot, given.get(name))
            except smt.Unsupported:  # a character outside the solver's alphabet
                return None
    formula = fresh(z3.And(*message.constraints, tri_true))  # substituted and simplified in a context of its own (budget.fresh)
    if subs:
        formula = z3.simplify(z3.substitute(formula, *((smt.in_ctx(x, formula.ctx), smt.in_ctx(v, formula.ctx)) for x, v in subs)))
    if z3.is_false(formula):
        return None
    budget = Budget(RLIMIT, timeout)
    budget.cvc5_left = CVC5_UNITS
    model = solve(formula, message, [h for h in hot_names([ast]) if h not in fixed], budget)
    if isinstance(model, str):
        return None
    reader = smt.Message()  # the same slots (shared by name), the solved ones only
    for name in sorted(names - fixed):
        reader.slot(name)
    return reader.read(model)


def completed(given: Sequence[Message], ast: n.Node, tri_true: z3.BoolRef, names: frozenset[str], fixed: frozenset[str],
              timeout: float) -> Iterator[Message]:
    """Each message of ``given`` with the names of the selector outside ``fixed`` set to values
    that make it TRUE where the budget finds some (``fixed`` names keep the message's values)."""
    for m in given:
        values = m.selector_values()
        rest = solve_rest(ast, tri_true, names, values, frozenset(names & (fixed | values.keys())), timeout)
        if rest is not None:
            solved, _ = witness_message.message(rest)
            yield Message({**solved.headers, **m.headers}, {**solved.properties, **m.properties})


__all__ = ["completed", "fixed_terms", "solve_rest"]

"""The solver's budget: z3's resource units (``rlimit``), not seconds, so that the same question gets
the same answer (proof, witness or unknown) on every run and at any machine load.

A question gets ``rlimit`` units in all, shared by its subproblems (each is given what is left, and
what it used, read from z3's own ``rlimit count``, is taken off). Seconds are only an outer guard
(``timeout``): a question still running when it fires is ``unknown`` and says that the wall clock,
not the budget, ended it (an answer that may differ on a less loaded machine).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import z3

from jmsctl.analysis import portfolio, smt
from jmsctl.analysis.encoded import DEFAULT_RLIMIT
from jmsctl.selector import nodes as n
from jmsctl.values import INT

PLAIN_RLIMIT = 200_000  # at most this much of what is left for a witness a person reads easily (ints as int)
CVC5_BUDGET = 1_000_000  # cvc5's resource units per question, over all its subproblems (portfolio.py)


@dataclass
class Budget:
    """What one question may still spend: resource units, and the wall-clock guard's deadline."""

    rlimit: int = DEFAULT_RLIMIT
    timeout: float = 5.0
    left: int = field(init=False)
    cvc5_left: int = field(init=False)  # cvc5's own units for the question (portfolio.py)
    deadline: float = field(init=False)
    fired: bool = False  # the wall-clock guard ended some part of the question

    def __post_init__(self) -> None:
        self.left = self.rlimit
        self.cvc5_left = CVC5_BUDGET
        self.deadline = time.monotonic() + self.timeout

    @property
    def spent(self) -> bool:
        return self.left <= 0

    def wall_left(self) -> float:
        """Seconds until the guard; at zero or less the guard has fired (and is recorded)."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            self.fired = True
        return left

    def guard_reason(self) -> str:
        return (f"the wall-clock guard (--timeout {self.timeout:g} s) fired before the solver's budget "
                f"({self.rlimit:,} resource units) was spent: on a less busy machine the answer may differ")

    def check(self, solver: z3.Solver, units: int | None = None) -> z3.CheckSatResult:
        """``solver.check()`` within what is left (or ``units`` of it), the units used taken off."""
        wall = self.wall_left()
        if wall <= 0:
            return z3.unknown
        give = self.left if units is None else min(units, self.left)
        if give <= 0:
            return z3.unknown
        solver.set("rlimit", give)
        solver.set("timeout", max(1, int(wall * 1000)))
        before = _count(solver)
        outcome = solver.check()
        self.left -= max(1, _count(solver) - before)
        if outcome == z3.unknown and solver.reason_unknown() == "timeout":
            self.fired = True
        return outcome


def _count(solver: z3.Solver) -> int:
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except z3.Z3Exception:  # no count yet
        return 0


def hot_names(asts: Iterable[n.Node | None]) -> list[str]:
    """Names whose numeric type makes formulas expensive, the costliest first: operands of arithmetic
    and values compared with another non-literal (bit-vector products, FP rounding of variables),
    then names compared with a number (an int or long variable converted to floating point)."""
    hot: dict[str, None] = {}
    warm: dict[str, None] = {}

    def names_in(node: n.Node, into: dict[str, None]) -> None:
        for x in n.walk(node):
            if isinstance(x, n.Identifier):
                into[x.name] = None

    for ast in asts:
        for node in n.walk(ast) if ast is not None else ():
            if isinstance(node, (n.Arithmetic, n.Unary)):
                names_in(node, hot)
            elif isinstance(node, (n.Comparison, n.Between)):
                parts = n.children(node)
                if sum(not isinstance(p, n.Literal) for p in parts) > 1:
                    names_in(node, hot)
                elif any(isinstance(p, n.Literal) and p.value[0].is_numeric for p in parts):
                    names_in(node, warm)
    return [*hot, *(w for w in warm if w not in hot)]


MAX_SPLIT = 64  # subproblems at most; more hot names than that are solved as one formula


def subproblems(formula: z3.BoolRef, message: smt.Message, hot: Sequence[str]) -> Iterator[z3.BoolRef]:
    """The formula split by the numeric group of each hot name (hot_names), cheapest combination
    first: each part holds one kind of arithmetic per name, and the formula is unsat when every
    part is. At most MAX_SPLIT parts: the costliest names are split, the others left to the solver.
    The parts are made in the formula's own z3 context (``solve``'s fresh one)."""
    ctx = formula.ctx
    slots = [message.slots[h] for h in hot if h in message.slots]
    combos: list[tuple[int, ...]] = [()]
    for i, s in enumerate(slots):
        more = [(*c, g) for c in combos for g in s.groups()]
        if len(more) > MAX_SPLIT:
            slots = slots[:i]
            break
        combos = more
    combos.sort(key=lambda c: (max(c, default=0), sum(c)))
    for combo in combos:
        fixed = [(smt.in_ctx(s.group, ctx), z3.IntVal(g, ctx)) for s, g in zip(slots, combo, strict=True)]
        part = z3.simplify(z3.substitute(formula, *fixed)) if fixed else formula
        yield z3.And(part, *(group == g for group, g in fixed))


def fresh(term: z3.BoolRef) -> z3.BoolRef:
    """The formula translated into a z3 context of its own. Everything jmsctl builds lives in z3's main
    context, whose term ids, hash-consing and caches carry over from every earlier question: solved
    there, a question near the edge of its budget could get another answer (or witness) after other
    questions. A fresh context holds only what the translation makes, in the order of the formula's
    structure, so the solver gets the same input, ids included, in every process after any history."""
    return term.translate(z3.Context())


def solve(formula: z3.BoolRef, message: smt.Message, hot: Sequence[str], budget: Budget,
          present: bool = False) -> z3.ModelRef | str:
    """A model of ``formula``, or "unsat", or the reason the solver gave up (its budget spent, or
    the wall-clock guard fired: ``budget.fired``). ``present``: a model where every name is set is
    preferred (coverage's gap, shown on a message that has what the selectors read). Solved in a z3
    context of its own (``fresh``): the model lives there (smt.Message.read translates the slots). A
    formula already in a context of its own (extend.solve_rest's) is solved there, not copied again."""
    if formula.ctx is z3.main_ctx():
        formula = fresh(formula)
    ctx = formula.ctx
    reasons: list[str] = []
    for part in subproblems(formula, message, hot):
        if budget.spent or budget.wall_left() <= 0:
            reasons.append("budget spent")
            break
        if hot and portfolio.available():  # floating point on names of unknown type: cvc5 first, z3 where it gives up
            outcome, solver = _cvc5(part, budget)
            if outcome == z3.unknown:
                solver = z3.Solver(ctx=ctx)
                solver.add(part)
                outcome = budget.check(solver)
        else:
            solver = z3.Solver(ctx=ctx)
            solver.add(part)
            outcome = budget.check(solver)
            if outcome == z3.unknown and not budget.fired and portfolio.available():  # cvc5 on what z3 gave up on
                outcome, solver = _cvc5(part, budget)
        if outcome == z3.sat:
            model = solver.model()
            solver.add(*(smt.in_ctx(c, ctx) for c in _plain(message)))  # a witness a person reads easily, if one exists: ints as int
            if present:
                solver.push()
                solver.add(*(smt.in_ctx(z3.Not(s.is_type(None)), ctx) for s in message.slots.values() if None in s.types and len(s.types) > 1))
                if budget.check(solver, PLAIN_RLIMIT) == z3.sat:
                    return solver.model()
                solver.pop()
            return solver.model() if budget.check(solver, PLAIN_RLIMIT) == z3.sat else model
        if outcome != z3.unsat:
            why = solver.reason_unknown()
            reasons.append("budget spent" if why in ("canceled", "", "timeout") or "resource limit" in why else why)
    if not reasons:
        return "unsat"
    if budget.fired:
        return budget.guard_reason()
    return f"the solver gave up ({', '.join(dict.fromkeys(reasons))}; its budget {budget.rlimit:,} resource units)"


CONFIRM_RLIMIT = 500_000  # z3's units to take cvc5's values with every constant fixed


def _cvc5(part: z3.BoolRef, budget: Budget) -> tuple[z3.CheckSatResult, z3.Solver]:
    """cvc5's answer on a part z3 gave up on: unsat as it is; sat as a z3 solver of the part with
    every constant fixed to cvc5's value (so the model is z3's, and checked by z3 too)."""
    wall = budget.wall_left()
    solver = z3.Solver(ctx=part.ctx)
    if wall <= 0 or budget.cvc5_left <= 0:
        return z3.unknown, solver
    outcome, fixed, used = portfolio.check(part, min(portfolio.CVC5_RLIMIT, budget.cvc5_left), int(wall * 1000))
    budget.cvc5_left -= max(1, used)
    if outcome == "unsat":
        return z3.unsat, solver
    if outcome != "sat":
        return z3.unknown, solver
    solver.add(part, *fixed)
    budget.left = max(budget.left, CONFIRM_RLIMIT)  # the confirmation's own units: cvc5 found the values
    return budget.check(solver, CONFIRM_RLIMIT), solver


def _plain(message: smt.Message) -> list[z3.BoolRef]:
    """Preferences for a witness: a byte/short/int-group value is an int, where int is allowed."""
    g, sub = smt.GROUPS[INT]
    return [z3.Implies(s.group == g, s.sub == sub) for s in message.slots.values() if INT in s.types]


__all__ = ["DEFAULT_RLIMIT", "Budget", "fresh", "hot_names", "solve", "subproblems"]

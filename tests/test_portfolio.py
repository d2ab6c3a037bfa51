"""cvc5 beside z3 (analysis/portfolio.py): where both answer a subproblem they agree, cvc5's model
read back through z3 with every constant fixed is a model of the subproblem, and the witnesses it
leads to are the engine's (solver.py rejects any other)."""

from __future__ import annotations

import random

import pytest
import z3

from jmsctl import selector as sel
from jmsctl.analysis import budget, portfolio, smt, solver
from tests.test_solver import random_selector

pytestmark = pytest.mark.skipif(not portfolio.available(), reason="cvc5 is not installed")


def parts(text: str) -> list[z3.BoolRef]:
    ast = sel.analyze(text).ast
    message = smt.Message()
    t, _ = smt.Encoder(message).selector(ast)
    return list(budget.subproblems(z3.And(*message.constraints, t), message, budget.hot_names([ast])))


def test_cvc5_and_z3_agree_and_cvc5_models_read_back() -> None:
    rng = random.Random(3601)
    compared = sat = 0
    for _ in range(40):
        text = random_selector(rng, 2)
        if not sel.analyze(text).valid:
            continue
        for part in parts(text)[:6]:
            outcome, fixed, _ = portfolio.check(part, 200_000)
            s = z3.Solver()
            s.set("rlimit", 300_000)
            s.add(part)
            theirs = s.check()
            if outcome != "unknown" and theirs != z3.unknown:
                compared += 1
                assert (outcome == "sat") == (theirs == z3.sat), (text, outcome, theirs)
            if outcome == "sat":
                sat += 1
                s = z3.Solver()
                s.set("rlimit", 500_000)
                s.add(part, *fixed)
                assert s.check() == z3.sat, (text, fixed)  # the values cvc5 found satisfy the part in z3 too
    assert compared >= 40 and sat >= 10, (compared, sat)


@pytest.mark.parametrize("text", ["-a * f BETWEEN 2147483648 AND n", "s / 1.5f NOT BETWEEN .5 AND 7.", "t * flag - -2147483648 <> d"])
def test_floating_point_that_z3_gave_up_on_gets_a_witness(text: str) -> None:
    """z3 alone gave up on these within the budget (bench/README.md); with cvc5 each has a witness,
    which the engine confirms (solver.py raises WitnessRejected otherwise)."""
    solver._PREPARED.clear()
    answer = solver.never(text, probes=0)
    assert isinstance(answer, solver.Witness) and answer.verdicts == ("TRUE",), answer
    message = solver.read_witness(answer.message)
    assert sel.evaluate(text, message) is True

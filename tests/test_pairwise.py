"""The overlap matrix's cheap steps before the full encoding (issue 36): kinds.py's proofs of
"never TRUE together" and extend.py's witnesses, each against the full solver on a sample of
pairs (a proof is never met by a witness of the other, a witness is never met by a proof), and
every proof tested on a pool of messages by the engine."""

from __future__ import annotations

import functools
import random

import pytest
import z3

from jmsctl import selector as sel
from jmsctl.analysis import kinds, pairwise, smt, solver, witness
from jmsctl.analysis.budget import Budget
from tests.test_solver import RANDOM_MESSAGES, random_selector


def proved(a: str, b: str) -> bool:
    ka, kb = (kinds.abstraction(sel.analyze(t).ast) for t in (a, b))
    return ka is not None and kb is not None and kinds.never_together([ka, kb])


def full(a: str, b: str, rlimit: int = 300_000) -> solver.Answer:
    """The solver on the pair's whole formula (overlap's last step), after 64 probe messages; z3
    alone (cvc5's budget, its own, would make this test slow)."""
    budget = Budget(rlimit, 30.0)
    budget.cvc5_left = 0
    return solver._ask([a, b], "jakarta", budget, smt.ANY, lambda ts: z3.And(ts[0][0], ts[1][0]),
                       solver._both_true, "disjoint", "overlap")


@pytest.mark.parametrize(("a", "b"), [
    ("s LIKE 'a%b'", "f - f / t <= s"),  # s a String in one, a number in the other
    ("n > t", "n = t"),  # one order of n and t, whatever their types
    ("t = n", "n < t"),  # the same two operands the other way round
    ("flag IS NULL", "+flag = f"),
    ("(JMSPriority BETWEEN (d) AND a - JMSPriority) AND flag IS NULL", "flag LIKE 'a%'"),
    ("x = 1 AND flag", "flag = 'a'"),
    ("a / b = 1 AND a = 1", "b IS NOT NULL AND b = 'x'"),
])
def test_proved_and_the_solver_agrees(a: str, b: str) -> None:
    assert proved(a, b)
    assert isinstance(solver.overlap(a, b), solver.Proof)
    assert not isinstance(full(a, b, 2_000_000), solver.Witness)


def test_a_disjoint_pair_of_the_bench() -> None:
    """Each part of the OR needs a kind of n, t, flag or JMSXGroupSeq the other selector excludes:
    104,000 of z3's units on the abstraction, where the full solver gave up (bench/README.md)."""
    a = "NOT f >= t AND n IS NULL OR t LIKE '_b_' OR flag AND 2.5 * s = b OR (JMSXGroupSeq = 'abc')"
    b = "JMSPriority + 2147483647 * n + 017 NOT BETWEEN flag AND 9223372036854775807 * JMSDeliveryMode AND JMSXGroupSeq = f * t - s"
    assert proved(a, b)
    assert solver.overlap(a, b) == solver.Proof("disjoint")


@pytest.mark.parametrize(("a", "b"), [
    ("x = 1", "x = 2"),  # two orders the abstraction does not relate: it proves nothing here
    ("a / b < 1", "a / b > 0"),  # two orders again
    ("n + 1 > t", "n = t"),
    ("s LIKE 'a%'", "s NOT LIKE 'b%'"),
])
def test_not_proved_where_values_matter(a: str, b: str) -> None:
    assert not proved(a, b)


def pool(a: str, b: str) -> list:
    asts = [sel.analyze(t).ast for t in (a, b)]
    probes = [c.message() for c in witness.messages(f"{a} {b}", witness.ingredients(asts, valid_only=True), 128)]
    return [*RANDOM_MESSAGES, *probes]


def test_differential_against_the_full_solver_and_the_engine() -> None:
    rng = random.Random(3602)
    proofs = checked = 0
    for _ in range(400):
        a, b = random_selector(rng), random_selector(rng)
        if not (sel.analyze(a).valid and sel.analyze(b).valid) or not proved(a, b):
            continue
        proofs += 1
        ca, cb = sel.compile(a), sel.compile(b)
        for m in pool(a, b):
            assert not (ca.evaluate(m) is True and cb.evaluate(m) is True), (a, b, m)
        if checked < 30:
            checked += 1
            answer = full(a, b)
            assert not isinstance(answer, solver.Witness), (a, b, answer)
    assert proofs >= 40 and checked >= 30, (proofs, checked)


@pytest.mark.parametrize(("a", "b"), [
    ("JMSXGroupSeq = t", "+0 / JMSXGroupSeq >= n - b"),
    ("-a * f BETWEEN 2147483648 AND n", "+flag = f"),
    ("-a * f BETWEEN 2147483648 AND n", "n = t"),
])
def test_extended_witnesses_of_the_bench(a: str, b: str) -> None:
    """Pairs the full solver gave up on in the 200-selector matrix (bench/README.md)."""
    pa, pb = solver._prepared(a, "jakarta"), solver._prepared(b, "jakarta")
    for p in (pa, pb):
        solver._probe_alone(p)
        if not p.selects:
            solver._never(p, 30.0, solver.DEFAULT_RLIMIT)
    found = pairwise.extended(pa, pb, lambda p: solver._encoded(p, smt.Message()), functools.partial(solver._judged, pa, pb), 30.0)
    assert found is not None and found.verdicts == ("TRUE", "TRUE")
    message = solver.read_witness(found.message)
    assert sel.evaluate(a, message) is True and sel.evaluate(b, message) is True


def test_extended_differential() -> None:
    """Where extend.py finds a witness, the full solver never proves the pair disjoint."""
    rng = random.Random(3603)
    found = compared = 0
    for _ in range(150):
        a, b = random_selector(rng), random_selector(rng)
        if not (sel.analyze(a).valid and sel.analyze(b).valid):
            continue
        pa, pb = solver._prepared(a, "jakarta"), solver._prepared(b, "jakarta")
        if pa.names.isdisjoint(pb.names):
            continue
        for p in (pa, pb):
            solver._probe_alone(p)
        w = pairwise.extended(pa, pb, lambda p: solver._encoded(p, smt.Message()), functools.partial(solver._judged, pa, pb), 30.0)
        if w is None:
            continue
        found += 1
        assert sel.evaluate(a, solver.read_witness(w.message)) is True
        if compared < 25:
            compared += 1
            assert not isinstance(full(a, b), solver.Proof), (a, b, w)
    assert found >= 12 and compared >= 12, (found, compared)


def test_solved_for_inverts_sums_products_and_signs() -> None:
    from jmsctl.analysis import repair
    from jmsctl.messages.model import Message
    from jmsctl.values import INT

    ast = sel.analyze("JMSXGroupSeq = f * t - s AND -x + 2 = y").ast
    m = Message({}, {"JMSXGroupSeq": (INT, 7), "f": (INT, 3), "t": (INT, 4), "s": (INT, 0), "y": (INT, 10)})
    got = {name: repair.value(source, m.selector_values()) for name, source in repair.repairs([ast]) if not isinstance(source, tuple)}
    assert got["s"] == (INT, 5)  # 3 * 4 - 5 = 7
    assert got["x"] == (INT, -8)  # -(-8) + 2 = 10
    assert got["JMSXGroupSeq"] == (INT, 12)


@pytest.mark.parametrize(("a", "b"), [
    ("1.5f - f - 10L NOT BETWEEN -JMSDeliveryMode AND +t AND s", "b = -d - 0.1 OR s = (f)"),
    ("f + JMSPriority = flag", "b = -d - 0.1 OR s = (f)"),
    ("NOT +JMSPriority - flag NOT BETWEEN 7. AND (s)", "s > flag * 0xFFFFFFFF / +0.1"),  # JMSPriority given 4, flag -3, s 31
])
def test_overlap_of_the_bench_by_repair(a: str, b: str) -> None:
    """Pairs the full solver gave up on in the 200-selector matrix (bench/README.md): now witnesses."""
    answer = solver.overlap(a, b)
    assert isinstance(answer, solver.Witness) and answer.verdicts == ("TRUE", "TRUE"), answer
    message = solver.read_witness(answer.message)
    assert sel.evaluate(a, message) is True and sel.evaluate(b, message) is True


NAMES4 = ["a", "b", "c", "d"]


def arith(rng: random.Random, depth: int) -> str:
    if depth <= 0 or rng.random() < 0.35:
        return rng.choice([*NAMES4, *NAMES4, "1", "2", "-3", "0.5", "1.5f", "10L", "2147483647"])
    return f"({arith(rng, depth - 1)} {rng.choice('+-*/')} {arith(rng, depth - 1)})"


def test_repaired_differential() -> None:
    """Where repair.py's candidates give a witness, the engine selects it with both and the full
    solver never proves the pair disjoint."""
    rng = random.Random(3604)
    found = compared = 0
    for _ in range(150):  # equations and inequations on arithmetic over four names
        a = f"{rng.choice(NAMES4)} {rng.choice(['=', '>=', '<'])} {arith(rng, 2)}"
        b = f"{arith(rng, 2)} {rng.choice(['=', '<>', '>', '<='])} {arith(rng, 1)}"
        if rng.random() < 0.5:
            b += f" AND {rng.choice(NAMES4)} {rng.choice(['=', '>'])} {arith(rng, 1)}"
        if not (sel.analyze(a).valid and sel.analyze(b).valid):
            continue
        pa, pb = solver._prepared(a, "jakarta"), solver._prepared(b, "jakarta")
        if pa.names.isdisjoint(pb.names):
            continue
        for p in (pa, pb):
            solver._probe_alone(p)
        if not pa.selects or not pb.selects or solver._merged(pa, pb) is not None:
            continue  # the merge alone finds it: not the repair's
        w = pairwise.repaired([pa, pb], functools.partial(solver._judged, pa, pb))
        if w is None:
            continue
        found += 1
        message = solver.read_witness(w.message)
        assert sel.evaluate(a, message) is True and sel.evaluate(b, message) is True
        if compared < 8:
            compared += 1
            assert not isinstance(full(a, b, 100_000), solver.Proof), (a, b, w)
    assert found >= 6 and compared >= 6, (found, compared)


@pytest.mark.parametrize("text", [
    "s > flag * 0xFFFFFFFF / +0.1",
    "-0.0 NOT BETWEEN t - a AND d * n",
    "(017) / JMSXGroupSeq * JMSPriority = 2147483647 * b * s / d",
    "flag NOT IN ('blue', 'abc', '') AND s / 1E-2 / 2147483647 NOT BETWEEN (JMSDeliveryMode) AND 2147483648 * 9223372036854775807",
    "(10L + 1E-2 / s + JMSPriority > s - 1.5f * 7.)",
    "flag <> 'it''s' AND .5 / s / -2147483648 / n <> JMSPriority",  # a String other than 'it''s'
    "a IS NOT NULL AND (+0x1F) >= 2147483648 / b - a / 0",  # a a double (an int's a / 0 is NULL)
    "JMSXGroupSeq BETWEEN -1E-2 AND JMSPriority / 1e3 AND (f IS NOT NULL)",  # JMSXGroupSeq 0
])
def test_never_of_the_bench_by_repair(text: str) -> None:
    """W040 questions the full solver gave up on (solver_bench's never row): a witness by repair."""
    answer = solver.never(text, probes=0)
    assert isinstance(answer, solver.Witness) and answer.verdicts == ("TRUE",), answer
    assert sel.evaluate(text, solver.read_witness(answer.message)) is True


def solver_never(text: str, rlimit: int = 200_000) -> solver.Answer:
    """The solver alone on "never" (the claim's name keeps pairwise.py's steps out), z3 alone."""
    budget = Budget(rlimit, 30.0)
    budget.cvc5_left = 0
    return solver._ask([text], "jakarta", budget, smt.ANY, lambda ts: ts[0][0], lambda v: v[0] == "TRUE", "never (solver)",
                       "selects", 0)


def test_never_differential() -> None:
    """On one selector: a proof from kinds.py is never met by a witness of the solver or a message
    of the pool; a witness by repair is selected by the engine and never met by the solver's proof."""
    rng = random.Random(3605)
    proofs = witnesses = 0
    for i in range(300):
        text = random_selector(rng) if i % 2 else f"{rng.choice(NAMES4)} {rng.choice(['=', '>', '<'])} {arith(rng, 2)}"
        if not sel.analyze(text).valid:
            continue
        p = solver._prepared(text, "jakarta")
        if pairwise.never_together([p]):
            proofs += 1
            compiled = sel.compile(text)
            assert not any(compiled.evaluate(m) is True for m in pool(text, "TRUE")), text
            if proofs <= 15:
                assert not isinstance(solver_never(text), solver.Witness), text
            continue
        w = pairwise.repaired([p], functools.partial(solver._judged, p))
        if w is not None:
            witnesses += 1
            assert sel.evaluate(text, solver.read_witness(w.message)) is True
            if witnesses <= 15:
                assert not isinstance(solver_never(text), solver.Proof), (text, w)
    assert proofs >= 10 and witnesses >= 30, (proofs, witnesses)

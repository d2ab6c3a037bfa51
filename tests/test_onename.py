"""The exact answers for selectors on one name compared with numbers (analysis/onename.py): every
proof is tested on a pool of values of every type around each literal, and z3's answer on the same
question (where it has one) is never the opposite."""

from __future__ import annotations

import math
import random

from jmsctl import selector as sel
from jmsctl.analysis import onename, smt, solver
from jmsctl.analysis.budget import Budget
from jmsctl.messages.model import Message
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, to_f32, tri_name

LITERALS = ["0", "-0.0", "0.0", "1", "-1", "0.5", "0.5f", "100", "100.0", "16777216", "16777217", "16777216.0f", "2147483647",
            "2147483648", "-2147483648", "9223372036854775807", "9007199254740993", "9007199254740992.0", "0.1", "0.1f",
            "3.4028235e38f", "1e308", "127", "128", "-129", "32767", "1.5f", "2.5"]
OPS = ["=", "<>", "<", "<=", ">", ">="]


def predicate(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.15:
        lo, hi = rng.choice(LITERALS), rng.choice(LITERALS)
        return f"x {'NOT ' if rng.random() < 0.3 else ''}BETWEEN {lo} AND {hi}"
    if r < 0.2:
        return f"x IS {'NOT ' if rng.random() < 0.5 else ''}NULL"
    lit = rng.choice(LITERALS)
    return f"x {rng.choice(OPS)} {lit}" if rng.random() < 0.7 else f"{lit} {rng.choice(OPS)} x"


def selector(rng: random.Random, depth: int = 2) -> str:
    if depth == 0 or rng.random() < 0.4:
        return predicate(rng)
    r = rng.random()
    if r < 0.2:
        return f"NOT ({selector(rng, depth - 1)})"
    return f"({selector(rng, depth - 1)}) {'AND' if r < 0.6 else 'OR'} ({selector(rng, depth - 1)})"


def pool(texts: list[str], rng: random.Random) -> list[Message]:
    """x of every type at, around and far from every literal of the selectors, and random ones."""
    out = [Message({}, {}), Message({}, {"x": (STRING, "7")}), Message({}, {"x": (BOOLEAN, True)})]
    lits = onename.literals([sel.analyze(t).ast for t in texts])
    for _, v in lits:
        for d in (v, v + 1, v - 1, v * (1 + 2**-52), v * (1 - 2**-24), -v):
            for t in (INT, LONG, SHORT, BYTE):
                if isinstance(d, int) or (isinstance(d, float) and math.isfinite(d) and d == int(d)):
                    lo, hi = {INT: (-(2**31), 2**31 - 1), LONG: (-(2**63), 2**63 - 1), SHORT: (-32768, 32767), BYTE: (-128, 127)}[t]
                    if lo <= int(d) <= hi:
                        out.append(Message({}, {"x": (t, int(d))}))
            out.append(Message({}, {"x": (DOUBLE, float(d))}))
            f = to_f32(float(d))
            if not math.isnan(f):
                out.append(Message({}, {"x": (FLOAT, f)}))
    for _ in range(100):
        out.append(Message({}, {"x": (DOUBLE, rng.uniform(-1e6, 1e6))}))
        out.append(Message({}, {"x": (INT, rng.randrange(-(2**31), 2**31))}))
    out += [Message({}, {"x": (t, v)}) for t in (FLOAT, DOUBLE) for v in (math.nan, math.inf, -math.inf, 0.0, -0.0)]
    return out


def test_exact_answers_hold_on_the_pool_and_agree_with_z3() -> None:
    rng = random.Random(3636)
    checked = proofs = 0
    for _ in range(70):
        a, b = selector(rng), selector(rng)
        if not (sel.analyze(a).valid and sel.analyze(b).valid):
            continue
        ca, cb = sel.compile(a), sel.compile(b)
        for question in ("equivalent", "overlap"):
            answer = getattr(solver, question)(a, b)
            assert not isinstance(answer, solver.Unknown), (a, b, answer)
            checked += 1
            if isinstance(answer, solver.Witness):
                m = solver.read_witness(answer.message)
                assert tuple(tri_name(c.evaluate(m)) for c in (ca, cb)) == answer.verdicts
                continue
            proofs += 1
            for m in pool([a, b], rng):
                va, vb = ca.evaluate(m) is True, cb.evaluate(m) is True
                assert (va == vb) if question == "equivalent" else not (va and vb), (question, a, b, m)
            # z3 on the same question never finds a witness against the proof
            claim, found = ("equivalent", "different") if question == "equivalent" else ("disjoint", "overlap")
            test = (lambda ts: ts[0][0] != ts[1][0]) if question == "equivalent" else (lambda ts: smt.z3.And(ts[0][0], ts[1][0]))
            prepared = [solver._prepared(t, "jakarta") for t in (a, b)]
            message = smt.Message()
            tris = [solver._encoded(p, message) for p in prepared]
            outcome = solver.solve(smt.z3.And(*message.constraints, test(tris)), message, [], Budget(100_000))
            assert not isinstance(outcome, smt.z3.ModelRef), (question, a, b, claim, found)
    assert checked >= 100 and proofs >= 15, (checked, proofs)


def test_the_issue_s_simple_questions() -> None:
    assert solver.equivalent("x = 0", "x = -0.0") == solver.Proof("equivalent")
    assert solver.equivalent("x = 0.5", "x = 0.5f") == solver.Proof("equivalent")
    assert solver.equivalent("amount > 100", "amount > 100.0") == solver.Proof("equivalent")
    assert solver.overlap("x = 1 AND a = b AND b = c", "x = 2") == solver.Proof("disjoint")
    assert solver.never("x = 1 AND a = b AND x > 3") == solver.Proof("never")
    answer = solver.equivalent("x = 16777217", "x = 16777216.0f")  # an int rounded to float
    assert isinstance(answer, solver.Witness) and answer.message == {"properties": {"x": 16777216}}
    assert solver.overlap("JMSPriority > 8", "JMSPriority < 9") == solver.Proof("disjoint")
    assert solver.never("JMSXDeliveryCount > 2147483647") == solver.Proof("never")  # an int, whatever the dump


def test_broker_dialects_get_proofs_that_hold_for_their_evaluators() -> None:
    """Under --dialect activemq|artemis the same few messages, judged by the broker evaluator
    (jmsctl/selector/dialects: boxed comparison, one-way widening, -0.0 below 0.0), decide: every
    proof holds on the pool as the broker evaluator reads it, every witness is its verdict."""
    rng = random.Random(3637)
    proofs = 0
    for dialect in ("activemq", "artemis"):
        for _ in range(80):
            a, b = selector(rng), selector(rng)
            if not (sel.analyze(a, dialect).valid and sel.analyze(b, dialect).valid):
                continue
            ca, cb = sel.compile(a, dialect), sel.compile(b, dialect)

            def verdict(c, m):  # type: ignore[no-untyped-def]
                try:
                    return c.evaluate(m) is True
                except Exception:  # the broker's exception: not delivered
                    return False

            for question in ("equivalent", "overlap"):
                answer = getattr(solver, question)(a, b, dialect)
                assert not isinstance(answer, solver.Unknown), (dialect, a, b, answer)
                if isinstance(answer, solver.Witness):
                    m = solver.read_witness(answer.message)
                    assert (verdict(ca, m), verdict(cb, m)) == tuple(v == "TRUE" for v in answer.verdicts)
                    continue
                proofs += 1
                for m in pool([a, b], rng):
                    va, vb = verdict(ca, m), verdict(cb, m)
                    assert (va == vb) if question == "equivalent" else not (va and vb), (dialect, question, a, b, m)
    assert proofs >= 10, proofs
    assert solver.overlap("a = 1", "a = 2", "artemis") == solver.Proof("disjoint")
    assert solver.coverage(["TRUE"], dialect="artemis") == solver.Proof("covered")
    answer = solver.equivalent("z = 0", "z < 0", "activemq")  # a double -0.0 is below 0 in the brokers
    assert isinstance(answer, solver.Witness)
    assert isinstance(solver.overlap("JMSExpiration > 5", "JMSExpiration > 7", "activemq"), solver.Witness)  # a header: no shortcut


def test_an_aligned_merge_before_the_solver() -> None:
    """`a > 4 AND b > 7` selects {a 7, b 8} and `a = b` {a 0, b 0}: neither merge is selected by both,
    but the first with a set to its b (8) is; a JMSX property never takes a value of another type."""
    solver._PREPARED.clear()
    pa, pb = solver._prepared("a > 4 AND b > 7", "jakarta"), solver._prepared("a = b", "jakarta")
    solver._probe_alone(pa)
    solver._probe_alone(pb)
    assert solver._merged(pa, pb) is None
    answer = solver._merged(pa, pb, aligned=True)
    assert isinstance(answer, solver.Witness) and answer.verdicts == ("TRUE", "TRUE"), answer
    m = solver.read_witness(answer.message)
    assert sel.evaluate("a > 4 AND b > 7", m) is True and sel.evaluate("a = b", m) is True
    answer = solver.overlap("JMSXGroupSeq = t", "NOT f >= t AND n IS NULL OR t LIKE '_b_' OR (JMSXGroupSeq = 'abc')")
    assert not (isinstance(answer, solver.Witness) and isinstance(answer.message["properties"].get("JMSXGroupSeq"), str)), answer

"""The solver's budget is z3's resource units, not seconds (issue 36): the same question gets the same
answer (proof, witness or unknown) at any machine load, and the wall-clock --timeout is only a
guard that says so when it fires."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import z3

from jmsctl.analysis import budget, solver

# floating-point products of names of unknown type: z3 gives up on it within any budget of this file
# never TRUE (no witness for repair.py to find), and a proof z3 needs about 300,000 units for
HARD = "-0.0 NOT BETWEEN -0.0 * -1 AND -0.0 / f"
FLOATING = "JMSPriority + 2147483647 * n + 017 NOT BETWEEN flag AND 9223372036854775807 * JMSDeliveryMode AND JMSXGroupSeq = f * t - s"


def test_the_rlimit_is_what_bounds_a_question(monkeypatch) -> None:
    """Every z3 check runs with an rlimit no larger than what is left of the question's budget, and
    a small budget gives Unknown for running out of it (not the guard) even with an hour's guard."""
    given: list[int] = []
    real_set = z3.Solver.set

    def spy(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if args and args[0] == "rlimit":
            given.append(args[1])
        return real_set(self, *args, **kwargs)

    monkeypatch.setattr(z3.Solver, "set", spy)
    solver._PREPARED.clear()
    answer = solver.never(HARD, timeout=3600.0, rlimit=20_000)
    assert isinstance(answer, solver.Unknown) and not answer.timed_out, answer
    assert "budget" in answer.reason and "20,000" in answer.reason
    assert given and max(given) <= 20_000 and all(g > 0 for g in given)


def test_budget_takes_off_what_each_check_used() -> None:
    b = budget.Budget(rlimit=50_000, timeout=3600.0)
    s = z3.Solver()
    x = z3.FP("x", z3.Float32())
    s.add(z3.fpGT(x, z3.FPVal(1.5, z3.Float32())))
    assert b.check(s) == z3.sat
    assert 0 < 50_000 - b.left < 50_000 and not b.fired


def test_the_wall_clock_guard_says_it_fired() -> None:
    solver._PREPARED.clear()
    answer = solver.never(HARD, timeout=0.001, rlimit=10**9)
    assert isinstance(answer, solver.Unknown) and answer.timed_out, answer
    assert "wall-clock guard" in answer.reason and "--timeout" in answer.reason
    assert solver.as_json(answer)["timed_out"] is True


ASK = textwrap.dedent("""
    import json, sys
    from jmsctl.analysis import solver
    out = []
    for kind, texts, rlimit in json.loads(sys.argv[1]):
        ask = {"never": solver.never, "always": solver.always}.get(kind)
        a = ask(texts[0], timeout=600.0, rlimit=rlimit) if ask else solver.overlap(*texts, timeout=600.0, rlimit=rlimit)
        out.append([a.result, getattr(a, "message", None), getattr(a, "reason", None)])
    print(json.dumps(out))
""")

QUESTIONS = [
    ("never", [HARD], 20_000),  # unknown: the budget ends it
    ("never", [FLOATING], 300_000),
    ("never", ["a + 1 < a AND a > 5"], 300_000),
    ("never", ["1.5f - f - 10L NOT BETWEEN -JMSDeliveryMode AND +t AND s"], 200_000),
    ("always", ["a > 1 OR a <= 1 OR a IS NULL"], 300_000),
    ("overlap", ["x * 3 = 7", "x > 2"], 300_000),
    ("overlap", ["-a * f BETWEEN 2147483648 AND n", "f = 2"], 300_000),
    ("overlap", ["x = 0.5", "x = 0.5f"], 300_000),
    ("overlap", [FLOATING, "n = 1"], 300_000),
]


def _answers(env: dict[str, str]) -> list[list[object]]:
    done = subprocess.run([sys.executable, "-c", ASK, json.dumps(QUESTIONS)], capture_output=True, text=True, env=env,
                          timeout=600, check=True)
    return json.loads(done.stdout)


def test_the_same_answers_beside_a_cpu_hog() -> None:
    """The same questions in a fresh process, once as is and once beside a busy loop on every core:
    identical answers, unknowns (and their reasons) and witnesses alike."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (os.getcwd(), os.environ.get("PYTHONPATH", "")) if p)}
    quiet = _answers(env)
    assert {a[0] for a in quiet} >= {"unknown", "overlap"}, quiet
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        busy = _answers(env)
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    assert busy == quiet

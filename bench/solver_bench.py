#!/usr/bin/env python3
"""Solver benchmark: time per question over the real selectors of the conformance corpora.

    python bench/solver_bench.py                      # W040/W041 per selector, check's cost, 200-selector pairwise overlap
    python bench/solver_bench.py --pairs 100          # a smaller overlap matrix (4,950 pairs)
    python bench/solver_bench.py --compare 300        # also z3 against cvc5 on the same formulas (SMT-LIB text)
    python bench/solver_bench.py --json               # machine-readable results
    python bench/solver_bench.py --no-questions --pairs 100   # only the overlap matrix
    python bench/solver_bench.py --no-questions --max-seconds 600   # the matrix, stopped after 10 minutes

The selectors: every distinct selector of tests/conformance (the Jakarta corpus and the two
brokers' measurements) that the standard accepts. Per selector: ``solver.never`` (W040) and
``solver.always`` (W041), each with ``--timeout`` seconds, and what ``check`` pays for both
(``vacuity.diagnostics``: probe messages first, the solver only for what they leave open). Then
``solver.overlap`` for every pair of the first ``--pairs`` selectors (a fixed shuffle). For each:
the answers (proof, witness, unknown), median, 99th percentile and maximum wall time per question.
The matrix prints a progress line (the figures so far) on stderr every ``--progress`` pairs, and
stops at ``--max-seconds`` or Ctrl-C with the figures of the pairs it measured (and says so).

``--compare N``: the first N selectors' W040 question as the solver sends it (each subproblem of
the split by numeric group), written as SMT-LIB by z3 and solved by z3 and by cvc5 (``pip install
cvc5``) from that same text, each with the timeout: the figures behind the choice of z3.
The load average is printed before and after: this machine is shared.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jmsctl import selector as sel  # noqa: E402
from jmsctl.analysis import smt, solver, vacuity  # noqa: E402


def corpus() -> list[str]:
    """Distinct selectors of the conformance corpora that the standard accepts, in file order."""
    seen: dict[str, None] = {}
    for path in sorted((ROOT / "tests" / "conformance").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                text = json.loads(line).get("selector")
                if isinstance(text, str) and text.strip():
                    seen[text] = None
    return [t for t in seen if sel.analyze(t).valid]


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def summary(name: str, times: list[float], outcomes: Counter[str], **extra: Any) -> dict[str, Any]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))] if ordered else 0.0
    return {"question": name, "count": len(times), "median_ms": 1000 * statistics.median(ordered) if ordered else 0.0,
            "p99_ms": 1000 * p99, "max_ms": 1000 * (ordered[-1] if ordered else 0.0), "total_s": sum(times),
            "answers": dict(outcomes), **extra}


def kind(answer: solver.Answer) -> str:
    if isinstance(answer, solver.Unknown):
        return "unknown (wall-clock guard)" if answer.timed_out else "unknown"
    return "proof" if isinstance(answer, solver.Proof) else "witness"


RLIMIT = solver.DEFAULT_RLIMIT  # the solver's budget per question (z3 resource units); --rlimit sets it


def run_questions(texts: list[str], timeout: float) -> list[dict[str, Any]]:
    out = []
    for name, ask in (("never (W040)", solver.never), ("always (W041)", solver.always)):
        times, outcomes = [], Counter[str]()
        for t in texts:
            dt, answer = timed(lambda t=t, ask=ask: ask(t, "jakarta", timeout, rlimit=RLIMIT))
            times.append(dt)
            outcomes[kind(answer)] += 1
        out.append(summary(name, times, outcomes))
    times, outcomes = [], Counter()
    for t in texts:
        dt, found = timed(lambda t=t: vacuity.diagnostics(t, "jakarta", timeout))
        times.append(dt)
        for d in found:
            outcomes[d.code] += 1
        outcomes["selectors"] += 1
    out.append(summary("check's W040+W041 (probes, then the solver)", times, outcomes))
    return out


def run_pairs(texts: list[str], count: int, timeout: float, max_seconds: float = 0.0, every: int = 500,
              answers_to: str | None = None) -> dict[str, Any]:
    """``solver.overlap`` on every pair of ``count`` selectors (a fixed shuffle), in the order
    ``jmsctl overlap`` asks them. Progress and the figures so far go to stderr every ``every``
    pairs; past ``max_seconds`` (or on Ctrl-C) it stops and reports what it measured."""
    chosen = texts[:]
    random.Random(21).shuffle(chosen)
    chosen = chosen[:count]
    pairs = list(itertools.combinations(chosen, 2))
    name = f"overlap, every pair of {len(chosen)} selectors"
    times: list[float] = []
    cpu: list[float] = []  # CPU time per pair (the process's): what the load does not stretch
    outcomes: Counter[str] = Counter()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    stopped = None
    out = open(answers_to, "w", encoding="utf-8") if answers_to else None  # noqa: SIM115 - closed below
    try:
        for a, b in pairs:
            if max_seconds and time.perf_counter() - wall0 > max_seconds:
                stopped = f"--max-seconds {max_seconds:g} reached"
                break
            c0 = time.process_time()
            dt, answer = timed(lambda a=a, b=b: solver.overlap(a, b, "jakarta", timeout, rlimit=RLIMIT))
            cpu.append(time.process_time() - c0)
            times.append(dt)
            outcomes[kind(answer)] += 1
            if out is not None:
                out.write(json.dumps({"a": a, "b": b, "answer": answer.result, "ms": round(1000 * dt, 3), "cpu_ms": round(1000 * cpu[-1], 3),
                                      "reason": getattr(answer, "reason", None)}) + "\n")
            if every and len(times) % every == 0:
                progress(summary(name, times, outcomes), len(pairs), wall0, cpu0)
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        if out is not None:
            out.close()
    by_cpu = summary(name, cpu, outcomes)
    row = summary(name, times, outcomes, pairs=len(pairs), wall_s=time.perf_counter() - wall0, cpu_s=time.process_time() - cpu0,
                  cpu_median_ms=by_cpu["median_ms"], cpu_p99_ms=by_cpu["p99_ms"], cpu_max_ms=by_cpu["max_ms"],
                  over_100ms=sum(t > 0.1 for t in times), cpu_over_100ms=sum(t > 0.1 for t in cpu))
    if stopped:
        row["stopped"] = f"{stopped} after {len(times)} of {len(pairs)} pairs"
    return row


def progress(row: dict[str, Any], total: int, wall0: float, cpu0: float) -> None:
    """One line on stderr: pairs done, time so far, the figures so far."""
    sys.stderr.write(f"[{time.strftime('%H:%M:%S')}] {row['count']}/{total} pairs, {time.perf_counter() - wall0:.0f} s wall "
                     f"{time.process_time() - cpu0:.0f} s CPU, load {os.getloadavg()[0]:.1f}: median {row['median_ms']:.2f} ms, "
                     f"p99 {row['p99_ms']:.0f} ms, {row['answers']}\n")
    sys.stderr.flush()


def smtlib_parts(text: str) -> list[str]:
    """The W040 question's subproblems as the solver sends them, as SMT-LIB text."""
    import z3

    ast = sel.analyze(text).ast
    message = smt.Message()
    t, _ = smt.Encoder(message).selector(ast)
    formula = z3.And(*message.constraints, t)
    out = []
    for part in solver.subproblems(formula, message, solver.hot_names([ast])):
        s = z3.Solver()
        s.add(part)
        out.append(s.to_smt2())
    return out


def z3_check(text: str, timeout: float) -> str:
    import z3

    s = z3.Solver()
    s.set("timeout", int(timeout * 1000))
    s.from_string(text.replace("(check-sat)", ""))
    return str(s.check())


def cvc5_check(text: str, timeout: float) -> str:
    import cvc5

    tm = cvc5.TermManager()
    s = cvc5.Solver(tm)
    s.setOption("tlimit-per", str(int(timeout * 1000)))
    s.setOption("strings-exp", "true")
    s.setLogic("ALL")
    parser = cvc5.InputParser(s)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text.replace("(check-sat)", ""), "q")
    symbols = parser.getSymbolManager()
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        cmd.invoke(s, symbols)
    return str(s.checkSat()).lower()


def run_compare(texts: list[str], count: int, timeout: float) -> list[dict[str, Any]]:
    """z3 and cvc5 on the same SMT-LIB text of each subproblem, in turns; a question's time is the
    sum of its parts until one is sat (as the solver stops there)."""
    results: dict[str, tuple[list[float], Counter[str]]] = {"z3": ([], Counter()), "cvc5": ([], Counter())}
    disagree = 0
    for text in texts[:count]:
        parts = smtlib_parts(text)
        answers: dict[str, str] = {}
        for name, check in (("z3", z3_check), ("cvc5", cvc5_check)):
            total, answer = 0.0, "unsat"
            for part in parts:
                try:
                    dt, r = timed(lambda part=part, check=check: check(part, timeout))
                except RuntimeError:  # z3's SMT-LIB may name its own functions (bvsdiv_i): not comparable
                    total, answer = math.nan, "not parsed"
                    break
                total += dt
                if r == "sat":
                    answer = "sat"
                    break
                if r != "unsat":
                    answer = "unknown"
            answers[name] = answer
            results[name][1][answer] += 1
            if not math.isnan(total):
                results[name][0].append(total)
        if "unknown" not in answers.values() and "not parsed" not in answers.values() and answers["z3"] != answers["cvc5"]:
            disagree += 1
    out = [summary(f"W040 formulas, {name} (time of those parsed)", times, outcomes) for name, (times, outcomes) in results.items()]
    out.append({"question": "z3 and cvc5 disagree (both answered)", "count": disagree})
    return out


def answers_of(texts: list[str]) -> list[list[Any]]:
    """``never`` and ``always`` of each selector: the answer, its witness or reason (what must not move)."""
    out = []
    for t in texts:
        for ask in (solver.never, solver.always):
            a = ask(t, "jakarta", solver.DEFAULT_TIMEOUT, rlimit=RLIMIT)
            out.append([a.result, getattr(a, "message", None), getattr(a, "reason", None)])
    return out


def run_determinism(texts: list[str], count: int) -> dict[str, Any]:
    """The first ``count`` questions (never and always of count/2 selectors), each round in a fresh
    process: once as is, once beside a busy loop on every core. The answers must be identical."""
    import subprocess

    chosen = texts[: max(1, count // 2)]
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import solver_bench as b; b.RLIMIT = int(sys.argv[2]); "
            "print(json.dumps(b.answers_of(json.load(sys.stdin))))")

    def round_() -> tuple[list[Any], float, tuple[float, ...]]:
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code, str(ROOT / "bench"), str(RLIMIT)], input=json.dumps(chosen),
                              capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        return json.loads(done.stdout), time.perf_counter() - t0, os.getloadavg()

    quiet, quiet_s, quiet_load = round_()
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        busy, busy_s, busy_load = round_()
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    differ = sum(a != b for a, b in zip(quiet, busy, strict=True))
    kinds = Counter(a[0] for a in quiet)
    return {"question": f"the same {len(quiet)} questions beside a CPU hog", "count": len(quiet), "differ": differ,
            "answers": dict(kinds), "quiet_s": quiet_s, "busy_s": busy_s, "load_quiet": quiet_load[0], "load_busy": busy_load[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=solver.DEFAULT_TIMEOUT,
                    help=f"the wall-clock guard per question, seconds (default {solver.DEFAULT_TIMEOUT:g})")
    ap.add_argument("--rlimit", type=int, default=solver.DEFAULT_RLIMIT,
                    help=f"the solver's budget per question, z3 resource units (default {solver.DEFAULT_RLIMIT:,})")
    ap.add_argument("--pairs", type=int, default=200, help="selectors in the pairwise overlap (default 200; 0 skips)")
    ap.add_argument("--compare", type=int, default=0, help="also z3 against cvc5 on the first N selectors' W040 formulas")
    ap.add_argument("--limit", type=int, default=0, help="only the first N selectors (default all)")
    ap.add_argument("--no-questions", action="store_true", help="skip the per-selector questions (only --pairs / --compare)")
    ap.add_argument("--max-seconds", type=float, default=0.0,
                    help="stop the overlap matrix after this many seconds and report the pairs measured (default: no limit)")
    ap.add_argument("--progress", type=int, default=500, help="a progress line on stderr every N pairs (default 500; 0 none)")
    ap.add_argument("--answers", metavar="FILE", help="write each pair's answer and time to FILE (NDJSON)")
    ap.add_argument("--determinism", type=int, default=0, metavar="N",
                    help="also N questions answered in a fresh process twice, the second time beside a CPU hog on every core")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    global RLIMIT
    RLIMIT = args.rlimit
    texts = corpus()
    if args.limit:
        texts = texts[: args.limit]
    load_before = os.getloadavg()
    rows = [] if args.no_questions else run_questions(texts, args.timeout)
    if args.pairs:
        rows.append(run_pairs(texts, args.pairs, args.timeout, args.max_seconds, args.progress, args.answers))
    if args.compare:
        rows += run_compare(texts, args.compare, args.timeout)
    if args.determinism:
        rows.append(run_determinism(texts, args.determinism))
    doc = {"selectors": len(texts), "timeout_s": args.timeout, "rlimit": args.rlimit, "load_before": load_before, "load_after": os.getloadavg(), "rows": rows}
    if args.json:
        print(json.dumps(doc, indent=2))
        return
    print(f"{len(texts)} selectors, budget {args.rlimit:,} resource units, guard {args.timeout:g} s per question; load average {load_before[0]:.2f} before, "
          f"{doc['load_after'][0]:.2f} after")
    print(f"{'question':52} {'count':>7} {'median':>9} {'p99':>9} {'max':>9} {'total':>8}  answers")
    for r in rows:
        if "differ" in r:
            print(f"{r['question']:52} {r['count']:>7}  {r['differ']} differ; {r['answers']}; {r['quiet_s']:.1f} s at load "
                  f"{r['load_quiet']:.1f}, {r['busy_s']:.1f} s at load {r['load_busy']:.1f}")
            continue
        if "median_ms" not in r:
            print(f"{r['question']:52} {r['count']:>7}")
            continue
        print(f"{r['question']:52} {r['count']:>7} {r['median_ms']:>7.2f}ms {r['p99_ms']:>7.1f}ms {r['max_ms']:>7.0f}ms "
              f"{r['total_s']:>7.1f}s  {r['answers']}")
        if "wall_s" in r:
            print(f"{'':52} wall {r['wall_s']:.1f} s, CPU {r['cpu_s']:.1f} s" + (f"; {r['stopped']}" if "stopped" in r else ""))
            print(f"{'':52} CPU per pair: median {r['cpu_median_ms']:.2f} ms, p99 {r['cpu_p99_ms']:.1f} ms, max {r['cpu_max_ms']:.0f} ms; "
                  f"over 100 ms: {r['over_100ms']} pairs wall, {r['cpu_over_100ms']} CPU")


if __name__ == "__main__":
    main()

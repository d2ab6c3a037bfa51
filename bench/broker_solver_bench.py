#!/usr/bin/env python3
"""The solver under the broker dialects: overlap of every pair of the brokers' measured selectors,
with the broker encoding (analysis/broker_encoding.py) and without it (the bounded search alone, as
before it: a witness or unknown), in the same run.

    python bench/broker_solver_bench.py                       # 30 selectors per dialect (435 pairs), both modes
    python bench/broker_solver_bench.py --selectors 60 --dialect artemis --json

The selectors: the distinct selectors of tests/conformance/brokers/<dialect>.jsonl that the dialect
accepts, in file order. Per mode: proofs, witnesses and unknowns, and the median, 99th percentile and
maximum wall time per pair. Every question runs with the solver's default budget (resource units);
the load average is printed before and after: this machine is shared.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jmsctl import selector as sel  # noqa: E402
from jmsctl.analysis import solver  # noqa: E402


def selectors(dialect: str, count: int) -> list[str]:
    out: dict[str, None] = {}
    for line in (ROOT / "tests" / "conformance" / "brokers" / f"{dialect}.jsonl").read_text(encoding="utf-8").splitlines():
        text = json.loads(line)["selector"]
        if text not in out and sel.analyze(text, dialect).valid:
            out[text] = None
            if len(out) >= count:
                break
    return list(out)


def matrix(texts: list[str], dialect: str, encoded: bool) -> dict[str, Any]:
    """Every pair's overlap; ``encoded`` False: the broker dialects taken out of the solver's encoded ones."""
    saved = solver.SOLVED, solver.BROKER_ENCODED
    if not encoded:
        solver.SOLVED, solver.BROKER_ENCODED = tuple(d for d in solver.SOLVED if d not in saved[1]), ()
    solver._PREPARED.clear()
    counts: Counter[str] = Counter()
    times: list[float] = []
    try:
        for a, b in itertools.combinations(texts, 2):
            start = time.perf_counter()
            answer = solver.overlap(a, b, dialect)
            times.append(time.perf_counter() - start)
            counts[type(answer).__name__.lower()] += 1
    finally:
        solver.SOLVED, solver.BROKER_ENCODED = saved
    times.sort()
    return {"dialect": dialect, "mode": "encoded" if encoded else "search only", "pairs": len(times), **dict(counts),
            "median_ms": round(statistics.median(times) * 1000, 1), "p99_ms": round(times[int(len(times) * 0.99) - 1] * 1000, 1),
            "max_ms": round(times[-1] * 1000, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--selectors", type=int, default=30, help="selectors per dialect (default 30)")
    ap.add_argument("--dialect", choices=("artemis", "activemq"), action="append", help="default both")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    print(f"load before: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    rows = []
    for dialect in args.dialect or ["artemis", "activemq"]:
        texts = selectors(dialect, args.selectors)
        for encoded in (False, True):
            rows.append(matrix(texts, dialect, encoded))
            if not args.json:
                r = rows[-1]
                print(f"{r['dialect']:9} {r['mode']:12} {r['pairs']} pairs: {r.get('proof', 0)} proved, {r.get('witness', 0)} witnesses, "
                      f"{r.get('unknown', 0)} unknown; median {r['median_ms']} ms, p99 {r['p99_ms']} ms, max {r['max_ms']} ms", flush=True)
    print(f"load after: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()

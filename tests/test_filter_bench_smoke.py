"""Smoke tests of the filter benchmarks (bench/jq_bench.py, bench/filter_costs.py) on small dumps:
they run, every jmsctl mode selects the same messages, and every row has a positive rate.

No timing assertions: the speed targets are the benchmarks' business.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_jq_bench_runs_and_agrees(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, str(BENCH / "jq_bench.py"), "--messages", "3000", "--no-jq", "--json", "--repeat", "1",
         "--workdir", str(tmp_path / "work"), "--outdir", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "MISMATCH" not in r.stdout and "RESULTS DIFFER" not in r.stdout
    rows = json.loads(r.stdout[r.stdout.index("\n[") :])
    tools = {(row["selector"], row["tool"]) for row in rows}
    for key in ("javadoc", "non-selective", "rare string"):
        assert {(key, "jmsctl filter"), (key, "jmsctl filter --jobs 1"), (key, "jmsctl --validate-all")} <= tools
        assert len({row["selected"] for row in rows if row["selector"] == key}) == 1  # every mode, the same count
    assert all(row["msgs_per_s"] > 0 and row["peak_rss_mb"] > 0 for row in rows)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == []  # outputs and the in-memory copy removed


def test_filter_costs_runs(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, str(BENCH / "filter_costs.py"), "--messages", "2000", "--workdir", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    stages = [line for line in r.stdout.splitlines() if line.startswith("  ")]
    assert len(stages) == 5 + 9 and all(float(line.split()[-7]) > 0 for line in stages), r.stdout

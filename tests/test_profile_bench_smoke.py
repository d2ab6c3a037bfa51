"""Smoke test of bench/profile_bench.py on 2,000 messages: it runs, the loader and the profile count
the same messages, every row has a positive rate. No timing assertions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "profile_bench.py"


def test_profile_bench_runs_and_agrees(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, str(BENCH), "--messages", "2000", "--workdir", str(tmp_path), "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "COUNTS DIFFER" not in r.stdout
    rows = json.loads(r.stdout[r.stdout.index("\n[") :])
    assert [row["counts"] for row in rows] == ["2000 0", "2000 0", "200 0"]
    assert all(row["msgs_per_cpu_s"] > 0 and row["peak_rss_mb"] > 0 for row in rows)

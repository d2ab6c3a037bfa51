"""Smoke test of bench/view_bench.py on 2,000 messages: it runs, every figure is there, the view's TRUE
count is filter's count and its counts add up. No timing assertions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("textual")

BENCH = Path(__file__).resolve().parent.parent / "bench" / "view_bench.py"


def test_view_bench_runs_and_agrees(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, str(BENCH), "--messages", "2000", "--workdir", str(tmp_path), "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads(r.stdout)
    view = report["view"]
    c = view["counts"]
    assert view["records"] == c["read"] == 2000 and c["true"] + c["false"] + c["unknown"] + c["rejected"] == 2000
    assert report["filter_count"]["count"] == c["true"] > 0
    assert all(view[k] > 0 for k in ("first_screen_s", "indexed_s", "first_matches_s", "narrowed_s", "child_peak_rss_mb"))

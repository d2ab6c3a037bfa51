"""Smoke test of bench/artemis_xml_bench.py on a 1 MB document: it runs, the XML, NDJSON, fmtn/a and
browse paths read the same messages (XML and NDJSON select the same), every row has a positive
rate. No timing assertions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "artemis_xml_bench.py"


def test_artemis_xml_bench_runs_and_agrees(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, str(BENCH), "--size-mb", "1", "--workdir", str(tmp_path), "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "COUNTS DIFFER" not in r.stdout
    rows = json.loads(r.stdout[r.stdout.index("\n[") :])
    assert len(rows) == 7 and all(row["msgs_per_cpu_s"] > 0 and row["peak_rss_mb"] > 0 for row in rows)
    assert rows[0]["output"] == rows[1]["output"] and rows[0]["output"].endswith(" 0")  # every message read, none rejected
    assert rows[2]["output"] == rows[3]["output"] == rows[4]["output"] and int(rows[2]["output"]) > 0
    assert "--validate-all" in rows[4]["what"]
    assert rows[5]["what"].startswith("fmtn-a") and rows[6]["what"].startswith("activemq-browse")
    assert rows[5]["output"] == rows[6]["output"] == rows[1]["output"]

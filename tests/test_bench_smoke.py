"""Smoke test of bench/selector_bench.py: it runs, prints every row, and every number is positive.

No timing assertions: the speed targets are the benchmark's business (PASS/MISS in its output),
a unit test on a shared CI machine would only be flaky.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "selector_bench.py"
BUDGET = ["--seconds", "0.05"]


def _load_bench():
    spec = importlib.util.spec_from_file_location("selector_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench():
    return _load_bench()


@pytest.fixture(scope="module")
def json_output():
    """One real run of the benchmark (``--json``), in a process of its own: its results, as printed.
    Not in the test process: each measurement starts with gc.collect(), and late in a whole run that
    process holds a large heap (34 s there, 2 s alone)."""
    r = subprocess.run([sys.executable, str(BENCH), *BUDGET, "--json"], capture_output=True, text=True, timeout=600, check=False)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def text_output(bench, json_output):
    """``main``'s text output of the same results: the measurements ran once (json_output), the
    second run would only repeat them (half of this module's time); run_benchmarks gives them back."""
    import contextlib
    import io

    buf = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(buf):
        mp.setattr(bench, "run_benchmarks", lambda seconds, progress=None: json_output)
        assert bench.main(BUDGET) == 0
    return buf.getvalue()


def _rate(line: str) -> float:
    """The first number with a thousands separator or at least 4 digits on a table line."""
    m = re.search(r"\b\d{1,3}(?:,\d{3})+\b|\b\d{4,}\b", line)
    assert m, f"no rate on line: {line!r}"
    return float(m.group(0).replace(",", ""))


def _line(text: str, *needles: str) -> str:
    for line in text.splitlines():
        if all(n in line for n in needles):
            return line
    raise AssertionError(f"no line with {needles!r} in:\n{text}")


def test_text_output_has_every_row(text_output):
    out = text_output
    assert "JMSType = 'car' AND color = 'blue' AND weight > 2500" in out
    for name in ("sel.evaluate(values)", "sel.matches(values)", "hand-written lambda"):
        for msg in ("matching", "non-matching"):
            assert _rate(_line(out, name, f" {msg} ")) > 0
    for name in (
        "jmsctl.selector.parse",
        "jmsctl.selector.analyze",
        "jmsctl.selector.compile",
        "json.loads (baseline)",
        "ast.parse (baseline)",
    ):
        assert _rate(_line(out, name)) > 0
    assert "evaluator / hand-written" in out
    for target in ("evaluations/s (sel.evaluate", "cold parses/s (compile)", "cold parses/s (analyze)"):
        line = _line(out, target)
        assert re.search(r"\b(PASS|MISS)\b", line), line
    assert "Artemis (Java) on this machine: ~19 M evaluations/s, ~91 k parses/s (from the issue)" in out
    for label in ("LIKE '12%3'", "IN list of 10 strings", "arithmetic", "20-term OR chain", "LIKE '%a%a%a%a%a%a%a%a%b' on 10,000 chars"):
        line = _line(out, label, "  ")
        numbers = [float(x.replace(",", "")) for x in re.findall(r"\d[\d,]*\.?\d*", line.split(label, 1)[1])]
        assert len(numbers) == 4 and all(x > 0 for x in numbers), line
    assert "cache check" in out and "linear" in out.lower()


def test_json_output_numbers_are_positive(json_output):
    res = json_output
    assert len(res["evaluation"]) == 6
    assert all(r["rate"] > 0 and r["vs_hand_written"] > 0 for r in res["evaluation"])
    assert {r["result"] for r in res["evaluation"]} == {"TRUE", "FALSE"}
    assert [r["name"] for r in res["parsing"]] == [
        "jmsctl.selector.parse",
        "jmsctl.selector.analyze",
        "jmsctl.selector.compile",
        "json.loads (baseline)",
        "ast.parse (baseline)",
    ]
    assert all(r["rate"] > 0 and r["vs_json_loads"] > 0 and r["vs_ast_parse"] > 0 for r in res["parsing"])
    assert [t["status"] in ("PASS", "MISS") for t in res["targets"]] == [True, True, True, True]
    assert all(t["rate"] > 0 for t in res["targets"])
    assert len(res["extras"]) == 5
    assert all(r["rate_matching"] > 0 and r["rate_non_matching"] > 0 and r["compile_rate"] > 0 for r in res["extras"])
    assert [s["length"] for s in res["like_scaling"]] == [1_000, 10_000, 100_000]
    assert all(s["us_all_a"] > 0 and s["us_scan"] > 0 for s in res["like_scaling"])


def test_pools_are_distinct_and_equally_long(bench):
    """Cold parses stay cold only if the pool texts differ; they stay comparable only if they are the same shape."""
    texts = bench.pool(bench.javadoc_variant, like=bench.JAVADOC)
    assert len(set(texts)) == bench.POOL_SIZE == 1000
    for _label, text, variant in bench.EXTRAS:
        assert len(set(bench.pool(variant, like=text))) == 1000


def test_rejects_non_positive_seconds(bench):
    with pytest.raises(SystemExit):
        bench.main(["--seconds", "0"])

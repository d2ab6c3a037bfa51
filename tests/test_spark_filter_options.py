"""spark filter has filter's options where they make sense (issue 17, item 13): -f, --invert, --max-count."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from jmsctl.cli.app import app

pytest.importorskip("pyspark")

SAMPLES = Path(__file__).parent.parent / "samples"
ORDERS = str(SAMPLES / "orders.ndjson")
SELECTOR = "JMSType = 'car' AND weight > 2500"
runner = CliRunner()


def local(*args: str) -> Any:
    return runner.invoke(app, ["filter", *args])


def on_spark(*args: str) -> Any:
    return runner.invoke(app, ["spark", "filter", *args])


def lines(directory: Path) -> list[bytes]:
    return b"".join(p.read_bytes() for p in sorted(directory.glob("part-*"))).splitlines()


def test_selector_file_invert_and_max_count_as_the_local_filter(spark: Any, tmp_path: Path) -> None:
    sel_file = tmp_path / "selector.txt"
    sel_file.write_text(SELECTOR + "\n", encoding="utf-8")
    r = on_spark("-f", str(sel_file), ORDERS, "--count")
    assert (r.exit_code, r.stdout) == (0, local(SELECTOR, ORDERS, "--count").stdout)

    inverted = on_spark(SELECTOR, ORDERS, "--invert", "--output", str(tmp_path / "inv"))
    assert inverted.exit_code == 0, inverted.stderr
    expected = local(SELECTOR, ORDERS, "--invert").stdout_bytes.splitlines()
    assert sorted(lines(tmp_path / "inv")) == sorted(expected)
    stats = inverted.stderr.strip().splitlines()[-1]
    assert stats.endswith(f"selected {len(expected)}")

    capped = on_spark(SELECTOR, ORDERS, "-m", "3", "--output", str(tmp_path / "three"), "--count")
    assert (capped.exit_code, capped.stdout) == (0, "3\n")
    assert lines(tmp_path / "three") == local(SELECTOR, ORDERS, "--max-count", "3").stdout_bytes.splitlines()
    assert on_spark(SELECTOR, ORDERS, "--invert", "--max-count", "2", "--count").stdout == "2\n"

"""samples/orders-artemis.xml is exactly what scripts/gen_artemis_sample.py writes, and jmsctl reads it
as Artemis XML: detected, every message loaded, the README's filter example selecting what it says."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_sample_is_the_generators_output() -> None:
    spec = importlib.util.spec_from_file_location("gen_artemis_sample", ROOT / "scripts" / "gen_artemis_sample.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data, lost = module.render()
    assert data == (ROOT / "samples" / "orders-artemis.xml").read_bytes()
    assert set(lost) == {"JMSDeliveryMode (not in Artemis's export)", "JMSRedelivered (not in Artemis's export)",
                         "JMSDeliveryTime (not in Artemis's export)"}


def test_filter_reads_the_sample() -> None:
    r = subprocess.run([sys.executable, "-m", "jmsctl", "filter", "JMSType = 'car' AND color = 'blue'", "samples/orders-artemis.xml",
                        "--format", "ids", "--stats"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "samples/orders-artemis.xml: format artemis-xml (detected)" in r.stderr
    assert "read 24, TRUE 9, FALSE 15, UNKNOWN 0, rejected 0, selected 9" in r.stderr
    assert r.stdout.splitlines()[0].startswith("ID:")

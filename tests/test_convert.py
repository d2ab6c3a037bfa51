"""jmsctl convert: any format read -> NDJSON, fmtn/a JSON or Artemis XML; round trips that lose nothing,
what a format cannot hold said once, outputs all or nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from jmsctl.messages.loader import read_records

ROOT = Path(__file__).resolve().parent.parent


def jmsctl(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jmsctl", *args], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def jms_view(path: Path) -> list[tuple]:
    """What a message is for JMS: headers, typed properties, body (not the source's own metadata)."""
    out = []
    for r in read_records(str(path)):
        assert r.message is not None, (r.location, r.error)
        m = r.message
        props = {k: (t, v if v == v else "NaN") for k, (t, v) in m.properties.items()}
        out.append((m.headers, props, m.body_type, m.body, sorted(m.null_properties)))
    return out


def test_ndjson_to_artemis_xml_and_back_loses_only_what_it_says(tmp_path: Path) -> None:
    src = tmp_path / "in.ndjson"
    lines = (ROOT / "samples" / "orders.ndjson").read_text().splitlines()[:300]
    src.write_text("\n".join(lines) + "\n")
    xml, back = tmp_path / "out.xml", tmp_path / "back.ndjson"
    r = jmsctl("convert", str(src), "--to", "artemis-xml", "-o", str(xml))
    assert r.returncode == 0, r.stderr
    said = r.stderr.splitlines()
    assert all(line.startswith("jmsctl convert: not in artemis-xml as it was: ") for line in said)
    assert len(said) == len(set(said)) and any("JMSDeliveryMode" in line for line in said)  # once per kind, not per message
    r = jmsctl("convert", str(xml), "-o", str(back), "--stats")
    assert r.returncode == 0 and f"{xml}: format artemis-xml (detected)" in r.stderr and "read 300, written 300, rejected 0" in r.stderr
    before, after = jms_view(src), jms_view(back)
    assert len(before) == len(after) == 300
    dropped = ("JMSDeliveryMode", "JMSRedelivered", "JMSDeliveryTime")
    for (h1, p1, t1, b1, n1), (h2, p2, t2, b2, n2) in zip(before, after, strict=True):
        assert {k: v for k, v in h1.items() if k not in dropped} == h2
        if t1 == "stream":
            assert t2 == "stream" and b2 is None  # said: stream bodies are not written
        else:
            assert (p1, t1, b1, n1) == (p2, t2, b2, n2)
    assert any("stream bodies" in line for line in said) == any(t == "stream" for _, _, t, _, _ in before)


def test_artemis_xml_to_artemis_xml_is_byte_identical(tmp_path: Path) -> None:
    out = tmp_path / "again.xml"
    r = jmsctl("convert", "samples/orders-artemis.xml", "--to", "artemis-xml", "-o", str(out))
    assert r.returncode == 0 and r.stderr == ""
    assert out.read_bytes() == (ROOT / "samples" / "orders-artemis.xml").read_bytes()  # ids, queues, bytes properties kept


def test_output_all_or_nothing_and_skip_invalid(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"type": "text", "body": "a"}\nnot json\n')
    out = tmp_path / "out.xml"
    out.write_text("old")
    r = jmsctl("convert", str(bad), "--to", "artemis-xml", "-o", str(out))
    assert r.returncode == 2 and out.read_text() == "old"
    assert r.stderr.splitlines() == [f"jmsctl: error: {bad}:2: invalid JSON: invalid literal: line 1 column 1 (char 0)"]
    r = jmsctl("convert", str(bad), "--to", "artemis-xml", "-o", str(out), "--skip-invalid", "--stats")
    assert r.returncode == 0 and "read 2, written 1, rejected 1" in r.stderr and out.read_text().startswith("<?xml")


def test_unknown_target_format() -> None:
    r = jmsctl("convert", "samples/orders-small.ndjson", "--to", "yaml")
    assert r.returncode == 2 and r.stderr.startswith("jmsctl: error: unknown format 'yaml'")

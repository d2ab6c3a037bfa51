"""jmsctl convert: any format read -> NDJSON, fmtn/a JSON or Artemis XML; round trips that lose nothing,
what a format cannot hold said once, outputs all or nothing."""

from __future__ import annotations

import io
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jmsctl.messages.formats import fmtn_a, fmtn_a_writer
from jmsctl.messages.loader import read_records
from jmsctl.messages.model import DELIVERY_MODES, Message
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING

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
    # orjson's own wording after "invalid literal" differs between its releases
    [line] = r.stderr.splitlines()
    assert line.startswith(f"jmsctl: error: {bad}:2: invalid JSON: invalid literal") and line.endswith("line 1 column 1 (char 0)")
    r = jmsctl("convert", str(bad), "--to", "artemis-xml", "-o", str(out), "--skip-invalid", "--stats")
    assert r.returncode == 0 and "read 2, written 1, rejected 1" in r.stderr and out.read_text().startswith("<?xml")


def test_unknown_target_format() -> None:
    r = jmsctl("convert", "samples/orders-small.ndjson", "--to", "yaml")
    assert r.returncode == 2 and r.stderr.startswith("jmsctl: error: unknown format 'yaml'")


# --- fmtn/a JSON ------------------------------------------------------------------------------


_names = st.from_regex(r"[A-Za-z_$][A-Za-z0-9_$]{0,8}", fullmatch=True)
_values = st.one_of(
    st.booleans().map(lambda v: (BOOLEAN, v)), st.integers(-128, 127).map(lambda v: (BYTE, v)), st.integers(-32768, 32767).map(lambda v: (SHORT, v)),
    st.integers(-2**31, 2**31 - 1).map(lambda v: (INT, v)), st.integers(-2**63, 2**63 - 1).map(lambda v: (LONG, v)),
    st.floats(width=32).map(lambda v: (FLOAT, v)), st.floats().map(lambda v: (DOUBLE, v)), st.text(max_size=20).map(lambda v: (STRING, v)))
_headers = st.fixed_dictionaries({}, optional={
    "JMSMessageID": st.text(max_size=10), "JMSTimestamp": st.integers(-2**63, 2**63 - 1), "JMSPriority": st.integers(0, 9),
    "JMSExpiration": st.integers(-2**63, 2**63 - 1), "JMSCorrelationID": st.text(max_size=10), "JMSType": st.text(max_size=10),
    "JMSDeliveryMode": st.sampled_from(["PERSISTENT", "NON_PERSISTENT", 1, 2]), "JMSRedelivered": st.booleans()})
_bodies = st.one_of(st.tuples(st.just("text"), st.one_of(st.none(), st.text(max_size=40))), st.tuples(st.just("bytes"), st.binary(max_size=40)),
                    st.tuples(st.just("object"), st.binary(max_size=40)))


@st.composite
def _fmtn_messages(draw: st.DrawFn) -> Message:
    kind, body = draw(_bodies)
    props = draw(st.dictionaries(_names, _values, max_size=6))
    nulls = tuple(n for n in draw(st.lists(_names, max_size=2, unique=True)) if n not in props)
    return Message(draw(_headers), props, kind, body, nulls)


def _jms(m: Message) -> tuple:
    h = dict(m.headers)
    if "JMSDeliveryMode" in h:
        h["JMSDeliveryMode"] = DELIVERY_MODES[h["JMSDeliveryMode"]]
    props = {k: (t, v if v == v else "NaN") for k, (t, v) in m.properties.items()}
    return h, props, m.body_type, m.body, sorted(m.null_properties)


@settings(max_examples=60, deadline=None)
@given(st.lists(_fmtn_messages(), max_size=5))
def test_round_trip_through_fmtn_a_loses_nothing_it_can_hold(msgs: list[Message]) -> None:
    out, lost = io.BytesIO(), Counter()
    fmtn_a_writer.write(msgs, out, lost)
    assert not lost
    back = list(fmtn_a.read(io.BytesIO(out.getvalue()), "t.json", fmtn_a.ReadOptions()))
    assert all(r.error is None for r in back), [r.error for r in back]
    assert [_jms(m) for m in msgs] == [_jms(r.message) for r in back]


def test_ndjson_to_fmtn_a_and_back_with_the_cli(tmp_path: Path) -> None:
    src = tmp_path / "in.ndjson"
    lines = (ROOT / "samples" / "orders.ndjson").read_text().splitlines()[:300]
    src.write_text("\n".join(lines) + "\n")
    dump, back = tmp_path / "a.json", tmp_path / "back.ndjson"
    r = jmsctl("convert", str(src), "--to", "fmtn-a", "-o", str(dump))
    assert r.returncode == 0, r.stderr
    said = r.stderr.splitlines()
    assert len(said) == len(set(said)) and any("JMSDestination" in line for line in said)
    r = jmsctl("convert", str(dump), "-o", str(back), "--stats")
    assert r.returncode == 0 and "format fmtn-a (detected)" in r.stderr and "read 300, written 300, rejected 0" in r.stderr
    lost_headers = ("JMSDestination", "JMSReplyTo", "JMSDeliveryTime")
    for (h1, p1, t1, b1, n1), (h2, p2, t2, b2, n2) in zip(jms_view(src), jms_view(back), strict=True):
        h1 = {k: DELIVERY_MODES[v] if k == "JMSDeliveryMode" else v for k, v in h1.items() if k not in lost_headers}
        h2 = {k: DELIVERY_MODES[v] if k == "JMSDeliveryMode" else v for k, v in h2.items()}
        assert h1 == h2
        if t1 in ("text", "bytes", "object"):
            assert (p1, t1, b1, n1) == (p2, t2, b2, n2)
        else:  # said: map, stream and plain messages are written with type "" and no body
            assert (p1, n1, t2, b2) == (p2, n2, "message", None)


REAL_A_DUMP = Path("/work/shared/dumps/fmtn-a-testdump.json")


def test_a_real_a_dump_survives_fmtn_a_to_ndjson_to_fmtn_a(tmp_path: Path) -> None:
    if not REAL_A_DUMP.exists():
        pytest.skip("the fmtn/a testdump.json is not here (../shared/dumps)")
    nd, again = tmp_path / "a.ndjson", tmp_path / "again.json"
    assert jmsctl("convert", str(REAL_A_DUMP), "-o", str(nd)).returncode == 0
    r = jmsctl("convert", str(nd), "--to", "fmtn-a", "-o", str(again))
    assert r.returncode == 0 and r.stderr == ""
    assert [_jms(m) for m in _read(REAL_A_DUMP)] == [_jms(m) for m in _read(again)]


def _read(path: Path) -> list[Message]:
    return [r.message for r in read_records(str(path)) if r.message is not None]


def test_artemis_xml_through_ndjson_and_back_is_byte_identical(tmp_path: Path) -> None:
    """The source metadata (Artemis ids, queues, bytes properties) rides along in the NDJSON."""
    nd, again = tmp_path / "a.ndjson", tmp_path / "again.xml"
    r = jmsctl("convert", "samples/orders-artemis.xml", "-o", str(nd))
    assert r.returncode == 0 and r.stderr == ""
    assert '"bytes_properties":{"_AMQ_DUPL_ID":' in nd.read_text()
    r = jmsctl("convert", str(nd), "--to", "artemis-xml", "-o", str(again))
    assert r.returncode == 0 and r.stderr == ""
    assert again.read_bytes() == (ROOT / "samples" / "orders-artemis.xml").read_bytes()

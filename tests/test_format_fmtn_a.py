"""fmtn/a JSON dumps: every rule of docs/FORMAT.md#fmtn-a-the-a-clients-json-dump on files built for it
(tests/fixtures/formats/fmtn-a/), the real dump from fmtn/a's repository when present, broken
elements one by one, truncation, streaming in constant memory."""

from __future__ import annotations

import io
import math
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from jmsctl.messages import formats
from jmsctl.messages.formats import fmtn_a, jsonstream
from jmsctl.messages.loader import read_records
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, to_f32
from tests.test_formats import _Repeat

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "formats" / "fmtn-a"
REAL = Path("/work/shared/dumps/fmtn-a-testdump.json")  # fmtn/a src/test/resources/testdump.json, not ours to copy


def records(path: Path | str, **kw: object) -> list:  # type: ignore[type-arg]
    return list(read_records(str(path), **kw))  # type: ignore[arg-type]


def test_detected_from_content() -> None:
    fmt = formats.detect((FIX / "rules.json").read_bytes()[:4096])
    assert fmt is not None and fmt.name == "fmtn-a"
    assert formats.detect(b'[{"headers": {}}]') is formats.get("json")


def test_every_rule_of_the_typed_dump() -> None:
    rs = records(FIX / "rules.json")
    assert [r.error for r in rs] == [None] * 5
    m = rs[0].message
    assert rs[0].location == f"{FIX / 'rules.json'}:[0] (ID:rules-0)"
    assert m.headers == {"JMSCorrelationID": "corr-1", "JMSDeliveryMode": 1, "JMSExpiration": 1700000060000, "JMSMessageID": "ID:rules-0",
                         "JMSPriority": 7, "JMSRedelivered": True, "JMSTimestamp": 1700000000000, "JMSType": "car"}
    assert m.get("JMSDeliveryMode") == (STRING, "NON_PERSISTENT")  # integer delivery mode: 1 NON_PERSISTENT
    p = m.properties
    assert p["express"] == (BOOLEAN, True) and p["b"] == (BYTE, -128) and p["s"] == (SHORT, 32767)
    assert p["weight"] == (INT, 2600) and p["big"] == (LONG, 2**63 - 1) and p["small"] == (LONG, 5)  # the map's type, not the value's
    assert p["d"] == (DOUBLE, 0.1) and p["f"] == (FLOAT, to_f32(0.1))
    assert math.isnan(p["dnan"][1]) and p["finf"] == (FLOAT, -math.inf)  # Jackson quotes NaN and the infinities
    assert p["JMSXDeliveryCount"] == (STRING, "1")  # the typed maps are exact: a String stays a String
    assert m.null_properties == ("gone",) and "obj" not in p
    assert m.source == {"format": "fmtn-a", "index": 0, "objectProperties": {"obj": "rO0ABXQAA2Zvbw=="}}  # never deserialized
    assert (m.body_type, m.body) == ("text", '{"order": 7, "note": "café"}')
    assert (rs[1].message.body_type, rs[1].message.body) == ("bytes", b"\x00\x01\x02\xff")  # line breaks of old commons-codec
    assert rs[1].message.get("JMSDeliveryMode") == (STRING, "PERSISTENT") and "JMSCorrelationID" not in rs[1].message.headers
    assert (rs[2].message.body_type, rs[2].message.body) == ("object", b"\xac\xed\x00\x05t\x00\x03foo")  # unpadded
    assert (rs[3].message.body_type, rs[3].message.body) == ("message", None)  # type "": a plain message
    assert rs[4].message.body == b"\xff\xef"  # the URL-safe alphabet too


def test_broken_elements_are_each_an_error_and_the_rest_is_read() -> None:
    rs = records(FIX / "broken.json")
    name = FIX / "broken.json"
    good = [(r.location, r.message.properties["n"][1]) for r in rs if r.message]
    assert good == [(f"{name}:[0] (ID:good-0)", 0), (f"{name}:[9] (ID:good-9)", 9)]
    errors = {r.location: (r.error.field, r.error.reason) for r in rs if r.error}
    assert errors[f"{name}:[1] (ID:bad-1)"] == ("intProperties.n", "2147483648 is outside the range of int (-2147483648..2147483647)")
    assert errors[f"{name}:[2] (ID:bad-2)"][0] == "JMSDeliveryMode"
    assert errors[f"{name}:[3] (ID:bad-3)"] == ("body", "not base64")
    assert errors[f"{name}:[4] (ID:bad-4)"][0] == "type"
    assert errors[f"{name}:[5] (ID:bad-5)"][0] == "intProperties.n"
    assert errors[f"{name}:[6] (ID:bad-6)"][0] == "headers"
    assert errors[f"{name}:[7]"][1].startswith("invalid JSON")
    assert "a comma too many" in errors[f"{name}:[8]"][1]
    assert "truncated" in errors[f"{name}:[10]"][1]
    assert len(rs) == 11  # every element counted: 2 good + 9 rejected


def test_cli_counts_add_up_and_errors_name_position_and_id() -> None:
    r = subprocess.run([sys.executable, "-m", "jmsctl", "filter", "n >= 0", str(FIX / "broken.json"), "--stats"],
                       capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert r.returncode == 2 and len(r.stdout.splitlines()) == 2
    err = r.stderr.splitlines()
    assert err[0] == f"jmsctl: error: {FIX / 'broken.json'}:[1] (ID:bad-1): intProperties.n: 2147483648 is outside the range of int (-2147483648..2147483647)"
    assert len([line for line in err if line.startswith("jmsctl: error: ")]) == 9  # one line per rejected element
    assert err[-2] == f"{FIX / 'broken.json'}: format fmtn-a (detected)"
    assert err[-1] == "read 11, TRUE 2, FALSE 0, UNKNOWN 0, rejected 9, selected 2"


@pytest.mark.skipif(not REAL.exists(), reason="fmtn/a's testdump.json is not here")
def test_the_real_dump_of_a_loads_as_a_wrote_it() -> None:
    rs = records(REAL)
    assert [r.error for r in rs] == [None, None]
    text, data = rs[0].message, rs[1].message
    assert text.body == "Utf-8 Text - 😁" and text.properties["myIntProperty"] == (INT, 42)
    assert text.properties["myDoubleProperty"] == (DOUBLE, 3.141592653589793)
    assert text.properties["JMSXDeliveryCount"] == (STRING, "1")
    assert data.body_type == "bytes" and data.body == "Utf-8 Text - 😁".encode()
    assert text.headers["JMSTimestamp"] == 1495996340068 and text.get("JMSDeliveryMode") == (STRING, "PERSISTENT")


def test_from_fmtn_a_on_a_file_that_is_not_an_array() -> None:
    (r,) = list(read_records(str(ROOT / "samples" / "orders-small.ndjson"), fmt="fmtn-a"))[:1]
    assert r.error is not None and "not a JSON array" in r.error.reason and "docs/FORMAT.md" in r.error.reason


def test_records_over_the_size_limit_are_rejected_not_held(tmp_path: Path) -> None:
    p = tmp_path / "big.json"
    p.write_text('[{"type": "TextMessage", "body": "' + "x" * 5000 + '"}, {"type": "TextMessage", "body": "ok", "JMSMessageID": "ID:2"}]')
    rs = records(p, max_record_size=1000)
    assert rs[0].error is not None and "record too large" in rs[0].error.reason and rs[1].message.body == "ok"


def test_elements_stream_in_constant_memory() -> None:
    """A 20 MB array read element by element: the peak stays near one chunk, not the file size."""
    item = b'{"type": "TextMessage", "body": "' + b"y" * 900 + b'", "intProperties": {"n": 1}}'
    count = 20_000

    tracemalloc.start()
    seen = 0
    for record in fmtn_a.read(io.BufferedReader(_Repeat(b"[", item, count, sep=b",\n", tail=b"]")), "gen", formats.ReadOptions()):
        assert record.message is not None
        seen += 1
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert seen == count and peak < 2 * 1024 * 1024, peak


@pytest.mark.parametrize("chunk", [1, 2, 7, 64])
def test_element_cutting_does_not_depend_on_where_reads_end(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(jsonstream, "CHUNK", chunk)
    data = (FIX / "broken.json").read_bytes()
    cut = [(e.index, e.data, e.problem) for e in jsonstream.elements(io.BytesIO(data), 1 << 20)]
    monkeypatch.setattr(jsonstream, "CHUNK", 1 << 16)
    assert cut == [(e.index, e.data, e.problem) for e in jsonstream.elements(io.BytesIO(data), 1 << 20)]


@pytest.mark.skipif(not REAL.exists(), reason="fmtn/a's testdump.json is not here")
def test_validate_flags_the_string_delivery_count_of_the_real_dump() -> None:
    """The typed maps are exact: a writes JMSXDeliveryCount as a String property; validate says so."""
    from jmsctl.messages.validator import validate

    findings = list(validate(read_records(str(REAL)), None))
    assert [(f.code, f.field) for f in findings] == [("N007", "properties.JMSXDeliveryCount")] * 2

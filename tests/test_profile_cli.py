"""``jmsctl profile``: the table and the JSON document, counts that add up, rejected records located,
stdin and gzip, all-or-nothing output, and peak memory that does not grow with the dump."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import orjson

from jmsctl.analysis.profile import value_key
from jmsctl.analysis.shape import Shape
from jmsctl.messages.loader import read_records
from tests.ptyrun import run_in_pty, terminal_env
from tests.test_hostile_records import _feed

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "orders.ndjson"


def jmsctl(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "jmsctl", *args], cwd=ROOT, capture_output=True, input=stdin, timeout=120, check=False)


def _entry(doc: dict, section: str, name: str) -> dict:
    return next(e for e in doc[section] if e["name"] == name)


def test_json_document_adds_up_and_matches_the_messages() -> None:
    r = jmsctl("profile", str(SAMPLE), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert r.stderr == b""
    doc = orjson.loads(r.stdout)
    assert set(doc) == {"profile", "read", "messages", "rejected", "bodies", "properties", "headers"}
    assert doc["profile"] == 1 and doc["read"] == doc["messages"] + doc["rejected"] == 3000
    messages = [rec.message for rec in read_records(str(SAMPLE)) if rec.message]
    assert doc["bodies"] == dict(Counter(m.body_type for m in messages))
    for section in ("properties", "headers"):
        for e in doc[section]:
            assert e["present"] + e["absent"] == doc["messages"]
            assert sum(e["types"].values()) == e["present"]
            assert set(e["distinct"]) <= {"count", "exact", "relative_error"}
    color = _entry(doc, "properties", "color")
    truth = Counter(m.properties["color"][1] for m in messages if "color" in m.properties)
    assert color["distinct"] == {"count": len(truth), "exact": True}
    assert [(v["value"], v["count"]) for v in color["most_common"]["values"]] == sorted(truth.items(), key=lambda kv: (-kv[1], "String:" + kv[0]))[:10]
    assert all(v["type"] == "string" for v in color["most_common"]["values"])
    coupon = _entry(doc, "properties", "coupon")  # only ever written as JSON null
    assert coupon["present"] == 0 and coupon["null"] == sum("coupon" in m.null_properties for m in messages) > 0
    weight = _entry(doc, "properties", "weight")
    assert weight["types"] == {t.name.lower(): n for t, n in sorted(Counter(m.properties["weight"][0] for m in messages if "weight" in m.properties).items())}
    mode = _entry(doc, "headers", "JMSDeliveryMode")
    assert {v["value"] for v in mode["most_common"]["values"]} <= {"PERSISTENT", "NON_PERSISTENT"}
    assert Shape.from_json(doc).types("weight") == {m.properties["weight"][0] for m in messages if "weight" in m.properties}


def test_documents_follow_the_published_schema(tmp_path: Path) -> None:
    """docs/profile.schema.json (the README's document) holds for a sample, rejected records and
    estimates included, and refuses a document whose estimate is not labelled."""
    import jsonschema

    schema = json.loads((ROOT / "docs" / "profile.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for args in ([str(SAMPLE)], [str(ROOT / "samples" / "bad-records.ndjson")], [str(ROOT / "samples" / "orders-dmpmqmsg.qload")]):
        doc = orjson.loads(jmsctl("profile", *args, "--format", "json").stdout)
        validator.validate(doc)
    entry = next(e for e in doc["properties"] if e["distinct"]["exact"]) if doc["properties"] else None
    if entry is not None:
        entry["distinct"]["exact"] = False  # an estimate without its error
        assert not validator.is_valid(doc)


def test_table_is_plain_when_piped() -> None:
    r = jmsctl("profile", str(SAMPLE), "--top", "2")
    assert r.returncode == 0, r.stderr
    text = r.stdout.decode()
    assert "\x1b[" not in text
    assert text.startswith("read 3,000, profiled 3,000, rejected 0\n")
    assert "Properties (28)" in text and "Headers (" in text
    line = next(x for x in text.splitlines() if x.split()[:1] == ["color"])
    assert "'blue' 740, 'black' 655" in line  # strings as selector literals, counts exact
    assert "~" in next(x for x in text.splitlines() if x.split()[:1] == ["orderId"])  # an estimate, labelled
    assert "~ an estimate (HyperLogLog" in text


def test_table_has_colour_on_a_terminal_only() -> None:
    out = run_in_pty(["profile", str(SAMPLE), "--top", "2"], terminal_env(COLUMNS="120", PYTHONPATH=str(ROOT)))
    assert "\x1b[" in out and "Properties (28)" in out
    plain = run_in_pty(["profile", str(SAMPLE), "--top", "2"], terminal_env(COLUMNS="120", PYTHONPATH=str(ROOT), NO_COLOR="1"))
    assert "\x1b[" not in plain and "Properties (28)" in plain


def test_rejected_records_are_located_and_counted(tmp_path: Path) -> None:
    dump = tmp_path / "d.ndjson"
    dump.write_text('{"properties": {"a": 1}}\n{"properties": {"a": }\n{"properties": {"a": "x"}}\n{"headers": {"JMSPriority": 12}}\n')
    r = jmsctl("profile", str(dump), "--format", "json")
    assert r.returncode == 2
    err = r.stderr.decode().splitlines()
    assert err[0].startswith(f"jmsctl: error: {dump}:2: invalid JSON")
    assert err[1].startswith(f"jmsctl: error: {dump}:4: ") and "JMSPriority" in err[1]
    assert err[-1] == "jmsctl: note: the message format, record by record: docs/FORMAT.md (jmsctl docs FORMAT prints it)"
    doc = orjson.loads(r.stdout)
    assert (doc["read"], doc["messages"], doc["rejected"]) == (4, 2, 2)
    assert _entry(doc, "properties", "a")["types"] == {"int": 1, "string": 1}
    quiet = jmsctl("profile", str(dump), "--format", "json", "--skip-invalid")
    assert quiet.returncode == 0 and quiet.stderr == b"" and orjson.loads(quiet.stdout) == doc


def test_stdin_gzip_and_several_files_make_one_profile(tmp_path: Path) -> None:
    one = b'{"properties": {"k": 1}}\n'
    two = tmp_path / "b.ndjson"
    two.write_bytes(b'{"properties": {"k": {"type": "long", "value": 1}}}\n')
    r = jmsctl("profile", "-", str(two), "--format", "json", stdin=gzip.compress(one))
    assert r.returncode == 0, r.stderr
    k = _entry(orjson.loads(r.stdout), "properties", "k")
    assert k["types"] == {"int": 1, "long": 1} and k["distinct"]["count"] == 2


def test_unreadable_input_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    out.write_text("old")
    r = jmsctl("profile", str(SAMPLE), str(tmp_path / "missing.ndjson"), "--format", "json", "-o", str(out))
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode().startswith("jmsctl: error: ") and "missing.ndjson" in r.stderr.decode()
    assert out.read_text() == "old"
    ok = jmsctl("profile", str(SAMPLE), "--format", "json", "-o", str(out))
    assert ok.returncode == 0 and orjson.loads(out.read_bytes())["messages"] == 3000


def test_not_a_dump_is_one_error(tmp_path: Path) -> None:
    csv = tmp_path / "x.csv"
    csv.write_text("a,b,c\n1,2,3\n4,5,6\n7,8,9\n1,1,1\n2,2,2\n")
    r = jmsctl("profile", str(csv))
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode().count("jmsctl: error:") == 1 and "not a message dump" in r.stderr.decode()


def _stream(n: int) -> Iterator[bytes]:
    """n messages with unique ids, strings and doubles: every summary past its exact bound."""
    for start in range(0, n, 1000):
        yield b"".join(
            json.dumps({"type": "text", "headers": {"JMSMessageID": f"ID:m-{i}", "JMSTimestamp": 1_700_000_000_000 + i},
                        "properties": {"id": {"type": "long", "value": i}, "sku": f"SKU-{i * 7919}", "price": i / 7, "kind": f"k{i % 5}"},
                        "body": "x"}).encode() + b"\n"
            for i in range(start, min(n, start + 1000))
        )


def test_peak_memory_does_not_grow_with_the_dump() -> None:
    """10,000 then 70,000 messages (about 16 MB, each id, sku and price new): the peak RSS of the
    second run is within 8 MB of the first's, and the profile still adds up."""
    status, out, err, small = _feed(_stream(10_000), ["profile", "-", "--format", "json"])
    assert status == 0, err
    status, out, err, large = _feed(_stream(70_000), ["profile", "-", "--format", "json"])
    assert status == 0, err
    doc = json.loads(out)
    assert doc["read"] == doc["messages"] == 70_000
    ident = _entry(doc, "properties", "id")
    assert ident["distinct"]["exact"] is False and abs(ident["distinct"]["count"] - 70_000) < 0.07 * 70_000
    assert _entry(doc, "properties", "kind")["distinct"] == {"count": 5, "exact": True}
    assert large - small < 8 * 1024, (small, large)  # KiB
    print(f"peak RSS {small} KiB at 10,000 messages, {large} KiB at 70,000")


def test_value_keys_of_the_json_values() -> None:
    """Each most-common value in the document is a FORMAT.md typed value (reads back as that value)."""
    doc = orjson.loads(jmsctl("profile", str(SAMPLE), "--format", "json").stdout)
    from jmsctl.messages.decode import decode_message

    for e in doc["properties"]:
        for v in e["most_common"]["values"]:
            if v.get("truncated"):
                continue
            m = decode_message({"properties": {"p": {"type": v["type"], "value": v["value"]}}})
            assert value_key(m.properties["p"]) is not None

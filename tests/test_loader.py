"""Loading dumps: every shape FORMAT.md allows, located rejections, and files that cannot be read."""

from __future__ import annotations

import gzip
import io
import sys
from pathlib import Path

import pytest

from jmsctl.messages.loader import InputError, read_records
from jmsctl.values import DOUBLE, INT, LONG, STRING


def records(path: Path | str):
    return list(read_records(str(path)))


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def test_ndjson_lines_keep_raw_bytes_and_line_numbers(tmp_path: Path) -> None:
    p = write(tmp_path, "a.ndjson", b'{"properties": {"x": 1}}\n\n{ "properties" : {"s": "\\u00e9"} }\r\n')
    rs = records(p)
    assert [r.location for r in rs] == [f"{p}:1", f"{p}:3"]
    assert rs[1].raw == b'{ "properties" : {"s": "\\u00e9"} }'
    assert rs[1].message.properties == {"s": (STRING, "é")}


def test_json_array_records_are_indexed(tmp_path: Path) -> None:
    p = write(tmp_path, "a.json", b'[\n {"properties": {"x": 1}},\n {"properties": {"x": [1]}}\n]\n')
    rs = records(p)
    assert [r.location for r in rs] == [f"{p}:[0]", f"{p}:[1]"]
    assert rs[0].raw is None and rs[0].message.properties == {"x": (INT, 1)}
    assert rs[1].error.field == "properties.x"


def test_single_pretty_printed_object(tmp_path: Path) -> None:
    p = write(tmp_path, "one.json", b'{\n  "type": "text",\n  "body": "hi"\n}\n')
    (r,) = records(p)
    assert r.message.body == "hi" and r.location == f"{p}:[0]"


def test_bom_crlf_and_gzip(tmp_path: Path) -> None:
    data = b'\xef\xbb\xbf{"properties": {"x": 1}}\r\n{"properties": {"x": 2}}\r\n'
    p = tmp_path / "a.ndjson.gz"
    with gzip.open(p, "wb") as f:
        f.write(data)
    assert [r.message.properties["x"][1] for r in records(p)] == [1, 2]


def test_broken_first_line_does_not_hide_the_rest(tmp_path: Path) -> None:
    p = write(tmp_path, "a.ndjson", b'{"properties": {"x": 1}\n{"properties": {"x": 2}}\n')
    rs = records(p)
    assert rs[0].error is not None and "invalid JSON" in rs[0].error.reason
    assert rs[1].message.properties == {"x": (INT, 2)}


def test_rejections_name_the_field_and_reason(tmp_path: Path) -> None:
    lines = [
        b'{"properties": {"a": 99999999999999999999999}}',  # beyond 64 bits: orjson alone would read a double
        b'{"properties": {"b": {"type": "byte", "value": 300}}}',
        b'{"properties": {"c": "\xff"}}',
        b'{"headers": {"JMSFoo": 1}}',
        b'{"headers": {"JMSPriority": "high"}}',
        b'{"extra": 1}',
        b"[1, 2]",
        b'{"type": "bytes", "body": "***"}',
        b'{"properties": {"d": {"type": "int", "value": 3000.5}}}',
        b'{"properties": {"e": {"type": "float", "value": 1e39}}}',
    ]
    rs = records(write(tmp_path, "bad.ndjson", b"\n".join(lines) + b"\n"))
    fields = [(r.error.field, r.error.reason) for r in rs]
    assert fields[0] == ("properties.a", "integer 99999999999999999999999 is outside the range of long")
    assert fields[1][0] == "properties.b" and "range of byte" in fields[1][1]
    assert fields[2] == ("", "invalid JSON: invalid UTF-8 at byte 22")
    assert fields[3][0] == "headers.JMSFoo"
    assert fields[4][0] == "headers.JMSPriority"
    assert fields[5][0] == "extra"
    assert "not a JSON array" in fields[6][1]
    assert fields[7] == ("body", "is not valid base64")
    assert fields[8][0] == "properties.d"
    assert fields[9][0] == "properties.e"


def test_bare_values_infer_java_types(tmp_path: Path) -> None:
    p = write(tmp_path, "a.ndjson", b'{"properties": {"i": 2147483647, "l": 2147483648, "d": 1.0, "e": 1e3}}\n')
    (r,) = records(p)
    assert r.message.properties == {"i": (INT, 2147483647), "l": (LONG, 2147483648), "d": (DOUBLE, 1.0), "e": (DOUBLE, 1000.0)}


def test_null_property_is_absent_but_remembered(tmp_path: Path) -> None:
    (r,) = records(write(tmp_path, "a.ndjson", b'{"properties": {"n": null, "x": 1}}\n'))
    assert "n" not in r.message.properties and r.message.null_properties == ("n",)
    assert r.message.get("n") is None


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = io.TextIOWrapper(io.BytesIO(b'{"properties": {"x": 1}}\n'))
    monkeypatch.setattr(sys, "stdin", fake)
    (r,) = records("-")
    assert r.location == "<stdin>:1" and r.message.properties == {"x": (INT, 1)}


@pytest.mark.parametrize("kind", ["missing", "directory", "badgzip"])
def test_unreadable_inputs_raise_input_error(tmp_path: Path, kind: str) -> None:
    path = {"missing": tmp_path / "nope.ndjson", "directory": tmp_path, "badgzip": write(tmp_path, "x.gz", b"not gzip")}[kind]
    with pytest.raises(InputError) as info:
        records(path)
    assert str(path) in str(info.value)

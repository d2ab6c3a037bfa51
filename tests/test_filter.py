"""``jmsctl filter`` and its core ``jmsctl.filter``: passthrough, counts, exit codes, formats, --output."""

from __future__ import annotations

import gzip
import itertools
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from jmsctl import selector
from jmsctl.cli.app import app
from jmsctl.filter import Counts, record_json, select
from jmsctl.messages.decode import decode_message
from jmsctl.messages.encode import message_json
from jmsctl.messages.loader import Record, read_records

runner = CliRunner()
SAMPLES = Path(__file__).parent.parent / "samples"


def run(*args: str, stdin: bytes | str | None = None):
    return runner.invoke(app, ["filter", *args], input=stdin)


def write(path: Path, lines: list[str]) -> Path:
    path.write_bytes("".join(line + "\n" for line in lines).encode())
    return path


def stats_of(stderr: str) -> dict[str, int]:
    """``read 9, TRUE 2, ...`` (the last stderr line) -> {"read": 9, "TRUE": 2, ...}."""
    fields = (item.split() for item in stderr.strip().splitlines()[-1].split(", "))
    return {name: int(n) for name, n in fields}


# One record of each outcome for "x = 1": TRUE, FALSE, UNKNOWN (x absent), rejected (twice).
MIXED = [
    '{"properties": {"x": 1}, "headers": {"JMSMessageID": "ID:t1"}}',
    '{"properties": {"x": 2}, "headers": {"JMSMessageID": "ID:f1"}}',
    '{"properties": {"y": 1}}',
    '{"properties": {"x": [1]}}',
    "not json",
    '{"properties": {"x": {"type": "long", "value": 1}}}',
    '{"properties": {"x": "1"}}',
]


# ----- passthrough -----------------------------------------------------------------------------


def test_ndjson_lines_are_written_byte_for_byte(tmp_path: Path) -> None:
    odd = [
        '  {"properties" :{ "x":1 ,"s" : "caf\\u00e9 \\ud83d\\ude00 \\" \\/"} }\t',
        '{"headers":{"JMSType":"\u00e9t\u00e9"},"properties":{"x":1.0e0},"body":"\\n"}',
        '{"properties": {"x": 2}}',
        '{ "properties" : { "x" : { "type" : "byte" , "value" : 1 } } }',
    ]
    f = write(tmp_path / "odd.ndjson", odd)
    r = run("x = 1", str(f))
    assert r.exit_code == 0
    assert r.stdout_bytes == (odd[0] + "\n" + odd[1] + "\n" + odd[3] + "\n").encode()


def test_crlf_lines_keep_their_bytes_and_end_in_lf(tmp_path: Path) -> None:
    f = tmp_path / "crlf.ndjson"
    f.write_bytes(b'{"properties": {"x": 1}}\r\n{"properties": {"x": 1} }\r\n')
    assert run("x = 1", str(f)).stdout_bytes == b'{"properties": {"x": 1}}\n{"properties": {"x": 1} }\n'


def test_json_array_is_written_as_compact_ndjson(tmp_path: Path) -> None:
    items = [
        {"type": "text", "headers": {"JMSType": "car", "JMSDeliveryMode": 1}, "properties": {"x": 1, "w": {"type": "short", "value": 7}}, "body": "hi"},
        {"properties": {"x": 2}},
        {"type": "map", "properties": {"x": 1, "f": {"type": "float", "value": 0.1}, "big": 4294967296, "n": None},
         "body": {"k": {"type": "bytes", "value": "AAE="}, "d": {"type": "double", "value": "NaN"}}},
    ]
    f = tmp_path / "arr.json"
    f.write_text(json.dumps(items, indent=2))
    r = run("x = 1", str(f))
    assert r.exit_code == 0
    lines = r.stdout_bytes.splitlines()
    assert len(lines) == 2
    assert lines[0] == (
        b'{"type":"text","headers":{"JMSType":"car","JMSDeliveryMode":1},"properties":{"x":1,"w":{"type":"short","value":7}},"body":"hi"}'
    )
    assert b'"f":{"type":"float","value":0.1}' in lines[1] and b'"big":4294967296' in lines[1] and b'"n":null' in lines[1]
    for line, original in zip(lines, (items[0], items[2]), strict=True):
        assert decode_message(orjson.loads(line)) == decode_message(original)


def test_single_pretty_printed_object(tmp_path: Path) -> None:
    f = tmp_path / "one.json"
    f.write_text('{\n  "properties": {\n    "x": 1\n  }\n}\n')
    r = run("x = 1", str(f))
    assert r.exit_code == 0 and r.stdout_bytes == b'{"type":"message","properties":{"x":1}}\n'


def test_stdin_and_dash(tmp_path: Path) -> None:
    data = "\n".join(MIXED[:3]) + "\n"
    assert run("x = 1", stdin=data).stdout == MIXED[0] + "\n"
    f = write(tmp_path / "more.ndjson", ['{"properties": {"x": 1, "z": 0}}'])
    r = run("x = 1", "-", str(f), stdin=data)
    assert r.stdout == MIXED[0] + "\n" + '{"properties": {"x": 1, "z": 0}}\n'


def test_gzip_input(tmp_path: Path) -> None:
    f = tmp_path / "m.ndjson.gz"
    with gzip.open(f, "wb") as gz:
        gz.write(("\n".join(MIXED[:3]) + "\n").encode())
    r = run("x = 2", str(f))
    assert r.exit_code == 0 and r.stdout == MIXED[1] + "\n"


def test_selector_from_file(tmp_path: Path) -> None:
    sel = tmp_path / "sel.txt"
    sel.write_text("x = 1\n  OR x = 2\n")
    f = write(tmp_path / "m.ndjson", MIXED[:3])
    r = run("-f", str(sel), str(f), "--format", "ids")
    assert r.exit_code == 0 and r.stdout == "ID:t1\nID:f1\n"
    bad = tmp_path / "bad.txt"
    bad.write_text("x = 1\nAND y == 2\n")
    r = run("-f", str(bad), str(f))
    assert r.exit_code == 2 and f" --> {bad}:2:7" in r.stderr


# ----- counts and exit codes ---------------------------------------------------------------------


def test_counts_add_up_with_skip_invalid(tmp_path: Path) -> None:
    f = write(tmp_path / "mixed.ndjson", MIXED)
    r = run("x = 1", str(f), "--stats", "--skip-invalid")
    assert r.exit_code == 0
    assert r.stdout == MIXED[0] + "\n" + MIXED[5] + "\n"
    s = stats_of(r.stderr)
    assert s == {"read": 7, "TRUE": 2, "FALSE": 2, "UNKNOWN": 1, "rejected": 2, "selected": 2}
    assert s["read"] == s["TRUE"] + s["FALSE"] + s["UNKNOWN"] + s["rejected"]
    assert r.stderr.count("\n") == 1  # the counts alone: rejected records are not reported with --skip-invalid


def test_rejected_record_is_reported_and_exits_2_after_finishing(tmp_path: Path) -> None:
    f = write(tmp_path / "mixed.ndjson", MIXED)
    r = run("x = 1", str(f), "--stats")
    assert r.exit_code == 2
    assert r.stdout == MIXED[0] + "\n" + MIXED[5] + "\n"  # it went on to the end
    err = r.stderr.splitlines()
    assert err[0] == f"jmsctl: error: {f}:4: properties.x: a JSON array is not a property value; use a bare value or {{\"type\": T, \"value\": V}}"
    assert err[1].startswith(f"jmsctl: error: {f}:5: invalid JSON: ")
    assert stats_of(r.stderr)["rejected"] == 2


def test_exit_1_when_nothing_selected(tmp_path: Path) -> None:
    f = write(tmp_path / "m.ndjson", MIXED[:3])
    r = run("x = 3", str(f))
    assert r.exit_code == 1 and r.stdout == "" and r.stderr == ""
    assert run("x = 1", str(tmp_path / "m.ndjson"), "--max-count", "0").exit_code == 1


def test_invalid_selector_exits_2_with_diagnostics_on_stderr(tmp_path: Path) -> None:
    f = write(tmp_path / "m.ndjson", MIXED[:3])
    r = run("color != 'blue'", str(f))
    assert r.exit_code == 2 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert lines[0] == "error[E006]: '!=' is not a selector operator"
    assert lines[4] == "  |       ^^ expected '<>'"


def test_missing_file_is_one_line_and_exit_2_before_any_output(tmp_path: Path) -> None:
    f = write(tmp_path / "m.ndjson", MIXED[:3])
    missing = tmp_path / "missing.ndjson"
    r = run("x = 1", str(f), str(missing))
    assert r.exit_code == 2
    assert r.stderr == f"jmsctl: error: {missing}: no such file\n"
    assert r.stdout == ""  # an argument that names no file is known before anything is read (issue 35 item 10)


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run().exit_code == 2
    assert run("x = 1", "--format", "xml").exit_code == 2
    assert run("x = 1", "--dialect", "oracle").exit_code == 2
    assert run("-f", "-", "-", stdin="x = 1").exit_code == 2
    assert run("-f", str(tmp_path / "nope.txt")).exit_code == 2


# ----- options -----------------------------------------------------------------------------------


def test_invert_writes_false_and_unknown_never_rejected(tmp_path: Path) -> None:
    f = write(tmp_path / "mixed.ndjson", MIXED)
    r = run("x = 1", str(f), "--invert", "--skip-invalid", "--stats")
    assert r.exit_code == 0
    assert r.stdout == MIXED[1] + "\n" + MIXED[2] + "\n" + MIXED[6] + "\n"
    assert stats_of(r.stderr)["selected"] == 3
    # x absent: UNKNOWN; x = '1' (a String): FALSE for both comparisons with a number
    r = run("x = 1 OR x <> 1", str(f), "-v", "--skip-invalid", "--stats")
    assert r.stdout == MIXED[2] + "\n" + MIXED[6] + "\n"
    assert stats_of(r.stderr) == {"read": 7, "TRUE": 3, "FALSE": 1, "UNKNOWN": 1, "rejected": 2, "selected": 2}


def test_max_count_stops_reading(tmp_path: Path) -> None:
    f = write(tmp_path / "m.ndjson", [MIXED[1], MIXED[0], MIXED[0], MIXED[3], MIXED[0]])
    r = run("x = 1", str(f), "--max-count", "2", "--stats")
    assert r.exit_code == 0  # the bad record after the second match is never read
    assert r.stdout == MIXED[0] + "\n" + MIXED[0] + "\n"
    assert stats_of(r.stderr) == {"read": 3, "TRUE": 2, "FALSE": 1, "UNKNOWN": 0, "rejected": 0, "selected": 2}


def test_count(tmp_path: Path) -> None:
    f = write(tmp_path / "mixed.ndjson", MIXED)
    assert run("x = 1", str(f), "--count", "--skip-invalid").stdout == "2\n"
    assert run("x = 1", str(f), "-c", "-v", "--skip-invalid").stdout == "3\n"
    r = run("x = 5", str(f), "--count", "--skip-invalid")
    assert r.exit_code == 1 and r.stdout == "0\n"


def test_format_json_is_one_array(tmp_path: Path) -> None:
    f = write(tmp_path / "mixed.ndjson", MIXED)
    r = run("x = 1", str(f), "--format", "json", "--skip-invalid")
    assert json.loads(r.stdout) == [json.loads(MIXED[0]), json.loads(MIXED[5])]
    assert run("x = 9", str(f), "--format", "json", "--skip-invalid").stdout == "[]\n"


def test_format_ids_uses_location_without_message_id(tmp_path: Path) -> None:
    f = write(tmp_path / "mixed.ndjson", MIXED)
    r = run("x = 1 OR x = 2", str(f), "--format", "ids", "--skip-invalid")
    assert r.stdout == f"ID:t1\nID:f1\n{f}:6\n"
    a = tmp_path / "a.json"
    a.write_text('[{"properties": {"x": 1}}]')
    assert run("x = 1", str(a), "--format", "ids").stdout == f"{a}:[0]\n"


def test_format_pretty_is_plain_text_with_headers_and_typed_properties() -> None:
    r = run("JMSType = 'car' AND weight > 2500", str(SAMPLES / "orders-small.ndjson"), "--format", "pretty")
    assert r.exit_code == 0
    out = r.stdout
    assert "\x1b[" not in out
    assert out.startswith(f"{SAMPLES / 'orders-small.ndjson'}:1  text message\n")
    assert "  JMSMessageID         ID:broker-1-1\n" in out
    assert "  JMSTimestamp         1700000000000 (2023-11-14T22:13:20.000Z)\n" in out
    assert "    weight             2600 (int)\n" in out
    assert "    total              450.25 (double)\n" in out
    assert "    color              'blue' (String)\n" in out


def test_pretty_escapes_control_characters(tmp_path: Path) -> None:
    f = write(tmp_path / "m.ndjson", ['{"properties": {"x": 1, "s": "a\\u001b[31mb\\nc"}}'])
    out = run("x = 1", str(f), "--format", "pretty").stdout
    assert "\x1b" not in out and "\\u001b[31mb\\u000ac" in out


def test_ibm_dialect(tmp_path: Path) -> None:
    f = write(tmp_path / "m.ndjson", ['{"properties": {"s": "5"}}'])
    assert run("NOT (s = 1)", str(f)).exit_code == 0
    assert run("NOT (s = 1)", str(f), "--dialect", "ibm").exit_code == 1


# ----- --output ------------------------------------------------------------------------------------


def test_output_is_written_only_on_success(tmp_path: Path) -> None:
    f = write(tmp_path / "mixed.ndjson", MIXED)
    out = tmp_path / "out" / "selected.ndjson"
    out.parent.mkdir()
    r = run("x = 1", str(f), "--output", str(out), "--skip-invalid")
    assert r.exit_code == 0 and r.stdout == ""
    assert out.read_text() == MIXED[0] + "\n" + MIXED[5] + "\n"
    assert os.listdir(out.parent) == ["selected.ndjson"]  # no temp file left
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # as open() would create it, not mkstemp's 0600


def test_output_not_written_on_error_and_existing_file_kept(tmp_path: Path) -> None:
    f = write(tmp_path / "mixed.ndjson", MIXED)
    out = tmp_path / "out" / "selected.ndjson"
    out.parent.mkdir()
    r = run("x = 1", str(f), "-o", str(out))
    assert r.exit_code == 2
    assert not out.exists() and os.listdir(out.parent) == []
    assert f"jmsctl: error: {out} not written because of the errors above" in r.stderr
    out.write_text("previous\n")
    assert run("x = 1", str(f), str(tmp_path / "missing"), "-o", str(out), "--skip-invalid").exit_code == 2
    assert out.read_text() == "previous\n" and os.listdir(out.parent) == ["selected.ndjson"]


def test_output_nothing_selected_still_writes_an_empty_file(tmp_path: Path) -> None:
    f = write(tmp_path / "m.ndjson", MIXED[:3])
    out = tmp_path / "o.json"
    assert run("x = 7", str(f), "-o", str(out), "--format", "json").exit_code == 1
    assert out.read_text() == "[]\n"


def test_output_temp_file_removed_on_ctrl_c(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import jmsctl.cli.commands.filter_run as filter_cli

    real = filter_cli.read_records

    def interrupted(path: str, max_record_size: int, *options: Any) -> Iterator[Record]:
        yield from itertools.islice(real(path, max_record_size, *options), 1)
        raise KeyboardInterrupt

    monkeypatch.setattr(filter_cli, "read_records", interrupted)
    f = write(tmp_path / "m.ndjson", MIXED[:1])
    out = tmp_path / "out"
    out.mkdir()
    r = run("x = 1", str(f), "-o", str(out / "o.ndjson"))
    assert r.exit_code == 130
    assert os.listdir(out) == []


def test_output_to_a_directory_or_missing_directory_is_exit_2(tmp_path: Path) -> None:
    f = write(tmp_path / "m.ndjson", MIXED[:1])
    assert run("x = 1", str(f), "-o", str(tmp_path)).exit_code == 2
    r = run("x = 1", str(f), "-o", str(tmp_path / "no" / "such.ndjson"))
    assert r.exit_code == 2 and "cannot write" in r.stderr


# ----- the core ------------------------------------------------------------------------------------


def test_select_counts_and_is_lazy(tmp_path: Path) -> None:
    f = write(tmp_path / "mixed.ndjson", MIXED)
    counts = Counts()
    rejected: list[str] = []
    out = list(select(selector.compile("x = 1"), read_records(str(f)), counts, on_rejected=lambda r: rejected.append(r.location)))
    assert [r.location for r in out] == [f"{f}:1", f"{f}:6"]
    assert counts == Counts(read=7, true=2, false=2, unknown=1, rejected=2, selected=2)
    assert rejected == [f"{f}:4", f"{f}:5"]

    def endless() -> Iterator[Record]:
        for i in itertools.count():
            yield Record(f"gen:{i}", None, decode_message({"properties": {"x": i % 3}}), None)

    counts = Counts()
    first = list(select(selector.compile("x = 1"), endless(), counts, max_count=3))
    assert [r.location for r in first] == ["gen:1", "gen:4", "gen:7"] and counts.read == 8


def test_record_json_and_message_json_round_trip() -> None:
    for record in read_records(str(SAMPLES / "orders-small.ndjson")):
        if record.message is None:
            continue
        assert record_json(record) == record.raw
        again = Record("x", None, record.message, None)
        assert decode_message(orjson.loads(record_json(again))) == record.message
    m = decode_message({"properties": {"l": {"type": "long", "value": 5}, "i": {"type": "float", "value": "-Infinity"}}})
    assert message_json(m)["properties"] == {"l": {"type": "long", "value": 5}, "i": {"type": "float", "value": "-Infinity"}}


# ----- process behaviour ---------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="SIGPIPE")
def test_closed_pipe_exits_quietly(tmp_path: Path) -> None:
    f = write(tmp_path / "many.ndjson", [f'{{"headers": {{"JMSType": "car"}}, "properties": {{"x": {i}}}}}' for i in range(50_000)])
    p = subprocess.Popen([sys.executable, "-m", "jmsctl", "filter", "JMSType = 'car'", str(f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    assert p.stdout.readline().startswith(b'{"headers"')
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait() == 141
    assert err == b""

"""``jmsctl show``: every body type, selection, Java-style values, the hex dump, plain output when
piped, and the typed JSON form read back through decode_message."""

from __future__ import annotations

import base64
import io
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from jmsctl.cli.app import app
from jmsctl.cli.commands.show import render_message
from jmsctl.messages.decode import decode_message
from jmsctl.messages.encode import message_json
from jmsctl.messages.loader import read_records
from jmsctl.messages.printer import hex_lines, hex_text, java_string, message_view, pretty_json
from tests.ptyrun import run_in_pty as _in_pty

runner = CliRunner()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def write(tmp_path: Path, *records: Any, name: str = "m.ndjson") -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def show(*args: str):
    return runner.invoke(app, ["show", *args])


EVERY_PROPERTY = {
    "bool": {"type": "boolean", "value": True},
    "bareBool": False,
    "b": {"type": "byte", "value": -128},
    "s": {"type": "short", "value": 32767},
    "i": {"type": "int", "value": 2600},
    "bareInt": 7,
    "l": {"type": "long", "value": 9007199254740993},
    "bareLong": 4_000_000_000,
    "f": {"type": "float", "value": 0.1},
    "fNaN": {"type": "float", "value": "NaN"},
    "fInf": {"type": "float", "value": "-Infinity"},
    "d": {"type": "double", "value": 450.25},
    "bareDouble": 1e-7,
    "dInf": {"type": "double", "value": "Infinity"},
    "dNaN": {"type": "double", "value": "NaN"},
    "str": {"type": "string", "value": 'tab\there "q" \u001b[31m'},
    "bareStr": "blue",
    "gone": None,
    "JMSXDeliveryCount": {"type": "int", "value": 1},
    "JMS_IBM_Format": "MQSTR",
}
HEADERS = {
    "JMSMessageID": "ID:broker-1-42",
    "JMSTimestamp": 1700000000000,
    "JMSCorrelationID": "corr-1",
    "JMSType": "car",
    "JMSDeliveryMode": 1,
    "JMSPriority": 4,
    "JMSDestination": "queue://orders",
    "JMSReplyTo": "topic://replies",
    "JMSExpiration": 0,
    "JMSDeliveryTime": 1700000005123,
    "JMSRedelivered": True,
}
BODIES: list[dict[str, Any]] = [
    {"type": "message"},
    {"type": "text", "body": "plain \u00e9t\u00e9\nsecond line"},
    {"type": "text", "body": '{"order": {"id": 7, "amount": 1e400, "items": [1, 2.50]}, "a": 1, "a": 2}'},
    {"type": "text", "body": "<order id='7'><item/></order>"},
    {"type": "text"},
    {"type": "bytes", "body": b64(b"hello, world!\n\x00\x01\xff")},
    {"type": "bytes", "body": ""},
    {
        "type": "map",
        "body": {
            "name": "widget",
            "qty": {"type": "short", "value": 3},
            "price": {"type": "double", "value": 9.99},
            "ratio": {"type": "float", "value": "NaN"},
            "raw": {"type": "bytes", "value": b64(b"hello")},
            "tiny": {"type": "byte", "value": 1},
            "ok": True,
            "big": {"type": "long", "value": -9223372036854775808},
        },
    },
    {"type": "stream", "body": [1, "two", {"type": "bytes", "value": b64(b"\x00\x01\x02")}, {"type": "float", "value": 1.5}, False, 1.25]},
    {"type": "object", "body": b64(b"\xac\xed\x00\x05sr\x00\x11com.example.Order\x00\x01xp")},
]


# ----- every body type -----------------------------------------------------------------------


def test_text_message_plain(tmp_path: Path) -> None:
    r = show(write(tmp_path, {"headers": {"JMSMessageID": "ID:1"}, "body": "hello\nworld"}))
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == f"{tmp_path / 'm.ndjson'}:1  TextMessage"
    assert "Body  text, 11 characters, 11 bytes UTF-8, 2 lines" in lines
    assert lines[-2:] == ["hello", "world"]


def test_text_json_body_is_pretty_printed_numbers_and_duplicates_as_written(tmp_path: Path) -> None:
    r = show(write(tmp_path, BODIES[2]))
    assert r.exit_code == 0
    assert "JSON (pretty-printed)" in r.output
    body = r.output.split("JSON (pretty-printed)\n", 1)[1]
    assert (
        body
        == '{\n  "order": {\n    "id": 7,\n    "amount": 1e400,\n    "items": [\n      1,\n      2.50\n    ]\n  },\n  "a": 1,\n  "a": 2\n}\n'
    )


def test_text_xml_body_is_flagged_and_shown_whole(tmp_path: Path) -> None:
    long_xml = "<a>" + "x" * 5000 + "</a>"
    r = show(write(tmp_path, {"type": "text", "body": long_xml}))
    assert "Body  text, 5007 characters, 5007 bytes UTF-8, 1 line, XML" in r.output
    assert long_xml in r.output  # never cut


def test_text_with_control_characters_and_crlf(tmp_path: Path) -> None:
    r = show(write(tmp_path, {"type": "text", "body": "a\r\nb\u001b[31m red \u202e"}))
    assert "\x1b" not in r.output and "\u202e" not in r.output
    assert "a\nb\\u001B[31m red \\u202E\n" in r.output
    assert "note: CRLF line ends shown as newlines" in r.output


def test_bytes_message_hex_dump_like_xxd(tmp_path: Path) -> None:
    r = show(write(tmp_path, BODIES[5]))
    assert "BytesMessage" in r.output.splitlines()[0]
    assert "Body  bytes, 17 bytes" in r.output
    assert "00000000: 6865 6c6c 6f2c 2077 6f72 6c64 210a 0001  hello, world!...\n" in r.output
    assert "00000010: ff                                       .\n" in r.output  # xxd pads the hex column


def test_hex_dump_stops_at_512_bytes_and_says_how_many_more(tmp_path: Path) -> None:
    r = show(write(tmp_path, {"type": "bytes", "body": b64(bytes(range(256)) * 3)}))
    assert "Body  bytes, 768 bytes (first 512 shown)" in r.output
    dump = [line for line in r.output.splitlines() if re.match(r"[0-9a-f]{8}: ", line)]
    assert len(dump) == 32 and dump[-1].startswith("000001f0: f0f1 f2f3")
    assert "... 256 more bytes not shown (768 in all)" in r.output


def test_hex_lines_layout() -> None:
    lines = hex_lines(b"hi\n")
    assert [hex_text(line) for line in lines] == ["00000000: 6869 0a                                  hi."]
    assert hex_text(hex_lines(bytes(range(0x41, 0x51)))[0]) == "00000000: 4142 4344 4546 4748 494a 4b4c 4d4e 4f50  ABCDEFGHIJKLMNOP"


def test_empty_bytes_and_absent_text_bodies(tmp_path: Path) -> None:
    r = show(write(tmp_path, BODIES[6], BODIES[4]))
    assert "Body  bytes, 0 bytes\n(empty)" in r.output
    assert "Body  (no body: a TextMessage without one)" in r.output


def test_map_message_table_with_types_and_bytes_as_hex(tmp_path: Path) -> None:
    r = show(write(tmp_path, BODIES[7]))
    assert r.exit_code == 0
    assert "MapMessage" in r.output and "Body  map, 8 entries" in r.output
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in r.output.split("Body  map, 8 entries\n", 1)[1].splitlines()}
    assert rows["name"] == ["String", '"widget"']  # the header row ("name type value") comes first and is overwritten
    assert rows["big"] == ["long", "-9223372036854775808"]
    assert rows["price"] == ["double", "9.99"]
    assert rows["qty"] == ["short", "3"]
    assert rows["ratio"] == ["float", "NaN"]
    assert rows["raw"] == ["byte[5]", "68 65 6c 6c 6f"]
    assert rows["ok"] == ["boolean", "true"]
    body = r.output.split("Body  map, 8 entries\n", 1)[1].splitlines()
    assert body[0].split() == ["name", "type", "value"]
    assert [line.split()[0] for line in body[1:]] == ["big", "name", "ok", "price", "qty", "ratio", "raw", "tiny"]


def test_stream_message_numbered_with_types(tmp_path: Path) -> None:
    r = show(write(tmp_path, BODIES[8]))
    body = r.output.split("Body  stream, 6 items\n", 1)[1].splitlines()
    assert [line.split(None, 2) for line in body] == [
        ["#", "type", "value"],
        ["0", "int", "1"],
        ["1", "String", '"two"'],
        ["2", "byte[3]", "00 01 02"],
        ["3", "float", "1.5"],
        ["4", "boolean", "false"],
        ["5", "double", "1.25"],
    ]


def test_object_message_is_bytes_never_deserialized(tmp_path: Path) -> None:
    r = show(write(tmp_path, BODIES[9]))
    assert "ObjectMessage" in r.output and "Body  object, 29 bytes" in r.output
    assert "note: serialized Java object: never deserialized" in r.output
    assert "class com.example.Order (from the header)" in r.output
    assert "00000000: aced 0005 7372 0011 636f 6d2e 6578 616d  ....sr..com.exam" in r.output


def test_message_without_body(tmp_path: Path) -> None:
    r = show(write(tmp_path, {"headers": {"JMSMessageID": "ID:1"}}))
    assert r.output.splitlines()[0].endswith(":1  Message")
    assert r.output.rstrip().endswith("Body  (no body)")


# ----- headers and properties ----------------------------------------------------------------


def _rows(output: str) -> dict[str, str]:
    return {m.group(1): m.group(2) for m in re.finditer(r"^ (\S+) +(.*)$", output, re.M)}


def test_headers_dates_delivery_mode_and_never(tmp_path: Path) -> None:
    r = show(write(tmp_path, {"headers": HEADERS}))
    rows = _rows(r.output)
    assert rows["JMSTimestamp"] == "1700000000000  2023-11-14T22:13:20.000Z"
    assert rows["JMSDeliveryTime"] == "1700000005123  2023-11-14T22:13:25.123Z"
    assert rows["JMSExpiration"] == "0  never"
    assert rows["JMSDeliveryMode"] == "NON_PERSISTENT  written 1"
    assert rows["JMSRedelivered"] == "true"
    assert rows["JMSDestination"] == "queue://orders"
    names = [line.split()[0] for line in r.output.split("Headers\n", 1)[1].split("Properties", 1)[0].splitlines()]
    assert names == list(HEADERS)  # the order of FORMAT.md


def test_expiration_as_date_and_string_delivery_mode(tmp_path: Path) -> None:
    r = show(write(tmp_path, {"headers": {"JMSExpiration": 1700000060000, "JMSDeliveryMode": "PERSISTENT", "JMSTimestamp": -1}}))
    rows = _rows(r.output)
    assert rows["JMSExpiration"] == "1700000060000  2023-11-14T22:14:20.000Z"
    assert rows["JMSDeliveryMode"] == "PERSISTENT"
    assert rows["JMSTimestamp"] == "-1  1969-12-31T23:59:59.999Z"


def test_properties_sorted_with_java_types_and_values(tmp_path: Path) -> None:
    r = show(write(tmp_path, {"properties": EVERY_PROPERTY}))
    assert r.exit_code == 0
    section = r.output.split("Properties  20\n", 1)[1].split("Body", 1)[0].splitlines()
    assert section[0].split() == ["name", "type", "value"]
    rows = [line.split(None, 2) for line in section[1:]]
    assert [row[0] for row in rows] == sorted(EVERY_PROPERTY)
    table = {row[0]: row[1:] for row in rows}
    assert table["b"] == ["byte", "-128"]
    assert table["s"] == ["short", "32767"]
    assert table["i"] == ["int", "2600"]
    assert table["bareLong"] == ["long", "4000000000"]
    assert table["f"] == ["float", "0.1"]
    assert table["fNaN"] == ["float", "NaN"]
    assert table["fInf"] == ["float", "-Infinity"]
    assert table["bareDouble"] == ["double", "1.0E-7"]
    assert table["dInf"] == ["double", "Infinity"]
    assert table["bool"] == ["boolean", "true"]
    assert table["str"] == ["String", '"tab\\there \\"q\\" \\u001B[31m"']
    assert table["bareStr"] == ["String", '"blue"']
    assert section[[row[0] for row in rows].index("gone") + 1].split(None, 1) == ["gone", "(null: absent for selectors)"]
    assert table["JMSXDeliveryCount"][-1].endswith("JMSX")
    assert table["JMS_IBM_Format"] == ["String", '"MQSTR"                       JMS_']


def test_java_string_literal() -> None:
    assert java_string('a\tb\n"\\\u0000\u2028é') == '"a\\tb\\n\\"\\\\\\u0000\\u2028é"'


# ----- selection -----------------------------------------------------------------------------


def test_all_messages_streamed_in_order(tmp_path: Path) -> None:
    path = write(tmp_path, *BODIES)
    r = show(path)
    assert r.exit_code == 0
    titles = [line for line in r.output.splitlines() if line.startswith(path + ":")]
    assert [t.split("  ")[1] for t in titles] == [
        "Message",
        *["TextMessage"] * 4,
        "BytesMessage",
        "BytesMessage",
        "MapMessage",
        "StreamMessage",
        "ObjectMessage",
    ]


def test_index_selects_one_record_per_file_counting_rejected_ones(tmp_path: Path) -> None:
    path = tmp_path / "a.ndjson"
    path.write_text('{"body": "zero"}\n\n{"type": "bogus"}\n{"body": "two"}\n', encoding="utf-8")
    r = show("--index", "2", str(path))
    assert r.exit_code == 0
    assert r.output.splitlines()[0] == f"{path}:4  TextMessage" and r.output.rstrip().endswith("two")
    array = tmp_path / "b.json"
    array.write_text('[{"body": "zero"}, {"body": "one"}]', encoding="utf-8")
    r = show("--index", "1", str(array))
    assert r.output.splitlines()[0] == f"{array}:[1]  TextMessage"


def test_index_beyond_the_file_exits_1(tmp_path: Path) -> None:
    r = show("--index", "5", write(tmp_path, {"body": "x"}))
    assert r.exit_code == 1
    assert "has no record [5] (1 in all)" in r.output


def test_id_selects_the_message_and_exits_1_when_absent(tmp_path: Path) -> None:
    path = write(tmp_path, {"headers": {"JMSMessageID": "ID:1"}, "body": "one"}, {"headers": {"JMSMessageID": "ID:2"}, "body": "two"})
    r = show("--id", "ID:2", path)
    assert r.exit_code == 0
    assert r.output.splitlines()[0] == f"{path}:2  TextMessage" and r.output.count("TextMessage") == 1
    r = show("--id", "ID:3", path)
    assert r.exit_code == 1
    assert r.output == f'jmsctl: error: {path}: no message with JMSMessageID "ID:3"\n'


def test_index_and_id_together_is_a_usage_error(tmp_path: Path) -> None:
    assert show("--index", "0", "--id", "x", write(tmp_path, {})).exit_code == 2


# ----- errors --------------------------------------------------------------------------------


def test_rejected_record_is_shown_with_location_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, {"body": "before"}, {"properties": {"weight": [1]}}, {"body": "after"})
    r = show(path)
    assert r.exit_code == 2
    block = r.output.split(f"{path}:2  rejected\n", 1)[1].splitlines()
    assert block[0].split() == ["field", "properties.weight"]
    assert block[1].startswith(" reason  a JSON array is not a property value")
    assert r.stdout.rstrip().endswith("after")  # the stream goes on (the FORMAT.md note is on stderr)


def test_rejected_record_in_json_format_goes_to_stderr(tmp_path: Path) -> None:
    path = write(tmp_path, {"body": "ok"}, {"type": "bogus"})
    r = CliRunner().invoke(app, ["show", "--format", "json", path])
    assert r.exit_code == 2
    lines = r.stdout.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["body"] == "ok"
    assert f"jmsctl: error: {path}:2: rejected: type: unknown message type 'bogus'" in r.stderr


def test_missing_file_exits_2_with_one_line(tmp_path: Path) -> None:
    r = show(str(tmp_path / "nope.ndjson"))
    assert r.exit_code == 2
    assert r.output == f"jmsctl: error: {tmp_path / 'nope.ndjson'}: no such file\n"


# ----- plain when piped, colour on a terminal --------------------------------------------------


def test_piped_output_has_no_escape_codes(tmp_path: Path) -> None:
    evil = {"headers": {"JMSType": "a\u001b[2Jb"}, "properties": {"p\u001b": "\u001b]0;title\u0007", **EVERY_PROPERTY}}
    path = write(tmp_path, *[{**evil, **body} for body in BODIES], {"type": "text", "body": '{"k": "\\u001b[31m"}'})
    r = show(path)
    assert r.exit_code == 0
    assert "\x1b" not in r.output and "\x07" not in r.output
    assert re.search(r" +$", r.output, re.M) is None  # no table padding at line ends
    assert re.search(r'^ JMSType +"a\\u001B\[2Jb"$', r.output, re.M)
    assert re.search(r'^ p\\u001B +String +"\\u001B]0;title\\u0007"$', r.output, re.M)


def test_terminal_rendering_uses_syntax_highlighting_and_tables() -> None:
    [record] = read_records_from('{"properties": {"w": 1}, "body": "{\\"k\\": [1, true]}"}')
    con = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=100)
    for r in render_message(message_view(record.location, record.message), plain=False):
        con.print(r)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[" in out
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert '"k": [' in plain and " w     int   1" in plain


def read_records_from(text: str) -> list:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False, encoding="utf-8") as f:
        f.write(text + "\n")
    try:
        return list(read_records(f.name))
    finally:
        os.unlink(f.name)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_colour_on_a_pty_only_and_never_with_no_color(tmp_path: Path) -> None:
    path = write(tmp_path, {"properties": {"w": 1}, "body": '{"k": 1}'})
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    assert "\x1b[" in _in_pty(["show", path], env)
    plain = _in_pty(["show", path], {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in plain and '"k": 1' in plain


@pytest.mark.skipif(sys.platform == "win32", reason="SIGPIPE")
@pytest.mark.parametrize("fmt", ["pretty", "json"])
def test_closed_pipe_exits_quietly_141(tmp_path: Path, fmt: str) -> None:
    path = write(tmp_path, *[{"properties": {"x": i}, "body": "hello"} for i in range(5000)])
    p = subprocess.Popen([sys.executable, "-m", "jmsctl", "show", "--format", fmt, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    assert p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait() == 141
    assert err == b""



# ----- JSON: typed, and read back equal --------------------------------------------------------


def test_json_round_trip_every_property_type_and_every_body_type(tmp_path: Path) -> None:
    records = [{"headers": HEADERS, "properties": EVERY_PROPERTY, **body} for body in BODIES]
    path = write(tmp_path, *records)
    r = CliRunner().invoke(app, ["show", "--format", "json", path])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) == len(BODIES)
    originals = [rec.message for rec in read_records(path)]
    for line, original in zip(lines, originals, strict=True):
        doc = json.loads(line)
        assert set(doc) <= {"type", "headers", "properties", "body"}  # FORMAT.md's keys only: valid input
        assert all(v is None or set(v) == {"type", "value"} for v in doc["properties"].values())  # always typed
        again = decode_message(doc)
        assert again == original, line
        assert math.isnan(again.properties["fNaN"][1]) and again.properties["fNaN"][0].java_name == "float"
    assert json.loads(lines[0])["properties"]["f"] == {"type": "float", "value": 0.1}
    assert json.loads(lines[0])["properties"]["dInf"] == {"type": "double", "value": "Infinity"}
    assert json.loads(lines[0])["properties"]["gone"] is None
    again = CliRunner().invoke(app, ["show", "--format", "json", "-"], input=r.stdout)  # read back by show and filter
    assert (again.exit_code, again.stdout) == (0, r.stdout)
    selected = CliRunner().invoke(app, ["filter", "JMSType = 'car' OR JMSType IS NULL", "--count"], input=r.stdout)
    assert (selected.exit_code, selected.stderr) == (0, "") and int(selected.stdout) == len(BODIES)


def test_message_json_without_location_is_format_md() -> None:
    message = decode_message({"type": "stream", "body": [{"type": "bytes", "value": "AAEC"}, 3]})
    assert message_json(message, typed=True) == {
        "type": "stream",
        "headers": {},
        "properties": {},
        "body": [{"type": "bytes", "value": "AAEC"}, {"type": "int", "value": 3}],
    }


def test_pretty_json_rejects_what_is_not_json() -> None:
    assert pretty_json("{not json}") is None
    assert pretty_json("[NaN]") is None
    assert pretty_json("[]") == "[]" and pretty_json('{"a": {}}') == '{\n  "a": {}\n}'

"""``jmsctl validate`` and jmsctl.messages.validator: every finding code, the schema checks, the four
output formats, exit codes and the summary counts."""

from __future__ import annotations

import gzip
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from jmsctl.cli.app import app
from jmsctl.cli.commands.validate import split_location
from jmsctl.messages.decode import RecordError
from jmsctl.messages.loader import Record, read_records
from jmsctl.messages.model import Message
from jmsctl.messages.validator import CODES, SchemaError, Summary, check_message, check_record, parse_schema, validate
from tests.ptyrun import run_in_pty as _in_pty

runner = CliRunner()
SAMPLES = Path(__file__).parent.parent / "samples"

HEADERS_OK = {"JMSMessageID": "ID:b-1", "JMSPriority": 4}


def run(*args: str, stdin: str | None = None) -> Any:
    return runner.invoke(app, ["validate", *args], input=stdin)


def ndjson(tmp_path: Path, *records: Any, name: str = "m.ndjson") -> str:
    path = tmp_path / name
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def props(**properties: Any) -> dict[str, Any]:
    return {"headers": HEADERS_OK, "properties": properties}


def findings(tmp_path: Path, *records: Any, schema: dict[str, str] | None = None) -> list[Any]:
    path = ndjson(tmp_path, *records)
    parsed = parse_schema(json.dumps(schema)) if schema is not None else None
    return list(validate(read_records(path), parsed))


def codes(tmp_path: Path, *records: Any, schema: dict[str, str] | None = None) -> list[str]:
    return [f.code for f in findings(tmp_path, *records, schema=schema)]


def schema_file(tmp_path: Path, schema: Any) -> str:
    path = tmp_path / "schema.json"
    path.write_text(schema if isinstance(schema, str) else json.dumps(schema), encoding="utf-8")
    return str(path)


# ----- clean messages ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["color", "größe", "€uro", "$price", "_x", "a1_$b", "ın", "JMS_IBM_Format", "JMSXGroupID", "andy", "Nullable", "a\u0301"],
)
def test_valid_property_names_give_no_finding(tmp_path: Path, name: str) -> None:
    assert codes(tmp_path, props(**{name: "v"})) == []


def test_a_full_clean_message_gives_no_finding(tmp_path: Path) -> None:
    msg = {
        "type": "text",
        "headers": {"JMSMessageID": "ID:broker-1-42", "JMSTimestamp": 1700000000000, "JMSCorrelationID": "anything",
                    "JMSType": "car", "JMSDeliveryMode": 2, "JMSPriority": 9, "JMSDestination": "queue://orders",
                    "JMSReplyTo": "topic://replies", "JMSExpiration": 0, "JMSDeliveryTime": 0, "JMSRedelivered": False},
        "properties": {"weight": {"type": "int", "value": 2600}, "JMSXDeliveryCount": 1, "JMSXGroupSeq": {"type": "int", "value": 3},
                       "JMSXRcvTimestamp": {"type": "long", "value": 5}, "JMSXState": 1, "JMSXUserID": "u", "JMSXAppID": "a",
                       "JMSXProducerTXID": "p", "JMSXConsumerTXID": "c", "JMS_acme_flag": True},
        "body": "<x/>",
    }
    assert codes(tmp_path, msg) == []


# ----- record findings (the loader's rejections) -----------------------------------------------------


def test_r001_invalid_json(tmp_path: Path) -> None:
    (f,) = findings(tmp_path, '{"headers": {"JMSMessageID": "ID:1"')
    assert (f.code, f.kind, f.severity.value, f.field) == ("R001", "record", "error", "")
    assert f.message.startswith("invalid JSON") and f.location.endswith("m.ndjson:1")


def test_r002_not_a_message(tmp_path: Path) -> None:
    # (not "[1]" on the first line: a file starting with '[' is one JSON array)
    found = findings(tmp_path, {"type": "text", "header": {}}, "[1]", {"type": "map", "body": "x"})
    assert [(f.code, f.field) for f in found] == [("R002", "header"), ("R002", ""), ("R002", "body")]
    assert all(f.kind == "record" for f in found)


def test_r003_invalid_header(tmp_path: Path) -> None:
    found = findings(tmp_path, {"headers": {"JMSMessageId": "ID:1"}}, {"headers": {"JMSDeliveryMode": 3}})
    assert [(f.code, f.field) for f in found] == [("R003", "headers.JMSMessageId"), ("R003", "headers.JMSDeliveryMode")]
    assert "unknown header" in found[0].message


def test_r004_invalid_property_value(tmp_path: Path) -> None:
    found = findings(tmp_path, props(color=["a"]), props(rating={"type": "byte", "value": 300}))
    assert [(f.code, f.field) for f in found] == [("R004", "properties.color"), ("R004", "properties.rating")]
    assert "outside the range of byte" in found[1].message


def test_check_record_maps_loader_errors_to_codes() -> None:
    cases = {("", "invalid JSON: x"): "R001", ("", "a message is a JSON object"): "R002", ("body", "bad"): "R002",
             ("headers.JMSPriority", "bad"): "R003", ("properties.x", "bad"): "R004"}
    for (fld, reason), code in cases.items():
        (f,) = check_record(Record("f:1", None, None, RecordError(fld, reason)))
        assert (f.code, f.field, f.message) == (code, fld, reason)


# ----- names --------------------------------------------------------------------------------------


def test_n001_empty_name(tmp_path: Path) -> None:
    (f,) = findings(tmp_path, props(**{"": 1}))
    assert (f.code, f.severity.value, f.field) == ("N001", "error", 'properties[""]')


@pytest.mark.parametrize(("name", "detail"), [("a-b", "'-' (U+002D) at index 1"), ("1abc", "starts with '1'"), ("a b", "index 1"),
                                              ("x.y", "'.'"), ("😀", "starts with")])
def test_n002_not_an_identifier(tmp_path: Path, name: str, detail: str) -> None:
    (f,) = findings(tmp_path, props(**{name: 1}))
    assert (f.code, f.field) == ("N002", f"properties.{name}")
    assert detail in f.message


@pytest.mark.parametrize("name", ["AND", "and", "Null", "tRuE", "false", "not", "Or", "between", "like", "in", "IS", "Escape"])
def test_n003_keyword_in_any_ascii_case(tmp_path: Path, name: str) -> None:
    (f,) = findings(tmp_path, props(**{name: 1}))
    assert (f.code, f.severity.value) == ("N003", "error")
    assert name.upper() in f.message


def test_n004_reserved_jms_prefix(tmp_path: Path) -> None:
    (f,) = findings(tmp_path, props(JMSFoo=1))
    assert (f.code, f.field) == ("N004", "properties.JMSFoo")


@pytest.mark.parametrize("name", ["JMSPriority", "JMSMessageID", "JMSDestination", "JMSRedelivered"])
def test_n005_header_name_as_property(tmp_path: Path, name: str) -> None:
    (f,) = findings(tmp_path, props(**{name: 1}))
    assert (f.code, f.severity.value) == ("N005", "error")
    assert "is a header name" in f.message


def test_n006_unknown_jmsx_is_a_warning(tmp_path: Path) -> None:
    (f,) = findings(tmp_path, props(JMSXFoo="x"))
    assert (f.code, f.severity.value, f.field) == ("N006", "warning", "properties.JMSXFoo")


@pytest.mark.parametrize(
    ("name", "value"),
    [("JMSXDeliveryCount", "1"), ("JMSXGroupSeq", {"type": "long", "value": 1}), ("JMSXState", 1.0),
     ("JMSXRcvTimestamp", 5), ("JMSXGroupID", 7), ("JMSXUserID", True)],
)
def test_n007_jmsx_with_the_wrong_type(tmp_path: Path, name: str, value: Any) -> None:
    (f,) = findings(tmp_path, props(**{name: value}))
    assert (f.code, f.severity.value) == ("N007", "error")


def test_n007_bare_int_for_a_long_jmsx_says_how_to_write_it(tmp_path: Path) -> None:
    (f,) = findings(tmp_path, props(JMSXRcvTimestamp=5))
    assert '{"type": "long", "value": 5}' in f.message


# ----- values and headers -------------------------------------------------------------------------------


def test_v001_json_null_property_is_a_warning_that_says_why(tmp_path: Path) -> None:
    (f,) = findings(tmp_path, props(coupon=None, color="blue"))
    assert (f.code, f.severity.value, f.field) == ("V001", "warning", "properties.coupon")
    assert "not a property value" in f.message and "absent" in f.message


def test_v001_name_of_a_null_property_is_checked_too(tmp_path: Path) -> None:
    assert sorted(codes(tmp_path, props(AND=None))) == ["N003", "V001"]


def test_h001_message_id_without_id_prefix(tmp_path: Path) -> None:
    (f,) = findings(tmp_path, {"headers": {"JMSMessageID": "broker-1-42"}})
    assert (f.code, f.severity.value, f.field) == ("H001", "warning", "headers.JMSMessageID")


@pytest.mark.parametrize("priority", [-1, 10, 12])
def test_h002_priority_outside_0_to_9(tmp_path: Path, priority: int) -> None:
    # The loader rejects such a record itself (R003); H002 catches a Message built in code.
    (f,) = check_message(Message(headers={"JMSPriority": priority}), "api")
    assert (f.code, f.severity.value, f.field, f.location) == ("H002", "error", "headers.JMSPriority", "api")
    (f,) = findings(tmp_path, {"headers": {"JMSPriority": priority}})
    assert (f.code, f.severity.value, f.field) == ("R003", "error", "headers.JMSPriority")
    assert codes(tmp_path, *({"headers": {"JMSPriority": p}} for p in range(10))) == []


@pytest.mark.parametrize("header", ["JMSTimestamp", "JMSExpiration", "JMSDeliveryTime"])
def test_h003_negative_time(tmp_path: Path, header: str) -> None:
    (f,) = findings(tmp_path, {"headers": {header: -1}})
    assert (f.code, f.severity.value, f.field) == ("H003", "warning", f"headers.{header}")


@pytest.mark.parametrize(("header", "value"), [("JMSDestination", "orders"), ("JMSReplyTo", "queue://"), ("JMSDestination", "Queue://x")])
def test_h004_destination_shape(tmp_path: Path, header: str, value: str) -> None:
    (f,) = findings(tmp_path, {"headers": {header: value}})
    assert (f.code, f.severity.value, f.field) == ("H004", "warning", f"headers.{header}")


def test_destinations_that_pass(tmp_path: Path) -> None:
    dests = ["queue://a", "topic://a.b", "temp-queue://ID:1", "temp-topic://x"]
    assert codes(tmp_path, *({"headers": {"JMSDestination": d, "JMSReplyTo": d}} for d in dests)) == []


def test_header_findings_and_loader_rejections_of_delivery_mode(tmp_path: Path) -> None:
    assert codes(tmp_path, {"headers": {"JMSDeliveryMode": 1}}, {"headers": {"JMSDeliveryMode": "NON_PERSISTENT"}}) == []
    assert codes(tmp_path, {"headers": {"JMSDeliveryMode": "persistent"}}) == ["R003"]


# ----- schema -------------------------------------------------------------------------------------


def test_s001_conversion_table_refusals(tmp_path: Path) -> None:
    schema = {"weight": "int", "flag": "int", "price": "float", "n": "boolean", "s": "String"}
    found = findings(tmp_path, props(weight={"type": "long", "value": 1}, flag=True, price=1.5, n=1, s=1), schema=schema)
    assert [(f.code, f.field) for f in found] == [
        ("S001", "properties.weight"), ("S001", "properties.flag"), ("S001", "properties.price"), ("S001", "properties.n")]
    assert all("MessageFormatException" in f.message and f.severity.value == "error" for f in found)
    assert 'getIntProperty("weight")' in found[0].message


@pytest.mark.parametrize(("target", "text"), [("int", "abc"), ("int", "0x1F"), ("int", " 1"), ("long", "1L"), ("byte", "300"),
                                               ("short", "1.0"), ("float", "1,5"), ("double", "")])
def test_s002_number_format_exception(tmp_path: Path, target: str, text: str) -> None:
    (f,) = findings(tmp_path, props(p=text), schema={"p": target})
    assert (f.code, f.severity.value) == ("S002", "error")
    assert "NumberFormatException" in f.message and ".valueOf rejects" in f.message


@pytest.mark.parametrize(("target", "text"), [("int", "2600"), ("int", "-5"), ("long", "+7"), ("double", " 1.5 "), ("float", "1.5f"),
                                               ("double", "NaN"), ("boolean", "yes"), ("boolean", "TRUE"), ("String", "x")])
def test_strings_that_valueof_accepts(tmp_path: Path, target: str, text: str) -> None:
    assert codes(tmp_path, props(p=text), schema={"p": target}) == []


def test_widening_and_object_reads_pass(tmp_path: Path) -> None:
    schema = {"b": "long", "f": "double", "i": "String", "o": "object", "x": "object"}
    msg = props(b={"type": "byte", "value": 1}, f={"type": "float", "value": 1.5}, i=3, o=1, x=True)
    assert codes(tmp_path, msg, schema=schema) == []


def test_s003_absent_property_read_as_a_number(tmp_path: Path) -> None:
    schema = {"i": "int", "b": "byte", "l": "long", "f": "float", "d": "double", "z": "boolean", "s": "String", "o": "object"}
    found = findings(tmp_path, props(), schema=schema)
    assert [(f.code, f.field) for f in found] == [("S003", f"properties.{n}") for n in "iblfd"]
    assert all(f.severity.value == "warning" for f in found)
    assert "NumberFormatException" in found[0].message and "Integer.valueOf(null)" in found[0].message
    assert "NullPointerException" in found[3].message and "Float.valueOf(null)" in found[3].message


def test_s003_null_property_counts_as_absent(tmp_path: Path) -> None:
    found = findings(tmp_path, props(w=None), schema={"w": "int"})
    assert [f.code for f in found] == ["V001", "S003"]
    assert "JSON null" in found[1].message


def test_schema_is_not_applied_to_rejected_records(tmp_path: Path) -> None:
    assert codes(tmp_path, "{", schema={"w": "int"}) == ["R001"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [("{", "not valid JSON"), ("[]", "not a JSON array"), ('{"w": "integer"}', "'w': type \"integer\" is not one of"),
     ('{"w": 1}', "type 1 is not one of"), ('{"w": "int", "w": "long"}', "given twice")],
)
def test_parse_schema_errors(text: str, problem: str) -> None:
    with pytest.raises(SchemaError) as info:
        parse_schema(text)
    assert problem in str(info.value)


def test_parse_schema_reports_every_problem() -> None:
    with pytest.raises(SchemaError) as info:
        parse_schema('{"a": "int", "b": "Integer", "c": null}')
    assert len(info.value.problems) == 2


# ----- exit codes -----------------------------------------------------------------------------------


def test_exit_0_clean(tmp_path: Path) -> None:
    r = run(ndjson(tmp_path, props(color="blue")))
    assert r.exit_code == 0
    assert "1 record checked (1 valid, 0 rejected): 0 errors, 0 warnings" in r.stdout


def test_exit_0_with_warnings_only(tmp_path: Path) -> None:
    r = run(ndjson(tmp_path, props(coupon=None), {"headers": {"JMSMessageID": "x"}}))
    assert r.exit_code == 0
    assert "0 errors, 2 warnings" in r.stdout


def test_exit_1_with_an_error(tmp_path: Path) -> None:
    assert run(ndjson(tmp_path, props(color="blue"), props(AND=1))).exit_code == 1


def test_exit_1_with_a_schema_error(tmp_path: Path) -> None:
    path = ndjson(tmp_path, props(w="heavy"))
    assert run(path).exit_code == 0
    r = run(path, "--schema", schema_file(tmp_path, {"w": "int"}))
    assert r.exit_code == 1 and "S002" in r.stdout


def test_exit_2_missing_file_and_directory(tmp_path: Path) -> None:
    r = run(str(tmp_path / "nope.ndjson"))
    assert r.exit_code == 2 and "no such file" in r.stderr
    r = run(str(tmp_path))
    assert r.exit_code == 2 and "is a directory" in r.stderr


def test_exit_2_unreadable_gzip(tmp_path: Path) -> None:
    bad = tmp_path / "m.ndjson.gz"
    bad.write_bytes(b"this is not gzip data at all\n")
    r = run(str(bad))
    assert r.exit_code == 2 and "cannot read" in r.stderr


def test_gzip_is_read(tmp_path: Path) -> None:
    good = tmp_path / "m.ndjson.gz"
    good.write_bytes(gzip.compress(json.dumps(props(AND=1)).encode() + b"\n"))
    r = run(str(good), "--format", "concise")
    assert r.exit_code == 1 and f"{good}:1: error N003" in r.stdout


def test_exit_2_wins_and_other_files_are_still_checked(tmp_path: Path) -> None:
    r = run(str(tmp_path / "nope.ndjson"), ndjson(tmp_path, props(AND=1)), "--format", "concise")
    assert r.exit_code == 2
    assert "N003" in r.stdout and "no such file" in r.stderr


@pytest.mark.parametrize(
    ("schema", "message"),
    [('{"w": "integer"}', "type \"integer\" is not one of"), ("not json", "not valid JSON"), ('["int"]', "JSON object"),
     ('{"w": "int", "w": "int"}', "given twice")],
)
def test_exit_2_unusable_schema(tmp_path: Path, schema: str, message: str) -> None:
    r = run(ndjson(tmp_path, props(color="blue")), "--schema", schema_file(tmp_path, schema))
    assert r.exit_code == 2
    assert message in r.stderr and r.stderr.startswith("jmsctl: error: ")
    assert r.stdout == ""


def test_exit_2_missing_schema_file(tmp_path: Path) -> None:
    r = run(ndjson(tmp_path, props(color="blue")), "--schema", str(tmp_path / "nope.json"))
    assert r.exit_code == 2 and "no such file" in r.stderr
    r = run(ndjson(tmp_path, props(color="blue")), "--schema", str(tmp_path))
    assert r.exit_code == 2 and "is a directory" in r.stderr


def test_stdin(tmp_path: Path) -> None:
    r = run("-", "--format", "concise", stdin=json.dumps(props(JMSFoo=1)) + "\n")
    assert r.exit_code == 1
    assert r.stdout.startswith("<stdin>:1: error N004 properties.JMSFoo: ")


# ----- output formats ---------------------------------------------------------------------------------

MIXED = (props(color="blue"), props(AND=1, coupon=None), "{bad", {"headers": {"JMSTimestamp": -5, "JMSMessageID": "m"}})


def test_json_format(tmp_path: Path) -> None:
    path = ndjson(tmp_path, *MIXED)
    r = run(path, "--format", "json")
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert [(f["code"], f["line"], f["field"]) for f in doc["findings"]] == [
        ("N003", 2, "properties.AND"), ("V001", 2, "properties.coupon"), ("R001", 3, ""),
        ("H001", 4, "headers.JMSMessageID"), ("H003", 4, "headers.JMSTimestamp")]
    first = doc["findings"][0]
    assert first == {"code": "N003", "severity": "error", "kind": "name", "location": f"{path}:2", "field": "properties.AND",
                     "message": first["message"], "file": path, "line": 2, "index": None}
    s = doc["summary"]
    assert (s["records"], s["messages"], s["rejected"], s["errors"], s["warnings"]) == (4, 3, 1, 2, 3)
    assert {row["code"]: row["count"] for row in s["by_code"]} == {"H001": 1, "H003": 1, "N003": 1, "R001": 1, "V001": 1}
    assert doc["input_errors"] == []


def test_json_format_clean_and_with_input_errors(tmp_path: Path) -> None:
    doc = json.loads(run(ndjson(tmp_path, props(a=1)), "--format", "json").stdout)
    assert doc["findings"] == [] and doc["summary"]["records"] == 1
    r = run(str(tmp_path / "nope"), "--format", "json")
    assert r.exit_code == 2
    assert json.loads(r.stdout)["input_errors"] == [f"{tmp_path / 'nope'}: no such file"]


def test_json_array_input_has_index_locations(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps([props(a=1), props(AND=1)]), encoding="utf-8")
    doc = json.loads(run(str(path), "--format", "json").stdout)
    (f,) = doc["findings"]
    assert (f["location"], f["line"], f["index"]) == (f"{path}:[1]", None, 1)


CONCISE = re.compile(r"^(?P<loc>.+:(?:[0-9]+|\[[0-9]+\])): (?P<sev>error|warning) (?P<code>[RNVHS][0-9]{3})(?: (?P<field>\S+))?: (?P<msg>.+)$")


def test_concise_format(tmp_path: Path) -> None:
    path = ndjson(tmp_path, *MIXED)
    r = run(path, "--format", "concise")
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert len(lines) == 5
    parsed = [CONCISE.match(line) for line in lines]
    assert all(parsed), lines
    assert [(m["loc"], m["sev"], m["code"], m["field"]) for m in parsed if m] == [
        (f"{path}:2", "error", "N003", "properties.AND"), (f"{path}:2", "warning", "V001", "properties.coupon"),
        (f"{path}:3", "error", "R001", None), (f"{path}:4", "warning", "H001", "headers.JMSMessageID"),
        (f"{path}:4", "warning", "H003", "headers.JMSTimestamp")]
    # the summary goes to stderr: one line per code, then the totals
    err = r.stderr.splitlines()
    assert err[:5] == [f"{c} {CODES[c].severity.value} 1: {CODES[c].description}" for c in ("H001", "H003", "N003", "R001", "V001")]
    assert err[5] == "4 records checked (3 valid, 1 rejected): 2 errors, 3 warnings"


GITHUB = re.compile(r"^::(?P<level>error|warning) (?P<props>[^:]+)::(?P<msg>.+)$")


def test_github_format(tmp_path: Path) -> None:
    path = ndjson(tmp_path, *MIXED)
    r = run(path, "--format", "github")
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert len(lines) == 5 and all(GITHUB.match(line) for line in lines), lines
    assert lines[0] == f"::error file={path},line=2,title=N003::properties.AND: " + findings(tmp_path, *MIXED)[0].message
    assert lines[2].startswith(f"::error file={path},line=3,title=R001::invalid JSON")
    assert lines[3].startswith(f"::warning file={path},line=4,title=H001::headers.JMSMessageID: ")
    assert "records checked" in r.stderr


def test_github_format_for_arrays_and_stdin(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps([props(AND=1)]), encoding="utf-8")
    line = run(str(path), "--format", "github").stdout.splitlines()[0]
    assert line.startswith(f"::error file={path},title=N003::[0] properties.AND: ")
    line = run("-", "--format", "github", stdin=json.dumps(props(AND=1))).stdout.splitlines()[0]
    assert line.startswith("::error title=N003::<stdin>:1: properties.AND: ")


def test_github_escapes_newlines_and_percent(tmp_path: Path) -> None:
    line = run(ndjson(tmp_path, props(**{"a\nb%": 1})), "--format", "github").stdout.splitlines()[0]
    assert "%0A" in line and "%25" in line and "\n" not in line


def test_full_format(tmp_path: Path) -> None:
    path = ndjson(tmp_path, *MIXED)
    r = run(path)
    assert r.exit_code == 1
    out = r.stdout.splitlines()
    assert out[0].startswith("error[N003]: property name 'AND' is the selector keyword AND")
    assert out[1] == f" --> {path}:2 properties.AND"
    assert out[2].startswith("warning[V001]: ")
    assert out[5] == f" --> {path}:3"
    assert "Summary" in r.stdout
    table = [line for line in out if re.match(r"^ [RNVHS][0-9]{3} ", line)]
    assert [row.split()[0] for row in table] == ["H001", "H003", "N003", "R001", "V001"]
    assert all(CODES[row.split()[0]].description in row for row in table)
    assert out[-1] == "4 records checked (3 valid, 1 rejected): 2 errors, 3 warnings"
    assert "\x1b[" not in r.stdout



@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_full_format_colour_on_a_terminal_only(tmp_path: Path) -> None:
    path = ndjson(tmp_path, *MIXED)
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    coloured = _in_pty(["validate", path], env)
    assert "\x1b[" in coloured and "error[N003]" in coloured and "Summary" in coloured
    plain = _in_pty(["validate", path], {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in plain and "error[N003]: property name 'AND'" in plain


# ----- summary and streaming ------------------------------------------------------------------------------


def test_summary_counts_add_up(tmp_path: Path) -> None:
    path = ndjson(tmp_path, *MIXED, props(JMSXFoo=1, JMSFoo=2, **{"": 3}), props(w="x"), props(), "[]",
                  {"headers": {"JMSTimestamp": -1, "JMSDestination": "x"}})
    schema = parse_schema('{"w": "int"}')
    summary = Summary()
    found = list(validate(read_records(path), schema, summary))
    assert summary.records == 9 == summary.messages + summary.rejected
    assert summary.rejected == 2
    assert summary.errors + summary.warnings == len(found) == sum(row["count"] for row in summary.by_code())
    assert summary.errors == sum(f.is_error for f in found)
    for row in summary.by_code():
        assert row["count"] == sum(f.code == row["code"] for f in found)
        assert row["first"] == next(f.location for f in found if f.code == row["code"])
    doc = json.loads(run(path, "--schema", schema_file(tmp_path, {"w": "int"}), "--format", "json").stdout)
    assert doc["summary"] == json.loads(json.dumps(summary.to_dict()))
    assert len(doc["findings"]) == len(found)


def test_validate_streams_findings_as_records_come() -> None:
    def records():
        yield Record("f:1", None, None, RecordError("", "invalid JSON: x"))
        raise AssertionError("read past the first record before its finding was used")

    assert next(validate(records())).code == "R001"


def test_every_code_is_produced_and_described(tmp_path: Path) -> None:
    records = (
        "{bad", "[]", {"headers": {"JMSMessageId": "x"}}, props(color=[1]),
        props(**{"": 1, "a-b": 2, "AND": 3, "JMSFoo": 4, "JMSPriority": 5, "JMSXFoo": 6, "JMSXGroupSeq": "7", "coupon": None}),
        {"headers": {"JMSMessageID": "m", "JMSTimestamp": -1, "JMSDestination": "orders"}},
        props(i=True, n="x"), props(),
    )
    found = {f.code for f in findings(tmp_path, *records, schema={"i": "int", "n": "int", "f": "float"})}
    # H002 is not reachable from a file: the loader rejects a priority outside 0..9 (R003).
    found |= {f.code for f in check_message(Message(headers={"JMSPriority": 10}), "api")}
    assert found == set(CODES)
    for info in CODES.values():
        assert info.description and info.kind in ("record", "name", "value", "header", "schema")


def test_split_location() -> None:
    assert split_location("a:b.ndjson:12") == ("a:b.ndjson", 12, None)
    assert split_location("x.json:[3]") == ("x.json", None, 3)
    assert split_location("x.json") == ("x.json", None, None)


# ----- the samples --------------------------------------------------------------------------------------


def _bad_records_table() -> list[tuple[int, str, str | None]]:
    rows = []
    for line in (SAMPLES / "bad-records.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| (\d+) \| (.+?) \| (accepted|rejected)(?: \(`([^`]+)`\))? \|$", line)
        if m:
            rows.append((int(m[1]), m[3], m[4]))
    return rows


@pytest.mark.skipif(not (SAMPLES / "bad-records.ndjson").exists() or not (SAMPLES / "bad-records.md").exists(), reason="samples not written")
def test_bad_records_sample() -> None:
    path = str(SAMPLES / "bad-records.ndjson")
    r = run(path, "--format", "json")
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    by_line: dict[int, list[dict[str, Any]]] = {}
    for f in doc["findings"]:
        by_line.setdefault(f["line"], []).append(f)
    table = _bad_records_table()
    assert table and doc["summary"]["records"] == len(table)
    for lineno, verdict, fld in table:
        found = by_line.get(lineno, [])
        if verdict == "accepted":
            assert all(f["kind"] != "record" for f in found), (lineno, found)
            continue
        errors = [f for f in found if f["severity"] == "error"]
        assert len(errors) == 1, (lineno, found)
        (f,) = errors
        # The loader rejects the record (kind "record"); a priority it accepts out of 0..9 is H002.
        assert f["kind"] == "record" or (f["code"], f["field"]) == ("H002", "headers.JMSPriority"), (lineno, f)
        if fld is not None:
            assert f["field"] == fld, (lineno, f)
    assert [f["code"] for f in doc["findings"] if f["kind"] == "value"] == ["V001"]
    assert {f["code"] for f in doc["findings"]} <= {"R001", "R002", "R003", "R004", "H002", "V001"}


@pytest.mark.skipif(not (SAMPLES / "bad-records.ndjson").exists() or not (SAMPLES / "schema.json").exists(), reason="samples not written")
def test_bad_records_sample_with_schema() -> None:
    r = run(str(SAMPLES / "bad-records.ndjson"), "--schema", str(SAMPLES / "schema.json"), "--format", "json")
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    s = doc["summary"]
    assert s["errors"] + s["warnings"] == len(doc["findings"]) == sum(row["count"] for row in s["by_code"])
    assert sum(f["kind"] == "record" for f in doc["findings"]) == s["rejected"]


@pytest.mark.skipif(not (SAMPLES / "orders.ndjson").exists() or not (SAMPLES / "schema.json").exists(), reason="samples not written")
def test_orders_sample_with_schema_finds_unreadable_weights() -> None:
    r = run(str(SAMPLES / "orders.ndjson"), "--schema", str(SAMPLES / "schema.json"), "--format", "concise")
    assert r.exit_code == 1
    assert re.search(r'error S001 properties\.weight: getIntProperty\("weight"\) throws MessageFormatException', r.stdout)

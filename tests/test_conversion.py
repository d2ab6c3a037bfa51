"""Property getters (jmsctl.messages.conversion) against the javadoc's table and against Java itself.

tests/data/valueof.jsonl and tests/data/tostring.jsonl are written by the JVM (JDK 17):
scripts/java/ValueOfOracle.java says how to regenerate them.
"""

from __future__ import annotations

import json
import math
import struct
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from jmsctl.cli.app import app
from jmsctl.exceptions import MessageFormatException, NullPointerException, NumberFormatException
from jmsctl.javatext import double_to_string, float_to_string
from jmsctl.messages.conversion import (
    CONVERSIONS,
    can_read,
    java_to_string,
    read_as,
    read_object,
)
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, JType, to_f32
from tests.ptyrun import run_in_pty, terminal_env

DATA = Path(__file__).parent / "data"
TYPES = list(JType)

# ----- the conversion table ------------------------------------------------------------------

# The javadoc's table, verbatim ("A value written as the row type can be read as the column type").
JAVADOC_TABLE = """\
|        | boolean byte short int long float double String
|----------------------------------------------------------
|boolean |    X                                       X
|byte    |          X     X    X   X                  X
|short   |                X    X   X                  X
|int     |                     X   X                  X
|long    |                         X                  X
|float   |                               X     X      X
|double  |                                     X      X
|String  |    X     X     X    X   X     X     X      X
"""


def _javadoc_cells() -> dict[JType, set[JType]]:
    """Each X belongs to the column whose header is nearest to it."""
    lines = JAVADOC_TABLE.splitlines()
    header = lines[0]
    centres = {t: header.index(f" {t.java_name}") + 1 + len(t.java_name) / 2 for t in TYPES}
    cells: dict[JType, set[JType]] = {}
    for line in lines[2:]:
        row = JType.from_name(line[1:9].strip())
        assert row is not None
        cells[row] = {min(TYPES, key=lambda t: abs(centres[t] - i)) for i, ch in enumerate(line) if ch == "X"}
    return cells


def test_table_is_the_javadoc_table() -> None:
    assert {src: set(targets) for src, targets in CONVERSIONS.items()} == _javadoc_cells()


SAMPLE: dict[JType, Any] = {
    BOOLEAN: True, BYTE: -7, SHORT: 300, INT: 70000, LONG: 1 << 40, FLOAT: to_f32(0.1), DOUBLE: 0.1, STRING: "12",
}  # fmt: skip
READS: dict[JType, dict[JType, Any]] = {
    BOOLEAN: {BOOLEAN: True, STRING: "true"},
    BYTE: {BYTE: -7, SHORT: -7, INT: -7, LONG: -7, STRING: "-7"},
    SHORT: {SHORT: 300, INT: 300, LONG: 300, STRING: "300"},
    INT: {INT: 70000, LONG: 70000, STRING: "70000"},
    LONG: {LONG: 1 << 40, STRING: "1099511627776"},
    FLOAT: {FLOAT: to_f32(0.1), DOUBLE: 0.10000000149011612, STRING: "0.1"},
    DOUBLE: {DOUBLE: 0.1, STRING: "0.1"},
    STRING: {BOOLEAN: False, BYTE: 12, SHORT: 12, INT: 12, LONG: 12, FLOAT: 12.0, DOUBLE: 12.0, STRING: "12"},
}
PYTHON_TYPE = {BOOLEAN: bool, BYTE: int, SHORT: int, INT: int, LONG: int, FLOAT: float, DOUBLE: float, STRING: str}


@pytest.mark.parametrize("target", TYPES, ids=lambda t: t.java_name)
@pytest.mark.parametrize("source", TYPES, ids=lambda t: t.java_name)
def test_every_cell(source: JType, target: JType) -> None:
    value = (source, SAMPLE[source])
    if target in READS[source]:
        assert can_read(source, target)
        got = read_as(value, target)
        assert got == READS[source][target] and type(got) is PYTHON_TYPE[target]
    else:
        assert not can_read(source, target)
        with pytest.raises(MessageFormatException) as exc:
            read_as(value, target)
        article = "an" if source is INT else "a"
        assert str(exc.value) == f"cannot read {article} {source.java_name} property as {target.java_name}"


def test_supported_cell_count() -> None:
    assert sum(len(v) for v in CONVERSIONS.values()) == 2 + 5 + 4 + 3 + 2 + 3 + 2 + 8


def test_widening_keeps_the_value_exactly() -> None:
    f = to_f32(16777217.0)  # 16777216.0
    assert read_as((FLOAT, f), DOUBLE) == 16777216.0
    assert read_as((FLOAT, to_f32(0.1)), DOUBLE) == 0.10000000149011612  # float->double is exact, not 0.1
    assert read_as((BYTE, -128), LONG) == -128
    assert read_as((INT, -(1 << 31)), LONG) == -(1 << 31)


def test_read_object_is_the_written_value() -> None:
    assert read_object((BYTE, 5)) == (BYTE, 5)
    assert read_object((STRING, "x")) == (STRING, "x")
    assert read_object(None) is None


# ----- absent properties: valueOf(null) ------------------------------------------------------


def test_absent_property_reads() -> None:
    assert read_as(None, STRING) is None
    assert read_object(None) is None
    assert read_as(None, BOOLEAN) is False  # Boolean.valueOf(null)
    for t in (BYTE, SHORT, INT, LONG):  # Integer.parseInt(null)
        with pytest.raises(NumberFormatException, match=r"^Cannot parse null string$"):
            read_as(None, t)
    for t in (FLOAT, DOUBLE):  # Float.valueOf(null): FloatingDecimal calls in.trim()
        with pytest.raises(NullPointerException, match=r'^Cannot invoke "String.trim\(\)" because "in" is null$'):
            read_as(None, t)


# ----- String to primitive: Java's valueOf, line by line from the JVM ------------------------


def _lines(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


VALUEOF = _lines("valueof.jsonl")


def _bits(t: JType, x: float) -> int:
    if t is FLOAT:
        return int.from_bytes(struct.pack(">f", x), "big")
    return int.from_bytes(struct.pack(">d", x), "big")


def _check_valueof(case: dict[str, Any]) -> str | None:
    t = JType.from_name(case["type"])
    assert t is not None
    value = None if case["input"] is None else (STRING, case["input"])
    try:
        got = read_as(value, t)
    except (NumberFormatException, NullPointerException) as exc:
        actual = f"{type(exc).__name__}: {exc}"
        expected = f"{case.get('exception')}: {case.get('message')}" if "exception" in case else repr(case["value"])
        return None if actual == expected else f"expected {expected}, got {actual}"
    if "exception" in case:
        return f"expected {case['exception']}: {case['message']}, got {got!r}"
    if t in (FLOAT, DOUBLE):
        if math.isnan(got) and case["value"] == "NaN":
            return None
        ok = _bits(t, got) == int(case["bits"], 16)
        return None if ok else f"expected {case['value']} ({case['bits']}), got {got!r} ({_bits(t, got):#x})"
    ok = got == case["value"] and type(got) is type(case["value"])
    return None if ok else f"expected {case['value']!r}, got {got!r}"


@pytest.mark.parametrize("target", [t for t in TYPES if t is not STRING], ids=lambda t: t.java_name)
def test_valueof_corpus(target: JType) -> None:
    cases = [c for c in VALUEOF if c["type"] == target.java_name]
    assert len(cases) > 800
    failures = [f"{c['input']!r}: {msg}" for c in cases if (msg := _check_valueof(c)) is not None]
    assert not failures, f"{len(failures)} of {len(cases)} failed:\n" + "\n".join(failures[:40])


def test_valueof_corpus_covers_the_brief() -> None:
    inputs = {c["input"] for c in VALUEOF}
    for s in (None, "", "+1", "-1", " 1", "NaN", "-Infinity", "0x1F", "010", "128", "2147483648",
              "9223372036854775808", "1e3", "1.5f", "0x1p3", "\u0661\u0662\u0663", "1.2.3", "inf", "1,5"):  # fmt: skip
        assert s in inputs, s
    assert len(VALUEOF) > 8000


def _read(text: str, t: JType) -> Any:
    return read_as((STRING, text), t)


def test_integer_valueof_rules() -> None:
    assert _read("010", INT) == 10  # decimal, never octal
    assert _read("+42", INT) == 42 and _read("-0", INT) == 0
    assert _read("\u0661\u0662\u0663", INT) == 123  # Arabic-Indic digits: Character.digit accepts them
    assert _read("1\uff12", LONG) == 12  # fullwidth digits, mixed scripts too
    assert _read("-128", BYTE) == -128 and _read("9223372036854775807", LONG) == (1 << 63) - 1
    for text, t in [("0x1F", INT), ("1e3", INT), ("1_000", INT), ("1L", LONG), (" 1", INT), ("1.0", INT),
                    ("+", INT), ("2147483648", INT), ("9223372036854775808", LONG), ("\U0001d7cf", INT)]:  # fmt: skip
        with pytest.raises(NumberFormatException, match=r"^For input string: "):
            _read(text, t)
    with pytest.raises(NumberFormatException, match=r'^Value out of range. Value:"128" Radix:10$'):
        _read("128", BYTE)
    with pytest.raises(NumberFormatException, match=r'^For input string: "99999999999"$'):
        _read("99999999999", SHORT)  # parseInt fails first, so not "Value out of range"


def test_floating_valueof_rules() -> None:
    assert _read(" \t1.5\n", DOUBLE) == 1.5  # chars <= U+0020 trimmed
    assert _read("1.5f", DOUBLE) == 1.5 and _read("2D", FLOAT) == 2.0
    assert _read("1.", DOUBLE) == 1.0 and _read(".5", DOUBLE) == 0.5
    assert _read("0x1p3", DOUBLE) == 8.0 and _read("-0x.8p1", FLOAT) == -1.0
    assert math.isnan(_read("-NaN", DOUBLE))  # the sign before NaN is accepted
    assert _read("-Infinity", FLOAT) == -math.inf and _read("+Infinity", DOUBLE) == math.inf
    assert _read("1e400", DOUBLE) == math.inf and _read("1e39", FLOAT) == math.inf
    assert math.copysign(1.0, _read("-1e-400", DOUBLE)) == -1.0
    for text in ("inf", "nan", "Inf", "1,5", "1e", "0x1", "1.5fd", "\u00a01", "\u0661"):
        with pytest.raises(NumberFormatException, match=r"^For input string: "):
            _read(text, DOUBLE)
    with pytest.raises(NumberFormatException, match=r"^empty String$"):
        _read("  ", FLOAT)
    with pytest.raises(NumberFormatException, match=r"^multiple points$"):
        _read("1.2.3", DOUBLE)


def test_float_rounds_from_the_decimal_text_not_through_double() -> None:
    # Just above the midpoint between 1.0f and its successor; as a double it is exactly the midpoint,
    # which would then round to even (1.0f).
    assert _read("1.00000005960464477539062500000000001", FLOAT) == to_f32(1.0000001192092896)
    assert _read("1.000000059604644775390625", FLOAT) == 1.0  # the midpoint itself: ties to even
    assert _read("0x1.0000010000000001p0", FLOAT) == to_f32(1.0000001192092896)


def test_boolean_valueof_never_fails() -> None:
    assert _read("TRUE", BOOLEAN) is True and _read("tRuE", BOOLEAN) is True
    for text in (" true", "yes", "1", "t", "", "\uff54rue"):
        assert _read(text, BOOLEAN) is False


# ----- String.valueOf of floats and doubles: Java 17's Float/Double.toString -----------------

TOSTRING = _lines("tostring.jsonl")


@pytest.mark.parametrize("kind", ["float", "double"])
def test_tostring_corpus(kind: str) -> None:
    cases = [c for c in TOSTRING if c["type"] == kind]
    assert len(cases) > 2000
    failures = []
    for c in cases:
        bits = int(c["bits"], 16)
        if kind == "float":
            got = float_to_string(struct.unpack(">f", bits.to_bytes(4, "big"))[0])
        else:
            got = double_to_string(struct.unpack(">d", bits.to_bytes(8, "big"))[0])
        if got != c["string"]:
            failures.append(f"{c['bits']}: expected {c['string']}, got {got}")
    assert not failures, f"{len(failures)} of {len(cases)} failed:\n" + "\n".join(failures[:40])


def test_tostring_examples() -> None:
    assert [double_to_string(x) for x in (1e10, 1e-5, 100.0, 0.001, 1e7, 9999999.0, -0.0, math.nan, -math.inf)] == [
        "1.0E10", "1.0E-5", "100.0", "0.001", "1.0E7", "9999999.0", "-0.0", "NaN", "-Infinity",
    ]  # fmt: skip
    # JDK 17 is not always shortest (JDK-4511638, fixed in JDK 19):
    assert double_to_string(2e23) == "1.9999999999999998E23"
    assert double_to_string(2.0**62) == "4.6116860184273879E18"
    assert double_to_string(5e-324) == "4.9E-324"
    assert float_to_string(to_f32(0.1)) == "0.1" and float_to_string(to_f32(1e10)) == "1.0E10"
    assert float_to_string(struct.unpack(">f", (1).to_bytes(4, "big"))[0]) == "1.4E-45"
    assert java_to_string((BOOLEAN, False)) == "false" and java_to_string((LONG, -5)) == "-5"
    assert java_to_string(None) == "null"


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_double_tostring_reads_back(x: float) -> None:
    assert _read(double_to_string(x), DOUBLE) == x


@given(st.floats(width=32, allow_nan=False, allow_infinity=False))
def test_float_tostring_reads_back(x: float) -> None:
    assert _read(float_to_string(x), FLOAT) == x


# ----- CLI: get and table ----------------------------------------------------------------------

runner = CliRunner()

MESSAGES = (
    '{"properties": {"color": "blue", "weight": {"type": "int", "value": 2600}, "ratio": {"type": "float", "value": 0.1},'
    ' "flag": true, "hex": "0x1F", "big": 10000000000.0, "gone": null, "b": {"type": "byte", "value": -5}}}\n'
    '{"properties": {"x": " 1.5f "}}\n'
)


@pytest.fixture
def dump(tmp_path: Path) -> str:
    f = tmp_path / "m.ndjson"
    f.write_text(MESSAGES, encoding="utf-8")
    return str(f)


@pytest.mark.parametrize(
    ("name", "getter", "printed"),
    [
        ("color", "String", "blue"),
        ("weight", "long", "2600"),
        ("weight", "String", "2600"),
        ("ratio", "float", "0.1"),
        ("ratio", "double", "0.10000000149011612"),
        ("flag", "String", "true"),
        ("hex", "boolean", "false"),
        ("big", "double", "1.0E10"),
        ("b", "short", "-5"),
        ("b", "object", "-5"),
        ("color", "object", "blue"),
        ("missing", "String", "null"),
        ("missing", "object", "null"),
        ("missing", "boolean", "false"),
        ("gone", "object", "null"),  # written as JSON null: absent
    ],
)
def test_get_prints_the_value_as_java(dump: str, name: str, getter: str, printed: str) -> None:
    r = runner.invoke(app, ["get", dump, name, "--as", getter])
    assert (r.exit_code, r.stdout, r.stderr) == (0, printed + "\n", "")


@pytest.mark.parametrize(
    ("name", "getter", "error"),
    [
        ("weight", "boolean", "MessageFormatException: cannot read an int property as boolean"),
        ("ratio", "long", "MessageFormatException: cannot read a float property as long"),
        ("hex", "int", 'NumberFormatException: For input string: "0x1F"'),
        ("missing", "int", "NumberFormatException: Cannot parse null string"),
        ("missing", "double", 'NullPointerException: Cannot invoke "String.trim()" because "in" is null'),
    ],
)
def test_get_refused_read_exits_1(dump: str, name: str, getter: str, error: str) -> None:
    r = runner.invoke(app, ["get", dump, name, "--as", getter])
    assert (r.exit_code, r.stdout, r.stderr) == (1, "", error + "\n")


def test_get_index_selects_the_message(dump: str) -> None:
    r = runner.invoke(app, ["get", dump, "x", "--as", "float", "--index", "1"])
    assert (r.exit_code, r.stdout) == (0, "1.5\n")
    r = runner.invoke(app, ["get", dump, "x", "--as", "int", "--index", "1"])
    assert (r.exit_code, r.stderr) == (1, 'NumberFormatException: For input string: " 1.5f "\n')


def test_get_reads_stdin() -> None:
    r = runner.invoke(app, ["get", "-", "n", "--as", "string"], input='{"properties": {"n": {"type": "double", "value": 1e-5}}}\n')
    assert (r.exit_code, r.stdout) == (0, "1.0E-5\n")


def test_get_index_out_of_range_exits_2(dump: str) -> None:
    r = runner.invoke(app, ["get", dump, "x", "--as", "int", "--index", "2"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"jmsctl: error: {dump}: no message at index 2 (the file has 2 messages)\n"


def test_get_bad_record_and_missing_file_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"properties": {"x": 1}}\n{"properties": {"x": [1]}}\n', encoding="utf-8")
    r = runner.invoke(app, ["get", str(bad), "x", "--as", "int", "--index", "1"])
    assert r.exit_code == 2 and r.stderr.startswith(f"jmsctl: error: {bad}:2: properties.x: ") and r.stderr.count("\n") == 1
    assert runner.invoke(app, ["get", str(bad), "x", "--as", "int"]).stdout == "1\n"  # a later bad record does not matter
    missing = tmp_path / "missing.ndjson"
    r = runner.invoke(app, ["get", str(missing), "x", "--as", "int"])
    assert (r.exit_code, r.stderr) == (2, f"jmsctl: error: {missing}: no such file\n")


def test_get_usage_errors_exit_2(dump: str) -> None:
    assert runner.invoke(app, ["get", dump, "x", "--as", "char"]).exit_code == 2
    assert runner.invoke(app, ["get", dump, "x"]).exit_code == 2
    assert runner.invoke(app, ["get", dump, "x", "--as", "int", "--index", "-1"]).exit_code == 2


def test_table_plain_when_piped() -> None:
    r = runner.invoke(app, ["table"])
    assert r.exit_code == 0 and "\x1b" not in r.stdout
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["written\\read", "boolean", "byte", "short", "int", "long", "float", "double", "String"]
    assert lines[1].split() == ["boolean", "X", "-", "-", "-", "-", "-", "-", "X"]
    assert lines[8].split() == ["String", *["X"] * 8]
    assert len(lines) == 9


def test_table_json() -> None:
    r = runner.invoke(app, ["table", "--format", "json"])
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    assert list(doc) == ["boolean", "byte", "short", "int", "long", "float", "double", "String"]
    assert doc["boolean"] == ["boolean", "String"]
    assert doc["float"] == ["float", "double", "String"]
    assert doc["String"] == [t.java_name for t in TYPES]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_table_on_a_terminal_has_check_marks() -> None:
    out = run_in_pty(["table"], terminal_env(COLUMNS="120"))
    assert out.count("\u2713") == sum(len(v) for v in CONVERSIONS.values())
    assert "\x1b[" in out  # coloured

"""Issue 17, a newcomer's first hour: one error style, swapped arguments, numbering, help, version..."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jmsctl.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "samples"
ORDERS = str(SAMPLES / "orders.ndjson")
ERROR_LINE = re.compile(r"jmsctl: error: \S.*")


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


# ----- item 5: arguments the wrong way round ----------------------------------------------------


def test_filter_with_swapped_arguments_says_selector_comes_first() -> None:
    r = run("filter", ORDERS, "JMSType = 'car'")
    assert r.exit_code == 2
    assert r.stderr.startswith(f"jmsctl: error: arguments are SELECTOR FILE...: '{ORDERS}' is a file")
    assert "E001" not in r.output
    only_file = run("filter", ORDERS, stdin="")
    assert only_file.exit_code == 2 and "arguments are SELECTOR FILE..." in only_file.stderr


def test_a_real_invalid_selector_is_still_reported_as_such() -> None:
    r = run("filter", "JMSType = 'car", ORDERS)
    assert r.exit_code == 2 and "E004" in r.stderr and "arguments are" not in r.stderr


def test_get_with_swapped_arguments() -> None:
    r = run("get", "weight", ORDERS, "--as", "long")
    assert r.exit_code == 2 and r.stderr.startswith("jmsctl: error: arguments are FILE NAME: 'weight' is not a file")


# ----- item 8: one error style, exit 2 ---------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["nosuch"],
        ["filter", "--bogus", "x = 1"],
        ["table", "--format", "nope"],
        ["get", ORDERS],
        ["check", "-f", "/nonexistent/selectors.txt"],
        ["check"],
        ["explain", "x = 1", "--message", "/nonexistent.ndjson"],
        ["test", "/nonexistent.jsonl"],
        ["filter", "x = 1", "/nonexistent.ndjson"],
        ["show", "/nonexistent.ndjson"],
        ["get", "/nonexistent.ndjson", "x", "--as", "int"],
        ["validate", "/nonexistent.ndjson"],
        ["validate", ORDERS, "--schema", "/nonexistent.json"],
        ["show", ORDERS, "--index", "1", "--id", "x"],
        ["spark", "filter"],
    ],
    ids=" ".join,
)
def test_every_usage_and_input_error_has_one_style_and_exit_2(args: list[str]) -> None:
    r = run(*args)
    assert r.exit_code == 2, r.output
    first = r.stderr.splitlines()[0]
    assert ERROR_LINE.fullmatch(first), r.stderr
    assert "╭" not in r.output and "Error:" not in r.output and "Traceback" not in r.output


def test_error_lines_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"properties": {"x": 1}}\n{"type": "bogus"}\n', encoding="utf-8")
    r = run("filter", "x = 1", str(bad))
    assert r.exit_code == 2
    assert r.stderr.startswith(f"jmsctl: error: {bad}:2: ")


def test_malformed_test_file_exits_2_failing_case_exits_1(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text('{"id": "a", "selector": "x = 1", "expect": "error"}\n', encoding="utf-8")
    assert run("test", str(cases)).exit_code == 1
    cases.write_text('{"id": "a", "selector": "x = 1", "expect": "error"}\n{"id": "b", "expect": "sometimes"}\n', encoding="utf-8")
    r = run("test", str(cases))
    assert r.exit_code == 2
    assert r.stderr.startswith(f"jmsctl: error: {cases}:2: invalid test case 'b': ")

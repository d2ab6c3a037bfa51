"""The command line as users meet it: exit codes, output formats, files and stdin, colour rules."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from jmsctl.cli.app import COMMANDS, ErrorStyleGroup, app, root_options
from tests.ptyrun import run_in_pty as _in_pty

runner = CliRunner()
SAMPLES = Path(__file__).parent.parent / "samples"


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


# ----- check ---------------------------------------------------------------------------------


def test_check_valid_selector_exits_0() -> None:
    r = run("check", "JMSType = 'car' AND weight > 2500")
    assert r.exit_code == 0
    assert "1 selector checked: 1 valid, 0 invalid" in r.output


def test_check_invalid_selector_exits_1_with_caret_and_hint() -> None:
    r = run("check", "color != 'blue'")
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0] == "error[E006]: '!=' is not a selector operator"
    assert " --> <arg>:1:7" in lines[1]
    assert lines[3] == "1 | color != 'blue'"
    assert lines[4] == "  |       ^^ expected '<>'"
    assert "hint: 'not equal' is written '<>'" in lines[5]


def test_check_concise_names_argument_line_and_column() -> None:
    r = run("check", "--format", "concise", "x = 1 AND y == 2")
    assert r.exit_code == 1
    assert r.output == "<arg>:1:13: E007 '==' is not a selector operator\n"


def test_check_several_arguments_are_numbered() -> None:
    r = run("check", "--format", "concise", "x = 1", "x = \"a\"")
    assert r.output.startswith("<arg2>:1:5: E005 ")


def test_check_file_reports_file_line_numbers(tmp_path: Path) -> None:
    f = tmp_path / "sel.txt"
    f.write_text("# comment\nx = 1\n\ny LIKE 7\n", encoding="utf-8")
    r = run("check", "--format", "concise", "-f", str(f))
    assert r.exit_code == 1
    assert r.output == f"{f}:4:8: E106 a LIKE pattern must be a string literal, not the int literal 7\n"


def test_check_stdin_dash() -> None:
    r = run("check", "--format", "concise", "-", stdin="x = 1\nx = = 1\n")
    assert r.exit_code == 1
    assert r.output.startswith("<stdin>:2:5: E002 ")


def test_check_warnings_do_not_fail_unless_strict() -> None:
    assert run("check", "x = 010").exit_code == 0
    r = run("check", "--strict", "--format", "concise", "x = 010")
    assert r.exit_code == 1
    assert "W001" in r.output


def test_check_json_format_is_machine_readable() -> None:
    r = run("check", "--format", "json", "a-b = 1", "NOT = 1")
    doc = json.loads(r.output)
    assert doc["summary"] == {"checked": 2, "valid": 1, "invalid": 1, "warnings": 1}
    first, second = doc["selectors"]
    assert first["valid"] and first["diagnostics"][0]["code"] == "W003"
    d = second["diagnostics"][0]
    assert (d["code"], d["line"], d["column"], d["length"], d["severity"]) == ("E014", 1, 1, 3, "error")
    assert d["hint"]


def test_check_github_annotations(tmp_path: Path) -> None:
    f = tmp_path / "s.txt"
    f.write_text("x == 1\n", encoding="utf-8")
    r = run("check", "--format", "github", "-f", str(f))
    assert r.output.startswith(f"::error file={f},line=1,col=3,endLine=1,endColumn=5,title=E007::'==' is not a selector operator")


def test_check_missing_file_is_exit_2_with_one_line() -> None:
    r = run("check", "-f", "/nonexistent/selectors.txt")
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert "/nonexistent/selectors.txt" in r.output


def test_check_without_input_is_usage_error() -> None:
    assert run("check").exit_code == 2


def test_check_samples_selectors_are_valid_and_bad_ones_invalid() -> None:
    assert run("check", "-f", str(SAMPLES / "selectors.txt")).exit_code == 0
    r = run("check", "--format", "json", "-f", str(SAMPLES / "bad-selectors.txt"))
    assert r.exit_code == 1
    doc = json.loads(r.output)
    assert doc["summary"]["invalid"] >= 6


# ----- explain -------------------------------------------------------------------------------


def test_explain_with_message_says_selected(tmp_path: Path) -> None:
    m = tmp_path / "m.ndjson"
    m.write_text('{"headers": {"JMSType": "car"}, "properties": {"weight": 2600}}\n{"properties": {"weight": "2600"}}\n')
    r = run("explain", "JMSType = 'car' AND weight > 2500", "--message", str(m))
    assert r.exit_code == 0
    assert "Canonical (JMSType = 'car') AND (weight > 2500)" in r.output
    assert "2600 (int) > 2500 (int)" in r.output
    assert r.output.rstrip().endswith("Result: TRUE -> selected")
    r2 = run("explain", "JMSType = 'car' AND weight > 2500", "--message", f"{m}:2")  # line 2, as filter prints it
    assert "unlike types (String and int): FALSE" in r2.output
    assert r2.output.rstrip().endswith("Result: FALSE -> not selected")


def test_explain_json_has_every_node_value(tmp_path: Path) -> None:
    m = tmp_path / "m.json"
    m.write_text('[{"properties": {"x": 5}}]')
    r = run("explain", "x / 0 > 1", "--message", str(m), "--format", "json")
    doc = json.loads(r.output)
    assert doc["result"] == "UNKNOWN" and doc["selected"] is False
    division = doc["tree"]["children"][0]
    assert division["value"] == "NULL" and "division by zero" in division["reason"]
    assert doc["identifiers"] == [{"name": "x", "kind": "application property", "static_type": "any"}]


def test_explain_ibm_dialect_whole_selector_false(tmp_path: Path) -> None:
    m = tmp_path / "m.ndjson"
    m.write_text('{"properties": {"s": "5"}}\n')
    r = run("explain", "NOT (s = 1)", "--message", str(m), "--dialect", "ibm")
    assert "makes the whole selector FALSE" in r.output
    assert r.output.rstrip().endswith("not selected")
    assert "-> selected" in run("explain", "NOT (s = 1)", "--message", str(m)).output


def test_explain_invalid_selector_exit_1_and_bad_message_exit_2(tmp_path: Path) -> None:
    assert run("explain", "x ==").exit_code == 1
    r = run("explain", "x = 1", "--message", str(tmp_path / "missing.ndjson"))
    assert r.exit_code == 2 and "no such file" in r.output
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"properties": {"x": [1]}}\n')
    r = run("explain", "x = 1", "--message", str(bad))
    assert r.exit_code == 2 and "properties.x" in r.output


# ----- test ----------------------------------------------------------------------------------


def test_test_command_passes_the_samples() -> None:
    r = run("test", str(SAMPLES / "selector-tests.jsonl"))
    assert r.exit_code == 0
    assert r.output.strip().splitlines()[-1] == "10 passed, 0 failed"


def test_test_command_reports_failures(tmp_path: Path) -> None:
    f = tmp_path / "cases.jsonl"
    f.write_text(
        '{"id": "ok", "selector": "x = 1", "message": {"properties": {"x": 1}}, "expect": "match"}\n'
        '{"id": "wrong", "selector": "x = 1", "message": {"properties": {"x": 2}}, "expect": "match"}\n'
        "not json\n"
        '{"id": "code", "selector": "x != 1", "message": {}, "expect": "error", "code": "E007"}\n'
    )
    r = run("test", str(f))
    assert r.exit_code == 2  # the line that is not JSON is bad input: it wins over the failures
    assert "FAIL wrong" in r.stdout and "expected: match" in r.stdout and "actual:   nomatch" in r.stdout
    assert r.stderr.startswith(f"jmsctl: error: {f}:3: invalid test case: invalid JSON: ") and r.stderr.count("\n") == 1
    assert "expected error code E007" in r.stdout
    assert r.stdout.strip().splitlines()[-1] == "1 passed, 2 failed, 1 invalid"
    f.write_text("\n".join(f.read_text().splitlines()[:2]) + "\n")
    assert run("test", str(f)).exit_code == 1  # failures alone: 1


def test_test_command_missing_file_exit_2() -> None:
    assert run("test", "/nonexistent.jsonl").exit_code == 2


# ----- colour and process behaviour ----------------------------------------------------------




@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_colour_on_a_terminal_only_and_never_with_no_color() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    coloured = _in_pty(["check", "x != 1"], env)
    assert "\x1b[" in coloured
    plain = _in_pty(["check", "x != 1"], {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in plain and "E006" in plain
    piped = subprocess.run([sys.executable, "-m", "jmsctl", "check", "x != 1"], capture_output=True, text=True, env=env)
    assert "\x1b[" not in piped.stdout and piped.returncode == 1


def test_module_entry_point_runs() -> None:
    r = subprocess.run([sys.executable, "-m", "jmsctl", "check", "--format", "concise", "x = 1"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout == "" and r.stderr == ""


# ----- commands loaded when they run ---------------------------------------------------------


def _eager_app() -> typer.Typer:
    """The app as it was written before its commands were loaded lazily: every one registered with typer."""
    eager = typer.Typer(name="jmsctl", help=app.info.help, no_args_is_help=True, add_completion=True, pretty_exceptions_enable=False,
                        cls=ErrorStyleGroup)
    eager.callback()(root_options)
    for name, (module, attr, *_) in COMMANDS.items():
        target = getattr(importlib.import_module(module), attr)
        if isinstance(target, typer.Typer):
            eager.add_typer(target, name=name)
        else:
            eager.command(name=name)(target)
    return eager


@pytest.mark.parametrize(
    "args",
    [[], ["--help"], ["fliter"], ["nosuch"], ["filter"], ["check", "--format", "nope", "x"], ["spark"],
     *([name, "--help"] for name in COMMANDS), *(["spark", sub, "--help"] for sub in ("filter", "convert", "explain"))],
    ids=" ".join,
)
def test_lazy_commands_show_what_registered_commands_show(args: list[str]) -> None:
    eager = runner.invoke(_eager_app(), args)
    lazy = runner.invoke(app, args)
    assert (lazy.exit_code, lazy.output) == (eager.exit_code, eager.output)


def test_filter_loads_no_other_command() -> None:
    code = (
        "import sys\n"
        "from jmsctl.cli.app import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "loaded = [m for m in ('rich', 'jmsctl.cli.commands.check', 'jmsctl.cli.commands.show', 'jmsctl.messages.validator',\n"
        "                      'jmsctl.selector.explainer', 'jmsctl.spec.javachars') if m in sys.modules]\n"
        "print(loaded, file=sys.stderr)\n"
    )
    sample = SAMPLES / "orders-small.ndjson"
    r = subprocess.run([sys.executable, "-c", code, "filter", "JMSType = 'car'", str(sample), "--count"], capture_output=True, text=True, timeout=60)
    assert r.stderr.strip().splitlines()[-1] == "[]", r.stderr

"""Issue 17, a newcomer's first hour: one error style, swapped arguments, numbering, help, version..."""

from __future__ import annotations

import json
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
    r = run("filter", "x = 1", str(bad), "--validate-all")
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


# ----- item 2: show --format json is valid input ----------------------------------------------


def test_show_json_reads_back_through_filter_and_show() -> None:
    r = run("show", "--format", "json", str(SAMPLES / "orders-small.ndjson"))
    assert r.exit_code == 0
    assert all("location" not in json.loads(line) for line in r.stdout.splitlines())
    assert run("show", "--format", "json", "-", stdin=r.stdout).stdout == r.stdout
    counted = run("filter", "JMSType IS NOT NULL OR JMSType IS NULL", "--count", stdin=r.stdout)
    assert (counted.exit_code, counted.stderr, counted.stdout) == (0, "", f"{len(r.stdout.splitlines())}\n")


# ----- item 3: check on empty input -------------------------------------------------------------


@pytest.mark.parametrize("args", [["check", "-"], ["check", "-f", "-"], ["check", "-f", "/dev/null"]], ids=" ".join)
def test_check_on_empty_input_says_so_and_exits_2(args: list[str]) -> None:
    r = run(*args, stdin="")
    assert r.exit_code == 2
    assert r.stderr.startswith("jmsctl: error: ") and "no selectors to check (empty input)" in r.stderr


def test_check_on_comments_only_is_empty_too(tmp_path: Path) -> None:
    f = tmp_path / "sel.txt"
    f.write_text("# nothing yet\n\n", encoding="utf-8")
    r = run("check", "-f", str(f))
    assert (r.exit_code, r.stderr) == (2, f"jmsctl: error: {f}: no selectors to check (empty input)\n")
    f.write_text("# one\nx = 1\n", encoding="utf-8")
    assert run("check", "-f", str(f), "-f", "/dev/null").exit_code == 0  # something was checked


# ----- item 6: E003 lists only what would be valid ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x IN ('a'", ("','", "')'")),
        ("(x = 1", ("an arithmetic operator", "AND", "OR", "')'")),
        ("x LIKE 'a' ESCAPE", ("a string literal",)),
        ("x IS NOT", ("NULL",)),
        ("x BETWEEN 1", ("an arithmetic operator", "AND")),
    ],
)
def test_e003_expected_tokens_are_the_valid_ones(text: str, expected: tuple[str, ...]) -> None:
    from jmsctl import selector as sel

    diag = sel.analyze(text).errors[0]
    assert diag.code == "E003"
    assert diag.expected == expected


def test_e003_every_listed_token_continues_to_a_valid_selector() -> None:
    from jmsctl.selector.expected import viable
    from jmsctl.selector.parser import _replay

    class NoFallback:
        def __init__(self) -> None:
            self.expected: set[str] = set()

    for text in ("x IN ('a'", "(x = 1", "x + ", "x LIKE", "x LIKE 'a' ESCAPE"):
        acceptable, _ = _replay(text, len(text), NoFallback())  # type: ignore[arg-type]
        rejected = {t for t in acceptable if not viable(text, t)}
        assert rejected, text  # the grammar alone accepts more than the checker
        described = " ".join(sel_expected(text))
        for t in rejected & {"PLUS", "MINUS", "STAR", "SLASH", "EQ", "NE", "LT", "GT"}:
            assert {"PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'", "EQ": "'='", "NE": "'<>'",
                    "LT": "'<'", "GT": "'>'"}[t] not in described, (text, t)


def sel_expected(text: str) -> tuple[str, ...]:
    from jmsctl import selector as sel

    return sel.analyze(text).errors[0].expected


# ----- item 10: --version -----------------------------------------------------------------------


def test_version_everywhere() -> None:
    from jmsctl._version import VERSION

    r = run("--version")
    assert (r.exit_code, r.stdout) == (0, f"jmsctl {VERSION}\n")
    assert f"jmsctl {VERSION}" in run("--help").stdout
    stats = run("filter", "JMSType = 'car'", str(SAMPLES / "orders-small.ndjson"), "--stats", "--count")
    assert stats.stderr.splitlines()[0].startswith("read ")  # no version line (issue 35 item 16): --version says it
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'version = {attr = "jmsctl._version.VERSION"}' in pyproject  # one place for the number


# ----- item 16: check --format github -------------------------------------------------------------


def test_check_github_has_a_summary_and_strict_warnings_are_errors() -> None:
    r = run("check", "--format", "github", "x = 010", "y = 1")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[0].startswith("::warning title=W001::")
    assert lines[-1] == "::notice title=jmsctl check::2 selectors checked: 2 valid, 0 invalid, 1 warning"
    strict = run("check", "--strict", "--format", "github", "x = 010", "y = 1")
    assert strict.exit_code == 1
    assert strict.stdout.splitlines()[0].startswith("::error title=W001::")
    assert strict.stdout.splitlines()[-1] == "::error title=jmsctl check::2 selectors checked: 1 valid, 1 invalid, 1 warning"


# ----- item 1: one numbering, --id, explain names its message -------------------------------------


def test_explain_message_position_is_the_line_filter_prints(tmp_path: Path) -> None:
    small = str(SAMPLES / "orders-small.ndjson")
    ids = run("filter", "JMSType = 'truck'", small, "--format", "ids").stdout.split()
    located = run("validate", small, "--format", "concise")  # no finding: use filter's rejections instead
    assert located.exit_code == 0
    line = next(i for i, text in enumerate(Path(small).read_text().splitlines(), 1) if ids[0] in text)
    r = run("explain", "JMSType = 'truck'", "--message", f"{small}:{line}")
    assert r.exit_code == 0 and r.stdout.rstrip().endswith("-> selected")
    assert f"Message   {small}:{line}  JMSMessageID {ids[0]}" in r.stdout
    by_id = run("explain", "JMSType = 'truck'", "--message", small, "--id", ids[0], "--format", "json")
    assert json.loads(by_id.stdout)["message"] == {"location": f"{small}:{line}", "JMSMessageID": ids[0]}
    assert json.loads(by_id.stdout)["selected"] is True


def test_explain_error_locations_name_the_record_they_report(tmp_path: Path) -> None:
    f = tmp_path / "m.ndjson"
    f.write_text('{"properties": {"x": 1}}\n\n{"properties": {"x": [1]}}\n{"properties": {"x": 2}}\n', encoding="utf-8")
    err = run("filter", "x = 1", str(f), "--validate-all").stderr
    assert err.startswith(f"jmsctl: error: {f}:3: ")
    pasted = run("explain", "x = 1", "--message", f"{f}:3")
    assert pasted.exit_code == 2 and pasted.stderr.startswith(f"jmsctl: error: {f}:3: ")  # the same record
    assert "= 2 (int)" in run("explain", "x = 1", "--message", f"{f}:4").stdout
    missing = run("explain", "x = 1", "--message", f"{f}:0")
    assert missing.exit_code == 2 and f"no record at 0: the records are {f}:1 to {f}:4" in missing.stderr
    arr = tmp_path / "a.json"
    arr.write_text('[{"properties": {"x": 1}}, {"properties": {"x": 2}, "headers": {"JMSMessageID": "ID:b"}}]', encoding="utf-8")
    r = run("explain", "x = 1", "--message", f"{arr}:[1]")
    assert f"Message   {arr}:[1]  JMSMessageID ID:b" in r.stdout and "not selected" in r.stdout
    nothing = run("explain", "x = 1", "--message", str(arr), "--id", "ID:nope")
    assert nothing.exit_code == 2 and 'no message with JMSMessageID "ID:nope"' in nothing.stderr


def test_short_options_mean_one_thing() -> None:
    """-m is --max-count (as grep) wherever it exists; explain's --message has no short form."""
    import importlib

    from jmsctl.cli.app import COMMANDS, load_command

    meanings: dict[str, set[str]] = {}

    def collect(command: object) -> None:
        for sub in getattr(command, "commands", {}).values():
            collect(sub)
        for param in getattr(command, "params", []):
            longs = [o for o in param.opts if o.startswith("--")]
            for short in (o for o in param.opts if not o.startswith("--")):
                meanings.setdefault(short, set()).update(longs)

    for name in COMMANDS:
        importlib.import_module(COMMANDS[name][0])
        collect(load_command(name))
    clashing = {short: longs for short, longs in meanings.items() if len(longs) > 1}
    assert not clashing, clashing
    assert meanings.get("-m", {"--max-count"}) == {"--max-count"}


# ----- item 12: filter --explain ------------------------------------------------------------------

WHY = "JMSType = 'car' AND (weight > 2500 OR NOT color = 'red')"


def test_filter_explain_says_why_each_selected_message_matched() -> None:
    small = str(SAMPLES / "orders-small.ndjson")
    r = run("filter", WHY, small, "--explain")
    assert r.exit_code == 0
    assert r.stdout == (
        f"{small}:1  ID:broker-1-1  TRUE -> selected\n"
        "  JMSType = 'car': TRUE ('car' (String) = 'car' (String))\n"
        "  weight > 2500: TRUE (2600 (int) > 2500 (int))\n"
        f"{small}:2  ID:broker-1-2  TRUE -> selected\n"
        "  JMSType = 'car': TRUE ('car' (String) = 'car' (String))\n"
        "  color = 'red': FALSE ('blue' (String) = 'red' (String)), under NOT\n"
    )
    assert run("filter", WHY, small, "--explain", "--count").stdout == "2\n"


def test_filter_invert_explain_gives_the_first_condition_false_or_unknown() -> None:
    small = str(SAMPLES / "orders-small.ndjson")
    r = run("filter", WHY, small, "--explain", "--invert")
    assert r.exit_code == 0
    assert r.stdout == (
        f"{small}:3  ID:broker-1-3  FALSE -> not selected\n"
        "  JMSType = 'car': FALSE ('truck' (String) = 'car' (String))\n"
        f"{small}:4  ID:broker-1-4  UNKNOWN -> not selected\n"
        "  JMSType = 'car': UNKNOWN (an operand is NULL: UNKNOWN)\n"
    )


def test_why_or_lists_every_failed_operand_and_and_only_the_first() -> None:
    import jmsctl
    from jmsctl.selector.explainer import explain
    from jmsctl.selector.why import deciding

    ex = explain("(a = 1 OR b = 2) AND c = 3 AND d = 4", jmsctl.plain_values({"a": 0, "b": 0, "c": 0, "d": 0}).get)
    assert [r.source for r in deciding(ex)] == ["a = 1", "b = 2"]  # the AND's first failure: the whole OR
    ex = explain("a = 1 OR b = 2 OR c = 3", jmsctl.plain_values({"a": 0, "b": 2, "c": 3}).get)
    assert [r.source for r in deciding(ex)] == ["b = 2"]  # TRUE: the first TRUE operand decides
    chain = " AND ".join(f"x{i} = {i}" for i in range(2000))
    values = {f"x{i}": i for i in range(2000)}
    values["x1500"] = -1
    ex = explain(chain, jmsctl.plain_values(values).get)
    assert [str(r) for r in deciding(ex)] == ["x1500 = 1500: FALSE (-1 (int) = 1500 (int))"]


# ----- item 13: show --where ------------------------------------------------------------------------


def test_show_where_shows_only_the_selected_messages() -> None:
    small = str(SAMPLES / "orders-small.ndjson")
    r = run("show", small, "--where", "JMSType = 'truck'", "--format", "json")
    assert r.exit_code == 0
    assert [json.loads(line)["headers"]["JMSMessageID"] for line in r.stdout.splitlines()] == ["ID:broker-1-3"]
    assert run("show", small, "--where", "JMSType = 'plane'").exit_code == 1
    bad = run("show", small, "--where", "JMSType == 'x'")
    assert bad.exit_code == 2 and "E007" in bad.stderr
    swapped = run("show", "JMSType = 'truck'", small)
    assert swapped.exit_code == 2 and "give it with --where" in swapped.stderr


# ----- item 15: help ----------------------------------------------------------------------------


def _help(*args: str, width: int | None = None) -> str:
    """Help as a user sees it piped (no terminal: rich's 80 columns unless COLUMNS says otherwise)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TERMINAL_WIDTH")}
    env["PYTHONPATH"] = str(ROOT)
    if width:
        env["TERMINAL_WIDTH"] = str(width)
    r = subprocess.run([sys.executable, "-m", "jmsctl", *args, "--help"], capture_output=True, text=True, env=env, timeout=60, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _all_commands() -> list[list[str]]:
    from jmsctl.cli.app import COMMANDS, load_command

    out: list[list[str]] = []
    for name in COMMANDS:
        command = load_command(name)
        subs = getattr(command, "commands", None)
        out.extend([[name, sub] for sub in subs] if subs else [[name]])
    return out


def test_top_level_help_lists_every_command_once_grouped_on_one_line() -> None:
    from jmsctl.cli.app import COMMANDS, DOCS, SELECTORS, SPARK

    text = _help()
    assert max(len(line) for line in text.splitlines()) <= 80
    panels = [line.split("─")[1].strip() for line in text.splitlines() if line.startswith("╭─")]
    assert panels[:1] == ["Options"] and {SELECTORS, "Messages", SPARK} <= set(panels)
    names, panel = [], ""
    for line in text.splitlines():
        if line.startswith("╭─"):
            panel = line.split("─")[1].strip()
        elif line.startswith("│ ") and panel != "Options":
            names.append(line.strip("│ ").split(None, 1)[0] if not line.startswith("│  ") else "(wrapped)")
    assert names == list(COMMANDS)  # every command, each on exactly one line (a wrapped line would start with a space)
    order = [next(p for p in panels if p == COMMANDS[n][2]) for n in names]
    assert order == sorted(order, key=[SELECTORS, "Messages", "Brokers", DOCS, SPARK].index)


@pytest.mark.parametrize("command", _all_commands(), ids=" ".join)
def test_each_command_help_fits_80_columns_with_arity_choices_and_an_example(command: list[str]) -> None:
    text = _help(*command)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    assert "Example: jmsctl " in text or command[0] in ("convert", "scan"), text  # other helpers' commands: their own words
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage, usage  # typer's {FILE} is not what one types


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        (["validate"], "validate [OPTIONS] FILE..."),
        (["show"], "show [OPTIONS] FILE..."),
        (["get"], "get [OPTIONS] FILE NAME"),
        (["check"], "check [OPTIONS] [SELECTOR...]"),
        (["filter"], "filter [OPTIONS] SELECTOR [FILE...]"),
        (["spark", "filter"], "spark filter [OPTIONS] SELECTOR INPUT..."),
    ],
)
def test_usage_shows_the_real_arity(command: list[str], usage: str) -> None:
    assert usage in _help(*command)


@pytest.mark.parametrize("command", _all_commands(), ids=" ".join)
def test_every_option_with_choices_shows_them(command: list[str]) -> None:
    from jmsctl.cli.app import load_command

    cmd = load_command(command[0])
    for sub in command[1:]:
        cmd = cmd.commands[sub]
    squeezed = "".join(_help(*command, width=300).split())  # wide: no choice list wrapped inside its cell
    for param in cmd.params:
        choices = getattr(param.type, "choices", None)
        if choices and not getattr(param, "hidden", False):
            values = [str(getattr(c, "value", c)) for c in choices]
            listed = "<" + "|".join(values) + ">" in squeezed or all(f"{v}," in squeezed or f"or{v}" in squeezed for v in values)
            assert listed, (command, param.name)  # as typer lists them, or in the option's help (get --as)
    if command == ["explain"]:
        assert "<text|json>" in squeezed


# ----- item 7: Java checked before Spark starts ---------------------------------------------------


def _fake_java(tmp_path: Path, version: str) -> Path:
    home = tmp_path / f"jdk-{version}"
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text(f'#!/bin/sh\necho \'openjdk version "{version}" 2020-01-01\' >&2\n', encoding="utf-8")
    java.chmod(0o755)
    return home


def test_java_check_says_what_was_found_and_what_is_needed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from jmsctl.spark import javacheck

    need = javacheck.required_major()
    for env, words in (
        ({"JAVA_HOME": str(_fake_java(tmp_path, "11.0.2"))}, ["Java 11 found at", "(from JAVA_HOME)", f"Spark needs Java {need} or later", "JAVA_HOME="]),
        ({"JAVA_HOME": str(tmp_path / "nowhere")}, ["JAVA_HOME is", "which has no bin/java", f"Java {need}+"]),
        ({"JAVA_HOME": None, "PATH": str(tmp_path)}, ["no Java found", "no java on the PATH", "JAVA_HOME"]),
    ):
        for name, value in env.items():
            if value is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, value)
        javacheck.check_java.cache_clear()
        with pytest.raises(javacheck.JavaProblem) as problem:
            javacheck.check_java()
        for word in words:
            assert word in str(problem.value), (word, str(problem.value))
    monkeypatch.setenv("JAVA_HOME", str(_fake_java(tmp_path, "21")))
    javacheck.check_java.cache_clear()
    assert javacheck.check_java().major == 21
    javacheck.check_java.cache_clear()
    assert [javacheck.parse_major(t) for t in ('java version "1.8.0_392"', 'openjdk version "17.0.9" 2023', "?")] == [8, 17, None]


def test_spark_command_with_a_bad_java_home_is_one_error_line(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    pytest.importorskip("pyspark")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JAVA_HOME": str(_fake_java(tmp_path, "1.8.0_392"))}
    r = subprocess.run([sys.executable, "-m", "jmsctl", "spark", "filter", "x = 1", ORDERS, "--count"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2
    assert r.stderr.startswith("jmsctl: error: Java 8 found at ") and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr and "py4j" not in r.stderr.lower()


def test_show_and_get_take_the_location_filter_prints() -> None:
    small = str(SAMPLES / "orders-small.ndjson")
    shown = run("show", f"{small}:3", "--format", "json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)["headers"]["JMSMessageID"] == "ID:broker-1-3"
    assert run("get", f"{small}:3", "color", "--as", "String").stdout == "red\n"
    assert run("get", f"{small}:3", "color", "--as", "String").stdout == run("get", small, "color", "--as", "String", "--index", "2").stdout
    missing = run("show", f"{small}:9")
    assert missing.exit_code == 1 and missing.stderr.startswith(f"jmsctl: error: {small}: no record at 9")
    assert run("get", f"{small}:9", "color", "--as", "String").exit_code == 2


def test_rejected_records_point_once_at_the_format_document() -> None:
    from jmsctl.cli.errors import FORMAT_NOTE

    r = run("filter", "x = 1", str(SAMPLES / "bad-records.ndjson"), "--stats")
    lines = r.stderr.splitlines()
    assert r.exit_code == 2 and lines.count(FORMAT_NOTE) == 1 and "docs/FORMAT.md" in FORMAT_NOTE
    assert lines[-1].startswith("read ")  # the stats line stays the last
    assert (ROOT / "docs" / "FORMAT.md").is_file()
    quiet = run("filter", "x = 1", str(SAMPLES / "bad-records.ndjson"), "--skip-invalid")
    assert FORMAT_NOTE not in quiet.stderr


@pytest.mark.parametrize("command", [("show",), ("validate",), ("validate", "--format", "concise"), ("filter", "x = 1")])
def test_rejected_records_point_at_the_format_document_once(command: tuple[str, ...]) -> None:
    """Issue 17 item 17: every command that rejects records says where the format is written down."""
    bad = run(*command, str(SAMPLES / "bad-records.ndjson"))
    assert bad.stderr.count("docs/FORMAT.md") == 1, bad.stderr
    good = run(*command, str(SAMPLES / "orders-small.ndjson"))
    assert "docs/FORMAT.md" not in good.stderr

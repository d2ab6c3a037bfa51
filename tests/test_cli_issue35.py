"""Issue 35, the command line as new users met it: warnings before a run, selectors that begin with
'-', one-line usage errors, files known before output, no version line in --stats."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jmsctl.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).parent.parent
ORDERS = str(ROOT / "samples" / "orders.ndjson")
SMALL = str(ROOT / "samples" / "orders-small.ndjson")


def run(*args: str):
    return runner.invoke(app, list(args))


def jmsctl(*args: str) -> subprocess.CompletedProcess[str]:
    """The real entry point (click's errors pass through ``main``, not CliRunner's)."""
    return subprocess.run([sys.executable, "-m", "jmsctl", *args], capture_output=True, text=True, cwd=ROOT, timeout=60)


# ----- item 9: the checker's warnings before the messages ------------------------------------------


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["filter", "color = red", ORDERS, "--count"], "W016"),
        (["filter", "JMSDeliveryMode = 2", ORDERS, "--count"], "W002"),
        (["show", SMALL, "--where", "color = red"], "W016"),
    ],
    ids=["filter W016", "filter W002", "show --where W016"],
)
def test_a_selector_check_warns_about_warns_once_on_stderr_and_quiet_silences_it(args: list[str], code: str) -> None:
    r = run(*args)
    assert r.stderr.count(f"warning[{code}]") == 1, r.stderr
    assert f"warning[{code}]" not in r.stdout
    quiet = run(*args, "--quiet")
    assert "warning[" not in quiet.stderr and quiet.stdout == r.stdout and quiet.exit_code == r.exit_code
    assert "warning[" not in run(*args, "-q").stderr


def test_the_warning_comes_before_the_messages() -> None:
    r = jmsctl("filter", "color = red OR weight > 1", SMALL)
    assert r.returncode == 0 and r.stdout.startswith("{")
    assert r.stderr.startswith("warning[W016]")


def test_a_selector_without_warnings_writes_nothing_on_stderr() -> None:
    r = run("filter", "color = 'red'", ORDERS, "--count")
    assert r.exit_code == 0 and r.stderr == ""


# ----- items 10 and 11: a selector that begins with '-', one-line usage errors ------------------------


def test_a_selector_beginning_with_dash_gets_the_hint_in_one_line() -> None:
    r = jmsctl("filter", "-1 < weight", ORDERS, "--count")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("jmsctl: error: filter: No such option: -1")
    assert "a selector that begins with '-' goes after `--`, with the options before it" in r.stderr


def test_an_unknown_option_is_not_taken_for_a_selector() -> None:
    r = jmsctl("filter", "--bogus", "x = 1", ORDERS)
    assert r.returncode == 2 and "begins with '-'" not in r.stderr


@pytest.mark.parametrize(
    "args", [["filter", "--bogus", "x = 1"], ["show"], ["nosuch"], ["table", "--format", "nope"], ["check", "--strict", "--format"]], ids=" ".join
)
def test_usage_errors_are_one_line_exit_2(args: list[str]) -> None:
    r = jmsctl(*args)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("jmsctl: error: "), r.stderr
    assert "Usage:" not in r.stderr and "--help" in r.stderr


def test_after_double_dash_an_option_is_a_missing_file_and_nothing_is_written() -> None:
    r = jmsctl("filter", "--", "-1 < weight", ORDERS, "--count")
    assert r.returncode == 2
    assert r.stdout == ""  # not every message first, then the error
    assert r.stderr.startswith("jmsctl: error: --count: no such file") and "options go before `--`" in r.stderr
    right = jmsctl("filter", "--count", "--", "-1 < weight", ORDERS)
    assert (right.returncode, right.stdout) == (0, run("filter", "--count", "weight > -1", ORDERS).stdout)


# ----- item 15: a missing file prints no count ------------------------------------------------------


def test_a_missing_file_prints_no_count_before_the_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "nosuch.ndjson")
    r = run("filter", "weight > 1", missing, "--count")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == f"jmsctl: error: {missing}: no such file\n"
    d = run("filter", "weight > 1", str(tmp_path), "--count")
    assert (d.exit_code, d.stdout, d.stderr) == (2, "", f"jmsctl: error: {tmp_path}: is a directory\n")


# ----- item 16: --stats writes no version line ------------------------------------------------------


def test_stats_first_line_is_the_counts() -> None:
    r = run("filter", "weight > 1", SMALL, "--stats", "--count")
    assert r.stderr.splitlines()[0].startswith("read "), r.stderr
    assert "jmsctl 0" not in r.stderr


# ----- item 12: && and || name their rewrite ----------------------------------------------------------


@pytest.mark.parametrize(("text", "word"), [("a = 1 && b = 2", "AND"), ("a = 1 || b = 2", "OR")])
def test_c_logical_operators_get_a_hint_naming_the_keyword(text: str, word: str) -> None:
    r = run("check", text)
    assert r.exit_code == 1 and "error[E001]" in r.stdout
    hint = next(line for line in r.stdout.splitlines() if "hint:" in line)
    assert f"is written {word} in a selector" in hint and "check --fix and scan --fix rewrite it" in hint
    fixed = run("check", "--fix", text)
    assert f" {word} " in fixed.stdout  # the rewrite the hint names is the one --fix makes


def test_a_single_ampersand_is_named_but_not_promised_a_fix() -> None:
    hint = next(line for line in run("check", "a = 1 & b = 2").stdout.splitlines() if "hint:" in line)
    assert "is written AND" in hint and "--fix" not in hint


# ----- item 17: a file that is no test-case file ------------------------------------------------------


@pytest.mark.parametrize("name", ["orders.ndjson", "selectors.txt"])
def test_a_file_that_holds_no_test_case_is_said_so_once(name: str) -> None:
    path = str(ROOT / "samples" / name)
    r = run("test", path)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == (f'jmsctl: error: {path}: not a test-case file: its first 5 lines hold no case (a JSON object with "selector" '
                        'and "expect" a line; see jmsctl test --help)\n')


def test_a_broken_case_in_a_test_file_is_still_reported_by_line_and_names_its_place_once(tmp_path: Path) -> None:
    cases = tmp_path / "c.jsonl"
    cases.write_text('{"selector": "a = 1", "expect": "match", "message": {}}\n{"x": 1}\n')
    r = run("test", str(cases))
    assert r.exit_code == 2
    assert r.stderr == f'jmsctl: error: {cases}:2: invalid test case: "selector" must be a string\n'
    assert f"FAIL {cases}:1\n" in r.stdout  # the place once, not "FAIL c.jsonl:1 (c.jsonl:1)"


def test_test_help_mentions_no_invert() -> None:
    assert "invert" not in run("test", "--help").stdout


# ----- item 15: a file that is no dump, whatever the selector -----------------------------------------


@pytest.mark.parametrize("selector", ["color = 'blue'", "weight > 1", "JMSType = 'car' AND color = 'blue' AND weight > 2500", "x = 'absent'"])
def test_a_text_file_is_not_a_dump_whatever_the_selector(selector: str) -> None:
    path = str(ROOT / "samples" / "selectors.txt")
    r = run("filter", selector, path, "--quiet")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr.startswith(f"jmsctl: error: {path}: not a message dump: its first 5 lines are not JSON messages"), r.stderr
    assert "invalid JSON" not in r.stderr


def test_a_dump_with_a_broken_line_among_the_first_is_judged_a_dump(tmp_path: Path) -> None:
    f = tmp_path / "d.ndjson"
    f.write_text('{"properties": {"c": "red"}}\nnot json\n{"properties": {"c": "blue"}}\n')
    r = run("filter", "c = 'blue'", str(f))
    assert r.exit_code == 2 and r.stdout == '{"properties": {"c": "blue"}}\n'
    assert r.stderr.splitlines()[0].startswith(f"jmsctl: error: {f}:2: invalid JSON: ")  # a broken record of a dump, reported as such


# ----- item 18: help -----------------------------------------------------------------------------------


def _help(*args: str, columns: int = 100) -> str:
    r = runner.invoke(app, [*args, "--help"], env={"COLUMNS": str(columns)})
    assert r.exit_code == 0, r.output
    return r.stdout


def _commands() -> list[list[str]]:
    from jmsctl.cli.app import COMMANDS

    return [[name] for name in COMMANDS if name != "spark"] + [["spark", sub] for sub in ("filter", "convert", "profile")]


def test_the_root_and_every_command_help_has_an_example() -> None:
    assert "Example: jmsctl " in _help()
    for command in [*_commands(), ["spark"]]:
        assert "Example: jmsctl " + command[0] in _help(*command), command


@pytest.mark.parametrize("command", _commands(), ids=" ".join)
def test_help_shows_no_click_placeholders(command: list[str]) -> None:
    text = _help(*command)
    for placeholder in ("<int range>", "<float range>", "<str>", "<text>", "[x>=", "[x>", "(16M)", "[default: ("):
        assert placeholder not in text, (command, placeholder)


def test_a_range_is_still_enforced_and_named_in_the_error() -> None:
    r = jmsctl("filter", "--max-count", "-1", "x = 1", SMALL)
    assert r.returncode == 2 and "-1 is not in the range x>=0" in r.stderr


def test_the_root_help_lines_are_whole_at_any_width() -> None:
    for columns in (80, 200):
        listed = [line for line in _help(columns=columns).splitlines() if line.startswith("│ ") and "…" in line]
        assert listed == [], listed


def test_a_message_that_quotes_a_multi_line_selector_stays_one_line(tmp_path: Path) -> None:
    (tmp_path / "app.yml").write_text("consumer:\n  selector: |\n    color%3D%27blue%27\n    AND x%3D1\n")
    r = run("scan", str(tmp_path))
    head = r.stdout.splitlines()[0]
    assert head.startswith("error[E017]") and head.endswith("color='blue'\\nAND x=1")
    assert r.stdout.splitlines()[1].startswith(" --> ")  # no bare continuation line between them
    concise = run("scan", str(tmp_path), "--format", "concise").stdout.splitlines()
    assert len(concise) == 1 and concise[0].endswith("\\nAND x=1")


# ----- item 20: the README's --types example ----------------------------------------------------------


def test_the_readme_types_example_types_every_property_of_the_browse_sample() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if "samples/orders-browse.txt --types" in line)
    r = run(*shlex.split(line.split("#")[0])[1:])
    assert r.exit_code == 0 and r.stderr == "", r.stderr


# ----- item 21: the figures' commands are ones a reader can run --------------------------------------

_BENCH_COMMAND = re.compile(r"python bench/(\w+\.py)((?: +--?[\w-]+(?: +[\w./=-]+)?)*)")


@pytest.mark.parametrize("doc", ["README.md", "bench/README.md"])
def test_performance_figures_cite_commands_a_reader_has(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    for tool in ("farm-bench", "/work/", "../shared"):  # this machine's own tools and paths
        assert tool not in text, f"{doc} cites {tool}"
    cited = _BENCH_COMMAND.findall(text)
    assert cited, doc
    for script, options in cited:
        source = (ROOT / "bench" / script).read_text(encoding="utf-8")
        for option in re.findall(r"--[\w-]+", options):
            assert f'"{option}"' in source, f"{doc}: python bench/{script} has no {option}"


# ----- item 19: the cited documents, wherever jmsctl is installed ------------------------------------


def test_a_diagnostic_cites_a_command_that_prints_its_rule() -> None:
    r = run("check", "x LIKE 7")
    rule = next(line for line in r.stdout.splitlines() if "= rule:" in line)
    assert rule.endswith("= rule: jmsctl docs SEMANTICS#like")
    shown = run(*rule.split("= rule: jmsctl ")[1].split())
    assert shown.exit_code == 0 and shown.stdout.startswith("### LIKE\n") and "ESCAPE" in shown.stdout
    assert "### IS NULL" not in shown.stdout  # that section only


def test_docs_lists_the_documents_and_prints_any_cited_form() -> None:
    listing = run("docs")
    assert listing.exit_code == 0
    for name in ("SEMANTICS", "FORMAT", "dialects", "artemis-xml"):
        assert f"  {name} " in listing.stdout
    whole = (ROOT / "docs" / "FORMAT.md").read_text(encoding="utf-8")
    for form in ("FORMAT", "FORMAT.md", "docs/FORMAT.md", "format"):
        assert run("docs", form).stdout == whole
    assert run("docs", "docs/SEMANTICS.md#in").stdout.startswith("### IN\n")
    assert run("docs", "nope").exit_code == 2 and run("docs", "SEMANTICS#nope").exit_code == 2


def test_the_package_carries_the_documents() -> None:
    """What the wheel ships (pyproject's package-data, through the jmsctl/docs link) is every document."""
    import tomllib

    import jmsctl

    packaged = Path(jmsctl.__file__).parent / "docs"
    assert sorted(p.name for p in packaged.glob("*.md")) == sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["jmsctl"]
    assert "docs/*.md" in data


def test_browse_where_goes_through_the_same_warning_path(capsys: pytest.CaptureFixture[str]) -> None:
    """browse needs a broker to run whole (tests/test_brokers_live.py); its --where is compiled here."""
    from jmsctl.cli.commands import broker

    broker._compiled("color = red", "jakarta", "--where", quiet=False)
    assert capsys.readouterr().err.count("warning[W016]") == 1
    broker._compiled("color = red", "jakarta", "--where", quiet=True)
    assert capsys.readouterr().err == ""


def test_explain_shows_the_warnings_in_its_own_output() -> None:
    text = run("explain", "color = red")
    assert "warning[W016]" in text.stdout
    doc = run("explain", "color = red", "--format", "json")
    assert '"W016"' in doc.stdout


@pytest.mark.parametrize("selector", ["-1 < x", "-x = 'a'"])
def test_the_dash_hint_shows_a_command_that_runs(selector: str) -> None:
    r = jmsctl("check", selector)
    assert r.returncode == 2
    example = r.stderr.split("with the options before it: ", 1)[1].rsplit("); see", 1)[0]
    runs = jmsctl(*shlex.split(example.replace(" [OPTIONS]", ""))[1:])
    assert runs.returncode == 0 and "1 valid" in runs.stdout, runs.stderr

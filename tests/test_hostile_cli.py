"""The check, explain and test commands as a pipeline meets them: a reader that goes away
(``| head -1``), Ctrl-C, bytes that are not UTF-8, closed descriptors, malformed files. Each ends with
a clear message and an honest exit status, never a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jmsctl.cli.app import app
from jmsctl.selector.limits import MAX_DEPTH

ROOT = Path(__file__).parent.parent
SIGPIPE_STATUS = 128 + int(getattr(signal, "SIGPIPE", 13))
runner = CliRunner()


def jmsctl(*args: str) -> list[str]:
    return [sys.executable, "-m", "jmsctl", *args]


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    out["PYTHONPATH"] = str(ROOT) + os.pathsep + out.get("PYTHONPATH", "")
    out.update(extra)
    return out



def _first_line_then_close(args: list[str]) -> tuple[int, str]:
    """Run jmsctl, read one line of its output and close the pipe (as ``| head -1`` does): its
    exit status and everything it wrote on stderr."""
    p = subprocess.Popen(jmsctl(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env())
    assert p.stdout is not None and p.stderr is not None
    assert p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    return p.wait(timeout=120), err

def _default_sigint() -> None:  # pragma: no cover - runs in the child
    # A child inherits an ignored SIGINT (a background CI job); Python only handles it when it is default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="module")
def big_selectors(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """50,000 selectors, valid and invalid: far more output than a pipe buffer holds."""
    path = tmp_path_factory.mktemp("hostile") / "selectors.txt"
    path.write_text("".join(f"x{i} = 'a' AND y != {i}\nz{i} BETWEEN 1 AND {i}\n" for i in range(25_000)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def big_cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "cases.jsonl"
    case = {"id": "c", "selector": "x = 1", "message": {"properties": {"x": 2}}, "expect": "match"}
    path.write_text("".join(json.dumps({**case, "id": f"c{i}"}) + "\n" for i in range(20_000)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def message(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "m.ndjson"
    path.write_text('{"properties": {"x": 9999}}\n', encoding="utf-8")
    return path


CHAIN = " OR ".join(f"x = {i}" for i in range(5_000))  # explain prints some 15,000 lines for it


def _commands(big_selectors: Path, big_cases: Path, message: Path) -> dict[str, list[str]]:
    return {
        "check full": ["check", "-f", str(big_selectors)],
        "check json": ["check", "--format", "json", "-f", str(big_selectors)],
        "explain text": ["explain", CHAIN, "--message", str(message)],
        "test": ["test", str(big_cases)],
    }


NAMES = ["check full", "check json", "explain text", "test"]


@pytest.mark.parametrize("name", NAMES)
def test_a_reader_that_goes_away_ends_it_quietly(name: str, big_selectors: Path, big_cases: Path, message: Path) -> None:
    """``jmsctl ... | head -1``: no BrokenPipeError trace, and the status a SIGPIPE gives (as filter and show)."""
    status, err = _first_line_then_close(_commands(big_selectors, big_cases, message)[name])
    assert status == SIGPIPE_STATUS, err
    assert err == ""


def test_check_into_head_through_a_shell_prints_no_traceback(big_selectors: Path) -> None:
    """The issue's own words: ``python -m jmsctl check -f BIGFILE | head -1``."""
    command = f"{sys.executable} -m jmsctl check -f {big_selectors} | head -1"
    r = subprocess.run(["sh", "-c", command], capture_output=True, text=True, env=env(), timeout=120)
    assert r.stdout.startswith("error[E006]") and r.stdout.count("\n") == 1
    assert r.stderr == ""


@pytest.mark.parametrize("name", ["check full", "explain text", "test"])
def test_ctrl_c_while_writing_exits_130_without_a_trace(name: str, big_selectors: Path, big_cases: Path, message: Path) -> None:
    args = _commands(big_selectors, big_cases, message)[name]
    if name == "test":
        args = [*args, "--verbose"]  # a line per case
    p = subprocess.Popen(jmsctl(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(), preexec_fn=_default_sigint)
    assert p.stdout is not None
    assert p.stdout.readline()  # working, and soon blocked on the full pipe
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err.decode()
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err


@pytest.mark.parametrize("args", [["check", "--format", "json", "-"], ["explain", "x = 1", "--message", "/dev/stdin"]], ids=" ".join)
def test_ctrl_c_while_reading_exits_130_without_a_trace(args: list[str]) -> None:
    p = subprocess.Popen(jmsctl(*args), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(),
                         preexec_fn=_default_sigint)
    assert p.stdin is not None
    p.stdin.write(b'{"properties": ' if args[0] == "explain" else b"x = 1\n")
    p.stdin.flush()
    time.sleep(1.0)  # started, and waiting for the rest of stdin
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err.decode()
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err


# ----- bytes that are not UTF-8 ---------------------------------------------------------------

STRICT = {"PYTHONIOENCODING": "utf-8:strict"}  # what a UTF-8 locale gives (C.UTF-8 would be lenient)


@pytest.mark.parametrize("fmt", ["full", "json"])
def test_an_argument_that_is_not_utf8_is_diagnosed(fmt: str) -> None:
    r = subprocess.run(jmsctl("check", "--format", fmt, os.fsdecode(b"x = \xff")), capture_output=True, env=env(**STRICT), timeout=60)
    assert r.returncode == 1, r.stderr.decode()
    assert r.stderr == b""
    assert b"U+DCFF" in r.stdout
    if fmt == "json":
        doc = json.loads(r.stdout)
        assert doc["selectors"][0]["selector"] == "x = \udcff"  # written as the JSON escape \udcff
        assert doc["selectors"][0]["diagnostics"][0]["code"] == "E001"


def test_a_string_literal_that_is_not_utf8_is_explained() -> None:
    for fmt in ("text", "json"):
        r = subprocess.run(jmsctl("explain", os.fsdecode(b"x = '\xff'"), "--format", fmt), capture_output=True, env=env(**STRICT), timeout=60)
        assert r.returncode == 0 and r.stderr == b"", r.stderr.decode()
        assert b"\xff" in r.stdout or b"\\udcff" in r.stdout


def test_stdin_that_is_not_utf8_is_an_input_error() -> None:
    r = subprocess.run(jmsctl("check", "-"), input=b"x = 1\nx = \xff\n", capture_output=True, env=env(**STRICT), timeout=60)
    assert r.returncode == 2
    assert r.stderr.decode().strip() == "jmsctl: error: <stdin>: not UTF-8 text"


def test_closed_descriptors() -> None:
    r = subprocess.run(jmsctl("check", "-"), stdin=subprocess.DEVNULL, capture_output=True, env=env(), timeout=60)
    assert r.returncode == 2 and r.stderr == b"jmsctl: error: <stdin>: no selectors to check (empty input)\n"
    closed_stdin = subprocess.run(jmsctl("check", "-"), capture_output=True, env=env(), timeout=60, preexec_fn=lambda: os.close(0))
    assert closed_stdin.returncode == 2 and b"Traceback" not in closed_stdin.stderr
    closed_stdout = subprocess.run(jmsctl("check", "x = 1"), stderr=subprocess.PIPE, env=env(), timeout=60, preexec_fn=lambda: os.close(1))
    assert closed_stdout.returncode == 0 and b"Traceback" not in closed_stdout.stderr


# ----- malformed files and deep selectors, in process -----------------------------------------


def test_malformed_test_cases_fail_with_a_reason(tmp_path: Path) -> None:
    f = tmp_path / "cases.jsonl"
    f.write_bytes(b'{"id": "a", "selector": "x = 1", "expect": "valid", "warnings": 5}\n'
                  b'{"id": "b", "selector": "x = 1", "expect": "valid", "warnings": [1, "W001"]}\n'
                  b'{"id": "c", "selector": "x = 1", "expect": "match", "message": [1]}\n'
                  b'[1, 2]\n\xff\xfe\n{"id": "d", "selector": "x = 1", "expect": "valid"}\n')
    r = runner.invoke(app, ["test", str(f)])
    assert r.exit_code == 2, r.output  # malformed cases are bad input, not failing selectors
    assert "1 passed, 0 failed, 5 invalid" in r.stdout
    assert f"jmsctl: error: {f}:1: invalid test case 'a': the case could not be run: TypeError" in r.stderr
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_directories_and_missing_files_are_input_errors(tmp_path: Path) -> None:
    for args in (["check", "-f", str(tmp_path)], ["test", str(tmp_path)], ["test", str(tmp_path / "missing.jsonl")],
                 ["explain", "x = 1", "--message", str(tmp_path)]):
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit)


def test_explain_json_of_a_selector_nested_to_the_limit() -> None:
    """Deeper than orjson's 254 levels of JSON nesting: the standard library writes it instead."""
    depth = MAX_DEPTH - 3
    text = "NOT (" * depth + "x = 1" + ")" * depth
    r = runner.invoke(app, ["explain", text, "--format", "json"])
    assert r.exit_code == 0, r.output
    node, levels = json.loads(r.output)["tree"], 0
    while "children" in node:
        node, levels = node["children"][0], levels + 1
    assert levels == depth + 1
    r = runner.invoke(app, ["explain", "NOT (" * MAX_DEPTH + "x = 1" + ")" * MAX_DEPTH])
    assert r.exit_code == 1 and "E120" in r.output and f"{MAX_DEPTH}" in r.output


def test_check_reports_at_most_the_diagnostics_limit_per_selector() -> None:
    text = "x IN (" + ", ".join(str(i) for i in range(50_000)) + ")"
    start = time.process_time()
    r = runner.invoke(app, ["check", "--format", "json", text])
    assert time.process_time() - start < 30
    doc = json.loads(r.output)
    codes = [d["code"] for d in doc["selectors"][0]["diagnostics"]]
    assert codes[-1] == "W013" and len(codes) == 101
    assert doc["selectors"][0]["diagnostics"][-2]["column"] == text.index(", 99,") + 3  # the 100th item


# ----- Ctrl-C while starting, and filter's --output ----------------------------------------------

_SIGINT_WHILE_IMPORTING = (
    "import os, signal, sys\n"
    "module = sys.argv.pop(1)\n"
    "class Hook:\n"
    "    def find_spec(self, name, path, target=None):\n"
    "        if name == module:  # half way through loading the command line\n"
    "            os.kill(os.getpid(), signal.SIGINT)\n"
    "        return None\n"
    "sys.meta_path.insert(0, Hook())\n"
    "from jmsctl.cli.app import main\n"
    "main()\n"
)


@pytest.mark.parametrize("module", ["typer", "jmsctl.cli.commands.check"])  # imported by jmsctl.cli.app; when check runs
def test_ctrl_c_while_starting_exits_130_without_a_trace(module: str) -> None:
    p = subprocess.run([sys.executable, "-c", _SIGINT_WHILE_IMPORTING, module, "check", "x = 1"], capture_output=True, env=env(),
                       preexec_fn=_default_sigint, timeout=60)
    assert p.returncode == 130, p.stderr.decode()
    assert p.stderr == b"\n" and p.stdout == b""


def test_ctrl_c_after_starting_is_keyboard_interrupt_again() -> None:
    """Once loaded, Ctrl-C is KeyboardInterrupt (main's handler cleans up, e.g. filter's temp file)."""
    code = "import signal\nimport jmsctl.cli.app\nprint(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env(), preexec_fn=_default_sigint, timeout=60)
    assert r.stdout == b"True\n", r.stderr.decode()


def test_filter_interrupted_leaves_no_output_file(tmp_path: Path) -> None:
    """Ctrl-C while filter waits for more of stdin: 130, no trace, neither FILE nor its temp file."""
    out = tmp_path / "selected.ndjson"
    p = subprocess.Popen(jmsctl("filter", "x = 1", "-", "--output", str(out)), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env(), preexec_fn=_default_sigint)
    assert p.stdin is not None
    p.stdin.write(b'{"properties": {"x": 1}}\n' * 1000)
    p.stdin.flush()
    deadline = time.monotonic() + 30
    while not list(tmp_path.iterdir()) and time.monotonic() < deadline:  # the temp file: it is working
        time.sleep(0.05)
    assert list(tmp_path.iterdir()), "filter never started writing"
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err.decode()
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert list(tmp_path.iterdir()) == []


# ----- diagnostics on a one-line selector of a megabyte ------------------------------------------


def test_full_diagnostics_show_a_window_of_a_long_line(tmp_path: Path) -> None:
    """Each diagnostic shows about a terminal line of the source around its caret, not the whole
    1 MB line (100 diagnostics would have printed 100 MB)."""
    f = tmp_path / "long.txt"
    f.write_text("x = 1 AND " * 50_000 + "y != 2 AND " + "z <> 1 AND " * 50_000 + "w = 1\n", encoding="utf-8")
    r = runner.invoke(app, ["check", "-f", str(f)])
    assert r.exit_code == 1, r.output
    lines = r.stdout.splitlines()
    assert lines[1] == f" --> {f}:1:500003"
    source, carets = lines[3], lines[4]
    assert source.startswith("1 | ...") and source.endswith("...") and len(source) < 140
    assert carets.index("^^") == source.index("!=") and carets.count("^") == 2
    many = tmp_path / "many.txt"
    many.write_text("x = 010 AND " * 100_000 + "w = 1\n", encoding="utf-8")  # W001 (octal) each time
    r = runner.invoke(app, ["check", "-f", str(many)])
    assert r.stdout.count("warning[W001]") == 100 and "warning[W013]" in r.stdout
    assert len(r.stdout) < 100 * 600


@pytest.mark.parametrize("fmt", ["concise", "full", "json"])
def test_validate_into_head_ends_quietly(fmt: str, tmp_path: Path) -> None:
    """Click would exit 1 on the closed pipe: for validate, 'errors found'. It is 141, as SIGPIPE gives."""
    f = tmp_path / "bad.ndjson"
    f.write_bytes(b'{"properties": {"1bad": 1}}\n' * 30_000)
    status, err = _first_line_then_close(["validate", str(f), "--format", fmt])
    assert status == SIGPIPE_STATUS, err
    assert err == ""

"""What a command loads at start (issue 36): the heavy modules (z3, pyspark, JPype, msgspec, lark, rich)
stay out of the import graph of the commands that do not use them, so that ``--version``, a small check,
Tab completion and a filter of a few thousand messages start at once. Not timed (bench/startup_bench.py
times them): each command runs in a process of its own under ``-X importtime``, whose report names every
module the process imported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ORDERS = str(ROOT / "samples" / "orders.ndjson")
HEAVY = {"z3", "pyspark", "jpype", "msgspec", "lark", "rich"}
COMPLETE = {"_JMSCTL_COMPLETE": "complete_bash", "COMP_WORDS": "jmsctl filter --st", "COMP_CWORD": "2"}


def imported(args: list[str], extra: dict[str, str] | None = None) -> tuple[set[str], str]:
    """The modules ``python -m jmsctl ARGS`` imported, and what it printed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(extra or {})}
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "jmsctl", *args], capture_output=True, text=True, env=env,
                       timeout=120, cwd=ROOT)
    names = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines() if line.startswith("import time:") and "|" in line}
    assert "jmsctl.cli.entry" in names, r.stderr[-2000:]
    return names, r.stdout


def tops(names: set[str]) -> set[str]:
    return {name.split(".")[0] for name in names}


# command, environment, heavy modules it may load, jmsctl modules it must not load
CASES = [
    (["--version"], None, set(), {"jmsctl.selector", "jmsctl.messages", "jmsctl.cli.options", "typer", "jmsctl.cli.app"}),
    (["check", "a = 1"], None, set(), {"jmsctl.messages.loader", "jmsctl.analysis.solver", "jmsctl.filter"}),
    (["check", "a = = 1"], None, {"rich"}, {"jmsctl.messages.loader", "jmsctl.analysis.solver"}),
    ([], COMPLETE, set(), {"jmsctl.selector", "jmsctl.filter", "jmsctl.messages.loader", "jmsctl.cli.commands.filter_run", "typer",
                           "jmsctl.cli.app"}),  # answered by jmsctl.cli.entry from its table
    (["filter", "JMSType = 'car'", ORDERS, "--count"], None, {"msgspec"}, {"jmsctl.analysis", "jmsctl.spark", "jmsctl.brokers",
                                                                            "jmsctl.messages.formats.artemis_xml_scan"}),
    (["show", ORDERS, "--index", "0"], None, {"rich", "msgspec"}, {"jmsctl.analysis.solver", "jmsctl.spark"}),
]


@pytest.mark.parametrize(("args", "extra", "allowed", "absent"), CASES, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_heavy_modules_stay_out_of_commands_that_do_not_use_them(args: list[str], extra: dict[str, str] | None, allowed: set[str],
                                                                  absent: set[str]) -> None:
    names, out = imported(args, extra)
    assert out, "the command printed nothing: it did not run"
    assert tops(names) & HEAVY <= allowed, sorted(tops(names) & HEAVY - allowed)
    loaded = sorted(name for name in names if any(name == a or name.startswith(a + ".") for a in absent))
    assert loaded == []


def test_completion_still_answers_with_the_option() -> None:
    _, out = imported([], COMPLETE)
    assert out.split() == ["--stats"]


def test_the_check_summary_without_rich_is_what_rich_printed() -> None:
    """``1 selector checked...`` written without rich on a pipe; with a diagnostic printed, rich prints it."""
    _, out = imported(["check", "a = 1", "b = 2"])
    assert out == "2 selectors checked: 2 valid, 0 invalid, 0 warnings\n"
    _, out = imported(["check", "a = 1", "b = = 2"])
    assert out.endswith("\n2 selectors checked: 1 valid, 1 invalid, 0 warnings\n") and "error[E002]" in out


def test_the_record_size_limit_of_the_options_is_the_loaders() -> None:
    from jmsctl.cli.options import MAX_RECORD_SIZE as OPTIONS
    from jmsctl.messages.records import MAX_RECORD_SIZE

    assert OPTIONS == MAX_RECORD_SIZE


# ----- answered before typer loads (jmsctl.cli.entry) ----------------------------------------------


def typer_answer(words: str, cword: int) -> str:
    """What typer itself writes for a bash completion request (in-process, through jmsctl.cli.app)."""
    import contextlib
    import io

    from jmsctl.cli.app import app

    env = {"_JMSCTL_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env.items():
            mp.setenv(k, v)
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            app(prog_name="jmsctl", args=[])
    return out.getvalue()


def test_the_completion_table_is_typers() -> None:
    """Every row is current (else: python -m jmsctl.cli.completion_table), and the entry's answer for
    option names is typer's, byte for byte, for every command and prefix; what it does not answer
    (an option given before, "--opt=", a group, no prefix) is left to typer."""
    from jmsctl.cli import completion_table
    from jmsctl.cli.entry import at_once

    assert completion_table.build() == completion_table.TABLE, "the table is stale: python -m jmsctl.cli.completion_table"
    assert {"check", "filter"} <= set(completion_table.TABLE)
    for command, (_, names) in completion_table.TABLE.items():
        assert completion_table.options(command) == names
        prefixes = {"-", "--", "--zz", *(name[:k] for name in names for k in (2, 3, len(name)))}
        for prefix in sorted(prefixes):
            for before in ([], ["'a = 1'", "x.ndjson"]):
                words = " ".join(["jmsctl", command, *before, prefix])
                env = {"_JMSCTL_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(2 + len(before))}
                got = at_once([], env)
                assert got is not None, words
                assert got == typer_answer(words, 2 + len(before)), words
    left = ["jmsctl filter --count --st", "jmsctl filter --max-count=", "jmsctl spark -", "jmsctl browse -", "jmsctl filter st",
            "jmsctl filter", "jmsctl nosuch -", "jmsctl filter 'a = --x", "jmsctl filter -- --st"]
    for words in left:
        env = {"_JMSCTL_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
        assert at_once([], env) is None, words
    assert at_once(["--version"], {}) is not None and at_once(["--version", "x"], {}) is None
    assert at_once(["--version"], {"_JMSCTL_COMPLETE": "complete_zsh"}) is None


def test_a_stale_row_is_left_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    from jmsctl.cli import completion_table
    from jmsctl.cli.entry import at_once

    crc, names = completion_table.TABLE["filter"]
    monkeypatch.setitem(completion_table.TABLE, "filter", (crc ^ 1, names))
    assert completion_table.options("filter") is None
    assert at_once([], {"_JMSCTL_COMPLETE": "complete_bash", "COMP_WORDS": "jmsctl filter --st", "COMP_CWORD": "2"}) is None


def test_version_at_once_is_typers() -> None:
    _, out = imported(["--version"])
    r = subprocess.run([sys.executable, "-c", "from jmsctl.cli.app import main; main()", "--version"], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert out == r.stdout and r.returncode == 0 and out.startswith("jmsctl ")

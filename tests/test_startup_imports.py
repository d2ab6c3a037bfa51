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
    assert "jmsctl.cli.app" in names, r.stderr[-2000:]
    return names, r.stdout


def tops(names: set[str]) -> set[str]:
    return {name.split(".")[0] for name in names}


# command, environment, heavy modules it may load, jmsctl modules it must not load
CASES = [
    (["--version"], None, set(), {"jmsctl.selector", "jmsctl.messages", "jmsctl.cli.options"}),
    (["check", "a = 1"], None, set(), {"jmsctl.messages.loader", "jmsctl.analysis.solver", "jmsctl.filter"}),
    (["check", "a = = 1"], None, {"rich"}, {"jmsctl.messages.loader", "jmsctl.analysis.solver"}),
    ([], COMPLETE, set(), {"jmsctl.selector", "jmsctl.filter", "jmsctl.messages.loader", "jmsctl.cli.commands.filter_run"}),
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

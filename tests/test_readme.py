"""Every command example in README.md runs as written from the repo root and exits as it says.

Examples are the lines of ```sh (or bash, console, unlabelled) code blocks that run jmsctl (``jmsctl
...``, ``$ jmsctl ...``, or a pipe into jmsctl; ``\\`` continues a line). The expected exit status is
0 unless the line's comment says ``exit N``. They run with bash, in order, in a scratch directory
that mirrors the repo root (a link to each top-level entry), so that what they write (``> cars.ndjson``,
``--output cars/``) lands there. Skipped: installing (``pip install``), cluster-only lines (hdfs://,
s3a://, spark://, k8s://, yarn), and ``jmsctl spark`` lines unless JMSCTL_README_SPARK=1 (each starts
a JVM; tests/test_spark*.py cover Spark).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
_BLOCK = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
_RUNS_JMSCTL = re.compile(r"^(?:\$ )?(?:[A-Z_]+=\S+ )*jmsctl |\| *jmsctl ")
_EXIT = re.compile(r"#.*\bexit (\d+)")
_BROKER = re.compile(r"jmsctl (?:browse|send|watch|move|copy|purge) ")
_CLUSTER = re.compile(r"hdfs:|s3a:|spark://|k8s://|--master yarn")


def examples(text: str) -> list[tuple[int, str, int]]:
    """(README line, command, expected exit status) for every example, in order."""
    out: list[tuple[int, str, int]] = []
    for block in _BLOCK.finditer(text):
        if block.group(1) not in ("", "sh", "bash", "console", "shell"):
            continue
        first = text.count("\n", 0, block.start(2)) + 1
        lines = block.group(2).splitlines()
        i = 0
        while i < len(lines):
            start, line = i, lines[i]
            while line.endswith("\\") and i + 1 < len(lines):
                i += 1
                line = line[:-1] + " " + lines[i].strip()
            i += 1
            if not _RUNS_JMSCTL.search(line):
                continue
            m = _EXIT.search(line)
            out.append((first + start, line.removeprefix("$ "), int(m.group(1)) if m else 0))
    return out


ALL = examples(README.read_text(encoding="utf-8"))


def _skip_reason(command: str) -> str | None:
    if "pip install" in command:
        return "installs jmsctl"
    if _CLUSTER.search(command):
        return "needs a cluster"
    if _BROKER.search(command):
        return "needs a broker (tests/test_brokers_live.py, tests/test_actions_live.py run these against one)"
    if "jmsctl spark" in command and not os.environ.get("JMSCTL_README_SPARK"):
        return "starts Spark (JMSCTL_README_SPARK=1 runs it)"
    if command.startswith("git ") and not (ROOT / ".git").exists():
        return "needs a git checkout"
    return None


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The repo root mirrored by links (reads see the repo, writes stay here), and a jmsctl on the PATH."""
    base = tmp_path_factory.mktemp("readme")
    work = base / "root"
    work.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".venv", ".venv-ci", ".pytest_cache", ".mypy_cache", ".ruff_cache"):
            (work / entry.name).symlink_to(entry)
    (base / "bin").mkdir()
    launcher = base / "bin" / "jmsctl"
    launcher.write_text(f'#!/bin/sh\nexec {sys.executable} -m jmsctl "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    env = {**os.environ, "PATH": f"{base / 'bin'}:{os.environ['PATH']}", "PYTHONPATH": str(ROOT), "HOME": str(base), "NO_COLOR": "1"}
    return work, env


def test_the_readme_has_examples_of_every_command() -> None:
    from jmsctl.cli.app import COMMANDS

    shown = " ".join(command for _, command, _ in ALL)
    for name in COMMANDS:
        assert f"jmsctl {name}" in shown, f"no example of jmsctl {name} in README.md"


def test_the_commands_section_shows_the_help_of_every_command() -> None:
    from jmsctl.cli.app import COMMANDS

    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Commands") :]
    shown = section[section.index("```text") : section.index("```", section.index("```text") + 7)]
    assert "Usage: jmsctl [OPTIONS] COMMAND [ARGS]..." in shown
    assert max(len(line) for line in shown.splitlines()) <= 80
    for name in COMMANDS:
        assert f"│ {name} " in shown, f"jmsctl --help in README.md does not list {name}: paste the new jmsctl --help"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(("line", "command", "status"), ALL, ids=[f"README:{n}" for n, _, _ in ALL])
def test_readme_example_runs(line: int, command: str, status: int, scratch: tuple[Path, dict[str, str]]) -> None:
    reason = _skip_reason(command)
    if reason:
        pytest.skip(reason)
    work, env = scratch
    r = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == status, f"README.md:{line}: {command}\nexit {r.returncode}, expected {status}\n{r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr

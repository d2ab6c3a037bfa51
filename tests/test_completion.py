"""Shell completion (issue 17, item 11): ``jmsctl --install-completion`` in a real bash (zsh and fish
where installed; .ci/run installs them), then the installed script asked to complete as the shell would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "samples"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A HOME and a PATH with a ``jmsctl`` on it (as pip install makes one)."""
    base = tmp_path_factory.mktemp("completion")
    (base / "bin").mkdir()
    (base / "home").mkdir()
    launcher = base / "bin" / "jmsctl"
    launcher.write_text(f'#!/bin/sh\nexec {sys.executable} -m jmsctl "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    env = {**os.environ, "HOME": str(base / "home"), "PATH": f"{base / 'bin'}:{os.environ['PATH']}", "PYTHONPATH": str(ROOT)}
    env.pop("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", None)
    return base / "home", env


BASH_ASK = r"""
source ~/.bash_completions/jmsctl.sh
ask() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _jmsctl_completion jmsctl; echo "${COMPREPLY[*]}"; }
ask jmsctl fil
ask jmsctl filter JMSPri
ask jmsctl get orders.ndjson wei
ask jmsctl show orders.ndjson --where col
ask jmsctl explain JMSXDel
ask jmsctl check --for
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_install_and_complete_commands_headers_and_properties(home: tuple[Path, dict[str, str]]) -> None:
    path, env = home
    r = subprocess.run(["bash", "-c", "jmsctl --install-completion; true"], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (path / ".bash_completions" / "jmsctl.sh").is_file()
    assert "jmsctl.sh" in (path / ".bashrc").read_text()
    r = subprocess.run(["bash", "-c", BASH_ASK], capture_output=True, text=True, env=env, timeout=300, cwd=SAMPLES)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["filter", "JMSPriority", "weight", "color", "JMSXDeliveryCount", "--format"]


def _typer_complete(env: dict[str, str], shell: str, line: str) -> str:
    """What the zsh and fish scripts run (they pass the line in _TYPER_COMPLETE_ARGS)."""
    extra = {"_JMSCTL_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": line}
    if shell == "fish":
        extra["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    r = subprocess.run(["jmsctl"], capture_output=True, text=True, env={**env, **extra}, timeout=120, cwd=SAMPLES)
    return r.stdout


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_install_and_complete(shell: str, home: tuple[Path, dict[str, str]]) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed (.ci/run installs it)")
    path, env = home
    r = subprocess.run([shell, "-c", "jmsctl --install-completion; true"], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    installed = path / (".zfunc/_jmsctl" if shell == "zsh" else ".config/fish/completions/jmsctl.fish")
    assert installed.is_file(), list(path.rglob("*"))
    assert "_JMSCTL_COMPLETE" in installed.read_text()
    got = _typer_complete(env, shell, "jmsctl get orders.ndjson wei")
    assert '"weight"' in got or got.split() == ["weight"], got  # zsh: _arguments '*: :(("weight"))'
    got = _typer_complete(env, shell, "jmsctl filter JMSPri")
    assert '"JMSPriority"' in got or got.split() == ["JMSPriority"], got

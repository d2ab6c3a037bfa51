"""``scan --fix`` / ``scan --diff`` as new users met them (issue 35, items 1-8): a file scan skips
never stops the fixes of the rest, a fix never makes a selector select nothing, a patch is bytes
``git apply`` takes, and ``--format json`` after ``--fix`` records what was applied."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
JAVA = ('import javax.jms.*;\nclass A { void f(Session s, Queue q) throws Exception {\n'
        '  s.createConsumer(q, "a != 1"); } }\n')


def _scan(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "jmsctl", "scan", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True, timeout=60)


# ----- 1: a file scan skips (I002) ---------------------------------------------------------------

def test_fix_and_diff_fix_the_rest_when_an_xml_file_is_not_scanned(tmp_path: Path) -> None:
    (tmp_path / "bad.xml").write_text("<beans><message-selector>b == 2</message-selector>\n")
    (tmp_path / "dtd.xml").write_text('<?xml version="1.0"?>\n<!DOCTYPE b [<!ENTITY e "x">]>\n<b><message-selector>c == 3</message-selector></b>\n')
    (tmp_path / "A.java").write_text(JAVA)
    diff = _scan(tmp_path, "--diff", ".")
    assert diff.returncode == 1, diff.stderr
    assert "Traceback" not in diff.stderr
    assert '+  s.createConsumer(q, "a <> 1"); } }' in diff.stdout
    assert "bad.xml:2:1: not fixed (not scanned: not well-formed XML" in diff.stderr
    assert "dtd.xml:" in diff.stderr and "not fixed (not scanned" in diff.stderr
    done = _scan(tmp_path, "--fix", "--format", "concise", ".")
    assert "Traceback" not in done.stderr, done.stderr
    assert '"a <> 1"' in (tmp_path / "A.java").read_text()
    assert (tmp_path / "bad.xml").read_text() == "<beans><message-selector>b == 2</message-selector>\n"
    assert "I002" in done.stdout  # the report after the fixes still says the file was not scanned

"""scan's memory does not grow with the size of string literals and values that hold no selector
(issue 23): a generated source with a 4 MB or a 50 MB constant is scanned within a few megabytes
of a small file's footprint (a large file is read a block at a time and the text the extractors
read has the data cut out: jmsctl/scan/cuts.py). Measured as the peak RSS of a child process
(``ru_maxrss``), never as time. The Java file of 4 MB took about 900 MB before the first fix (a
backtracking entry per character of the literal), the .properties and XML files as much (a tuple
per character of every value); 50 MB took 124-126 MB before the cuts (the file's bytes and text)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SIZE = 4_000_000
HUGE = 50_000_000
GROWTH_MB = 6  # room for the allocator: 1-2 MB measured on 4 and 50 MB; holding the 4 MB file's bytes and text once would be 8
LIMIT_MB = 100  # issue 23's target for any file of up to 50 MB

_PEAK = """
import sys
from jmsctl.scan import scan_file
result = scan_file(sys.argv[1])
print(0 if result is None else len(result.selectors))
"""
# The scan runs in a grandchild started by a small launcher, whose wait4 gives the scan's own peak:
# a process started from pytest counts in its peak RSS the resident size of what it was forked
# from (kept across exec), which is pytest's, of any size.
_LAUNCH = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
out = proc.stdout.read()
_, status, usage = os.wait4(proc.pid, 0)
print(out.decode().strip(), os.waitstatus_to_exitcode(status), usage.ru_maxrss // 1024)
"""

DATA = object()  # where the data goes in a file


def _write(path: Path, parts: list[object], n: int) -> None:
    """The file written a megabyte at a time: this process never holds the data whole."""
    chunk = ("lorem ipsum, dolor sit amet 0123456789 " * (1_000_000 // 39 + 1))[:1_000_000 - 1_000_000 % 39]
    with open(path, "w", encoding="utf-8") as f:
        for part in parts:
            if part is not DATA:
                f.write(str(part))
                continue
            left = n
            while left > 0:
                f.write(chunk[: min(left, len(chunk))])
                left -= len(chunk)


def _files(tmp: Path, n: int, only: str | None = None) -> dict[str, Path]:
    files: dict[str, list[object]] = {
        "Gen.java": ['import jakarta.jms.*;\nclass Gen {\n  static final String DATA = "', DATA, '";\n'
                     '  void f(Session s, Queue q) throws Exception { s.createConsumer(q, "a = 1"); }\n}\n'],
        "Gen.kt": ['import jakarta.jms.*\nval DATA = """', DATA, '"""\nfun f(s: Session, q: Queue) { s.createConsumer(q, "a = 1") }\n'],
        "app.properties": ["app.jms.selector=a = 1\ndata=", DATA, "\n"],
        "beans.xml": ['<beans><bean><property name="messageSelector" value="a = 1"/></bean>\n<data value="', DATA, '"/>\n<text>',
                      DATA, "</text></beans>\n"],
        "app.yaml": ['app:\n  selector: "a = 1"\n  data: "', DATA, '"\n'],
    }
    out = {}
    for name, parts in files.items():
        if only not in (None, name):
            continue
        out[name] = tmp / name
        _write(out[name], parts, n)
    return out


def _peak(path: Path) -> tuple[int, int]:
    r = subprocess.run([sys.executable, "-c", _LAUNCH, sys.executable, "-c", _PEAK, str(path)], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert r.returncode == 0, r.stderr
    selectors, status, peak = map(int, r.stdout.split())
    assert status == 0, r.stderr
    return selectors, peak


@pytest.mark.parametrize("name", ["Gen.java", "Gen.kt", "app.properties", "beans.xml", "app.yaml"])
def test_a_long_literal_without_a_selector_costs_no_memory_of_its_own(tmp_path: Path, name: str) -> None:
    peaks = []
    for n in (100, SIZE, HUGE // 2 if name == "beans.xml" else HUGE):  # beans.xml holds the data twice: a 50 MB file
        directory = tmp_path / str(n)
        directory.mkdir()
        path = _files(directory, n, only=name)[name]
        selectors, peak = _peak(path)
        path.unlink()
        assert selectors == 1, (name, n)  # the selector beside the data is still found
        peaks.append(peak)
    small, big, huge = peaks
    assert big - small < GROWTH_MB, f"{name}: {big} MB peak with a 4 MB literal against {small} MB with a short one"
    assert huge - small < GROWTH_MB, f"{name}: {huge} MB peak for a 50 MB file against {small} MB with a short literal"
    assert huge < LIMIT_MB


def test_the_cli_reports_the_selector_beside_a_long_literal(tmp_path: Path) -> None:
    path = _files(tmp_path, 200_000)["Gen.java"]
    r = subprocess.run([sys.executable, "-m", "jmsctl", "scan", "--format", "json", str(path)], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [s["selector"] for s in doc["selectors"]] == ["a = 1"]

"""scan's memory does not grow with the size of string literals and values that hold no selector
(issue 23): a generated source with a 4 MB constant is scanned within a few megabytes of a small
file's footprint. Measured as the peak RSS of a child process (``ru_maxrss``), never as time; before
the fix the Java file alone took about 900 MB (a backtracking entry per character of the literal),
the .properties and XML files as much (a tuple per character of every value)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SIZE = 4_000_000
GROWTH_MB = 40  # the file's bytes and text, once each, and room for the allocator: far below the old hundreds

_PEAK = """
import resource, sys
from jmsctl.scan import scan_file
result = scan_file(sys.argv[1])
n = 0 if result is None else len(result.selectors)
print(n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def _data(n: int) -> str:
    return ("lorem ipsum, dolor sit amet 0123456789 " * (n // 39 + 1))[:n]


def _files(tmp: Path, n: int) -> dict[str, Path]:
    data = _data(n)
    files = {
        "Gen.java": 'import jakarta.jms.*;\nclass Gen {\n  static final String DATA = "' + data + '";\n'
                    '  void f(Session s, Queue q) throws Exception { s.createConsumer(q, "a = 1"); }\n}\n',
        "Gen.kt": 'import jakarta.jms.*\nval DATA = """' + data + '"""\nfun f(s: Session, q: Queue) { s.createConsumer(q, "a = 1") }\n',
        "app.properties": "app.jms.selector=a = 1\ndata=" + data + "\n",
        "beans.xml": '<beans><bean><property name="messageSelector" value="a = 1"/></bean>\n<data value="' + data + '"/>\n<text>'
                     + data + "</text></beans>\n",
        "app.yaml": 'app:\n  selector: "a = 1"\n  data: "' + data + '"\n',
    }
    out = {}
    for name, text in files.items():
        path = tmp / name
        path.write_text(text, encoding="utf-8")
        out[name] = path
    return out


def _peak(path: Path) -> tuple[int, int]:
    r = subprocess.run([sys.executable, "-c", _PEAK, str(path)], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert r.returncode == 0, r.stderr
    selectors, peak = map(int, r.stdout.split())
    return selectors, peak


@pytest.mark.parametrize("name", ["Gen.java", "Gen.kt", "app.properties", "beans.xml", "app.yaml"])
def test_a_long_literal_without_a_selector_costs_no_memory_of_its_own(tmp_path: Path, name: str) -> None:
    small_dir, big_dir = tmp_path / "small", tmp_path / "big"
    small_dir.mkdir()
    big_dir.mkdir()
    small_selectors, small = _peak(_files(small_dir, 100)[name])
    big_selectors, big = _peak(_files(big_dir, SIZE)[name])
    assert small_selectors == big_selectors == 1  # the selector beside the data is still found
    assert big - small < GROWTH_MB, f"{name}: {big} MB peak against {small} MB for the same file with a short literal"


def test_the_cli_reports_the_selector_beside_a_long_literal(tmp_path: Path) -> None:
    path = _files(tmp_path, 200_000)["Gen.java"]
    r = subprocess.run([sys.executable, "-m", "jmsctl", "scan", "--format", "json", str(path)], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [s["selector"] for s in doc["selectors"]] == ["a = 1"]

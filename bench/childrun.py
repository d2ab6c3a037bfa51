"""One benchmark child process: wall time, and its own CPU time and peak RSS from ``wait4``.

Used by the benchmarks that compare whole processes (artemis_xml_bench, profile_bench). CPU time,
not wall time, is what holds on a shared, busy machine. A forked child starts with its parent's
resident size, which its ``ru_maxrss`` counts: keep the parent small (generate inputs in a child).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(cmd: list[str], ok: tuple[int, ...] = (0, 1)) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds and peak RSS in MB of this child alone, stdout); the end of its
    stderr is shown when its exit status is not in ``ok``."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env={**os.environ, "PYTHONPATH": str(ROOT)})
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) not in ok:
            err.seek(0)
            sys.stderr.write(err.read().decode(errors="replace")[-2000:])
        out.seek(0)
        return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.read().decode()

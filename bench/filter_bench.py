"""Filter benchmark: msgs/s and peak memory of ``jmsctl filter`` on large NDJSON dumps.

    python bench/filter_bench.py                 # 100,000 and 1,000,000 messages
    python bench/filter_bench.py --sizes 200000  # quicker

For each size it generates a dump (cached in --workdir), then runs, as separate processes:
``cat`` (the I/O floor), an orjson parse-only loop (the Python floor) and ``jmsctl filter --count``
for the javadoc example selector, and prints msgs/s, MB/s and peak RSS, with the ratios to the
parse floor. Peak RSS that stays flat from the small to the large dump is the constant-memory claim.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import orjson

SELECTOR = "JMSType = 'car' AND color = 'blue' AND weight > 2500"
PARSE_ONLY = "import sys, orjson\nn = 0\nfor line in sys.stdin.buffer:\n    orjson.loads(line)\n    n += 1\nprint(n)\n"


def generate(path: Path, n: int, seed: int = 7) -> None:
    """Messages shaped like samples/orders.ndjson: typed properties, absent and wrongly typed values."""
    rnd = random.Random(seed)
    types = ["car", "truck", "bike", "part"]
    colors = ["blue", "red", "green", "black", "white"]
    with path.open("wb") as out:
        for i in range(n):
            props: dict[str, object] = {"color": rnd.choice(colors), "region": rnd.choice(["EU", "US", "UK", "APAC"])}
            r = rnd.random()
            if r < 0.9:
                props["weight"] = rnd.randint(500, 5000)
            elif r < 0.95:
                props["weight"] = {"type": "short", "value": rnd.randint(500, 5000)}
            elif r < 0.97:
                props["weight"] = str(rnd.randint(500, 5000))
            props["total"] = round(rnd.uniform(1, 2000), 2)
            props["JMSXDeliveryCount"] = {"type": "int", "value": rnd.randint(1, 4)}
            msg = {
                "type": "text",
                "headers": {
                    "JMSMessageID": f"ID:bench-{i}",
                    "JMSTimestamp": 1700000000000 + i,
                    "JMSType": rnd.choice(types),
                    "JMSDeliveryMode": "PERSISTENT",
                    "JMSPriority": 4,
                },
                "properties": props,
                "body": f"<order id='{i}'/>",
            }
            out.write(orjson.dumps(msg) + b"\n")


def run(cmd: list[str], stdin_path: Path) -> tuple[float, int, str]:
    """Wall seconds, peak RSS in KiB of exactly this child (os.wait4), and its stdout."""
    with stdin_path.open("rb") as f:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out = b""
        assert proc.stdout is not None
        for chunk in iter(lambda: proc.stdout.read(1 << 20), b""):  # type: ignore[union-attr]
            if len(out) < 4096:
                out += chunk[:4096]
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        err = proc.stderr.read().decode()[:500] if proc.stderr else ""
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {err}")
    return elapsed, usage.ru_maxrss, out.decode(errors="replace").strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--workdir", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "jmsctl-bench")
    args = ap.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    jmsctl = [sys.executable, "-m", "jmsctl"]
    print(f"jmsctl filter benchmark: selector {SELECTOR!r}")
    print(f"{'messages':>10}  {'command':<22} {'seconds':>8} {'msgs/s':>10} {'MB/s':>7} {'peak RSS':>9}  {'vs parse floor':>14}  result")
    for n in sorted(args.sizes):
        path = args.workdir / f"dump-{n}.ndjson"
        if not path.exists():
            generate(path, n)
        mb = path.stat().st_size / 1e6
        rows = [
            ("cat (I/O floor)", ["cat"]),
            ("orjson parse-only", [sys.executable, "-c", PARSE_ONLY]),
            ("jmsctl filter --count", [*jmsctl, "filter", SELECTOR, "-", "--count"]),
        ]
        floor = None
        for label, cmd in rows:
            secs, rss, out = run(cmd, path)
            rate = n / secs
            if label.startswith("orjson"):
                floor = rate
            ratio = f"{rate / floor:.2f}x" if floor else ""
            result = out if len(out) < 20 else f"{len(out)} bytes"
            print(f"{n:>10,}  {label:<22} {secs:>8.2f} {rate:>10,.0f} {mb / secs:>7.1f} {rss / 1024:>7.0f}MB  {ratio:>14}  {result}")
    print("peak RSS is the child's maximum resident set (ru_maxrss); flat across sizes = constant memory")
    return 0


if __name__ == "__main__":
    sys.exit(main())

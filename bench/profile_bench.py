"""Profile benchmark: messages per CPU second and peak memory of ``jmsctl profile`` next to the NDJSON
loader alone, on the same dump.

    python bench/profile_bench.py                     # 1,000,000 messages (about 800 MB of NDJSON)
    python bench/profile_bench.py --messages 100000   # quicker
    python bench/profile_bench.py --messages 20000 --json

It writes an NDJSON dump of ``--messages`` messages (those of samples/orders.ndjson, repeated with
fresh JMSMessageID, JMSTimestamp and orderId, so that some names have a value per message and
others a handful; cached in --workdir) and a tenth of it, then runs, each as a separate process:

- ``ndjson read``: every record through the loader (``read_records``): the floor of any command
  that decodes every message, and the baseline of the ratio;
- ``jmsctl profile --format json`` on the dump, and on its tenth.

For each it prints wall and CPU seconds, messages per CPU second (CPU time, not wall time: the
rates hold on a shared, busy machine) and the peak RSS (``ru_maxrss`` of that child alone), and
the load average before and after. Peak RSS equal on the tenth and on the whole dump is the
constant-memory claim. Exit status 0 always (a report, not a test); the message counts of the
runs must agree or it says so.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from childrun import run  # bench/: the script's own directory is on sys.path

ROOT = Path(__file__).resolve().parent.parent

READ_NDJSON = ("import sys; sys.path.insert(0, sys.argv[2]); from jmsctl.messages.loader import read_records\n"
               "n = bad = 0\nfor r in read_records(sys.argv[1]):\n    n += 1; bad += r.error is not None\nprint(n - bad, bad)\n")
COUNTS = ("import json, sys; d = json.load(sys.stdin); print(d['messages'], d['rejected'])\n")


def generate(path: Path, count: int) -> None:
    """Run in a child process (``--generate``): a forked child starts with its parent's resident
    size, which its ``ru_maxrss`` counts, so the parent stays small."""
    sys.path.insert(0, str(ROOT))
    import orjson

    from jmsctl.messages.encode import message_json
    from jmsctl.messages.loader import read_records
    from jmsctl.values import LONG

    base = [r.message for r in read_records(str(ROOT / "samples" / "orders.ndjson")) if r.message is not None]
    with path.open("wb") as out:
        for n in range(count):
            m = base[n % len(base)]
            headers = {**m.headers, "JMSMessageID": f"ID:bench-{n}", "JMSTimestamp": 1_735_000_000_000 + n * 37}
            properties = {**m.properties, "orderId": (LONG, 4_294_967_296 + n)} if "orderId" in m.properties else m.properties
            doc = message_json(type(m)(headers, properties, m.body_type, m.body, m.null_properties))
            out.write(orjson.dumps(doc) + b"\n")


def _counts(output: str, profiled: bool) -> str:
    if not profiled:
        return output.strip()
    try:
        doc = json.loads(output)
    except ValueError:
        return "no profile"
    return f"{doc['messages']} {doc['rejected']}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=1_000_000, help="messages in the dump (default 1,000,000)")
    ap.add_argument("--workdir", default="/tmp/jmsctl-profile-bench", help="where the generated dumps are kept (reused when present)")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON too")
    ap.add_argument("--generate", nargs=2, metavar=("PATH", "COUNT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.generate:
        generate(Path(args.generate[0]), int(args.generate[1]))
        return
    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    sizes = {"whole": args.messages, "tenth": max(1, args.messages // 10)}
    paths = {k: work / f"orders-{n}.ndjson" for k, n in sizes.items()}
    for kind, path in paths.items():
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            subprocess.run([sys.executable, __file__, "--generate", str(tmp), str(sizes[kind])], check=True)
            tmp.replace(path)
    load_before = os.getloadavg()
    py = sys.executable
    profile = [py, "-m", "jmsctl", "profile", "--format", "json"]
    cases = [
        ("ndjson read (read_records)", "whole", [py, "-c", READ_NDJSON, str(paths["whole"]), str(ROOT)], False),
        ("jmsctl profile --format json", "whole", [*profile, str(paths["whole"])], True),
        ("jmsctl profile, a tenth of the dump", "tenth", [*profile, str(paths["tenth"])], True),
    ]
    print(f"{sizes['whole']:,} messages, {paths['whole'].stat().st_size / 1e6:,.0f} MB of NDJSON; load average {load_before[0]:.2f}")
    print(f"{'what':36} {'wall s':>7} {'CPU s':>7} {'msgs/CPU-s':>10} {'peak RSS MB':>11}  messages, rejected")
    rows = []
    for name, kind, cmd, profiled in cases:
        elapsed, cpu, peak, out = run(cmd, ok=(0,))
        n = sizes[kind]
        row = {"what": name, "messages": n, "wall_s": round(elapsed, 2), "cpu_s": round(cpu, 2), "msgs_per_cpu_s": round(n / cpu),
               "peak_rss_mb": round(peak, 1), "counts": _counts(out, profiled)}
        rows.append(row)
        print(f"{name:36} {elapsed:7.1f} {cpu:7.1f} {row['msgs_per_cpu_s']:10,} {peak:11.1f}  {row['counts']}")
    if rows[0]["counts"] != rows[1]["counts"] or rows[2]["counts"] != f"{sizes['tenth']} 0":
        print("COUNTS DIFFER between the loader and the profile")
    load_after = os.getloadavg()
    print(f"profile / loader: {rows[1]['msgs_per_cpu_s'] / rows[0]['msgs_per_cpu_s']:.2f}x the messages per CPU second; "
          f"peak RSS {rows[2]['peak_rss_mb']:.1f} MB on a tenth, {rows[1]['peak_rss_mb']:.1f} MB on the whole; "
          f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()

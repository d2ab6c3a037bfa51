"""``jmsctl view`` on a big dump: time to the first screen, peak memory, time to the first matches and
to the whole narrowing, next to ``jmsctl filter --count`` on the same file in the same run.

    python bench/view_bench.py                      # 1,000,000 messages (about 890 MB of NDJSON)
    python bench/view_bench.py --messages 100000    # quicker

The dump is samples/orders.ndjson repeated to ``--messages`` lines (cached in --workdir). Each
measurement runs in a fresh child process: the app (headless, through Textual's test driver, which
renders every frame as a terminal would, at 160x50) is started on the file; it records

- ``first screen``: from the start of the process (before jmsctl and textual are imported) to the
  list's first line drawn with a record on it;
- ``indexed``: to the whole index built (the list then holds every record);
- ``first matches``: from the selector set on the selector line to the first TRUE record in the list;
- ``narrowed``: to the whole narrowing done (the counts final);
- peak RSS of the child (``ru_maxrss``) at the end.

Targets (issue 34): first screen <= 2 s, first matches <= 300 ms, memory <= 200 MB. The baseline,
``jmsctl filter SELECTOR FILE --count --stats`` (the fast path alone, classifying every record as the
view does for its counts), is run in the same way; its count must equal the view's TRUE count. CPU
seconds are printed next to wall seconds: on a shared machine they are the figures that hold. Exit status 0 always: a report, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SELECTOR = "JMSType = 'car' AND weight > 2500"

CHILD = r'''
import time
t0 = time.perf_counter()
import asyncio, json, resource, sys
sys.path.insert(0, sys.argv[1])
from jmsctl.cli.commands.view.index import open_dump
from jmsctl.cli.commands.view.app import ViewApp, SelectorInput
from jmsctl.cli.commands.view.rows import MessageList

path, selector = sys.argv[2], sys.argv[3]
out = {}

async def main():
    app = ViewApp(open_dump([path]))
    async with app.run_test(size=(160, 50)) as pilot:
        ml = app.query_one(MessageList)
        while not (len(ml.rows) and ml.render_line(0).text.strip()):
            await asyncio.sleep(0.005)
        out["first_screen_s"] = time.perf_counter() - t0
        out["first_screen_cpu_s"] = time.process_time()
        while not app.dump.complete:
            await asyncio.sleep(0.02)
        await pilot.pause()
        out["indexed_s"] = time.perf_counter() - t0
        out["records"] = len(app.dump.ids())
        t1 = time.perf_counter()
        c1 = time.process_time()
        app.query_one(SelectorInput).value = selector
        while not len(ml.rows) or app.found is None or not len(app.found):
            await asyncio.sleep(0.002)
        out["first_matches_s"] = time.perf_counter() - t1
        while app.narrowing:
            await asyncio.sleep(0.02)
        out["narrowed_s"] = time.perf_counter() - t1
        out["narrowed_cpu_s"] = time.process_time() - c1
        c = app.counts
        out["counts"] = {"read": c.read, "true": c.true, "false": c.false, "unknown": c.unknown, "rejected": c.rejected}
        app.exit()

asyncio.run(main())
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
'''


def generate(path: Path, count: int) -> None:
    lines = (ROOT / "samples" / "orders.ndjson").read_bytes().splitlines(keepends=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        written = 0
        while written < count:
            take = lines[: count - written]
            f.write(b"".join(take))
            written += len(take)
    os.replace(tmp, path)


def child_rss(cmd: list[str]) -> tuple[float, float, str, float]:
    """Wall seconds, peak RSS (MB), stdout and CPU seconds (user + system) of a child."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out = proc.stdout.read() if proc.stdout else ""
    err = proc.stderr.read() if proc.stderr else ""
    if status != 0 and not out:
        sys.stderr.write(err)
    return wall, usage.ru_maxrss / 1024, out, usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--workdir", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "jmsctl-view-bench"))
    ap.add_argument("--selector", default=SELECTOR)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    dump = work / f"orders-{args.messages}.ndjson"
    if not dump.exists():
        generate(dump, args.messages)
    load_before = os.getloadavg()
    _, rss, out, _ = child_rss([sys.executable, "-c", CHILD, str(ROOT), str(dump), args.selector])
    view = json.loads(out) if out.strip() else {}
    view["child_peak_rss_mb"] = rss
    wall, frss, fout, fcpu = child_rss([sys.executable, "-m", "jmsctl", "filter", args.selector, str(dump), "--count", "--stats"])
    load_after = os.getloadavg()
    report = {
        "messages": args.messages, "file_mb": dump.stat().st_size / 1e6, "selector": args.selector, "view": view,
        "filter_count": {"wall_s": wall, "cpu_s": fcpu, "peak_rss_mb": frss, "count": int(fout.split()[0]) if fout.strip() else None},
        "load_before": load_before, "load_after": load_after,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{args.messages:,} messages, {report['file_mb']:.0f} MB, selector {args.selector!r}")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (2 cores: figures above 2 are shared)")
    if not view.get("counts"):
        print("view: no result (see stderr)")
        return
    rows = [
        ("first screen", f"{view['first_screen_s']:.2f} s", f"target <= 2 s; CPU {view['first_screen_cpu_s']:.2f} s (the process, index thread included)"),
        ("indexed", f"{view['indexed_s']:.2f} s", f"{view['records']:,} records"),
        ("first matches", f"{view['first_matches_s'] * 1000:.0f} ms", "target <= 300 ms"),
        ("narrowed", f"{view['narrowed_s']:.2f} s", f"CPU {view['narrowed_cpu_s']:.2f} s; filter --stats --count (the same exact path): {wall:.2f} s, CPU {fcpu:.2f} s"),
        ("peak memory", f"{view['child_peak_rss_mb']:.0f} MB", f"target <= 200 MB; filter --count: {frss:.0f} MB"),
    ]
    for name, value, note in rows:
        print(f"  {name:<14}{value:>10}   {note}")
    c = view["counts"]
    agree = report["filter_count"]["count"] == c["true"]
    print(f"  counts        TRUE {c['true']:,} FALSE {c['false']:,} UNKNOWN {c['unknown']:,} rejected {c['rejected']:,} read {c['read']:,}"
          f"   filter --count {report['filter_count']['count']:,}: {'agree' if agree else 'DISAGREE'}")


if __name__ == "__main__":
    main()

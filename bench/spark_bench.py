"""Spark benchmark: the native selector Column against the same selector as Python UDFs.

    python bench/spark_bench.py                      # 1,000,000 messages, local[*]
    python bench/spark_bench.py --messages 200000    # quicker

One run, one dump (bench/filter_bench.py's generator, cached in --workdir), converted once to
parquet with ``jmsctl spark convert``'s job. Every measurement counts the messages the selector
selects, and all must give the same count (the run stops otherwise). Printed:

1. parquet: the native Column (``jmsctl.spark.compiler``) vs the local evaluator as a plain Python
   UDF and as an Arrow batch function (``mapInArrow``), with the ratios (target: native >= 10x);
2. NDJSON: the same three after the NDJSON ingest, ``spark filter``'s default NDJSON path (the
   local evaluator inside the decoding step), Spark's own JSON reader (a throughput reference
   only: it is lossy, so its count is not compared), and ``jmsctl filter --count`` in one process;
3. ``local[1]`` vs ``local[2]``: the NDJSON default path and the parquet native path, each in a
   fresh process (times exclude JVM start-up).

Each time is the best of --repeat runs (default 2) after one warm-up on a small slice.

``--end-to-end`` measures what a user waits for instead, start-up included: ``jmsctl spark filter SEL
--count --master local[2]`` on NDJSON and on its parquet (written once by ``jmsctl spark convert``,
not timed), against ``jmsctl filter SEL --count --jobs 2``, each a fresh command, on the first
``--sizes`` messages of one dump of bench/shapes_bench.py's shape; it prints the wall and CPU times
and the dump size at which Spark breaks even (the straight lines through the smallest and the
largest size cross):

    python bench/spark_bench.py --end-to-end                                  # 10 k, 100 k, 1 M messages
    python bench/spark_bench.py --end-to-end --sizes 10000 100000 --repeat 1  # quicker
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

SELECTOR = "JMSType = 'car' AND color = 'blue' AND weight > 2500"


def best(repeat: int, fn: Callable[[], int]) -> tuple[float, int]:
    times, result = [], -1
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


# ----- the measured functions (module level: Spark pickles them for its Python workers) ------

def _udf_eval(selector: str) -> Callable[[Any], bool]:
    from jmsctl import selector as sel
    from jmsctl.spark.schema import selector_values

    compiled = sel.compile(selector)

    def matches(row):  # no annotations: pyspark would read them as a pandas UDF's
        return compiled.evaluate(selector_values(row)) is True

    return matches


def _arrow_count(batches: Iterator[Any], selector: str) -> Iterator[Any]:
    import pyarrow as pa

    from jmsctl import selector as sel
    from jmsctl.spark.schema import selector_values

    evaluate = sel.compile(selector).evaluate
    for batch in batches:
        n = sum(1 for row in batch.to_pylist() if evaluate(selector_values(row)) is True)
        yield pa.RecordBatch.from_pydict({"n": [n]}, schema=pa.schema([("n", pa.int64())]))


class Frames:
    """The three ways to evaluate the selector on a layout DataFrame, each returning the count."""

    def __init__(self, selector: str) -> None:
        from pyspark.sql import functions as F

        from jmsctl import selector as sel
        from jmsctl.spark.compiler import compile_column
        from jmsctl.spark.schema import SELECTOR_HEADERS

        self.selector = selector
        self.column = compile_column(sel.analyze(selector).ast)
        self.inputs = F.struct(*SELECTOR_HEADERS, "properties")
        self.udf = F.udf(_udf_eval(selector), "boolean")

    def native(self, df: Any) -> int:
        from pyspark.sql import functions as F

        return int(df.where(F.col("error").isNull() & self.column).count())

    def python_udf(self, df: Any) -> int:
        from pyspark.sql import functions as F

        return int(df.where(F.col("error").isNull()).where(self.udf(self.inputs)).count())

    def arrow(self, df: Any) -> int:
        from functools import partial

        from pyspark.sql import functions as F

        from jmsctl.spark.schema import SELECTOR_HEADERS

        counts = df.where(F.col("error").isNull()).select(*SELECTOR_HEADERS, "properties").mapInArrow(
            partial(_arrow_count, selector=self.selector), "n long"
        )
        return int(counts.agg(F.sum("n")).collect()[0][0] or 0)


# ----- the run -------------------------------------------------------------------------------

def prepare(workdir: Path, messages: int) -> tuple[Path, Path]:
    from filter_bench import generate

    workdir.mkdir(parents=True, exist_ok=True)
    dump = workdir / f"dump-{messages}.ndjson"
    if not dump.exists():
        print(f"generating {dump} ...", flush=True)
        tmp = dump.with_suffix(".tmp")
        generate(tmp, messages)
        tmp.rename(dump)
    return dump, workdir / f"dump-{messages}.parquet"


def convert(spark: Any, dump: Path, parquet: Path) -> float:
    from jmsctl.spark.job import Output, run_convert

    if parquet.exists():
        return 0.0
    t0 = time.perf_counter()
    out = Output(str(parquet))
    report = run_convert(spark, [str(dump)], out)
    out.commit()
    assert report.counts.rejected == 0, report.counts
    return time.perf_counter() - t0


def spark_json_reader(spark: Any, dump: Path, repeat: int) -> float:
    """Spark's JSON reader with a typed schema, then the same condition written by hand (lossy:
    a reference for the reader's throughput, not a result)."""
    from pyspark.sql import functions as F

    schema = "headers struct<JMSType: string>, properties struct<color: string, weight: bigint>"
    df = spark.read.schema(schema).json(str(dump))
    cond = (F.col("headers.JMSType") == "car") & (F.col("properties.color") == "blue") & (F.col("properties.weight") > 2500)
    return best(repeat, lambda: int(df.where(cond).count()))[0]


def local_filter(dump: Path, selector: str) -> tuple[float, int]:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "jmsctl", "filter", selector, str(dump), "--count"], capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}")
    return elapsed, int(proc.stdout.strip())


def child(master: str, dump: Path, parquet: Path, selector: str, repeat: int) -> dict[str, float]:
    """Run inside a fresh process: the job times on ``master``, JVM start-up excluded."""
    from jmsctl import selector as sel
    from jmsctl.spark.job import run_filter
    from jmsctl.spark.session import get_session

    spark = get_session(master)
    compiled = sel.compile(selector)
    frames = Frames(selector)
    run_filter(spark, compiled, [str(dump)], output=None)  # warm-up: code generation, Python workers
    ndjson = best(repeat, lambda: run_filter(spark, compiled, [str(dump)], output=None).counts.selected)[0]
    native = best(repeat, lambda: frames.native(spark.read.parquet(str(parquet))))[0]
    return {"ndjson": ndjson, "parquet": native}


def row(label: str, seconds: float, n: int, base: float | None = None, note: str = "") -> None:
    rate = n / seconds / 1000 if seconds else float("nan")
    ratio = f"{base / seconds:6.1f}x" if base else "       "
    print(f"  {label:<52} {seconds:8.2f} s {rate:9.0f} k msgs/s {ratio}  {note}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--workdir", default="/tmp/jmsctl-spark-bench")
    ap.add_argument("--selector", default=SELECTOR)
    ap.add_argument("--master", default="local[*]")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--no-cores", action="store_true", help="skip section 3 (local[1] vs local[2], two more JVMs)")
    ap.add_argument("--child", metavar="MASTER", help=argparse.SUPPRESS)
    ap.add_argument("--end-to-end", action="store_true", help="whole commands, start-up included: spark filter against filter --jobs 2")
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000], help="--end-to-end: dump sizes (messages)")
    args = ap.parse_args(argv)
    if args.end_to_end:
        return end_to_end(Path(args.workdir), sorted(args.sizes), args.selector, args.repeat)
    dump, parquet = prepare(Path(args.workdir), args.messages)
    if args.child:
        print(json.dumps(child(args.child, dump, parquet, args.selector, args.repeat)))
        return 0

    from jmsctl import selector as sel
    from jmsctl.spark.ingest import Source, layout_frame
    from jmsctl.spark.job import run_filter
    from jmsctl.spark.session import get_session

    spark = get_session(args.master)
    cores = spark.sparkContext.defaultParallelism
    n = args.messages
    print(f"jmsctl Spark benchmark: {n:,} messages, selector {args.selector!r}, {args.master} ({cores} cores), Spark {spark.version}")
    took = convert(spark, dump, parquet)
    print(f"  parquet: {parquet}" + (f" (converted in {took:.1f} s)" if took else " (cached)"))
    frames = Frames(args.selector)
    compiled = sel.compile(args.selector)
    counts: dict[str, int] = {}

    def measure(label: str, fn: Callable[[], int]) -> float:
        seconds, counts[label] = best(args.repeat, fn)
        return seconds

    # Warm-up on a slice: code generation, Python workers, file listing.
    frames.native(spark.read.parquet(str(parquet)).limit(1000))
    frames.python_udf(spark.read.parquet(str(parquet)).limit(1000))

    print("\n1. parquet (same file, same selector, count of selected messages)")
    pq = lambda: spark.read.parquet(str(parquet))  # noqa: E731
    native = measure("parquet native", lambda: frames.native(pq()))
    udf = measure("parquet python udf", lambda: frames.python_udf(pq()))
    arrow = measure("parquet arrow", lambda: frames.arrow(pq()))
    row("native Column (jmsctl.spark.compiler)", native, n)
    row("Python UDF over the local evaluator", udf, n, note=f"native is {udf / native:.1f}x faster (target >= 10x)")
    row("mapInArrow over the local evaluator", arrow, n, note=f"native is {arrow / native:.1f}x faster (target >= 10x)")

    print("\n2. NDJSON (same messages)")
    source = Source(str(dump), str(dump), "ndjson")
    nd_native = measure("ndjson native", lambda: frames.native(layout_frame(spark, source)))
    nd_udf = measure("ndjson python udf", lambda: frames.python_udf(layout_frame(spark, source)))
    nd_arrow = measure("ndjson arrow", lambda: frames.arrow(layout_frame(spark, source)))
    nd_local = measure("ndjson spark filter", lambda: run_filter(spark, compiled, [str(dump)]).counts.selected)
    reader = spark_json_reader(spark, dump, args.repeat)
    row("ingest to the layout + native Column (--engine native)", nd_native, n)
    row("ingest to the layout + Python UDF", nd_udf, n, note=f"native is {nd_udf / nd_native:.1f}x faster")
    row("ingest to the layout + mapInArrow", nd_arrow, n, note=f"native is {nd_arrow / nd_native:.1f}x faster")
    row("local evaluator inside the ingest (spark filter default)", nd_local, n,
        note=f"{nd_native / nd_local:.1f}x the native path, {nd_udf / nd_local:.1f}x the UDF")
    row("Spark JSON reader + hand-written filter (lossy, reference)", reader, n, note=f"the default path takes {nd_local / reader:.1f}x its time")
    try:
        local_s, counts["jmsctl filter --count"] = local_filter(dump, args.selector)
        row("jmsctl filter --count (one process, incl. start-up)", local_s, n, note=f"spark filter default is {local_s / nd_local:.1f}x faster")
    except RuntimeError as exc:
        print(f"  jmsctl filter --count: failed: {exc}")

    distinct = set(counts.values())
    if len(distinct) != 1:
        print(f"\nCOUNTS DIFFER: {counts}")
        return 1
    print(f"\n  every measurement selected {distinct.pop():,} messages")
    if args.no_cores:
        return 0

    print("\n3. local[1] vs local[2] (fresh process each, JVM start-up excluded)")
    results = {}
    for master in ("local[1]", "local[2]"):
        cmd = [sys.executable, __file__, "--messages", str(n), "--workdir", args.workdir, "--selector", args.selector,
               "--repeat", str(args.repeat), "--child", master]
        out = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
        if out.returncode != 0:
            print(f"  {master}: failed: {out.stderr.strip().splitlines()[-1:]}")
            return 1
        results[master] = json.loads(out.stdout.strip().splitlines()[-1])
    for task, label in (("ndjson", "NDJSON, spark filter default"), ("parquet", "parquet, native Column")):
        one, two = results["local[1]"][task], results["local[2]"][task]
        print(f"  {label:<32} local[1] {one:6.2f} s   local[2] {two:6.2f} s   speed-up {one / two:.2f}x")
    return 0


def _tree_cpu(root: int) -> dict[int, float]:
    """CPU seconds so far of ``root`` and of every process below it (the JVM is the Python
    driver's child, and not one it waits for: rusage would miss it)."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
            cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    return {pid: t for pid, t in cpu.items() if _below(pid, root, parents)}


def _below(pid: int, root: int, parents: dict[int, int]) -> bool:
    while pid > 1:
        if pid == root:
            return True
        pid = parents.get(pid, 1)
    return False


def timed_tree(cmd: list[str], stdout: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds, and CPU seconds of the whole process tree (sampled every 0.1 s: the last
    tenth of a second of a process may be missed)."""
    seen: dict[int, float] = {}
    with stdout.open("wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=env, cwd=HERE.parent)
        while proc.poll() is None:
            seen.update(_tree_cpu(proc.pid))
            time.sleep(0.1)
        wall = time.perf_counter() - t0
        err = proc.stderr.read() if proc.stderr else b""
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {err.decode(errors='replace')[-500:]}")
    return wall, sum(seen.values())


def break_even(name: str, spark: dict[int, float], local: dict[int, float], small: int, large: int) -> str:
    """A straight line t = start-up + n x per message through two sizes, for Spark and for filter:
    the size where Spark's start-up stops dominating (the messages cost as much as the start-up),
    and where Spark breaks even with filter (never, when each message costs Spark more)."""
    per_local = (local[large] - local[small]) / (large - small)
    per_spark = (spark[large] - spark[small]) / (large - small)
    start_local, start_spark = local[small] - per_local * small, spark[small] - per_spark * small
    line = (f"{name}: start-up {start_spark:.1f} s (filter: {start_local:.1f} s), {per_spark * 1e6:.2f} us a message "
            f"(filter: {per_local * 1e6:.2f} us)")
    if per_spark <= 0:
        return f"{line}; too noisy to fit (a larger size costs less): run again with --repeat"
    line += f"; start-up stops dominating at about {start_spark / per_spark:,.0f} messages"
    if per_spark < per_local:
        return f"{line}; breaks even with filter at about {(start_spark - start_local) / (per_local - per_spark):,.0f} messages"
    return f"{line}; never breaks even with filter --jobs 2 (each message costs Spark more)"


def end_to_end(workdir: Path, sizes: list[int], selector: str, repeat: int) -> int:
    """Whole commands on growing slices of one shapes-bench dump: where Spark's start-up stops dominating."""
    from shapes_bench import generate

    workdir.mkdir(parents=True, exist_ok=True)
    whole = workdir / f"shapes-{sizes[-1]}.ndjson"
    if not whole.exists():
        print(f"generating {whole} ...", flush=True)
        generate(whole, sizes[-1])
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), "PYTHONWARNINGS": "ignore"}
    jmsctl = [sys.executable, "-m", "jmsctl"]
    slices: dict[int, tuple[Path, Path]] = {}
    for n in sizes:
        dump = whole if n == sizes[-1] else workdir / f"shapes-{n}.ndjson"
        if not dump.exists():
            with whole.open("rb") as src, dump.open("wb") as out:
                for _, line in zip(range(n), src, strict=False):
                    out.write(line)
        parquet = workdir / f"shapes-{n}.parquet"
        if not parquet.exists():
            t0 = time.perf_counter()
            subprocess.run([*jmsctl, "spark", "convert", str(dump), "--output", f"{parquet}/", "--master", "local[2]"],
                           check=True, env=env, capture_output=True)
            print(f"  {parquet.name}: converted in {time.perf_counter() - t0:.1f} s (not timed below)", flush=True)
        slices[n] = (dump, parquet)
    commands = {
        "filter --jobs 2": lambda d, p: [*jmsctl, "filter", selector, str(d), "--count", "--jobs", "2"],
        "spark filter, NDJSON": lambda d, p: [*jmsctl, "spark", "filter", selector, str(d), "--count", "--master", "local[2]"],
        "spark filter, parquet": lambda d, p: [*jmsctl, "spark", "filter", selector, f"{p}/", "--count", "--master", "local[2]"],
    }
    print(f"jmsctl spark filter vs jmsctl filter, whole commands (start-up included), selector {selector!r}; "
          f"best of {repeat} runs, interleaved; load average {os.getloadavg()[0]:.1f}")
    print(f"{'messages':>10}  " + "  ".join(f"{name:>26}" for name in commands) + "   counts")
    out_file = workdir / "out.txt"
    walls: dict[str, dict[int, float]] = {name: {} for name in commands}
    cpus: dict[str, dict[int, float]] = {name: {} for name in commands}
    for n in sizes:
        dump, parquet = slices[n]
        counts: set[int] = set()
        for _ in range(repeat):
            for name, cmd in commands.items():
                wall, cpu = timed_tree(cmd(dump, parquet), out_file, env)
                counts.add(int(out_file.read_text().split()[-1]))
                if wall < walls[name].get(n, float("inf")):
                    walls[name][n], cpus[name][n] = wall, cpu
        cells = [f"{walls[name][n]:7.2f} s wall {cpus[name][n]:6.1f} s CPU" for name in commands]
        print(f"{n:>10,}  " + "  ".join(f"{c:>26}" for c in cells) + f"   {sorted(counts)}", flush=True)
        if len(counts) != 1:
            print("COUNTS DIFFER")
            return 1
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    for what, table in (("wall", walls), ("CPU", cpus)):
        small = sizes[-2] if len(sizes) > 1 else sizes[0]  # the two largest: the smallest is all start-up and noise
        print(f"by {what} time (t = start-up + n x per message, through {small:,} and {sizes[-1]:,} messages):")
        for name in ("spark filter, NDJSON", "spark filter, parquet"):
            print("  " + break_even(name, table[name], table["filter --jobs 2"], small, sizes[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

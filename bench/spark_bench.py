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
    args = ap.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())

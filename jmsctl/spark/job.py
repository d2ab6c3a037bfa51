"""The Spark jobs behind ``jmsctl spark filter`` and ``jmsctl spark convert``: frames, counts, output.

A filter is one Spark job: every input's rows carry a verdict ``r`` (TRUE 1, FALSE 0, UNKNOWN 2,
rejected 3) and a count ``n``; an ``observe`` on the union gathers the counts and the rejected
records' locations while the selected rows are written, so that read = TRUE + FALSE + UNKNOWN +
rejected holds as in ``jmsctl filter --stats`` and no record is dropped silently.

Verdicts come from the native Column (compiler.py) on parquet input, and from the local evaluator
inside the NDJSON decoding step on NDJSON input (``engine="local"``, the default: decoding
dominates there, and handing typed messages back to the JVM costs more than the evaluation; see
bench/spark_bench.py). ``engine="native"`` decodes NDJSON to the layout and uses the Column too.

Output goes to a hidden sibling directory first and is renamed to the requested name only on
``commit`` (after the caller has seen the report): never a half-written output, and an existing
directory is replaced only if it is a previous Spark output (it holds ``_SUCCESS``).
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import shutil
import time
import uuid
from dataclasses import dataclass, field
from functools import reduce

from pyspark.sql import Column, DataFrame, Observation, SparkSession
from pyspark.sql import functions as F

from jmsctl import cleanup
from jmsctl import selector as sel
from jmsctl.filter import Counts
from jmsctl.messages.loader import MAX_RECORD_SIZE
from jmsctl.selector import dialects
from jmsctl.spark.compiler import compile_column
from jmsctl.spark.ingest import Source, layout_frame, native_verdict, plan_inputs, verdict_frame
from jmsctl.spark.schema import FALSE, LAYOUT, REJECTED, TRUE, UNKNOWN

ENGINES = ("local", "native")


@dataclass
class Report:
    """What a job saw: counts, the rejected records in input order, inputs it could not read."""

    counts: Counts = field(default_factory=Counts)
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (location, reason)
    input_errors: list[str] = field(default_factory=list)


class OutputError(Exception):
    """The output directory cannot be written or replaced."""


class Output:
    """A directory written through a temporary sibling, renamed into place on ``commit``.

    Until then, SIGTERM, SIGHUP and SIGINT (``jmsctl.cleanup``) stop the JVM, so that no task goes
    on writing, and remove the temporary directory with Spark's ``_temporary`` in it."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.remote = "://" in path and not path.startswith("file://")
        self._token: int | None = None
        if self.remote:
            self.tmp = path  # a remote file system: Spark writes in place (fails if it exists)
            return
        if os.path.exists(path) and not _replaceable(path):
            raise OutputError(f"{path}: exists and is not an output of jmsctl spark (no _SUCCESS); remove it or choose another")
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise OutputError(f"{path}: no such directory {parent}")
        if not os.access(parent, os.W_OK):
            raise OutputError(f"{path}: cannot create a directory in {parent}")
        self.tmp = os.path.join(parent, f".{os.path.basename(os.path.abspath(path))}.tmp-{uuid.uuid4().hex[:8]}")
        self._token = cleanup.register(path, self._killed)

    def _killed(self) -> None:
        """In a signal handler: the JVM (the driver of local and cluster jobs) ended first, then
        the partial directory removed; once more after a moment if an executor still wrote to it."""
        _stop_jvm()
        for _ in range(3):
            shutil.rmtree(self.tmp, ignore_errors=True)
            if not os.path.exists(self.tmp):
                break
            time.sleep(0.2)

    def commit(self) -> None:
        if self.remote:
            return
        if os.path.exists(self.path):
            shutil.rmtree(self.path) if os.path.isdir(self.path) else os.unlink(self.path)
        os.replace(self.tmp, self.path)
        self._forget()

    def discard(self) -> None:
        if not self.remote and os.path.exists(self.tmp):
            shutil.rmtree(self.tmp, ignore_errors=True)
        self._forget()

    def _forget(self) -> None:
        if self._token is not None:
            cleanup.unregister(self._token)
            self._token = None


def _stop_jvm() -> None:
    """Kill the JVM this process started (pyspark keeps its Popen as ``gateway.proc``).

    py4j reports a command the dead JVM no longer answers with ``logging.exception`` on the root
    logger, a traceback on stderr from whichever thread was waiting on it: after a kill jmsctl
    asked for, that is expected, so logging is off for the few moments before the process exits
    (CI of cfe45b9 saw that traceback once under SIGTERM)."""
    from pyspark import SparkContext

    logging.disable(logging.CRITICAL)
    proc = getattr(SparkContext._gateway, "proc", None)
    if proc is not None:
        with contextlib.suppress(Exception):
            proc.kill()
            proc.wait(timeout=10)


def _replaceable(path: str) -> bool:
    if os.path.isdir(path):
        return not os.listdir(path) or os.path.exists(os.path.join(path, "_SUCCESS"))
    return False


# ----- frames --------------------------------------------------------------------------------

def _verdicts(spark: SparkSession, source: Source, index: int, selector: sel.Selector, engine: str, layout: bool, limit: int,
              every_line: bool = False) -> DataFrame:
    """One source's rows with ``r``, ``n`` and ``src``: layout columns when ``layout``, else raw only
    (``every_line``: the raw line of every record, not only of the selected ones, for --invert)."""
    broker = dialects.get(selector.dialect).is_broker  # no Column compiler: the local evaluator runs in Spark
    if broker and source.kind == "parquet":
        raise OutputError(f"--dialect {selector.dialect} reads NDJSON sources only in Spark (parquet columns need the Column compiler)")
    native = not broker and (source.kind == "parquet" or (engine == "native" and source.kind == "ndjson"))
    if not layout and not native and source.kind == "ndjson" and not every_line:
        df = verdict_frame(spark, source, selector.text, selector.dialect, limit)
    elif native:
        df = layout_frame(spark, source, max_record_size=limit).withColumn("r", native_verdict(compile_column(selector.ast, selector.dialect)))
    else:
        df = layout_frame(spark, source, selector.text, selector.dialect, limit)
    if "n" not in df.columns:
        df = df.withColumn("n", F.lit(1).cast("bigint"))
    df = df.withColumn("src", F.lit(index))
    if layout:
        return df.select(*LAYOUT.fieldNames(), "r", "n", "src")
    return df.select("raw", "r", "n", "location", "error", "src")


def _metrics(r: Column, n: Column) -> list[Column]:
    def total(code: int, name: str) -> Column:
        return F.coalesce(F.sum(F.when(r == code, n)), F.lit(0)).alias(name)

    rejected = F.collect_list(F.when(r == REJECTED, F.struct("src", "location", "error"))).alias("rejected")
    return [total(TRUE, "true"), total(FALSE, "false"), total(UNKNOWN, "unknown"), total(REJECTED, "rejected_count"), rejected]


_LINE = re.compile(r"(?::\[?|#id=)(\d+)\]?(?: \(.*\))?$")  # file:12, file:[3], file#id=7 (Artemis on Spark), then " (ID:...)"


def _order(entries: list[object]) -> list[tuple[str, str]]:
    """Rejected records in input order: by input, then by line (or array index) within it."""
    def key(e: object) -> tuple[int, int, str]:
        location = e["location"] or ""  # type: ignore[index]
        m = _LINE.search(location)
        return (e["src"], int(m.group(1)) if m else 0, location)  # type: ignore[index]

    return [(e["location"], e["error"]) for e in sorted(entries, key=key)]  # type: ignore[index]


def _fill(report: Report, values: dict[str, object], invert: bool = False, max_count: int | None = None) -> None:
    c = report.counts
    c.true, c.false, c.unknown, c.rejected = (int(values[k]) for k in ("true", "false", "unknown", "rejected_count"))  # type: ignore[call-overload]
    c.read = c.true + c.false + c.unknown + c.rejected
    c.selected = c.false + c.unknown if invert else c.true
    if max_count is not None:
        c.selected = min(c.selected, max_count)
    report.rejected = _order(list(values["rejected"]))  # type: ignore[call-overload]


def _union(frames: list[DataFrame]) -> DataFrame:
    return reduce(lambda a, b: a.unionByName(b), frames)


# ----- jobs ----------------------------------------------------------------------------------

def run_filter(
    spark: SparkSession,
    selector: sel.Selector,
    paths: list[str],
    *,
    output: Output | None = None,
    output_format: str = "ndjson",
    engine: str = "local",
    max_record_size: int = MAX_RECORD_SIZE,
    source_format: str | None = None,
    invert: bool = False,
    max_count: int | None = None,
) -> Report:
    """Filter every input; write the selected records to ``output`` (uncommitted) unless None.

    ``invert``: the records the selector does not select (FALSE or UNKNOWN), as ``filter --invert``.
    ``max_count``: at most that many selected records, the first in input order (every record is
    still read and counted: read = TRUE + FALSE + UNKNOWN + rejected; ``selected`` is capped)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")
    report = Report()
    sources, report.input_errors = plan_inputs(paths, source_format)
    if not sources:
        return report
    layout = output is not None and output_format == "parquet"
    frame = _union([_verdicts(spark, s, k, selector, engine, layout, max_record_size, invert and output is not None) for k, s in enumerate(sources)])
    metrics = _metrics(F.col("r"), F.col("n"))
    chosen = F.col("r").isin(FALSE, UNKNOWN) if invert else F.col("r") == TRUE
    if output is None:
        row = frame.agg(*metrics).collect()[0]
        _fill(report, row.asDict(), invert, max_count)
        return report
    observation = Observation("jmsctl")
    selected = frame.observe(observation, *metrics).where(chosen)
    if max_count is not None:
        selected = selected.limit(max_count)  # no shuffle before it: the first records of the scan order
    if layout:
        selected.select(*LAYOUT.fieldNames()).write.parquet(output.tmp)
    else:
        selected.select(F.col("raw").cast("string").alias("value")).write.text(output.tmp)
        _name_parts(spark, output.tmp, ".txt", ".ndjson")
    _fill(report, observation.get, invert, max_count)
    return report


def _name_parts(spark: SparkSession, directory: str, old: str, new: str) -> None:
    """Spark's text writer names its part files ``part-NNNNN-UUID-c000.txt``; they hold NDJSON. Renamed
    through Hadoop's FileSystem, so that the same works on a local directory and on HDFS or S3."""
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    hpath = jvm.org.apache.hadoop.fs.Path(directory)
    fs = hpath.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())  # type: ignore[union-attr]
    for status in fs.listStatus(hpath):
        name = status.getPath().getName()
        if name.startswith("part-") and name.endswith(old):
            fs.rename(status.getPath(), jvm.org.apache.hadoop.fs.Path(hpath, name[: -len(old)] + new))


def run_convert(spark: SparkSession, paths: list[str], output: Output, max_record_size: int = MAX_RECORD_SIZE,
                source_format: str | None = None) -> Report:
    """Every record of the inputs, rejected ones included (with their error), as parquet."""
    report = Report()
    sources, report.input_errors = plan_inputs(paths, source_format)
    if not sources:
        return report
    frame = _union([layout_frame(spark, s, max_record_size=max_record_size).withColumn("src", F.lit(k)) for k, s in enumerate(sources)])
    r = F.when(F.col("error").isNotNull(), F.lit(REJECTED)).otherwise(F.lit(TRUE))
    observation = Observation("jmsctl")
    observed = frame.withColumn("r", r).withColumn("n", F.lit(1)).observe(observation, *_metrics(F.col("r"), F.col("n")))
    observed.select(*LAYOUT.fieldNames()).write.parquet(output.tmp)
    _fill(report, observation.get)
    return report


def physical_plan(df: DataFrame) -> str:
    """The physical plan Spark will run, as ``DataFrame.explain`` prints it."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        df.explain()
    return buffer.getvalue()


def explain(spark: SparkSession, selector: sel.Selector) -> tuple[str, str]:
    """The selector's Column, and the physical plan of a filter with it over an empty layout frame
    (an RDD, which the optimizer cannot evaluate away as it would a local table)."""
    column = compile_column(selector.ast, selector.dialect)
    empty = spark.createDataFrame(spark.sparkContext.emptyRDD(), LAYOUT)
    return str(column), physical_plan(empty.where(column))


__all__ = ["ENGINES", "Output", "OutputError", "Report", "explain", "physical_plan", "run_convert", "run_filter"]

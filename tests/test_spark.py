"""jmsctl on Spark: the traps of the Java rules under several Spark settings, the physical plan
(no Python at evaluation), the NDJSON ingest against the local loader, and the commands
``jmsctl spark filter | convert | explain`` against ``jmsctl filter``.

Corpus and property-based parity: tests/test_spark_parity.py. One SparkSession for all
(``get_session`` returns the active one).
"""

from __future__ import annotations

import functools
import gzip
import importlib.util
import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[spark]')")
pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install -e '.[spark]')")
if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
    pytest.skip("Java is not installed: Spark needs a JVM", allow_module_level=True)

import orjson
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from typer.testing import CliRunner

from jmsctl import selector as sel
from jmsctl.cli.app import app
from jmsctl.filter import Counts, record_json, select
from jmsctl.messages.decode import decode_message
from jmsctl.messages.loader import MAX_RECORD_SIZE, read_records
from jmsctl.spark import ranges
from jmsctl.spark.compiler import compile_column
from jmsctl.spark.ingest import Source, layout_frame, plan_inputs
from jmsctl.spark.job import Output, physical_plan, run_convert, run_filter
from jmsctl.spark.like import like_regex
from jmsctl.spark.schema import selector_values
from jmsctl.values import tri_name

SAMPLES = Path(__file__).parent.parent / "samples"
JAVADOC = "JMSType = 'car' AND color = 'blue' AND weight > 2500"
PYTHON_NODES = ("BatchEvalPython", "ArrowEvalPython", "PythonUDF", "MapInArrow", "MapInPandas", "PythonMapInArrow", "EvalPython")
runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, ["spark", *args])


def local_filter(selector: str, paths: list[str], max_record_size: int = MAX_RECORD_SIZE) -> tuple[bytes, Counts, list[tuple[str, str]]]:
    """What ``jmsctl filter`` writes and counts (the library under it), and its rejected records."""
    counts = Counts()
    rejected: list[tuple[str, str]] = []
    records = itertools.chain.from_iterable(read_records(p, max_record_size) for p in paths)
    out = b"".join(record_json(r) + b"\n" for r in select(sel.compile(selector), records, counts,
                                                           on_rejected=lambda r: rejected.append((r.location, str(r.error)))))
    return out, counts, rejected


def stats(c: Counts) -> str:
    return f"read {c.read}, TRUE {c.true}, FALSE {c.false}, UNKNOWN {c.unknown}, rejected {c.rejected}, selected {c.selected}"


def part_files(directory: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(directory.glob("part-*")))


# ----- the traps, under settings that change Spark's own arithmetic -----------------------------

INT_MAX, INT_MIN, LONG_MAX, LONG_MIN = 2**31 - 1, -(2**31), 2**63 - 1, -(2**63)


def typed(t: str, v: Any) -> dict[str, Any]:
    return {"type": t, "value": v}


TRAPS: list[tuple[str, dict[str, Any], str]] = [
    ("i + 1 = -2147483648", {"i": INT_MAX}, "jakarta"),
    ("i * i = 1", {"i": INT_MAX}, "jakarta"),
    ("i / -1 = i", {"i": INT_MIN}, "jakarta"),
    ("-i = i", {"i": INT_MIN}, "jakarta"),
    ("l + 1 < 0", {"l": typed("long", LONG_MAX)}, "jakarta"),
    ("l - 1 > 0", {"l": typed("long", LONG_MIN)}, "jakarta"),
    ("l * l = 1", {"l": typed("long", LONG_MAX)}, "jakarta"),
    ("l * 2 = -2", {"l": typed("long", LONG_MAX)}, "jakarta"),
    ("l / -1 = l", {"l": typed("long", LONG_MIN)}, "jakarta"),
    ("-l = l", {"l": typed("long", LONG_MIN)}, "jakarta"),
    ("i / 0 = 0", {"i": 7}, "jakarta"),
    ("NOT (l / 0 = 0)", {"l": typed("long", 7)}, "jakarta"),
    ("7 / 2 = 3 AND -7 / 2 = -3", {}, "jakarta"),
    ("d / 0 > 1e308", {"d": 1.0}, "jakarta"),
    ("d / 0.0 < 0", {"d": -1.0}, "jakarta"),
    ("d / -0.0 < 0", {"d": 1.0}, "jakarta"),
    ("z / z = z", {"z": 0.0}, "jakarta"),
    ("f / 0 > 3.4e38", {"f": typed("float", 1.0)}, "jakarta"),
    ("s > 2500", {"s": "B-123"}, "jakarta"),
    ("s + 1 > 2500 OR s = 'B-123'", {"s": "B-123"}, "jakarta"),
    ("f = 16777217", {"f": typed("float", 16777216.0)}, "jakarta"),
    ("l = f", {"l": typed("long", 16777217), "f": typed("float", 16777216.0)}, "jakarta"),
    ("i + 0.0f = 16777216", {"i": 16777217}, "jakarta"),
    ("f = 0.1", {"f": typed("float", 0.1)}, "jakarta"),
    ("f = 0.1f", {"f": typed("float", 0.1)}, "jakarta"),
    ("f * 3 = 0.3f", {"f": typed("float", 0.1)}, "jakarta"),
    ("n = n", {"n": typed("double", "NaN")}, "jakarta"),
    ("n <> n", {"n": typed("double", "NaN")}, "jakarta"),
    ("n > 1 OR n < 1 OR 1 < n OR n >= n", {"n": typed("double", "NaN")}, "jakarta"),
    ("n BETWEEN 0 AND 1e308", {"n": typed("float", "NaN")}, "jakarta"),
    ("n NOT BETWEEN 0 AND 1", {"n": typed("float", "NaN")}, "jakarta"),
    ("z = 0 AND z = -0.0 AND NOT (z < 0)", {"z": -0.0}, "jakarta"),
    ("s LIKE 'a\\_b'", {"s": "a\\xb"}, "jakarta"),
    ("s LIKE 'a\\_b'", {"s": "a_b"}, "jakarta"),
    ("s LIKE 'a!_b' ESCAPE '!'", {"s": "a_b"}, "jakarta"),
    ("s LIKE 'a!_b' ESCAPE '!'", {"s": "axb"}, "jakarta"),
    ("s LIKE 'a_c' AND s LIKE '%c' AND s LIKE 'a%'", {"s": "a\nc"}, "jakarta"),
    ("s LIKE '%'", {"s": "\r\n\u2028"}, "jakarta"),
    ("s LIKE '.*'", {"s": "ab"}, "jakarta"),
    ("s LIKE '[a]%(b)?$'", {"s": "[a]x(b)?$"}, "jakarta"),
    ("s LIKE '_'", {"s": "😀"}, "jakarta"),
    ("s LIKE '%a%a%a%a%a%a%a%a%b'", {"s": "a" * 5000}, "jakarta"),
    ("s LIKE '%a%a%a%a%a%a%a%a%b'", {"s": "c" * 5000 + "aaaaaaaab"}, "jakarta"),
    ("s NOT LIKE 'x%'", {"s": 5}, "jakarta"),
    ("x IN ('1')", {"x": 1}, "jakarta"),
    ("x NOT IN ('1')", {"x": 1}, "jakarta"),
    ("color = 'blue'", {"Color": "blue"}, "jakarta"),
    ("b", {"b": "true"}, "jakarta"),
    ("b AND NOT c", {"b": True, "c": False}, "jakarta"),
    ("JMSDeliveryMode = 'PERSISTENT' AND JMSPriority > 3 AND JMSCorrelationID IS NULL", {}, "jakarta"),
    ("JMSType = 'car'", {"JMSType": "car"}, "jakarta"),
    ("x = 'a' OR TRUE", {"x": 1}, "ibm"),
    ("x + 1 > 0 OR TRUE", {}, "ibm"),
    ("x BETWEEN 1 AND y", {"x": 3}, "ibm"),
    ("x NOT BETWEEN 1 AND y", {"x": 3}, "ibm"),
    (" + ".join(["a"] * 40) + " = " + str((40 * INT_MAX + 2**31) % 2**32 - 2**31), {"a": INT_MAX}, "jakarta"),
    ("((((((((a * 3 + 1) * 3 + 1) * 3 + 1) * 3 + 1) * 3 + 1) * 3 + 1) * 3 + 1) * 3 + 1) > 0", {"a": typed("long", LONG_MAX // 5)}, "jakarta"),
]
HEADERS = {"JMSDeliveryMode": 2, "JMSPriority": 4}

SETTINGS = [
    {"spark.sql.ansi.enabled": "true"},
    {"spark.sql.ansi.enabled": "false"},
    {"spark.sql.ansi.enabled": "true", "spark.sql.codegen.wholeStage": "false", "spark.sql.codegen.factoryMode": "NO_CODEGEN"},
    {"spark.sql.ansi.enabled": "false", "spark.sql.decimalOperations.allowPrecisionLoss": "false", "spark.sql.legacy.allowNegativeScaleOfDecimal": "true"},
]
# One CASE over all 57 traps generated a whole stage over 64 KB, which Spark compiled for seconds and then
# disabled for the plan (WholeStageCodegenExec's fall back): whole-stage codegen was never the code that
# ran, and even three traps in one CASE are over 64 KB. So each trap is one branch of a UNION ALL, a stage
# of its own (one job, 57 small compilations), and spark.sql.codegen.fallback=false makes sure: code that
# does not compile is an error here, not a quiet switch to another engine.


def _trap_message(props: dict[str, Any]) -> dict[str, Any]:
    headers = dict(HEADERS)
    properties = dict(props)
    if "JMSType" in properties:  # a property of that name does not stand in for the header
        headers["JMSType"] = "truck"
    return {"headers": headers, "properties": properties}


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(f"{k.rsplit('.', 1)[-1]}={v}" for k, v in s.items()))
def test_java_rules_hold_whatever_the_spark_settings(spark: Any, tmp_path: Path, settings: dict[str, str]) -> None:
    dump = tmp_path / "traps.ndjson"
    dump.write_bytes(b"".join(orjson.dumps(_trap_message(props)) + b"\n" for _, props, _ in TRAPS))
    rows = layout_frame(spark, Source(str(dump), str(dump), "ndjson")).withColumn("k", F.monotonically_increasing_id()).cache()
    ids = sorted(r["k"] for r in rows.select("k").collect())
    columns = [compile_column(sel.analyze(text).ast, dialect) for text, _, dialect in TRAPS]
    settings = {"spark.sql.codegen.fallback": "false", **settings}
    previous = {key: spark.conf.get(key, None) for key in settings}
    try:
        for key, value in settings.items():
            spark.conf.set(key, value)
        parts = [rows.where(F.col("k") == k).select("k", column.alias("r")) for k, column in zip(ids, columns, strict=True)]
        got = {r["k"]: r["r"] for r in functools.reduce(DataFrame.unionAll, parts).collect()}
    finally:
        for key, value in previous.items():
            spark.conf.unset(key) if value is None else spark.conf.set(key, value)
        rows.unpersist()
    bad = []
    for k, (text, props, dialect) in zip(ids, TRAPS, strict=True):
        expected = sel.compile(text, dialect).evaluate(decode_message(_trap_message(props)))
        if got[k] is not expected:
            bad.append(f"[{dialect}] {text[:80]!r} on {props!r:.80}: spark {tri_name(got[k])}, local {tri_name(expected)}")
    assert not bad, "\n".join(bad)


# ----- the plan: no Python evaluation node ------------------------------------------------------

EVERY_NODE = (
    "JMSType = 'car' AND (color IN ('blue', 'red') OR name LIKE 'a!_%' ESCAPE '!') AND NOT (weight * 2 + 1 > 5000) "
    "AND ratio / 2.0 - -x BETWEEN 1 AND 2 AND flag AND code IS NOT NULL AND big LIKE '%a%a%b' AND +y <> 3L "
    "AND (((((((p * 3 + 1) * 3 + 1) * 3 + 1) * 3 + 1) * 3 + 1) * 3 + 1) / 7 > 0)"
)


@pytest.fixture(scope="module")
def samples_parquet(spark: Any, tmp_path_factory: Any) -> Path:
    target = tmp_path_factory.mktemp("parquet") / "samples.parquet"
    out = Output(str(target))
    report = run_convert(spark, [str(SAMPLES / "orders.ndjson"), str(SAMPLES / "bad-records.ndjson")], out)
    out.commit()
    assert report.counts.read == 3028 and report.counts.rejected == 21
    return target


@pytest.mark.parametrize("dialect", ["jakarta", "ibm"])
def test_the_compiled_filter_runs_no_python(spark: Any, samples_parquet: Path, dialect: str) -> None:
    column = compile_column(sel.analyze(EVERY_NODE).ast, dialect)
    plan = physical_plan(spark.read.parquet(str(samples_parquet)).where(column))
    assert "Filter" in plan and "FileScan parquet" in plan, plan
    assert not [node for node in PYTHON_NODES if node in plan], plan
    # The control: the same filter with a Python UDF does show one of those nodes (the names are Spark's).
    udf = F.udf(lambda t: t == "car", "boolean")
    with_udf = physical_plan(spark.read.parquet(str(samples_parquet)).where(column & udf(F.col("JMSType"))))
    assert [node for node in PYTHON_NODES if node in with_udf], with_udf


def test_the_explain_command_prints_the_column_and_a_python_free_plan(spark: Any) -> None:
    r = run("explain", JAVADOC)
    assert r.exit_code == 0, r.stderr
    column, plan = r.stdout.split("Physical plan:")
    assert column.startswith("Column:\nColumn<'") and "properties" in column
    assert "Filter" in plan and not [node for node in PYTHON_NODES if node in plan]


# ----- the NDJSON ingest reads what the local loader reads -------------------------------------

def test_the_ingest_gives_each_record_the_local_values(spark: Any, tmp_path: Path) -> None:
    lines = (SAMPLES / "orders-small.ndjson").read_bytes().splitlines(keepends=True)
    bad = (SAMPLES / "bad-records.ndjson").read_bytes().splitlines(keepends=True)
    mixed = tmp_path / "mixed.ndjson"  # a BOM, CRLF line ends, blank lines, rejected records between
    mixed.write_bytes(b"\xef\xbb\xbf" + b"".join(a.rstrip(b"\n") + b"\r\n" + b"\n" + b for a, b in zip(lines, bad, strict=False)))
    records = list(read_records(str(mixed)))
    rows = layout_frame(spark, Source(str(mixed), str(mixed), "ndjson")).collect()
    assert len(rows) == len(records)
    for row, record in zip(rows, records, strict=True):
        assert bytes(row["raw"]) == record.raw
        if record.message is None:
            assert (row["location"], row["error"]) == (record.location, str(record.error))
        else:
            assert row["error"] is None
            assert _exact(selector_values(row)) == _exact(record.message.selector_values())


def _exact(view: dict[str, Any]) -> dict[str, Any]:
    return {name: (t, repr(v)) for name, (t, v) in view.items()}


HOSTILE_LINES = [
    b'{"headers": {"JMSType": "car"}, "properties": {"color": "blue", "color": "red", "weight": 2600}}',  # duplicate key
    b'{"headers": {"JMSType": "car"}, "properties": {"color": "blue", "weight": 2600}}\r',  # CRLF: selected
    b"",  # a blank line is no record
    b'{"headers": {"JMSType": "car"}, "properties": {"color": "blue", "weight": 2600, "pad": "' + b"x" * 5000 + b'"}}',  # too large
    b'{"properties": {"n": 99999999999999999999}}',  # beyond 64 bits
    b'{"headers": {"JMSType": "car"}, "properties": {"\\u0063olor": "blue", "weight": 2601}}',  # an escaped name: selected
]


@pytest.mark.parametrize("reader", ["ranges", "text source"])
@pytest.mark.parametrize("engine", ["local", "native"])
def test_rejected_records_are_located_by_line_across_file_splits(
    spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str, engine: str
) -> None:
    """Both ways of reading NDJSON, cut into many pieces, give the local loader's counts and
    rejections: byte ranges read by the workers (local master), and Spark's text source (a
    ``file://`` URI, as any path on a cluster), with lines that end in CR, are blank, repeat a key,
    are longer than the maximum record size or cross the pieces' boundaries."""
    good = (SAMPLES / "orders-small.ndjson").read_bytes().splitlines()
    bad = HOSTILE_LINES + (SAMPLES / "bad-records.ndjson").read_bytes().splitlines()
    dump = tmp_path / "split.ndjson"
    dump.write_bytes(b"".join(line + b"\n" for pair in zip(good * 10, itertools.cycle(bad)) for line in pair))
    limit = 4000
    path = str(dump)
    if reader == "ranges":
        monkeypatch.setattr(ranges, "MIN_RANGE", 1024)  # the driver plans 2 ranges per core, cut mid-line
    else:
        path = "file://" + path
    previous = spark.conf.get("spark.sql.files.maxPartitionBytes")
    spark.conf.set("spark.sql.files.maxPartitionBytes", "4096")  # many splits, most not at a line start
    try:
        report = run_filter(spark, sel.compile(JAVADOC), [path], engine=engine, max_record_size=limit)
    finally:
        spark.conf.set("spark.sql.files.maxPartitionBytes", previous)
    _, counts, rejected = local_filter(JAVADOC, [str(dump)], max_record_size=limit)
    assert counts.rejected > len(HOSTILE_LINES) and counts.selected > 0
    assert any("record too large" in reason for _, reason in rejected)
    assert any("duplicate key" in reason for _, reason in rejected)
    assert report.counts == counts
    assert [(loc.replace("file://", ""), reason) for loc, reason in report.rejected] == rejected


def test_inputs_are_classified_by_content(tmp_path: Path) -> None:
    (tmp_path / "array.json").write_text('[{"properties": {"a": 1}}]')
    (tmp_path / "pretty.json").write_text('{\n  "properties": {"a": 1}\n}\n')
    (tmp_path / "lines.ndjson").write_text('{"properties": {"a": 1}}\n')
    with gzip.open(tmp_path / "lines.ndjson.gz", "wb") as f:
        f.write(b'{"properties": {"a": 1}}\n')
    (tmp_path / "bom-array.json").write_bytes(b'\xef\xbb\xbf [{"properties": {"a": 1}}]')
    (tmp_path / "truncated.ndjson").write_text('{"properties": {"a":\n{"properties": {"a": 1}}\n')  # broken first record
    (tmp_path / "not-gzip.gz").write_bytes(b'{"properties": {}}\n')
    (tmp_path / "dir").mkdir()
    names = ("array.json", "pretty.json", "lines.ndjson", "lines.ndjson.gz", "bom-array.json", "truncated.ndjson", "missing", "not-gzip.gz")
    sources, errors = plan_inputs([*(str(tmp_path / n) for n in names), "file://" + str(tmp_path / "lines.ndjson")])
    assert [s.kind for s in sources] == ["driver", "driver", "ndjson", "ndjson", "driver", "ndjson", "ndjson"]
    assert sources[-1].path.startswith("file://")  # read by Spark's text source
    assert errors == [f"{tmp_path / 'missing'}: no such file", f"{tmp_path / 'not-gzip.gz'}: cannot read: not a gzip file"]
    for source in sources:  # each as the local loader reads it: lines (NDJSON) or whole records
        reader = read_records(source.path.removeprefix("file://"))
        assert isinstance(next(reader.items()), bytes) == (source.kind == "ndjson")
        reader.close()


def test_like_patterns_become_linear_regexes() -> None:
    assert like_regex("a%b_c%d", None) == "(?s)\\Aa(?>.*?b.c).*d\\z"
    assert like_regex("%.%", None) == "(?s)\\A(?>.*?\\x{2e}).*\\z"


# ----- the commands ----------------------------------------------------------------------------

def test_filter_writes_the_local_filters_bytes_and_counts(spark: Any, tmp_path: Path) -> None:
    inputs = [str(SAMPLES / "orders.ndjson"), str(SAMPLES / "orders.json")]
    expected, counts, _ = local_filter(JAVADOC, inputs)
    r = run("filter", JAVADOC, *inputs, "--output", str(tmp_path / "out"), "--count")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == f"{counts.selected}\n"
    assert r.stderr.strip().splitlines()[-1] == stats(counts)
    assert part_files(tmp_path / "out") == expected
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "the temporary directory is left behind"
    # The layout (README): NDJSON part files named .ndjson (Spark's text writer says .txt), and _SUCCESS.
    names = [p.name for p in (tmp_path / "out").iterdir() if not p.name.startswith(".")]
    assert "_SUCCESS" in names and not [n for n in names if n.endswith(".txt")]
    assert [n for n in names if n.startswith("part-")] and all(n.endswith(".ndjson") for n in names if n.startswith("part-"))


def test_filter_reports_rejected_records_as_the_local_filter_and_writes_nothing(spark: Any, tmp_path: Path) -> None:
    inputs = [str(SAMPLES / "bad-records.ndjson"), str(tmp_path / "missing.ndjson")]
    _, counts, rejected = local_filter(JAVADOC, inputs[:1])
    r = run("filter", JAVADOC, *inputs, "--output", str(tmp_path / "out"))
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert f"jmsctl: error: {inputs[1]}: no such file" in lines
    assert [f"jmsctl: error: {loc}: {why}" for loc, why in rejected] == [line for line in lines if line.startswith(f"jmsctl: error: {inputs[0]}:")]
    assert lines[-1] == stats(counts)
    assert not (tmp_path / "out").exists()
    r = run("filter", JAVADOC, inputs[0], "--output", str(tmp_path / "out"), "--skip-invalid")
    assert r.exit_code == 0 and r.stderr.strip().splitlines() == [stats(counts)]
    assert (tmp_path / "out" / "_SUCCESS").exists()


def test_a_fresh_process_prints_only_the_counts() -> None:
    """End to end in a new process (its own JVM): the count on stdout, and on stderr only the
    counts line, none of the JVM's start-up banners."""
    selector = "JMSType = 'car' AND weight > 2500"
    proc = subprocess.run([sys.executable, "-m", "jmsctl", "spark", "filter", selector, str(SAMPLES / "orders-small.ndjson"), "--count"],
                          capture_output=True, text=True, timeout=300)
    _, counts, _ = local_filter(selector, [str(SAMPLES / "orders-small.ndjson")])
    assert (proc.returncode, proc.stdout) == (0 if counts.selected else 1, f"{counts.selected}\n")
    assert proc.stderr == stats(counts) + "\n"


def test_an_input_that_stops_being_readable_is_one_line_as_locally(spark: Any, tmp_path: Path) -> None:
    """A truncated .gz passes the driver's look at its start and fails in a worker: the job ends
    with the loader's words for it, one line, exit 2, as ``jmsctl filter`` says it."""
    whole = gzip.compress((SAMPLES / "orders.ndjson").read_bytes())
    truncated = tmp_path / "cut.ndjson.gz"
    truncated.write_bytes(whole[: len(whole) // 2])
    r = run("filter", JAVADOC, str(truncated), "--count")
    local = runner.invoke(app, ["filter", JAVADOC, str(truncated), "--count"])
    assert (r.exit_code, local.exit_code) == (2, 2)
    assert r.stderr == f"jmsctl: error: {truncated}: cannot read: truncated gzip (the compressed data ends early)\n", r.stderr
    assert r.stderr.split(": ", 1)[1] == local.stderr.split(": ", 1)[1]


def test_filter_exit_status_and_usage(spark: Any, tmp_path: Path) -> None:
    r = run("filter", "JMSType = 'spaceship'", str(SAMPLES / "orders-small.ndjson"), "--count")
    assert (r.exit_code, r.stdout) == (1, "0\n")
    r = run("filter", "color != 'blue'", str(SAMPLES / "orders-small.ndjson"), "--count")
    assert r.exit_code == 2 and "E006" in r.stdout + r.stderr
    r = run("filter", JAVADOC, str(SAMPLES / "orders-small.ndjson"))
    assert r.exit_code == 2 and "--output" in r.stderr
    (tmp_path / "precious").mkdir()
    (tmp_path / "precious" / "notes.txt").write_text("keep me")
    r = run("filter", JAVADOC, str(SAMPLES / "orders-small.ndjson"), "--output", str(tmp_path / "precious"))
    assert r.exit_code == 2 and "not an output of jmsctl spark" in r.stderr
    assert (tmp_path / "precious" / "notes.txt").read_text() == "keep me"


def test_gzip_input_and_the_native_engine_give_the_same_output(spark: Any, tmp_path: Path) -> None:
    gz = tmp_path / "orders.ndjson.gz"
    gz.write_bytes(gzip.compress((SAMPLES / "orders.ndjson").read_bytes()))
    expected, counts, _ = local_filter(JAVADOC, [str(SAMPLES / "orders.ndjson")])
    for engine in ("local", "native"):
        r = run("filter", JAVADOC, str(gz), "--output", str(tmp_path / engine), "--engine", engine)
        assert r.exit_code == 0, r.stderr
        assert r.stderr.strip().splitlines()[-1] == stats(counts)
        assert part_files(tmp_path / engine) == expected


def test_convert_then_filter_the_parquet_gives_the_ndjson_answer(spark: Any, samples_parquet: Path, tmp_path: Path) -> None:
    inputs = [str(SAMPLES / "orders.ndjson"), str(SAMPLES / "bad-records.ndjson")]
    selector = "weight * 2 > 5000 AND region IN ('EU', 'UK') OR customer LIKE '%🚀%'"
    expected, counts, rejected = local_filter(selector, inputs)
    r = run("filter", selector, str(samples_parquet), "--output", str(tmp_path / "nd"))
    assert r.exit_code == 2  # the rejected records travel with the parquet and are reported again
    assert [line for line in r.stderr.strip().splitlines()[:-2]] == [f"jmsctl: error: {loc}: {why}" for loc, why in rejected]
    assert r.stderr.strip().splitlines()[-1] == stats(counts)
    r = run("filter", selector, str(samples_parquet), "--output", str(tmp_path / "nd"), "--skip-invalid", "--format", "parquet")
    assert r.exit_code == 0, r.stderr
    r = run("filter", selector, str(tmp_path / "nd"), "--output", str(tmp_path / "again"))
    assert r.exit_code == 0, r.stderr
    assert part_files(tmp_path / "again") == expected


def test_convert_reports_rejected_records_and_keeps_them(spark: Any, tmp_path: Path) -> None:
    r = run("convert", str(SAMPLES / "bad-records.ndjson"), "--output", str(tmp_path / "pq"))
    assert r.exit_code == 2 and not (tmp_path / "pq").exists()
    r = run("convert", str(SAMPLES / "bad-records.ndjson"), "--output", str(tmp_path / "pq"), "--skip-invalid")
    assert r.exit_code == 0 and r.stderr.strip() == "read 28, rejected 21, written 28"
    rows = spark.read.parquet(str(tmp_path / "pq")).where(F.col("error").isNotNull()).count()
    assert rows == 21


def test_deep_and_long_selectors_compile_and_evaluate(spark: Any, samples_parquet: Path) -> None:
    deep = "(" * 150 + "weight > 2500" + ")" * 150
    nots = "NOT " * 120 + "weight > 2500"
    chain = " OR ".join(f"weight = {k}" for k in range(300))  # properties looked up once (SHARED_LOOKUPS)
    df = spark.read.parquet(str(samples_parquet)).where(F.col("error").isNull())
    records = itertools.chain(read_records(str(SAMPLES / "orders.ndjson")), read_records(str(SAMPLES / "bad-records.ndjson")))
    messages = [r.message for r in records if r.message is not None]
    for text in (deep, nots, chain):
        compiled = sel.compile(text)
        expected = sum(1 for m in messages if compiled.evaluate(m) is True)
        assert df.where(compile_column(compiled.ast)).count() == expected, text[:60]


# ----- the benchmark stays runnable ------------------------------------------------------------

def test_the_spark_benchmark_runs_every_row_and_its_counts_agree(spark: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """bench/spark_bench.py on a small dump (figures meaningless at this size): every measurement
    runs and selects the same messages (the core-count section, two more JVMs, is left out)."""
    spec = importlib.util.spec_from_file_location("spark_bench", Path(__file__).parent.parent / "bench" / "spark_bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--messages", "2000", "--repeat", "1", "--workdir", str(tmp_path), "--no-cores"]) == 0
    out = capsys.readouterr().out
    rows = ("native Column", "Python UDF over", "mapInArrow over", "ingest to the layout + native", "local evaluator inside the ingest",
            "Spark JSON reader", "jmsctl filter --count")
    assert [row for row in rows if row not in out] == [], out
    assert "every measurement selected" in out, out


# ----- dump formats (jmsctl.messages.formats) -------------------------------------------------------

def test_dump_formats_are_read_on_the_driver_as_the_local_loader_reads_them(spark: Any, tmp_path: Path) -> None:
    """fmtn-a, browse and dmpmqmsg files, told from their content, and gzip without a .gz name (Spark's
    text source goes by the name): each read on the driver, same counts and rejections as local."""
    hidden = tmp_path / "lines.data"
    hidden.write_bytes(gzip.compress((SAMPLES / "orders-small.ndjson").read_bytes()))
    inputs = [str(SAMPLES / n) for n in ("orders-fmtn-a.json", "orders-browse.txt", "orders-dmpmqmsg.qload")] + [str(hidden)]
    sources, errors = plan_inputs(inputs)
    assert errors == [] and [s.kind for s in sources] == ["driver"] * 4
    report = run_filter(spark, sel.compile(JAVADOC), inputs)
    _, counts, rejected = local_filter(JAVADOC, inputs)
    assert counts.read == 40 and report.counts == counts and report.rejected == rejected
    forced, errors = plan_inputs([str(SAMPLES / "orders-small.ndjson")], "fmtn-a")  # --from: read as that format
    assert [(s.kind, s.fmt) for s in forced] == [("driver", "fmtn-a")]

"""Message files -> Spark DataFrames: NDJSON (also gzipped) and parquet written by ``spark convert``.

NDJSON is read as lines of bytes by Spark's text source (``lineSep`` "\\n", as the local loader's
``readline``), never by Spark's JSON reader (which turns ``3000.5`` in a bigint field into NULL
silently). Each partition's lines go through the local decoder (``jmsctl.messages.decode``, the same
rules and the same rejection reasons as ``jmsctl filter``) inside ``mapInArrow``, which produces
either the message layout (schema.py) or, for ``spark filter`` with NDJSON output, only the verdict
of the local compiled selector per record (TRUE / FALSE / UNKNOWN / rejected): decoding dominates
there, and the verdicts are much less to hand back to the JVM than typed messages. This is a Python
step at load time; selector evaluation on the layout is the native Column (compiler.py).

A rejected record's location is ``file:line`` as locally. Spark gives each line its split's start
offset; lines are counted within the split, and for a split that does not start the file the lines
before it are counted from the file (only when that split has a rejected record).

JSON arrays and single-object files (and stdin) are not line-oriented: the driver reads them with
the local loader (as ``jmsctl filter`` would, in memory) and hands Spark the layout rows.
Inputs keep their order: each file is its own relation, and the relations are unioned in order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]
from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

from jmsctl import selector as sel
from jmsctl.filter import record_json
from jmsctl.filter.fast import Engine
from jmsctl.messages.decode import RecordError
from jmsctl.messages.loader import (
    MAX_RECORD_SIZE,
    READ_ERRORS,
    InputError,
    OversizedLine,
    is_blank,
    judge_line,
    opened,
    read_failure,
    read_records,
    record_too_large,
)
from jmsctl.messages.model import Message
from jmsctl.spark import ranges, xml_ingest
from jmsctl.spark.schema import (
    ARROW_VERDICTS,
    FALSE,
    LAYOUT,
    REJECTED,
    TRUE,
    UNKNOWN,
    VERDICTS,
    LayoutBuilder,
)

BOM = b"\xef\xbb\xbf"
WITH_VERDICT = T.StructType([*LAYOUT.fields, T.StructField("r", T.ByteType())])
PARQUET_MAGIC = b"PAR1"


@dataclass(frozen=True)
class Source:
    """One input file: ``label`` is how locations name it (the path as given), ``kind`` is
    ``ndjson`` (Spark reads it), ``parquet``, ``artemis-xml`` (Spark's XML reader, xml_ingest.py)
    or ``driver`` (JSON array, single object, stdin, other dump formats)."""

    label: str
    path: str
    kind: str
    fmt: str | None = None  # --from: the dump format (read on the driver unless ndjson)


def _is_uri(path: str) -> bool:
    return "://" in path and not path.startswith("file://")


def plan_inputs(paths: Iterable[str], fmt: str | None = None) -> tuple[list[Source], list[str]]:
    """The sources to read, in order, and the inputs that cannot be read (reported, skipped).
    ``fmt`` (--from) names the dump format instead of detecting it; every format other than
    jmsctl's NDJSON is read on the driver by its local reader."""
    sources: list[Source] = []
    errors: list[str] = []
    for path in paths:
        if path == "-":
            sources.append(Source("<stdin>", "-", "driver", fmt))
        elif _is_uri(path):
            kind = "parquet" if path.rstrip("/").endswith(".parquet") or path.endswith("/") else "ndjson"
            sources.append(Source(path, path, kind))
        elif os.path.isdir(_local(path)):
            entries = sorted(e for e in os.listdir(_local(path)) if not e.startswith((".", "_")))
            files = [os.path.join(path, e) for e in entries if os.path.isfile(os.path.join(_local(path), e))]
            if not files and not os.path.exists(os.path.join(_local(path), "_SUCCESS")):  # an empty Spark output is no error
                errors.append(f"{path}: a directory without data files")
            for file in files:
                _classify(file, sources, errors, fmt)
        else:
            _classify(path, sources, errors, fmt)
    return sources, errors


def _local(path: str) -> str:
    """The file system path of a local path or ``file://`` URI. A ``file://`` NDJSON input is read by
    Spark's text source, as on a cluster; a plain path by the workers themselves (ranges.py)."""
    return path[len("file://"):] if path.startswith("file://") else path


def _classify(path: str, sources: list[Source], errors: list[str], fmt: str | None = None) -> None:
    local = _local(path)
    try:
        with opened(local) as stream:
            magic = stream.read(4)
        if magic == PARQUET_MAGIC and fmt is None:
            sources.append(Source(path, path, "parquet"))
        elif fmt in (None, "artemis-xml") and magic.lstrip().startswith(b"<"):  # Artemis XML: Spark's XML reader when it can (xml_ingest.py)
            readable = xml_ingest.spark_readable(local) is not None
            sources.append(Source(path, path, "artemis-xml") if readable else Source(path, local, "driver", fmt))
        elif _line_oriented(local, fmt):
            sources.append(Source(path, path, "ndjson"))
        else:
            sources.append(Source(path, local, "driver", fmt))
    except InputError as exc:  # the loader's words: no such file, is a directory, not a gzip file, ...
        errors.append(str(exc))


def _line_oriented(path: str, fmt: str | None = None) -> bool:
    """NDJSON, as the local loader decides (a JSON array, one pretty-printed object or another
    dump format is read on the driver): its reader gives chunks of lines for NDJSON and records
    otherwise. Gzip without a ``.gz`` name is read on the driver too (Spark goes by the name)."""
    reader = read_records(path, fmt=fmt)
    try:
        first = next(reader.items(), None)
    finally:
        reader.close()
    if reader.compressed and not path.endswith(".gz"):
        return False
    return first is None or isinstance(first, (bytes, OversizedLine))


# ----- NDJSON on the executors ---------------------------------------------------------------

def decode_line(raw: bytes) -> Message | RecordError:
    """One NDJSON line -> a message or the reason it is rejected: the local loader's judgement
    (duplicate keys, numbers beyond 64 bits and every FORMAT.md rule included)."""
    record = judge_line("", 0, raw)
    return record.message if record.message is not None else record.error  # type: ignore[return-value]


def hadoop_lines_before(path: str, offset: int) -> int | None:
    """How many lines Hadoop's line reader gives to the splits before one starting at ``offset``:
    every line that starts at or before it (the line starting exactly there belongs to the split
    before). None when the file is not readable here (a remote file system)."""
    if offset == 0:
        return 0
    local = _local(path)
    if _is_uri(path) or not os.path.isfile(local):
        return None
    with open(local, "rb") as f:
        return ranges.newlines_before(f, offset) + 1


# A run: lines of one split or range, in order, and the location of its line k (0-based); or one
# line longer than the maximum record size, as its size (ranges.chunks), located at k = 0.
Run = tuple[list[bytes] | int, Callable[[int], str]]


class _Split:
    """Where a run of lines stands in its file: ``label:line``, counted lazily (rejections only)."""

    def __init__(self, label: str, count_before: Callable[[], int | None], first: int) -> None:
        self.label, self.count_before, self.first = label, count_before, first
        self.base: int | None = None
        self.known = False

    def locate(self, k: int) -> str:
        if not self.known:
            self.base, self.known = self.count_before(), True
        if self.base is None:
            return f"{self.label}:(line {self.first + k + 1} of the part of the file read by one task)"
        return f"{self.label}:{self.base + self.first + k + 1}"


def _text_runs(batches: Iterator[pa.RecordBatch], label: str, path: str, limit: int) -> Iterator[list[Run]]:
    """Runs of the rows of Spark's text source: (line bytes, start offset of the line's split)."""
    block: int | None = None
    seen = 0
    for batch in batches:
        values, blocks = batch.column(0).to_pylist(), batch.column(1).to_pylist()
        runs: list[Run] = []
        start = 0
        for k in range(1, len(blocks) + 1):
            if k < len(blocks) and blocks[k] == blocks[start]:
                continue
            if blocks[start] != block:
                block, seen = blocks[start], 0
            offset: int = blocks[start]
            lines = values[start:k]
            if offset == 0 and seen == 0 and lines[0].startswith(BOM):
                lines[0] = lines[0][len(BOM):]  # a UTF-8 byte order mark is not part of the first record
            count_before = partial(hadoop_lines_before, path, offset)
            items: list[bytes | int] = lines if max(map(len, lines)) <= limit else [x if len(x) <= limit else len(x) for x in lines]
            for run in ranges.split_oversized(items):
                runs.append((run, _Split(label, count_before, seen).locate))
                seen += len(run) if isinstance(run, list) else 1
            start = k
        yield runs


def _range_runs(batches: Iterator[pa.RecordBatch], label: str, path: str, limit: int) -> Iterator[list[Run]]:
    """Runs read by this task from its byte ranges (rows of start, end). A file that stops being
    readable (a truncated .gz) fails the job with the loader's words (the CLI prints them)."""
    for batch in batches:
        for start, end in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(), strict=True):
            count_before = partial(ranges.lines_before, path, start)
            try:
                for before, lines in ranges.chunks(path, start, end, limit):
                    yield [(lines, _Split(label, count_before, before).locate)]
            except READ_ERRORS as exc:
                raise read_failure(label, exc) from None


_SELECTORS: dict[tuple[str, str], sel.Selector] = {}
_ENGINES: dict[tuple[str, str], Engine] = {}


def _compiled(text: str | None, dialect: str) -> sel.Selector | None:
    if text is None:
        return None
    key = (text, dialect)
    if key not in _SELECTORS:
        _SELECTORS[key] = sel.compile(text, dialect)
    return _SELECTORS[key]


def _engine(text: str, dialect: str) -> Engine:
    """The local fast NDJSON engine (jmsctl.filter.fast): every line classified, selected lines kept."""
    key = (text, dialect)
    if key not in _ENGINES:
        _ENGINES[key] = Engine(_compiled(text, dialect), exact=True, keep_lines=True)  # type: ignore[arg-type]
    return _ENGINES[key]


def _verdict_batch(runs: list[Run], selector: str, dialect: str, limit: int) -> pa.RecordBatch:
    """Runs -> VERDICTS rows, by the local fast engine (``jmsctl.filter.fast``, ``jmsctl filter``'s)."""
    engine = _engine(selector, dialect)
    rows: list[tuple[bytes | None, int, int, str | None, str | None]] = []
    false = unknown = 0
    for lines, locate in runs:
        if isinstance(lines, int):
            rows.append((None, REJECTED, 1, locate(0), str(record_too_large(lines, limit))))
            continue
        result = engine.process(b"\n".join(lines) + b"\n")
        rows.extend((raw, TRUE, 1, None, None) for _, raw in result.kept)
        rows.extend((None, REJECTED, 1, locate(k), f"{field}: {reason}" if field else reason) for k, _, field, reason in result.errors)
        false += result.false
        unknown += result.unknown
    for verdict, count in ((FALSE, false), (UNKNOWN, unknown)):
        if count:
            rows.append((None, verdict, count, None, None))
    columns: list[Any] = list(zip(*rows, strict=True)) if rows else [[], [], [], [], []]
    return pa.RecordBatch.from_arrays([pa.array(c, f.type) for c, f in zip(columns, ARROW_VERDICTS, strict=True)], schema=ARROW_VERDICTS)


def _layout_batch(runs: list[Run], selector: str | None, dialect: str, limit: int) -> pa.RecordBatch:
    """Runs -> layout rows (with the local verdict in ``r`` when a selector is given)."""
    compiled = _compiled(selector, dialect)
    builder = LayoutBuilder()
    rs: list[int] = []
    for lines, locate in runs:
        if isinstance(lines, int):
            builder.add_rejected(None, locate(0), str(record_too_large(lines, limit)))
            rs.append(REJECTED)
            continue
        for k, line in enumerate(lines):
            raw = line.rstrip(b"\r\n")
            if is_blank(raw):
                continue
            decoded = decode_line(raw)
            if isinstance(decoded, RecordError):
                builder.add_rejected(raw, locate(k), str(decoded))
                rs.append(REJECTED)
                continue
            builder.add_message(raw, decoded)
            if compiled is not None:
                rs.append(_verdict(compiled.evaluate(decoded.selector_values())))
    out = builder.batch()
    return out.append_column("r", pa.array(rs, pa.int8())) if compiled is not None else out


def _apply(
    batches: Iterator[pa.RecordBatch], label: str, path: str, by_range: bool, limit: int, handle: Callable[[list[Run]], pa.RecordBatch]
) -> Iterator[pa.RecordBatch]:
    runs = _range_runs(batches, label, path, limit) if by_range else _text_runs(batches, label, path, limit)
    for group in runs:
        yield handle(group)


def _verdict(result: bool | None) -> int:
    return TRUE if result is True else FALSE if result is False else UNKNOWN


def _lines(spark: SparkSession, source: Source) -> tuple[DataFrame, bool]:
    """The rows the decoding step reads: byte ranges of a file this machine's workers can open
    (local master), else lines from Spark's text source (with each line's split offset)."""
    master = spark.sparkContext.master or ""
    local = master.startswith("local") and not _is_uri(source.path) and os.path.isfile(source.path)
    if local:
        spans = ranges.plan(source.path, spark.sparkContext.defaultParallelism)
        rdd = spark.sparkContext.parallelize(spans, len(spans))
        return spark.createDataFrame(rdd, "start long, end long"), True
    df = spark.read.option("lineSep", "\n").text(source.path)
    return df.select(F.col("value").cast("binary").alias("value"), F.col("_metadata.file_block_start").alias("block")), False


def verdict_frame(spark: SparkSession, source: Source, selector: str, dialect: str, max_record_size: int = MAX_RECORD_SIZE) -> DataFrame:
    """NDJSON -> VERDICTS rows, the selector evaluated by the local fast engine inside mapInArrow."""
    rows, by_range = _lines(spark, source)
    handle = partial(_verdict_batch, selector=selector, dialect=dialect, limit=max_record_size)
    fn = partial(_apply, label=source.label, path=source.path, by_range=by_range, limit=max_record_size, handle=handle)
    return rows.mapInArrow(fn, VERDICTS)


def layout_frame(
    spark: SparkSession, source: Source, selector: str | None = None, dialect: str = "jakarta", max_record_size: int = MAX_RECORD_SIZE
) -> DataFrame:
    """Any source -> LAYOUT rows; with a selector, NDJSON and driver sources add the local verdict ``r``
    (a parquet source has no Python step: the caller evaluates the native Column on it)."""
    if source.kind == "parquet":
        df = spark.read.parquet(source.path)
        missing = [f.name for f in LAYOUT if f.name not in df.columns]
        if missing:
            raise InputError(f"{source.label}: not a jmsctl parquet dump (no column {missing[0]})")
        return df.select(*[F.col(f.name).cast(f.dataType).alias(f.name) for f in LAYOUT])
    if source.kind == "artemis-xml":
        bindings = xml_ingest.spark_readable(_local(source.path)) or {}
        return xml_ingest.xml_frame(spark, source.label, source.path, bindings, selector, dialect)
    if source.kind == "driver":
        return _driver_frame(spark, source, selector, dialect, max_record_size)
    rows, by_range = _lines(spark, source)
    handle = partial(_layout_batch, selector=selector, dialect=dialect, limit=max_record_size)
    fn = partial(_apply, label=source.label, path=source.path, by_range=by_range, limit=max_record_size, handle=handle)
    return rows.mapInArrow(fn, LAYOUT if selector is None else WITH_VERDICT)


def _driver_frame(spark: SparkSession, source: Source, selector: str | None, dialect: str, max_record_size: int) -> DataFrame:
    compiled = _compiled(selector, dialect)
    builder = LayoutBuilder()
    rs: list[int] = []
    for record in read_records(source.path, max_record_size, source.fmt):
        if record.message is None:
            assert record.error is not None
            builder.add_rejected(record.raw, record.location, str(record.error))
            rs.append(REJECTED)
            continue
        builder.add_message(record_json(record), record.message)
        if compiled is not None:
            rs.append(_verdict(compiled.evaluate(record.message.selector_values())))
    table = pa.Table.from_batches([builder.batch()])
    schema = LAYOUT
    if compiled is not None:
        table = table.append_column("r", pa.array(rs, pa.int8()))
        schema = WITH_VERDICT
    return spark.createDataFrame(table, schema=schema)


def native_verdict(condition: Column) -> Column:
    """The verdict code of a layout row under a native selector Column (rejected rows first)."""
    return (
        F.when(F.col("error").isNotNull(), F.lit(REJECTED))
        .when(condition, F.lit(TRUE))
        .when(~condition, F.lit(FALSE))
        .otherwise(F.lit(UNKNOWN))
        .cast("tinyint")
    )


__all__ = ["Source", "decode_line", "hadoop_lines_before", "layout_frame", "native_verdict", "plan_inputs", "verdict_frame"]

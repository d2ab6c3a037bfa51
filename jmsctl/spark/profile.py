"""``jmsctl spark profile``: a dump's profile (jmsctl.analysis.profile) from Spark aggregations.

The records are decoded to the message layout as for every Spark command (schema.py, ingest.py);
everything after is native: each property and header value becomes its key (the local
``value_key`` built from columns: ``cast(... as string)``, ``format_string('%a', ...)`` for floats,
``md5`` for long Strings), the keys are counted per name once (``groupBy``, kept while the small
queries read it), and from those counts come the types, the JSON-null count, the exact distinct
count, the most common values (a window per name) and, for a name with more distinct values than
the local profile counts exactly, the HyperLogLog registers of the keys' MD5 (``max`` of the rank
per register) from which the local estimator computes the very same estimate.

So the document is the local one's, with one difference that only adds exactness: Spark counts
every value, so the most common values are always exact, where the local pass gives bounds once a
name has more than ``CAPACITY`` distinct values. The totals and rejected records come from an
``observe`` on the decoded rows: read = profiled + rejected, as in every Spark job here.
"""

from __future__ import annotations

from collections import defaultdict
from functools import reduce
from typing import Any

from pyspark import StorageLevel
from pyspark.sql import Column, DataFrame, Observation, SparkSession, Window
from pyspark.sql import functions as F

from jmsctl.analysis.profile import LONG_STRING, TOP, NameProfile, Profile, name_profile
from jmsctl.analysis.sketches import EXACT_DISTINCT, HLL_P, HLL_REST, hll_estimate
from jmsctl.messages.loader import MAX_RECORD_SIZE
from jmsctl.spark.ingest import layout_frame, plan_inputs
from jmsctl.spark.job import Report, _order
from jmsctl.spark.schema import HEADERS
from jmsctl.spec import BODY_TYPES
from jmsctl.values import JType

_HEX_DIGITS = 16  # the 64-bit hash: MD5's first 16 hex digits
_PROPERTIES, _HEADERS = "p", "h"


def _prefixed(t: Column, text: Column) -> Column:
    names = F.array(*[F.lit(jt.java_name + ":") for jt in JType])
    return F.concat(F.element_at(names, t.cast("int") + 1), text)


def _string_text(s: Column) -> Column:
    """``value_key``'s String text: itself, or its first LONG_STRING characters, an ellipsis and its MD5."""
    return F.when(F.length(s) <= LONG_STRING, s).otherwise(F.concat(F.substring(s, 1, LONG_STRING), F.lit("\u2026"), F.md5(s)))


def property_key(v: Column) -> Column:
    """The key of a layout property struct (t, b, i, f, d, s); NULL for a JSON-null property."""
    t = v["t"]
    text = (
        F.when(t == int(JType.BOOLEAN), F.when(v["b"], F.lit("true")).otherwise(F.lit("false")))
        .when(t == int(JType.FLOAT), F.format_string("%a", v["f"]))
        .when(t == int(JType.DOUBLE), F.format_string("%a", v["d"]))
        .when(t == int(JType.STRING), _string_text(v["s"]))
        .otherwise(v["i"].cast("string"))
    )
    return F.when(t.isNotNull(), _prefixed(t, text))


def _header_entry(name: str, dtype: Any) -> Column:
    """(section, name, t, key) of a header column, in its selector type (schema.HEADERS: the
    delivery mode is already 'PERSISTENT' / 'NON_PERSISTENT')."""
    c = F.col(name)
    kind = dtype.typeName()
    if kind == "string":
        t, text = JType.STRING, _string_text(c)
    elif kind == "boolean":
        t, text = JType.BOOLEAN, F.when(c, F.lit("true")).otherwise(F.lit("false"))
    else:
        t, text = (JType.INT if kind == "integer" else JType.LONG), c.cast("string")
    key = F.when(c.isNotNull(), F.concat(F.lit(t.java_name + ":"), text))
    return F.struct(F.lit(_HEADERS).alias("section"), F.lit(name).alias("name"), F.lit(int(t)).cast("tinyint").alias("t"), key.alias("key"))


def _entries(frame: DataFrame) -> DataFrame:
    """One row per property entry and per header present: (section, name, t, key); a JSON-null
    property has t and key NULL. One explode over one array per record, so that the records are
    read once (a union of two selects would run the decoding step twice)."""
    props = F.transform(
        F.map_entries("properties"),
        lambda e: F.struct(F.lit(_PROPERTIES).alias("section"), e["key"].alias("name"), e["value"]["t"].alias("t"),
                           property_key(e["value"]).alias("key")),
    )
    headers = F.filter(F.array(*[_header_entry(n, dt) for n, dt in HEADERS.items()]), lambda h: h["key"].isNotNull())
    # A rejected record has NULL properties: the concatenation is NULL and explode gives no row.
    return frame.select(F.explode(F.concat(props, headers)).alias("e")).select("e.section", "e.name", "e.t", "e.key")


def _totals() -> list[Column]:
    rejected = F.col("error").isNotNull()
    kinds = [F.coalesce(F.sum(F.when(~rejected & (F.col("type") == k), 1)), F.lit(0)).alias(f"body_{k}") for k in BODY_TYPES]
    return [
        F.count(F.lit(1)).alias("read"),
        F.coalesce(F.sum(F.when(rejected, 1)), F.lit(0)).alias("rejected_count"),
        F.collect_list(F.when(rejected, F.struct("src", "location", "error"))).alias("rejected"),
        *kinds,
    ]


def _registers(counts: DataFrame, big: list[tuple[str, str]]) -> dict[tuple[str, str], dict[int, int]]:
    """The HyperLogLog registers (index -> rank) of the names with too many values to count exactly."""
    if not big:
        return {}
    wanted = F.struct("section", "name").isin([F.struct(F.lit(s), F.lit(n)) for s, n in big])
    h = F.md5(F.col("key"))
    index = F.conv(F.substring(h, 1, HLL_P // 4), 16, 10).cast("int")
    rest = F.conv(F.substring(h, HLL_P // 4 + 1, _HEX_DIGITS - HLL_P // 4), 16, 10).cast("long")
    rank = F.when(rest == 0, F.lit(HLL_REST + 1)).otherwise(F.lit(HLL_REST + 1) - F.length(F.bin(rest)))
    rows = (counts.where(F.col("key").isNotNull() & wanted).groupBy("section", "name", index.alias("i")).agg(F.max(rank).alias("r")).collect())
    out: dict[tuple[str, str], dict[int, int]] = defaultdict(dict)
    for row in rows:
        out[(row["section"], row["name"])][row["i"]] = row["r"]
    return out


def key_counts(frame: DataFrame) -> DataFrame:
    """Layout rows -> (section, name, t, key, n): how many times each name had each value."""
    return _entries(frame).groupBy("section", "name", "t", "key").agg(F.count(F.lit(1)).alias("n"))


def most_common(counts: DataFrame, top: int) -> DataFrame:
    """The ``top`` most common keys per name, ties by key. A row_number window under a limit:
    Spark keeps the top rows of each name in every task before the shuffle (WindowGroupLimit),
    so a name with a billion distinct values does not go to one task whole."""
    order = Window.partitionBy("section", "name").orderBy(F.col("n").desc(), F.col("key").asc())
    ranked = counts.where(F.col("key").isNotNull()).withColumn("k", F.row_number().over(order))
    return ranked.where(F.col("k") <= top).select("section", "name", "key", "n")


def run_profile(spark: SparkSession, paths: list[str], top: int = TOP, max_record_size: int = MAX_RECORD_SIZE,
                source_format: str | None = None) -> tuple[Profile | None, Report]:
    """The profile of every input (None when no input could be planned) and the job's report."""
    report = Report()
    sources, report.input_errors = plan_inputs(paths, source_format)
    if not sources:
        return None, report
    frames = [layout_frame(spark, s, max_record_size=max_record_size).withColumn("src", F.lit(k)) for k, s in enumerate(sources)]
    frame = reduce(lambda a, b: a.unionByName(b), frames)
    observation = Observation("jmsctl-profile")
    observed = frame.observe(observation, *_totals())
    counts = key_counts(observed)
    counts = counts.persist(StorageLevel.MEMORY_AND_DISK)
    try:
        counts.count()  # the one pass over the records (and the observation's values)
        totals = observation.get
        per_type = counts.groupBy("section", "name", "t").agg(F.sum("n").alias("n"), F.count("key").alias("keys")).collect()
        tops = most_common(counts, top).collect() if top else []
        distinct: dict[tuple[str, str], int] = defaultdict(int)
        for row in per_type:
            distinct[(row["section"], row["name"])] += row["keys"]
        registers = _registers(counts, [name for name, n in distinct.items() if n > EXACT_DISTINCT])
    finally:
        counts.unpersist()
    messages = int(totals["read"]) - int(totals["rejected_count"])
    report.counts.read, report.counts.rejected = int(totals["read"]), int(totals["rejected_count"])
    report.rejected = _order(list(totals["rejected"]))
    bodies = tuple((k, int(totals[f"body_{k}"])) for k in BODY_TYPES if totals[f"body_{k}"])
    names = _names(per_type, tops, distinct, registers, messages)
    return Profile(report.counts.read, messages, report.counts.rejected, bodies, names[_PROPERTIES], names[_HEADERS]), report


def _names(per_type: list[Any], tops: list[Any], distinct: dict[tuple[str, str], int], registers: dict[tuple[str, str], dict[int, int]],
           messages: int) -> dict[str, tuple[NameProfile, ...]]:
    types: dict[tuple[str, str], dict[JType, int]] = defaultdict(dict)
    nulls: dict[tuple[str, str], int] = defaultdict(int)
    for row in per_type:
        name = (row["section"], row["name"])
        if row["t"] is None:
            nulls[name] += row["n"]
        else:
            types[name][JType(row["t"])] = row["n"]
    top: dict[tuple[str, str], list[tuple[str, int]]] = defaultdict(list)
    for row in tops:
        top[(row["section"], row["name"])].append((row["key"], row["n"]))
    out: dict[str, list[NameProfile]] = {_PROPERTIES: [], _HEADERS: []}
    for name in sorted({*types, *nulls}, key=lambda sn: sn[1]):
        n = distinct[name]
        exact = n <= EXACT_DISTINCT
        count = n if exact else hll_estimate(registers[name])
        out[name[0]].append(name_profile(name[1], messages, types[name], nulls[name], count, exact, top[name], True, 0))
    return {section: tuple(entries) for section, entries in out.items()}


__all__ = ["key_counts", "most_common", "property_key", "run_profile"]

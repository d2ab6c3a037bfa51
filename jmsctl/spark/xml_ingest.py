"""Artemis XML (``artemis data exp``) on Spark: Spark's own XML reader (``rowTag`` ``message``)
splits the document across executors; each row becomes a message through the local reader's rules
(``artemis_xml.build_message``), so both paths give the same messages.

The driver first reads the document's prolog with the local parser: a DOCTYPE is refused there,
before Spark opens the file, and the queue bindings (which make JMSDestination) come from it. Spark's
reader sees no line numbers: a message is located as ``file#id=N (ID:...)`` (its Artemis id, then its JMSMessageID). A document the
local reader reads better stays on the driver: ``consumer --data`` files (plain-text bodies, whose
white space Spark's reader cannot tell from the layout's) and documents that do not end with their
root's end tag (truncated: the local reader keeps what is complete and reports the break).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import partial
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import types as T

from jmsctl import selector as sel
from jmsctl.filter import record_json
from jmsctl.messages.decode import RecordError
from jmsctl.messages.formats import artemis_xml
from jmsctl.messages.loader import Record
from jmsctl.messages.sources import opened
from jmsctl.spark.schema import FALSE, LAYOUT, REJECTED, TRUE, UNKNOWN, LayoutBuilder

_S = T.StringType()
_PROPERTY = T.StructType([T.StructField("_name", _S), T.StructField("_value", _S), T.StructField("_type", _S)])
ROW = T.StructType([
    *[T.StructField(f"_{a}", _S) for a in ("id", "priority", "expiration", "timestamp", "type", "user-id")],
    T.StructField("properties", T.StructType([T.StructField("property", T.ArrayType(_PROPERTY))])),
    T.StructField("queues", T.StructType([T.StructField("queue", T.ArrayType(T.StructType([T.StructField("_name", _S)])))])),
    T.StructField("body", T.StructType([T.StructField("_VALUE", _S), T.StructField("_isLarge", _S)])),
])
"""What XMLMessageExporter writes for one message, every value as text (the local rules type them)."""

TAIL = 256


def spark_readable(path: str) -> dict[str, tuple[str, str]] | None:
    """The queue bindings of a ``data exp`` document Spark's reader can take whole, else None (read
    it on the driver). Raises InputError (a DOCTYPE included) as the local reader would."""
    with opened(path) as stream:
        root, bindings = artemis_xml.prolog(stream, path)
    if root != artemis_xml.EXPORT_ROOT or path.endswith(".gz"):
        return None
    with open(path, "rb") as f:
        f.seek(max(0, os.path.getsize(path) - TAIL))
        if not f.read().rstrip().endswith(b"</activemq-journal>"):
            return None
    return bindings


def _pending(row: dict[str, Any]) -> artemis_xml.Pending:
    attrs = {k[1:]: v for k, v in row.items() if k.startswith("_") and v is not None}
    msg = artemis_xml.Pending(0, attrs)
    for p in ((row.get("properties") or {}).get("property") or []):
        msg.properties.append((p["_name"] or "", p["_value"] or "", p["_type"]))
    msg.queues = [q["_name"] or "" for q in ((row.get("queues") or {}).get("queue") or [])]
    body = row.get("body")
    if body is not None:
        msg.body_seen = True
        msg.large = (body.get("_isLarge") or "").lower() == "true"
        msg.text = [body.get("_VALUE") or ""]  # base64 and white space only: split at the white space
    return msg


def _verdict(result: bool | None) -> int:
    return TRUE if result is True else FALSE if result is False else UNKNOWN


def _batches(batches: Iterator[pa.RecordBatch], label: str, bindings: dict[str, tuple[str, str]], selector: str | None,
             dialect: str) -> Iterator[pa.RecordBatch]:
    compiled = sel.compile(selector, dialect) if selector is not None else None
    for batch in batches:
        builder = LayoutBuilder()
        rs: list[int] = []
        for row in batch.to_pylist():
            msg = _pending(row)
            user_id = msg.attrs.get("user-id")
            location = f"{label}#id={msg.attrs.get('id')}" + (f" (ID:{user_id})" if user_id is not None else "")
            try:
                message = artemis_xml.build_message(msg, True, artemis_xml.destination(bindings, msg.queues))
                if message.source is not None:
                    message.source.pop("line", None)  # Spark's reader sees no lines
            except RecordError as exc:  # worded as the local reader words it
                builder.add_rejected(None, location, str(RecordError(exc.field, f"message id {msg.attrs.get('id')}: {exc.reason}")))
                rs.append(REJECTED)
                continue
            builder.add_message(record_json(Record(location, None, message, None)), message)
            if compiled is not None:
                rs.append(_verdict(compiled.evaluate(message.selector_values())))
        out = builder.batch()
        yield out.append_column("r", pa.array(rs, pa.int8())) if compiled is not None else out


def xml_frame(spark: SparkSession, label: str, path: str, bindings: dict[str, tuple[str, str]], selector: str | None = None,
              dialect: str = "jakarta") -> DataFrame:
    """LAYOUT rows (with the local verdict ``r`` when a selector is given) of a ``data exp`` document."""
    rows = spark.read.format("xml").option("rowTag", "message").option("ignoreSurroundingSpaces", "false").schema(ROW).load(path)
    schema = LAYOUT if selector is None else T.StructType([*LAYOUT.fields, T.StructField("r", T.ByteType())])
    return rows.mapInArrow(partial(_batches, label=label, bindings=bindings, selector=selector, dialect=dialect), schema)


__all__ = ["ROW", "spark_readable", "xml_frame"]

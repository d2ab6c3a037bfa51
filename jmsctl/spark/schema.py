"""The one DataFrame layout for messages, in Spark and in parquet, and how a decoded message fills it.

Decision: typed header columns, properties as ``map<string, struct<t, b, i, f, d, s>>``, the record's
JSON line, and the rejection reason. One row per record, rejected records included.

=================  ==========================================================================================
column             content
=================  ==========================================================================================
raw                binary: the NDJSON line exactly as read (no terminator, no UTF-8 BOM); for a record of a
                   JSON array or a single-object file, its compact re-encoding (what ``jmsctl filter`` writes)
location           ``file:line`` (``file:[index]`` in JSON arrays) of a rejected record; NULL for messages
error              NULL for a message; ``field: reason`` for a rejected record (every column but raw,
                   location and error is then NULL)
type               message | text | bytes | map | stream | object
JMSMessageID ...   the six selectable headers in their selector types: JMSMessageID, JMSCorrelationID,
                   JMSType string; JMSTimestamp bigint; JMSPriority int; JMSDeliveryMode string, already the
                   selector's 'PERSISTENT' / 'NON_PERSISTENT' (the JSON may say 2 / 1: raw keeps it)
JMSDestination ... the non-selectable ones: JMSDestination, JMSReplyTo string; JMSExpiration,
                   JMSDeliveryTime bigint; JMSRedelivered boolean
properties         map name -> struct<t tinyint, b boolean, i bigint, f float, d double, s string>
body               the body as compact JSON text (FORMAT.md notation), NULL when there is none
=================  ==========================================================================================

Why a map of typed structs. A property's Java type is per message (``weight`` is an int in one
message and a String in the next), so no column type per name can hold it, and the type is part of
the value (docs/SEMANTICS.md#comparisons: ``f = 0.1`` is FALSE for the float 0.1f, int and long wrap
differently). ``t`` is the ``jmsctl.values.JType`` code; ``b`` holds a boolean, ``s`` a String,
``i`` a byte/short/int/long. Numbers also carry their promoted forms, computed once at load time
instead of in every comparison: ``f`` (float32) is the value as Java promotes it to float (the
float itself, or the integer rounded once to float), ``d`` (double) the value as promoted to
double (exact for integers and floats); a double has only ``d``. The type is always ``t``, and
the value is the first of ``i``, ``f``, ``d`` that is set, so nothing is lost. A
property written as JSON null is an entry whose struct fields are all NULL: absent for selectors
(as locally), and still there. Map keys compare as exact strings, so names stay case-sensitive,
which a struct of columns would not (Spark resolves column names case-insensitively by default).
The selector compiler (``compiler.py``) reads ``properties[name]`` with native map lookup and
dispatches on ``t``: no parsing and no Python at evaluation time.

Why not VARIANT. Spark 4's VARIANT keeps JSON types at native speed, but not Java's: ``parse_json``
reads ``7`` and ``3000000000`` both as BIGINT (int vs long is lost) and ``1.5`` or ``0.1`` as a
DECIMAL (float vs double is lost; measured with ``schema_of_variant`` on Spark 4.3). A variant
built from typed columns would keep the types, but then reading a value's type back per row means
``schema_of_variant`` (a string per value) or one ``try_variant_get`` per candidate type, where the
struct has ``t``. The typed struct gives the same exactness with plain column operations, and
parquet stores it as plain columns (one per field).

``raw`` makes output byte-exact: NDJSON written by ``spark filter`` is the input lines unchanged,
whether the input was NDJSON or parquet written by ``spark convert`` (which keeps every column,
rejected records included, so that filtering the parquet gives the same counts as the NDJSON).
"""

from __future__ import annotations

from typing import Any

import orjson
import pyarrow as pa  # type: ignore[import-untyped]
from pyspark.sql import types as T

from jmsctl.messages.encode import message_json
from jmsctl.messages.model import DELIVERY_MODES, Message, selector_view
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, STRING, JType, TypedValue, int_to_f32

SELECTOR_HEADERS: dict[str, T.DataType] = {
    "JMSMessageID": T.StringType(),
    "JMSTimestamp": T.LongType(),
    "JMSCorrelationID": T.StringType(),
    "JMSType": T.StringType(),
    "JMSDeliveryMode": T.StringType(),
    "JMSPriority": T.IntegerType(),
}
OTHER_HEADERS: dict[str, T.DataType] = {
    "JMSDestination": T.StringType(),
    "JMSReplyTo": T.StringType(),
    "JMSExpiration": T.LongType(),
    "JMSDeliveryTime": T.LongType(),
    "JMSRedelivered": T.BooleanType(),
}
HEADERS = {**SELECTOR_HEADERS, **OTHER_HEADERS}

PROPERTY_VALUE = T.StructType(
    [
        T.StructField("t", T.ByteType()),
        T.StructField("b", T.BooleanType()),
        T.StructField("i", T.LongType()),
        T.StructField("f", T.FloatType()),
        T.StructField("d", T.DoubleType()),
        T.StructField("s", T.StringType()),
    ]
)

LAYOUT = T.StructType(
    [
        T.StructField("raw", T.BinaryType()),
        T.StructField("location", T.StringType()),
        T.StructField("error", T.StringType()),
        T.StructField("type", T.StringType()),
        *(T.StructField(name, dt) for name, dt in HEADERS.items()),
        T.StructField("properties", T.MapType(T.StringType(), PROPERTY_VALUE, valueContainsNull=True)),
        T.StructField("body", T.StringType()),
    ]
)

# What the NDJSON fast path of ``spark filter`` produces: the local evaluator's verdicts. ``r`` is
# 1 TRUE, 0 FALSE, 2 UNKNOWN, 3 rejected; ``n`` how many records the row stands for. A selected
# record is a row with its raw line, a rejected one a row with its location and error, and the
# FALSE and UNKNOWN records of an Arrow batch are two rows of counts (nothing else goes back).
VERDICTS = T.StructType(
    [
        T.StructField("raw", T.BinaryType()),
        T.StructField("r", T.ByteType()),
        T.StructField("n", T.LongType()),
        T.StructField("location", T.StringType()),
        T.StructField("error", T.StringType()),
    ]
)
TRUE, FALSE, UNKNOWN, REJECTED = 1, 0, 2, 3

_PROPERTY_ARROW = pa.struct(
    [("t", pa.int8()), ("b", pa.bool_()), ("i", pa.int64()), ("f", pa.float32()), ("d", pa.float64()), ("s", pa.string())]
)
_HEADER_ARROW = {
    "JMSMessageID": pa.string(),
    "JMSTimestamp": pa.int64(),
    "JMSCorrelationID": pa.string(),
    "JMSType": pa.string(),
    "JMSDeliveryMode": pa.string(),
    "JMSPriority": pa.int32(),
    "JMSDestination": pa.string(),
    "JMSReplyTo": pa.string(),
    "JMSExpiration": pa.int64(),
    "JMSDeliveryTime": pa.int64(),
    "JMSRedelivered": pa.bool_(),
}
ARROW_LAYOUT = pa.schema(
    [
        ("raw", pa.binary()),
        ("location", pa.string()),
        ("error", pa.string()),
        ("type", pa.string()),
        *_HEADER_ARROW.items(),
        ("properties", pa.map_(pa.string(), _PROPERTY_ARROW)),
        ("body", pa.string()),
    ]
)
ARROW_VERDICTS = pa.schema([("raw", pa.binary()), ("r", pa.int8()), ("n", pa.int64()), ("location", pa.string()), ("error", pa.string())])


def body_json(message: Message) -> str | None:
    """The body as compact JSON in the FORMAT.md notation (the encoder's own rules), or None."""
    if message.body is None:
        return None
    return orjson.dumps(message_json(Message(body_type=message.body_type, body=message.body))["body"]).decode("utf-8")


class LayoutBuilder:
    """Rows of the layout, accumulated column by column and turned into one Arrow record batch."""

    def __init__(self) -> None:
        self.raw: list[bytes | None] = []
        self.location: list[str | None] = []
        self.error: list[str | None] = []
        self.type: list[str | None] = []
        self.body: list[str | None] = []
        self.headers: dict[str, list[Any]] = {name: [] for name in HEADERS}
        self.offsets: list[int] = [0]  # where each row's entries start, then the end
        self.null_maps: list[bool] = []
        self.keys: list[str] = []
        self.fields: tuple[list[Any], ...] = ([], [], [], [], [], [])  # t b i f d s

    def __len__(self) -> int:
        return len(self.raw)

    def add_message(self, raw: bytes | None, message: Message) -> None:
        self.raw.append(raw)
        self.location.append(None)
        self.error.append(None)
        self.type.append(message.body_type)
        self.body.append(body_json(message))
        headers = message.headers
        for name, column in self.headers.items():
            v = headers.get(name)
            column.append(DELIVERY_MODES[v] if name == "JMSDeliveryMode" and v is not None else v)
        for name, value in message.properties.items():
            self.keys.append(name)
            _append_value(self.fields, value)
        for name in message.null_properties:
            self.keys.append(name)
            for column in self.fields:
                column.append(None)
        self.offsets.append(len(self.keys))
        self.null_maps.append(False)

    def add_rejected(self, raw: bytes | None, location: str, error: str) -> None:
        self.raw.append(raw)
        self.location.append(location)
        self.error.append(error)
        self.type.append(None)
        self.body.append(None)
        for column in self.headers.values():
            column.append(None)
        self.offsets.append(len(self.keys))
        self.null_maps.append(True)  # a NULL map: the record has no properties to speak of

    def batch(self) -> pa.RecordBatch:
        t, b, i, f, d, s = self.fields
        items = pa.StructArray.from_arrays(
            [pa.array(t, pa.int8()), pa.array(b, pa.bool_()), pa.array(i, pa.int64()), pa.array(f, pa.float32()),
             pa.array(d, pa.float64()), pa.array(s, pa.string())],
            fields=list(_PROPERTY_ARROW),
        )
        # A NULL map is a NULL at its start offset (Arrow's convention for list-like arrays).
        mask = pa.array([*self.null_maps, False]) if any(self.null_maps) else None
        offsets = pa.array(self.offsets, pa.int32(), mask=mask)
        properties = pa.MapArray.from_arrays(offsets, pa.array(self.keys, pa.string()), items)
        columns = [
            pa.array(self.raw, pa.binary()),
            pa.array(self.location, pa.string()),
            pa.array(self.error, pa.string()),
            pa.array(self.type, pa.string()),
            *(pa.array(self.headers[name], _HEADER_ARROW[name]) for name in HEADERS),
            properties,
            pa.array(self.body, pa.string()),
        ]
        return pa.RecordBatch.from_arrays(columns, schema=ARROW_LAYOUT)


def _append_value(fields: tuple[list[Any], ...], value: TypedValue) -> None:
    t, v = value
    ts, bs, is_, fs, ds, ss = fields
    ts.append(int(t))
    integral = BOOLEAN < t < FLOAT
    bs.append(v if t is BOOLEAN else None)
    is_.append(v if integral else None)
    fs.append(int_to_f32(v) if integral else v if t is FLOAT else None)
    ds.append(float(v) if integral else v if t is FLOAT or t is DOUBLE else None)
    ss.append(v if t is STRING else None)


def typed_value(entry: Any) -> TypedValue | None:
    """A property struct (a Row or dict with t, b, i, f, d, s) back to the local value model."""
    t = entry["t"]
    if t is None:
        return None
    jt = JType(t)
    if jt is BOOLEAN:
        return (jt, entry["b"])
    if jt is STRING:
        return (jt, entry["s"])
    if jt is FLOAT:
        return (jt, entry["f"])
    if jt is DOUBLE:
        return (jt, entry["d"])
    return (jt, entry["i"])


def selector_values(row: Any) -> dict[str, TypedValue]:
    """What a selector sees of a layout row (a Row, or a dict from Arrow's ``to_pylist``), as
    ``Message.selector_values`` gives it for the decoded message."""
    headers = {name: row[name] for name in SELECTOR_HEADERS if row[name] is not None}
    entries = row["properties"] or {}
    properties = {}
    for name, entry in entries.items() if isinstance(entries, dict) else entries:  # Arrow gives (key, value) pairs
        value = None if entry is None else typed_value(entry)
        if value is not None:
            properties[name] = value
    return selector_view(headers, properties)


__all__ = [
    "ARROW_LAYOUT",
    "ARROW_VERDICTS",
    "FALSE",
    "HEADERS",
    "LAYOUT",
    "REJECTED",
    "SELECTOR_HEADERS",
    "TRUE",
    "UNKNOWN",
    "VERDICTS",
    "LayoutBuilder",
    "body_json",
    "selector_values",
    "typed_value",
]

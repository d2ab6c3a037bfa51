#!/usr/bin/env python3
"""Generate the sample message dumps in ``samples/``: deterministic, standard library only.

Usage::

    python scripts/gen_samples.py            # (re)writes the files below into samples/
    python scripts/gen_samples.py OUT_DIR    # writes them into OUT_DIR instead

or from Python: ``generate(out_dir)``. One fixed seed (``SEED``) drives a private
``random.Random``; the same Python gives the same bytes on every run (tests/test_samples.py
checks that the committed samples are exactly what this script writes). It takes well under
a second.

Files written (the dump format is docs/FORMAT.md):

``orders.ndjson``
    3,000 messages of an order-processing system, one compact JSON object per line. Three
    brokers: broker-1 (Jakarta Messaging 3, dumps every header, null ones included), broker-2
    (IBM MQ: JMSDeliveryMode as 2/1, ``JMS_IBM_*`` properties, no JMSDeliveryTime) and
    broker-3 (AMQP: ``JMS_AMQP_*`` properties). JMSMessageID ``ID:broker-N-SEQ``, JMSTimestamp
    increasing over four days around the 2024/2025 new year. Orders are created (JMSType
    car/truck/bike/part/van/accessory, queue://orders or queue://orders.express), then updated
    (paid, shipped, delivered, cancelled, ...: topic://orders.events, JMSCorrelationID = the
    creating message's ID); multi-part orders are groups (JMSXGroupID/JMSXGroupSeq); a few
    heartbeats carry no properties at all. Properties have varied Java types, bare and typed
    (weight is an int but sometimes a short, long or double, and in ~2% of messages wrongly the
    String "2600": a producer bug selectors never match), unitPrice is a typed float, rating a
    byte, discount a short; a few totals are NaN, Infinity or -0.0; strings hold accents, CJK,
    emoji, quotes, backslashes and newlines; a handful of properties are JSON null (loaded as
    absent, reported by the validator). Every body type occurs: text (XML, JSON, plain), bytes,
    map (with a bytes entry), stream, object, and message (no body); ``type`` is sometimes left
    out where FORMAT.md lets it be inferred. The javadoc selector
    ``JMSType = 'car' AND color = 'blue' AND weight > 2500`` selects about 9% of them.
``orders.json``
    The first 200 of those messages as one JSON array, indented by 2.
``bad-records.ndjson`` and ``bad-records.md``
    Valid records mixed with one bad record of every kind (``BAD_RECORDS``); the Markdown file
    explains each line and the rejection expected. Written in binary: the invalid UTF-8 line
    really is invalid.
``schema.json``
    A consumer schema: property name -> the getter type the consumers use (``SCHEMA``).

``samples/README.md``, ``samples/orders-tests.jsonl`` and ``samples/selectors.txt`` are written
by hand, not by this script.
"""

from __future__ import annotations

import base64
import json
import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

SEED = 20241229
N_MESSAGES = 3000
N_ARRAY = 200
START_MS = int(datetime(2024, 12, 29, 6, 0, tzinfo=timezone.utc).timestamp() * 1000)
MEAN_GAP_MS = 110_000  # 3,000 messages over about four days

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "samples"

# What the consumers read, unconditionally, with these getters. Optional properties (rating, discount,
# JMSXGroupSeq, ...) are left out: a consumer reads those only when present, and a numeric getter on
# an absent property throws (valueOf(null)), so listing them would flag every message without them.
SCHEMA: dict[str, str] = {
    "orderId": "long",
    "customer": "String",
    "region": "String",
    "status": "String",
    "color": "String",
    "weight": "int",
    "sku": "String",
    "quantity": "int",
    "unitPrice": "float",
    "currency": "String",
    "total": "double",
    "express": "boolean",
    "JMSXDeliveryCount": "int",
}


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _typed(java_type: str, value: Any) -> dict[str, Any]:
    return {"type": java_type, "value": value}


# --- the order-processing system ----------------------------------------------------------------

CUSTOMERS = [
    # (name, region, country)
    ("ACME Ltd", "UK", "GB"),
    ("ACME Logistics", "US", "US"),
    ("Globex Corporation", "US", "US"),
    ("Initech", "US", "US"),
    ("Umbrella Retail", "UK", "GB"),
    ("Müller & Söhne GmbH", "EU", "DE"),
    ("Fahrradhaus Grüner Weg", "EU", "DE"),
    ("Société Générale d'Équipement", "EU", "FR"),
    ("Ñandú Motors S.A.", "LATAM", "AR"),
    ("São Paulo Peças Ltda", "LATAM", "BR"),
    ("O'Brien & Daughters", "EU", "IE"),
    ('The "Best" Bikes Co.', "US", "US"),
    ("株式会社トヨダ商事", "APAC", "JP"),
    ("北京快运有限公司", "APAC", "CN"),
    ("서울 모터스", "APAC", "KR"),
    ("Rocket 🚀 Parts", "US", "US"),
    ("Østergaard A/S", "EU", "DK"),
    ("Backslash \\ Trading", "UK", "GB"),
    ("Zürich Velo AG", "EU", "CH"),
    ("Kraków Auto Sp. z o.o.", "EU", "PL"),
]

CURRENCY = {"GB": "GBP", "US": "USD", "DE": "EUR", "FR": "EUR", "IE": "EUR", "AR": "ARS", "BR": "BRL",
            "JP": "JPY", "CN": "CNY", "KR": "KRW", "DK": "DKK", "CH": "CHF", "PL": "PLN"}

PRODUCT_TYPES = ["car", "truck", "bike", "part", "van", "accessory"]
PRODUCT_WEIGHTS = [40, 10, 14, 22, 7, 7]

COLORS = {
    "car": (["blue", "red", "black", "white", "silver", "green", "Blue"], [42, 14, 14, 12, 12, 5, 1]),
    "van": (["white", "silver", "blue", "black"], [55, 20, 15, 10]),
    "truck": (["white", "red", "blue", "yellow"], [50, 20, 20, 10]),
    "bike": (["black", "red", "blue", "green", "orange", "turquoise"], [30, 20, 20, 10, 10, 10]),
    "part": (["black", "silver", "n/a"], [40, 30, 30]),
    "accessory": (["black", "blue", "pink", "grey"], [40, 25, 15, 20]),
}

MODELS = {"car": ["ASTRA", "CIVIC", "GOLF", "MODEL3", "CLIO", "COROLLA"], "van": ["TRANSIT", "SPRINTER", "KANGOO"],
          "truck": ["ACTROS", "FH16", "TGX"], "bike": ["ROAD", "MTB", "CITY", "EBIKE"],
          "part": ["BRAKE", "FILTER", "TYRE", "WIPER", "BATTERY"], "accessory": ["HELMET", "LOCK", "RACK", "LAMP"]}

UPDATES = ["paid", "shipped", "delivered", "cancelled", "on_hold", "returned", "refunded"]
UPDATE_WEIGHTS = [30, 28, 22, 8, 5, 4, 3]
CARRIERS = ["DHL", "UPS", "FedEx", "DPD", "GLS", "ヤマト運輸", "La Poste"]
USERS = {1: ["orders-api", "checkout-svc", "jdoe"], 2: ["MQUSER1", "ERPBATCH"], 3: ["amqp-gateway", "svc_mobile"]}
DESTINATIONS_NEW = ["queue://orders", "queue://orders.express"]
NOTES = [
    'Leave at the door; say "hi" to the dog',
    "Deliver to C:\\Warehouse\\Dock 7",
    "Call before delivery.\nGate code: 4711",
    "Tab\tseparated\tnote",
    "Ring twice 🔔🔔",
    "请放在门口",
    "配達前に電話してください",
    "Lieferung nur werktags, bitte!",
    "50% deposit paid; rest on delivery",
    "it's a gift — don't include the invoice",
    "",
]


@dataclass
class Order:
    order_id: int
    customer: str
    region: str
    country: str
    currency: str
    jms_type: str
    color: str | None
    weight: float | int | None
    sku: str
    quantity: int
    unit_price: float
    discount: int
    express: bool | None
    first_message_id: str = ""


class Generator:
    """All state of one run; ``messages()`` yields the dumped message objects in order."""

    def __init__(self, seed: int = SEED) -> None:
        self.rng = random.Random(seed)
        self.timestamp = START_MS
        self.seq = {1: 100_000, 2: 7_340_000, 3: 1}
        self.next_order = 4_294_967_396  # order numbers beyond the int range: longs
        self.recent: list[Order] = []

    # -- helpers ------------------------------------------------------------------------------
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, items: list[Any], weights: list[int]) -> Any:
        return self.rng.choices(items, weights)[0]

    def new_order(self) -> Order:
        r = self.rng
        name, region, country = r.choice(CUSTOMERS)
        jms_type = self.pick(PRODUCT_TYPES, PRODUCT_WEIGHTS)
        colors, cw = COLORS[jms_type]
        color = None if self.chance(0.03) else self.pick(colors, cw)
        weight: float | int | None
        if jms_type == "car":
            weight = r.randint(1300, 4200)  # sedans to pickups
        elif jms_type == "van":
            weight = r.randint(1800, 3500)
        elif jms_type == "truck":
            weight = r.randrange(7500, 32000, 50)
        elif jms_type == "bike":
            weight = r.randint(7, 28)
        elif self.chance(0.95):
            weight = r.randint(1, 60)
        else:
            weight = round(r.uniform(0.05, 0.95), 2)  # a small part: that producer sends a double
        if self.chance(0.02):
            weight = None
        model = r.choice(MODELS[jms_type])
        if jms_type == "bike":
            sku = f"B_{r.randint(100, 999)}" if self.chance(0.8) else f"B-{r.randint(100, 999)}"
        else:
            sku = f"{jms_type[:3].upper()}-{model}-{r.randint(1, 9999):04d}"
        if jms_type in ("car", "van", "truck"):
            quantity = r.randint(1, 3)
        else:
            quantity = r.randint(1, 12) if self.chance(0.8) else r.randint(13, 200)
        base = {"car": (14_000, 85_000), "van": (22_000, 60_000), "truck": (60_000, 190_000), "bike": (250, 6_500),
                "part": (3, 900), "accessory": (5, 250)}[jms_type]
        unit_price = round(r.uniform(*base), 2)
        discount = self.pick([0, 5, 10, 15, 20, 35], [50, 20, 15, 8, 5, 2])
        express = None if self.chance(0.3) else self.chance(0.25)
        order = Order(self.next_order, name, region, country, CURRENCY[country], jms_type, color, weight, sku,
                      quantity, unit_price, discount, express)
        self.next_order += r.randint(1, 40)
        return order

    def next_header_base(self) -> tuple[int, str, int]:
        self.timestamp += 1 + int(self.rng.expovariate(1 / MEAN_GAP_MS))
        broker = self.pick([1, 2, 3], [55, 25, 20])
        self.seq[broker] += self.rng.randint(1, 3)
        return broker, f"ID:broker-{broker}-{self.seq[broker]}", self.timestamp

    # -- property values in their many written forms -------------------------------------------
    def weight_value(self, w: float | int | None) -> Any:
        if w is None:
            return None
        if isinstance(w, float):
            return w if self.chance(0.85) else _typed("double", w)
        x = self.rng.random()
        if x < 0.02:
            return "2600"  # a producer bug: setStringProperty("weight", ...) with a constant
        if x < 0.80:
            return w
        if x < 0.86:
            return _typed("int", w)
        if x < 0.95 and w <= 32767:
            return _typed("short", w)
        if x < 0.98:
            return _typed("long", w)
        return _typed("double", w + self.rng.choice([0.0, 0.5, 0.25]))

    def total_value(self, order: Order, status: str) -> Any:
        total = round(order.quantity * order.unit_price * (100 - order.discount) / 100, 2)
        if status in ("cancelled", "refunded") and self.chance(0.1):
            return -0.0  # a refund computed as -(0.0)
        x = self.rng.random()
        if x < 0.003:
            return _typed("double", "NaN")  # 0/0 in a producer's price calculation
        if x < 0.004:
            return _typed("double", "Infinity")
        return float(total) if x < 0.85 else _typed("double", float(total))

    def int_value(self, v: int, p_typed: float = 0.2) -> Any:
        return _typed("int", v) if self.chance(p_typed) else v

    # -- one message ---------------------------------------------------------------------------
    def message(self, order: Order | None, status: str, group: tuple[str, int] | None = None) -> dict[str, Any]:
        r = self.rng
        broker, message_id, ts = self.next_header_base()
        headers: dict[str, Any] = {"JMSMessageID": message_id, "JMSTimestamp": ts}
        properties: dict[str, Any] = {}
        redelivered = self.chance(0.05)

        if order is None:  # a heartbeat: headers only
            headers["JMSType"] = "heartbeat"
            headers["JMSDeliveryMode"] = "NON_PERSISTENT" if broker != 2 else 1
            headers["JMSPriority"] = 0
            headers["JMSDestination"] = "topic://orders.heartbeat"
            headers["JMSExpiration"] = ts + 60_000
            msg: dict[str, Any] = {"headers": headers}
            if self.chance(0.5):
                msg = {"type": "message", "headers": headers}
            return msg

        is_new = status == "new"
        if is_new and not order.first_message_id:
            order.first_message_id = message_id
        correlation = None if is_new else order.first_message_id
        if broker == 1 or correlation is not None:
            headers["JMSCorrelationID"] = correlation
        jms_type: str | None = order.jms_type if not self.chance(0.015) else None
        if jms_type is not None or broker == 1:
            headers["JMSType"] = jms_type
        persistent = not self.chance(0.12)
        if broker == 2:
            headers["JMSDeliveryMode"] = 2 if persistent else 1
        else:
            headers["JMSDeliveryMode"] = "PERSISTENT" if persistent else "NON_PERSISTENT"
        if order.express and self.chance(0.7):
            priority = r.randint(7, 9)
        else:
            priority = self.pick(list(range(10)), [1, 1, 2, 3, 80, 4, 3, 2, 2, 2])
        headers["JMSPriority"] = priority
        if is_new:
            headers["JMSDestination"] = DESTINATIONS_NEW[1] if order.express else DESTINATIONS_NEW[0]
        else:
            headers["JMSDestination"] = "topic://orders.events" if self.chance(0.9) else "topic://orders.audit"
        reply_to = "queue://orders.replies" if (is_new and self.chance(0.25)) else None
        if reply_to is not None or broker == 1:
            headers["JMSReplyTo"] = reply_to
        headers["JMSExpiration"] = 0 if self.chance(0.7) else ts + self.pick([3_600_000, 86_400_000, 604_800_000], [3, 5, 2])
        if broker != 2:
            headers["JMSDeliveryTime"] = ts if self.chance(0.9) else ts + r.choice([5_000, 60_000, 300_000])
        headers["JMSRedelivered"] = redelivered

        # properties, in a producer's (stable) order
        properties["orderId"] = order.order_id if self.chance(0.9) else _typed("long", order.order_id)
        properties["customer"] = order.customer
        if not self.chance(0.03):
            properties["region"] = order.region
        properties["status"] = status
        # every message, updates included, carries the order line: consumers read it unconditionally
        if order.color is not None:
            properties["color"] = order.color
        w = self.weight_value(order.weight)
        if w is not None:
            properties["weight"] = w
        properties["sku"] = order.sku
        properties["quantity"] = self.int_value(order.quantity)
        properties["unitPrice"] = _typed("float", order.unit_price)
        if order.unit_price < 1000 and self.chance(0.004):
            properties["unitPrice"] = _typed("float", self.pick(["NaN", "-Infinity"], [3, 1]))
        properties["currency"] = order.currency
        properties["total"] = self.total_value(order, status)
        if order.discount:
            properties["discount"] = _typed("short", order.discount)
        if order.express is not None:
            properties["express"] = order.express if self.chance(0.85) else _typed("boolean", order.express)
        if status == "delivered" and self.chance(0.5):
            properties["rating"] = _typed("byte", self.pick([-1, 1, 2, 3, 4, 5], [10, 3, 4, 10, 30, 43]))
        if status == "shipped":
            properties["carrier"] = r.choice(CARRIERS)
            properties["trackingNumber"] = f"JD{r.randint(0, 10**18):018d}"
        if order.country in ("DE", "CH") and order.jms_type == "bike":
            properties["größe"] = r.choice(["S", "M", "L", "XL"])
        if self.chance(0.07):
            properties["note"] = r.choice(NOTES)
        if self.chance(0.002):
            properties["coupon"] = None  # dumped as null by a buggy exporter: absent for selectors
        properties["JMSXDeliveryCount"] = _typed("int", r.randint(2, 6) if redelivered else 1)
        if group is not None:
            properties["JMSXGroupID"] = group[0]
            properties["JMSXGroupSeq"] = _typed("int", group[1])
        properties["JMSXUserID"] = r.choice(USERS[broker])
        if broker == 1 and self.chance(0.3):
            properties["JMSXAppID"] = "order-service/2.4.1"
        if broker == 2:
            properties["JMS_IBM_MsgType"] = _typed("int", 8)
            properties["JMS_IBM_Character_Set"] = "UTF-8"
        elif broker == 3 and self.chance(0.8):
            properties["JMS_AMQP_ORIGINAL_ENCODING"] = _typed("byte", self.pick([5, 6, 7, 8], [4, 1, 1, 4]))

        body_type, body = self.body(order, status, properties, broker, message_id)
        if broker == 2 and body_type == "text":
            properties["JMS_IBM_Format"] = "MQSTR   "
        msg = {}
        if not ((body_type == "text" and self.chance(0.05)) or (body_type == "message" and self.chance(0.3))):
            msg["type"] = body_type
        msg["headers"] = headers
        msg["properties"] = properties
        if body is not None:
            msg["body"] = body
        return msg

    def body(self, order: Order, status: str, props: dict[str, Any], broker: int, message_id: str) -> tuple[str, Any]:
        r = self.rng
        if status == "new":
            kind = self.pick(["xml", "json", "map", "object", "stream", "bytes"], [36, 30, 14, 8, 7, 5])
        else:
            kind = self.pick(["plain", "json", "message", "map", "bytes", "stream"], [30, 15, 35, 8, 7, 5])
        total = round(order.quantity * order.unit_price * (100 - order.discount) / 100, 2)
        if kind == "xml":
            return "text", _xml_order(order, total)
        if kind == "json":
            doc: dict[str, Any] = {"orderId": order.order_id, "status": status, "customer": order.customer,
                                   "items": [{"sku": order.sku, "qty": order.quantity, "unitPrice": order.unit_price}],
                                   "total": total, "currency": order.currency}
            if "note" in props:
                doc["note"] = props["note"]
            return "text", json.dumps(doc, ensure_ascii=self.chance(0.3))
        if kind == "plain":
            if status == "shipped":
                text = f"Order {order.order_id} shipped via {props.get('carrier')}, tracking {props.get('trackingNumber')}"
            elif status == "cancelled":
                text = f"Order {order.order_id} cancelled by customer.\nReason: \"changed my mind\""
            else:
                text = f"Order {order.order_id}: {status}"
            return "text", text
        if kind == "message":
            return "message", None
        if kind == "map":
            body: dict[str, Any] = {
                "orderId": _typed("long", order.order_id),
                "sku": order.sku,
                "qty": _typed("int", order.quantity),
                "unitPrice": _typed("float", order.unit_price),
                "total": total,
                "giftWrap": self.chance(0.1),
                "priorityCode": _typed("short", r.randint(0, 3)),
                "flags": _typed("byte", r.randint(0, 127)),
            }
            if self.chance(0.6):
                body["thumbnail"] = {"type": "bytes", "value": _b64(b"\x89PNG\r\n\x1a\n" + r.randbytes(r.randint(8, 40)))}
            return "map", body
        if kind == "stream":
            items: list[Any] = [order.sku, _typed("int", order.quantity), _typed("float", order.unit_price),
                                _typed("long", order.order_id), bool(order.express), total]
            if self.chance(0.5):
                items.append({"type": "bytes", "value": _b64(r.randbytes(r.randint(4, 24)))})
            return "stream", items
        if kind == "object":
            cls = b"com.example.orders.OrderCreatedEvent"
            data = b"\xac\xed\x00\x05sr\x00" + bytes([len(cls)]) + cls + r.randbytes(r.randint(24, 120))
            return "object", _b64(data)
        if broker == 2:  # an EBCDIC-ish record from the mainframe side
            data = f"ORDER {order.order_id} {status.upper()}".encode("cp500") + r.randbytes(r.randint(0, 16))
        else:
            data = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n" + r.randbytes(r.randint(16, 96))
        return "bytes", _b64(data)

    def messages(self, n: int = N_MESSAGES) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while len(out) < n:
            x = self.rng.random()
            if x < 0.005:
                out.append(self.message(None, "heartbeat"))
            elif x < 0.56 or len(self.recent) < 5:
                order = self.new_order()
                if self.chance(0.06):  # a multi-part order: one message per part, grouped
                    gid = f"order-{order.order_id}"
                    for seq in range(1, self.rng.randint(2, 4) + 1):
                        out.append(self.message(order, "new", (gid, seq)))
                else:
                    out.append(self.message(order, "new"))
                self.recent.append(order)
                del self.recent[:-60]
            else:
                order = self.rng.choice(self.recent)
                out.append(self.message(order, self.pick(UPDATES, UPDATE_WEIGHTS)))
        return out[:n]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _xml_escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _xml_order(order: Order, total: float) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<order id="{order.order_id}" type="{order.jms_type}">\n'
        f"  <customer region=\"{order.region}\">{_xml_escape(order.customer)}</customer>\n"
        f'  <item sku="{order.sku}" qty="{order.quantity}" unitPrice="{order.unit_price:.2f}"/>\n'
        f'  <total currency="{order.currency}">{total:.2f}</total>\n'
        "</order>"
    )


# --- bad records ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class BadRecord:
    """One line of bad-records.ndjson. ``field`` is the RecordError field the loader should name
    ("" for a record-level error); ``rejected`` False means a valid record."""

    title: str
    explanation: str
    line: bytes
    rejected: bool
    field: str = ""


def _valid(title: str, obj: dict[str, Any], explanation: str = "A valid record between the bad ones.") -> BadRecord:
    return BadRecord(title, explanation, _dumps(obj).encode("utf-8"), False)


def _bad(title: str, explanation: str, line: str | bytes, field: str = "") -> BadRecord:
    return BadRecord(title, explanation, line if isinstance(line, bytes) else line.encode("utf-8"), True, field)


_H = '"headers":{"JMSMessageID":"ID:broker-9-%d","JMSType":"car"}'

BAD_RECORDS: list[BadRecord] = [
    _valid("valid text message", {"type": "text", "headers": {"JMSMessageID": "ID:broker-9-1", "JMSTimestamp": 1735660800000,
           "JMSType": "car", "JMSDeliveryMode": "PERSISTENT", "JMSPriority": 4},
           "properties": {"color": "blue", "weight": 2600, "JMSXDeliveryCount": {"type": "int", "value": 1}},
           "body": "<order id='1'/>"},
           "A valid record first, so that the file is plainly NDJSON whatever the loader guesses from its start."),
    _bad("invalid JSON: a truncated line", "The dump was cut off in the middle of a record (a full disk, a killed "
         "exporter): the line is not valid JSON.", '{"type":"text",' + (_H % 2) + ',"properties":{"color":"bl'),
    _bad("invalid UTF-8", "The customer name was written in Latin-1 (byte 0xFC for 'ü'), not UTF-8: "
         "JSON text must be UTF-8.", b'{' + (_H % 3).encode() + b',"properties":{"customer":"M\xfcller GmbH"}}'),
    _bad("not an object: an array", "A record is a JSON object; this line is a JSON array (an exporter that wraps "
         "each message in a list).", '[{"headers":{"JMSMessageID":"ID:broker-9-4"}}]'),
    _valid("valid map message", {"type": "map", "headers": {"JMSMessageID": "ID:broker-9-6", "JMSDeliveryMode": 2},
           "properties": {"quantity": 3, "unitPrice": {"type": "float", "value": 250.5}},
           "body": {"sku": "B_100", "qty": {"type": "int", "value": 3}, "img": {"type": "bytes", "value": "iVBORw0KGgo="}}}),
    _bad("not an object: a number", "A bare number is not a message.", "42"),
    _bad("unknown top-level key", "A message has only type, headers, properties and body; 'header' is a typo "
         "for 'headers'.", '{"type":"text","header":{"JMSMessageID":"ID:broker-9-7"},"body":"hello"}', "header"),
    _bad("unknown header", "Header names are case-sensitive: 'JMSMessageId' is not 'JMSMessageID'. "
         "(Application data belongs under properties.)", '{"headers":{"JMSMessageId":"ID:broker-9-8"}}', "headers.JMSMessageId"),
    _valid("valid message without a body", {"type": "message", "headers": {"JMSMessageID": "ID:broker-9-9", "JMSPriority": 0},
           "properties": {"status": "paid"}}),
    _bad("header of the wrong type: JMSPriority a string", "JMSPriority is an integer 0..9, not a word.",
         '{"headers":{"JMSMessageID":"ID:broker-9-10","JMSPriority":"high"}}', "headers.JMSPriority"),
    _bad("header of the wrong type: JMSTimestamp with a fraction", "JMSTimestamp is a long: milliseconds since the "
         "epoch, a JSON integer.", '{"headers":{"JMSMessageID":"ID:broker-9-11","JMSTimestamp":1.5}}', "headers.JMSTimestamp"),
    _bad("header of the wrong type: JMSDeliveryMode 3", "JMSDeliveryMode is \"PERSISTENT\", \"NON_PERSISTENT\", 2 or 1; "
         "there is no mode 3.", '{"headers":{"JMSMessageID":"ID:broker-9-12","JMSDeliveryMode":3}}', "headers.JMSDeliveryMode"),
    _bad("header out of range: JMSPriority 12", "JMSPriority is an integer 0..9 (FORMAT.md); 12 is no priority.",
         '{"headers":{"JMSMessageID":"ID:broker-9-13","JMSPriority":12}}', "headers.JMSPriority"),
    _valid("valid bytes message", {"type": "bytes", "headers": {"JMSMessageID": "ID:broker-9-14"}, "body": "JVBERi0xLjcK"}),
    _bad("property value an array", "A property holds one boolean, number or string; Java has no array properties.",
         '{' + (_H % 15) + ',"properties":{"color":["blue","red"]}}', "properties.color"),
    _bad("typed value with an unknown type", "The type names are boolean byte short int long float double string; "
         "'integer' is not one of them.", '{' + (_H % 16) + ',"properties":{"weight":{"type":"integer","value":2600}}}',
         "properties.weight"),
    _bad("typed byte out of range", "A byte is -128..127.", '{' + (_H % 17) + ',"properties":{"rating":{"type":"byte","value":300}}}',
         "properties.rating"),
    _bad("typed int out of range", "An int is -2147483648..2147483647; 3000000000 needs a long.",
         '{' + (_H % 18) + ',"properties":{"orderId":{"type":"int","value":3000000000}}}', "properties.orderId"),
    _valid("valid record with unusual but legal values", {"headers": {"JMSMessageID": "ID:broker-9-19"},
           "properties": {"total": {"type": "double", "value": "NaN"}, "refund": -0.0, "orderId": 4294967396,
                          "note": "say \"hi\"\n\\ 😀", "größe": "L"}, "body": "plain text"},
           "Valid: typed NaN, -0.0, a bare long, escapes and a Unicode property name are all allowed; no type means text."),
    _bad("bare integer beyond long", "A bare integer is an int, or a long outside the int range; 9223372036854775808 "
         "is beyond the long range too.", '{' + (_H % 20) + ',"properties":{"orderId":9223372036854775808}}', "properties.orderId"),
    _bad("bare integer beyond 64 bits", "Also beyond the long range, and beyond what a 64-bit JSON parser keeps exact "
         "(orjson reads it as a double): it must still be rejected, not rounded.",
         '{' + (_H % 28) + ',"properties":{"orderId":123456789012345678901}}', "properties.orderId"),
    _bad("typed float out of range", "The largest float is about 3.4028235e38; 1e39 would be Infinity.",
         '{' + (_H % 21) + ',"properties":{"unitPrice":{"type":"float","value":1e39}}}', "properties.unitPrice"),
    _bad("typed int with a fraction", "An int value is a JSON integer; 3000.5 has a fraction.",
         '{' + (_H % 22) + ',"properties":{"weight":{"type":"int","value":3000.5}}}', "properties.weight"),
    _valid("a property with JSON null", {"headers": {"JMSMessageID": "ID:broker-9-23", "JMSType": "car"},
           "properties": {"color": "blue", "coupon": None}},
           "Valid for the loader (null is not a property value: selectors see 'coupon' as absent, NULL), "
           "but `jmsctl validate` reports it."),
    _bad("body not matching the type: map with a string body", "A map body is a JSON object of named values.",
         '{"type":"map",' + (_H % 24) + ',"body":"sku=B_100;qty=3"}', "body"),
    _bad("invalid base64 in a bytes body", "A bytes body is base64; '%' and '!' are not base64 characters.",
         '{"type":"bytes",' + (_H % 25) + ',"body":"not%base64!"}', "body"),
    _bad("a message of type message with a body", "Type `message` has no body; a string body needs type text "
         "(or no type).", '{"type":"message",' + (_H % 26) + ',"body":"hello"}', "body"),
    _valid("valid stream message, the last line", {"type": "stream", "headers": {"JMSMessageID": "ID:broker-9-27"},
           "body": ["B_100", {"type": "int", "value": 3}, {"type": "float", "value": 250.5}, True,
                    {"type": "bytes", "value": "AAECAw=="}]}),
]

# Every JMSMessageID in the file is ID:broker-9-<its line number>.
BAD_RECORDS = [BadRecord(b.title, b.explanation, re.sub(rb"ID:broker-9-[0-9]+", b"ID:broker-9-%d" % i, b.line), b.rejected, b.field)
               for i, b in enumerate(BAD_RECORDS, 1)]
BAD_COUNT = sum(b.rejected for b in BAD_RECORDS)


def _bad_records_md() -> str:
    rows = []
    details = []
    for lineno, b in enumerate(BAD_RECORDS, 1):
        verdict = f"rejected (`{b.field}`)" if b.rejected and b.field else "rejected" if b.rejected else "accepted"
        rows.append(f"| {lineno} | {b.title} | {verdict} |")
        shown = b.line.decode("utf-8", errors="backslashreplace")
        details.append(f"### Line {lineno}: {b.title}\n\n{b.explanation}\n\n"
                       f"Expected: **{'rejected' if b.rejected else 'accepted'}**"
                       + (f", the reason naming `{b.field}`." if b.field else ".")
                       + ("\n\nThe invalid byte is shown below as `\\xfc`; in the file it is the single byte 0xFC."
                          if shown != b.line.decode("utf-8", errors="replace") else "")
                       + f"\n\n```json\n{shown}\n```\n")
    return (
        "# bad-records.ndjson\n\n"
        "Written by `scripts/gen_samples.py`. Valid records mixed with one bad record of every kind "
        "(FORMAT.md): try\n\n"
        "```sh\n"
        "python -c \"from jmsctl.messages.loader import read_records; "
        "[print(r.location, r.error) for r in read_records('samples/bad-records.ndjson')]\"\n"
        "jmsctl filter \"color = 'blue'\" samples/bad-records.ndjson --stats   # each rejected record is reported\n"
        "```\n\n"
        f"The file has {len(BAD_RECORDS)} lines; **{BAD_COUNT} records are rejected**, "
        f"{len(BAD_RECORDS) - BAD_COUNT} are valid (one of them has a JSON null property, "
        "which only the validator reports).\n\n"
        "| line | record | expected from the loader |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n\n" + "\n".join(details)
    )


# --- writing -------------------------------------------------------------------------------------


def generate(out_dir: str | Path = SAMPLES_DIR) -> dict[str, Path]:
    """Write every generated sample into ``out_dir``; returns file name -> path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    messages = Generator(SEED).messages(N_MESSAGES)
    files: dict[str, Callable[[], bytes]] = {
        "orders.ndjson": lambda: "".join(_dumps(m) + "\n" for m in messages).encode("utf-8"),
        "orders.json": lambda: (json.dumps(messages[:N_ARRAY], ensure_ascii=False, indent=2, allow_nan=False) + "\n").encode("utf-8"),
        "bad-records.ndjson": lambda: b"".join(b.line + b"\n" for b in BAD_RECORDS),
        "bad-records.md": lambda: _bad_records_md().encode("utf-8"),
        "schema.json": lambda: (json.dumps(SCHEMA, indent=2) + "\n").encode("utf-8"),
    }
    written = {}
    for name, content in files.items():
        path = out / name
        path.write_bytes(content())
        written[name] = path
    return written


def main(argv: list[str]) -> int:
    out_dir = Path(argv[1]) if len(argv) > 1 else SAMPLES_DIR
    for path in generate(out_dir).values():
        print(f"{path}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Write the small dump samples of the formats jmsctl reads, made by jmsctl's writers of those
formats (each following its format's rules, docs/FORMAT.md) from the first messages of
samples/orders.ndjson:

    samples/orders-fmtn-a.json       as the a client dumps them (a -d): typed property maps
    samples/orders-browse.txt        as activemq browse prints a queue: console preamble, untyped text
    samples/orders-dmpmqmsg.qload    as dmpmqmsg dumps a queue: MQMD lines, the JMS message in an MQRFH2

    python scripts/gen_format_samples.py     # the same bytes every time (tests/test_format_samples.py)
"""

from __future__ import annotations

import io
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jmsctl.messages.formats import activemq_browse, fmtn_a_writer, ibm_dmpmqmsg  # noqa: E402
from jmsctl.messages.loader import read_records  # noqa: E402
from jmsctl.messages.model import Message  # noqa: E402

COUNT = 12


def messages(keep: object = None) -> list[Message]:
    """The first COUNT messages of orders.ndjson that ``keep`` accepts."""
    out: list[Message] = []
    for record in read_records(str(ROOT / "samples" / "orders.ndjson")):
        m = record.message
        if m is not None and (keep is None or keep(m)):  # type: ignore[operator]
            out.append(m)
        if len(out) == COUNT:
            break
    return out


def _queue(m: Message) -> bool:
    """browse browses queues, and prints text, map and bytes bodies (the others' content is lost)."""
    return str(m.headers.get("JMSDestination", "")).startswith("queue://") and m.body_type in ("text", "map", "message")


def _a(m: Message) -> bool:
    """a -d dumps text, bytes and object messages with their bodies."""
    return m.body_type in ("text", "bytes", "object")


def _mq_id(m: Message, n: int) -> Message:
    """The message with the id IBM MQ would give it: "AMQ QM1", padded, a queue manager stamp, a counter
    (a JMSMessageID is MQ's 24-byte MsgId in hex)."""
    mid = "ID:" + (b"AMQ QM1".ljust(16) + bytes.fromhex("6773b1c0") + n.to_bytes(4, "big")).hex()
    return Message({**m.headers, "JMSMessageID": mid}, m.properties, m.body_type, m.body, m.null_properties)


def render() -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    buf = io.BytesIO()
    fmtn_a_writer.write(messages(_a), buf, Counter())
    files["orders-fmtn-a.json"] = buf.getvalue()
    buf = io.BytesIO()
    activemq_browse.write(messages(_queue), buf)
    files["orders-browse.txt"] = buf.getvalue()
    buf = io.BytesIO()
    ibm_dmpmqmsg.write([_mq_id(m, n) for n, m in enumerate(messages(), 1)], buf, created="Tue Dec 31 09:00:00 2024")
    files["orders-dmpmqmsg.qload"] = buf.getvalue()
    return files


if __name__ == "__main__":
    for name, data in render().items():
        (ROOT / "samples" / name).write_bytes(data)
        print(f"wrote samples/{name} ({len(data):,} bytes)")

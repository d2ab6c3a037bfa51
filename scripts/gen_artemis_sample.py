"""Write samples/orders-artemis.xml: the first 24 messages of samples/orders.ndjson as
`artemis data exp` writes them (jmsctl's Artemis XML writer, the exporter's layout), with what a
real journal adds: Artemis's internal properties (a duplicate-detection id as bytes, the connection
id, the original address), a JMSXGroupID stored as _AMQ_GROUP_ID, and a null property (_AMQ_NULL).
JMSDeliveryMode, JMSRedelivered and JMSDeliveryTime are not in the format (the writer drops them).

    python scripts/gen_artemis_sample.py            # the same bytes every time (tests/test_artemis_sample.py)
"""

from __future__ import annotations

import base64
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jmsctl.messages.formats import artemis_xml_writer  # noqa: E402
from jmsctl.messages.loader import read_records  # noqa: E402
from jmsctl.messages.model import Message  # noqa: E402
from jmsctl.values import BYTE, STRING  # noqa: E402

COUNT = 24
TARGET = ROOT / "samples" / "orders-artemis.xml"


def messages() -> list[Message]:
    out = []
    for n, record in enumerate(read_records(str(ROOT / "samples" / "orders.ndjson"))):
        if len(out) == COUNT:
            break
        m = record.message
        if m is None or m.body_type == "stream":  # jmsctl does not write Artemis's stream encoding
            continue
        props = {k: v for k, v in m.properties.items() if k != "JMSXDeliveryCount"}  # a delivery count, not a property, in Artemis
        props["__AMQ_CID"] = (STRING, f"conn-{n % 3}")
        props["_AMQ_ROUTING_TYPE"] = (BYTE, 1)
        if n % 4 == 0:
            props["_AMQ_ORIG_ADDRESS"] = (STRING, "orders.incoming")
        source = {"format": "artemis-xml", "id": 1000 + 2 * n, "bytes_properties": {"_AMQ_DUPL_ID": base64.b64encode(f"dup-{n}".encode()).decode()}}
        out.append(Message(m.headers, props, m.body_type, m.body, m.null_properties, source=source))
    return out


def render() -> tuple[bytes, Counter[str]]:
    import io

    buf = io.BytesIO()
    lost: Counter[str] = Counter()
    artemis_xml_writer.write(messages(), buf, lost)
    return buf.getvalue(), lost


if __name__ == "__main__":
    data, lost = render()
    TARGET.write_bytes(data)
    print(f"wrote {TARGET.relative_to(ROOT)}; not in the format: " + "; ".join(f"{k} ({n})" for k, n in sorted(lost.items())))

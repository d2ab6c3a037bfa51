"""IBM dmpmqmsg / QLOAD text with MQRFH2: every rule of docs/FORMAT.md#ibm-dmpmqmsg-ibm-mq-qload-text on files built
for it (tests/fixtures/formats/ibm-dmpmqmsg/, made by make.py there), broken messages one by one,
the writer read back to the same messages."""

from __future__ import annotations

import io
import math
import struct
from pathlib import Path

import pytest

from jmsctl.messages import formats
from jmsctl.messages.formats import ibm_dmpmqmsg as q
from jmsctl.messages.formats import mqrfh2
from jmsctl.messages.loader import read_records
from jmsctl.messages.model import BytesValue, Message
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, to_f32

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "formats" / "ibm-dmpmqmsg"
MSI = "ID:414d5120514d312020202020202020206553a0b2"


def load(name: str) -> list:  # type: ignore[type-arg]
    return list(read_records(str(FIX / name)))


def test_detected_by_its_header_and_by_its_descriptor_lines() -> None:
    assert formats.detect((FIX / "rules.qload").read_bytes()) is formats.get("ibm-dmpmqmsg")
    assert formats.detect(b"A VER 2\nA RPT 0\nA MST 8\nA FMT MQSTR\n") is formats.get("ibm-dmpmqmsg")


def test_rfh2_folders_and_the_mqmd_make_the_jms_message() -> None:
    rs = load("rules.qload")
    assert [r.error for r in rs] == [None] * 8
    m = rs[0].message
    assert rs[0].location == f"{FIX / 'rules.qload'}:6 (message 1, {MSI}00000001)"  # * Index n, then the MsgId
    assert m.headers == {
        "JMSMessageID": f"{MSI}00000001", "JMSTimestamp": 1700000000000, "JMSCorrelationID": "corr-1", "JMSType": "car",
        "JMSDeliveryMode": "NON_PERSISTENT", "JMSPriority": 7, "JMSDestination": "queue:///ORDERS", "JMSReplyTo": "queue://QM1/REPLY.Q",
        "JMSExpiration": 1700000060000, "JMSRedelivered": False,
    }  # <jms> wins over the MQMD (PER 1, PRI 4, PutDate/Time)
    p = m.properties
    assert p["color"] == (STRING, "blue") and p["weight"] == (INT, 2600) and p["small"] == (BYTE, -128) and p["short"] == (SHORT, 32767)
    assert p["big"] == (LONG, 2**63 - 1) and p["ratio"] == (FLOAT, to_f32(0.1)) and p["total"] == (DOUBLE, 450.25)
    assert p["express"] == (BOOLEAN, True) and p["late"] == (BOOLEAN, False) and p["amp"] == (STRING, "a & b")
    assert m.null_properties == ("gone",) and m.source["binary_properties"] == {"blob": "00ff"}  # xsi:nil; bin.hex is no JMS type
    assert p["JMSXGroupID"] == (STRING, "group-1") and p["JMSXGroupSeq"] == (INT, 3) and p["JMSXDeliveryCount"] == (INT, 1)
    assert p["JMSXUserID"] == (STRING, "app1") and p["JMSXAppID"] == (STRING, "orders-service")
    assert p["JMS_IBM_Format"] == (STRING, "MQSTR   ") and p["JMS_IBM_MsgType"] == (INT, 8)
    assert (m.body_type, m.body) == ("text", '{"order": 7, "note": "café"}')
    assert m.source["mqmd"]["ENC"] == 546 and m.source["mqmd"]["RTQ"].strip() == "REPLY.Q"  # the MQMD kept, little-endian RFH2 read


def test_messages_without_rfh2_and_the_data_line_kinds() -> None:
    rs = load("rules.qload")
    latin = rs[1].message  # MQSTR, CCSID 819, S line with ~ escapes
    assert (latin.body_type, latin.body) == ("text", 'café "quoted" and ~ tilde')
    assert latin.headers["JMSTimestamp"] == 1700000000120  # PutDate + PutTime (hundredths), UTC
    assert latin.headers["JMSDeliveryMode"] == "NON_PERSISTENT" and latin.headers["JMSRedelivered"] is True
    assert latin.properties["JMSXDeliveryCount"] == (INT, 3)  # BackoutCount + 1
    raw = rs[2].message  # blank format: bytes; PER 2 and PRI -1 (queue defaults) say nothing
    assert (raw.body_type, raw.body) == ("bytes", b"\x00\x01\x02\xff")
    assert "JMSDeliveryMode" not in raw.headers and "JMSPriority" not in raw.headers
    assert rs[3].message.body == "first line\nsecond line\n"  # each T line gives its text and a newline
    assert rs[4].message.body == {"qty": (INT, 3), "sku": (STRING, "TRU-1"), "raw": BytesValue(b"\x01\x02")}
    assert rs[4].message.get("JMSDeliveryMode") == (STRING, "PERSISTENT")
    assert rs[5].message.body == [(LONG, 5), (STRING, "x")]
    assert (rs[6].message.body_type, rs[6].message.headers) == ("message", {"JMSMessageID": f"{MSI}00000007", "JMSPriority": 2,
                                                                           "JMSDeliveryMode": "PERSISTENT", "JMSTimestamp": 1700000000120,
                                                                           "JMSReplyTo": "queue://QM1/REPLY.Q", "JMSRedelivered": False})
    plain = rs[7].message  # N: no descriptor, hex data
    assert plain.body == b"hi" and plain.headers == {} and "mqmd" not in plain.source and plain.source["index"] == 8


def test_broken_messages_are_each_an_error_and_the_rest_is_read() -> None:
    rs = load("broken.qload")
    fields = [(r.location.split("(message ")[1].split(",")[0], r.error.field if r.error else None) for r in rs]
    assert fields == [("1", "rfh2.StrucLength"), ("2", "data"), ("3", "mqmd.XYZ"), ("4", "data"), ("5", "rfh2.usr.n"), ("6", "rfh2"),
                      ("7", None), ("8", "")]
    assert "overruns the message data" in rs[0].error.reason
    assert "DOCTYPE" in rs[5].error.reason  # hostile XML in a folder: refused, not expanded
    assert rs[6].message.body == "still read" and rs[6].message.properties["n"] == (INT, 9)
    assert "truncated" in rs[7].error.reason


@pytest.mark.parametrize("encoding", [273, 546])
def test_rfh2_lengths_that_lie_are_errors(encoding: int) -> None:
    data = bytearray(mqrfh2.build(["<usr><a>1</a></usr>"], encoding, 1208, "MQSTR"))
    order = mqrfh2.int_order(encoding)
    data[36:40] = struct.pack(order + "i", 400)  # a folder longer than the header
    with pytest.raises(mqrfh2.RFH2Error, match="overruns the header"):
        mqrfh2.parse(bytes(data), encoding)
    with pytest.raises(mqrfh2.RFH2Error, match="does not start with an MQRFH2"):
        mqrfh2.parse(b"RFH", encoding)


def test_the_writer_is_read_back_to_the_same_messages() -> None:
    source = [r.message for r in read_records(str(ROOT / "samples" / "orders-small.ndjson")) if r.message]
    extra = Message({"JMSMessageID": f"{MSI}000000aa", "JMSDeliveryMode": "NON_PERSISTENT", "JMSType": "t<&>"},
                    {"f": (FLOAT, math.inf), "b": (BOOLEAN, False), "s": (STRING, 'q"~<x>')}, "map",
                    {"k": (INT, 1), "raw": BytesValue(b"\x00")}, ("n",))
    messages = [*source, extra, Message(body_type="stream", body=[(SHORT, 2)]), Message(body_type="bytes", body=b"\x00~\"\xff")]
    out = io.BytesIO()
    q.write(messages, out)
    back = [r.message for r in q.read(io.BufferedReader(io.BytesIO(out.getvalue())), "w", formats.ReadOptions())]  # type: ignore[arg-type]
    assert len(back) == len(messages)
    for before, after in zip(messages, back, strict=True):
        assert after is not None
        assert (after.body_type, after.body) == (before.body_type, before.body)
        assert {k: v for k, v in after.properties.items() if not k.startswith(("JMS_IBM_", "JMSX"))} == {
            k: v for k, v in before.properties.items() if not k.startswith("JMSX")}
        assert after.null_properties == before.null_properties
        for name, value in before.headers.items():
            if name == "JMSDeliveryMode":  # written 1/2 or by name: the same mode
                assert after.get(name) == before.get(name)
            elif name != "JMSMessageID" or value.startswith(MSI):  # an id not of MQ's 24 bytes cannot be held (docs/FORMAT.md)
                assert after.headers[name] == value, name

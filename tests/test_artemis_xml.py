"""Artemis XML reader and writer (jmsctl/messages/formats/artemis_xml*.py): every rule of
docs/artemis-xml.md on documents written the way Artemis's exporter writes them
(XmlDataExporter's PrettyPrintHandler layout), hostile XML, broken messages, round trips."""

from __future__ import annotations

import base64
import io
import struct
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jmsctl.messages.formats import artemis_xml, artemis_xml_writer
from jmsctl.messages.formats.artemis_core import decode_map_body, encode_map_body
from jmsctl.messages.model import BytesValue, Message
from jmsctl.messages.sources import InputError
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, to_f32


def url64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode()


def core_text(text: str) -> bytes:
    data = text.encode("utf-16-le")
    return b"\x01" + struct.pack(">i", len(data)) + data


def read(xml: str | bytes, name: str = "t.xml") -> list:
    data = xml.encode() if isinstance(xml, str) else xml
    return list(artemis_xml.read(io.BytesIO(data), name))


def export(messages: str, bindings: str = "") -> str:
    """A document as `artemis data exp` lays it out (newline first, three spaces per level)."""
    return f"\n<activemq-journal>\n   <bindings>{bindings}\n   </bindings>\n   <messages>{messages}\n   </messages>\n</activemq-journal>"


BINDINGS = """
      <address-binding routing-types="ANYCAST" name="orders" id="3"/>
      <address-binding routing-types="MULTICAST" name="prices" id="4"/>
      <queue-binding address="orders" filter-string="" name="orders" id="5" routing-type="ANYCAST"/>
      <queue-binding address="prices" filter-string="" name="sub1" id="6" routing-type="MULTICAST"/>"""


def message(body: str = "", props: str = "", queues: str = '<queue name="orders"/>', attrs: str = 'type="text"') -> str:
    return (f'\n      <message id="1042" priority="4" expiration="0" timestamp="1718000000000" {attrs} user-id="a1b2">'
            f"\n         <properties>{props}\n         </properties>"
            f"\n         <queues>\n            {queues}\n         </queues>"
            f"\n         <body>\n            <![CDATA[{body}]]>\n         </body>\n      </message>")


def test_export_text_message_headers_and_properties():
    props = "".join(f'\n            <property name="{n}" value="{v}" type="{t}"/>' for n, v, t in [
        ("weight", "2600", "integer"), ("big", "9223372036854775807", "long"), ("s", "-3", "short"), ("b", "-128", "byte"),
        ("f", "0.1", "float"), ("d", "1.0E300", "double"), ("ok", "TRUE", "boolean"), ("name", "x y", "string"),
        ("ss", "simple", "simple-string"), ("gone", "_AMQ_NULL", "bytes"), ("JMSCorrelationID", "corr-7", "string"),
        ("JMSType", "car", "string"), ("JMSReplyTo", "queue://replies", "string"), ("_AMQ_GROUP_ID", "g1", "simple-string"),
        ("_AMQ_VALIDATED_USER", "alice", "string"), ("_AMQ_DUPL_ID", url64(b"\xfb\xff"), "bytes"), ("__AMQ_CID", "c-1", "string"),
        ("fnan", "NaN", "float"), ("dinf", "-Infinity", "double")])
    [rec] = read(export(message(url64(core_text("héllo 😁")), props), BINDINGS))
    assert rec.error is None and rec.location == "t.xml:10 (ID:a1b2)"
    m = rec.message
    assert m.body_type == "text" and m.body == "héllo 😁"
    assert m.headers == {"JMSMessageID": "ID:a1b2", "JMSTimestamp": 1718000000000, "JMSExpiration": 0, "JMSPriority": 4,
                         "JMSDestination": "queue://orders", "JMSCorrelationID": "corr-7", "JMSType": "car", "JMSReplyTo": "queue://replies"}
    p = m.properties
    assert p["weight"] == (INT, 2600) and p["big"] == (LONG, 2**63 - 1) and p["s"] == (SHORT, -3) and p["b"] == (BYTE, -128)
    assert p["f"] == (FLOAT, to_f32(0.1)) and p["d"] == (DOUBLE, 1e300) and p["ok"] == (BOOLEAN, True)
    assert p["name"] == (STRING, "x y") and p["ss"] == (STRING, "simple")
    assert p["JMSXGroupID"] == (STRING, "g1") and p["JMSXUserID"] == (STRING, "alice") and "_AMQ_GROUP_ID" not in p
    assert p["fnan"][1] != p["fnan"][1] and p["dinf"] == (DOUBLE, float("-inf"))
    assert "JMSCorrelationID" not in p and m.null_properties == ("gone",)
    assert m.source["internal"] == ["_AMQ_DUPL_ID", "__AMQ_CID"] and p["__AMQ_CID"] == (STRING, "c-1")
    assert m.source["bytes_properties"] == {"_AMQ_DUPL_ID": "+/8="}  # base64: the source stays JSON
    assert m.source["id"] == 1042 and m.source["queues"] == ["orders"] and m.source["variant"] == "data exp"
    assert "JMSDeliveryMode" not in m.headers  # not exported: reported absent (the importer's durable flag is its own)


def test_topic_subscription_queue_maps_to_topic_and_standard_alphabet():
    raw = bytes(range(250, 256)) * 3  # '+' and '/' in the standard alphabet
    [rec] = read(export(message(base64.b64encode(raw).decode(), queues='<queue name="sub1"/>', attrs='type="BYTES"'), BINDINGS))
    assert rec.message.headers["JMSDestination"] == "topic://prices" and rec.message.body == raw and rec.message.body_type == "bytes"
    [rec] = read(export(message(url64(raw).rstrip("="), attrs='type="bytes"'), BINDINGS))  # URL-safe, padding dropped
    assert rec.message.body == raw


def test_consumer_data_variant_plain_text_and_base64_bytes():
    doc = ('\n<messages>\n   <message id="7" priority="9" expiration="5" timestamp="6" type="text">\n      <properties>\n      </properties>'
           '\n      <body>\n         <![CDATA[  <order id="1"/> ]]>\n      </body>\n   </message>'
           '\n   <message id="8" priority="1" expiration="0" timestamp="6" type="bytes">\n      <properties>\n      </properties>'
           f'\n      <body>\n         <![CDATA[{url64(b"xyz")}]]>\n      </body>\n   </message>'
           f'\n   <message id="9" priority="1" expiration="0" timestamp="6" type="text">\n      <body>\n         <![CDATA[{url64(core_text("core"))}]]>'
           '\n      </body>\n   </message>\n</messages>\n')
    a, b, c = read(doc)
    assert a.message.body == '  <order id="1"/> ' and a.message.source["variant"] == "consumer --data" and "JMSDestination" not in a.message.headers
    assert a.message.headers == {"JMSTimestamp": 6, "JMSExpiration": 5, "JMSPriority": 9}  # no user-id: no JMSMessageID
    assert b.message.body == b"xyz" and c.message.body == "core"


def test_null_text_empty_text_default_and_map_bodies():
    entries = {"a": (INT, 1), "b": BytesValue(b"\x00"), "c": (STRING, "ü"), "d": (DOUBLE, 2.5), "e": (BOOLEAN, False), "f": (LONG, -1)}
    assert decode_map_body(encode_map_body(entries)) == entries
    docs = [message(url64(b"\x00")), message(url64(core_text(""))), message("", attrs='type="default"'),
            message(url64(encode_map_body(entries)), attrs='type="map"')]
    got = [r.message for r in read(export("".join(docs), BINDINGS))]
    assert [m.body for m in got] == [None, "", None, entries]
    assert [m.body_type for m in got] == ["text", "text", "message", "map"]


def large(chunks: list[bytes], kind: str = "bytes") -> str:
    sections = "".join(f"\n            <![CDATA[{url64(c)}]]>" for c in chunks)
    return (f'\n      <message id="5" priority="4" expiration="0" timestamp="1" type="{kind}">\n         <properties>\n         </properties>'
            f'\n         <queues>\n            <queue name="orders"/>\n         </queues>\n         <body isLarge="true">{sections}\n         </body>\n      </message>')


def test_large_message_chunks_decoded_one_by_one():
    raw = core_text("x" * 1700)  # 3405 bytes: chunks of 1000 whose base64 each ends in padding
    chunks = [raw[i:i + 1000] for i in range(0, len(raw), 1000)]
    [rec] = read(export(large(chunks, "text"), BINDINGS))
    assert rec.error is None and rec.message.body == "x" * 1700 and rec.message.source["large"] is True


def test_broken_messages_are_errors_and_the_rest_is_read():
    raw = core_text("y" * 1700)
    chunks = [raw[i:i + 1000] for i in range(0, len(raw), 1000)]
    lying = b"\x01" + struct.pack(">i", 10) + "abc".encode("utf-16-le")
    docs = [message("not*base64!"), message(url64(lying)), large(chunks[:1] + chunks[2:], "text"), large([chunks[0], chunks[1][:500], chunks[2]]),
            message(url64(core_text("fine"))), message("", props='\n            <property name="n" value="x" type="integer"/>'),
            message("", attrs='type="weird"'), message("", props='\n            <property name="n" value="1"/>')]
    recs = read(export("".join(docs), BINDINGS))
    assert len(recs) == 8
    errors = [str(r.error) for r in recs if r.error]
    assert len(errors) == 7 and recs[4].message.body == "fine"
    assert "base64" in errors[0] and "message id 1042" in errors[0]
    assert "length prefix says 10 bytes but 6 follow" in errors[1]
    assert "length prefix" in errors[2]  # a whole chunk missing: the text's own length tells
    assert "chunk 2 of 3 holds 500 bytes" in errors[3]
    assert "properties.n" in errors[4] and "weird" in errors[5] and "no type" in errors[6]


def test_truncated_document_keeps_complete_messages_then_one_error():
    doc = export(message(url64(core_text("one"))) + message(url64(core_text("two"))), BINDINGS)
    cut = doc[: doc.rindex(url64(core_text("two"))) + 6]  # inside the second message's body
    recs = read(cut)
    assert [r.message.body for r in recs[:1]] == ["one"]
    assert len(recs) == 2 and recs[1].message is None and "truncated" in str(recs[1].error) and "1 complete messages" in str(recs[1].error)
    broken = doc.replace("</queues>", "</queue>", 2)
    recs = read(broken)
    assert recs[-1].error is not None and "broken" in str(recs[-1].error)


@pytest.mark.parametrize("doc", [
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n'
    ' <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">\n]>\n<messages><message type="text"><body>&lol3;</body></message></messages>',
    '<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<messages><message type="text"><body>&xxe;</body></message></messages>',
    '<!DOCTYPE m SYSTEM "http://127.0.0.1:9/evil.dtd">\n<messages/>',
    '<!DOCTYPE m [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>\n<messages/>',
])
def test_dtd_and_entities_are_refused(doc):
    with pytest.raises(artemis_xml.RefusedXML, match=r"t.xml:\d+: refused: the XML has a DOCTYPE"):
        read(doc)


def test_not_artemis_xml_and_empty():
    with pytest.raises(InputError, match="root element is <html>"):
        read("<html><body/></html>")
    with pytest.raises(InputError, match="no root element"):
        read("")


def test_sniff():
    assert artemis_xml.sniff(b'<?xml version="1.0"?>\n<activemq-journal>') >= 0.9
    assert artemis_xml.sniff(b"\n<messages>\n   <message") >= 0.9
    assert artemis_xml.sniff(b'{"type": "text"}') == 0.0


def test_memory_is_flat_on_many_messages():
    """The reader holds one message at a time: a document of 20 000 messages is read while at most
    one block's worth of records waits (checked through the parser's queue, not timing)."""
    body = "".join(message(url64(core_text(f"m{i}"))) for i in range(20000))
    seen = 0
    for rec in artemis_xml.read(io.BytesIO(export(body, BINDINGS).encode()), "big.xml"):
        seen += rec.message is not None
    assert seen == 20000


# --- writer and round trips -------------------------------------------------------------------

def write(messages: list[Message]) -> tuple[bytes, Counter]:
    out, lost = io.BytesIO(), Counter()
    artemis_xml_writer.write(messages, out, lost)
    return out.getvalue(), lost


def test_writer_output_reads_back_and_reports_losses_once_per_kind():
    msgs = [Message({"JMSDeliveryMode": "PERSISTENT", "JMSRedelivered": False}, {}, "text", "a"),
            Message({"JMSDeliveryMode": 1}, {"x": (STRING, "_AMQ_NULL"), "c": (STRING, "\x00")}, "stream", [(INT, 1)])]
    data, lost = write(msgs)
    assert lost["JMSDeliveryMode (not in Artemis's export)"] == 2 and lost["JMSRedelivered (not in Artemis's export)"] == 1
    assert any("stream bodies" in k for k in lost) and any("_AMQ_NULL" in k for k in lost) and any("U+FFFD" in k for k in lost)
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<activemq-journal>\n   <bindings>')
    assert [r.message.body for r in read(data)] == ["a", None]


def test_large_bodies_written_in_chunks():
    raw = bytes(range(256)) * 500
    data, _ = write([Message({"JMSDestination": "queue://q"}, {}, "bytes", raw)])
    assert data.count(b"<![CDATA[") == 128 and b'isLarge="true"' in data
    [rec] = read(data)
    assert rec.message.body == raw


names = st.from_regex(r"[A-Za-z_$][A-Za-z0-9_$]{0,8}", fullmatch=True).filter(lambda n: not n.upper().startswith("JMS") and not artemis_xml.is_internal(n))
text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f"
                             "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\ufffe\uffff"), max_size=20)
values = st.one_of(
    st.booleans().map(lambda v: (BOOLEAN, v)), st.integers(-128, 127).map(lambda v: (BYTE, v)), st.integers(-32768, 32767).map(lambda v: (SHORT, v)),
    st.integers(-2**31, 2**31 - 1).map(lambda v: (INT, v)), st.integers(-2**63, 2**63 - 1).map(lambda v: (LONG, v)),
    st.floats(width=32, allow_nan=False).map(lambda v: (FLOAT, v)), st.floats(allow_nan=False).map(lambda v: (DOUBLE, v)),
    text.filter(lambda s: s != "_AMQ_NULL").map(lambda v: (STRING, v)))
headers = st.fixed_dictionaries({}, optional={
    "JMSMessageID": text.map(lambda s: "ID:" + s), "JMSTimestamp": st.integers(-2**63, 2**63 - 1), "JMSPriority": st.integers(0, 9),
    "JMSExpiration": st.integers(-2**63, 2**63 - 1), "JMSCorrelationID": text, "JMSType": text, "JMSReplyTo": text})
dest = st.sampled_from(["queue://orders", "topic://orders", "queue://a b", "topic://prices"])
bodies = st.one_of(
    st.tuples(st.just("text"), st.one_of(st.none(), st.text(max_size=50))), st.tuples(st.just("bytes"), st.binary(max_size=50)),
    st.tuples(st.just("object"), st.binary(max_size=50)), st.tuples(st.just("message"), st.none()),
    st.tuples(st.just("map"), st.dictionaries(text, st.one_of(values, st.binary(max_size=5).map(BytesValue)), max_size=4)))


@st.composite
def messages(draw):
    kind, body = draw(bodies)
    h = draw(headers)
    h["JMSDestination"] = draw(dest)
    props = draw(st.dictionaries(names, values, max_size=5))
    nulls = tuple(n for n in draw(st.lists(names, max_size=2, unique=True)) if n not in props)
    return Message(h, props, kind, body, nulls)


def same(a: Message, b: Message) -> bool:
    def norm(m: Message):
        props = {k: (t, v if v == v else "NaN") for k, (t, v) in m.properties.items()}
        return m.headers, props, m.body_type, m.body, sorted(m.null_properties)
    return norm(a) == norm(b)


@settings(max_examples=60, deadline=None)
@given(st.lists(messages(), max_size=5))
def test_round_trip_through_artemis_xml_loses_nothing_it_can_hold(msgs):
    data, lost = write(msgs)
    assert not lost
    back = read(data)
    assert all(r.error is None for r in back), [r.error for r in back]
    assert len(back) == len(msgs) and all(same(a, r.message) for a, r in zip(msgs, back, strict=True))
    again, _ = write([r.message for r in back])  # Artemis -> Artemis keeps ids, queues and bytes properties
    assert again == data


def test_oversized_body_is_rejected_without_being_held() -> None:
    doc = export(message(url64(core_text("x" * 5000))) + message(url64(core_text("small"))), BINDINGS)
    recs = list(artemis_xml.read(io.BytesIO(doc.encode()), "t.xml", max_record_size=4096))
    assert "record too large" in str(recs[0].error) and "message id 1042" in str(recs[0].error)
    assert recs[1].message.body == "small"


def test_cli_reads_gzip_and_stdin_and_names_the_format(tmp_path) -> None:
    import gzip
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    data = (root / "samples" / "orders-artemis.xml").read_bytes()
    gz = tmp_path / "export.xml.gz"
    gz.write_bytes(gzip.compress(data))
    for args, stdin in (([str(gz)], None), ([], gzip.compress(data)), (["-", "--from", "artemis-xml"], data)):
        r = subprocess.run([sys.executable, "-m", "jmsctl", "filter", "color = 'blue'", "--count", "--stats", *args], input=stdin,
                           capture_output=True, cwd=root)
        assert r.returncode == 0 and r.stdout == b"10\n", r.stderr
        assert b"format artemis-xml (" in r.stderr and b"read 24, TRUE 10" in r.stderr


_SMALL = export(message(url64(core_text("one")), props='\n            <property name="n" value="1" type="integer"/>')
                + large([b"a" * 1000, b"b" * 10]) + message(url64(encode_map_body({"k": (INT, 1)})), attrs='type="map"'), BINDINGS).encode()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(_SMALL) - 1), st.integers(0, 255)), max_size=4), st.integers(0, len(_SMALL)))
def test_damaged_documents_give_records_or_one_input_error(flips, cut):
    """Any damage (bytes changed, the end cut): every outcome is a Record (message or located
    error) or one InputError; never another exception."""
    data = bytearray(_SMALL[:cut])
    for pos, value in flips:
        if pos < len(data):
            data[pos] = value
    try:
        recs = list(artemis_xml.read(io.BytesIO(bytes(data)), "t.xml"))
    except InputError:
        return
    assert all((r.message is None) != (r.error is None) and r.location.startswith("t.xml:") for r in recs)


def test_property_values_off_the_short_way_read_and_fail_as_before() -> None:
    """The short way takes unsigned ASCII digits within range and 'true'/'false'; every other
    spelling goes the careful way, with its words."""
    def one(value: str, kind: str):
        [rec] = read(export(message(url64(core_text("x")), f'\n            <property name="p" value="{value}" type="{kind}"/>'), BINDINGS))
        return rec
    assert one("+5", "integer").message.properties["p"] == (INT, 5)
    assert one("-2147483648", "integer").message.properties["p"] == (INT, -2**31)
    assert one("007", "short").message.properties["p"] == (SHORT, 7)
    assert one("True", "boolean").message.properties["p"] == (BOOLEAN, True)
    assert "2147483648 is outside the range of int" in str(one("2147483648", "integer").error)
    assert "128 is outside the range of byte" in str(one("128", "byte").error)
    assert "not an int" in str(one("\u0663", "integer").error)  # a digit, but not an ASCII one
    assert "not an int" in str(one(" 5", "integer").error)
    assert "a boolean is true or false" in str(one("yes", "boolean").error)


def test_a_message_element_inside_a_message_does_not_end_it() -> None:
    inner = '\n            <message id="9"><body/></message>\n            <property name="after" value="1" type="integer"/>'
    recs = read(export(message(url64(core_text("outer")), inner) + message(url64(core_text("next"))), BINDINGS))
    assert [r.message.body for r in recs] == ["outer", "next"]
    assert recs[0].message.properties["after"] == (INT, 1)


def test_a_message_in_another_wrapper_is_read_not_dropped() -> None:
    """A <message> one level deeper than the exporter writes it: read as a message, not lost."""
    doc = export("\n      <wrapper>" + message(url64(core_text("deep"))) + "\n      </wrapper>" + message(url64(core_text("next"))), BINDINGS)
    assert [r.message.body for r in read(doc)] == ["deep", "next"]

"""The Artemis XML reader's typing (issue 23's rewrite of ``build_message`` and ``_properties``)
against the code it replaced (tests/artemis_xml_oracle.py, main 1d57a69) on random documents: every
property type in the exporter's spellings and in others (signs, leading zeros, out of range,
non-ASCII digits, blanks, other cases, unknown and missing types, ``_AMQ_NULL``), Artemis's internal
and JMSX names, the header properties, repeated names, header attributes of every spelling,
escaped special characters, empty values, CDATA and plain bodies of every type, large bodies in
chunks, a nested message. Every Record must be the same: location, message (headers, typed
properties, body, nulls, source) and error (field and words)."""

from __future__ import annotations

import base64
import itertools
import random
import struct
from collections import Counter
from pathlib import Path

import pytest

from jmsctl.messages.formats import artemis_xml, artemis_xml_writer
from jmsctl.messages.formats.artemis_core import encode_map_body
from jmsctl.messages.loader import read_records
from jmsctl.values import BOOLEAN, DOUBLE, INT, LONG, STRING
from tests import artemis_xml_oracle

ROOT = Path(__file__).resolve().parent.parent

KINDS = ["boolean", "byte", "short", "integer", "long", "float", "double", "string", "simple-string", "bytes"]
OTHER_KINDS = ["Integer", "STRING", "Boolean", "LONG", "char", "", "int"]
NAMES = ["weight", "color", "p", "_AMQ_GROUP_ID", "_AMQ_GROUP_SEQUENCE", "_AMQ_VALIDATED_USER", "_AMQ_DUPL_ID", "__AMQ_CID",
         "_AMQ_ROUTING_TYPE", "JMSCorrelationID", "JMSType", "JMSReplyTo", "_x", "", "naïve", "a&b"]
NUMBERS = ["0", "7", "9", "10", "127", "128", "-128", "-129", "+5", "007", "32767", "32768", "-32768", "2147483647", "2147483648",
           "-2147483648", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "999999999999999999",
           "1000000000000000000", "\u0663", " 5", "5 ", "", "1.5", "1e3", "0x10", "-0", "00000000000000000001"]
FLOATS = ["0.1", "-0.0", "1.0E300", "3.4028235E38", "3.5E38", "NaN", "-Infinity", "Infinity", "1e-50", " 2.5 ", "abc", "", "1_0"]
TEXTS = ["", "x y", "a&b", "<tag>", '"quoted"', "it's", "é😁", "_AMQ_NULL", "tab\there", "line\nbreak", "true", "false", "TRUE",
         "yes", "ID:42", "queue://replies"]


def url64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode()


def escape(text: str) -> str:
    """As an XML writer escapes an attribute value (tab and line break as references, so kept)."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("\t", "&#9;").replace("\n", "&#10;"))


def core_text(text: str) -> bytes:
    data = text.encode("utf-16-le", "surrogatepass")
    return b"\x01" + struct.pack(">i", len(data)) + data


BITS = {"byte": 7, "short": 15, "integer": 31, "long": 63}


def value_for(rng: random.Random, kind: str, wild: bool) -> str:
    """A value of the type as Java writes it, or (wild) any spelling, often wrong."""
    if rng.random() < 0.05:
        return "_AMQ_NULL"
    if kind in ("byte", "short", "integer", "long", "Integer", "LONG", "int"):
        if wild and rng.random() < 0.5:
            return rng.choice(NUMBERS)
        bits = BITS.get(kind.lower(), 31)
        return str(rng.randint(-(2**bits), 2**bits - 1) >> rng.randint(0, bits))
    if kind in ("float", "double"):
        return rng.choice(FLOATS) if wild and rng.random() < 0.5 else repr(rng.uniform(-1e6, 1e6))
    if kind in ("boolean", "Boolean"):
        return rng.choice(["true", "false", "TRUE", "False", "yes", ""] if wild else ["true", "false"])
    if kind == "bytes":
        return rng.choice([url64(rng.randbytes(rng.randint(0, 9))), "not base64!", "", "AA"] if wild else [url64(rng.randbytes(rng.randint(0, 9)))])
    return rng.choice(TEXTS) if rng.random() < 0.6 else "".join(rng.choice("abcé😁& <>'\"") for _ in range(rng.randint(0, 8)))


def prop(rng: random.Random, wild: bool) -> str:
    name = rng.choice(NAMES)
    r = rng.random() if wild else 0.0
    kind = rng.choice(KINDS) if r < 0.9 else rng.choice(OTHER_KINDS)
    value = value_for(rng, kind, wild)
    if r > 0.98:
        return f'<property name="{escape(name)}" value="{escape(value)}"/>'  # no type
    return f'<property name="{escape(name)}" value="{escape(value)}" type="{kind}"/>'


def header_attrs(rng: random.Random, kind: str, wild: bool) -> str:
    attrs = []
    for name, choices in (("id", NUMBERS), ("priority", ["0", "4", "9", "10", "-1", "+4", "04", "x", "127", "128"]),
                          ("expiration", NUMBERS), ("timestamp", NUMBERS)):
        if rng.random() < 0.9:
            good = str(rng.randint(0, 9)) if name == "priority" else str(rng.randint(0, 2**63 - 1) >> rng.randint(0, 62))
            attrs.append(f'{name}="{escape(rng.choice(choices) if wild and rng.random() < 0.4 else good)}"')
    attrs.append(f'type="{kind}"')
    if rng.random() < 0.8:
        attrs.append(f'user-id="{escape(rng.choice(["a1b2", "é", "x&y", ""]))}"')
    rng.shuffle(attrs)
    return " ".join(attrs)


def body_for(rng: random.Random, kind: str, wild: bool) -> tuple[str, str]:
    """(attributes of <body>, its content)."""
    k = kind.lower()
    if k == "text":
        raw = core_text(rng.choice(TEXTS)) if not wild else rng.choice([b"\x00", b"", b"\x02zz", b"\x01\x00\x00\x00\x09ab"])
    elif k == "map":
        raw = encode_map_body({"a": (INT, rng.randint(-5, 5)), "s": (STRING, rng.choice(TEXTS)), "d": (DOUBLE, 2.5),
                               "b": (BOOLEAN, True), "l": (LONG, -1)}) if not wild else rng.randbytes(6)
    else:
        raw = rng.randbytes(rng.randint(0, 40))
    if rng.random() < 0.15 and raw:  # large: one CDATA per 1000-byte chunk (here: per few bytes)
        size = rng.randint(1, 7)
        chunks = [raw[i:i + size] for i in range(0, len(raw), size)]
        return ' isLarge="true"', "".join(f"\n            <![CDATA[{url64(c)}]]>" for c in chunks) + "\n         "
    text = url64(raw) if not wild or rng.random() < 0.5 else rng.choice(["not*base64", "", "QUJD", " QU JD "])
    if rng.random() < 0.2:
        return "", f"\n            {text}\n         "  # plain text, no CDATA
    return "", f"\n            <![CDATA[{text}]]>\n         "


def message(rng: random.Random, nested: bool = True) -> str:
    wild = rng.random() < 0.2  # a message with values off the exporter's spellings, often wrong
    kind = rng.choice(["text", "bytes", "map", "default", "object", "stream"] + (["TEXT", "Bytes", "weird"] if wild else []))
    props = "".join("\n            " + prop(rng, wild) for _ in range(rng.randint(0, 8)))
    if nested and rng.random() < 0.05:
        props += "\n            " + message(rng, nested=False)
    queues = "".join(f'\n            <queue name="{q}"/>' for q in rng.sample(["orders", "sub1", "other"], rng.randint(0, 2)))
    out = f"\n      <message {header_attrs(rng, kind, wild)}>\n         <properties>{props}\n         </properties>"
    out += f"\n         <queues>{queues}\n         </queues>"
    if rng.random() < 0.9:
        attrs, content = body_for(rng, kind, wild)
        out += f"\n         <body{attrs}>{content}</body>"
    return out + "\n      </message>"


BINDINGS = """
      <address-binding routing-types="ANYCAST" name="orders" id="3"/>
      <address-binding routing-types="MULTICAST" name="prices" id="4"/>
      <queue-binding address="orders" filter-string="" name="orders" id="5" routing-type="ANYCAST"/>
      <queue-binding address="prices" filter-string="" name="sub1" id="6" routing-type="MULTICAST"/>"""


def document(rng: random.Random) -> bytes:
    messages = "".join(message(rng) for _ in range(rng.randint(1, 12)))
    if rng.random() < 0.3:  # artemis consumer --data
        return f'<?xml version="1.0" encoding="UTF-8"?>\n<messages>{messages}\n</messages>\n'.encode()
    return f"\n<activemq-journal>\n   <bindings>{BINDINGS}\n   </bindings>\n   <messages>{messages}\n   </messages>\n</activemq-journal>".encode()


def summary(records: list) -> list:
    return [(r.location, repr(r.message), None if r.error is None else (type(r.error).__name__, r.error.field, str(r.error)))
            for r in records]


def both(data: bytes, name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:
    import io

    new = summary(list(artemis_xml.read(io.BytesIO(data), name)))
    with monkeypatch.context() as m:
        m.setattr(artemis_xml, "build_message", artemis_xml_oracle.build_message)
        old = summary(list(artemis_xml.read(io.BytesIO(data), name)))
    return new, old


def test_random_documents_read_as_the_replaced_code_read_them(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(23)
    kinds: Counter[str] = Counter()
    for i in range(250):
        data = document(rng)
        new, old = both(data, f"doc{i}.xml", monkeypatch)
        assert new == old, i
        kinds.update("error" if e else "message" for _, _, e in new)
    assert kinds["message"] > 700 and kinds["error"] > 200, kinds  # both outcomes are well exercised


def test_samples_and_written_exports_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    data = (ROOT / "samples" / "orders-artemis.xml").read_bytes()
    new, old = both(data, "orders-artemis.xml", monkeypatch)
    assert new == old and len(new) == 24
    messages = [r.message for r in itertools.islice(read_records(str(ROOT / "samples" / "orders.ndjson")), 600) if r.message is not None]
    out = io.BytesIO()
    artemis_xml_writer.write(messages, out, Counter())
    new, old = both(out.getvalue(), "written.xml", monkeypatch)
    assert new == old and len(new) == len(messages) and all(e is None for _, _, e in new)


def test_a_doctype_past_the_first_block_is_refused_and_an_entity_without_one_is_an_error() -> None:
    """DTDs and entities stay off whatever the typing does: a DOCTYPE after 70 kB of comment (the
    second block expat is fed) is refused before anything is read; an entity reference with no
    DOCTYPE is the document's located error, never expanded."""
    import io

    entity = '<property name="p" value="&e;" type="string"/>'
    doc = b"<!--" + b"x" * 70000 + b"-->\n<!DOCTYPE m [<!ENTITY e 'boom'>]>\n<messages><message type=\"text\"><properties>" + entity.encode()
    with pytest.raises(artemis_xml.RefusedXML, match=r"^t\.xml:2: refused: the XML has a DOCTYPE"):
        list(artemis_xml.read(io.BytesIO(doc + b"</properties></message></messages>"), "t.xml"))
    ok = '<message type="text"><properties><property name="q" value="1" type="integer"/></properties></message>'
    recs = list(artemis_xml.read(io.BytesIO(f"<messages>\n{ok}\n<message type=\"text\"><properties>{entity}</properties></message></messages>".encode()), "t.xml"))
    assert [r.message.properties for r in recs[:1]] == [{"q": (INT, 1)}]
    assert len(recs) == 2 and recs[1].message is None and recs[1].location == "t.xml:3"
    assert "undefined entity" in str(recs[1].error) and "the 1 complete messages before it were read" in str(recs[1].error)


def test_attribute_order_does_not_matter() -> None:
    """A property's attributes in the exporter's order (name, value, type: read by position) and in
    any other order (read by name) give the same Records; so do a missing and an extra attribute."""
    import io
    import re

    rng = random.Random(5)
    prop_re = re.compile(r'<property name="([^"]*)" value="([^"]*)" type="([^"]*)"/>')
    for i in range(60):
        data = document(rng).decode()
        assert prop_re.search(data) or "<property" not in data
        variants = [prop_re.sub(r'<property type="\3" name="\1" value="\2"/>', data),
                    prop_re.sub(r'<property value="\2" type="\3" name="\1"/>', data)]
        want = summary(list(artemis_xml.read(io.BytesIO(data.encode()), "d.xml")))
        for v in variants:
            assert v != data or "<property" not in data
            assert summary(list(artemis_xml.read(io.BytesIO(v.encode()), "d.xml"))) == want, i
    extra = '<messages><message type="text"><properties><property name="a" value="1" type="integer" x="y"/><property value="2" name="b"/>' \
            '</properties></message></messages>'
    [r] = list(artemis_xml.read(io.BytesIO(extra.encode()), "e.xml"))
    assert r.message is None and r.error is not None and r.error.field == "properties.b" and "no type attribute" in str(r.error)
    [r] = list(artemis_xml.read(io.BytesIO(extra.replace('<property value="2" name="b"/>', "").encode()), "e.xml"))
    assert r.message is not None and r.message.properties == {"a": (INT, 1)}
    for third in ('kind="integer"', 'name2="integer"'):  # three attributes, the third not "type"
        [r] = list(artemis_xml.read(io.BytesIO(f'<messages><message type="text"><properties><property name="c" value="3" {third}/>'
                                               '</properties></message></messages>'.encode()), "e.xml"))
        assert r.message is None and r.error is not None and r.error.field == "properties.c" and "no type attribute" in str(r.error)


def test_map_bodies_decode_as_the_cursor_decoded_them() -> None:
    """artemis_core.decode_map_body (offsets into the bytes) against the cursor code it replaced,
    on valid map bodies of every entry type and on every prefix and single-byte change of them: the
    same entries or the same error, word for word."""
    from jmsctl.messages.formats import artemis_core
    from jmsctl.messages.model import BytesValue
    from jmsctl.values import BYTE, FLOAT, SHORT

    def outcome(f: object, raw: bytes) -> object:
        try:
            return ("ok", f(raw))  # type: ignore[operator]
        except artemis_core.CoreError as exc:
            return ("error", str(exc))

    rng = random.Random(7)
    entries = {"i": (INT, -7), "l": (LONG, 2**40), "s": (STRING, "é😁"), "b": (BOOLEAN, False), "d": (DOUBLE, -0.0),
               "f": (FLOAT, 2.5), "y": (BYTE, -3), "h": (SHORT, 300), "x": BytesValue(b"\x00\xff")}
    bodies = [encode_map_body(entries), encode_map_body({}), encode_map_body({"only": (STRING, "")}), b"\x01" + struct.pack(">i", 1) +
              struct.pack(">i", 2) + "c".encode("utf-16-le") + bytes([11]) + struct.pack(">H", 0xE9)]  # a char entry
    bodies.append(bodies[3][:-11] + bytes([0]))  # a null entry
    seen: Counter[str] = Counter()
    for raw in bodies:
        cases = [raw[:n] for n in range(len(raw) + 1)] + [raw + b"\x00"]
        for _ in range(300):
            b = bytearray(raw)
            b[rng.randrange(len(b))] = rng.randrange(256)
            cases.append(bytes(b))
        for case in cases:
            new, old = outcome(artemis_core.decode_map_body, case), outcome(artemis_xml_oracle.decode_map_body, case)
            assert new == old, case
            seen[new[0]] += 1  # type: ignore[index]
    assert seen["ok"] > 50 and seen["error"] > 500, seen

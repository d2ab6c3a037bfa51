"""The Artemis XML reader's scanner (jmsctl/messages/formats/artemis_xml_scan.py) against expat
alone (``read(..., fast=False)``): the same Records (locations, messages, errors word for word) or
the same InputError, on random documents and on every kind of damage and deviation from the
exporter's layout the scanner must leave to expat: CR LF and CR line ends, no line breaks at all,
comments, references (valid and forbidden), control characters, tabs in values, an attribute named
twice, bad UTF-8, other encodings, bodies past the scanner's buffer or the size limit, cuts and
flipped bytes at any place, blocks of any size. Each test also checks that the scanner did read
messages, so that none can pass with expat doing all the work."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jmsctl.messages.formats import artemis_xml, artemis_xml_scan
from jmsctl.messages.sources import InputError
from tests.test_artemis_xml_differential import document, summary


@pytest.fixture
def scanned(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many messages the scanner took (parts() not None), over the test."""
    count = [0]
    real = artemis_xml_scan.parts

    def counting(m: re.Match[bytes], max_size: int, exporter: bool):  # type: ignore[no-untyped-def]
        got = real(m, max_size, exporter)
        count[0] += got is not None
        return got

    monkeypatch.setattr(artemis_xml_scan, "parts", counting)
    yield count


def outcome(data: bytes, fast: bool, max_size: int = 16 * 1024 * 1024) -> object:
    try:
        return summary(list(artemis_xml.read(io.BytesIO(data), "d.xml", max_size, fast=fast)))
    except InputError as exc:
        return (type(exc).__name__, str(exc))


def same(data: bytes, max_size: int = 16 * 1024 * 1024) -> object:
    fast = outcome(data, True, max_size)
    assert fast == outcome(data, False, max_size)
    return fast


def test_random_documents(scanned: list[int]) -> None:
    rng = random.Random(31)
    messages = errors = 0
    for _ in range(150):
        got = same(document(rng))
        assert isinstance(got, list)
        messages += sum(1 for _, m, e in got if e is None)
        errors += sum(1 for _, m, e in got if e is not None)
    assert messages > 400 and errors > 100 and scanned[0] > 600, (messages, errors, scanned[0])


def _transforms(rng: random.Random, doc: bytes) -> list[bytes]:
    """The document as other writers or damage leave it: every one must read as expat reads it."""
    text = doc.decode()
    spots = [m.start() for m in re.finditer(r"<(message|property|queue|body|/message|/properties)[ >/]", text)]
    at = rng.choice(spots) if spots else 0
    value_at = [m.end() - 1 for m in re.finditer(r'value="', text)] or [at]
    v = rng.choice(value_at) + 1
    last_broken = b"</queue>".join(doc.rsplit(b"</queues>", 1))  # the error after the scanned messages
    last_twice = b'<message id="1" id="'.join(doc.rsplit(b'<message id="', 1))  # the error on the line the scanner stops at
    k = last_twice.rfind(b"<message", 0, max(0, last_twice.rfind(b"<message")))
    tail_joined = last_twice[:k] + re.sub(rb">\s+<", b"><", last_twice[k:]) if k >= 0 else last_twice  # the last two messages on one line
    return [
        doc.replace(b"\n", b"\r\n"),
        doc.replace(b"\n", b"\r"),
        last_broken.replace(b"\n", b"\r\n"),
        last_broken.replace(b"\n", b"\r"),
        re.sub(rb"</message>\s+<message", b"</message><message", last_twice.replace(b"\n", b"\r")),  # a message begins where one ends
        re.sub(rb"</message>\s+<message", b"</message><message", last_twice),
        tail_joined,
        re.sub(rb">\s+<", b"><", doc),  # one line
        (text[:at] + "<!-- c -->" + text[at:]).encode(),
        (text[:at] + "<?pi x?>" + text[at:]).encode(),
        (text[:v] + rng.choice(["&#10;", "&#9;", "&#0;", "&#x1F600;", "&#xD800;", "&#65535;", "&#xFFFD;", "&#1114112;", "&#99999999999;",
                                "&amp;lt;", "&e;", "&#x;", "\t", "\x01", "\x7f", "\ufffe", "\U0001F600", "\u0085", "'"]) + text[v:]).encode(),
        doc[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf"]) + doc[at:],
        (text[:v].encode() + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xef\xbf\xbe"])
         + text[v:].encode()),  # inside a value: the scanner decodes it
        doc.replace(b'<message id="', b'<message id="1" id="', 1),
        doc.replace(b' type="', b" type='", 1).replace(b'" user-id', b"' user-id", 1),
        doc.replace(b'"/>', b'" />', 1),
        doc.replace(b"<message ", b"<message\n   ", 1),
        doc[: rng.randrange(len(doc) + 1)],
    ]


def test_deviations_and_damage(scanned: list[int]) -> None:
    rng = random.Random(32)
    kinds = {"messages": 0, "errors": 0, "input errors": 0}
    for _ in range(60):
        doc = document(rng)
        for variant in _transforms(rng, doc):
            got = same(variant)
            if isinstance(got, list):
                kinds["messages"] += sum(1 for _, m, e in got if e is None)
                kinds["errors"] += sum(1 for _, m, e in got if e is not None)
            else:
                kinds["input errors"] += 1
    assert kinds["messages"] > 1000 and kinds["errors"] > 300 and scanned[0] > 1000, (kinds, scanned[0])


@pytest.mark.parametrize("block", [1, 7, 64, 200, 1000])
def test_any_block_size(block: int, scanned: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks cut through tags, references, UTF-8 characters and the first message's start: expat's
    window and the scanner's buffer hand over at the right byte. (expat hands a message over only
    when its start tag is within the last two blocks: with blocks shorter than a tag, never.)"""
    monkeypatch.setattr(artemis_xml, "BLOCK", block)
    rng = random.Random(block)
    for _ in range(12):
        doc = document(rng)
        same(doc)
        same(doc.replace(b"\n", b"\r\n"))
        same(doc[: rng.randrange(len(doc) + 1)])
    assert scanned[0] > 20 or block < 200


def test_the_scanner_buffer_and_the_size_limit(scanned: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A message longer than the scanner's buffer goes to expat; so does a body near the record size
    limit (expat counts its characters); the messages after them are scanned again."""
    rng = random.Random(33)
    docs = [document(rng) for _ in range(20)]
    with monkeypatch.context() as m:
        m.setattr(artemis_xml, "_LIMIT", 600)
        for doc in docs:
            same(doc)
    limited = scanned[0]
    for doc in docs:
        for size in (0, 8, 30, 200):
            same(doc, max_size=size)
    assert limited > 20 and scanned[0] - limited > 100, (limited, scanned[0])


def test_other_encodings_are_expat_s_alone(scanned: list[int]) -> None:
    rng = random.Random(34)
    doc = document(rng)
    body = doc.decode()
    if body.startswith("<?xml"):
        body = body[body.index("?>") + 2:]
    latin = ('<?xml version="1.0" encoding="ISO-8859-1"?>' + body.replace("é", "\u00e9")).encode("latin-1", "replace")
    same(latin)
    same(('<?xml version="1.0" encoding="UTF-16"?>' + body).encode("utf-16"))
    same(body.encode("utf-16-le"))

    class Trickle(io.BytesIO):
        def read(self, n: int | None = -1) -> bytes:
            return super().read(1)  # one byte a read: UTF-16 is still told from its first bytes

    data = body.encode("utf-16-le")
    assert summary(list(artemis_xml.read(Trickle(data), "d.xml"))) == outcome(data, False)
    assert scanned[0] == 0  # none of these is read as UTF-8
    same(b"\xef\xbb\xbf" + doc)  # UTF-8 with its BOM: scanned
    assert scanned[0] > 0


def test_real_exports_are_all_scanned(scanned: list[int]) -> None:
    """The sample export (XMLMessageExporter's layout): every message is the scanner's, and its
    Records are expat's."""
    from pathlib import Path

    data = (Path(__file__).resolve().parent.parent / "samples" / "orders-artemis.xml").read_bytes()
    got = same(data)
    assert isinstance(got, list) and len(got) == 24 and scanned[0] == 24


def test_a_document_not_in_the_layout_is_left_to_expat_after_a_few_misses(scanned: list[int]) -> None:
    rng = random.Random(35)
    doc = b"".join(document(rng) for _ in range(1))
    many = doc.replace(b"<properties>", b"<properties><!-- x -->")
    same(many)
    assert scanned[0] <= artemis_xml._GIVE_UP // artemis_xml._MISS


def test_a_document_half_out_of_the_layout_is_left_to_expat(scanned: list[int]) -> None:
    """Every other message not in the exporter's layout: the scanner stops after a while (each
    hand-over costs more than a scanned message saves), and the Records are expat's."""
    from pathlib import Path

    sample = (Path(__file__).resolve().parent.parent / "samples" / "orders-artemis.xml").read_bytes()
    start, end = sample.index(b"<messages>") + 10, sample.rindex(b"</messages>")
    doc = sample[:start] + sample[start:end] * 3 + sample[end:]  # 72 messages
    pieces = doc.split(b"<properties>")
    half = b"".join(p + (b"<properties><!-- c -->" if i % 2 else b"<properties>") for i, p in enumerate(pieces[:-1])) + pieces[-1]
    same(half)
    assert 0 < scanned[0] < 20, scanned[0]


_SMALL = document(random.Random(36))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(_SMALL) - 1), st.integers(0, 255)), max_size=3), st.integers(0, len(_SMALL)),
       st.sampled_from([3, 50, 1 << 16]))
def test_flipped_bytes_and_cuts(flips: list[tuple[int, int]], cut: int, block: int) -> None:
    data = bytearray(_SMALL[:cut])
    for pos, value in flips:
        if pos < len(data):
            data[pos] = value
    old = artemis_xml.BLOCK
    artemis_xml.BLOCK = block
    try:
        same(bytes(data))
    finally:
        artemis_xml.BLOCK = old


def test_one_line_documents_across_blocks(scanned: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """No line break at all: the column of each hand-over is carried from block to block (expat's
    error names it)."""
    monkeypatch.setattr(artemis_xml, "BLOCK", 300)
    rng = random.Random(37)
    columns = 0
    for _ in range(30):
        doc = re.sub(rb">\s+<", b"><", document(rng)).replace(b"\n", b"")
        for variant in (doc, doc[: rng.randrange(len(doc) + 1)], doc.replace(b"</queues>", b"</queue>", 3)):
            got = same(variant)
            columns += isinstance(got, list) and any(e is not None and "column" in e[2] for _, _, e in got)
    assert columns > 20 and scanned[0] > 50, (columns, scanned[0])


def test_a_long_message_is_expat_s_and_the_next_ones_the_scanner_s(scanned: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The scanner holds at most _LIMIT bytes waiting for a message's end: a longer message is read
    by expat, which hands the next one back."""
    import base64

    def msg(n: int, body: bytes) -> str:
        return (f'\n      <message id="{n}" type="bytes">\n         <properties>\n            <property name="n" value="{n}" type="integer"/>'
                f"\n         </properties>\n         <body>\n            <![CDATA[{base64.b64encode(body).decode()}]]>\n         </body>\n      </message>")

    doc = ("<activemq-journal>\n   <messages>" + msg(1, b"x") + msg(2, b"y" * 3000) + msg(3, b"z") + msg(4, b"w")
           + "\n   </messages>\n</activemq-journal>\n").encode()
    monkeypatch.setattr(artemis_xml, "_LIMIT", 2000)
    monkeypatch.setattr(artemis_xml, "BLOCK", 500)
    got = same(doc)
    assert isinstance(got, list) and [e for _, _, e in got] == [None] * 4
    assert scanned[0] == 3

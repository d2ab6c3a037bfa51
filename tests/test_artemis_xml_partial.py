"""The Artemis XML reader typing only a selector's names (``ReadOptions.names``: ``Partial`` records)
against the reader typing every message whole, on the random documents of
tests/test_artemis_xml_differential.py (every property type and spelling, broken values, JMSX and
header properties, repeated names, bad headers and bodies) and random selectors over those names,
in four dialects. The rule checked, record by record:

- a record the partial reader rejects is rejected by the whole reader, word for word;
- a value the selector reads that is broken (a property of one of its names, a header) is
  rejected by both; a Partial's ``whole()`` is the whole reader's record, word for word;
- a message the whole reader reads has a Partial whose view holds what the message's view holds
  for every name the selector reads (so the verdict is the same);
- so ``filter.select`` passes on exactly the same records either way, and counts rejected only
  what the whole reader rejects (a message broken only off the selector's names and not passed on
  is counted by its verdict, as the NDJSON fast path counts such a line).
"""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from collections import Counter

import pytest

from jmsctl import selector as sel
from jmsctl.filter import Counts, select
from jmsctl.filter.plan import FilterPlan
from jmsctl.messages.formats import artemis_xml
from jmsctl.messages.records import UNREAD, Partial, Record
from jmsctl.messages.sources import InputError
from tests.test_artemis_xml_differential import document, summary
from tests.test_artemis_xml_scan import _transforms

NAMES = ["weight", "color", "p", "JMSXGroupID", "JMSXGroupSeq", "JMSXUserID", "JMSCorrelationID", "JMSType", "_x", "naïve",
         "JMSPriority", "JMSTimestamp", "JMSMessageID", "JMSDeliveryMode"]
BROKER_NAMES = ["JMSDestination", "JMSExpiration", "JMSReplyTo"]
TESTS = ["{} IS NULL", "{} IS NOT NULL", "{} > 5", "{} < 0", "{} = 'x y'", "{} = 'true'", "{} LIKE 'ID%'", "{} = TRUE",
         "{} IN ('a&b', 'é😁', 'queue://orders')", "{} BETWEEN -100 AND 1000000", "{} <> 2.5", "{} = 'ID:a1b2'", "{} IN ('ID:é', 'ID:')",
         "{} = 'it''s'", "{} IN ('<tag>', '\"quoted\"')", "{} = 'tab\there'", "{} = ''"]


_MESSAGE_TAG = re.compile(r'<message ((?:[a-z-]+="[^"]*" ?)+)>')
_EXPORTER_ORDER = {k: i for i, k in enumerate(("id", "priority", "expiration", "timestamp", "type", "user-id"))}


def in_exporter_order(doc: bytes) -> bytes:
    """The document with each message's attributes in XMLMessageExporter's order (the generator
    shuffles them): the layout of real exports, the only one whose messages may be left UNREAD."""
    def order(m: re.Match[str]) -> str:
        attrs = sorted(re.findall(r'([a-z-]+)="([^"]*)"', m.group(1)), key=lambda kv: _EXPORTER_ORDER.get(kv[0], 9))
        return "<message " + " ".join(f'{k}="{v}"' for k, v in attrs) + ">"
    return _MESSAGE_TAG.sub(order, doc.decode()).encode()


def a_selector(rng: random.Random) -> tuple[str, sel.Selector]:
    while True:
        dialect = rng.choice(["jakarta", "jakarta", "ibm", "artemis", "activemq"])
        names = NAMES + (BROKER_NAMES if dialect in ("artemis", "activemq") else [])
        parts = [rng.choice(TESTS).format(rng.choice(names)) for _ in range(rng.randint(1, 3))]
        text = parts[0]
        for part in parts[1:]:
            text = f"{text} {rng.choice(['AND', 'OR'])} {'NOT ' if rng.random() < 0.2 else ''}{part}"
        try:
            return dialect, sel.compile(text, dialect)
        except sel.InvalidSelectorException:  # a name or comparison the dialect's checker refuses: draw again
            continue


def a_required_selector(rng: random.Random) -> tuple[str, sel.Selector]:
    """A selector TRUE only for a String among literals (``FilterPlan.required``), AND something."""
    name = rng.choice(["color", "p", "JMSType", "JMSCorrelationID", "JMSXGroupID", "JMSXUserID", "_x", "JMSMessageID"])
    literals = rng.sample(["x y", "true", "a&b", "<tag>", "it''s", "é😁", "ID:42", "queue://replies", "_AMQ_NULL", "ID:a1b2", "ID:é",
                           "ab", "a", "TRUE", "yes"], rng.randint(1, 3))
    quoted = ["'" + lit + "'" for lit in literals]  # each already in the selector's quoting
    test = f"{name} = {quoted[0]}" if len(quoted) == 1 else f"{name} IN ({', '.join(quoted)})"
    if rng.random() < 0.5:
        test += " AND " + rng.choice(TESTS).format(rng.choice(NAMES))
    dialect = rng.choice(["jakarta", "ibm"])
    try:
        return dialect, sel.compile(test, dialect)
    except sel.InvalidSelectorException:
        return a_required_selector(rng)


def both(data: bytes, names: frozenset[str], fast: bool = True) -> tuple[list[Record], list[Record | Partial]]:
    whole = list(artemis_xml.read(io.BytesIO(data), "d.xml", fast=fast))
    part = list(artemis_xml.read(io.BytesIO(data), "d.xml", fast=fast, names=names))
    return whole, part  # type: ignore[return-value]


def plan_of(selector: sel.Selector) -> tuple[frozenset[str], tuple[tuple[str, frozenset[str]], ...]]:
    plan = FilterPlan.of(selector.ast, selector.dialect)
    return frozenset(plan.identifiers), plan.required


def check(whole: list[Record], part: list[Record | Partial], names: frozenset[str], selector: sel.Selector, seen: Counter[str]) -> None:
    raw = artemis_xml.raw_names(names)
    assert len(whole) == len(part)
    for w, p in zip(whole, part, strict=True):
        assert p.location == w.location
        if not isinstance(p, Partial):
            assert p.message is None and summary([p]) == summary([w])  # rejected by both, word for word
            seen["rejected by both"] += 1
            continue
        assert summary([p.whole()]) == summary([w])
        if w.message is None:
            assert w.error is not None
            field = w.error.field
            assert field in ("body", "id") or (field.startswith("properties.") and field[len("properties."):] not in raw), field
            seen["broken off the names"] += 1
            continue
        view = w.message.selector_values()
        assert {n: repr(p.view.get(n)) for n in names} == {n: repr(view.get(n)) for n in names}
        assert selector.evaluate(p.view) == selector.evaluate(view)
        seen["typed" if any(p.view.get(n) is not None for n in names) else "no value read"] += 1


def test_random_documents_and_selectors() -> None:
    rng = random.Random(41)
    seen: Counter[str] = Counter()
    for _ in range(300):
        data = document(rng)
        _, selector = a_selector(rng)
        names = frozenset(FilterPlan.of(selector.ast, selector.dialect).identifiers)
        whole, part = both(data, names)
        check(whole, part, names, selector, seen)
    assert seen["rejected by both"] > 30 and seen["broken off the names"] > 100 and seen["typed"] > 300, seen


def test_expat_alone_gives_the_same_partial_records() -> None:
    """The scanner and expat hand the same messages to the typing: both ways give the same views."""
    rng = random.Random(42)
    for _ in range(60):
        data = document(rng)
        _, selector = a_selector(rng)
        names = frozenset(FilterPlan.of(selector.ast, selector.dialect).identifiers)
        fast = list(artemis_xml.read(io.BytesIO(data), "d.xml", names=names))
        slow = list(artemis_xml.read(io.BytesIO(data), "d.xml", fast=False, names=names))
        assert [(type(r).__name__, r.location, repr(getattr(r, "view", None)), summary([r.whole() if isinstance(r, Partial) else r]))
                for r in fast] == [(type(r).__name__, r.location, repr(getattr(r, "view", None)),
                                    summary([r.whole() if isinstance(r, Partial) else r])) for r in slow]


def test_a_message_over_the_size_limit_is_rejected_whatever_the_selector_reads() -> None:
    """Its body was dropped unread: it is rejected (record too large) as the whole reader rejects it,
    never counted by a verdict."""
    rng = random.Random(44)
    large = 0
    for _ in range(40):
        data = document(rng)
        names = frozenset({"color", "JMSType"})
        whole = list(artemis_xml.read(io.BytesIO(data), "d.xml", 30))
        part = list(artemis_xml.read(io.BytesIO(data), "d.xml", 30, names=names))
        for w, p in zip(whole, part, strict=True):
            if w.error is not None and "record too large" in str(w.error):
                assert not isinstance(p, Partial) and summary([p]) == summary([w])
                large += 1
    assert large > 20, large


def test_a_header_property_written_twice_ends_as_the_whole_message_ends() -> None:
    doc = (b'<messages><message type="text"><properties><property name="JMSType" value="a" type="string"/>'
           b'<property name="weight" value="1" type="integer"/><property name="JMSType" value="b" type="string"/>'
           b'<property name="weight" value="7" type="long"/><property name="_AMQ_GROUP_ID" value="g" type="string"/>'
           b'<property name="JMSXGroupID" value="h" type="string"/></properties></message></messages>')
    names = frozenset({"JMSType", "weight", "JMSXGroupID"})
    [p] = list(artemis_xml.read(io.BytesIO(doc), "d.xml", names=names))
    assert isinstance(p, Partial)
    assert p.view == {"JMSType": (sel_string := p.view["JMSType"][0], "b"), "weight": (p.view["weight"][0], 7), "JMSXGroupID": (sel_string, "h")}
    assert p.view["weight"][0].java_name == "long"
    [w] = list(artemis_xml.read(io.BytesIO(doc), "d.xml"))
    assert w.message is not None and {n: w.message.selector_values()[n] for n in names} == p.view


@pytest.mark.parametrize("invert", [False, True])
def test_select_passes_on_the_same_records(invert: bool) -> None:
    rng = random.Random(43 + invert)
    totals: Counter[str] = Counter()
    for _ in range(200):
        data = in_exporter_order(document(rng)) if rng.random() < 0.7 else document(rng)
        _, selector = a_selector(rng)
        names = frozenset(FilterPlan.of(selector.ast, selector.dialect).identifiers)
        whole, part = both(data, names)
        cw, cp = Counts(), Counts()
        rw: list[Record] = []
        rp: list[Record] = []
        got_w = summary(list(select(selector, whole, cw, invert=invert, on_rejected=rw.append)))
        got_p = summary(list(select(selector, part, cp, invert=invert, on_rejected=rp.append)))
        assert got_p == got_w
        assert cp.read == cw.read == len(whole) == cp.true + cp.false + cp.unknown + cp.rejected
        assert cp.selected == cw.selected and cp.rejected <= cw.rejected
        assert set(summary(rp)) <= set(summary(rw))
        if invert:  # every record not TRUE is passed on, so made whole: counted alike
            assert (cp.false, cp.unknown) == (cw.false, cw.unknown) and cp.true >= cw.true
        else:
            assert cp.true == cw.true and cp.false + cp.unknown >= cw.false + cw.unknown
        totals["selected"] += cp.selected
        totals["rejected only whole"] += cw.rejected - cp.rejected
        if not invert:  # and with ``required``: messages proved not selected come UNREAD, counted as skipped
            names, required = plan_of(selector)
            unread = list(artemis_xml.read(io.BytesIO(data), "d.xml", names=names, required=required))
            cu = Counts()
            assert summary(list(select(selector, unread, cu))) == got_w
            assert cu.read == cw.read == cu.true + cu.false + cu.unknown + cu.rejected + cu.skipped
            assert cu.true == cw.true and cu.rejected <= cp.rejected and cu.skipped == unread.count(UNREAD)
            totals["skipped"] += cu.skipped
    assert totals["selected"] > 60 and totals["rejected only whole"] > 8 and (invert or totals["skipped"] > 15), totals


def _filter(tmp_path, doc: bytes, *args: str) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    path = tmp_path / "d.xml"
    path.write_bytes(doc)
    return subprocess.run([sys.executable, "-m", "jmsctl", "filter", *args, str(path)], capture_output=True, text=True, timeout=120)


def _doc(*messages: str) -> bytes:
    return ("<messages>\n" + "\n".join(f'<message type="text" user-id="m{i}"><properties>{m}</properties></message>'
                                        for i, m in enumerate(messages)) + "\n</messages>\n").encode()


def test_the_command_reports_what_it_reads_and_what_it_passes_on(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``jmsctl filter``: a message broken only off the selector's names and not selected is not
    reported (as an NDJSON line broken off the path); ``--validate-all`` and ``--stats`` report it;
    one broken on a name the selector reads, or selected, is reported on every path."""
    good = '<property name="color" value="blue" type="string"/>'
    off = '<property name="weight" value="heavy" type="integer"/>'
    on = '<property name="color" value="x" type="integer"/>'
    doc = _doc(good, '<property name="color" value="red" type="string"/>' + off)
    run = _filter(tmp_path, doc, "color = 'blue'", "--count")
    assert (run.returncode, run.stdout, run.stderr) == (0, "1\n", "")
    for strict in ("--validate-all", "--stats"):
        run = _filter(tmp_path, doc, "color = 'blue'", "--count", strict)
        assert run.returncode == 2 and "d.xml:3 (ID:m1)" in run.stderr and "properties.weight" in run.stderr, (strict, run.stderr)
    for doc in (_doc(good, on), _doc(good, '<property name="color" value="blue" type="string"/>' + off)):
        for extra in ((), ("--validate-all",)):
            run = _filter(tmp_path, doc, "color = 'blue'", "--count", *extra)
            assert run.returncode == 2 and "d.xml:3 (ID:m1)" in run.stderr, (extra, run.stderr)
    run = _filter(tmp_path, _doc(good, '<property name="color" value="red" type="string"/>' + off), "color = 'blue'")
    assert run.returncode == 0 and '"color":"blue"' in run.stdout and run.stdout.count("\n") == 1


def _unread_outcome(data: bytes, selector: sel.Selector, max_size: int = 16 * 1024 * 1024) -> tuple[object, object, int]:
    """(the whole reader's records, the reader's with ``required``, how many it left UNREAD), each an
    InputError's words instead when the document is refused."""
    names, required = plan_of(selector)
    try:
        whole = list(artemis_xml.read(io.BytesIO(data), "d.xml", max_size))
    except InputError as exc:
        whole_out: object = str(exc)
    else:
        whole_out = whole
    try:
        part = list(artemis_xml.read(io.BytesIO(data), "d.xml", max_size, names=names, required=required))
    except InputError as exc:
        return whole_out, str(exc), 0
    return whole_out, part, sum(1 for r in part if r is UNREAD)


def _check_unread(whole: object, part: object, selector: sel.Selector) -> None:
    """UNREAD stands only for a message the whole reader reads and the selector does not select, or
    rejects for a value of its own (never a document's break): the rest is as without ``required``."""
    if not isinstance(whole, list):
        assert part == whole
        return
    assert isinstance(part, list) and len(part) == len(whole)
    for w, p in zip(whole, part, strict=True):
        if p is UNREAD:
            assert w.location.startswith("d.xml:")
            if w.message is not None:
                assert selector.evaluate(w.message.selector_values()) is not True
            else:  # rejected for a value: never for its size (always reported) nor the document's break
                assert w.error is not None and "complete messages before it" not in str(w.error), w.error
                assert "record too large" not in str(w.error), w.error
        elif isinstance(p, Partial):
            assert summary([p.whole()]) == summary([w])
        else:
            assert summary([p]) == summary([w])


def test_unread_messages_are_never_selected_and_hide_no_break() -> None:
    rng = random.Random(45)
    unread = selected = 0
    for _ in range(300):
        data = in_exporter_order(document(rng))
        _, selector = a_selector(rng) if rng.random() < 0.3 else a_required_selector(rng)
        whole, part, n = _unread_outcome(data, selector)
        _check_unread(whole, part, selector)
        unread += n
        selected += sum(1 for r in select(selector, part)) if isinstance(part, list) else 0  # type: ignore[arg-type]
    assert unread > 200 and selected > 50, (unread, selected)


def test_unread_on_damaged_and_deviant_documents() -> None:
    """Every deviation and damage of the scanner's tests (bad UTF-8 in a value, U+FFFE, references,
    an attribute named twice, cuts ...): a selector whose literals are nowhere leaves every message it
    may UNREAD, and each document still breaks off where, and as, it breaks without ``required``."""
    rng = random.Random(46)
    unread = breaks = 0
    texts = ["color = 'zzz'", "JMSType IN ('qqq', 'vvv') AND weight > 1", "JMSMessageID = 'ID:nowhere'", "p = 'é😁'", "color = 'a&b'"]
    for _ in range(40):
        doc = in_exporter_order(document(rng))
        for variant in [doc, *_transforms(rng, doc)]:
            selector = sel.compile(rng.choice(texts))
            whole, part, n = _unread_outcome(variant, selector)
            _check_unread(whole, part, selector)
            unread += n
            breaks += isinstance(whole, list) and any("complete messages before it" in str(r.error) for r in whole)
    assert unread > 500 and breaks > 100, (unread, breaks)


@pytest.mark.parametrize("block", [1, 7, 64, 200, 1000])
def test_unread_with_any_block_size_and_a_small_size_limit(block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks cut anywhere (expat hands a message to the scanner only when its tag is in the last two
    blocks: not with blocks of 1 or 7 bytes); a message near the 600-byte limit is read, never UNREAD."""
    monkeypatch.setattr(artemis_xml, "BLOCK", block)
    rng = random.Random(47 + block)
    unread = 0
    for _ in range(60):
        data = in_exporter_order(document(rng))
        selector = sel.compile(rng.choice(["color = 'x y'", "JMSType = 'true' AND JMSType <> 'zz'", "JMSXGroupID = 'é😁'"]))
        whole, part, n = _unread_outcome(data, selector, 600)
        _check_unread(whole, part, selector)
        unread += n
    assert unread > 20 or block < 64, unread


def test_a_message_id_is_found_by_its_user_id() -> None:
    doc = _doc('<property name="color" value="blue" type="string"/>', "").replace(b'user-id="m', b'id="1" priority="4" expiration="0" timestamp="5" type="text" user-id="m')
    doc = doc.replace(b'<message type="text" id=', b"<message id=")
    # (selector, selected, UNREAD): a literal without "ID:" is looked for as it is (it never matches; read all the same)
    for text, want, unread in (("JMSMessageID = 'ID:m1'", ["d.xml:3 (ID:m1)"], 1), ("JMSMessageID IN ('ID:m0', 'm1')", ["d.xml:2 (ID:m0)"], 0),
                               ("JMSMessageID = 'm1'", [], 1), ("JMSMessageID = 'ID:m2'", [], 2)):
        selector = sel.compile(text)
        whole, part, n = _unread_outcome(doc, selector)
        assert isinstance(part, list) and n == unread, (text, n)
        _check_unread(whole, part, selector)
        assert [r.location for r in select(selector, part)] == want, text  # type: ignore[arg-type]

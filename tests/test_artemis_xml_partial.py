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
import subprocess
import sys
from collections import Counter

import pytest

from jmsctl import selector as sel
from jmsctl.filter import Counts, select
from jmsctl.filter.plan import FilterPlan
from jmsctl.messages.formats import artemis_xml
from jmsctl.messages.records import Partial, Record
from tests.test_artemis_xml_differential import document, summary

NAMES = ["weight", "color", "p", "JMSXGroupID", "JMSXGroupSeq", "JMSXUserID", "JMSCorrelationID", "JMSType", "_x", "naïve",
         "JMSPriority", "JMSTimestamp", "JMSMessageID", "JMSDeliveryMode"]
BROKER_NAMES = ["JMSDestination", "JMSExpiration", "JMSReplyTo"]
TESTS = ["{} IS NULL", "{} IS NOT NULL", "{} > 5", "{} < 0", "{} = 'x y'", "{} = 'true'", "{} LIKE 'ID%'", "{} = TRUE",
         "{} IN ('a&b', 'é😁', 'queue://orders')", "{} BETWEEN -100 AND 1000000", "{} <> 2.5"]


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


def both(data: bytes, names: frozenset[str], fast: bool = True) -> tuple[list[Record], list[Record | Partial]]:
    whole = list(artemis_xml.read(io.BytesIO(data), "d.xml", fast=fast))
    part = list(artemis_xml.read(io.BytesIO(data), "d.xml", fast=fast, names=names))
    return whole, part


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
        data = document(rng)
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
    assert totals["selected"] > 100 and totals["rejected only whole"] > 15, totals


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

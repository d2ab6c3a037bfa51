"""The chunk prefilter (``plan.line_scanner``) finds exactly the lines that the per-line test
(``plan.line_test``) keeps, in order, each once: whatever the needles' lengths (``re`` for short
ones, ``bytes.find`` for long ones), several needles in one group or on one line, overlapping
occurrences, a marker (``\\u`` / ``\\``), several groups, blank lines and a last line without its
newline."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from jmsctl import selector as sel
from jmsctl.filter.plan import FilterPlan, key_superset, line_scanner, line_test, literal_pattern
from jmsctl.messages.loader import judge_line

SELECTORS = [
    "JMSMessageID = 'ID:bars-999999'",  # one long needle (bytes.find)
    "color IN ('red', 'blue')",  # two short needles in one group
    "JMSType = 'car' AND color = 'blue' AND weight > 2500",  # two groups
    "color IN ('aaa', 'aaaaaaaaaa')",  # a short and a long needle, overlapping themselves and each other
    "x = 'a/b' AND y = 'c\"d'",  # characters with a short escape: the marker is a backslash
    "region LIKE 'A%'",  # a two-byte needle: the value's opening quote and its first character
]
FRAGMENTS = ["red", "blue", "car", '"red"', '"blue', 'car"', '"A', "A", "ID:bars-999999", "ID:bars-99999", "aaaaaaaaaaaa", "aa", "a/b",
             "a\\/b", 'c\\"d', "\\u0062lue", "\\", "x", '{"p":"', '"}', " ", "\t", "\r"]
lines = st.lists(st.lists(st.sampled_from(FRAGMENTS), max_size=6).map("".join), min_size=0, max_size=12)


@settings(max_examples=300, deadline=None)
@given(lines, st.sampled_from(SELECTORS), st.booleans())
def test_line_scanner_equals_line_test(texts: list[str], text: str, final_newline: bool) -> None:
    groups = FilterPlan.of(sel.compile(text).ast).must_contain
    scan, test = line_scanner(groups), line_test(groups)
    assert scan is not None and test is not None
    raw = [x.encode() for x in texts]
    chunk = b"\n".join(raw) + (b"\n" if final_newline and raw else b"")
    lines = chunk.split(b"\n")
    if chunk.endswith(b"\n"):
        lines.pop()
    want = [i for i, line in enumerate(lines) if test(line)]
    assert scan(chunk, lines) == want, (text, chunk)


# Literals read from a byte other than their first (plan.literal_pattern): a quote, 'e', 'r' first.
LITERALS = [b'red"', b'"A', b'region"', b'"JMSType"', b'e:', b'"r"r', b'r"', b'e\ne', b'"', b"blue"]
PIECES = [b'red"', b'"', b"e", b"r", b"d", b"A", b"\n", b"x", b"region", b":", b"JMSType", b'"r']


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=20).map(b"".join), st.sampled_from(LITERALS))
def test_a_literal_read_from_its_rarest_byte_is_found_where_the_literal_is(text: bytes, literal: bytes) -> None:
    search = re.compile(literal_pattern(literal)).search
    for line in text.split(b"\n"):
        assert (search(line) is not None) == (literal in line), (literal, line)
    first, at = search(text), text.find(literal)
    assert (first is None) == (at == -1)
    if first is not None and b"\n" not in literal:  # the line of the first match is the literal's first line
        assert text.count(b"\n", 0, first.start()) == text.count(b"\n", 0, at)


def test_a_literal_that_begins_with_a_common_byte_is_read_from_a_rarer_one() -> None:
    assert literal_pattern(b'red"') == rb'd"(?<=red")'
    assert literal_pattern(b'"A') == rb'A(?<="A)'
    assert literal_pattern(b'blue"') == re.escape(b'blue"')  # a 'b' first: as it is


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="egionrwpcT$_é", min_size=1, max_size=8), st.lists(st.sampled_from([*PIECES, b"gion", b"egion"]), max_size=20).map(b"".join))
def test_the_part_of_a_key_counted_first_is_in_every_occurrence_of_the_key(name: str, text: bytes) -> None:
    """plan.key_superset: the key's text from a byte after its opening quote to its end, at least four
    bytes (or all but the quote): a count of it is never below the key's own count."""
    key = f'"{name}"'.encode()
    part = key_superset(key)
    assert key.endswith(part) and len(part) >= min(4, len(key) - 1) and not part.startswith(b'"')
    text += key * (len(text) % 3)
    assert len(re.findall(re.escape(part), text)) >= text.count(key)
    assert key_superset(b'"region"') == b'gion"'


# A selector's String value where it reads it (plan.anchored_pattern): bare or typed, members in either order,
# white space around the colons, the key also elsewhere; every line the selector selects is found.
ANCHORED = ["color IN ('red', 'blue')", "region LIKE 'A%'", "region LIKE 'A_A%'", "color IN ('a/b', 'red')", "JMSType IN ('car', 'van') AND color = 'red'",
            "color = 're'"]
WS = st.sampled_from(["", " ", "\t", "\r", "  "])
WORDS = st.sampled_from(["red", "blue", "APAC", "AMER", "A", "Acme", "car", "van", "a/b", "a\\/b", "re", "redder", "bluered"])


@st.composite
def _record_line(draw: st.DrawFn) -> str:
    def value(text: str) -> str:
        bare = f'"{text}"'
        if draw(st.booleans()):
            return bare
        members = [f'"type"{draw(WS)}:{draw(WS)}"string"', f'"value"{draw(WS)}:{draw(WS)}{bare}']
        if draw(st.booleans()):
            members.reverse()
        return "{" + draw(WS) + f"{draw(WS)},{draw(WS)}".join(members) + draw(WS) + "}"

    props = {name: draw(WORDS) for name in draw(st.lists(st.sampled_from(["color", "region", "customer", "xcolor"]), unique=True))}
    prop_text = ",".join(f'"{k}"{draw(WS)}:{draw(WS)}{value(v)}' for k, v in props.items())
    headers = f'"JMSType":{draw(WS)}"{draw(WORDS)}"' if draw(st.booleans()) else ""
    return '{"type":"text","headers":{' + headers + '},"properties":{' + prop_text + '},"body":"' + draw(WORDS) + '"}'


@settings(max_examples=300, deadline=None)
@given(st.lists(_record_line(), min_size=1, max_size=8), st.sampled_from(ANCHORED))
def test_every_line_a_selector_selects_holds_its_anchored_value(texts: list[str], text: str) -> None:
    selector = sel.compile(text)
    groups = FilterPlan.of(selector.ast).must_contain
    assert groups and groups[0].anchored is not None
    scan, test = line_scanner(groups), line_test(groups)
    assert scan is not None and test is not None
    lines = [x.encode() for x in texts]
    found = scan(b"\n".join(lines) + b"\n", lines)
    for i, line in enumerate(lines):
        record = judge_line("-", i + 1, line)
        if record.message is not None and selector.evaluate(record.message) is True:
            assert test(line) and i in found, (text, line)

"""The chunk prefilter (``plan.line_scanner``) finds exactly the lines that the per-line test
(``plan.line_test``) keeps, in order, each once: whatever the needles' lengths (``re`` for short
ones, ``bytes.find`` for long ones), several needles in one group or on one line, overlapping
occurrences, a marker (``\\u`` / ``\\``), several groups, blank lines and a last line without its
newline."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from jmsctl import selector as sel
from jmsctl.filter.plan import FilterPlan, line_scanner, line_test

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

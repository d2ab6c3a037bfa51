"""The chunk scan over an uncut chunk (jmsctl.filter.linehits, the compiled ``_bytecount``): the same
lines as ``plan.line_scanner`` (numbers and bytes), or the chunk given back where a line is empty or
begins with white space; ``line_stats`` is ``len(chunk_lines(chunk))`` and the blank-line proof of
``batch.count_records``; ``line_hits`` is the lines of ``chunk.split(b"\\n")`` holding a needle;
``brace_lines`` counts them where each is "{...}"."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jmsctl import selector as sel
from jmsctl.filter.batch import chunk_lines
from jmsctl.filter.linehits import hits_scanner
from jmsctl.filter.plan import FilterPlan, line_scanner
from tests.test_chunk_scanner import ANCHORED, FRAGMENTS, SELECTORS, _record_line

try:
    from jmsctl.filter import _bytecount
except ImportError:
    _bytecount = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(_bytecount is None, reason="jmsctl.filter._bytecount not built (no C compiler or no Python headers)")

_BYTES = st.binary(max_size=300).map(lambda b: bytes(b"\n\n ab\t\r!\x00\xff"[x % 10] for x in b))


@settings(max_examples=3000, deadline=None)
@given(_BYTES)
def test_line_stats_is_chunk_lines(chunk: bytes) -> None:
    lines = chunk_lines(chunk)
    assert _bytecount.line_stats(chunk) == (len(lines), not lines or min(lines) >= b"!")


_BRACES = st.lists(st.binary(max_size=40).map(lambda b: bytes(b"{}\n ab"[x % 6] for x in b)), max_size=40).map(b"".join)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(_BYTES, _BRACES, st.lists(st.binary(max_size=30).map(lambda b: b"{" + bytes(b"ab}{\n"[x % 5] for x in b) + b"}"),
                                           max_size=30).map(b"\n".join)), st.booleans())
def test_brace_lines_is_chunk_lines_of_braces(chunk: bytes, final: bool) -> None:
    chunk += b"\n" if final else b""
    lines = chunk_lines(chunk)
    braced = all(line[:1] == b"{" and line[-1:] == b"}" for line in lines)
    assert _bytecount.brace_lines(chunk) == (len(lines) if braced else -1)


@settings(max_examples=3000, deadline=None)
@given(_BYTES, st.binary(min_size=1, max_size=5).map(lambda b: bytes(b"ab!\xff"[x % 4] for x in b)), st.data())
def test_line_hits_are_the_lines_holding_the_needle(chunk: bytes, needle: bytes, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(needle) - 1))
    j = data.draw(st.integers(0, len(needle) - 1))
    pairs = [(k, line) for k, line in enumerate(chunk.split(b"\n")) if needle in line]
    assert _bytecount.line_hits(chunk, needle, i, j) == ([k for k, _ in pairs], [line for _, line in pairs])


def test_line_hits_refuses_a_needle_with_a_line_end() -> None:
    for needle in (b"", b"a\nb"):
        with pytest.raises(ValueError, match="line end"):
            _bytecount.line_hits(b"a\nb", needle)


def _same_as_line_scanner(text: str, chunk: bytes) -> None:
    groups = FilterPlan.of(sel.compile(text).ast).must_contain
    fast, usual = hits_scanner(groups), line_scanner(groups)
    assert fast is not None and usual is not None
    lines = chunk_lines(chunk)
    got = fast(chunk)
    if lines and min(lines) < b"!":
        assert got is None  # a blank line, or one beginning with white space: the usual scan reads the chunk
        return
    assert got is not None
    want = usual(chunk, lines)
    assert got == (len(lines), want, [lines[k] for k in want]), (text, chunk)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(FRAGMENTS), max_size=6).map("".join), max_size=12), st.sampled_from(SELECTORS), st.booleans())
def test_hits_scanner_equals_line_scanner(texts: list[str], text: str, final_newline: bool) -> None:
    raw = [x.encode() for x in texts]
    _same_as_line_scanner(text, b"\n".join(raw) + (b"\n" if final_newline and raw else b""))


@settings(max_examples=300, deadline=None)
@given(st.lists(_record_line(), min_size=1, max_size=8), st.sampled_from(ANCHORED + SELECTORS))
def test_hits_scanner_equals_line_scanner_on_records(texts: list[str], text: str) -> None:
    """Records with values bare or typed, white space around the colons: the anchored patterns."""
    _same_as_line_scanner(text, "\n".join(texts).encode() + b"\n")


def test_no_scanner_where_a_needle_holds_a_line_end() -> None:
    groups = FilterPlan.of(sel.compile("a = 'x\ny'").ast).must_contain
    assert groups and hits_scanner(groups) is None

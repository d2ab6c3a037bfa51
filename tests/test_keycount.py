"""The filter's key counts (jmsctl.filter.keycount): the compiled ``_bytecount.count`` is
``bytes.count`` exactly (non-overlapping, left to right) for any needle, any pair of candidate
positions and every length around its 16-byte blocks; without it, the ``re`` superset never counts
fewer; and the column path and the per-line path reach the plain path's verdicts in either mode."""

from __future__ import annotations

import shutil
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jmsctl.filter import columnpath, keycount, native, pathdecode
from jmsctl.filter.plan import rarest_positions

try:
    from jmsctl.filter import _bytecount
except ImportError:
    _bytecount = None  # type: ignore[assignment]

_BUILDABLE = bool(shutil.which("cc") or shutil.which("gcc")) and (Path(sysconfig.get_paths()["include"]) / "Python.h").exists()
needs_c = pytest.mark.skipif(_bytecount is None, reason="jmsctl.filter._bytecount not built (no C compiler or no Python headers)")


def test_the_extension_is_built_where_it_can_be() -> None:
    """setup.py's extension is optional: where a C compiler and Python's headers are on this machine
    (CI's), the install must have built it, or the filter's key counts fall back unnoticed."""
    if not _BUILDABLE:
        pytest.skip("no C compiler or no Python.h here: the package installs without the extension")
    assert _bytecount is not None, ("a C compiler and Python.h are here, but jmsctl.filter._bytecount was not built: pip install -e . again, "
                                   "or in a checkout run from PYTHONPATH copy an installed jmsctl/filter/_bytecount*.so into it")
    assert native.lib is not None and keycount.counters((b'"a"',))[1]


@needs_c
@settings(max_examples=3000, deadline=None)
@given(st.binary(max_size=90).map(lambda b: bytes(x % 4 + 97 if x < 200 else 34 for x in b)),
       st.binary(min_size=1, max_size=9).map(lambda b: bytes(x % 4 + 97 if x < 220 else 34 for x in b)), st.data())
def test_count_is_bytes_count(haystack: bytes, needle: bytes, data: st.DataObject) -> None:
    """Few letters, so that matches are many, overlap ("aa" in "aaa") and straddle the blocks."""
    i = data.draw(st.integers(0, len(needle) - 1))
    j = data.draw(st.integers(0, len(needle) - 1))
    assert _bytecount.count(haystack, needle, i, j) == haystack.count(needle)
    assert _bytecount.count(haystack, needle) == haystack.count(needle)


@needs_c
def test_count_at_every_length_around_the_blocks() -> None:
    for m in range(1, 20):
        needle = b"ab" * m
        needle = needle[:m]
        for n in range(0, 70):
            for hay in (b"ab" * n, b"a" * n, b"b" + b"ab" * n, bytes(range(97, 97 + n % 26)) * 2):
                hay = hay[:n]
                for i, j in ((0, m - 1), (m - 1, 0), (m // 2, m // 2), *([rarest_positions(needle)] if m > 1 else [])):
                    assert _bytecount.count(hay, needle, i, j) == hay.count(needle), (hay, needle, i, j)
    # a needle at the very end, a memoryview, bytearray
    hay = b"x" * 100 + b'"price"'
    assert _bytecount.count(memoryview(hay), bytearray(b'"price"'), 1, 4) == 1


@needs_c
def test_count_refuses_what_bytes_count_would_not_mean() -> None:
    for args in ((b"abc", b""), (b"abc", b"ab", 2, 0), (b"abc", b"ab", -1, 0), (b"abc", b"ab", 0, 5)):
        with pytest.raises(ValueError, match="non-empty needle"):
            _bytecount.count(*args)
    with pytest.raises(TypeError):
        _bytecount.count("text", b"t")


def test_rarest_positions_avoid_the_quotes() -> None:
    assert rarest_positions(b'"price"') == (1, 4)  # 'p' and 'c'
    i, j = rarest_positions(b'"weight"')
    assert 0 < i < j < 7
    assert rarest_positions(b"x") == (0, 0)


@pytest.fixture(params=["compiled", "re"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each test below in both modes: the compiled part, and without it (the re superset, the usual chunk
    scan, chunks always cut into lines: as without a C compiler)."""
    if request.param == "compiled" and _bytecount is None:
        pytest.skip("jmsctl.filter._bytecount not built")
    if request.param == "re":
        monkeypatch.setattr(native, "lib", None)  # read when an Engine is made and when a chunk is decoded
    yield request.param


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=200).map(lambda b: bytes(b'"ricep:w"'[x % 9] for x in b)))
def test_counter_is_exact_or_a_superset(text: bytes) -> None:
    for key in (b'"price"', b'"weight"', b'"p"', b'"region"'):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(native, "lib", None)
            (count,), exact = keycount.counters((key,))
            assert not exact and count(text) >= text.count(key)
        if _bytecount is not None:
            (count,), exact = keycount.counters((key,))
            assert exact and count(text) == text.count(key)


def test_column_path_in_either_mode(mode: str) -> None:
    """test_columns' clean-chunk and duplicate-key checks, and its hypothesis comparisons with the plain
    path, in this mode (a key twice on a line must still hand the chunk back)."""
    from tests import test_columns

    test_columns.test_kernels_are_used_on_clean_chunks()
    test_columns.test_columns_equal_plain_path()
    test_columns.test_any_boolean_shape_equals_plain_path()


def test_hostile_files_in_either_mode(mode: str) -> None:
    """test_hostile_records' fuzz of select_file against the plain path (broken lines, blank lines, CRLF,
    escapes, a BOM, record size limits; the prefilter's skipping included), in this mode."""
    from tests import test_hostile_records

    test_hostile_records.test_fuzz_filter_fast_path_agrees_with_plain_path()


def test_per_line_path_in_either_mode(mode: str) -> None:
    """pathdecode's chunk count (the IBM dialect has no column kernel: its chunks take the per-line loop)."""
    from jmsctl import selector as sel
    from jmsctl.filter.fast import Engine

    e = Engine(sel.compile("a = b", "ibm"), exact=False)
    assert e.kernel is None and e.partial is not None
    lines = [b'{"properties":{"a":1,"b":1}}', b'{"properties":{"a":2,"b":3}}', b'{"properties":{"a":1,"b":2,"b":1}}',
             b'{"properties":{"a":"x","b":"x"},"body":"\\"a\\":"}']
    b = pathdecode.process(e, lines, b"\n".join(lines))
    # the third line holds "b" twice: the chunk is counted line by line, that line judged whole (rejected)
    assert (b.true, b.rejected, b.read) == (2, 1, 4), (b.true, b.false, b.unknown, b.skipped, b.rejected)
    assert b.errors[0][0] == 2 and "b" in b.errors[0][2] + b.errors[0][3], b.errors


def test_the_bench_runs_and_times_both_sides(tmp_path: Path) -> None:
    """bench/bytecount_bench.py on a small dump: a row for each measurement, every figure positive (no
    timing asserted: the figures are the bench's business)."""
    import subprocess
    import sys

    bench = Path(__file__).resolve().parent.parent / "bench" / "bytecount_bench.py"
    done = subprocess.run([sys.executable, str(bench), "--messages", "300", "--repeat", "1", "--workdir", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line.split(" | ") for line in done.stdout.splitlines() if line.startswith(("| typed", "| bare"))]
    assert len(rows) == 2 * (4 + 3 + 1 + 5), done.stdout
    for row in rows:
        assert float(row[3]) > 0, row
        if _bytecount is not None:
            assert float(row[4]) > 0, row


_PIECES = ['{"properties":{"weight":{"type":"int","value":3777},"price":2.5},"body":"b"}', '{"properties":{"weight":12}}',
           '{"properties":{"weight":300,"weight":1}}', '{"properties":{"price":{"type":"double","value":1e3},"weight":2}}',
           '{"headers":{},"properties":{"weight":null}}', '{"properties":{"weight":"x"}}', '{"properties":{"weight":1e400}}',
           '{"properties":{"weight":[1]}}', '{"properties":{"weight":{"type":"int","value":5,"value":6}}}', "{}", "{ }", '{"a":{}}']
# Pieces of lines that are not one value a line: two values on one, a value over two, blank, white space, CRLF, broken.
_SPLITS = ['{"properties":{"weight":5}}{"properties":{"weight":7}}', '{"properties":{"weight":{"type":"int",', '"value":9}}}',
           '{"properties":\n{"weight":9}}', "", "  ", ' {"properties":{"weight":4}}', '{"properties":{"weight":4}}\r', "{", "}", '{"a":1}}', '{{"a":1}']


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES + _SPLITS), min_size=1, max_size=12), st.booleans(), st.booleans(),
       st.sampled_from(["weight > 100", "price * weight > 1000000", "weight IS NULL OR price < 3"]))
def test_a_chunk_decoded_whole_is_judged_as_its_lines(texts: list[str], final: bool, typed_seen: bool, text: str) -> None:
    """columnpath.process_uncut gives the Batch that process gives for the chunk's lines, or None; and
    None wherever some line is not exactly one JSON value beginning with "{" and ending with "}"."""
    from jmsctl import selector as sel
    from jmsctl.filter.batch import chunk_lines
    from jmsctl.filter.fast import Engine

    if _bytecount is None:
        pytest.skip("jmsctl.filter._bytecount not built")
    chunk = "\n".join(texts).encode() + (b"\n" if final else b"")
    lines = chunk_lines(chunk)
    for keep, discard in ((False, True), (False, False), (True, False)):
        e = Engine(sel.compile(text), exact=False, keep_lines=keep, discard=discard)
        e.typed_seen = typed_seen
        got = columnpath.process_uncut(e, chunk)
        e.typed_seen = typed_seen
        want = columnpath.process(e, lines, chunk)
        if got is None:
            continue
        # taken only where every line is one value, from its "{" to its "}"
        assert all(line[:1] == b"{" and line[-1:] == b"}" for line in lines), texts
        assert not any(x in texts for x in (_SPLITS[0], '{"a":1}}', '{{"a":1}')), texts
        assert want is not None, texts  # the uncut path proves no more than the cut one
        fields = ("lines", "read", "true", "false", "unknown", "rejected", "selected", "out", "kept", "errors")
        assert [getattr(got, f) for f in fields] == [getattr(want, f) for f in fields], (texts, text, keep, discard)
    # two values on a line, or one over two lines: never decoded uncut
    if any(x in texts for x in _SPLITS[:4]):
        e = Engine(sel.compile(text), exact=False)
        e.typed_seen = typed_seen
        assert columnpath.process_uncut(e, chunk) is None, texts


def test_a_chunk_decoded_whole_where_it_can_be() -> None:
    """The uncut path is taken on a clean chunk (and cuts no line for --count), and not on two values a line."""
    from jmsctl import selector as sel
    from jmsctl.filter.fast import Engine

    if _bytecount is None:
        pytest.skip("jmsctl.filter._bytecount not built")
    e = Engine(sel.compile("weight > 100"), exact=False, discard=True)
    chunk = b'{"properties":{"weight":300}}\n{"properties":{"weight":3}}\n'
    b = columnpath.process_uncut(e, chunk)
    assert b is not None and (b.lines, b.true, b.false) == (2, 1, 1)
    assert columnpath.process_uncut(e, b'{"properties":{"weight":300}}{"properties":{"weight":3}}\n{"properties":{"weight":3}}\n') is None
    assert columnpath.process_uncut(e, b'{"properties":{"weight":300},\n"x":{"properties":{"weight":3}}}\n') is None


def test_a_broken_line_stops_the_whole_decode_until_a_clean_chunk() -> None:
    """A chunk whose decode fails is cut and decoded a line at a time; the chunks after it are cut too (not
    decoded twice) until one holds no broken line; the verdicts are the same all along."""
    from jmsctl import selector as sel
    from jmsctl.filter.fast import Engine

    if _bytecount is None:
        pytest.skip("jmsctl.filter._bytecount not built")
    e = Engine(sel.compile("weight > 100"), exact=False, discard=True)
    clean = b'{"properties":{"weight":300}}\n{"properties":{"weight":3}}\n'
    broken = b'{"properties":{"weight":300}}\n{"properties":{"weight":3}\n'
    assert (e.process(clean).true, e.whole_decode) == (1, True)
    b = e.process(broken)
    assert (b.true, b.rejected, e.whole_decode) == (1, 1, False)
    assert columnpath.process_uncut(e, clean) is None  # not tried while whole_decode is off
    assert (e.process(clean).true, e.whole_decode) == (1, True)  # cut, found clean: tried whole again
    assert columnpath.process_uncut(e, clean) is not None

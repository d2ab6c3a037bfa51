"""Hostile message files: broken records of every kind are each rejected with their location and
the counts add up; oversized records are rejected without being held in memory; files that cannot
be read end every command with one line and exit status 2.

The fuzz targets (``RECORD_TARGETS``) are shared with ``scripts/fuzz.py``, which runs them for as
long as asked."""

from __future__ import annotations

import builtins
import gzip
import os
import re
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import jmsctl
from jmsctl.cli.app import app
from jmsctl.filter import Counts, Selection, select, select_file
from jmsctl.messages.loader import MAX_RECORD_SIZE, OversizedLine, Record, is_blank, judge_line, read_records
from tests.pathrule import path_verdict

ROOT = Path(__file__).parent.parent
SAMPLE_LINES = (ROOT / "samples" / "orders.ndjson").read_bytes().splitlines()[:40]
runner = CliRunner()

# ----- broken records --------------------------------------------------------------------------

BOM = b"\xef\xbb\xbf"


@st.composite
def broken_line(draw: Any, max_depth: int = 1500) -> bytes:
    """A record line, valid or broken in one of the ways a dump meets."""
    line = draw(st.sampled_from([*SAMPLE_LINES, b'{"properties": {"x": 1}}', b"{}", b'{"type": "map", "body": {"k": 1}}']))
    kind = draw(st.sampled_from(["valid", "truncated", "opener", "nul", "byte", "utf8", "bom", "cr", "duplicate", "bignum", "deep", "blank", "noise"]))
    at = draw(st.integers(0, len(line)))
    if kind == "truncated":
        return line[:at]
    if kind == "opener":  # cut just after a character an object's first line may end with
        cuts = [i + 1 for i, c in enumerate(line) if c in b"{[,:"]
        return line[: draw(st.sampled_from(cuts))] if cuts else line
    if kind == "nul":
        return line[:at] + b"\x00" + line[at:]
    if kind == "byte":
        return line[:at] + bytes([draw(st.integers(0, 255))]) + line[at + 1 :]
    if kind == "utf8":
        return line[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"])) + line[at:]
    if kind == "bom":
        return BOM + line
    if kind == "cr":
        return line + b"\r" * draw(st.integers(1, 2))
    if kind == "duplicate":
        where = draw(st.sampled_from([b'{"properties":{', b'{"headers":{', b"{"]))
        key = draw(st.sampled_from([b'"a"', b'"\\u0061"', b'"properties"', b'"JMSType"', b'"headers"']))
        extra = key + b":1," + key + b":2"
        return where + extra + (b"}}" if where != b"{" else b"}")
    if kind == "bignum":
        digits = draw(st.integers(19, 400))
        return b'{"properties": {"n": ' + draw(st.sampled_from([b"", b"-"])) + b"9" * digits + b"}}"
    if kind == "deep":
        depth = draw(st.integers(1, max_depth) | st.sampled_from([d for d in (max_depth, 999, 1000, 1024, 1025, 1100) if d <= max_depth]))
        return b'{"properties": {"a": 1e19, "b": ' + b"[" * depth + b"]" * depth + b"}}"
    if kind == "blank":
        return draw(st.sampled_from([b"", b" ", b"\t", b"  \t ", b"\x0c", b" \x0b "]))  # the last two are not JSON white space
    if kind == "noise":
        return draw(st.binary(max_size=60))
    return line


GZIP_MAGIC = b"\x1f\x8b"  # a file that starts so is read as gzip (jmsctl.messages sniffs the content)


@st.composite
def hostile_file(draw: Any, max_depth: int = 1500) -> bytes:
    lines = draw(st.lists(broken_line(max_depth), min_size=1, max_size=12))
    lines = [line.replace(b"\n", b" ") for line in lines]
    data = b"\n".join(lines)
    if draw(st.booleans()):
        data += b"\n"
    if data.startswith(GZIP_MAGIC):  # read as gzip (by its first bytes, as every reader does), not as lines: a blank line first
        data = b"\n" + data
    return (BOM if draw(st.booleans()) else b"") + data


def _write(data: bytes, suffix: str = ".ndjson") -> str:
    fd, path = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return path


def _physical_lines(data: bytes) -> list[bytes]:
    if data.startswith(BOM):
        data = data[3:]
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    return lines


def check_ndjson_file(data: bytes) -> None:
    """Every non-blank line is one record, named by its line number, a message or a rejection with
    a reason; nothing is lost or counted twice."""
    if data.lstrip(BOM + b" \t\r\n").startswith(b"["):
        return  # a JSON array: the array target
    path = _write(data)
    try:
        records = list(read_records(path))
    finally:
        os.unlink(path)
    lines = _physical_lines(data)
    if _opens_a_document(data) and not (len(lines) > 1 and _is_object(lines[1])):
        assert len(records) == 1  # one pretty-printed object, or its one rejection
        return
    expected = [f"{path}:{i}" for i, line in enumerate(lines, 1) if line.strip(b" \t\r\n")]
    assert [r.location for r in records] == expected
    for r in records:
        assert (r.message is None) != (r.error is None)
        if r.error is not None:
            assert str(r.error) and r.error.reason


def _is_object(line: bytes) -> bool:
    try:
        return type(orjson.loads(line)) is dict
    except orjson.JSONDecodeError:
        return False


def _opens_a_document(data: bytes) -> bool:
    first = _physical_lines(data)[0] if data else b""
    return first.rstrip()[-1:] in (b"{", b"[", b",", b":")


def check_chunks_agree(args: tuple[bytes, int, int]) -> None:
    """``items()`` (the fast filter's reading) and ``read_records`` see the same records, oversized
    lines included, for any chunk size and record size limit."""
    data, limit, chunk_size = args
    data = data.lstrip(BOM + b" [")  # NDJSON only
    path = _write(data)
    try:
        plain = [(r.location, r.raw, str(r.error) if r.error else None) for r in read_records(path, limit)]
        items = list(read_records(path, limit).items(chunk_size, limit))
    finally:
        os.unlink(path)
    if (plain and plain[0][0] == f"{path}:[0]") or any(type(i) is Record for i in items):
        return  # one pretty-printed object
    chunked: list[tuple[str, bytes | None, str | None]] = []
    lineno = 1
    for item in items:
        if isinstance(item, OversizedLine):
            assert item.location == f"{path}:{lineno}"
            chunked.append((item.location, None, str(item.error)))
            lineno += 1
            continue
        assert isinstance(item, bytes)
        lines = item.split(b"\n")
        if item.endswith(b"\n"):
            lines.pop()
        for line in lines:
            raw = line.rstrip(b"\r\n")
            if not is_blank(raw):
                r = judge_line(path, lineno, raw)
                chunked.append((r.location, r.raw, str(r.error) if r.error else None))
            lineno += 1
    assert chunked == plain


def check_json_array(args: tuple[list[bytes], bool]) -> None:
    """A JSON array of broken items (after a byte order mark or not): one record per item
    ``file:[i]`` when the array parses, or one rejection of the file."""
    items, bom = args
    data = b"[" + b",\n".join(items) + b"]"
    path = _write((BOM if bom else b"") + data, ".json")
    try:
        records = list(read_records(path))
    finally:
        os.unlink(path)
    try:
        parsed = orjson.loads(data)
    except orjson.JSONDecodeError:
        assert len(records) == 1 and records[0].location == path
        assert records[0].error is not None and records[0].error.reason.startswith("invalid JSON")
        return
    assert [r.location for r in records] == [f"{path}:[{i}]" for i in range(len(parsed))]
    assert all((r.message is None) != (r.error is None) for r in records)


FILTER_SELECTORS = [
    "x = 1", "weight > 2500 AND color = 'red'", "JMSType = 'car' OR n IS NULL", "s LIKE 'a%' OR NOT (x <> 2)",
    # literals the prefilter searches for (lines without them are skipped unparsed by default)
    "color IN ('red', 'blue')", "JMSType = 'car' AND s LIKE '%a_b%'",
]  # fmt: skip


def check_filter_agrees(args: tuple[bytes, str, int]) -> None:
    """``filter``'s fast path (select_file) and the plain path (read_records + select) give the
    same counts, the same rejections (location and words) and the same selected lines, and
    read = TRUE + FALSE + UNKNOWN + rejected. Without ``exact`` (the default of ``filter``: lines
    the prefilter proves unselectable skipped unparsed), the same selected lines and the
    rejections of the lines parsed, in order (and lines broken where the selector does not read
    may be selected: ``path_verdict``)."""
    data, text, limit = args
    selector = jmsctl.compile(text)
    path = _write(data)
    try:
        plain, plain_rejected = Counts(), []
        plain_selected = [r.location for r in select(selector, read_records(path, limit), plain,
                                                     on_rejected=lambda r: plain_rejected.append((r.location, str(r.error))))]

        def fast_run(exact: bool) -> tuple[Counts, list[tuple[str, str]], list[str]]:
            counts, rejected, selected = Counts(), [], []
            for item in select_file(selector, path, counts, keep_lines=True, max_record_size=limit, exact=exact,
                                    on_rejected=lambda r: rejected.append((r.location, str(r.error)))):
                if isinstance(item, Selection):
                    selected += [item.location(n) for n, _ in item.kept]
                else:
                    selected.append(item.location)
            return counts, rejected, selected

        fast, fast_rejected, fast_selected = fast_run(True)
        skipping, skipping_rejected, skipping_selected = fast_run(False)  # the default: prefiltered lines unparsed
    finally:
        os.unlink(path)
    assert plain.read == plain.true + plain.false + plain.unknown + plain.rejected
    assert (fast.read, fast.true, fast.false, fast.unknown, fast.rejected, fast.selected) == (
        plain.read, plain.true, plain.false, plain.unknown, plain.rejected, plain.selected)
    assert fast_rejected == plain_rejected
    assert fast_selected == plain_selected
    # The default mode proves the selector's paths only (README "What filter proves"): it selects
    # what the plain path selects, and perhaps lines the plain path rejects for a field the
    # selector does not read, for which the rule says TRUE.
    assert [loc for loc in skipping_selected if loc in plain_selected] == plain_selected
    lines = data.split(b"\n")
    for loc in (loc for loc in skipping_selected if loc not in plain_selected):
        assert loc in {where for where, _ in plain_rejected}, loc
        raw = lines[int(loc.rsplit(":", 1)[1]) - 1].rstrip(b"\r")
        assert path_verdict(selector, raw.removeprefix(BOM)) is True, raw
    assert skipping.true == len(skipping_selected)
    assert skipping.read == plain.read == skipping.true + skipping.false + skipping.unknown + skipping.rejected + skipping.skipped
    assert [r for r in plain_rejected if r in skipping_rejected] == skipping_rejected and skipping.rejected == len(skipping_rejected)


def filter_cases() -> st.SearchStrategy[tuple[bytes, str, int]]:
    return st.tuples(hostile_file(), st.sampled_from(FILTER_SELECTORS), st.sampled_from([200, 1000, MAX_RECORD_SIZE]))


RECORD_TARGETS: dict[str, tuple[Callable[[], Any], Callable[[Any], Any]]] = {
    "filter fast = plain": (filter_cases, check_filter_agrees),
    "broken ndjson lines": (hostile_file, check_ndjson_file),
    "chunks and limits": (
        lambda: st.tuples(hostile_file(), st.integers(1, 300), st.integers(1, 64)),
        check_chunks_agree,
    ),
    "broken array items": (lambda: st.tuples(st.lists(broken_line(), max_size=8), st.booleans()), check_json_array),
}


@given(hostile_file())
def test_fuzz_broken_ndjson_lines(data: bytes) -> None:
    check_ndjson_file(data)


@given(st.tuples(hostile_file(), st.integers(1, 300), st.integers(1, 64)))
def test_fuzz_chunks_agree_with_records(args: tuple[bytes, int, int]) -> None:
    check_chunks_agree(args)


@given(filter_cases())
def test_fuzz_filter_fast_path_agrees_with_plain_path(args: tuple[bytes, str, int]) -> None:
    check_filter_agrees(args)


def test_filter_on_a_line_nested_deeper_than_msgspec_reads() -> None:
    """msgspec raised RecursionError from 1,000 levels (the fast path now hands such lines to the plain path)."""
    deep = b'{"properties": {"x": ' + b"[" * 1000 + b"]" * 1000 + b"}}\n"
    check_filter_agrees((b'{"properties": {"x": 1}}\n' + deep, "x = 1", MAX_RECORD_SIZE))


@given(st.tuples(st.lists(broken_line(), max_size=8), st.booleans()))
def test_fuzz_broken_array_items(args: tuple[list[bytes], bool]) -> None:
    check_json_array(args)


# ----- each kind, named -------------------------------------------------------------------------


def _records(tmp_path: Path, data: bytes, name: str = "d.ndjson", **kw: Any) -> list[Record]:
    p = tmp_path / name
    p.write_bytes(data)
    return list(read_records(str(p), **kw))


@pytest.mark.parametrize(
    ("line", "field", "reason"),
    [
        (b'{"properties": {"a": 1, "a": 2}}', "properties.a", 'duplicate key "a"'),
        (b'{"properties": {"a": 1, "\\u0061": 2}}', "properties.a", 'duplicate key "a"'),
        (b'{"headers": {"JMSType": "x", "JMSType": "y"}}', "headers.JMSType", 'duplicate key "JMSType"'),
        (b'{"properties": {"w": {"type": "int", "value": 1, "value": 2}}}', "properties.w.value", 'duplicate key "value"'),
        (b'{"type": "map", "body": {"k": 1, "k": 2}}', "body.k", 'duplicate key "k"'),
        (b'{"type": "stream", "body": [{"type": "bytes", "type": "bytes", "value": ""}]}', "body[0].type", 'duplicate key "type"'),
        (b'{"properties": {}, "properties": {"x": 1}}', "properties", 'duplicate key "properties"'),
        (b'{"properties": {"a": 1e19, "b": ' + b"[" * 1000 + b"]" * 1000 + b"}}", "properties.b", "a JSON array is not a property value"),
        (b'{"properties": {"a": ' + b"[" * 1100 + b"]" * 1100 + b"}}", "", "invalid JSON"),
        (b'{"properties": {"n": 123456789012345678901234567890}}', "properties.n", "outside the range of long"),
        (b'{"properties": {"s": "a\x00b"}}', "", "invalid JSON"),
        (b'{"properties": {"s": "\xed\xa0\x80"}}', "", "invalid JSON: invalid UTF-8 at byte 22"),
        (b'{"properties": {"x": 1}', "", "invalid JSON"),
        (b"\x0c", "", "invalid JSON"),  # a form feed is not JSON white space: not a blank line
    ],
)
def test_each_broken_record_is_located_with_its_field_and_reason(tmp_path: Path, line: bytes, field: str, reason: str) -> None:
    good = b'{"properties": {"x": 1}}'
    rs = _records(tmp_path, BOM + good + b"\r\n\r\n" + line + b"\r\n" + good)
    assert [r.location.rsplit(":", 1)[1] for r in rs] == ["1", "3", "4"]
    assert rs[0].message is not None and rs[2].message is not None
    err = rs[1].error
    assert err is not None and err.field == field and reason in err.reason, err


def test_a_form_feed_before_a_bracket_is_not_an_array(tmp_path: Path) -> None:
    """Found by the fuzzer: the shape test skipped Python's white space, not JSON's."""
    rs = _records(tmp_path, b"\x0c\n[")
    assert [(r.location.rsplit(":", 1)[1], r.error is not None) for r in rs] == [("1", True), ("2", True)]


def test_a_truncated_first_line_that_looks_like_an_object_opening(tmp_path: Path) -> None:
    """``{"properties": {`` then records: NDJSON with a broken first record, not one broken object."""
    rs = _records(tmp_path, b'{"properties": {\n{"properties": {"x": 1}}\n{"properties": {"x": 2}}\n')
    assert [(r.location.rsplit(":", 1)[1], r.error is None) for r in rs] == [("1", False), ("2", True), ("3", True)]
    (r,) = _records(tmp_path, b'{\n  "properties": {"x": 1}\n}\n', "o.json")
    assert r.location.endswith(":[0]") and r.message is not None


def test_duplicate_keys_in_arrays_and_single_objects(tmp_path: Path) -> None:
    rs = _records(tmp_path, b'[{"properties": {"x": 1}}, {"properties": {"x": 1, "x": 2}}, {"type": "text", "type": "text"}]', "a.json")
    assert [(r.location.rsplit(":", 1)[1], r.error and r.error.field) for r in rs] == [("[0]", None), ("[1]", "properties.x"), ("[2]", "type")]
    (r,) = _records(tmp_path, b'{\n  "headers": {"JMSPriority": 1,\n "JMSPriority": 2}\n}\n', "o.json")
    assert r.location.endswith(":[0]") and r.error is not None and r.error.field == "headers.JMSPriority"


def test_oversized_lines_are_rejected_and_reading_goes_on(tmp_path: Path) -> None:
    big = b'{"properties": {"s": "' + b"a" * 5000 + b'"}}'
    rs = _records(tmp_path, big + b"\n" + b'{"properties": {"x": 1}}\n' + big + b"\r\n" + big, max_record_size=4096)
    assert [r.location.rsplit(":", 1)[1] for r in rs] == ["1", "2", "3", "4"]
    assert [type(r) for r in rs] == [OversizedLine, Record, OversizedLine, OversizedLine]
    assert len(big) == 5025
    assert str(rs[0].error) == "record too large: 5,025 bytes, more than the maximum record size of 4,096 bytes (--max-record-size)"
    assert "5,026 bytes" in str(rs[2].error)  # the size counts every byte before the "\n", the "\r" too
    assert rs[1].message is not None


def test_a_document_over_the_limit_is_one_rejection(tmp_path: Path) -> None:
    array = b"[" + b",".join([b'{"properties": {"x": 1}}'] * 100) + b"]"
    (r,) = _records(tmp_path, array, "a.json", max_record_size=1000)
    assert r.location.endswith("a.json") and "record too large: 2,501 bytes" in str(r.error)
    pretty = b'{\n  "properties": {"s": "' + b"a" * 2000 + b'"}\n}\n'
    (r,) = _records(tmp_path, pretty, "o.json", max_record_size=1000)
    assert r.location.endswith("o.json:1") and "record too large" in str(r.error)


# ----- a 100 MB line, streamed ------------------------------------------------------------------

RSS_PROBE = (
    "import resource, sys\n"
    "from jmsctl.cli.app import main\n"
    "sys.argv = ['jmsctl', *sys.argv[1:]]\n"
    "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
    "sys.stderr.write(f'MAXRSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n')\n"
    "sys.exit(code)\n"
)


def _feed(parts: Iterator[bytes], args: list[str]) -> tuple[int, str, str, int]:
    """Run jmsctl ARGS with the parts written to its stdin as they come: (status, stdout, stderr, peak RSS in KiB)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    read_end, write_end = os.pipe()
    p = subprocess.Popen([sys.executable, "-c", RSS_PROBE, *args], stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    os.close(read_end)

    def write() -> None:
        with os.fdopen(write_end, "wb") as feed:
            try:
                for part in parts:
                    feed.write(part)
            except BrokenPipeError:  # pragma: no cover - the child stopped reading: its status says why
                pass

    writer = threading.Thread(target=write)
    writer.start()
    out, err = p.communicate(timeout=120)
    writer.join()
    text = err.decode()
    m = re.search(r"MAXRSS (\d+)", text)
    assert m, text
    return p.returncode, out.decode(), text, int(m.group(1))


def _hundred_mb_line() -> Iterator[bytes]:
    yield b'{"properties": {"x": 1}}\n{"properties": {"s": "'
    block = b"a" * (1 << 20)
    for _ in range(100):
        yield block
    yield b'"}}\n{"properties": {"x": 2}}\n'


def test_a_100_mb_line_is_rejected_without_holding_it() -> None:
    _, _, _, baseline = _feed(iter([b'{"properties": {"x": 1}}\n']), ["validate", "-", "--format", "concise"])
    status, out, err, peak = _feed(_hundred_mb_line(), ["validate", "-", "--format", "concise"])
    assert status == 1, err
    size = 100 * (1 << 20) + len(b'{"properties": {"s": ""}}')
    assert out == f"<stdin>:2: error R001: record too large: {size:,} bytes, more than the maximum record size of {MAX_RECORD_SIZE:,} bytes (--max-record-size)\n"
    assert "3 records checked (2 valid, 1 rejected)" in err
    assert (peak - baseline) * 1024 < 3 * MAX_RECORD_SIZE, (peak, baseline)  # a 100 MB line would be 100 MB
    status, out, err, small_peak = _feed(_hundred_mb_line(), ["show", "-", "--format", "json", "--max-record-size", "1M"])
    assert status == 2 and out.count("\n") == 2 and "<stdin>:2" in err
    assert (small_peak - baseline) * 1024 < 8 * (1 << 20), (small_peak, baseline)


# ----- files that cannot be read ----------------------------------------------------------------

READERS = {
    "filter": lambda f: ["filter", "x = 1", f],
    "validate": lambda f: ["validate", f],
    "show": lambda f: ["show", f],
    "get": lambda f: ["get", f, "x", "--as", "int"],
    "explain --message": lambda f: ["explain", "x = 1", "--message", f],
    "test": lambda f: ["test", f],
    "check -f": lambda f: ["check", "-f", f],
}


@pytest.fixture(scope="module")
def unreadable(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    d = tmp_path_factory.mktemp("unreadable")
    (d / "bad.gz").write_bytes(b"this is not gzip")
    whole = gzip.compress(b'{"properties": {"x": 1}}\n' * 2000)
    (d / "truncated.ndjson.gz").write_bytes(whole[:30])  # ends before the first record
    (d / "adir").mkdir()
    return {
        "missing": (str(d / "missing.ndjson"), "no such file"),
        "directory": (str(d / "adir"), "is a directory"),
        "broken gzip": (str(d / "bad.gz"), "cannot read: not a gzip file"),
        "truncated gzip": (str(d / "truncated.ndjson.gz"), "cannot read: truncated gzip (the compressed data ends early)"),
    }


@pytest.mark.parametrize("kind", ["missing", "directory", "broken gzip", "truncated gzip"])
@pytest.mark.parametrize("command", list(READERS))
def test_unreadable_files_exit_2_with_one_line(command: str, kind: str, unreadable: dict[str, tuple[str, str]]) -> None:
    path, why = unreadable[kind]
    r = runner.invoke(app, READERS[command](path))
    assert r.exit_code == 2, r.output
    assert r.stderr == f"jmsctl: error: {path}: {why}\n"
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize("command", ["filter", "validate", "show"])
def test_a_gzip_truncated_midway_exits_2_after_the_records_before(command: str, tmp_path: Path) -> None:
    whole = gzip.compress(b"".join(b'{"properties": {"x": %d}}\n' % i for i in range(20_000)))
    path = tmp_path / "cut.ndjson.gz"
    path.write_bytes(whole[: len(whole) // 2])
    args = READERS[command](str(path)) + (["--id", "ID:none"] if command == "show" else [])  # show: read all, print none
    r = runner.invoke(app, args)
    assert r.exit_code == 2
    assert r.stderr.splitlines().count(f"jmsctl: error: {path}: cannot read: truncated gzip (the compressed data ends early)") == 1
    assert "truncated gzip" not in r.stdout and "Traceback" not in r.output


@pytest.mark.parametrize("command", list(READERS))
def test_permission_denied_exits_2_with_one_line(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run as root here, where chmod cannot deny a read: the open is made to fail as the
    kernel would (the real thing is test_permission_denied_for_real, for other users)."""
    path = tmp_path / "locked.ndjson"
    path.write_bytes(b'{"properties": {"x": 1}}\n')
    real_open = builtins.open

    def denying_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", denying_open)
    r = runner.invoke(app, READERS[command](str(path)))
    assert r.exit_code == 2, r.output
    assert r.stderr == f"jmsctl: error: {path}: permission denied\n"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file: chmod cannot deny it")
def test_permission_denied_for_real(tmp_path: Path) -> None:  # pragma: no cover - not run as root
    path = tmp_path / "locked.ndjson"
    path.write_bytes(b'{"properties": {"x": 1}}\n')
    path.chmod(0)
    for command, args in READERS.items():
        r = runner.invoke(app, args(str(path)))
        assert r.exit_code == 2 and r.stderr == f"jmsctl: error: {path}: permission denied\n", (command, r.output)


# ----- the counts add up, end to end ------------------------------------------------------------


HOSTILE_LINES = [
    b'{"properties": {"x": 1}}',
    b'{"properties": {"x": 1',  # truncated
    b"",
    b'{"properties": {"x": "\x00"}}',  # NUL
    b'{"properties": {"x": "\xff"}}',  # invalid UTF-8
    b"  \t",
    b'{"properties": {"x": 99999999999999999999999}}',  # beyond 64 bits
    b'{"properties": {"x": 2}}\r',
    b'{"properties": {"y": 2}}',
]


def test_filter_counts_every_broken_record(tmp_path: Path) -> None:
    """read = TRUE + FALSE + UNKNOWN + rejected, and read is the number of non-blank lines."""
    big = b'{"properties": {"s": "' + b"a" * 5000 + b'"}}'
    deep = b'{"properties": {"x": ' + b"[" * 1000 + b"]" * 1000 + b"}}"
    f = tmp_path / "hostile.ndjson"
    f.write_bytes(BOM + b"\n".join([*HOSTILE_LINES, b'{"properties": {"x": 1, "\\u0078": 2}}', big, b"\x0c", deep]) + b"\n")
    r = runner.invoke(app, ["filter", "x = 1", str(f), "--stats", "--count", "--max-record-size", "4k"])
    assert r.exit_code == 2
    assert r.stdout == "1\n"
    assert "read 11, TRUE 1, FALSE 1, UNKNOWN 1, rejected 8, selected 1" in r.stderr
    assert [line.split(": ")[2] for line in r.stderr.splitlines() if line.startswith(f"jmsctl: error: {f}")] == [f"{f}:{n}" for n in (2, 4, 5, 7, 10, 11, 12, 13)]


def test_validate_counts_every_broken_record(tmp_path: Path) -> None:
    deep = b'{"properties": {"x": ' + b"[" * 2000 + b"]" * 2000 + b"}}"  # deeper than orjson reads
    big = b'{"properties": {"s": "' + b"a" * 3000 + b'"}}'
    lines = [*HOSTILE_LINES, deep, b'{"properties": {"x": 1, "x": 2}}', big]
    f = tmp_path / "hostile.ndjson"
    f.write_bytes(BOM + b"\n".join(lines) + b"\n")
    r = runner.invoke(app, ["validate", str(f), "--format", "concise", "--max-record-size", "2k"])
    assert r.exit_code == 1
    assert [line.split(": ")[0] for line in r.stdout.splitlines()] == [f"{f}:{n}" for n in (2, 4, 5, 7, 10, 11, 12)]
    assert "10 records checked (3 valid, 7 rejected)" in r.stderr

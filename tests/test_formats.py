"""The format registry and sniffer (jmsctl.messages.formats): content, not names, tells the format;
gzip by its magic bytes on files and stdin; --from overrides; a file of no format is one error."""

from __future__ import annotations

import gzip
import io
import itertools
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from jmsctl.messages import formats
from jmsctl.messages.loader import InputError, read_records

ROOT = Path(__file__).resolve().parent.parent
NDJSON = b'{"properties":{"x":1}}\n{"properties":{"x":2}}\n'


def jmsctl(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "jmsctl", *args], input=stdin, capture_output=True, cwd=ROOT, timeout=60, check=False)


def test_every_registered_format_has_a_name_a_sniffer_and_a_reader_or_the_json_loader() -> None:
    reg = formats.registry()
    assert {"ndjson", "json"} <= set(reg)
    for name, fmt in reg.items():
        assert fmt.name == name and fmt.summary
        assert 0.0 <= fmt.sniff(b"") <= 1.0
    assert formats.get("NDJSON") is reg["ndjson"]
    with pytest.raises(formats.NoFormat, match="the formats are ndjson, json"):
        formats.get("nope")


@pytest.mark.parametrize(("head", "name"), [
    (b'{"type": "text"}\n', "ndjson"),
    (b'\xef\xbb\xbf  [{"headers": {}}]', "json"),
    (b"[]", "json"),
    (b"", "ndjson"),
    (b"\x0c\n[", "ndjson"),  # not JSON, but nobody else's either: the loader reports it line by line
    (b'garbage\n{"properties": {}}\n', "ndjson"),  # a broken first line does not hide NDJSON
])
def test_detect(head: bytes, name: str) -> None:
    fmt = formats.detect(head)
    assert fmt is not None and fmt.name == name


@pytest.mark.parametrize("head", [b"<?xml version='1.0'?><a/>", b"hello world\n", b"* a comment\n"])
def test_text_of_no_format_is_not_claimed_by_ndjson(head: bytes) -> None:
    fmt = formats.detect(head)
    assert fmt is None or fmt.name not in ("ndjson", "json")


def test_gzip_found_by_magic_bytes_in_a_file_of_any_name(tmp_path: Path) -> None:
    p = tmp_path / "dump.bin"
    p.write_bytes(gzip.compress(NDJSON))
    reader = read_records(str(p))
    assert [r.message.properties["x"][1] for r in reader if r.message] == [1, 2]
    assert reader.format == "ndjson" and reader.compressed


def test_gzip_on_stdin() -> None:
    r = jmsctl("filter", "x = 2", "--stats", stdin=gzip.compress(NDJSON))
    assert r.returncode == 0 and r.stdout == b'{"properties":{"x":2}}\n'
    lines = r.stderr.decode().splitlines()
    assert lines[-1] == "read 2, TRUE 1, FALSE 1, UNKNOWN 0, rejected 0, selected 1" and not any("format" in line for line in lines)


def test_a_file_of_no_format_is_one_error_naming_the_formats_tried(tmp_path: Path) -> None:
    p = tmp_path / "x.txt"
    p.write_text("<?xml version='1.0'?>\n<nothing/>\n" + "<a/>\n" * 50)
    r = jmsctl("filter", "x = 1", str(p))
    assert r.returncode == 2
    (line,) = r.stderr.decode().splitlines()
    assert line.startswith(f"jmsctl: error: {p}: not a message dump in a format jmsctl knows (tried ndjson, json")
    assert "docs/FORMAT.md" in line and "--from" in line
    with pytest.raises(InputError, match="tried ndjson"):
        list(read_records(str(p)))


def test_broken_dump_named_ndjson_is_still_read_line_by_line(tmp_path: Path) -> None:
    p = tmp_path / "d.ndjson"
    p.write_bytes(b"oops\n" + NDJSON)
    rs = list(read_records(str(p)))
    assert [r.error is None for r in rs] == [False, True, True]


@pytest.mark.parametrize("command", [["filter"], ["validate"], ["show"], ["get"], ["explain"], ["spark", "filter"], ["spark", "convert"]])
def test_from_is_on_every_command_that_reads_messages(command: list[str]) -> None:
    r = jmsctl(*command, "--help")
    assert "--from" in r.stdout.decode(), command


def test_from_overrides_detection_and_an_unknown_name_is_a_usage_error(tmp_path: Path) -> None:
    p = tmp_path / "a.data"
    p.write_bytes(NDJSON)
    r = jmsctl("filter", "x = 1", str(p), "--from", "json", "--stats")
    assert r.returncode == 0 and r.stdout == b'{"properties":{"x":1}}\n'
    r = jmsctl("filter", "x = 1", str(p), "--from", "nope")
    assert r.returncode == 2 and b"unknown format 'nope'" in r.stderr
    for cmd in (["get", str(p), "x", "--as", "int"], ["show", str(p)], ["validate", str(p)], ["explain", "x = 1", "--message", str(p)]):
        assert jmsctl(*cmd, "--from", "ndjson").returncode == 0, cmd


def test_jmsctl_arrays_with_header_names_are_not_fmtn_a() -> None:
    ours = b'[\n  {"type": "text", "headers": {"JMSDeliveryMode": 1, "JMSMessageID": "ID:1"}, "body": "x"}\n]'
    assert formats.detect(ours) is formats.get("json")
    theirs = b'[{"JMSMessageID": "ID:1", "JMSDeliveryMode": 2, "body": "x"}]'  # no typed maps: still fmtn-a's top-level headers
    assert formats.detect(theirs) is formats.get("fmtn-a")


class _Repeat(io.RawIOBase):
    """``head``, ``item`` ``count`` times (joined by ``sep``), ``tail``: a large dump never held whole."""

    def __init__(self, head: bytes, item: bytes, count: int, sep: bytes = b"", tail: bytes = b"") -> None:
        self.parts = itertools.chain([head], itertools.chain.from_iterable((sep, item) if i else (item,) for i in range(count)), [tail])
        self.buf = b""

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray) -> int:  # type: ignore[override]
        while len(self.buf) < len(b):
            nxt = next(self.parts, None)
            if nxt is None:
                break
            self.buf += nxt
        n = min(len(b), len(self.buf))
        b[:n] = self.buf[:n]
        self.buf = self.buf[n:]
        return n


_QLOAD_ITEM = b"A VER 2\nA FMT MQSTR   \nA PER 1\nA MSI " + b"41" * 24 + b"\n" + (b'S "' + b"x" * 46 + b'"\n') * 12 + b"\n"
_BROWSE_ITEM = b"JMS_HEADER_FIELD:JMSMessageID = ID:1\nJMS_CUSTOM_FIELD:w = 1\nJMS_BODY_FIELD:JMSText = " + b"y" * 400 + b"\n\n"


@pytest.mark.parametrize(("name", "head", "item", "sep", "tail"), [
    ("ibm-dmpmqmsg", b"* DMPMQMSG Version:9 Created:x\n\n", _QLOAD_ITEM, b"", b""),
    ("activemq-browse", b"", _BROWSE_ITEM, b"", b""),
    ("fmtn-a", b"[", b'{"type": "TextMessage", "body": "' + b"z" * 400 + b'"}', b",\n", b"]"),
], ids=["ibm-dmpmqmsg", "activemq-browse", "fmtn-a"])
def test_dump_readers_stream_in_constant_memory(name: str, head: bytes, item: bytes, sep: bytes, tail: bytes) -> None:
    """About 6 MB of each format read with the memory peak under 1 MB: a block, not the input's size."""
    count = 6_000_000 // len(item)
    fmt = formats.get(name)
    assert fmt.read is not None
    tracemalloc.start()
    seen = 0
    for record in fmt.read(io.BufferedReader(_Repeat(head, item, count, sep, tail)), name, formats.ReadOptions(warn=lambda _: None)):
        assert record.message is not None, record.error
        seen += 1
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert seen == count and peak < 1024 * 1024, peak

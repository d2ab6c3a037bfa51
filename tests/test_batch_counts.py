"""filter.batch.chunk_lines and count_records: the lines and records of a chunk as the loader
counts them, on chunks built from every kind of line start (blank, white space, controls, JSON)."""

from __future__ import annotations

import random

from jmsctl.filter.batch import chunk_lines, count_records
from jmsctl.messages.loader import is_blank

PIECES = [b"", b" ", b"\t", b"\r", b"  \t\r", b" {}", b"\x0b", b"\x0c{}", b"!", b'{"a":1}', b"{", b"x", b"\xff", b"\r{}", b"\t{}"]


def reference(chunk: bytes) -> tuple[int, int]:
    lines = chunk.split(b"\n")
    if chunk.endswith(b"\n"):
        lines.pop()
    if not chunk:
        lines = []
    return len(lines), sum(1 for line in lines if not is_blank(line))


def lines_and_records(chunk: bytes) -> tuple[int, int]:
    lines = chunk_lines(chunk)
    return len(lines), count_records(lines)


def test_every_kind_of_line_start() -> None:
    rnd = random.Random(7)
    seen_blank = seen_clean = 0
    for _ in range(5000):
        lines = [rnd.choice(PIECES) if rnd.random() < 0.3 else b'{"p":%d}' % rnd.randint(0, 9) for _ in range(rnd.randint(0, 6))]
        chunk = b"\n".join(lines) + (b"\n" if rnd.random() < 0.7 else b"")
        expected = reference(chunk)
        assert lines_and_records(chunk) == expected, chunk
        seen_blank += expected[0] != expected[1]
        seen_clean += expected[0] == expected[1] > 0
    assert seen_blank > 500 and seen_clean > 500  # both branches taken


def test_edges() -> None:
    assert lines_and_records(b"") == (0, 0)
    assert lines_and_records(b"\n") == (1, 0)
    assert lines_and_records(b"{}") == (1, 1)
    assert lines_and_records(b"{}\n\n{}") == (3, 2)
    assert lines_and_records(b"{}\r\n\r\n") == (2, 1)
    assert lines_and_records(b"\x0b\n") == (1, 1)  # not JSON white space: a broken record, counted

"""Byte ranges of a local NDJSON file, read by the Python workers themselves.

With a local master the executors see the driver's files, so an NDJSON file is cut into byte
ranges and each task reads its own range with plain file I/O: the lines never travel through the
JVM (Spark's text source would read them there and hand every line to Python through Arrow,
which costs more than the selection itself). A gzip file is one range, read through ``gzip``.

A range ``[start, end)`` owns the lines that begin inside it: the first line that begins at or
after ``start`` (a line begins at 0 or after a ``\\n``) up to the last that begins before ``end``,
read to its end even past ``end``. Lines come in chunks of whole lines, with the 0-based number
of the chunk's first line within the range; a rejected record's line in the file is that plus the
lines before the range, counted only when the range has one (``lines_before``).
"""

from __future__ import annotations

import gzip
import os
import sys
from collections.abc import Iterator
from typing import IO

CHUNK = 1 << 22  # bytes read at a time: a few thousand lines per Arrow batch
MIN_RANGE = 16 << 20
BOM = b"\xef\xbb\xbf"


def plan(path: str, parallelism: int) -> list[tuple[int, int]]:
    """Byte ranges for ``parallelism`` tasks (about two per core, none under 16 MB); one for gzip."""
    size = os.path.getsize(path)
    if path.endswith(".gz") or size <= MIN_RANGE:
        return [(0, size)]
    count = max(1, min(2 * parallelism, size // MIN_RANGE))
    step = -(-size // count)
    return [(start, min(start + step, size)) for start in range(0, size, step)]


def _open(path: str) -> IO[bytes]:
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")  # type: ignore[return-value]


def _skip_partial_line(f: IO[bytes], start: int) -> int:
    """Position ``f`` at the first line that begins at or after ``start``; that position."""
    f.seek(start - 1)
    pos = start - 1
    while True:
        block = f.read(1 << 16)
        if not block:
            return pos
        k = block.find(b"\n")
        if k >= 0:
            pos += k + 1
            f.seek(pos)
            return pos
        pos += len(block)


def chunks(path: str, start: int, end: int, limit: int | None = None) -> Iterator[tuple[int, list[bytes] | int]]:
    """(number of lines of the range before the chunk, the chunk's lines without terminators). A
    line longer than ``limit`` bytes comes alone, as its size (an int): measured, never held, as
    the local loader's reader does, so that it is rejected with the same reason."""
    tail = _Tail(sys.maxsize if limit is None else limit)
    with _open(path) as f:
        pos = 0 if start == 0 else _skip_partial_line(f, start)
        compressed = path.endswith(".gz")
        before = 0
        first = start == 0
        while True:
            want = CHUNK if compressed else max(0, min(CHUNK, end - pos))
            data = f.read(want) if want else b""
            pos += len(data)
            if data:
                parts = data.split(b"\n")
                tail.add(parts[0])
                if len(parts) == 1:
                    continue
                items: list[bytes | int] = [tail.take(), *parts[1:-1]]
                tail.add(parts[-1])
                if len(data) > tail.limit:
                    items = [x if isinstance(x, int) or len(x) <= tail.limit else len(x) for x in items]
            else:  # end of file, or of the range: finish the line in hand (it may run past the end)
                if tail.open and not compressed and pos >= end:
                    _finish_line(f, tail)
                if not tail.open:
                    break
                items = [tail.take()]
            if first and items and isinstance(items[0], bytes) and items[0].startswith(BOM):
                items[0] = items[0][len(BOM):]  # a UTF-8 byte order mark is not part of the first record
            first = False
            for run in split_oversized(items):
                yield before, run
                before += len(run) if isinstance(run, list) else 1
            if not data:
                break


def split_oversized(items: list[bytes | int]) -> Iterator[list[bytes] | int]:
    """Runs of whole lines, and each oversized line (its size) alone, in order."""
    if not any(isinstance(x, int) for x in items):
        yield items  # type: ignore[misc]
        return
    run: list[bytes] = []
    for x in items:
        if isinstance(x, int):
            if run:
                yield run
                run = []
            yield x
        else:
            run.append(x)
    if run:
        yield run


class _Tail:
    """The line in hand between reads: its bytes while it is within ``limit``, else only its size."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0

    @property
    def open(self) -> bool:
        return self.size > 0

    def add(self, data: bytes) -> None:
        self.size += len(data)
        if self.size <= self.limit:
            self.parts.append(data)
        elif self.parts:
            self.parts = []

    def take(self) -> bytes | int:
        line: bytes | int = b"".join(self.parts) if self.size <= self.limit else self.size
        self.parts, self.size = [], 0
        return line


def _finish_line(f: IO[bytes], tail: _Tail) -> None:
    while block := f.read(1 << 16):
        k = block.find(b"\n")
        if k >= 0:
            tail.add(block[:k])
            return
        tail.add(block)


def lines_before(path: str, start: int) -> int:
    """The lines of the file before the first line of the range starting at ``start``."""
    if start == 0:
        return 0
    with open(path, "rb") as f:
        return newlines_before(f, _skip_partial_line(f, start))


def newlines_before(f: IO[bytes], offset: int) -> int:
    """How many line feeds the file has before byte ``offset`` (read in blocks from its start)."""
    f.seek(0)
    count, left = 0, offset
    while left > 0:
        block = f.read(min(left, 1 << 22))
        if not block:
            break
        count += block.count(b"\n")
        left -= len(block)
    return count

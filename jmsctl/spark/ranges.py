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


def chunks(path: str, start: int, end: int) -> Iterator[tuple[int, list[bytes]]]:
    """(number of lines of the range before the chunk, the chunk's lines without terminators)."""
    with _open(path) as f:
        pos = 0 if start == 0 else _skip_partial_line(f, start)
        compressed = path.endswith(".gz")
        before = 0
        carry = b""
        first = start == 0
        while compressed or pos < end or carry:
            want = CHUNK if compressed else max(0, min(CHUNK, end - pos))
            data = f.read(want) if want else b""
            pos += len(data)
            if not data:  # end of file, or of the range: finish the line in hand
                if carry and not compressed and pos >= end:
                    carry += _rest_of_line(f)
                if not carry:
                    break
                lines = [carry]
                carry = b""
            else:
                data = carry + data
                cut = data.rfind(b"\n")
                if cut < 0:
                    carry = data
                    continue
                lines = data[:cut].split(b"\n")
                carry = data[cut + 1:]
            if first and lines and lines[0].startswith(BOM):
                lines[0] = lines[0][len(BOM):]  # a UTF-8 byte order mark is not part of the first record
            first = False
            yield before, lines
            before += len(lines)


def _rest_of_line(f: IO[bytes]) -> bytes:
    out = []
    while True:
        block = f.read(1 << 16)
        if not block:
            break
        k = block.find(b"\n")
        if k >= 0:
            out.append(block[:k])
            break
        out.append(block)
    return b"".join(out)


def lines_before(path: str, start: int) -> int:
    """The lines of the file before the first line of the range starting at ``start``."""
    if start == 0:
        return 0
    count = 0
    with open(path, "rb") as f:
        pos = _skip_partial_line(f, start)
        f.seek(0)
        left = pos
        while left > 0:
            block = f.read(min(left, 1 << 22))
            if not block:
                break
            count += block.count(b"\n")
            left -= len(block)
    return count

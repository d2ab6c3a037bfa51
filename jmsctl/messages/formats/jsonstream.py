"""The elements of one JSON array, read in constant memory: the bytes of each top-level element,
cut at the commas and brackets outside strings, without parsing the whole document. A dump from
fmtn/a is one array of any size; each element is parsed on its own, so that a broken one is an
error for that element and the rest is still read, and a truncated file keeps every complete
element before the break."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

_P = b"+" if sys.version_info >= (3, 11) else b""  # possessive runs: no backtracking entry per byte of a string
_OUTSIDE = re.compile(rb'"[^"\\]*' + _P + rb'(?:\\.[^"\\]*' + _P + rb')*' + _P + rb'("?)|[\[\]{},]')
"""What changes the structure outside a string; a string is taken whole, in one match (group 1 is
its closing quote, empty when the chunk ends inside it)."""
_NESTED = re.compile(rb'(?:[^"\[\]{}]+' + _P + rb'|"[^"\\]*' + _P + rb'(?:\\.[^"\\]*' + _P + rb')*' + _P + rb'")*' + _P)
"""Inside an element (depth 2 and more), what does not change the depth: everything up to the next
bracket or a string the chunk cuts, in one match."""
_INSIDE = re.compile(rb'["\\]')  # what ends a string or escapes its next byte
_WHITE = b" \t\r\n"
CHUNK = 1 << 16


class NotAnArray(Exception):
    """The stream does not start with ``[`` (after a byte order mark and white space)."""


@dataclass(frozen=True)
class Element:
    """One top-level element: ``data`` (None when over the size limit, then ``size`` says how
    big), or ``problem`` for what is not an element (empty between commas, cut by the end of the
    file, bytes after the closing bracket)."""

    index: int
    data: bytes | None
    size: int
    problem: str = ""


def elements(stream: IO[bytes], limit: int) -> Iterator[Element]:
    """The elements of the array ``stream`` holds, in order; NotAnArray before anything else."""
    scan = _Scan(limit)
    first = True
    while chunk := stream.read(CHUNK):
        if first:
            chunk = _opening(chunk, stream)
            first = False
            if not chunk and scan.depth == 0:
                continue
        yield from scan.feed(chunk)
        if scan.closed:
            if _rest_has_data(scan.after, stream):
                yield Element(scan.index, None, 0, "data after the end of the array")
            return
    if first:
        return  # an empty file: no elements
    yield from scan.end()


def _opening(chunk: bytes, stream: IO[bytes]) -> bytes:
    while len(chunk) < 3 and (more := stream.read(CHUNK)):  # a byte order mark cut by a short read
        chunk += more
    if chunk.startswith(b"\xef\xbb\xbf"):
        chunk = chunk[3:]
    chunk = chunk.lstrip(_WHITE)
    while not chunk:
        more = stream.read(CHUNK)
        if not more:
            return b""
        chunk = more.lstrip(_WHITE)
    if chunk[:1] != b"[":
        raise NotAnArray("not a JSON array (it does not start with '[')")
    return chunk


def _rest_has_data(after: bytes, stream: IO[bytes]) -> bool:
    if after.strip(_WHITE):
        return True
    while more := stream.read(CHUNK):
        if more.strip(_WHITE):
            return True
    return False


class _Scan:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.depth = 0  # 1: inside the array, between its elements
        self.in_string = False
        self.skip = 0  # bytes to skip at the next chunk's start (an escape cut by the chunk's end)
        self.pieces: list[bytes] = []
        self.size = 0
        self.index = 0
        self.closed = False
        self.after = b""
        self.commas = 0  # commas seen at depth 1

    def feed(self, chunk: bytes) -> Iterator[Element]:
        pos, start, n = self.skip, 0, len(chunk)
        self.skip = 0
        if self.depth == 0:  # the opening bracket (checked by _opening)
            self.depth, pos, start = 1, 1, 1
        while pos < n:
            if self.in_string:
                m = _INSIDE.search(chunk, pos)
                if m is None:
                    break
                if m.group() == b"\\":
                    pos = m.end() + 1
                    if pos > n:
                        self.skip = pos - n
                    continue
                self.in_string = False
                pos = m.end()
                continue
            if self.depth > 1:  # inside an element: only brackets matter
                pos = _NESTED.match(chunk, pos).end()  # type: ignore[union-attr]  # (matches the empty string)
                if pos == n:
                    break
                if chunk[pos] == 0x22:  # '"': a string the chunk's end cuts
                    self.in_string = True
                    pos += 1
                    continue
            m = _OUTSIDE.search(chunk, pos)
            if m is None:
                break
            at, pos = m.start(), m.end()
            c = chunk[at : at + 1]
            if c == b'"':
                self.in_string = not m.group(1)  # cut by the chunk's end: go on there
            elif c in (b"[", b"{"):
                self.depth += 1
            elif c in (b"]", b"}"):
                self.depth -= 1
                if self.depth == 0:
                    last = self._take(chunk[start:at])
                    if last is not None:
                        yield last
                    elif self.commas:
                        yield Element(self.index - 1, None, 0, "an empty element before ']' (a comma too many)")
                    self.closed, self.after = True, chunk[at + 1 :]
                    return
            elif c == b"," and self.depth == 1:
                self.commas += 1
                element = self._take(chunk[start:at])
                yield element if element is not None else Element(self.index - 1, None, 0, "an empty element (a comma too many)")
                start = pos
        self._keep(chunk[start:])

    def _keep(self, data: bytes) -> None:
        if not data:
            return
        self.size += len(data)
        if self.size <= self.limit:
            self.pieces.append(data)
        else:
            self.pieces = []

    def _take(self, tail: bytes) -> Element | None:
        """The element that ends with ``tail`` (None when it is only white space), index advanced."""
        self._keep(tail)
        size, pieces = self.size, self.pieces
        self.size, self.pieces = 0, []
        data = b"".join(pieces).strip(_WHITE) if size <= self.limit else None
        if data == b"":
            self.index += 1
            return None
        element = Element(self.index, data, size)
        self.index += 1
        return element

    def end(self) -> Iterator[Element]:
        """The end of the file inside the array: the document is cut."""
        pending = self.size > 0 and (self.size > self.limit or b"".join(self.pieces).strip(_WHITE))
        where = "inside this element" if pending else "after the last complete element"
        yield Element(self.index, None, self.size, f"the file ends before the array does ({where}): truncated")

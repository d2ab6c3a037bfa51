"""The prefilter's chunk scan (``plan.line_scanner``) without cutting the chunk into lines: the
compiled ``_bytecount`` finds the lines holding a needle and counts the chunk's lines, 16 bytes at a
time, and only the lines found are made into bytes. Where the prefilter skips most lines (the
javadoc's selector parses 6 % of them), the split and its thousand allocations a chunk were half
of the filter's time, and ``re``'s line-by-line search the other half (bench/README.md, issue 36).

A chunk is given back (None) to the usual scan where a line is empty or begins with white space
(``batch.count_records`` then reads each line for blank ones). Without the compiled part there is
no such scanner (None) and the usual scan runs. The lines found are those ``plan.line_scanner``
finds: a line holding one of the first group's needles (or, where the chunk holds a backslash, its
marker), kept when its ``anchored`` pattern matches it (it reads one of the needles: a line without
any cannot match) and when it holds one of each other group's needles or markers."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import compress, repeat
from operator import contains
from typing import Any

from jmsctl.filter import native
from jmsctl.filter.plan import Group, rarest_positions

# (the chunk's lines, the numbers of the lines found in it, in order, and those lines' bytes)
Found = tuple[int, list[int], list[bytes]]


def hits_scanner(groups: tuple[Group, ...]) -> Callable[[bytes], Found | None] | None:
    """``scan(chunk)`` -> what it found (``Found``), or None where the usual scan must read it; None:
    no such scanner (no compiled part, no groups, or a needle holding a line end)."""
    lib = native.lib
    if lib is None or not groups:
        return None
    first = groups[0]
    if any(b"\n" in x for x in (*first.needles, first.marker)):
        return None
    hits, stats = lib.line_hits, lib.line_stats
    needles = tuple((x, *rarest_positions(x)) for x in first.needles)
    marker = (first.marker, *rarest_positions(first.marker))
    anchored = re.compile(first.anchored).search if first.anchored is not None else None
    rest = tuple((g.needles, g.marker) for g in groups[1:])
    # One more group of one needle (the javadoc's ``car"`` after ``blue"``): tested by one ``map`` where
    # the chunk holds no backslash (no line then holds its marker).
    one_more = rest[0][0][0] if len(rest) == 1 and len(rest[0][0]) == 1 else None

    def others(line: bytes) -> bool:
        return all(group_marker in line or any(x in line for x in group_needles) for group_needles, group_marker in rest)

    def scan(chunk: bytes) -> Found | None:
        lines, clean = stats(chunk)
        if not clean:
            return None
        if len(needles) == 1:
            numbers, texts = hits(chunk, *needles[0])
        else:
            found: dict[int, bytes] = {}
            for needle in needles:
                found.update(zip(*hits(chunk, *needle), strict=True))
            numbers = sorted(found)
            texts = list(map(found.__getitem__, numbers))
        if anchored is not None and numbers:
            keep: list[Any] = list(map(anchored, texts))
            numbers = list(compress(numbers, keep))
            texts = list(compress(texts, keep))
        backslash = b"\\" in chunk  # memchr: most chunks hold none
        if backslash:
            found = dict(zip(numbers, texts, strict=True))
            found.update(zip(*hits(chunk, *marker), strict=True))
            numbers = sorted(found)
            texts = list(map(found.__getitem__, numbers))
        if rest and numbers:
            keep = list(map(contains, texts, repeat(one_more)) if one_more is not None and not backslash else map(others, texts))
            numbers = list(compress(numbers, keep))
            texts = list(compress(texts, keep))
        return lines, numbers, texts

    return scan


__all__ = ["Found", "hits_scanner"]

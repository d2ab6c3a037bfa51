"""LIKE patterns matched in time linear in the value length, whatever the pattern.

A pattern is split at its unescaped '%' into fixed-width segments ('_' is any one character).
The first segment is anchored at the start, the last at the end, and the middle ones are found
leftmost-first in order; leftmost placement is always safe because a '%' absorbs any gap. Each
segment search is a regex without quantifiers (or str.find), so nothing can backtrack
exponentially the way a translated '.*a.*a.*b' regex does.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Segment = list[str | None]  # a literal character, or None for '_'


def split_pattern(pattern: str, escape: str | None) -> list[Segment]:
    """Segments between the '%' wildcards; escaped '_' and '%' are literal characters."""
    segments: list[Segment] = [[]]
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if escape is not None and ch == escape and i + 1 < len(pattern):
            segments[-1].append(pattern[i + 1])
            i += 2
            continue
        if ch == "%":
            segments.append([])
        elif ch == "_":
            segments[-1].append(None)
        else:
            segments[-1].append(ch)
        i += 1
    return segments


def _finder(seg: Segment) -> Callable[[str, int, int], int]:
    """Leftmost start of seg in s[pos:end], or -1."""
    if None not in seg:
        lit = "".join(seg)  # type: ignore[arg-type]
        return lambda s, pos, end: s.find(lit, pos, end)
    rx = re.compile("".join("." if c is None else re.escape(c) for c in seg), re.DOTALL)

    def find(s: str, pos: int, end: int) -> int:
        m = rx.search(s, pos, end)
        return -1 if m is None else m.start()

    return find


def _matcher_at(seg: Segment) -> Callable[[str, int], bool]:
    """Whether seg matches s exactly at pos (the caller checks the length)."""
    if None not in seg:
        lit = "".join(seg)  # type: ignore[arg-type]
        return lambda s, pos: s.startswith(lit, pos)
    pairs = [(i, c) for i, c in enumerate(seg) if c is not None]
    return lambda s, pos: all(s[pos + i] == c for i, c in pairs)


def compile_like(pattern: str, escape: str | None) -> Callable[[str], bool]:
    """A predicate ``value -> bool`` for ``value LIKE pattern [ESCAPE escape]``."""
    segments = split_pattern(pattern, escape)
    if len(segments) == 1:
        seg = segments[0]
        width = len(seg)
        if None not in seg:
            lit = "".join(seg)  # type: ignore[arg-type]
            return lambda s: s == lit
        at = _matcher_at(seg)
        return lambda s: len(s) == width and at(s, 0)
    first, last, middle = segments[0], segments[-1], [s for s in segments[1:-1] if s]
    first_at, last_at = _matcher_at(first), _matcher_at(last)
    fixed = len(first) + len(last)
    finders = [(_finder(seg), len(seg)) for seg in middle]
    if not first and not last and not finders:
        return lambda s: True  # '%', '%%', ...

    def match(s: str) -> bool:
        n = len(s)
        if n < fixed or not first_at(s, 0) or not last_at(s, n - len(last)):
            return False
        pos, end = len(first), n - len(last)
        for find, width in finders:
            start = find(s, pos, end)
            if start < 0:
                return False
            pos = start + width
        return True

    return match

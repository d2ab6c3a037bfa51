"""A large file read without its long runs of plain data, and never whole: the memory of ``scan``
does not grow with the size of a string of data that holds no selector (issue 23).

A file of BIG bytes or more is read a BLOCK at a time, twice (``read_large``). The first pass
decides, as a whole read does, whether it is to be scanned (trigger, binary), and finds the plain
blocks: made only of ASCII letters, digits, spaces, tabs and ``,.-_+/=`` (prose, numbers, hex,
UUIDs, base64), without the word 'elect' in any case (the extractors' selector words are built on
it: 'selector', 'messageSelector', 'Selected'). Of each row of three or more plain blocks, every
block but the first and the last is left out; the second pass reads and decodes only the rest, so
the text the extractors read keeps at least BLOCK plain characters on each side of a cut. No
plain character opens or closes a string, a comment, a tag or a line, so inside a string literal,
a comment, an XML text or attribute, a .properties or YAML value a cut only shortens it: the
extractors read the same tokens and lines. What the cut text cannot say is checked afterwards
(``touched``): a selector, its source, a diagnostic or a note on a line that lost characters, and
the file is read again whole (memory as before, results exact). Cuts never hold a line end, so
lines and columns computed from the cut text are the file's; only absolute offsets move
(``file_offset``).

An extractor may also read the whole text for a word (``Extractor.context``: the JVM extractor
counts generic call names only in a file that mentions JMS). Whether that regex matches is kept:
no cut leaves its two kept sides meeting within _NEAR of 'elect' or a ``keep`` word ('…jm' +
's…': a block fewer is cut at one end or both, else the row is kept); and when a cut block held a
``keep`` word, the cut text must match away from every cut (the file's import does), or the file
is cut again with those blocks kept.

Not cut: runs of other characters (JSON, escapes, other punctuation, non-ASCII text), files under
BIG. In code, outside every literal and comment, a run of three blocks of plain characters (a
one-line table of numbers, a chain of words) would be shortened too; where the two kept blocks
meet they could make or unmake a '//' that comments out the rest of that line, the one way a cut
could change what scan reads on other lines.
"""

from __future__ import annotations

import importlib
import re
import sys
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, BinaryIO

BLOCK = 1 << 16
BIG = 1 << 20
# No quote, escape, line end, tag, entity, template or URI-escape character of any language scan
# reads; where two kept blocks meet inside a literal or comment they make only more of its text.
_PLAIN = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t,.-_+/="
_WORD = b"elect"
BOM = b"\xef\xbb\xbf"

Cut = tuple[int, int]  # (offset in the cut text where characters were left out, how many)


def _plain(block: bytes, lowered: bytes) -> bool:
    """Only plain characters, and no 'elect' (``lowered``: the block with the few bytes before it)."""
    return len(block) == BLOCK and not block.translate(None, _PLAIN) and _WORD not in lowered


OVERLAP = 4096  # bytes of the previous block searched again with the next for a trigger across their edge


@cache
def _bounded(trigger: re.Pattern[bytes]) -> bool:
    """Whether every match of the trigger is at most OVERLAP bytes long: then searching it block
    by block, each with the OVERLAP bytes before, finds every match."""
    try:  # the regex parser's own measure (re._parser, sre_parse before 3.11)
        parser: Any = importlib.import_module("re._parser" if sys.version_info >= (3, 11) else "sre_parse")
        return bool(parser.parse(trigger.pattern, trigger.flags).getwidth()[1] <= OVERLAP)
    except Exception:  # an internal that changed: every file whose trigger is not found in blocks is searched whole
        return False


def read_large(f: BinaryIO, words: Sequence[bytes], trigger: re.Pattern[bytes], keep: tuple[bytes, ...] = (),
               context: re.Pattern[str] | None = None) -> tuple[str, tuple[Cut, ...]] | None:
    """A large file (``f`` at its start, seekable) read twice, a block at a time, never whole: first
    its trigger (``Extractor.triggered``: a word of ``words``, then a match of ``trigger``), whether
    it is binary (a NUL in its first 8192 bytes: ``scan.is_binary``) and which blocks are plain; then
    the kept parts, decoded as ``scan.read_text`` decodes (BOM dropped, UTF-8 else Latin-1).
    ``context``: a regex the extractor searches the whole text for, every match of which holds a
    word of ``keep``; whether it matches is made the same in the cut text as in the file.
    None when it is not to be scanned, else its text with the plain runs cut out and the cuts."""
    base = 3 if f.read(3) == BOM else 0
    f.seek(base)
    seen_word = seen_trigger = False
    bounded = _bounded(trigger)
    reach = max(len(w) for w in (_WORD, *keep)) - 1
    word_reach = max(len(w) for w in words) - 1
    plain: list[bool] = []
    keeps: list[bool] = []  # a word of keep in the block or across its start
    pos = base
    before = b""  # the end of the previous block
    while block := f.read(BLOCK):
        if pos < 8192 and b"\0" in block[: 8192 - pos]:
            return None
        if not seen_word:
            seen_word = any(w in before[len(before) - word_reach :] + block for w in words)
        if not seen_trigger:
            seen_trigger = trigger.search(before + block) is not None
        lowered = (before[len(before) - reach :] + block).lower()
        plain.append(_plain(block, lowered))
        keeps.append(any(w in lowered for w in keep))
        before = block[-OVERLAP:]
        pos += len(block)
    if seen_word and not seen_trigger and not bounded:
        f.seek(0)
        seen_trigger = trigger.search(f.read()) is not None  # a match may be longer than the overlap: searched whole
    if not (seen_word and seen_trigger):
        return None
    rows = _rows(f, base, plain, (_WORD, *keep))
    text, cuts = _kept(f, base, pos, rows)
    if context is not None and any(any(keeps[a : b + 1]) for a, b in rows) and not _matches_away_from_cuts(context, text, cuts):
        # A word of keep in what was cut (or across its edges), and no match the cuts cannot have
        # made: cut again, the blocks with such a word kept, so that no match is cut out.
        del text
        text, cuts = _kept(f, base, pos, _rows(f, base, [p and not k for p, k in zip(plain, keeps, strict=True)], (_WORD, *keep)))
    return text, cuts


def _rows(f: BinaryIO, base: int, plain: list[bool], words: tuple[bytes, ...]) -> list[tuple[int, int]]:
    """(first, end) of the blocks to leave out: the inner ones of each row of three or more plain
    blocks, never so that the kept sides meet near a word of ``words``."""
    rows = []
    first = -1
    for i, p in enumerate([*plain, False]):
        if p and first < 0:
            first = i
        elif not p and first >= 0:
            # The inner blocks; where the kept sides would meet in a word, a block fewer at either end.
            for a, b in ((first + 1, i - 1), (first + 2, i - 1), (first + 1, i - 2), (first + 2, i - 2)):
                if b > a and not _joins_a_word(f, base + a * BLOCK, base + b * BLOCK, words):
                    rows.append((a, b))
                    break
            first = -1
    return rows


def _kept(f: BinaryIO, base: int, size: int, rows: list[tuple[int, int]]) -> tuple[str, tuple[Cut, ...]]:
    """The text of everything but the blocks of ``rows``, and its cuts."""
    ranges = [(base + a * BLOCK, base + b * BLOCK) for a, b in rows]
    keeps = []
    at = base
    for start, end in ranges:
        keeps.append((at, start))
        at = end
    keeps.append((at, size))
    parts = _parts(f, keeps, "utf-8")
    if parts is None:
        parts = _parts(f, keeps, "latin-1")
    assert parts is not None
    cuts: list[Cut] = []
    kept = 0
    for (start, end), part in zip(ranges, parts, strict=False):
        kept += len(part)
        cuts.append((kept, end - start))
    text = "".join(parts)
    del parts
    return text, tuple(cuts)


_NEAR = 16  # characters around a cut within which a match of a context regex may be the cut's doing


def _matches_away_from_cuts(context: re.Pattern[str], text: str, cuts: Sequence[Cut]) -> bool:
    """Whether ``context`` matches the cut text away from every cut: then it matches the file too."""
    points = [c for c, _ in cuts]
    for m in context.finditer(text):
        i = bisect_right(points, m.start() - _NEAR - 1)
        if i == len(points) or points[i] > m.end() + _NEAR:
            return True
    return False


def _joins_a_word(f: BinaryIO, start: int, end: int, words: tuple[bytes, ...]) -> bool:
    """Whether leaving out [start, end) would put a word of ``words`` where the two sides meet, or
    within _NEAR of it ('…jm' + 's…', 'ibm.' + 'mq…'): then the cut is not made there."""
    f.seek(start - _NEAR)
    joined = f.read(_NEAR)
    f.seek(end)
    joined += f.read(_NEAR)
    return any(w in joined.lower() for w in words)


def _parts(f: BinaryIO, keeps: list[tuple[int, int]], encoding: str) -> list[str] | None:
    """The kept byte ranges decoded one at a time (the cuts are ASCII: a UTF-8 file is valid exactly
    when every kept part is); None when one is not UTF-8."""
    out = []
    for start, end in keeps:
        f.seek(start)
        try:
            out.append(str(f.read(end - start), encoding))
        except UnicodeDecodeError:
            return None
    return out


def file_offset(cuts: Sequence[Cut], offset: int) -> int:
    """The offset in the whole file's text of ``offset`` in the cut text (after a cut point: moved
    by every cut before it)."""
    if not cuts:
        return offset
    n = bisect_right([c for c, _ in cuts], offset)
    return offset + sum(length for _, length in cuts[:n])


def touched(text: str, cuts: Sequence[Cut], offsets: Iterable[int]) -> bool:
    """Whether a cut lies on a line from the first to the last of ``offsets`` (offsets of one
    selector, its source and its diagnostics in the cut text): then what was cut may be part of it."""
    seen = list(offsets)
    if not cuts or not seen:
        return False
    lo, hi = min(seen), max(seen)
    line_start = max(text.rfind("\n", 0, lo), text.rfind("\r", 0, lo)) + 1
    ends = [i for i in (text.find("\n", hi), text.find("\r", hi)) if i >= 0]
    line_end = min(ends) if ends else len(text)
    points = [c for c, _ in cuts]
    i = bisect_right(points, line_start - 1)
    return i < len(points) and points[i] <= line_end


__all__ = ["BIG", "BLOCK", "OVERLAP", "Cut", "file_offset", "read_large", "touched"]

"""A large file read without its long runs of plain data, and never whole: the memory of ``scan``
does not grow with the size of a string of data that holds no selector (issue 23).

A file of BIG bytes or more is read a BLOCK at a time, twice (``read_large``). The first pass
decides, as a whole read does, whether it is to be scanned (trigger, binary), and finds the plain
blocks: made only of ASCII letters, digits, spaces, tabs and ``,.-_+/=`` (prose, numbers, hex,
UUIDs, base64), without the word 'elect' in any case (the extractors' selector words are built on
it: 'selector', 'messageSelector', 'Selected') nor a word the extractor reads anywhere in a file
(its ``keep``: 'jms', 'mq'...). Of each row of three or more plain blocks, every block but the
first and the last is left out (not where the two kept sides would meet in such a word: '…jm' +
's…'); the second pass reads and decodes only the rest, so the text the extractors read keeps at
least BLOCK plain characters on each side of a cut. No plain character
opens or closes a string, a comment, a tag or a line, so inside a string literal, a comment, an
XML text or attribute, a .properties or YAML value a cut only shortens it: the extractors read the
same tokens and lines. What the cut text cannot say is checked afterwards (``touched``): a
selector, its source, a diagnostic or a note on a line that lost characters, and the file is read
again whole (memory as before, results exact). Cuts never hold a line end, so lines and columns
computed from the cut text are the file's; only absolute offsets move (``file_offset``).

Not cut: runs of other characters (JSON, escapes, other punctuation, non-ASCII text), files under
BIG, blocks of a Java or Python file holding a word of ``keep`` (random base64 holds 'jms' or 'mq'
every few thousand characters, so it stays whole there). In code, outside every literal and
comment, a run of three blocks of plain characters (a one-line table of numbers, a chain of
words) would be shortened too; where the two kept blocks meet they could make or unmake a '//'
that comments out the rest of that line, the one way a cut could change what scan reads on
other lines.
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


def _plain(block: bytes, before: bytes, words: tuple[bytes, ...]) -> bool:
    if len(block) < BLOCK or block.translate(None, _PLAIN):
        return False
    lowered = (before + block).lower()  # a word across the block's start too
    return not any(w in lowered for w in words)


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


def read_large(f: BinaryIO, words: Sequence[bytes], trigger: re.Pattern[bytes], keep: tuple[bytes, ...] = ()
               ) -> tuple[str, tuple[Cut, ...]] | None:
    """A large file (``f`` at its start, seekable) read twice, a block at a time, never whole: first
    its trigger (``Extractor.triggered``: a word of ``words``, then a match of ``trigger``), whether
    it is binary (a NUL in its first 8192 bytes: ``scan.is_binary``) and which blocks are plain; then
    the kept parts, decoded as ``scan.read_text`` decodes (BOM dropped, UTF-8 else Latin-1).
    None when it is not to be scanned, else its text with the plain runs cut out and the cuts."""
    base = 3 if f.read(3) == BOM else 0
    f.seek(base)
    seen_word = seen_trigger = False
    bounded = _bounded(trigger)
    reach = max(len(w) for w in (_WORD, *keep)) - 1
    word_reach = max(len(w) for w in words) - 1
    kept_words = (_WORD, *keep)
    plain: list[bool] = []
    pos = base
    before = b""  # the end of the previous block
    while block := f.read(BLOCK):
        if pos < 8192 and b"\0" in block[: 8192 - pos]:
            return None
        if not seen_word:
            seen_word = any(w in before[len(before) - word_reach :] + block for w in words)
        if not seen_trigger:
            seen_trigger = trigger.search(before + block) is not None
        plain.append(_plain(block, before[len(before) - reach :] if reach else b"", kept_words))
        before = block[-OVERLAP:]
        pos += len(block)
    if seen_word and not seen_trigger and not bounded:
        f.seek(0)
        seen_trigger = trigger.search(f.read()) is not None  # a match may be longer than the overlap: searched whole
    if not (seen_word and seen_trigger):
        return None
    ranges: list[tuple[int, int]] = []  # (start, end) file offsets left out: the inner blocks of rows of 3 or more
    first = -1
    for i, p in enumerate([*plain, False]):
        if p and first < 0:
            first = i
        elif not p and first >= 0:
            if i - first >= 3 and not _joins_a_word(f, base + (first + 1) * BLOCK, base + (i - 1) * BLOCK, kept_words, reach):
                ranges.append((base + (first + 1) * BLOCK, base + (i - 1) * BLOCK))
            first = -1
    keeps = []
    at = base
    for start, end in ranges:
        keeps.append((at, start))
        at = end
    keeps.append((at, pos))
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


def _joins_a_word(f: BinaryIO, start: int, end: int, words: tuple[bytes, ...], reach: int) -> bool:
    """Whether leaving out [start, end) would make a word of ``words`` where the two sides meet
    ('…jm' + 's…'): then that row is not cut. (The plain blocks on either side hold none.)"""
    f.seek(start - reach)
    joined = f.read(reach)
    f.seek(end)
    joined += f.read(reach)
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

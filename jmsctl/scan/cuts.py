"""A large file read without its long runs of plain prose: the memory of ``scan`` does not grow
with the size of a string of data that holds no selector (issue 23).

A file of BIG bytes or more is cut, before it is decoded, where it holds three or more aligned
blocks of BLOCK bytes in a row made only of ASCII letters, digits, spaces, commas and periods and
without the word 'elect' in any case (the extractors' selector words are built on it: 'selector',
'messageSelector', 'Selected') nor a word the extractor reads anywhere in a file (its ``keep``:
'jms', 'activemq'...): every such block but the first and the last of the row is left out, so the text the extractors read keeps at least BLOCK plain characters on each side of a cut.
Those characters are never syntax in the languages read here (no quote, escape, line end, tag,
template or comment marker), so a cut inside a string literal, a comment, an XML text or
attribute, a .properties or YAML value shortens it and changes nothing else: the extractors read
the same tokens and lines, only the long value is shorter. What the cut text cannot say is
checked afterwards (``touched``): a selector, its source, or a diagnostic on a line that lost
characters, and the file is read again whole (memory as before, results exact). Cuts never hold a
line end, so lines and columns computed from the cut text are the file's; only absolute offsets
move (``file_offset``).

Not cut: runs of other characters (escapes, punctuation, non-ASCII text), files under BIG. In
code, a run of BLOCK x 3 plain characters outside any literal or comment (a sequence of words,
not a program) would be shortened too.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

BLOCK = 1 << 16
BIG = 1 << 20
_PLAIN = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,."
_WORD = b"elect"
BOM = b"\xef\xbb\xbf"

Cut = tuple[int, int]  # (offset in the cut text where characters were left out, how many)


def _plain(view: memoryview, i: int, words: tuple[bytes, ...], reach: int) -> bool:
    block = view[i * BLOCK : (i + 1) * BLOCK].tobytes()
    if block.translate(None, _PLAIN):
        return False
    lowered = (view[max(0, i * BLOCK - reach) : i * BLOCK].tobytes() + block).lower()  # a word across the block's start too
    return not any(w in lowered for w in words)


def byte_cuts(view: memoryview, keep: tuple[bytes, ...] = ()) -> list[tuple[int, int]]:
    """The byte ranges (start, end) of ``view`` to leave out: the inner blocks of each row of
    three or more plain blocks. A block that ends the file short is never plain, nor one holding
    'elect' or a word of ``keep`` (lower case), also across its edges."""
    words = (_WORD, *keep)
    reach = max(len(w) for w in words) - 1
    out: list[tuple[int, int]] = []
    first = -1  # the first block of the current row of plain blocks
    blocks = len(view) // BLOCK
    for i in range(blocks + 1):
        plain = i < blocks and _plain(view, i, words, reach)
        if plain and first < 0:
            first = i
        elif not plain and first >= 0:
            if i - first >= 3:
                out.append(((first + 1) * BLOCK, (i - 1) * BLOCK))
            first = -1
    return out


def read_cut(data: bytes, keep: tuple[bytes, ...] = ()) -> tuple[str, tuple[Cut, ...]]:
    """The file's text as ``scan.read_text`` decodes it (BOM dropped, UTF-8 else Latin-1), with the
    plain runs of a large file left out, and the cuts made. The file's bytes are only read
    (memoryview): what is built is the shorter text. Cuts are ASCII, so a UTF-8 file is valid
    exactly when each kept part is, and character counts of the cuts equal their byte counts."""
    view = memoryview(data)
    if data.startswith(BOM):
        view = view[len(BOM):]
    ranges = byte_cuts(view, keep) if len(view) >= BIG else []
    if not ranges:
        return _decode([view])[0], ()
    views = []
    pos = 0
    for start, end in ranges:
        views.append(view[pos:start])
        pos = end
    views.append(view[pos:])
    parts = _decode(views)
    cuts: list[Cut] = []
    kept = 0
    for (start, end), part in zip(ranges, parts, strict=False):
        kept += len(part)
        cuts.append((kept, end - start))
    text = "".join(parts)
    del parts
    return text, tuple(cuts)


def _decode(views: Sequence[memoryview]) -> list[str]:
    try:
        return [str(v, "utf-8") for v in views]
    except UnicodeDecodeError:
        return [str(v, "latin-1") for v in views]


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


__all__ = ["BIG", "BLOCK", "Cut", "byte_cuts", "file_offset", "read_cut", "touched"]

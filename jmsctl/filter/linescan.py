"""Line scan: a chunk of NDJSON text cut into lines and sent to the stage that decides them. Lines
over the maximum record size are rejected unread (``limited``); with a text prefilter, only the
lines in which the chunk scan finds a needle are parsed, the others counted as records and
skipped (``skipping``); with ``--max-count`` or without the path decode, the prefilter is a test
per line (``prefiltered``). Every other chunk goes to the path decode (``pathdecode``, which
tries the column path first) or the whole decode (``whole``)."""

from __future__ import annotations

from jmsctl.filter import columnpath, pathdecode, whole
from jmsctl.filter.batch import NOT_TRUE, Batch, add_counts, chunk_lines, count_records, merge
from jmsctl.filter.setup import Setup
from jmsctl.messages.loader import is_blank, record_too_large

# One line in this many of a chunk is held until the next chunk is split (``Setup.held``). Lines of up
# to 512 bytes (most of a dump of bare values) are allocated by pymalloc, in arenas of 1 MB that it
# hands back to the kernel as soon as all their objects are freed (all but one empty arena, bpo-37257):
# each chunk's lines then took fresh arenas, every page faulted in anew (60,000 minor faults, 0.18 s
# of system time in the workers on the bare dump of 1 M messages of bench/shapes_bench.py). A few
# lines held in each arena keep it, and the next chunk's lines fill its freed pools.
_HELD_EVERY = 64


def process(s: Setup, chunk: bytes, max_count: int | None) -> Batch:
    """Select from a chunk of whole lines (the caller holds ``whole.DECODING``)."""
    limit = s.max_record_size
    if limit is not None and len(chunk) > limit:
        return limited(s, chunk, max_count, limit)
    if s.skip and max_count is None:
        return skipping(s, chunk)
    if s.kernel is not None and max_count is None:
        done = columnpath.process_uncut(s, chunk)  # decoded whole, where each line is shown one value
        if done is not None:
            return done
    lines = chunk.split(b"\n")
    s.held = lines[::_HELD_EVERY]
    if chunk.endswith(b"\n"):
        lines.pop()
    if b"\r" in chunk:
        lines = [line.rstrip(b"\r") for line in lines]
    if s.partial is not None and max_count is None:
        return pathdecode.process(s, lines, chunk)
    if s.test is not None:
        return prefiltered(s, lines, max_count)
    return whole.process(s, lines, max_count, whole.COLON_ESCAPE(chunk) is not None)


def prefiltered(s: Setup, lines: list[bytes], max_count: int | None, first: int = 0) -> Batch:
    """The prefilter's loop: a line it proves not TRUE is skipped unparsed (``skip``) or only
    judged valid or rejected; the others are judged."""
    b = Batch()
    errors, kept = b.errors, b.kept
    judge, test = whole.judge, s.test
    skip, invert, keep = s.skip, s.invert, s.keep_lines
    read = true = false = unknown = rejected = skipped = selected = 0
    out: list[bytes] = []
    index = first - 1
    stopped = False
    for raw in lines:
        index += 1
        candidate = test is None or test(raw)
        if is_blank(raw):
            continue  # a blank line is no record
        read += 1
        if skip and not candidate:
            skipped += 1
            continue
        result, error = judge(s, raw)
        if error is not None:
            rejected += 1
            errors.append((index, raw, error.field, error.reason))
            continue
        if not candidate:
            if result is True:  # pragma: no cover - the prefilter is sound
                raise AssertionError(f"the prefilter excluded a selected line: {raw!r}")
            result = NOT_TRUE
        if result is True:
            true += 1
            if invert:
                continue
        else:
            if result is False:
                false += 1
            elif result is None:
                unknown += 1
            else:
                skipped += 1
            if not invert:
                continue
        selected += 1
        if keep:
            kept.append((index, raw))
        else:
            out.append(raw)
        if selected == max_count:
            stopped = True
            break
    b.lines = index + 1 - first if stopped else len(lines)
    b.read, b.true, b.false, b.unknown, b.rejected, b.skipped, b.selected = read, true, false, unknown, rejected, skipped, selected
    b.stopped = stopped
    if out and not s.discard:
        out.append(b"")
        b.out = b"\n".join(out)
    return b

def limited(s: Setup, chunk: bytes, max_count: int | None, limit: int) -> Batch:
    """A chunk that may hold lines over the maximum record size: those are rejected unread,
    with the loader's words, the others processed as usual, in order."""
    total = Batch()
    parts: list[bytes] = []
    lines = chunk.split(b"\n")
    if chunk.endswith(b"\n"):
        lines.pop()
    start = 0
    for i, raw in enumerate([*lines, None]):
        if raw is not None and len(raw) <= limit:
            continue
        if i > start:
            part = [line.rstrip(b"\r") for line in lines[start:i]]
            rest = None if max_count is None else max_count - total.selected
            sub = prefiltered(s, part, rest, start) if s.test is not None else whole.process(s, part, rest, True, start)
            merge(total, sub, parts)
            if sub.stopped:
                total.lines = start + sub.lines
                break
        if raw is not None:
            error = record_too_large(len(raw), limit)
            total.read += 1
            total.rejected += 1
            total.errors.append((i, None, error.field, error.reason))
        start = i + 1
    else:
        total.lines = len(lines)
    total.out = b"".join(parts)
    return total

def skipping(s: Setup, chunk: bytes) -> Batch:
    """Only the lines in which the prefilter finds a needle or an escape marker are parsed
    (``pathdecode`` or ``whole``); the others are counted as records and skipped."""
    assert s.scan is not None
    got = s.chunk_scan(chunk) if s.chunk_scan is not None else None
    total = Batch()
    if got is not None:
        # The lines found, the chunk never cut (``filter.linehits``): no line blank, each a record.
        total.lines, found, lines = got
        records = total.lines
    else:
        parts = chunk_lines(chunk)
        s.held = parts[::_HELD_EVERY]
        total.lines, records = len(parts), count_records(parts)
        found = s.scan(chunk, parts)
        lines = list(map(parts.__getitem__, found))
    if found:
        if b"\r" in chunk:
            lines = [line.rstrip(b"\r") for line in lines]
        if s.partial is not None:
            sub = pathdecode.process(s, lines, b"\n".join(lines))
        else:
            sub = whole.process(s, lines, None, any(b"\\u003" in line for line in lines))
        add_counts(total, sub)
        total.out = sub.out
        if sub.kept or sub.errors:  # their line numbers in the chunk
            total.kept = [(found[i], raw) for i, raw in sub.kept]
            total.errors = [(found[i], raw, where, reason) for i, raw, where, reason in sub.errors]
    total.skipped += records - total.read
    total.read = records
    return total


__all__ = ["limited", "prefiltered", "process", "skipping"]

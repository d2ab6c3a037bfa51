"""Lines decoded whole: every line validated by the whole schema (``jmsctl.filter.schema``), proved
free of repeated keys, and evaluated on its view; the reference the other stages defer to for a
line they cannot vouch for (``judge``), and the loop of ``--stats``, ``--validate-all`` and
``--invert`` (``process``). A line the fast decode refuses or cannot prove free of repeated keys
goes to ``plain``: ``loader.judge_line`` parses and decodes it exactly as ``read_records`` does,
with the same error. So a line is rejected exactly when the plain path rejects it, with the same
field and reason."""

from __future__ import annotations

import re
import threading
from typing import Any

from msgspec import UNSET
from msgspec.structs import astuple

from jmsctl.filter import schema as fs
from jmsctl.filter.batch import Batch
from jmsctl.filter.setup import Setup
from jmsctl.messages.decode import AmbiguousNumber, RecordError
from jmsctl.messages.jsonkeys import has_duplicate_key
from jmsctl.messages.loader import is_blank, judge_line


class Refused(Exception):
    """The fast path will not vouch for this line: the plain path decides."""


# fastschema.TYPED_MADE is one list for the process: decodes from two threads must not interleave
# between its clear() and its len(). One chunk at a time (the work holds the GIL anyway).
DECODING = threading.RLock()
# ValueError: msgspec's DecodeError and ValidationError, and UnicodeDecodeError (invalid UTF-8 in a key);
# RecursionError: msgspec nests no deeper than the interpreter's limit (orjson reads 1,024 levels).
DECODE_ERRORS = (ValueError, Refused, AmbiguousNumber, RecordError, KeyError, RecursionError)
# Where a colon may be spelled as an escape: re finds this literal three times as fast as `in`.
COLON_ESCAPE = re.compile(rb"\\u003").search


def plain(s: Setup, raw: bytes) -> tuple[Any, RecordError | None]:
    """The plain path for one line: exactly what read_records + select would do with it."""
    record = judge_line(s.name, 0, raw)
    if record.message is None:
        assert record.error is not None
        return None, record.error
    return s.fn(record.message.selector_values().get), None


def judge(s: Setup, raw: bytes) -> tuple[Any, RecordError | None]:
    """One non-blank line (no line terminator): (True / False / None, None), or (None, the
    rejection). What the loop of ``process`` does for each line, as one call. The caller holds
    ``DECODING``."""
    made = fs.TYPED_MADE
    try:
        made.clear()
        rec = fs.decode(raw)
        if not fs.keys_unique(raw, rec, len(made)) and has_duplicate_key(raw):
            raise Refused
        return s.fn(s.view(rec).get), None
    except DECODE_ERRORS:
        return plain(s, raw)


def process(s: Setup, lines: list[bytes], max_count: int | None, escapes: bool = True, first: int = 0) -> Batch:
    """Every line decoded, proved free of repeated keys, evaluated (``judge`` inlined: this
    loop is the filter's time). ``escapes``: a line may spell a colon as an escape."""
    b = Batch()
    errors, kept = b.errors, b.kept
    decode, decode_untyped, invalid = fs.decode_typed, fs.decode_untyped, fs.ValidationError
    made, clear = fs.TYPED_MADE, fs.TYPED_MADE.clear
    unset, untyped, header_fields = UNSET, fs.Untyped, fs.HEADER_FIELDS + 1
    keys_unique, view_of, fn, plain_path, possible, sure = fs.keys_unique, s.view, s.fn, plain, s.possible, s.sure
    invert, keep = s.invert, s.keep_lines
    true = false = unknown = rejected = selected = skipped = 0
    out: list[bytes] = []
    append = kept.append if keep else out.append
    stopped = False
    bare = 0
    index = first - 1
    for raw in lines:
        index += 1
        try:
            clear()
            # fs.decode, inlined. A line without "type" fails the typed decode (an exception and a
            # second decode: +70 %). ``bare`` counts such lines (up to 8); from 2 on, a line not
            # starting with "type" tries the untyped decode first, and a typed line doing so sets
            # the count back to -8. The two decodes accept disjoint lines.
            if bare >= 2 and not raw.startswith(b'{"type"'):
                try:
                    rec = decode_untyped(raw)
                except invalid:
                    rec = decode(raw)
                    bare = -8
            else:
                try:
                    rec = decode(raw)
                except invalid:
                    rec = decode_untyped(raw)
                    if bare < 8:
                        bare += 1
            # fs.keys_unique's first count, inlined (the usual line stops here): the line's colons,
            # less those of JMSMessageID ("ID:...") and JMSDestination ("queue://..."), against the
            # members the decode kept.
            h, p, body = rec.headers, rec.properties, rec.body
            members = 2 * len(made) if type(rec) is untyped else 2 * len(made) + 1
            colons = raw.count(b":")
            if h is not unset:
                ht = astuple(h)
                members += header_fields - ht.count(unset)
                # the two strings' colons at once (UNSET and None format without one)
                colons -= f"{ht[0]}{ht[6]}".count(":")
            if p is not unset:
                members += 1 + len(p)
            if body is not unset:
                members += 1 + len(body) if type(body) is dict else 1
            if (colons != members or escapes) and not keys_unique(raw, rec, len(made), escapes) and has_duplicate_key(raw):
                raise Refused
            if possible is not None and not possible(rec):
                skipped += 1
                continue
            result = True if sure is not None and sure(rec) else fn(view_of(rec).get)
        except DECODE_ERRORS:
            if is_blank(raw):
                continue  # a blank line is no record
            result, error = plain_path(s, raw)
            if error is not None:
                rejected += 1
                errors.append((index, raw, error.field, error.reason))
                continue
        if result is True:
            true += 1
            if invert:
                continue
        elif result is False:
            false += 1
            if not invert:
                continue
        else:
            unknown += 1
            if not invert:
                continue
        selected += 1
        append((index, raw) if keep else raw)  # type: ignore[arg-type]
        if selected == max_count:
            stopped = True
            break
    b.lines = index + 1 - first if stopped else len(lines)
    b.read = true + false + unknown + rejected + skipped
    b.true, b.false, b.unknown, b.rejected, b.selected, b.skipped = true, false, unknown, rejected, selected, skipped
    b.stopped = stopped
    if out and not s.discard:
        out.append(b"")
        b.out = b"\n".join(out)
    return b


__all__ = ["COLON_ESCAPE", "DECODE_ERRORS", "DECODING", "Refused", "judge", "plain", "process"]

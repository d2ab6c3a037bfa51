"""A chunk decoded by one ``map`` and judged by columns: the default mode without its per-line
loop, for a selector with a column kernel (``jmsctl.filter.columns``). The proofs of
``jmsctl.filter.partial`` (each record's ``headers`` / ``properties`` made once, each path key's
occurrences, each typed value's two members) are counted for the whole chunk; a chunk that a
count cannot prove (a repeated key somewhere, a typed String, ``\\u`` escapes or invalid UTF-8)
goes back to the per-line loop (``pathdecode``)."""

from __future__ import annotations

from itertools import compress
from operator import attrgetter
from typing import Any

from msgspec import UNSET

from jmsctl.filter import native
from jmsctl.filter import schema as fs
from jmsctl.filter.batch import Batch, chunk_lines
from jmsctl.filter.columns import Column
from jmsctl.filter.partial import has_escape, utf8
from jmsctl.filter.setup import Setup
from jmsctl.filter.view import TYPED
from jmsctl.filter.whole import DECODE_ERRORS, judge
from jmsctl.messages.loader import is_blank

_HEADERS = attrgetter("headers")
_PROPERTIES = attrgetter("properties")


def process(s: Setup, lines: list[bytes], text: bytes) -> Batch | None:
    """``pathdecode.process`` without its per-line loop, for a selector with a kernel
    (``filter.columns``): every line decoded by one ``map``, the proofs of ``filter.partial``
    counted for the whole chunk, the verdicts from the columns. None: a count does not prove
    every line (a repeated key somewhere, a typed String, ``\\u`` escapes or invalid UTF-8):
    the per-line loop decides the chunk. A line that fails its decode or that the kernel
    ASKs for is judged alone (``whole.judge``), as the per-line loop judges it."""
    part, kernel = s.partial, s.kernel
    assert part is not None and kernel is not None
    if has_escape(text) or not (text.isascii() or utf8(text)):
        return None
    raw_mode = s.typed_seen and part.raw_decode is not None
    decode = part.raw_decode if raw_mode else part.decode
    part.made.clear()
    recs: list[Any] = []
    bad: list[int] = []
    it = iter(lines)
    while True:
        try:
            recs.extend(map(decode, it))
            break
        except DECODE_ERRORS:
            bad.append(len(recs))
            recs.append(None)
    fs.TYPED_MADE.clear()
    s.whole_decode = not bad  # a chunk whose lines all decode: the next is tried decoded whole again
    return _judged(s, recs, bad, lines, text, raw_mode)


def process_uncut(s: Setup, chunk: bytes) -> Batch | None:
    """``process`` of a chunk not cut into lines: its lines decoded by one ``decode_lines`` of the
    chunk, where ``_bytecount.brace_lines`` says that each line begins with "{" and ends with "}".
    Then the chunk holds one JSON value a line exactly when it holds as many values as lines: a
    String holds no raw line end (msgspec refuses one), so a line's last "}" closes an object; if
    that object were inside another, the next byte but white space would have to be a comma, "]"
    or "}", and it is the next line's "{" (the decode fails); so no value crosses a line end,
    each line's first byte begins a value, and a line holding two makes more values than lines.
    None where that is not shown (a line not so, a decode error anywhere, a count that differs) or
    ``process`` would give None: the chunk is cut into lines and done as before. The lines are cut
    only if needed (a line the kernel ASKs for, the selected lines wanted)."""
    part, lib = s.partial, native.lib
    if lib is None or part is None or s.kernel is None or not s.whole_decode:
        return None
    if has_escape(chunk) or not (chunk.isascii() or utf8(chunk)):
        return None
    size = lib.brace_lines(chunk)
    if size <= 0:
        return None
    raw_mode = s.typed_seen and part.raw_decode_lines is not None
    part.made.clear()
    try:
        recs = (part.raw_decode_lines if raw_mode else part.decode_lines)(chunk)
    except DECODE_ERRORS:
        recs = None
    fs.TYPED_MADE.clear()
    if recs is None or len(recs) != size:
        s.whole_decode = False  # a line that does not decode (or not alone): the next chunks are cut until one is clean
        return None
    return _judged(s, recs, [], None, chunk, raw_mode)


def _judged(s: Setup, recs: list[Any], bad: list[int], lines: list[bytes] | None, text: bytes, raw_mode: bool) -> Batch | None:
    """The chunk's verdicts from its decoded records (None at a line that failed its decode, whose
    numbers are ``bad``); ``lines`` None: the chunk ``text`` not cut yet (``process_uncut``)."""
    part, kernel = s.partial, s.kernel
    assert part is not None and kernel is not None
    made, values_decode = part.made, part.values_decode
    unset, unset_type = UNSET, type(UNSET)
    # The records' headers and properties Structs (UNSET: absent, or a line that failed its decode).
    if bad:
        heads = [unset if r is None else r.headers for r in recs] if part.headers else []
        props = [unset if r is None else r.properties for r in recs] if part.properties else []
    else:
        heads = list(map(_HEADERS, recs)) if part.headers else []
        props = list(map(_PROPERTIES, recs)) if part.properties else []
    if len(made) != len(heads) - heads.count(unset) + len(props) - props.count(unset):
        return None  # "headers" or "properties" twice on some line
    columns: list[list[Any]] = []
    tstring, typed = fs.TString, TYPED
    in_bad = [lines[i] for i in bad] if lines is not None else []
    any_typed = False
    for name, key, scans, count in zip(kernel.names, part.keys, s.key_scans, s.key_counts, strict=True):
        is_header = name in part.headers
        structs = heads if is_header else props
        if unset in structs:
            col = [unset if x is unset else getattr(x, name) for x in structs]
        else:
            col = list(map(attrgetter(name), structs))
        raws: list[Any] | None = None
        joined = b""
        if raw_mode and not is_header:
            # Each value's own JSON text (msgspec.Raw), all typed by one decode of them as a JSON array
            # (each Raw is one whole JSON value: joined by commas, the array holds exactly them).
            raws = col
            present = [x for x in raws if x is not unset] if unset in raws else raws
            joined = b",".join(present)
            try:
                values = values_decode(b"[" + joined + b"]")
            except DECODE_ERRORS:
                # A value the whole schema refuses: the usual decode finds its line and judges it alone.
                s.typed_seen = False
                return process(s, lines, text) if lines is not None else None
            if present is not raws:
                at = iter(values)
                values = [unset if x is unset else next(at) for x in raws]
            col = values
        # The key occurs at least once on a line whose decode found it (no escapes here): as many
        # occurrences in the chunk as values found mean once on each line.
        found = len(col) - col.count(unset)
        classes = set(map(type, col))
        columns.append(Column(col, classes))  # the kernel reads the classes too
        if tstring in classes:
            return None  # a typed String may hold "}" or ":": the per-line loop proves its members
        typed_classes = classes.intersection(typed)
        if not typed_classes:
            typed_found = 0
        elif len(classes) == len(typed_classes) + (unset_type in classes):
            typed_found = found  # every value found is typed
        else:
            typed_found = sum(map(list(map(type, col)).count, typed_classes))
        any_typed = any_typed or typed_found > 0
        # A typed value has its "type" and "value" (the schema requires both), so at least two
        # colons in its own text, and no other (no typed String here: a number, a boolean or a
        # special double's name holds none): twice as many colons as typed values in all means no
        # member twice. When every value found is typed, the joined texts are theirs alone.
        if raws is not None and typed_found and (joined if typed_found == found else b"".join(compress(raws, map(typed.__contains__, map(type, col))))).count(b":") != 2 * typed_found:
            return None  # a typed value with more than two members
        if raws is not None or not typed_found:
            # The key counted (``filter.keycount``; without the C part a superset first, then the key itself).
            if count(text) - sum(map(count, in_bad)) != found and (s.counts_exact or text.count(key) - sum(raw.count(key) for raw in in_bad) != found):
                return None  # some line holds this key twice
            continue
        # A typed value: one scan finds each occurrence of the key and, when the object after it
        # holds exactly two colons before its "}", that object (its two members).
        for scan in scans:
            hits = scan(text)
            occurrences, two = len(hits), len(hits) - hits.count(b"")
            for raw in in_bad:
                hits = scan(raw)
                occurrences, two = occurrences - len(hits), two - (len(hits) - hits.count(b""))
            if occurrences == found:
                break
        else:
            return None  # some line holds this key twice
        if two != typed_found:
            return None  # a typed value with more than two members
    if raw_mode:
        fs.TYPED_MADE.clear()  # made by values_decode: nothing reads them
    # The next chunk is decoded with its properties raw when this one held typed values on the path.
    s.typed_seen = any_typed
    size = len(recs)
    t, f, a = kernel.masks(columns)
    b = Batch()
    b.lines = size
    if a or bad:
        for i in bad:
            a |= 1 << (8 * i)
        keep = ~a
        t, f = t & keep, f & keep
    chosen = bytearray(t.to_bytes(size, "little"))
    true, false = chosen.count(1), f.to_bytes(size, "little").count(1)
    unknown = size - true - false
    if a:
        if lines is None:
            lines = chunk_lines(text)  # a line to judge alone: the chunk cut after all
        # The lines the columns could not decide (or failed their decode): judged alone.
        asked = a.to_bytes(size, "little")
        errors = b.errors
        index = asked.find(1)
        while index != -1:
            unknown -= 1
            raw = lines[index]
            if not is_blank(raw):  # a blank line is no record
                result, error = judge(s, raw)
                if error is not None:
                    errors.append((index, raw, error.field, error.reason))
                elif result is True:
                    chosen[index] = 1
                    true += 1
                elif result is False:
                    false += 1
                else:
                    unknown += 1
            index = asked.find(1, index + 1)
    b.true, b.false, b.unknown = true, false, unknown
    b.rejected = len(b.errors)
    b.read = true + false + unknown + b.rejected
    b.selected = true
    if true and (s.keep_lines or not s.discard):
        if lines is None:
            lines = chunk_lines(text)  # the lines selected are wanted: the chunk cut after all
        if s.keep_lines:
            b.kept = list(compress(enumerate(lines), chosen))
        elif not s.discard:
            out = list(compress(lines, chosen))
            out.append(b"")
            b.out = b"\n".join(out)
    return b


__all__ = ["process", "process_uncut"]

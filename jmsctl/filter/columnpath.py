"""A chunk decoded by one ``map`` and judged by columns: the default mode without its per-line
loop, for a selector with a column kernel (``jmsctl.filter.columns``). The proofs of
``jmsctl.filter.partial`` (each record's ``headers`` / ``properties`` made once, each path key's
occurrences, each typed value's two members) are counted for the whole chunk; a chunk that a
count cannot prove (a repeated key somewhere, a typed String, ``\\u`` escapes or invalid UTF-8)
goes back to the per-line loop (``pathdecode``)."""

from __future__ import annotations

from typing import Any

from msgspec import UNSET

from jmsctl.filter import schema as fs
from jmsctl.filter.batch import NOT_TRUE, Batch
from jmsctl.filter.columns import ASK
from jmsctl.filter.partial import has_escape, utf8
from jmsctl.filter.setup import Setup
from jmsctl.filter.view import TYPED
from jmsctl.filter.whole import DECODE_ERRORS, judge
from jmsctl.messages.loader import is_blank


def process(s: Setup, lines: list[bytes], text: bytes) -> Batch | None:
    """``pathdecode.process`` without its per-line loop, for a selector with a kernel
    (``filter.columns``): every line decoded by one ``map``, the proofs of ``filter.partial``
    counted for the whole chunk, the verdicts from the columns. None: a count does not prove
    every line (a repeated key somewhere, a typed String, ``\\u`` escapes or invalid UTF-8):
    the per-line loop decides the chunk. A line that fails its decode or that the kernel
    ASKs for is judged alone (``whole.judge``), as the per-line loop judges it."""
    part, kernel = s.partial, s.kernel
    assert part is not None and kernel is not None
    if has_escape(text) is not None or not (text.isascii() or utf8(text)):
        return None
    decode, made = part.decode, part.made
    unset = UNSET
    made.clear()
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
    props = [unset if r is None else r.properties for r in recs]
    with_props = len(props) - props.count(unset)
    if len(made) != with_props:
        return None  # "properties" twice on some line
    found = 0
    columns: list[list[Any]] = []
    for name in kernel.names:
        col = [unset if p is unset else getattr(p, name) for p in props]
        found += len(col) - col.count(unset)
        columns.append(col)
    tstring, typed = fs.TString, TYPED
    typed_found = 0
    for col in columns:
        kinds = list(map(type, col))
        if tstring in kinds:
            return None
        typed_found += sum(map(kinds.count, typed))
    in_bad = [lines[i] for i in bad]
    keys = part.keys
    if not typed_found:
        # No typed value on the path: the keys counted (a superset first, "weight without its
        # closing quote: a faster search; then the key exactly).
        for counted in ([key[:-1] for key in keys], keys):
            if sum(map(text.count, counted)) - sum(raw.count(key) for raw in in_bad for key in counted) == found:
                break
        else:
            return None  # some line holds an identifier's key twice
    else:
        for exact in (False, True):
            occurrences = two = 0
            for scans in s.key_scans:
                scan = scans[exact]
                for where in (text, *in_bad):
                    hits = scan(where)
                    sign = 1 if where is text else -1
                    occurrences += sign * len(hits)
                    two += sign * (len(hits) - hits.count(b""))
            if occurrences == found:
                break
        else:
            return None  # some line holds an identifier's key twice
        if two != typed_found:
            return None  # a typed value with more than two members
    verdicts = kernel.verdicts(columns)
    for i in bad:
        verdicts[i] = ASK
    b = Batch()
    b.lines = len(lines)
    if ASK in verdicts:
        errors = b.errors
        index = -1
        for v in verdicts:
            index += 1
            if v is ASK:
                raw = lines[index]
                if is_blank(raw):
                    verdicts[index] = NOT_TRUE  # no record
                    continue
                result, error = judge(s, raw)
                if error is not None:
                    errors.append((index, raw, error.field, error.reason))
                    verdicts[index] = NOT_TRUE
                    continue
                verdicts[index] = result
    b.true, b.false, b.unknown = verdicts.count(True), verdicts.count(False), verdicts.count(None)
    b.rejected = len(b.errors)
    b.read = b.true + b.false + b.unknown + b.rejected
    b.selected = b.true
    if b.true and not (s.discard and not s.keep_lines):
        if s.keep_lines:
            b.kept = [(i, lines[i]) for i, v in enumerate(verdicts) if v is True]
        elif not s.discard:
            chosen = [raw for raw, v in zip(lines, verdicts, strict=True) if v is True]
            chosen.append(b"")
            b.out = b"\n".join(chosen)
    return b


__all__ = ["process"]

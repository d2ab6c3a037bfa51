"""Lines decoded along the selector's paths only (``jmsctl.filter.partial``), one at a time: the
default mode's per-line loop, for the chunks the column path (``columnpath``) does not take. The
view is built here as ``view.view_function`` builds it (inlined: this loop is the default
filter's time); a line the path decode cannot vouch for is judged whole (``whole.judge``)."""

from __future__ import annotations

from typing import Any

from msgspec import UNSET

from jmsctl.filter import columnpath
from jmsctl.filter import schema as fs
from jmsctl.filter.batch import Batch
from jmsctl.filter.partial import has_escape, utf8
from jmsctl.filter.setup import Setup
from jmsctl.filter.view import CONVERT, DELIVERY_VIEW, EXACT_TYPED, HEADER_TYPE, TYPED
from jmsctl.filter.whole import DECODE_ERRORS, Refused, judge
from jmsctl.messages.loader import is_blank
from jmsctl.values import STRING


def process(s: Setup, lines: list[bytes], text: bytes, per_line: bool = False) -> Batch:
    """Every line decoded along the selector's paths only (``filter.partial``); a line it
    cannot vouch for is judged by ``whole.judge`` (the whole record validated, or the plain path's
    rejection). ``text``: the lines, joined (the chunk), in which the identifiers' keys are
    counted: when the count proves no line holds one twice, the Batch stands; otherwise the
    chunk is done again with the keys counted line by line (``per_line``). The view is built
    here, as ``view_function`` builds it: this loop is the default filter's time."""
    part = s.partial
    assert part is not None
    if s.kernel is not None and not per_line:
        done = columnpath.process(s, lines, text)
        if done is not None:
            return done
    decode, keys, made = part.decode, part.keys, part.made
    hspec = tuple((name, HEADER_TYPE.get(name), DELIVERY_VIEW if name == "JMSDeliveryMode" else None) for name in part.headers)
    pspec = tuple((name, f"properties.{name}", key) for name, key in zip(part.properties, keys[len(hspec) :], strict=True))
    fn, possible, sure = s.fn, s.view_possible, s.view_sure
    typed, tstring, unset, convert, string, clear = TYPED, fs.TString, UNSET, CONVERT, STRING, made.clear
    exact_types = EXACT_TYPED
    discard = s.discard and not s.keep_lines
    escapes = has_escape(text)
    valid = text.isascii() or utf8(text)
    suspect = escapes or not valid  # then each line is looked at for a \u escape and its UTF-8
    b = Batch()
    errors, kept = b.errors, b.kept
    keep = s.keep_lines
    true = false = unknown = rejected = skipped = 0
    out: list[bytes] = []
    found = 0  # identifiers' keys found by the decodes
    index = -1
    for raw in lines:
        index += 1
        try:
            if suspect and ((escapes and b"\\u" in raw) or not (raw.isascii() or utf8(raw))):
                raise Refused
            clear()
            rec = decode(raw)
            view: dict[str, Any] = {}
            k = parts = 0
            if hspec:
                h = rec.headers
                if h is not unset:
                    parts = 1
                    for name, jtype, table in hspec:
                        v = getattr(h, name)
                        if v is not unset:
                            k += 1
                            if v is not None:
                                view[name] = (jtype, v) if table is None else table[v]
            if pspec:
                p = rec.properties
                if p is not unset:
                    parts += 1
                    for name, where, key in pspec:
                        v = getattr(p, name)
                        if v is not unset:
                            k += 1
                            t = type(v)
                            if t is str:
                                view[name] = (string, v)
                            elif v is not None:
                                if t in typed:
                                    # A typed value with a key twice? Its key, once on the line, then
                                    # up to its "}" (none inside: a tag and a number or boolean), hold
                                    # three colons exactly when the object has two keys.
                                    if t is tstring:
                                        raise Refused  # a string may hold a "}"
                                    at = raw.find(key)
                                    if raw.count(b":", at, raw.find(b"}", at)) != 3:
                                        raise Refused
                                    jt = exact_types.get(t)
                                    if jt is not None:
                                        view[name] = (jt, v.value)
                                        continue
                                view[name] = convert[t](v, where)
            if len(made) != parts or (per_line and sum(map(raw.count, keys)) != k):
                raise Refused  # "headers" or "properties" twice, or an identifier's key
            found += k
            if possible is not None and not possible(view):
                skipped += 1
                continue
            result = True if sure is not None and sure(view) else fn(view.get)
        except DECODE_ERRORS:
            if is_blank(raw):
                continue
            if not per_line:
                found += sum(map(raw.count, keys))
            result, error = judge(s, raw)
            if error is not None:
                rejected += 1
                errors.append((index, raw, error.field, error.reason))
                continue
        if result is True:
            true += 1
            if discard:
                continue
            if keep:
                kept.append((index, raw))
            else:
                out.append(raw)
        elif result is False:
            false += 1
        else:
            unknown += 1
    fs.TYPED_MADE.clear()
    # Each key occurs at least once in a line whose decode found it: equal totals mean exactly once.
    # (``filter.keycount``: without the C part, a superset is counted first, then the keys themselves.)
    if not per_line and keys and sum(count(text) for count in s.key_counts) != found and (s.counts_exact or sum(map(text.count, keys)) != found):
        return process(s, lines, text, per_line=True)
    b.lines = len(lines)
    b.read = true + false + unknown + rejected + skipped
    b.true, b.false, b.unknown, b.rejected, b.selected, b.skipped = true, false, unknown, rejected, true, skipped
    if out and not s.discard:
        out.append(b"")
        b.out = b"\n".join(out)
    return b


__all__ = ["process"]

"""The fast filter of NDJSON chunks: the same selections, counts and rejections as the plain path
(``loader`` + ``decode_message`` + ``Message.selector_values``), with less work per line.

Per line, in order:

1. **Prefilter** (``jmsctl.prefilter``), only when rejections are neither reported nor counted
   (``--skip-invalid`` without ``--stats`` and ``--invert``): a line that provably cannot be
   selected is then not parsed at all; the lines that may be selected are found by searching the
   whole chunk for the literals. Otherwise every line must be told valid or rejected anyway, and a
   per-line substring test costs about what it would save (the view and the evaluation), so
   every line is decoded and evaluated.
2. **Validating decode** with msgspec into ``_Record``, a Struct type that spells out FORMAT.md:
   unknown keys, header types and ranges, property values (bare, or typed with the range of their
   type), the body's JSON shape. Every byte of the line is decoded by it (no field is skipped), so
   its JSON syntax, UTF-8 and number ranges are checked too. A few cross-field rules are checked
   in Python after it (the body against ``type``, base64 with the loader's own ``_base64``).
   The schema is *at least as strict* as ``decode_message``: where the two could differ
   (a duplicate key whose earlier value is invalid, an integer beyond long, a float next to
   Float.MAX_VALUE), it refuses, and a refusal is never a verdict:
3. **The plain path** decides every line the fast decode refused: ``loader._line`` parses and
   decodes it exactly as ``read_records`` does, with the same error. So a line is rejected exactly
   when the plain path rejects it, with the same field and reason.
4. **The selector view** of an accepted line holds only the identifiers the selector reads, built
   with the model's rules (headers in their selector types, properties shadowed by header names
   left out) and each property value decoded by ``decode.decode_value``.

tests/test_fastpath.py compares the two paths on the samples and on lines built to defeat each step.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Optional, Union

import msgspec
from msgspec import Meta, Struct

from jmsctl.messages.decode import AmbiguousNumber, RecordError, _base64, decode_value
from jmsctl.messages.loader import _line
from jmsctl.messages.model import DELIVERY_MODES
from jmsctl.prefilter import line_test, needles
from jmsctl.selector import Selector
from jmsctl.selector import nodes as n
from jmsctl.values import FLOAT_MAX, INT, LONG, LONG_MAX, LONG_MIN, STRING

# ----- the validating schema (at least as strict as decode_message) ------------------------------

_Long = Annotated[int, Meta(ge=LONG_MIN, le=LONG_MAX)]
_Special = Literal["NaN", "Infinity", "-Infinity"]
# |v| <= this rounds to a finite float32 for certain; larger floats go to the plain path.
_F32_SAFE = math.nextafter(FLOAT_MAX, 0.0)


class _Headers(Struct, forbid_unknown_fields=True, gc=False):
    JMSMessageID: Optional[str] = None  # noqa: UP045 - msgspec reads these annotations at run time
    JMSTimestamp: Optional[_Long] = None  # noqa: UP045
    JMSCorrelationID: Optional[str] = None  # noqa: UP045
    JMSType: Optional[str] = None  # noqa: UP045
    JMSDeliveryMode: Optional[Literal[1, 2, "PERSISTENT", "NON_PERSISTENT"]] = None  # noqa: UP045
    JMSPriority: Optional[Annotated[int, Meta(ge=0, le=9)]] = None  # noqa: UP045
    JMSDestination: Optional[str] = None  # noqa: UP045
    JMSReplyTo: Optional[str] = None  # noqa: UP045
    JMSExpiration: Optional[_Long] = None  # noqa: UP045
    JMSDeliveryTime: Optional[_Long] = None  # noqa: UP045
    JMSRedelivered: Optional[bool] = None  # noqa: UP045


class _TBoolean(Struct, tag_field="type", tag="boolean", forbid_unknown_fields=True, gc=False):
    value: bool


class _TByte(Struct, tag_field="type", tag="byte", forbid_unknown_fields=True, gc=False):
    value: Annotated[int, Meta(ge=-(1 << 7), le=(1 << 7) - 1)]


class _TShort(Struct, tag_field="type", tag="short", forbid_unknown_fields=True, gc=False):
    value: Annotated[int, Meta(ge=-(1 << 15), le=(1 << 15) - 1)]


class _TInt(Struct, tag_field="type", tag="int", forbid_unknown_fields=True, gc=False):
    value: Annotated[int, Meta(ge=-(1 << 31), le=(1 << 31) - 1)]


class _TLong(Struct, tag_field="type", tag="long", forbid_unknown_fields=True, gc=False):
    value: _Long


class _TFloat(Struct, tag_field="type", tag="float", forbid_unknown_fields=True, gc=False):
    value: Union[_Long, Annotated[float, Meta(ge=-_F32_SAFE, le=_F32_SAFE)], _Special]  # noqa: UP007


class _TDouble(Struct, tag_field="type", tag="double", forbid_unknown_fields=True, gc=False):
    value: Union[_Long, float, _Special]  # noqa: UP007


class _TString(Struct, tag_field="type", tag="string", forbid_unknown_fields=True, gc=False):
    value: str


class _TBytes(Struct, tag_field="type", tag="bytes", forbid_unknown_fields=True, gc=False):
    value: str  # base64, checked in Python with the loader's own rule


_TYPED = (_TBoolean, _TByte, _TShort, _TInt, _TLong, _TFloat, _TDouble, _TString)
_TAG: dict[type, str] = {cls: cls.__struct_config__.tag for cls in _TYPED}  # type: ignore[misc]

_Property = Union[str, bool, _Long, float, None, _TBoolean, _TByte, _TShort, _TInt, _TLong, _TFloat, _TDouble, _TString]  # noqa: UP007
_BodyValue = Union[str, bool, _Long, float, _TBoolean, _TByte, _TShort, _TInt, _TLong, _TFloat, _TDouble, _TString, _TBytes]  # noqa: UP007


class _Record(Struct, forbid_unknown_fields=True, gc=False):
    type: Optional[Literal["message", "text", "bytes", "map", "stream", "object"]] = None  # noqa: UP045
    headers: _Headers = msgspec.field(default_factory=_Headers)
    properties: dict[str, _Property] = msgspec.field(default_factory=dict)
    body: Union[str, dict[str, _BodyValue], list[_BodyValue], None] = None  # noqa: UP007


_decode_record = msgspec.json.Decoder(_Record).decode


class _Refused(Exception):
    """The fast decode will not vouch for this line: the plain path decides."""


def _body_ok(kind: str | None, body: Any) -> bool:
    """The cross-field rules of decode._decode_body for a non-null body whose JSON shape the
    schema already checked (True: the plain path would accept it)."""
    if kind is None or kind == "text":
        return type(body) is str
    if kind == "bytes" or kind == "object":
        if type(body) is not str:
            return False
        try:
            _base64(body, "body")
        except RecordError:
            return False
        return True
    values: Any
    if kind == "map":
        if type(body) is not dict:
            return False
        values = body.values()
    elif kind == "stream":
        if type(body) is not list:
            return False
        values = body
    else:  # "message": no body allowed
        return False
    for v in values:
        if type(v) is _TBytes:
            try:
                _base64(v.value, "body")
            except RecordError:
                return False
    return True


def fast_decode(raw: bytes) -> _Record:
    """The validating decode alone (for tests): a _Record, or _Refused / a msgspec error."""
    rec = _decode_record(raw)
    if rec.body is not None and not _body_ok(rec.type, rec.body):
        raise _Refused
    return rec


# ----- the selector view of a decoded record ---------------------------------------------------


def property_value(v: Any, where: str) -> Any:
    """A property value of the schema -> (JType, value), by decode.decode_value."""
    tag = _TAG.get(type(v))
    if tag is not None:
        return decode_value({"type": tag, "value": v.value}, where)
    return decode_value(v, where)


def identifiers(selector: Selector) -> tuple[str, ...]:
    if selector.ast is None:
        return ()
    return tuple(dict.fromkeys(node.name for node in n.walk(selector.ast) if isinstance(node, n.Identifier)))


_HEADER_VIEW: dict[str, Callable[[Any], Any]] = {
    "JMSMessageID": lambda v: (STRING, v),
    "JMSCorrelationID": lambda v: (STRING, v),
    "JMSType": lambda v: (STRING, v),
    "JMSDeliveryMode": lambda v: (STRING, DELIVERY_MODES[v]),
    "JMSPriority": lambda v: (INT, v),
    "JMSTimestamp": lambda v: (LONG, v),
}


def view_function(names: tuple[str, ...]) -> Callable[[_Record], dict[str, Any]]:
    """record -> {name: (JType, value)} for just these names, as Message.selector_values() would
    give them: headers in their selector types, a property named like a header left out."""
    headers = tuple((name, _HEADER_VIEW[name]) for name in names if name in n.HEADERS)
    props = tuple((name, f"properties.{name}") for name in names if name not in n.HEADERS)

    def view_of(rec: _Record) -> dict[str, Any]:
        view: dict[str, Any] = {}
        if headers:
            h = rec.headers
            for name, conv in headers:
                v = getattr(h, name)
                if v is not None:
                    view[name] = conv(v)
        p = rec.properties
        for name, where in props:
            v = p.get(name)
            if v is not None:
                view[name] = (STRING, v) if type(v) is str else property_value(v, where)
        return view

    return view_of


# ----- one chunk of lines -------------------------------------------------------------------------


@dataclass
class Batch:
    """What one chunk of NDJSON lines gave. Line indexes count from 0 at the chunk's first line;
    the caller, who knows where the chunk starts, turns them into line numbers."""

    lines: int = 0  # physical lines consumed (blank ones included)
    read: int = 0
    true: int = 0
    false: int = 0
    unknown: int = 0
    rejected: int = 0
    skipped: int = 0  # proved not TRUE by the prefilter, not classified further
    selected: int = 0
    out: bytes = b""  # the selected lines, each followed by b"\n" (when not keep_lines)
    kept: list[tuple[int, bytes]] = field(default_factory=list)  # (index, line) of the selected (keep_lines)
    errors: list[tuple[int, bytes, str, str]] = field(default_factory=list)  # (index, line, field, reason)
    stopped: bool = False  # max_count reached: nothing after the last selected line was read


_NOT_TRUE = object()  # a prefiltered line: FALSE or UNKNOWN, not told apart
# ValueError: msgspec's DecodeError and ValidationError, and UnicodeDecodeError (invalid UTF-8 in a key).
_DECODE_ERRORS = (ValueError, _Refused, AmbiguousNumber, RecordError, KeyError)

class Engine:
    """Selection of NDJSON chunks for one selector and one set of options.

    ``exact``: every line is classified TRUE / FALSE / UNKNOWN / rejected (``--stats``);
    otherwise a prefiltered line counts as ``skipped``. ``skip_invalid``: rejected lines need not be
    found (with neither ``exact`` nor ``invert``, a prefiltered line is then not parsed at all).
    """

    def __init__(
        self,
        selector: Selector,
        *,
        invert: bool = False,
        exact: bool = True,
        skip_invalid: bool = False,
        keep_lines: bool = False,
        name: str = "<stdin>",
        prefilter: bool = True,
    ) -> None:
        self.selector = selector
        self.invert = invert
        self.exact = exact
        self.keep_lines = keep_lines
        self.name = name
        self._fn = selector._fn  # evaluate() without the bound-method hop: called once per line
        groups = needles(selector.ast) if prefilter and not exact else ()
        self._groups = groups
        self._skip = bool(groups) and skip_invalid and not invert
        # Per line, a substring test costs about what building the view and evaluating saves, so
        # the prefilter is used only where it saves the decode: lines skipped unparsed.
        self._test = line_test(groups) if self._skip else None
        self._view = view_function(identifiers(selector))

    # The plain path for one line: exactly what read_records + select would do with it.
    def _plain(self, raw: bytes) -> tuple[Any, RecordError | None]:
        record = _line(self.name, 0, raw)
        if record.message is None:
            assert record.error is not None
            return None, record.error
        return self._fn(record.message.selector_values().get), None

    def process(self, chunk: bytes, max_count: int | None = None) -> Batch:
        """Select from a chunk of whole lines (the last may lack its b"\\n" at the end of a file).
        With ``max_count`` it stops after that many selected lines: ``lines`` then counts only
        the lines read."""
        if self._skip and max_count is None:
            return self._process_skipping(chunk)
        lines = chunk.split(b"\n")
        if chunk.endswith(b"\n"):
            lines.pop()
        if b"\r" in chunk:
            lines = [line.rstrip(b"\r") for line in lines]
        if self._test is None:
            return self._process_all(lines, max_count)
        return self._process_lines(lines, False, max_count)

    def _process_all(self, lines: list[bytes], max_count: int | None) -> Batch:
        """Every line decoded and evaluated (the loop of _process_lines without the prefilter)."""
        b = Batch()
        errors, kept = b.errors, b.kept
        decode, body_ok, view_of, fn, plain = _decode_record, _body_ok, self._view, self._fn, self._plain
        invert, keep = self.invert, self.keep_lines
        true = false = unknown = rejected = selected = 0
        out: list[bytes] = []
        append = kept.append if keep else out.append
        stopped = False
        index = -1
        for index, raw in enumerate(lines):
            try:
                rec = decode(raw)
                body = rec.body
                if body is not None:
                    kind = rec.type
                    if (type(body) is not str or (kind is not None and kind != "text")) and not body_ok(kind, body):
                        raise _Refused
                result = fn(view_of(rec).get)
            except _DECODE_ERRORS:
                if not raw.strip():
                    continue  # a blank line is no record
                result, error = plain(raw)
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
        b.lines = index + 1 if stopped else len(lines)
        b.read = true + false + unknown + rejected
        b.true, b.false, b.unknown, b.rejected, b.selected = true, false, unknown, rejected, selected
        b.stopped = stopped
        if out:
            out.append(b"")
            b.out = b"\n".join(out)
        return b

    def _process_lines(self, lines: list[bytes], strip_cr: bool, max_count: int | None, first: int = 0) -> Batch:
        b = Batch()
        errors, kept = b.errors, b.kept
        decode, body_ok, view_of, fn, test, plain = _decode_record, _body_ok, self._view, self._fn, self._test, self._plain
        skip, invert, keep = self._skip, self.invert, self.keep_lines
        read = true = false = unknown = rejected = skipped = selected = 0
        out: list[bytes] = []
        index = first - 1
        stopped = False
        for raw in lines:
            index += 1
            if strip_cr:
                raw = raw.rstrip(b"\r")
            candidate = test is None or test(raw)
            if skip and not candidate:
                if raw.strip():
                    read += 1
                    skipped += 1
                continue
            try:
                rec = decode(raw)
                body = rec.body
                if body is not None:
                    kind = rec.type
                    if (type(body) is not str or (kind is not None and kind != "text")) and not body_ok(kind, body):
                        raise _Refused
                result = fn(view_of(rec).get) if candidate else _NOT_TRUE
            except _DECODE_ERRORS:
                if not raw.strip():
                    continue  # a blank line is no record
                result, error = plain(raw)
                if error is not None:
                    read += 1
                    rejected += 1
                    errors.append((index, raw, error.field, error.reason))
                    continue
                if not candidate:
                    if result is True:  # pragma: no cover - the prefilter is sound
                        raise AssertionError(f"the prefilter excluded a selected line: {raw!r}") from None
                    result = _NOT_TRUE
            read += 1
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
        if out:
            out.append(b"")
            b.out = b"\n".join(out)
        return b

    def _process_skipping(self, chunk: bytes) -> Batch:
        """Rejections neither reported nor counted: only the lines that contain a needle or an
        escape marker are looked at; the others are counted as records and skipped unparsed."""
        g = self._groups[0]
        spans: set[tuple[int, int]] = set()
        size = len(chunk)
        for pattern in (*g.needles, g.marker):
            pos = chunk.find(pattern)
            while pos != -1:
                start = chunk.rfind(b"\n", 0, pos) + 1
                end = chunk.find(b"\n", pos)
                if end == -1:
                    end = size
                spans.add((start, end))
                pos = chunk.find(pattern, end)
        total = Batch()
        total.lines = chunk.count(b"\n") + (0 if chunk.endswith(b"\n") or not chunk else 1)
        records = _count_records(chunk)
        if not spans:
            total.read = total.skipped = records
            return total
        parts: list[bytes] = []
        index_of = 0
        last = 0
        looked = 0
        for start, end in sorted(spans):
            index_of += chunk.count(b"\n", last, start)
            last = start
            line = chunk[start:end]
            sub = self._process_lines([line], True, None, index_of)
            looked += sub.read
            total.read += sub.read
            total.true += sub.true
            total.false += sub.false
            total.unknown += sub.unknown
            total.rejected += sub.rejected
            total.skipped += sub.skipped
            total.selected += sub.selected
            if sub.out:
                parts.append(sub.out)
            total.kept += sub.kept
            total.errors += sub.errors
        total.read += records - looked
        total.skipped += records - looked
        total.out = b"".join(parts)
        return total


def _count_records(chunk: bytes) -> int:
    """Non-blank lines of a chunk, as the loader counts records."""
    if not chunk:
        return 0
    lines = chunk.count(b"\n") + (0 if chunk.endswith(b"\n") else 1)
    if chunk.count(b"\n{") + (chunk[:1] == b"{") == lines:
        return lines  # every line starts with '{': none is blank
    parts = chunk.split(b"\n")
    if chunk.endswith(b"\n"):
        parts.pop()
    return sum(1 for p in parts if p.strip())


__all__ = ["Batch", "Engine", "fast_decode", "identifiers", "property_value", "view_function"]

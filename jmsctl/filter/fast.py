"""The fast filter of NDJSON chunks: the same selections, counts and rejections as the plain path
(``loader`` + ``decode_message`` + ``Message.selector_values``), with less work per line.

Per line, in order:

1. **Prefilter** (``FilterPlan.must_contain``, ``jmsctl.filter.plan``), unless every line must be classified (``exact``:
   ``--stats``), validated (``validate_all``) or may be selected (``invert``): a line that provably
   cannot be selected is not parsed at all. The lines that may be selected are found by searching
   the whole chunk for the literals; the others are counted as records, ``skipped``. A broken
   record among them is not selected, as the plain path would not select it, but it is not found
   either: rejections are those of the lines parsed.
2. **Validating decode** with msgspec (``jmsctl.filter.schema``: the whole record, body by message
   type, at least as strict as ``decode_message``), then a **proof that no key repeats** (the
   loader rejects repeated keys): the line's ``":`` against the members the decode kept, and the
   exact scan of ``jsonkeys`` only when that count does not prove it.
3. **The plain path** decides every line the fast decode refused or could not prove free of
   repeated keys: ``loader.judge_line`` parses and decodes it exactly as ``read_records`` does, with the
   same error. So a line is rejected exactly when the plain path rejects it, with the same field
   and reason. A line over the maximum record size is rejected with the loader's own words.
4. **Shortcuts from the decoded values**: a String that the selector's TRUE requires and that is
   not there rules TRUE out (``possible_function``, when FALSE and UNKNOWN need not be told apart);
   a String that one disjunct of a top-level OR makes TRUE makes the whole TRUE
   (``sure_function``, the Jakarta reading). Either spares the view and the evaluation.
5. **The selector view** of an accepted line holds only the identifiers the selector reads, built
   with the model's rules (headers in their selector types, properties shadowed by header names
   left out) and each property value converted as ``decode.decode_value`` converts it.

In the default mode, a selector that reads one or two properties and no header skips the per-line
loop of steps 2-5 (``Engine._process_columns``): the chunk's lines decoded by one ``map``, the path
proofs counted for the chunk, the verdicts from the columns of values (``jmsctl.filter.columns``);
a chunk that a count cannot prove goes through the per-line loop.

tests/test_fastpath.py compares the two paths on the samples and on lines built to defeat each step;
tests/test_columns.py the column path.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from msgspec import UNSET
from msgspec.structs import astuple

from jmsctl.filter import schema as fs
from jmsctl.filter.columns import ASK, kernel_for
from jmsctl.filter.partial import partial_for
from jmsctl.filter.plan import FilterPlan, chunk_scanner, line_test
from jmsctl.messages.decode import SPECIAL_FLOATS, AmbiguousNumber, RecordError, decode_value
from jmsctl.messages.jsonkeys import has_duplicate_key
from jmsctl.messages.loader import is_blank, judge_line, record_too_large
from jmsctl.messages.model import DELIVERY_MODES
from jmsctl.selector import Selector
from jmsctl.selector import nodes as n
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, INT, LONG, SHORT, STRING


class _Refused(Exception):
    """The fast path will not vouch for this line: the plain path decides."""


# ----- the selector view of a decoded record ---------------------------------------------------


def _typed_value(tag: str) -> Callable[[Any, str], Any]:
    def convert(v: Any, where: str) -> Any:
        return decode_value({"type": tag, "value": v.value}, where)

    return convert


# A schema value -> (JType, value), as decode.decode_value gives it. The schema has checked the
# ranges of typed integers already; floating typed values go through decode_value (float32 rounding).
_CONVERT: dict[type, Callable[[Any, str], Any]] = {
    str: lambda v, where: (STRING, v),
    bool: lambda v, where: (BOOLEAN, v),
    int: decode_value,  # INT or LONG by range
    float: decode_value,  # DOUBLE, or AmbiguousNumber (a written integer beyond long?): the plain path
    fs.TBoolean: lambda v, where: (BOOLEAN, v.value),
    fs.TByte: lambda v, where: (BYTE, v.value),
    fs.TShort: lambda v, where: (SHORT, v.value),
    fs.TInt: lambda v, where: (INT, v.value),
    fs.TLong: lambda v, where: (LONG, v.value),
    fs.TFloat: _typed_value("float"),
    fs.TDouble: lambda v, where: (DOUBLE, float(v.value) if type(v.value) is not str else SPECIAL_FLOATS[v.value]),
    fs.TString: lambda v, where: (STRING, v.value),
}


def property_value(v: Any, where: str) -> Any:
    """A property value of the schema -> (JType, value), as decode.decode_value gives it."""
    return _CONVERT[type(v)](v, where)


# A header's selector type; JMSDeliveryMode reads 1 / 2 as its String names, by a table.
_HEADER_TYPE: dict[str, Any] = {"JMSMessageID": STRING, "JMSCorrelationID": STRING, "JMSType": STRING, "JMSPriority": INT, "JMSTimestamp": LONG,
                                # read only under a broker dialect (the checker rejects them otherwise): Message.selector_values() too
                                "JMSExpiration": LONG, "JMSRedelivered": BOOLEAN, "JMSDestination": STRING, "JMSReplyTo": STRING}
_VIEW_HEADERS = frozenset(_HEADER_TYPE) | {"JMSDeliveryMode"}
_BROKER_ONLY = frozenset(_VIEW_HEADERS - set(n.HEADERS))
_DELIVERY_VIEW: dict[Any, Any] = {written: (STRING, name) for written, name in DELIVERY_MODES.items()}


def view_function(names: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    """record -> {name: (JType, value)} for just these names, as Message.selector_values() would
    give them: headers in their selector types, a property named like a header left out."""
    headers = tuple((name, _HEADER_TYPE.get(name), _DELIVERY_VIEW if name == "JMSDeliveryMode" else None) for name in names if name in _VIEW_HEADERS)
    props = tuple((name, f"properties.{name}") for name in names if name not in _VIEW_HEADERS)
    convert = _CONVERT
    # This runs for every line: the usual selector reads one header and one or two properties,
    # and those are read without a loop (a third of the view's time).
    h0, h0_type, h0_table = headers[0] if len(headers) == 1 else ("", None, None)
    p0, p0_where = props[0] if 1 <= len(props) <= 2 else ("", "")
    p1, p1_where = props[1] if len(props) == 2 else ("", "")
    loop_headers = len(headers) > 1
    loop_props = len(props) > 2

    def view_of(rec: Any) -> dict[str, Any]:
        view: dict[str, Any] = {}
        if h0:
            h = rec.headers
            if h is not UNSET:
                v = getattr(h, h0)
                if v is not None and v is not UNSET:
                    view[h0] = (h0_type, v) if h0_table is None else h0_table[v]
        elif loop_headers:
            h = rec.headers
            if h is not UNSET:
                for name, jtype, table in headers:
                    v = getattr(h, name)
                    if v is not None and v is not UNSET:
                        view[name] = (jtype, v) if table is None else table[v]
        if p0:
            p = rec.properties
            if p is not UNSET:
                v = p.get(p0)
                if v is not None:
                    view[p0] = (STRING, v) if type(v) is str else convert[type(v)](v, p0_where)
                if p1:
                    v = p.get(p1)
                    if v is not None:
                        view[p1] = (STRING, v) if type(v) is str else convert[type(v)](v, p1_where)
        elif loop_props:
            p = rec.properties
            if p is not UNSET:
                for name, where in props:
                    v = p.get(name)
                    if v is not None:
                        view[name] = (STRING, v) if type(v) is str else convert[type(v)](v, where)
        return view

    fallback = tuple((name, f"properties.{name}") for name in names if name in _BROKER_ONLY)
    if not fallback:
        return view_of

    def view_with_properties(rec: Any) -> dict[str, Any]:
        # A broker dialect's header name (JMSExpiration, ...): the header, else a property so named,
        # as Message.selector_values() gives it.
        view = view_of(rec)
        p = rec.properties
        for name, where in fallback:
            if name not in view and p is not UNSET:
                v = p.get(name)
                if v is not None:
                    view[name] = (STRING, v) if type(v) is str else convert[type(v)](v, where)
        return view

    return view_with_properties


def _string_rule(checks: tuple[tuple[str, bool, frozenset[str], bool], ...], any_hit: bool) -> Callable[[Any], bool]:
    """record -> bool from (identifier, inside, strings, is a header) checks on decoded values: a
    check hits when the value is a String that is (``inside``) or is not among the strings.
    ``any_hit``: True as soon as one check hits, else False; otherwise False as soon as one
    misses, else True."""
    tstring = fs.TString

    def rule(rec: Any) -> bool:
        for name, inside, strings, header in checks:
            if header:
                h = rec.headers
                v = None if h is UNSET else getattr(h, name)
            else:
                p = rec.properties
                v = None if p is UNSET else p.get(name)
            if type(v) is not str:
                if type(v) is not tstring:
                    if any_hit:
                        continue
                    return False
                v = v.value
            if ((v in strings) is inside) is any_hit:
                return any_hit
        return not any_hit

    return rule


def _view_rule(checks: tuple[Any, ...], inside: bool | None, any_hit: bool) -> Callable[[dict[str, Any]], bool]:
    """``_string_rule`` on a selector view (``plan.required`` with ``inside`` True, or
    ``plan.sufficient`` with ``inside`` None: each check says): a String is ``(STRING, s)``
    there, from a bare or typed string alike."""
    rules = tuple((c[0], True, c[1]) if inside else (c[0], c[1], c[2]) for c in checks)

    def rule(view: dict[str, Any]) -> bool:
        for name, within, strings in rules:
            tv = view.get(name)
            if tv is None or tv[0] is not STRING:
                if any_hit:
                    continue
                return False
            if ((tv[1] in strings) is within) is any_hit:
                return any_hit
        return not any_hit

    return rule


def possible_function(plan: FilterPlan) -> Callable[[Any], bool] | None:
    """record -> False when the selector cannot be TRUE for it, read from the decoded values the
    selector requires to be certain Strings (``plan.required``); None: no such value.
    Cheaper than the view and the evaluation, for the lines that cannot be selected."""
    required = sorted(plan.required, key=lambda r: r[0] in n.HEADERS)  # properties first
    if not required:
        return None
    return _string_rule(tuple((name, True, allowed, name in n.HEADERS) for name, allowed in required), any_hit=False)


def sure_function(plan: FilterPlan) -> Callable[[Any], bool] | None:
    """record -> True when the selector is certainly TRUE for it, read from the decoded values
    that suffice (``plan.sufficient``: one disjunct of the top-level OR, a String compared with
    literals; none under the IBM reading); None: no such value. The exact result when it says
    True, cheaper than the view and the evaluation (on ``region <> 'APAC' OR ...``, most lines)."""
    sufficient = plan.sufficient
    if not sufficient:
        return None
    return _string_rule(tuple((name, inside, strings, name in n.HEADERS) for name, inside, strings in sufficient), any_hit=True)


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
    errors: list[tuple[int, bytes | None, str, str]] = field(default_factory=list)  # (index, line, field, reason)
    stopped: bool = False  # max_count reached: nothing after the last selected line was read


_NOT_TRUE = object()  # a prefiltered line: FALSE or UNKNOWN, not told apart
_MIN_NEEDLE = 3  # bytes: a shorter literal is no prefilter


_TYPED = frozenset(fs.TYPED)
# Typed values whose schema type is their selector value as it is (ranges checked by the schema).
_EXACT_TYPED = {fs.TBoolean: BOOLEAN, fs.TByte: BYTE, fs.TShort: SHORT, fs.TInt: INT, fs.TLong: LONG}
_ESCAPE = re.compile(rb"\\u").search


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
# fastschema.TYPED_MADE is one list for the process: decodes from two threads must not interleave
# between its clear() and its len(). One chunk at a time (the work holds the GIL anyway).
_DECODING = threading.RLock()
# ValueError: msgspec's DecodeError and ValidationError, and UnicodeDecodeError (invalid UTF-8 in a key);
# RecursionError: msgspec nests no deeper than the interpreter's limit (orjson reads 1,024 levels).
_DECODE_ERRORS = (ValueError, _Refused, AmbiguousNumber, RecordError, KeyError, RecursionError)


class Engine:
    """Selection of NDJSON chunks for one selector and one set of options.

    ``exact``: every line is classified TRUE / FALSE / UNKNOWN / rejected (``--stats``);
    otherwise a line shown not TRUE early counts as ``skipped``. Without ``exact``,
    ``validate_all`` and ``invert``, a line the prefilter proves not TRUE is not even parsed: its
    rejection, if it is broken, is not found (``--validate-all`` finds every one).
    ``max_record_size``: a longer line (bytes before its b"\\n") is rejected as the loader rejects it.
    """

    def __init__(
        self,
        selector: Selector,
        *,
        invert: bool = False,
        exact: bool = True,
        validate_all: bool = False,
        keep_lines: bool = False,
        discard: bool = False,
        name: str = "<stdin>",
        prefilter: bool = True,
        max_record_size: int | None = None,
        plan: FilterPlan | None = None,
        partial: bool = True,
    ) -> None:
        self.selector = selector
        # Everything the engine knows about the selector beyond its compiled form, computed once.
        self.plan = plan = FilterPlan.of(selector.ast, selector.dialect) if plan is None else plan
        self.invert = invert
        self.exact = exact
        self.keep_lines = keep_lines
        self.discard = discard  # only counts wanted (--count): the selected lines are not joined into ``out``
        self.name = name
        self.max_record_size = max_record_size
        self._fn = selector._fn  # evaluate() without the bound-method hop: called once per line
        groups = plan.must_contain if prefilter and not exact else ()
        if groups and min(map(len, groups[0].needles)) < _MIN_NEEDLE:
            groups = ()  # 'A' of LIKE 'A%' is in most lines: searching for it costs more than it skips
        self._skip = bool(groups) and not validate_all and not invert
        # Per line, a substring test costs about what building the view and evaluating saves, so
        # the prefilter is used only where it saves the decode: lines skipped unparsed.
        self._test = line_test(groups) if self._skip else None
        self._scan = chunk_scanner(groups) if self._skip else None
        self._view = view_function(plan.identifiers)
        # Without --stats and --invert, FALSE and UNKNOWN need not be told apart: a line whose
        # decoded values rule out TRUE is counted as skipped, its view never built.
        self._possible = possible_function(plan) if not exact and not invert else None
        # A line whose decoded values make the selector TRUE for certain is TRUE without the view.
        self._sure = sure_function(plan)
        # The default mode decodes only the selector's paths (filter.partial: what filter proves
        # about a line it selects); --stats, --validate-all and --invert validate whole records.
        self._partial = partial_for(plan, selector.dialect) if partial and not exact and not validate_all and not invert else None
        self._view_possible = _view_rule(plan.required, True, False) if self._partial is not None and plan.required else None
        self._view_sure = _view_rule(plan.sufficient, None, True) if self._partial is not None and plan.sufficient else None
        # One or two properties read: the chunk's verdicts from its columns of values (filter.columns).
        part = self._partial
        self._kernel = kernel_for(selector, part.headers, part.properties) if part is not None else None
        if self._kernel is not None and part is not None:
            # A typed value on the path, its key once on the line, has two members exactly when
            # its object holds two colons before its "}" (counted for the chunk).
            # One scan per key finds both: each occurrence of the key, with the typed object after it
            # when that holds two colons (else b""). The first pattern leaves out the key's opening
            # quote (a regex finds it far faster), so it also finds "xweight" and weight" ending a
            # string: when its count is the decodes' count, there is none of those; when not, the
            # exact key is counted before the per-line loop is given the chunk.
            ws = rb"[ \t\r\n]*"
            two = b"(" + ws + b":" + ws + rb"\{[^:}]*:[^:}]*:[^:}]*\})?"
            self._key_scans = tuple((re.compile(re.escape(key[1:]) + two).findall, re.compile(re.escape(key) + two).findall) for key in part.keys)

    # The plain path for one line: exactly what read_records + select would do with it.
    def _plain(self, raw: bytes) -> tuple[Any, RecordError | None]:
        record = judge_line(self.name, 0, raw)
        if record.message is None:
            assert record.error is not None
            return None, record.error
        return self._fn(record.message.selector_values().get), None

    def judge(self, raw: bytes) -> tuple[Any, RecordError | None]:
        """One non-blank line (no line terminator): (True / False / None, None), or (None, the
        rejection). What the loop of ``_process_all`` does for each line, as one call."""
        with _DECODING:
            return self._judge(raw)

    def _judge(self, raw: bytes) -> tuple[Any, RecordError | None]:
        made = fs.TYPED_MADE
        try:
            made.clear()
            rec = fs.decode(raw)
            if not fs.keys_unique(raw, rec, len(made)) and has_duplicate_key(raw):
                raise _Refused
            return self._fn(self._view(rec).get), None
        except _DECODE_ERRORS:
            return self._plain(raw)

    def process(self, chunk: bytes, max_count: int | None = None) -> Batch:
        """Select from a chunk of whole lines (the last may lack its b"\\n" at the end of a file).
        With ``max_count`` it stops after that many selected lines: ``lines`` then counts only
        the lines read."""
        with _DECODING:
            return self._process(chunk, max_count)

    def _process(self, chunk: bytes, max_count: int | None) -> Batch:
        limit = self.max_record_size
        if limit is not None and len(chunk) > limit:
            return self._process_limited(chunk, max_count, limit)
        if self._skip and max_count is None:
            return self._process_skipping(chunk)
        lines = chunk.split(b"\n")
        if chunk.endswith(b"\n"):
            lines.pop()
        if b"\r" in chunk:
            lines = [line.rstrip(b"\r") for line in lines]
        if self._partial is not None and max_count is None:
            return self._process_partial(lines, chunk)
        if self._test is not None:
            return self._process_lines(lines, max_count)
        return self._process_all(lines, max_count, _COLON_ESCAPE(chunk) is not None)

    def _process_all(self, lines: list[bytes], max_count: int | None, escapes: bool = True, first: int = 0) -> Batch:
        """Every line decoded, proved free of repeated keys, evaluated (``judge`` inlined: this
        loop is the filter's time). ``escapes``: a line may spell a colon as an escape."""
        b = Batch()
        errors, kept = b.errors, b.kept
        decode, decode_untyped, invalid = fs.decode_typed, fs.decode_untyped, fs.ValidationError
        made, clear = fs.TYPED_MADE, fs.TYPED_MADE.clear
        unset, untyped, header_fields = UNSET, fs.Untyped, fs.HEADER_FIELDS + 1
        keys_unique, view_of, fn, plain, possible, sure = fs.keys_unique, self._view, self._fn, self._plain, self._possible, self._sure
        invert, keep = self.invert, self.keep_lines
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
                    raise _Refused
                if possible is not None and not possible(rec):
                    skipped += 1
                    continue
                result = True if sure is not None and sure(rec) else fn(view_of(rec).get)
            except _DECODE_ERRORS:
                if is_blank(raw):
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
        b.lines = index + 1 - first if stopped else len(lines)
        b.read = true + false + unknown + rejected + skipped
        b.true, b.false, b.unknown, b.rejected, b.selected, b.skipped = true, false, unknown, rejected, selected, skipped
        b.stopped = stopped
        if out and not self.discard:
            out.append(b"")
            b.out = b"\n".join(out)
        return b

    def _process_partial(self, lines: list[bytes], text: bytes, per_line: bool = False) -> Batch:
        """Every line decoded along the selector's paths only (``filter.partial``); a line it
        cannot vouch for is judged by ``_judge`` (the whole record validated, or the plain path's
        rejection). ``text``: the lines, joined (the chunk), in which the identifiers' keys are
        counted: when the count proves no line holds one twice, the Batch stands; otherwise the
        chunk is done again with the keys counted line by line (``per_line``). The view is built
        here, as ``view_function`` builds it: this loop is the default filter's time."""
        part = self._partial
        assert part is not None
        if self._kernel is not None and not per_line:
            done = self._process_columns(lines, text)
            if done is not None:
                return done
        decode, keys, made = part.decode, part.keys, part.made
        hspec = tuple((name, _HEADER_TYPE.get(name), _DELIVERY_VIEW if name == "JMSDeliveryMode" else None) for name in part.headers)
        pspec = tuple((name, f"properties.{name}", key) for name, key in zip(part.properties, keys[len(hspec) :], strict=True))
        fn, judge, possible, sure = self._fn, self._judge, self._view_possible, self._view_sure
        typed, tstring, unset, convert, string, clear = _TYPED, fs.TString, UNSET, _CONVERT, STRING, made.clear
        exact_types = _EXACT_TYPED
        discard = self.discard and not self.keep_lines
        escapes = _ESCAPE(text) is not None
        utf8 = text.isascii() or _utf8(text)
        suspect = escapes or not utf8  # then each line is looked at for a \u escape and its UTF-8
        b = Batch()
        errors, kept = b.errors, b.kept
        keep = self.keep_lines
        true = false = unknown = rejected = skipped = 0
        out: list[bytes] = []
        found = 0  # identifiers' keys found by the decodes
        index = -1
        for raw in lines:
            index += 1
            try:
                if suspect and ((escapes and b"\\u" in raw) or not (raw.isascii() or _utf8(raw))):
                    raise _Refused
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
                                            raise _Refused  # a string may hold a "}"
                                        at = raw.find(key)
                                        if raw.count(b":", at, raw.find(b"}", at)) != 3:
                                            raise _Refused
                                        jt = exact_types.get(t)
                                        if jt is not None:
                                            view[name] = (jt, v.value)
                                            continue
                                    view[name] = convert[t](v, where)
                if len(made) != parts or (per_line and sum(map(raw.count, keys)) != k):
                    raise _Refused  # "headers" or "properties" twice, or an identifier's key
                found += k
                if possible is not None and not possible(view):
                    skipped += 1
                    continue
                result = True if sure is not None and sure(view) else fn(view.get)
            except _DECODE_ERRORS:
                if is_blank(raw):
                    continue
                if not per_line:
                    found += sum(map(raw.count, keys))
                result, error = judge(raw)
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
        if not per_line and keys and sum(map(text.count, keys)) != found:
            return self._process_partial(lines, text, per_line=True)
        b.lines = len(lines)
        b.read = true + false + unknown + rejected + skipped
        b.true, b.false, b.unknown, b.rejected, b.selected, b.skipped = true, false, unknown, rejected, true, skipped
        if out and not self.discard:
            out.append(b"")
            b.out = b"\n".join(out)
        return b

    def _process_columns(self, lines: list[bytes], text: bytes) -> Batch | None:
        """``_process_partial`` without its per-line loop, for a selector with a kernel
        (``filter.columns``): every line decoded by one ``map``, the proofs of ``filter.partial``
        counted for the whole chunk, the verdicts from the columns. None: a count does not prove
        every line (a repeated key somewhere, a typed String, ``\\u`` escapes or invalid UTF-8):
        the per-line loop decides the chunk. A line that fails its decode or that the kernel
        ASKs for is judged alone (``_judge``), as the per-line loop judges it."""
        part, kernel = self._partial, self._kernel
        assert part is not None and kernel is not None
        if _ESCAPE(text) is not None or not (text.isascii() or _utf8(text)):
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
            except _DECODE_ERRORS:
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
        tstring, typed = fs.TString, _TYPED
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
                for scans in self._key_scans:
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
            judge, errors = self._judge, b.errors
            index = -1
            for v in verdicts:
                index += 1
                if v is ASK:
                    raw = lines[index]
                    if is_blank(raw):
                        verdicts[index] = _NOT_TRUE  # no record
                        continue
                    result, error = judge(raw)
                    if error is not None:
                        errors.append((index, raw, error.field, error.reason))
                        verdicts[index] = _NOT_TRUE
                        continue
                    verdicts[index] = result
        b.true, b.false, b.unknown = verdicts.count(True), verdicts.count(False), verdicts.count(None)
        b.rejected = len(b.errors)
        b.read = b.true + b.false + b.unknown + b.rejected
        b.selected = b.true
        if b.true and not (self.discard and not self.keep_lines):
            if self.keep_lines:
                b.kept = [(i, lines[i]) for i, v in enumerate(verdicts) if v is True]
            elif not self.discard:
                chosen = [raw for raw, v in zip(lines, verdicts, strict=True) if v is True]
                chosen.append(b"")
                b.out = b"\n".join(chosen)
        return b

    def _process_lines(self, lines: list[bytes], max_count: int | None, first: int = 0) -> Batch:
        """The prefilter's loop: a line it proves not TRUE is skipped unparsed (``skip``) or only
        judged valid or rejected; the others are judged."""
        b = Batch()
        errors, kept = b.errors, b.kept
        judge, test = self._judge, self._test
        skip, invert, keep = self._skip, self.invert, self.keep_lines
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
            result, error = judge(raw)
            if error is not None:
                rejected += 1
                errors.append((index, raw, error.field, error.reason))
                continue
            if not candidate:
                if result is True:  # pragma: no cover - the prefilter is sound
                    raise AssertionError(f"the prefilter excluded a selected line: {raw!r}")
                result = _NOT_TRUE
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
        if out and not self.discard:
            out.append(b"")
            b.out = b"\n".join(out)
        return b

    def _process_limited(self, chunk: bytes, max_count: int | None, limit: int) -> Batch:
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
                sub = self._process_lines(part, rest, start) if self._test is not None else self._process_all(part, rest, True, start)
                _add(total, sub, parts)
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

    def _process_skipping(self, chunk: bytes) -> Batch:
        """Only the lines in which the prefilter finds a needle or an escape marker are parsed
        (``_process_all``); the others are counted as records and skipped."""
        assert self._scan is not None
        spans = self._scan(chunk)
        total = Batch()
        total.lines = chunk.count(b"\n") + (0 if chunk.endswith(b"\n") or not chunk else 1)
        records = _count_records(chunk, total.lines)
        if spans:
            lines: list[bytes] = []
            indexes: list[int] = []
            index = last = 0
            for start, end in spans:
                index += chunk.count(b"\n", last, start)
                last = start
                indexes.append(index)
                lines.append(chunk[start:end])
            if b"\r" in chunk:
                lines = [line.rstrip(b"\r") for line in lines]
            if self._partial is not None:
                sub = self._process_partial(lines, b"\n".join(lines))
            else:
                sub = self._process_all(lines, None, any(b"\\u003" in line for line in lines))
            add_counts(total, sub)
            total.out = sub.out
            total.kept = [(indexes[i], raw) for i, raw in sub.kept]
            total.errors = [(indexes[i], raw, where, reason) for i, raw, where, reason in sub.errors]
        total.skipped += records - total.read
        total.read = records
        return total


COUNTS = ("read", "true", "false", "unknown", "rejected", "skipped", "selected")


def add_counts(total: Any, part: Batch) -> None:
    """``part``'s counts added to ``total`` (a Batch, or filter.Counts: the same count fields)."""
    for name in COUNTS:
        setattr(total, name, getattr(total, name) + getattr(part, name))


def _add(total: Batch, sub: Batch, parts: list[bytes]) -> None:
    """Counts, errors and kept lines of ``sub`` added to ``total``; its output to ``parts``."""
    add_counts(total, sub)
    total.stopped = total.stopped or sub.stopped
    if sub.out:
        parts.append(sub.out)
    total.kept += sub.kept
    total.errors += sub.errors


# Where a colon may be spelled as an escape: re finds this literal three times as fast as `in`.
_COLON_ESCAPE = re.compile(rb"\\u003").search
# A line of JSON white space only, after a b"\n": the regex finds the b"\n" at 3 GB/s.
_BLANK_AFTER_NEWLINE = re.compile(rb"\n[ \t\r]*\n|\n[ \t\r]+\Z")


def _count_records(chunk: bytes, lines: int) -> int:
    """Non-blank lines of a chunk of ``lines`` lines, as the loader counts records."""
    if not chunk:
        return 0
    if chunk[:1] not in b" \t\r\n" and _BLANK_AFTER_NEWLINE.search(chunk) is None:
        return lines  # no line is blank
    parts = chunk.split(b"\n")
    if chunk.endswith(b"\n"):
        parts.pop()
    return sum(1 for p in parts if not is_blank(p))


__all__ = ["Batch", "Engine", "possible_function", "property_value", "sure_function", "view_function"]

"""Message files -> records: NDJSON (streamed line by line), a JSON array, or one JSON object.

Each record comes with its location (``file:line`` or ``file:[index]``) so that a rejection can
name it; nothing is skipped silently. Opening and bounded reading are ``sources``, JSON parsing
``jsontext``, duplicate keys ``jsonkeys``, the Record and its shared rejections ``records`` (beneath
the formats registry too); this module decides the shape of a file and what each record is.
"""

from __future__ import annotations

import io
import itertools
import sys
from collections.abc import Iterator, Mapping
from typing import Any

from jmsctl.messages import formats
from jmsctl.messages.decode import AmbiguousNumber, RecordError, decode_message
from jmsctl.messages.jsonkeys import first_duplicate_key_per_item, unique_keys_proved
from jmsctl.messages.jsontext import JSON_WHITESPACE, JSONError, is_blank, parse_json, parse_json_exact
from jmsctl.messages.records import (
    MAX_RECORD_SIZE,
    OversizedLine,
    Partial,
    Record,
    Unread,
    duplicate_key,
    duplicate_key_error,
    record_too_large,
)
from jmsctl.messages.sources import (
    CHUNK_SIZE,
    READ_ERRORS,
    InputError,
    open_input,
    opened,
    read_bounded,
    read_failure,
    readline_bounded,
)
from jmsctl.values import JType


class RecordReader(Iterator[Record]):
    """``read_records(path)``: an iterator of the records of one file, in order (NDJSON in constant
    memory). Opening and reading happen on the first ``next``: an unreadable file raises InputError
    there. A record larger than ``max_record_size`` bytes is rejected without being held in memory.

    ``items()`` is the other way to read the same file, for the fast filter: an NDJSON file comes as
    chunks of whole lines (``bytes``; each chunk ends with b"\\n" except perhaps the last one of the
    file; the first has its byte order mark removed), any other shape (JSON array, one object) as
    Records. With ``max_record_size`` (pass ``reader.max_record_size``), an NDJSON line longer than
    that is not in any chunk: it comes, in its place, as an ``OversizedLine`` (a Record). Use one or
    the other, once.
    """

    def __init__(self, path: str, max_record_size: int = MAX_RECORD_SIZE, fmt: str | None = None,
                 types: Mapping[str, JType] | None = None) -> None:
        self.path = path
        self.max_record_size = max_record_size
        self.forced = fmt  # --from: no sniffing
        self.types = types
        self.format: str | None = None  # the format read (detected or forced), once reading started
        self.compressed = False  # gzip (by name or by its magic bytes)
        self._gen: Iterator[Any] | None = None

    def __iter__(self) -> RecordReader:
        return self

    def __next__(self) -> Record:
        if self._gen is None:
            self._gen = _read(self, None, self.max_record_size)
        return next(self._gen)  # type: ignore[no-any-return]

    def items(self, chunk_size: int = CHUNK_SIZE, max_record_size: int | None = None,
              names: frozenset[str] | None = None, required: tuple[tuple[str, frozenset[str]], ...] = ()) -> Iterator[Record | Partial | Unread | bytes]:
        """``names``, ``required``: a format of its own module may yield ``Partial`` records typed along
        these names alone, and ``UNREAD`` for a record that cannot be selected (``formats.ReadOptions``)."""
        if self._gen is not None:
            raise RuntimeError("items() after iteration started")
        self._gen = _read(self, chunk_size, self.max_record_size, max_record_size, names, required)
        return self._gen

    def close(self) -> None:
        if self._gen is not None:
            self._gen.close()  # type: ignore[attr-defined]


def read_records(path: str, max_record_size: int = MAX_RECORD_SIZE, fmt: str | None = None,
                 types: Mapping[str, JType] | None = None) -> RecordReader:
    """Every record of a file, in order, in constant memory, no record over ``max_record_size``
    bytes held. The format is told from the content (inside gzip too) unless ``fmt`` names it
    (``jmsctl.messages.formats``); ``types`` gives property types to a format without them."""
    return RecordReader(path, max_record_size, fmt, types)


def _read(reader: RecordReader, chunk_size: int | None, limit: int, chunk_limit: int | None = None,
          names: frozenset[str] | None = None, required: tuple[tuple[str, frozenset[str]], ...] = ()) -> Iterator[Any]:
    path = reader.path
    source = formats.open_source(path, reader.forced)
    reader.format, reader.compressed = source.format.name, source.compressed
    stream = source.stream
    name = "<stdin>" if path == "-" else path
    try:
        if source.format.read is not None:  # a format of its own module: records only
            yield from source.format.read(stream, name, formats.ReadOptions(limit, reader.types, names=names, required=required))
            return
        buffered: Any = stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(stream)  # type: ignore[arg-type, type-var]
        head = buffered.peek(64).lstrip(JSON_WHITESPACE)  # JSON's white space: "\x0c[" is not an array
        if head.startswith(b"\xef\xbb\xbf"):
            head = head[3:].lstrip(JSON_WHITESPACE)
        if head.startswith(b"["):
            data, size = read_bounded(buffered, limit)
            if data is None:
                yield Record(name, None, None, record_too_large(size, limit))
                return
            yield from _array_records(name, data[3:] if data.startswith(b"\xef\xbb\xbf") else data)
            return
        yield from _ndjson_or_object(name, buffered, limit, chunk_size, chunk_limit)
    except READ_ERRORS as exc:
        raise read_failure(name, exc) from None
    finally:
        source.close()


def line_chunks(first: bytes, stream: Any, size: int, name: str = "", limit: int | None = None, lineno: int = 1) -> Iterator[bytes | Record]:
    """``first`` and the rest of the stream as chunks that end at a line end. ``read1``: a live
    feed on stdin is passed on as it comes, not held back until a chunk is full. With ``limit``, a
    line over it is left out of the chunks and comes as an OversizedLine in its place (named by its
    line number: ``first`` is line ``lineno``). Reads are then at most ``limit + 1`` bytes, so that a line
    inside one read is never over the limit, and only a line held over from earlier reads needs
    measuring."""
    bound = sys.maxsize if limit is None else limit  # no limit: one loop all the same, never skipping
    yield from _limited_chunks(first, stream, min(size, bound + 1), name, bound, lineno)


def _limited_chunks(first: bytes, stream: Any, size: int, name: str, limit: int, lineno: int) -> Iterator[bytes | Record]:
    cut = first.rfind(b"\n")
    if cut >= 0:  # whole lines first, the start of one (at the end of the file) held
        yield first[: cut + 1]
        lineno += first.count(b"\n", 0, cut + 1)
        first = first[cut + 1 :]
    pending = [first] if first else []  # the start of the line not finished yet
    held = len(first)  # its size so far
    skipping = False  # inside an oversized line, its start dropped
    while True:
        data = stream.read1(size)
        if not data:
            break
        first_end = data.find(b"\n")
        if first_end == -1:
            held += len(data)
            if not skipping:
                if held > limit:
                    pending, skipping = [], True
                else:
                    pending.append(data)
            continue
        if skipping or held + first_end > limit:
            yield OversizedLine(f"{name}:{lineno}", None, None, record_too_large(held + first_end, limit))
            lineno += 1
            pending, skipping = [], False
            data = data[first_end + 1 :]
        cut = data.rfind(b"\n")
        if cut == -1:
            pending.append(data)
            held = len(data)
            continue
        pending.append(data[: cut + 1])
        chunk = b"".join(pending)
        yield chunk
        lineno += chunk.count(b"\n")
        pending = [data[cut + 1 :]] if cut + 1 < len(data) else []
        held = len(data) - cut - 1
    if skipping:
        yield OversizedLine(f"{name}:{lineno}", None, None, record_too_large(held, limit))
        return
    rest = b"".join(pending)
    if rest:
        yield rest


def _decode(location: str, raw: bytes | None, obj: Any) -> Record:
    try:
        message = decode_message(obj)
        message.properties_read_only = True  # a dumped message was received: 'its properties are in read-only mode'
        return Record(location, raw, message, None)
    except RecordError as err:
        return Record(location, raw, None, err)
    except AmbiguousNumber:
        if raw is None:
            raise
        return _decode(location, raw, parse_json_exact(raw))


def _array_records(name: str, data: bytes) -> Iterator[Record]:
    try:
        items = parse_json(data)
    except JSONError as exc:
        yield Record(f"{name}", None, None, RecordError("", f"invalid JSON: {exc}"))
        return
    if not isinstance(items, list):  # pragma: no cover - peeked '['
        items = [items]
    duplicates = {} if unique_keys_proved(data, items) else first_duplicate_key_per_item(data)
    exact: list[Any] | None = None
    for i, obj in enumerate(items):
        if i in duplicates:
            yield Record(f"{name}:[{i}]", None, None, duplicate_key(*duplicates[i]))
            continue
        try:
            yield _decode(f"{name}:[{i}]", None, obj)
        except AmbiguousNumber:
            exact = exact if exact is not None else parse_json_exact(data)
            yield _decode(f"{name}:[{i}]", None, exact[i])


_OPENERS = (b"{", b"[", b",", b":")  # how the first line of a pretty-printed object ends


def _ndjson_or_object(name: str, stream: Any, limit: int, chunk_size: int | None = None, chunk_limit: int | None = None) -> Iterator[Any]:
    """NDJSON, or one pretty-printed object. A first line that is not JSON but ends as an object's
    opening line does (``{``, ``[``, ``,``, ``:``) starts an object, unless the second line is a
    whole JSON object: then the file is NDJSON whose first record is broken (truncated), and each
    line is still its own record."""
    line_limit = limit if chunk_size is None else chunk_limit

    def next_line() -> tuple[bytes | None, int]:
        return readline_bounded(stream, line_limit) if line_limit is not None else (stream.readline(), 0)

    first, size = next_line()
    if first is not None and first.startswith(b"\xef\xbb\xbf"):
        first = first[3:]  # a UTF-8 byte order mark is not part of the first record
    head = [(first, size)]  # the lines read to tell the shape, in order (None: over the limit)
    obj: Any = _INVALID  # the first line's JSON, when it is JSON
    if first is not None:
        try:
            obj = None if is_blank(first) else parse_json(first)
        except JSONError:
            if first.rstrip()[-1:] in _OPENERS:
                budget = max(0, limit + 1 - len(first))  # the second line, within the object's size limit
                second = stream.readline(budget)
                if not ((second.endswith(b"\n") or len(second) < budget) and _is_object_line(second)):
                    data, total = read_bounded(stream, limit, first + second)
                    if data is None:
                        yield Record(f"{name}:1", None, None, record_too_large(total, limit))
                    else:
                        yield from _single_object(name, data)
                    return
                head.append((second, len(second) - second.endswith(b"\n")))
    if chunk_size is not None:
        yield from _head_then_chunks(name, head, stream, chunk_size, chunk_limit, line_limit or limit)
        return
    lines = itertools.chain(head, iter(next_line, (b"", 0)))
    for lineno, (line, size) in enumerate(lines, 1):
        if line is None:
            yield OversizedLine(f"{name}:{lineno}", None, None, record_too_large(size, limit))
            continue
        raw = line.rstrip(b"\r\n")
        if not is_blank(raw):
            if lineno == 1 and obj is not _INVALID:
                yield _parsed_line(f"{name}:1", raw, obj)
            else:
                yield judge_line(name, lineno, raw)


def _is_object_line(line: bytes) -> bool:
    try:
        return type(parse_json(line)) is dict
    except JSONError:
        return False


def _head_then_chunks(name: str, head: list[tuple[bytes | None, int]], stream: Any, chunk_size: int,
                      chunk_limit: int | None, limit: int) -> Iterator[bytes | Record]:
    """``items()`` for NDJSON: the lines read to tell the shape, then the rest of the stream, as
    chunks of whole lines (and OversizedLines in their place)."""
    start = b""
    lineno = 1  # of start's first line
    for line, size in head:
        if line is not None:
            start += line
            continue
        if start:
            yield start
            lineno += start.count(b"\n")
            start = b""
        yield OversizedLine(f"{name}:{lineno}", None, None, record_too_large(size, limit))
        lineno += 1
    yield from line_chunks(start, stream, chunk_size, name, chunk_limit, lineno)


_INVALID = object()


def _single_object(name: str, data: bytes) -> Iterator[Record]:
    """A file holding one pretty-printed JSON object (or JSON that is invalid as a whole)."""
    try:
        whole = parse_json(data)
    except JSONError as exc:
        yield Record(f"{name}:1", None, None, RecordError("", f"invalid JSON: {exc}"))
        return
    location = f"{name}:[0]" if isinstance(whole, dict) else name
    duplicate = duplicate_key_error(data, whole)
    if duplicate is not None:
        yield Record(location, None, None, duplicate)
        return
    try:
        yield _decode(location, None, whole)
    except AmbiguousNumber:
        yield _decode(location, None, parse_json_exact(data))


def judge_line(name: str, lineno: int, raw: bytes) -> Record:
    """One NDJSON line (without its terminator) -> its record: the judge of every line."""
    location = f"{name}:{lineno}"
    try:
        obj = parse_json(raw)
    except JSONError as exc:
        return Record(location, raw, None, RecordError("", f"invalid JSON: {exc}"))
    return _parsed_line(location, raw, obj)


def _parsed_line(location: str, raw: bytes, obj: Any) -> Record:
    duplicate = duplicate_key_error(raw, obj)
    if duplicate is not None:
        return Record(location, raw, None, duplicate)
    return _decode(location, raw, obj)


__all__ = [  # with the names kept here from jsontext and sources, where they used to live
    "CHUNK_SIZE", "JSON_WHITESPACE", "MAX_RECORD_SIZE", "READ_ERRORS", "InputError", "JSONError", "OversizedLine", "Record",
    "RecordReader", "duplicate_key", "duplicate_key_error", "is_blank", "judge_line", "line_chunks", "open_input", "opened",
    "parse_json", "parse_json_exact", "read_failure", "read_records", "record_too_large",
]

"""Message files -> records: NDJSON (streamed line by line), a JSON array, or one JSON object.

Each record comes with its location (``file:line`` or ``file:[index]``) so that a rejection can
name it; nothing is skipped silently.
"""

from __future__ import annotations

import gzip
import io
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

import orjson

from jmsctl.messages.decode import AmbiguousNumber, RecordError, WrittenFloat, decode_message
from jmsctl.messages.model import Message


@dataclass(frozen=True)
class Record:
    """One record of a file: the decoded message, or the reason it was rejected."""

    location: str
    raw: bytes | None  # the NDJSON line as read (without its line terminator), for byte-exact output
    message: Message | None
    error: RecordError | None


class JSONError(ValueError):
    """Invalid JSON in a record (the message says where)."""


def _reject_constant(name: str) -> Any:
    raise JSONError(f"{name} is not JSON")


def parse_json(data: bytes) -> Any:
    """orjson, with the reason for invalid UTF-8 spelled out."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise JSONError(f"invalid UTF-8 at byte {bad.start}") from None
        raise JSONError(str(exc)) from None


def parse_json_exact(data: bytes) -> Any:
    """The standard library's parser: integers of any size stay integers, and numbers written
    with a fraction or exponent are marked (WrittenFloat). Used only when orjson's reading is
    ambiguous (AmbiguousNumber), so it costs nothing on ordinary records."""
    try:
        return json.loads(data.decode("utf-8"), parse_float=WrittenFloat, parse_constant=_reject_constant)
    except UnicodeDecodeError as exc:
        raise JSONError(f"invalid UTF-8 at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise JSONError(str(exc)) from None


class InputError(Exception):
    """A file that cannot be read at all (missing, a directory, not gzip, ...): exit status 2."""


def open_input(path: str) -> IO[bytes]:
    try:
        if path == "-":
            return sys.stdin.buffer
        f: IO[bytes] = open(path, "rb")  # noqa: SIM115 - closed by the caller
        if path.endswith(".gz"):
            return gzip.open(f)  # type: ignore[return-value]
        return f
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory") from None
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror or exc}") from None


CHUNK_SIZE = 1 << 20


class RecordReader(Iterator[Record]):
    """``read_records(path)``: an iterator of the records of one file, in order (NDJSON in constant
    memory). Opening and reading happen on the first ``next``: an unreadable file raises InputError
    there.

    ``items()`` is the other way to read the same file, for the fast filter: an NDJSON file comes as
    chunks of whole lines (``bytes``; each chunk ends with b"\\n" except perhaps the last one of the
    file; the first has its byte order mark removed), any other shape (JSON array, one object) as
    Records. Use one or the other, once.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._gen: Iterator[Any] | None = None

    def __iter__(self) -> RecordReader:
        return self

    def __next__(self) -> Record:
        if self._gen is None:
            self._gen = _read(self.path, None)
        return next(self._gen)  # type: ignore[no-any-return]

    def items(self, chunk_size: int = CHUNK_SIZE) -> Iterator[Record | bytes]:
        if self._gen is not None:
            raise RuntimeError("items() after iteration started")
        self._gen = _read(self.path, chunk_size)
        return self._gen

    def close(self) -> None:
        if self._gen is not None:
            self._gen.close()  # type: ignore[attr-defined]


def read_records(path: str) -> RecordReader:
    """Every record of a file, in order; NDJSON in constant memory."""
    return RecordReader(path)


def _read(path: str, chunk_size: int | None) -> Iterator[Any]:
    stream = open_input(path)
    name = "<stdin>" if path == "-" else path
    try:
        buffered: Any = stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(stream)  # type: ignore[arg-type, type-var]
        head = buffered.peek(64).lstrip()
        if head.startswith(b"\xef\xbb\xbf"):
            head = head[3:].lstrip()
        if head.startswith(b"["):
            yield from _array_records(name, buffered.read())
            return
        yield from _ndjson_or_object(name, buffered, chunk_size)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise InputError(f"{name}: cannot read: {exc}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _chunks(first: bytes, stream: Any, size: int) -> Iterator[bytes]:
    """``first`` and the rest of the stream as chunks that end at a line end. ``read1``: a live
    feed on stdin is passed on as it comes, not held back until a chunk is full."""
    pending = [first] if first else []
    while True:
        data = stream.read1(size)
        if not data:
            break
        cut = data.rfind(b"\n")
        if cut == -1:
            pending.append(data)
            continue
        pending.append(data[: cut + 1])
        yield b"".join(pending)
        pending = [data[cut + 1 :]] if cut + 1 < len(data) else []
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
    exact: list[Any] | None = None
    for i, obj in enumerate(items):
        try:
            yield _decode(f"{name}:[{i}]", None, obj)
        except AmbiguousNumber:
            exact = exact if exact is not None else parse_json_exact(data)
            yield _decode(f"{name}:[{i}]", None, exact[i])


def _ndjson_or_object(name: str, stream: Any, chunk_size: int | None = None) -> Iterator[Any]:
    first = stream.readline()
    if first.startswith(b"\xef\xbb\xbf"):
        first = first[3:]  # a UTF-8 byte order mark is not part of the first record
    try:
        obj = parse_json(first) if first.strip() else None
    except JSONError:
        if first.rstrip()[-1:] in (b"{", b"[", b",", b":"):
            # The opening line of one pretty-printed object: the file is that single object.
            yield from _single_object(name, first + stream.read())
            return
        obj = _INVALID  # a broken NDJSON record: report it and go on with the next lines
    if chunk_size is not None:
        yield from _chunks(first, stream, chunk_size)
        return
    lineno = 1
    line = first
    while line:
        raw = line.rstrip(b"\r\n")
        if raw.strip():
            if lineno == 1 and obj is not _INVALID:
                yield _decode(f"{name}:{lineno}", raw, obj)
            else:
                yield _line(name, lineno, raw)
        lineno += 1
        line = stream.readline()


_INVALID = object()


def _single_object(name: str, data: bytes) -> Iterator[Record]:
    """A file holding one pretty-printed JSON object (or JSON that is invalid as a whole)."""
    try:
        whole = parse_json(data)
    except JSONError as exc:
        yield Record(f"{name}:1", None, None, RecordError("", f"invalid JSON: {exc}"))
        return
    location = f"{name}:[0]" if isinstance(whole, dict) else name
    try:
        yield _decode(location, None, whole)
    except AmbiguousNumber:
        yield _decode(location, None, parse_json_exact(data))


def _line(name: str, lineno: int, raw: bytes) -> Record:
    location = f"{name}:{lineno}"
    try:
        obj = parse_json(raw)
    except JSONError as exc:
        return Record(location, raw, None, RecordError("", f"invalid JSON: {exc}"))
    return _decode(location, raw, obj)

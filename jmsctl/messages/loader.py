"""Message files -> records: NDJSON (streamed line by line), a JSON array, or one JSON object.

Each record comes with its location (``file:line`` or ``file:[index]``) so that a rejection can
name it; nothing is skipped silently.
"""

from __future__ import annotations

import gzip
import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

import orjson

from jmsctl.messages.decode import RecordError, decode_message
from jmsctl.messages.model import Message


@dataclass(frozen=True)
class Record:
    """One record of a file: the decoded message, or the reason it was rejected."""

    location: str
    raw: bytes | None  # the NDJSON line as read (without its line terminator), for byte-exact output
    message: Message | None
    error: RecordError | None


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


def read_records(path: str) -> Iterator[Record]:
    """Every record of a file, in order; NDJSON in constant memory."""
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
        yield from _ndjson_or_object(name, buffered)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise InputError(f"{name}: cannot read: {exc}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _decode(location: str, raw: bytes | None, obj: Any) -> Record:
    try:
        return Record(location, raw, decode_message(obj), None)
    except RecordError as err:
        return Record(location, raw, None, err)


def _array_records(name: str, data: bytes) -> Iterator[Record]:
    try:
        items = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        yield Record(f"{name}", None, None, RecordError("", f"invalid JSON: {exc}"))
        return
    if not isinstance(items, list):  # pragma: no cover - peeked '['
        items = [items]
    for i, obj in enumerate(items):
        yield _decode(f"{name}:[{i}]", None, obj)


def _ndjson_or_object(name: str, stream: Any) -> Iterator[Record]:
    first = stream.readline()
    try:
        obj = orjson.loads(first) if first.strip() else None
    except orjson.JSONDecodeError:
        # Not a one-line record: a single pretty-printed object (or invalid JSON).
        rest = first + stream.read()
        try:
            whole = orjson.loads(rest)
        except orjson.JSONDecodeError as exc:
            yield Record(f"{name}:1", None, None, RecordError("", f"invalid JSON: {exc}"))
            return
        yield _decode(f"{name}:[0]" if isinstance(whole, dict) else name, None, whole)
        return
    lineno = 1
    line = first
    while line:
        raw = line.rstrip(b"\r\n")
        if raw.strip():
            if lineno == 1:
                yield _decode(f"{name}:{lineno}", raw, obj)
            else:
                yield _line(name, lineno, raw)
        lineno += 1
        line = stream.readline()


def _line(name: str, lineno: int, raw: bytes) -> Record:
    location = f"{name}:{lineno}"
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return Record(location, raw, None, RecordError("", f"invalid JSON: {exc}"))
    return _decode(location, raw, obj)

"""Opening and reading message files: stdin, .gz, one clear line for any file that cannot be read,
and reads bounded by a size limit (what is over it is read through and counted, never held)."""

from __future__ import annotations

import gzip
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

CHUNK_SIZE = 1 << 20


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


READ_ERRORS = (OSError, EOFError, gzip.BadGzipFile, zlib.error)


def read_failure(name: str, exc: BaseException) -> InputError:
    """One line for a file that stopped being readable (READ_ERRORS) after it was opened."""
    if isinstance(exc, EOFError):
        return InputError(f"{name}: cannot read: truncated gzip (the compressed data ends early)")
    if isinstance(exc, gzip.BadGzipFile) and str(exc).startswith("Not a gzipped file"):
        return InputError(f"{name}: cannot read: not a gzip file")
    if isinstance(exc, (gzip.BadGzipFile, zlib.error)):
        return InputError(f"{name}: cannot read: corrupt gzip: {exc}")
    return InputError(f"{name}: cannot read: {getattr(exc, 'strerror', None) or exc}")


@contextmanager
def opened(path: str) -> Iterator[IO[bytes]]:
    """``open_input`` for a reader of its own (selector and test-case files): any failure to read,
    a truncated or corrupt .gz included, is an InputError; stdin is not closed."""
    stream = open_input(path)
    try:
        yield stream
    except READ_ERRORS as exc:
        raise read_failure("<stdin>" if path == "-" else path, exc) from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def read_bounded(stream: Any, limit: int, start: bytes = b"") -> tuple[bytes | None, int]:
    """The rest of the stream after ``start``: (data, size), or (None, size) when it is over ``limit``
    bytes; then it was read through in chunks (to count it) but not kept."""
    data = start + stream.read(limit + 1 - len(start)) if len(start) <= limit else start
    if len(data) <= limit:
        return data, len(data)
    size = len(data)
    del data
    while chunk := stream.read(CHUNK_SIZE):
        size += len(chunk)
    return None, size


def readline_bounded(stream: Any, limit: int) -> tuple[bytes | None, int]:
    """One line with its terminator, and its size (bytes before the "\\n"); the line is None when its
    size is over ``limit``: it was then read through to its end but not kept. (b"", 0) at the end."""
    line = stream.readline(limit + 1)
    if line.endswith(b"\n"):
        return line, len(line) - 1
    if len(line) <= limit:
        return line, len(line)
    size = len(line)
    del line
    while True:
        part = stream.readline(CHUNK_SIZE)
        if part.endswith(b"\n"):
            return None, size + len(part) - 1
        if not part:
            return None, size
        size += len(part)

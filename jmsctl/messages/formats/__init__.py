"""Dump formats: the registry and the sniffer.

A format is one module of this package exposing ``FORMAT`` (a ``Format``): its name, a ``sniff``
that scores the first bytes of a file, and a ``read`` that turns an opened stream into the loader's
Records, each located in the source's own terms (line, array index, message index). Adding a format
is one module and one entry in ``_MODULES``.

``open_source`` opens a path (or ``-``), undoes gzip found by its magic bytes (on stdin too, and
inside a file whatever its name), sniffs the content unless a format is forced (``--from``) and
hands back a stream positioned at the start. A file no format recognises is one ``NoFormat`` error
naming the formats tried, never an error per line.
"""

from __future__ import annotations

import gzip
import io
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import IO, TYPE_CHECKING, Any

from jmsctl.messages.sources import READ_ERRORS, InputError, open_input, read_failure

if TYPE_CHECKING:
    from jmsctl.messages.model import Message
    from jmsctl.messages.records import Partial, Record, Unread
    from jmsctl.values import JType

FORMAT_DOC = "docs/FORMAT.md"
"""Where the formats are described: named in every format error."""

_MODULES = ("ndjson", "json_array", "fmtn_a", "activemq_browse", "ibm_dmpmqmsg", "artemis_xml")
"""The registry: module names under jmsctl.messages.formats, in the order they are tried."""

SNIFF_SIZE = 64 * 1024
"""How much of the start of a file the sniffers see at most."""

SURE = 0.9
"""A score at or above which sniffing stops reading (a live feed on stdin is not held back)."""

GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True)
class ReadOptions:
    """What a reader may need beyond the stream: the record size limit, and property types for a
    source that has none (``activemq-browse``: a schema's name -> type)."""

    max_record_size: int = 16 * 1024 * 1024
    types: Mapping[str, JType] | None = None
    # The only names a consumer reads (a filter's selector): a reader may then yield a ``Partial``
    # (records.py), typed along these names alone, in place of a Record. None: whole Records.
    names: frozenset[str] | None = None
    # With ``names``: (name, strings), a record is selected only when its value of that name is a String
    # among these (``FilterPlan.required``). A reader may yield ``UNREAD`` for a record it proves holds
    # no such value, without reading it further, if that hides no error of the whole file.
    required: tuple[tuple[str, frozenset[str]], ...] = ()
    warn: Callable[[str], None] | None = None  # a reader's one warning about a whole file (None: stderr)

    def warning(self, name: str, text: str) -> None:
        if self.warn is not None:
            self.warn(f"{name}: {text}")
        else:
            sys.stderr.write(f"jmsctl: warning: {name}: {text}\n")


Reader = Callable[[IO[bytes], str, ReadOptions], Iterator["Record | Partial | Unread"]]
Writer = Callable[[Iterable["Message"], IO[bytes]], None]


@dataclass(frozen=True)
class Format:
    """One dump format. ``read`` None: the JSON loader reads it (``ndjson`` and ``json``, with the
    fast filter's chunks of lines). ``sniff`` scores the first bytes: 0 not this format, 1 sure."""

    name: str
    summary: str
    sniff: Callable[[bytes], float]
    read: Reader | None = None
    write: Writer | None = None
    extensions: tuple[str, ...] = ()  # file name endings that decide when no content is recognised


class NoFormat(InputError):
    """A file that no format recognises (or an unknown ``--from`` name): exit status 2."""


@cache
def registry() -> dict[str, Format]:
    """Every format by name, in sniffing order."""
    out: dict[str, Format] = {}
    for module in _MODULES:
        fmt: Format = import_module(f"{__name__}.{module}").FORMAT
        out[fmt.name] = fmt
    return out


def names() -> list[str]:
    return list(registry())


def get(name: str) -> Format:
    """The format called ``name`` (``--from``), or NoFormat listing the names."""
    found = registry().get(name.strip().lower().replace("_", "-"))
    if found is None:
        raise NoFormat(f"unknown format {name!r}: the formats are {', '.join(names())} (see {FORMAT_DOC})")
    return found


def detect(head: bytes) -> Format | None:
    """The format that scores ``head`` highest (ties: registry order), or None when none scores."""
    best, score = None, 0.0
    for fmt in registry().values():
        s = fmt.sniff(head)
        if s > score:
            best, score = fmt, s
    return best


def by_extension(path: str) -> Format | None:
    """The format a file name ending promises (``.ndjson``, ``.json``...; ``.gz`` aside): the
    fallback when the content matches nothing, so that a broken dump is read and its records
    reported one by one rather than refused whole."""
    base = path.lower().removesuffix(".gz")
    for fmt in registry().values():
        if any(base.endswith(ext) for ext in fmt.extensions):
            return fmt
    return None


def no_format_error(name: str) -> NoFormat:
    return NoFormat(
        f"{name}: not a message dump in a format jmsctl knows (tried {', '.join(names())}); "
        f"name one with --from FORMAT, see {FORMAT_DOC}"
    )


@dataclass
class Opened:
    """An opened source: ``stream`` from its first byte (decompressed), the format to read it with,
    and whether it was gzip (the parallel filter reads only plain regular files)."""

    stream: IO[bytes]
    format: Format
    compressed: bool
    detected: bool

    def close(self) -> None:
        if self.stream is not sys.stdin.buffer:
            self.stream.close()


def open_source(path: str, forced: str | None = None) -> Opened:
    """Open ``path`` (``-`` is stdin) and tell its format; InputError when it cannot be read or
    matches no format."""
    name = "<stdin>" if path == "-" else path
    fmt = get(forced) if forced else None
    stream = _stdin(open_input(path)) if path == "-" else open_input(path)
    compressed = path != "-" and path.endswith(".gz")
    try:
        head, stream = _head(stream, GZIP_MAGIC_LEN)
        if not compressed and head.startswith(GZIP_MAGIC):
            stream = gzip.GzipFile(fileobj=stream, mode="rb")  # type: ignore[assignment]
            compressed = True
        if fmt is None:
            head, stream = _sniffed(stream)
            fmt = detect(head) or by_extension(path)
            if fmt is None:
                raise no_format_error(name)
            return Opened(stream, fmt, compressed, True)
        return Opened(_buffered(stream), fmt, compressed, False)
    except READ_ERRORS as exc:
        _close(stream)
        raise read_failure(name, exc) from None
    except InputError:
        _close(stream)
        raise


GZIP_MAGIC_LEN = 2


def _close(stream: IO[bytes]) -> None:
    if stream is not sys.stdin.buffer:
        stream.close()


def _stdin(stream: IO[bytes]) -> IO[bytes]:
    """Standard input as a reader of its own with a large buffer, so that the sniffers can peek at
    its start without a copying wrapper (the NDJSON filter reads a pipe as fast as a file); the
    stream itself when there is no descriptor (tests)."""
    try:
        return open(stream.fileno(), "rb", buffering=1 << 20, closefd=False)  # closing it leaves fd 0 open
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return stream


def _peekable(stream: IO[bytes]) -> bool:
    return isinstance(stream, io.BufferedReader) and stream is not sys.stdin.buffer and not stream.seekable()


def _head(stream: IO[bytes], size: int) -> tuple[bytes, IO[bytes]]:
    """The first ``size`` bytes (fewer at the end), and a stream that still starts at byte 0."""
    if _peekable(stream):
        peeked = stream.peek(size)  # type: ignore[attr-defined]
        if len(peeked) >= size:
            return peeked[:size], stream
    head = b""
    while len(head) < size:
        data = _read1(stream, size - len(head))
        if not data:
            break
        head += data
    return head, _rewound(stream, head)


def _sniffed(stream: IO[bytes]) -> tuple[bytes, IO[bytes]]:
    """Up to SNIFF_SIZE first bytes, read until a format is sure of them (a live feed is not held
    back for long), and the stream from byte 0. A pipe's first read is peeked at, not consumed, when
    it already tells the format."""
    if _peekable(stream):
        peeked = stream.peek(SNIFF_SIZE)  # type: ignore[attr-defined]
        if peeked and any(f.sniff(peeked) >= 0.5 for f in registry().values()):
            return peeked[:SNIFF_SIZE], stream
    head = b""
    while len(head) < SNIFF_SIZE:
        data = _read1(stream, SNIFF_SIZE - len(head))
        if not data:
            break
        head += data
        if b"\n" in data and any(f.sniff(head) >= SURE for f in registry().values()):
            break
    return head, _buffered(_rewound(stream, head))


def _read1(stream: Any, size: int) -> bytes:
    read1 = getattr(stream, "read1", None)
    return read1(size) if read1 is not None else stream.read(size)  # type: ignore[no-any-return]


def _rewound(stream: IO[bytes], head: bytes) -> IO[bytes]:
    if not head:
        return stream
    if isinstance(stream, io.BufferedReader) and stream is not sys.stdin.buffer and stream.seekable():
        stream.seek(0)
        return stream
    if isinstance(stream, _Prefixed):
        stream.unread(head)
        return stream
    return _Prefixed(head, stream)  # type: ignore[return-value]


def _buffered(stream: IO[bytes]) -> IO[bytes]:
    if isinstance(stream, io.BufferedReader):
        return stream
    return io.BufferedReader(stream, 1 << 16)  # type: ignore[arg-type, type-var]


class _Prefixed(io.RawIOBase):
    """A stream that gives back bytes already read from it, then the rest (stdin, gzip: they cannot
    seek back cheaply). Reads never wait for more than one read of the underlying stream."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        super().__init__()
        self._head = head
        self._stream = stream

    def unread(self, data: bytes) -> None:
        self._head = data + self._head

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        if self._head:
            n = min(len(b), len(self._head))
            b[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = _read1(self._stream, len(b))
        b[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            _close(self._stream)
        super().close()


def first_line_start(head: bytes) -> bytes:
    """``head`` without a UTF-8 byte order mark and the white space before its first character."""
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    return head.lstrip(b" \t\r\n")


__all__ = ["FORMAT_DOC", "Format", "NoFormat", "Opened", "ReadOptions", "detect", "get", "names", "open_source", "registry"]

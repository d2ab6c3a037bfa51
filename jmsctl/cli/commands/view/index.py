"""What ``jmsctl view`` shows, without loading it: the records of a dump by id, and the narrowing.

Two kinds of dump behind one interface (``Dump``):

- ``IndexedDump``: an uncompressed NDJSON file. Only the byte offset of each line is kept (8 bytes a
  line, built by a background thread while the first screen is already shown); a record is read and
  judged (``loader.judge_line``, the plain path's judge) when it is shown, a few hundred kept in a
  cache. A record's id is its line number, as every command names it (``FILE:LINE``). The narrowing is
  the fast filter (``jmsctl.filter.select_file`` with ``keep_lines``): the same selections and counts
  as ``jmsctl filter --stats``.
- ``LoadedDump``: every other source (another format, gzip, stdin, a browse): the records held in a
  list, as read by ``loader.read_records`` (or made from the browsed messages); a record's id is its
  index in the list. The narrowing evaluates each record as the plain path does.

Both narrow in steps (``Step``: the ids found since the last step and the counts so far) so that the
screen shows the first matches while the rest is read, and stop between steps when cancelled.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from jmsctl.filter import Counts, Selection, select_file
from jmsctl.messages.decode import RecordError
from jmsctl.messages.jsontext import is_blank
from jmsctl.messages.loader import MAX_RECORD_SIZE, Record, RecordReader, judge_line, read_records
from jmsctl.messages.model import Message
from jmsctl.messages.records import record_too_large
from jmsctl.selector import Selector

READ_SIZE = 4 << 20  # bytes indexed at a time
CACHE = 512  # records kept decoded (the visible ones and a little more)
NARROW_CHUNK = 1 << 20  # bytes the fast filter takes at a time (as filter does)
PROGRESS_EVERY = 0.1  # seconds between the reports of a narrowing that finds nothing
BLANK_CHECK = 64  # lines shorter than this are checked for white space only (the loader skips those)


@dataclass
class Step:
    """A step of a narrowing: the ids of the TRUE records found since the previous step, the counts
    so far (``read == true + false + unknown + rejected``) and how far it went (0..1)."""

    ids: list[int]
    counts: Counts
    done: float
    rejected: list[int] = field(default_factory=list)  # the ids of the rejected records found since the previous step


class Dump:
    """The interface: ``ids()`` every record id in order, ``record(id)``, ``location(id)``,
    ``narrow(selector, cancelled)``; ``complete`` once every id is known."""

    name: str = ""
    complete: bool = True

    def ids(self) -> Sequence[int]:
        raise NotImplementedError

    def record(self, rid: int) -> Record:
        raise NotImplementedError

    def location(self, rid: int) -> str:
        raise NotImplementedError

    def position(self, rid: int) -> str:
        """The position part of the location, as typed after ``FILE:`` (a line number, ``[i]``)."""
        return self.location(rid).rsplit(":", 1)[-1]

    def narrow(self, selector: Selector, cancelled: Callable[[], bool], report: Callable[[Step], None]) -> bool:
        """Report the TRUE records in steps; False when ``cancelled`` stopped it."""
        raise NotImplementedError

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every id is known; whether it is."""
        return True

    def unknown_ids(self, negation: Selector, true_ids: Sequence[int], cancelled: Callable[[], bool]) -> list[int] | None:
        """The ids of the records on which the selector is UNKNOWN: neither TRUE, nor TRUE for
        ``negation`` (``NOT (selector)``: FALSE), nor rejected. None when cancelled."""
        ids = self.ids()
        excluded = bytearray(ids[-1] + 1 if len(ids) else 0)  # one byte an id: a million records cost a megabyte, not a set
        for rid in true_ids:
            excluded[rid] = 1

        def take(step: Step) -> None:
            for rid in step.ids:
                excluded[rid] = 1
            for rid in step.rejected:
                excluded[rid] = 1

        if not self.narrow(negation, cancelled, take):
            return None
        return [rid for rid in ids if not excluded[rid]]


class LoadedDump(Dump):
    """Records held in memory (any format jmsctl reads, gzip, stdin, a browse)."""

    def __init__(self, name: str, records: list[Record]) -> None:
        self.name = name
        self.records = records

    @classmethod
    def read(cls, path: str, fmt: str | None = None, max_size: int = MAX_RECORD_SIZE) -> LoadedDump:
        reader = read_records(path, max_size, fmt)
        try:
            records = list(reader)
        finally:
            reader.close()
        return cls("<stdin>" if path == "-" else path, records)

    @classmethod
    def of_messages(cls, name: str, messages: list[Message]) -> LoadedDump:
        return cls(name, [Record(f"{name}:{i}", None, m, None) for i, m in enumerate(messages, 1)])

    def ids(self) -> Sequence[int]:
        return range(len(self.records))

    def record(self, rid: int) -> Record:
        return self.records[rid]

    def location(self, rid: int) -> str:
        return self.records[rid].location

    def narrow(self, selector: Selector, cancelled: Callable[[], bool], report: Callable[[Step], None]) -> bool:
        counts = Counts()
        evaluate = selector.evaluate
        found: list[int] = []
        rejected: list[int] = []
        total = max(1, len(self.records))
        for rid, record in enumerate(self.records):
            counts.read += 1
            if record.message is None:
                counts.rejected += 1
                rejected.append(rid)
            else:
                result = evaluate(record.message.selector_values())
                if result is True:
                    counts.true += 1
                    counts.selected += 1
                    found.append(rid)
                elif result is False:
                    counts.false += 1
                else:
                    counts.unknown += 1
            if rid % 2000 == 1999:
                if cancelled():
                    return False
                report(Step(found, _copy(counts), (rid + 1) / total, rejected))
                found, rejected = [], []
        report(Step(found, _copy(counts), 1.0, rejected))
        return True


class WatchedDump(LoadedDump):
    """A topic watched (``jmsctl view URL TOPIC --watch``): the messages appended as they arrive, by a
    thread reading ``messages`` (a transport's ``watch``); the screen sees the list grow."""

    def __init__(self, name: str, messages: Callable[[], Iterator[Message]]) -> None:
        super().__init__(name, [])
        self.complete = False
        self.error: str | None = None
        self._thread = threading.Thread(target=self._follow, args=(messages,), name="jmsctl-view-watch", daemon=True)
        self._thread.start()

    def _follow(self, messages: Callable[[], Iterator[Message]]) -> None:
        try:
            for i, message in enumerate(messages(), 1):
                self.records.append(Record(f"{self.name}:{i}", None, message, None))  # list.append: one step, safe across threads
        except Exception as exc:  # the broker went away: said on the screen, the messages kept
            self.error = str(exc)
        finally:
            self.complete = True

    def ids(self) -> Sequence[int]:
        return range(len(self.records))


def _copy(counts: Counts) -> Counts:
    return Counts(counts.read, counts.true, counts.false, counts.unknown, counts.rejected, counts.selected, counts.skipped)


class IndexedDump(Dump):
    """An uncompressed NDJSON file, indexed by byte offsets (see the module's docstring)."""

    def __init__(self, path: str, max_size: int = MAX_RECORD_SIZE) -> None:
        self.path = self.name = path
        self.max_size = max_size
        self.size = os.path.getsize(path)
        self.offsets = array("q")  # byte offset of line n at [n - 1]: every line, blank ones too
        self.lines = array("q")  # the line numbers of the records (non-blank lines), in order
        self.indexed = 0  # bytes indexed so far
        self.complete = False
        self.error: str | None = None
        self._done = threading.Event()
        self._cache: OrderedDict[int, Record] = OrderedDict()
        self._lock = threading.Lock()
        self._fd = os.open(path, os.O_RDONLY)  # kept open for the records shown, closed by close()
        self._thread = threading.Thread(target=self._build, name="jmsctl-view-index", daemon=True)
        self._thread.start()

    @staticmethod
    def accepts(path: str, fmt: str | None = None) -> bool:
        """Whether ``path`` is a regular uncompressed file the loader reads as NDJSON."""
        if path == "-" or fmt not in (None, "ndjson") or not os.path.isfile(path):
            return False
        reader = read_records(path, MAX_RECORD_SIZE, fmt)
        try:
            items = reader.items()
            first = next(items, None)
            return isinstance(first, bytes) and reader.format == "ndjson" and not reader.compressed
        except Exception:  # an unreadable file: the loaded path reports it in its words
            return False
        finally:
            reader.close()

    def _build(self) -> None:
        try:
            with open(self.path, "rb") as f:
                self._index(f)
        except OSError as exc:
            self.error = f"{self.path}: {exc.strerror or exc}"
        finally:
            self.complete = True
            self._done.set()

    def _index(self, f: object) -> None:
        """Line offsets by C-level calls (split, map, accumulate): no Python step per line, so that
        the thread leaves the interpreter to the screen while it runs."""
        offsets, lines = self.offsets, self.lines
        base = 0  # the file offset of the line being read (the start of ``tail``)
        lineno = 0  # lines indexed so far
        tail = b""
        read = f.read  # type: ignore[attr-defined]
        while True:
            data = read(READ_SIZE)
            if not data:
                break
            pieces = (tail + data).split(b"\n")
            tail = pieces.pop()  # the line not ended yet
            if not pieces:
                continue
            lengths = [len(p) + 1 for p in pieces]
            starts = array("q", itertools.accumulate(lengths[:-1], initial=base))
            if min(lengths) > BLANK_CHECK + 1:
                records = array("q", range(lineno + 1, lineno + len(pieces) + 1))
            else:
                records = array("q", (lineno + 1 + i for i, p in enumerate(pieces) if len(p) > BLANK_CHECK or not is_blank(p)))
            with self._lock:
                offsets.extend(starts)
                lines.extend(records)
                lineno += len(pieces)
                base += sum(lengths)
                self.indexed = base
        if tail:
            with self._lock:
                offsets.append(base)
                if len(tail) > BLANK_CHECK or not is_blank(tail):
                    lines.append(lineno + 1)
                self.indexed = self.size

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    def ids(self) -> Sequence[int]:
        return self.lines

    def location(self, rid: int) -> str:
        return f"{self.name}:{rid}"

    def position(self, rid: int) -> str:
        return str(rid)

    def record(self, rid: int) -> Record:
        """The record of line ``rid``, read with ``pread`` (no shared file position: the screen, the
        profile and the write read records from their own threads)."""
        with self._lock:
            cached = self._cache.get(rid)
            if cached is not None:
                self._cache.move_to_end(rid)
                return cached
            start = self.offsets[rid - 1]
            end = self.offsets[rid] if rid < len(self.offsets) else self.size
        if end - start > self.max_size + 2:
            record = Record(self.location(rid), None, None, record_too_large(end - start - 1, self.max_size))
        else:
            raw = os.pread(self._fd, end - start, start).rstrip(b"\n").rstrip(b"\r")
            if rid == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            record = judge_line(self.name, rid, raw) if raw else Record(self.location(rid), raw, None, RecordError("", "blank line"))
        with self._lock:
            self._cache[rid] = record
            if len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        return record

    def narrow(self, selector: Selector, cancelled: Callable[[], bool], report: Callable[[Step], None]) -> bool:
        """The fast filter over the file: ``report`` after each chunk of lines; False when cancelled."""
        counts = Counts()
        rejected: list[int] = []
        size = max(1, self.size)
        last = [time.monotonic()]

        def progress() -> None:  # a Step without ids now and then, for the progress bar and the counts
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY:
                last[0] = now
                report(Step([], _copy(counts), min(0.99, reader.consumed / size)))

        reader = _Watched(self.path, self.max_size, cancelled, progress)
        batches = select_file(selector, self.path, counts, keep_lines=True, exact=True, on_rejected=lambda r: rejected.append(int(r.location.rsplit(':', 1)[1])),
                              max_record_size=self.max_size, reader=reader)
        try:
            for item in batches:
                ids = [lineno for lineno, _ in item.kept] if isinstance(item, Selection) else []
                report(Step(ids, _copy(counts), min(0.99, reader.consumed / size), rejected))
                rejected = []
            if reader.stopped or cancelled():
                return False
            report(Step([], _copy(counts), 1.0, rejected))
            return True
        finally:
            batches.close()  # type: ignore[attr-defined]

    def close(self) -> None:
        os.close(self._fd)


class _Watched(RecordReader):
    """The reader the fast filter reads the file with, stopped between chunks when cancelled, and
    counting the bytes handed over (the progress bar)."""

    def __init__(self, path: str, max_size: int, cancelled: Callable[[], bool], progress: Callable[[], None]) -> None:
        super().__init__(path, max_size)
        self.cancelled = cancelled
        self.progress = progress
        self.consumed = 0
        self.stopped = False

    def items(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        if not args:
            kwargs.setdefault("chunk_size", NARROW_CHUNK)
        inner = super().items(*args, **kwargs)

        def watched() -> Iterator[Any]:
            try:
                for item in inner:
                    if self.cancelled():
                        self.stopped = True
                        return
                    self.progress()  # the counts of the chunks before this one
                    if type(item) is bytes:
                        self.consumed += len(item)
                    yield item
            finally:
                inner.close()  # type: ignore[attr-defined]

        return watched()


def open_dump(paths: list[str], fmt: str | None = None, max_size: int = MAX_RECORD_SIZE) -> Dump:
    """One NDJSON file: indexed; anything else: loaded (several files as one list, in order)."""
    if len(paths) == 1 and IndexedDump.accepts(paths[0], fmt):
        return IndexedDump(paths[0], max_size)
    if len(paths) == 1:
        return LoadedDump.read(paths[0], fmt, max_size)
    records: list[Record] = []
    for path in paths:
        records.extend(LoadedDump.read(path, fmt, max_size).records)
    return LoadedDump(", ".join(paths), records)


__all__ = ["Dump", "IndexedDump", "LoadedDump", "Step", "WatchedDump", "open_dump"]

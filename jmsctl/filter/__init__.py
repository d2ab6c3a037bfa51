"""Selector x record stream -> the selected records and the counts: the core of ``jmsctl filter``.

No printing and no command line here. Two paths give the same selections, counts and rejections:

- ``select`` (the plain path) is a generator over the records of
  ``jmsctl.messages.loader.read_records`` (NDJSON streams in constant memory): each record was
  decoded once by the loader, its selector view is built once and handed to the compiled selector.
- ``select_file`` (the fast path, ``jmsctl.filter.fast``) reads an NDJSON file in chunks of lines and
  decodes only what it must; with ``jobs`` > 1 a large regular file is cut into blocks processed
  by worker processes (``jmsctl.filter.parallel``), the output staying in input order. A file of another
  shape (JSON array, one object) goes through ``select``.

``record_json`` gives a record back as one compact JSON line: the NDJSON line exactly as read
when there is one, otherwise the message encoded again in the FORMAT.md notation.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from jmsctl.messages.decode import RecordError
from jmsctl.messages.encode import message_json
from jmsctl.messages.loader import MAX_RECORD_SIZE, OversizedLine, Record, RecordReader, read_records
from jmsctl.messages.records import Partial, Unread
from jmsctl.messages.rejections import FIRST
from jmsctl.selector import Selector

if TYPE_CHECKING:
    from jmsctl.filter.fast import Batch


_UNJUDGED = object()


@dataclass
class Counts:
    """What ``select`` saw. ``read == true + false + unknown + rejected`` at every point.

    ``selected`` is the number of records passed on: the TRUE ones, or with ``invert`` the FALSE
    and UNKNOWN ones. A rejected record is never passed on.

    ``skipped`` (fast path without ``exact``, so never with ``--stats``): records shown not TRUE
    early and not classified further: FALSE or UNKNOWN, or, for a line the prefilter let go
    unparsed (not with ``validate_all``), possibly broken. Then
    ``read == true + false + unknown + rejected + skipped``.
    """

    read: int = 0
    true: int = 0
    false: int = 0
    unknown: int = 0
    rejected: int = 0
    selected: int = 0
    skipped: int = 0


def select(
    selector: Selector,
    records: Iterable[Record | Partial | Unread],
    counts: Counts | None = None,
    *,
    invert: bool = False,
    max_count: int | None = None,
    on_rejected: Callable[[Record], None] | None = None,
) -> Iterator[Record]:
    """The records the selector selects (TRUE), or with ``invert`` those it does not (FALSE or
    UNKNOWN), in input order, updating ``counts`` as it goes.

    A rejected record (``record.error``) is counted and given to ``on_rejected``, never yielded.
    With ``max_count`` the generator stops after that many records, reading no further.
    """
    if counts is None:
        counts = Counts()
    if max_count is not None and max_count <= 0:
        return
    evaluate = selector.evaluate
    for item in records:
        counts.read += 1
        if isinstance(item, Unread):  # proved not selected by the reader, unread
            counts.skipped += 1
            continue
        result: object = _UNJUDGED
        if isinstance(item, Partial):  # typed along the selector's names: typed whole only to be passed on
            result = evaluate(item.view)
            record = item.whole() if (result is True) != invert else None
        else:
            record = item
        if record is not None:
            message = record.message
            if message is None:  # a Partial's whole may be broken off the selector's names: rejected all the same
                counts.rejected += 1
                if on_rejected is not None:
                    on_rejected(record)
                continue
            if result is _UNJUDGED:
                # The view is a dict: the compiled selector calls its C-level ``get`` directly.
                result = evaluate(message.selector_values())
        if result is True:
            counts.true += 1
            if invert:
                continue
        else:
            if result is False:
                counts.false += 1
            else:
                counts.unknown += 1
            if not invert:
                continue
        counts.selected += 1
        assert record is not None  # a Partial passed on was made whole above
        yield record
        if counts.selected == max_count:
            return


# ----- the fast path --------------------------------------------------------------------------


@dataclass
class Selection:
    """Selected NDJSON lines of one chunk, in input order: ``out`` holds them joined, each followed
    by b"\\n"; with ``keep_lines`` they are in ``kept`` instead, with their line numbers."""

    name: str
    out: bytes = b""
    kept: list[tuple[int, bytes]] = field(default_factory=list)

    def location(self, lineno: int) -> str:
        return f"{self.name}:{lineno}"


PARALLEL_THRESHOLD = 64 << 20  # bytes: below this a file is filtered in one process by default


def default_jobs(path: str) -> int:
    """The number of cores for a regular, uncompressed file of PARALLEL_THRESHOLD bytes or more;
    1 otherwise (stdin, .gz, small files)."""
    if path == "-" or path.endswith(".gz"):
        return 1
    try:
        if not os.path.isfile(path) or os.path.getsize(path) < PARALLEL_THRESHOLD:
            return 1
    except OSError:
        return 1
    return cpu_count()


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def select_file(
    selector: Selector,
    path: str,
    counts: Counts | None = None,
    *,
    invert: bool = False,
    max_count: int | None = None,
    on_rejected: Callable[[Record], None] | None = None,
    exact: bool = True,
    validate_all: bool = False,
    keep_lines: bool = False,
    discard: bool = False,
    jobs: int = 1,
    reader: Iterator[Record] | None = None,
    prefilter: bool = True,
    partial: bool = True,
    max_record_size: int = MAX_RECORD_SIZE,
    direct: Callable[[], int | None] | None = None,
) -> Iterator[Record | Selection]:
    """The fast path over one file (or ``-``): Selections for the NDJSON lines selected, Records
    for the records of a JSON array or single object (through ``select``), updating ``counts``.

    ``exact`` classifies every record (needed for --stats). Otherwise, unless ``validate_all`` or
    ``invert``, the lines the prefilter proves not TRUE are skipped unparsed (counted in
    ``skipped``): a broken record among them is not reported. ``jobs`` > 1: a regular
    uncompressed NDJSON file is processed by that many worker processes (not with ``max_count``).
    ``reader``: read_records(path, max_record_size) already made (anything else is iterated as
    plain records). A record over ``max_record_size`` bytes is rejected as the loader rejects it.
    ``discard``: only the counts are wanted; the NDJSON lines' Selections come empty.
    ``partial``: without ``exact``, ``validate_all`` and ``invert``, decode only the selector's
    paths (``jmsctl.filter.partial``); False: every decoded record is validated whole.
    ``direct``: NDJSON output to a file descriptor (see ``parallel.batches``): worker processes
    write the selected lines there themselves, and their Selections come empty.
    InputError propagates as from read_records.
    """
    from jmsctl.filter.fast import Engine, add_counts
    from jmsctl.filter.plan import FilterPlan

    if counts is None:
        counts = Counts()
    if max_count is not None and max_count - counts.selected <= 0:
        return
    if reader is None:
        reader = read_records(path, max_record_size)
    if not isinstance(reader, RecordReader):
        yield from select(selector, reader, counts, invert=invert, max_count=max_count, on_rejected=on_rejected)
        return
    name = "<stdin>" if path == "-" else path
    options = dict(invert=invert, exact=exact, keep_lines=keep_lines, discard=discard, name=name, prefilter=prefilter,
                   max_record_size=max_record_size, plan=FilterPlan.of(selector.ast, selector.dialect), partial=partial)
    engine = Engine(selector, validate_all=validate_all, **options)  # type: ignore[arg-type]
    # The first lines of a file are always parsed (validated whole), whatever the prefilter would skip:
    # they decide whether the file is a dump at all (messages/rejections.py), and that judgement must
    # not depend on which literals the selector holds (a text file: "not a message dump" for every selector).
    judging = None if exact or validate_all or invert else Engine(selector, validate_all=True, **options)  # type: ignore[arg-type]
    # A format of its own module may type each record along the selector's names only (not when every
    # record is classified or validated, nor with invert, which passes on what is not TRUE).
    names = frozenset(engine.plan.identifiers) if partial and not (exact or validate_all or invert) else None
    required = engine.plan.required if names is not None and prefilter else ()
    items: Any = reader.items(max_record_size=max_record_size, names=names, required=required)
    batches: Any = None
    try:
        first = next(items, None)
        if first is None:
            return
        if type(first) is not bytes and type(first) is not OversizedLine:  # a JSON array, one object, another format: the plain path
            yield from select(selector, itertools.chain([first], items), counts, invert=invert, max_count=max_count, on_rejected=on_rejected)
            return
        workers = jobs > 1 and max_count is None and path != "-" and not reader.compressed
        if workers:
            from jmsctl.filter import parallel  # multiprocessing and ctypes: only when workers may read the file

            workers = parallel.available()
        if workers:
            items.close()
            head_chunk, offset = _file_head(path, FIRST, max_record_size) if judging is not None else (b"", None)
            batches = _chained([judging.process(head_chunk)] if judging is not None and head_chunk else [],
                               parallel.batches(engine, path, jobs, direct=direct, start=offset))
        else:
            head: list[Any] = []
            rest: list[Any] = [first]
            if judging is not None:
                head, rest = _head_lines(first, items, FIRST)
                head = [(judging, chunk) for chunk in head]
            batches = (
                _oversized(item) if type(item) is OversizedLine else by.process(item, None if max_count is None else max_count - counts.selected)
                for by, item in itertools.chain(head, ((engine, item) for item in itertools.chain(rest, items)))
            )
        lineno = 1  # of the next batch's first line
        for batch in batches:
            add_counts(counts, batch)
            if on_rejected is not None:
                for index, raw, where, reason in batch.errors:
                    on_rejected(Record(f"{name}:{lineno + index}", raw, None, RecordError(where, reason)))
            if batch.out or batch.kept:
                yield Selection(name, batch.out, [(lineno + index, raw) for index, raw in batch.kept])
            lineno += batch.lines
            if batch.stopped:
                return
    finally:
        if batches is not None:
            batches.close()
        items.close()


def _chained(first: list[Any], rest: Iterator[Any]) -> Iterator[Any]:
    """``first``, then ``rest``: a generator, so that closing it closes ``rest`` (the workers)."""
    yield from first
    yield from rest


def _file_head(path: str, n: int, limit: int) -> tuple[bytes, int | None]:
    """The first ``n`` lines of a regular file (after a UTF-8 BOM) and the offset after them;
    (b"", None) when one of them is longer than ``limit`` (then nothing is judged apart)."""
    with open(path, "rb") as f:
        skip = 3 if f.read(3) == b"\xef\xbb\xbf" else 0
        f.seek(skip)
        lines = []
        for _ in range(n):
            line = f.readline(limit + 2)
            if len(line) > limit + 1 or (line and not line.endswith(b"\n") and f.read(1)):
                return b"", None
            if not line:
                break
            lines.append(line)
        return b"".join(lines), f.tell()


def _head_lines(first: Any, items: Iterator[Any], n: int) -> tuple[list[bytes], list[Any]]:
    """The chunks that hold a file's first ``n`` lines, and what follows them (a chunk's rest, then
    an item read past them), taking from ``items`` only as many chunks as that needs."""
    head: list[bytes] = []
    item = first
    while n > 0 and type(item) is bytes:
        at = 0
        while n > 0 and (at := item.find(b"\n", at) + 1):
            n -= 1
        if n > 0:  # the chunk ends within the first lines: all of it
            head.append(item)
            item = next(items, None)
            continue
        head.append(item[:at])
        item = item[at:]
    return head, [item] if item else []


def _oversized(record: Record) -> Batch:
    """An NDJSON line the reader rejected for its size (``OversizedLine``), as a Batch of one line."""
    from jmsctl.filter.fast import Batch

    assert record.error is not None
    return Batch(lines=1, read=1, rejected=1, errors=[(0, None, record.error.field, record.error.reason)])


# ----- records back to JSON -----------------------------------------------------------------


def record_json(record: Record) -> bytes:
    """One compact JSON line (no terminator): the NDJSON line as read, byte for byte, when the
    record came from one; otherwise (JSON array, single object) the message encoded again."""
    if record.raw is not None:
        return record.raw
    if record.message is None:
        raise ValueError(f"{record.location}: a rejected record has no message")
    return orjson.dumps(message_json(record.message))


__all__ = ["PARALLEL_THRESHOLD", "Counts", "Selection", "cpu_count", "default_jobs", "record_json", "select", "select_file"]

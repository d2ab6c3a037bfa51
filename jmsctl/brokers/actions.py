"""``move``, ``copy`` and ``purge`` on a live broker, transport-neutral: what is acted on, in which
batches, and the order that makes them safe.

A transport gives a ``Mover`` (jms_mover.py, stomp_mover.py): one transaction on the broker in which
messages are consumed from SRC and sent on (not at all for a purge). The engine here takes a batch,
writes its messages to the backup and makes them durable (flush and fsync), and only then commits;
any exception (a broker error, a lost connection, KeyboardInterrupt, the CLI's SIGTERM) rolls the
open batch back, so its messages stay in SRC, and leaves ``Tally`` saying how many were committed.
A ``kill -9`` leaves the open transaction to the broker, which gives its messages back to SRC when
the connection drops.

Two ways of choosing: the broker's selector (``--selector``, or none with ``--all``), consumed as it
comes; or exact ids (``--where``: the queue browsed and selected with jmsctl's engine first), consumed
with ``JMSMessageID IN (...)`` a batch at a time; an id that no longer comes was gone meanwhile.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Protocol

from jmsctl.messages.model import Message

# The properties a moved or copied message carries its origin in (README: "move, copy, purge").
ORIGINAL_ID = "JmsctlOriginalMessageID"
ORIGINAL_DESTINATION = "JmsctlOriginalDestination"
DEFAULT_BATCH = 100
DEFAULT_WAIT = 2.0
PAUSE = 0.2  # a take ends early when the broker pauses this long after its first message


@dataclass
class Taken:
    """One message consumed in the open transaction: its id and, when a backup is kept, the message."""

    message_id: str
    message: Message | None = None


class Mover(Protocol):
    """One transport's side of an action: a consumer on SRC in one transaction with a producer."""

    @property
    def lost(self) -> Counter[str]:
        """What the transport could not keep of the messages sent on: kind -> count of messages."""
        ...

    def select(self, selector: str | None) -> None:
        """(Re)open the consumer on SRC with this broker selector (after a commit only)."""
        ...

    def take(self, count: int, wait: float, full: bool) -> list[Taken]:
        """Up to ``count`` messages consumed (and sent on) in the open transaction, the first
        waited for up to ``wait`` seconds, the others up to PAUSE (fewer is not the end: ActiveMQ
        delivers at most its maxPageSize, 200, to one open transaction); ``full``: with the
        messages, for the backup."""
        ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...

    def close(self) -> None: ...


@dataclass
class Tally:
    """What an action did. ``read``: messages taken from SRC (and browsed, with ids); ``acted``:
    committed; ``rolled_back``: taken but given back; ``skipped``: chosen ids gone meanwhile."""

    read: int = 0
    acted: int = 0
    rolled_back: int = 0
    skipped: int = 0
    in_doubt: bool = False  # the last commit failed on the way: the broker may or may not have done it
    batches: int = 0
    skipped_ids: list[str] = field(default_factory=list)


class Backup:
    """The removed messages, one NDJSON line each, made durable before the commit that removes them.
    A new file only (a backup is never overwritten); after a rollback the lines of the batch that was
    given back are cut off again (after a ``kill -9`` they stay: the backup then holds at most one
    batch that is also still in SRC, never less than was removed)."""

    def __init__(self, path: str, encode: Callable[[Message], bytes]) -> None:
        self.path = path
        self.encode = encode
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        self.stream: IO[bytes] = os.fdopen(fd, "wb")
        self.committed = 0  # bytes of committed batches
        directory = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
        try:
            os.fsync(directory)  # the new file's name is durable too
        finally:
            os.close(directory)

    def write(self, messages: Sequence[Message]) -> None:
        """Written, flushed and fsynced: then the batch may commit."""
        self.stream.write(b"".join(self.encode(m) for m in messages))
        self.stream.flush()
        os.fsync(self.stream.fileno())

    def committed_now(self) -> None:
        self.committed = self.stream.tell()

    def given_back(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.truncate(self.committed)
            self.stream.seek(self.committed)
            self.stream.flush()
            os.fsync(self.stream.fileno())

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.stream.close()


def in_selector(ids: Sequence[str]) -> str:
    """``JMSMessageID IN ('a', 'b')``, quotes doubled."""
    return "JMSMessageID IN (" + ", ".join("'" + i.replace("'", "''") + "'" for i in ids) + ")"


def run(mover: Mover, tally: Tally, *, selector: str | None = None, ids: Sequence[str] | None = None,
        max_count: int | None = None, batch: int = DEFAULT_BATCH, wait: float = DEFAULT_WAIT,
        backup: Backup | None = None, progress: Callable[[Tally], None] | None = None,
        check: Callable[[], None] = lambda: None) -> None:
    """Act in batches until SRC has no more (``selector``), the ids are done (``ids``), or
    ``max_count`` were acted on. Any exception rolls the open batch back and propagates; ``tally``
    then says what was committed. ``check`` raises to stop (the CLI's signals, recorded by their
    handlers and raised here): called after each take and each commit, never inside one, so a
    signal cannot leave a commit in doubt."""
    pending: list[Taken] = []

    def settle(taken: list[Taken]) -> None:
        check()
        if backup is not None and taken:
            backup.write([t.message for t in taken if t.message is not None])
        tally.in_doubt = True
        mover.commit()  # also when empty: a connection lost on the way is an error here, not an end
        tally.in_doubt = False
        if backup is not None:
            backup.committed_now()
        tally.acted += len(taken)
        tally.batches += bool(taken)
        if progress is not None:
            progress(tally)
        check()

    full = backup is not None
    try:
        if ids is None:
            mover.select(selector)
            while max_count is None or tally.acted < max_count:
                want = batch if max_count is None else min(batch, max_count - tally.acted)
                pending = mover.take(want, wait, full)
                tally.read += len(pending)
                settle(pending)
                if not pending:  # nothing for ``wait``: SRC has no more (a short take is not the end)
                    break
                pending = []
        else:
            chosen = list(ids if max_count is None else ids[:max_count])
            for start in range(0, len(chosen), batch):
                chunk = chosen[start:start + batch]
                mover.select(in_selector(chunk))
                missing = set(chunk)
                while missing:
                    pending = mover.take(len(missing), wait, full)
                    tally.read += len(pending)
                    missing -= {t.message_id for t in pending}
                    settle(pending)
                    if not pending:
                        break
                    pending = []
                pending = []
                gone = [i for i in chunk if i in missing]
                tally.skipped += len(gone)
                tally.skipped_ids += gone
            if not chosen:
                mover.commit()
        pending = []
    except BaseException:
        tally.rolled_back += len(pending)
        with contextlib.suppress(Exception):
            mover.rollback()
        if backup is not None and not tally.in_doubt:  # a commit in doubt keeps its lines: a superset, never less
            backup.given_back()
        raise


__all__ = ["DEFAULT_BATCH", "DEFAULT_WAIT", "ORIGINAL_DESTINATION", "ORIGINAL_ID", "PAUSE", "Backup", "Mover", "Taken", "Tally", "in_selector", "run"]

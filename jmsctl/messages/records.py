"""Records, the unit every dump reader yields, and the rejections every reader words alike.

Beneath the loader and every format module (``formats/``): a reader of one format needs these and
nothing of the loader's JSON shapes, and the registry needs ``Record`` for its types; both import
them from here, so that neither the loader nor the registry imports the other's importers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jmsctl.messages.decode import RecordError
from jmsctl.messages.jsonkeys import first_duplicate_key, unique_keys_proved
from jmsctl.messages.model import Message
from jmsctl.values import TypedValue

MAX_RECORD_SIZE = 16 * 1024 * 1024
"""Default maximum size of one record, in bytes: an NDJSON line not counting its "\n", or a whole
JSON array or pretty-printed object (those are parsed whole). A larger record is rejected
(``record_too_large``) without being held in memory, so reading never holds much more than this."""


def record_too_large(size: int, limit: int) -> RecordError:
    """The rejection of a record of ``size`` bytes over the maximum ``limit`` (one wording for
    every reader of records, the fast filter included)."""
    return RecordError("", f"record too large: {size:,} bytes, more than the maximum record size of {limit:,} bytes (--max-record-size)")


def duplicate_key(field: str, key: str) -> RecordError:
    """The rejection of a record whose object repeats ``key`` (``field``: the repeated member's path)."""
    return RecordError(field, f"duplicate key {json.dumps(key, ensure_ascii=False)}: readers differ on which value a repeated key has")


def duplicate_key_error(raw: bytes, parsed: Any) -> RecordError | None:
    """The duplicate-key rejection of one record, or None; ``parsed`` is orjson's reading of ``raw``
    (a cheap proof of unique keys for the usual record, the exact scan otherwise)."""
    if unique_keys_proved(raw, parsed):
        return None
    found = first_duplicate_key(raw)
    return None if found is None else duplicate_key(*found)


@dataclass(frozen=True)
class Record:
    """One record of a file: the decoded message, or the reason it was rejected."""

    location: str
    raw: bytes | None  # the NDJSON line as read (without its line terminator), for byte-exact output
    message: Message | None
    error: RecordError | None


@dataclass(frozen=True, slots=True)
class Partial:
    """A record typed only where a selector reads it (``ReadOptions.names``): typing a whole message
    costs more than reading it, and a filter needs the whole only of the messages it passes on.

    ``view`` is exact on those names: what ``whole().message.selector_values()`` holds for them
    whenever ``whole()`` is a message. A reader yields a Partial only when those names were typed
    without an error; otherwise the plain Record, its rejection word for word. ``whole()`` types
    the rest (it may be rejected there: a value off the selector's names)."""

    location: str
    view: dict[str, TypedValue]
    whole: Callable[[], Record]


class Unread:
    """``UNREAD``: in place of a record a reader proved cannot be selected (``ReadOptions.required``)
    and so did not read: it is counted (``skipped``), never typed or judged."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNREAD"


UNREAD = Unread()


@dataclass(frozen=True)
class OversizedLine(Record):
    """An NDJSON line longer than the maximum record size, among the chunks of ``items()``: one
    rejected record (``error`` from ``record_too_large``), one physical line; its bytes were not kept."""


__all__ = ["MAX_RECORD_SIZE", "UNREAD", "OversizedLine", "Partial", "Record", "Unread", "duplicate_key", "duplicate_key_error", "record_too_large"]

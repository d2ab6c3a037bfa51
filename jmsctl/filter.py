"""Selector x record stream -> the selected records and the counts: the core of ``jmsctl filter``.

No printing and no command line here. ``select`` is a generator over the records of
``jmsctl.messages.loader.read_records`` (NDJSON streams in constant memory): each record was
decoded once by the loader, its selector view is built once and handed to the compiled selector.

``record_json`` gives a record back as one compact JSON line: the NDJSON line exactly as read
when there is one, otherwise the message encoded again in the FORMAT.md notation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import orjson

from jmsctl.messages.encode import message_json
from jmsctl.messages.loader import Record
from jmsctl.selector import Selector


@dataclass
class Counts:
    """What ``select`` saw. ``read == true + false + unknown + rejected`` at every point.

    ``selected`` is the number of records passed on: the TRUE ones, or with ``invert`` the FALSE
    and UNKNOWN ones. A rejected record is never passed on.
    """

    read: int = 0
    true: int = 0
    false: int = 0
    unknown: int = 0
    rejected: int = 0
    selected: int = 0


def select(
    selector: Selector,
    records: Iterable[Record],
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
    for record in records:
        counts.read += 1
        message = record.message
        if message is None:
            counts.rejected += 1
            if on_rejected is not None:
                on_rejected(record)
            continue
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
        yield record
        if counts.selected == max_count:
            return


# ----- records back to JSON -----------------------------------------------------------------


def record_json(record: Record) -> bytes:
    """One compact JSON line (no terminator): the NDJSON line as read, byte for byte, when the
    record came from one; otherwise (JSON array, single object) the message encoded again."""
    if record.raw is not None:
        return record.raw
    if record.message is None:
        raise ValueError(f"{record.location}: a rejected record has no message")
    return orjson.dumps(message_json(record.message))


__all__ = ["Counts", "record_json", "select"]

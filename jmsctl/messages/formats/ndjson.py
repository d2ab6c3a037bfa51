"""jmsctl's own format, one JSON message per line (docs/FORMAT.md): read by the JSON loader
(``jmsctl.messages.loader``), which also feeds the fast filter its chunks of lines."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import IO

import orjson

from jmsctl.messages.encode import message_json
from jmsctl.messages.formats import Format, first_line_start
from jmsctl.messages.model import Message

_OBJECT_LINE = re.compile(rb"\n[ \t]*\{")


def sniff(head: bytes) -> float:
    """``{`` first: NDJSON (or one pretty-printed object, which the same loader reads). A broken
    first line is still NDJSON when a later line starts an object. Text that starts with a letter,
    ``<`` or ``*`` is some other format's (or none): never claimed here."""
    start = first_line_start(head)
    if not start:
        return 0.1  # empty or blank: no records
    first = start[:1]
    if first == b"{":
        return SURE_JSON
    if first == b"[":
        return 0.0
    if _OBJECT_LINE.search(head):
        return 0.3
    if first in (b"<", b"*") or first.isalpha():
        return 0.0
    return 0.05  # not JSON either, but nothing else's: the loader reports it line by line


SURE_JSON = 0.9


def write(messages: Iterable[Message], out: IO[bytes]) -> None:
    for message in messages:
        out.write(orjson.dumps(message_json(message)) + b"\n")


FORMAT = Format("ndjson", "jmsctl NDJSON: one JSON message per line (also one pretty-printed object)", sniff, None, write, (".ndjson", ".jsonl", ".json"))

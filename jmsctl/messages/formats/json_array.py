"""jmsctl's own format as one JSON array of messages (docs/FORMAT.md): read by the JSON loader."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import IO

import orjson

from jmsctl.messages.encode import message_json
from jmsctl.messages.formats import Format, first_line_start
from jmsctl.messages.model import Message

_OURS = re.compile(rb'"(?:headers|properties)"\s*:')


def sniff(head: bytes) -> float:
    """A JSON array; surer when jmsctl's own keys show (fmtn-a's arrays score higher on theirs)."""
    if not first_line_start(head).startswith(b"["):
        return 0.0
    return 0.8 if _OURS.search(head) else 0.5


def write(messages: Iterable[Message], out: IO[bytes]) -> None:
    out.write(b"[")
    for i, message in enumerate(messages):
        out.write((b",\n" if i else b"\n") + orjson.dumps(message_json(message)))
    out.write(b"\n]\n")


FORMAT = Format("json", "jmsctl JSON: one array of messages", sniff, None, write)

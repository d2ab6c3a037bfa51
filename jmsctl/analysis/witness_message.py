"""A solver's witness as a message: its model's values written in the dump format (docs/FORMAT.md)
and read back as every command reads a dump, so that the engine judges the very message a user
gets. Split from solver.py (the questions) as the witness's stage of its own."""

from __future__ import annotations

from typing import Any

import orjson

from jmsctl.analysis import smt
from jmsctl.messages.decode import AmbiguousNumber, decode_message
from jmsctl.messages.encode import message_json
from jmsctl.messages.jsontext import parse_json_exact
from jmsctl.messages.model import Message
from jmsctl.values import TypedValue


def doc(message: Message) -> dict[str, Any]:
    """A message in FORMAT.md's JSON, a plain message (the format's default type) left implicit."""
    out = message_json(message)
    out.pop("type", None)
    return out


def message(values: dict[str, TypedValue | None]) -> tuple[Message, dict[str, Any]]:
    """The model's values as a message, through the dump format and back (what every command reads)."""
    headers: dict[str, Any] = {}
    props: dict[str, TypedValue] = {}
    for name, v in values.items():
        if v is None:
            continue
        if name in smt.HEADER_TYPES:
            headers[name] = v[1]
        else:
            props[name] = v
    written = doc(Message(headers, props))
    return read_witness(written), written


def read_witness(doc: dict[str, Any]) -> Message:
    """A witness's JSON as every command reads it: written, then read back as the loader does
    (an integral double beyond the long range read again exactly, as the loader does)."""
    raw = orjson.dumps(doc)
    try:
        return decode_message(orjson.loads(raw))
    except AmbiguousNumber:
        return decode_message(parse_json_exact(raw))


__all__ = ["doc", "message", "read_witness"]

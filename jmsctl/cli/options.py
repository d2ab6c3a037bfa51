"""Options shared by the commands that read message files."""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

import typer

from jmsctl.messages.loader import MAX_RECORD_SIZE


class Dialect(str, Enum):
    """``--dialect``: the standard, IBM MQ's reading (SEMANTICS.md section 5) or a broker engine's
    (docs/dialects.md); the names of ``jmsctl.selector.dialects``, kept equal by a test."""

    jakarta = "jakarta"
    ibm = "ibm"
    artemis = "artemis"
    activemq = "activemq"


DIALECT_HELP = "jakarta (default), ibm, artemis or activemq: whose rules parse and evaluate the selector (docs/dialects.md)."


_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
_SIZE = re.compile(r"\s*([0-9]+)\s*([kmg]?)(?:i?b)?\s*", re.IGNORECASE)


def parse_size(text: str | int) -> int:
    """``16M``, ``16MiB``, ``512k``, ``1G`` or a number of bytes (multiples of 1,024) -> bytes."""
    if isinstance(text, int):  # the default, passed through the parser too
        return text
    m = _SIZE.fullmatch(text)
    if not m or int(m[1]) == 0:
        raise typer.BadParameter(f"{text!r} is not a size: write bytes or a number with k, M or G (16M)")
    return int(m[1]) * _UNITS[m[2].lower()]


def max_record_size() -> Any:
    """``--max-record-size SIZE``: records (NDJSON lines, whole JSON arrays or objects) over it are
    rejected without being held in memory."""
    return typer.Option(
        MAX_RECORD_SIZE, "--max-record-size", metavar="SIZE", parser=parse_size, show_default="16M",
        help="Reject a record (an NDJSON line; a whole JSON array or object) larger than SIZE (bytes, or k/M/G) without holding it in memory.",
    )

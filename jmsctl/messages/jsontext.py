"""JSON text -> values, with the reason for a rejection spelled out (where, invalid UTF-8, too deep)."""

from __future__ import annotations

import json
import sys
from typing import Any

import orjson

from jmsctl.messages.decode import WrittenFloat


class JSONError(ValueError):
    """Invalid JSON in a record (the message says where)."""


def _reject_constant(name: str) -> Any:
    raise JSONError(f"{name} is not JSON")


def parse_json(data: bytes) -> Any:
    """orjson, with the reason for invalid UTF-8 spelled out."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise JSONError(f"invalid UTF-8 at byte {bad.start}") from None
        raise JSONError(str(exc)) from None


def parse_json_exact(data: bytes) -> Any:
    """The standard library's parser: integers of any size stay integers, and numbers written
    with a fraction or exponent are marked (WrittenFloat). Used only when orjson's reading is
    ambiguous (AmbiguousNumber), so it costs nothing on ordinary records."""
    limit = sys.getrecursionlimit()
    try:
        # orjson reads 1,024 levels; the C scanner here counts against the interpreter's limit.
        sys.setrecursionlimit(limit + _ORJSON_DEPTH)
        return json.loads(data.decode("utf-8"), parse_float=WrittenFloat, parse_constant=_reject_constant)
    except UnicodeDecodeError as exc:
        raise JSONError(f"invalid UTF-8 at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise JSONError(str(exc)) from None
    except RecursionError:
        raise JSONError("nested too deeply") from None
    finally:
        sys.setrecursionlimit(limit)


_ORJSON_DEPTH = 1100


JSON_WHITESPACE = b" \t\r\n"


def is_blank(line: bytes) -> bool:
    """A line that is no record: JSON white space only. (``bytes.strip()`` would also drop "\\x0b"
    and "\\x0c", which are not JSON white space: such a line is a broken record, not nothing.)"""
    return not line.strip(JSON_WHITESPACE)

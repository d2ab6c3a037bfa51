"""``FILE:N``: a record named as every command prints it (the 1-based line of an NDJSON file, ``[i]``
for item i of a JSON array, a format's own position otherwise), accepted wherever a file is read for
one message (``explain --message``, ``show``, ``get``), so that a location pasted from filter,
validate or an error names the same record."""

from __future__ import annotations

import os
import re

_POSITION = re.compile(r"(.+):(\[?[0-9]+\]?)")


def split_position(spec: str) -> tuple[str, str | None]:
    """``FILE:N`` -> (FILE, "N"); a path that exists as written (even ending in ``:3``) -> (path, None)."""
    m = _POSITION.fullmatch(spec)
    if m is None or os.path.exists(spec):
        return spec, None
    return m.group(1), m.group(2)


def position_of(location: str, path: str) -> str:
    """The position in a record's location: ``5`` of ``f:5``, ``[3]`` of ``f:[3] (ID:x)`` (the dump
    formats add the message id, and QLOAD its message number, after the position)."""
    name = "<stdin>" if path == "-" else path
    rest = location[len(name) + 1 :] if location.startswith(name + ":") else location.rsplit(":", 1)[-1]
    return rest.split(" (", 1)[0]


def at(location: str, path: str, position: str) -> bool:
    """Whether a record's location (``file:12``, ``file:[3] (ID:x)``) is at ``position`` (``12``, ``[3]``)."""
    return position_of(location, path) == position


__all__ = ["at", "position_of", "split_position"]

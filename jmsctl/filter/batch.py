"""Counting: what the filter of one chunk of NDJSON lines gave (``Batch``), and the sums of those
counts (``add_counts``, ``merge``). Every stage of the fast filter (``jmsctl.filter.fast``) returns
a Batch; ``read == true + false + unknown + rejected + skipped`` in each."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jmsctl.messages.loader import is_blank


@dataclass
class Batch:
    """What one chunk of NDJSON lines gave. Line indexes count from 0 at the chunk's first line;
    the caller, who knows where the chunk starts, turns them into line numbers."""

    lines: int = 0  # physical lines consumed (blank ones included)
    read: int = 0
    true: int = 0
    false: int = 0
    unknown: int = 0
    rejected: int = 0
    skipped: int = 0  # proved not TRUE by the prefilter, not classified further
    selected: int = 0
    out: bytes = b""  # the selected lines, each followed by b"\n" (when not keep_lines)
    kept: list[tuple[int, bytes]] = field(default_factory=list)  # (index, line) of the selected (keep_lines)
    errors: list[tuple[int, bytes | None, str, str]] = field(default_factory=list)  # (index, line, field, reason)
    stopped: bool = False  # max_count reached: nothing after the last selected line was read


NOT_TRUE = object()  # the verdict of a prefiltered line: FALSE or UNKNOWN, not told apart

COUNTS = ("read", "true", "false", "unknown", "rejected", "skipped", "selected")


def add_counts(total: Any, part: Batch) -> None:
    """``part``'s counts added to ``total`` (a Batch, or filter.Counts: the same count fields)."""
    for name in COUNTS:
        setattr(total, name, getattr(total, name) + getattr(part, name))


def merge(total: Batch, sub: Batch, parts: list[bytes]) -> None:
    """Counts, errors and kept lines of ``sub`` added to ``total``; its output to ``parts``."""
    add_counts(total, sub)
    total.stopped = total.stopped or sub.stopped
    if sub.out:
        parts.append(sub.out)
    total.kept += sub.kept
    total.errors += sub.errors


def chunk_lines(chunk: bytes) -> list[bytes]:
    """The lines of a chunk (a b"\\n" ending the chunk ends its last line), \\r kept."""
    if not chunk:
        return []
    lines = chunk.split(b"\n")
    if chunk.endswith(b"\n"):
        lines.pop()
    return lines


def count_records(lines: list[bytes]) -> int:
    """Non-blank lines, as the loader counts records. When the smallest line sorts at or above
    b"!", no line starts with JSON white space (or is empty), so none is blank: one ``min`` in C
    instead of a test per line (bytes.count and a regex for blank lines over the chunk were each
    a byte-at-a-time pass as slow as the split that gives the lines)."""
    if not lines or min(lines) >= b"!":
        return len(lines)
    return sum(1 for line in lines if not is_blank(line))


__all__ = ["COUNTS", "NOT_TRUE", "Batch", "add_counts", "chunk_lines", "count_records", "merge"]

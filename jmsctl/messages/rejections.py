"""Rejected records as a person can read them: a few per file, then a count; and a file that is not
a message dump said once, with what it looks like, instead of one error per line.

``Rejections`` sits between a reader and the error stream (``filter`` uses it; ``classified`` gives
the number of records read as messages so far, TRUE + FALSE + UNKNOWN):

- The first ``SHOWN`` rejected records of a file are reported one per line, the rest counted and
  summed up when the file ends (``FILE: 1,234 more rejected records not shown``), as ``check``
  caps diagnostics (W013). Every record is still counted where the counts are kept: read = TRUE +
  FALSE + UNKNOWN + rejected holds whatever is shown.
- When the first ``FIRST`` rejected records of a file are all lines that are not JSON messages at
  all (invalid JSON, or not a JSON object) and no record of the file was a message before them
  (lines the prefilter passed over unparsed are not known either way), or ``RUN`` such lines
  follow each other anywhere, the file is not a dump in this format: ``NotADump`` (an
  ``InputError``, exit status 2) is raised naming the file and what the content looks like:
  another format that the registry's sniffers recognise (with the ``--from`` that reads it),
  XML, HTML, CSV, binary data... The counts hold what was read until then.
  A dump whose records are JSON messages with bad fields is never given up on: each of those is
  a rejected record like any other.

The first records are held back until the decision is made (at most ``FIRST`` of them), so that a
file given up on prints one message, not five lines and then the message.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jmsctl.messages.sources import InputError

if TYPE_CHECKING:
    from jmsctl.messages.loader import Record

SHOWN = 100
"""Rejected records reported per file; the rest are counted (check reports 100 diagnostics per selector)."""

FIRST = 5
"""The first records of a file, all not JSON messages: not a dump in this format."""

RUN = 100
"""That many lines in a row that are not JSON messages: the rest of the file is not one either."""

_LINE = re.compile(r":(\d+)$")
_SPACE = b" \t\r\n\x0b\x0c"
_BOM = b"\xef\xbb\xbf"


class NotADump(InputError):
    """A file whose content is not records of the format it is read as."""


def foreign(record: Record) -> bool:
    """Whether a rejected line is not a JSON message at all (rather than a message with a bad field)."""
    reason = record.error.reason if record.error is not None else ""
    if reason.startswith("invalid JSON"):
        return True
    raw = record.raw
    if raw is None:
        return reason.startswith("record too large")
    return not raw.lstrip(_SPACE).removeprefix(_BOM).lstrip(_SPACE).startswith(b"{")


def looks_like(sample: bytes) -> str:
    """What the bytes of a file look like, in a few words, for a person deciding what to do."""
    text = sample.removeprefix(_BOM).lstrip(_SPACE)
    fmt = _sniffed(sample)
    if fmt is not None:
        return fmt
    if not text:
        return "empty lines"
    if b"\x00" in text[:4096] or _binary(text[:4096]):
        return "binary data, not text"
    start = text[:200].lower()
    if start.startswith((b"<!doctype html", b"<html")) or b"<html" in start:
        return "HTML"
    if start.startswith(b"<"):
        return "XML (of no message format jmsctl knows)"
    if start.startswith((b"{", b"[")):
        return "JSON, but not one message per line"
    lines = [line for line in text.splitlines()[:FIRST] if line.strip()]
    for sep, name in ((b",", "CSV"), (b"\t", "tab-separated values"), (b";", "semicolon-separated values")):
        counts = {line.count(sep) for line in lines}
        if len(counts) == 1 and min(counts) >= 1:
            return f"{name} ({min(counts) + 1} fields a line)"
    if start.startswith((b"---", b"%yaml")):
        return "YAML"
    return "text that is not JSON"


def _sniffed(sample: bytes) -> str | None:
    """Another format of the registry that recognises the sample, with the option that reads it."""
    try:
        from jmsctl.messages import formats
    except ImportError:  # pragma: no cover - the registry is part of the package
        return None
    fmt = formats.detect(sample)
    if fmt is None or fmt.name in ("ndjson", "json"):
        return None
    return f"{fmt.summary}: read it with --from {fmt.name}"


def _file_head(path: str, size: int = 64 * 1024) -> bytes | None:
    """The first bytes of a regular file (gzip undone), for the sniffers: they recognise a format
    by its start, which the rejected lines alone may not show. None for stdin or an unreadable file."""
    try:
        with open(path, "rb") as f:
            head = f.read(size)
    except OSError:
        return None
    if head.startswith(b"\x1f\x8b"):
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, size)
        except zlib.error:
            return None
    return head


def _binary(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start < len(data) - 4  # not just a character cut at the end of the sample
    return False


def _quote(raw: bytes | None, width: int = 40) -> str:
    if raw is None:
        return ""
    text = raw.decode("utf-8", "backslashreplace")
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text[: width + 1])
    return f'"{text[:width]}{"..." if len(text) > width else ""}"'


@dataclass
class _File:
    name: str
    base: int = 0  # messages classified before the file started
    rejected: int = 0
    shown: int = 0
    held: list[Record] = field(default_factory=list)  # the first records, while they are a run from line 1
    deciding: bool = True
    run_start: int = 0  # the current run of foreign lines: first and last line, first record, samples
    run_last: int = -1
    run_first: Record | None = None
    samples: list[bytes] = field(default_factory=list)


_NL = b"\n"


class Rejections:
    """Per-file reporting of rejected records; see the module doc. ``say`` writes one error line
    (None: nothing is shown, as with ``--skip-invalid``; giving up on a file is still raised)."""

    def __init__(
        self, say: Callable[[str], None] | None, classified: Callable[[], int] | None = None, shown: int = SHOWN, first: int = FIRST, run: int = RUN,
        *, show: Callable[[Record], None] | None = None,
    ) -> None:
        self.say = say
        self._show_record = show  # a command's own rendering of a rejected record (show's blocks); else one say() line
        self._classified = classified or (lambda: 0)
        self.limit, self.first, self.run = shown, first, run
        self._file: _File | None = None

    def start(self, name: str) -> None:
        """A new file: what was held for the previous one is reported."""
        self.finish()
        self._file = _File(name, base=self._classified())

    def __call__(self, record: Record) -> None:
        """One rejected record of the current file (its location ``NAME:LINE`` for NDJSON)."""
        f = self._file
        if f is None:
            self.start(record.location.rsplit(":", 1)[0])
            f = self._file
            assert f is not None
        f.rejected += 1
        m = _LINE.search(record.location)
        line = int(m.group(1)) if m else None
        if line is None or not foreign(record):
            f.run_last = -1
            if f.deciding:
                self._release(f)
            self._show(f, record)
            return
        if line != f.run_last + 1:
            f.run_start, f.run_first, f.samples = line, record, []
        f.run_last = line
        if record.raw is not None and len(f.samples) < self.first:
            f.samples.append(record.raw)
        looks = lambda: looks_like(_file_head(f.name) or _NL.join(f.samples))  # noqa: E731 - only when giving up
        if f.deciding and self._classified() == f.base:  # no message yet, only foreign lines: held back
            f.held.append(record)
            if len(f.held) >= self.first:
                raise NotADump(
                    f"{f.name}: not a message dump: its first {len(f.held)} lines are not JSON messages; it looks like "
                    f"{looks()}; not read further (see docs/FORMAT.md)"
                )
            return
        if f.deciding:
            self._release(f)
        self._show(f, record)
        if line - f.run_start + 1 >= self.run:
            assert f.run_first is not None
            raise NotADump(
                f"{f.name}:{line}: stopped reading: lines {f.run_start} to {line} are not JSON messages; they look like "
                f"{looks()}; the first reads {_quote(f.run_first.raw)}"
            )

    def _release(self, f: _File) -> None:
        f.deciding = False
        held, f.held = f.held, []
        for record in held:
            self._show(f, record)

    def _show(self, f: _File, record: Record) -> None:
        if self.say is not None and f.shown < self.limit:
            f.shown += 1
            if self._show_record is not None:
                self._show_record(record)
            else:
                self.say(f"{record.location}: {record.error}")

    def finish(self) -> None:
        """The current file has ended: held records reported, the hidden ones counted."""
        f, self._file = self._file, None
        if f is None:
            return
        self._release(f)
        hidden = f.rejected - f.shown
        if self.say is not None and hidden > 0:
            self.say(f"{f.name}: {hidden:,} more rejected records not shown ({f.rejected:,} in this file; the first {f.shown} are above)")

    def abandon(self) -> None:
        """The current file was given up on (NotADump, reported next by the caller): the records
        not shown are counted, the held ones are not shown (the caller's message says it all)."""
        f, self._file = self._file, None
        if f is None:
            return
        hidden = f.rejected - f.shown - len(f.held)
        if self.say is not None and hidden > 0:
            self.say(f"{f.name}: {hidden:,} more rejected records not shown")


def report_capped(rejected: Iterable[tuple[str, str]], say: Callable[[str], None], shown: int = SHOWN) -> None:
    """(location, reason) pairs of rejected records, already complete (a Spark job's): the first
    ``shown`` of each file reported, then the count of the others."""
    per_file: dict[str, list[int]] = {}  # file -> [shown, total]
    for location, reason in rejected:
        name = _LINE.sub("", location) if _LINE.search(location) else location.rsplit(":", 1)[0]
        seen = per_file.setdefault(name, [0, 0])
        seen[1] += 1
        if seen[0] < shown:
            seen[0] += 1
            say(f"{location}: {reason}")
    for name, (n_shown, total) in per_file.items():
        if total > n_shown:
            say(f"{name}: {total - n_shown:,} more rejected records not shown ({total:,} in this file; the first {n_shown} are above)")


__all__ = ["FIRST", "RUN", "SHOWN", "NotADump", "Rejections", "foreign", "looks_like", "report_capped"]

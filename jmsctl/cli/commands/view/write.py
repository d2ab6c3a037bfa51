"""The write key of ``jmsctl view``: the selection to a file, in any format jmsctl writes, all or
nothing (``jmsctl.outputs``: a temp file renamed at the end, removed on any error). NDJSON keeps each
line byte for byte as read (as ``jmsctl filter`` writes it); the other formats go through their writer."""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Iterator, Sequence

from jmsctl.cli.commands.view.index import Dump
from jmsctl.filter import record_json
from jmsctl.messages import formats
from jmsctl.messages.model import Message
from jmsctl.outputs import OutputError, open_output

WRITABLE = ("ndjson", "json", "fmtn-a", "artemis-xml")


def write_selection(dump: Dump, ids: Sequence[int], path: str, fmt_name: str) -> tuple[str, str]:
    """Write the records ``ids`` to ``path``; (what happened in one line, a notify severity)."""
    fmt = formats.get(fmt_name)
    if fmt.write is None:  # pragma: no cover - WRITABLE names writers only
        return f"jmsctl does not write {fmt_name}", "error"
    try:
        out = open_output(path)
    except OutputError as exc:
        return str(exc), "error"
    if out.direct:
        out.discard()
        return f"{path}: give a file (the write is all or nothing)", "error"
    written = rejected = 0
    lost: Counter[str] = Counter()

    def messages() -> Iterator[Message]:
        nonlocal written, rejected
        for rid in ids:
            record = dump.record(rid)
            if record.message is None:
                rejected += 1
                continue
            written += 1
            yield record.message

    try:
        if fmt_name == "ndjson":
            for rid in ids:
                record = dump.record(rid)
                if record.message is None:
                    rejected += 1
                    continue
                out.write(record_json(record) + b"\n")
                written += 1
        elif "lost" in inspect.signature(fmt.write).parameters:
            fmt.write(messages(), out.stream, lost)  # type: ignore[call-arg]
        else:
            fmt.write(messages(), out.stream)
        out.commit()
    except OSError as exc:
        out.discard()
        return f"cannot write {path}: {exc.strerror or exc}: nothing written", "error"
    except BaseException:
        out.discard()
        raise
    said = f"wrote {written:,} message{'s' if written != 1 else ''} to {path} ({fmt_name})"
    if rejected:
        said += f"; {rejected:,} rejected record{'s' if rejected != 1 else ''} left out"
    for what, n in sorted(lost.items()):
        said += f"; not in {fmt_name} as it was: {what}: {n}"
    return said, "information"


__all__ = ["WRITABLE", "write_selection"]

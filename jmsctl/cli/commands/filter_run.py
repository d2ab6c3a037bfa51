"""The run of ``jmsctl filter`` (its options: filter.py): the selector compiled, the files read through
jmsctl.filter, the selected messages written in the output format, counts and errors reported."""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import signal
import sys
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import Any

import typer

from jmsctl import selector as sel
from jmsctl.cli.errors import FORMAT_NOTE, fail, say, swapped_arguments
from jmsctl.cli.options import Dialect, load_types
from jmsctl.cli.render import Source, is_terminal
from jmsctl.cli.selecting import compiled as compiled_selector
from jmsctl.filter import Counts, Selection, default_jobs, record_json, select, select_file
from jmsctl.messages.loader import InputError, Record, judge_line, read_records
from jmsctl.messages.model import DELIVERY_MODES, Message
from jmsctl.messages.rejections import Rejections
from jmsctl.outputs import Output, OutputError, open_output
from jmsctl.spec import HEADER_NAMES
from jmsctl.values import format_value

PROG = "jmsctl filter"


class _Failure(Exception):
    """An error reported in one line on stderr: exit status 2."""


def run(
    args: list[str] | None,
    selector_file: str | None,
    count: bool,
    invert: bool,
    max_count: int | None,
    output_format: str,
    output: str | None,
    explain: bool,
    stats: bool,
    dialect: Dialect,
    skip_invalid: bool,
    validate_all: bool,
    jobs: int | None,
    engine: str,
    max_size: int,
    source_format: str | None,
    types_file: str | None,
    quiet: bool,
) -> None:
    """The command, its options as typer parsed them (the enums by value)."""
    try:
        source, paths = _selector_and_paths(args or [], selector_file)
    except _Failure as exc:
        _error(str(exc))
        raise typer.Exit(2) from None

    def swapped() -> None:
        wrong_way = swapped_arguments(source.text, (args or [])[1:]) if selector_file is None else None
        if wrong_way:
            fail(wrong_way)

    compiled = compiled_selector(source, dialect.value, quiet, before_errors=swapped)
    unreadable = [problem for problem in map(_unreadable, paths) if problem]
    if unreadable:  # known before anything is read: nothing written, not even a count (exit 2)
        for problem in unreadable:
            _error(problem)
        raise typer.Exit(2)
    try:
        out = _open(output)
    except _Failure as exc:
        _error(str(exc))
        raise typer.Exit(2) from None

    counts = Counts()
    errors = 0
    formats_read: list[tuple[str, str, bool]] = []  # (file, format, detected) for --stats

    def input_error(exc: InputError) -> None:
        nonlocal errors
        errors += 1
        _error(str(exc))

    # Capped per file; a file that is no dump given up on.
    rejections = Rejections(None if skip_invalid else say, lambda: counts.true + counts.false + counts.unknown)

    reported = 0

    def rejected(record: Record) -> None:
        nonlocal errors, reported
        errors += 0 if skip_invalid else 1
        reported += 0 if skip_invalid else 1
        rejections(record)

    selected = _all_selected(
        paths,
        input_error,
        compiled,
        counts,
        invert=invert,
        max_count=max_count,
        on_rejected=rejected,
        rejections=rejections,
        exact=stats,
        validate_all=validate_all,
        direct=out.descriptor if output_format == "ndjson" and not count and not explain else None,
        keep_lines=(output_format in ("ids", "pretty") or explain) and not count,
        discard=count,
        jobs=jobs,
        engine=engine,
        max_record_size=max_size,
        source_format=source_format,
        types=load_types(types_file),
        formats_read=formats_read,
    )
    try:
        if count:
            for _ in selected:
                pass
            out.stream.write(b"%d\n" % counts.selected)
        else:
            writer = _explainer(source.text, dialect.value) if explain else _WRITERS[output_format]
            writer(selected, out.write)
        if errors and not out.direct:
            _error(f"{out.path} not written because of the errors above")
        else:
            out.commit()
    except BrokenPipeError:
        # stdout closed early (| head): quiet, with the status grep has when SIGPIPE kills it. Typer
        # would exit 1 ("nothing selected") before the entry point's own handler could see this.
        _stdout_to_devnull()
        raise typer.Exit(128 + _SIGPIPE) from None
    except OSError as exc:
        errors += 1
        _error(f"cannot write {out.path or 'stdout'}: {exc.strerror or exc}")
    finally:
        out.discard()  # no-op after a commit; removes the temp file on error or Ctrl-C
        selected.close()
    if reported:  # where to read what a record may hold, once (the stats line stays the last)
        sys.stderr.write(f"{FORMAT_NOTE}\n")
    if stats:
        # Which format each file was read as, once any is not jmsctl's own (the stats line of an
        # NDJSON run stays as it always was: scripts read it as the last line).
        for name, fmt, detected in formats_read if any(f not in ("ndjson", "json") for _, f, _ in formats_read) else ():
            sys.stderr.write(f"{name}: format {fmt} ({'detected' if detected else '--from'})\n")
        sys.stderr.write(
            f"read {counts.read}, TRUE {counts.true}, FALSE {counts.false}, UNKNOWN {counts.unknown}, "
            f"rejected {counts.rejected}, selected {counts.selected}\n"
        )
    raise typer.Exit(2 if errors else 0 if counts.selected else 1)


_SIGPIPE = int(getattr(signal, "SIGPIPE", 13))


def _stdout_to_devnull() -> None:
    """Python flushes stdout at exit: point it at devnull so that flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def _error(text: str) -> None:
    say(text)


def _unreadable(path: str) -> str | None:
    """Why a file argument cannot be read at all (missing, a directory), or None; the loader
    reports what only reading shows (a broken gzip, a file that is no dump)."""
    if path == "-" or os.path.isfile(path) or (os.path.exists(path) and not os.path.isdir(path)):
        return None
    if os.path.isdir(path):
        return f"{path}: is a directory"
    if path.startswith("-"):
        return f"{path}: no such file (an option after `--` is read as a file: options go before `--` and the selector)"
    return f"{path}: no such file"


def _selector_and_paths(args: list[str], selector_file: str | None) -> tuple[Source, list[str]]:
    if selector_file is None:
        if not args:
            raise _Failure("give a SELECTOR (or -f SELECTOR_FILE), then the message files; no file reads stdin")
        source, paths = Source("<arg>", args[0]), args[1:]
    else:
        source, paths = _read_selector(selector_file), args
    paths = paths or ["-"]
    if selector_file == "-" and "-" in paths:
        raise _Failure("the selector is read from stdin (-f -), so the messages must come from files")
    return source, paths


def _read_selector(path: str) -> Source:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise _Failure(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise _Failure(f"{path}: {exc.strerror or exc}") from None
    return Source("<stdin>" if path == "-" else path, text.rstrip("\r\n"), is_file=path != "-")


Item = Record | Selection


def _all_selected(
    paths: list[str],
    on_error: Callable[[InputError], None],
    compiled: sel.Selector,
    counts: Counts,
    *,
    max_count: int | None,
    jobs: int | None,
    engine: str,
    max_record_size: int,
    source_format: str | None = None,
    types: Any = None,
    formats_read: list[tuple[str, str, bool]] | None = None,
    rejections: Rejections | None = None,
    **options: Any,
) -> Generator[Item, None, None]:
    """What every file in turn selects; a file that cannot be read is reported and skipped."""
    for path in paths:
        if max_count is not None and counts.selected >= max_count:
            return
        if rejections is not None:
            rejections.start("<stdin>" if path == "-" else path)
        n = jobs if jobs is not None else default_jobs(path)
        reader = read_records(path, max_record_size, source_format, types)
        try:
            if engine == "plain":
                yield from select(
                    compiled, reader, counts, invert=options["invert"], max_count=max_count, on_rejected=options["on_rejected"]
                )
                continue
            yield from select_file(
                compiled, path, counts, max_count=max_count, jobs=n, reader=reader, prefilter=engine in ("fast", "whole"),
                max_record_size=max_record_size, partial=engine == "fast", **options,
            )
        except InputError as exc:
            if rejections is not None:
                rejections.abandon()
            on_error(exc)
        if rejections is not None:
            rejections.finish()
        fmt = getattr(reader, "format", None)  # None: never started
        if formats_read is not None and fmt is not None:
            formats_read.append(("<stdin>" if path == "-" else path, fmt, source_format is None))


# ----- output --------------------------------------------------------------------------------

Write = Callable[[bytes], object]


def _open(path: str | None) -> Output:
    """stdout, or FILE written all or nothing (``jmsctl.outputs``); ``_Failure`` if it cannot be."""
    try:
        out = open_output(path)
    except OutputError as exc:
        raise _Failure(str(exc)) from None
    if out.path is None and is_terminal(sys.stdout):  # a person watching (stdin may be a live feed): no block buffering
        stream = out.stream

        def write_flush(data: bytes) -> None:
            stream.write(data)
            if data.endswith(b"\n"):
                stream.flush()

        out.write = write_flush  # type: ignore[method-assign]
    return out


def _write_ndjson(items: Iterable[Item], write: Write) -> None:
    for item in items:
        if type(item) is Selection:
            write(item.out)  # the selected lines as read, each with its b"\n"
            continue
        raw = item.raw  # type: ignore[union-attr]
        write(raw if raw is not None else record_json(item))  # type: ignore[arg-type]
        write(b"\n")


def _write_json(items: Iterable[Item], write: Write) -> None:
    """One JSON array, streamed: NDJSON lines go in byte for byte (each is one JSON value)."""
    sep = b"[\n"
    for item in items:
        if type(item) is Selection:
            # Lines hold no b"\n": each line end becomes the separator to the next line.
            write(sep + item.out[:-1].replace(b"\n", b",\n"))
        else:
            write(sep)
            write(record_json(item))  # type: ignore[arg-type]
        sep = b",\n"
    write(b"[]\n" if sep == b"[\n" else b"\n]\n")


def _records(items: Iterable[Item]) -> Iterator[Record]:
    """Records with their messages: the lines of a Selection decoded again (the plain decode)."""
    for item in items:
        if type(item) is Selection:
            for lineno, raw in item.kept:
                yield judge_line(item.name, lineno, raw)
        else:
            yield item  # type: ignore[misc]


def _write_ids(items: Iterable[Item], write: Write) -> None:
    for record in _records(items):
        assert record.message is not None
        mid = record.message.headers.get("JMSMessageID")
        write(_encode(_printable(mid) if mid else record.location) + b"\n")


def _write_pretty(items: Iterable[Item], write: Write) -> None:
    sep = b""
    for record in _records(items):
        assert record.message is not None
        write(sep + _encode(pretty(record.location, record.message)))
        sep = b"\n"


def _explainer(text: str, dialect: str) -> Callable[[Iterable[Item], Write], None]:
    """``--explain``: for each message written, its location and JMSMessageID, the verdict, and the
    conditions that decided it (jmsctl/selector/why.py), one a line."""
    from jmsctl.selector.explainer import explain
    from jmsctl.selector.why import deciding

    def write_explained(items: Iterable[Item], write: Write) -> None:
        for record in _records(items):
            assert record.message is not None
            ex = explain(text, record.message.get, dialect)
            mid = record.message.headers.get("JMSMessageID")
            verdict = "selected" if ex.selected else "not selected"
            head = f"{record.location}  {_printable(mid) if mid else '(no JMSMessageID)'}  {ex.result} -> {verdict}"
            write(_encode(head + "\n" + "".join(f"  {_printable(str(r))}\n" for r in deciding(ex))))

    return write_explained


_WRITERS: dict[str, Callable[[Iterable[Item], Write], None]] = {
    "ndjson": _write_ndjson,
    "json": _write_json,
    "ids": _write_ids,
    "pretty": _write_pretty,
}


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "backslashreplace")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _printable(text: str) -> str:
    """Control characters escaped, so that a value can neither break a line nor drive a terminal."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_BODY_PREVIEW = 60


def pretty(location: str, message: Message) -> str:
    """A short plain-text block: location and kind, headers, typed properties, a body summary."""
    headers = [(name, _header_text(name, message.headers[name])) for name in HEADER_NAMES if name in message.headers]
    props = [(name, format_value(v)) for name, v in message.properties.items()]
    props += [(name, "null (absent for selectors)") for name in message.null_properties]
    width = max([len(name) for name, _ in headers] + [len(name) + 2 for name, _ in props] + [15])
    lines = [f"{location}  {message.body_type} message"]
    lines += [f"  {name.ljust(width)}  {text}" for name, text in headers]
    if props:
        lines.append("  properties")
        lines += [f"    {name.ljust(width - 2)}  {text}" for name, text in props]
    body = _body_summary(message)
    if body is not None:
        lines.append(f"  {'body'.ljust(width)}  {body}")
    if message.source:  # what the dump knew beyond JMS (never selected on): its plain facts, in one line
        facts = " ".join(f"{k}={v}" for k, v in message.source.items() if isinstance(v, (str, int, float, bool)))
        lines.append(f"  {'source'.ljust(width)}  {facts}")
    return "".join(_printable(line) + "\n" for line in lines)


def _header_text(name: str, value: object) -> str:
    if name == "JMSDeliveryMode":
        return DELIVERY_MODES[value]  # type: ignore[index]
    if name == "JMSTimestamp" and type(value) is int:
        try:
            when = dt.datetime.fromtimestamp(value / 1000, tz=dt.timezone.utc)
        except (OverflowError, ValueError, OSError):
            return str(value)
        return f"{value} ({when.isoformat(timespec='milliseconds').replace('+00:00', 'Z')})"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _body_summary(message: Message) -> str | None:
    body = message.body
    if body is None:
        return None
    kind = message.body_type
    if kind == "text":
        if len(body) <= _BODY_PREVIEW:
            return repr(body)
        return f"{body[:_BODY_PREVIEW]!r}... ({len(body)} characters)"
    if kind in ("bytes", "object"):
        return f"{len(body)} bytes"
    if kind == "map":
        return f"map of {len(body)} entries"
    return f"stream of {len(body)} values"


__all__ = ["pretty", "run"]

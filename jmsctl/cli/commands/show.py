"""``jmsctl show``: messages pretty-printed for a person, or re-serialized as typed JSON lines.

The view of a message (Java-style values, dates, hex dump lines) is built by
``jmsctl.messages.printer``; this module turns it into rich renderables (tables, syntax
highlighting on a terminal, plain text when piped or with NO_COLOR) and handles selection and
exit codes: 0 shown, 1 nothing selected by --index/--id, 2 a rejected record or an unreadable file.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from enum import Enum
from typing import Any, Optional

import orjson
import typer
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from jmsctl.cli.complete import names_for_selector
from jmsctl.cli.errors import FORMAT_NOTE, fail, looks_like_selector, say
from jmsctl.cli.locate import at, split_position
from jmsctl.cli.options import DIALECT_HELP, Dialect, from_format, load_types, max_record_size, property_types
from jmsctl.cli.render import console
from jmsctl.cli.selecting import quiet_option
from jmsctl.messages.encode import message_json
from jmsctl.messages.loader import MAX_RECORD_SIZE, InputError, Record, read_records
from jmsctl.messages.printer import BodyView, EntryRow, MessageView, hex_text, message_view, visible
from jmsctl.messages.rejections import Rejections

PROG = "jmsctl show"


class ShowFormat(str, Enum):
    pretty = "pretty"
    json = "json"


def show(
    files: list[str] = typer.Argument(..., metavar="FILE...", help="Message files (NDJSON, JSON, or a dump: fmtn-a, activemq browse, dmpmqmsg, Artemis XML; gzip too); '-' is stdin."),  # noqa: B008
    index: Optional[int] = typer.Option(  # noqa: UP045
        None, "--index", min=0, metavar="N", help="Only record N of each file, counting from 0 (the N of file:[N]); FILE:LINE names one record as filter prints it."
    ),
    message_id: Optional[str] = typer.Option(None, "--id", metavar="ID", help="Only the message(s) whose JMSMessageID is ID."),  # noqa: UP045
    where: Optional[str] = typer.Option(None, "--where", "-w", metavar="SELECTOR", autocompletion=names_for_selector, help="Only the messages SELECTOR selects."),  # noqa: UP045
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    output_format: ShowFormat = typer.Option(  # noqa: B008
        ShowFormat.pretty, "--format", help="pretty (for a person) or json (one typed FORMAT.md object a line: valid input again)."
    ),
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
    types_file: Optional[str] = property_types(),  # noqa: UP045
    quiet: bool = quiet_option(),
) -> None:
    """Show messages for a person: headers, properties, body.

    Exit 0 shown, 1 nothing matched --index, --id or --where, 2 a rejected record or an unreadable file.

    Example: jmsctl show samples/orders-small.ndjson --where "JMSType = 'truck'"
    """
    err = console(stderr=True)
    if index is not None and message_id is not None:
        fail("show: --index and --id cannot be used together")
    chosen = None if where is None else _compile_where(where, dialect.value, quiet)
    out = _JsonOut() if output_format is ShowFormat.json else _PrettyOut(console())
    failed = selected = skipped = rejected = 0
    first_skipped = ""
    types = load_types(types_file)
    messages = 0
    # Rejected records capped per file; a file that is not a dump is one error (jmsctl.messages.rejections).
    rejections = Rejections(say, lambda: messages, show=lambda record: out.rejected(record, err))
    for path in files:
        rejections.start("<stdin>" if path == "-" else path)
        try:
            for record in _selected(path, index, max_size, source_format, types):
                if message_id is not None:
                    if record.message is None:
                        skipped += 1
                        first_skipped = first_skipped or record.location
                        continue
                    if record.message.headers.get("JMSMessageID") != message_id:
                        continue
                if chosen is not None and record.message is not None and not chosen.matches(record.message):
                    continue
                selected += 1
                if record.error is not None:
                    failed += 1
                    rejected += 1
                    rejections(record)
                if record.message is not None:
                    messages += 1
                    out.message(record)
        except InputError as exc:
            rejections.abandon()
            say(f"arguments are FILE...: {path!r} reads as a selector; give it with --where" if looks_like_selector(path) else str(exc))
            failed += 1
        except BrokenPipeError:
            _closed_pipe()
        rejections.finish()
    _report_unselected(err, files, message_id, selected, skipped, first_skipped)
    if rejected:  # where to read what a record may hold, once
        sys.stderr.write(f"{FORMAT_NOTE}\n")
    picked = any(split_position(path)[1] is not None for path in files)  # FILE:LINE: one record asked for
    raise typer.Exit(2 if failed else 0 if selected or (index is None and message_id is None and where is None and not picked) else 1)


def _compile_where(text: str, dialect: str, quiet: bool) -> Any:
    """The --where selector, compiled; an invalid one is reported as check reports it (exit 2), its warnings once."""
    from jmsctl.cli.render import Source
    from jmsctl.cli.selecting import compiled

    return compiled(Source("--where", text), dialect, quiet)


def _selected(path: str, index: int | None, max_size: int = MAX_RECORD_SIZE, fmt: str | None = None, types: Any = None) -> Iterator[Record]:
    """Every record of the file, or only record ``index``, or with ``FILE:N`` only the record at N (as
    locations are printed: line N of an NDJSON file); one not found is reported to stderr."""
    path, position = split_position(path)
    if position is not None:
        last = ""
        for record in read_records(path, max_size, fmt, types):
            last = record.location
            if at(record.location, path, position) and (index is None or index == 0):
                yield record
                return
        say(f"{'<stdin>' if path == '-' else path}: no record at {position}" + (f" (the last is {last})" if last else " (no records)"))
        return
    count = 0
    for count, record in enumerate(read_records(path, max_size, fmt, types), 1):
        if index is None or count - 1 == index:
            yield record
            if index is not None:
                return
    if index is not None:
        name = "<stdin>" if path == "-" else path
        say(f"{name}: has no record [{index}] ({count} in all)")


def _report_unselected(err: Console, files: list[str], message_id: str | None, selected: int, skipped: int, first: str) -> None:
    if message_id is None:
        return
    if skipped:
        say(f"{first}: {skipped} rejected record(s) could not be searched for --id, the first here")
    if not selected:
        say(f"{', '.join(files)}: no message with JMSMessageID {json.dumps(message_id, ensure_ascii=False)}")


def _closed_pipe() -> None:
    """stdout closed early (``| head``): quiet, with the status SIGPIPE gives; click and rich would exit 1."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python flushes stdout at exit: that flush must not fail again
        os.close(devnull)
    except (OSError, ValueError):
        pass
    raise typer.Exit(128 + int(getattr(signal, "SIGPIPE", 13)))


# ----- output ------------------------------------------------------------------------------------


class _JsonOut:
    """One compact typed JSON object a line on stdout; rejected records as one line on stderr."""

    def message(self, record: Record) -> None:
        assert record.message is not None
        # No "location": FORMAT.md allows no other top-level key, and this output must be valid input.
        doc = message_json(record.message, typed=True)
        try:
            line = orjson.dumps(doc).decode()
        except orjson.JSONEncodeError:  # a lone surrogate (read by the standard library path): escape it
            line = json.dumps(doc, separators=(",", ":"))
        sys.stdout.write(line + "\n")

    def rejected(self, record: Record, err: Console) -> None:
        if record.error is not None:
            where = f"{record.error.field}: " if record.error.field else ""
            say(visible(f"{record.location}: rejected: {where}{record.error.reason}"))


class _PrettyOut:
    """Blocks separated by a blank line; colour and highlighting only on a terminal."""

    def __init__(self, con: Console) -> None:
        self.con = con
        con.on_broken_pipe = self._broken_pipe  # type: ignore[method-assign]
        self.plain = con.no_color or con.color_system is None
        self.first = True

    def _print(self, renderables: list[RenderableType]) -> None:
        if not self.first:
            self.con.print()
        self.first = False
        for r in renderables:
            self.con.print(r if isinstance(r, Text | Syntax) else _Trimmed(r), soft_wrap=isinstance(r, Text))

    def _broken_pipe(self) -> None:
        self.con.quiet = True
        _closed_pipe()

    def message(self, record: Record) -> None:
        assert record.message is not None
        self._print(render_message(message_view(record.location, record.message), self.plain))

    def rejected(self, record: Record, err: Console) -> None:
        if record.error is not None:
            self._print(render_rejected(record))


class _Trimmed:
    """A renderable without the trailing spaces a borderless table pads its lines with."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in console.render_lines(self.renderable, options, pad=False):
            while line and not line[-1].control and not line[-1].text.rstrip(" "):
                line.pop()
            if line and not line[-1].control:
                line[-1] = Segment(line[-1].text.rstrip(" "), line[-1].style)
            yield from line
            yield Segment.line()


def render_rejected(record: Record) -> list[RenderableType]:
    assert record.error is not None
    title = Text(visible(record.location), style="bold")
    title.append("  rejected", style="bold red")
    grid = _grid()
    grid.add_row(Text("field", style="blue"), Text(visible(record.error.field) or "(the record)"))
    grid.add_row(Text("reason", style="blue"), Text(visible(record.error.reason)))
    return [title, grid]


def render_message(view: MessageView, plain: bool) -> list[RenderableType]:
    title = Text(view.location, style="bold")
    title.append("  ")
    title.append(view.type_name, style="bold magenta")
    out: list[RenderableType] = [title, _section("Headers", "" if view.headers else "(none)")]
    if view.headers:
        grid = _grid()
        for h in view.headers:
            value = Text(h.value)
            if h.note:
                value.append(f"  {h.note}", style="dim")
            grid.add_row(Text(h.name, style="blue"), value)
        out.append(grid)
    out.append(_section("Properties", str(len(view.properties)) if view.properties else "(none)"))
    if view.properties:
        table = _grid("name", "type", "value", "")
        for p in view.properties:
            table.add_row(
                Text(p.name, style="blue"),
                Text(p.java_type, style="green"),
                Text(p.value, style="dim italic" if not p.java_type else ""),
                Text(p.mark, style="yellow"),
            )
        out.append(table)
    out.append(_section("Body", view.body.summary))
    out.extend(_body(view.body, plain))
    if view.source:  # what the dump knew beyond JMS: never seen by selectors
        out.append(_section("Source", "(not visible to selectors)"))
        grid = _grid()
        for row in view.source:
            grid.add_row(Text(row.name, style="cyan"), Text(row.value))
        out.append(grid)
    return out


def _section(name: str, summary: str) -> Text:
    text = Text()
    text.append(name, style="bold underline")
    if summary:
        text.append("  " + summary)
    return text


def _grid(*columns: str) -> Table:
    """A borderless table indented by two spaces; cells fold rather than being cut."""
    table = Table(box=None, show_header=bool(columns), header_style="bold dim", padding=(0, 1), pad_edge=True, show_edge=False)
    table.add_column(columns[0] if columns else "", overflow="fold", no_wrap=False)
    for name in columns[1:] or ("",):
        table.add_column(name, overflow="fold")
    return table


def _entries(rows: tuple[EntryRow, ...], key: str) -> Table:
    table = _grid(key, "type", "value")
    for row in rows:
        table.add_row(Text(row.key, style="blue"), Text(row.java_type, style="green"), Text(row.value))
    return table


def _body(body: BodyView, plain: bool) -> list[RenderableType]:
    out: list[RenderableType] = [Text(f"note: {n}", style="dim italic") for n in body.notes]
    if body.kind == "text":
        if body.syntax and not plain:
            out.append(Syntax(body.text, body.syntax, theme="monokai", background_color="default", word_wrap=True))
        else:
            out.append(Text(body.text))
    elif body.kind == "hex":
        out.append(_hex(body))
    elif body.kind in ("map", "stream"):
        out.append(_entries(body.entries, "name" if body.kind == "map" else "#"))
    return out


def _hex(body: BodyView) -> Text:
    if not body.hex_lines:
        return Text(body.text, style="dim")
    text = Text()
    for line in body.hex_lines:
        text.append(line.offset + ":", style="dim")
        text.append(hex_text(line)[len(line.offset) + 1 : -len(line.ascii)])
        text.append(line.ascii + "\n", style="cyan")
    if body.more:
        text.append(body.more + "\n", style="yellow")
    text.rstrip()
    return text


__all__ = ["ShowFormat", "render_message", "show"]

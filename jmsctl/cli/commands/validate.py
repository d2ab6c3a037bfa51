"""``jmsctl validate``: check message dumps (names, values, headers, an optional schema) and report findings.

The checks are ``jmsctl.messages.validator``; this module is options, the four output formats and
exit codes. Findings are printed as they come (NDJSON is read in constant memory); only counts
per code are kept, for the summary at the end.
Exit status: 0 no error finding (warnings allowed), 1 any error finding, 2 unreadable input or schema.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Optional

import orjson
import typer
from rich.table import Table
from rich.text import Text

from jmsctl.cli.commands.check import closed_pipe_exits_quietly, pipe_aware
from jmsctl.cli.errors import FORMAT_NOTE, say
from jmsctl.cli.options import from_format, max_record_size
from jmsctl.cli.render import Format, _gh_escape, console
from jmsctl.messages.loader import MAX_RECORD_SIZE, InputError, read_records
from jmsctl.messages.validator import Finding, Schema, SchemaError, Summary, parse_schema, validate

PROG = "jmsctl validate"

_AT_LINE = re.compile(r"(?P<file>.*):(?P<line>[0-9]+)", re.DOTALL)
_AT_INDEX = re.compile(r"(?P<file>.*):\[(?P<index>[0-9]+)\]", re.DOTALL)


def split_location(location: str) -> tuple[str, int | None, int | None]:
    """``file:12`` -> (file, 12, None); ``file:[3]`` -> (file, None, 3); anything else -> (location, None, None)."""
    m = _AT_LINE.fullmatch(location)
    if m:
        return m["file"], int(m["line"]), None
    m = _AT_INDEX.fullmatch(location)
    if m:
        return m["file"], None, int(m["index"])
    return location, None, None


def concise(f: Finding) -> str:
    where = f" {f.field}" if f.field else ""
    return f"{f.location}: {f.severity.value} {f.code}{where}: {f.message}"


def github(f: Finding) -> str:
    name, line, index = split_location(f.location)
    text = f"{f.field}: {f.message}" if f.field else f.message
    props = [f"title={_gh_escape(f.code, True)}"]
    if name == "<stdin>":
        text = f"{f.location}: {text}"
    else:
        props.insert(0, f"file={_gh_escape(name, True)}")
        if line is not None:
            props.insert(1, f"line={line}")
        elif index is not None:
            text = f"[{index}] {text}"
    return f"::{f.severity.value} {','.join(props)}::{_gh_escape(text)}"


def finding_json(f: Finding) -> dict[str, object]:
    name, line, index = split_location(f.location)
    return {**f.to_dict(), "file": name, "line": line, "index": index}


def full_plain(f: Finding) -> str:
    """``full`` without colour, written directly: rich would cost 100 µs a finding on a long dump."""
    where = f" {f.field}" if f.field else ""
    return f"{f.severity.value}[{f.code}]: {f.message}\n --> {f.location}{where}\n"


def full(f: Finding) -> Text:
    colour = "red" if f.is_error else "yellow"
    out = Text()
    out.append(f"{f.severity.value}[{f.code}]", style=f"bold {colour}")
    out.append(f": {f.message}\n", style="bold")
    out.append(" --> ", style="blue")
    out.append(f.location)
    if f.field:
        out.append(f" {f.field}", style="cyan")
    return out


def validate_command(
    files: list[str] = typer.Argument(..., metavar="FILE", help="Message files (NDJSON, JSON, or a dump: fmtn-a, activemq browse, dmpmqmsg, Artemis XML; gzip too); '-' is stdin."),  # noqa: B008
    schema_path: Optional[str] = typer.Option(  # noqa: UP045
        None, "--schema", metavar="SCHEMA.json", help="A JSON object property name -> getter type (boolean byte short int long float double String object)."
    ),
    output_format: Format = typer.Option(Format.full, "--format", help="full (readable, summary table), concise, json or github annotations."),  # noqa: B008
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
) -> None:
    """Check message dumps: names, values, headers, a schema.

    With --schema, every property is read through the getter your consumer uses. Exit 0 clean (warnings allowed), 1 any error, 2 unreadable input or schema. Names and getters: docs/SEMANTICS.md#messages.

    Example: jmsctl validate samples/orders.ndjson --schema samples/schema.json
    """
    schema: Schema | None = None
    if schema_path is not None:
        try:
            schema = _load_schema(schema_path)
        except SchemaError as exc:
            for problem in exc.problems:
                say(f"{schema_path}: {problem}")
            raise typer.Exit(2) from None
    with closed_pipe_exits_quietly():
        status = _run(files, schema, output_format, max_size, source_format)
    raise typer.Exit(status)


def _load_schema(path: str) -> Schema:
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except IsADirectoryError:
        raise SchemaError(["is a directory"]) from None
    except FileNotFoundError:
        raise SchemaError(["no such file"]) from None
    except OSError as exc:
        raise SchemaError([f"cannot read: {exc.strerror or exc}"]) from None
    return parse_schema(data)


def _stderr(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def _run(files: list[str], schema: Schema | None, fmt: Format, max_size: int = MAX_RECORD_SIZE, source_format: str | None = None) -> int:
    types = {name: t for name, t in schema.items() if t is not None} if schema else None  # also types an untyped dump
    summary = Summary()
    failures: list[str] = []
    con = pipe_aware(console())
    plain = con.no_color or not con.is_terminal
    out = sys.stdout
    first = True
    if fmt is Format.json:
        out.write('{"findings": [')
    for path in files:
        try:
            for f in validate(read_records(path, max_size, source_format, types), schema, summary):
                if fmt is Format.json:
                    out.write(("\n" if first else ",\n") + orjson.dumps(finding_json(f)).decode())
                    first = False
                elif fmt is Format.full:
                    if plain:
                        out.write(full_plain(f))
                    else:
                        con.print(full(f))
                else:
                    out.write((concise(f) if fmt is Format.concise else github(f)) + "\n")
        except InputError as exc:
            failures.append(str(exc))
            say(str(exc))
    _finish(fmt, summary, failures)
    if summary.rejected and fmt is not Format.json:  # where to read what a record may hold, once
        _stderr(FORMAT_NOTE)
    if failures:
        return 2
    return 1 if summary.errors else 0


def _totals(s: Summary) -> str:
    plural = "" if s.records == 1 else "s"
    return (f"{s.records} record{plural} checked ({s.messages} valid, {s.rejected} rejected): "
            f"{s.errors} error{'' if s.errors == 1 else 's'}, {s.warnings} warning{'' if s.warnings == 1 else 's'}")


def _finish(fmt: Format, s: Summary, failures: list[str]) -> None:
    if fmt is Format.json:
        doc = {"summary": s.to_dict(), "input_errors": failures}
        tail = orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode()
        sys.stdout.write(("\n" if s.counts else "") + "],\n" + tail[1:].lstrip("\n") + "\n")
        return
    if fmt is Format.full:
        con = pipe_aware(console())
        if s.counts:
            table = Table(title="Summary", title_justify="left", show_edge=False)
            for col in ("code", "severity", "count", "meaning", "first at"):
                table.add_column(col, justify="right" if col == "count" else "left", overflow="fold")
            for row in s.by_code():
                style = "red" if row["severity"] == "error" else "yellow"
                table.add_row(row["code"], Text(row["severity"], style=style), str(row["count"]), row["description"], row["first"])
            con.print()
            con.print(table)
        style = "bold red" if s.errors or failures else "bold yellow" if s.warnings else "bold green"
        con.print(_totals(s), markup=False, style=style)
        return
    for row in s.by_code():
        _stderr(f"{row['code']} {row['severity']} {row['count']}: {row['description']}")
    _stderr(_totals(s))

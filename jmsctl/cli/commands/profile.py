"""``jmsctl profile``: the shape of message dumps, per property and header (types, absent, distinct,
most common values) and the body kinds, as a table for a person or the documented JSON document.

The profile is ``jmsctl.analysis.profile`` (one pass, bounded memory per name); this module reads
the files, reports rejected records as every command does (``jmsctl.messages.rejections``) and
renders. ``spark profile`` renders its result with ``render_profile`` and ``profile_json`` too.
Exit status: 0 profiled, 2 a rejected record (unless --skip-invalid: counted only) or an
unreadable input (then nothing is written: a profile of part of the input would mislead).
"""

from __future__ import annotations

import io
import sys
from enum import Enum
from typing import TYPE_CHECKING, Optional

import orjson
import typer

from jmsctl.analysis.profile import TOP, NameProfile, Profile, Profiler, key_value
from jmsctl.analysis.sketches import HLL_ERROR
from jmsctl.cli.commands.check import closed_pipe_exits_quietly, pipe_aware
from jmsctl.cli.errors import FORMAT_NOTE, fail, say
from jmsctl.cli.options import from_format, load_types, max_record_size, property_types
from jmsctl.messages.loader import MAX_RECORD_SIZE, InputError, read_records
from jmsctl.messages.rejections import Rejections
from jmsctl.outputs import Output, OutputError, open_output

if TYPE_CHECKING:
    from rich.console import RenderableType


class ProfileFormat(str, Enum):
    table = "table"
    json = "json"


FORMAT_HELP = "table (for a person: colour on a terminal, plain when piped) or json (the documented profile document)."
TOP_HELP = "Most common values shown per name."


def profile_command(
    files: Optional[list[str]] = typer.Argument(None, metavar="FILE...", help="Message files of any format jmsctl reads (.gz too); none or '-' is stdin."),  # noqa: UP045, B008
    output_format: ProfileFormat = typer.Option(ProfileFormat.table, "--format", help=FORMAT_HELP),  # noqa: B008
    top: int = typer.Option(TOP, "--top", min=0, max=100, metavar="N", help=TOP_HELP),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="OUT", help="Write to OUT atomically (not written on an unreadable input)."),  # noqa: UP045
    skip_invalid: bool = typer.Option(False, "--skip-invalid", help="Count the records that cannot be read without reporting them (exit 0)."),
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
    types_file: Optional[str] = property_types(),  # noqa: UP045
) -> None:
    """Profile dumps: types, absent counts and values of each property.

    Read in one pass in bounded memory. Counts add up: read = profiled + rejected. Exit 0 profiled, 2 a rejected record or an unreadable input.

    Example: jmsctl profile samples/orders.ndjson --top 3
    """
    try:
        out = open_output(output)
    except OutputError as exc:
        fail(str(exc))
    profiler = Profiler(top)
    rejected_shown, unreadable = _read(files or ["-"], profiler, skip_invalid, max_size, source_format, load_types(types_file))
    result = profiler.result()
    if unreadable:
        out.discard()
        raise typer.Exit(2)
    emit(out, output, result, output_format)
    if rejected_shown:  # where to read what a record may hold, once
        sys.stderr.write(f"{FORMAT_NOTE}\n")
    raise typer.Exit(2 if result.rejected and not skip_invalid else 0)


def emit(out: Output, output: str | None, result: Profile, output_format: ProfileFormat) -> None:
    """Write the profile to ``out`` (opened by ``open_output(output)``) and commit; exit 2 on a write error."""
    with closed_pipe_exits_quietly():
        try:
            out.write(profile_json(result) if output_format is ProfileFormat.json else render_text(result, out.direct and output is None))
            out.commit()
        except BrokenPipeError:
            out.discard()
            raise
        except OSError as exc:
            out.discard()
            fail(f"cannot write {output or '<stdout>'}: {exc.strerror or exc}")


def _read(files: list[str], profiler: Profiler, skip_invalid: bool, max_size: int = MAX_RECORD_SIZE,
          source_format: str | None = None, types: object = None) -> tuple[bool, bool]:
    """Every record of every file into ``profiler``; (rejected records reported, an input unreadable)."""
    rejections = Rejections(None if skip_invalid else say, lambda: profiler.messages)
    unreadable = False
    for path in files:
        rejections.start("<stdin>" if path == "-" else path)
        reader = read_records(path, max_size, source_format, types)  # type: ignore[arg-type]
        try:
            for record in reader:
                if record.message is None:
                    rejections(record)
                profiler.add_record(record)
        except InputError as exc:
            rejections.abandon()
            say(str(exc))
            unreadable = True
        finally:
            rejections.finish()
            reader.close()
    return profiler.rejected > 0 and not skip_invalid, unreadable


# ----- rendering ---------------------------------------------------------------------------------


def profile_json(profile: Profile) -> bytes:
    """The ``--format json`` document, indented, with a final newline."""
    return orjson.dumps(profile.to_json(), option=orjson.OPT_INDENT_2) + b"\n"


def render_text(profile: Profile, terminal: bool) -> bytes:
    """The table for a person: through the terminal's console (colour) when ``terminal``, else plain text."""
    from jmsctl.cli.render import console

    if terminal:
        con = pipe_aware(console())
        if not con.no_color:
            for part in render_profile(profile):
                con.print(part)
            return b""
    from rich.console import Console

    buffer = io.StringIO()
    plain = Console(file=buffer, no_color=True, highlight=False, width=160, force_terminal=False, soft_wrap=False)
    for part in render_profile(profile):
        plain.print(part)
    return "\n".join(line.rstrip() for line in buffer.getvalue().split("\n")).encode("utf-8", "surrogateescape")


def render_profile(profile: Profile) -> list[RenderableType]:
    """Rich renderables: the counts, the body kinds, a table of properties, one of the headers that vary."""
    from rich.text import Text

    out: list[RenderableType] = []
    counts = Text(f"read {profile.read:,}, profiled {profile.messages:,}, rejected {profile.rejected:,}", style="bold")
    out.append(counts)
    if profile.bodies:
        out.append(Text("bodies: " + ", ".join(f"{kind} {n:,}" for kind, n in profile.bodies)))
    out.append(_table("Properties", profile.properties, profile.messages))
    varying = [h for h in profile.headers if not _constant(h)]
    if varying:
        out.append(_table("Headers", tuple(varying), profile.messages))
    constant = [h for h in profile.headers if _constant(h)]
    if constant:
        out.append(Text("headers the same in every message: " + ", ".join(f"{h.name} = {_value_text(h.common[0].key, False)}" for h in constant)))
    notes = _notes(profile)
    if notes:
        out.append(Text("\n".join(notes), style="dim"))
    return out


def _constant(h: NameProfile) -> bool:
    return h.absent == 0 and h.distinct_exact and h.distinct == 1 and bool(h.common)


_RATIO = {"types": 1, "most common": 2}  # the lists share what the other columns leave


def _table(title: str, names: tuple[NameProfile, ...], messages: int) -> RenderableType:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{title} ({len(names)})", title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for column, justify in (("name", "left"), ("present", "right"), ("absent", "right"), ("types", "left"), ("distinct", "right"), ("most common", "left")):
        name = column == "name"  # a narrow terminal folds the other columns, not the names
        table.add_column(column, justify=justify, overflow="fold", no_wrap=name,  # type: ignore[arg-type]
                         min_width=max((len(p.name) for p in names), default=4) if name else None, ratio=_RATIO.get(column))
    if not names:
        table.add_row(Text("(none)", style="dim"), "", "", "", "", "")
    for p in names:
        types = ", ".join([f"{t.java_name} {n:,}" for t, n in p.types] + ([f"JSON null {p.null:,}"] if p.null else []))  # null: among the absent
        distinct = f"{p.distinct:,}" if p.distinct_exact else f"~{p.distinct:,}"
        mixed = len(p.types) > 1
        common = _common(p, mixed)
        table.add_row(Text(p.name, style="blue"), f"{p.present:,}", f"{p.absent:,}", Text(types, style="green"), distinct, common)
    return table


def _common(p: NameProfile, mixed: bool) -> str:
    """The most common values; when the counts are bounds, only those that provably beat every value
    not listed (a value not kept occurred at most ``common_slack`` times, a kept one at least its count)."""
    if p.distinct_exact and p.distinct == p.present > len(p.common):  # listing some would pick arbitrary ones
        return "(each value once)"
    if p.common_exact:
        return ", ".join(f"{_value_text(v.key, mixed)} {v.count:,}" for v in p.common)
    ahead = [v for v in p.common if v.count > p.common_slack]
    if not ahead:
        return f"(none stands out: each at most {p.common_slack + (p.common[0].count if p.common else 0):,})"
    return ", ".join(f"{_value_text(v.key, mixed)} ≥{v.count:,}" for v in ahead)


def _value_text(key: str, with_type: bool) -> str:
    """A value as a selector literal would write it (strings quoted), with its type when a name has several."""
    from jmsctl.messages.printer import java_value
    from jmsctl.values import STRING

    t, v, cut = key_value(key)
    if t is STRING:
        text = "'" + v.replace("'", "''") + ("…" if cut else "") + "'"
    else:
        text = java_value((t, v))
    return f"{t.java_name} {text}" if with_type else text


def _notes(profile: Profile) -> list[str]:
    names = (*profile.properties, *profile.headers)
    notes = []
    if any(not p.distinct_exact for p in names):
        notes.append(f"~ an estimate (HyperLogLog, relative standard error {HLL_ERROR:.1%}): more distinct values than are counted exactly")
    if any(not p.common_exact for p in names):
        notes.append("≥ at least this many (more distinct values than counters, Misra-Gries): shown only when more than any value not shown")
    return notes


__all__ = ["FORMAT_HELP", "TOP_HELP", "ProfileFormat", "emit", "profile_command", "profile_json", "render_profile", "render_text"]

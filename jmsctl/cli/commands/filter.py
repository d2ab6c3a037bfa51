"""``jmsctl filter``: stream message dumps through a selector, write the selected messages unchanged.

Exit status as grep: 0 something selected, 1 nothing selected, 2 any error (an error wins).
The core (selection and counts) is ``jmsctl.filter``; this module is options, output formats,
the atomic ``--output`` file and error reporting.
The options are here; the run is filter_run.py, imported when the command runs, so that Tab
completion and --help load no more than the options.
"""

from __future__ import annotations

from enum import Enum
from typing import Optional

import typer

from jmsctl.cli.complete import selector_then_files
from jmsctl.cli.options import DIALECT_HELP, Dialect, from_format, max_record_size, property_types
from jmsctl.cli.selecting import quiet_option


class OutputFormat(str, Enum):
    ndjson = "ndjson"
    json = "json"
    pretty = "pretty"
    ids = "ids"


class Engine(str, Enum):
    fast = "fast"
    noprefilter = "noprefilter"
    whole = "whole"
    plain = "plain"


def filter_command(
    args: Optional[list[str]] = typer.Argument(  # noqa: UP045, B008
        None, metavar="SELECTOR [FILE...]", autocompletion=selector_then_files, help="The selector, then the message files (NDJSON, JSON, or a dump: fmtn-a, activemq browse, dmpmqmsg, Artemis XML; gzip too); none or '-' is stdin."
    ),
    selector_file: Optional[str] = typer.Option(  # noqa: UP045
        None, "--file", "-f", metavar="SELECTOR_FILE", help="Read the selector from this file (its whole content); every argument is then a message file."
    ),
    count: bool = typer.Option(False, "--count", "-c", help="Print only the number of selected messages."),
    invert: bool = typer.Option(False, "--invert", "-v", help="Select the messages the selector does not select (FALSE or UNKNOWN)."),
    max_count: Optional[int] = typer.Option(None, "--max-count", "-m", min=0, help="Stop reading after N selected messages."),  # noqa: UP045
    output_format: OutputFormat = typer.Option(  # noqa: B008
        OutputFormat.ndjson, "--format", help="ndjson (lines as read), json (one array), pretty (readable blocks) or ids (JMSMessageID, else location)."
    ),
    output: Optional[str] = typer.Option(  # noqa: UP045
        None, "--output", "-o", metavar="FILE", help="Write to FILE all or nothing (a temp file renamed at the end; not written on any error or signal). A device, FIFO or socket is written directly."
    ),
    explain: bool = typer.Option(
        False, "--explain", help="Instead of each message written, why: what made it selected (with --invert: the first condition FALSE or UNKNOWN)."
    ),
    stats: bool = typer.Option(False, "--stats", help="Print read, TRUE, FALSE, UNKNOWN, rejected and selected counts on stderr."),
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    skip_invalid: bool = typer.Option(False, "--skip-invalid", help="Count rejected records and go on silently instead of reporting them (exit 2)."),
    validate_all: bool = typer.Option(
        False, "--validate-all",
        help="Parse and validate every NDJSON record, so that every broken one is reported. By default a line that cannot be selected "
        "(a literal the selector requires appears nowhere in it) is not parsed: if broken, it is not reported. --stats and --invert imply it.",
    ),
    jobs: Optional[int] = typer.Option(  # noqa: UP045
        None, "--jobs", "-j", min=1, metavar="N",
        help="Worker processes for a large NDJSON file (default: the number of cores for a regular uncompressed file of 64 MB or more, else 1). Output stays in input order.",
    ),
    engine: Engine = typer.Option(  # noqa: B008
        Engine.fast, "--engine", hidden=True, help="fast (default), whole (every decoded record validated whole), noprefilter (whole, no text prefilter) or plain (the loader's decode): for tests and benchmarks."
    ),
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
    types_file: Optional[str] = property_types(),  # noqa: UP045
    quiet: bool = quiet_option(),
) -> None:
    """Write the messages a selector selects, as grep does lines.

    NDJSON lines are written byte for byte. Exit 0 some selected, 1 none, 2 any error (a rejected record, an unreadable file). The rules: docs/SEMANTICS.md; the formats: docs/FORMAT.md.

    Example: jmsctl filter "JMSType = 'car' AND weight > 2500" samples/orders.ndjson --stats
    """
    from jmsctl.cli.commands.filter_run import run  # the enums by value: filter_run does not import this module

    run(args=args, selector_file=selector_file, count=count, invert=invert, max_count=max_count,
        output_format=output_format.value, output=output, explain=explain, stats=stats, dialect=dialect,
        skip_invalid=skip_invalid, validate_all=validate_all, jobs=jobs, engine=engine.value, max_size=max_size,
        source_format=source_format, types_file=types_file, quiet=quiet)


__all__ = ["Engine", "OutputFormat", "filter_command"]

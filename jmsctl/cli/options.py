"""Options shared by the commands that read message files."""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

import typer


class Dialect(str, Enum):
    """``--dialect``: the standard, IBM MQ's reading (docs/SEMANTICS.md#ibm-dialect) or a broker engine's
    (docs/dialects.md); the names of ``jmsctl.selector.dialects``, kept equal by a test."""

    jakarta = "jakarta"
    ibm = "ibm"
    artemis = "artemis"
    activemq = "activemq"


class TextOrJson(str, Enum):
    """``--format`` of explain and test: for a person, or for a program."""

    text = "text"
    json = "json"


DIALECT_HELP = "jakarta (default), ibm, artemis or activemq: whose rules parse and evaluate the selector (docs/dialects.md)."


MAX_RECORD_SIZE = 16 * 1024 * 1024
"""The loader's (jmsctl.messages.records), kept equal by tests/test_startup_imports.py: importing it from
there would load the loader for the options of every command, for Tab completion and for check too."""

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
_SIZE = re.compile(r"\s*([0-9]+)\s*([kmg]?)(?:i?b)?\s*", re.IGNORECASE)


def parse_size(text: str | int) -> int:
    """``16M``, ``16MiB``, ``512k``, ``1G`` or a number of bytes (multiples of 1,024) -> bytes."""
    if isinstance(text, int):  # the default, passed through the parser too
        return text
    m = _SIZE.fullmatch(text)
    if not m or int(m[1]) == 0:
        raise typer.BadParameter(f"{text!r} is not a size: write bytes or a number with k, M or G (16M)")
    return int(m[1]) * _UNITS[m[2].lower()]


def max_record_size() -> Any:
    """``--max-record-size SIZE``: records (NDJSON lines, whole JSON arrays or objects) over it are
    rejected without being held in memory."""
    return typer.Option(
        MAX_RECORD_SIZE, "--max-record-size", metavar="SIZE", parser=parse_size, show_default=False,
        help="Reject a record (an NDJSON line; a whole JSON array or object) larger than SIZE (bytes, or k/M/G; default 16M) without holding it in memory.",
    )


def _format_name(value: str | None) -> str | None:
    if value is None:
        return None
    from jmsctl.messages import formats

    try:
        return formats.get(value).name
    except formats.NoFormat as exc:
        raise typer.BadParameter(str(exc)) from None


def from_format() -> Any:
    """``--from FORMAT``: read the message files as this dump format instead of telling it from
    their content (jmsctl.messages.formats)."""
    return typer.Option(
        None, "--from", metavar="FORMAT", callback=_format_name,
        help="Read the message files as FORMAT (ndjson, json, fmtn-a, activemq-browse, ibm-dmpmqmsg, ...) instead of detecting it "
        "from the content; see docs/FORMAT.md.",
    )


def _types_file(path: str | None) -> str | None:
    load_types(path)  # a bad file is a usage error before anything is read
    return path


def load_types(path: str | None) -> dict[str, Any] | None:
    """The ``--types`` file as property name -> JType (None: no file); typer.BadParameter when bad."""
    if path is None:
        return None
    from pathlib import Path

    from jmsctl.messages.validator import SchemaError, parse_schema

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise typer.BadParameter(f"{path}: {exc.strerror or exc}") from None
    try:
        schema = parse_schema(data)
    except SchemaError as exc:
        raise typer.BadParameter(f"{path}: " + "; ".join(exc.problems)) from None
    return {name: t for name, t in schema.items() if t is not None}


def property_types() -> Any:
    """``--types SCHEMA.json``: property types for a dump that has none (activemq-browse text):
    the ``validate --schema`` file, property name -> type."""
    return typer.Option(
        None, "--types", metavar="SCHEMA.json", callback=_types_file,
        help="Property name -> type (the validate --schema format), to type the properties of an untyped dump (activemq-browse).",
    )


def writer_format(name: str) -> Any:
    """The dump format ``--to`` names, which jmsctl must be able to write; one error line otherwise."""
    from jmsctl.cli.errors import fail
    from jmsctl.messages import formats
    from jmsctl.messages.loader import InputError

    try:
        fmt = formats.get(name)
    except InputError as exc:
        fail(str(exc))
    if fmt.write is None:
        fail(f"jmsctl does not write {fmt.name}; --to takes {', '.join(n for n, f in formats.registry().items() if f.write)}")
    return fmt

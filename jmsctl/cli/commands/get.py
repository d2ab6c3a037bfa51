"""``jmsctl get``: read one property of one message as a Java getter would (``getIntProperty`` ...).

Exit status: 0 the getter returns a value (printed as Java prints it), 1 the getter throws
(MessageFormatException, NumberFormatException or NullPointerException, printed on stderr as
``Class: message``), 2 the file cannot be read, the record is not a valid message, or there is no
message at that index.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Any, Optional

import typer

from jmsctl.cli.complete import names_in_file
from jmsctl.cli.errors import fail, swapped_file_first
from jmsctl.cli.locate import at, split_position
from jmsctl.cli.options import from_format, load_types, max_record_size, property_types
from jmsctl.exceptions import MessageFormatException, NullPointerException, NumberFormatException
from jmsctl.messages.conversion import java_to_string, read_as, read_object
from jmsctl.messages.loader import MAX_RECORD_SIZE, InputError, read_records
from jmsctl.messages.model import Message
from jmsctl.values import JType

PROG = "jmsctl get"


class Getter(str, Enum):
    boolean = "boolean"
    byte = "byte"
    short = "short"
    int = "int"
    long = "long"
    float = "float"
    double = "double"
    String = "String"
    object = "object"


class _Failure(Exception):
    """One line on stderr, exit status 2."""


def get(
    file: str = typer.Argument(..., metavar="FILE", help="A message file (NDJSON, JSON, or a dump: fmtn-a, activemq browse, dmpmqmsg, Artemis XML; gzip too); '-' is stdin."),
    name: str = typer.Argument(..., metavar="NAME", autocompletion=names_in_file, help="The property name."),
    as_type: Getter = typer.Option(..., "--as", case_sensitive=False, metavar="GETTER", help="The getter: boolean, byte, short, int, long, float, double, String, or object."),  # noqa: B008
    index: int = typer.Option(0, "--index", "-i", min=0, help="Which message of the file (0-based)."),
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
    types_file: Optional[str] = property_types(),  # noqa: UP045
) -> None:
    """Read a property as a Java getter would (getIntProperty...).

    Prints the value as Java prints it; exit 1 with the exception the getter throws (MessageFormatException, NumberFormatException...), 2 an unreadable file or record.

    Example: jmsctl get samples/orders.ndjson weight --as long --index 3
    """
    try:
        message = _message_at(file, index, max_size, source_format, load_types(types_file))
    except _Failure as exc:
        fail(swapped_file_first(file, name, "FILE NAME") or str(exc))
    value = message.properties.get(name)
    try:
        if as_type is Getter.object:
            text = java_to_string(read_object(value))
        else:
            target = JType.from_name(as_type.value)
            assert target is not None
            text = _java_print(read_as(value, target), target)
    except (MessageFormatException, NumberFormatException, NullPointerException) as exc:
        sys.stderr.write(f"{type(exc).__name__}: {exc}\n")
        raise typer.Exit(1) from None
    sys.stdout.write(text + "\n")


def _java_print(result: object, target: JType) -> str:
    """``String.valueOf`` of what the getter returned (``null`` for an absent String)."""
    return java_to_string(None if result is None else (target, result))


def _message_at(path: str, index: int, max_size: int = MAX_RECORD_SIZE, fmt: str | None = None, types: Any = None) -> Message:
    path, position = split_position(path)  # FILE:LINE, as filter and errors print locations
    name = "<stdin>" if path == "-" else path
    count = 0
    try:
        for record in read_records(path, max_size, fmt, types):
            if (count == index) if position is None else at(record.location, path, position):
                if record.error is not None:
                    raise _Failure(f"{record.location}: {record.error}")
                assert record.message is not None
                return record.message
            count += 1
    except InputError as exc:
        raise _Failure(str(exc)) from None
    if position is not None:
        raise _Failure(f"{name}: no record at {position}")
    noun = "message" if count == 1 else "messages"
    raise _Failure(f"{name}: no message at index {index} (the file has {count} {noun})")

"""``jmsctl table``: the javadoc's property conversion table (row: type written, column: getter)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from enum import Enum

import orjson
import typer
from rich.table import Table

from jmsctl.cli.render import console, is_terminal
from jmsctl.messages.conversion import CONVERSIONS
from jmsctl.values import JType


class TableFormat(str, Enum):
    text = "text"
    json = "json"


def table(
    output_format: TableFormat = typer.Option(TableFormat.text, "--format", help="text (a table; plain when piped) or json."),  # noqa: B008
) -> None:
    """Print the property conversion table (javadoc).

    Which getter can read a property written as which type.

    Example: jmsctl table --format json
    """
    types = list(JType)
    if output_format is TableFormat.json:
        rows = [f"  {orjson.dumps(src.java_name).decode()}: {_json_list(t.java_name for t in types if t in CONVERSIONS[src])}" for src in types]
        sys.stdout.write("{\n" + ",\n".join(rows) + "\n}\n")  # one row of the table per line
        return
    if not is_terminal(sys.stdout):
        sys.stdout.write(plain_table())
        return
    grid = Table(title="Property conversions: a value written as the row type can be read as the column type", title_justify="left")
    grid.add_column("written \\ read", style="bold")
    for t in types:
        grid.add_column(t.java_name, justify="center")
    for src in types:
        grid.add_row(src.java_name, *("[green]✓[/]" if t in CONVERSIONS[src] else "[dim]·[/]" for t in types))
    con = console()
    con.print(grid)
    con.print("Other cells throw MessageFormatException; String to a primitive may throw NumberFormatException (valueOf).", style="dim")


def _json_list(names: Iterable[str]) -> str:
    return "[" + ", ".join(orjson.dumps(n).decode() for n in names) + "]"


def plain_table() -> str:
    """The table as plain text: one row per written type, ``X`` where the getter may read it."""
    types = list(JType)
    head = ["written\\read", *(t.java_name for t in types)]
    rows = [head] + [[src.java_name, *("X" if t in CONVERSIONS[src] else "-" for t in types)] for src in types]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() + "\n" for row in rows)

"""``jmsctl explain``: the AST with static types, canonical form, identifiers and warnings; with
``--message`` every node's value on that message and why it was or was not selected."""

from __future__ import annotations

import json
from typing import Any, Optional

import typer
from rich.tree import Tree

from jmsctl.analysis import portability
from jmsctl.cli.commands.check import closed_pipe_exits_quietly, pipe_aware, write_json
from jmsctl.cli.complete import names_for_selector
from jmsctl.cli.errors import fail
from jmsctl.cli.locate import at, split_position
from jmsctl.cli.options import DIALECT_HELP, Dialect, TextOrJson, from_format, load_types, max_record_size, property_types
from jmsctl.cli.render import Source, console, escape, print_full
from jmsctl.messages.loader import MAX_RECORD_SIZE, InputError, read_records
from jmsctl.messages.model import Message
from jmsctl.selector.explainer import ExplainNode, Explanation
from jmsctl.selector.explainer import explain as build_explanation

_VALUE_STYLE = {"TRUE": "bold green", "FALSE": "bold red", "UNKNOWN": "bold yellow"}


def load_message(
    spec: str, max_size: int = MAX_RECORD_SIZE, fmt: str | None = None, types: Any = None, message_id: str | None = None
) -> tuple[str, Message]:
    """The message ``--message`` names: ``FILE`` (its first record), ``FILE:POS`` (the record at POS as
    every command prints locations: the 1-based line of an NDJSON file, ``[i]`` for item i of a JSON
    array, a format's own position for other formats), or with ``message_id`` the first message of
    FILE whose JMSMessageID it is. One numbering: a location pasted from filter, validate or an
    error names the same message here."""
    path, pos = split_position(spec)  # a file whose name ends in ':3' is that file
    if pos is not None and message_id is not None:
        raise InputError(f"{spec}: give a position (FILE:N) or --id, not both")
    first = last = None
    for record in read_records(path, max_size, fmt, types):
        first = first or record.location
        last = record.location
        if message_id is not None:
            if record.message is not None and record.message.headers.get("JMSMessageID") == message_id:
                return record.location, record.message
            continue
        if pos is None or at(record.location, path, pos):
            if record.error is not None:
                raise InputError(f"{record.location}: {record.error}")
            assert record.message is not None
            return record.location, record.message
    name = "<stdin>" if path == "-" else path
    if message_id is not None:
        raise InputError(f"{name}: no message with JMSMessageID {json.dumps(message_id, ensure_ascii=False)}")
    if first is None:
        raise InputError(f"{name}: has no record")
    hint = " (an NDJSON file's records are FILE:LINE, counting from 1; a JSON array's FILE:[i])"
    raise InputError(f"{name}: no record at {pos}: the records are {first} to {last}{hint}")


def explain(
    selector: str = typer.Argument(..., metavar="SELECTOR", autocompletion=names_for_selector, help="The selector to explain."),
    message: Optional[str] = typer.Option(  # noqa: UP045
        None, "--message", metavar="FILE[:N]",
        help="Evaluate on a message: FILE (its first), FILE:N (the record at line N, as filter and errors print it; FILE:\\[i] for item i of a JSON array).",
    ),
    message_id: Optional[str] = typer.Option(None, "--id", metavar="MESSAGE_ID", help="With --message FILE: the message whose JMSMessageID is MESSAGE_ID."),  # noqa: UP045
    output_format: TextOrJson = typer.Option(TextOrJson.text, "--format", help="text (for a person) or json."),  # noqa: B008
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
    types_file: Optional[str] = property_types(),  # noqa: UP045
) -> None:
    """Explain a selector, and why a message is selected or not.

    The canonical form, the names it reads, its warnings and its tree; with --message, every node's value on that message. Exit 0 explained, 1 invalid selector, 2 usage or input error. The rules: docs/SEMANTICS.md.

    Example: jmsctl explain "JMSType = 'car' AND weight > 2500" --message samples/orders-small.ndjson:2
    """
    location = None
    msg = None
    if message_id is not None and message is None:
        fail("explain: --id MESSAGE_ID needs --message FILE (the file to look in)")
    if message is not None:
        try:
            location, msg = load_message(message, max_size, source_format, load_types(types_file), message_id)
        except InputError as exc:
            fail(str(exc))
    ex = build_explanation(selector, msg.get if msg is not None else None, dialect.value)
    targets = portability.default_targets()
    differences = portability.lint(selector, targets)
    with closed_pipe_exits_quietly():
        if output_format is TextOrJson.json:
            doc = ex.to_dict()
            doc["message"] = None if msg is None else {"location": location, "JMSMessageID": msg.headers.get("JMSMessageID")}
            doc["portability"] = {"against": list(targets), "differences": [r.to_dict(selector) for r in differences]}
            write_json(doc)
        else:
            _print_text(ex, location, None if msg is None else msg.headers.get("JMSMessageID"), (targets, differences))
    raise typer.Exit(0 if ex.valid else 1)


def _print_portability(src: Source, targets: tuple[str, ...], differences: list[portability.Report]) -> None:
    """The portability section: each broker dialect that reads the selector differently, with a witness."""
    if not targets:
        return
    con = pipe_aware(console())
    names = ", ".join(portability.title(d) for d in targets)
    if not differences:
        con.print(f"[bold]Portability[/] no difference found with {names}")
        return
    con.print(f"[bold]Portability[/] {len(differences)} difference{'s' if len(differences) != 1 else ''} from the standard ({names})")
    print_full(con, src, [r.diagnostic for r in differences])


def _print_text(ex: Explanation, location: str | None, message_id: object = None,
                lint: tuple[tuple[str, ...], list[portability.Report]] = ((), [])) -> None:
    con = pipe_aware(console())
    src = Source("<arg>", ex.selector)
    if not ex.valid:
        print_full(con, src, ex.diagnostics)
        _print_portability(src, *lint)
        return
    con.print("[bold]Selector[/]  ", ex.selector, sep="")
    con.print("[bold]Canonical[/] ", ex.canonical or "(empty: selects every message)", sep="", markup=True)
    if ex.dialect != "jakarta":
        con.print(f"[bold]Dialect[/]   {ex.dialect}")
    if ex.identifiers:
        con.print("[bold]Reads[/]")
        width = max(len(i.name) for i in ex.identifiers)
        for ident in ex.identifiers:
            con.print(f"  {ident.name.ljust(width)}  {ident.kind}, {ident.static_type}", markup=False)
    warnings = [d for d in ex.diagnostics if not d.is_error]
    con.print(f"[bold]Warnings[/]  {len(warnings) or 'none'}")
    print_full(con, src, warnings)
    _print_portability(src, *lint)
    if location is not None:  # which message this is, in the words filter and show use for it
        about = f"  JMSMessageID {message_id}" if message_id else "  (no JMSMessageID)"
        con.print("[bold]Message[/]   " + escape(location + about))
    if ex.tree is not None:
        con.print("[bold]Tree[/]" + (f" on {location}" if location else ""))
        con.print(_rich_tree(ex.tree), soft_wrap=False)
    if ex.result is not None:
        if ex.whole_false:
            con.print(f"[bold yellow]{ex.whole_false}[/]")
        verdict = "selected" if ex.selected else "not selected"
        style = "bold green" if ex.selected else "bold red"
        con.print(f"Result: [{_VALUE_STYLE[ex.result]}]{ex.result}[/] -> [{style}]{verdict}[/]")


def _line(node: ExplainNode) -> str:
    from rich.markup import escape

    text = f"[bold]{escape(node.label)}[/] [dim]: {escape(node.static_type)}[/]"
    if node.value is not None:
        style = _VALUE_STYLE.get(node.value, "cyan")
        text += f"  = [{style}]{escape(node.value)}[/]"
        if node.reason and node.reason != "literal":
            text += f"  [dim]({escape(node.reason)})[/]"
    return text


def _rich_tree(root: ExplainNode) -> Tree:
    tree = Tree(_line(root))
    stack = [(root, tree)]
    while stack:
        node, branch = stack.pop()
        for child in node.children:
            sub = branch.add(_line(child))
            stack.append((child, sub))
    return tree

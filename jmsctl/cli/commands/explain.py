"""``jmsctl explain``: the AST with static types, canonical form, identifiers and warnings; with
``--message`` every node's value on that message and why it was or was not selected."""

from __future__ import annotations

import re
from typing import Any, Optional

import typer
from rich.tree import Tree

from jmsctl.cli.commands.check import closed_pipe_exits_quietly, pipe_aware, write_json
from jmsctl.cli.errors import fail
from jmsctl.cli.options import from_format, load_types, max_record_size, property_types
from jmsctl.cli.render import Source, console, print_full
from jmsctl.messages.loader import MAX_RECORD_SIZE, InputError, read_records
from jmsctl.messages.model import Message
from jmsctl.selector import DIALECTS, portability
from jmsctl.selector.explainer import ExplainNode, Explanation
from jmsctl.selector.explainer import explain as build_explanation

_VALUE_STYLE = {"TRUE": "bold green", "FALSE": "bold red", "UNKNOWN": "bold yellow"}


def load_message(spec: str, max_size: int = MAX_RECORD_SIZE, fmt: str | None = None, types: Any = None) -> tuple[str, Message]:
    """``FILE`` or ``FILE:N`` (record N counting from 0, as ``show --index`` and ``file:[N]``)."""
    path, index = spec, 0
    m = re.fullmatch(r"(.*):(\d+)", spec)
    if m and m.group(1):
        path, index = m.group(1), int(m.group(2))
    for count, record in enumerate(read_records(path, max_size, fmt, types)):
        if count == index:
            if record.error is not None:
                raise InputError(f"{record.location}: {record.error}")
            assert record.message is not None
            return record.location, record.message
    raise InputError(f"{path}: has no record {index}")


def explain(
    selector: str = typer.Argument(..., help="The selector to explain."),
    message: Optional[str] = typer.Option(None, "--message", "-m", help="FILE or FILE:N (record N, counting from 0): evaluate on that message."),  # noqa: UP045
    output_format: str = typer.Option("text", "--format", help="text or json."),
    dialect: str = typer.Option("jakarta", "--dialect", help="jakarta (default), ibm, artemis or activemq (docs/dialects.md)."),
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
    types_file: Optional[str] = property_types(),  # noqa: UP045
) -> None:
    """Explain a selector; exit 0 explained, 1 invalid selector, 2 usage or I/O error."""
    if output_format not in ("text", "json") or dialect not in DIALECTS:
        fail("explain: --format is text or json; --dialect is " + ", ".join(DIALECTS))
    location = None
    msg = None
    if message is not None:
        try:
            location, msg = load_message(message, max_size, source_format, load_types(types_file))
        except InputError as exc:
            fail(str(exc))
    ex = build_explanation(selector, msg.get if msg is not None else None, dialect)
    targets = portability.default_targets()
    differences = portability.lint(selector, targets)
    with closed_pipe_exits_quietly():
        if output_format == "json":
            doc = ex.to_dict()
            doc["message"] = location
            doc["portability"] = {"against": list(targets), "differences": [r.to_dict(selector) for r in differences]}
            write_json(doc)
        else:
            _print_text(ex, location, targets, differences)
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


def _print_text(ex: Explanation, location: str | None, targets: tuple[str, ...] = (),
                differences: list[portability.Report] | None = None) -> None:
    con = pipe_aware(console())
    src = Source("<arg>", ex.selector)
    if not ex.valid:
        print_full(con, src, ex.diagnostics)
        _print_portability(src, targets, differences or [])
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
    _print_portability(src, targets, differences or [])
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

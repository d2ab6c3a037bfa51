"""What the panes of ``jmsctl view`` show, as rich renderables, from the renderers the commands use:
the message as ``show`` prints it, the explanation as ``explain --message`` prints it, the
diagnostics as ``check`` prints them (carets, hints), the profile as ``profile`` prints it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from jmsctl.cli.commands.explain import _rich_tree
from jmsctl.cli.commands.profile import render_profile
from jmsctl.cli.commands.show import render_message, render_rejected
from jmsctl.cli.render import Source, full
from jmsctl.messages.printer import message_view
from jmsctl.selector.explainer import explain

if TYPE_CHECKING:
    from jmsctl.analysis.profile import Profile
    from jmsctl.diagnostics import Diagnostic
    from jmsctl.messages.loader import Record

SELECTOR_NAME = "selector"  # the name diagnostics give the selector line (as check names an argument <arg>)
_VALUE_STYLE = {"TRUE": "bold green", "FALSE": "bold red", "UNKNOWN": "bold yellow"}


def message_pane(record: Record) -> RenderableType:
    """The record in full: headers, typed properties, the body (JSON and XML pretty-printed, bytes as hex)."""
    if record.message is None:
        return Group(*render_rejected(record))
    return Group(*render_message(message_view(record.location, record.message), plain=False))


def diagnostics_text(text: str, diagnostics: tuple[Diagnostic, ...] | list[Diagnostic]) -> Text:
    """``check``'s diagnostics of the selector line: the caret under the error, expected, hint."""
    out = Text()
    src = Source(SELECTOR_NAME, text)
    for d in diagnostics:
        out.append_text(full(src, d))
    out.rstrip()
    return out


def explanation_pane(text: str, record: Record | None, dialect: str) -> RenderableType:
    """Why the selector is TRUE, FALSE or UNKNOWN on the record: ``explain --message``'s tree, values
    and types on every node."""
    if not text.strip():
        return Text("The empty selector selects every message.", style="dim")
    if record is None or record.message is None:
        ex = explain(text, None, dialect)
        if not ex.valid:
            return diagnostics_text(text, ex.diagnostics)
        why = "" if record is None else " (a rejected record: no message to evaluate on)"
        return Group(Text(f"Canonical {ex.canonical}{why}"), _rich_tree(ex.tree) if ex.tree is not None else Text(""))
    ex = explain(text, record.message.get, dialect)
    if not ex.valid:
        return diagnostics_text(text, ex.diagnostics)
    parts: list[RenderableType] = []
    if ex.result is not None:
        verdict = Text("Result: ")
        verdict.append(ex.result, style=_VALUE_STYLE[ex.result])
        verdict.append(" -> ")
        verdict.append("selected" if ex.selected else "not selected", style="bold green" if ex.selected else "bold red")
        verdict.append(f"  on {record.location}", style="dim")
        parts.append(verdict)
    if ex.whole_false:
        parts.append(Text(ex.whole_false, style="bold yellow"))
    if ex.tree is not None:
        parts.append(_rich_tree(ex.tree))
    warnings = [d for d in ex.diagnostics if not d.is_error]
    if warnings:
        parts.append(diagnostics_text(text, warnings))
    return Group(*parts)


def profile_pane(profile: Profile | None, of: str) -> RenderableType:
    if profile is None:
        return Text("profiling…", style="dim")
    return Group(Text(of, style="dim"), *render_profile(profile))


__all__ = ["SELECTOR_NAME", "diagnostics_text", "explanation_pane", "message_pane", "profile_pane"]

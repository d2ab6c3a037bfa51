"""The selector of a command that runs one on messages (filter, show --where, browse --where):
compiled, with check's errors (exit 2) and check's warnings on stderr, once, before any message.
A selector that check warns about (``color = red``: W016) selects something else than meant; a run
that said nothing about it would print 0 and leave the reader to guess. ``--quiet`` silences them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

from jmsctl.cli.render import Source, console, print_full
from jmsctl.diagnostics import Severity
from jmsctl.exceptions import InvalidSelectorException

if TYPE_CHECKING:  # the selector package is imported when a selector is compiled: the options (Tab completion) need none
    from jmsctl import selector as sel


def quiet_option() -> Any:
    """``-q/--quiet``: no selector warnings on stderr (errors are still reported)."""
    return typer.Option(False, "--quiet", "-q", help="Do not print the selector's warnings (those jmsctl check gives) on stderr.")


def compiled(src: Source, dialect: str, quiet: bool = False, before_errors: Callable[[], None] | None = None) -> sel.Selector:
    """``src`` compiled under ``dialect``; an invalid one is reported as check reports it and ends the
    command with status 2 (``before_errors`` runs first: filter's swapped-arguments check)."""
    from jmsctl import selector as sel

    try:
        selector = sel.compile(src.text, dialect)
    except InvalidSelectorException as exc:
        if before_errors is not None:
            before_errors()
        print_full(console(stderr=True), src, exc.diagnostics)
        raise typer.Exit(2) from None
    warnings = [d for d in selector.warnings if d.severity is Severity.WARNING]
    if warnings and not quiet:
        print_full(console(stderr=True), src, warnings)
    return selector


__all__ = ["compiled", "quiet_option"]

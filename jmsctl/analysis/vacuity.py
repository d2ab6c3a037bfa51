"""W040 and W041 for ``check`` and ``scan``: a selector that selects no message at all, or every
message (the same as no selector), proved by the solver, never guessed.

A few messages from the selector's own literals (the portability search's, ``witness.messages``)
settle most selectors without the solver: one the selector makes TRUE disproves W040, one it does
not disproves W041. Only what they leave open goes to the solver, with a timeout per question;
a timeout says nothing (no warning). The solver (and z3) is imported only then.
"""

from __future__ import annotations

from collections.abc import Callable

from jmsctl import selector as sel
from jmsctl.analysis import witness as w
from jmsctl.diagnostics import Diagnostic, Span, warning

ENCODED = ("jakarta", "ibm")  # the dialects whose reading the solver states exactly (analysis/smt.py)
DEFAULT_TIMEOUT = 1.0  # seconds per question in check and scan
PROBES = 48  # messages tried before the solver
# Longer selectors are generated, not written: analysing one again, probing it and encoding it took
# minutes for 100,000 terms (a proof that it selects something is not worth that in check or scan).
MAX_TEXT = 16_384


def diagnostics(text: str, dialect: str = "jakarta", timeout: float = DEFAULT_TIMEOUT) -> list[Diagnostic]:
    """W040 / W041 for a valid selector (nothing for an invalid or empty one, or a dialect not encoded)."""
    if dialect not in ENCODED or timeout <= 0 or len(text) > MAX_TEXT:
        return []
    analysis = sel.analyze(text, dialect)
    if not analysis.valid or analysis.ast is None:
        return []
    compiled = getattr(sel, "compile")(text, dialect)  # noqa: B009 - the selector API's 'compile'
    selects = misses = False
    for candidate in w.messages(text, w.ingredients([analysis.ast]), PROBES):
        if compiled.evaluate(candidate.message()) is True:
            selects = True
        else:
            misses = True
        if selects and misses:
            return []
    from jmsctl.analysis import solver

    span = Span(0, len(text))
    out: list[Diagnostic] = []
    if not selects and isinstance(solver.never(text, dialect, timeout), solver.Proof):
        out.append(warning("W040", "the selector selects no message: no message, whatever its property types, makes it TRUE (proved)",
                           span, hint="a consumer with this selector never receives anything; `jmsctl explain` shows each condition"))
    if not misses and isinstance(solver.always(text, dialect, timeout), solver.Proof):
        out.append(warning("W041", "the selector selects every message, as no selector does (proved)", span,
                           hint="it filters nothing: drop it, or check the condition it was meant to have"))
    return out


Lint = Callable[[str, tuple[Diagnostic, ...]], tuple[Diagnostic, ...]]


def with_vacuity(lint: Lint | None, dialect: str, timeout: float) -> Lint | None:
    """``lint`` (or the selector's own diagnostics) followed by W040 / W041."""
    if dialect not in ENCODED or timeout <= 0:
        return lint

    def combined(text: str, own: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
        found = own if lint is None else lint(text, own)
        if any(d.is_error for d in found):
            return found
        return (*found, *diagnostics(text, dialect, timeout))

    return combined


__all__ = ["DEFAULT_TIMEOUT", "ENCODED", "diagnostics", "with_vacuity"]

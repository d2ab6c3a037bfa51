"""W040 and W041 for ``check`` and ``scan``: a selector that selects no message at all, or every
message (the same as no selector), proved by the solver, never guessed.

A few messages from the selector's own literals (the portability search's, ``witness.messages``)
settle most selectors without the solver: one the selector makes TRUE disproves W040, one it does
not disproves W041. Only what they leave open goes to the solver, with a budget per question in
its resource units (CHECK_RLIMIT: the same warnings at any load) and a wall-clock guard; a question
the solver gives up on says nothing (no warning), nor does a selector of more than MAX_NODES
nodes. The solver (and z3) is imported only then.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

from jmsctl import selector as sel
from jmsctl.analysis import witness as w
from jmsctl.analysis.encoded import CHECK_RLIMIT, ENCODED, GUARD_SECONDS, SOLVED
from jmsctl.diagnostics import Diagnostic, Span, warning
from jmsctl.selector import nodes as n
from jmsctl.values import DOUBLE

DEFAULT_TIMEOUT = GUARD_SECONDS  # the wall-clock guard per question in check and scan
PROBES = 48  # messages tried before the solver
DIAGONAL = 8  # of which messages with every name set, to its first, second, ... value
MAX_NODES = 2_000  # a larger selector is not given to the solver: building its formula alone would outlast the timeout
MAX_LENGTH = 20_000  # characters: longer selectors are not even parsed again for it


def diagnostics(text: str, dialect: str = "jakarta", timeout: float = DEFAULT_TIMEOUT, rlimit: int = CHECK_RLIMIT) -> list[Diagnostic]:
    """W040 / W041 for a valid selector (nothing for an invalid or empty one, or a dialect not encoded)."""
    if dialect not in SOLVED or timeout <= 0 or len(text) > MAX_LENGTH:
        return []
    analysis = sel.analyze(text, dialect)
    if not analysis.valid or analysis.ast is None or len(n.walk(analysis.ast)) > MAX_NODES:
        return []
    compiled = getattr(sel, "compile")(text, dialect)  # noqa: B009 - the selector API's 'compile'
    span = Span(0, len(text))
    if not any(isinstance(x, n.Identifier) for x in n.walk(analysis.ast)):  # a constant: one evaluation decides
        verdict = compiled.evaluate({})
        return [_always(span)] if verdict is True else [_never(span)]
    misses = compiled.evaluate({}) is not True  # no headers, no properties: most selectors are UNKNOWN there
    selects = False
    for candidate in _probes(text, analysis.ast):
        if compiled.evaluate(candidate.message()) is True:
            selects = True
        else:
            misses = True
        if selects and misses:
            return []
    from jmsctl.analysis import solver

    out: list[Diagnostic] = []
    if not selects and isinstance(solver.never(text, dialect, timeout, probes=0, rlimit=rlimit), solver.Proof):
        out.append(_never(span))
    if not misses and isinstance(solver.always(text, dialect, timeout, probes=0, rlimit=rlimit), solver.Proof):
        out.append(_always(span))
    return out


def _probes(text: str, ast: n.Node) -> Iterator[w.Candidate]:
    """Every name present with the kind its uses expect (an AND of conditions wants them all), then
    the lint's order (absent first, every kind); built only as far as they are read."""
    typed = w.ingredients([ast], ast, valid_only=True)
    table = w.candidates(typed.names, typed)
    for k in range(DIAGONAL):  # every name its k-th value of the kind it is used as: `(q * p) / 100 > 25.0 AND c <> 'JPY'`
        yield w._candidate({name: vs[1 + k % (len(vs) - 1)] if len(vs) > 1 else vs[0] for name, vs in table.items()})
    yield w._candidate({name: (DOUBLE, math.nan) if name not in w.HEADERS and len(vs) > 1 and vs[1][0].is_numeric else vs[0]  # NaN: `t <> t`
                        for name, vs in table.items()})
    yield from w.messages(text, typed, PROBES // 2, present=frozenset(typed.names))
    yield from w.messages(text, w.ingredients([ast]), PROBES // 2)


def _never(span: Span) -> Diagnostic:
    return warning("W040", "the selector selects no message: no message, whatever its property types, makes it TRUE (proved)",
                   span, hint="a consumer with this selector never receives anything; `jmsctl explain` shows each condition")


def _always(span: Span) -> Diagnostic:
    return warning("W041", "the selector selects every message, as if there were no selector (proved)", span,
                   hint="it filters nothing: drop it, or check the condition it was meant to have")


Lint = Callable[[str, tuple[Diagnostic, ...]], tuple[Diagnostic, ...]]


def with_vacuity(lint: Lint | None, dialect: str, timeout: float) -> Lint | None:
    """``lint`` (or the selector's own diagnostics) followed by W040 / W041."""
    if dialect not in SOLVED or timeout <= 0:
        return lint

    def combined(text: str, own: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
        found = own if lint is None else lint(text, own)
        if any(d.is_error or d.code == "W013" for d in found):  # W013: the diagnostics were cut at 100
            return found
        return (*found, *diagnostics(text, dialect, timeout))

    return combined


__all__ = ["DEFAULT_TIMEOUT", "ENCODED", "diagnostics", "with_vacuity"]

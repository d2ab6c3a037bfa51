"""The overlap matrix's steps between the selectors' own facts and the full solver, for a pair
that shares names (Jakarta's reading): a proof from kinds.py's abstraction, a witness by repair
(repair.py) of the messages each selects merged, and one from a message of one selector with the
other's own names solved (extend.py). solver.overlap calls them in that order; each witness is
judged by its ``judge`` (the engine on both selectors, after the dump format's round trip).
``never`` takes the first two on one selector, after its probes and before the solver."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

import z3

from jmsctl.analysis import extend, kinds, repair, smt
from jmsctl.messages.model import Message
from jmsctl.selector import nodes as n

W = TypeVar("W")
STARTS = 2  # messages of each selector merged as the repair's starting points


class Prepared(Protocol):
    ast: n.Node | None
    names: frozenset[str]
    size: int
    selects: list[Message]


def never_together(prepared: Sequence[Prepared], rlimit: int = kinds.RLIMIT) -> bool:
    """Proved from kinds.py's abstraction (each name's kind, each pair of operands' order): no
    message makes every selector TRUE (one selector: it is never TRUE); within ``rlimit`` units."""
    found = [kinds.abstraction(p.ast) for p in prepared]
    return all(k is not None for k in found) and kinds.never_together([k for k in found if k is not None], rlimit)


def repaired(prepared: Sequence[Prepared], judge: Callable[..., W | None]) -> W | None:
    """A witness among the messages each selects (merged, for two), and the empty message, repaired
    (repair.py); ``judge(m=message)`` says which is one."""
    starts = [Message({**second.headers, **first.headers}, {**second.properties, **first.properties})
              for a, b in itertools.combinations(prepared, 2) for ma in a.selects[:STARTS] for mb in b.selects[:STARTS]
              for first, second in ((ma, mb), (mb, ma))]
    starts += [m for p in prepared for m in p.selects[:STARTS]]
    starts.append(Message({}, {}))
    for m in repair.candidates([p.ast for p in prepared], starts):
        found = judge(m=m)
        if found is not None:
            return found
    return None


EXTENDED = 2  # messages of each selector completed with the other's names


def extended(a: Prepared, b: Prepared, encode: Callable[[Prepared], tuple[z3.BoolRef, z3.BoolRef]],
             judge: Callable[..., W | None], timeout: float) -> W | None:
    """A message one selects, its shared names fixed, the other's own names solved (extend.py)."""
    for fixed, free in sorted(((a, b), (b, a)), key=lambda pair: -pair[0].size):  # the larger one's message first
        try:
            tri = encode(free)
        except smt.Unsupported:
            continue
        if free.ast is not None:
            for m in extend.completed(fixed.selects[:EXTENDED], free.ast, tri[0], free.names, fixed.names, timeout):
                found = judge(m=m)
                if found is not None:
                    return found
    return None


__all__ = ["extended", "never_together", "repaired"]

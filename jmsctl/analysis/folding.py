"""And and Or with their constants folded, for the encodings that build formulas term by term
(kinds.py, broker_encoding.py): a FALSE or TRUE operand decides at once, and no z3 term is made
for it."""

from __future__ import annotations

from collections.abc import Iterable

import z3

TRUE_F: z3.BoolRef = z3.BoolVal(True)
FALSE_F: z3.BoolRef = z3.BoolVal(False)


def and_all(*fs: z3.BoolRef) -> z3.BoolRef:
    """And of ``fs``, constants folded (kinds.py and broker_encoding.py build their formulas with it)."""
    parts = [f for f in fs if not z3.is_true(f)]
    if any(z3.is_false(f) for f in parts):
        return FALSE_F
    return z3.And(*parts) if len(parts) > 1 else (parts[0] if parts else TRUE_F)


def or_all(fs: Iterable[z3.BoolRef]) -> z3.BoolRef:
    """Or of ``fs``, constants folded."""
    parts = [f for f in fs if not z3.is_false(f)]
    if any(z3.is_true(f) for f in parts):
        return TRUE_F
    return z3.Or(*parts) if len(parts) > 1 else (parts[0] if parts else FALSE_F)


__all__ = ["and_all", "or_all"]

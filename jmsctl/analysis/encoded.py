"""The dialects whose reading analysis/smt.py states exactly, known without importing z3.

The solver answers for these; for the brokers' dialects (their JavaCC front end and Java-object
evaluation, selector/dialects/broker_*.py) it searches for a witness and otherwise says Unknown.
The check lint (vacuity.py) and the portability lint ask this before they pay for z3's import.
"""

from __future__ import annotations

ENCODED = ("jakarta", "ibm")

__all__ = ["ENCODED"]

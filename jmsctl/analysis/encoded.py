"""The dialects whose reading analysis/smt.py states exactly, known without importing z3.

The solver answers for these; for the brokers' dialects (their JavaCC front end and Java-object
evaluation, selector/dialects/broker_*.py) it searches for a witness and otherwise says Unknown.
The check lint (vacuity.py) and the portability lint ask this before they pay for z3's import.
"""

from __future__ import annotations

ENCODED = ("jakarta", "ibm")

# The solver's budget per question in z3's resource units (``rlimit``, analysis/budget.py), not in
# seconds: the same question gets the same answer at any load. diff, overlap and coverage:
DEFAULT_RLIMIT = 1_000_000
CHECK_RLIMIT = 1_000_000  # W040 / W041 in check and scan (each question, after the probes)
GUARD_SECONDS = 5.0  # check's and scan's wall-clock guard per question (--solver-timeout)

__all__ = ["CHECK_RLIMIT", "DEFAULT_RLIMIT", "ENCODED", "GUARD_SECONDS"]

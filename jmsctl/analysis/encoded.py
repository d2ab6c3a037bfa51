"""The dialects the solver states exactly, known without importing z3.

``ENCODED``: the standard's value model (smt.py); ``BROKER_ENCODED``: the brokers' Java objects
(broker_encoding.py), where a selector the encoding does not state (a name read from message
fields, STOMP's conversion prefix) gets the bounded search and otherwise Unknown. The check lint
(vacuity.py) and the portability lint ask this before they pay for z3's import.
"""

from __future__ import annotations

ENCODED = ("jakarta", "ibm")
BROKER_ENCODED = ("artemis", "activemq")
SOLVED = ENCODED + BROKER_ENCODED

# The solver's budget per question in z3's resource units (``rlimit``, analysis/budget.py), not in
# seconds: the same question gets the same answer at any load. diff, overlap and coverage:
DEFAULT_RLIMIT = 1_000_000
CHECK_RLIMIT = 1_000_000  # W040 / W041 in check and scan (each question, after the probes)
GUARD_SECONDS = 5.0  # check's and scan's wall-clock guard per question (--solver-timeout)

__all__ = ["BROKER_ENCODED", "CHECK_RLIMIT", "DEFAULT_RLIMIT", "ENCODED", "GUARD_SECONDS", "SOLVED"]

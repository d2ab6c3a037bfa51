"""Every witness diff/overlap/coverage print is a message `validate` accepts (issue 35 item 13): the
JMSX properties with the specification's types, headers in their ranges, names a message may carry.
A witness that validate rejects is a bug, whatever the selector."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jmsctl import selector as sel
from jmsctl.analysis import solver
from jmsctl.messages.validator import check_message
from jmsctl.selector.unparser import unparse
from tests.strategies import conditions

RLIMIT = 100_000  # small: an unknown is no witness, and the property is about witnesses
JMSX = ["JMSXDeliveryCount", "JMSXGroupSeq", "JMSXGroupID", "JMSXRcvTimestamp", "JMSXUserID", "JMSXState"]
LITERALS = ["'x'", "''", "1", "2147483648", "1.5", "0.5f", "TRUE", "-0.0", "'7'"]


def rejected(answer: solver.Answer) -> list[str]:
    """validate's errors on the witness (none for a proof or an unknown)."""
    if not isinstance(answer, solver.Witness):
        return []
    message = solver.read_witness(answer.message)
    return [f"{f.code} {f.message}" for f in check_message(message, "witness") if f.is_error]


def test_jmsx_types_are_respected() -> None:
    """`JMSXDeliveryCount = 'x'` never selects a valid message (check's W010 said so): no witness of
    a String JMSXDeliveryCount, but a proof."""
    assert solver.never("JMSXDeliveryCount = 'x'") == solver.Proof("never")
    assert solver.equivalent("JMSXDeliveryCount = 'x'", "FALSE") == solver.Proof("equivalent")
    for texts in (["JMSXGroupSeq > 2", "JMSXGroupSeq < 4.5"], ["JMSXRcvTimestamp > 2147483647", "JMSXUserID LIKE 'a%'"]):
        answer = solver.overlap(*texts)
        assert isinstance(answer, solver.Witness) and rejected(answer) == [], answer


jmsx_predicates = st.builds(lambda name, op, lit: f"{name} {op} {lit}", st.sampled_from(JMSX),
                            st.sampled_from(["=", "<>", "<", ">="]), st.sampled_from(LITERALS))
selectors = st.one_of(jmsx_predicates, conditions(2).map(unparse),
                      st.builds(lambda a, b: f"({a}) AND ({b})", jmsx_predicates, conditions(1).map(unparse)),
                      st.builds(lambda a, b: f"({a}) OR ({b})", jmsx_predicates, conditions(1).map(unparse)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(selectors, selectors)
def test_every_witness_is_a_valid_message(a: str, b: str) -> None:
    if not (sel.analyze(a).valid and sel.analyze(b).valid):
        return
    for answer in (solver.never(a, rlimit=RLIMIT), solver.always(a, rlimit=RLIMIT), solver.overlap(a, b, rlimit=RLIMIT),
                   solver.equivalent(a, b, rlimit=RLIMIT), solver.coverage([a], given=b, rlimit=RLIMIT)):
        assert rejected(answer) == [], (a, b, answer)

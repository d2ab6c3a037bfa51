"""The solver is not given generated selectors of thousands of terms: building their encoding alone
outlasted any timeout (a 100,000-term selector in tests/test_hostile_cli.py ran for minutes)."""

from __future__ import annotations

from jmsctl.analysis import solver, vacuity


def test_a_selector_beyond_the_term_limit_is_unknown_never_proved() -> None:
    text = " AND ".join(f"p{i} = {i}" for i in range(solver.MAX_NODES // 3 + 1))
    answer = solver.never(text)
    assert isinstance(answer, solver.Unknown)
    assert "no proof is claimed" in answer.reason


def test_over_the_size_limit_the_bounded_search_comes_first() -> None:
    """Issue 35 item 28: a 1,200-value IN list (2,412 terms with the other) is past the solver's
    limit, but the bounded search finds the obvious witness before the answer is unknown."""
    big = "x IN (" + ", ".join(f"'v{i}'" for i in range(1200)) + ")"
    answer = solver.equivalent(f"{big} AND y > 17", f"{big} AND y > 18")
    assert isinstance(answer, solver.Witness) and answer.message["properties"]["y"] == 18, answer
    answer = solver.equivalent(f"{big} AND y > 17", f"{big} AND 17 < y")
    assert isinstance(answer, solver.Unknown) and "bounded search" in answer.reason


def test_check_does_not_look_for_w040_in_a_generated_selector() -> None:
    text = " AND ".join(["a > 5 AND a < 3"] * (vacuity.MAX_LENGTH // 15 + 1))
    assert len(text) > vacuity.MAX_LENGTH
    assert vacuity.diagnostics(text) == []
    assert [d.code for d in vacuity.diagnostics("a > 5 AND a < 3")] == ["W040"]

"""Diagnostics for selectors as found in real code (issue 16): wrong-case names, NOT=, IS TRUE,
URL-encoded text, templates. Each asserts code, column and the suggestion."""

from __future__ import annotations

import pytest

from jmsctl import selector as sel


def only(text: str) -> tuple[str, int, str, str]:
    diags = sel.analyze(text).diagnostics
    assert len(diags) == 1, diags
    d = diags[0]
    return d.code, d.span.start + 1, d.message, d.hint or ""


@pytest.mark.parametrize(("text", "code", "meant"), [
    ("JMSCorrelationId = 'a'", "E113", "JMSCorrelationID"),
    ("JMSMessageId = 'a'", "E113", "JMSMessageID"),
    ("jmsType = 'a'", "W014", "JMSType"),
    ("jmspriority > 4", "W014", "JMSPriority"),
    ("JMSXGroupId = 'g'", "W004", "JMSXGroupID"),
    ("jmsxdeliverycount > 1", "W014", "JMSXDeliveryCount"),
])
def test_wrong_case_names_suggest_the_real_one(text: str, code: str, meant: str) -> None:
    got, column, message, hint = only(text)
    assert (got, column) == (code, 1)
    assert f"did you mean {meant}" in message or f"did you mean the header {meant}" in message
    assert meant in hint


def test_right_names_and_other_jms_names_unchanged() -> None:
    assert sel.analyze("JMSCorrelationID = 'a' AND JMSXGroupID = 'g' AND JMSType = 't'").diagnostics == ()
    assert only("JMSXFoo = 1")[0] == "W004"
    assert only("JMSFoo IS NULL")[0] == "E113"


def test_not_equal_written_not_eq() -> None:
    code, column, message, hint = only("Country NOT= 'UK'")
    assert (code, column) == ("E016", 9)
    assert "BETWEEN" in message and "Country <> 'UK'" in hint
    code, column, _, hint = only("a = 1 AND Country NOT > 3")
    assert (code, column) == ("E016", 19) and "NOT (" in hint
    assert only("NOT = 1")[0] == "E014"  # NOT alone where a name belongs: still the reserved word


@pytest.mark.parametrize(("text", "column", "fixed"), [
    ("Fragile IS TRUE", 12, "Fragile = TRUE"),
    ("Fragile IS false", 12, "Fragile = false"),
    ("Fragile IS NOT TRUE", 16, "Fragile <> TRUE"),
])
def test_is_true_hints_equals(text: str, column: int, fixed: str) -> None:
    code, col, message, hint = only(text)
    assert (code, col) == ("E002", column) and "NULL" in message
    assert hint.endswith(fixed)


@pytest.mark.parametrize(("text", "column", "decoded"), [
    ("color%3D%27blue%27", 6, "color='blue'"),
    ("color+%3D+%27blue%27", 7, "color = 'blue'"),
    ("color+=+'blue'", 6, "color = 'blue'"),
    ("JMSType%20%3D%20%27car%27", 8, "JMSType = 'car'"),
])
def test_url_encoded_selectors_are_named_and_decoded(text: str, column: int, decoded: str) -> None:
    code, col, message, _ = only(text)
    assert (code, col) == ("E017", column)
    assert message.endswith(decoded)


@pytest.mark.parametrize(("text", "column", "shown"), [
    ("color = ${color}", 9, "${color}"),
    ("color = '${color}' AND ${more}", 24, "${more}"),  # inside quotes a placeholder is a valid string
    ("region = #{region}", 10, "#{region}"),
    ("x = {0} AND y = {1}", 5, "{0}"),
    ("x = %s", 5, "%s"),
    ("x = {{camel.prop}}", 5, "{{camel.prop}}"),
    ("x = %d AND y = 'a'", 5, "%d"),
])
def test_templates_are_not_selectors(text: str, column: int, shown: str) -> None:
    code, col, message, _ = only(text)
    assert (code, col) == ("E018", column)
    assert shown in message


def test_valid_selectors_are_never_second_guessed() -> None:
    for text in ("a LIKE '%20'", "name LIKE '%s'", "a + b = 1"):
        assert sel.analyze(text).diagnostics == (), text
    # A placeholder inside quotes is valid: not E018, but the W015 lint (issue 22) says it is compared as text.
    assert [(d.code, d.severity.value) for d in sel.analyze("x = '${y}'").diagnostics] == [("W015", "warning")]
    assert only("a + = 1")[0] == "E002"  # a '+' in a selector with spaces is arithmetic, not URL encoding

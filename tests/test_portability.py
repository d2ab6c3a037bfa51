"""The portability lint (jmsctl/analysis/portability.py, witness.py, ``check --portability``).

Every witness the lint shows is checked independently here: the message is decoded from the
witness JSON and the selector compiled afresh under each dialect, and the verdicts must differ as
the lint says. Every rule switch a registered dialect sets needs an example below with the finding
it gives (or None where the switch makes no difference a selector can show).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jmsctl import selector as sel
from jmsctl.analysis import portability, witness
from jmsctl.exceptions import InvalidSelectorException
from jmsctl.messages.decode import decode_message

BROKERS = tuple(d for d in ("artemis", "activemq") if d in sel.DIALECTS)
needs_brokers = pytest.mark.skipif(len(BROKERS) < 2, reason="the artemis and activemq dialects are not registered yet")
JAVADOC = Path(__file__).parent.parent.parent / "shared" / "spec" / "jakarta-messaging-message-javadoc.txt"

# The javadoc's own example selectors (jakarta.jms.Message, ../shared/spec/jakarta-messaging-message-javadoc.txt).
JAVADOC_EXAMPLES = (
    "JMSType = 'car' AND color = 'blue' AND weight > 2500",
    "NumberOfOrders > 1",
    "age BETWEEN 15 AND 19",
    "age >= 15 AND age <= 19",
    "age NOT BETWEEN 15 AND 19",
    "age < 15 OR age > 19",
    "Country IN (' UK', 'US', 'France')",
    "(Country = ' UK') OR (Country = ' US') OR (Country = ' France')",
    "Country NOT IN (' UK', 'US', 'France')",
    "NOT ((Country = ' UK') OR (Country = ' US') OR (Country = ' France'))",
    "phone LIKE '12%3'",
    "word LIKE 'l_se'",
    "underscored LIKE '\\_%' ESCAPE '\\'",
    "phone NOT LIKE '12%3'",
    "prop_name IS NULL",
    "prop_name IS NOT NULL",
)

# Rule switch of the dialect table -> (a selector showing it, the code the lint gives), or None where
# the switch only keeps the broker in line with the standard (nothing a witness could show).
EXAMPLES: dict[str, tuple[str, str] | None] = {
    "grammar": ("a % 2 = 1", "W021"),  # '%' is an operator of the brokers' grammar only
    "not_binds_tighter": ("NOT a = 1 AND b = 1", "W022"),
    "chained_comparisons": ("a = b = c", "W021"),
    "ascii_identifiers": ("größe > 1", "W020"),
    "line_comments": ("x = 1 -- c\nAND y = 2", "W026"),  # Artemis trims the text: a last-line comment is no comment
    "block_comments": ("a = 1 /* c */", "W021"),
    "blank_is_error": ("   ", "W020"),
    "quoted_identifiers": ('"a" = 1', "W021"),
    "function_calls": None,  # jmsctl rejects the calls under every dialect (not evaluated)
    "rewrite_delivery_mode_literals": ("status = 'PERSISTENT'", "W027"),
    "evaluation": ("a = b", "W032"),  # NULL = NULL is TRUE in the brokers' filter objects
    "integer_division_truncates": ("a / 2 = 3", "W023"),
    "double_vs_float": ("1.5 = f", "W031"),  # f a float: ActiveMQ casts the double back and throws
    "header_defaults": ("JMSPriority BETWEEN 0 AND 9", "W025"),
    "null_names": ("JMSXGroupSeq = 1", "W028"),
    "field_backed_jmsx": ("JMSXDeliveryCount = 2", "W031"),  # a long JMSXDeliveryCount is no int field
    "extra_headers": ("JMSExpiration > 0", "W021"),
    "ibm_whole_false": ("a + 1 > 2 OR b = 1", "W029"),
    # ActiveMQ's STOMP prefix: the standard rejects the ':'; with it, Strings compare as numbers
    "conversion_prefix": ("convert_string_expressions:w > 100", "W021"),
    "convert_string_expressions": None,  # set only by the prefix (conversion_prefix), never by a dialect itself
    "hyphenated_prefix": ("hyphenated_props:b-ar = 'x'", "W021"),  # Artemis's prefix: '-' inside names after it
}
# Differences the issue names that are not switches of their own (literal reading lives in 'evaluation').
MORE = (("x = 0xFFFFFFFF", "W024"), ("-7 / 2 = -3", "W023"), ("n >= 0 AND n = b", "W031"), ("-s BETWEEN -1 AND 1", "W031"),
        ("s IN ('a') OR s < t", "W033"))


def _verdict(text: str, dialect: str, message: dict[str, object]) -> str:
    try:
        compiled = getattr(sel, "compile")(text, dialect)  # noqa: B009
    except InvalidSelectorException:
        return "error"
    return "match" if compiled.evaluate(decode_message(message)) is True else "nomatch"


def _check_witnesses(text: str, report: portability.Report) -> None:
    """Each witness, re-evaluated from its JSON: the verdicts are the ones shown, and each dialect of
    the finding that it stands for differs from the standard on it."""
    assert report.witnesses or report.diagnostic.code in ("W020", "W021"), report
    for w in report.witnesses:
        shown = dict(w.verdicts)
        for dialect, verdict in shown.items():
            assert _verdict(text, dialect, w.message) == verdict, (text, w)
        assert any(shown[d] != shown["jakarta"] for d in report.dialects), (text, w)


def _switch_examples() -> list[tuple[str, str]]:
    from importlib import import_module

    try:
        dialects = import_module("jmsctl.selector.dialects")
    except ImportError:
        return []
    standard = dialects.get("jakarta").switches()
    out = []
    for name in sel.DIALECTS:
        for switch, value in dialects.get(name).switches().items():
            if value != standard.get(switch):
                out.append((name, switch))
    return out


@pytest.mark.parametrize(("dialect", "switch"), _switch_examples())
def test_every_switch_of_the_dialect_table_has_a_witnessed_example(dialect: str, switch: str) -> None:
    assert switch in EXAMPLES, f"add an example of {switch!r} to EXAMPLES in tests/test_portability.py"
    example = EXAMPLES[switch]
    if example is None:
        return
    text, code = example
    reports = portability.lint(text, [dialect])
    mine = [r for r in reports if r.diagnostic.code == code and dialect in r.dialects]
    if not mine and not any(dialect in r.dialects for r in reports):
        # this dialect leaves the switch's example alone only if another switch undoes it: not allowed
        pytest.fail(f"{dialect}: {text!r} gave {[(r.diagnostic.code, r.dialects) for r in reports]}, expected {code}")
    assert mine, (dialect, text, [(r.diagnostic.code, r.diagnostic.message) for r in reports])
    for r in reports:
        _check_witnesses(text, r)


@needs_brokers
@pytest.mark.parametrize(("text", "code"), MORE)
def test_named_differences(text: str, code: str) -> None:
    reports = portability.lint(text, BROKERS)
    assert [r.diagnostic.code for r in reports] == [code]
    assert set(reports[0].dialects) == set(BROKERS)
    _check_witnesses(text, reports[0])


@needs_brokers
def test_the_issue_example_reads_as_the_issue_says() -> None:
    (report,) = portability.lint("NOT a = 1 AND b = 1", BROKERS)
    d = report.diagnostic
    assert d.code == "W022" and d.message == "Artemis and ActiveMQ read `NOT a = 1` as `(NOT a) = 1`"
    assert d.span == (0, 9) and d.hint is not None and "NOT (a = 1)" in d.hint
    assert report.witnesses[0].message == {"properties": {"a": 2, "b": 1}}
    assert dict(report.witnesses[0].verdicts) == {"jakarta": "match", "artemis": "nomatch", "activemq": "nomatch"}


def test_javadoc_examples_are_the_javadocs() -> None:
    if not JAVADOC.exists():
        pytest.skip("../shared/spec is not beside this checkout")
    text = JAVADOC.read_text(encoding="utf-8").replace("\u00a0", " ")  # its first example is spaced with U+00A0
    for example in JAVADOC_EXAMPLES:
        assert f'"{example}"' in text, example


@needs_brokers
@pytest.mark.parametrize("example", JAVADOC_EXAMPLES)
def test_javadoc_examples_are_silent(example: str) -> None:
    assert portability.lint(example, BROKERS) == []
    assert portability.lint(example.replace(" ", "\u00a0"), BROKERS) == []  # as the javadoc text spells the first one


@pytest.mark.parametrize("text", ["a = 1", "a > 1 AND b < 2 OR s IN ('x', 'y')", "(a BETWEEN 1 AND 5) AND NOT (b = 1)",
                                  "s LIKE 'a%' AND t IS NOT NULL", "JMSType = 'car' AND JMSCorrelationID = 'x'", ""])
def test_clean_selectors_are_silent(text: str) -> None:
    assert portability.lint(text, BROKERS) == []


def test_mistyped_values_only_on_request() -> None:
    """An int where LIKE expects a String is not what the author meant: looked at only with mistyped."""
    target = BROKERS or ("ibm",)
    assert portability.lint("phone NOT LIKE '12%3'", target) == [] or target == ("ibm",)
    if BROKERS:
        reports = portability.lint("phone NOT LIKE '12%3'", BROKERS, mistyped=True)
        assert [r.diagnostic.code for r in reports] == ["W034"] and all(r.witnesses for r in reports)
        for r in reports:
            _check_witnesses("phone NOT LIKE '12%3'", r)


def test_ibm_is_compared_when_asked() -> None:
    (report,) = portability.lint("a + 1 > 2 OR b = 1", ["ibm"])
    assert report.dialects == ("ibm",) and report.diagnostic.code == "W029"
    _check_witnesses("a + 1 > 2 OR b = 1", report)
    assert "ibm" not in portability.default_targets()


def test_expected_kinds() -> None:
    ast = sel.analyze("s LIKE 'a%' AND n + 1 > 2 AND flag AND b = TRUE AND x = y AND t IN ('1') AND u = 'v' AND m IS NULL").ast
    kinds = witness.expected_kinds(ast)
    assert kinds["s"] == {"string"} and kinds["t"] == {"string"} and kinds["u"] == {"string"}
    assert kinds["n"] == {"number"} and kinds["flag"] == {"boolean"} and kinds["b"] == {"boolean"}
    assert "x" not in kinds and "y" not in kinds and "m" not in kinds


def test_the_search_is_deterministic_and_bounded() -> None:
    text = "a / b = c AND d LIKE 'x%' AND e > 0x10"
    ing = witness.ingredients([sel.analyze(text).ast])
    first = list(witness.messages(text, ing, 500))
    assert first == list(witness.messages(text, ing, 500))
    assert len(first) == 500 and len(set(first)) == 500
    assert first[0].headers == () and first[0].properties == ()  # the simplest message first
    values = {v for c in first for _, v in c.properties}
    assert (witness.INT, 16) in values  # the hex literal's value
    assert any(t is witness.STRING and v.startswith("x") for t, v in values)  # a string matching the LIKE


def _jmsctl(*args: str) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).parent.parent
    return subprocess.run([sys.executable, "-m", "jmsctl", *args], capture_output=True, text=True, cwd=root,
                          env={"PYTHONPATH": str(root), "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}, timeout=120)


def test_check_portability_formats_and_strict() -> None:
    against = [f"--against={d}" for d in (BROKERS or ("ibm",))]
    text = "NOT a = 1 AND b = 1" if BROKERS else "a + 1 > 2 OR b = 1"
    code = "W022" if BROKERS else "W029"
    full = _jmsctl("check", "--portability", *against, text)
    assert full.returncode == 0, full.stderr
    assert f"warning[{code}]" in full.stdout and "= witness: {" in full.stdout and "standard: match" in full.stdout
    strict = _jmsctl("check", "--portability", "--strict", *against, text)
    assert strict.returncode == 1
    doc = json.loads(_jmsctl("check", "--portability", "--format", "json", *against, text).stdout)
    (diag,) = [d for d in doc["selectors"][0]["diagnostics"] if d["code"] == code]
    assert diag["witnesses"][0]["verdicts"]["jakarta"] == "match" and diag["dialects"]
    assert diag["notes"][0].startswith("witness: ")
    gh = _jmsctl("check", "--portability", "--format", "github", *against, text).stdout
    assert gh.startswith(f"::warning title={code}::") and "witness" in gh
    plain = _jmsctl("check", text)
    assert code not in plain.stdout  # only with --portability
    assert _jmsctl("check", "--against", "nosuch", "--portability", text).returncode == 2
    assert _jmsctl("check", "--against", "ibm", text).returncode == 2  # --against without --portability


def test_explain_has_a_portability_section() -> None:
    doc = json.loads(_jmsctl("explain", "--format", "json", "a / 2 = 3").stdout)
    assert doc["portability"]["against"] == list(portability.default_targets())
    if BROKERS:
        assert [d["code"] for d in doc["portability"]["differences"]] == ["W023"]
        text = _jmsctl("explain", "a / 2 = 3").stdout
        assert "Portability" in text and "W023" in text


@needs_brokers
def test_bounded_on_big_selectors() -> None:
    """Many sites: at most MAX_SITES examined; too long: W030 says the lint did not run."""
    many = " OR ".join(f"NOT a{i} = {i}" for i in range(60))
    reports = portability.lint(many, BROKERS)
    assert len(reports) == portability.MAX_SITES and all(r.diagnostic.code == "W022" for r in reports)
    (long_report,) = portability.lint("x" * (portability.MAX_LENGTH + 1) + " = 1", BROKERS)
    assert long_report.diagnostic.code == "W030" and not long_report.witnesses


@needs_brokers
def test_confirmed_finding_replaces_the_static_warning() -> None:
    """W011 (static: NOT before a comparison) gives way to W022 (confirmed, with a witness) under --portability."""
    plain = json.loads(_jmsctl("check", "--format", "json", "NOT a = 1 AND b = 1").stdout)
    assert [d["code"] for d in plain["selectors"][0]["diagnostics"]] == ["W011"]
    linted = json.loads(_jmsctl("check", "--portability", "--format", "json", "NOT a = 1 AND b = 1").stdout)
    assert [d["code"] for d in linted["selectors"][0]["diagnostics"]] == ["W022"]


@needs_brokers
def test_absent_header_names_the_value_read() -> None:
    (report,) = portability.lint("JMSPriority BETWEEN 0 AND 9", BROKERS)
    assert report.dialects == ("activemq",) and report.diagnostic.code == "W025"
    assert "absent JMSPriority as 0" in report.diagnostic.message
    assert report.witnesses[0].message == {}


@needs_brokers
def test_explain_shows_portability_of_an_invalid_selector() -> None:
    r = _jmsctl("explain", "a = b = c")
    assert r.returncode == 1 and "error[E102]" in r.stdout and "W021" in r.stdout


@needs_brokers
def test_field_backed_jmsx_and_null_between() -> None:
    """ActiveMQ keeps JMSXGroupSeq in a field (absent reads a value: W025); a NOT BETWEEN with a NULL bound is not UNKNOWN."""
    reports = portability.lint("NOT (JMSXGroupSeq IS NOT NULL)", ["activemq"])
    assert [r.diagnostic.code for r in reports] == ["W025"]
    _check_witnesses("NOT (JMSXGroupSeq IS NOT NULL)", reports[0])
    text = "(JMSXGroupSeq - 1e3) NOT BETWEEN 1 / s AND JMSPriority"
    for r in portability.lint(text, ["activemq"]):
        _check_witnesses(text, r)

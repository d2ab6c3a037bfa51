"""The four lints of issue 22 (selector/lints/): what each names, where each is quiet, and the
false-positive rate over the javadoc's examples and the conformance corpus's valid selectors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jmsctl import selector as sel
from jmsctl.cli.app import app
from jmsctl.selector import lints

HERE = Path(__file__).parent
CODES = ("W015", "W016", "W017", "W018")


def codes(text: str) -> list[str]:
    return [d.code for d in sel.analyze(text).diagnostics if d.code in CODES]


@pytest.mark.parametrize(("text", "code", "column"), [
    ("clientID = '${clientID}'", "W015", 13),
    ("JMSType = '#{type}'", "W015", 12),
    ("id = '%s'", "W015", 7),
    ("id = 'ID-%d'", "W015", 10),
    ("id = '{0}'", "W015", 7),
    ("region IN ('EU', '{{region}}')", "W015", 19),
    ("name LIKE '${prefix}%'", "W015", 12),
    ("color = red", "W016", 9),
    ("service = order", "W016", 11),
    ("status <> ACTIVE", "W016", 11),
    ("city = London AND x = 1", "W016", 8),
    ("JMSType = car", "W016", 11),
    ("JMSType IN ('closed, saleUpdate')", "W017", 13),
    ("x IN ('a', 'b,c', 'd')", "W017", 12),
    ("topic", "W018", 1),  # createConsumer(topic, "topic"): seen in public code
    ("podsistem", "W018", 1),
    ("mySubscription", "W018", 1),
    ("(orders)", "W018", 2),
])
def test_each_lint_names_its_mistake(text: str, code: str, column: int) -> None:
    analysis = sel.analyze(text)
    assert analysis.valid, text  # every one of these is a valid selector that means something else
    found = [d for d in analysis.diagnostics if d.code in CODES]
    assert [d.code for d in found] == [code], text
    assert found[0].span.start + 1 == column
    assert found[0].severity.value == "warning"


def test_hints_say_the_fix() -> None:
    (w16,) = [d for d in sel.analyze("color = red").diagnostics if d.code == "W016"]
    assert w16.hint == "did you mean the string 'red'?"
    (w17,) = [d for d in sel.analyze("JMSType IN ('closed, saleUpdate')").diagnostics if d.code == "W017"]
    assert w17.hint == "did you mean IN ('closed', 'saleUpdate')?"
    (w15,) = [d for d in sel.analyze("clientID = '${clientID}'").diagnostics if d.code == "W015"]
    assert "'${clientID}'" in w15.message and "placeholder" in w15.message


@pytest.mark.parametrize("text", [
    "name LIKE '%s'",  # a LIKE pattern: 'ends with s', not printf
    "phone LIKE '12%3'",
    "note = '100% sure'",  # a percent sign, not a placeholder
    "code = '5%discount'",
    "price = oldPrice",  # camelCase: a property compared with a property
    "a = b",  # single letters: how tests compare properties
    "old_price = new_price",
    "JMSPriority = high",  # a numeric header: quotes would not help (W002's business)
    "color = 'red'",
    "x IN ('a', 'b')",
    "x IN ('Smith, John Ronald Reuel')",  # a sentence, not a list of values
    "isUrgent",  # reads as a boolean
    "hasAttachment",
    "urgent_flag",
    "AnswerAlreadyPlayed",  # a participle: public code sets such names with setBooleanProperty and selects on them bare
    "processed",
    "a",
    "NOT topic",  # a condition written as one
    "JMSType = 'car' AND color = 'blue' AND weight > 2500",
])
def test_quiet_where_nothing_is_wrong(text: str) -> None:
    assert codes(text) == [], text


def test_registry_one_module_per_rule_and_a_readme_row_each() -> None:
    assert lints.codes() == CODES
    readme = (HERE.parent / "README.md").read_text()
    for rule in lints.rules():
        assert re.search(rf"^\| {rule.code} \|", readme, re.MULTILINE), f"{rule.code} has no row in README's table"
        module = Path(lints.__file__).parent
        assert sum(rule.code in p.read_text() for p in module.glob("*.py") if p.name != "__init__.py") == 1


def _corpus_selectors() -> list[str]:
    out: dict[str, None] = {}
    for path in sorted((HERE / "conformance").rglob("*.jsonl")):
        for line in path.read_text().splitlines():
            out.setdefault(json.loads(line)["selector"], None)
    return list(out)


def test_false_positives_over_the_javadoc_and_the_conformance_corpus() -> None:
    """Issue 22: quiet on the javadoc's examples and the corpus's valid selectors (measured: 0 of each)."""
    javadoc = [line for line in (HERE / "data/lints/javadoc-examples.txt").read_text().splitlines() if line and not line.startswith("#")]
    assert len(javadoc) == 16
    assert {t: codes(t) for t in javadoc if codes(t)} == {}
    valid = [t for t in _corpus_selectors() if sel.analyze(t).valid]
    assert len(valid) > 1500
    flagged = {t: codes(t) for t in valid if codes(t)}
    assert flagged == {}, f"{len(flagged)} of {len(valid)} valid corpus selectors flagged"


runner = CliRunner()


@pytest.mark.parametrize("fmt", ["full", "concise", "json", "github"])
def test_every_check_format_shows_the_lints(fmt: str) -> None:
    texts = ["clientID = '${clientID}'", "color = red", "JMSType IN ('closed, saleUpdate')", "topic"]
    result = runner.invoke(app, ["check", "--format", fmt, *texts])
    assert result.exit_code == 0, result.output  # warnings only
    for code in CODES:
        assert code in result.output, (fmt, code)


def test_strict_makes_a_lint_fail() -> None:
    assert runner.invoke(app, ["check", "--strict", "color = red"]).exit_code == 1


# ----- in scan: who fills a placeholder in, and which argument a bare name is ----------------------

def _scan_codes(path: str, text: str) -> list[tuple[str, tuple[str, ...]]]:
    from jmsctl.scan import scan_bytes

    result = scan_bytes(path, text.encode())
    assert result is not None
    return [(d.code, d.notes) for c in result.selectors for d in c.diagnostics]


JAVA = 'import javax.jms.*;\nclass A {{ void a(Session s, Topic t) throws Exception {{ {call} }} }}\n'


@pytest.mark.parametrize(("path", "text", "code", "note"), [
    ("A.java", JAVA.format(call='s.createConsumer(t, "clientID = \'${clientID}\'");'), "W015", None),  # plain Java fills nothing in
    ("A.java", '@JmsListener(destination = "q", selector = "clientID = \'${clientID}\'")\nvoid b() {}\n', "I001",
     "Spring resolves ${clientID} in @JmsListener attributes before the selector is used"),
    ("A.kt", 'import javax.jms.*\nfun a(s: Session, t: Topic, id: String) = s.createConsumer(t, "id = \'${id}\'")\n', "I001",
     "Kotlin interpolates ${id} into the string"),
    ("A.groovy", 'import javax.jms.*\ndef a(Session s, Topic t, id) { s.createConsumer(t, "id = \'$id\'") }\n', "I001",
     "Groovy interpolates $id into the string"),
    ("application.properties", "app.jms.selector=tenant = '${tenant}'\n", "I001",
     "Spring resolves ${tenant} in configuration files before the selector is used"),
    ("s.py", 'import stomp\nc.subscribe(destination="/q", id=1, headers={"selector": "id = \'${x}\'"})\n', "W015", None),
])
def test_scan_says_who_fills_a_placeholder_in_or_warns(path: str, text: str, code: str, note: str | None) -> None:
    got = _scan_codes(path, text)
    assert [c for c, _ in got] == [code], got
    if note is not None:
        assert got[0][1] == (note,)


def test_scan_names_the_argument_a_bare_name_is() -> None:
    got = _scan_codes("A.java", JAVA.format(call='s.createDurableSubscriber(t, "color = \'red\'", "mySub", false);'))
    assert got == [("W018", ("it is argument 3 of createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal): "
                             "the subscription name is another argument; are the two swapped?",))]
    got = _scan_codes("A.java", JAVA.format(call='s.createConsumer(t, "topic");'))
    assert got == [("W018", ("it is argument 2 of createConsumer(Destination destination, String messageSelector)",))]

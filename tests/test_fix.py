"""Fixes (issue 22): jmsctl/analysis/fixes.py, ``check --fix/--diff``, ``scan --fix/--diff``.

Safe means proven: an invalid original is made valid and labelled with what the fix assumes; a
valid one is rewritten only to the same AST; anything else is a suggestion, never applied. The
source tree tests/fixtures/fix/before is fixed in place and compared byte for byte with after/
(Java, Kotlin, XML, properties, YAML, Camel URIs), the patch of ``scan --diff`` is applied by the
real ``git apply``, and fixing twice changes nothing (hypothesis).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from jmsctl import selector as sel
from jmsctl.analysis import portability, vacuity
from jmsctl.analysis.fixes import fix, minimal_edits, prove, same_ast, shape
from jmsctl.analysis.rewrites import apply
from jmsctl.cli.app import app
from jmsctl.messages.decode import decode_message
from jmsctl.scan import scan_bytes
from jmsctl.scan.fix import fix_file
from jmsctl.selector import nodes as n
from jmsctl.selector.hints import outside_quotes
from jmsctl.selector.unparser import unparse
from jmsctl.values import tri_name
from tests import strategies as strat

ROOT = Path(__file__).parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "fix"
runner = CliRunner()


# ----- the fixes ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "fixed", "codes"), [
    ("color != 'blue'", "color <> 'blue'", ["E006"]),
    ("a == 1", "a = 1", ["E007"]),
    ("Country NOT= 'UK'", "Country <> 'UK'", ["E016"]),
    ("x NOT <> 1", "x = 1", ["E016"]),
    ("flag IS TRUE", "flag = TRUE", ["E002"]),
    ("flag IS NOT FALSE", "flag <> FALSE", ["E002"]),
    ("a = 1 && b = 2 || c = 3", "a = 1 AND b = 2 OR c = 3", ["E001", "E001"]),
    ("a = 1&&b = 2", "a = 1 AND b = 2", ["E001"]),
    ("JMSCorrelationId = 'x'", "JMSCorrelationID = 'x'", ["E113"]),
    ('color = "blue"', "color = 'blue'", ["E005"]),
    ('name = "it\'s"', "name = 'it''s'", ["E005"]),
    ("color%3D%27blue%27", "color='blue'", ["E017"]),
    ("a == 1 && b != 'x' || c IS TRUE", "a = 1 AND b <> 'x' OR c = TRUE", ["E007", "E001", "E006", "E001", "E002"]),
])
def test_invalid_selectors_are_made_valid_and_say_what_they_assume(text: str, fixed: str, codes: list[str]) -> None:
    got = fix(text)
    assert (got.text, [f.code for f in got.fixes]) == (fixed, codes)
    assert got.valid and got.proof == "made valid" and sel.analyze(got.text).valid
    assert all(f.assumes for f in got.fixes)  # labelled: the writer's intent is a guess


def test_a_selector_fixes_cannot_make_valid_is_left_as_it_was() -> None:
    got = fix("a != b ~")  # '!=' has a fix, '~' none: no half repair
    assert (got.text, got.fixes, got.valid) == ("a != b ~", (), False)
    assert "still invalid" in got.proof
    assert fix("x ~ 1").proof.startswith("not fixed: no fix for E001")


@pytest.mark.parametrize(("text", "code", "shown"), [
    ("jmsType = 'car'", "W014", "JMSType = 'car'"),
    ("color = red", "W016", "color = 'red'"),
    ("JMSType IN ('closed, saleUpdate')", "W017", "JMSType IN ('closed', 'saleUpdate')"),
    ("JMSXGroupId = 'g'", "W004", "JMSXGroupID = 'g'"),
])
def test_a_fix_that_changes_what_is_selected_is_shown_never_applied(text: str, code: str, shown: str) -> None:
    got = fix(text)
    assert got.text == text and not got.fixes and not got.changed
    assert [(s.code, s.text) for s in got.suggestions] == [(code, shown)]
    assert "changes which messages are selected" in got.suggestions[0].why


@pytest.mark.parametrize(("text", "fixed", "code"), [
    ("NOT a = 1 AND b = 1", "NOT (a = 1) AND b = 1", "W022"),
    ("x = 0xFFFFFFFF", "x = -1", "W024"),
])
def test_portability_rewrites_are_applied_because_the_ast_is_the_same(text: str, fixed: str, code: str) -> None:
    found = portability.diagnostics(text)
    assert code in [d.code for d in found]
    got = fix(text, portability=found)
    assert (got.text, [f.code for f in got.fixes], got.proof) == (fixed, [code], "same AST")
    assert same_ast(text, got.text)
    assert fix(text).text == text  # without --portability: nothing


def test_the_solver_proves_what_the_ast_cannot_and_shows_a_witness_otherwise() -> None:
    assert prove("a = 1 OR b = 2", "b = 2 OR a = 1") == (True, "proved equivalent")
    assert prove("NOT a = 1", "NOT (a = 1)") == (True, "same AST")
    same, why = prove("color = red", "color = 'red'")
    assert not same and why.startswith("it changes which messages are selected: on {") and "the selector is" in why
    (shown,) = fix("color = red").suggestions
    message = json.loads(shown.why.split("on ", 1)[1].split(" the selector", 1)[0])
    verdicts = [sel.evaluate(t, _values(message)) for t in ("color = red", "color = 'red'")]
    assert verdicts[0] is not verdicts[1] and True in verdicts  # the witness is real: the engine agrees


def _values(message: dict[str, object]) -> object:
    from jmsctl.messages.decode import decode_message

    return decode_message(message)


def test_same_ast_keeps_the_sign_of_zero_and_nan() -> None:
    assert not same_ast("x = 0.0", "x = -0.0")
    assert same_ast("x = 0x10", "x = 16") and same_ast("NOT a = 1", "NOT (a = 1)")
    assert not same_ast("a = 1", "a = 1L") and not same_ast("a = 1", "a = 1 AND TRUE")


@given(st.text(alphabet="ab<>=' ", max_size=12), st.text(alphabet="ab<>=' ", max_size=12))
def test_minimal_edits_turn_one_text_into_the_other(a: str, b: str) -> None:
    assert apply(a, minimal_edits(a, b)) == b


# ----- fixing twice changes nothing (property-based) ---------------------------------------------

_MISTAKES = [(re.compile(r"<>"), "!="), (re.compile(r"(?<![<>])=(?!=)"), "=="), (re.compile(r" AND "), " && "), (re.compile(r" OR "), " || ")]


@st.composite
def mistaken(draw: st.DrawFn) -> tuple[str, str]:
    """(a valid selector, the same with some operators written as in C or Java, outside its strings)."""
    text = unparse(draw(strat.conditions(2)))
    bare = outside_quotes(text)
    edits = []
    for pattern, wrong in _MISTAKES:
        for m in pattern.finditer(bare):
            if draw(st.booleans()):
                edits.append((m.start(), m.end(), wrong))
    return text, apply(text, edits)


def _selects_nothing(text: str, ast: n.Node) -> bool:
    """A condition of literals only, or W040: what a fix must never produce (issue 35 item 2)."""
    if any(isinstance(x, n.PREDICATES) and not any(isinstance(y, n.Identifier) for y in n.walk(x)) for x in n.walk(ast)):
        return True
    return any(d.code == "W040" for d in vacuity.diagnostics(text))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mistaken())
def test_fixing_twice_changes_nothing_and_gives_back_the_meant_selector(pair: tuple[str, str]) -> None:
    original, wrong = pair
    once = fix(wrong)
    twice = fix(once.text)
    assert twice.text == once.text and twice.fixes == ()
    meant = sel.analyze(original)
    if meant.valid and meant.ast is not None and wrong != original and _selects_nothing(original, meant.ast):
        assert not once.changed and once.proof.startswith("not fixed: the fixed selector"), (wrong, once.proof)  # issue 35 item 2
    elif meant.valid:
        assert once.valid, (wrong, once.proof)
        a, b = sel.analyze(original).ast, sel.analyze(once.text).ast
        assert a is not None and b is not None and shape(a) == shape(b), (original, wrong, once.text)


@settings(max_examples=200, deadline=None)
@given(strat.token_soup)
def test_fixing_any_text_twice_changes_nothing(text: str) -> None:
    once = fix(text)
    assert fix(once.text).text == once.text
    if once.changed:
        assert once.valid  # nothing half-repaired is ever given back


# ----- check --fix / --diff ----------------------------------------------------------------------

def test_check_fix_prints_the_fixed_selectors_and_what_they_assume(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", "--fix", "color != 'blue'", "color = red", "x ~ 1"])
    assert result.exit_code == 1  # 'x ~ 1' stays invalid
    assert result.stdout.splitlines() == ["color <> 'blue'", "color = red", "x ~ 1"]
    assert "<arg1>:1: fixed E006: '!=' -> '<>' (assumes '!=' meant not-equal)" in result.stderr
    shown = re.search(r"<arg2>:1: not applied W016 \(it changes which messages are selected: on (\{.*\}) the selector is "
                      r"(TRUE|FALSE|UNKNOWN), the rewrite (TRUE|FALSE|UNKNOWN)\): color = 'red'\n", result.stderr)
    assert shown is not None, result.stderr
    # whichever witness the solver finds, it is a message on which the engine gives the two verdicts shown
    witness = decode_message(json.loads(shown.group(1)))
    verdicts = tuple(tri_name(sel.compile(t).evaluate(witness)) for t in ("color = red", "color = 'red'"))
    assert verdicts == (shown.group(2), shown.group(3)) and verdicts[0] != verdicts[1]
    ok = runner.invoke(app, ["check", "--fix", "a == 1"])
    assert (ok.exit_code, ok.stdout) == (0, "a = 1\n")


def test_check_fix_json() -> None:
    result = runner.invoke(app, ["check", "--fix", "--format", "json", "a == 1", "NOT a = 1", "--portability"])
    doc = json.loads(result.stdout)
    first, second = doc["selectors"]
    assert (first["fixed"], first["proof"], first["fixes"][0]["code"]) == ("a = 1", "made valid", "E007")
    assert (second["fixed"], second["proof"]) == ("NOT (a = 1)", "same AST")
    assert doc["summary"] == {"checked": 2, "fixed": 2, "suggestions": 0, "invalid": 0}


def test_check_diff_of_a_file_is_a_patch_git_applies(tmp_path: Path) -> None:
    (tmp_path / "sels.txt").write_text("# selectors\ncolor != 'blue'\nJMSType = 'car'\nflag IS TRUE")  # no newline at the end
    _git(tmp_path, "init", "-q")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "jmsctl", "check", "--diff", "-f", "sels.txt"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    (tmp_path / "fix.patch").write_text(out.stdout)
    _git(tmp_path, "apply", "fix.patch")
    assert (tmp_path / "sels.txt").read_text() == "# selectors\ncolor <> 'blue'\nJMSType = 'car'\nflag = TRUE"


# ----- W016 told the properties -------------------------------------------------------------------

def test_like_and_properties_decide_w016(tmp_path: Path) -> None:
    dump = tmp_path / "d.ndjson"
    dump.write_text('{"properties": {"price": 1, "cost": 2, "color": "red"}}\n')
    words = ["price = cost", "color = red", "color = blue", "color = JMSType"]

    def w016(*extra: str) -> list[str]:
        r = runner.invoke(app, ["check", "--format", "json", *extra, *words])
        return [s["selector"] for s in json.loads(r.stdout)["selectors"] if any(d["code"] == "W016" for d in s["diagnostics"])]

    assert w016() == ["price = cost", "color = red", "color = blue"]  # by shape alone
    assert w016("--like", str(dump)) == ["color = red", "color = blue"]  # cost is a property the messages carry; red, blue are not
    assert w016("--properties", "price,cost", "--properties", "color red") == ["color = blue"]  # red named a property
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"properties": {"a": [1]}}\n')
    r = runner.invoke(app, ["check", "--like", str(bad), "a = b"])
    assert r.exit_code == 2 and f"{bad}:1" in r.output


# ----- scan --fix / --diff on a source tree ------------------------------------------------------

def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True, timeout=60)


def _scan(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "jmsctl", "scan", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and ".git" not in p.parts}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "before", tmp_path / "t")
    return tmp_path / "t"


def test_scan_fix_rewrites_the_tree_in_place_as_after_keeping_modes(tree: Path) -> None:
    yml = tree / "src/main/resources/application.yml"
    yml.chmod(0o640)
    done = _scan(tree, "--fix", "--format", "concise", ".")
    assert done.returncode == 1, done.stderr  # what remains: a concatenation and a run-time selector with '!='
    assert _tree(tree) == _tree(FIXTURES / "after")
    assert yml.stat().st_mode & 0o777 == 0o640
    assert "src/main/java/shop/Orders.java:15:39: not fixed (built at run time" in done.stderr
    assert "src/main/resources/broker.xml:11:25: fixed E005: \"red\" -> 'red'" in done.stderr
    assert {line.split(": ")[1].split()[0] for line in done.stdout.splitlines()} == {"I001", "E006", "W016"}
    again = _scan(tree, "--diff", ".")
    assert (again.returncode, again.stdout) == (0, "")  # fixing twice changes nothing
    assert not list(tree.rglob(".*.tmp"))


def test_scan_diff_is_applied_by_git_apply(tree: Path) -> None:
    _git(tree, "init", "-q")
    _git(tree, "add", "-A")
    _git(tree, "commit", "-qm", "before")
    patch = _scan(tree, "--diff", ".")
    assert patch.returncode == 1 and patch.stdout.startswith("--- a/")
    assert _tree(tree) == _tree(FIXTURES / "before")  # --diff writes nothing
    (tree.parent / "fix.patch").write_text(patch.stdout)
    _git(tree, "apply", "--check", str(tree.parent / "fix.patch"))
    _git(tree, "apply", str(tree.parent / "fix.patch"))
    assert _tree(tree) == _tree(FIXTURES / "after")


def test_a_spelling_that_would_not_read_back_is_refused() -> None:
    """A fix that puts ' #' into a plain YAML scalar would cut it at a comment: read back, refused."""
    data = b"app:\n  selector: a != 1\n"
    result = scan_bytes("app.yml", data)
    assert result is not None
    broken = fix("a != 1")
    object.__setattr__(broken, "text", "a <> 1 #x")
    ff = fix_file(result, lambda checked: broken)
    assert not ff.changed and ff.refused and "would not read back" in ff.refused[0][2]
    ok = fix_file(result, lambda checked: fix(checked.text))
    assert ok.new == "app:\n  selector: a <> 1\n"


def test_scan_fix_and_diff_together_are_a_usage_error(tree: Path) -> None:
    assert _scan(tree, "--fix", "--diff", ".").returncode == 2


def test_scan_like_decides_w016(tmp_path: Path) -> None:
    (tmp_path / "C.java").write_text('import javax.jms.*;\nclass C { void a(Session s, Queue q) throws Exception {\n'
                                     '  s.createConsumer(q, "color = red AND price = cost"); } }\n')
    (tmp_path / "d.ndjson").write_text('{"properties": {"color": "x", "red": 1}}\n')
    plain = _scan(tmp_path, "--format", "concise", "C.java")
    assert [line.split(": ")[1].split()[0:2] for line in plain.stdout.splitlines()] == [["W016", "red"], ["W016", "cost"]]
    told = _scan(tmp_path, "--format", "concise", "--like", "d.ndjson", "C.java")
    assert [line.split(": ")[1].split()[0:2] for line in told.stdout.splitlines()] == [["W016", "cost"]]  # red is a property

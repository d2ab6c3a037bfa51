"""``scan --fix`` / ``scan --diff`` as new users met them (issue 35, items 1-8): a file scan skips
never stops the fixes of the rest, a fix never makes a selector select nothing, a patch is bytes
``git apply`` takes, and ``--format json`` after ``--fix`` records what was applied."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
JAVA = ('import javax.jms.*;\nclass A { void f(Session s, Queue q) throws Exception {\n'
        '  s.createConsumer(q, "a != 1"); } }\n')


def _scan(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "jmsctl", "scan", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True, timeout=60)


# ----- 1: a file scan skips (I002) ---------------------------------------------------------------

def test_fix_and_diff_fix_the_rest_when_an_xml_file_is_not_scanned(tmp_path: Path) -> None:
    (tmp_path / "bad.xml").write_text("<beans><message-selector>b == 2</message-selector>\n")
    (tmp_path / "dtd.xml").write_text('<?xml version="1.0"?>\n<!DOCTYPE b [<!ENTITY e "x">]>\n<b><message-selector>c == 3</message-selector></b>\n')
    (tmp_path / "A.java").write_text(JAVA)
    diff = _scan(tmp_path, "--diff", ".")
    assert diff.returncode == 1, diff.stderr
    assert "Traceback" not in diff.stderr
    assert '+  s.createConsumer(q, "a <> 1"); } }' in diff.stdout
    assert "bad.xml:2:1: not fixed (not scanned: not well-formed XML" in diff.stderr
    assert "dtd.xml:" in diff.stderr and "not fixed (not scanned" in diff.stderr
    done = _scan(tmp_path, "--fix", "--format", "concise", ".")
    assert "Traceback" not in done.stderr, done.stderr
    assert '"a <> 1"' in (tmp_path / "A.java").read_text()
    assert (tmp_path / "bad.xml").read_text() == "<beans><message-selector>b == 2</message-selector>\n"
    assert "I002" in done.stdout  # the report after the fixes still says the file was not scanned


# ----- 2: a fix never makes a working selector select nothing ------------------------------------

def test_e005_fix_that_compares_two_literals_is_refused() -> None:
    from jmsctl.analysis.fixes import fix

    got = fix("\"m.x-opt-ORIG-ADDRESS\"='abc'")
    assert not got.changed and not got.valid
    assert "compare literals only" in got.proof and "quoted property name" in got.proof
    assert fix('color = "blue"').text == "color = 'blue'"  # a real string literal is still fixed


def test_a_fix_whose_result_selects_nothing_is_refused() -> None:
    from jmsctl.analysis.fixes import fix

    got = fix("a == 1 AND a == 2")
    assert not got.changed and "W040" in got.proof


def test_artemis_reads_the_double_quoted_name_as_the_broker_does() -> None:
    from jmsctl import selector as sel

    assert sel.analyze("\"m.x-opt-ORIG-ADDRESS\"='abc'", "artemis").valid


def test_check_fix_exits_1_and_writes_the_selector_unchanged(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "jmsctl", "check", "--fix", "\"m.x-opt-ORIG-ADDRESS\"='abc'"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == "\"m.x-opt-ORIG-ADDRESS\"='abc'\n"


ARTEMIS = ('import org.apache.activemq.artemis.api.core.SimpleString;\nimport javax.jms.*;\n'
           'class Art { void f(Session s, Queue q) throws Exception {\n'
           '  s.createConsumer(q, "\\"m.x\\" = y"); } }\n')


def test_scan_fix_leaves_quoted_names_in_a_file_written_for_artemis(tmp_path: Path) -> None:
    (tmp_path / "Art.java").write_text(ARTEMIS)
    done = _scan(tmp_path, "--diff", ".")
    assert (done.returncode, done.stdout) == (0, "")
    assert "Art.java:4:23: not fixed (Apache ActiveMQ Artemis (this file's imports) reads" in done.stderr
    report = _scan(tmp_path, ".")
    assert "this file is written for Apache ActiveMQ Artemis" in report.stdout
    assert _scan(tmp_path, "--dialect", "artemis", "--format", "concise", ".").stdout == ""


# ----- 8: what scan --fix cannot fix is said ---------------------------------------------------

def test_scan_fix_says_why_an_invalid_selector_is_not_fixed(tmp_path: Path) -> None:
    (tmp_path / "A.java").write_text(JAVA.replace("a != 1", "test||1"))
    done = _scan(tmp_path, "--diff", ".")
    assert "A.java:3:23: not fixed (still invalid after 1 fix (E101" in done.stderr


# ----- 3: a patch is bytes git apply takes on the bytes on disk --------------------------------

def test_diff_applies_to_bom_latin1_and_symlinked_files_from_outside_the_repo(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "Bom.java").write_bytes(b"\xef\xbb\xbf" + JAVA.encode())
    (repo / "src" / "Latin.java").write_bytes(JAVA.replace("class A", "class L").replace("a != 1", "n = '\xe9' AND a != 1").encode("latin-1"))
    (repo / "src" / "Link.java").symlink_to("Bom.java")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "before")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    diff = subprocess.run([sys.executable, "-m", "jmsctl", "scan", "--diff", str(repo)], cwd=elsewhere, capture_output=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"})
    assert diff.returncode == 1, diff.stderr
    patch = diff.stdout
    assert patch.count(b"@@ -") == 2  # Bom.java once (not again through Link.java), Latin.java
    assert b"--- a/src/Bom.java\n" in patch and b"--- a/src/Latin.java\n" in patch and str(tmp_path).encode() not in patch
    assert b" \xef\xbb\xbfimport javax.jms.*;\n" in patch and b"'\xe9'" in patch  # the BOM and the Latin-1 byte as on disk
    (tmp_path / "fix.patch").write_bytes(patch)
    _git(repo, "apply", "--check", str(tmp_path / "fix.patch"))
    _git(repo, "apply", str(tmp_path / "fix.patch"))
    assert (repo / "src" / "Bom.java").read_bytes() == b"\xef\xbb\xbf" + JAVA.replace("a != 1", "a <> 1").encode()
    assert (repo / "src" / "Latin.java").read_bytes().decode("latin-1").endswith("n = '\xe9' AND a <> 1\"); } }\n")
    assert (repo / "src" / "Link.java").is_symlink()
    counted = _scan(repo, "--format", "json", ".")
    assert json.loads(counted.stdout)["summary"]["selectors"] == 2  # the symlinked file is scanned once


# ----- 4: URL-encoded selectors in code ----------------------------------------------------------

def test_a_url_encoded_selector_in_code_is_e017_not_a_format_string(tmp_path: Path) -> None:
    (tmp_path / "U.java").write_text('import javax.jms.*;\nclass U { void f(Session s, Queue q) throws Exception {\n'
                                     '  s.createConsumer(q, "color%20%3D%20%27blue%27");\n'
                                     "  s.createConsumer(q, \"JMSCorrelationID %3D '${correlationID}'\"); } }\n")
    done = _scan(tmp_path, "--format", "concise", ".")
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and len(lines) == 2, done.stdout
    assert lines[0].startswith("U.java:3:29: E017 the selector is still URL-encoded: decoded it reads color = 'blue'")
    assert lines[1].startswith("U.java:4:") and "E017" in lines[1] and "placeholder ${correlationID}" in lines[1]
    fixed = _scan(tmp_path, "--diff", ".")
    assert "+  s.createConsumer(q, \"color = 'blue'\");" in fixed.stdout


# ----- 5 and 6: which calls are JMS calls, and the selectors missed --------------------------------

CALLS_JAVA = """import javax.jms.*;
import org.apache.activemq.broker.jmx.BrokerViewMBean;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.qpid.proton.amqp.messaging.Source;
class C {
  MessageConsumer createConsumer(Session s, String topic) throws Exception { return s.createConsumer(s.createTopic(topic)); }
  void f(Session session, Queue q, BrokerViewMBean view, AmqpSession amqp, ClientSession core, JmsMessagingTemplate t, boolean flag) throws Exception {
    createConsumer(session, "foo/bar");
    view.createDurableSubscriber("client", "sub", "topic.name", "a != 1");
    Source source = new Source();
    amqp.createReceiver(source, "receiver-1");
    amqp.createReceiver("address", "b == 2");
    core.createConsumer(ADDRESS, SimpleString.of("i=29"));
    core.createConsumer(ADDRESS, new SimpleString("i == 30"));
    t.receiveSelectedAndConvert("c != 3", String.class);
    t.receiveSelectedAndConvert(q, "d != 4", String.class);
    session.createConsumer(q, flag ? "e != 5" : "f == 6");
  }
}
"""


def test_calls_are_read_as_the_file_declares_them() -> None:
    from jmsctl.scan import scan_bytes

    result = scan_bytes("C.java", CALLS_JAVA.encode())
    assert result is not None
    got = [(c.text, c.found.role) for c in result.selectors]
    assert [t for t, _ in got] == ["a != 1", "b == 2", "i=29", "i == 30", "c != 3", "d != 4", "e != 5", "f == 6"]  # not 'foo/bar', 'topic.name', 'receiver-1'
    assert got[0][1] == "argument 4 of BrokerViewMBean.createDurableSubscriber(String clientId, String subscriberName, String topicName, String selector)"
    assert got[4][1] == "argument 1 of JmsMessagingTemplate.receiveSelectedAndConvert(String messageSelector, Class<T> targetClass)"
    assert all(c.found.literal for c in result.selectors)  # each branch of the ternary is one literal: --fix may rewrite it


YAML_FLOW = """listeners:
  - {name: orders, selector: "a != 1", destination: orders}
  - {selector: 'b == 2'}
  - {selector: c != 3, other: x}
plain:
  selector: !!str d != 4
quoted:
  messageSelector: !!str "e == 5"
"""


def test_yaml_flow_mappings_and_str_tags_are_read_and_fixed(tmp_path: Path) -> None:
    (tmp_path / "app.yml").write_text(YAML_FLOW)
    done = _scan(tmp_path, "--format", "concise", ".")
    assert [line.split(": ")[0] for line in done.stdout.splitlines()] == ["app.yml:2:33", "app.yml:3:19", "app.yml:4:18", "app.yml:6:21", "app.yml:8:29"]
    _scan(tmp_path, "--fix", ".")
    assert (tmp_path / "app.yml").read_text() == YAML_FLOW.replace("!=", "<>").replace("==", "=")


def test_a_camel_uri_selector_cut_at_an_ampersand_is_warned(tmp_path: Path) -> None:
    (tmp_path / "R.java").write_text('import org.apache.camel.builder.RouteBuilder;\nclass R extends RouteBuilder { public void configure() {\n'
                                     '  from("jms:queue:orders?selector=a = 1 && b = 2").to("log:x");\n'
                                     '  from("jms:queue:orders?selector=a = 1&concurrentConsumers=2").to("log:x"); } }\n')
    (tmp_path / "camel.xml").write_text('<routes><route><from uri="jms:queue:x?selector=c = 1 &amp;&amp; d = 2"/></route></routes>\n')
    done = _scan(tmp_path, "--format", "concise", "--strict", ".")
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "R.java:3:41: W019 the endpoint URI cuts the selector at '&': the consumer gets `a = 1 `, and `& b = 2` is read as another option",
        "camel.xml:1:54: W019 the endpoint URI cuts the selector at '&': the consumer gets `c = 1 `, and `& d = 2` is read as another option"]


# ----- 8: Python selectors, a constant used twice, the JSON record of --fix --------------------

def test_python_selectors_and_a_constant_used_twice_are_fixed_and_recorded_in_json(tmp_path: Path) -> None:
    (tmp_path / "c.py").write_text('import stomp\nconn.subscribe(destination="/queue/a", id=1, headers={"selector": "a != 1"})\n')
    (tmp_path / "T.java").write_text('import javax.jms.*;\nclass T {\n  static final String SEL = "a != 1";\n'
                                     '  void f(Session s, Queue q, Queue r) throws Exception {\n    s.createConsumer(q, SEL);\n'
                                     '    s.createConsumer(r, SEL + " AND b = 2");\n  }\n}\n')
    done = _scan(tmp_path, "--fix", "--format", "json", ".")
    assert done.returncode == 0, done.stderr
    assert "not fixed" not in done.stderr
    assert '"selector": "a <> 1"' in (tmp_path / "c.py").read_text()
    assert 'SEL = "a <> 1";' in (tmp_path / "T.java").read_text()
    doc = json.loads(done.stdout)
    assert [(x["source"], x["line"], x["selector"], x["fixed"], [f["code"] for f in x["fixes"]]) for x in doc["fixes_applied"]] == [
        ("T.java", 5, "a != 1", "a <> 1", ["E006"]), ("T.java", 6, "a != 1 AND b = 2", "a <> 1 AND b = 2", ["E006"]),
        ("c.py", 2, "a != 1", "a <> 1", ["E006"])]
    assert doc["summary"]["invalid"] == 0
    assert "fixes_applied" not in json.loads(_scan(tmp_path, "--format", "json", ".").stdout)


# ----- 7: the lints and codes under the broker dialects ------------------------------------------

def test_lints_run_under_the_broker_dialects_and_each_code_has_one_meaning() -> None:
    from jmsctl import selector as sel

    for dialect in ("artemis", "activemq"):
        for text, code in [("topic", "W018"), ("color = red", "W016"), ("id = '${x}'", "W015"), ("JMSType IN ('a, b')", "W017")]:
            assert [d.code for d in sel.analyze(text, dialect).diagnostics] == [code], (dialect, text)
        assert [d.code for d in sel.analyze("XPATH '//a'", dialect).errors] == ["E131"]
    assert [d.code for d in sel.analyze("REGEX('a', b)", "activemq").errors] == ["E132"]
    assert [d.code for d in sel.analyze("a NOT = 1").errors] == ["E016"]  # E016 means NOT before a comparison, only


def test_artemis_hyphenated_props_prefix_is_read_as_artemis_reads_it() -> None:
    from jmsctl import evaluate
    from jmsctl import selector as sel
    from jmsctl.messages.decode import decode_message

    assert sel.analyze("hyphenated_props:b-ar = '123'", "artemis").valid
    assert sel.analyze("no_hyphenated_props:hyphenated_props:foo-bar = 'zzz'", "artemis").valid
    assert not sel.analyze("hyphenated_props:b-ar = '123'").valid  # the standard has no such prefix
    message = decode_message({"properties": {"b-ar": "123"}})
    assert evaluate("hyphenated_props:b-ar = '123'", message, "artemis") is True
    assert evaluate("hyphenated_props:b-ar = '124'", message, "artemis") is False
    assert evaluate("no_hyphenated_props:b-ar = '123'", message, "artemis") is not True  # b - ar: a subtraction of absent properties


def test_readme_and_sarif_name_the_broker_codes() -> None:
    from jmsctl.scan.sarif import RULES

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for code in ("E130", "W130", "E131", "E132", "W019"):
        assert f"| {code} |" in readme and code in RULES, code


# ----- 25: scan records destinations, overlap groups by them, JSON answers say file:line -----------

DESTINATIONS = {
    "L.java": """import javax.jms.*;
import org.springframework.jms.annotation.JmsListener;
class L {
  static final String ORDERS = "orders";
  @JmsListener(destination = "orders", selector = "region = 'EU'")
  void a(String m) {}
  @JmsListener(destination = "invoices", selector = "region = 'EU' AND x > 1")
  void b(String m) {}
  void c(Session s) throws Exception {
    Queue q = s.createQueue(ORDERS);
    s.createConsumer(q, "region <> 'US'");
    s.createConsumer(s.createQueue("invoices"), "x > 5");
  }
}
""",
    "broker.xml": """<configuration xmlns="urn:activemq"><core xmlns="urn:activemq:core"><addresses>
<address name="orders"><anycast><queue name="orders.eu"><filter string="region = 'EU'"/></queue>
<queue name="orders.us"><filter string="region = 'US' OR x > 1"/></queue></anycast></address>
</addresses></core></configuration>
""",
    "camel.xml": """<routes><route><from uri="jms:queue:orders?selector=region = 'EU' AND y = 1"/></route></routes>\n""",
}


def test_scan_records_destinations_and_overlap_groups_by_them(tmp_path: Path) -> None:
    for name, text in DESTINATIONS.items():
        (tmp_path / name).write_text(text)
    scanned = _scan(tmp_path, "--format", "json", ".")
    doc = json.loads(scanned.stdout)
    assert [(s["source"], s["line"], s["destination"]) for s in doc["selectors"]] == [
        ("L.java", 5, "orders"), ("L.java", 7, "invoices"), ("L.java", 11, "orders"), ("L.java", 12, "invoices"),
        ("broker.xml", 2, "orders.eu"), ("broker.xml", 3, "orders.us"), ("camel.xml", 1, "orders")]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "jmsctl", "overlap", "-", "--format", "json"], input=scanned.stdout,
                          env=env, capture_output=True, text=True, timeout=300)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    # orders.eu and orders.us would overlap (region = 'EU', x > 1) but are different queues: never paired
    assert [(a["destination"], a["sources"], a["result"]) for a in answers] == [
        ("orders", ["L.java:5", "L.java:11"], "overlap"), ("orders", ["L.java:5", "camel.xml:1"], "overlap"),
        ("orders", ["L.java:11", "camel.xml:1"], "overlap"), ("invoices", ["L.java:7", "L.java:12"], "overlap")]


def test_diff_files_answers_carry_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("a = 1\nb = 2\n")
    (tmp_path / "new.txt").write_text("a = 1\nb > 2\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "jmsctl", "diff", "-f", "old.txt", "-f", "new.txt", "--format", "json"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert [json.loads(line)["sources"] for line in done.stdout.splitlines()] == [["old.txt:1", "new.txt:1"], ["old.txt:2", "new.txt:2"]]


def test_python_and_yaml_flow_destinations() -> None:
    from jmsctl.scan import scan_bytes

    py = scan_bytes("s.py", b'import stomp\nconn.subscribe(destination="/queue/a", id=1, headers={"selector": "a <> 1"})\n'
                            b'conn.subscribe("/queue/b", 2, selector="b = 2")\nconn.subscribe(dest, 3, selector="c = 3")\n')
    yml = scan_bytes("f.yml", b'listeners:\n  - {name: orders, selector: "a <> 1", destination: orders}\n  - {selector: "b = 1"}\n')
    assert py is not None and yml is not None
    assert [c.found.destination for c in py.selectors] == ["/queue/a", "/queue/b", ""]
    assert [c.found.destination for c in yml.selectors] == ["orders", ""]

"""A large file's plain runs are cut out before it is decoded (jmsctl/scan/cuts.py, issue 23): the
selectors, their diagnostics, lines, columns (characters, not bytes), JSON offsets and SARIF of the
cut text are the whole file's; a selector on a line that lost characters makes the file be read
again whole; --fix and --diff work from the whole file and write it exactly."""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import random
import re
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from jmsctl.cli.app import app
from jmsctl.diagnostics import locate
from jmsctl.scan import FileResult, cuts, scan_bytes, scan_file
from jmsctl.scan.cuts import BIG, BLOCK, OVERLAP, Cut, _word_in_every_match, file_offset, read_large
from jmsctl.scan.extractors import Extractor, extractors, jvm

ROOT = Path(__file__).resolve().parent.parent
SIZE = BIG + 4 * BLOCK
DATA = ("lorem ipsum, dolor sit amet 0123456789 " * (SIZE // 39 + 1))[:SIZE]

# Every kind of file scan reads: non-ASCII text before the selectors (columns count characters),
# selectors before and after the long data, one with a diagnostic after the data (its offset moves).
SOURCES = {
    "Gen.java": 'import jakarta.jms.*;\n// é ü 中文 𝄞\nclass Gen {\n  String A = "é"; void f(Session s, Queue q) { s.createConsumer(q, "a == 1"); }\n'
                '  static final String DATA = "' + DATA + '";\n  /* ' + DATA + ' */\n'
                '  void g(Session s, Queue q) { String x = "ö"; s.createConsumer(q, "b = \'é\' AND c == 2 AND JMSPriority = 07"); }\n}\n',
    "Gen.kt": 'import jakarta.jms.*\n// é\nval DATA = """' + DATA + '"""\nfun f(s: Session, q: Queue) { val é = 1; s.createConsumer(q, "a == 1 AND b = \'ü\'") }\n',
    "Gen.groovy": "import jakarta.jms.*\n// é\ndef data = '" + DATA + "'\ndef f(s, q) { s.createConsumer(q, 'x == 1 AND y = \"ü\"') }\n",
    "app.properties": "# é ü\napp.jms.selector=a == 1\ndata=" + DATA + "\n\u00e9x=1\nother.selector=JMSType = 'ü' AND b == 2\n",
    "beans.xml": '<beans><!-- é --><bean><property name="messageSelector" value="a == 1"/></bean>\n<data value="' + DATA + '"/>\n<text>'
                 + DATA + '</text>\n<bean><property name="messageSelector" value="é == 1 AND x = \'ü\'"/></bean></beans>\n',
    "app.yaml": 'app:\n  note: "é"\n  selector: "a == 1"\n  data: "' + DATA + '"\n  s2:\n    selector: "ü == 1"\n',
    "app.py": 'import stomp\n# é\nDATA = "' + DATA + '"\nconn.subscribe("/queue/a", id=1, headers={"selector": "é == 1"})\n',
}


def _read(data: bytes) -> tuple[str, tuple[Cut, ...]]:
    """The cut text of any content (every file is to be scanned)."""
    read = read_large(io.BytesIO(data), (b"",), re.compile(rb"."))
    assert read is not None
    return read


def _shape(r: FileResult, cut: bool) -> list[object]:
    """Everything the reports show of a result, in the whole file's coordinates."""
    out: list[object] = []
    for c in r.selectors:
        at = locate(r.text, c.found.start)
        out.append((c.found.kind, c.text, at.line, at.column, at.line_text))
        for d in c.diagnostics:
            s, e = locate(r.text, d.span.start), locate(r.text, d.span.end)
            offset = r.file_offset(d.span.start) if cut else d.span.start
            out.append((d.code, d.message, s.line, s.column, e.line, e.column, s.line_text, offset, d.span.end - d.span.start))
    for d in r.notes:
        out.append((d.code, locate(r.text, d.span.start)))
    return out


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "latin-1-crlf"])
@pytest.mark.parametrize("name", sorted(SOURCES))
def test_cut_text_reports_what_the_whole_file_does(name: str, encoding: str) -> None:
    text = SOURCES[name]
    if encoding == "latin-1-crlf":
        text = text.replace("中文 𝄞", "").replace("\n", "\r\n")
        data = text.encode("latin-1")
    else:
        data = text.encode(encoding)
    cut = scan_bytes(name, data)
    whole = scan_bytes(name, data, whole=True)
    assert cut is not None and whole is not None
    assert cut.cuts and not whole.cuts  # the data was left out, and the selectors beside it are not on its lines
    assert len(cut.text) < len(whole.text) // 4
    assert whole.selectors  # something to compare
    assert _shape(cut, True) == _shape(whole, False)


def test_a_selector_on_a_cut_line_reads_the_file_whole() -> None:
    data = ('import jakarta.jms.*; class A { static final String D = "' + DATA + '"; void f(Session s, Queue q) { s.createConsumer(q, "a == 1"); } }\n').encode()
    r = scan_bytes("A.java", data)
    assert r is not None and not r.cuts and len(r.text) == len(data)
    assert [c.text for c in r.selectors] == ["a == 1"]
    assert locate(r.text, r.selectors[0].found.start).column == data.index(b'"a == 1"') + 1  # the literal's opening quote, counted from 1


def test_a_trigger_word_is_never_cut_out() -> None:
    """'elect' in any case, also across the edge of two blocks, keeps its block: a value holding a
    URI's selector= option deep inside a long line is still found."""
    for at in (5 * BLOCK + 100, 6 * BLOCK - 3, 6 * BLOCK - 1):
        run = bytearray(DATA.encode())
        run[at : at + 8] = b"SeLeCtOr"
        text, cuts = _read(bytes(run))
        assert cuts and text.count("SeLeCtOr") == 1, at
    line = "uri=activemq:queue:q?" + DATA[: 5 * BLOCK] + "&selector=a%20%3D%3D%201&x=" + DATA[: 5 * BLOCK] + "\n"
    cut, whole = scan_bytes("a.properties", line.encode()), scan_bytes("a.properties", line.encode(), whole=True)
    assert cut is not None and whole is not None
    assert [c.text for c in cut.selectors] == [c.text for c in whole.selectors] != []


@pytest.mark.parametrize(("name", "source"), [
    ("A.java", "/* " + DATA[: 9 * BLOCK] + " built on JMS " + DATA[: 9 * BLOCK] + ' */\nclass A { void f(S s, Q q) { s.createConsumer(q, "a == 1"); } }\n'),
    ("a.py", '"""' + DATA[: 9 * BLOCK] + " with stomp " + DATA[: 9 * BLOCK] + '"""\nc.subscribe("/q", 1, headers={"selector": "a == 1"})\n'),
    ("B.java", "/* " + DATA[: 9 * BLOCK] + " built on JMS " + DATA[: 9 * BLOCK] + ' */\nclass B { int xmqy; void f(S s, Q q) { s.createConsumer(q, "a == 1"); } }\n'),
])
def test_a_word_the_extractor_reads_anywhere_is_never_cut_out(name: str, source: str) -> None:
    """The JVM extractor counts generic call names only in a file that mentions JMS, the Python one
    reads only a file that names a messaging client: the mention deep in a long comment stays (B:
    beside a word that holds 'mq' without being a mention)."""
    data = source.encode()
    cut, whole = scan_bytes(name, data), scan_bytes(name, data, whole=True)
    assert cut is not None and whole is not None and cut.cuts
    assert [c.text for c in cut.selectors] == [c.text for c in whole.selectors] == ["a == 1"]


def test_a_cut_never_makes_a_word_where_the_kept_sides_meet() -> None:
    """'…jm' kept before a cut and 's…' after it would make 'jms' (the JVM extractor's JMS context,
    read anywhere in a file): that row is cut a block shorter."""
    row = bytearray(DATA[: 8 * BLOCK].encode())
    row[BLOCK - 2 : BLOCK] = b"jm"  # the end of the first block kept
    row[7 * BLOCK : 7 * BLOCK + 1] = b"s"  # the start of the last block kept
    source = b"class A { void f(S s, Q q) { s.createConsumer(q, \"a == 1\"); } }\n/* " + bytes(row) + b" */\n/* " + DATA.encode() + b" */\n"
    offset = source.index(bytes(row))
    shifted = bytearray(source)  # the row aligned on blocks: its first block starts one block in
    assert offset < BLOCK
    pad = BLOCK - offset
    shifted[offset:offset] = b" " * pad
    data = bytes(shifted)
    cut, whole = scan_bytes("A.java", data), scan_bytes("A.java", data, whole=True)
    assert cut is not None and whole is not None and cut.cuts  # the long comment after is still cut
    assert "jms" not in cut.text.lower() and [c.text for c in cut.selectors] == [c.text for c in whole.selectors] == []
    assert len(cut.cuts) == 2  # the row with the word too, a block shorter


def test_cuts_keep_a_block_each_side_and_count_characters() -> None:
    whole = "é" * 10 + "\n" + DATA + "\nend"
    text, cuts = _read(whole.encode())
    assert cuts and all(length % BLOCK == 0 for _, length in cuts)
    (point, _), = cuts
    assert text[point - BLOCK : point].strip(" ,.abcdefghijklmnopqrstuvwxyz0123456789") == ""  # a plain block kept before
    assert all(text[i] == whole[file_offset(cuts, i)] for i in (*range(0, 20), *range(point - 5, point + 5), *range(len(text) - 10, len(text))))
    assert file_offset(cuts, len(text) - 1) == len(whole) - 1
    assert text.endswith("\nend") and text.startswith("é" * 10)
    small = DATA[: BIG - 14].encode()  # with the line before it: one byte under BIG
    assert scan_bytes("a.properties", b"x.selector=a\n" + small) == scan_bytes("a.properties", b"x.selector=a\n" + small, whole=True)
    assert scan_bytes("a.properties", b"x.selector=a\n" + small).cuts == ()  # type: ignore[union-attr]  # under BIG: read whole


def test_triggers_and_binary_files_as_a_whole_read_finds_them() -> None:
    """Read a block at a time, a trigger across two blocks is found, one longer than the overlap
    searched again whole (XML's ``\\sfilter\\s*=``), a NUL in the first 8192 bytes still means binary."""
    head = "import jakarta.jms.*; /* " + DATA[: 3 * BLOCK]
    call = ' */ class A { void f(Session s, Queue q) { s.'
    head = head[: 3 * BLOCK - 7 - len(call)]  # the call's name across the edge of blocks 2 and 3
    java = (head + call + 'createConsumer(q, "a == 1"); } }\n/* ' + DATA + " */\n").encode()
    assert java.index(b"createConsumer") < 3 * BLOCK < java.index(b"createConsumer") + 14 and b"elect" not in java.lower()
    spaces = " " * 6000
    xml = ("<r><!-- " + DATA[: 2 * BLOCK - 5000] + ' -->\n<queue filter' + spaces + '="a == 1"/>\n<!-- ' + DATA + " --></r>\n").encode()
    match = re.search(rb"\sfilter\s*=", xml)
    assert match and match.start() < 2 * BLOCK - OVERLAP and match.end() > 2 * BLOCK  # in no block with the overlap before it
    assert b"elect" not in xml.lower()
    for name, data in (("A.java", java), ("a.xml", xml)):
        cut, whole = scan_bytes(name, data), scan_bytes(name, data, whole=True)
        assert cut is not None and whole is not None and cut.cuts, name
        assert [c.text for c in cut.selectors] == [c.text for c in whole.selectors] == ["a == 1"], name
    binary = b"x.selector=a\n\0" + DATA.encode()
    assert scan_bytes("a.properties", binary) is None and scan_bytes("a.properties", binary, whole=True) is None
    late = b"x.selector=a\n" + DATA.encode() + b"\0"
    assert scan_bytes("a.properties", late) is not None
    assert scan_bytes("a.properties", DATA.encode()) is None and scan_bytes("a.properties", DATA.encode(), whole=True) is None  # no trigger


def test_blocks_are_searched_for_the_trigger_only_where_a_word_is_when_every_match_holds_one() -> None:
    """The registry's triggers each hold a word of their extractor's in every match, so a block
    without one is not searched; a trigger where that cannot be shown (IGNORECASE, an optional
    part) searches every block."""
    assert all(_word_in_every_match(e.trigger, tuple(e.words)) for e in extractors())
    assert not _word_in_every_match(re.compile(rb"(?i)select"), (b"elect",))
    assert not _word_in_every_match(re.compile(rb"x(?:elect)?|elect"), (b"elect",))
    assert _word_in_every_match(re.compile(rb"x(?:elect)+|[Ss]elector"), (b"elect",))
    data = ("import jakarta.jms.*; /* " + DATA + ' */ class A { void f(Session s, Queue q) { s.CREATEconsumer(q, "a == 1"); } }\n').encode()
    # The file's word ('jakarta', at its start) is nowhere near the match: found only if every block is searched.
    loose = dataclasses.replace(jvm.EXTRACTOR, trigger=re.compile(rb"(?i)createconsumer"), words=(b"jakarta",))
    assert scan_bytes("A.java", data, loose) is not None
    assert read_large(io.BytesIO(data), (b"jakarta",), re.compile(rb"(?i)createconsumer")) is not None


def test_base64_hex_and_uuids_are_cut_too() -> None:
    rng = random.Random(23)
    b64 = base64.b64encode(rng.randbytes(SIZE * 3 // 4)).decode()
    uuids = "-".join(str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(SIZE // 37))
    for name, text in (
        ("a.properties", "x.selector=a == 1\ncert=" + b64 + "\ny.selector=b == 2\n"),
        ("beans.xml", '<beans><property name="messageSelector" value="a == 1"/>\n<cert>' + b64 + "</cert>\n<ids>" + uuids
                      + '</ids>\n<property name="messageSelector" value="b == 2"/></beans>\n'),
        ("app.yaml", 'a:\n  selector: "a == 1"\n  cert: ' + b64 + '\n  b:\n    selector: "b == 2"\n'),
    ):
        data = text.encode()
        cut, whole = scan_bytes(name, data), scan_bytes(name, data, whole=True)
        assert cut is not None and whole is not None and cut.cuts, name
        assert len(cut.text) < len(whole.text) // 3, name
        assert _shape(cut, True) == _shape(whole, False) and len(whole.selectors) == 2, name


def test_base64_in_a_jms_source_is_cut_when_the_file_mentions_jms_elsewhere() -> None:
    """Random base64 holds 'jms' and 'mq' every few thousand characters; the file's own import says
    it is a JMS file wherever they are, so the data can go."""
    b64 = base64.b64encode(random.Random(7).randbytes(SIZE * 3 // 4)).decode()
    for name, text in (
        ("A.java", 'import jakarta.jms.*;\nclass A {\n  static final String CERT = "' + b64 + '";\n'
                   '  void f(Session s, Queue q) { s.createConsumer(q, "a == 1"); }\n}\n'),
        ("a.py", 'import stomp\nCERT = "' + b64 + '"\nc.subscribe("/q", 1, headers={"selector": "a == 1"})\n'),
    ):
        data = text.encode()
        cut, whole = scan_bytes(name, data), scan_bytes(name, data, whole=True)
        assert cut is not None and whole is not None and cut.cuts and len(cut.text) < len(whole.text) // 3, name
        assert _shape(cut, True) == _shape(whole, False) and [c.text for c in cut.selectors] == ["a == 1"], name


@pytest.mark.parametrize("extractor", [e for e in extractors() if e.context is not None], ids=lambda e: e.name)
def test_every_match_of_a_context_regex_holds_a_keep_word(extractor: Extractor) -> None:
    """What cuts.read_large relies on: a match of ``context`` cannot be cut out or made unseen."""
    assert extractor.context is not None and extractor.keep
    for alternative in extractor.context.pattern.split("|"):
        plain = alternative.replace("\\b", "").replace("\\.", ".").lower()
        assert any(w.decode() in plain for w in extractor.keep), alternative


def test_not_utf8_is_read_as_latin1_like_today() -> None:
    data = b"# \xe9t\xe9\nk.selector=a == 1\nd=" + DATA.encode() + b"\nx.selector=\xe9 = 'x'\n"
    cut, whole = scan_bytes("a.properties", data), scan_bytes("a.properties", data, whole=True)
    assert cut is not None and whole is not None and cut.cuts
    assert _shape(cut, True) == _shape(whole, False)
    assert [c.text for c in cut.selectors] == ["a == 1", "é = 'x'"]


def _cli(*args: str) -> Result:
    return CliRunner().invoke(app, ["scan", *args], env={"NO_COLOR": "1"})


def test_json_sarif_and_fix_of_a_large_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "Gen.java"
    path.write_bytes(SOURCES["Gen.java"].encode())
    monkeypatch.chdir(tmp_path)  # SARIF's paths are relative to it
    assert scan_file(str(path)).cuts  # type: ignore[union-attr]
    reports = {fmt: _cli("--format", fmt, str(path)) for fmt in ("json", "sarif", "concise")}
    with monkeypatch.context() as m:
        m.setattr(cuts, "BIG", 1 << 60)  # every file read whole
        assert not scan_file(str(path)).cuts  # type: ignore[union-attr]
        for fmt, r in reports.items():
            assert r.exit_code == 1 and r.stdout == _cli("--format", fmt, str(path)).stdout != "", fmt  # the whole file's report
    doc = json.loads(reports["json"].stdout)
    spans = [(d["code"], d["offset"], d["length"]) for s in doc["selectors"] for d in s["diagnostics"]]
    text = SOURCES["Gen.java"]
    assert [(code, text[o : o + n]) for code, o, n in spans] == [("E007", "=="), ("E007", "==")]  # the whole file's characters
    assert spans[-1][1] > 2 * len(DATA)  # after both cuts
    diff = _cli("--diff", str(path))
    assert diff.exit_code == 1 and "+  void g(Session s, Queue q) { String x = \"ö\"; s.createConsumer(q, \"b = 'é' AND c = 2 AND JMSPriority = 07\"); }" in diff.stdout
    fixed = _cli("--fix", "--format", "json", str(path))
    assert fixed.exit_code == 0, fixed.output  # what remains are warnings (W001: JMSPriority = 07 is octal, reported once '==' is fixed)
    assert "JMSPriority" in fixed.stdout and fixed.stderr.count("fixed E007") == 2
    assert path.read_bytes() == text.replace('"a == 1"', '"a = 1"').replace("c == 2", "c = 2").encode()

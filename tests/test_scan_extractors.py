"""Each extractor on its own, and the rules for selectors built at run time: the decoded text, and
the file position of the characters a diagnostic points at (through escapes, concatenations,
text blocks, entities, URL encoding)."""

from __future__ import annotations

import pytest

from jmsctl.diagnostics import Severity, locate
from jmsctl.scan.extractors import for_path, jvm, properties, python, uri, xml, yaml
from jmsctl.scan.found import Found, Hole, Mapped, NotScanned
from jmsctl.scan.verify import verify

JMS = "import jakarta.jms.*; "  # the generic call names are read only in a file that mentions JMS


def found(module: object, path: str, src: str) -> list[Found]:
    return module.extract(path, src)  # type: ignore[attr-defined, no-any-return]


def text_of(f: Found) -> str:
    return "".join(p.text if isinstance(p, Mapped) else f"<{p.source}>" for p in f.pieces)


def where(src: str, f: Found, index: int) -> tuple[int, int]:
    """Line and column in ``src`` of character ``index`` of a one-piece selector."""
    piece = f.pieces[0]
    assert isinstance(piece, Mapped)
    p = locate(src, piece.starts[index])
    return p.line, p.column


def codes(src_found: Found) -> list[tuple[str, int]]:
    return [(d.code, d.span.start) for d in verify(src_found).diagnostics]


def test_registry_by_suffix() -> None:
    assert for_path("a/B.java") is jvm.EXTRACTOR and for_path("x.kts") is jvm.EXTRACTOR and for_path("b.groovy") is jvm.EXTRACTOR
    assert for_path("broker.xml") is xml.EXTRACTOR and for_path("a.yaml") is yaml.EXTRACTOR and for_path("c.py") is python.EXTRACTOR
    assert for_path("app.properties") is properties.EXTRACTOR and for_path("README.md") is None


# ----- Java-like --------------------------------------------------------------------------------

def test_java_escapes_map_each_character_to_its_escape() -> None:
    src = JMS + 'class A { void f() { s.createConsumer(q, "k = \\u0027\\u00e9\\u0027 AND n = \\"x\\""); } }'
    (f,) = found(jvm, "A.java", src)
    assert text_of(f) == "k = 'é' AND n = \"x\""
    assert where(src, f, 4) == (1, src.index("\\u0027") + 1)  # the quote written as \u0027
    assert where(src, f, 16) == (1, src.index('\\"x') + 1)


def test_java_signatures_pick_the_selector_argument() -> None:
    src = JMS + """class A { void f() {
        s.createConsumer(q);
        s.createConsumer(q, "a = 1", true);
        s.createDurableConsumer(t, "name = 1", "b = 2", false);
        s.createSharedDurableConsumer(t, "name", "c = 3");
        s.createSharedConsumer(t, "name");
        t.receiveSelected("d = 4");
        t.receiveSelected("queue", "e = 5");
        t.browseSelected("queue", "f = 6", callback);
        c.setMessageSelector("g = 7");
    } }"""
    assert [text_of(f) for f in found(jvm, "A.java", src)] == ["a = 1", "b = 2", "c = 3", "d = 4", "e = 5", "f = 6", "g = 7"]


def test_java_text_block_strips_incidental_indentation() -> None:
    src = JMS + 'class A {\n  String q = """\n      a = 1\n        AND b == 2\n      """;\n  void f() { s.createConsumer(q2, q); }\n}\n'
    (f,) = found(jvm, "A.java", src)
    assert text_of(f) == "a = 1\n  AND b == 2\n"
    (d,) = verify(f).diagnostics
    assert d.code == "E007" and (locate(src, d.span.start).line, locate(src, d.span.start).column) == (4, 15)


def test_constants_concatenation_and_reassignment() -> None:
    src = JMS + """class A {
        static final String BASE = "a = 1 AND ";
        static final String SEL = BASE + "b = 2";
        String selector = "x = 1";
        void f() { selector = "y = 2"; s.createConsumer(q, SEL); s.createConsumer(q, selector); }
    }"""
    first, second = found(jvm, "A.java", src)
    assert text_of(first) == "a = 1 AND b = 2"
    assert text_of(second) == "<selector>"  # assigned twice: not known


def test_kotlin_and_scala_templates_are_holes() -> None:
    (k,) = found(jvm, "A.kt", JMS + 'fun f() { s.createConsumer(q, "a = \'$x\' AND b = ${y.z} AND c = \\$d") }')
    assert text_of(k) == "a = '<$x>' AND b = <${y.z}> AND c = $d"
    (sc,) = found(jvm, "A.scala", JMS + 'def f = s.createConsumer(q, s"a = \'$x\' AND p = 1")')
    assert text_of(sc) == "a = '<$x>' AND p = 1"
    (plain,) = found(jvm, "A.scala", JMS + 'def f = s.createConsumer(q, "a = \'$x\'")')
    assert text_of(plain) == "a = '$x'"  # not interpolated without s"" / f""


def test_groovy_single_quoted_strings() -> None:
    (g,) = found(jvm, "A.groovy", JMS + "def f() { s.createConsumer(q, 'a = \\'b\\'') }")
    assert text_of(g) == "a = 'b'"


def test_annotations_only_for_the_message_selector_property() -> None:
    src = """@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "a = = 1"),
        @ActivationConfigProperty(propertyValue = "b = 2", propertyName = "messageSelector") })
    class M { @JmsListener(destination = "q", selector = SEL) void on() {} static final String SEL = "c = 3"; }"""
    assert [text_of(f) for f in found(jvm, "M.java", src)] == ["b = 2", "c = 3"]


def test_bare_unknown_arguments_are_skipped_unless_named_like_a_selector() -> None:
    src = JMS + "class A { void f() { s.createConsumer(q, listener); s.createConsumer(q, mySelector); s.createConsumer(q, null); } }"
    (f,) = found(jvm, "A.java", src)
    (d,) = verify(f).diagnostics
    assert d.code == "I001" and d.severity is Severity.INFO


# ----- run-time parts ---------------------------------------------------------------------------

def selector(text: str, *holes: str) -> Found:
    """A Found from text where each '@' is a hole (file offsets = text offsets)."""
    pieces: list[Mapped | Hole] = []
    pos = 0
    for i, part in enumerate(text.split("@")):
        pieces.append(Mapped.verbatim(part, pos))
        pos += len(part)
        if i < len(holes):
            pieces.append(Hole(pos, pos + 1, holes[i]))
            pos += 1
    return Found(tuple(pieces), 0, pos, "test")


@pytest.mark.parametrize(("text", "expected"), [
    ("a = '@' AND b == 1", ["I001", "E007"]),  # a string's content: the rest is checked
    ("a = @ AND b = 'x' + 1", ["I001", "E109"]),  # alone as an operand: a value
    ("a @ 5 AND b == 1", ["I001"]),  # an operator's place: nothing is certain, no syntax error reported
    ("a IN (@)", ["I001"]),  # IN items must be strings: the hole's value decides
    ("a LIKE @", ["I001"]),
    ("a = 1 AND @", ["I001"]),  # a whole condition
    ("prop_@ = 'x'", ["I001"]),
    ("@", ["I001"]),
])
def test_never_an_error_that_depends_on_a_hole(text: str, expected: list[str]) -> None:
    assert [c for c, _ in codes(selector(text, "v"))] == expected


def test_placeholders_in_literals_become_holes() -> None:
    f = Found((Mapped.verbatim("color = '${c}' AND size > #{s} AND x = {0} AND y LIKE '%s'", 0),), 0, 0, "t")
    diags = verify(f).diagnostics
    assert [d.code for d in diags] == ["I001"]
    assert "${c}" in (diags[0].hint or "") and "{0}" in (diags[0].hint or "")
    fmt = Found((Mapped.verbatim("y LIKE '%s' AND", 0),), 0, 0, "t", printf=True)
    assert [d.code for d in verify(fmt).diagnostics] == ["I001", "E003"]


# ----- XML, URIs, properties, YAML, Python -------------------------------------------------------

def test_xml_entities_and_cdata_map_back() -> None:
    src = '<a>\n  <b selector="x = &apos;1&apos; AND y &lt; = 2"/>\n  <message-selector><![CDATA[ z = = 1 ]]></message-selector>\n</a>'
    first, second = found(xml, "a.xml", src)
    assert text_of(first) == "x = '1' AND y < = 2"
    assert where(src, first, 4) == (2, src.split("\n")[1].index("&apos;") + 1)
    assert text_of(second) == "z = = 1"
    assert where(src, second, 0) == (3, src.split("\n")[2].index("z") + 1)


def test_xml_doctype_subset_refused_and_broken_xml_reported() -> None:
    with pytest.raises(NotScanned) as exc:
        found(xml, "a.xml", '<!DOCTYPE a [<!ENTITY e "x">]><a selector="&e;"/>')
    assert "refused" in exc.value.diagnostic.message
    with pytest.raises(NotScanned):
        found(xml, "a.xml", '<a selector="x = 1">')
    (ok,) = found(xml, "a.xml", '<!DOCTYPE beans PUBLIC "-//SPRING//DTD BEAN//EN" "http://x/spring-beans.dtd">\n<beans><q><filter string="a=1"/></q></beans>')
    assert text_of(ok) == "a=1"


def test_uri_decoding_maps_multibyte_escapes() -> None:
    value = Mapped.verbatim("jms:queue:q?x=1&selector=name%3D%27caf%C3%A9%27+AND+RAW&y=2", 100)
    (sel,) = uri.selectors(value)
    assert sel.text == "name='café' AND RAW"
    i = sel.text.index("é")
    assert (sel.starts[i], sel.ends[i]) == (100 + value.text.index("%C3"), 100 + value.text.index("%C3") + 6)
    (raw,) = uri.selectors(Mapped.verbatim("jms:q?selector=RAW(a+b = '%2')&z=1", 0))
    assert raw.text == "a+b = '%2'"


def test_properties_continuations_and_escapes() -> None:
    src = "# c\napp.selector = a = \\u0027x\\u0027 \\\n    AND b = = 2\nother = 1\nuri=jms:q?selector=c%3D%3D1\n"
    first, second = found(properties, "a.properties", src)
    assert text_of(first) == "a = 'x' AND b = = 2"
    assert where(src, first, text_of(first).index("AND")) == (3, 5)
    assert text_of(second) == "c==1"


def test_yaml_scalars() -> None:
    src = ("a:\n  selector: \"x = \\\"y\\\"\"\n  b-selector: 'it''s' \n  c-selector: plain = 1 # comment\n"
           "  messageSelector: >\n    p = 1\n    AND q = 2\n  route: jms:q?selector=r%3D1\n")
    got = [text_of(f) for f in found(yaml, "a.yml", src)]
    assert got == ['x = "y"', "it's", "plain = 1", "p = 1 AND q = 2", "r=1"]


def test_python_stomp_and_proton() -> None:
    src = ('import stomp; conn.subscribe("/q", 1, headers={"selector": "a = \\u0027b\\u0027"})\n'
           "conn.subscribe('/q', 2, selector=f'c = {x}')\n"
           "r = Selector(u'd = 1')\n"
           "h = {'selector': None}\n")
    got = [text_of(f) for f in found(python, "a.py", src)]
    assert got == ["a = 'b'", "c = <{x}>", "d = 1"]


def test_more_jms_signatures() -> None:
    src = JMS + """class A { void f() {
        ts.createSubscriber(topic, "a = 1", false);
        ts.createSubscriber(topic);
        c.createConnectionConsumer(q, "b = 2", pool, 10);
        c.createSharedDurableConnectionConsumer(t, "name", "c = 3", pool, 10);
        endpoint.setSelector("d = 4");
        spec.messageSelector("e = 5");
    } }"""
    assert [text_of(f) for f in found(jvm, "A.java", src)] == ["a = 1", "b = 2", "c = 3", "d = 4", "e = 5"]


def test_xml_filter_forms() -> None:
    src = ('<c><queue name="q"><selector string="a = 1"/></queue><jms:inbound-endpoint><jms:selector expression="b = 2"/>'
           '</jms:inbound-endpoint><divert name="d" filter="c = 3"/><log filter="not one"/></c>')
    assert [text_of(f) for f in found(xml, "a.xml", src)] == ["a = 1", "b = 2", "c = 3"]


def test_not_message_selectors_are_left_alone() -> None:
    kafka = 'class K { void f() { factory.createConsumer(props, "my-group"); } }'
    assert found(jvm, "K.java", kafka) == []
    assert len(found(jvm, "J.java", "import javax.jms.*;\n" + kafka)) == 1
    assert [text_of(f) for f in found(jvm, "S.java", 'class S { void f() { c.setMessageSelector("a = 1"); } }')] == ["a = 1"]
    k8s = "spec:\n  nodeSelector: {}\n  selector:\n    app: web\n  podSelector: 'app=x'\n  jms:\n    selector: 'a = 1'\n"
    assert [text_of(f) for f in found(yaml, "k.yaml", k8s)] == ["a = 1"]
    assert found(properties, "a.properties", "spring.cloud.kubernetes.discovery.label-selector=app=web\n") == []
    scrapy = "from scrapy import Selector\nsel = Selector(text='<a>')\nx = {'selector': 'div > a'}\n"
    assert found(python, "s.py", scrapy) == []
    assert [text_of(f) for f in found(python, "p.py", "from proton.reactor import Selector\nSelector(value='a = 1')\n")] == ["a = 1"]


def test_python_positions_after_a_form_feed() -> None:
    src = "import stomp\n\x0c\nconn.subscribe('/q', 1, headers={'selector': 'a = = 1'})\n"
    (f,) = found(python, "a.py", src)
    (d,) = verify(f).diagnostics
    p = locate(src, d.span.start)
    assert (p.line, p.column) == (3, src.split("\n")[2].index("= 1") + 1)


def test_method_declarations_are_not_calls() -> None:
    src = JMS + """class S implements Session {
        public MessageConsumer createConsumer(Destination destination, String messageSelector) { return createConsumer(destination, messageSelector, false); }
        public <T> T receiveSelected(String messageSelector) { return null; }
        fun createBrowser(queue: Queue, messageSelector: String): QueueBrowser = TODO()
        void f() { String noSelector = null; s.createConsumer(q, noSelector); s.createConsumer(q, "a = 1"); }
    }"""
    assert [text_of(f) for f in found(jvm, "S.java", src)] == ["<messageSelector>", "a = 1"]


def test_local_variables_resolve_in_their_own_method() -> None:
    src = JMS + """class T {
        void a() { String selector = "a = b"; s.createConsumer(q, selector); }
        void b() { String selector = "c == d"; s.createConsumer(q, selector); }
        void c() { String selector = null; if (x) { selector = "e = 1"; } s.createConsumer(q, selector); }
        void d() { s.createConsumer(q, LATER); }
        static final String LATER = "f = 2";
    }"""
    assert [text_of(f) for f in found(jvm, "T.java", src)] == ["a = b", "c == d", "<selector>", "f = 2"]


def test_yaml_scalars_over_several_lines() -> None:
    src = ("jms:\n  selector: color = 'red' AND\n    size > 2   # big ones\n  other: 1\n"
           "  b-selector: \"x = 1 AND\n    y = \\\"2\\\"\"\n  c-selector: 'p = ''a''\n     AND q = 1'\n")
    first, second, third = found(yaml, "a.yml", src)
    assert text_of(first) == "color = 'red' AND size > 2"
    assert where(src, first, text_of(first).index("size")) == (3, 5)
    assert text_of(second) == 'x = 1 AND y = "2"'
    assert text_of(third) == "p = 'a' AND q = 1"
    assert where(src, third, text_of(third).index("AND")) == (8, 6)


def test_uri_selector_built_at_run_time() -> None:
    src = JMS + 'class R { void r() { from("jms:queue:a?selector=" + sel).to("x"); from("jms:queue:b?selector=k%3D1&x=1" + y); } }'
    first, second = found(jvm, "R.java", src)
    assert text_of(first) == "<sel>" and text_of(second) == "k=1"
    (d,) = verify(first).diagnostics
    assert d.code == "I001"

"""``--dialect artemis`` against Artemis's own selector engine, built from an Artemis source checkout.

Not part of the test suite: CI has no Artemis (no package ships its selector), so this is the
maintainers' check. It generates the parsers from ``artemis-selector/src/main/javacc/*.jj`` with
``javacc`` (Debian package ``javacc``), compiles them with the ``filter`` classes of that checkout,
two small stand-ins written here (``SimpleString``, ``XmlProvider``: the selector needs nothing
more of them) and ``SelectorTranslator`` from ``artemis-commons``, then runs
``scripts/java/ArtemisSelectorHarness.java`` on the random cases of
``tests/test_activemq_differential.py``. The harness reads messages as the reference runs behind
``tests/conformance/brokers/artemis.jsonl`` do (see its header comment).

    python scripts/artemis_differential.py ARTEMIS_CHECKOUT [--seed N] [--count N]

Exit 0 when every verdict agrees, 1 otherwise (the first disagreements are printed).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests import activemq_engine  # noqa: E402
from tests.test_activemq_differential import ours, random_cases  # noqa: E402

SIMPLE_STRING = """package org.apache.activemq.artemis.api.core;
public final class SimpleString implements CharSequence {
   private final String s;
   private SimpleString(String s) { this.s = s; }
   public static SimpleString of(String s) { return s == null ? null : new SimpleString(s); }
   public String toString() { return s; }
   public int length() { return s.length(); }
   public char charAt(int i) { return s.charAt(i); }
   public CharSequence subSequence(int a, int b) { return s.subSequence(a, b); }
   public boolean startsWith(SimpleString o) { return s.startsWith(o.s); }
   public boolean equals(Object o) { return o instanceof SimpleString && ((SimpleString) o).s.equals(s); }
   public int hashCode() { return s.hashCode(); }
}
"""
XML_PROVIDER = """package org.apache.activemq.artemis.utils;
public final class XmlProvider {
   public static final String NAMESPACE_AWARE_PROPERTY = "n";
   public static final String IGNORE_COMMENTS_PROPERTY = "c";
   public static final String IGNORE_ELEMENT_CONTENT_WHITESPACE_PROPERTY = "w";
   public static javax.xml.parsers.DocumentBuilder newDocumentBuilder(java.util.Map<String, Boolean> f, java.util.Map<String, Boolean> p) {
      throw new UnsupportedOperationException("no XPath selectors here");
   }
}
"""


def build(checkout: Path, work: Path) -> str:
    """Compile the engine and the harness into ``work``; the classpath to run it."""
    src, classes = work / "src", work / "classes"
    for name, text in (("org/apache/activemq/artemis/api/core/SimpleString.java", SIMPLE_STRING),
                       ("org/apache/activemq/artemis/utils/XmlProvider.java", XML_PROVIDER)):
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text, encoding="utf-8")
    translator = checkout / "artemis-commons/src/main/java/org/apache/activemq/artemis/utils/SelectorTranslator.java"
    shutil.copy(translator, src / "org/apache/activemq/artemis/utils/SelectorTranslator.java")
    for grammar, package in (("StrictParser.jj", "strict"), ("HyphenatedParser.jj", "hyphenated")):
        out = src / "org/apache/activemq/artemis/selector" / package
        out.mkdir(parents=True, exist_ok=True)
        subprocess.run(["javacc", f"-OUTPUT_DIRECTORY={out}", str(checkout / "artemis-selector/src/main/javacc" / grammar)],
                       check=True, capture_output=True, timeout=120)
    engine = sorted((checkout / "artemis-selector/src/main/java").rglob("*.java"))
    cp = ":".join(str(Path("/usr/share/java") / j) for j in ("slf4j-api.jar", "slf4j-nop.jar"))
    subprocess.run(["javac", "-nowarn", "-cp", cp, "-d", str(classes), *map(str, engine), *map(str, src.rglob("*.java")),
                    str(HERE / "java" / "ArtemisSelectorHarness.java"), str(HERE / "java" / "DeliveryModes.java")], check=True, capture_output=True, timeout=300)
    return f"{classes}:{cp}"


class ArtemisEngine(activemq_engine.Engine):
    """The same line protocol and verdicts as the ActiveMQ harness."""

    def __init__(self, classpath: str) -> None:  # not super().__init__: another JVM, nothing to compile
        self.proc = subprocess.Popen(["java", "-Xss8m", "-cp", classpath, "ArtemisSelectorHarness"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, encoding="utf-8", bufsize=1 << 16)
        self.last_raw: list[str] = []


def main(argv: list[str]) -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("checkout", type=Path)
    args.add_argument("--seed", type=int, default=14)
    args.add_argument("--count", type=int, default=5000)
    opts = args.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        engine = ArtemisEngine(build(opts.checkout, Path(tmp)))
        try:
            cases = list(random_cases(opts.seed, opts.count))
            truth = engine.verdicts(cases)
        finally:
            engine.close()
    bad = [(s, m, t, ours(s, m, "artemis")) for (s, m), t in zip(cases, truth, strict=True) if t != ours(s, m, "artemis")]
    for s, m, t, mine in bad[:20]:
        print(f"artemis {t}, jmsctl {mine}: {s!r} on {m}")
    print(f"{len(bad)} of {len(cases)} cases disagree (seed {opts.seed})")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Selector identifiers are Java identifiers (docs/SEMANTICS.md#identifiers).

The lexer's character classes (jmsctl/spec/javachars.py) are checked against the running JVM's
Character.isJavaIdentifierStart/Part: `<c>x = 1` must lex as one identifier iff c may start a Java
identifier, and `x<c> = 1` must be one identifier iff c may be part of one. The JVM part needs `java`
and `javac` on PATH and is skipped otherwise; the named examples at the end need no JVM.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from lark import Token

from jmsctl.diagnostics import SelectorError
from jmsctl.selector import analyze, lexer
from jmsctl.selector import compile as compile_selector
from jmsctl.selector.lexer import tokens
from jmsctl.selector.nodes import Comparison, Identifier
from jmsctl.spec import identifiers, javachars
from jmsctl.values import INT

MAX_CODE_POINT = 0x10FFFF
SAMPLE_SEED = 20240601
SAMPLE_SIZE = 5000

JAVA_SOURCE = """\
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class IdentChars {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "US-ASCII"));
        StringBuilder out = new StringBuilder();
        out.append(System.getProperty("java.version")).append('\\n');
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            int cp = Integer.parseInt(line.trim());
            int flags = (Character.isJavaIdentifierStart(cp) ? 1 : 0) | (Character.isJavaIdentifierPart(cp) ? 2 : 0);
            out.append((char) ('0' + flags));
        }
        out.append('\\n');
        System.out.print(out);
    }
}
"""


def _major(version: str) -> str:
    parts = version.split(".")
    return parts[1] if parts[0] == "1" and len(parts) > 1 else parts[0].split("-")[0].split("+")[0]


def sample_code_points() -> list[int]:
    """All of ASCII and Latin-1, every range boundary of javachars.py (both sides), and a fixed random sample."""
    points: set[int] = set(range(0x100))
    for table in (javachars.IDENTIFIER_START, javachars.IDENTIFIER_PART):
        for lo, hi in table:
            for cp in (lo - 1, lo, hi, hi + 1):
                if 0 <= cp <= MAX_CODE_POINT:
                    points.add(cp)
    points.update(random.Random(SAMPLE_SEED).sample(range(MAX_CODE_POINT + 1), SAMPLE_SIZE))
    return sorted(points)


class JavaOracle:
    def __init__(self, version: str, flags: dict[int, int]) -> None:
        self.version = version
        self.flags = flags

    def is_start(self, cp: int) -> bool:
        return bool(self.flags[cp] & 1)

    def is_part(self, cp: int) -> bool:
        return bool(self.flags[cp] & 2)


@pytest.fixture(scope="module")
def java(tmp_path_factory: pytest.TempPathFactory) -> JavaOracle:
    java_bin, javac_bin = shutil.which("java"), shutil.which("javac")
    if java_bin is None or javac_bin is None:
        pytest.skip("java and javac must be on PATH to compare with Character.isJavaIdentifierStart/Part")
    work: Path = tmp_path_factory.mktemp("identchars")
    (work / "IdentChars.java").write_text(JAVA_SOURCE, encoding="ascii")
    subprocess.run([javac_bin, "-d", str(work), str(work / "IdentChars.java")], check=True, capture_output=True, timeout=120)
    points = sample_code_points()
    stdin = "\n".join(str(cp) for cp in points) + "\n"
    done = subprocess.run([java_bin, "-cp", str(work), "IdentChars"], input=stdin, capture_output=True, text=True, check=True, timeout=120)
    version, answers = done.stdout.split("\n")[:2]
    assert len(answers) == len(points), "the Java helper must answer once per code point"
    return JavaOracle(version.strip(), {cp: int(a) for cp, a in zip(points, answers, strict=True)})


def _first_token(text: str) -> Token | None:
    try:
        return next(iter(tokens(text)), None)
    except SelectorError:
        return None


def lexes_as_start(cp: int) -> bool:
    """`<c>x = 1` begins with the identifier <c>x."""
    tok = _first_token(chr(cp) + "x = 1")
    return tok is not None and tok.type == "IDENT" and str(tok) == chr(cp) + "x"


def lexes_as_part(cp: int) -> bool:
    """`x<c> = 1` begins with the identifier x<c>."""
    tok = _first_token("x" + chr(cp) + " = 1")
    return tok is not None and tok.type == "IDENT" and str(tok) == "x" + chr(cp)


def _is_identifier_comparison(text: str, name: str) -> bool:
    analysis = analyze(text)
    ast = analysis.ast
    return analysis.valid and isinstance(ast, Comparison) and ast.left == Identifier(name)


def _compare(java: JavaOracle, points: list[int]) -> list[str]:
    problems = []
    for cp in points:
        want_start, want_part = java.is_start(cp), java.is_part(cp)
        got_start, got_part = lexes_as_start(cp), lexes_as_part(cp)
        if got_start != want_start:
            problems.append(f"U+{cp:04X}: Java isJavaIdentifierStart={want_start}, lexer start={got_start}")
        if got_part != want_part:
            problems.append(f"U+{cp:04X}: Java isJavaIdentifierPart={want_part}, lexer part={got_part}")
        # the whole pipeline, not only the lexer: accepted characters give a valid selector on that identifier
        if want_start and not _is_identifier_comparison(chr(cp) + "x = 1", chr(cp) + "x"):
            problems.append(f"U+{cp:04X}: analyze() rejects or misreads the identifier <c>x")
        if want_part and not _is_identifier_comparison("x" + chr(cp) + " = 1", "x" + chr(cp)):
            problems.append(f"U+{cp:04X}: analyze() rejects or misreads the identifier x<c>")
    return problems


def test_ascii_and_latin1_match_java(java: JavaOracle) -> None:
    """Identifier characters below U+0100 are stable across Java versions."""
    problems = _compare(java, list(range(0x100)))
    assert not problems, "\n".join(problems[:40])


def test_sampled_code_points_match_java(java: JavaOracle) -> None:
    """~10,000 code points: range boundaries of javachars.py and a deterministic sample of 0..0x10FFFF."""
    if _major(java.version) != _major(javachars.JAVA_VERSION):
        pytest.skip(
            f"javachars.py was generated from Java {javachars.JAVA_VERSION}; java on PATH is {java.version}: "
            "its Unicode tables differ, so only ASCII and Latin-1 are compared"
        )
    points = sample_code_points()
    assert len(points) > SAMPLE_SIZE
    problems = _compare(java, points)
    assert not problems, f"{len(problems)} disagreements with Java {java.version}:\n" + "\n".join(problems[:40])


# ----- the ASCII classes, no JVM needed ----------------------------------------------------------


def _below_0x80(table: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    return tuple((lo, min(hi, 0x7F)) for lo, hi in table if lo < 0x80)


def test_ascii_classes_are_the_tables_below_0x80() -> None:
    """ASCII text is lexed with classes written out in identifiers.py: they must be javachars.py's."""
    assert _below_0x80(javachars.IDENTIFIER_START) == identifiers.ASCII_IDENTIFIER_START
    assert _below_0x80(javachars.IDENTIFIER_PART) == identifiers.ASCII_IDENTIFIER_PART


def _outcome(m: re.Match[str] | None) -> tuple[tuple[int, int], str | None] | None:
    return None if m is None else (m.span(), m.lastgroup)


@pytest.mark.parametrize("regex", ["lexer._MASTER", "lexer._IDENT_PART", "IDENTIFIER", "IDENTIFIER_START_CHAR", "IDENTIFIER_PART_CHAR"])
def test_ascii_and_unicode_regexes_agree_on_ascii_text(regex: str) -> None:
    """Every ASCII character, alone and between identifier and number characters, matched from
    every position with the regex from the ASCII classes and with the one from the whole tables."""
    owner, name = (lexer, regex[6:]) if regex.startswith("lexer.") else (identifiers, regex)
    pattern: identifiers.IdentifierRegex = getattr(owner, name)
    full = pattern.pattern(False)
    assert pattern.pattern(True) is pattern.ascii is not full
    for cp in range(0x80):
        c = chr(cp)
        for text in (c, f"{c}x = 1", f"x{c}y = 1", f"1{c}2", f"1.{c}", f"x.{c}", f"'{c}''{c}'"):
            assert pattern.for_text(text) is pattern.ascii
            for pos in range(len(text) + 1):
                assert _outcome(pattern.ascii.match(text, pos)) == _outcome(full.match(text, pos)), (text, pos)
            assert _outcome(pattern.ascii.fullmatch(text)) == _outcome(full.fullmatch(text)), text


# ----- named examples, no JVM needed -----------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "größe",  # Latin-1 letters
        "€uro",  # currency symbol starts an identifier
        "$price",
        "a1_$b",
        "_x",
        "価格",  # CJK
        "ＡＮＤ",  # fullwidth letters: an identifier, not the ASCII keyword AND
        "x\u0301",  # combining mark as a part
        "a\u200bb",  # U+200B ZERO WIDTH SPACE: identifier-ignorable, so a Java identifier part
        "order",  # starts with the keyword OR
        "notnull",
        "INx",
    ],
)
def test_named_identifiers(name: str) -> None:
    text = f"{name} = 1"
    toks = list(tokens(text))
    assert [t.type for t in toks] == ["IDENT", "EQ", "NUMBER"], toks
    assert str(toks[0]) == name
    analysis = analyze(text)
    assert analysis.valid, analysis.diagnostics
    assert isinstance(analysis.ast, Comparison) and analysis.ast.left == Identifier(name)
    selector = compile_selector(text)
    assert selector.matches({name: (INT, 1)})
    assert not selector.matches({name: (INT, 2)})


def test_identifiers_are_case_sensitive() -> None:
    selector = compile_selector("größe = 1")
    assert not selector.matches({"GRÖSSE": (INT, 1)})
    assert not selector.matches({"Größe": (INT, 1)})


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("a\u00a0= 1", 2),  # NBSP is not white space ...
        ("a\u00a0b = 1", 2),  # ... nor an identifier part ...
        ("\u00a0a = 1", 1),  # ... nor an identifier start
        ("x = 1 AND\u00a0y = 2", 10),
    ],
)
def test_nbsp_is_not_white_space(text: str, column: int) -> None:
    analysis = analyze(text)
    assert not analysis.valid
    first = analysis.errors[0]
    assert first.code == "E001"
    assert first.span.start + 1 == column  # single-line selectors: offset + 1 is the column


@pytest.mark.parametrize("text", ["1abc = 1", "\u0301x = 1", "\U0001f600x = 1"])
def test_not_identifier_starts(text: str) -> None:
    """A digit, a combining mark or an emoji cannot start an identifier."""
    assert not analyze(text).valid


def test_zero_width_space_is_inside_the_name() -> None:
    """`a\u200bb` and `ab` are different properties: the ignorable character is kept, as in the message."""
    selector = compile_selector("a\u200bb = 1")
    assert selector.matches({"a\u200bb": (INT, 1)})
    assert not selector.matches({"ab": (INT, 1)})

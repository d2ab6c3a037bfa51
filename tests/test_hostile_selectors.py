"""Hostile selectors and hostile messages: the selector engine answers every input with a valid
selector or diagnostics, in time linear in its length, and evaluation never raises.

- the size cases of the issue: 10,000 nested parentheses, 10,000 chained AND/OR terms, a 1 MB
  selector, a 100,000-item IN list (each works, or gets a diagnostic that names its limit);
- hypothesis fuzzing of random text (any code point, surrogates included), of mutations of valid
  selectors (characters and tokens inserted, deleted, replaced) and of repeated fragments (long
  inputs of one shape, where anything quadratic shows);
- compiled and reference evaluation of generated selectors on messages with extreme values (NaN,
  infinities, -0.0, MIN/MAX of every type, empty, huge, surrogate and combining-character
  Strings), and every edge value against every other through every operator.

The fuzz targets are plain functions listed in FUZZ_TARGETS; ``scripts/fuzz.py --minutes N`` runs
the same targets for as long as asked. In CI they run under the ``ci`` hypothesis profile.
"""

from __future__ import annotations

import gc
import json
import math
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jmsctl import selector as sel
from jmsctl.cli.render import Source, concise, diagnostic_json, full, github
from jmsctl.exceptions import InvalidSelectorException
from jmsctl.selector.compiler import compile_selector
from jmsctl.selector.explainer import explain
from jmsctl.selector.limits import MAX_DEPTH, MAX_DIAGNOSTICS, MAX_LENGTH
from jmsctl.selector.parser import parse
from jmsctl.selector.reference import evaluate
from jmsctl.selector.unparser import unparse
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, RANGES, SHORT, STRING, to_f32
from tests.strategies import FRAGMENTS, NAMES, conditions, typed_values

ROOT = Path(__file__).parent.parent
N = 10_000

# ----- what every answer must look like -------------------------------------------------------

_CODE = re.compile(r"[EW]\d{3}")
_SMALL = 2_000  # below this many characters ASTs are also compared node by node (deep __eq__ recurses)


def time_budget(length: int) -> float:
    """Seconds of CPU any input may take: generous, but linear (about 4 µs per character is typical)."""
    return 1.0 + 50e-6 * length


def _timed_analyze(text: str) -> tuple[sel.Analysis, float]:
    start = time.process_time()
    analysis = sel.analyze(text)
    return analysis, time.process_time() - start


def check_text(text: str) -> sel.Analysis:
    """analyze() answers with an AST or diagnostics, never an exception, within the time budget;
    a valid answer also prints, reparses, compiles and explains; every diagnostic renders."""
    analysis, elapsed = _timed_analyze(text)
    if elapsed >= time_budget(len(text)):
        # A full collection of the fuzzer's own heap (hours of examples) can land inside one call:
        # measure again after collecting, so that only the analysis itself is held to the budget.
        gc.collect()
        analysis, elapsed = _timed_analyze(text)
    assert elapsed < time_budget(len(text)), f"{elapsed:.2f}s for {len(text)} characters"
    assert isinstance(analysis, sel.Analysis)
    for d in analysis.diagnostics:
        assert _CODE.fullmatch(d.code) and d.message, d
        assert d.is_error == (d.code[0] == "E"), d
        assert 0 <= d.span.start <= d.span.end <= len(text), (d, len(text))
        src = Source("<fuzz>", text)  # every output format renders it
        full(src, d)
        concise(src, d)
        github(src, d)
        doc = diagnostic_json(src, d)
        if _utf8(text):
            orjson.dumps(doc)
    assert len(analysis.diagnostics) <= MAX_DIAGNOSTICS + 1
    if not analysis.valid:
        assert analysis.errors
        return analysis
    if analysis.ast is None:
        assert text.strip(" \t\f\r\n") == ""
        return analysis
    canonical = unparse(analysis.ast)
    again = parse(canonical)
    assert unparse(again) == canonical
    if len(text) < _SMALL:
        assert again == analysis.ast, canonical
    for dialect in sel.DIALECTS:
        # A broker dialect has its own grammar: a standard selector may be invalid there (ASCII names, ...)
        if sel.dialects.get(dialect).is_broker and not sel.analyze(text, dialect).valid:
            continue
        compiled = sel.compile(text, dialect)
        for view in (EMPTY, ALL_EDGES):
            assert compiled.evaluate(view) in (True, False, None)
    ex = explain(text, ALL_EDGES.get)
    assert ex.valid and ex.result in ("TRUE", "FALSE", "UNKNOWN")
    return analysis


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# ----- messages with extreme values -----------------------------------------------------------

HUGE = "a" * 1_000_000
HUGE_EMOJI = "😀" * 100_000
HOSTILE_STRINGS = [
    "", " ", "\x00", "\ud800", "\udfff", "\udcff", "a\ud800b", "\ud83d", "\ude00", "\u0301", "e\u0301", "a\u0300\u0301\u0302\u0303",
    "\u200b", "\ufeff", "\u202e", "\uffff", "\U0010ffff", "😀", "🇪🇺", "'", "''", "%", "_", "!", "\\", "\n", "\r\n", "NaN", "-0",
    "Infinity", "1e309", "0x10", HUGE, HUGE_EMOJI, HUGE + "\u0301", "%" * 10_000, "_" * 10_000,
]
F32_EDGES = [0.0, -0.0, 1.401298464324817e-45, -1.401298464324817e-45, 1.1754943508222875e-38, 3.4028234663852886e38,
             -3.4028234663852886e38, 16777216.0, 16777217.0, math.nan, math.inf, -math.inf, 0.1, -1.0]
D_EDGES = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308,
           9007199254740993.0, 9.223372036854776e18, -9.223372036854776e18, math.nan, math.inf, -math.inf, 0.1, -1.0]


def _int_edges(t: Any) -> list[int]:
    lo, hi = RANGES[t]
    return [0, 1, -1, lo, hi, lo + 1, hi - 1]


EDGE_VALUES: list[Any] = [
    *((t, v) for t in (BYTE, SHORT, INT, LONG) for v in _int_edges(t)),
    *((FLOAT, to_f32(v)) for v in F32_EDGES),
    *((DOUBLE, v) for v in D_EDGES),
    (BOOLEAN, True), (BOOLEAN, False),
    *((STRING, s) for s in HOSTILE_STRINGS),
    None,
]
EMPTY: dict[str, Any] = {}
ALL_EDGES = {name: EDGE_VALUES[i * 7 % len(EDGE_VALUES)] for i, name in enumerate(NAMES)}


def hostile_values() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from(EDGE_VALUES),
        typed_values(),
        st.text(alphabet=st.characters(blacklist_categories=()), max_size=12).map(lambda s: (STRING, s)),
    )


@st.composite
def hostile_messages(draw: Any) -> dict[str, Any]:
    """Any name (headers too) may hold any value the value model allows, or be absent."""
    view = {}
    for name in NAMES:
        value = draw(st.one_of(st.none(), hostile_values()))
        if value is not None:
            view[name] = value
    return view


STANDARD_DIALECTS = tuple(d for d in sel.DIALECTS if not sel.dialects.get(d).is_broker)  # the reference evaluator's


def check_evaluation(ast: Any, view: dict[str, Any]) -> None:
    """Compiled (both dialects) and reference evaluation never raise and agree; explain agrees too."""
    text = unparse(ast)
    for dialect in STANDARD_DIALECTS:
        compiled = sel.compile(text, dialect)
        fast = compiled.evaluate(view)
        assert fast in (True, False, None)
        assert compile_selector(compiled.ast, dialect)(view.get) is fast
        assert evaluate(compiled.ast, view.get, dialect).result is fast, f"{text} on {view} ({dialect})"
    ex = explain(text, view.get)
    assert ex.selected is (sel.compile(text).evaluate(view) is True)


# ----- mutations of valid selectors -----------------------------------------------------------


def _corpus_selectors() -> list[str]:
    out = []
    for path in sorted((ROOT / "tests" / "corpus").glob("*.jsonl")) + sorted((ROOT / "tests" / "conformance").glob("*.jsonl")):
        for line in path.read_bytes().splitlines():
            if line.strip():
                case = orjson.loads(line)
                if isinstance(case.get("selector"), str) and len(case["selector"]) < 400:
                    out.append(case["selector"])
    for name in ("selectors.txt", "bad-selectors.txt"):
        path = ROOT / "samples" / name
        if path.exists():
            out += [s for s in path.read_text(encoding="utf-8").splitlines() if s.strip() and not s.startswith("#")]
    return sorted(set(out))


SEEDS = _corpus_selectors()
HOSTILE_FRAGMENTS = [
    *FRAGMENTS, "((", "))", "NOT NOT", "AND AND", "IN (", "IN ()", "'a',", "ESCAPE '!'", "LIKE '%_'", "BETWEEN 1 AND",
    "IS NOT NULL", "0x", "0x1p", "1e-", "1.e5", ".5f", "0b", "0_1", "1__0", "9223372036854775807L", "-9223372036854775808",
    "0x7fffffffffffffffL", "1e309", "1e-400", "0x1.fffffep127f", "'it''s'", "''''", "JMSXDeliveryCount", "JMS_x", "JMSDestination",
    "\ud800", "\u0301", "e\u0301", "\x00", "\r\n", "\u000b", "\u2028", "a-b", "x IS", "x NOT", "= =", "<>", "!", "#", "`", "\\", "$x", "_",
]
_TOKEN = re.compile(r"\s+|'(?:[^']|'')*'?|[\w$]+|.", re.DOTALL)


@st.composite
def mutated_selectors(draw: Any) -> str:
    """A valid (or near-valid) selector with one to six character or token edits."""
    text = draw(st.one_of(st.sampled_from(SEEDS), conditions(2).map(unparse)))
    chars = st.one_of(st.sampled_from("'()=<>!-+*/,.%_\"\\ \t\r\n\x00\u00a0\u200b\ud800\u0301😀eExLf0189"), st.characters(blacklist_categories=()))
    fragments = st.sampled_from(HOSTILE_FRAGMENTS)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "insert token", "delete token", "replace token", "duplicate", "cut"]))
        tokens = [m.span() for m in _TOKEN.finditer(text)] or [(0, 0)]
        if op.endswith("token"):
            start, end = tokens[draw(st.integers(0, len(tokens) - 1))]
            if op == "insert token":
                end = start
            replacement = "" if op == "delete token" else draw(fragments)
            if op != "delete token" and draw(st.booleans()):
                replacement = f" {replacement} "
            text = text[:start] + replacement + text[end:]
        else:
            pos = draw(st.integers(0, len(text)))
            if op == "insert":
                text = text[:pos] + draw(chars) + text[pos:]
            elif op == "delete":
                text = text[:pos] + text[pos + 1 :]
            elif op == "replace":
                text = text[:pos] + draw(chars) + text[pos + 1 :]
            elif op == "duplicate":
                end = draw(st.integers(pos, len(text)))
                text = text[:end] + text[pos:end] + text[end:]
            else:
                text = text[:pos] if draw(st.booleans()) else text[pos:]
    return text


@st.composite
def repeated_fragments(draw: Any, max_repeat: int = 400) -> str:
    """Long inputs of one shape (a prefix, a fragment repeated, a suffix): quadratic work shows here."""
    prefix = draw(st.sampled_from(["", "x = 1 AND ", "NOT ", "(", "x IN (", "x = ", "x LIKE '", "'"]))
    unit = "".join(draw(st.lists(st.sampled_from(HOSTILE_FRAGMENTS), min_size=1, max_size=4)))
    if draw(st.booleans()):
        unit += " "
    suffix = draw(st.sampled_from(["", ")", "x = 1", "'", " AND", "1"]))
    return prefix + unit * draw(st.integers(1, max_repeat)) + suffix


# ----- the fuzz targets (also run by scripts/fuzz.py) -----------------------------------------

FUZZ_TARGETS: dict[str, tuple[Callable[[], st.SearchStrategy[Any]], Callable[..., Any]]] = {
    "random text": (lambda: st.text(alphabet=st.characters(blacklist_categories=()), max_size=80), check_text),
    "token soup": (lambda: st.lists(st.sampled_from(HOSTILE_FRAGMENTS), max_size=16).map(lambda xs: " ".join(xs) if len(xs) % 2 else "".join(xs)), check_text),
    "mutated selectors": (mutated_selectors, check_text),
    "repeated fragments": (repeated_fragments, check_text),
    "evaluation": (lambda: st.tuples(conditions(), hostile_messages()), lambda pair: check_evaluation(*pair)),
}


def _strategy(name: str) -> st.SearchStrategy[Any]:
    return FUZZ_TARGETS[name][0]()


@given(_strategy("random text"))
@example("\ud800")
@example("x = '\udcff'")
@example("x\u0301 = 1")
@example("x = 1\r\nAND\ry = 2\n")
def test_fuzz_random_text(text: str) -> None:
    check_text(text)


@given(_strategy("token soup"))
def test_fuzz_token_soup(text: str) -> None:
    check_text(text)


@given(_strategy("mutated selectors"))
def test_fuzz_mutated_selectors(text: str) -> None:
    check_text(text)


@given(_strategy("repeated fragments"))
@example("NOT " * 400 + "x")
@example("(" * 400)
@example("x IN (" + "'a'," * 400)
@example("'" + "a''" * 400)
def test_fuzz_repeated_fragments(text: str) -> None:
    check_text(text)


@settings(max_examples=max(1, settings.default.max_examples // 3))  # generating ASTs and messages is the slow part
@given(_strategy("evaluation"))
def test_fuzz_evaluation_on_hostile_messages(pair: tuple[Any, dict[str, Any]]) -> None:
    check_evaluation(*pair)


# ----- every edge value against every other ---------------------------------------------------

EDGE_SELECTORS = [
    "a = b", "a <> b", "a < b", "a >= b", "a + b > 0", "a - b = 0", "a * b < 1", "a / b >= 1", "-a = +b",
    "a BETWEEN b AND 1", "a NOT BETWEEN -1 AND b", "a IN ('a', '', '\u0301')", "a LIKE '%a%'", "a NOT LIKE '_!%%' ESCAPE '!'",
    "a IS NULL", "a AND NOT b", "a OR b", "a = -0.0", "a = 0.0f", "a <> TRUE", "a = 'a'", "a / 0 = 0", "a / 0.0 > 0",
    "a * 2147483647 * 2147483647 = 1", "a - 9223372036854775807L - 9223372036854775807L < 0", "a + 3.4028235e38f > b",
]


def test_every_edge_value_against_every_other_never_raises() -> None:
    """Each operator of the language over every pair of edge values, compiled in both dialects;
    the reference evaluator (slower) checks a sample of the pairs."""
    pairs = [(a, b) for a in EDGE_VALUES for b in EDGE_VALUES]
    for text in EDGE_SELECTORS:
        for dialect in sel.DIALECTS:
            if sel.dialects.get(dialect).is_broker:  # the engine's verdict only: delivered or not
                if sel.analyze(text, dialect).valid:
                    broker = sel.compile(text, dialect)
                    assert all(broker.evaluate({k: v for k, v in (("a", a), ("b", b)) if v is not None}) in (True, False) for a, b in pairs)
                continue
            compiled = sel.compile(text, dialect)
            for i, (a, b) in enumerate(pairs):
                view = {k: v for k, v in (("a", a), ("b", b)) if v is not None}
                result = compiled.evaluate(view)
                assert result in (True, False, None)
                if i % 23 == 0:
                    assert evaluate(compiled.ast, view.get, dialect).result is result, (text, dialect, a, b)


# ----- the size cases -------------------------------------------------------------------------


def _works(text: str) -> sel.Selector:
    try:
        return sel.compile(text)
    except InvalidSelectorException as exc:
        raise AssertionError([(d.code, d.message) for d in exc.diagnostics]) from None


def _refused(text: str, code: str, limit: int) -> sel.Analysis:
    """Refused with one diagnostic that names the limit (its value, in the message and the hint)."""
    analysis = sel.analyze(text)
    assert [d.code for d in analysis.errors] == [code]
    d = analysis.errors[0]
    assert f"{limit:,}" in d.message and d.hint and f"{limit:,}" in d.hint, d
    return analysis


def _round_trips(selector: sel.Selector) -> None:
    canonical = unparse(selector.ast)
    assert unparse(parse(canonical)) == canonical


def test_ten_thousand_nested_parentheses_work() -> None:
    for text in ("(" * N + "x = 1" + ")" * N, "x = " + "(" * N + "1" + ")" * N, "(" * N + "x" + ")" * N + " BETWEEN 1 AND 2"):
        s = _works(text)
        assert s.evaluate({"x": (INT, 1)}) is True
        _round_trips(s)
        assert explain(text, {"x": (INT, 1)}.get).result == "TRUE"


def test_ten_thousand_nested_parentheses_of_one_operator_are_one_chain() -> None:
    text = "".join(f"x = {i} OR (" for i in range(N - 1)) + f"x = {N - 1}" + ")" * (N - 1)
    s = _works(text)
    assert s.evaluate({"x": (INT, N - 1)}) is True and s.evaluate({"x": (INT, -1)}) is False and s.evaluate({}) is None
    _round_trips(s)
    tree = explain(text).tree
    assert tree is not None and len(tree.children) == N


def test_ten_thousand_nested_levels_of_real_nesting_name_the_limit() -> None:
    for text in ("NOT (" * N + "x = 1" + ")" * N, "".join(f"(x = {i} {'AND' if i % 2 else 'OR'} " for i in range(N)) + "x" + ")" * N,
                 "x = " + "-(" * N + "1" + ")" * N, "x = " + " + ".join(["1"] * N)):
        analysis = _refused(text, "E120", MAX_DEPTH)
        assert analysis.ast is None or analysis.errors


def test_nesting_just_inside_the_limit_works_everywhere() -> None:
    """MAX_DEPTH levels compile, evaluate, explain (text and JSON) and print: nothing else gives out first."""
    text = "NOT (" * (MAX_DEPTH - 3) + "x = -(1)" + ")" * (MAX_DEPTH - 3)
    s = _works(text)
    assert s.evaluate({"x": (INT, -1)}) is ((MAX_DEPTH - 3) % 2 == 0)
    _round_trips(s)
    ex = explain(text, {"x": (INT, -1)}.get)
    assert ex.result is not None
    assert json.loads(json.dumps(ex.to_dict()))["tree"]["node"] == "NOT"  # deeper than orjson's 254 levels: the CLI falls back
    _refused("NOT (" * MAX_DEPTH + "x = -(1)" + ")" * MAX_DEPTH, "E120", MAX_DEPTH)


@pytest.mark.parametrize("op", ["AND", "OR"])
def test_ten_thousand_chained_terms_work(op: str) -> None:
    text = f" {op} ".join(f"x{i} = {i}" for i in range(N))
    s = _works(text)
    every = {f"x{i}": (INT, i) for i in range(N)}
    assert s.evaluate(every) is True
    assert s.evaluate({}) is None
    assert s.evaluate({"x0": (INT, -1)}) is (False if op == "AND" else None)
    canonical = unparse(s.ast)
    assert canonical.count("(") == N  # flat: one pair of parentheses per term
    if op == "AND":
        assert unparse(parse(canonical)) == canonical
    ex = explain(text, every.get)
    assert ex.tree is not None and ex.tree.label == f"{op} ({N:,} operands)" and len(ex.tree.children) == N
    assert ex.result == "TRUE" and ex.tree.reason == f"{N:,} operands: {N:,} TRUE"
    assert len(ex.to_dict()["tree"]["children"]) == N
    assert evaluate(s.ast, every.get, "ibm").result is True


def test_a_one_megabyte_selector_works_and_a_broken_one_is_diagnosed() -> None:
    text = "x = 1 AND " * 100_000 + "x = 1"
    assert len(text) > 1_000_000
    s = _works(text)
    assert s.evaluate({"x": (INT, 1)}) is True and s.evaluate({"x": (INT, 2)}) is False
    analysis = sel.analyze(text[:-5])  # ends in AND
    assert [d.code for d in analysis.errors] == ["E003"]
    assert analysis.errors[0].span.start == len(text) - 5


def test_a_hundred_thousand_item_in_list_works() -> None:
    items = [f"'ID:{i:08d}'" for i in range(100_000)]
    text = f"JMSMessageID IN ({', '.join(items)})"
    s = _works(text)
    assert s.evaluate({"JMSMessageID": (STRING, "ID:00099999")}) is True
    assert s.evaluate({"JMSMessageID": (STRING, "ID:100000")}) is False
    numbers = sel.analyze(f"x IN ({', '.join(str(i) for i in range(100_000))})")  # 100,000 errors: the first are reported
    assert [d.code for d in numbers.diagnostics] == ["E105"] * MAX_DIAGNOSTICS + ["W013"]
    assert f"{100_000 - MAX_DIAGNOSTICS:,} more" in numbers.diagnostics[-1].message


def test_over_the_length_limit_names_it() -> None:
    text = "x = 1" + " " * (MAX_LENGTH - 5) + "!"
    start = time.process_time()
    analysis = _refused(text, "E121", MAX_LENGTH)
    assert time.process_time() - start < 1.0
    assert analysis.errors[0].span.start == MAX_LENGTH
    _works("x = 1" + " " * (MAX_LENGTH - 5))


@pytest.mark.parametrize("text, code", [
    ("x = " + "1" * 1_000_000, "E011"),
    ("x = 1." + "1" * 1_000_000, None),
    ("x = 1e" + "1" * 100_000, "E012"),
    ("x = 1e-" + "1" * 100_000, "E012"),
    ("x = 0." + "0" * 1_000_000 + "1", "E012"),
    ("x = 0x1." + "0" * 100_000 + "p0", None),
    ("x = 0x" + "f" * 1_000_000, "E011"),
    ("x = 0" + "7" * 1_000_000, "E011"),
    ("x = 0" + "0" * 1_000_000 + "10", None),
    ("x = '" + "a''" * 300_000 + "'", None),
    ("x = '" + "a''" * 300_000, "E004"),
    ("x" * 1_000_000 + " = 1", None),
    ("JMS" + "x" * 1_000_000 + " = 1", "E113"),
    ("x = 1" + " " * 1_000_000, None),
    ("(" * 200_000, "E003"),
    (")" * 1_000_000, "E002"),
    ("NOT " * 100_000, "E003"),
    ("x = " + "-" * 200_000 + "1", "E120"),
    ("x = 1 " + "AND " * 250_000, "E014"),
    ("\"" * 1_000_000, "E005"),
    ("x IN (" + "'a', " * 100_000 + ")", "E002"),
])
def test_a_megabyte_of_one_thing(text: str, code: str | None) -> None:
    """Long literals, names, strings, runs of one token: linear, and the message quotes the text cut short."""
    start = time.process_time()
    analysis = sel.analyze(text)
    assert time.process_time() - start < time_budget(len(text))
    assert [d.code for d in analysis.errors][:1] == ([code] if code else [])
    for d in analysis.diagnostics:
        assert len(d.message) < 300 and len(d.hint or "") < 400, d.message[:100]


def test_huge_octal_with_leading_zeros_is_read_without_int_limits() -> None:
    analysis = sel.analyze("x = 0" + "0" * 10_000 + "17")
    assert analysis.valid and [d.code for d in analysis.warnings] == ["W001"]
    assert "its value is 15" in analysis.warnings[0].message


def test_hex_float_with_a_long_fraction_is_exact() -> None:
    """The binary exponent used to be clamped after subtracting the fraction's length: 1.0 overflowed."""
    assert sel.compile("x = 0x1." + "0" * 600 + "p0").evaluate({"x": (DOUBLE, 1.0)}) is True
    assert sel.compile("x = 0x0." + "0" * 600 + "1p2404").evaluate({"x": (DOUBLE, 1.0)}) is True
    assert sel.compile("x = 0x1." + "0" * 600 + "1p0").evaluate({"x": (DOUBLE, 1.0)}) is True  # rounds to 1.0


# ----- linear time ----------------------------------------------------------------------------

SHAPES = {
    "AND chain": lambda k: "x = 1 AND " * k + "x = 1",
    "AND chain, ends in AND": lambda k: "x = 1 AND " * k,
    "IN list": lambda k: "x IN (" + ", ".join(["'abcdef'"] * k) + ")",
    "parentheses": lambda k: "(" * k + "x = 1" + ")" * k,
    "unclosed parentheses": lambda k: "(" * k + "x = 1",
    "NOT chain, unclosed": lambda k: "NOT " * k + "(",
    "numbers in an IN list": lambda k: "x IN (" + ", ".join(["12345678"] * k) + ")",
}


@pytest.mark.parametrize("shape", SHAPES)
def test_analyze_is_linear(shape: str) -> None:
    """Eight times the input takes well under 16 times as long (64 times, were it quadratic)."""
    make = SHAPES[shape]
    k = 2_500

    def seconds(text: str) -> float:
        best = math.inf
        for _ in range(2):
            start = time.process_time()
            sel.analyze(text)
            best = min(best, time.process_time() - start)
        return best

    small, large = make(k), make(8 * k)
    ratio = seconds(large) / max(seconds(small), 1e-3)
    assert ratio < 16, f"{shape}: {ratio:.1f}x for 8x the input"

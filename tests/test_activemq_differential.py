"""Differential test: ``--dialect activemq`` against ActiveMQ Classic's own selector engine.

Random selectors (over a few properties, the headers and literals of every kind, including the
shapes where ActiveMQ departs from the standard) and random messages (each identifier absent or of
one of the Java types, with values at and around the selector's literals) are evaluated by
jmsctl's Python API and by the real engine (tests/activemq_engine.py, Debian libactivemq-java);
every verdict (match, nomatch, error) must agree. Seeded: the same cases every run.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Iterator
from typing import Any

import pytest

from jmsctl import selector as sel
from jmsctl.exceptions import InvalidSelectorException
from jmsctl.messages.decode import decode_message
from tests import activemq_engine

SEED = 14
CASES = 2500
PROPERTIES = ("a", "b", "s", "f", "JMSXGroupID", "JMSXDeliveryCount")
HEADERS = ("JMSPriority", "JMSType", "JMSTimestamp", "JMSDeliveryMode", "JMSCorrelationID", "JMSMessageID",
           "JMSExpiration", "JMSRedelivered")
NUMBERS = ("0", "1", "2", "3", "7", "-7", "10", "2500", "2147483647", "2147483648", "-2147483648",
           "9223372036854775807", "0x10", "0XFF", "0xFFFFFFFF", "010", "5L", "1.5", "2.0", "-0.5", ".5", "1e3",
           "2.5E-1", "1.5f", "3d", "0.1")
STRINGS = ("'x'", "'abc'", "''", "'it''s'", "'PERSISTENT'", "'NON_PERSISTENT'", "'a_c'", "'1'", "'ID:1'")
PATTERNS = ("'a%'", "'%c'", "'_b_'", "'x'", "'a\\_%' ESCAPE '\\'", "'%!%%' ESCAPE '!'", "''", "'%'")


def _ident(r: random.Random) -> str:
    return r.choice(PROPERTIES) if r.random() < 0.7 else r.choice(HEADERS)


def _value(r: random.Random, depth: int) -> str:
    roll = r.random()
    if depth <= 0 or roll < 0.35:
        return _ident(r)
    if roll < 0.6:
        return r.choice(NUMBERS) if r.random() < 0.8 else r.choice((*STRINGS, "TRUE", "FALSE"))
    if roll < 0.9:
        op = r.choice(("+", "-", "*", "/", "/", "%"))
        return f"{_value(r, depth - 1)} {op} {_value(r, depth - 1)}"
    if roll < 0.95:
        return f"-{_value(r, depth - 1)}"
    return f"({_value(r, depth - 1)})"


def _condition(r: random.Random, depth: int) -> str:
    roll = r.random()
    if depth > 0 and roll < 0.25:
        op = r.choice(("AND", "OR"))
        return f"{_condition(r, depth - 1)} {op} {_condition(r, depth - 1)}"
    if depth > 0 and roll < 0.35:
        return f"NOT {_condition(r, depth - 1)}"  # often NOT over an unparenthesised comparison
    if depth > 0 and roll < 0.4:
        return f"({_condition(r, depth - 1)})"
    return _predicate(r, depth)


def _predicate(r: random.Random, depth: int) -> str:
    roll = r.random()
    ident = _ident(r)
    if roll < 0.45:
        op = r.choice(("=", "<>", "<", "<=", ">", ">=", "="))
        left = ident if r.random() < 0.6 else _value(r, 1)
        right = r.choice(NUMBERS + STRINGS) if r.random() < 0.7 else _value(r, 1)
        return f"{left} {op} {right}"
    if roll < 0.55:
        neg = "NOT " if r.random() < 0.3 else ""
        return f"{_value(r, 1)} {neg}BETWEEN {r.choice(NUMBERS)} AND {r.choice(NUMBERS)}"
    if roll < 0.65:
        neg = "NOT " if r.random() < 0.3 else ""
        items = ", ".join(r.sample(STRINGS, r.randint(1, 3)))
        return f"{ident} {neg}IN ({items})"
    if roll < 0.75:
        neg = "NOT " if r.random() < 0.3 else ""
        return f"{ident} {neg}LIKE {r.choice(PATTERNS)}"
    if roll < 0.85:
        return f"{ident} IS {'NOT ' if r.random() < 0.5 else ''}NULL"
    if roll < 0.92:
        return ident
    if roll < 0.96:
        return r.choice(("TRUE", "FALSE"))
    return r.choice(("a = b = c", "a IS NULL IS NULL", "JMSDestination IS NULL", "a <> 1 = FALSE", "größe > 1"))


def _f32(x: float) -> float:
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


RANGES = {"byte": (-128, 127), "short": (-32768, 32767), "int": (-(2**31), 2**31 - 1), "long": (-(2**63), 2**63 - 1)}


def _number_near(r: random.Random) -> float | int:
    base = r.choice((0, 1, 2, 3, 7, -7, 10, 16, 255, 8, 2500, 2**31 - 1, 2**31, -(2**31), 2**32 - 1, -1, 4))
    delta = r.choice((0, 0, 0, 1, -1, 0.5, -0.5, 0.25))
    return base + delta


def _property(r: random.Random) -> dict[str, Any] | None:
    t = r.choice(("string", "boolean", "byte", "short", "int", "long", "float", "double", "int", "long", "string"))
    if t == "string":
        return {"type": "string", "value": r.choice(("x", "abc", "", "it's", "PERSISTENT", "NON_PERSISTENT", "a_c", "1",
                                                      "a%c", "_b_", "ID:1", "%", "2"))}
    if t == "boolean":
        return {"type": "boolean", "value": r.random() < 0.5}
    x = _number_near(r)
    if t in RANGES:
        lo, hi = RANGES[t]
        v = int(x)
        return {"type": t, "value": v} if lo <= v <= hi else None
    return {"type": t, "value": _f32(float(x)) if t == "float" else float(x)}


def _message(r: random.Random) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for name in ("a", "b", "c", "s", "f"):
        if r.random() < 0.75:
            p = _property(r)
            if p is not None:
                props[name] = p
    if r.random() < 0.3:
        props["JMSXGroupID"] = r.choice(("x", "abc", "g1"))
    headers: dict[str, Any] = {}
    if r.random() < 0.5:
        headers["JMSPriority"] = r.choice((0, 4, 7, 9))
    if r.random() < 0.5:
        headers["JMSType"] = r.choice(("x", "abc", "car", "PERSISTENT"))
    if r.random() < 0.4:
        headers["JMSTimestamp"] = r.choice((0, 1, 2500, 1700000000000))
    if r.random() < 0.4:
        headers["JMSDeliveryMode"] = r.choice(("PERSISTENT", "NON_PERSISTENT"))
    if r.random() < 0.3:
        headers["JMSCorrelationID"] = r.choice(("x", "abc", "ID:1"))
    if r.random() < 0.3:
        headers["JMSMessageID"] = r.choice(("ID:1", "ID:x-1-2"))
    if r.random() < 0.2:
        headers["JMSExpiration"] = r.choice((0, 1, 2500))
    if r.random() < 0.2:
        headers["JMSRedelivered"] = r.random() < 0.5
    return {"headers": headers, "properties": props}


def random_cases(seed: int, count: int) -> Iterator[tuple[str, dict[str, Any]]]:
    r = random.Random(seed)
    for _ in range(count):
        yield _condition(r, r.randint(0, 3)), _message(r)


def ours(selector: str, message: dict[str, Any], dialect: str = "activemq") -> str:
    """jmsctl's verdict through the Python API: match, nomatch or error (the selector is rejected)."""
    try:
        compiled = sel.compile(selector, dialect)
    except InvalidSelectorException:
        return "error"
    return "match" if compiled.evaluate(decode_message(message)) is True else "nomatch"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[activemq_engine.Engine]:
    why = activemq_engine.missing()
    if why is not None:
        pytest.skip(f"ActiveMQ's selector engine is not available here: {why}")
    eng = activemq_engine.Engine(tmp_path_factory.mktemp("activemq-harness"))
    yield eng
    eng.close()


def test_the_harness_sees_the_known_differences(engine: activemq_engine.Engine) -> None:
    """The oracle itself: the engine reads NOT tighter, does not truncate, defaults an absent priority."""
    cases = [
        ("NOT a = 1 AND b = 1", {"properties": {"a": 2, "b": 1}}),
        ("a / 2 = 3", {"properties": {"a": 7}}),
        ("JMSPriority BETWEEN 0 AND 9", {}),
        ("a = ", {}),
        ("JMSType = 'car' AND color = 'blue' AND weight > 2500",
         {"headers": {"JMSType": "car"}, "properties": {"color": "blue", "weight": 2600}}),
    ]
    assert engine.verdicts(cases) == ["nomatch", "nomatch", "match", "error", "match"]


def test_activemq_dialect_agrees_with_the_real_engine(engine: activemq_engine.Engine) -> None:
    if "activemq" not in sel.DIALECTS:
        pytest.skip("the activemq dialect is not registered")
    cases = list(random_cases(SEED, CASES))
    theirs = engine.verdicts(cases)
    compared = [(s, m, t, ours(s, m)) for (s, m), t in zip(cases, theirs, strict=True) if t != "unsendable"]
    assert len(compared) > CASES * 9 // 10
    diffs = [d for d in compared if d[2] != d[3]]
    shown = "\n".join(f"  {s!r} on {m}: ActiveMQ {t}, jmsctl {o}" for s, m, t, o in diffs[:15])
    assert not diffs, f"{len(diffs)} of {len(compared)} cases disagree with ActiveMQ {engine_version()}:\n{shown}"


def engine_version() -> str:
    return activemq_engine.version()


def main(argv: list[str]) -> int:
    """``python -m tests.test_activemq_differential [DIALECT] [COUNT] [SEED]``: list the disagreements
    (for whoever fixes the dialect's rule table), one JSON line each."""
    import json
    import tempfile
    from pathlib import Path

    dialect = argv[0] if argv else "activemq"
    count = int(argv[1]) if len(argv) > 1 else CASES
    seed = int(argv[2]) if len(argv) > 2 else SEED
    why = activemq_engine.missing()
    if why is not None:
        print(why)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        eng = activemq_engine.Engine(Path(tmp))
        cases = list(random_cases(seed, count))
        theirs = eng.verdicts(cases)
        raw = eng.last_raw
        eng.close()
    bad = 0
    for (s, m), t, detail in zip(cases, theirs, raw, strict=True):
        o = ours(s, m, dialect)
        if o != t and t != "unsendable":
            bad += 1
            print(json.dumps({"selector": s, "message": m, "activemq": t, "engine_said": detail, "jmsctl": o, "dialect": dialect}))
    print(f"# {bad} of {count} cases disagree (seed {seed}, ActiveMQ {activemq_engine.version()}, jmsctl --dialect {dialect})")
    return 1 if bad else 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))


def test_portability_witnesses_hold_on_the_real_engine(engine: activemq_engine.Engine) -> None:
    """What ``check --portability`` says ActiveMQ does on each witness is what ActiveMQ does."""
    from jmsctl.analysis import portability
    from tests.test_portability import EXAMPLES, MORE

    if "activemq" not in sel.DIALECTS:
        pytest.skip("the activemq dialect is not registered")
    texts = [e[0] for e in EXAMPLES.values() if e is not None] + [t for t, _ in MORE]
    claims: list[tuple[str, dict[str, Any], str]] = []
    for text in texts:
        for report in portability.lint(text, ["activemq"]):
            for w in report.witnesses:
                claims.append((text, w.message, dict(w.verdicts)["activemq"]))
            if report.diagnostic.code == "W020":
                claims.append((text, {}, "error"))
    assert len(claims) >= 8
    theirs = engine.verdicts([(t, m) for t, m, _ in claims])
    checked = [(t, m, v, e) for (t, m, v), e in zip(claims, theirs, strict=True) if e != "unsendable"]
    assert len(checked) >= 8  # witnesses ActiveMQ's client cannot build (JMSXGroupSeq as a long) are not checked
    wrong = [c for c in checked if c[2] != c[3]]
    assert not wrong, wrong

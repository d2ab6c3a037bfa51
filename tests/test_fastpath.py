"""The fast filter path (fastpath + prefilter + parallel) against the plain path (loader +
decode_message + select): same output bytes, same counts, same rejections, on the samples and on
lines built to defeat each shortcut (escapes anywhere, the literal in another field or inside
another string, \\u escapes and surrogate pairs, absent / null / typed / wrongly typed values,
duplicate keys, broken JSON, invalid UTF-8, numbers at the edges of the ranges)."""

from __future__ import annotations

import binascii
import functools
import gzip
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from jmsctl import selector as sel
from jmsctl.cli.app import app
from jmsctl.filter import Counts, parallel, select, select_file, whole
from jmsctl.filter import schema as fastschema
from jmsctl.filter.fast import Engine, sure_function
from jmsctl.filter.plan import FilterPlan, like_runs, needles, required_values, sufficient_values
from jmsctl.messages.jsonkeys import has_duplicate_key
from jmsctl.messages.loader import Record, is_blank, judge_line, read_records, record_too_large
from tests.pathrule import path_verdict

SAMPLES = Path(__file__).parent.parent / "samples"
runner = CliRunner()

SELECTORS = [
    "color = 'blue'",
    "JMSType = 'car' AND color = 'blue' AND weight > 2500",
    "color IN ('blue', 'a\"b', 'x/y')",
    "'blue' = color AND s = 'é😀'",
    "note LIKE '%x/y%' OR s LIKE 'blu_'",
    "s LIKE 'a!_%' ESCAPE '!'",
    "color LIKE 'bl%'",  # the needle '"bl': the String's opening quote
    "color LIKE '%ue'",  # 'ue"': its closing quote
    "color = 'blue' OR JMSType = 'car'",
    "color = 'blue' OR weight > 2500",
    "NOT (color = 'blue')",
    "color <> 'blue'",
    "JMSDeliveryMode = 'PERSISTENT'",
    "JMSDeliveryMode IN ('NON_PERSISTENT') AND color = 'blue'",
    "weight > 2500 OR color IS NULL",
    "s = 'Nordwind Handel'",
    "s = ''",
    "JMSMessageID = 'ID:1' OR JMSCorrelationID = 'c\\d'",
    "JMSType = 'car'",
    "color = 'blue' AND weight BETWEEN 1 AND 3000",
    # a String disjunct that makes the whole TRUE without the view (sure_function)
    "color <> 'blue' OR weight > 2500",
    "color NOT IN ('blue', 'red') OR JMSType = 'car'",
    "'blue' <> color OR weight = 'x'",  # under the IBM reading the unlike types make the whole FALSE
    "JMSType <> 'car' OR color IN ('blue') OR s IS NULL",
    "JMSMessageID <> 'ID:1'",
    # headers with a range or a type of their own (issue 23: 12 is no priority on any path)
    "JMSPriority > 4 AND color = 'blue'",
    "JMSTimestamp > 0 OR JMSPriority < 5 OR JMSDeliveryMode = 'PERSISTENT'",
]

# ----- a JSON writer that escapes at random ---------------------------------------------------

_SHORT = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


class Obj:
    """A JSON object as a list of pairs: duplicate keys allowed."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        self.pairs = pairs


def _u(code: int, rnd: random.Random) -> str:
    text = f"\\u{code:04x}"
    return text.upper().replace("\\U", "\\u") if rnd.random() < 0.5 else text


def enc_str(s: str, rnd: random.Random, p: float) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in '"\\' or o < 0x20 or rnd.random() < p:
            if ch in _SHORT and rnd.random() < 0.5:
                out.append(_SHORT[ch])
            elif o > 0xFFFF:
                o -= 0x10000
                out.append(_u(0xD800 + (o >> 10), rnd) + _u(0xDC00 + (o & 0x3FF), rnd))
            else:
                out.append(_u(o, rnd))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def enc(v: Any, rnd: random.Random, p: float) -> str:
    ws = rnd.choice(["", "", " "])
    before = rnd.choice(["", "", "", "", " ", "\t", "\r"])  # white space before a colon: rare, allowed
    if isinstance(v, Obj):
        return "{" + ws + ",".join(f"{enc_str(k, rnd, p)}{before}:{ws}{enc(x, rnd, p)}" for k, x in v.pairs) + ws + "}"
    if isinstance(v, dict):
        return enc(Obj(list(v.items())), rnd, p)
    if isinstance(v, list):
        return "[" + ",".join(enc(x, rnd, p) for x in v) + "]"
    if isinstance(v, str):
        return enc_str(v, rnd, p)
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e16:
        return repr(v)  # keep the fraction: 2.0, not 2
    return json.dumps(v)


# ----- messages built to defeat the shortcuts --------------------------------------------------

LITERALS = ["blue", "car", "Nordwind Handel", "blu", "bluex", "xblue", "a\"b", "x/y", "é😀", "ID:1", "c\\d", "PERSISTENT", "", "a_z", "blu\n", "a:b", "::", '\\":']
strings = st.one_of(st.sampled_from(LITERALS), st.text(alphabet="abluecr\"\\/é😀 \n_:", max_size=8))
numbers = st.sampled_from([0, 2500, 2501, 2600, 2500.5, -1, 2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64, 10**20, 1e19, 9.3e18, 1e300, -0.0])
typed = st.one_of(
    st.tuples(st.sampled_from(["string"]), strings),
    st.tuples(st.sampled_from(["int", "short", "long", "byte"]), st.sampled_from([1, 2600, 300, -129, 2**31, 3000.5, "7"])),
    st.tuples(st.sampled_from(["float", "double"]), st.sampled_from([2600.25, "NaN", "Infinity", "-Infinity", 3.4028235e38, 3.5e38, 2**63, 10**30, "x"])),
    st.tuples(st.sampled_from(["boolean", "bytes", "integer", "String"]), st.sampled_from([True, "AAE=", 1])),
).map(lambda tv: {"type": tv[0], "value": tv[1]})
# Typed values with a repeated key (msgspec and orjson keep the last one; the loader rejects them).
repeated_typed = st.sampled_from(
    [
        Obj([("type", "int"), ("value", 1), ("value", 2)]),
        Obj([("type", "string"), ("type", "string"), ("value", "blue")]),
        Obj([("value", "blue"), ("type", "string"), ("value", "blue")]),
        Obj([("type", "bytes"), ("value", "AAE="), ("value", "AAE=")]),
        Obj([("value", 3), ("type", "int")]),
    ]
)
values = st.one_of(strings, numbers, st.booleans(), st.none(), typed, repeated_typed, st.just(["blue"]), st.just({"type": "string", "value": "blue", "x": 1}))
names = st.sampled_from(["color", "weight", "s", "note", "JMSType", "JMSDeliveryMode", "x", "JMSCorrelationID"])


@st.composite
def records(draw: Any) -> Any:
    headers: list[tuple[str, Any]] = []
    for name, choices in (
        ("JMSMessageID", st.one_of(strings, st.just(5))),
        ("JMSCorrelationID", strings),
        ("JMSType", st.one_of(strings, st.just(5), st.none())),
        ("JMSDeliveryMode", st.sampled_from([1, 2, "PERSISTENT", "NON_PERSISTENT", 3, None, True, 2.0])),
        ("JMSPriority", st.sampled_from([0, 4, 9, 12, -1, None, "high", 4.0])),
        ("JMSTimestamp", st.sampled_from([1, 2**63, -1, 1.5])),
        ("JMSFoo", st.just(1)),
        ("JMSDestination", st.sampled_from(["queue://a", "topic://b:c", None, 1])),
        ("JMSReplyTo", st.sampled_from(["queue://r", None])),
    ):
        if draw(st.integers(0, 3)) == 0:
            headers.append((name, draw(choices)))
    if headers and draw(st.integers(0, 5)) == 0:  # a header repeated
        headers.append(draw(st.sampled_from(headers)))
    props = draw(st.lists(st.tuples(names, values), max_size=5))  # duplicates allowed
    top: list[tuple[str, Any]] = []
    if draw(st.booleans()):
        top.append(("headers", Obj(headers)))
    top.append(("properties", Obj(props)))
    kind = draw(st.sampled_from([None, "text", "bytes", "map", "stream", "message", "object", "blob"]))
    if kind is not None:
        top.append(("type", kind))
    body = draw(
        st.one_of(
            st.none(),
            strings,
            st.sampled_from(["AAECAw==", "not base64!", "QUJD="]),
            st.dictionaries(st.sampled_from(["k", "color"]), st.one_of(values, st.just({"type": "bytes", "value": "AAE="})), max_size=2),
            st.lists(st.tuples(st.sampled_from(["k", "k:", "k"]), values), max_size=3).map(Obj),  # repeated map keys
            st.lists(st.one_of(values, st.just({"type": "bytes", "value": "%%"})), max_size=2),
        )
    )
    if draw(st.booleans()):
        top.append(("body", body))
    if draw(st.integers(0, 9)) == 0:
        top.append(("extra", 1))
    if draw(st.integers(0, 9)) == 0:  # a duplicate top-level key
        top.append(draw(st.sampled_from([("properties", Obj([("color", "blue")])), ("headers", Obj([]))])))
    rnd = draw(st.randoms(use_true_random=False))
    p = draw(st.sampled_from([0.0, 0.0, 0.2, 1.0]))
    line = enc(Obj(top), rnd, p).encode("utf-8")
    damage = draw(st.integers(0, 14))
    if damage == 0:
        line = line[: draw(st.integers(0, max(0, len(line) - 1)))]
    elif damage == 1:
        at = draw(st.integers(0, len(line)))
        line = line[:at] + draw(st.sampled_from([b"\xff", b"\xed\xa0\x80", b" ", b"\\u", b"blue", b"\t", b"\r"])) + line[at:]
    elif damage == 2:
        line = line + draw(st.sampled_from([b" x", b"\r", b" \r", b"\r\r", b"{}"]))
    elif damage == 3:
        line = draw(st.sampled_from([b"", b"   ", b"\x0c", b"[1]", b"42", b"null", b"\r"]))
    return line


# ----- the comparison -------------------------------------------------------------------------


def plain(selector: sel.Selector, lines: list[bytes], invert: bool, limit: int | None = None) -> tuple[bytes, Counts, list[tuple[str, str, str]]]:
    """The plain path over lines (no terminator, perhaps a trailing b"\\r"), as read_records gives
    them: a line over ``limit`` bytes rejected for its size, blank lines skipped, every other line
    parsed and decoded by the loader's judge of lines."""
    counts = Counts()
    rejected: list[Any] = []
    recs = []
    for i, line in enumerate(lines):
        if limit is not None and len(line) > limit:
            recs.append(Record(f"f:{i + 1}", None, None, record_too_large(len(line), limit)))
        elif not is_blank(line):
            recs.append(judge_line("f", i + 1, line.rstrip(b"\r\n")))
    out = b"".join(r.raw + b"\n" for r in select(selector, recs, counts, invert=invert, on_rejected=rejected.append))
    return out, counts, [(r.location, r.error.field, r.error.reason) for r in rejected]


@functools.cache
def compiled(text: str, dialect: str) -> sel.Selector:
    return sel.compile(text, dialect)


@functools.cache
def engine(text: str, dialect: str, invert: bool, exact: bool, validate_all: bool, limit: int | None = None) -> Engine:
    return Engine(compiled(text, dialect), invert=invert, exact=exact, validate_all=validate_all, name="f", max_record_size=limit)


def check_engine(text: str, lines: list[bytes], dialect: str = "jakarta", limit: int | None = None) -> None:
    selector = compiled(text, dialect)
    chunk = b"".join(line + b"\n" for line in lines)
    for invert in (False, True):
        out, counts, rejected = plain(selector, lines, invert, limit)
        for exact in (True, False):
            for validate_all in (False, True):
                e = engine(text, dialect, invert, exact, validate_all, limit)
                batch = e.process(chunk)
                where = f"{text!r} invert={invert} exact={exact} validate_all={validate_all} limit={limit}"
                assert batch.read == counts.read and batch.lines == len(lines), where
                reported = [(f"f:{i + 1}", fld, reason) for i, _, fld, reason in batch.errors]
                assert batch.rejected == len(reported), where
                if e.partial is not None:  # the default mode: only the selector's paths proved
                    check_path_rule(selector, lines, limit, out, rejected, batch, where)
                    continue
                assert batch.out == out, where
                assert batch.selected == counts.selected and batch.true == counts.true, where
                skipping = e.skip
                if exact:
                    assert (batch.false, batch.unknown, batch.rejected, batch.skipped) == (counts.false, counts.unknown, counts.rejected, 0), where
                else:
                    assert batch.false + batch.unknown + batch.skipped + batch.rejected == counts.false + counts.unknown + counts.rejected, where
                if skipping:
                    # the lines parsed are rejected exactly as the plain path rejects them; the others are skipped
                    assert set(reported) <= set(rejected) and reported == sorted(reported, key=rejected.index), where
                    assert batch.read == batch.true + batch.false + batch.unknown + batch.rejected + batch.skipped, where
                else:
                    assert reported == rejected, where


def check_path_rule(selector: sel.Selector, lines: list[bytes], limit: int | None, out: bytes, rejected: list[Any], batch: Any, where: str) -> None:
    """The default mode against the plain path: every line the plain path selects is selected;
    every other line selected is one the plain path rejects for a field the selector does not
    read, and the rule (``path_verdict``) says TRUE for it; every rejection reported is the
    plain path's; the counts add up."""
    plain_lines = out.split(b"\n")[:-1]  # (not splitlines: a line may hold a b"\r")
    plain_true = set(plain_lines)
    rejected_at = {loc: (fld, reason) for loc, fld, reason in rejected}
    selected = batch.out.split(b"\n")[:-1]
    for i, line in enumerate(lines):
        raw = line.rstrip(b"\r")
        loc = f"f:{i + 1}"
        if raw in plain_true and loc not in rejected_at:
            assert raw in selected, (where, raw)
    for raw in selected:
        if raw in plain_true:
            continue
        assert path_verdict(selector, raw) is True, (where, raw)
        assert any(line.rstrip(b"\r") == raw and f"f:{i + 1}" in rejected_at for i, line in enumerate(lines)), (where, raw)
    assert [x for x in selected if x in plain_true] == plain_lines, where
    reported = [(f"f:{i + 1}", fld, reason) for i, _, fld, reason in batch.errors]
    assert set(reported) <= set(rejected) and reported == sorted(reported, key=rejected.index), where
    assert batch.read == batch.true + batch.false + batch.unknown + batch.rejected + batch.skipped, where
    assert batch.selected == batch.true == len(selected), where
    if limit is not None:  # a line over the size limit is rejected as the loader rejects it, whatever the mode
        over = [(f"f:{i + 1}",) for i, line in enumerate(lines) if len(line) > limit]
        assert all((loc,) in {(r[0],) for r in reported} for (loc,) in over), where


@settings(max_examples=120)
@given(
    st.lists(records(), min_size=1, max_size=12),
    st.sampled_from(SELECTORS),
    st.sampled_from(["jakarta", "ibm"]),
    st.sampled_from([None, None, 40, 90]),
)
def test_fast_equals_plain_on_adversarial_lines(lines: list[bytes], text: str, dialect: str, limit: int | None) -> None:
    check_engine(text, lines, dialect, limit)


def test_fast_equals_plain_on_hand_made_traps() -> None:
    traps = [
        rb'{"properties":{"color":"\u0062lue"}}',  # the literal only through an escape
        rb'{"properties":{"color":"\u0062\u006c\u0075\u0065"},"headers":{"JMSType":"c\u0061r"}}',
        rb'{"properties":{"\u0063olor":"blue"}}',  # the key escaped
        rb'{"properties":{"color":"bl\\ue"}}',  # an escaped backslash: not blue
        rb'{"properties":{"color":"\blue"}}',  # \b is a backspace
        rb'{"properties":{"color":"red","note":"blue"}}',  # the literal in another field
        rb'{"properties":{"color":"navyblue"}}',  # inside a longer string
        rb'{"properties":{"color":"bluebird"}}',  # a longer string starting with it
        rb'{"properties":{"color":"\u0062lue","s":"a_x"}}',  # LIKE 'bl%' / 'a!_%' through escapes only
        rb'{"properties":{"color":"b\u006cue","s":"\u0061_x"}}',
        rb'{"properties":{"color":"xbl","note":"\"blue"}}',  # the needle after an escaped quote, not a String's start
        rb'{"properties":{"color":"bl\u0075e"}}',
        rb'{"properties":{"color":"blu\u0065"}}',  # the closing run escaped
        rb'{"properties":{"color":{"type":"string","value":"blue"}}}',
        rb'{"properties":{"color":{"type":"string","value":"blue"}}}',
        rb'{"properties":{"color":{"type":"string","value":"\u0062lue"}}}',
        rb'{"properties":{"color":null}}',
        rb'{"properties":{"color":7}}',
        rb'{"properties":{"color":["blue"]}}',
        rb'{"properties":{"color":"blue","color":"red"}}',  # duplicate: the last wins
        rb'{"properties":{"color":"red","color":"blue"}}',
        rb'{"properties":{"color":"red"},"properties":{"color":"blue"}}',
        rb'{"headers":{"JMSType":"car"},"headers":{"JMSPriority":4},"properties":{"color":"blue"}}',
        rb'{"properties":{"s":"\u00e9\ud83d\ude00"}}',
        rb'{"properties":{"s":"\u00E9\uD83D\uDE00"}}',
        rb'{"properties":{"color":"a\"b"}}',
        rb'{"properties":{"color":"x\/y"}}',
        rb'{"properties":{"color":"blue","w":99999999999999999999999}}',
        rb'{"properties":{"color":"blue","w":1e19,"weight":9223372036854775808}}',
        rb'{"properties":{"color":"blue","weight":1e19}}',
        rb'{"properties":{"color":"blue","weight":{"type":"float","value":3.4028235e38}}}',
        rb'{"properties":{"color":"blue","weight":{"type":"float","value":3.4028235677973366e38}}}',
        rb'{"properties":{"color":"blue","f":1e400}}',
        b'{"properties":{"color":"blue","c":"\xff"}}',
        b'{"properties":{"color":"blue"},"body":"\xed\xa0\x80"}',
        rb'{"type":"bytes","properties":{"color":"blue"},"body":"QUJD="}',
        rb'{"type":"map","properties":{"color":"blue"},"body":{"i":{"type":"bytes","value":"QQ"}}}',
        rb'{"type":"message","properties":{"color":"blue"},"body":"x"}',
        rb'{"properties":{"color":"blue"},"body":{"a":1}}',
        rb'{"properties":{"color":"blue"},"headers":null}',
        rb'{"properties":{"color":"blue"}} ',
        b'{"properties":{"color":"blue"}}\x0c',
        b"\x0c",
    ]
    lines = traps + [line.replace(b"blue", b"BLUE") for line in traps]
    for text in SELECTORS:
        check_engine(text, lines)
        check_engine(text, lines, "ibm")


def test_prefilter_groups() -> None:
    def groups(text: str) -> list[tuple[tuple[bytes, ...], bytes]]:
        return [(g.needles, g.marker) for g in needles(sel.compile(text).ast)]

    # A whole value (=, IN) is needled with its closing JSON quote, a LIKE's last run with the quote
    # that ends the String; the opening quote is added where the needle would be shorter than 3 bytes.
    assert groups("color = 'blue'") == [((b'blue"',), b"\\u")]
    assert groups("color = 'x/y'") == [((b'x/y"',), b"\\")]  # '/' may be written \/
    assert groups("color = 'blue' OR weight > 1") == []
    assert groups("NOT (color = 'blue')") == []
    assert groups("JMSDeliveryMode = 'PERSISTENT'") == []  # also written 2
    assert groups("color IN ('a', 'bb')") == [((b'"a"', b'bb"'), b"\\u")]
    assert groups("color = 'a' OR color = 'bb'") == [((b'"a"', b'bb"'), b"\\u")]
    assert groups("s = ''") == []
    assert like_runs("a!_b%cd_", "!") == ["a_b", "cd"]
    assert groups("s LIKE 'a!_b%cd_' ESCAPE '!'") == [((b"a_b",), b"\\u")]
    assert groups("s LIKE '%abc%de'") == [((b'de"',), b"\\u")]
    assert groups("s LIKE '%abc%d'") == [((b"abc",), b"\\u")]
    assert groups("s LIKE 'A%'") == [((b'"A',), b"\\u")]
    assert groups("s LIKE 'Ab%'") == [((b'"Ab',), b"\\u")]
    assert groups("s LIKE '_A%'") == [((b"A",), b"\\u")]
    assert groups("s LIKE '%!%' ESCAPE '!'") == [((b'%"',), b"\\u")]  # an escaped wildcard ends the pattern
    assert groups("s LIKE 'ab'") == [((b'ab"',), b"\\u")]


# ----- the command line, end to end --------------------------------------------------------------


def cli(*args: str) -> tuple[int, bytes, str]:
    r = runner.invoke(app, ["filter", *args])
    return r.exit_code, r.stdout_bytes, r.stderr


OPTION_SETS: list[list[str]] = [
    [],
    ["--stats"],
    ["--invert"],
    ["--invert", "--stats"],
    ["--skip-invalid"],
    ["--skip-invalid", "--stats"],
    ["--count", "--skip-invalid"],
    ["--max-count", "2", "--stats"],
    ["--format", "json"],
    ["--format", "ids", "--stats"],
    ["--format", "pretty"],
    ["--max-record-size", "300", "--stats"],
    ["--max-record-size", "300", "--skip-invalid"],
    ["--max-record-size", "300"],
    ["--max-count", "2"],
    ["--format", "ids"],
]


@pytest.mark.parametrize("sample", ["orders.ndjson", "bad-records.ndjson", "orders-small.ndjson", "orders.json"])
@pytest.mark.parametrize("text", ["JMSType = 'car' AND color = 'blue' AND weight > 2500", "customer = 'Rocket 🚀 Parts'", "weight > 0"])
def test_cli_fast_equals_plain_on_samples(sample: str, text: str) -> None:
    for options in OPTION_SETS:
        args = [text, str(SAMPLES / sample), *options]
        expected = cli(*args, "--engine", "plain")
        assert cli(*args, "--validate-all") == expected, options
        if len(options) < 2:
            assert cli(*args, "--engine", "noprefilter", "--validate-all") == expected, options
        # By default a line the prefilter proves unselectable is not parsed: the same output, and
        # the rejections of the lines parsed (all of them when nothing was let go).
        code, out, err = cli(*args)
        assert out == expected[1], options
        reported, everything = err.splitlines(), expected[2].splitlines()
        assert [line for line in everything if line in reported] == reported, options
        assert code == expected[0] or (expected[0] == 2 and len(reported) < len(everything)), options


def _dump(path: Path, n: int) -> None:
    rnd = random.Random(5)
    with path.open("wb") as f:
        for i in range(n):
            color = rnd.choice(["blue", "red", "green"])
            line = (
                f'{{"type":"text","headers":{{"JMSMessageID":"ID:{i}","JMSType":"{rnd.choice(["car", "bike"])}"}},'
                f'"properties":{{"color":"{color}","weight":{rnd.randint(1, 5000)}}},"body":"<o id=\\"{i}\\"/>"}}'
            )
            if i % 997 == 0:
                line = line[:-5]  # a broken record now and then
            if i % 1009 == 0:
                line = line.replace('"blue"', '"\\u0062lue"')
            f.write(line.encode() + (b"\r\n" if i % 13 == 0 else b"\n"))
            if i % 5000 == 0:
                f.write(b"\n")  # a blank line


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "dump.ndjson"
    _dump(path, 60_000)  # about 8 MB: many parallel blocks at a small block size
    return path


@pytest.mark.skipif(not parallel.available(), reason="needs fork")
@pytest.mark.parametrize(
    "options", [{}, {"exact": False}, {"invert": True}, {"exact": False, "validate_all": True}, {"exact": False, "keep_lines": True}, {"keep_lines": True}]
)
def test_jobs_equal_one_job(big: Path, monkeypatch: pytest.MonkeyPatch, options: dict[str, bool]) -> None:
    monkeypatch.setattr(parallel, "BLOCK_SIZE", 256 << 10)
    monkeypatch.setattr(parallel, "PIECE_SIZE", 24 << 10)  # each block processed in about ten pieces
    selector = sel.compile("JMSType = 'car' AND color = 'blue' AND weight > 2500")

    def run(jobs: int) -> tuple[list[Any], Counts, list[Any]]:
        counts = Counts()
        rejected: list[Any] = []
        items = list(select_file(selector, str(big), counts, jobs=jobs, on_rejected=rejected.append, **options))
        return [(i.out, i.kept) for i in items], counts, [(r.location, r.raw, r.error.reason) for r in rejected]

    one = run(1)
    two = run(2)
    assert b"".join(o for o, _ in one[0]) == b"".join(o for o, _ in two[0])
    assert [k for _, kept in one[0] for k in kept] == [k for _, kept in two[0] for k in kept]
    assert one[1] == two[1] and one[2] == two[2]
    assert one[1].read == 60_000
    if options.get("exact", True) or options.get("validate_all") or options.get("invert"):
        assert one[1].rejected == 61 and len(one[2]) == 61
    else:  # the broken lines the prefilter let go unparsed are skipped, not rejected
        assert 0 < one[1].rejected == len(one[2]) < 61 and one[1].skipped > 50_000


@pytest.mark.skipif(not parallel.available(), reason="needs fork")
def test_cli_jobs_in_a_subprocess(big: Path) -> None:
    text = "JMSType = 'car' AND color = 'blue'"
    base = [sys.executable, "-m", "jmsctl", "filter", text, str(big), "--stats"]
    one = subprocess.run([*base, "--jobs", "1"], capture_output=True)
    two = subprocess.run([*base, "--jobs", "2"], capture_output=True)
    assert one.returncode == two.returncode == 2  # the broken records
    assert one.stdout == two.stdout and one.stderr == two.stderr
    assert one.stdout.count(b"\n") > 1000


@pytest.mark.skipif(not parallel.available(), reason="needs fork")
@pytest.mark.parametrize("options", [[], ["--invert"], ["--validate-all"], ["--format", "ids"]])
def test_workers_write_the_output_themselves_in_order(big: Path, tmp_path: Path, options: list[str]) -> None:
    """With --jobs 2 and NDJSON output to a real file, the workers write their blocks to the
    descriptor in turn: the same bytes as one process, to stdout and through --output."""
    text = "JMSType = 'car' AND color = 'blue'"
    base = [sys.executable, "-m", "jmsctl", "filter", text, str(big), *options]
    one = subprocess.run([*base, "--jobs", "1"], capture_output=True)
    with (tmp_path / "stdout").open("wb") as f:
        two = subprocess.run([*base, "--jobs", "2"], stdout=f, stderr=subprocess.PIPE)
    assert (tmp_path / "stdout").read_bytes() == one.stdout and two.stderr == one.stderr and two.returncode == one.returncode
    assert one.stdout.count(b"\n") > 1000
    written = subprocess.run([*base, "--jobs", "2", "--skip-invalid", "-o", str(tmp_path / "out")], capture_output=True)
    assert written.returncode == 0 and written.stdout == b"" and written.stderr == b""
    if "--format" not in options:
        assert (tmp_path / "out").read_bytes() == one.stdout


@pytest.mark.skipif(not parallel.available(), reason="needs fork")
def test_workers_write_after_what_the_parent_buffered(big: Path, tmp_path: Path) -> None:
    """A small file (filtered by the parent, its lines in the parent's buffer), the large one (by
    workers, straight to the descriptor), the small one again: the output in argument order."""
    small = tmp_path / "small.ndjson.gz"  # .gz: always read by the parent
    small.write_bytes(gzip.compress(b"".join(line + b"\n" for line in big.read_bytes().splitlines()[:50])))
    base = [sys.executable, "-m", "jmsctl", "filter", "JMSType = 'car'", str(small), str(big), str(small), "--skip-invalid"]
    one = subprocess.run([*base, "--jobs", "1"], capture_output=True)
    with (tmp_path / "stdout").open("wb") as f:
        two = subprocess.run([*base, "--jobs", "2"], stdout=f, stderr=subprocess.PIPE)
    assert two.returncode == one.returncode == 0 and two.stderr == one.stderr == b""
    assert (tmp_path / "stdout").read_bytes() == one.stdout and one.stdout.count(b"\n") > 1000
    three = subprocess.run([*base, "--jobs", "2", "-o", str(tmp_path / "out")], capture_output=True)  # a buffered file of its own
    assert three.returncode == 0 and (tmp_path / "out").read_bytes() == one.stdout


@pytest.mark.skipif(not parallel.available(), reason="needs fork")
def test_workers_stop_quietly_when_the_output_is_closed(big: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "jmsctl", "filter", "weight > 0", str(big), "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"{")
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141
    # Nothing but the broken first record (the first lines are always validated: they tell a dump from another file).
    assert [line.split(b": ")[2] for line in err.splitlines()] == [f"{big}:1".encode()], err


# ----- repeated keys and record size: the proofs the fast path uses instead of the exact scan ------

REPEATED_KEY_TRAPS = [
    rb'{"properties":{"color":"blue","color":"blue"}}',
    rb'{"properties":{"color":"blue","c\u006flor":"blue"}}',  # the same key, escaped
    rb'{"headers":{"JMSType":"car","JMSType":"car"},"properties":{"color":"blue"}}',
    rb'{"headers":{"JMSMessageID":"ID\u003a1","JMSType":"car"},"properties":{"color":"blue","color":"blue"}}',  # an escaped colon
    rb'{"headers":{"JMSMessageID":"ID:1"},"properties":{"color":"blue","note":"a:b","note":"c"}}',  # a colon in a string
    rb'{"properties":{"color" :"blue","color":"blue"}}',  # white space before a colon
    b'{"properties":{"color"\t:"blue","x":1,"x":1}}',
    rb'{"properties":{"color":"blue","w":{"type":"int","value":1,"value":2}}}',  # inside a typed value
    rb'{"properties":{"color":"blue","w":{"type":"int","type":"int","value":1}}}',
    rb'{"properties":{"color":"blue"},"properties":{"color":"blue"}}',  # top level
    rb'{"type":"text","type":"text","properties":{"color":"blue"}}',
    rb'{"type":"map","properties":{"color":"blue"},"body":{"k":1,"k":1}}',  # a map body
    rb'{"type":"map","properties":{"color":"blue"},"body":{"k":{"type":"bytes","value":"AAE=","value":"AAE="}}}',
    rb'{"type":"stream","properties":{"color":"blue"},"body":[{"type":"int","value":1,"value":1}]}',
    rb'{"properties":{"color":"blue","n":"x\":\":"},"headers":{"JMSType":"car","JMSType":"car"}}',  # '":' inside a string
    rb'{"properties":{"color":"blue"},"body":"a:b:c","body":"a"}',
    rb'{"headers":{"JMSDestination":"queue://x","JMSDestination":"queue://x"},"properties":{"color":"blue"}}',
    rb'{"headers":{},"properties":{},"body":null,"headers":{}}',
    rb'{"properties":{"color":"blue","":1,"":1}}',
]


def test_repeated_keys_rejected_as_the_plain_path_does() -> None:
    lines = REPEATED_KEY_TRAPS + [line.replace(b"blue", b"red") for line in REPEATED_KEY_TRAPS]
    for text in SELECTORS:
        check_engine(text, lines)
    # every trap is a rejection by the loader, and the fast path reports the same
    for raw in REPEATED_KEY_TRAPS:
        assert judge_line("f", 1, raw).error is not None, raw


@settings(max_examples=300)
@given(records())
def test_keys_unique_is_a_proof(raw: bytes) -> None:
    """Whenever the cheap count proves that no key repeats, the exact scan agrees."""
    made = fastschema.TYPED_MADE
    try:
        made.clear()
        rec = fastschema.decode(raw.rstrip(b"\r"))
    except ValueError:
        return
    if fastschema.keys_unique(raw.rstrip(b"\r"), rec, len(made)):
        assert not has_duplicate_key(raw.rstrip(b"\r")), raw


@settings(max_examples=500)
@given(st.text(alphabet="ABQaz09+/=-_ \n\x00é", max_size=14))
def test_schema_base64_no_laxer_than_the_loader(text: str) -> None:
    """msgspec's base64 (bytes and object bodies, bytes values) accepts only what the loader's
    binascii.a2b_base64(strict_mode=True) accepts: anything else goes to the plain path."""
    try:
        msgspec.json.decode(json.dumps(text).encode(), type=bytes)
    except msgspec.ValidationError:
        return
    binascii.a2b_base64(text, strict_mode=True)  # raises if the loader would reject it


def test_record_size_limit_as_the_loader_applies_it() -> None:
    lines = [
        rb'{"properties":{"color":"blue"}}',
        rb'{"properties":{"color":"blue","pad":"' + b"x" * 50 + b'"}}',
        rb'{"properties":{"color":"blue"}}' + b"\r",
        b"",
        b" " * 80,
    ]
    for limit in (31, 32, 33, 60, 100):
        for text in SELECTORS[:3]:
            check_engine(text, lines, limit=limit)


@pytest.mark.skipif(not parallel.available(), reason="needs fork")
def test_lines_over_the_size_limit_in_parallel_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines far longer than a block and than the limit: rejected with the loader's words, at their
    line numbers, by one process, by workers (read in pieces) and by the plain path alike."""
    monkeypatch.setattr(parallel, "BLOCK_SIZE", 16 << 10)
    monkeypatch.setattr(parallel, "PIECE_SIZE", 4 << 10)  # pieces shorter than the long lines under the limit
    path = tmp_path / "big-lines.ndjson"
    rnd = random.Random(3)
    with path.open("wb") as f:
        for i in range(3000):
            color = rnd.choice(["blue", "red"])
            pad = "x" * (rnd.choice([200_000, 60_000]) if i % 401 == 7 else 10)
            f.write(f'{{"headers":{{"JMSMessageID":"ID:{i}"}},"properties":{{"color":"{color}","pad":"{pad}"}}}}'.encode() + (b"\r\n" if i % 5 == 0 else b"\n"))
    selector = sel.compile("color = 'blue'")
    limit = 100_000

    def run(jobs: int) -> tuple[bytes, Counts, list[Any]]:
        counts = Counts()
        rejected: list[Any] = []
        out = b"".join(i.out for i in select_file(selector, str(path), counts, jobs=jobs, on_rejected=rejected.append, max_record_size=limit))  # type: ignore[union-attr]
        return out, counts, [(r.location, r.error.reason) for r in rejected]

    counts = Counts()
    rejected: list[Any] = []
    plain_out = b"".join(r.raw + b"\n" for r in select(selector, read_records(str(path), limit), counts, on_rejected=rejected.append))
    expected = (plain_out, counts, [(r.location, r.error.reason) for r in rejected])
    assert counts.rejected > 0 and "record too large" in rejected[0].error.reason
    assert run(1) == expected
    assert run(2) == expected


def test_required_values() -> None:
    def required(text: str) -> list[tuple[str, list[str]]]:
        return [(name, sorted(allowed)) for name, allowed in required_values(sel.compile(text).ast)]

    assert required("JMSType = 'car' AND color = 'blue' AND weight > 2500") == [("JMSType", ["car"]), ("color", ["blue"])]
    assert required("'blue' = color AND s IN ('a', 'b')") == [("color", ["blue"]), ("s", ["a", "b"])]
    assert required("color = 'blue' OR x = 'y'") == []
    assert required("NOT color = 'blue'") == [] and required("color <> 'blue'") == []
    assert required("JMSDeliveryMode = 'PERSISTENT'") == []  # also written 2
    assert required("s IN ('a', 'b') AND t NOT IN ('c')") == [("s", ["a", "b"])]


def test_sufficient_values() -> None:
    def sufficient(text: str) -> list[tuple[str, bool, list[str]]]:
        return [(name, inside, sorted(strings)) for name, inside, strings in sufficient_values(sel.compile(text).ast)]

    assert sufficient("region <> 'APAC' OR JMSDeliveryMode = 'PERSISTENT'") == [("region", False, ["APAC"])]
    assert sufficient("'a' = s OR t NOT IN ('b', 'c') OR u IN ('d') OR w > 1") == [("s", True, ["a"]), ("t", False, ["b", "c"]), ("u", True, ["d"])]
    assert sufficient("s = 'a'") == [("s", True, ["a"])]
    assert sufficient("s = 'a' AND t = 'b'") == []  # one conjunct does not make an AND TRUE
    assert sufficient("NOT s = 'a'") == [] and sufficient("(s = 'a' OR t = 'b') AND u = 'c'") == []
    assert sufficient("JMSDeliveryMode <> 'PERSISTENT' OR JMSDeliveryMode IN ('NON_PERSISTENT')") == []
    ibm = sel.compile("s = 'a' OR w = 'x'", "ibm")
    assert sure_function(FilterPlan.of(ibm.ast, ibm.dialect)) is None  # unlike types poison the whole under IBM
    sure = sure_function(FilterPlan.of(sel.compile("JMSType <> 'car' OR color IN ('blue', 'red')").ast))
    assert sure is not None
    for raw, expected in [
        (b'{"headers":{"JMSType":"van"}}', True),
        (b'{"headers":{"JMSType":"car"},"properties":{"color":{"type":"string","value":"red"}}}', True),
        (b'{"headers":{"JMSType":"car"},"properties":{"color":"green"}}', False),
        (b'{"headers":{"JMSPriority":4},"properties":{"color":7,"JMSType":"van"}}', False),  # a property named like a header is not it
        (b"{}", False),
    ]:
        assert sure(fastschema.decode(raw)) is expected, raw


def test_lines_with_and_without_type_in_any_order() -> None:
    """The loop tries the untyped decode first after lines without "type": typed lines that do not
    start with it, broken lines of both kinds and escaped keys in between are judged as the plain
    path judges them."""
    bare = [rb'{"properties":{"weight":%d,"color":"blue"},"body":"t"}' % i for i in range(4)]
    lines = [
        *bare,
        rb'{"properties":{"weight":5,"color":"blue"},"body":{"k":1},"type":"map"}',  # typed, "type" last
        *bare,
        rb'{"headers":{"JMSType":"car"},"type":"text","properties":{"weight":6,"color":"blue"}}',
        rb'{"properties":{"weight":7,"color":"blue"},"body":"x","typ":"text"}',  # neither: rejected
        rb'{"properties":{"weight":8,"color":"blue"},"body":{"k":1}}',  # a map body without "type": rejected
        rb'{"t\u0079pe":"text","properties":{"weight":9,"color":"blue"}}',  # "type" escaped
        rb'{"type":"text","properties":{"weight":10,"color":"blue"},"body":"x"}',
        *bare,
        rb'{"properties":{"weight":11,"color":"blue"}, "type":"message"}',
        rb'{"properties":{"weight":12,"color":"blue"},"type":"bytes","body":"not base64!"}',  # rejected
    ]
    for text in ("weight > 3", "weight > 3 AND color = 'blue'", "color = 'blue'"):
        check_engine(text, lines)
    # and only the broken lines needed the plain path: the decodes vouched for the others
    e = Engine(compiled("weight > 3", "jakarta"), exact=True, name="f")
    sent: list[bytes] = []
    plain_path = whole.plain
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(whole, "plain", lambda s, raw: (sent.append(raw), plain_path(s, raw))[1])
        assert e.process(b"".join(line + b"\n" for line in lines)).read == len(lines)
    assert sent == [lines[10], lines[11], lines[-1]]


def test_lines_nested_deeper_than_msgspec_reads() -> None:
    """msgspec raises RecursionError near 1,000 levels, orjson reads 1,024: the plain path judges."""
    lines = [b'{"properties":{"color":"blue","x":' + b"[" * depth + b"]" * depth + b"}}" for depth in (900, 1000, 1023, 1024, 1025, 3000)]
    lines += [b'{"properties":{"color":"blue","x":' + b'{"a":' * 1100 + b"1" + b"}" * 1100 + b"}}"]
    for text in SELECTORS[:3]:
        check_engine(text, lines)


def test_the_plan_is_computed_once_and_read_by_every_path() -> None:
    """One FilterPlan per selector: the Engine's, the one parallel workers inherit, Spark's."""
    selector = sel.compile("JMSType = 'car' AND color IN ('blue', 'red') AND weight > 2500")
    plan = FilterPlan.of(selector.ast, selector.dialect)
    assert plan.identifiers == ("JMSType", "color", "weight")
    assert [g.needles for g in plan.must_contain] == [(b'car"',), (b'blue"', b'red"')]
    assert plan.required == (("JMSType", frozenset({"car"})), ("color", frozenset({"blue", "red"})))
    assert plan.sufficient == ()
    assert plan == FilterPlan.of(selector.ast) and hash(plan) == hash(FilterPlan.of(selector.ast))  # frozen, a value
    with pytest.raises(AttributeError):
        plan.required = ()  # type: ignore[misc]
    assert Engine(selector, exact=False).plan == plan
    assert Engine(selector, exact=False, plan=plan).plan is plan
    assert FilterPlan.of(None) == FilterPlan()


def test_default_mode_proves_the_selector_paths_only() -> None:
    """filter's default mode vouches for the values the selector reads and for the line's JSON; a
    defect elsewhere is --validate-all's to find (README "What filter proves")."""
    selector = sel.compile("weight > 100")
    elsewhere = [  # broken only where the selector does not read: selected by default
        b'{"properties":{"weight":200},"bogus":1}',
        b'{"type":"bytes","properties":{"weight":200},"body":"not base64!"}',
        b'{"properties":{"weight":200,"other":[1]},"headers":{"JMSPriority":12}}',
        b'{"type":"map","properties":{"weight":200},"body":{"k":1,"k":2}}',
    ]
    on_the_path = [  # rejected by default, exactly as the plain path rejects them
        b'{"properties":{"weight":200,"weight":50}}',
        b'{"properties":{"weight":{"type":"int","value":200,"value":5}}}',
        b'{"properties":{"weight":{"type":"int","type":"int","value":200}}}',
        b'{"properties":{"weight":{"type":"int","value":5,"value":200}}}',
        b'{"properties":{"weight":{"value":5,"type":"int","value":200}}}',
        b'{"properties":{"weight":{"type":"double","value":"NaN","value":200.5}}}',
        b'{"properties":{"weight":200},"properties":{"weight":5}}',
        b'{"properties":{"w\\u0065ight":200,"weight":5}}',
        b'{"properties":{"weight":[200]}}',
        b'{"properties":{"weight":{"type":"byte","value":200}}}',
        b'{"properties":{"weight":200},"body":"\xff"}',
        b'{"properties":{"weight":200},"x":1,}',
        b'{"properties":{"weight":200}',
        b'[{"properties":{"weight":200}}]',
    ]
    whole = [  # a path key also elsewhere on the line: judged whole, valid, selected
        b'{"properties":{"weight":200,"note":"weight"}}',
        b'{"properties":{"weight" : { "type" : "int" , "value" : 200 } }}',
        b'{"properties":{"weight":{"type":"double","value":"Infinity"},"n":{"type":"string","value":"}:"}}}',
        b'{"type":"map","properties":{"weight":{"type":"long","value":300}},"body":{"weight":1}}',
    ]
    lines = elsewhere + on_the_path + whole
    chunk = b"".join(x + b"\n" for x in lines)
    plain_out, counts, rejected = plain(selector, lines, False)
    assert counts.rejected == len(elsewhere) + len(on_the_path) and plain_out == b"".join(x + b"\n" for x in whole)
    batch = Engine(selector, exact=False, name="f").process(chunk)
    assert batch.out == b"".join(x + b"\n" for x in elsewhere + whole)
    assert [(f"f:{i + 1}", fld, reason) for i, _, fld, reason in batch.errors] == rejected[len(elsewhere) :]
    assert batch.true == len(elsewhere) + len(whole) and batch.read == len(lines)
    for strict in (Engine(selector, exact=False, validate_all=True, name="f"), Engine(selector, exact=True, name="f"), Engine(selector, exact=False, partial=False, name="f")):
        b = strict.process(chunk)
        assert b.out == plain_out and [(f"f:{i + 1}", fld, reason) for i, _, fld, reason in b.errors] == rejected
    assert all(path_verdict(selector, x) is True for x in elsewhere + whole)
    assert all(path_verdict(selector, x) is None for x in on_the_path)


@settings(max_examples=150)
@given(st.lists(records(), min_size=1, max_size=10), st.sampled_from(SELECTORS))
def test_the_path_decode_never_changes_a_verdict_on_a_valid_line(lines: list[bytes], text: str) -> None:
    """On lines the plain path accepts, the default mode's verdicts are the plain path's, line by
    line (a line the plain path rejects is checked against the rule by check_engine)."""
    selector = compiled(text, "jakarta")
    valid = [x for x in lines if not is_blank(x) and judge_line("f", 1, x.rstrip(b"\r")).message is not None]
    e = Engine(selector, exact=False, name="f")
    for line in valid:
        raw = line.rstrip(b"\r")
        record = judge_line("f", 1, raw)
        assert record.message is not None
        expected = selector.evaluate(record.message.selector_values())
        batch = e.process(raw + b"\n")
        assert batch.rejected == 0 and (batch.true == 1) is (expected is True), (text, raw)
        if e.partial is not None and batch.skipped == 0:
            assert (batch.false, batch.unknown) == (int(expected is False), int(expected is None)), (text, raw)


def test_a_typed_string_on_the_path_with_a_key_twice() -> None:
    selector = sel.compile("color = 'blue'")
    lines = [
        b'{"properties":{"color":{"type":"string","value":"a}","value":"blue"}}}',
        b'{"properties":{"color":{"type":"string","value":"b}:lue"}}}',
        b'{"properties":{"color":{"type":"string","value":"blue"}}}',
    ]
    chunk = b"".join(x + b"\n" for x in lines)
    out, _counts, rejected = plain(selector, lines, False)
    batch = Engine(selector, exact=False, name="f").process(chunk)
    assert batch.out == out == lines[2] + b"\n"
    assert [(f"f:{i + 1}", fld, reason) for i, _, fld, reason in batch.errors] == rejected and len(rejected) == 1


def test_no_path_decode_where_the_view_reads_more() -> None:
    """A broker dialect's evaluator and a broker header name (the header, else a property so
    named) read more than the path decode would: those selectors validate whole records."""
    assert Engine(sel.compile("weight > 100"), exact=False).partial is not None
    assert Engine(sel.compile("weight > 100", "artemis"), exact=False).partial is None
    assert Engine(sel.compile("JMSExpiration > 0", "artemis"), exact=False).partial is None
    assert Engine(sel.compile("weight > 100"), exact=False, validate_all=True).partial is None
    assert Engine(sel.compile("weight > 100"), exact=False, invert=True).partial is None
    assert Engine(sel.compile("weight > 100"), exact=True).partial is None

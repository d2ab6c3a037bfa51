"""A header value outside its type or range (docs/FORMAT.md "Headers": JMSPriority 0..9, JMSTimestamp
a long, JMSDeliveryMode one of four spellings, the String headers strings) is a rejected record on
every filter path that reads it (issue 23): the default path decode, its column kernels, the
per-line loops, --jobs N, stdin, --count, --stats, --validate-all, with the plain path's words and
location, the records `validate` rejects."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from jmsctl import selector as sel
from jmsctl.cli.app import app
from jmsctl.filter import Counts, parallel, select_file

runner = CliRunner()

GOOD = [
    b'{"type":"text","headers":{"JMSPriority":5,"JMSType":"car","JMSTimestamp":7,"JMSDeliveryMode":2},"properties":{"color":"blue","weight":3000},"body":"x"}',
    b'{"type":"text","headers":{"JMSPriority":9,"JMSType":"car","JMSMessageID":"ID:1"},"properties":{"color":"blue","weight":{"type":"int","value":2600}}}',
    b'{"headers":{"JMSPriority":0,"JMSDeliveryMode":"NON_PERSISTENT","JMSCorrelationID":"c"},"properties":{"color":"red","weight":1}}',
]
# Each broken in one header only (the selectors below read it), everything else valid.
BROKEN = [
    b'{"type":"text","headers":{"JMSPriority":12,"JMSType":"car"},"properties":{"color":"blue","weight":3000},"body":"x"}',
    b'{"type":"text","headers":{"JMSPriority":-1,"JMSType":"car"},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSPriority":10},"properties":{"color":"blue","weight":{"type":"int","value":2600}}}',
    b'{"headers":{"JMSPriority":"high"},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSPriority":4.5},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSPriority":true},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSTimestamp":9223372036854775808,"JMSPriority":5},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSTimestamp":-9223372036854775809,"JMSPriority":5},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSTimestamp":"abc","JMSPriority":5},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSTimestamp":1.5,"JMSPriority":5},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSDeliveryMode":3,"JMSPriority":5},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSDeliveryMode":"persistent","JMSPriority":5},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSDeliveryMode":true,"JMSPriority":5},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSType":5,"JMSPriority":5},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSMessageID":7,"JMSPriority":5},"properties":{"color":"blue","weight":3000}}',
    b'{"headers":{"JMSCorrelationID":["c"],"JMSPriority":5},"properties":{"color":"blue","weight":3000}}',
]
LINES = [GOOD[0], *BROKEN[:8], GOOD[1], *BROKEN[8:], GOOD[2]]
ALL_HEADERS = "JMSPriority > 4 OR JMSTimestamp > 0 OR JMSDeliveryMode = 'PERSISTENT' OR JMSType = 'car' OR JMSMessageID = 'x' OR JMSCorrelationID = 'y'"
SELECTORS = [
    ALL_HEADERS,
    # headers and properties in one conjunction / disjunction (the column path's shapes)
    "JMSPriority > 4 AND JMSTimestamp >= 0 AND JMSDeliveryMode <> 'x' AND JMSType IS NOT NULL AND JMSMessageID IS NULL AND JMSCorrelationID IS NULL"
    " AND color = 'blue' AND weight > 2500",
    "NOT (JMSPriority <= 4) OR JMSTimestamp < 0 OR JMSDeliveryMode = 'NON_PERSISTENT' OR JMSType = 'x' OR JMSMessageID = 'x'"
    " OR JMSCorrelationID = 'x' OR color = 'blue' OR weight > 2500",
]


def _cli(*args: str, stdin: bytes | None = None) -> tuple[int, bytes, list[str]]:
    r = runner.invoke(app, ["filter", *args], input=stdin)
    return r.exit_code, r.stdout_bytes, [x for x in r.stderr.splitlines() if x.startswith("jmsctl: error:")]


@pytest.fixture(scope="module")
def dump(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ranges") / "d.ndjson"
    path.write_bytes(b"".join(x + b"\n" for x in LINES))
    return path


def _broken_locations(path: Path) -> list[str]:
    return [f"{path}:{i + 1}" for i, x in enumerate(LINES) if x in BROKEN]


@pytest.mark.parametrize("text", SELECTORS)
def test_every_cli_path_rejects_an_out_of_range_header(dump: Path, text: str) -> None:
    code, out, errors = _cli(text, str(dump), "--engine", "plain")
    assert code == 2 and [e.split(": ")[2] for e in errors] == _broken_locations(dump)
    assert any("headers.JMSPriority: must be an integer 0..9, not 12" in e for e in errors)
    assert all(x.rstrip(b"\n") in GOOD for x in out.splitlines())
    for options in ([], ["--engine", "whole"], ["--engine", "noprefilter"], ["--stats"], ["--validate-all"]):
        got = _cli(text, str(dump), *options)
        assert (got[0], got[2]) == (code, errors), options
        if "--stats" not in options:
            assert got[1] == out, options
    count = _cli(text, str(dump), "--count")
    assert count[2] == errors and count[1].split() == [str(len(out.splitlines())).encode()]
    piped = _cli(text, "-", stdin=dump.read_bytes())
    assert piped[1] == out and [e.replace("<stdin>", str(dump)) for e in piped[2]] == errors


def test_validate_rejects_the_same_records(dump: Path) -> None:
    r = runner.invoke(app, ["validate", str(dump)])
    assert r.exit_code != 0
    flagged = sorted({line.split()[1] for line in r.stdout.splitlines() if line.strip().startswith("-->")}, key=lambda loc: int(loc.rsplit(":", 1)[1]))
    assert flagged == _broken_locations(dump)


@pytest.mark.parametrize("text", SELECTORS)
def test_engine_and_column_path_reject_them(text: str) -> None:
    """The Engine's default mode on the chunk (column kernels when the shape has one), in chunks
    of many lines (one map per chunk) and with the lines one by one (the per-line loops)."""
    from jmsctl.filter.fast import Engine

    selector = sel.compile(text)
    many = LINES * 50
    for exact in (False, True):
        e = Engine(selector, exact=exact, name="f")
        b = e.process(b"".join(x + b"\n" for x in many))
        assert b.rejected == len(BROKEN) * 50 and b.true == sum(1 for x in many if x in GOOD and selector.evaluate(_values(x)) is True)
        assert {raw for _, raw, _, _ in b.errors} == set(BROKEN)
        for x in LINES:
            one = e.process(x + b"\n")
            assert one.rejected == (x in BROKEN), (exact, x)


def _values(line: bytes) -> Any:
    from jmsctl.messages.loader import judge_line

    record = judge_line("f", 1, line)
    assert record.message is not None
    return record.message.selector_values()


@pytest.mark.skipif(not parallel.available(), reason="needs fork")
def test_jobs_reject_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.ndjson"
    path.write_bytes(b"".join(x + b"\n" for x in LINES * 2000))  # ~200 kB: many blocks of 16 kB
    monkeypatch.setattr(parallel, "BLOCK_SIZE", 16 << 10)
    selector = sel.compile(SELECTORS[1])

    def run(jobs: int) -> tuple[bytes, Counts, list[Any]]:
        counts = Counts()
        rejected: list[Any] = []
        out = b"".join(s.out for s in select_file(selector, str(path), counts, jobs=jobs, exact=False, on_rejected=rejected.append))
        return out, counts, [(r.location, r.error.field, r.error.reason) for r in rejected]

    one, two = run(1), run(2)
    true = sum(1 for x in GOOD if selector.evaluate(_values(x)) is True)
    assert one == two and one[1].rejected == len(BROKEN) * 2000 and one[1].true == true * 2000 and true > 0
    base = [sys.executable, "-m", "jmsctl", "filter", SELECTORS[0], str(path)]
    sub = subprocess.run([*base, "--jobs", "2", "--count"], capture_output=True, timeout=120)
    assert sub.returncode == 2 and sub.stdout.split() == [b"4000"]
    assert b"headers.JMSPriority: must be an integer 0..9, not 12" in sub.stderr
    assert f"({len(BROKEN) * 2000:,} in this file".encode() in sub.stderr  # the first 100 shown, the rest counted

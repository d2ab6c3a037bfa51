"""How diff, overlap and coverage answers read for a person (issue 35 items 26, 27): overlap's matrix
with the overlapping pairs first, one spelling per float, the promotion where it decides, plain
letters where any string will do, a coverage gap on a message that has what the selectors read,
--witness FILE, W041's wording."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jmsctl.analysis import solver, vacuity
from jmsctl.cli.app import app
from jmsctl.cli.sets import witness_json

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


TWELVE = [f"n = {i}" for i in range(10)] + ["n > 8", "n < 1"]


def test_overlap_text_is_a_matrix_with_the_overlapping_pairs_first(tmp_path: Path) -> None:
    path = tmp_path / "twelve.txt"
    path.write_text("\n".join(TWELVE) + "\n")
    r = run("overlap", "-f", str(path))
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0] == "12 selectors"
    row = next(x for x in lines if x.startswith(" 1  "))
    assert row.split()[1:13].count("X") == 1  # n = 0 overlaps n < 1 only
    pairs = [x for x in lines if x.startswith(("overlap:", "disjoint:", "unknown:"))]
    assert pairs == ["overlap: a message both select"] * 2  # n = 0 / n < 1, n = 9 / n > 8, and nothing else
    assert len(lines) < 40 and "Properties" not in r.output  # not a page per pair; no table per witness
    assert lines[-1] == "64 disjoint, 2 overlap"
    everything = run("overlap", "-f", str(path), "--all")
    assert sum(x.startswith("disjoint:") for x in everything.output.splitlines()) == 64
    assert "Properties" in everything.output


@pytest.mark.parametrize("pair", [("f = 2147483648.0f", "f = 2147483648.0f AND d = 1e20"), ("f = 0.1f", "f = 0.1"),
                                  ("f * 3 = 7", "f > 2"), ("d > 1e20 AND d < 1e21", "d <> 5e20")])
def test_one_spelling_of_a_float_in_json_table_and_explanation(pair: tuple[str, str]) -> None:
    r = run("diff", *pair)
    assert r.exit_code == 1, r.output
    lines = r.output.splitlines()
    witness = next(x for x in lines if x.startswith("  witness: ")).removeprefix("  witness: ")
    numbers = re.findall(r'"(\w+)":(?:\{"type":"(float|double)","value":)?(-?[0-9][0-9.E-]*)', witness)
    assert numbers, witness
    for name, _, spelled in numbers:
        row = next(x for x in lines if x.split()[:1] == [name])
        assert row.split()[2] == spelled, (row, spelled)  # the table
        assert f"{spelled} (" in r.output.split("witness  Message")[0].split(witness)[1]  # the explanation
    doc = {"properties": {"f": {"type": "float", "value": 2147483600.0}, "d": 1e20, "n": {"type": "double", "value": "NaN"}}}
    text = witness_json(doc)
    assert text == '{"properties":{"f":{"type":"float","value":2.1474836E9},"d":1.0E20,"n":{"type":"double","value":"NaN"}}}'
    assert solver.read_witness(json.loads(text)) == solver.read_witness(doc)


def test_the_promotion_is_shown_where_it_decides() -> None:
    r = run("overlap", "f = 16777216.0", "f = 16777217")
    assert r.exit_code == 1
    assert "16777217 (int → float 16777216.0)" in r.output


def test_plain_letters_where_any_string_will_do() -> None:
    answer = solver.never("JMSType LIKE '_' AND JMSType <> 'x'", probes=0)
    assert isinstance(answer, solver.Witness) and answer.message["headers"]["JMSType"].isalpha(), answer
    answer = solver.never("s <> 'x' AND s <> ''", probes=0)
    assert isinstance(answer, solver.Witness) and answer.message["properties"]["s"].isalpha(), answer


def test_a_coverage_gap_has_the_properties_the_selectors_read() -> None:
    answer = solver.coverage(["JMSPriority > 8", "JMSPriority < 6"])
    assert isinstance(answer, solver.Witness) and answer.message["headers"]["JMSPriority"] in (6, 7, 8), answer
    answer = solver.coverage(["x > 8.5", "x < 6", "x BETWEEN 6 AND 8", "x IS NULL"])
    assert isinstance(answer, solver.Witness) and "x" in answer.message.get("properties", {}), answer


def test_witness_file_holds_only_the_witnesses(tmp_path: Path) -> None:
    out = tmp_path / "w.ndjson"
    r = run("overlap", "a > 1", "a < 5", "a = 9", "--witness", str(out), "--format", "json")
    assert r.exit_code == 1
    shown = [json.loads(x)["witness"] for x in r.output.splitlines() if json.loads(x)["witness"]]
    assert [json.loads(x) for x in out.read_text().splitlines()] == shown and len(shown) == 2
    r = run("filter", "a > 1", str(out), "--count")
    assert r.output.strip() == "2"
    r = run("diff", "a > 1", "a > 1", "--witness", str(out))  # equivalent: no witness, an empty file
    assert r.exit_code == 0 and out.read_text() == ""
    r = run("diff", "a > 1", "a < 5", "--witness", str(tmp_path / "no" / "such" / "w.ndjson"))
    assert r.exit_code == 2 and "cannot write" in r.output


def test_w041_wording() -> None:
    (d,) = vacuity.diagnostics("a IS NULL OR a IS NOT NULL")
    assert d.code == "W041" and d.message == "the selector selects every message, as if there were no selector (proved)"

"""The parse table the parser reads (jmsctl/selector/lalr_table.py) is the one lark builds from
grammar.lark, it is the one in use, and it parses every corpus selector as lark's own table does."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from jmsctl.diagnostics import SelectorError
from jmsctl.selector import parser
from jmsctl.selector.lalr_table import TABLE

HERE = Path(__file__).parent
CORPORA = sorted((HERE / "conformance").glob("*.jsonl")) + sorted((HERE / "corpus").glob("*.jsonl"))


def test_the_stored_table_is_what_lark_builds_from_grammar_lark() -> None:
    assert parser.table_json(parser.built_table()) == TABLE, "grammar.lark changed: run python scripts/gen_lalr_table.py"


def test_the_stored_table_reads_back_as_itself() -> None:
    stored = parser.stored_table()
    assert stored is not None
    assert parser.table_json(stored) == TABLE


def test_a_start_reads_the_table_and_never_builds_it() -> None:
    code = (
        "from jmsctl.selector import analyze, parser\n"
        "assert analyze('x = 1 AND AND y').errors[0].code == 'E014'\n"
        "assert analyze(\"a IN ('b') OR c BETWEEN 1 AND 2\").valid\n"
        "print(parser._lark.cache_info().misses, parser._table.cache_info().misses)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=HERE.parent)
    assert done.stdout == "0 1\n", done.stderr


def test_another_grammar_is_built_by_lark(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parser, "grammar_text", lambda: "// edited\n" + (HERE.parent / "jmsctl/selector/grammar.lark").read_text("utf-8"))
    assert parser.stored_table() is None


def _selectors() -> list[str]:
    out = []
    for path in CORPORA:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("//"):
                case = json.loads(line)
                if isinstance(case, dict) and isinstance(case.get("selector"), str):
                    out.append(case["selector"])
    return out


def _parsed(text: str) -> object:
    """The AST with its spans (AST equality leaves them out), or the diagnostic."""
    try:
        ast = parser.parse(text)
    except SelectorError as exc:
        return exc.diagnostic
    return None if ast is None else dataclasses.astuple(ast)


def test_both_tables_parse_every_corpus_selector_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _selectors()
    assert len(texts) > 500
    stored = [_parsed(t) for t in texts]
    built = parser.built_table()
    monkeypatch.setattr(parser, "_table", lambda: built)
    assert [_parsed(t) for t in texts] == stored

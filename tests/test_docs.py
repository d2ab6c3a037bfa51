"""The documents a user reads stand on their own, and say what the engine does.

- No file a user reads (README.md, docs/, samples/, the package's docstrings, help and messages)
  sends the reader to ``../shared``: a clone of the repository does not have it.
- Every relative link of README.md, docs/*.md and samples/README.md resolves, anchors included, and so
  does every ``docs/NAME.md#anchor`` cited in the package (help texts, messages, docstrings), the
  tests, scripts and benches.
- Every example table of docs/SEMANTICS.md holds: each row's selector, on each row's message, gives
  the result the row states, under the dialect of its column.
"""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

import jmsctl
from jmsctl.messages.decode import decode_message

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
SEMANTICS = DOCS / "SEMANTICS.md"
_TEXT_SUFFIXES = {".md", ".py", ".lark", ".txt", ".json", ".jsonl", ".ndjson", ".xml", ".qload", ".toml", ".typed"}


def _user_files() -> list[Path]:
    """What a user of a clone reads: the README, docs/, samples/ and the package itself."""
    files = [ROOT / "README.md"]
    for top in ("docs", "samples", "jmsctl"):
        files += sorted(p for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in _TEXT_SUFFIXES)
    return files


# What exists only in the team's ../shared directory, never in a clone.
_SHARED = re.compile(
    r"\.\./shared\b|/work/shared|\bshared/(?:SEMANTICS|FORMAT|DESIGN|DUMP-FORMATS|spec|conformance|dumps|tools)\b"
    r"|DUMP-FORMATS\.md|DESIGN\.md|SEMANTICS\.md section|(?<![\w/.-])SEMANTICS\.md(?!#)"
)


def _shared_pointers(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    out = []
    for m in _SHARED.finditer(text):
        if path.parent == DOCS and m.group(0) == "SEMANTICS.md":
            continue  # a sibling link inside docs/ (checked to resolve below)
        line = text.count("\n", 0, m.start()) + 1
        out.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0)!r}")
    return out


def test_no_user_file_points_at_shared() -> None:
    found = [hit for path in _user_files() for hit in _shared_pointers(path)]
    assert not found, "user-facing files point at ../shared (point at docs/ instead):\n" + "\n".join(found)


def test_the_shared_pattern_catches_what_it_must() -> None:
    caught = ["see ../shared/SEMANTICS.md", "SEMANTICS.md section 4", "the rulings (SEMANTICS.md)",
              "docs/DUMP-FORMATS.md section 1", "/work/shared/conformance", "shared/FORMAT.md"]
    passed = ["docs/SEMANTICS.md#like", "docs/FORMAT.md", "[rules](SEMANTICS.md#in)", "the shared value model"]
    assert all(_SHARED.search(t) for t in caught)
    assert not any(_SHARED.search(t) for t in passed)


# ----- links and anchors -----------------------------------------------------------------------

_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_HTML_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
_CITED = re.compile(r"\bdocs/([\w.-]+\.md)(?:#([\w-]+))?")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set(_HTML_ID.findall(text))
    for m in _HEADING.finditer(text):
        slug = _slug(m.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _link_problems(path: Path) -> list[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    problems = []
    for m in _LINK.finditer(text):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        where = f"{path.relative_to(ROOT)}: ({target})"
        if not dest.exists():
            problems.append(f"{where}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{where}: no anchor #{anchor} in {dest.relative_to(ROOT)}")
    return problems


def _documents() -> list[Path]:
    return [ROOT / "README.md", ROOT / "samples" / "README.md", *sorted(DOCS.glob("*.md"))]


def test_every_relative_link_resolves() -> None:
    problems = [p for doc in _documents() for p in _link_problems(doc)]
    assert not problems, "\n".join(problems)


def test_readme_links_every_document_in_docs() -> None:
    linked = {m.group(1).partition("#")[0] for m in _LINK.finditer((ROOT / "README.md").read_text(encoding="utf-8"))}
    missing = [f"docs/{p.name}" for p in sorted(DOCS.glob("*.md")) if f"docs/{p.name}" not in linked]
    assert not missing, f"README.md links none of {missing}"


def _citing_files() -> list[Path]:
    out = [ROOT / "README.md"]
    for top in ("jmsctl", "tests", "scripts", "bench"):
        out += sorted(p for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in (".py", ".java", ".sh", ".md", ".lark"))
    return [p for p in out if p != Path(__file__)]  # this file names bad citations on purpose


def test_every_docs_citation_resolves() -> None:
    """``docs/NAME.md#anchor`` in help texts, messages, docstrings and comments names a real section."""
    problems = []
    for path in _citing_files():
        text = path.read_text(encoding="utf-8")
        for m in _CITED.finditer(text):
            name, anchor = m.groups()
            where = f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
            if not (DOCS / name).is_file():
                problems.append(f"{where}: no such document")
            elif anchor and anchor not in anchors(DOCS / name):
                problems.append(f"{where}: no such anchor")
    assert not problems, "\n".join(problems)


def test_anchor_slugs_follow_github() -> None:
    assert _slug("IS NULL") == "is-null"
    assert _slug("Three-valued logic") == "three-valued-logic"
    assert _slug("jmsctl JSON (`ndjson` and `json`)") == "jmsctl-json-ndjson-and-json"
    assert _slug("fmtn-a: the `a` client's JSON dump") == "fmtn-a-the-a-clients-json-dump"


# ----- the example tables of docs/SEMANTICS.md ----------------------------------------------------

_RESULT_COLUMNS = {"result": "jakarta", **{d: d for d in jmsctl.DIALECTS}}
_CODE = re.compile(r"\b[EW]\d{3}\b")


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def _unquote(cell: str) -> str:
    assert cell.startswith("`") and cell.endswith("`"), f"expected a `code` cell: {cell}"
    return cell[1:-1]


def example_rows(text: str) -> list[tuple[int, str, dict, str, str]]:
    """(line, selector, message, dialect, expected) for every row of every table whose first column is 'selector'."""
    rows = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        head = _cells(lines[i]) if lines[i].startswith("|") else []
        if head[:1] != ["selector"] or len(head) < 3:
            i += 1
            continue
        kind, results = head[1], head[2:]
        assert kind in ("properties", "message"), f"docs/SEMANTICS.md:{i + 1}: second column {kind!r}"
        i += 2  # the header and its --- row
        while i < len(lines) and lines[i].startswith("|"):
            cells = _cells(lines[i])
            data = orjson.loads(_unquote(cells[1]))
            message = data if kind == "message" else {"properties": data}
            for column, expected in zip(results, cells[2:], strict=True):
                rows.append((i + 1, _unquote(cells[0]), message, _RESULT_COLUMNS[column], expected))
            i += 1
    return rows


ROWS = example_rows(SEMANTICS.read_text(encoding="utf-8"))


def _answer(selector: str, message: dict, dialect: str, expected: str) -> str:
    """What jmsctl says, in the row's words: the verdict (or 'error CODE'), then the codes the row names."""
    analysis = jmsctl.analyze(selector, dialect)
    if not analysis.valid:
        return f"error {analysis.errors[0].code}"
    verdict = {True: "TRUE", False: "FALSE", None: "UNKNOWN"}[jmsctl.evaluate(selector, decode_message(message), dialect)]
    warned = {d.code for d in analysis.warnings}
    named = _CODE.findall(expected)
    return " ".join([verdict, *(c for c in named if c in warned)])


def test_semantics_has_examples_for_every_rule() -> None:
    assert len(ROWS) > 150
    assert {dialect for _, _, _, dialect, _ in ROWS} == {"jakarta", "ibm", "artemis", "activemq"}


@pytest.mark.parametrize(("line", "selector", "message", "dialect", "expected"), ROWS,
                         ids=[f"L{r[0]}-{r[3]}" for r in ROWS])
def test_semantics_example(line: int, selector: str, message: dict, dialect: str, expected: str) -> None:
    assert _answer(selector, message, dialect, expected) == expected, f"docs/SEMANTICS.md:{line}: {selector}"


@pytest.mark.parametrize("text", ["", "   ", " \t\r\n\f"])
def test_empty_selector_selects_every_message(text: str) -> None:
    assert jmsctl.evaluate(text, jmsctl.plain_values({})) is True


@pytest.mark.parametrize("text", ["x\u000b= 1", "x\u00a0= 1"])
def test_only_java_white_space(text: str) -> None:
    assert [d.code for d in jmsctl.analyze(text).errors] == ["E001"]


# ----- diagnostics cite the rule they enforce -----------------------------------------------------


def test_diagnostics_cite_the_rule_they_enforce() -> None:
    from jmsctl.cli.render import RULES, Source, diagnostic_json, full

    for text, code, rule in [("x LIKE 7", "E106", "docs/SEMANTICS.md#like"), ("JMSDestination = 'q'", "E113", "docs/SEMANTICS.md#headers"),
                             ("x IN (1)", "E105", "docs/SEMANTICS.md#in"), ("017 = 15", "W001", "docs/SEMANTICS.md#integer-literals")]:
        diags = [*jmsctl.analyze(text).errors, *jmsctl.analyze(text).warnings]
        assert diags[0].code == code and RULES[code] == rule
        name, anchor = rule.removeprefix("docs/").split(".md#")
        assert full(Source("<arg>", text), diags[0]).plain.splitlines()[-1] == f"  = rule: jmsctl docs {name}#{anchor}"  # openable when installed
        assert diagnostic_json(Source("<arg>", text), diags[0])["rule"] == rule


def test_every_code_the_readme_lists_for_a_rule_of_semantics_cites_it() -> None:
    """The E0xx/E1xx codes of README's table that enforce a rule of docs/SEMANTICS.md all name its section."""
    from jmsctl.cli.render import RULES

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| (E0\d\d|E1\d\d)\b", readme, re.M))
    beyond = {"E017", "E018", "E120", "E121",  # not rules of the language: a second look at the text, and limits
              "E130", "E131", "E132"}  # the broker dialects' own (docs/dialects.md)
    assert listed - beyond <= set(RULES), sorted(listed - beyond - set(RULES))

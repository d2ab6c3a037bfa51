"""The layering DESIGN.md asks for, enforced: lark only in the parse stage, rich only in the CLI,
pyspark only in jmsctl/spark, and no eval/exec anywhere."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "jmsctl"
LARK_ALLOWED = {"selector/lexer.py", "selector/parser.py", "selector/builder.py"}


@functools.cache
def _trees() -> tuple[tuple[Path, ast.Module], ...]:
    """Every module of the package parsed once for all the tests of this file (each parsed them again:
    a second each, the Java character tables most of it)."""
    return tuple((path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(PACKAGE.rglob("*.py")))


def _modules():
    for path, tree in _trees():
        yield path.relative_to(PACKAGE).as_posix(), tree


def _imports(tree: ast.AST) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def test_lark_is_imported_only_by_the_parse_stage() -> None:
    offenders = [name for name, tree in _modules() if "lark" in _imports(tree) and name not in LARK_ALLOWED]
    assert offenders == []


def test_rich_and_typer_only_in_the_cli() -> None:
    offenders = [name for name, tree in _modules() if _imports(tree) & {"rich", "typer"} and not name.startswith("cli/")]
    assert offenders == []


def test_pyspark_only_in_the_spark_package() -> None:
    offenders = [name for name, tree in _modules() if "pyspark" in _imports(tree) and not name.startswith("spark/")]
    assert offenders == []


def test_no_eval_or_exec() -> None:
    calls = [
        name
        for name, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("eval", "exec", "compile")
    ]
    assert calls == []


def test_ast_nodes_are_frozen() -> None:
    import dataclasses

    from jmsctl.selector import nodes

    for cls in (nodes.Literal, nodes.Identifier, nodes.Unary, nodes.Arithmetic, nodes.Comparison, nodes.Between,
                nodes.InList, nodes.Like, nodes.IsNull, nodes.Not, nodes.And, nodes.Or):
        assert dataclasses.fields(cls) and cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]


# ----- layers and circles (issue 24) ------------------------------------------------------------
# Bottom up: the value model and the javadoc's names; the language and the message model, which never
# import each other; analysis and filter above both; scan, live brokers and Spark; the CLI on top.
# A package may import its own modules and those of the packages listed for it, nothing else.
BASE = {"values", "diagnostics", "exceptions", "javatext", "spec", "cleanup", "outputs", "adapters", "_version", "patch", "valueof"}
LAYERS: dict[str, set[str]] = {
    "base": {"base"},
    "selector": {"base"},
    "messages": {"base"},
    "analysis": {"base", "selector", "messages"},
    "filter": {"base", "selector", "messages"},
    "testcases": {"base", "selector", "messages"},
    "scan": {"base", "selector", "messages", "analysis"},
    "brokers": {"base", "selector", "messages", "analysis", "filter"},
    "spark": {"base", "selector", "messages", "analysis", "filter"},
    "cli": {"base", "selector", "messages", "analysis", "filter", "testcases", "scan", "brokers", "spark", "api"},
    "api": {"base", "selector", "messages", "analysis", "filter"},  # jmsctl/__init__.py: the public names
    "main": {"cli"},
}
# Inside the base layer, the order matters too: spec and values are imported by the others.
BASE_ORDER = {"values": 0, "diagnostics": 0, "cleanup": 0, "_version": 0, "patch": 0, "exceptions": 1, "javatext": 1, "adapters": 1,
              "spec": 1, "outputs": 2, "valueof": 2}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


# A compiled module (jmsctl/filter/_bytecount.c) is named by its stub: an import of it is not one of its package.
MODULES = {_module_name(p) for p in PACKAGE.rglob("*.py")} | {_module_name(p) for p in PACKAGE.rglob("*.pyi")}


def _resolve(name: str) -> str:
    """The module an import names: ``from jmsctl import selector`` is jmsctl.selector."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _graph() -> dict[str, set[str]]:
    """Module -> the jmsctl modules it imports, anywhere in it (lazy imports in functions included)."""
    graph: dict[str, set[str]] = {}
    for path, tree in _trees():
        here = _module_name(path)
        out: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                out.update(_resolve(a.name) for a in node.names if a.name.startswith("jmsctl"))
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.startswith("jmsctl"):
                out.update(_resolve(f"{node.module}.{a.name}") for a in node.names)
        out.discard(here)
        graph[here] = out
    return graph


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "api"
    top = parts[1]
    if top == "__main__":
        return "main"
    return "base" if top in BASE else top


def test_every_package_has_a_layer() -> None:
    assert {_layer(m) for m in MODULES} <= set(LAYERS), "a new package: give it a place in LAYERS"


def test_packages_import_only_the_layers_beneath_them() -> None:
    offenders = []
    for module, imports in _graph().items():
        mine = _layer(module)
        for target in imports:
            theirs = _layer(target)
            if theirs != mine and theirs not in LAYERS[mine]:
                offenders.append(f"{module} imports {target} ({mine} may import {sorted(LAYERS[mine])})")
    assert offenders == []


def test_selector_and_messages_never_import_each_other() -> None:
    graph = _graph()
    crossing = [(m, t) for m, ts in graph.items() for t in ts
                if {_layer(m), _layer(t)} == {"selector", "messages"}]
    assert crossing == []


def test_base_modules_import_downwards_only() -> None:
    offenders = []
    for module, imports in _graph().items():
        if _layer(module) != "base":
            continue
        mine = BASE_ORDER[module.split(".")[1]]
        offenders += [f"{module} -> {t}" for t in imports if _layer(t) == "base" and BASE_ORDER[t.split(".")[1]] >= mine
                      and t.split(".")[1] != module.split(".")[1]]
    assert offenders == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _package_graph() -> dict[str, set[str]]:
    """Package -> packages, where a package is a directory of jmsctl (jmsctl.messages.formats is one)."""
    def package(module: str) -> str:
        return module if any(m.startswith(module + ".") for m in MODULES) else module.rsplit(".", 1)[0]

    out: dict[str, set[str]] = {}
    for module, imports in _graph().items():
        mine = package(module)
        out.setdefault(mine, set()).update(package(t) for t in imports if package(t) != mine
                                           and not mine.startswith(package(t) + "."))
    return out


# Circles being taken apart this session (issue 24); remove an entry with the circle: the list must be
# exactly what is left, so that a new circle fails and a fixed one is struck off.
KNOWN_FILE_CIRCLES: list[list[str]] = []


def test_no_import_circles_between_files() -> None:
    assert sorted(_cycles(_graph())) == sorted(KNOWN_FILE_CIRCLES)


def test_no_import_circles_between_packages() -> None:
    assert _cycles(_package_graph()) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


MAX_LINES = 600  # modules stay under it: a larger one is split by stage (filter/fast.py, broker_lexer.py, artemis_xml_build.py)


def _generated(path: Path) -> bool:
    """A generated table (its docstring says it is generated, and by what): data, not code to read."""
    head = path.read_text(encoding="utf-8")[:400].lower()
    return "generated from" in head or "generated by" in head


def test_every_module_stays_under_600_lines_but_generated_tables() -> None:
    long = {p.relative_to(PACKAGE).as_posix(): n for p in sorted(PACKAGE.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES and not _generated(p)}
    assert long == {}, f"split these by stage: {long}"


def test_the_line_rule_can_fail_and_excepts_only_generated_tables(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    big.write_text('"""A module."""\n' + "x = 1\n" * (MAX_LINES + 1))
    assert not _generated(big) and len(big.read_text().splitlines()) > MAX_LINES
    table = tmp_path / "table.py"
    table.write_text('"""Ranges, generated from Java 17 by scripts/java/JavaChars.java; do not edit."""\n')
    assert _generated(table)
    assert _generated(PACKAGE / "spec" / "javachars.py")

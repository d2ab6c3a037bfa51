"""The layering DESIGN.md asks for, enforced: lark only in the parse stage, rich only in the CLI,
pyspark only in jmsctl/spark, and no eval/exec anywhere."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "jmsctl"
LARK_ALLOWED = {"selector/lexer.py", "selector/parser.py", "selector/builder.py"}


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


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


def _module_imports() -> dict[str, set[str]]:
    """Every module of jmsctl (dotted) -> the jmsctl modules it imports, TYPE_CHECKING and
    function-level imports included (a circle hidden in a function is still a circle)."""
    names = {}
    for path in PACKAGE.rglob("*.py"):
        dotted = "jmsctl." + path.relative_to(PACKAGE).with_suffix("").as_posix().replace("/", ".")
        names[dotted.removesuffix(".__init__")] = path
    out: dict[str, set[str]] = {}
    for name, path in names.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                candidates = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                candidates = [a.name for a in node.names]
            else:
                continue
            for c in candidates:
                while c and c not in names:
                    c = c.rpartition(".")[0]
                if c and c != name:
                    found.add(c)
        out[name] = found
    return out


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        here = todo.pop()
        if here == goal:
            return True
        if here not in seen:
            seen.add(here)
            todo.extend(graph.get(here, ()))
    return False


def test_no_import_circles_in_the_messages_package() -> None:
    """The loader, the formats registry, the readers and their writers import one way (records.py
    beneath them all; artemis_core.py beneath the Artemis reader and writer)."""
    graph = _module_imports()
    messages = [m for m in graph if m.startswith("jmsctl.messages")]
    circles = sorted((a, b) for a in messages for b in graph[a] if b.startswith("jmsctl.messages") and _reaches(graph, b, a))
    assert circles == []

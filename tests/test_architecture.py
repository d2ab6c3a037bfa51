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

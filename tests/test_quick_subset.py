"""The quick subset (``python -m pytest -m "not slow"``, README) leaves out what conftest.py names:
every name there must be a test module or a test function that exists, or a renamed slow test would
come back into the quick subset unnoticed."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import JVM_IN_PROCESS, SLOW_MODULES, SLOW_TESTS

HERE = Path(__file__).parent


def _functions(module: str) -> set[str]:
    tree = ast.parse((HERE / module).read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_slow_module_and_jvm_module_exists() -> None:
    missing = sorted(m for m in {*SLOW_MODULES, *JVM_IN_PROCESS} if not (HERE / m).is_file())
    assert not missing, f"conftest.py names modules that do not exist: {missing}"


def test_every_slow_test_function_exists() -> None:
    missing = []
    for module, names in SLOW_TESTS.items():
        defined = _functions(module) if (HERE / module).is_file() else set()
        missing += [f"{module}::{name}" for name in names if name not in defined]
    assert not missing, f"conftest.py's SLOW_TESTS names tests that do not exist: {missing}"


def test_the_readme_documents_the_quick_subset() -> None:
    readme = (HERE.parent / "README.md").read_text(encoding="utf-8")
    assert 'python -m pytest -m "not slow"' in readme

"""The quick subset (``python -m pytest -m "not slow"``, README) leaves out what conftest.py names:
every name there must be a test module or a test function that exists, or a renamed slow test would
come back into the quick subset unnoticed."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import JVM_IN_PROCESS, LONGEST_FIRST, SLOW_MODULES, SLOW_TESTS

HERE = Path(__file__).parent


def _functions(module: str) -> set[str]:
    tree = ast.parse((HERE / module).read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_slow_module_and_jvm_module_exists() -> None:
    missing = sorted(m for m in {*SLOW_MODULES, *JVM_IN_PROCESS, *LONGEST_FIRST} if not (HERE / m).is_file())
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


def test_the_two_processes_keep_the_order_conftest_gives() -> None:
    """The whole run is two pytest-xdist processes taking modules in conftest's order: with xdist's
    reordering by size on, a module that starts a JVM in the process could come before one that forks
    (conftest.JVM_IN_PROCESS), and the parallel filter's tests would then run in one process unseen."""
    import re

    addopts = re.search(r'^addopts = "([^"]*)"', (HERE.parent / "pyproject.toml").read_text(encoding="utf-8"), re.M)
    assert addopts, "pyproject.toml has no addopts line"
    options = addopts.group(1).split()
    assert "--dist" in options and options[options.index("--dist") + 1] == "loadfile"
    assert "--no-loadscope-reorder" in options

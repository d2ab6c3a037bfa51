"""The quick subset (``python -m pytest -m "not slow"``, README) leaves out what conftest.py names:
every name there must be a test module or a test function that exists, or a renamed slow test would
come back into the quick subset unnoticed."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import JVM_IN_PROCESS, LONGEST_FIRST, SLOW_MODULES, SLOW_TESTS, SPARK_SESSION_MODULES

HERE = Path(__file__).parent


def _functions(module: str) -> set[str]:
    tree = ast.parse((HERE / module).read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_slow_module_and_jvm_module_exists() -> None:
    missing = sorted(m for m in {*SLOW_MODULES, *JVM_IN_PROCESS, *LONGEST_FIRST, *SPARK_SESSION_MODULES} if not (HERE / m).is_file())
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
    assert "--dist" in options and options[options.index("--dist") + 1] == "loadgroup"  # conftest gives every module a group
    assert "--no-loadscope-reorder" in options


def test_every_module_that_uses_the_spark_session_is_in_its_group() -> None:
    """A module whose tests take the ``spark`` fixture but is not in conftest.SPARK_SESSION_MODULES would
    start a second Spark JVM in the other process."""
    users = set()
    for path in HERE.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test") and any(a.arg == "spark" for a in node.args.args):
                users.add(path.name)
    assert users, "no test takes the spark fixture: the check looks at the wrong thing"
    assert users <= set(SPARK_SESSION_MODULES), f"modules using the spark fixture outside the group: {sorted(users - set(SPARK_SESSION_MODULES))}"

"""filter --jobs forks its workers only where forking is safe: never beside a JVM that JPype started
in this process (a forked child hung in its first allocation; tests/conftest.py runs such tests last)."""

from __future__ import annotations

import sys
import types

import pytest

from jmsctl.filter import parallel


def _fake_jpype(started: bool) -> types.ModuleType:
    module = types.ModuleType("jpype")
    module.isJVMStarted = lambda: started  # type: ignore[attr-defined]
    return module


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(), reason="needs fork")
def test_no_fork_beside_a_running_jvm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jpype", _fake_jpype(False))
    assert parallel.available()
    monkeypatch.setitem(sys.modules, "jpype", _fake_jpype(True))
    assert not parallel.available()


"""The filter's one compiled part, ``jmsctl.filter._bytecount`` (jmsctl/filter/_bytecount.c: byte scans 16
bytes at a time), as ``lib``; None where the package installed without it (setup.py's extension is
optional: no C compiler or no Python headers), and then every caller does the same work in Python.
Read when a ``Setup`` is made (``keycount``, ``linehits``) or a chunk is decoded (``columnpath``), so
that setting ``lib`` to None switches the compiled part off (tests, bench/bytecount_bench.py)."""

from __future__ import annotations

from types import ModuleType

lib: ModuleType | None
try:
    from jmsctl.filter import _bytecount as lib
except ImportError:  # built without a C compiler
    lib = None

__all__ = ["lib"]

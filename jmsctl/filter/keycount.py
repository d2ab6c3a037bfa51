"""A key's occurrences in a chunk, counted to prove it once on each line (``filter.columnpath``,
``filter.pathdecode``: as many occurrences as the decodes found values means no line holds the key
twice). ``counter(key)`` is that count: exact, from the compiled ``_bytecount`` (16 bytes at a time,
about 35 ns a line of bench/shapes_bench.py's typed dump where ``re`` and ``bytes.count`` take
230-330 ns); without it (a machine where the package installed without a C compiler), a superset of
the key's occurrences counted by ``re`` (``plan.key_superset``), which proves the same whenever it
equals the decodes' count. ``exact`` says which: a caller whose count differs counts again with
``bytes.count`` only when it was a superset."""

from __future__ import annotations

import re
from collections.abc import Callable

from jmsctl.filter.plan import key_superset, rarest_positions

_count: Callable[[bytes, bytes, int, int], int] | None
try:
    from jmsctl.filter._bytecount import count as _count
except ImportError:  # built without a C compiler: setup.py's extension is optional
    _count = None

exact = _count is not None


def counter(key: bytes) -> Callable[[bytes], int]:
    """``text`` -> the occurrences of ``key`` in it (exact when ``exact``, else at least as many)."""
    if _count is not None:
        count, i, j = _count, *rarest_positions(key)
        return lambda text: count(text, key, i, j)
    findall = re.compile(re.escape(key_superset(key))).findall
    return lambda text: len(findall(text))


__all__ = ["counter", "exact"]

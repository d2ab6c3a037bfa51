"""A key's occurrences in a chunk, counted to prove it once on each line (``filter.columnpath``,
``filter.pathdecode``: as many occurrences as the decodes found values means no line holds the key
twice). ``counters(keys)`` gives each key's count: exact, from the compiled part (``filter.native``;
``python bench/bytecount_bench.py`` times it against ``re`` and ``bytes.count``); without it, a superset
of the key's occurrences counted by ``re`` (``plan.key_superset``), which proves the same whenever it
equals the decodes' count. The flag says which: a caller whose count differs counts again with
``bytes.count`` only when it was a superset."""

from __future__ import annotations

import re
from collections.abc import Callable

from jmsctl.filter import native
from jmsctl.filter.plan import key_superset, rarest_positions

Counter = Callable[[bytes], int]


def counters(keys: tuple[bytes, ...]) -> tuple[tuple[Counter, ...], bool]:
    """(a count of each key, in order; whether they are exact rather than supersets)."""
    lib = native.lib
    if lib is not None:
        return tuple(_exact(lib.count, key) for key in keys), True
    return tuple(_superset(key) for key in keys), False


def _exact(count: Callable[[bytes, bytes, int, int], int], key: bytes) -> Counter:
    i, j = rarest_positions(key)
    return lambda text: count(text, key, i, j)


def _superset(key: bytes) -> Counter:
    findall = re.compile(re.escape(key_superset(key))).findall
    return lambda text: len(findall(text))


__all__ = ["Counter", "counters"]

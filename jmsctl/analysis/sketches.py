"""Bounded summaries of a stream of values: how many distinct, and which are most common.

Both are exact while the stream is small and become estimates, labelled as such, once it is not,
so that profiling a dump holds a bounded amount per property whatever the number of messages:

- ``Distinct``: the keys of the values seen (bounded in length: ``profile.value_key``), exactly,
  up to ``EXACT_DISTINCT`` of them; beyond, a HyperLogLog of ``2**HLL_P`` one-byte registers
  (relative standard error 1.04/sqrt(4096) = 1.6%).
- ``Frequent``: Misra-Gries with ``capacity`` counters. While no value was ever evicted
  (``dropped == 0``), every count is exact and every value is there. After that a kept count is
  a lower bound and the true count is at most ``dropped`` more; every value more frequent than
  n / (capacity + 1) is still kept.

The hash is the first 8 bytes of MD5 of the value's key (``profile.value_key``), because Spark
computes that natively (``md5``, ``conv``): ``jmsctl spark profile`` builds the same registers
with aggregations and gets the very same estimate (jmsctl/spark/profile.py). The HyperLogLog
register of a hash is its top ``HLL_P`` bits, the rank the leading zeros of the other bits + 1;
the estimate is Flajolet et al.'s with the linear-counting correction for small cardinalities
(no large-range correction is needed with 64-bit hashes).
"""

from __future__ import annotations

import hashlib
import math

EXACT_DISTINCT = 1024
"""Distinct values counted exactly (their keys held), per name; beyond, the HyperLogLog estimate."""

HLL_P = 12
HLL_M = 1 << HLL_P
HLL_REST = 64 - HLL_P  # the bits whose leading zeros make the rank
HLL_ERROR = round(1.04 / math.sqrt(HLL_M), 4)  # relative standard error of the estimate


def key_hash(key: str) -> int:
    """The 64-bit hash of a value key: MD5's first 8 bytes, big-endian (Spark: ``md5`` hex, first 16 digits)."""
    return int.from_bytes(hashlib.md5(key.encode("utf-8", "surrogatepass")).digest()[:8], "big")


def hll_rank(h: int) -> int:
    """Leading zeros of the low ``HLL_REST`` bits of ``h``, plus one (``HLL_REST + 1`` when all are zero)."""
    return HLL_REST + 1 - (h & ((1 << HLL_REST) - 1)).bit_length()


def hll_estimate(registers: bytes | bytearray | dict[int, int]) -> int:
    """The HyperLogLog cardinality estimate from its registers (a full array, or index -> rank of the set ones)."""
    ranks = registers.values() if isinstance(registers, dict) else [r for r in registers if r]
    zeros = HLL_M - len(ranks)
    harmonic = zeros + sum(2.0**-r for r in ranks)
    alpha = 0.7213 / (1 + 1.079 / HLL_M)
    raw = alpha * HLL_M * HLL_M / harmonic
    if raw <= 2.5 * HLL_M and zeros:
        return round(HLL_M * math.log(HLL_M / zeros))  # linear counting: better for few values
    return round(raw)


class Distinct:
    """Distinct values of one stream, exact up to ``limit`` keys (held), then estimated (HyperLogLog)."""

    __slots__ = ("keys", "limit", "registers")

    def __init__(self, limit: int = EXACT_DISTINCT) -> None:
        self.limit = limit
        self.keys: set[str] | None = set()
        self.registers: bytearray | None = None

    def add(self, key: str) -> None:
        keys = self.keys
        if keys is None:
            self._register(key_hash(key))
        elif key not in keys:
            keys.add(key)
            if len(keys) > self.limit:  # too many: from now on the registers only
                self.registers = bytearray(HLL_M)
                self.keys = None
                for old in keys:
                    self._register(key_hash(old))

    def _register(self, h: int) -> None:
        registers = self.registers
        assert registers is not None
        i = h >> HLL_REST
        r = hll_rank(h)
        if r > registers[i]:
            registers[i] = r

    @property
    def exact(self) -> bool:
        return self.keys is not None

    @property
    def count(self) -> int:
        if self.keys is not None:
            return len(self.keys)
        assert self.registers is not None
        return hll_estimate(self.registers)

    def size(self) -> int:
        """Entries held (keys or registers): never more than max(limit, HLL_M)."""
        return len(self.keys) if self.keys is not None else len(self.registers or ())


class Frequent:
    """The most common values of one stream (Misra-Gries): a key -> count dict of at most ``capacity``
    entries. ``dropped`` is how many times every count was decreased, the most a kept count may lack."""

    __slots__ = ("capacity", "counts", "dropped")

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.counts: dict[str, int] = {}
        self.dropped = 0

    def add(self, key: str) -> None:
        counts = self.counts
        n = counts.get(key)
        if n is not None:
            counts[key] = n + 1
        elif len(counts) < self.capacity:
            counts[key] = 1
        else:  # the new value and one of each kept value cancel out (amortized: each add pays once)
            self.dropped += 1
            for k in list(counts):
                n = counts[k] - 1
                if n:
                    counts[k] = n
                else:
                    del counts[k]

    @property
    def exact(self) -> bool:
        return self.dropped == 0

    def top(self, n: int) -> list[tuple[str, int]]:
        """The ``n`` largest counts, most common first, ties by key (as Spark orders them)."""
        return sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


__all__ = ["EXACT_DISTINCT", "HLL_ERROR", "HLL_M", "HLL_P", "HLL_REST", "Distinct", "Frequent", "hll_estimate", "hll_rank", "key_hash"]

"""Bounded summaries of a stream of values: how many distinct, and which are most common.

Both are exact while a stream has at most ``EXACT_DISTINCT`` distinct values and become
estimates, labelled as such, past it, so that profiling a dump holds a bounded amount per
property whatever the number of messages (``Values``):

- the most common: Misra-Gries with ``EXACT_DISTINCT`` counters. While no value was ever
  dropped, every count is exact and every value is there. After that a kept count is a lower
  bound and the true count is at most ``dropped`` more; every value more frequent than
  n / (capacity + 1) is still kept.
- how many distinct: the counters' own number while exact; past it, a HyperLogLog of
  ``2**HLL_P`` one-byte registers (relative standard error 1.04/sqrt(4096) = 1.6%).

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
"""Distinct values counted exactly (their keys held, with their counts), per name; beyond, estimates."""

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


def register(registers: bytearray, key: str) -> None:
    """Add a value key to HyperLogLog registers."""
    h = key_hash(key)
    i = h >> HLL_REST
    r = hll_rank(h)
    if r > registers[i]:
        registers[i] = r


class Values:
    """The values of one stream: Misra-Gries counters (``capacity`` of them) and, once there are
    more distinct values than counters, HyperLogLog registers.

    Until then (``exact``) the counters hold every value seen with its exact count, so they are
    also the exact distinct count. On the first value they cannot hold, the registers start from
    the counters' keys (every value so far) and from then on take every value not counted at that
    moment (one that is counted was registered when it came). Then every count is decreased by one
    (``dropped`` counts such rounds: a kept count lacks at most ``dropped``, and a value not kept
    occurred at most ``dropped`` times) and the distinct count is the registers' estimate."""

    __slots__ = ("capacity", "counts", "dropped", "registers")

    def __init__(self, capacity: int = EXACT_DISTINCT) -> None:
        self.capacity = capacity
        self.counts: dict[str, int] = {}
        self.dropped = 0
        self.registers: bytearray | None = None

    def add(self, key: str) -> None:
        counts = self.counts
        n = counts.get(key)
        if n is not None:
            counts[key] = n + 1
            return
        registers = self.registers
        if registers is not None:
            register(registers, key)
        if len(counts) < self.capacity:
            counts[key] = 1
            return
        if registers is None:  # the first value past the counters: every value so far is in them
            registers = self.registers = bytearray(HLL_M)
            for old in counts:
                register(registers, old)
            register(registers, key)
        self.dropped += 1  # the new value and one of each kept value cancel out (amortized: each add pays once)
        for k in list(counts):
            n = counts[k] - 1
            if n:
                counts[k] = n
            else:
                del counts[k]

    @property
    def exact(self) -> bool:
        return self.registers is None

    @property
    def distinct(self) -> int:
        return len(self.counts) if self.registers is None else hll_estimate(self.registers)

    def top(self, n: int) -> list[tuple[str, int]]:
        """The ``n`` largest counts, most common first, ties by key (as Spark orders them)."""
        return sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]

    def size(self) -> int:
        """Entries held (counters and registers): never more than ``capacity + HLL_M``."""
        return len(self.counts) + len(self.registers or ())


__all__ = ["EXACT_DISTINCT", "HLL_ERROR", "HLL_M", "HLL_P", "HLL_REST", "Values", "hll_estimate", "hll_rank", "key_hash", "register"]

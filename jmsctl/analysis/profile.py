"""A dump's profile: per property and per header, the Java types seen, how often it is absent, how
many distinct values and which are most common; the body kinds. Built in one pass, in memory that
does not grow with the number of messages (``sketches``: a bounded summary per name).

Values are counted by their *key*: the Java type's name and the value's text (``int:5``,
``long:5``, ``boolean:true``, ``String:red``, and floating values in Java's exact hexadecimal
``%a`` form, ``double:0x1.999999999999ap-4``), so that int 5 and long 5 are two values (as the
profile reports types), -0.0 and 0.0 two, NaN one. Spark prints the same texts natively
(``cast(... as string)``, ``format_string('%a', ...)``), so ``jmsctl spark profile`` builds the
same keys. (Double.toString's digits would do too, but cost 50 times more here.) A String longer than
``LONG_STRING`` characters is keyed by its first ``LONG_STRING`` characters and its MD5, so that a
kept value costs a bounded amount; it is shown cut, marked ``truncated``.

The result is a frozen ``Profile``; ``Profile.to_json()`` is the documented ``--format json``
document (README, "jmsctl profile"), the same whether the local pass or Spark computed it.
``jmsctl.analysis.shape`` turns a profile into the shape the solver's ``coverage --like`` reads.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from jmsctl.analysis.sketches import EXACT_DISTINCT, HLL_ERROR, Values
from jmsctl.messages.encode import typed_json
from jmsctl.messages.loader import Record
from jmsctl.messages.model import Message
from jmsctl.spec import BODY_TYPES, DELIVERY_MODES
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, LONG, STRING, JType, TypedValue

SCHEMA_VERSION = 1
LONG_STRING = 200
"""Characters of a String value kept in its key; a longer one is keyed by this prefix and its MD5."""
TOP = 10
"""Most common values reported per name (``--top``)."""
CAPACITY = EXACT_DISTINCT
"""Counters kept per name: distinct count and most common values exact while a name has at most this many values."""

HEADER_TYPES: dict[str, JType] = {
    "JMSMessageID": STRING, "JMSCorrelationID": STRING, "JMSType": STRING, "JMSDestination": STRING, "JMSReplyTo": STRING,
    "JMSTimestamp": LONG, "JMSExpiration": LONG, "JMSDeliveryTime": LONG,
    "JMSPriority": JType.INT, "JMSDeliveryMode": STRING, "JMSRedelivered": BOOLEAN,
}
"""Each header as a selector (or a broker dialect) reads it: JMSDeliveryMode is the String
'PERSISTENT' / 'NON_PERSISTENT' whether the dump wrote 2 / 1 (jmsctl.messages.model.selector_view)."""

# JMSDeliveryMode alone is read through DELIVERY_MODES (2 -> 'PERSISTENT'): marked by a type of its own here.
_MODE = object()
_HEADER_TYPES: dict[str, Any] = {**HEADER_TYPES, "JMSDeliveryMode": _MODE}
_ELLIPSIS = "\u2026"
_INF = float("inf")
_PREFIX = {t: t.java_name + ":" for t in JType}
_INTEGRAL = {t: p for t, p in _PREFIX.items() if t.is_integral}


def value_key(value: TypedValue) -> str:
    """A value's key: ``type:text`` with Java's text of the value (see the module doc)."""
    t, v = value
    if t is STRING:
        if len(v) <= LONG_STRING:
            return "String:" + v
        digest = hashlib.md5(v.encode("utf-8", "surrogatepass")).hexdigest()
        return f"String:{v[:LONG_STRING]}{_ELLIPSIS}{digest}"
    if t is BOOLEAN:
        return "boolean:true" if v else "boolean:false"
    if t is FLOAT or t is DOUBLE:
        return _PREFIX[t] + hex_text(v)
    return _PREFIX[t] + str(v)


def hex_text(d: float) -> str:
    """Java's ``String.format("%a", d)`` (what Spark's ``format_string('%a', col)`` prints, a float
    widened to double first): the exact bits, and far cheaper than ``Double.toString``'s digits."""
    if d != d:
        return "NaN"
    if d in (_INF, -_INF):
        return "Infinity" if d > 0 else "-Infinity"
    mantissa, _, exponent = d.hex().partition("p")  # 0x1.8000000000000p+1 -> 0x1.8p1
    whole, _, fraction = mantissa.partition(".")
    return f"{whole}.{fraction.rstrip('0') or '0'}p{int(exponent)}"


def key_value(key: str) -> tuple[JType, Any, bool]:
    """A key back to (type, value, truncated): the value as the key holds it (a long String cut)."""
    name, _, text = key.partition(":")
    t = JType.from_name(name)
    if t is None:
        raise ValueError(f"not a value key: {key!r}")
    if t is STRING:
        cut = len(text) > LONG_STRING
        return t, text[:LONG_STRING] if cut else text, cut
    if t is BOOLEAN:
        return t, text == "true", False
    if t is FLOAT or t is DOUBLE:
        return t, float.fromhex(text), False
    return t, int(text), False


@dataclass(frozen=True)
class ValueCount:
    """One of the most common values of a name: its key and how many messages carry it (a lower
    bound when the list is not exact)."""

    key: str
    count: int

    def to_json(self) -> dict[str, Any]:
        t, v, cut = key_value(self.key)
        doc = typed_json((t, v), typed=True)
        if cut:
            doc["truncated"] = True
        doc["count"] = self.count
        return doc


@dataclass(frozen=True)
class NameProfile:
    """What a dump holds under one name (a property, or a header)."""

    name: str
    present: int  # messages with a value
    absent: int  # messages without one (present + absent = messages)
    null: int  # of the absent, those that wrote it as JSON null (properties only)
    types: tuple[tuple[JType, int], ...]  # the types seen, in JType order, with counts adding up to present
    distinct: int
    distinct_exact: bool
    common: tuple[ValueCount, ...]  # most common first
    common_exact: bool
    common_slack: int  # when not exact: a count shown may lack at most this many

    def to_json(self) -> dict[str, Any]:
        distinct: dict[str, Any] = {"count": self.distinct, "exact": self.distinct_exact}
        if not self.distinct_exact:
            distinct["relative_error"] = HLL_ERROR
        common: dict[str, Any] = {"exact": self.common_exact}
        if not self.common_exact:
            common["max_undercount"] = self.common_slack
        common["values"] = [v.to_json() for v in self.common]
        return {
            "name": self.name,
            "present": self.present,
            "absent": self.absent,
            "null": self.null,
            "types": {t.name.lower(): n for t, n in self.types},  # FORMAT.md's type names, as in the values
            "distinct": distinct,
            "most_common": common,
        }


@dataclass(frozen=True)
class Profile:
    """A dump's profile; ``read = messages + rejected``."""

    read: int
    messages: int
    rejected: int
    bodies: tuple[tuple[str, int], ...]  # body kind -> messages, in FORMAT.md's order, only kinds seen
    properties: tuple[NameProfile, ...]  # by name
    headers: tuple[NameProfile, ...]  # by name, only headers some message has

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": SCHEMA_VERSION,
            "read": self.read,
            "messages": self.messages,
            "rejected": self.rejected,
            "bodies": dict(self.bodies),
            "properties": [p.to_json() for p in self.properties],
            "headers": [h.to_json() for h in self.headers],
        }


def name_profile(name: str, messages: int, types: dict[JType, int], null: int, distinct: int, distinct_exact: bool,
                 top: list[tuple[str, int]], common_exact: bool, slack: int) -> NameProfile:
    """One name's profile from its aggregates, however computed (here or by Spark): one rule for both."""
    present = sum(types.values())
    return NameProfile(
        name, present, messages - present, null, tuple(sorted(types.items())), distinct, distinct_exact,
        tuple(ValueCount(k, n) for k, n in sorted(top, key=lambda kv: (-kv[1], kv[0]))), common_exact, 0 if common_exact else slack,
    )


class _Name:
    """The running summary of one name."""

    __slots__ = ("counts", "null", "types", "values")

    def __init__(self, capacity: int) -> None:
        self.types = [0] * len(JType)
        self.null = 0
        self.values = Values(capacity)
        self.counts = self.values.counts  # the same dict, for the loop of _add (Values never rebinds it)

    def result(self, name: str, messages: int, top: int) -> NameProfile:
        types = {JType(i): n for i, n in enumerate(self.types) if n}
        v = self.values
        return name_profile(name, messages, types, self.null, v.distinct, v.exact, v.top(top), v.exact, v.dropped)


class Profiler:
    """The profile of a stream of messages, one ``add`` at a time; ``result()`` whenever wanted.

    Memory per name is bounded (``capacity`` counters of keys at most ~250 characters, and 4 KiB
    of registers), whatever the number of messages; it grows only with the number of names."""

    def __init__(self, top: int = TOP, capacity: int = CAPACITY) -> None:
        self.top = top
        self.capacity = max(capacity, top)
        self.messages = 0
        self.rejected = 0
        self.bodies: Counter[str] = Counter()
        self.properties: dict[str, _Name] = {}
        self.headers: dict[str, _Name] = {}

    def _name(self, table: dict[str, _Name], name: str) -> _Name:
        entry = table[name] = _Name(self.capacity)
        return entry

    def add(self, message: Message) -> None:
        self.messages += 1
        self.bodies[message.body_type] += 1
        table = self.properties
        self._add(table, message.properties.items())
        for name in message.null_properties:
            (table.get(name) or self._name(table, name)).null += 1
        headers = [(name, (STRING, DELIVERY_MODES[v]) if t is _MODE else (t, v))
                   for name, v in message.headers.items() if (t := _HEADER_TYPES.get(name)) is not None and v is not None]
        self._add(self.headers, headers)

    def _add(self, table: dict[str, _Name], items: Iterable[tuple[str, TypedValue]]) -> None:
        """Values into their names' summaries: the loop every value of every message goes through,
        so value_key's common cases and the common case of the summary (a value counted already)
        are inline here."""
        for name, value in items:
            entry = table.get(name) or self._name(table, name)
            t, v = value
            entry.types[t] += 1
            if t is STRING:
                key = "String:" + v if len(v) <= LONG_STRING else value_key(value)
            else:
                prefix = _INTEGRAL.get(t)
                key = prefix + str(v) if prefix is not None else value_key(value)
            counts = entry.counts
            n = counts.get(key)
            if n is None:
                entry.values.add(key)
            else:
                counts[key] = n + 1

    def add_record(self, record: Record) -> None:
        """A record as read: its message profiled, or counted as rejected."""
        if record.message is None:
            self.rejected += 1
        else:
            self.add(record.message)

    def result(self) -> Profile:
        def names(table: dict[str, _Name]) -> tuple[NameProfile, ...]:
            return tuple(table[n].result(n, self.messages, self.top) for n in sorted(table))

        bodies = tuple((kind, self.bodies[kind]) for kind in BODY_TYPES if self.bodies[kind])
        return Profile(self.messages + self.rejected, self.messages, self.rejected, bodies, names(self.properties), names(self.headers))

    def held(self) -> int:
        """Entries held by all the summaries (counters, registers): bounded per name."""
        return sum(n.values.size() for t in (self.properties, self.headers) for n in t.values())


def profile_records(records: Iterable[Record], top: int = TOP) -> Profile:
    """The profile of records as read (``read_records``); rejected ones are counted, not profiled."""
    profiler = Profiler(top)
    for record in records:
        profiler.add_record(record)
    return profiler.result()


__all__ = ["CAPACITY", "HEADER_TYPES", "LONG_STRING", "SCHEMA_VERSION", "TOP", "NameProfile", "Profile", "Profiler", "ValueCount",
           "key_value", "name_profile", "profile_records", "value_key"]

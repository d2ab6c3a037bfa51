"""The shape of a dump: which names its messages carry, with which Java types, and whether a
message may lack them. What ``coverage --like DUMP`` takes as its domain: messages shaped like the
dump's (these names, these types, or absent where the dump has messages without them), values free.

Names are as a selector reads them (``Message.selector_values``): the properties, and the headers
with their selector types (JMSPriority int, JMSTimestamp long, JMSDeliveryMode the String
'PERSISTENT' / 'NON_PERSISTENT', JMSMessageID / JMSCorrelationID / JMSType String; the broker
headers JMSExpiration, JMSDeliveryTime long, JMSRedelivered boolean, JMSDestination / JMSReplyTo
String, which only a broker dialect reads). A property named like one of the six selectable
headers is not seen by selectors (the header is), so it is not in the shape under that name.

Build one with ``Shape.from_profile(profile)`` (``jmsctl.analysis.profile``: ``profile_records``
over ``read_records``), or from the ``--format json`` document of ``jmsctl profile`` / ``jmsctl
spark profile`` with ``Shape.from_json`` (a dump too big for one machine, profiled on Spark).

    shape = Shape.from_profile(profile_records(read_records("orders.ndjson")))
    shape.types("weight")         # frozenset({JType.INT, JType.STRING})
    shape.may_be_absent("weight") # True: some message has no weight
    shape.may_be_absent("nope")   # True: no message has it (types() is empty)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from jmsctl.analysis.profile import HEADER_TYPES, Profile
from jmsctl.spec import HEADERS
from jmsctl.values import JType

SELECTABLE_HEADERS = HEADERS  # the six a selector reads (jmsctl.spec)


@dataclass(frozen=True)
class NameShape:
    """One name: the types its values had (empty: never present) and whether a message lacked it."""

    name: str
    types: frozenset[JType]
    absent: bool


@dataclass(frozen=True)
class Shape:
    """Names -> NameShape, for the messages of a dump (``messages`` of them). Frozen; a name the
    dump never has is absent from every message: ``types`` empty, ``may_be_absent`` True."""

    names: tuple[NameShape, ...]  # sorted by name
    messages: int
    _by_name: Mapping[str, NameShape] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", MappingProxyType({n.name: n for n in self.names}))

    def get(self, name: str) -> NameShape | None:
        return self._by_name.get(name)

    def types(self, name: str) -> frozenset[JType]:
        """The types ``name`` had in some message (empty when no message has it)."""
        found = self.get(name)
        return found.types if found is not None else frozenset()

    def may_be_absent(self, name: str) -> bool:
        """Whether some message of the dump lacks ``name`` (NULL for selectors); True for an unknown name."""
        found = self.get(name)
        return found is None or found.absent

    def __iter__(self) -> Iterator[NameShape]:
        return iter(self.names)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    @classmethod
    def from_profile(cls, profile: Profile) -> Shape:
        """The shape of a profiled dump (see the module doc for which names)."""
        return cls._build(
            ((p.name, frozenset(t for t, _ in p.types), p.absent > 0) for p in profile.properties),
            ((h.name, frozenset(t for t, _ in h.types), h.absent > 0) for h in profile.headers),
            profile.messages,
        )

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Shape:
        """The shape from a profile's ``--format json`` document; ValueError when it is not one."""
        if not isinstance(doc, Mapping) or doc.get("profile") != 1:
            raise ValueError("not a jmsctl profile document (no \"profile\": 1)")
        try:
            return cls._build(_json_names(doc["properties"]), _json_names(doc["headers"]), int(doc["messages"]))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a jmsctl profile document: {exc}") from None

    @classmethod
    def _build(cls, properties: Iterator[tuple[str, frozenset[JType], bool]], headers: Iterator[tuple[str, frozenset[JType], bool]],
               messages: int) -> Shape:
        names = {name: NameShape(name, types, absent) for name, types, absent in properties if name not in SELECTABLE_HEADERS}
        for name, types, absent in headers:
            if name in HEADER_TYPES:
                names[name] = NameShape(name, types, absent)
        for name in SELECTABLE_HEADERS:  # never in the dump: absent from every message
            names.setdefault(name, NameShape(name, frozenset(), True))
        return cls(tuple(names[n] for n in sorted(names)), messages)


def _json_names(entries: Any) -> Iterator[tuple[str, frozenset[JType], bool]]:
    for entry in entries:
        types = frozenset(_jtype(name) for name, n in entry["types"].items() if n)
        yield str(entry["name"]), types, int(entry["absent"]) > 0


def _jtype(name: str) -> JType:
    t = JType.from_name(name)
    if t is None:
        raise TypeError(f"unknown type {name!r}")
    return t


__all__ = ["SELECTABLE_HEADERS", "NameShape", "Shape"]

"""The one message model: headers, typed properties and a body, as FORMAT.md describes them.

Properties keep their Java type as ``(JType, value)`` tuples (the value model of values.py), so
the selector evaluator reads them without conversion. ``selector_values`` is the view a selector
sees: properties plus the six selectable headers in their selector types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jmsctl.messages.contract import MessageContract

# BODY_TYPES and HEADER_NAMES lived here before jmsctl/spec; re-exported for code that imports them from here.
from jmsctl.spec import BODY_TYPES as BODY_TYPES
from jmsctl.spec import DELIVERY_MODES
from jmsctl.spec import HEADER_NAMES as HEADER_NAMES
from jmsctl.values import BOOLEAN, INT, LONG, STRING, TypedValue


@dataclass(frozen=True)
class BytesValue:
    """A byte[] inside a map or stream body (not a property type)."""

    data: bytes


@dataclass
class Message(MessageContract):
    """A message as dumped, and the javadoc's Message contract (contract.py). Headers hold their
    JSON values; absent headers are not in the dict."""

    headers: dict[str, Any] = field(default_factory=dict)
    properties: dict[str, TypedValue] = field(default_factory=dict)
    body_type: str = "message"
    body: Any = None
    null_properties: tuple[str, ...] = ()  # written as JSON null: absent for selectors, reported by validate
    properties_read_only: bool = field(default=False, compare=False)  # True once received (loaded from a dump)
    source: dict[str, Any] | None = field(default=None, compare=False)  # what the source format knows beyond JMS; selectors never see it
    _view: dict[str, TypedValue] | None = field(default=None, repr=False, compare=False)

    def selector_values(self) -> dict[str, TypedValue]:
        """Properties plus the six selectable headers (docs/SEMANTICS.md#headers), built once."""
        if self._view is None:
            self._view = selector_view(self.headers, self.properties)
        return self._view

    def get(self, name: str) -> TypedValue | None:
        """The selector protocol: a message can be passed to Selector.evaluate directly."""
        return self.selector_values().get(name)


def selector_view(headers: dict[str, Any], properties: dict[str, TypedValue]) -> dict[str, TypedValue]:
    view = dict(properties)
    for name in ("JMSDeliveryMode", "JMSPriority", "JMSMessageID", "JMSTimestamp", "JMSCorrelationID", "JMSType"):
        view.pop(name, None)  # a property cannot stand in for a header
    for name in ("JMSMessageID", "JMSCorrelationID", "JMSType"):
        v = headers.get(name)
        if v is not None:
            view[name] = (STRING, v)
    mode = headers.get("JMSDeliveryMode")
    if mode is not None:
        view["JMSDeliveryMode"] = (STRING, DELIVERY_MODES[mode])
    if headers.get("JMSPriority") is not None:
        view["JMSPriority"] = (INT, headers["JMSPriority"])
    if headers.get("JMSTimestamp") is not None:
        view["JMSTimestamp"] = (LONG, headers["JMSTimestamp"])
    # Not selectable by the standard (the checker rejects the names); a broker dialect reads them
    # (jmsctl/selector/dialects/broker_headers.py). A property of such a name (an invalid JMS name) is not removed.
    if not _BROKER_HEADER_NAMES.isdisjoint(headers):  # rare: one set test per message otherwise
        for name, jtype in _BROKER_HEADER_TYPES:
            v = headers.get(name)
            if v is not None:
                view[name] = (jtype, v)
    return view


_BROKER_HEADER_TYPES = (("JMSExpiration", LONG), ("JMSRedelivered", BOOLEAN), ("JMSDestination", STRING), ("JMSReplyTo", STRING))
_BROKER_HEADER_NAMES = frozenset(name for name, _ in _BROKER_HEADER_TYPES)

"""A dumped message as a producer can send it again: what each transport can carry, and a count of
what it cannot (said once per kind by ``send``; ``send --dry-run`` prints the result).

A producer sets JMSType, JMSCorrelationID, JMSReplyTo, the delivery mode, the priority and a time
to live, and properties; the provider sets JMSMessageID, JMSTimestamp, JMSRedelivered and
JMSDeliveryTime (JMS 1.1 has no delivery delay). The dump's JMSExpiration becomes a time to live
counted from its JMSTimestamp, so a replayed message lives as long as the original did.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from jmsctl.messages.conversion import java_to_string
from jmsctl.messages.model import Message
from jmsctl.values import STRING

SETTABLE = ("JMSType", "JMSCorrelationID", "JMSReplyTo", "JMSDeliveryMode", "JMSPriority")
NOT_SETTABLE = ("JMSMessageID", "JMSTimestamp", "JMSRedelivered", "JMSDeliveryTime")

# STOMP SEND headers with a meaning of their own: a property of such a name cannot travel as one
# (apache/activemq activemq-stomp/.../Stomp.java Headers, FrameTranslator.java).
STOMP_HEADERS = frozenset({
    "destination", "message-id", "correlation-id", "expires", "redelivered", "priority", "reply-to", "timestamp",
    "type", "persistent", "subscription", "ack", "content-length", "content-type", "browser", "original-destination",
    "JMSXUserID", "receipt", "transaction", "amq-msg-type", "transformation", "transformation-error", "id",
})


@dataclass(frozen=True)
class Outgoing:
    """The message as it will be sent (only settable headers) and its time to live (0: forever)."""

    message: Message
    time_to_live: int


def prepare(message: Message, stomp: bool, lost: Counter[str]) -> Outgoing:
    """``message`` reduced to what the transport carries (``stomp``: String properties, text and
    bytes bodies), counting in ``lost`` each kind of thing left out or changed."""
    h = message.headers
    for name in NOT_SETTABLE:
        if h.get(name) not in (None, False):
            lost[f"{name} (the provider sets it)"] += 1
    headers = {name: h[name] for name in SETTABLE if h.get(name) is not None}
    reply = headers.get("JMSReplyTo")
    if reply is not None and "://" not in reply:
        headers["JMSReplyTo"] = f"queue://{reply}"  # a bare name (activemq browse text prints one) is a queue
    ttl = time_to_live(h, lost)
    properties = dict(message.properties)
    kind, body = message.body_type, message.body
    if stomp:
        changed = False
        for name, (jtype, value) in message.properties.items():
            if name in STOMP_HEADERS:
                lost[f"property {name} (a STOMP header of that name)"] += 1
                del properties[name]
            elif jtype is not STRING:
                properties[name] = (STRING, java_to_string((jtype, value)))
                changed = True
        if changed:
            lost["property types (STOMP carries Strings)"] += 1
        if kind not in ("text", "bytes"):
            what = "Messages without a body" if kind == "message" else f"{kind} bodies"
            lost[f"{what} (STOMP carries text and bytes: sent as an empty text message)"] += 1
            kind, body = "text", None
    return Outgoing(Message(headers, properties, kind, body), ttl)


def time_to_live(headers: dict[str, object], lost: Counter[str]) -> int:
    """The dump's JMSExpiration as a time to live from its JMSTimestamp (0: never expires)."""
    expiration = headers.get("JMSExpiration") or 0
    assert isinstance(expiration, int)
    if expiration <= 0:
        return 0
    timestamp = headers.get("JMSTimestamp") or 0
    assert isinstance(timestamp, int)
    if timestamp <= 0 or expiration <= timestamp:
        lost["JMSExpiration (no JMSTimestamp before it to take a time to live from)"] += 1
        return 0
    return expiration - timestamp


__all__ = ["NOT_SETTABLE", "SETTABLE", "STOMP_HEADERS", "Outgoing", "prepare", "time_to_live"]

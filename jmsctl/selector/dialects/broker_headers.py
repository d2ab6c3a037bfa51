"""Header names some brokers evaluate and the standard does not allow, diagnosed per dialect.

JMSDestination, JMSReplyTo, JMSExpiration and JMSRedelivered are JMS headers but not selectable
ones (the javadoc lists JMSDeliveryMode, JMSPriority, JMSMessageID, JMSTimestamp,
JMSCorrelationID and JMSType). ActiveMQ Classic's PropertyExpression evaluates them from the
message (apache/activemq activemq-client/src/main/java/org/apache/activemq/filter/PropertyExpression.java);
Artemis translates JMSExpiration to its expiration header (SelectorTranslator) and reads the other
three as ordinary properties, which a JMS client cannot set: NULL.
"""

from __future__ import annotations

from collections.abc import Iterator

from jmsctl.diagnostics import Diagnostic, warning
from jmsctl.selector import nodes as n
from jmsctl.selector.dialects import Dialect

BROKER_HEADERS = ("JMSDestination", "JMSReplyTo", "JMSExpiration", "JMSRedelivered")


def broker_header_note(name: str) -> str:
    """The sentence the jakarta error adds: which engine evaluates the name anyway."""
    if name == "JMSExpiration":
        return f"{name} is a JMS header the standard does not let a selector read; ActiveMQ Classic and Artemis do evaluate it"
    return f"{name} is a JMS header the standard does not let a selector read; ActiveMQ Classic does evaluate it (Artemis reads NULL)"


def broker_diagnostics(ast: n.Node | None, dialect: Dialect) -> Iterator[Diagnostic]:
    """Warnings for a broker dialect: the engine accepts these names; say what it reads."""
    if ast is None:
        return
    seen: set[str] = set()
    for node in n.walk(ast):
        if isinstance(node, n.Identifier) and node.name in BROKER_HEADERS and node.name not in seen:
            seen.add(node.name)
            if node.name in dialect.extra_headers:
                what = f"{dialect.title} evaluates {node.name} from the message header; the standard rejects the name"
            else:
                what = f"{dialect.title} reads {node.name} as an ordinary property, which no JMS client can set: it is NULL"
            yield warning("W130", what, node.span, hint="portable selectors use only JMSDeliveryMode, JMSPriority, JMSMessageID, "
                                                         "JMSTimestamp, JMSCorrelationID and JMSType")

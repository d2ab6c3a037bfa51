"""The javadoc's names, beneath the selector language and the message model alike.

`jakarta.jms.Message`'s javadoc defines which headers a selector may read and their types, the JMSX
properties and their types, the name classes (header, JMSX, JMS_ provider, application) and the
identifier rules (Java identifier characters, reserved words). Both ``selector/`` (the checker, the
evaluators) and ``messages/`` (the decoder, the validator, the dump readers) need them; here neither
has to import the other for them. ``identifiers.py`` holds the character rules, ``javachars.py`` the
tables generated from the JVM.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from jmsctl.spec.identifiers import (
    IDENTIFIER,
    IDENTIFIER_PART_CHAR,
    IDENTIFIER_START_CHAR,
    KEYWORDS,
    is_identifier,
    is_keyword,
)

# The six headers a selector may read, in the javadoc's order.
HEADERS: Final[tuple[str, ...]] = (
    "JMSDeliveryMode",
    "JMSPriority",
    "JMSMessageID",
    "JMSTimestamp",
    "JMSCorrelationID",
    "JMSType",
)

# Every header a message carries (what a dump may hold), selectable or not.
HEADER_NAMES: Final[tuple[str, ...]] = (
    "JMSMessageID",
    "JMSTimestamp",
    "JMSCorrelationID",
    "JMSType",
    "JMSDeliveryMode",
    "JMSPriority",
    "JMSDestination",
    "JMSReplyTo",
    "JMSExpiration",
    "JMSDeliveryTime",
    "JMSRedelivered",
)

# Header value rules (the javadoc's types; docs/FORMAT.md's encodings of them).
STRING_HEADERS: Final = ("JMSMessageID", "JMSCorrelationID", "JMSType", "JMSDestination", "JMSReplyTo")
LONG_HEADERS: Final = ("JMSTimestamp", "JMSExpiration", "JMSDeliveryTime")
PRIORITY_RANGE: Final = range(0, 10)  # JMSPriority 0..9
# DeliveryMode.PERSISTENT is 2, NON_PERSISTENT 1; a selector compares the names as strings.
DELIVERY_MODES: Final = {2: "PERSISTENT", 1: "NON_PERSISTENT", "PERSISTENT": "PERSISTENT", "NON_PERSISTENT": "NON_PERSISTENT"}

# The JMSX properties the javadoc defines, with their Java types.
JMSX_TYPES: Final[dict[str, str]] = {
    "JMSXUserID": "String",
    "JMSXAppID": "String",
    "JMSXDeliveryCount": "int",
    "JMSXGroupID": "String",
    "JMSXGroupSeq": "int",
    "JMSXProducerTXID": "String",
    "JMSXConsumerTXID": "String",
    "JMSXRcvTimestamp": "long",
    "JMSXState": "int",
}

# The message body kinds (TextMessage, BytesMessage, ...; "message" is a plain Message).
BODY_TYPES: Final = ("message", "text", "bytes", "map", "stream", "object")


class IdentifierKind(str, Enum):
    HEADER = "header"
    JMSX = "JMSX property"
    PROVIDER = "provider property"
    APPLICATION = "application property"
    INVALID = "invalid JMS name"


def identifier_kind(name: str) -> IdentifierKind:
    """The javadoc's four name classes; any other 'JMS' name is not selectable."""
    if name in HEADERS:
        return IdentifierKind.HEADER
    if name.startswith("JMSX"):
        return IdentifierKind.JMSX
    if name.startswith("JMS_"):
        return IdentifierKind.PROVIDER
    if name.startswith("JMS"):
        return IdentifierKind.INVALID
    return IdentifierKind.APPLICATION


__all__ = [
    "BODY_TYPES",
    "DELIVERY_MODES",
    "HEADERS",
    "HEADER_NAMES",
    "IDENTIFIER",
    "IDENTIFIER_PART_CHAR",
    "IDENTIFIER_START_CHAR",
    "JMSX_TYPES",
    "KEYWORDS",
    "LONG_HEADERS",
    "PRIORITY_RANGE",
    "STRING_HEADERS",
    "IdentifierKind",
    "identifier_kind",
    "is_identifier",
    "is_keyword",
]

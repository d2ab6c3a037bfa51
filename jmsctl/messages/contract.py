"""The ``jakarta.jms.Message`` contract, method by method, on jmsctl's one message model.

``Message`` (model.py) inherits these methods; each docstring quotes the javadoc sentence it
implements. Python names are snake_case (``get_int_property``); the Java spellings
(``getIntProperty``) are aliases, so Java users find what they know.

Python stands in for Java's classes like this: a property value is a ``JavaValue(type, value)``
(a typed value of the shared value model), the objectified types of ``setObjectProperty`` are
``bool`` (Boolean), ``int`` (Integer, or Long outside the int range), ``float`` (Double), ``str``
(String) or an explicit ``JavaValue``; a Destination is its ``queue://name`` / ``topic://name``
string; a body's class is ``str`` (TextMessage), ``bytes`` (BytesMessage), ``dict`` (MapMessage),
``SerializedObject`` (ObjectMessage: the serialized bytes, never deserialized).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from jmsctl.exceptions import (
    IllegalArgumentException,
    MessageFormatException,
    MessageNotWriteableException,
)
from jmsctl.messages.conversion import read_as, read_object
from jmsctl.spec import IDENTIFIER, KEYWORDS
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, RANGES, SHORT, STRING, JType, TypedValue, in_range, to_f32

DEFAULT_DELIVERY_MODE = 2  # "The message producer's default delivery mode is PERSISTENT."
DEFAULT_PRIORITY = 4  # "The message producer's default priority is 4."
DEFAULT_TIME_TO_LIVE = 0  # "...unlimited; the message never expires."
DEFAULT_DELIVERY_DELAY = 0  # "The message producer's default delivery delay is zero."
PERSISTENT = 2
NON_PERSISTENT = 1

class JavaValue(NamedTuple):
    """A property value with its Java type: what ``getObjectProperty`` returns (a typed value)."""

    type: JType
    value: Any


class SerializedObject(bytes):
    """An ObjectMessage body: the Java serialization bytes, kept opaque (never deserialized)."""


def check_property_name(name: object) -> str:
    """'Property names must not be null, and must not be empty strings', and must obey the rules
    for a message selector identifier; IllegalArgumentException otherwise."""
    if name is None:
        raise IllegalArgumentException("property name must not be null")
    if not isinstance(name, str):
        raise IllegalArgumentException(f"property name must be a String, not {type(name).__name__}")
    if name == "":
        raise IllegalArgumentException("property name must not be an empty string")
    if IDENTIFIER.fullmatch(name) is None:
        raise IllegalArgumentException(f"property name {name!r} is not a selector identifier")
    if name.isascii() and name.upper() in KEYWORDS:
        raise IllegalArgumentException(f"property name {name!r} is a reserved word of the selector language")
    return name


def java_value_of(value: object) -> JavaValue:
    """The objectified value ``setObjectProperty`` accepts: Boolean, Byte ... Double, String."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], JType):
        return JavaValue(value[0], _checked(value[0], value[1]))
    if type(value) is bool:
        return JavaValue(BOOLEAN, value)
    if type(value) is int:
        if in_range(INT, value):
            return JavaValue(INT, value)
        if in_range(LONG, value):
            return JavaValue(LONG, value)
        raise MessageFormatException(f"{value} is outside the range of long")
    if type(value) is float:
        return JavaValue(DOUBLE, value)
    if type(value) is str:
        return JavaValue(STRING, value)
    shown = "null" if value is None else type(value).__name__
    raise MessageFormatException(f"setObjectProperty accepts Boolean, Byte, Short, Integer, Long, Float, Double and String, not {shown}")


def _checked(t: JType, v: object) -> Any:
    """A Python value as a value of Java type t: range-checked, floats rounded to float32."""
    if t is BOOLEAN:
        if type(v) is not bool:
            raise TypeError(f"a boolean property takes True or False, not {v!r}")
        return v
    if t is STRING:
        if type(v) is not str:
            raise TypeError(f"a String property takes a str, not {v!r}")
        return v
    if t.is_integral:
        if type(v) is not int:
            raise TypeError(f"a {t.java_name} property takes an int, not {v!r}")
        lo, hi = RANGES[t]
        if not lo <= v <= hi:
            raise ValueError(f"{v} is outside the range of {t.java_name} ({lo}..{hi})")
        return v
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        raise TypeError(f"a {t.java_name} property takes a float, not {v!r}")
    f = float(v)
    if t is FLOAT:
        r = to_f32(f)
        if math.isinf(r) and not math.isinf(f):
            raise ValueError(f"{v} is outside the range of float")
        return r
    return f


class MessageContract:
    """The javadoc's Message methods; mixed into ``jmsctl.messages.model.Message``."""

    DEFAULT_DELIVERY_MODE = DEFAULT_DELIVERY_MODE
    DEFAULT_PRIORITY = DEFAULT_PRIORITY
    DEFAULT_TIME_TO_LIVE = DEFAULT_TIME_TO_LIVE
    DEFAULT_DELIVERY_DELAY = DEFAULT_DELIVERY_DELAY

    # Provided by the dataclass that mixes this in.
    headers: dict[str, Any]
    properties: dict[str, TypedValue]
    body_type: str
    body: Any
    null_properties: tuple[str, ...]
    properties_read_only: bool
    _view: Any

    # ----- properties ---------------------------------------------------------------------------

    def _writable(self, name: object) -> str:
        checked = check_property_name(name)
        if self.properties_read_only:
            raise MessageNotWriteableException("properties are read-only: the message was received (call clear_properties first)")
        return checked

    def _set(self, name: object, value: TypedValue) -> None:
        key = self._writable(name)
        self.properties[key] = value
        if key in self.null_properties:
            self.null_properties = tuple(n for n in self.null_properties if n != key)
        self._view = None

    def set_object_property(self, name: str, value: object) -> None:
        """'The setObjectProperty method accepts values of class Boolean, Byte, Short, Integer,
        Long, Float, Double, and String. An attempt to use any other class must throw a JMSException'
        (MessageFormatException, a JMSException)."""
        self._writable(name)
        self._set(name, tuple(java_value_of(value)))  # type: ignore[arg-type]

    def get_object_property(self, name: str) -> JavaValue | None:
        """'...in objectified format (for example, if the property was set as an int, an Integer is
        returned); if there is no property by this name, a null value is returned.'"""
        v = read_object(self.properties.get(name))
        return None if v is None else JavaValue(*v)

    def property_exists(self, name: str) -> bool:
        """'Indicates whether a property value exists.'"""
        return name in self.properties

    def get_property_names(self) -> list[str]:
        """'Note that Jakarta Messaging standard header fields are not considered properties and
        are not returned in this enumeration.'"""
        return list(self.properties)

    def clear_properties(self) -> None:
        """'A message's properties are deleted by the clearProperties method. This leaves the
        message with an empty set of properties.' ... 'If clearProperties is called, the properties
        can now be both read from and written to.'"""
        self.properties.clear()
        self.null_properties = ()
        self.properties_read_only = False
        self._view = None

    def set_read_only_properties(self) -> None:
        """'When a client receives a message, its properties are in read-only mode.' The loader
        calls this for every message it reads from a dump (dumped messages were received)."""
        self.properties_read_only = True

    # ----- headers ------------------------------------------------------------------------------

    def _set_header(self, name: str, value: Any) -> None:
        if value is None:
            self.headers.pop(name, None)
        else:
            self.headers[name] = value
        self._view = None  # 'Header fields are never in read-only mode.'

    def get_jms_delivery_mode(self) -> int:
        """The delivery mode as DeliveryMode's int (2 PERSISTENT, 1 NON_PERSISTENT); the default when unset."""
        mode = self.headers.get("JMSDeliveryMode", DEFAULT_DELIVERY_MODE)
        return {"PERSISTENT": PERSISTENT, "NON_PERSISTENT": NON_PERSISTENT}.get(mode, mode)  # type: ignore[no-any-return]

    def set_jms_delivery_mode(self, delivery_mode: int) -> None:
        if delivery_mode not in (PERSISTENT, NON_PERSISTENT) or type(delivery_mode) is not int:
            raise ValueError(f"delivery mode is DeliveryMode.PERSISTENT (2) or NON_PERSISTENT (1), not {delivery_mode!r}")
        self._set_header("JMSDeliveryMode", delivery_mode)

    def get_jms_priority(self) -> int:
        """'Returns: the default message priority' when none was set (4)."""
        return self.headers.get("JMSPriority", DEFAULT_PRIORITY)  # type: ignore[no-any-return]

    def set_jms_priority(self, priority: int) -> None:
        """'...ten levels of priority value, with 0 as the lowest priority and 9 as the highest.'"""
        if type(priority) is not int or not 0 <= priority <= 9:
            raise ValueError(f"priority is 0..9, not {priority!r}")
        self._set_header("JMSPriority", priority)

    def get_jms_correlation_id_as_bytes(self) -> bytes | None:
        """'The use of a byte[] value for JMSCorrelationID is non-portable': the String's UTF-8 bytes."""
        cid = self.headers.get("JMSCorrelationID")
        return None if cid is None else cid.encode("utf-8", "surrogatepass")  # type: ignore[no-any-return]

    def set_jms_correlation_id_as_bytes(self, correlation_id: bytes | bytearray | None) -> None:
        """'The array is copied before the method returns, so future modifications to the array
        will not alter this message header.' Stored as its UTF-8 text, as ActiveMQ does."""
        self._set_header("JMSCorrelationID", None if correlation_id is None else bytes(correlation_id).decode("utf-8", "replace"))

    # ----- body ---------------------------------------------------------------------------------

    def clear_body(self) -> None:
        """'Clearing a message's body does not clear its header values or property entries.'"""
        self.body = None

    def _body_object(self) -> Any:
        if self.body_type == "object" and self.body is not None:
            return SerializedObject(self.body)
        return self.body

    def is_body_assignable_to(self, cls: type) -> bool:
        """'If the message is a StreamMessage then false is always returned.' ... 'If the message
        has no body then any type may be specified and true is returned.'"""
        if self.body_type == "stream":
            return False
        body = self._body_object()
        if body is None:
            return True
        return isinstance(body, cls)

    def get_body(self, cls: type) -> Any:
        """'This method may be called on any type of message except for StreamMessage.' ... 'If
        the message has no body then any type may be specified and null is returned.'"""
        if self.body_type == "stream":
            raise MessageFormatException("getBody cannot be called on a StreamMessage")
        if not self.is_body_assignable_to(cls):
            raise MessageFormatException(f"the {self.body_type} body is a {type(self._body_object()).__name__}, not assignable to {cls.__name__}")
        body = self._body_object()
        return dict(body) if isinstance(body, dict) else body

    def acknowledge(self) -> None:
        """'Calls to acknowledge are ignored for both transacted sessions and sessions specified
        to use implicit acknowledgement modes': a dumped message has no session, so it is ignored."""

    # ----- typed property getters and setters (the conversion table on read) -----------------

    def get_boolean_property(self, name: str) -> bool:
        return read_as(self.properties.get(name), BOOLEAN)  # type: ignore[no-any-return]

    def set_boolean_property(self, name: str, value: bool) -> None:
        self._set(name, (BOOLEAN, _checked(BOOLEAN, value)))

    def get_byte_property(self, name: str) -> int:
        return read_as(self.properties.get(name), BYTE)  # type: ignore[no-any-return]

    def set_byte_property(self, name: str, value: int) -> None:
        self._set(name, (BYTE, _checked(BYTE, value)))

    def get_short_property(self, name: str) -> int:
        return read_as(self.properties.get(name), SHORT)  # type: ignore[no-any-return]

    def set_short_property(self, name: str, value: int) -> None:
        self._set(name, (SHORT, _checked(SHORT, value)))

    def get_int_property(self, name: str) -> int:
        return read_as(self.properties.get(name), INT)  # type: ignore[no-any-return]

    def set_int_property(self, name: str, value: int) -> None:
        self._set(name, (INT, _checked(INT, value)))

    def get_long_property(self, name: str) -> int:
        return read_as(self.properties.get(name), LONG)  # type: ignore[no-any-return]

    def set_long_property(self, name: str, value: int) -> None:
        self._set(name, (LONG, _checked(LONG, value)))

    def get_float_property(self, name: str) -> float:
        return read_as(self.properties.get(name), FLOAT)  # type: ignore[no-any-return]

    def set_float_property(self, name: str, value: float) -> None:
        self._set(name, (FLOAT, _checked(FLOAT, value)))

    def get_double_property(self, name: str) -> float:
        return read_as(self.properties.get(name), DOUBLE)  # type: ignore[no-any-return]

    def set_double_property(self, name: str, value: float) -> None:
        self._set(name, (DOUBLE, _checked(DOUBLE, value)))

    def get_string_property(self, name: str) -> str | None:
        return read_as(self.properties.get(name), STRING)  # type: ignore[no-any-return]

    def set_string_property(self, name: str, value: str) -> None:
        self._set(name, (STRING, _checked(STRING, value)))

    # ----- header fields ------------------------------------------------------------------------

    def get_jms_message_id(self) -> str | None:
        return self.headers.get("JMSMessageID", None)  # type: ignore[no-any-return]

    def set_jms_message_id(self, value: str | None) -> None:
        self._set_header("JMSMessageID", _header_value("JMSMessageID", value))

    def get_jms_timestamp(self) -> int:
        return self.headers.get("JMSTimestamp", 0)  # type: ignore[no-any-return]

    def set_jms_timestamp(self, value: int) -> None:
        self._set_header("JMSTimestamp", _header_value("JMSTimestamp", value))

    def get_jms_correlation_id(self) -> str | None:
        return self.headers.get("JMSCorrelationID", None)  # type: ignore[no-any-return]

    def set_jms_correlation_id(self, value: str | None) -> None:
        self._set_header("JMSCorrelationID", _header_value("JMSCorrelationID", value))

    def get_jms_type(self) -> str | None:
        return self.headers.get("JMSType", None)  # type: ignore[no-any-return]

    def set_jms_type(self, value: str | None) -> None:
        self._set_header("JMSType", _header_value("JMSType", value))

    def get_jms_destination(self) -> str | None:
        return self.headers.get("JMSDestination", None)  # type: ignore[no-any-return]

    def set_jms_destination(self, value: str | None) -> None:
        self._set_header("JMSDestination", _header_value("JMSDestination", value))

    def get_jms_reply_to(self) -> str | None:
        return self.headers.get("JMSReplyTo", None)  # type: ignore[no-any-return]

    def set_jms_reply_to(self, value: str | None) -> None:
        self._set_header("JMSReplyTo", _header_value("JMSReplyTo", value))

    def get_jms_expiration(self) -> int:
        return self.headers.get("JMSExpiration", 0)  # type: ignore[no-any-return]

    def set_jms_expiration(self, value: int) -> None:
        self._set_header("JMSExpiration", _header_value("JMSExpiration", value))

    def get_jms_delivery_time(self) -> int:
        return self.headers.get("JMSDeliveryTime", 0)  # type: ignore[no-any-return]

    def set_jms_delivery_time(self, value: int) -> None:
        self._set_header("JMSDeliveryTime", _header_value("JMSDeliveryTime", value))

    def get_jms_redelivered(self) -> bool:
        return self.headers.get("JMSRedelivered", False)  # type: ignore[no-any-return]

    def set_jms_redelivered(self, value: bool) -> None:
        self._set_header("JMSRedelivered", _header_value("JMSRedelivered", value))

    # The Java spellings, for readers of the javadoc.
    getBooleanProperty = get_boolean_property
    setBooleanProperty = set_boolean_property
    getByteProperty = get_byte_property
    setByteProperty = set_byte_property
    getShortProperty = get_short_property
    setShortProperty = set_short_property
    getIntProperty = get_int_property
    setIntProperty = set_int_property
    getLongProperty = get_long_property
    setLongProperty = set_long_property
    getFloatProperty = get_float_property
    setFloatProperty = set_float_property
    getDoubleProperty = get_double_property
    setDoubleProperty = set_double_property
    getStringProperty = get_string_property
    setStringProperty = set_string_property
    getJMSMessageID = get_jms_message_id
    setJMSMessageID = set_jms_message_id
    getJMSTimestamp = get_jms_timestamp
    setJMSTimestamp = set_jms_timestamp
    getJMSCorrelationID = get_jms_correlation_id
    setJMSCorrelationID = set_jms_correlation_id
    getJMSType = get_jms_type
    setJMSType = set_jms_type
    getJMSDestination = get_jms_destination
    setJMSDestination = set_jms_destination
    getJMSReplyTo = get_jms_reply_to
    setJMSReplyTo = set_jms_reply_to
    getJMSExpiration = get_jms_expiration
    setJMSExpiration = set_jms_expiration
    getJMSDeliveryTime = get_jms_delivery_time
    setJMSDeliveryTime = set_jms_delivery_time
    getJMSRedelivered = get_jms_redelivered
    setJMSRedelivered = set_jms_redelivered
    getObjectProperty = get_object_property
    setObjectProperty = set_object_property
    propertyExists = property_exists
    getPropertyNames = get_property_names
    clearProperties = clear_properties
    clearBody = clear_body
    getBody = get_body
    isBodyAssignableTo = is_body_assignable_to
    getJMSDeliveryMode = get_jms_delivery_mode
    setJMSDeliveryMode = set_jms_delivery_mode
    getJMSPriority = get_jms_priority
    setJMSPriority = set_jms_priority
    getJMSCorrelationIDAsBytes = get_jms_correlation_id_as_bytes
    setJMSCorrelationIDAsBytes = set_jms_correlation_id_as_bytes




_HEADER_KINDS: dict[str, type] = {
    "JMSMessageID": str, "JMSCorrelationID": str, "JMSType": str, "JMSDestination": str, "JMSReplyTo": str,
    "JMSTimestamp": int, "JMSExpiration": int, "JMSDeliveryTime": int, "JMSRedelivered": bool,
}  # fmt: skip


def _header_value(header: str, value: Any) -> Any:
    """A header value of the right Java type (String headers may be null)."""
    kind = _HEADER_KINDS[header]
    if value is None and kind is str:
        return None
    if type(value) is not kind or (isinstance(value, int) and not in_range(LONG, value)):
        raise TypeError(f"{header} takes a {'String or None' if kind is str else kind.__name__}, not {value!r}")
    return value

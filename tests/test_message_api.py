"""The javadoc of jakarta.jms.Message, statement by statement, against jmsctl.Message.

Each test quotes the sentence it checks (from ../shared/spec/jakarta-messaging-message-javadoc.txt).
"""

from __future__ import annotations

import math

import pytest

import jmsctl
from jmsctl import (
    IllegalArgumentException,
    JavaValue,
    JMSException,
    Message,
    MessageFormatException,
    MessageNotWriteableException,
    NullPointerException,
    NumberFormatException,
    SerializedObject,
)
from jmsctl.messages.decode import decode_message
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, JType, to_f32

# ----- "Message Properties" ------------------------------------------------------------------


@pytest.mark.parametrize("name", [None, ""])
def test_property_names_must_not_be_null_or_empty(name) -> None:
    """'If a property name is set and it is either null or an empty string, an
    IllegalArgumentException must be thrown.'"""
    with pytest.raises(IllegalArgumentException):
        Message().set_int_property(name, 1)


@pytest.mark.parametrize("name", ["order-id", "1abc", "AND", "null", "a.b"])
def test_property_names_must_obey_the_rules_for_a_selector_identifier(name) -> None:
    """'Property names must obey the rules for a message selector identifier.'"""
    with pytest.raises(IllegalArgumentException):
        Message().set_string_property(name, "x")


def test_valid_identifiers_in_any_script_are_property_names() -> None:
    m = Message()
    for name in ("größe", "€uro", "$price", "_x", "JMSXGroupID", "JMS_IBM_Format"):
        m.set_boolean_property(name, True)
    assert m.get_property_names() == ["größe", "€uro", "$price", "_x", "JMSXGroupID", "JMS_IBM_Format"]


def test_property_values_are_the_eight_types() -> None:
    """'Property values can be boolean, byte, short, int, long, float, double, and String.'"""
    m = Message()
    m.set_boolean_property("b", True)
    m.set_byte_property("y", -128)
    m.set_short_property("s", 32767)
    m.set_int_property("i", -(2**31))
    m.set_long_property("l", 2**63 - 1)
    m.set_float_property("f", 0.1)
    m.set_double_property("d", 0.1)
    m.set_string_property("t", "x")
    assert [m.get_object_property(n).type for n in "bysilfdt"] == [BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, STRING]
    assert m.get_float_property("f") == to_f32(0.1) != 0.1  # a float property holds a float


@pytest.mark.parametrize(("setter", "value"), [("set_byte_property", 128), ("set_short_property", -32769), ("set_int_property", 2**31), ("set_long_property", 2**63)])
def test_typed_setters_refuse_values_outside_their_type(setter, value) -> None:
    with pytest.raises(ValueError):
        getattr(Message(), setter)("x", value)


def test_received_properties_are_read_only() -> None:
    """'When a client receives a message, its properties are in read-only mode. If a client
    attempts to set properties at this point, a MessageNotWriteableException is thrown.'"""
    m = decode_message({"properties": {"x": 1}})
    m.set_read_only_properties()
    with pytest.raises(MessageNotWriteableException):
        m.set_int_property("x", 2)
    with pytest.raises(MessageNotWriteableException):
        m.set_object_property("y", "z")
    assert m.get_int_property("x") == 1


def test_clear_properties_makes_them_writable_again() -> None:
    """'If clearProperties is called, the properties can now be both read from and written to.'"""
    m = decode_message({"properties": {"x": 1}})
    m.set_read_only_properties()
    m.clear_properties()
    m.set_int_property("x", 2)
    assert m.get_int_property("x") == 2


def test_header_fields_are_never_read_only() -> None:
    """'Note that header fields are distinct from properties. Header fields are never in read-only mode.'"""
    m = decode_message({"headers": {"JMSType": "car"}})
    m.set_read_only_properties()
    m.set_jms_type("truck")
    m.set_jms_priority(9)
    assert (m.get_jms_type(), m.get_jms_priority()) == ("truck", 9)


# ----- the conversion table -------------------------------------------------------------------


def test_marked_cases_must_be_supported() -> None:
    """'Message properties support the following conversion table. The marked cases must be supported.'"""
    m = Message()
    m.set_byte_property("y", 7)
    assert (m.get_short_property("y"), m.get_int_property("y"), m.get_long_property("y"), m.get_string_property("y")) == (7, 7, 7, "7")
    m.set_float_property("f", 1.5)
    assert (m.get_double_property("f"), m.get_string_property("f")) == (1.5, "1.5")


def test_unmarked_cases_must_throw_a_jms_exception() -> None:
    """'The unmarked cases must throw a JMSException.'"""
    m = Message()
    m.set_long_property("l", 5)
    with pytest.raises(MessageFormatException) as info:
        m.get_int_property("l")
    assert isinstance(info.value, JMSException)
    m.set_boolean_property("b", True)
    with pytest.raises(MessageFormatException):
        m.get_int_property("b")


def test_string_to_primitive_uses_value_of() -> None:
    """'The String-to-primitive conversions may throw a runtime exception if the primitive's
    valueOf method does not accept the String as a valid representation of the primitive.'"""
    m = Message()
    m.set_string_property("n", "0x1F")
    with pytest.raises(NumberFormatException):
        m.get_int_property("n")
    m.set_string_property("d", " 1.5 ")
    assert m.get_double_property("d") == 1.5
    m.set_string_property("b", "TRUE")
    assert m.get_boolean_property("b") is True


def test_absent_property_reads() -> None:
    """'Getting a property value for a name which has not been set returns a null value. Only the
    getStringProperty and getObjectProperty methods can return a null value. Attempting to read a
    null value as a primitive type must be treated as calling the primitive's corresponding
    valueOf(String) conversion method with a null value.'"""
    m = Message()
    assert m.get_string_property("none") is None
    assert m.get_object_property("none") is None
    assert m.get_boolean_property("none") is False  # Boolean.valueOf(null)
    with pytest.raises(NumberFormatException):
        m.get_int_property("none")  # Integer.valueOf(null)
    with pytest.raises(NullPointerException):
        m.get_double_property("none")  # Double.valueOf(null)


# ----- setObjectProperty / getObjectProperty ---------------------------------------------------


@pytest.mark.parametrize(
    ("value", "jtype"),
    [(True, BOOLEAN), (5, INT), (2**40, LONG), (2.5, DOUBLE), ("s", STRING), ((BYTE, 3), BYTE), ((FLOAT, 0.5), FLOAT)],
)
def test_set_object_property_accepts_the_objectified_types(value, jtype) -> None:
    """'The setObjectProperty method accepts values of class Boolean, Byte, Short, Integer, Long,
    Float, Double, and String.'"""
    m = Message()
    m.set_object_property("x", value)
    assert m.get_object_property("x").type is jtype


@pytest.mark.parametrize("value", [None, [1], {"a": 1}, b"x", 1 + 2j, object()])
def test_set_object_property_refuses_any_other_class(value) -> None:
    """'An attempt to use any other class must throw a JMSException.'"""
    with pytest.raises(MessageFormatException) as info:
        Message().set_object_property("x", value)
    assert isinstance(info.value, JMSException)


def test_get_object_property_returns_the_objectified_type_it_was_set_as() -> None:
    """'...if the property was set as an int, an Integer is returned'."""
    m = Message()
    m.set_short_property("s", 3)
    assert m.get_object_property("s") == JavaValue(SHORT, 3)
    m.set_object_property("i", JavaValue(INT, 3))
    assert m.get_object_property("i") == JavaValue(JType.INT, 3)


def test_property_exists_and_names_exclude_headers() -> None:
    """'Note that Jakarta Messaging standard header fields are not considered properties and are
    not returned in this enumeration.'"""
    m = decode_message({"headers": {"JMSType": "car", "JMSPriority": 4}, "properties": {"color": "blue"}})
    assert m.get_property_names() == ["color"]
    assert m.property_exists("color") and not m.property_exists("JMSType")


def test_clear_properties_leaves_an_empty_set() -> None:
    """'This leaves the message with an empty set of properties.'"""
    m = decode_message({"properties": {"a": 1, "b": None}})
    m.clear_properties()
    assert m.get_property_names() == [] and m.null_properties == ()


# ----- headers --------------------------------------------------------------------------------


def test_default_constants() -> None:
    """DEFAULT_DELIVERY_MODE is PERSISTENT, DEFAULT_PRIORITY 4, DEFAULT_TIME_TO_LIVE and
    DEFAULT_DELIVERY_DELAY zero."""
    assert (Message.DEFAULT_DELIVERY_MODE, Message.DEFAULT_PRIORITY, Message.DEFAULT_TIME_TO_LIVE, Message.DEFAULT_DELIVERY_DELAY) == (2, 4, 0, 0)
    assert jmsctl.PERSISTENT == 2 and jmsctl.NON_PERSISTENT == 1


def test_header_getters_and_setters() -> None:
    m = Message()
    m.set_jms_message_id("ID:1")
    m.set_jms_timestamp(1700000000000)
    m.set_jms_delivery_mode(jmsctl.NON_PERSISTENT)
    m.set_jms_destination("queue://orders")
    m.set_jms_reply_to("topic://replies")
    m.set_jms_expiration(0)
    m.set_jms_delivery_time(1700000000500)
    m.set_jms_redelivered(True)
    assert (m.getJMSMessageID(), m.getJMSTimestamp(), m.getJMSDeliveryMode(), m.getJMSDestination()) == ("ID:1", 1700000000000, 1, "queue://orders")
    assert (m.getJMSReplyTo(), m.getJMSExpiration(), m.getJMSDeliveryTime(), m.getJMSRedelivered()) == ("topic://replies", 0, 1700000000500, True)
    with pytest.raises(ValueError):
        m.set_jms_priority(10)  # 'ten levels of priority value, with 0 as the lowest priority and 9 as the highest'


def test_priority_getter_returns_the_default_when_unset() -> None:
    """getJMSPriority: 'Returns: the default message priority'."""
    assert Message().get_jms_priority() == 4
    assert Message().get_jms_delivery_mode() == jmsctl.DEFAULT_DELIVERY_MODE


def test_delivery_mode_is_the_int_even_when_dumped_as_a_string() -> None:
    assert decode_message({"headers": {"JMSDeliveryMode": "NON_PERSISTENT"}}).get_jms_delivery_mode() == 1


def test_correlation_id_as_bytes_is_copied() -> None:
    """'The array is copied before the method returns, so future modifications to the array will
    not alter this message header.'"""
    data = bytearray(b"abc")
    m = Message()
    m.set_jms_correlation_id_as_bytes(data)
    data[0] = ord("z")
    assert m.get_jms_correlation_id_as_bytes() == b"abc"
    assert m.get_jms_correlation_id() == "abc"


def test_header_changes_are_seen_by_selectors() -> None:
    m = Message()
    sel = jmsctl.compile("JMSPriority > 4 AND weight = 5")
    m.set_int_property("weight", 5)
    assert not sel.matches(m)
    m.set_jms_priority(7)
    assert sel.matches(m)


# ----- body -----------------------------------------------------------------------------------


def test_clear_body_keeps_headers_and_properties() -> None:
    """'Clearing a message's body does not clear its header values or property entries.'"""
    m = decode_message({"type": "text", "headers": {"JMSType": "car"}, "properties": {"x": 1}, "body": "hi"})
    m.clear_body()
    assert m.get_body(str) is None and m.get_jms_type() == "car" and m.get_int_property("x") == 1


def test_get_body_text_bytes_map() -> None:
    """TextMessage: 'String.class or another type to which a String is assignable'; MapMessage:
    'java.util.Map.class (or java.lang.Object.class)'; BytesMessage: 'byte[].class (or java.lang.Object.class)'."""
    text = decode_message({"type": "text", "body": "hi"})
    assert text.get_body(str) == "hi" and text.get_body(object) == "hi"
    with pytest.raises(MessageFormatException):
        text.get_body(bytes)
    data = decode_message({"type": "bytes", "body": "AAEC"})
    assert data.get_body(bytes) == b"\x00\x01\x02" and data.is_body_assignable_to(object)
    assert not data.is_body_assignable_to(str)
    mapping = decode_message({"type": "map", "body": {"a": 1}})
    assert mapping.get_body(dict) == {"a": (INT, 1)}


def test_object_body_is_never_deserialized() -> None:
    """ObjectMessage: 'java.io.Serializable.class or another type to which the body is assignable':
    here the opaque SerializedObject (bytes), never deserialized."""
    m = decode_message({"type": "object", "body": "rO0ABXQAAmhp"})
    body = m.get_body(SerializedObject)
    assert isinstance(body, bytes) and body.startswith(b"\xac\xed")
    assert m.is_body_assignable_to(bytes) and not m.is_body_assignable_to(str)


def test_stream_message_body_is_never_assignable() -> None:
    """'If the message is a StreamMessage then false is always returned.' getBody: 'may be called
    on any type of message except for StreamMessage'."""
    m = decode_message({"type": "stream", "body": [1, 2]})
    assert not m.is_body_assignable_to(object)
    with pytest.raises(MessageFormatException):
        m.get_body(object)


@pytest.mark.parametrize("kind", ["message", "text", "bytes", "map", "object"])
def test_no_body_any_type_and_null(kind) -> None:
    """'If the message has no body then any type may be specified and null is returned.' /
    '...this method will return true irrespective of the value of this parameter.'"""
    m = decode_message({"type": kind})
    assert m.is_body_assignable_to(int) and m.get_body(int) is None


def test_acknowledge_is_ignored_without_a_session() -> None:
    """'Calls to acknowledge are ignored for both transacted sessions and sessions specified to use
    implicit acknowledgement modes': a dumped message has no session."""
    assert Message().acknowledge() is None


# ----- selectors on your own objects --------------------------------------------------------------


def test_selectors_on_messages_mappings_and_protocol_objects() -> None:
    sel = jmsctl.compile("JMSType = 'car' AND weight > 2500 AND JMSDeliveryMode = 'PERSISTENT'")
    m = Message(headers={"JMSType": "car", "JMSDeliveryMode": 2})
    m.set_int_property("weight", 2600)
    assert sel.matches(m)
    assert sel.matches({"JMSType": (STRING, "car"), "weight": (INT, 2600), "JMSDeliveryMode": (STRING, "PERSISTENT")})
    assert sel.matches(jmsctl.plain_values({"JMSType": "car", "weight": 2600, "JMSDeliveryMode": 2}))
    assert not sel.matches(jmsctl.plain_values({"JMSType": "car", "weight": "2600", "JMSDeliveryMode": 2}))

    class Row:  # anything with get(name) -> (JType, value) | None
        def get(self, name: str):
            return {"JMSType": (STRING, "car"), "weight": (LONG, 3000), "JMSDeliveryMode": (STRING, "PERSISTENT")}.get(name)

    assert sel.matches(Row())


def test_plain_values_types_by_the_bare_rules() -> None:
    v = jmsctl.plain_values({"i": 1, "l": 2**40, "d": 1.0, "b": True, "n": None, "t": (FLOAT, 0.5)})
    assert (v.get("i"), v.get("l"), v.get("d"), v.get("b"), v.get("n"), v.get("t"), v.get("absent")) == (
        (INT, 1), (LONG, 2**40), (DOUBLE, 1.0), (BOOLEAN, True), None, (FLOAT, 0.5), None,
    )
    assert math.isnan(jmsctl.plain_values({"x": math.nan}).get("x")[1])


def test_public_api_names_resolve() -> None:
    for name in jmsctl.__all__:
        assert getattr(jmsctl, name) is not None
    with pytest.raises(AttributeError):
        jmsctl.no_such_name  # noqa: B018


def test_messages_read_from_a_dump_were_received(tmp_path) -> None:
    """Dumped messages were received, so their properties are read-only until clearProperties."""
    p = tmp_path / "m.ndjson"
    p.write_text('{"properties": {"x": 1}}\n')
    (record,) = jmsctl.read_records(str(p))
    with pytest.raises(MessageNotWriteableException):
        record.message.set_int_property("x", 2)
    record.message.clear_properties()
    record.message.set_int_property("x", 2)

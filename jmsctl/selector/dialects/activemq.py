"""Apache ActiveMQ Classic (5.x): the shared broker grammar and filter package (see _broker.py), plus
PropertyExpression's header table, which reads absent headers as the message's field defaults."""

from jmsctl.selector.dialects import Dialect, frozen
from jmsctl.selector.dialects._broker import AMQ_F, SHARED_EVIDENCE, SHARED_SWITCHES
from jmsctl.values import BOOLEAN, INT, LONG, STRING

DIALECT = Dialect(
    name="activemq",
    title="Apache ActiveMQ Classic",
    **SHARED_SWITCHES,  # type: ignore[arg-type]
    double_vs_float="float-cast-throws",
    conversion_prefix="convert_string_expressions:",
    function_calls=True,
    field_backed_jmsx=True,
    header_defaults=frozen({
        "JMSPriority": (INT, 0),
        "JMSDeliveryMode": (STRING, "NON_PERSISTENT"),
        "JMSTimestamp": (LONG, 0),
        "JMSExpiration": (LONG, 0),
        "JMSXGroupFirstForConsumer": (BOOLEAN, False),
        "JMSActiveMQBrokerInTime": (LONG, 0),
        "JMSActiveMQBrokerOutTime": (LONG, 0),
        "JMSActiveMQBrokerPath": (STRING, "null"),
    }),
    extra_headers=("JMSDestination", "JMSReplyTo", "JMSExpiration", "JMSRedelivered"),
    evidence=frozen({
        **SHARED_EVIDENCE,
        "double_vs_float": f"{AMQ_F}ComparisonExpression.java compare(): a Float right of a Double is cast back to "
                           "float, and Double.compareTo(Float) throws ClassCastException: not delivered",
        "conversion_prefix": "apache/activemq activemq-client/src/main/grammar/SelectorParser.jj (5.17.2) lines 70-99: "
                             "SelectorParser.parse() strips a leading 'convert_string_expressions:' and parses the rest with "
                             "ComparisonExpression.CONVERT_STRING_EXPRESSIONS set; the STOMP ProtocolConverter puts it before "
                             "every selector a STOMP client subscribes with (activemq-stomp/src/main/java/org/apache/activemq/"
                             "transport/stomp/ProtocolConverter.java line 606: consumerInfo.setSelector(\"convert_string_expressions:\" "
                             "+ selector)). The parse is cached under the text WITHOUT the prefix (cache.put(sql, e) after "
                             "sql = sql.substring(...)), so an OpenWire consumer's later identical selector gets the "
                             "converting expression from the cache (measured here: tests/test_brokers_live.py); Artemis's "
                             "SelectorParser caches under the text as given",
        "convert_string_expressions": "False unless the selector carries the conversion_prefix: "
                                      f"{AMQ_F}ComparisonExpression.java compare() lines 403-497: with convertStringExpressions a "
                                      "String against a Byte/Short/Integer/Long/Float/Double/Boolean is read with that class's valueOf "
                                      "(NumberFormatException: FALSE) and compared as that class; a Boolean on the LEFT of a String "
                                      "casts the Boolean itself to String (ClassCastException: not delivered); the switch is read "
                                      "when each comparison is built (constructor, line 44), so it covers =, <>, <, <=, >, >=, BETWEEN",
        "function_calls": "apache/activemq activemq-client/src/main/grammar/SelectorParser.jj (5.17.2) unaryExpr(): "
                          "LOOKAHEAD(<ID> '(') functionCallExpr(); filter/function/BuiltinFunctionRegistry.java registers "
                          "INLIST, MAKELIST, REGEX, REPLACE, SPLIT (jmsctl rejects them: not evaluated)",
        "blank_is_error": "False: apache/activemq activemq-client/src/main/java/org/apache/activemq/"
                          "ActiveMQMessageConsumer.java: a selector whose trim() is empty is no selector (the parser "
                          "itself rejects it)",
        "field_backed_jmsx": "apache/activemq activemq-client/src/main/java/org/apache/activemq/command/ActiveMQMessage.java "
                             "JMS_PROPERTY_SETERS: JMSXGroupSeq and JMSXDeliveryCount go through TypeConversionSupport to "
                             "int fields (byte, short, int or a numeric String; other types are refused), JMSXGroupID to a "
                             "String field; Message.isRedelivered() is redeliveryCounter > 0; PropertyExpression reads the fields, "
                             "also JMSMessageID as MessageId.toString() ('ID:' put in front of a text that is not an ActiveMQ id, "
                             "command/MessageId.java) and destinations as ActiveMQDestination.toString() (a bare name is a queue)",
        "header_defaults": f"{AMQ_F}PropertyExpression.java JMS_PROPERTY_EXPRESSIONS reads the message's fields: "
                           "priority (byte, 0 in a new message), isPersistent() ? 'PERSISTENT' : 'NON_PERSISTENT', "
                           "timestamp and expiration (long, 0), isJMSXGroupFirstForConsumer() (false), broker in/out times (long, 0), "
                           "Arrays.toString(getBrokerPath()) ('null')",
        "extra_headers": f"{AMQ_F}PropertyExpression.java evaluates JMSDestination, JMSReplyTo (toString() or NULL), "
                         "JMSExpiration (long) and JMSRedelivered (boolean)",
    }),
)

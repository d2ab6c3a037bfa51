"""Apache ActiveMQ Artemis: the shared broker grammar and filter package (see _broker.py), plus the
JMS layer's text rewrite and the server's trimming of the filter string."""

from jmsctl.selector.dialects import Dialect, frozen
from jmsctl.selector.dialects._broker import ART_F, SHARED_EVIDENCE, SHARED_SWITCHES

DIALECT = Dialect(
    name="artemis",
    title="Apache ActiveMQ Artemis",
    **SHARED_SWITCHES,  # type: ignore[arg-type]
    blank_is_error=True,
    quoted_identifiers=True,
    hyphenated_prefix="hyphenated_props:",
    null_names=("JMSXGroupSeq",),
    extra_headers=("JMSExpiration",),
    rewrite_delivery_mode_literals=True,
    double_vs_float="widen",
    evidence=frozen({
        **SHARED_EVIDENCE,
        "blank_is_error": "apache/activemq-artemis artemis-server/src/main/java/org/apache/activemq/artemis/core/filter/"
                          "impl/FilterImpl.java createFilter() trims the text; the selector parser rejects the empty rest",
        "rewrite_delivery_mode_literals": "apache/activemq-artemis artemis-commons/src/main/java/org/apache/activemq/artemis/"
                                          "utils/SelectorTranslator.java: 'PERSISTENT' -> 'DURABLE' and 'NON_PERSISTENT' -> "
                                          "'NON_DURABLE' anywhere in the text, inside string literals too",
        "quoted_identifiers": "apache/activemq-artemis artemis-selector/src/main/javacc/StrictParser.jj "
                              "<QUOTED_ID: '\"' (('\"\"') | ~['\"'])* '\"'> in variable()",
        "hyphenated_prefix": "apache/activemq-artemis artemis-selector/src/main/java/org/apache/activemq/artemis/selector/impl/"
                             "SelectorParser.java parse(): 'hyphenated_props:' (and 'no_hyphenated_props:') stripped in a loop, "
                             "then HyphenatedParser.jj, whose <ID> takes '-' after the first character (StompTest)",
        "null_names": "apache/activemq-artemis artemis-core-client/src/main/java/org/apache/activemq/artemis/reader/"
                      "MessageUtil.java setIntProperty(): JMSXGroupSeq goes to the core group sequence, not to a property; "
                      "SelectorTranslator.java does not translate the name, so the filter finds no such property",
        "extra_headers": "apache/activemq-artemis artemis-commons/src/main/java/org/apache/activemq/artemis/utils/"
                         "SelectorTranslator.java: JMSExpiration -> AMQExpiration, which artemis-server FilterImpl.java reads "
                         "as the message's expiration; JMSRedelivered, JMSDestination and JMSReplyTo are not translated and "
                         "name no property (NULL)",
        "double_vs_float": f"{ART_F}ComparisonExpression.java compare(): a Float right of a Double widens to double",
    }),
)

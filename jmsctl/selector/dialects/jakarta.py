"""The standard: the Jakarta Messaging javadoc's selector rules (docs/SEMANTICS.md), every switch off."""

from jmsctl.selector.dialects import Dialect

DIALECT = Dialect(name="jakarta", title="Jakarta Messaging (the standard)")

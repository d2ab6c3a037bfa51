"""IBM MQ: the standard's grammar; a type error or NULL in arithmetic makes the whole selector FALSE."""

from jmsctl.selector.dialects import Dialect, frozen

DIALECT = Dialect(
    name="ibm",
    title="IBM MQ",
    ibm_whole_false=True,
    evidence=frozen({
        "ibm_whole_false": "docs/SEMANTICS.md#ibm-dialect (IBM MQ 'Message selector syntax': comparisons of unlike types, "
                           "arithmetic on NULL, a non-boolean identifier as a condition make the selector FALSE)",
    }),
)

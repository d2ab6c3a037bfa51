"""W018: a bare identifier as the whole selector (``topic``, ``mySubscription``).

Valid: it selects the messages whose boolean property of that name is TRUE. In code it is nearly
always a destination or subscription name passed where the selector goes
(``createConsumer(topic, "name")``, ``createDurableSubscriber(topic, sel, name, false)`` with the
strings swapped); ``jmsctl scan`` says which argument it is and what the signature expects. A name
that reads as a boolean (``isUrgent``, ``hasAttachment``, ``urgent_flag``, a participle such as
``AnswerAlreadyPlayed``, which public code does set with ``setBooleanProperty``) is quiet, and so is a
single letter (``a``: how tests name a boolean property).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jmsctl.diagnostics import Diagnostic, warning
from jmsctl.selector import nodes as n
from jmsctl.selector.limits import clip
from jmsctl.selector.lints import Rule

_BOOLEAN = re.compile(r"(?:is|has|can|should|was|were|will|does|did|allow|allows|enable|enabled|use|needs?|include|skip|no)(?:[A-Z_0-9]|$)"
                      r"|.*(?:[Ff]lag|[Ee]nabled|[Dd]isabled|[Aa]ctive|[Vv]alid|[Rr]eady|[Uu]rgent|[Rr]equired|Already.*|[a-z]ed)$")
_NAMES = re.compile(r"topic|queue|subscri|sub$|durable|client|consumer|destination|channel|name|listener|group|tenant|app", re.IGNORECASE)


def boolean_name(name: str) -> bool:
    return _BOOLEAN.match(name) is not None


def run(node: n.Node, source: str) -> Iterator[Diagnostic]:
    if not isinstance(node, n.Identifier) or node.kind is not n.IdentifierKind.APPLICATION or boolean_name(node.name):
        return
    if len(node.name) < 2:  # 'a', 'b': how tests name boolean properties; no queue is called that
        return
    what = "a destination or subscription name" if _NAMES.search(node.name) else "a name"
    yield warning("W018", f"the whole selector is the identifier {clip(node.name)}: it selects the messages whose boolean property "
                  f"{clip(node.name)} is TRUE; is this {what} passed where the selector goes?", node.span,
                  hint=f"a selector is a condition such as {clip(node.name)} = 'value'; pass names as the destination or subscription "
                       f"argument (write {clip(node.name)} = TRUE if a boolean property is meant)")


RULE = Rule("W018", "a bare identifier as the whole selector (`topic`): a boolean property, but nearly always a name passed as the selector",
            (), run, root=True)

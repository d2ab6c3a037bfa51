"""``browse --compare``: the broker's own selection against jmsctl's verdicts on the same messages.

The queue is browsed twice, once selected by the broker and once unselected; each message of the
unselected browse is judged locally under the dialect, with the prefix the transport puts before
the selector (STOMP on ActiveMQ: ``convert_string_expressions:``), and the two selections are
compared by JMSMessageID. A message in the selected browse but not in the unselected one (the queue
changed between the browses) is counted apart, never judged.

A transport may not deliver every name the broker selects on (``uncarried``: ActiveMQ's STOMP never
sends JMSXGroupID or JMSXGroupSeq). When the selector reads such a name, jmsctl judges a message
without it, and a message on which the two then differ is left out (counted), not a difference.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from jmsctl import selector as sel
from jmsctl.messages.model import Message
from jmsctl.selector.nodes import Identifier, walk
from jmsctl.values import Tri, tri_name


@dataclass(frozen=True)
class Difference:
    message: Message
    broker_selected: bool
    verdict: Tri  # jmsctl's, under the dialect


@dataclass
class Comparison:
    selector: str  # as jmsctl judged it (the transport's prefix included)
    dialect: str
    browsed: int = 0  # the unselected browse
    broker_selected: int = 0
    jmsctl_selected: int = 0
    differences: list[Difference] = field(default_factory=list)
    unmatched: int = 0  # selected by the broker, absent from the unselected browse
    without_id: int = 0  # messages with no JMSMessageID: cannot be paired
    uncarried: tuple[str, ...] = ()  # names the selector reads that the transport does not deliver
    left_out: int = 0  # messages on which the two differ, judged without those names: not compared


def compare(selected: Iterable[Message], everything: Iterable[Message], selector: str, dialect: str,
            uncarried: frozenset[str] = frozenset()) -> Comparison:
    """Pair the broker's selection with jmsctl's verdicts (``selector`` already prefixed); ``uncarried``:
    the names the transport does not deliver. InvalidSelectorException when jmsctl rejects the
    selector under the dialect."""
    compiled = sel.compile(selector, dialect)
    ids = set()
    read = [] if compiled.ast is None else [node.name for node in walk(compiled.ast) if isinstance(node, Identifier)]
    out = Comparison(selector, dialect, uncarried=tuple(sorted(uncarried.intersection(read))))
    for m in selected:
        mid = m.headers.get("JMSMessageID")
        if mid is None:
            out.without_id += 1
        else:
            ids.add(mid)
    out.broker_selected = len(ids) + out.without_id
    seen = set()
    for m in everything:
        out.browsed += 1
        mid = m.headers.get("JMSMessageID")
        if mid is None:
            out.without_id += 1
            continue
        seen.add(mid)
        verdict = compiled.evaluate(m)
        ours = verdict is True
        out.jmsctl_selected += ours
        if ours != (mid in ids):
            if out.uncarried:
                out.left_out += 1
            else:
                out.differences.append(Difference(m, mid in ids, verdict))
    out.unmatched = len(ids - seen)
    return out


def describe(d: Difference) -> str:
    return (f"{d.message.headers.get('JMSMessageID')}: the broker {'selected' if d.broker_selected else 'did not select'} it; "
            f"jmsctl: {tri_name(d.verdict)}")


__all__ = ["Comparison", "Difference", "compare", "describe"]

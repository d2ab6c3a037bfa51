"""The broker a scanned file is written for, when the file itself says so: its imports (Artemis's
``org.apache.activemq.artemis``, the Qpid JMS client's ``org.apache.qpid.jms``) or an Artemis
``broker.xml`` (the ``urn:activemq:core`` namespace). Both read ``"name"`` as a quoted property
name, not a string: their grammars' QUOTED_ID (apache/activemq-artemis
artemis-selector/src/main/javacc/StrictParser.jj:134, apache/qpid-jms
qpid-jms-client/src/main/javacc/SelectorParserImpl.jj:133), so a fix that makes it a string
literal would change what a working consumer selects."""

from __future__ import annotations

import re

from jmsctl.diagnostics import Diagnostic

_KNOWN = (
    (re.compile(r"\b(?:import|package)\s+org\.apache\.activemq\.artemis\b|\burn:activemq:core\b"), "Apache ActiveMQ Artemis"),
    (re.compile(r"\b(?:import|package)\s+org\.apache\.qpid\.jms\b"), "the Qpid JMS client"),
)


def quoted_ids(text: str) -> str:
    """Who reads "x" as a property name in this file (its broker or client, by its imports), or ''."""
    for pattern, who in _KNOWN:
        if pattern.search(text):
            return who
    return ""


def noted(d: Diagnostic, who: str) -> Diagnostic:
    """E005 told that this file's broker reads the double-quoted text as a property name."""
    if d.code != "E005" or not who:
        return d
    note = (f"this file is written for {who} (its imports say so), which reads \"...\" as a quoted property name "
            "(QUOTED_ID): the selector works there; `--dialect artemis` reads it so, and --fix leaves it")
    return Diagnostic(d.code, d.severity, d.message, d.span, d.expected, d.hint, (*d.notes, note), d.data)


__all__ = ["noted", "quoted_ids"]

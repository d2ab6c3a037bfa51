"""The JMS transport's side of ``move``/``purge`` (jmsctl/brokers/actions.py): JmsctlBridge.Mover, a
transacted session on the connection's JMS client that consumes, copies and sends a whole batch in
one call from Python (bench/actions_bench.py: per-message calls from Python halve the rate).

The copy keeps the body, every property with its Java type, JMSType, JMSCorrelationID, JMSReplyTo,
the priority, the delivery mode and the expiration; the broker gives it a new JMSMessageID and
JMSTimestamp, and JMSXDeliveryCount starts again (a message moved out of a dead-letter queue is not
dead-lettered again on its next rollback).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from typing import Any

from jmsctl.brokers.actions import ORIGINAL_DESTINATION, ORIGINAL_ID, PAUSE, Taken
from jmsctl.brokers.interface import BrokerError
from jmsctl.brokers.jms import JmsConnection


class JmsMover:
    def __init__(self, conn: JmsConnection, source: str, target: str | None, to_origin: bool) -> None:
        self.conn = conn
        self.lost: Counter[str] = Counter()
        self.mover: Any = None
        try:
            self.mover = conn.bridge.Mover(conn.connection, source, target, to_origin, ORIGINAL_ID, ORIGINAL_DESTINATION)
        except conn._error as exc:
            raise self._error(exc) from None

    def _error(self, exc: Any) -> BrokerError:
        return BrokerError(f"{self.conn.target.url}: {self.conn.describe(exc)}")

    def _call(self, name: str, *args: Any) -> Any:
        try:
            return getattr(self.mover, name)(*args)
        except self.conn._error as exc:
            raise self._error(exc) from None

    def select(self, selector: str | None) -> None:
        self._call("select", selector)

    def take(self, count: int, wait: float, full: bool) -> list[Taken]:
        text = str(self._call("take", count, max(1, int(wait * 1000)), int(PAUSE * 1000), full))
        if not text:
            return []
        if not full:
            return [Taken(line) for line in text.split("\n")]
        out = []
        for line in text.split("\n"):
            m = self.conn.message(line)
            out.append(Taken(str(m.headers.get("JMSMessageID")), m))
        return out

    def commit(self) -> None:
        self._call("commit")

    def rollback(self) -> None:
        self._call("rollback")

    def close(self) -> None:
        if self.mover is not None:
            with contextlib.suppress(Exception):
                self.mover.close()


__all__ = ["JmsMover"]

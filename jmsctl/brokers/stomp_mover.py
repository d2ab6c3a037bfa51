"""The STOMP transport's side of ``move``/``purge`` (jmsctl/brokers/actions.py): a subscription with
``ack: client-individual``, and per batch ``BEGIN``, a ``SEND`` and an ``ACK`` per message in the
transaction, ``COMMIT`` with a receipt (ActiveMQ Classic runs the sends and the acks of one STOMP
transaction in one broker transaction: apache/activemq activemq-stomp/.../ProtocolConverter.java
onStompBegin, onStompAck, onStompCommit). Nothing of a batch reaches the broker before its COMMIT
unless the batch is large (then ``ABORT`` on a rollback); messages delivered to the subscription and
not acknowledged go back to the queue when the subscription or the connection ends.

What STOMP cannot keep of a moved message: property types (properties are header Strings both ways)
and bodies other than text and bytes; said once each with a count (``lost``).
"""

from __future__ import annotations

import contextlib
from collections import Counter, deque
from collections.abc import Iterator

from jmsctl.brokers.actions import ORIGINAL_DESTINATION, ORIGINAL_ID, PAUSE, Taken
from jmsctl.brokers.interface import BrokerError, SendReport
from jmsctl.brokers.stomp import Frame, StompConnection, _error_text, encode_frame, escape, message_of
from jmsctl.messages.model import Message
from jmsctl.values import STRING

FLUSH = 1 << 16  # bytes of a batch held before they are sent ahead of the COMMIT
EXPECTED = ("JMSMessageID (", "JMSTimestamp (", "JMSRedelivered (")  # a move changes these by design: not "lost"


class StompMover:
    def __init__(self, conn: StompConnection, source: str, target: str | None, to_origin: bool, prefetch: int) -> None:
        self.conn = conn
        self.source = source
        self.target = target
        self.to_origin = to_origin
        self.prefetch = max(1, prefetch)
        self.report = SendReport()
        self.sid: str | None = None
        self.tx: str | None = None
        self.out = bytearray()
        self.sent_ahead = False
        self.waiting: deque[Frame] = deque()
        self.typed = Counter[str]()
        self._n = 0

    @property
    def lost(self) -> Counter[str]:
        out = Counter({k: v for k, v in self.report.lost.items() if not k.startswith(EXPECTED)})
        out.update(self.typed)
        return out

    def _id(self) -> str:
        self._n += 1
        return f"jmsctl-act-{self._n}"

    def select(self, selector: str | None) -> None:
        if self.sid is not None:
            self.conn._send(encode_frame("UNSUBSCRIBE", {"id": self.sid}))
        self.sid = self._id()
        headers = {"id": self.sid, "destination": f"/queue/{self.source}", "ack": "client-individual",
                   "activemq.prefetchSize": str(self.prefetch)}
        if selector is not None:
            headers["selector"] = selector
        self.waiting.clear()
        self.conn._send(encode_frame("SUBSCRIBE", headers))

    def _frames(self, wait: float) -> Iterator[Frame | None]:
        """This subscription's MESSAGE frames; None when nothing came for ``wait`` seconds."""
        while True:
            if self.waiting:
                yield self.waiting.popleft()
                continue
            try:
                frame = self.conn.read(wait, "idle")
            except TimeoutError:
                yield None
                continue
            if frame.command == "ERROR":
                raise BrokerError(f"{self.conn.target.url}: {_error_text(frame)}")
            if frame.command == "MESSAGE" and frame.headers.get("subscription") == self.sid:
                yield frame

    def take(self, count: int, wait: float, full: bool) -> list[Taken]:
        if self.tx is None:
            self.tx = self._id()
            self.out += encode_frame("BEGIN", {"transaction": self.tx})
        taken: list[Taken] = []
        first, later = self._frames(wait), self._frames(min(wait, PAUSE))
        while len(taken) < count:
            frame = next(later if taken else first)
            if frame is None:
                break
            h = frame.headers
            mid = h.get("message-id", "")
            sending = self.target is not None or self.to_origin
            message = message_of(frame) if sending or full else None  # a purge without a backup needs only the id
            if message is not None and sending:
                self.out += self._send_frame(frame, message)
            self.out += encode_frame("ACK", {"id": h.get("ack", mid), "transaction": self.tx})
            taken.append(Taken(mid, message if full else None))
            if len(self.out) > FLUSH:
                self.conn._send(bytes(self.out))
                self.out.clear()
                self.sent_ahead = True
        return taken

    def _send_frame(self, frame: Frame, message: Message) -> bytes:
        h = frame.headers
        target = self.target
        if self.to_origin:
            target = h.get("original-destination")
            if target is None:
                raise BrokerError(f"{self.conn.target.url}: message {h.get('message-id')} has no original destination")
        assert target is not None
        topic = target.startswith(("/topic/", "topic://"))
        name = target.split("/", 2)[-1] if target.startswith("/") else target.split("://", 1)[-1]
        if message.properties:
            self.typed["property types (STOMP delivers and sends properties as Strings)"] += 1
        props = dict(message.properties)
        props[ORIGINAL_ID] = (STRING, h.get("message-id", ""))
        props[ORIGINAL_DESTINATION] = (STRING, f"queue://{self.source}")
        data = self.conn.frame_of(name, Message(message.headers, props, message.body_type, message.body), self.report)
        head = b"SEND\ntransaction:" + escape(self.tx or "").encode() + b"\n"
        if topic:
            data = data.replace(b"\ndestination:/queue/" + escape(name).encode("utf-8") + b"\n",
                                b"\ndestination:/topic/" + escape(name).encode("utf-8") + b"\n", 1)
        return head + data[len(b"SEND\n"):]

    def commit(self) -> None:
        if self.tx is None:
            self.tx = self._id()
            self.out += encode_frame("BEGIN", {"transaction": self.tx})
        receipt = f"{self.tx}-commit"
        self.out += encode_frame("COMMIT", {"transaction": self.tx, "receipt": receipt})
        self.conn._send(bytes(self.out))
        self.out.clear()
        self.sent_ahead = True  # from here until the receipt the broker may have it
        while True:
            frame = self.conn.read(self.conn.options.timeout, "commit")
            if frame.command == "ERROR":
                raise BrokerError(f"{self.conn.target.url}: {_error_text(frame)}")
            if frame.command == "RECEIPT" and frame.headers.get("receipt-id") == receipt:
                break
            if frame.command == "MESSAGE" and frame.headers.get("subscription") == self.sid:
                self.waiting.append(frame)
        self.tx, self.sent_ahead = None, False

    def rollback(self) -> None:
        self.out.clear()
        tx, self.tx = self.tx, None
        if tx is not None and self.sent_ahead and self.conn.sock is not None:
            self.conn._send(encode_frame("ABORT", {"transaction": tx}))
        self.sent_ahead = False

    def close(self) -> None:
        if self.sid is not None and self.conn.sock is not None:
            with contextlib.suppress(BrokerError):
                self.conn._send(encode_frame("UNSUBSCRIBE", {"id": self.sid}))
        self.sid = None


__all__ = ["StompMover"]

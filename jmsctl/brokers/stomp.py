"""The STOMP transport, in pure Python (no Java needed): ``stomp://HOST:PORT``, ``stomps://`` with TLS.

STOMP 1.2 framing of our own (a frame: a command line, ``name:value`` headers with ``\\c \\n \\r \\\\``
escapes, a blank line, a body ended by NUL or sized by ``content-length``). What the protocol
cannot carry, and what the broker makes of it (ActiveMQ Classic 5.17, apache/activemq
activemq-stomp/src/main/java/org/apache/activemq/transport/stomp/):

- properties travel as header Strings both ways (FrameTranslator.java, Helper: ``"" + value``), so a
  browse over STOMP has String properties only, said once per browse;
- ActiveMQ browses with ``browser: true`` on SUBSCRIBE and ends the browse with a MESSAGE whose
  ``browser`` header is ``end`` (ProtocolConverter.java onStompSubscribe, StompQueueBrowserSubscription.java);
- ActiveMQ prefixes every STOMP selector with ``convert_string_expressions:`` (ProtocolConverter.java,
  line 606 at activemq-5.17.2): its engine then converts a String compared with a number or boolean
  (the ``activemq`` dialect's ``convert_string_expressions`` switch);
- ``amq-msg-type: text|bytes`` on SEND picks the JMS body type, and ActiveMQ keeps it (and then
  ``content-length``) as properties of the message: jmsctl sends a text without either header
  unless it holds NUL (LegacyFrameTranslator.java, ``frame_of``).
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from jmsctl.brokers.interface import BrokerError, BrowseStalled, Options, SendReport, Target, destination, stalled
from jmsctl.brokers.outgoing import STOMP_HEADERS, Outgoing, prepare
from jmsctl.messages.model import Message
from jmsctl.values import STRING

CONVERT_PREFIX = "convert_string_expressions:"
STOMP_NUL_TEXT = ("text bodies holding NUL (sent with amq-msg-type and content-length, which ActiveMQ keeps as the "
                  "message's properties amq-msg-type and content-length)")
# What ActiveMQ selects on but never puts in a STOMP frame: a MESSAGE's headers are the JMS headers and
# message.getProperties(), the properties map (activemq-stomp FrameTranslator.java, Helper
# copyStandardHeadersFromMessageToFrame), and the JMSX group names are not in that map but fields of
# the message (activemq-client command/ActiveMQMessage.java: JMS_PROPERTY_SETERS put "JMSXGroupID" in
# setGroupID, "JMSXGroupSeq" in setGroupSequence; the selector reads them through PropertyExpression).
ACTIVEMQ_UNCARRIED = frozenset({"JMSXGroupID", "JMSXGroupSeq"})
RECEIPT = "jmsctl-sent-"  # the receipt asked for each SEND, numbered
DEFAULT_PORT = 61613

_FRAME_HEADERS = STOMP_HEADERS  # MESSAGE headers that are STOMP's or JMS headers, not properties
_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", ":": "\\c"}
_UNESCAPES = {"\\\\": "\\", "\\n": "\n", "\\r": "\r", "\\c": ":"}


@dataclass
class Frame:
    command: str
    headers: dict[str, str]
    body: bytes


def escape(text: str) -> str:
    return "".join(_ESCAPES.get(c, c) for c in text) if any(c in text for c in _ESCAPES) else text


def unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out, i = [], 0
    while i < len(text):
        pair = text[i:i + 2]
        if pair in _UNESCAPES:
            out.append(_UNESCAPES[pair])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def encode_frame(command: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [command] + [f"{escape(k)}:{escape(v)}" for k, v in headers.items()]
    return ("\n".join(lines) + "\n\n").encode("utf-8") + body + b"\0"


class StompConnection:
    """One STOMP connection: CONNECT on open, DISCONNECT on close."""

    typed = False

    def __init__(self, target: Target, options: Options) -> None:
        self.target = target
        self.options = options
        self.buffer = bytearray()
        host, port = _host_port(target)
        try:
            raw = socket.create_connection((host, port), timeout=options.timeout)
        except OSError as exc:
            raise BrokerError(f"{target.url}: cannot connect: {exc.strerror or exc}") from None
        try:
            if target.scheme == "stomps":
                raw = ssl.create_default_context().wrap_socket(raw, server_hostname=host)
        except (OSError, ssl.SSLError) as exc:
            raw.close()
            raise BrokerError(f"{target.url}: TLS failed: {exc}") from None
        self.sock: socket.socket | None = raw
        headers = {"accept-version": "1.2", "host": host, "heart-beat": "0,0"}
        if options.user is not None:
            headers["login"] = options.user
        if options.password is not None:
            headers["passcode"] = options.password
        try:
            self.sock.sendall(encode_frame("CONNECT", headers))
            frame = self.read(options.timeout, "connect")
        except BrokerError:
            self.close()
            raise
        if frame.command != "CONNECTED":
            self.close()
            raise BrokerError(f"{target.url}: {_error_text(frame)}")
        self.server = frame.headers.get("server", "")
        self.dialect = dialect_of(self.server)
        # ActiveMQ converts Strings in every STOMP selector: jmsctl judges with the same prefix.
        self.selector_prefix = CONVERT_PREFIX if self.dialect == "activemq" else ""
        self.uncarried = ACTIVEMQ_UNCARRIED if self.dialect == "activemq" else frozenset()
        self._ids = 0
        self.said: Counter[str] = Counter()  # what a browse read other than as it came, said once with a count

    # ----- frames ------------------------------------------------------------------------------

    def read(self, timeout: float | None, what: str) -> Frame:
        """The next frame; BrokerError when the broker closes or says nothing for ``timeout`` s
        (``socket.timeout`` left to the caller when ``what`` is ``idle``)."""
        assert self.sock is not None
        self.sock.settimeout(timeout)
        buf = self.buffer
        while True:
            while buf[:1] in (b"\n", b"\r"):  # heart-beats and the EOL after a frame's NUL
                del buf[:1]
            end = buf.find(b"\n\n")
            end_crlf = buf.find(b"\r\n\r\n")
            if end_crlf != -1 and (end == -1 or end_crlf < end):
                head, start = bytes(buf[:end_crlf]).replace(b"\r\n", b"\n"), end_crlf + 4
            elif end != -1:
                head, start = bytes(buf[:end]).replace(b"\r\n", b"\n"), end + 2
            else:
                self._fill(what)
                continue
            frame = self._frame(head, start, what)
            if frame is not None:
                return frame

    def _frame(self, head: bytes, start: int, what: str) -> Frame | None:
        lines = head.decode("utf-8", "replace").split("\n")
        command, headers = lines[0], {}
        plain = command in ("CONNECTED", "CONNECT")  # no escapes in these (STOMP 1.2)
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name if plain else unescape(name)
            if name not in headers:  # the first of a repeated header counts (STOMP 1.2)
                headers[name] = value if plain else unescape(value)
        buf = self.buffer
        length = headers.get("content-length")
        if length is not None and length.isdigit():
            while len(buf) < start + int(length) + 1:
                self._fill(what)
            body = bytes(buf[start:start + int(length)])
            del buf[:start + int(length) + 1]
        else:
            while (nul := buf.find(b"\0", start)) == -1:
                self._fill(what)
            body = bytes(buf[start:nul])
            del buf[:nul + 1]
        return Frame(command, headers, body)

    def _fill(self, what: str) -> None:
        assert self.sock is not None
        try:
            data = self.sock.recv(1 << 16)
        except TimeoutError:
            if what == "idle":
                raise
            raise BrokerError(f"{self.target.url}: no answer within {self.sock.gettimeout():g} s ({what}; --timeout)") from None
        except OSError as exc:
            raise BrokerError(f"{self.target.url}: connection lost: {exc.strerror or exc}") from None
        if not data:
            raise BrokerError(f"{self.target.url}: the broker closed the connection")
        self.buffer += data

    def _send(self, data: bytes) -> None:
        assert self.sock is not None
        try:
            self.sock.settimeout(self.options.timeout)
            self.sock.sendall(data)
        except OSError as exc:
            raise BrokerError(f"{self.target.url}: connection lost: {exc.strerror or exc}") from None

    def _subscribe(self, where: str, selector: str | None, browser: bool, receipt: bool = False) -> str:
        self._ids += 1
        sid = str(self._ids)
        headers = {"id": sid, "destination": where, "ack": "auto"}
        if receipt:
            headers["receipt"] = f"subscribed-{sid}"
        if browser:
            headers["browser"] = "true"
        if selector is not None:
            headers["selector"] = selector
        self._send(encode_frame("SUBSCRIBE", headers))
        return sid

    # ----- browse, watch, send -----------------------------------------------------------------

    def browse(self, queue: str, selector: str | None = None) -> Iterator[Message]:
        kind, queue = destination(self.target, queue)
        if kind != "queue":
            raise BrokerError(f"{self.target.url}: a topic cannot be browsed (it keeps no messages): watch it")
        sid = self._subscribe(f"/queue/{queue}", selector, browser=True)
        count = 0
        subscribed = True
        try:
            while True:
                try:
                    frame = self.read(self.options.idle_timeout, "idle")
                except TimeoutError:
                    raise BrowseStalled(stalled(self.target, selector, count, self.options.idle_timeout), count) from None
                if frame.command == "ERROR":  # the subscription was refused: nothing to unsubscribe
                    subscribed = False
                    raise BrokerError(f"{self.target.url}: {_error_text(frame)}")
                if frame.command != "MESSAGE" or frame.headers.get("subscription", sid) != sid:
                    continue
                if frame.headers.get("browser") == "end":
                    break
                count += 1
                message = message_of(frame)
                if message.body_type == "text" and message.body is not None and "\ufffd" in message.body:
                    odd = not_utf_8(frame.body)  # a replacement character: read from bytes that were not UTF-8?
                    if odd is not None:
                        self.said[odd] += 1
                yield message
        finally:
            for what, n in self.said.items():
                self.options.notes.append(f"{self.target.url}: {what}: {n} message{'s' if n != 1 else ''}")
            self.said.clear()
            if self.sock is not None and subscribed:
                self._send(encode_frame("UNSUBSCRIBE", {"id": sid}))
        if count == 0:
            self.options.notes.append(f"queue {queue!r} is empty, or did not exist: STOMP cannot ask first, and a broker "
                                      "that creates queues on demand has created it (the JMS transport asks first)")

    def watch(self, topic: str, selector: str | None = None) -> Iterator[Message]:
        kind, topic = destination(self.target, topic, "topic")
        if kind != "topic":
            raise BrokerError(f"{self.target.url}: watch follows a topic; a queue is browsed")
        sid = self._subscribe(f"/topic/{topic}", selector, browser=False, receipt=True)
        while True:
            frame = self.read(None, "watch")
            if frame.command == "ERROR":
                raise BrokerError(f"{self.target.url}: {_error_text(frame)}")
            if frame.command == "RECEIPT" and frame.headers.get("receipt-id") == f"subscribed-{sid}":
                if self.options.progress is not None:  # the broker has the subscription
                    self.options.progress(f"subscribed to topic {topic}: messages published from now on")
            elif frame.command == "MESSAGE" and frame.headers.get("subscription", sid) == sid:
                yield message_of(frame)

    def send(self, queue: str, messages: Iterable[Message], report: SendReport) -> None:
        """Every SEND asks for a receipt, pipelined (never awaited one by one): ``report.sent`` counts
        the receipts, what the broker took. ActiveMQ answers a frame it refuses (a header line over
        10,240 bytes) with ERROR and closes the connection: the frames after it are not taken, and
        were counted as sent before (3 said, 1 on the queue)."""
        pending = bytearray()
        asked = 0
        try:
            for message in messages:
                lost: Counter[str] = Counter()
                out = prepare(message, True, lost)
                refused = activemq_refusal(out.message) if self.dialect == "activemq" else None
                if refused is not None:  # never sent: the broker would refuse it, and close the connection on the rest
                    report.lost[refused] += 1
                    continue
                report.lost.update(lost)
                frame = self._send_frame(queue, out, report)
                asked += 1
                pending += b"SEND\nreceipt:" + RECEIPT.encode() + str(asked).encode() + frame[4:]
                if len(pending) > 1 << 16:
                    self._send(bytes(pending))
                    pending.clear()
                    self._receipts(report, None)
            if pending:
                self._send(bytes(pending))
            while report.sent < asked:
                self._receipts(report, self.options.timeout)
        except BrokerError:
            self._drain(report)  # receipts the broker sent before it failed or closed
            raise

    def _receipts(self, report: SendReport, timeout: float | None) -> None:
        """The receipts (and an ERROR) the broker has sent: one frame awaited for ``timeout`` s, or
        (None) only those already here."""
        while True:
            try:
                frame = self.read(timeout if timeout is not None else 0.000001, "send" if timeout is not None else "idle")
            except TimeoutError:
                return
            if frame.command == "ERROR":
                raise BrokerError(f"{self.target.url}: {_error_text(frame)}")
            if frame.command == "RECEIPT" and frame.headers.get("receipt-id", "").startswith(RECEIPT):
                report.sent += 1
            if timeout is not None:
                return

    def _drain(self, report: SendReport) -> None:
        with contextlib.suppress(BrokerError, TimeoutError, OSError):
            while self.sock is not None:
                frame = self.read(1.0, "idle")
                if frame.command == "RECEIPT" and frame.headers.get("receipt-id", "").startswith(RECEIPT):
                    report.sent += 1

    def frame_of(self, queue: str, message: Message, report: SendReport) -> bytes:
        """One SEND frame; what STOMP cannot carry counted in ``report``."""
        return self._send_frame(queue, prepare(message, True, report.lost), report)

    def _send_frame(self, queue: str, out: Outgoing, report: SendReport) -> bytes:
        """The SEND frame of a message ``prepare`` has made ready for STOMP."""
        h = out.message.headers
        kind, plain = destination(self.target, queue)
        headers = {"destination": f"/{kind}/{plain}"}
        if "JMSType" in h:
            headers["type"] = h["JMSType"]
        if "JMSCorrelationID" in h:
            headers["correlation-id"] = h["JMSCorrelationID"]
        reply = h.get("JMSReplyTo")
        if reply is not None:
            headers["reply-to"] = "/topic/" + reply[len("topic://"):] if reply.startswith("topic://") else "/queue/" + reply.removeprefix("queue://")
        if "JMSPriority" in h:
            headers["priority"] = str(h["JMSPriority"])
        headers["persistent"] = "false" if h.get("JMSDeliveryMode") in (1, "NON_PERSISTENT") else "true"
        if out.time_to_live:
            headers["expires"] = str(int(time.time() * 1000) + out.time_to_live)  # STOMP's expires is a time, not a duration
        for name, (_jtype, value) in out.message.properties.items():
            headers[name] = value
        data = out.message.body.encode("utf-8", "surrogatepass") if out.message.body_type == "text" and out.message.body is not None \
            else bytes(out.message.body or b"")
        headers["content-length"] = str(len(data))
        if self.dialect == "activemq":
            # ActiveMQ (activemq-stomp LegacyFrameTranslator.java convertFrame): a SEND with neither
            # amq-msg-type nor content-length is a TextMessage; content-length alone a BytesMessage, that
            # header removed; amq-msg-type is never removed, and with it content-length stays too: both
            # become JMS properties of the message (FrameTranslator.Helper copies the headers left).
            if out.message.body_type == "text" and b"\0" not in data:
                del headers["content-length"]
            elif out.message.body_type == "text":  # sized, or cut at its NUL: only amq-msg-type keeps it text
                headers["amq-msg-type"] = "text"
                report.lost[STOMP_NUL_TEXT] += 1
        elif out.message.body_type == "text":
            del headers["content-length"]  # elsewhere content-length makes a bytes message: text ends at its NUL
            if b"\0" in data:
                report.lost["text bodies holding NUL (cut there: sized by NUL over this broker's STOMP)"] += 1
                data = data.split(b"\0", 1)[0]
        return encode_frame("SEND", headers, data)

    def close(self) -> None:
        sock, self.sock = self.sock, None
        if sock is None:
            return
        try:
            sock.settimeout(1.0)
            sock.sendall(encode_frame("DISCONNECT", {}))
        except OSError:
            pass
        finally:
            sock.close()


# ActiveMQ Classic's STOMP frame limits (activemq-stomp StompWireFormat, 5.17.2: MAX_HEADER_LENGTH,
# MAX_HEADERS, MAX_DATA_LENGTH): a frame over one is answered with ERROR and the connection closed,
# and frames already on their way after it may be taken or not (measured: 1 or 2 of 3).
MAX_HEADER_LENGTH = 10240
MAX_HEADERS = 1000
MAX_DATA_LENGTH = 104857600


def activemq_refusal(message: Message) -> str | None:
    """Why ActiveMQ's STOMP would refuse the SEND of ``message`` (as ``prepare`` leaves it), or None."""
    props = message.properties
    if len(props) + 12 > MAX_HEADERS:
        return f"messages with over {MAX_HEADERS - 12} properties (ActiveMQ's STOMP refuses a frame of over {MAX_HEADERS} headers: not sent)"
    for name, (_jtype, value) in props.items():
        if len(f"{escape(name)}:{escape(str(value))}".encode("utf-8", "surrogatepass")) > MAX_HEADER_LENGTH:
            return f"messages with a property over {MAX_HEADER_LENGTH:,} bytes (ActiveMQ's STOMP refuses the frame: not sent)"
    body = message.body
    size = len(body.encode("utf-8", "surrogatepass")) if isinstance(body, str) else len(body or b"") if isinstance(body, bytes) else 0
    if size > MAX_DATA_LENGTH:
        return f"messages with a body over {MAX_DATA_LENGTH:,} bytes (ActiveMQ's STOMP refuses the frame: not sent)"
    return None


CESU_8 = ("text bodies in CESU-8 (a JMS producer's character outside the BMP, as ActiveMQ hands it to STOMP as two "
          "3-byte surrogates): each bad byte read as U+FFFD; browse them over JMS")
NOT_UTF_8 = "text bodies that are not UTF-8 (each bad byte read as U+FFFD)"


def not_utf_8(body: bytes) -> str | None:
    """What a text body that is not UTF-8 is, said once with a count (``message_of`` reads its bad bytes
    as U+FFFD: a body a backup or a move carries on is the one STOMP gave): CESU-8 (ActiveMQ hands a
    JMS-sent character outside the BMP to STOMP as two 3-byte surrogates) or neither; None: UTF-8."""
    try:
        body.decode("utf-8")
        return None
    except UnicodeDecodeError:
        pass
    try:
        # strict: surrogates in pairs only (a lone one, which a JMS producer can send too, is not CESU-8)
        body.decode("utf-8", "surrogatepass").encode("utf-16-le", "surrogatepass").decode("utf-16-le", "strict")
        return CESU_8
    except UnicodeError:
        return NOT_UTF_8


def message_of(frame: Frame) -> Message:
    """A MESSAGE frame as the dump format's message: its properties Strings."""
    h = frame.headers
    headers: dict[str, object] = {}
    if "message-id" in h:
        headers["JMSMessageID"] = h["message-id"]
    if h.get("timestamp", "").lstrip("-").isdigit():
        headers["JMSTimestamp"] = int(h["timestamp"])
    for name, header in (("JMSCorrelationID", "correlation-id"), ("JMSType", "type")):
        if header in h:
            headers[name] = h[header]
    headers["JMSDeliveryMode"] = "PERSISTENT" if h.get("persistent") == "true" else "NON_PERSISTENT"
    if h.get("priority", "").isdigit():
        headers["JMSPriority"] = int(h["priority"])
    for name, header in (("JMSDestination", "destination"), ("JMSReplyTo", "reply-to")):
        if header in h:
            headers[name] = _destination(h[header])
    if h.get("expires", "").lstrip("-").isdigit():
        headers["JMSExpiration"] = int(h["expires"])
    headers["JMSRedelivered"] = h.get("redelivered") == "true"
    properties = {k: (STRING, v) for k, v in h.items() if k not in _FRAME_HEADERS}
    if "JMSXUserID" in h:
        properties["JMSXUserID"] = (STRING, h["JMSXUserID"])
    # ActiveMQ names where a dead-lettered message was (FrameTranslator.java, original-destination)
    source = {"origin": _destination(h["original-destination"])} if "original-destination" in h else None
    if "content-length" in h and h.get("amq-msg-type") != "text":
        return Message(headers, properties, "bytes", frame.body, source=source)
    return Message(headers, properties, "text", frame.body.decode("utf-8", "replace"), source=source)


def _destination(text: str) -> str:
    for prefix, kind in (("/queue/", "queue://"), ("/topic/", "topic://"), ("/temp-queue/", "temp-queue://"), ("/temp-topic/", "temp-topic://")):
        if text.startswith(prefix):
            return kind + text[len(prefix):]
    return text


def dialect_of(server: str) -> str | None:
    """The dialect a CONNECTED frame's ``server`` header names: ``ActiveMQ/5.17.2`` (Classic) or
    ``ActiveMQ-Artemis/2.x``."""
    name = server.split("/", 1)[0].lower()
    if name.startswith("activemq-artemis") or name == "artemis":
        return "artemis"
    if name == "activemq":
        return "activemq"
    return None


def _error_text(frame: Frame) -> str:
    """An ERROR frame in one line: the exception the body names (ActiveMQ sends its stack trace:
    ``javax.jms.InvalidSelectorException: ...``) and its causes, else the ``message`` header."""
    lines = frame.body.decode("utf-8", "replace").splitlines()
    parts = [line.strip().removeprefix("Caused by: ") for line in lines if line.strip() and not line.startswith(("\t", " "))]
    text = ": ".join(dict.fromkeys(parts[:4])) or frame.headers.get("message", "").strip()
    return " ".join(text.split())[:500] or f"the broker answered {frame.command}"


def _host_port(target: Target) -> tuple[str, int]:
    address = target.address
    if address.startswith("["):
        host, _, rest = address[1:].partition("]")
        port = rest.lstrip(":")
    else:
        host, _, port = address.rpartition(":") if ":" in address else (address, "", "")
    if port and not port.isdigit():
        raise BrokerError(f"{target.url}: the port {port!r} is not a number")
    return host, int(port) if port else DEFAULT_PORT


def connect(target: Target, options: Options) -> StompConnection:
    return StompConnection(target, options)


__all__ = ["CONVERT_PREFIX", "StompConnection", "activemq_refusal", "connect", "dialect_of", "encode_frame", "message_of"]

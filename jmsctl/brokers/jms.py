"""The JMS transport: the provider's own JMS client jars, through the JVM (JPype), so that headers,
property types and bodies are exactly what a JMS consumer gets.

``PROVIDER:PROVIDER_URL``: ``activemq:tcp://127.0.0.1:61616`` finds Debian's client jars under
/usr/share/java; any other provider (``artemis:tcp://...``, ``qpid-jms:amqp://...``) is given its
jars with ``--classpath`` or ``JMSCTL_CLASSPATH``.

Why JPype and a small Java class (java/JmsctlBridge.java, compiled with javac on first use and
cached): measured on this machine (bench/brokers.py), one Python-to-Java call per header and
property browses a few thousand messages a second, py4j (one socket round trip per call) well under
a thousand; the bridge turns a whole message into one NDJSON line in Java, and drains a browse in a
Java thread of its own, so Python takes lines in batches and waits with an idle timeout.
"""

from __future__ import annotations

import base64
import contextlib
import glob
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

from jmsctl.brokers.interface import BrokerError, BrowseStalled, Options, Rejected, SendReport, Target, destination, stalled
from jmsctl.brokers.jvm import bridge_class, class_loader, end_process, start_jvm
from jmsctl.brokers.outgoing import prepare
from jmsctl.cleanup import held
from jmsctl.messages.model import BytesValue, Message
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, to_f32

SHARE = "/usr/share/java"
BATCH = 512  # lines taken from the bridge per call
COMMIT_EVERY = 1000  # messages sent per transaction
REJECTED = "\0rejected "  # JmsctlBridge.REJECTED
BROWSER_PREFETCH = 4000  # ActiveMQ: messages the broker sends a browser ahead (jms.prefetchPolicy.queueBrowserPrefetch in the URL wins)
POLL_MILLIS = 200  # the longest a Java call of a browse or watch waits: signals and lost connections are seen between two


@dataclass(frozen=True)
class Provider:
    factory: str  # the ConnectionFactory class
    user_first: bool  # the constructor is (user, password, url) rather than (url, user, password)
    jars: tuple[str, ...] = ()  # found under /usr/share/java by default
    dialect: str | None = None


# Debian's activemq client needs, besides activemq-client.jar: the JMS 1.1 API, hawtbuf, slf4j and
# the J2EE management API (without it: NoClassDefFoundError javax/management/j2ee/statistics/Stats).
PROVIDERS = {
    "activemq": Provider("org.apache.activemq.ActiveMQConnectionFactory", True,
                         ("activemq-client.jar", "geronimo-jms_1.1_spec.jar", "hawtbuf.jar", "slf4j-api.jar",
                          "geronimo-j2ee-management-1.1-spec.jar", "slf4j-nop.jar"), "activemq"),
    "artemis": Provider("org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory", False, (), "artemis"),
    "qpid-jms": Provider("org.apache.qpid.jms.JmsConnectionFactory", True),
}

_TYPES = {"java.lang.Integer": INT, "java.lang.Long": LONG, "java.lang.Short": SHORT, "java.lang.Byte": BYTE,
          "java.lang.Float": FLOAT, "java.lang.Double": DOUBLE, "java.lang.Boolean": BOOLEAN, "java.lang.String": STRING}
_SETTERS = {BOOLEAN: "setBooleanProperty", BYTE: "setByteProperty", SHORT: "setShortProperty", INT: "setIntProperty",
            LONG: "setLongProperty", FLOAT: "setFloatProperty", DOUBLE: "setDoubleProperty", STRING: "setStringProperty"}
_TYPE_NAMES = {t: t.name.lower() for t in _SETTERS}
_MAP_SETTERS = {t: s.replace("Property", "") for t, s in _SETTERS.items()}
_STREAM_WRITERS = {t: s.replace("set", "write").replace("Property", "") for t, s in _SETTERS.items()}

T = TypeVar("T")


def classpath_for(target: Target, extra: tuple[str, ...]) -> list[str]:
    """The provider's jars: ``--classpath``/``JMSCTL_CLASSPATH`` entries (globs allowed), then the
    defaults found under /usr/share/java."""
    provider = PROVIDERS.get(target.scheme)
    out: list[str] = []
    for entry in extra:
        found = sorted(glob.glob(entry)) if any(c in entry for c in "*?[") else [entry]
        out.extend(found)
    for jar in provider.jars if provider else ():
        path = os.path.join(SHARE, jar)
        if os.path.exists(path):
            out.append(path)
    return out


def _timed(target: Target, what: str, seconds: float, call: Callable[[], T]) -> T:
    """``call()`` in a thread, given ``seconds``: a client that hangs on a silent broker ends in a BrokerError."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:
            box["error"] = exc

    worker = threading.Thread(target=run, name=f"jmsctl-{what}", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise BrokerError(f"{target.url}: no answer within {seconds:g} s ({what}; --timeout)")
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


class JmsConnection:
    """One JMS connection and session (AUTO_ACKNOWLEDGE, not transacted)."""

    typed = True
    selector_prefix = ""
    uncarried: frozenset[str] = frozenset()  # a JMS client reads every name the broker selects on

    def __init__(self, target: Target, options: Options) -> None:
        self.target = target
        self.options = options
        provider = PROVIDERS.get(target.scheme)
        self.dialect = provider.dialect if provider else None
        classpath = classpath_for(target, options.classpath)
        if provider is None and not options.classpath:
            known = ", ".join(sorted(PROVIDERS))
            raise BrokerError(f"{target.url}: unknown provider {target.scheme!r} (stomp, stomps, {known}); give its client jars with "
                              "--classpath or JMSCTL_CLASSPATH and its ConnectionFactory class in JMSCTL_FACTORY")
        jpype = self.jpype = start_jvm(target, classpath)
        self._error = jpype.JException
        loader = class_loader(jpype, classpath)
        self.bridge = bridge_class(jpype, target, loader, classpath)
        factory_name = os.environ.get("JMSCTL_FACTORY") or (provider.factory if provider else "")
        try:
            factory_class = jpype.JClass(factory_name, loader=loader)
        except (TypeError, jpype.JException) as exc:
            raise BrokerError(f"{target.url}: the ConnectionFactory {factory_name} is not in the classpath ({exc})") from None
        user, password = options.user, options.password
        address = target.address
        self.connection = None
        self.session: Any = None
        self.watchdog = self.bridge.Watchdog()
        self._browsing: list[tuple[Any, Any]] = []
        try:
            factory = factory_class(user, password, address) if provider is None or provider.user_first else factory_class(address, user, password)
            if self.dialect == "activemq" and "queueBrowserPrefetch" not in address:
                # ActiveMQ dispatches a browse BROWSER_PREFETCH messages at a time (its default, 500, left the
                # client waiting on the broker for half of a 10,000-message browse here; bench/brokers_bench.py)
                factory.getPrefetchPolicy().setQueueBrowserPrefetch(BROWSER_PREFETCH)

            def open_session() -> Any:
                connection = factory.createConnection() if user is None else factory.createConnection(user, password)
                self.connection = connection
                with contextlib.suppress(jpype.JException):  # a container's client may refuse a listener
                    connection.setExceptionListener(self.watchdog)
                connection.start()
                return connection.createSession(False, 1)  # Session.AUTO_ACKNOWLEDGE

            self.session = _timed(target, "connect", options.timeout, open_session)
        except jpype.JException as exc:
            self.close()
            raise BrokerError(f"{target.url}: {self.describe(exc)}") from None
        except BaseException:  # BrokerError, or a signal (jmsctl.cleanup.Stopped) during the connect
            self.close()
            raise

    def describe(self, exc: Any) -> str:
        return str(self.bridge.describe(exc))

    # ----- browse ------------------------------------------------------------------------------

    def queue_exists(self, queue: str) -> bool | None:
        """Whether the broker has the queue, asked without creating it (ActiveMQ: the queue advisory
        topic replays every queue to a new subscriber); None when this provider cannot be asked."""
        if self.dialect != "activemq":
            return None
        topic = self.session.createTopic("ActiveMQ.Advisory.Queue")
        consumer = self.session.createConsumer(topic)
        try:
            quiet = min(1000, max(200, int(self.options.timeout * 50)))
            while True:
                m = consumer.receive(quiet)
                if m is None:
                    return False
                info = m.getDataStructure()
                if info is not None and str(info.getDestination().getPhysicalName()) == queue and info.getOperationType() == 0:
                    return True
        finally:
            consumer.close()

    def browse(self, queue: str, selector: str | None = None) -> Iterator[Message]:
        kind, queue = destination(self.target, queue)
        if kind != "queue":
            raise BrokerError(f"{self.target.url}: a topic cannot be browsed (it keeps no messages): watch it")
        try:
            exists = self.queue_exists(queue)
            if exists is False:
                raise BrokerError(f"{self.target.url}: no queue {queue!r} on the broker (nothing was created)")
            if exists is None:
                self.options.notes.append(f"{self.target.scheme}: jmsctl cannot ask this provider whether queue {queue!r} exists; "
                                          "a broker that creates queues on demand creates it")
            browser = self.session.createBrowser(self.session.createQueue(queue), selector)
            feed = self.bridge.Feed(browser.getEnumeration())
        except self._error as exc:
            raise self.failed(exc) from None
        self._browsing.append((feed, browser))
        try:
            yield from self._lines(feed, selector)
        finally:
            self._end_browse(feed, browser)

    def _end_browse(self, feed: Any, browser: Any) -> None:
        """The browser closed and the Feed's thread ended before the connection closes: a connection
        closed under ActiveMQ's hasMoreElements prints a stack trace on stderr (IllegalStateException:
        The Session is closed), as a browse ended early (--max-count, a signal) would do. Also run by
        ``close`` for a browse still open (a signal unwinds the connection before the generator)."""
        if (feed, browser) in self._browsing:
            self._browsing.remove((feed, browser))
        with contextlib.suppress(Exception):
            feed.stop()
        with contextlib.suppress(Exception):
            browser.close()
        with contextlib.suppress(Exception):
            feed.join(2000)

    def failed(self, exc: Any, count: int | None = None) -> BrokerError:
        """The error for a JMS exception: ``connection lost`` when the connection failed under it
        (ActiveMQ: "Disposed due to prior exception"), else the exception in one line."""
        waits = 6 if self._io_caused(exc) else 1  # the provider says its connection failed on another thread, maybe a moment later
        for attempt in range(waits):
            try:
                self.lost(count, ended=True)
            except BrokerError as lost:
                return lost
            if attempt + 1 < waits:
                time.sleep(POLL_MILLIS / 1000)
        after = f" (after {count} sent)" if count is not None else ""
        return BrokerError(f"{self.target.url}: {self.describe(exc)}{after}")

    def _io_caused(self, exc: Any) -> bool:
        """Whether an IOException is among the exception's causes (a transport's failure)."""
        io = self.jpype.JClass("java.io.IOException")
        cause, seen = exc, 0
        while cause is not None and seen < 10:
            if isinstance(cause, io):
                return True
            cause, seen = cause.getCause(), seen + 1
        return False

    def lost(self, count: int | None = None, ended: bool = False) -> None:
        """BrokerError when the connection's ExceptionListener heard of a failure (the broker died,
        the network dropped): an error, never a browse that merely went quiet. ``ended``: the browse
        says it ended, and the listener (called on a thread of the provider's) may not have heard
        yet: the connection is asked too (getClientID, local, throws on a failed or closed one)."""
        failure = self.watchdog.failure()
        if failure is None and ended and self.connection is not None:
            try:
                self.connection.getClientID()
            except self._error as exc:
                failure = self.describe(exc)
        if failure is not None:
            if str(failure).startswith("java.io.EOFException"):
                failure = f"the broker closed it ({failure})"
            after = f" after {count} message{'s' if count != 1 else ''}" if count is not None else ""
            raise BrokerError(f"{self.target.url}: connection lost{after}: {failure}")

    def _lines(self, feed: Any, selector: str | None) -> Iterator[Message]:
        count = 0
        idle = self.options.idle_timeout
        quiet_since = time.monotonic()
        try:
            while True:
                # Short waits: a signal is handled (in Python, between two calls) and a lost connection
                # seen within POLL seconds, whatever the idle timeout.
                chunk = feed.take(BATCH, POLL_MILLIS)
                if chunk is None:
                    self.lost(count)
                    if time.monotonic() - quiet_since >= idle:
                        raise BrowseStalled(stalled(self.target, selector, count, idle), count)
                    continue
                quiet_since = time.monotonic()
                for line in str(chunk).split("\n"):
                    if line.startswith(REJECTED):
                        self.options.rejected.append(rejected_of(line[len(REJECTED):]))
                        continue
                    if line.startswith("\0"):
                        self.lost(count, ended=True)
                        if line == "\0end":
                            return
                        for _ in range(10):  # a failure: often the connection's, said on another thread a moment later
                            time.sleep(POLL_MILLIS / 1000)
                            self.lost(count, ended=True)
                        raise BrokerError(f"{self.target.url}: {line[len(chr(0)) + len('failed '):]}")
                    count += 1
                    yield self.message(line)
        finally:
            feed.stop()

    def message(self, line: str) -> Message:
        try:
            return message_of(orjson.loads(line))
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as exc:  # a value the dump format cannot hold
            raise BrokerError(f"{self.target.url}: a message jmsctl cannot represent: {exc!r}: {line[:200]}") from None

    # ----- send --------------------------------------------------------------------------------

    def send(self, queue: str, messages: Iterable[Message], report: SendReport) -> None:
        """Sent in a transacted session committed every COMMIT_EVERY messages: ActiveMQ sends a
        persistent message outside a transaction synchronously (a round trip each), inside one
        asynchronously with one synchronous commit. ``report.sent`` counts committed messages only."""
        session = None
        assert self.connection is not None
        kind, plain = destination(self.target, queue)
        try:
            session = self.connection.createSession(True, 0)  # Session.SESSION_TRANSACTED
            producer = session.createProducer(session.createTopic(plain) if kind == "topic" else session.createQueue(plain))
            pending = 0
            for message in messages:
                jms, mode, priority, ttl = self._build(session, message, report)
                producer.send(jms, mode, priority, ttl)
                pending += 1
                if pending == COMMIT_EVERY:
                    with held():  # a signal during the commit: said after the count has it
                        session.commit()
                        report.sent, pending = report.sent + pending, 0
            with held():
                session.commit()
                report.sent += pending
        except self._error as exc:
            raise self.failed(exc, report.sent) from None
        finally:
            if session is not None:
                with contextlib.suppress(Exception):
                    session.close()  # an uncommitted rest is rolled back

    def _build(self, session: Any, message: Message, report: SendReport) -> tuple[Any, int, int, int]:
        out = prepare(message, False, report.lost)
        message = out.message
        jms = self._body(session, message, report)
        headers = message.headers
        if "JMSType" in headers:
            jms.setJMSType(headers["JMSType"])
        if "JMSCorrelationID" in headers:
            jms.setJMSCorrelationID(headers["JMSCorrelationID"])
        if "JMSReplyTo" in headers:
            jms.setJMSReplyTo(self._destination(session, headers["JMSReplyTo"]))
        props = message.properties
        if self.dialect == "activemq" and any(t is STRING and not _bmp(v) for t, v in props.values()):
            # OpenWire writes a String property with writeUTF, which ActiveMQ reads back as standard UTF-8:
            # each half of a surrogate pair is malformed there (tests/test_brokers_live.py _openwire_string)
            report.lost["String properties with characters outside the BMP (ActiveMQ's OpenWire brings each back as two U+FFFD)"] += 1
        if props:  # one call: JmsctlBridge.setProperties reads each value's Java text with its type's valueOf
            refused = self.bridge.setProperties(jms, list(props), [_TYPE_NAMES[t] for t, _ in props.values()],
                                                [_java_text(t, v) for t, v in props.values()])
            for line in str(refused).splitlines() if refused is not None else ():
                name, _, reason = line.partition("\t")
                report.lost[f"property {name} (refused by the client: {reason})"] += 1
        mode = 1 if headers.get("JMSDeliveryMode") in (1, "NON_PERSISTENT") else 2
        return jms, mode, headers.get("JMSPriority", 4), out.time_to_live

    def _destination(self, session: Any, text: str) -> Any:
        if text.startswith("topic://"):
            return session.createTopic(text[len("topic://"):])
        return session.createQueue(text.removeprefix("queue://"))

    def _body(self, s: Any, message: Message, report: SendReport) -> Any:
        kind, body = message.body_type, message.body
        if kind == "text":
            return s.createTextMessage(body)
        if kind == "bytes":
            jms = s.createBytesMessage()
            if body:
                jms.writeBytes(self.jpype.JArray(self.jpype.JByte)(body))
            return jms
        if kind == "map":
            jms = s.createMapMessage()
            for name, value in (body or {}).items():
                if isinstance(value, BytesValue):
                    jms.setBytes(name, self.jpype.JArray(self.jpype.JByte)(value.data))
                else:
                    getattr(jms, _MAP_SETTERS[value[0]])(name, value[1])
            return jms
        if kind == "stream":
            jms = s.createStreamMessage()
            for value in body or []:
                if isinstance(value, BytesValue):
                    jms.writeBytes(self.jpype.JArray(self.jpype.JByte)(value.data))
                else:
                    getattr(jms, _STREAM_WRITERS[value[0]])(value[1])
            return jms
        if kind == "object":
            jms = s.createObjectMessage()
            if body is not None:
                if hasattr(jms, "setContent"):  # ActiveMQ Classic: the serialized bytes as they are, never deserialized
                    sequence = self.jpype.JClass("org.apache.activemq.util.ByteSequence", loader=jms.getClass().getClassLoader())
                    jms.setContent(sequence(self.jpype.JArray(self.jpype.JByte)(body)))
                else:
                    report.lost["an ObjectMessage body (sent empty: this client takes only an object to serialize)"] += 1
            return jms
        return s.createMessage()

    # ----- watch -------------------------------------------------------------------------------

    def watch(self, topic: str, selector: str | None = None) -> Iterator[Message]:
        kind, topic = destination(self.target, topic, "topic")
        if kind != "topic":
            raise BrokerError(f"{self.target.url}: watch follows a topic; a queue is browsed")
        try:
            subscribed = self.session.createTopic(topic)
            # createConsumer(Destination, None) is ambiguous to JPype (a String or a MessageListener)
            consumer = self.session.createConsumer(subscribed) if selector is None else self.session.createConsumer(subscribed, selector)
        except self._error as exc:
            raise self.failed(exc) from None
        if self.options.progress is not None:  # createConsumer returns once the broker has the subscription
            self.options.progress(f"subscribed to topic {topic}: messages published from now on")
        try:
            while True:
                try:
                    m = consumer.receive(POLL_MILLIS)  # short waits: a signal is seen between them
                except self._error as exc:
                    self.lost()
                    raise BrokerError(f"{self.target.url}: connection lost: {self.describe(exc)}") from None
                if m is None:
                    self.lost()
                else:
                    yield self.message(str(self.bridge.toJson(m)))
        finally:
            with contextlib.suppress(Exception):  # a dead connection cannot close it: nothing left to do
                consumer.close()

    def close(self) -> None:
        for feed, browser in list(self._browsing):
            self._end_browse(feed, browser)
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):  # best effort: the process ends anyway
                _timed(self.target, "close", self.options.timeout, connection.close)


def _bmp(text: str) -> bool:
    return text.isascii() or all(ord(c) <= 0xFFFF for c in text)


def _java_text(jtype: Any, v: Any) -> str:
    """A property value as text that its Java type's parse reads back exactly: repr() of a double
    (the shortest text that reads back as it), of a float's value (a float32 held exactly in a
    double: Float.parseFloat rounds it to itself); Java's spelling of NaN and the infinities."""
    if jtype is STRING:
        return v  # type: ignore[no-any-return]
    if jtype is BOOLEAN:
        return "true" if v else "false"
    if jtype is FLOAT or jtype is DOUBLE:
        if v != v:
            return "NaN"
        if v in (math.inf, -math.inf):
            return "Infinity" if v > 0 else "-Infinity"
        return repr(v)
    return str(v)


_JTYPES = {"int": INT, "long": LONG, "short": SHORT, "byte": BYTE, "float": FLOAT, "double": DOUBLE}


def _value(v: Any) -> Any:
    """A property, map entry or stream item as JmsctlBridge writes it: bare String or boolean, else
    ``{"type", "value"}`` (floats and doubles as Java's toString, NaN and the infinities as text)."""
    kind = type(v)
    if kind is str:
        return (STRING, v)
    if kind is bool:
        return (BOOLEAN, v)
    t = v["type"]
    if t == "bytes":
        return BytesValue(base64.b64decode(v["value"]))
    jtype = _JTYPES[t]
    x = v["value"]
    if jtype is FLOAT:
        return (FLOAT, to_f32(float(x)))  # Float.toString is the shortest decimal of the float: read back exactly
    if jtype is DOUBLE:
        return (DOUBLE, float(x))
    return (jtype, x)


def rejected_of(text: str) -> Rejected:
    """JmsctlBridge's line for a message the client could not decode."""
    obj = orjson.loads(text)
    raw = base64.b64decode(obj["raw"]) if obj.get("raw") is not None else None
    reason = obj["reason"]
    if "UTFDataFormatException" in reason and raw is not None and any(b >= 0xF0 for b in raw):
        # ActiveMQ's OpenWire client reads a text body as its own modified UTF-8 (MarshallingSupport.readUTF8):
        # the 4-byte sequence of a character outside the BMP, which a STOMP producer sends, is refused.
        reason += " (a character outside the BMP in 4-byte UTF-8, as a STOMP producer sends it: browse it over STOMP)"
    return Rejected(obj["position"], obj.get("id"), reason, raw)


def message_of(obj: dict[str, Any]) -> Message:
    """One line of JmsctlBridge as a Message, built directly: the bridge writes only well-formed
    values of the message format, so the dump decoder's checks (a third of a browse's time) are not
    needed; a value outside it raises KeyError, TypeError or ValueError."""
    kind, body = obj["type"], obj.get("body")
    if body is not None:
        if kind in ("bytes", "object"):
            body = base64.b64decode(body)
        elif kind == "map":
            body = {k: _value(v) for k, v in body.items()}
        elif kind == "stream":
            body = [_value(v) for v in body]
    return Message(obj["headers"], {k: _value(v) for k, v in obj["properties"].items()}, kind, body, source=obj.get("source"))


def connect(target: Target, options: Options) -> JmsConnection:
    return JmsConnection(target, options)


__all__ = ["PROVIDERS", "JmsConnection", "classpath_for", "connect", "end_process"]

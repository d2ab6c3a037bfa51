"""The interface every transport implements and the values they share: the URL taken apart
(``Target``), the options (``Options``), what ``send`` did (``SendReport``), the connection
(``Connection``) and the one error type (``BrokerError``). Beneath the registry (``__init__``) and
the transports alike, so that neither imports the other for them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from jmsctl.messages.model import Message

DEFAULT_TIMEOUT = 10.0
DEFAULT_IDLE_TIMEOUT = 10.0


class BrokerError(Exception):
    """A broker that cannot be reached, refuses the login, has no such queue, rejects a selector or
    stalls: one line, naming the URL and the reason."""


class BrowseStalled(BrokerError):
    """A browse that delivered nothing for the idle timeout: what was read is kept (``count``)."""

    def __init__(self, text: str, count: int) -> None:
        super().__init__(text)
        self.count = count


@dataclass(frozen=True)
class Target:
    """A broker URL taken apart: ``scheme`` (``stomp``, ``stomps`` or a JMS provider's name) and
    ``address`` (``HOST:PORT`` for STOMP, the provider's own URL for JMS)."""

    url: str
    scheme: str
    address: str

    @property
    def host(self) -> str | None:
        """The host named in the address (for netrc), or None."""
        rest = self.address.split("://", 1)[-1]
        rest = rest.split("/", 1)[0].split("?", 1)[0].split(",", 1)[0].lstrip("(")
        rest = rest.rsplit("@", 1)[-1]
        if rest.startswith("["):
            return rest[1:].split("]", 1)[0] or None
        return rest.rsplit(":", 1)[0] or None


@dataclass(frozen=True)
class Rejected:
    """A message the broker gave and the client could not decode (a rejected record, as a broken
    line is for ``filter``): its ``position`` in the browse (1 for the first, rejected ones
    counted), its JMSMessageID when the client gives it, the reason, and the body's bytes as the
    client holds them when it gives them (``raw``)."""

    position: int
    message_id: str | None
    reason: str
    raw: bytes | None = None


@dataclass(frozen=True)
class Options:
    """What every transport honours: credentials (never from the command line), the connect
    timeout, the idle timeout that ends a stalled browse, and the JVM classpath for JMS."""

    user: str | None = None
    password: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT
    classpath: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list, compare=False)  # said once on stderr by the caller
    rejected: list[Rejected] = field(default_factory=list, compare=False)  # a browse goes on past them; the caller reports them
    progress: Callable[[str], None] | None = field(default=None, compare=False)  # said at once (watch: subscribed)


@dataclass
class SendReport:
    """What ``send`` did: messages sent, and what the transport could not carry, name -> count of
    messages (said once each by the caller)."""

    sent: int = 0
    lost: Counter[str] = field(default_factory=Counter)


class Connection(Protocol):
    """One open connection. ``dialect``: the selector dialect the broker evaluates with
    (``activemq``, ``artemis``, or None when unknown); ``selector_prefix``: what the transport puts
    before every selector it hands the broker (STOMP on ActiveMQ: ``convert_string_expressions:``);
    ``typed``: whether property types survive the transport (False for STOMP: Strings);
    ``uncarried``: names the broker selects on that the transport never delivers (browse --compare)."""

    target: Target
    dialect: str | None
    selector_prefix: str
    typed: bool
    uncarried: frozenset[str]

    def browse(self, queue: str, selector: str | None = None) -> Iterator[Message]:
        """The queue's messages without consuming them, in the broker's dispatch order; one the client
        cannot decode is appended to ``options.rejected`` and the browse goes on."""
        ...

    def send(self, queue: str, messages: Iterable[Message], report: SendReport) -> None:
        """Send each message to the queue, counting what could not be carried in ``report``."""
        ...

    def watch(self, topic: str, selector: str | None = None) -> Iterator[Message]:
        """Messages published on the topic from now on (a non-durable subscription), until closed."""
        ...

    def close(self) -> None: ...


def destination(target: Target, name: str, default: str = "queue") -> tuple[str, str]:
    """``(kind, plain name)`` of a destination argument, read the same by every command:
    ``topic:NAME`` or ``topic://NAME`` a topic, ``queue:NAME`` or ``queue://NAME`` a queue, a plain
    name ``default``. A comma is refused: OpenWire reads ``a,b`` as two destinations (ActiveMQ's
    composite destinations: a send goes to both, a browse finds no queue ``a,b``), STOMP as one."""
    kind, plain = default, name
    for prefix in ("topic://", "queue://", "topic:", "queue:"):
        if name.startswith(prefix):
            kind, plain = prefix.split(":", 1)[0], name[len(prefix):]
            break
    if not plain:
        raise BrokerError(f"{target.url}: no {kind} name in {name!r}")
    if "," in plain:
        raise BrokerError(f"{target.url}: {name!r}: a comma in a {kind} name is refused: ActiveMQ's OpenWire client reads "
                          f"it as several {kind}s (a composite destination), STOMP as one; name each {kind} on its own")
    return kind, plain


def stalled(target: Target, selector: str | None, count: int, seconds: float) -> str:
    """The one line for a browse that went quiet: the count read, the selector, and the way out."""
    where = f" with the selector {selector!r}" if selector else ""
    way_out = " (browse unselected and select locally with --where SELECTOR)" if selector else ""
    return (f"{target.url}: the browse{where} stalled: nothing for {seconds:g} s after {count} message{'s' if count != 1 else ''}"
            f" (--idle-timeout){way_out}")

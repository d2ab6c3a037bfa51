"""Live brokers: the transports and the registry.

A transport is one module of this package exposing ``connect(target, options) -> Connection``:
the provider's own JMS client through the JVM (``jms``: ``activemq:tcp://...``, ``artemis:tcp://...``)
or STOMP in pure Python (``stomp``: ``stomp://HOST:PORT``, ``stomps://`` with TLS). Adding one is a
module and a line in ``_TRANSPORTS``. Every failure is a ``BrokerError``: one line naming the URL
and the reason, exit status 2 at the command line.

    with brokers.connect("stomp://127.0.0.1:61613") as conn:
        for message in conn.browse("orders", "weight > 100"):
            ...
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import import_module
from types import TracebackType
from typing import Protocol

from jmsctl.messages.model import Message

# URL scheme -> transport module. Any other scheme is a JMS provider's name (``activemq:tcp://...``).
_TRANSPORTS = {"stomp": "stomp", "stomps": "stomp"}
_JMS = "jms"

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
class Options:
    """What every transport honours: credentials (never from the command line), the connect
    timeout, the idle timeout that ends a stalled browse, and the JVM classpath for JMS."""

    user: str | None = None
    password: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT
    classpath: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list, compare=False)  # said once on stderr by the caller


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
    ``typed``: whether property types survive the transport (False for STOMP: Strings)."""

    target: Target
    dialect: str | None
    selector_prefix: str
    typed: bool

    def browse(self, queue: str, selector: str | None = None) -> Iterator[Message]:
        """The queue's messages without consuming them, in the broker's dispatch order."""
        ...

    def send(self, queue: str, messages: Iterable[Message], report: SendReport) -> None:
        """Send each message to the queue, counting what could not be carried in ``report``."""
        ...

    def watch(self, topic: str, selector: str | None = None) -> Iterator[Message]:
        """Messages published on the topic from now on (a non-durable subscription), until closed."""
        ...

    def close(self) -> None: ...


def parse_url(url: str) -> Target:
    """``stomp://HOST:PORT``, ``stomps://HOST:PORT`` or ``PROVIDER:PROVIDER_URL``; BrokerError otherwise."""
    scheme, sep, rest = url.partition(":")
    scheme = scheme.lower()
    if not sep or not scheme or not rest:
        raise BrokerError(f"{url}: not a broker URL: write stomp://HOST:PORT, stomps://HOST:PORT or PROVIDER:URL (activemq:tcp://HOST:PORT)")
    if scheme in _TRANSPORTS:
        address = rest[2:] if rest.startswith("//") else rest
        address = address.rstrip("/")
        if not address:
            raise BrokerError(f"{url}: no HOST:PORT after {scheme}://")
        return Target(url, scheme, address)
    if "://" not in rest and not rest.startswith(("(", "vm:")):
        raise BrokerError(f"{url}: not a broker URL: a JMS provider's URL follows {scheme}: (activemq:tcp://HOST:PORT)")
    return Target(url, scheme, rest)


def transport_module(target: Target) -> str:
    return _TRANSPORTS.get(target.scheme, _JMS)


class Opened:
    """A connection as a context manager: closed at the end of the block, whatever happens."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def __enter__(self) -> Connection:
        return self.connection

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.connection.close()


def connect(url: str, options: Options | None = None) -> Opened:
    """Open ``url`` with its transport (credentials from the environment or netrc when the options
    name none); BrokerError within the connect timeout when it cannot."""
    target = parse_url(url)
    options = options or Options()
    if options.user is None:
        from jmsctl.brokers.credentials import credentials

        user, password = credentials(target.host)
        options = Options(user, password, options.timeout, options.idle_timeout, options.classpath, options.notes)
    module = import_module(f"{__name__}.{transport_module(target)}")
    return Opened(module.connect(target, options))


def stalled(target: Target, selector: str | None, count: int, seconds: float) -> str:
    """The one line for a browse that went quiet: the count read, the selector, and the way out."""
    where = f" with the selector {selector!r}" if selector else ""
    way_out = " (browse unselected and select locally with --where SELECTOR)" if selector else ""
    return (f"{target.url}: the browse{where} stalled: nothing for {seconds:g} s after {count} message{'s' if count != 1 else ''}"
            f" (--idle-timeout){way_out}")


def env_classpath() -> tuple[str, ...]:
    """``JMSCTL_CLASSPATH`` (``:``-separated), for providers whose jars are not found by default."""
    value = os.environ.get("JMSCTL_CLASSPATH", "")
    return tuple(p for p in value.split(os.pathsep) if p)


__all__ = [
    "DEFAULT_IDLE_TIMEOUT", "DEFAULT_TIMEOUT", "BrokerError", "BrowseStalled", "Connection", "Opened", "Options",
    "SendReport", "Target", "connect", "env_classpath", "parse_url", "stalled",
]

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

import dataclasses
import os
import sys
from importlib import import_module
from types import TracebackType

from jmsctl.brokers.interface import (
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_TIMEOUT,
    BrokerError,
    BrowseStalled,
    Connection,
    Options,
    Rejected,
    SendReport,
    Target,
    stalled,
)

# URL scheme -> transport module. Any other scheme is a JMS provider's name (``activemq:tcp://...``).
_TRANSPORTS = {"stomp": "stomp", "stomps": "stomp"}
_JMS = "jms"



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
        options = dataclasses.replace(options, user=user, password=password)
    module = import_module(f"{__name__}.{transport_module(target)}")
    return Opened(module.connect(target, options))


def end_process(status: int) -> None:
    """A broker command's last call: with a JVM in this process (the JMS transport), the process
    ends here with ``status`` (see jms.end_process); otherwise it returns and Python exits as usual."""
    jms = sys.modules.get(f"{__name__}.{_JMS}")
    if jms is not None:
        jms.end_process(status)


def env_classpath() -> tuple[str, ...]:
    """``JMSCTL_CLASSPATH`` (``:``-separated), for providers whose jars are not found by default."""
    value = os.environ.get("JMSCTL_CLASSPATH", "")
    return tuple(p for p in value.split(os.pathsep) if p)


__all__ = [
    "DEFAULT_IDLE_TIMEOUT", "DEFAULT_TIMEOUT", "BrokerError", "BrowseStalled", "Connection", "Opened", "Options", "Rejected",
    "SendReport", "Target", "connect", "end_process", "env_classpath", "parse_url", "stalled",
]

"""Credentials for a broker: the environment (``JMSCTL_USER``, ``JMSCTL_PASSWORD``), else the netrc
file (``$NETRC`` or ``~/.netrc``, the entry of the broker's host, else ``default``). Never a
command-line option: arguments show in ``ps``."""

from __future__ import annotations

import netrc
import os

from jmsctl.brokers.interface import BrokerError


def credentials(host: str | None) -> tuple[str | None, str | None]:
    """(user, password), each None when not given anywhere."""
    user = os.environ.get("JMSCTL_USER")
    password = os.environ.get("JMSCTL_PASSWORD")
    if user is not None or password is not None:
        return user, password
    path = os.environ.get("NETRC") or os.path.join(os.path.expanduser("~"), ".netrc")
    if not os.path.isfile(path):
        return None, None
    try:
        entry = netrc.netrc(path).authenticators(host or "")
    except netrc.NetrcParseError as exc:
        raise BrokerError(f"{exc.filename or path}:{exc.lineno or 0}: {exc.msg} (the netrc file, read for the broker's login)") from None
    except OSError as exc:
        raise BrokerError(f"{path}: {exc.strerror or exc} (the netrc file, read for the broker's login)") from None
    if entry is None:
        return None, None
    login, _account, secret = entry
    return login or None, secret or None

"""What to undo when the process is killed: temp files, partial output directories, child processes.

A writer registers an undo action while it has something half done (``pending``); as long as
one is registered, SIGTERM, SIGHUP and SIGINT run every registered action, newest first, and end
the process with status 128 + the signal number (what a shell reports for a killed process).
When nothing is pending, the previous handlers are back: a signal does what it did before.

Actions run inside a signal handler, so they must be short and only undo (unlink, rmtree, kill
a child). A process forked while something is pending inherits the handler, not the duty: in a
child the handler restores the default action and re-sends the signal to itself, so a worker
never removes its parent's temp file.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)
)

_actions: dict[int, tuple[str, Callable[[], object]]] = {}
_ids = itertools.count(1)
_previous: dict[int, Any] = {}
_owner = 0  # the pid whose actions these are
_lock = threading.Lock()


def register(what: str, action: Callable[[], object]) -> int:
    """Run ``action`` if the process is killed before ``unregister(token)``; ``what`` names it in
    the message printed then (``jmsctl: error: stopped by SIGTERM; out.ndjson not written``). Returns the token."""
    global _owner
    with _lock:
        if os.getpid() != _owner:  # a forked child starts with none of its parent's duties
            _actions.clear()
            _previous.clear()
            _owner = os.getpid()
        token = next(_ids)
        _actions[token] = (what, action)
        if len(_actions) == 1:
            _install()
        return token


def unregister(token: int) -> None:
    with _lock:
        if _actions.pop(token, None) is not None and not _actions and os.getpid() == _owner:
            _restore()


@contextlib.contextmanager
def pending(what: str, action: Callable[[], object]) -> Iterator[None]:
    """``action`` registered for the duration of the block (and not run when it ends)."""
    token = register(what, action)
    try:
        yield
    finally:
        unregister(token)


@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
    """The handled signals held back for the block: create-then-register without a gap."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


_held: list[bool] = []
_deferred: list[int] = []


@contextlib.contextmanager
def held() -> Iterator[None]:
    """A signal ``stopping`` turns into ``Stopped`` waits for the end of the block: for a step and the
    count that says it was done (a broker's commit and the number said committed), which a Stopped
    raised between them would tell apart (the broker has 2,000, jmsctl says 1,000)."""
    _held.append(True)
    try:
        yield
    finally:
        _held.pop()
        signum = _deferred.pop() if _deferred and not _held else None
    if signum is not None:
        raise Stopped(signum)


class Stopped(BaseException):
    """A signal turned into an exception by ``stopping``: it unwinds like Ctrl-C, so that ``finally``
    blocks close connections and roll back what is not committed, and the command says what was
    done before it (exit ``status``, 128 + the signal number)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"

    @property
    def status(self) -> int:
        return 128 + self.signum


@contextlib.contextmanager
def stopping() -> Iterator[None]:
    """SIGTERM, SIGHUP and SIGINT raise ``Stopped`` in the main thread for the block (a second one
    while unwinding ends the process at once). Registered undo actions (``register``) still come
    first: their handler replaces this one while they are pending, and ends the process itself."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}
    stopped: list[int] = []
    owner = os.getpid()

    def handler(signum: int, frame: object) -> None:
        if stopped or os.getpid() != owner:  # a second signal, or a forked child: end now
            os._exit(128 + signum)
        stopped.append(signum)
        if _held:  # a step and its count go together: Stopped when the step's block ends (held)
            _deferred.append(signum)
            return
        raise Stopped(signum)

    for sig in SIGNALS:
        with contextlib.suppress(ValueError, OSError):
            current = signal.getsignal(sig)
            if current != signal.SIG_IGN:
                previous[sig] = current
                signal.signal(sig, handler)
    try:
        yield
    finally:
        for signum, old in previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(signum, old)


def _install() -> None:
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set handlers; a library caller in a thread keeps its own
    for sig in SIGNALS:
        try:
            current = signal.getsignal(sig)
            if current == signal.SIG_IGN:  # nohup, or a background job's SIGINT: stays ignored
                continue
            _previous[sig] = current
            signal.signal(sig, _handler)
        except (ValueError, OSError):
            pass


def _restore() -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    for sig, handler in list(_previous.items()):
        with contextlib.suppress(ValueError, OSError, TypeError):
            if signal.getsignal(sig) is _handler:
                signal.signal(sig, handler)
    _previous.clear()


def _handler(signum: int, frame: object) -> None:
    if os.getpid() != _owner:  # a forked child: die of the signal as if no handler were set
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    for sig in SIGNALS:  # a second signal while cleaning up must not interrupt the clean-up
        with contextlib.suppress(ValueError, OSError):
            signal.signal(sig, signal.SIG_IGN)
    names = []
    for _, (what, action) in sorted(_actions.items(), reverse=True):
        with contextlib.suppress(BaseException):
            action()
        if what:
            names.append(what)
    _actions.clear()
    if names:
        try:
            name = signal.Signals(signum).name
        except ValueError:
            name = f"signal {signum}"
        text = f"{chr(10) if signum == signal.SIGINT else ''}jmsctl: error: stopped by {name}; {', '.join(names)} not written\n"
        with contextlib.suppress(OSError):
            os.write(2, text.encode("utf-8", "backslashreplace"))
    os._exit(128 + signum)


__all__ = ["SIGNALS", "Stopped", "held", "pending", "register", "signals_blocked", "stopping", "unregister"]

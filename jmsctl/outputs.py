"""Output files written all or nothing, without ever damaging what the path points at.

``open_output(path)`` decides how to write by what ``path`` is now:

- stdout (``None`` or ``-``): written as it comes.
- a regular file, or nothing yet: a temp file in the same directory (so the final rename stays in
  one file system) that replaces the file on ``commit`` with ``os.replace``: readers see the old
  file or the new one, never half of one. An existing file's permission bits are kept (owner too,
  when allowed). On error, on ``discard`` and on SIGTERM/SIGHUP/SIGINT (``jmsctl.cleanup``) the
  temp file is removed and the old file is left as it was.
- a symbolic link: the same, for the file it points to (the link stays a link).
- anything else (a character device such as ``/dev/null`` or ``/dev/full``, a FIFO, a socket):
  written directly, never replaced; all or nothing is not possible there (a reader of a FIFO sees
  what was written before an error).
- a directory, a path in a missing or unwritable directory: ``OutputError`` before anything is read.

Writes that fail (ENOSPC on ``/dev/full`` or a full disk, EIO) raise ``OSError`` from ``write`` or
``commit``; the callers report it in one line and exit 2, and the temp file is gone.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from types import TracebackType
from typing import IO

from jmsctl import cleanup

Write = Callable[[bytes], object]


class OutputError(Exception):
    """The output cannot be opened for writing: a message naming the path and the reason."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


class Output:
    """One output opened by ``open_output``: ``stream``/``write`` to fill it, then ``commit``
    (or ``discard``). As a context manager: committed when the block ends normally, discarded
    when it raises."""

    stream: IO[bytes]

    def __init__(self, path: str | None, *, buffering: int = 1 << 16) -> None:
        self.path = None if path in (None, "-") else path
        self.target: str | None = None  # the file that is replaced: the path, or where its link points
        self.direct = False  # written in place (stdout or not a regular file)
        self._tmp: str | None = None
        self._token: int | None = None
        self._mode: int | None = None
        self._owner: tuple[int, int] | None = None
        if self.path is None:
            self.stream = sys.stdout.buffer
            self.direct = True
            return
        target = os.path.realpath(self.path) if os.path.islink(self.path) else self.path
        try:
            st: os.stat_result | None = os.stat(target)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise OutputError(f"{self.path}: {_reason(exc)}") from None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{self.path}: is a directory")
        if st is not None and not stat.S_ISREG(st.st_mode):
            self.direct = True  # a device, FIFO or socket: write to it, never replace it
            try:
                fd = os.open(target, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
            except OSError as exc:
                raise OutputError(f"cannot write {self.path}: {_reason(exc)}") from None
            self.stream = os.fdopen(fd, "wb", buffering=buffering)
            return
        self.target = target
        if st is not None:
            self._mode = stat.S_IMODE(st.st_mode)
            self._owner = (st.st_uid, st.st_gid)
        directory = os.path.dirname(os.path.abspath(target))
        if not os.path.isdir(directory):
            raise OutputError(f"cannot write {self.path}: no such directory {directory}")
        with cleanup.signals_blocked():  # no moment where the temp file exists unregistered
            try:
                fd, self._tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
            except OSError as exc:
                if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                    raise OutputError(f"cannot write {self.path}: {_reason(exc)} (cannot create a file in {directory})") from None
                raise OutputError(f"cannot write {self.path}: {_reason(exc)}") from None
            self._token = cleanup.register(self.path, self._unlink_tmp)
        self.stream = os.fdopen(fd, "wb", buffering=buffering)

    # ----- writing ---------------------------------------------------------------------------

    def write(self, data: bytes) -> object:
        return self.stream.write(data)

    def descriptor(self) -> int | None:
        """The output flushed, for other processes to write to its descriptor (None: no real file)."""
        try:
            self.stream.flush()
            return self.stream.fileno()
        except (OSError, ValueError, io.UnsupportedOperation):
            return None

    # ----- ending ----------------------------------------------------------------------------

    def commit(self) -> None:
        """Everything written: flush it, and for a file put it in place. Raises OSError (the
        temp file is then removed, the old file untouched)."""
        try:
            self.stream.flush()
            if self._tmp is None:
                if self.path is not None:
                    self.stream.close()
                return
            os.fsync(self.stream.fileno())
            self.stream.close()
            os.chmod(self._tmp, self._mode if self._mode is not None else _default_mode())
            if self._owner is not None:
                with contextlib.suppress(OSError):  # allowed for root, or the same owner
                    os.chown(self._tmp, *self._owner)
            assert self.target is not None
            os.replace(self._tmp, self.target)
            self._tmp = None
        except BaseException:
            self.discard()
            raise
        self._forget()

    def discard(self) -> None:
        """Nothing of this output is kept: the temp file removed (a direct output stays as written)."""
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.stream.close()
        self._unlink_tmp()
        self._forget()

    def _unlink_tmp(self) -> None:
        tmp, self._tmp = self._tmp, None
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)

    def _forget(self) -> None:
        if self._token is not None:
            cleanup.unregister(self._token)
            self._token = None

    def __enter__(self) -> Output:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def open_output(path: str | None, *, buffering: int = 1 << 16) -> Output:
    """``path`` (``None`` or ``-``: stdout) opened for an all-or-nothing write; see the module doc."""
    return Output(path, buffering=buffering)


def _default_mode() -> int:
    """What open() would give a new file: 0666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


__all__ = ["Output", "OutputError", "Write", "open_output"]

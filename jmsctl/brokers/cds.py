"""Class data sharing for the JMS transport's JVM: the classes a broker command loads (the JDK's beyond
its default archive, JPype's, the provider's client: ~650 for an ActiveMQ connect) mapped from an
archive instead of read, parsed and verified from the jars again (bench/README.md: ~0.07 s less CPU
of an empty browse's JVM, 0.43 against 0.50 s).

The archive is made once per JDK, JPype and set of jars, by the first broker command that ends well
without one: it starts its JVM with ``-XX:+RecordDynamicDumpInfo`` and, once its output is committed,
asks the JVM for a dynamic dump (the DiagnosticCommand MBean's ``vmCds dynamic_dump``, Java 17's
``jcmd VM.cds``) into a temporary file, renamed into place with the archive's size in its name. A
JVM maps an archive without checking it (a truncated one ends in SIGBUS, a damaged one in SIGSEGV,
tried here), so one is used only when its size is the one in its name (nothing cut it) and with
``-XX:+VerifySharedSpaces`` (a CRC of every region: a damaged archive is refused and the JVM loads
its classes as usual). The JVM's own checks refuse an archive of other jars or another JDK. Nothing
here ever fails a command: without an archive, or with one refused, the classes load as before.
``JMSCTL_CDS=0`` turns it off. Java 17 or later (HotSpot) only: an older JVM would refuse the flags.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
from pathlib import Path
from typing import Any

_pending: dict[str, Path] = {}  # "dump": where the archive of this process goes, when it has none yet


def cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "jmsctl"


def _java_17(jvm_path: str) -> bool:
    """Whether the JVM at ``jvm_path`` (lib/server/libjvm.so) is a HotSpot of Java 17 or later, from
    its home's ``release`` file (no JVM started to ask)."""
    lib = Path(jvm_path)
    if lib.parent.name not in ("server", "client"):
        return False
    for home in (lib.parent.parent.parent, lib.parent.parent.parent.parent):  # lib/server/libjvm.so; jre/lib/amd64/server
        with contextlib.suppress(OSError):
            found = re.search(r'^JAVA_VERSION="(\d+)', (home / "release").read_text(encoding="utf-8", errors="replace"), re.M)
            return found is not None and int(found[1]) >= 17
    return False


def _digest(jpype: Any, jvm_path: str, classpath: list[str], flags: tuple[str, ...]) -> str | None:
    """What an archive is valid for: the JVM, JPype and the jars as they are now (paths, sizes, times);
    None when a classpath entry is not a jar file (a directory's classes cannot be archived)."""
    parts = [jvm_path, getattr(jpype, "__version__", ""), *flags]
    for path in [jvm_path, *classpath]:
        if path != jvm_path and not (path.endswith(".jar") and os.path.isfile(path)):
            return None
        st = os.stat(path)
        parts += [path, str(st.st_size), str(st.st_mtime_ns)]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:20]


def flags(jpype: Any, classpath: list[str], jvm_flags: tuple[str, ...]) -> tuple[str, ...]:
    """The JVM's flags for sharing: the archive's if a whole one is there; else the recording of what
    a dump needs, when the archive can be written; else none."""
    _pending.clear()
    if os.environ.get("JMSCTL_CDS") == "0":
        return ()
    try:
        jvm_path = str(jpype.getDefaultJVMPath())
        if not _java_17(jvm_path):
            return ()
        digest = _digest(jpype, jvm_path, classpath, jvm_flags)
        if digest is None:
            return ()
        directory = cache_dir()
        # the JVM's log is off: a refused archive is said on stdout by default, where a browse writes messages
        quiet = ("-Xlog:disable", "-Xlog:all=off")
        for archive in sorted(directory.glob(f"cds-{digest}-*.jsa")):
            size = archive.name[len(f"cds-{digest}-"):-len(".jsa")]
            if size.isdigit() and archive.stat().st_size == int(size):
                return (f"-XX:SharedArchiveFile={archive}", "-XX:+VerifySharedSpaces", *quiet)
            with contextlib.suppress(OSError):
                archive.unlink()  # cut short since it was written: written again below
        directory.mkdir(parents=True, exist_ok=True)
        if not os.access(directory, os.W_OK):
            return ()
        _pending["dump"] = directory / f"cds-{digest}"
        return ("-XX:+RecordDynamicDumpInfo", "-XX:+VerifySharedSpaces", *quiet)
    except (OSError, ValueError, RuntimeError):  # no JVM found, a jar gone meanwhile, a cache that cannot be made
        _pending.clear()
        return ()


def sweep(directory: Path) -> None:
    """The temporary files and directories (``NAME.PID.tmp``) of processes that died while writing
    them in the cache (a signal during the bridge's javac, SIGKILL during a dump): removed."""
    with contextlib.suppress(OSError):
        for stale in directory.glob("*.*.tmp"):
            pid = stale.name.rsplit(".", 2)[-2]
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                os.kill(int(pid), 0)
                continue  # alive (or another user's): still being written
            except ProcessLookupError:
                pass
            except OSError:
                continue
            if stale.is_dir():
                shutil.rmtree(stale, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    stale.unlink()


def dump(jpype: Any) -> None:
    """The archive written, if this process is to make one: called last, with the command's output
    committed and flushed; stdout and stderr go to /dev/null first (the JVM says where it dumps on its
    own stdout) and the signals wait (the process ends right after). Any failure leaves no archive."""
    base = _pending.pop("dump", None)
    if base is None:
        return
    sweep(base.parent)
    work = base.with_name(f"{base.name}.{os.getpid()}.tmp")
    with contextlib.suppress(BaseException):  # best effort, at the very end: the command's status stands
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        name = jpype.JClass("javax.management.ObjectName")("com.sun.management:type=DiagnosticCommand")
        server = jpype.JClass("java.lang.management.ManagementFactory").getPlatformMBeanServer()
        arguments = jpype.JArray(jpype.JObject)([jpype.JArray(jpype.JString)(["dynamic_dump", str(work)])])
        server.invoke(name, "vmCds", arguments, jpype.JArray(jpype.JString)(["[Ljava.lang.String;"]))
        size = work.stat().st_size
        if size > 0:
            os.replace(work, base.with_name(f"{base.name}-{size}.jsa"))
    with contextlib.suppress(OSError):
        work.unlink()


__all__ = ["cache_dir", "dump", "flags", "sweep"]

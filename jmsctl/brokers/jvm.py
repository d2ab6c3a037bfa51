"""The JVM in this process, for the JMS transport (jms.py): started once with the flags a short-lived
client wants, signals left to Python; the provider's jars reached through a class loader; the small
Java bridge (java/JmsctlBridge.java) compiled against the provider's JMS API with javac on first use
and cached; and the process ended by jmsctl once a broker command is done (``end_process``)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from jmsctl.brokers import cds
from jmsctl.brokers.interface import BrokerError, Target

BRIDGE = Path(__file__).parent / "java" / "JmsctlBridge.java"

# A short-lived client: C1 only (no C2 compiler threads competing for the cores while it starts and
# browses: JVM start and connect 1.4 s instead of 2.6 s under load 17 here), the serial collector.
JVM_FLAGS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k")

_jvm_lock = threading.Lock()
_bridges: list[tuple[str, Any, Any]] = []  # (API, class loader, JmsctlBridge): one per loader


def _import_jpype() -> Any:
    """JPype, without the numpy it imports for array support when numpy is installed (0.1 s of an
    empty browse's 1.3 s here; jmsctl passes no arrays through it). A process that has numpy already
    keeps it."""
    blocked = "numpy" not in sys.modules
    if blocked:
        sys.modules["numpy"] = None  # type: ignore[assignment]  # import numpy raises ImportError: JPype goes without
    try:
        import jpype  # type: ignore[import-untyped]
    finally:
        if blocked and sys.modules.get("numpy", 0) is None:
            del sys.modules["numpy"]
    return jpype


def start_jvm(target: Target, classpath: list[str]) -> Any:
    try:
        jpype = _import_jpype()
    except ImportError:
        raise BrokerError(f"{target.url}: the JMS transport needs JPype: pip install JPype1 (or use stomp://HOST:PORT)") from None
    with _jvm_lock:
        if not jpype.isJVMStarted():
            try:
                # -Xrs: the JVM leaves SIGINT, SIGTERM and SIGHUP to Python (jmsctl.cleanup, the broker
                # commands), instead of its own handler running System.exit from a thread of its own while
                # the main thread is in a Java call (temp files left, SIGABRT in JPype's exception handling,
                # JVMNotRunning tracebacks); interrupt=False: JPype installs no ^C handler of its own.
                # class data sharing (cds.py): its flags only for a HotSpot of Java 17 or later, and any
                # option such a JVM would not know ignored rather than refused
                sharing = cds.flags(jpype, classpath, JVM_FLAGS)
                jpype.startJVM("-Xrs", *JVM_FLAGS, *sharing, classpath=classpath, convertStrings=False, interrupt=False,
                               ignoreUnrecognized=bool(sharing))
            except Exception as exc:  # JVMNotFoundException (a ValueError), JVMNotSupportedException, OSError ...
                raise BrokerError(f"{target.url}: cannot start a Java VM: {exc}") from None
            # ActiveMQ's client prints stack traces on System.err where it swallows an exception (its
            # QueueBrowser's destroyConsumer on a closed session, when the connection is lost): what
            # failed reaches jmsctl as the connection's exception, said in one line; System.err says nothing.
            java_io = "java.io."
            jpype.JClass("java.lang.System").setErr(jpype.JClass(java_io + "PrintStream")(jpype.JClass(java_io + "OutputStream").nullOutputStream()))
        # else: one JVM per process (JPype cannot restart one); the jars of a later connection are
        # added through a class loader of its own (class_loader).
    return jpype


def end_process(status: int) -> None:
    """With a JVM in this process: stdout and stderr flushed, the process ended now with ``status``.

    JPype's exit hook (shutdownJVM) waits for every non-daemon Java thread, and a provider's
    connection that a signal or a dead broker left half open keeps one: the process would hang at
    exit (seen after SIGINT during the connect). The JVM holds nothing to save (a browse's file is
    committed, a send committed or rolled back by the broker when the connection drops), so the
    broker commands end the process here. Without a JVM, nothing happens."""
    jpype = sys.modules.get("jpype")
    if jpype is None or not jpype.isJVMStarted():
        return
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    if status == 0:
        cds.dump(jpype)  # the first command that ends well writes the class archive (once per JDK, JPype and jars)
    os._exit(status)


def class_loader(jpype: Any, classpath: list[str]) -> Any:
    """A class loader over ``classpath`` (the JVM's own when it was started with it)."""
    system = jpype.JClass("java.lang.ClassLoader").getSystemClassLoader()
    started = set(str(jpype.JClass("java.lang.System").getProperty("java.class.path")).split(os.pathsep))
    missing = [p for p in classpath if p not in started]
    if not missing:
        return system
    urls = [jpype.JClass("java.io.File")(p).toURI().toURL() for p in missing]
    return jpype.JClass("java.net.URLClassLoader")(urls, system)


def bridge_class(jpype: Any, target: Target, loader: Any, classpath: list[str]) -> Any:
    """JmsctlBridge compiled against the provider's JMS API (javax.jms or jakarta.jms), cached."""
    api = None
    for name in ("javax.jms", "jakarta.jms"):
        try:
            jpype.JClass("java.lang.Class").forName(f"{name}.Message", False, loader)
            api = name
            break
        except jpype.JException:
            continue
    if api is None:
        raise BrokerError(f"{target.url}: no JMS API (javax.jms or jakarta.jms) in the classpath {':'.join(classpath) or '(empty)'}: "
                          "give the provider's client jars with --classpath or JMSCTL_CLASSPATH")
    for known, known_loader, bridge in _bridges:
        if known == api and known_loader == loader:  # a Java object's equals: a class loader's identity (a new proxy each call)
            return bridge
    directory = _compiled(target, api, classpath)
    url = jpype.JClass("java.io.File")(str(directory)).toURI().toURL()
    bridge_loader = jpype.JClass("java.net.URLClassLoader")([url], loader)
    bridge = jpype.JClass("JmsctlBridge", loader=bridge_loader)
    _bridges.append((api, loader, bridge))
    return bridge


def _compiled(target: Target, api: str, classpath: list[str]) -> Path:
    source = BRIDGE.read_text(encoding="utf-8").replace("@JMS@", api)
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "jmsctl" / f"bridge-{digest}"
    if (cache / "JmsctlBridge.class").exists():
        return cache
    javac = shutil.which("javac")
    if javac is None:
        raise BrokerError(f"{target.url}: the JMS transport compiles a small Java class on first use and javac is not on PATH "
                          "(install a JDK: apt-get install default-jdk-headless), or use stomp://HOST:PORT")
    work = cache.with_name(cache.name + f".{os.getpid()}.tmp")
    cds.sweep(cache.parent)  # what a process killed while compiling (or dumping) left there
    try:
        work.mkdir(parents=True, exist_ok=True)
        (work / "JmsctlBridge.java").write_text(source, encoding="utf-8")
    except OSError as exc:
        raise BrokerError(f"{target.url}: cannot compile the JMS bridge in {work.parent}: {exc.strerror or exc} (set XDG_CACHE_HOME)") from None
    done = subprocess.run([javac, "-nowarn", "-cp", os.pathsep.join(classpath), "-d", str(work), str(work / "JmsctlBridge.java")],
                          capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise BrokerError(f"{target.url}: javac failed on the JMS bridge: {done.stderr.strip().splitlines()[0] if done.stderr.strip() else done.returncode}")
    try:
        os.replace(work, cache)
    except OSError:  # another process put it there first
        shutil.rmtree(work, ignore_errors=True)
    return cache


__all__ = ["BRIDGE", "JVM_FLAGS", "bridge_class", "class_loader", "end_process", "start_jvm"]

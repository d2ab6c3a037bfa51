"""A real ActiveMQ Classic broker for the tests: Debian's ``activemq`` package started from its jars
on free ports of 127.0.0.1 (OpenWire and STOMP), not persistent, no JMX, in a temporary directory.

The JVM gets PR_SET_PDEATHSIG (SIGKILL), so it dies with the test process even when that is killed
outright; ``stop`` ends it politely first. Started once per test session (tests/test_brokers_live.py).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

HOME = Path("/usr/share/activemq")
RUN_JAR = HOME / "bin" / "activemq.jar"


def missing() -> str | None:
    """Why the broker cannot run here, or None."""
    if shutil.which("java") is None:
        return "java is not on PATH"
    if not RUN_JAR.exists():
        return f"{RUN_JAR} is missing: apt-get install -y activemq (.ci/run does)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL when the parent dies (Linux prctl PR_SET_PDEATHSIG = 1)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)


# The test broker lives for a module or a run on two cores shared with the tests: the JIT's first tier only
# (its second compiled the broker's start-up code again in each of the run's brokers).
JIT = os.environ.get("JMSCTL_TEST_BROKER_JIT", "-XX:TieredStopAtLevel=1").split()


class Broker:
    def __init__(self, base: Path, persistent: bool = False) -> None:
        """``persistent``: KahaDB under ``base`` (for tests that kill the broker and start it again)."""
        self.base = base
        self.persistent = persistent
        self.openwire = free_port()
        self.stomp = free_port()
        self.log = base / "broker.log"
        self.start()

    def start(self) -> None:
        """Started (again: on the same ports and data, after ``kill``)."""
        base = self.base
        uri = f"broker:(tcp://127.0.0.1:{self.openwire},stomp://127.0.0.1:{self.stomp})?persistent={str(self.persistent).lower()}&useJmx=false"
        command = ["java", "-Xmx256m", *JIT, f"-Dactivemq.home={HOME}", f"-Dactivemq.base={base}", f"-Dactivemq.data={base / 'data'}",
                   "-jar", str(RUN_JAR), "start", uri]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                            cwd=base, preexec_fn=_die_with_parent)

    @property
    def stomp_url(self) -> str:
        return f"stomp://127.0.0.1:{self.stomp}"

    @property
    def jms_url(self) -> str:
        return f"activemq:tcp://127.0.0.1:{self.openwire}"

    def wait(self, seconds: float = 90.0) -> None:
        """Until STOMP answers CONNECT (the last connector the broker starts); RuntimeError otherwise."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the broker exited ({self.process.returncode}): {self.log.read_text(errors='replace')[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.stomp), timeout=2) as s:
                    s.sendall(b"CONNECT\naccept-version:1.2\nhost:localhost\n\n\0")
                    if s.recv(100).startswith(b"CONNECTED"):
                        return
            except OSError:
                pass
            time.sleep(0.3)
        raise RuntimeError(f"the broker did not start within {seconds:g} s: {self.log.read_text(errors='replace')[-2000:]}")

    def kill(self) -> None:
        """SIGKILL, as a crash: what was committed is in KahaDB (persistent), the rest is gone."""
        self.process.kill()
        self.process.wait(30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


__all__ = ["Broker", "free_port", "missing"]


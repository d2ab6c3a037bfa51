"""ActiveMQ Classic's real selector engine as a test oracle.

Debian's libactivemq-java puts activemq-client.jar (org.apache.activemq.selector.SelectorParser) under
/usr/share/java; tests/java/ActiveMQSelectorHarness.java is compiled with javac into a temporary
directory and run as ONE long-lived JVM that reads cases on stdin and writes one verdict per line.
The JVM exits when its stdin closes, so it dies with the test process.
"""

from __future__ import annotations

import base64
import math
import re
import shutil
import subprocess
import threading
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

SHARE = Path("/usr/share/java")
# activemq-client needs the JMS 1.1 API (javax.jms) to load; hawtbuf and slf4j are on its classpath in
# Debian's package (libactivemq-java Depends), added when present.
REQUIRED = ("activemq-client.jar", "geronimo-jms_1.1_spec.jar")
OPTIONAL = ("hawtbuf.jar", "slf4j-api.jar", "slf4j-nop.jar")
HARNESS = Path(__file__).parent / "java" / "ActiveMQSelectorHarness.java"
HEADER_NAMES = {"JMSType", "JMSMessageID", "JMSCorrelationID", "JMSPriority", "JMSTimestamp", "JMSDeliveryMode",
                "JMSExpiration", "JMSRedelivered", "JMSDestination", "JMSReplyTo"}


def missing() -> str | None:
    """Why the engine cannot run here, or None."""
    for tool in ("java", "javac"):
        if shutil.which(tool) is None:
            return f"{tool} is not on PATH"
    for jar in REQUIRED:
        if not (SHARE / jar).exists():
            return f"{SHARE / jar} is missing: apt-get install -y libactivemq-java (.ci/run does)"
    return None


def classpath() -> str:
    return ":".join(str(SHARE / j) for j in (*REQUIRED, *OPTIONAL) if (SHARE / j).exists())


def version() -> str:
    """The jar's Implementation-Version (5.17.2 in Debian bookworm)."""
    with zipfile.ZipFile(SHARE / "activemq-client.jar") as jar:
        manifest = jar.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    found = re.search(r"^Implementation-Version: *(\S+)", manifest, re.MULTILINE)
    return found.group(1) if found else "?"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8", "surrogatepass")).decode("ascii")


def _java_number(jtype: str, value: Any) -> str:
    if jtype in ("float", "double"):
        if isinstance(value, str):  # "NaN", "Infinity", "-Infinity" in the dump format
            return value
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(float(value))
    if jtype == "boolean":
        return "true" if value else "false"
    return str(int(value))


def _field(kind: str, name: str, value: Any) -> str:
    """One KIND,NAME,TYPE,VALUE field; bare JSON values typed as the dump format types them."""
    if isinstance(value, dict):
        jtype, v = value["type"], value["value"]
    elif value is None:
        jtype, v = "null", None
    elif isinstance(value, bool):
        jtype, v = "boolean", value
    elif isinstance(value, int):
        jtype, v = ("int" if -(2**31) <= value < 2**31 else "long"), value
    elif isinstance(value, float):
        jtype, v = "double", value
    else:
        jtype, v = "string", value
    if kind == "H" and name in ("JMSPriority",) and jtype == "long":
        jtype = "int"
    shown = "" if jtype == "null" else _b64(v) if jtype == "string" else _java_number(jtype, v)
    return f"{kind},{_b64(name)},{jtype},{shown}"


def encode(selector: str, message: dict[str, Any]) -> str:
    """A harness input line for a selector and a message in the dump format's JSON shape."""
    fields = [_b64(selector)]
    for name, value in (message.get("headers") or {}).items():
        if name in HEADER_NAMES:
            fields.append(_field("H", name, value))
    for name, value in (message.get("properties") or {}).items():
        if value is not None:
            fields.append(_field("P", name, value))
    return "\t".join(fields)


class Engine:
    """The running harness: ``verdicts(cases)`` -> 'match' | 'nomatch' | 'error' per case (an exception
    while evaluating is 'nomatch': the broker does not deliver), or 'unsendable' when ActiveMQ's client
    refuses to put a value on the message (no such message exists there); raw lines in ``last_raw``."""

    def __init__(self, workdir: Path) -> None:
        cp = classpath()
        subprocess.run(["javac", "-nowarn", "-cp", cp, "-d", str(workdir), str(HARNESS)], check=True,
                       capture_output=True, timeout=120)
        self.proc = subprocess.Popen(["java", "-Xss8m", "-cp", f"{cp}:{workdir}", "ActiveMQSelectorHarness"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, encoding="utf-8", bufsize=1 << 16)
        self.last_raw: list[str] = []

    def verdicts(self, cases: Iterable[tuple[str, dict[str, Any]]]) -> list[str]:
        lines = [encode(s, m) for s, m in cases]
        assert self.proc.stdin is not None and self.proc.stdout is not None
        stdin, stdout = self.proc.stdin, self.proc.stdout

        def feed() -> None:  # a writer thread: the JVM's answers are read while the cases are written
            for line in lines:
                stdin.write(line + "\n")
            stdin.flush()

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        raw = [stdout.readline().rstrip("\n") for _ in lines]
        writer.join()
        self.last_raw = raw
        return list(_verdicts(raw))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _verdicts(raw: list[str]) -> Iterator[str]:
    for line in raw:
        if line in ("match", "nomatch"):
            yield line
        elif line.startswith("error"):
            yield "error"
        elif line.startswith("exception"):
            yield "nomatch"
        elif line.startswith("unsendable"):
            yield "unsendable"
        else:
            raise RuntimeError(f"the ActiveMQ harness failed: {line!r}")

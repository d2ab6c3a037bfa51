"""Class data sharing for the JMS transport's JVM (jmsctl/brokers/cds.py, issue 32 item 10's empty
browse): the first command that ends well writes the archive, whole or not at all, and says nothing on
stdout; the next ones map it; a damaged or cut archive, a stale temporary file or ``JMSCTL_CDS=0``
never makes a command fail or print anything else. Each test has a cache directory of its own
(XDG_CACHE_HOME); the session's broker (tests/conftest.py); jmsctl runs as a subprocess.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from jmsctl import brokers
from jmsctl.brokers.cds import cache_dir
from jmsctl.messages.model import Message
from tests import activemq_broker

ROOT = Path(__file__).parent.parent
QUEUE = "cds-two"

pytestmark = pytest.mark.skipif(activemq_broker.missing() is not None, reason=str(activemq_broker.missing()))


@pytest.fixture(scope="module")
def queue(broker: activemq_broker.Broker) -> str:
    with brokers.connect(broker.stomp_url, brokers.Options(timeout=20)) as conn:
        report = brokers.SendReport()
        conn.send(QUEUE, [Message({}, {}, "text", f"m{i}") for i in range(2)], report)
    assert report.sent == 2
    return QUEUE


def _cache(tmp_path: Path) -> Path:
    """A cache of the test's own, with the bridges already compiled in the user's (no javac run again)."""
    home = tmp_path / "cache"
    (home / "jmsctl").mkdir(parents=True)
    for bridge in cache_dir().glob("bridge-*"):
        if bridge.is_dir() and not bridge.name.endswith(".tmp"):
            shutil.copytree(bridge, home / "jmsctl" / bridge.name)
    return home


def _browse(broker: activemq_broker.Broker, home: Path, **env: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "jmsctl", "browse", broker.jms_url, QUEUE], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ, "XDG_CACHE_HOME": str(home), **env})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert [orjson.loads(line)["body"] for line in done.stdout.splitlines()] == ["m0", "m1"]  # nothing else on stdout
    return done.stdout.splitlines()


def _archives(home: Path) -> list[Path]:
    return sorted((home / "jmsctl").glob("cds-*.jsa"))


def _whole(archive: Path) -> bool:
    return archive.stat().st_size == int(archive.name.rsplit("-", 1)[1].removesuffix(".jsa"))


def test_the_first_command_writes_the_archive_and_the_next_map_it(broker: activemq_broker.Broker, queue: str, tmp_path: Path) -> None:
    home = _cache(tmp_path)
    _browse(broker, home)
    [archive] = _archives(home)
    assert _whole(archive) and not list((home / "jmsctl").glob("*.tmp"))
    written = archive.stat().st_mtime_ns
    _browse(broker, home)
    assert _archives(home) == [archive] and archive.stat().st_mtime_ns == written  # used, not written again
    if not Path("/proc/self/maps").exists():
        return
    watch = subprocess.Popen([sys.executable, "-m", "jmsctl", "watch", broker.jms_url, "topic:cds-watch"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "XDG_CACHE_HOME": str(home)})
    try:
        assert watch.stderr is not None
        assert "subscribed" in watch.stderr.readline().decode()
        assert str(archive) in Path(f"/proc/{watch.pid}/maps").read_text()  # the JVM maps the archive
    finally:
        watch.send_signal(signal.SIGTERM)
        out, err = watch.communicate(timeout=60)
    assert watch.returncode == 143 and out == b"" and b"Traceback" not in err


def test_a_damaged_or_cut_archive_or_a_stale_temporary_is_never_a_failure(broker: activemq_broker.Broker, queue: str, tmp_path: Path) -> None:
    """A flipped byte in every 4 KiB (the same size): the JVM's CRC check refuses it, the browse loads its
    classes as before. Cut short (the size in its name no longer matches): not mapped (that would be
    SIGBUS), a whole one written again. A dead process's temporaries: removed. JMSCTL_CDS=0: no archive."""
    home = _cache(tmp_path)
    dead = subprocess.Popen(["true"])
    dead.wait()
    (home / "jmsctl" / f"cds-old.{dead.pid}.tmp").write_bytes(b"half")
    (home / "jmsctl" / f"bridge-old.{dead.pid}.tmp").mkdir()
    _browse(broker, home)
    [archive] = _archives(home)
    assert _whole(archive) and not list((home / "jmsctl").glob("*.tmp"))
    data = bytearray(archive.read_bytes())
    for i in range(4096, len(data), 4096):
        data[i] ^= 0xFF
    archive.chmod(0o644)
    archive.write_bytes(bytes(data))
    _browse(broker, home)
    assert archive.read_bytes() == bytes(data)  # refused, and left: its size is whole
    archive.write_bytes(bytes(data[: len(data) // 2]))
    started = time.time()
    _browse(broker, home)
    [again] = _archives(home)
    assert _whole(again) and again.stat().st_mtime >= started - 1
    fresh = _cache(tmp_path / "off")
    _browse(broker, fresh, JMSCTL_CDS="0")
    assert _archives(fresh) == []

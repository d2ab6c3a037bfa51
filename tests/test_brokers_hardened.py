"""The JMS transport as a person debugging a broker meets it (issue 32): stopped by signals at several
points of a browse, a send and a watch; the broker killed under a browse and a watch; a watch with no
selector. Never a traceback, never a temp file, exit 128 + the signal, counts that match the broker's.

The session's broker (tests/conftest.py) for everything but the kill, which has a broker of its own
(persistent, in a temp directory). Every jmsctl runs as a subprocess, as a user runs it.
"""

from __future__ import annotations

import base64
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson
import pytest

from jmsctl import brokers
from jmsctl.brokers.stomp import encode_frame
from jmsctl.messages.model import Message
from jmsctl.values import INT, STRING
from tests import activemq_broker

ROOT = Path(__file__).parent.parent
QUICK = brokers.Options(timeout=20, idle_timeout=10)
LONG = 30000  # messages in the long queue: a JMS browse of it takes several seconds here

pytestmark = pytest.mark.skipif(activemq_broker.missing() is not None, reason=str(activemq_broker.missing()))


def _long_messages(n: int) -> list[Message]:
    return [Message({"JMSType": "car"}, {"n": (INT, i), "s": (STRING, "x" * 40)}, "text", f"hello {i}") for i in range(n)]


def _count(broker: activemq_broker.Broker, queue: str) -> int:
    """The queue's messages as the broker has them (STOMP, in this process: no JVM)."""
    with brokers.connect(broker.stomp_url, QUICK) as conn:
        return sum(1 for _ in conn.browse(queue))


@pytest.fixture(scope="module")
def long_queue(broker: activemq_broker.Broker) -> str:
    with brokers.connect(broker.stomp_url, QUICK) as conn:
        report = brokers.SendReport()
        conn.send("hardened-long", _long_messages(LONG), report)
    assert report.sent == LONG
    return "hardened-long"


def _start(*args: str, cwd: Path = ROOT) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "jmsctl", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _stop(process: subprocess.Popen[bytes], sig: signal.Signals, after: float) -> tuple[bytes, str]:
    time.sleep(after)
    process.send_signal(sig)
    out, err = process.communicate(timeout=60)
    return out, err.decode("utf-8", "replace")


def _one_error_line(err: str) -> str:
    assert "Traceback" not in err and "\tat " not in err and "Fatal" not in err, err
    lines = [line for line in err.splitlines() if line and not line.startswith("jmsctl watch: subscribed to topic ")]
    assert len(lines) == 1 and lines[0].startswith("jmsctl: error: "), err
    return lines[0]


# ----- item 2: signals --------------------------------------------------------------------------


def _threads(process: subprocess.Popen[bytes]) -> int:
    try:
        return len(os.listdir(f"/proc/{process.pid}/task"))
    except OSError:
        return 0


def _temp_size(directory: Path) -> int:
    """The size of the browse's hidden temp file (-1 while there is none)."""
    sizes = [p.stat().st_size for p in directory.glob(".*.tmp")]
    return max(sizes) if sizes else -1


def _when(process: subprocess.Popen[bytes], ready: Callable[[], bool], seconds: float = 60) -> None:
    """Waits until ``ready()`` (a point of the command's run, seen from outside), bounded."""
    deadline = time.monotonic() + seconds
    while not ready():
        assert process.poll() is None and time.monotonic() < deadline, f"the point was never reached: {process.poll()}"
        time.sleep(0.02)


def _opened(process: subprocess.Popen[bytes], path: Path) -> bool:
    try:
        return any(os.readlink(f"/proc/{process.pid}/fd/{fd}") == str(path) for fd in os.listdir(f"/proc/{process.pid}/fd"))
    except OSError:
        return False


JVM = 8  # threads: a JVM has started in the process (Python alone has one or two)

# (signal, the point): the temp file made (before the JVM), the JVM started (connecting), the first
# bytes written (browsing), a megabyte written (well into it).
POINTS = [(signal.SIGTERM, "temp"), (signal.SIGINT, "jvm"), (signal.SIGTERM, "jvm"), (signal.SIGINT, "written"),
          (signal.SIGHUP, "written"), (signal.SIGTERM, "megabyte")]


@pytest.mark.parametrize(("sig", "point"), POINTS)
def test_a_signal_stops_a_jms_browse_to_a_file_cleanly(broker: activemq_broker.Broker, long_queue: str, tmp_path: Path,
                                                        sig: signal.Signals, point: str) -> None:
    out = tmp_path / "F.ndjson"
    process = _start("browse", broker.jms_url, long_queue, "-o", str(out), cwd=tmp_path)
    ready = {"temp": lambda: _temp_size(tmp_path) >= 0, "jvm": lambda: _threads(process) > JVM,
             "written": lambda: _temp_size(tmp_path) > 0, "megabyte": lambda: _temp_size(tmp_path) > 1 << 20}[point]
    _when(process, ready)
    _, err = _stop(process, sig, 0)
    assert process.returncode == 128 + sig, err
    line = _one_error_line(err)
    assert line == f"jmsctl: error: stopped by {sig.name}; {out} not written"
    assert list(tmp_path.iterdir()) == []  # neither F nor a hidden .F.XXXX.tmp


@pytest.mark.parametrize(("sig", "lines"), [(signal.SIGINT, 1), (signal.SIGTERM, 3000)])
def test_a_signal_stops_a_jms_browse_to_stdout_cleanly(broker: activemq_broker.Broker, long_queue: str,
                                                        sig: signal.Signals, lines: int) -> None:
    process = _start("browse", broker.jms_url, long_queue)
    assert process.stdout is not None
    read = [process.stdout.readline() for _ in range(lines)]
    out, err = _stop(process, sig, 0)
    assert process.returncode == 128 + sig, err
    line = _one_error_line(err)
    browsed = re.fullmatch(rf"jmsctl: error: stopped by {sig.name}; after (\d+) messages? browsed", line)
    assert browsed, line
    assert len(read) + len(out.splitlines()) <= int(browsed.group(1)) < LONG


@pytest.mark.parametrize(("sig", "after"), [(signal.SIGTERM, None), (signal.SIGINT, 0.0), (signal.SIGTERM, 1000)])
def test_a_stopped_jms_send_says_what_the_broker_has(broker: activemq_broker.Broker, tmp_path: Path, sig: signal.Signals,
                                                     after: int | None) -> None:
    """Stopped while reading the file (None), as the JVM starts (0), once the broker has 1000 of them
    (well into the send): the count said (committed transactions) is the count on the queue."""
    dump = tmp_path / "long.ndjson"
    from jmsctl.messages.encode import message_json

    dump.write_bytes(b"".join(orjson.dumps(message_json(m)) + b"\n" for m in _long_messages(LONG)))
    queue = f"hardened-send-{sig.name}-{after}"
    process = _start("send", broker.jms_url, queue, str(dump))
    if after is None:
        _when(process, lambda: _opened(process, dump))  # reading it (which takes a second or more)
    elif after == 0:
        _when(process, lambda: _threads(process) > JVM)
    else:
        _when(process, lambda: _count(broker, queue) >= after)
    _, err = _stop(process, sig, 0)
    assert process.returncode == 128 + sig, err
    line = _one_error_line(err)
    if line == f"jmsctl: error: stopped by {sig.name}; nothing sent":
        sent = 0
    else:
        said = re.fullmatch(rf"jmsctl: error: stopped by {sig.name}; (\d+) of {LONG} messages were sent to {queue} \(the broker has them\), "
                            r"the other (\d+) not", line)
        assert said, line
        sent = int(said.group(1))
        assert sent + int(said.group(2)) == LONG and sent < LONG
    assert _count(broker, queue) == sent


def test_a_jms_watch_without_a_selector_prints_and_stops_on_a_signal(broker: activemq_broker.Broker) -> None:
    """Item 1: createConsumer(topic, None) was ambiguous to JPype: a TypeError traceback, exit 1."""
    process = _start("watch", broker.jms_url, "hardened-prices", "--format", "ndjson")
    try:
        record = _first_watched(broker, process, "hardened-prices")
        assert record["body"] == "42" and record["properties"]["kind"] == "x"
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
        assert process.returncode == 143, err
        assert err.decode() == "jmsctl watch: subscribed to topic hardened-prices: messages published from now on\n", err
    finally:
        if process.poll() is None:
            process.kill()


def _first_watched(broker: activemq_broker.Broker, process: subprocess.Popen[bytes], topic: str) -> dict[str, object]:
    """Publishes over STOMP until the watch prints a line (its subscription takes a moment); that line."""
    import socket

    assert process.stdout is not None
    os.set_blocking(process.stdout.fileno(), False)
    deadline = time.monotonic() + 60
    with socket.create_connection(("127.0.0.1", broker.stomp)) as s:
        s.sendall(encode_frame("CONNECT", {"accept-version": "1.2", "host": "localhost"}))
        s.recv(1000)
        while time.monotonic() < deadline and process.poll() is None:
            s.sendall(encode_frame("SEND", {"destination": f"/topic/{topic}", "kind": "x"}, b"42"))
            time.sleep(0.5)
            line = process.stdout.readline()
            if line:
                return orjson.loads(line)  # type: ignore[no-any-return]
    raise AssertionError(f"the watch printed nothing: {process.poll()} {process.stderr.read() if process.stderr else ''}")


# ----- item 3: the broker killed ------------------------------------------------------------------


@pytest.fixture
def own_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[activemq_broker.Broker]:
    b = activemq_broker.Broker(tmp_path_factory.mktemp("activemq-killed"), persistent=True)
    try:
        b.wait()
        yield b
    finally:
        b.stop()


def test_a_broker_killed_under_a_jms_browse_and_watch_is_a_lost_connection(own_broker: activemq_broker.Broker, tmp_path: Path) -> None:
    """kill -9 of the broker: the browse says "connection lost" (exit 2), never "stalled", and writes
    no file; the watch says the same instead of an EOFException traceback."""
    with brokers.connect(own_broker.stomp_url, QUICK) as conn:
        conn.send("doomed", _long_messages(12000), brokers.SendReport())
    out = tmp_path / "F.ndjson"
    to_file = _start("browse", own_broker.jms_url, "doomed", "-o", str(out), "--idle-timeout", "60", cwd=tmp_path)
    piped = _start("browse", own_broker.jms_url, "doomed", "--idle-timeout", "60")
    watch = _start("watch", own_broker.jms_url, "doomed-prices", "--format", "ndjson")
    try:
        _first_watched(own_broker, watch, "doomed-prices")
        assert piped.stdout is not None
        first = piped.stdout.readline()  # the browse is under way (and held by the pipe, not read further)
        assert orjson.loads(first)["body"].startswith("hello")
        own_broker.kill()
        started = time.monotonic()
        for process in (piped, watch, to_file):
            _, err = process.communicate(timeout=60)
            if process is to_file and process.returncode == 0:
                continue  # the whole queue was read before the kill: written, rightly
            line = _one_error_line(err.decode("utf-8", "replace"))
            assert process.returncode == 2, line
            assert "connection lost" in line and "stalled" not in line, line
        assert time.monotonic() - started < 30  # not the idle timeout (60 s)
        assert not out.exists() or len(out.read_bytes().splitlines()) == 12000
        assert [p.name for p in tmp_path.iterdir() if p.name != out.name] == []
    finally:
        for process in (piped, watch, to_file):
            if process.poll() is None:
                process.kill()


# ----- item 4: a message the client cannot decode -------------------------------------------------


def test_a_message_the_jms_client_cannot_decode_is_a_rejected_record(broker: activemq_broker.Broker, tmp_path: Path) -> None:
    """A text holding U+1F600 sent over STOMP (4-byte UTF-8): ActiveMQ's OpenWire client throws
    UTFDataFormatException on it. It was the end of the whole browse (exit 2, no id, "third" never
    shown); now it is rejected, named, counted, its raw bytes kept, and the browse goes on."""
    with brokers.connect(broker.stomp_url, QUICK) as conn:
        conn.send("hardened-bmp", [Message({}, {}, "text", body) for body in ("first", "\U0001F600", "third")], brokers.SendReport())
    out, rejected = tmp_path / "out.ndjson", tmp_path / "rejected.ndjson"
    done = subprocess.run([sys.executable, "-m", "jmsctl", "browse", broker.jms_url, "hardened-bmp", "-o", str(out), "--rejected", str(rejected),
                           "--stats"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert [orjson.loads(x)["body"] for x in out.read_bytes().splitlines()] == ["first", "third"]
    lines = done.stderr.splitlines()
    assert "Traceback" not in done.stderr and len(lines) == 3, done.stderr
    assert re.fullmatch(r"jmsctl: error: \S+ hardened-bmp: message 2 \(ID:\S+\): the client cannot decode it: .*UTFDataFormatException.*"
                        rf"; its 8 raw bytes in {re.escape(str(rejected))}", lines[0]), lines[0]
    assert lines[1].startswith("browsed 3, written 2, rejected 1 ")
    assert lines[2].endswith("hardened-bmp: 1 message the client could not decode was rejected; the 2 others are written in " + str(out))
    record = orjson.loads(rejected.read_bytes())
    assert record["position"] == 2 and record["JMSMessageID"].startswith("ID:")
    assert base64.b64decode(record["raw"]).endswith("\U0001F600".encode())


# ----- items 7, 8: topics, and a comma in a name --------------------------------------------------


@pytest.mark.parametrize("transport", ["jms", "stomp"])
def test_send_publishes_to_a_topic_and_watch_says_when_it_is_subscribed(broker: activemq_broker.Broker, tmp_path: Path, transport: str) -> None:
    """``send URL topic:NAME`` publishes (it made a queue named topic://x before); ``watch`` says on
    stderr once the broker has its subscription, so nothing sent after that line is missed."""
    url = broker.jms_url if transport == "jms" else broker.stomp_url
    topic = f"hardened-topic-{transport}"
    dump = tmp_path / "one.ndjson"
    dump.write_text('{"body": "published", "properties": {"k": "v"}}\n', encoding="utf-8")
    watch = _start("watch", url, f"topic:{topic}", "--format", "ndjson")
    try:
        assert watch.stderr is not None and watch.stdout is not None
        said = watch.stderr.readline().decode()
        assert said == f"jmsctl watch: subscribed to topic {topic}: messages published from now on\n"
        sent = subprocess.run([sys.executable, "-m", "jmsctl", "send", url, f"topic:{topic}", str(dump)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, check=False)
        assert sent.returncode == 0 and f"sent 1 message to topic:{topic}" in sent.stderr, sent.stderr
        record = orjson.loads(watch.stdout.readline())
        assert record["body"] == "published" and record["headers"]["JMSDestination"] == f"topic://{topic}"
        watch.send_signal(signal.SIGTERM)
        watch.communicate(timeout=30)
        assert watch.returncode == 143
    finally:
        if watch.poll() is None:
            watch.kill()
    gone = subprocess.run([sys.executable, "-m", "jmsctl", "browse", broker.jms_url, f"topic://{topic}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert gone.returncode == 2 and "a topic cannot be browsed" in gone.stderr


def test_a_comma_in_a_destination_name_is_refused(broker: activemq_broker.Broker) -> None:
    """OpenWire sent ``a,b`` to two queues (composite destinations), a JMS browse said "no queue", a
    STOMP browse showed one: refused everywhere, one line, nothing sent or created."""
    for url in (broker.jms_url, broker.stomp_url):
        for args in (("send", url, "hardened-a,hardened-b", "samples/orders-small.ndjson"), ("browse", url, "hardened-a,hardened-b"),
                     ("watch", url, "x,y")):
            done = subprocess.run([sys.executable, "-m", "jmsctl", *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
            assert done.returncode == 2, (args, done.stderr)
            assert "a comma in a" in _one_error_line(done.stderr), done.stderr
    with brokers.connect(broker.jms_url, QUICK) as conn:
        assert conn.queue_exists("hardened-a") is False  # nothing was sent to hardened-a


# ----- item 5: STOMP send counts what the broker took ---------------------------------------------


def test_stomp_send_counts_what_the_broker_took_and_dry_run_warns(broker: activemq_broker.Broker, tmp_path: Path) -> None:
    """A 20 KB property: ActiveMQ's STOMP refuses the frame (a header line over 10,240 bytes) and closes
    the connection, taking one or both of the frames around it: "sent 3" was said with 1 on the queue.
    Now the frame is not sent, the others are, each receipted, and the count is the queue's."""
    dump = tmp_path / "big.ndjson"
    dump.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in ({"body": "a"}, {"body": "b", "properties": {"big": "x" * 20000}}, {"body": "c"})))
    dry = subprocess.run([sys.executable, "-m", "jmsctl", "send", broker.stomp_url, "hardened-big", str(dump), "--dry-run"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=False)
    assert dry.returncode == 0, dry.stderr
    assert "a property over 10,240 bytes (ActiveMQ's STOMP refuses the frame: would not be sent to ActiveMQ): 1 message" in dry.stderr
    assert "would send 2 messages" in dry.stderr and len(dry.stdout.splitlines()) == 2
    done = subprocess.run([sys.executable, "-m", "jmsctl", "send", broker.stomp_url, "hardened-big", str(dump)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and "sent 2 messages to hardened-big" in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1] == "jmsctl: error: 1 of 3 messages were not sent (said above)"
    with brokers.connect(broker.stomp_url, QUICK) as conn:
        assert sorted(m.body for m in conn.browse("hardened-big")) == ["a", "c"]


def test_stomp_send_counts_receipts(broker: activemq_broker.Broker) -> None:
    """Every SEND is receipted: the count is the receipts', and equals the queue's."""
    with brokers.connect(broker.stomp_url, QUICK) as conn:
        report = brokers.SendReport()
        conn.send("hardened-receipts", _long_messages(5000), report)
        assert report.sent == 5000
    assert _count(broker, "hardened-receipts") == 5000


# ----- item 9: --compare and ActiveMQ's selector cache --------------------------------------------


def test_compare_says_when_the_broker_used_a_cached_converting_parse(broker: activemq_broker.Broker) -> None:
    """After a STOMP subscription with the same text, ActiveMQ selects as STOMP reads it over OpenWire
    too (its parse cache): the JMS --compare differences are said to be that, not jmsctl's."""
    text = "hw > 100 AND 9 = 9"
    with brokers.connect(broker.jms_url, QUICK) as jms:
        jms.send("hardened-cache", [Message({}, {"hw": (STRING, "150")}, "text", "x")], brokers.SendReport())
    with brokers.connect(broker.stomp_url, QUICK) as stomp:
        assert len(list(stomp.browse("hardened-cache", text))) == 1
    for _ in range(3):  # ActiveMQ's browser now and then misses the message the browse before it saw (seen
        # once in CI beside another test process: "browsed 0; the broker selected 1"); jmsctl says the
        # queue changed between its two browses, and the comparison is asked again
        done = subprocess.run([sys.executable, "-m", "jmsctl", "browse", broker.jms_url, "hardened-cache", "--selector", text, "--compare"],
                              cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
        if "the queue changed between the browses" not in done.stdout:
            break
    assert done.returncode == 1, done.stdout + done.stderr
    assert "; 1 difference" in done.stdout
    assert "every difference goes under the converting reading (convert_string_expressions:hw > 100 AND 9 = 9)" in done.stdout


# ----- item 6: what a transport cannot carry, said once with a count -------------------------------


def test_what_a_transport_changes_outside_the_bmp_is_said_once(broker: activemq_broker.Broker, tmp_path: Path) -> None:
    """A JMS send of a String property holding U+1F600 (it comes back as two U+FFFD) says so with a
    count; the text body of that message, browsed over STOMP, arrives as CESU-8: six U+FFFD, now said
    once with a count."""
    dump = tmp_path / "smile.ndjson"
    dump.write_bytes(b"".join(orjson.dumps({"body": "\U0001F600 smile", "properties": {"p": "\U0001F600"}}) + b"\n" for _ in range(2)))
    sent = subprocess.run([sys.executable, "-m", "jmsctl", "send", broker.jms_url, "hardened-smile", str(dump)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert sent.returncode == 0, sent.stderr
    assert "not carried: String properties with characters outside the BMP (ActiveMQ's OpenWire brings each back as two U+FFFD): 2 messages" \
        in sent.stderr
    done = subprocess.run([sys.executable, "-m", "jmsctl", "browse", broker.stomp_url, "hardened-smile"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert [orjson.loads(x)["body"] for x in done.stdout.splitlines()] == ["\ufffd" * 6 + " smile"] * 2
    assert done.stderr.count("text bodies in CESU-8") == 1 and "browse them over JMS: 2 messages" in done.stderr

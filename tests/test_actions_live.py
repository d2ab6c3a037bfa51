"""jmsctl move / copy / purge against a real ActiveMQ Classic 5.17 with persistence on (KahaDB in a
temporary directory), through both transports: every test counts with a unique property per message
(``seq``): SRC + DST after == SRC before, and no message twice, however the move ends.

One broker for the module (tests/activemq_broker.py, its own: this module kills and restarts it);
each test uses queues of its own.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from jmsctl import brokers
from jmsctl.brokers.actions import ORIGINAL_DESTINATION, ORIGINAL_ID
from jmsctl.messages.model import Message
from jmsctl.values import DOUBLE, INT, STRING
from tests import activemq_broker
from tests.test_brokers_live import comparable, dump_messages

ROOT = Path(__file__).parent.parent
QUICK = brokers.Options(timeout=20, idle_timeout=10)

pytestmark = pytest.mark.skipif(activemq_broker.missing() is not None, reason=str(activemq_broker.missing()))


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[activemq_broker.Broker]:
    b = activemq_broker.Broker(tmp_path_factory.mktemp("activemq-kahadb"), persistent=True)
    try:
        b.wait()
        yield b
    finally:
        b.stop()


def jmsctl(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jmsctl", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=os.environ, check=False)


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "jmsctl", *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def fill(url: str, queue: str, count: int) -> None:
    messages = [Message({"JMSType": "t", "JMSPriority": 4 + i % 3}, {"seq": (INT, i)}, "text", f"m{i}") for i in range(count)]
    with brokers.connect(url, QUICK) as conn:
        conn.send(queue, messages, brokers.SendReport())


def seqs(url: str, queue: str) -> list[int]:
    try:
        with brokers.connect(url, QUICK) as conn:
            return [int(m.properties["seq"][1]) for m in conn.browse(queue)]
    except brokers.BrokerError as exc:
        if "no queue" in str(exc):
            return []
        raise


def settled(url: str, source: str, target: str, count: int) -> tuple[list[int], list[int]]:
    """SRC and DST once they hold ``count`` together and two reads 0.5 s apart agree (the broker gives
    a dead client's messages back and ends a commit asynchronously, and the two queues are browsed one
    after the other: one read can see a batch in both), or as they are after 30 s."""
    deadline = time.monotonic() + 30
    last: tuple[list[int], list[int]] | None = None
    while True:
        src, dst = seqs(url, source), seqs(url, target)
        if (len(src) + len(dst) >= count and (src, dst) == last) or time.monotonic() > deadline:
            return src, dst
        last = (src, dst)
        time.sleep(0.5)


def assert_nothing_lost(src: list[int], dst: list[int], count: int) -> None:
    both = Counter(src) + Counter(dst)
    twice = [k for k, v in both.items() if v > 1]
    assert not twice, f"{len(twice)} messages twice, e.g. {twice[:5]}"
    assert sorted(both) == list(range(count)), f"{count - len(both)} messages lost"


def wait_for_some(url: str, queue: str, process: subprocess.Popen[str], seconds: float = 90) -> None:
    """Until ``queue`` has a message (the move is under way); fails if the process ended first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        if seqs(url, queue):
            return
        time.sleep(0.2)
    raise AssertionError("the move did not start")


# ----- a normal move, copy, purge ----------------------------------------------------------------


def test_a_move_of_10000_messages_over_jms_loses_nothing(broker: activemq_broker.Broker) -> None:
    fill(broker.jms_url, "big-src", 10_000)
    done = jmsctl("move", broker.jms_url, "big-src", "big-dst", "--all", "--yes")
    assert done.returncode == 0, done.stderr
    assert "move: read 10000, moved 10000, left 0, skipped 0 (gone meanwhile); 100 transactions committed" in done.stderr
    src, dst = seqs(broker.jms_url, "big-src"), seqs(broker.jms_url, "big-dst")
    assert src == []
    assert_nothing_lost(src, dst, 10_000)
    assert dst == list(range(10_000))  # in order


@pytest.mark.parametrize("transport", ["jms", "stomp"])
def test_a_batch_larger_than_the_brokers_page_moves_everything(broker: activemq_broker.Broker, transport: str) -> None:
    """ActiveMQ delivers at most maxPageSize (200) messages to one open transaction: a --batch 1000
    commits when the broker pauses and goes on, rather than taking the pause for the queue's end."""
    url = broker.stomp_url if transport == "stomp" else broker.jms_url
    fill(broker.jms_url, f"page-{transport}", 700)
    done = jmsctl("move", url, f"page-{transport}", f"page-{transport}-dst", "--all", "--yes", "--batch", "1000")
    assert done.returncode == 0, done.stderr
    assert "read 700, moved 700, left 0" in done.stderr
    assert_nothing_lost(seqs(broker.jms_url, f"page-{transport}"), seqs(broker.jms_url, f"page-{transport}-dst"), 700)


@pytest.mark.parametrize("transport", ["jms", "stomp"])
def test_move_keeps_every_header_property_and_body(broker: activemq_broker.Broker, transport: str) -> None:
    """The samples of every body kind and property type: moved, they come back as sent (over STOMP,
    as STOMP carries them: Strings, text and bytes), with their origin in two properties."""
    stomp = transport == "stomp"
    url = broker.stomp_url if stomp else broker.jms_url
    messages = dump_messages()[:250]
    with brokers.connect(broker.jms_url, QUICK) as conn:
        conn.send(f"fid-src-{transport}", messages, brokers.SendReport())
        before = list(conn.browse(f"fid-src-{transport}"))
    done = jmsctl("move", url, f"fid-src-{transport}", f"fid-dst-{transport}", "--all", "--yes", "--batch", "37")
    assert done.returncode == 0, done.stderr
    with brokers.connect(url, QUICK) as conn:
        after = list(conn.browse(f"fid-dst-{transport}"))
        before_seen = before if not stomp else None
    assert len(after) == len(before) == 250
    by_origin = {m.properties[ORIGINAL_ID][1]: m for m in after}
    assert set(by_origin) == {m.headers["JMSMessageID"] for m in before}
    for m in after:
        assert m.properties[ORIGINAL_DESTINATION] == (STRING, f"queue://fid-src-{transport}")
    if before_seen is not None:
        for m in before_seen:
            moved = by_origin[m.headers["JMSMessageID"]]
            props = {k: v for k, v in moved.properties.items() if k not in (ORIGINAL_ID, ORIGINAL_DESTINATION)}
            assert comparable(Message(moved.headers, props, moved.body_type, moved.body), False, False) == comparable(m, False, False)
        assert "not kept" not in done.stderr
    else:
        assert "not kept: property types (STOMP delivers and sends properties as Strings)" in done.stderr


@pytest.mark.parametrize("transport", ["jms", "stomp"])
def test_copy_leaves_the_source_and_purge_with_backup_then_send_restores_it(broker: activemq_broker.Broker, transport: str,
                                                                            tmp_path: Path) -> None:
    url = broker.stomp_url if transport == "stomp" else broker.jms_url
    q = f"cp-{transport}"
    messages = [m for m in dump_messages() if m.body_type in ("text", "bytes")][:120] if transport == "stomp" else dump_messages()[:200]
    with brokers.connect(broker.jms_url, QUICK) as conn:
        conn.send(q, messages, brokers.SendReport())
        before = sorted(comparable(m, False, False) for m in conn.browse(q))
    copied = jmsctl("copy", url, q, q + "-copy", "--all", "--yes", "--batch", "64")
    assert copied.returncode == 0, copied.stderr
    backup = tmp_path / "purged.ndjson"
    purged = jmsctl("purge", url, q, "--all", "--yes", "--backup", str(backup))
    assert purged.returncode == 0, purged.stderr
    assert f"purged {len(messages)}" in purged.stderr
    assert len(backup.read_bytes().splitlines()) == len(messages)
    assert jmsctl("send", broker.jms_url, q, str(backup)).returncode == 0
    with brokers.connect(broker.jms_url, QUICK) as conn:
        restored = sorted(comparable(m, False, False) for m in conn.browse(q))
        copies = list(conn.browse(q + "-copy"))
    if transport == "jms":
        assert restored == before  # property for property, with their types
    else:  # STOMP delivered Strings: the backup holds what it was given
        assert len(restored) == len(before)
    assert len(copies) == len(messages) and all(ORIGINAL_ID in m.properties for m in copies)


def test_dry_run_changes_nothing_and_writes_what_would_be_moved(broker: activemq_broker.Broker, tmp_path: Path) -> None:
    fill(broker.jms_url, "dry", 50)
    with brokers.connect(broker.jms_url, QUICK) as conn:
        before = [orjson.dumps(m.headers) + orjson.dumps(m.properties) for m in conn.browse("dry")]
    out = tmp_path / "would.ndjson"
    done = jmsctl("move", broker.jms_url, "dry", "elsewhere", "--where", "seq < 10", "--dry-run", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "would move 10 messages from dry to elsewhere" in done.stderr and "nothing changed" in done.stderr
    assert len(out.read_bytes().splitlines()) == 10
    purge = jmsctl("purge", broker.jms_url, "dry", "--all", "--dry-run")
    assert purge.returncode == 0 and len(purge.stdout.splitlines()) == 50
    with brokers.connect(broker.jms_url, QUICK) as conn:
        after = [orjson.dumps(m.headers) + orjson.dumps(m.properties) for m in conn.browse("dry")]
    assert after == before
    assert jmsctl("purge", broker.jms_url, "dry", "--where", "seq > 1000", "--dry-run").returncode == 1


def test_refusals_are_one_line_and_exit_2(broker: activemq_broker.Broker, tmp_path: Path) -> None:
    fill(broker.jms_url, "refuse", 3)
    (tmp_path / "exists.ndjson").write_text("")
    cases = [
        (("move", broker.jms_url, "refuse", "x", "--yes"), "say so with --all"),
        (("purge", broker.jms_url, "refuse", "--all"), "give --yes"),
        (("purge", broker.jms_url, "refuse", "--all", "--yes", "--backup", str(tmp_path / "exists.ndjson")), "never overwritten"),
        (("move", broker.jms_url, "refuse", "x", "--to-origin", "--all", "--yes"), "give no DST"),
        (("move", broker.jms_url, "refuse", "queue://refuse", "--all", "--yes"), "to itself"),
        (("purge", broker.jms_url, "no-such-queue", "--all", "--yes"), "no queue 'no-such-queue' on the broker (nothing was created)"),
        (("copy", broker.jms_url, "refuse", "x", "--all", "--yes", "--where", "a = = 1"), ""),
    ]
    for args, reason in cases:
        done = jmsctl(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert reason in done.stderr, (args, done.stderr)
    assert sorted(seqs(broker.jms_url, "refuse")) == [0, 1, 2]
    with brokers.connect(broker.jms_url, QUICK) as conn:
        assert conn.queue_exists("no-such-queue") is False  # type: ignore[attr-defined]
    nothing = jmsctl("purge", broker.jms_url, "refuse", "--selector", "seq > 100", "--yes", "--backup", str(tmp_path / "none.ndjson"))
    assert nothing.returncode == 1 and "purged 0" in nothing.stderr
    assert not (tmp_path / "none.ndjson").exists()  # a backup of nothing is not left behind


def test_a_terminal_is_asked_naming_count_queue_and_selector(broker: activemq_broker.Broker) -> None:
    import pty

    from tests.ptyrun import terminal_env

    fill(broker.jms_url, "ask", 5)
    env = terminal_env(PYTHONPATH=str(ROOT))
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - child
        os.execve(sys.executable, [sys.executable, "-m", "jmsctl", "purge", broker.jms_url, "ask", "--selector", "seq < 2"], env)
    seen = b""
    deadline = time.monotonic() + 60
    while b"[y/N]" not in seen and time.monotonic() < deadline:
        seen += os.read(fd, 4096)
    assert b"purge 2 messages ask chosen by --selector 'seq < 2'? [y/N]" in seen, seen
    os.write(fd, b"y\n")
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        seen += data
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, seen
    assert sorted(seqs(broker.jms_url, "ask")) == [2, 3, 4]


# ----- --where: exactly the standard's selection -------------------------------------------------


@pytest.mark.parametrize("transport", ["jms", "stomp"])
def test_where_acts_on_exactly_the_standards_selection(broker: activemq_broker.Broker, transport: str) -> None:
    """Selectors ActiveMQ reads otherwise than the standard: a String that its STOMP conversion
    compares as a number, -0.0 below 0.0, arithmetic on a String that throws in its engine."""
    url = broker.stomp_url if transport == "stomp" else broker.jms_url
    q = f"where-{transport}"
    messages = [
        Message({}, {"w": (STRING, "150"), "seq": (INT, 0)}, "text", "string 150"),
        Message({}, {"w": (INT, 150), "seq": (INT, 1)}, "text", "int 150"),
        Message({}, {"z": (DOUBLE, -0.0), "seq": (INT, 2)}, "text", "minus zero"),
        Message({}, {"z": (DOUBLE, -1.0), "seq": (INT, 3)}, "text", "minus one"),
        Message({}, {"n": (STRING, "x"), "seq": (INT, 4)}, "text", "string n"),
        Message({}, {"n": (INT, 5), "seq": (INT, 5)}, "text", "int n"),
    ]
    with brokers.connect(broker.jms_url, QUICK) as conn:
        conn.send(q, messages, brokers.SendReport())
    where = "w > 100 OR z < 0 OR n + 1 > 2"
    if transport == "stomp":  # the broker's own reading of a STOMP selector converts the String '150'
        broker_reads = jmsctl("move", url, q, q + "-dst", "--selector", "w > 100", "--dry-run")
        assert "would move 2 messages" in broker_reads.stderr, broker_reads.stderr
    done = jmsctl("move", url, q, q + "-dst", "--where", where, "--yes", "--dialect", "jakarta")
    # The standard: '150' is a String (never > 100), -0.0 = 0 (not < 0), 'x' + 1 is unknown. Over
    # STOMP every property arrives as a String, so no numeric comparison holds: nothing matched.
    expected = [1, 3, 5] if transport == "jms" else []
    assert done.returncode == (0 if expected else 1), done.stderr
    assert sorted(seqs(broker.jms_url, q + "-dst")) == expected
    assert sorted(seqs(broker.jms_url, q)) == sorted(set(range(6)) - set(expected))


def test_where_says_which_were_gone_meanwhile(broker: activemq_broker.Broker) -> None:
    """A message chosen by --where but consumed by someone else before the move takes it: skipped, named."""
    from jmsctl.brokers import actions
    from jmsctl.brokers.jms_mover import JmsMover

    fill(broker.jms_url, "gone", 20)
    with brokers.connect(broker.jms_url, QUICK) as conn:
        ids = [str(m.headers["JMSMessageID"]) for m in conn.browse("gone")]
        mover = JmsMover(conn, "gone", "gone-dst", False)  # type: ignore[arg-type]
        thief = JmsMover(conn, "gone", None, False)  # type: ignore[arg-type]
        thief.select(actions.in_selector(ids[3:5]))
        assert len(thief.take(2, 5, False)) == 2
        thief.commit()
        thief.close()
        tally = actions.Tally()
        actions.run(mover, tally, ids=ids, batch=8, wait=0.5)
        mover.close()
    assert tally.acted == 18 and tally.skipped == 2 and tally.skipped_ids == ids[3:5] and tally.batches == 3
    assert sorted(seqs(broker.jms_url, "gone-dst")) == [i for i in range(20) if i not in (3, 4)]


# ----- kill safety -------------------------------------------------------------------------------


@pytest.mark.parametrize(("transport", "sig", "chosen"), [("jms", signal.SIGINT, "--all"), ("jms", signal.SIGTERM, "--all"),
                                                          ("jms", signal.SIGKILL, "--all"), ("stomp", signal.SIGTERM, "--all"),
                                                          ("jms", signal.SIGTERM, "--where")])
def test_a_signal_mid_move_loses_and_duplicates_nothing(broker: activemq_broker.Broker, transport: str, sig: signal.Signals,
                                                         chosen: str) -> None:
    """``--where`` takes its ids a batch at a time (a consumer with ``JMSMessageID IN (...)`` each)."""
    url = broker.stomp_url if transport == "stomp" else broker.jms_url
    src, dst = f"sig-{transport}-{sig.name}{chosen}", f"sig-{transport}-{sig.name}{chosen}-dst"
    count = 3000
    fill(broker.jms_url, src, count)
    process = start("move", url, src, dst, *(["--all"] if chosen == "--all" else ["--where", "seq >= 0"]), "--yes", "--batch", "20")
    try:
        wait_for_some(broker.stomp_url, dst, process)
        process.send_signal(sig)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    left, moved = settled(broker.jms_url, src, dst, count)
    assert_nothing_lost(left, moved, count)
    assert 0 < len(moved) < count
    if sig is signal.SIGKILL:
        assert process.returncode == -9
    else:
        assert process.returncode == 128 + sig, err
        assert f"stopped by {sig.name}; {len(moved)} moved in" in err, err
        assert "Traceback" not in err


@pytest.mark.parametrize("transport", ["jms", "stomp"])
def test_the_broker_killed_mid_move_and_restarted_loses_nothing(broker: activemq_broker.Broker, transport: str) -> None:
    count = 3000
    src, dst = f"crash-{transport}", f"crash-{transport}-dst"
    fill(broker.jms_url, src, count)
    process = start("move", broker.stomp_url if transport == "stomp" else broker.jms_url, src, dst, "--all", "--yes", "--batch", "20")
    try:
        wait_for_some(broker.stomp_url, dst, process)
        broker.kill()
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
        if broker.process.poll() is not None:
            broker.start()
            broker.wait()
    assert process.returncode == 2, err
    assert "moved in" in err and "Traceback" not in err
    left, moved = settled(broker.jms_url, src, dst, count)
    assert_nothing_lost(left, moved, count)
    assert 0 < len(moved) < count


class _Proxy:
    """A TCP relay to the broker that can drop every connection at once (a network cut)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.address = self.server.getsockname()[1]
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.port))
            self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass

    def cut(self) -> None:
        self.server.close()
        for s in self.sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()


@pytest.mark.parametrize("transport", ["jms", "stomp"])
def test_a_dropped_connection_mid_move_loses_nothing(broker: activemq_broker.Broker, transport: str) -> None:
    count = 3000
    src, dst = f"drop-{transport}", f"drop-{transport}-dst"
    fill(broker.jms_url, src, count)
    proxy = _Proxy(broker.stomp if transport == "stomp" else broker.openwire)
    url = f"stomp://127.0.0.1:{proxy.address}" if transport == "stomp" else f"activemq:tcp://127.0.0.1:{proxy.address}"
    process = start("move", url, src, dst, "--all", "--yes", "--batch", "20", "--timeout", "10")
    try:
        wait_for_some(broker.stomp_url, dst, process)
        proxy.cut()
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 2, err
    assert "moved in" in err and "Traceback" not in err, err
    left, moved = settled(broker.jms_url, src, dst, count)
    assert_nothing_lost(left, moved, count)
    assert 0 < len(moved) < count


def test_the_readme_action_examples_run_as_written(broker: activemq_broker.Broker, tmp_path: Path) -> None:
    """README.md's move/copy/purge lines (tests/test_readme.py skips them: they need a broker), in
    order, on this module's broker (its ports for 61616 and 61613), after the samples were sent."""
    from tests.test_readme import ALL

    (tmp_path / "samples").symlink_to(ROOT / "samples")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "jmsctl").write_text(f'#!/bin/sh\nexec {sys.executable} -m jmsctl "$@"\n', encoding="utf-8")
    (bin_dir / "jmsctl").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    assert jmsctl("send", broker.jms_url, "orders", "samples/orders.json").returncode == 0
    from jmsctl.messages.loader import read_records

    dead_letter(broker.jms_url, "payments", [r.message for r in read_records(str(ROOT / "samples/orders-small.ndjson")) if r.message])
    text = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    first = next(i for i, x in enumerate(text, 1) if x.startswith("### `jmsctl move`"))
    last = next(i for i, x in enumerate(text, 1) if i > first and x.startswith("#"))
    ran = 0
    for line, command, status in ALL:
        if not first < line < last:
            continue
        ran += 1
        command = command.replace("127.0.0.1:61616", f"127.0.0.1:{broker.openwire}").replace("127.0.0.1:61613", f"127.0.0.1:{broker.stomp}")
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == status, f"README.md:{line}: {command}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr
    assert ran >= 5
    assert (tmp_path / "would-move.ndjson").stat().st_size > 0
    assert len((tmp_path / "acme-moved.ndjson").read_bytes().splitlines()) == 1
    assert [m.properties["customer"][1] for m in brokers_browse(broker.jms_url, "payments")] == ["ACME Ltd"]


def brokers_browse(url: str, queue: str) -> list[Message]:
    with brokers.connect(url, QUICK) as conn:
        return list(conn.browse(queue))


# ----- the dead-letter queue ---------------------------------------------------------------------


def dead_letter(url: str, queue: str, messages: list[Message]) -> None:
    """``messages`` sent to ``queue`` and dead-lettered by real redelivery: a transacted consumer that
    rolls back until the broker gives up (one redelivery, no delay) and puts them in ActiveMQ.DLQ."""
    with brokers.connect(url, QUICK) as conn:
        conn.send(queue, messages, brokers.SendReport())
        connection = conn.connection  # type: ignore[attr-defined]
        policy = connection.getRedeliveryPolicy()
        policy.setMaximumRedeliveries(1)
        policy.setInitialRedeliveryDelay(0)
        policy.setRedeliveryDelay(0)
        session = connection.createSession(True, 0)
        consumer = session.createConsumer(session.createQueue(queue))
        rollbacks = 0
        while consumer.receive(3000) is not None and rollbacks < 100:
            session.rollback()
            rollbacks += 1
        session.close()
        assert rollbacks >= len(messages)


@pytest.mark.parametrize("transport", ["jms", "stomp"])
def test_the_dlq_walk_through_moves_failed_messages_back_to_their_origin(broker: activemq_broker.Broker, transport: str,
                                                                         tmp_path: Path) -> None:
    """README's walk-through: find the failed messages with browse --where (origin and failure cause
    shown), back them up, move them back with --to-origin; the others stay dead."""
    url = broker.stomp_url if transport == "stomp" else broker.jms_url
    origin = f"payments-{transport}"
    messages = [Message({"JMSType": "pay", "JMSCorrelationID": f"c{i}"}, {"customer": (STRING, "acme" if i % 2 else "other"),
                                                                          "seq": (INT, i), "amount": (DOUBLE, i * 1.5)}, "text", f"p{i}")
                for i in range(6)]
    dead_letter(broker.jms_url, origin, messages)
    where = "customer = 'acme' AND JMSCorrelationID LIKE 'c%'" + (" AND amount > 0" if transport == "jms" else "")  # STOMP: Strings
    found = jmsctl("browse", url, "ActiveMQ.DLQ", "--where", "customer = 'acme' AND JMSType = 'pay'")
    assert found.returncode == 0, found.stderr
    records = [orjson.loads(x) for x in found.stdout.splitlines()]
    mine = [r for r in records if r.get("source", {}).get("origin") == f"queue://{origin}"]
    assert len(mine) == 3
    if transport == "jms":
        assert all("dlqDeliveryFailureCause" in r["properties"] for r in mine)
    backup = tmp_path / "dlq.ndjson"
    moved = jmsctl("move", url, "ActiveMQ.DLQ", "--to-origin", "--where", where, "--backup", str(backup), "--yes")
    assert moved.returncode == 0, moved.stderr
    assert "moved 3" in moved.stderr
    assert len(backup.read_bytes().splitlines()) == 3
    with brokers.connect(broker.jms_url, QUICK) as conn:
        back = list(conn.browse(origin))
        dlq = [m for m in conn.browse("ActiveMQ.DLQ") if m.properties.get("customer") == (STRING, "other")
               and (m.source or {}).get("origin") == f"queue://{origin}"]
    assert sorted(int(m.properties["seq"][1]) for m in back) == [1, 3, 5]
    assert len(dlq) == 3
    for m in back:
        assert m.properties[ORIGINAL_DESTINATION] == (STRING, "queue://ActiveMQ.DLQ")
        assert m.headers["JMSCorrelationID"] == f"c{m.properties['seq'][1]}" and m.headers["JMSType"] == "pay"
        if transport == "jms":
            assert m.properties["amount"] == (DOUBLE, int(m.properties["seq"][1]) * 1.5)  # typed, as sent
    # Consumed normally now: not dead-lettered again at once (its delivery count started again).
    with brokers.connect(broker.jms_url, QUICK) as conn:
        session = conn.connection.createSession(False, 1)  # type: ignore[attr-defined]
        consumer = session.createConsumer(session.createQueue(origin))
        got = [consumer.receive(5000) for _ in range(3)]
        assert all(g is not None and not g.getJMSRedelivered() for g in got)
        session.close()

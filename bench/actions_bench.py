"""Move and purge rates per transport and batch size against a local ActiveMQ Classic (issue 33).

    python bench/actions_bench.py                    # starts Debian's activemq on free ports (about 10 s)
    python bench/actions_bench.py --messages 3000 --batches 100 --json
    python bench/actions_bench.py --persistent       # KahaDB in a temporary directory (a sync per commit)
    python bench/actions_bench.py --jms activemq:tcp://127.0.0.1:61616 --stomp stomp://127.0.0.1:61613   # a broker of yours

Every rate is messages per second over --messages messages (samples/orders.ndjson repeated: typed
properties and every body kind), sent to a fresh queue, then moved whole to another queue
(``move``), then removed from it (``purge``), by jmsctl's engine (jmsctl/brokers/actions.py) in
this process after a warm-up move and purge of 2,000 per transport: the JVM's start is not in the rates (the ``jmsctl move`` row is the whole process,
start included). The baseline, measured in the same run: the same JMS move with one Python call per
message to receive, rebuild and send it (what JmsctlBridge.Mover replaces). The load (uptime) is
printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jmsctl import brokers  # noqa: E402
from jmsctl.brokers import actions  # noqa: E402
from jmsctl.messages.loader import read_records  # noqa: E402

TARGET_MOVE = 2000.0  # messages/s moved over the JMS transport (issue 33)
OPTIONS = brokers.Options(timeout=30, idle_timeout=30)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def messages(count: int) -> list[Any]:
    sample = [r.message for r in read_records(str(ROOT / "samples/orders.ndjson")) if r.message is not None]
    return [sample[i % len(sample)] for i in range(count)]


def fill(url: str, queue: str, count: int) -> None:
    with brokers.connect(url, OPTIONS) as conn:
        conn.send(queue, messages(count), brokers.SendReport())


def mover(conn: Any, source: str, target: str | None, batch: int) -> Any:
    if brokers.transport_module(conn.target) == "stomp":
        from jmsctl.brokers.stomp_mover import StompMover

        return StompMover(conn, source, target, False, batch)
    from jmsctl.brokers.jms_mover import JmsMover

    return JmsMover(conn, source, target, False)


def act(url: str, source: str, target: str | None, batch: int, count: int) -> float:
    """Messages per second of one move (target) or purge (None) of the whole queue."""
    with brokers.connect(url, OPTIONS) as conn:
        m = mover(conn, source, target, batch)
        tally = actions.Tally()
        last = [0.0]

        def committed(t: actions.Tally) -> None:
            if t.acted == count and not last[0]:
                last[0] = time.perf_counter()

        started = time.perf_counter()
        actions.run(m, tally, batch=batch, wait=1.0, progress=committed)
        seconds = last[0] - started  # to the last commit (the take after it waits --wait for nothing)
        m.close()
    assert tally.acted == count, (tally, count)
    return count / seconds


def per_message(url: str, source: str, target: str, batch: int, count: int) -> float:
    """The baseline: a JMS move with a Python call per message to receive it, rebuild it from its
    NDJSON line and send it (JmsConnection._build), committed every ``batch``."""
    with brokers.connect(url, OPTIONS) as conn:
        c: Any = conn
        session = c.connection.createSession(True, 0)
        consumer = session.createConsumer(session.createQueue(source))
        producer = session.createProducer(session.createQueue(target))
        report = brokers.SendReport()
        done = 0
        started = time.perf_counter()
        while done < count:
            m = consumer.receive(5000)
            if m is None:
                break
            jms, mode, priority, ttl = c._build(session, c.message(str(c.bridge.toJson(m))), report)
            producer.send(jms, mode, priority, ttl)
            done += 1
            if done % batch == 0:
                session.commit()
        session.commit()
        seconds = time.perf_counter() - started
        session.close()
    assert done == count, (done, count)
    return count / seconds


def whole_process(url: str, source: str, target: str, batch: int, count: int) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "jmsctl", "move", url, source, target, "--all", "--yes", "--batch", str(batch),
                           "--wait", "1"], capture_output=True, text=True, check=False, cwd=ROOT)
    seconds = time.perf_counter() - started
    assert done.returncode == 0 and f"moved {count}" in done.stderr, done.stderr
    return count / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--batches", default="100,200", help="batch sizes, comma-separated")
    parser.add_argument("--transports", default="jms,stomp", help="jms, stomp or both, comma-separated")
    parser.add_argument("--persistent", action="store_true", help="a broker with KahaDB (when this script starts it)")
    parser.add_argument("--jms", help="a broker of yours (activemq:tcp://HOST:PORT); with --stomp")
    parser.add_argument("--stomp")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    broker = None
    if args.jms and args.stomp:
        jms, stomp = args.jms, args.stomp
    else:
        from tests import activemq_broker

        broker = activemq_broker.Broker(Path(tempfile.mkdtemp(prefix="jmsctl-actions-bench-")), persistent=args.persistent)
        broker.wait()
        jms, stomp = broker.jms_url, broker.stomp_url
    rows: list[dict[str, Any]] = []
    n = args.messages
    run = f"{int(time.time())}"
    try:
        for transport, url in (("jms", jms), ("stomp", stomp)):  # warm-up, not measured: the JVM's start, the JIT, the broker's
            if transport not in args.transports.split(","):
                continue
            fill(jms, f"bench-{run}-warm-{transport}", 2000)
            act(url, f"bench-{run}-warm-{transport}", f"bench-{run}-warm-{transport}-moved", 100, 2000)
            act(url, f"bench-{run}-warm-{transport}-moved", None, 100, 2000)
        for transport, url in (("jms", jms), ("stomp", stomp)):
            if transport not in args.transports.split(","):
                continue
            for batch in (int(b) for b in args.batches.split(",")):
                src, dst = f"bench-{run}-{transport}-{batch}", f"bench-{run}-{transport}-{batch}-moved"
                fill(jms, src, n)
                rows.append({"transport": transport, "batch": batch, "action": "move", "rate": act(url, src, dst, batch, n)})
                rows.append({"transport": transport, "batch": batch, "action": "purge", "rate": act(url, dst, None, batch, n)})
        src = f"bench-{run}-baseline"
        fill(jms, src, n)
        rows.append({"transport": "jms (per-message Python calls: baseline)", "batch": 100, "action": "move",
                     "rate": per_message(jms, src, src + "-moved", 100, n)})
        src = f"bench-{run}-cli"
        fill(jms, src, n)
        rows.append({"transport": "jms, jmsctl move (whole process, JVM start included)", "batch": 100, "action": "move",
                     "rate": whole_process(jms, src, src + "-moved", 100, n)})
    finally:
        if broker is not None:
            broker.stop()
    baseline = next(r["rate"] for r in rows if "baseline" in r["transport"])
    jms_move = next(r["rate"] for r in rows if r["transport"] == "jms" and r["action"] == "move" and r["batch"] == 100) \
        if any(r["transport"] == "jms" and r["batch"] == 100 for r in rows) else max(r["rate"] for r in rows if r["transport"] == "jms")
    result = {"messages": n, "persistent": bool(args.persistent), "load": load(), "rows": rows,
              "jms_move_vs_baseline": jms_move / baseline, "target_jms_move": TARGET_MOVE, "met": jms_move >= TARGET_MOVE}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{n:,} messages (samples/orders.ndjson), broker {'persistent (KahaDB)' if args.persistent else 'in memory'}, load {result['load']}")
    for r in rows:
        print(f"  {r['action']:5}  {r['transport']:55}  batch {r['batch']:5}  {r['rate']:9,.0f} msgs/s")
    print(f"JMS move (batch 100) vs the per-message baseline: {result['jms_move_vs_baseline']:.2f}x; "
          f"target {TARGET_MOVE:,.0f} msgs/s: {'met' if result['met'] else 'NOT met'}")


if __name__ == "__main__":
    main()

"""Whole-process JMS browse, as a user runs it: ``jmsctl browse activemq:tcp://... QUEUE`` timed from
the command's start to its exit (Python and JVM start, connect, browse, write), on 10,000 messages
and on an empty queue (issue 32: >= 5,000 messages/s, <= 0.8 s).

    python bench/jms_process_bench.py                      # starts Debian's activemq on free ports (about 10 s)
    python bench/jms_process_bench.py --jms activemq:tcp://127.0.0.1:61616 --stomp stomp://127.0.0.1:61613 --runs 5

The queues are filled over STOMP (samples-like orders: typed as Strings, a text body). Each figure is
the median of --runs runs (the best beside it), the peak RSS of the browse processes, and the
machine's load (uptime) before and after: on a shared machine the load moves every figure.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jmsctl import brokers  # noqa: E402
from jmsctl.messages.model import Message  # noqa: E402
from jmsctl.values import STRING  # noqa: E402

TARGET_RATE = 5000.0  # messages/s, whole process, 10,000 messages
TARGET_EMPTY = 0.8  # seconds, an empty browse


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def fill(stomp: str, queue: str, n: int) -> None:
    messages = [Message({"JMSType": "car"}, {"n": (STRING, str(i)), "color": (STRING, "blue")}, "text", f"order {i}") for i in range(n)]
    with brokers.connect(stomp, brokers.Options(timeout=30)) as conn:
        report = brokers.SendReport()
        conn.send(queue, messages, report)
        if n == 0:  # the queue made, and empty
            assert sum(1 for _ in conn.browse(queue)) == 0
    assert report.sent == n


def browse(jms: str, queue: str, expected: int, sharing: bool = True) -> tuple[float, int]:
    """Wall seconds of one whole ``jmsctl browse`` and its peak RSS (KiB); ``sharing``: the JVM maps
    the class archive (jmsctl.brokers.cds), else loads every class from the jars (JMSCTL_CDS=0)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "jmsctl", "browse", jms, queue, "-o", os.devnull], cwd=ROOT,
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "JMSCTL_CDS": "1" if sharing else "0"})
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"browse failed ({done.returncode}): {done.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jms", help="a running broker's OpenWire URL (with --stomp); default: start one")
    parser.add_argument("--stomp", help="the same broker's STOMP URL")
    parser.add_argument("--messages", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    broker = None
    if args.jms is None:
        from tests import activemq_broker

        broker = activemq_broker.Broker(Path(tempfile.mkdtemp(prefix="jms-bench-")))
        broker.wait()
        args.jms, args.stomp = broker.jms_url, broker.stomp_url
    try:
        tag = str(os.getpid())
        full, empty = f"bench-full-{tag}", f"bench-empty-{tag}"
        fill(args.stomp, full, args.messages)
        fill(args.stomp, empty, 0)
        browse(args.jms, empty, 0)  # the bridge compiled and cached, the class archive written, the page cache warm
        print(f"load before: {load()}")
        full_runs = [browse(args.jms, full, args.messages) for _ in range(args.runs)]
        empty_runs, unshared_runs = [], []
        for _ in range(args.runs):  # interleaved: the same load for both
            empty_runs.append(browse(args.jms, empty, 0))
            unshared_runs.append(browse(args.jms, empty, 0, sharing=False))
        print(f"load after:  {load()}")
        median = statistics.median(s for s, _ in full_runs)
        rate = args.messages / median
        empty_median = statistics.median(s for s, _ in empty_runs)
        print(f"jmsctl browse {args.messages:,} messages: median {median:.2f} s ({rate:,.0f} msgs/s whole process; best "
              f"{args.messages / min(s for s, _ in full_runs):,.0f}), peak RSS {max(k for _, k in full_runs) / 1024:.0f} MiB; "
              f"target >= {TARGET_RATE:,.0f}: {'met' if rate >= TARGET_RATE else 'NOT met'}")
        print(f"jmsctl browse of an empty queue: median {empty_median:.2f} s (best {min(s for s, _ in empty_runs):.2f}); "
              f"target <= {TARGET_EMPTY}: {'met' if empty_median <= TARGET_EMPTY else 'NOT met'}")
        unshared = statistics.median(s for s, _ in unshared_runs)
        print(f"  baseline without the class archive (JMSCTL_CDS=0): median {unshared:.2f} s (best "
              f"{min(s for s, _ in unshared_runs):.2f}); with/without {empty_median / unshared:.2f}")
    finally:
        if broker is not None:
            broker.stop()


if __name__ == "__main__":
    main()

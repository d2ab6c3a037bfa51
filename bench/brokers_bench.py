"""Browse and send rates per transport against a local ActiveMQ Classic, with the ways into the JVM
measured side by side in the same run.

    python bench/brokers_bench.py                 # starts Debian's activemq on free ports (about 10 s)
    python bench/brokers_bench.py --copies 1      # 3,000 messages instead of 6,000
    python bench/brokers_bench.py --json

Every rate is messages per second over samples/orders.ndjson (3,000 orders with typed properties
and every body kind), repeated --copies times, sent to a fresh queue and browsed back whole into
jmsctl Messages. Rows:

- jms (JPype + JmsctlBridge): jmsctl's JMS transport: one Java call turns a message into an NDJSON
  line, a Java thread drains the browse; sending, one call sets all properties (jmsctl/brokers/jms.py);
- jms (JPype, one call per field): the baseline: the same JPype connection, the browse read in Python
  with a Java call per header and property (what the bridge replaces);
- jms (py4j, one call per field): the same through py4j (which pyspark brings), a socket round trip
  per call; measured on --py4j-messages messages only (it is slow);
- stomp (pure Python): jmsctl's STOMP transport (properties as Strings).

The JVM's start and the bridge's compilation are not in the rates (said apart). Ratios are against
the per-call JPype baseline of the same run. The machine's load (uptime) is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jmsctl import brokers  # noqa: E402
from jmsctl.messages.loader import read_records  # noqa: E402
from jmsctl.messages.model import Message  # noqa: E402
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING  # noqa: E402

TARGET_BROWSE = 5000.0  # messages/s through the JMS transport (issue 25)
_TYPES = {"java.lang.Integer": (INT, int), "java.lang.Long": (LONG, int), "java.lang.Short": (SHORT, int), "java.lang.Byte": (BYTE, int),
          "java.lang.Float": (FLOAT, float), "java.lang.Double": (DOUBLE, float), "java.lang.Boolean": (BOOLEAN, bool),
          "java.lang.String": (STRING, str)}


def load() -> str:
    return " ".join(os.getloadavg().__repr__().strip("()").split(", ")[:3])


def per_field(m: Any, class_name: Any) -> Message:
    """A JMS message read with one Java call per header and property (the baseline)."""
    headers: dict[str, Any] = {"JMSMessageID": str(m.getJMSMessageID()), "JMSTimestamp": int(m.getJMSTimestamp()),
                               "JMSPriority": int(m.getJMSPriority()), "JMSExpiration": int(m.getJMSExpiration()),
                               "JMSRedelivered": bool(m.getJMSRedelivered()),
                               "JMSDeliveryMode": "PERSISTENT" if int(m.getJMSDeliveryMode()) == 2 else "NON_PERSISTENT"}
    for name, getter in (("JMSType", m.getJMSType), ("JMSCorrelationID", m.getJMSCorrelationID)):
        v = getter()
        if v is not None:
            headers[name] = str(v)
    props = {}
    names = m.getPropertyNames()
    while names.hasMoreElements():
        name = str(names.nextElement())
        v = m.getObjectProperty(name)
        jtype, cast = _TYPES[class_name(v)]
        props[name] = (jtype, cast(v))
    text = m.getText() if str(m.getClass().getName()).endswith("TextMessage") else None
    return Message(headers, props, "text" if text is not None else "message", None if text is None else str(text))


def timed(what: str, n_expected: int, fn: Any) -> dict[str, Any]:
    """Wall time and this process's CPU time (Python and, in process, the JVM's threads; not the broker's)."""
    started, cpu = time.perf_counter(), time.process_time()
    n = fn()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert n == n_expected or n_expected < 0, (what, n, n_expected)
    return {"row": what, "messages": n, "seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3), "rate": round(n / seconds)}


def run(jms_url: str, stomp_url: str, messages: list[Message], py4j_messages: int) -> list[dict[str, Any]]:
    rows = []
    options = brokers.Options(timeout=60, idle_timeout=60)
    tag = str(os.getpid())
    started = time.perf_counter()
    with brokers.connect(jms_url, options) as conn:
        rows.append({"row": "jms: JVM start, bridge, connect", "seconds": round(time.perf_counter() - started, 3)})
        queue = f"bench-jms-{tag}"
        rows.append(timed("jms send (JPype + JmsctlBridge)", len(messages), lambda: _send(conn, queue, messages)))
        for _ in range(2):  # the first browse also warms the JIT: the better of two is reported
            rows.append(timed("jms browse (JPype + JmsctlBridge)", len(messages), lambda: sum(1 for _ in conn.browse(queue))))
        rows.remove(min((r for r in rows if r["row"] == "jms browse (JPype + JmsctlBridge)"), key=lambda r: r["rate"]))

        def per_call() -> int:
            session = conn.session  # type: ignore[attr-defined]
            enum = session.createBrowser(session.createQueue(queue)).getEnumeration()
            names: dict[Any, str] = {}

            def class_name(v: Any) -> str:
                k = type(v)
                if k not in names:
                    names[k] = str(v.getClass().getName())
                return names[k]
            n = 0
            while enum.hasMoreElements():
                per_field(enum.nextElement(), class_name)
                n += 1
            return n
        for _ in range(2):
            rows.append(timed("jms browse (JPype, one call per field)", len(messages), per_call))
        rows.remove(min((r for r in rows if r["row"] == "jms browse (JPype, one call per field)"), key=lambda r: r["rate"]))
        if py4j_messages:
            rows.append(_py4j(jms_url, queue, py4j_messages))
    with brokers.connect(stomp_url, options) as conn:
        queue = f"bench-stomp-{tag}"
        rows.append(timed("stomp send (pure Python)", len(messages), lambda: _send(conn, queue, messages)))
        rows.append(timed("stomp browse (pure Python)", len(messages), lambda: sum(1 for _ in conn.browse(queue))))
    return rows


def _send(conn: Any, queue: str, messages: list[Message]) -> int:
    report = brokers.SendReport()
    conn.send(queue, messages, report)
    return report.sent


def _py4j(jms_url: str, queue: str, limit: int) -> dict[str, Any]:
    """The per-field browse through py4j: its own JVM with the same client jars (a GatewayServer)."""
    from py4j.java_gateway import GatewayParameters, JavaGateway, launch_gateway

    from jmsctl.brokers.jms import classpath_for

    target = brokers.parse_url(jms_url)
    port, process = launch_gateway(classpath=os.pathsep.join(classpath_for(target, ())), die_on_exit=True, return_proc=True)
    gateway = JavaGateway(gateway_parameters=GatewayParameters(port=port, auto_convert=True))
    try:
        factory = gateway.jvm.org.apache.activemq.ActiveMQConnectionFactory(None, None, target.address)
        connection = factory.createConnection()
        connection.start()
        session = connection.createSession(False, 1)
        enum = session.createBrowser(session.createQueue(queue)).getEnumeration()

        def browse() -> int:
            n = 0
            while n < limit and enum.hasMoreElements():
                per_field(enum.nextElement(), lambda v: {int: "java.lang.Integer", float: "java.lang.Double", bool: "java.lang.Boolean",
                                                         str: "java.lang.String"}.get(type(v), "java.lang.Long"))
                n += 1
            return n
        row = timed("jms browse (py4j, one call per field)", -1, browse)
        connection.close()
        return row
    finally:
        gateway.shutdown()
        process.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=2, help="times samples/orders.ndjson is sent (default 2: 6,000 messages)")
    parser.add_argument("--py4j-messages", type=int, default=500, help="messages browsed through py4j (0: skip it)")
    parser.add_argument("--jms", help="an ActiveMQ JMS URL to use instead of starting a broker")
    parser.add_argument("--stomp", help="its STOMP URL")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    messages = [r.message for r in read_records(str(ROOT / "samples" / "orders.ndjson")) if r.message is not None] * args.copies
    before = load()
    broker = None
    if args.jms and args.stomp:
        jms_url, stomp_url = args.jms, args.stomp
    else:
        from tests.activemq_broker import Broker, missing

        if missing():
            print(f"cannot start a broker: {missing()}", file=sys.stderr)
            return 2
        broker = Broker(Path(tempfile.mkdtemp(prefix="jmsctl-bench-")))
        broker.wait()
        jms_url, stomp_url = broker.jms_url, broker.stomp_url
    try:
        rows = run(jms_url, stomp_url, messages, args.py4j_messages)
    finally:
        if broker is not None:
            broker.stop()
    baseline = next(r["rate"] for r in rows if r["row"] == "jms browse (JPype, one call per field)")
    for r in rows:
        if "rate" in r:
            r["vs_per_call_jpype"] = round(r["rate"] / baseline, 2)
    result = {"load_before": before, "load_after": load(), "rows": rows,
              "target": {"jms browse": TARGET_BROWSE,
                         "met": next(r["rate"] for r in rows if r["row"] == "jms browse (JPype + JmsctlBridge)") >= TARGET_BROWSE}}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"load (1, 5, 15 min) before {before}, after {result['load_after']}")
    for r in rows:
        if "rate" in r:
            print(f"{r['row']:42} {r['messages']:>6} msgs {r['seconds']:>7.2f} s {r['rate']:>7,}/s  x{r['vs_per_call_jpype']:<5}"
                  f" cpu {r['cpu_seconds']:.2f} s ({r['messages'] / max(r['cpu_seconds'], 1e-9):,.0f}/s of CPU)")
        else:
            print(f"{r['row']:42} {r['seconds']:>22.2f} s")
    print(f"target: jms browse >= {TARGET_BROWSE:,.0f}/s: {'PASS' if result['target']['met'] else 'MISS'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

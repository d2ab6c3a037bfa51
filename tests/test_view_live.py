"""``jmsctl view URL QUEUE`` on a live ActiveMQ (the session's ``broker`` fixture, tests/conftest.py):
the queue browsed over STOMP, then browsed again with r after more messages were sent."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")

from jmsctl import brokers
from jmsctl.cli.commands.view import _open
from jmsctl.cli.commands.view.app import ViewApp
from jmsctl.cli.commands.view.rows import MessageList
from jmsctl.messages.loader import read_records

QUICK = brokers.Options(timeout=20, idle_timeout=10)
QUEUE = "view-orders"


def test_view_browses_a_queue_and_r_browses_it_again(broker) -> None:
    messages = [r.message for r in read_records("samples/orders-small.ndjson")]
    with brokers.connect(broker.stomp_url, QUICK) as conn:
        conn.send(QUEUE, messages[:2], brokers.SendReport())
    dump, browse = _open([broker.stomp_url, QUEUE], 16 << 20, None)
    assert [r.message.headers.get("JMSMessageID") for r in dump.records] != [] and len(dump.records) == 2

    async def go() -> None:
        app = ViewApp(dump, selector="weight > 2500", refresh=browse)
        async with app.run_test(size=(160, 40)) as pilot:
            for _ in range(200):
                await pilot.pause(0.05)
                if not app.narrowing:
                    break
            before = app.counts.read
            with brokers.connect(broker.stomp_url, QUICK) as conn:
                conn.send(QUEUE, messages[2:], brokers.SendReport())
            await pilot.press("r")
            for _ in range(400):
                await pilot.pause(0.05)
                if len(app.dump.ids()) == len(messages) and not app.narrowing:
                    break
            assert before == 2 and app.counts.read == len(messages)
            ml = app.query_one(MessageList)
            # STOMP carries Strings: weight '2600' > 2500 is UNKNOWN for jmsctl's engine (a String is no number)
            assert app.counts.unknown + app.counts.false + app.counts.true == len(messages)
            assert ml.dump.name == f"{broker.stomp_url} {QUEUE}"

    asyncio.run(go())


def test_view_watch_follows_a_topic(broker) -> None:
    """--watch: messages published on the topic (raw STOMP SENDs, until the subscription is in place) appear."""
    import socket
    import time

    from jmsctl.brokers.stomp import encode_frame
    from jmsctl.cli.commands.view import _watch

    dump, _ = _watch(broker.stomp_url, "view-prices")
    deadline = time.monotonic() + 30
    with socket.create_connection(("127.0.0.1", broker.stomp)) as s:
        s.sendall(encode_frame("CONNECT", {"accept-version": "1.2", "host": "localhost"}))
        s.recv(1000)
        while len(dump.ids()) < 3 and time.monotonic() < deadline:
            s.sendall(encode_frame("SEND", {"destination": "/topic/view-prices", "kind": "x"}, b"42"))
            time.sleep(0.3)
    assert len(dump.ids()) >= 3
    record = dump.record(0)
    assert record.location == f"{broker.stomp_url} view-prices:1" and record.message.body == "42"
    assert record.message.properties["kind"][1] == "x"

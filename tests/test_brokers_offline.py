"""jmsctl.brokers without a broker: URLs, credentials, STOMP framing, what send can carry, and the
activemq dialect's convert_string_expressions switch (the live tests: tests/test_brokers_live.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from jmsctl import brokers
from jmsctl import selector as sel
from jmsctl.brokers.credentials import credentials
from jmsctl.brokers.outgoing import prepare
from jmsctl.brokers.stomp import CONVERT_PREFIX, StompConnection, dialect_of, encode_frame, escape, message_of, unescape
from jmsctl.messages.model import Message
from jmsctl.selector import dialects
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, INT, LONG, SHORT, STRING

ROOT = Path(__file__).parent.parent


def test_urls() -> None:
    assert brokers.parse_url("stomp://127.0.0.1:61613") == brokers.Target("stomp://127.0.0.1:61613", "stomp", "127.0.0.1:61613")
    assert brokers.parse_url("activemq:tcp://h:61616?x=1").address == "tcp://h:61616?x=1"
    assert brokers.parse_url("activemq:failover:(tcp://a:1,tcp://b:2)").host == "a"
    assert brokers.parse_url("stomps://[::1]:61614").host == "::1"
    for bad in ("orders", "stomp://", "activemq:orders"):
        with pytest.raises(brokers.BrokerError, match=r"URL|HOST:PORT"):
            brokers.parse_url(bad)


def test_credentials_from_the_environment_then_netrc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rc = tmp_path / "netrc"
    rc.write_text("machine broker.example login alice password s3cret\ndefault login guest password guest\n")
    rc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(rc))
    monkeypatch.delenv("JMSCTL_USER", raising=False)
    monkeypatch.delenv("JMSCTL_PASSWORD", raising=False)
    assert credentials("broker.example") == ("alice", "s3cret")
    assert credentials("elsewhere") == ("guest", "guest")
    monkeypatch.setenv("JMSCTL_USER", "bob")
    monkeypatch.setenv("JMSCTL_PASSWORD", "pw")
    assert credentials("broker.example") == ("bob", "pw")
    monkeypatch.delenv("JMSCTL_USER")
    monkeypatch.delenv("JMSCTL_PASSWORD")
    rc.write_text("bogus broker.example\n")
    with pytest.raises(brokers.BrokerError, match="netrc"):
        credentials("broker.example")


def test_stomp_header_escapes_round_trip() -> None:
    for text in ("a:b", "line\nbreak", "back\\slash", "cr\r", "plain", ""):
        assert unescape(escape(text)) == text
    assert escape("ID:1:2") == "ID\\c1\\c2"
    frame = encode_frame("SEND", {"destination": "/queue/q", "k:v": "x\ny"}, b"body\0with nul")
    assert frame.startswith(b"SEND\ndestination:/queue/q\nk\\cv:x\\ny\n\nbody")


def test_the_server_header_names_the_dialect() -> None:
    assert dialect_of("ActiveMQ/5.17.2") == "activemq"
    assert dialect_of("ActiveMQ-Artemis/2.31.2 ActiveMQ Artemis Messaging Engine") == "artemis"
    assert dialect_of("RabbitMQ/3.12") is None


def test_a_stomp_message_reads_as_strings() -> None:
    from jmsctl.brokers.stomp import Frame

    m = message_of(Frame("MESSAGE", {"message-id": "ID:1", "destination": "/queue/orders", "type": "car", "priority": "7",
                                     "persistent": "true", "reply-to": "/topic/t", "weight": "150", "subscription": "1"}, b"hi"))
    assert m.headers["JMSDestination"] == "queue://orders" and m.headers["JMSReplyTo"] == "topic://t"
    assert m.headers["JMSPriority"] == 7 and m.headers["JMSDeliveryMode"] == "PERSISTENT"
    assert m.properties == {"weight": (STRING, "150")} and (m.body_type, m.body) == ("text", "hi")
    b = message_of(Frame("MESSAGE", {"content-length": "2", "subscription": "1"}, b"\0\1"))
    assert (b.body_type, b.body) == ("bytes", b"\0\1")


def test_what_send_carries() -> None:
    m = Message({"JMSMessageID": "ID:x", "JMSTimestamp": 1000, "JMSExpiration": 61000, "JMSType": "car", "JMSReplyTo": "replies",
                 "JMSRedelivered": True, "JMSPriority": 7},
                {"weight": (INT, 150), "ratio": (FLOAT, 0.5), "type": (STRING, "clash")}, "map", {"k": (LONG, 1)})
    lost: Counter[str] = Counter()
    jms = prepare(m, False, lost)
    assert jms.time_to_live == 60000 and jms.message.headers == {"JMSType": "car", "JMSReplyTo": "queue://replies", "JMSPriority": 7}
    assert jms.message.properties == m.properties and jms.message.body_type == "map"
    assert set(lost) == {"JMSMessageID (the provider sets it)", "JMSTimestamp (the provider sets it)", "JMSRedelivered (the provider sets it)"}
    lost.clear()
    stomp = prepare(m, True, lost)
    assert stomp.message.properties == {"weight": (STRING, "150"), "ratio": (STRING, "0.5")}
    assert (stomp.message.body_type, stomp.message.body) == ("text", None)
    assert lost["property type (a STOMP header of that name)"] == 1 and lost["property types (STOMP carries Strings)"] == 1
    assert lost["map bodies (STOMP carries text and bytes: sent as an empty text message)"] == 1


class _OneShotStomp:
    """Answers CONNECT with ERROR unless login/passcode are alice/s3cret; records the CONNECT frame."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        self.url = f"stomp://127.0.0.1:{self.server.getsockname()[1]}"
        self.seen: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                data = conn.recv(4096)
                self.seen.append(data)
                if b"login:alice\n" in data and b"passcode:s3cret\n" in data:
                    conn.sendall(encode_frame("CONNECTED", {"version": "1.2", "server": "ActiveMQ/5.17.2"}))
                    conn.recv(4096)
                else:
                    conn.sendall(b"ERROR\nmessage:User name [bob] or password is invalid.\n\n\0")


def test_the_login_comes_from_the_environment_and_a_refusal_is_one_line() -> None:
    server = _OneShotStomp()
    env = {**os.environ, "JMSCTL_USER": "alice", "JMSCTL_PASSWORD": "s3cret"}
    with brokers.connect(server.url, brokers.Options(user="alice", password="s3cret", timeout=5)) as conn:
        assert isinstance(conn, StompConnection) and conn.dialect == "activemq" and conn.selector_prefix == CONVERT_PREFIX
    env["JMSCTL_USER"] = "bob"
    done = subprocess.run([sys.executable, "-m", "jmsctl", "browse", server.url, "q"], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr == f"jmsctl: error: {server.url}: User name [bob] or password is invalid.\n"
    assert b"passcode:s3cret" in server.seen[-1] and "s3cret" not in done.stderr


def test_an_unknown_provider_is_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "jmsctl", "browse", "nosuchmq:tcp://127.0.0.1:1", "q"], capture_output=True,
                          text=True, cwd=ROOT, timeout=60, check=False, env={k: v for k, v in os.environ.items() if k != "JMSCTL_CLASSPATH"})
    assert done.returncode == 2 and "unknown provider 'nosuchmq'" in done.stderr and len(done.stderr.splitlines()) == 1


# ----- the activemq dialect's convert_string_expressions ---------------------------------------

P = CONVERT_PREFIX


@pytest.mark.parametrize(("text", "values", "plain", "converted"), [
    ("w > 100", {"w": (STRING, "150")}, False, True),
    ("w + 1 > 100", {"w": (STRING, "50")}, False, True),  # '50' + 1 concatenates: '501'
    ("w = 150", {"w": (STRING, "+150")}, False, True),  # Integer.valueOf takes a sign
    ("w = 150", {"w": (STRING, " 150")}, False, False),  # ... not a space: NumberFormatException, FALSE
    ("w <> 150", {"w": (STRING, "abc")}, True, True),  # <> is NOT =: TRUE either way
    ("w = 1.5", {"w": (STRING, " 1.5 ")}, False, True),  # Double.valueOf trims
    ("w BETWEEN 100 AND 200", {"w": (STRING, "150")}, False, True),
    ("w = 150", {"w": (SHORT, 150)}, True, True),  # no String: no change
    ("w = TRUE", {"w": (STRING, "TRUE")}, False, True),  # Boolean.valueOf ignores case
    ("TRUE = w", {"w": (STRING, "true")}, False, False),  # a Boolean left of a String: ClassCastException, not delivered
    ("w = 'x'", {"w": (INT, 1)}, False, False),
    ("w > 2147483647", {"w": (STRING, "2147483648")}, False, False),  # Integer.valueOf overflows: FALSE
    ("w > 2147483647", {"w": (DOUBLE, 2147483648.0)}, True, True),
    ("w = 0.1", {"w": (FLOAT, 0.10000000149011612)}, False, False),  # float vs double literal: ActiveMQ throws, with or without
    ("f = 'x'", {"f": (BOOLEAN, True)}, False, False),
])
def test_convert_string_expressions(text: str, values: dict, plain: bool, converted: bool) -> None:
    assert sel.evaluate(text, values, "activemq") is plain
    assert sel.evaluate(P + text, values, "activemq") is converted


def test_the_prefix_is_the_activemq_dialects_and_keeps_positions() -> None:
    assert dialects.get("activemq").for_selector(P + "a = 1").convert_string_expressions
    assert not dialects.get("activemq").for_selector("a = 1").convert_string_expressions
    assert dialects.get("activemq").evidence["convert_string_expressions"]
    error = sel.analyze(P + "a = = 1", "activemq").errors[0]
    assert error.span.start == len(P) + 4  # the second '=' of the text as written
    assert not sel.analyze(P + "a = 1", "artemis").valid  # not modelled for Artemis: an error, not a silent other reading
    assert not sel.analyze(P + "a = 1", "jakarta").valid


def test_compare_refuses_the_options_it_would_ignore() -> None:
    done = subprocess.run([sys.executable, "-m", "jmsctl", "browse", "stomp://127.0.0.1:1", "q", "--selector", "a = 1", "--compare",
                           "--where", "b = 2", "-o", "x.ndjson"], capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr == "jmsctl: error: --compare prints its report on stdout and browses every message: --where, -o does not apply to it\n"

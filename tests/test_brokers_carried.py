"""What a transport carries and what it adds (issue 32, items 6 and what was seen after): STOMP
``--compare`` leaves out the JMSX group names ActiveMQ selects on but never sends over STOMP, and says
so once with a count; a STOMP ``send`` adds no STOMP header of its own to a message as a JMS property
(ActiveMQ keeps ``amq-msg-type`` and, with it, ``content-length``), also on a JMS browse -> STOMP send
round trip; Ctrl-C at any point of the command line's start-up exits 130 in one line, no traceback.

The session's broker (tests/conftest.py); jmsctl runs as a subprocess, as a user runs it.
"""

from __future__ import annotations

import os
import signal
import site
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from jmsctl import brokers
from jmsctl.messages.model import Message
from jmsctl.values import INT, STRING
from tests import activemq_broker

ROOT = Path(__file__).parent.parent
QUICK = brokers.Options(timeout=20, idle_timeout=10)
TRANSPORT_HEADERS = {"amq-msg-type", "content-length"}


def _jmsctl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jmsctl", *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


def _browse(url: str, queue: str) -> list[dict[str, object]]:
    done = _jmsctl("browse", url, queue)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return [orjson.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.skipif(activemq_broker.missing() is not None, reason=str(activemq_broker.missing()))
def test_stomp_compare_leaves_out_the_jmsx_group_names_and_says_so_once(broker: activemq_broker.Broker) -> None:
    """ActiveMQ selects on JMSXGroupID, but its STOMP frames never carry it: 2 of 4 messages are in
    group g1, the broker selects them, jmsctl (judging STOMP's messages) cannot: left out, counted,
    said once; exit 0. Over JMS the same comparison has the names and agrees."""
    queue = "carried-groups"
    messages = [Message({}, {"JMSXGroupID": (STRING, g), "JMSXGroupSeq": (INT, i + 1), "n": (INT, i)}, "text", f"m{i}")
                for i, g in enumerate(["g1", "g2", "g1"])] + [Message({}, {"n": (INT, 3)}, "text", "m3")]
    with brokers.connect(broker.stomp_url, QUICK) as conn:
        report = brokers.SendReport()
        conn.send(queue, messages, report)
    assert report.sent == 4
    assert all("JMSXGroupID" not in m["properties"] for m in _browse(broker.stomp_url, queue))  # STOMP never shows it
    done = _jmsctl("browse", broker.stomp_url, queue, "--selector", "JMSXGroupID = 'g1' OR n = 3", "--compare")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the broker selected 3, jmsctl --dialect activemq 1; 0 differences" in done.stdout
    assert done.stdout.count("not compared") == 1
    assert ("JMSXGroupID not compared: STOMP does not carry it (the broker selects on it, jmsctl judged without it): "
            "2 messages on which the two differ left out") in done.stdout
    both = _jmsctl("browse", broker.stomp_url, queue, "--selector", "JMSXGroupSeq = 2 AND JMSXGroupID = 'g2'", "--compare")
    assert both.returncode == 0 and "JMSXGroupID and JMSXGroupSeq not compared: STOMP does not carry them" in both.stdout
    assert ": 1 message on which the two differ left out" in both.stdout
    plain = _jmsctl("browse", broker.stomp_url, queue, "--selector", "n = 3", "--compare")
    assert plain.returncode == 0 and "not compared" not in plain.stdout  # a selector without them: nothing said
    # another text than STOMP's (ActiveMQ caches a parse under its text: item 9), n a String over STOMP
    jms = _jmsctl("browse", broker.jms_url, queue, "--selector", "JMSXGroupID = 'g1' OR n = '3'", "--compare")
    assert jms.returncode == 0, jms.stdout + jms.stderr
    assert "the broker selected 3, jmsctl --dialect activemq 3; 0 differences" in jms.stdout and "not compared" not in jms.stdout


@pytest.mark.skipif(activemq_broker.missing() is not None, reason=str(activemq_broker.missing()))
def test_stomp_send_adds_no_transport_header_as_a_property(broker: activemq_broker.Broker, tmp_path: Path) -> None:
    """A text and a bytes message sent over STOMP have, over JMS, only their own properties (ActiveMQ
    kept amq-msg-type and content-length as properties when jmsctl sent them); a text holding NUL needs
    both (said once, counted). The JMS browse of it sent again over STOMP (a round trip) drops those
    two properties as STOMP headers, said with a count, and adds none."""
    dump = tmp_path / "three.ndjson"
    dump.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in (
        {"body": "plain", "properties": {"p": "1"}},
        {"type": "bytes", "body": "AAEC", "properties": {"p": "2"}},
        {"body": "nul\u0000inside", "properties": {"p": "3"}},
    )))
    sent = _jmsctl("send", broker.stomp_url, "carried-headers", str(dump))
    assert sent.returncode == 0 and "Traceback" not in sent.stderr, sent.stderr
    assert sent.stderr.count("text bodies holding NUL") == 1 and "ActiveMQ keeps as the message's properties" in sent.stderr
    assert "content-length): 1 message\n" in sent.stderr
    over_jms = _browse(broker.jms_url, "carried-headers")
    assert [(m["type"], m["body"], sorted(m.get("properties", {}))) for m in over_jms] == [
        ("text", "plain", ["p"]), ("bytes", "AAEC", ["p"]), ("text", "nul\u0000inside", ["amq-msg-type", "content-length", "p"])]
    again = tmp_path / "again.ndjson"
    again.write_bytes(b"".join(orjson.dumps(m) + b"\n" for m in over_jms))
    resent = _jmsctl("send", broker.stomp_url, "carried-again", str(again))
    assert resent.returncode == 0, resent.stderr
    assert "property amq-msg-type (a STOMP header of that name): 1 message" in resent.stderr
    assert "property content-length (a STOMP header of that name): 1 message" in resent.stderr
    assert [sorted(set(m.get("properties", {})) & TRANSPORT_HEADERS) for m in _browse(broker.jms_url, "carried-again")] == \
        [[], [], ["amq-msg-type", "content-length"]]  # only the NUL text carries them, as before


def _without_site() -> dict[str, str]:
    """The environment for ``python -S`` (no site: the interpreter's own start-up, where no program
    can take a signal, is short) that still finds jmsctl and its dependencies."""
    paths = [str(ROOT), *site.getsitepackages()]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def test_ctrl_c_at_any_point_of_the_start_up_exits_130_in_one_line() -> None:
    """SIGINT at 25 points of a command's start-up (Python importing jmsctl, typer, the command): exit
    130 (or the default SIGINT death before Python's own handler exists), at most one line on stderr,
    never a traceback from jmsctl's code or what it imports; a command that ended first ended as it
    would (a connection refused: exit 2). Before jmsctl/__init__.py's first line (Python finding and
    reading it, or runpy) no program can take the signal: a trace there has only Python's own frames."""
    env = _without_site()
    port = activemq_broker.free_port()  # nothing listens: the command fails fast once loaded
    outcomes = []
    for i in range(25):
        process = subprocess.Popen([sys.executable, "-S", "-m", "jmsctl", "browse", f"stomp://127.0.0.1:{port}", "q"], cwd=ROOT,
                                   env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(0.012 * i)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        if b"Traceback" in err:  # only from Python's own start-up, before jmsctl's first line: no frame of jmsctl or a package
            assert str(ROOT / "jmsctl").encode() not in err and b"site-packages" not in err and process.returncode != 0, (i, err)
            continue
        assert len(err.splitlines()) <= 1, (i, err)
        assert process.returncode in (130, -signal.SIGINT, 2), (i, process.returncode, err)
        assert out == b""
        outcomes.append(process.returncode)
    assert 130 in outcomes, outcomes  # the handler ran at least once (not every run ended before or after)


def test_the_start_up_handler_stays_until_main_catches_ctrl_c() -> None:
    """In the command line, jmsctl.cli.app's import ends with the start-up handler still in place (a Ctrl-C
    while importlib releases the module's lock was a trace from importlib, once in 400 tries beside two busy
    loops); imported by a program, Ctrl-C is KeyboardInterrupt again once the import is done."""
    probe = ("import sys, signal; sys.argv[0] = {argv0!r}; import jmsctl, jmsctl.cli.app; "
             "print(signal.getsignal(signal.SIGINT) is jmsctl._interrupted_while_starting, signal.getsignal(signal.SIGINT) is signal.default_int_handler)")
    for argv0, expected in (("jmsctl", "True False"), ("program", "False True")):
        r = subprocess.run([sys.executable, "-c", probe.format(argv0=argv0)], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert r.stdout.split() == expected.split(), (argv0, r.stdout, r.stderr)


def test_a_stopped_command_outside_its_report_exits_with_the_signals_status(monkeypatch: pytest.MonkeyPatch) -> None:
    """A signal a command turns into cleanup.Stopped while it writes the error it ends with (outside the block
    that reports a stop) ends the process with the signal's status, no trace (seen in CI: a trace ending in
    ``jmsctl.cleanup.Stopped: 2``)."""
    from jmsctl import cleanup
    from jmsctl.cli import app as cli_app

    def stopped(**_: object) -> None:
        raise cleanup.Stopped(signal.SIGINT)

    monkeypatch.setattr(cli_app, "app", stopped)
    with pytest.raises(SystemExit) as exited:
        cli_app._main()
    assert exited.value.code == 128 + signal.SIGINT

    def failing(**_: object) -> None:
        raise RuntimeError("not a signal")

    monkeypatch.setattr(cli_app, "app", failing)
    with pytest.raises(RuntimeError):  # anything else goes on as it was
        cli_app._main()

    def closed_pipe(**_: object) -> None:
        raise BrokenPipeError

    monkeypatch.setattr(cli_app, "app", closed_pipe)
    monkeypatch.setattr(cli_app.os, "dup2", lambda *_: None)  # stdout stays pytest's
    with pytest.raises(SystemExit) as exited:  # the clause for a closed pipe still comes first
        cli_app._main()
    assert exited.value.code == 128 + signal.SIGPIPE

"""ActiveMQ ``activemq browse`` text: every rule of docs/FORMAT.md#activemq-browse-activemq-classics-browse-text on files built for it
(tests/fixtures/formats/activemq-browse/): the console's preamble, fields in any order, values
split at the first " = ", bodies over several lines, untyped properties (one warning, --types),
JMSX types, bodies that browse does not print, broken messages one by one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from jmsctl.messages import formats
from jmsctl.messages.loader import read_records
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "formats" / "activemq-browse"


def load(name: str, **kw: object) -> list:  # type: ignore[type-arg]
    return list(read_records(str(FIX / name), **kw))  # type: ignore[arg-type]


def jmsctl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jmsctl", *args], capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)


def test_detected_after_the_console_preamble() -> None:
    fmt = formats.detect((FIX / "rules.txt").read_bytes())
    assert fmt is not None and fmt.name == "activemq-browse"


def test_every_rule_of_the_browse_text() -> None:
    rs = load("rules.txt")
    assert [r.error for r in rs] == [None] * 5
    text, mapped, data, plain, obj = (r.message for r in rs)
    assert rs[0].location == f"{FIX / 'rules.txt'}:10 (ID:host-1234-1-1:1:1:1:1)"  # the line of its first field, then its id
    assert text.headers == {"JMSDestination": "queue://orders", "JMSDeliveryMode": "PERSISTENT", "JMSMessageID": "ID:host-1234-1-1:1:1:1:1",
                            "JMSExpiration": 0, "JMSPriority": 4, "JMSRedelivered": False, "JMSTimestamp": 1700000000000,
                            "JMSType": "car", "JMSCorrelationID": "corr-1"}
    assert text.body == "first line\nsecond line\n\nfourth line after a blank one"  # continuation lines, a blank one inside
    assert text.properties["note"] == (STRING, "x = y")  # split at the first " = "
    assert text.properties["weight"] == (STRING, "2600")  # untyped: a String
    assert text.properties["JMSXGroupSeq"] == (INT, 0) and text.properties["JMSXDeliveryCount"] == (INT, 1)  # JMSX: spec types
    assert text.properties["JMSXGroupID"] == (STRING, "g1")
    assert (mapped.body_type, mapped.body) == ("map", {"size": (STRING, "3"), "label": (STRING, "a = b")})
    assert (data.body_type, data.body) == ("bytes", None) and data.source["body_length"] == 5 and "body_lost" in data.source
    assert (plain.body_type, plain.body) == ("message", None) and plain.get("JMSDeliveryMode") == (STRING, "NON_PERSISTENT")
    assert plain.headers["JMSRedelivered"] is True and plain.headers["JMSReplyTo"] == "replies" and plain.headers["JMSPriority"] == 9
    assert obj.body_type == "object" and obj.body is None and obj.source["object_class"] == "java.util.Date"
    assert [m.message.source["index"] for m in rs] == [0, 1, 2, 3, 4]


def test_one_warning_per_file_for_untyped_properties_and_types_from_a_schema() -> None:
    seen: list[str] = []
    opts = formats.ReadOptions(warn=seen.append)
    fmt = formats.get("activemq-browse")
    assert fmt.read is not None
    with open(FIX / "rules.txt", "rb") as f:
        list(fmt.read(f, "rules.txt", opts))
    assert len(seen) == 1 and "3 properties (color, note, weight)" in seen[0] and "--types" in seen[0]
    rs = load("rules.txt", types={"weight": DOUBLE})
    assert rs[0].message.properties["weight"] == (DOUBLE, 2600.0) and rs[3].message.properties["weight"] == (DOUBLE, 12.5)


def test_cli_warns_once_and_types_make_numeric_comparisons_work() -> None:
    r = jmsctl("filter", "weight > 2500", str(FIX / "rules.txt"), "--stats")
    assert r.returncode == 1 and r.stderr.count("jmsctl: warning:") == 1
    assert r.stderr.splitlines()[-1] == "read 5, TRUE 0, FALSE 2, UNKNOWN 3, rejected 0, selected 0"  # a String is not a number: unlike types
    r = jmsctl("filter", "weight > 2500", str(FIX / "rules.txt"), "--types", str(FIX / "types.json"), "--format", "ids")
    assert r.returncode == 0 and r.stdout == "ID:host-1234-1-1:1:1:1:1\n"


def test_broken_messages_are_each_an_error_and_the_rest_is_read() -> None:
    rs = load("broken.txt")
    name = FIX / "broken.txt"
    errors = [(r.location, r.error.field) for r in rs if r.error]
    assert errors == [(f"{name}:1 (ID:b-1)", "headers.JMSPriority"), (f"{name}:4 (ID:b-2)", "headers.JMSDeliveryMode"),
                      (f"{name}:7 (ID:b-3)", "properties.JMSXGroupSeq"), (f"{name}:10 (ID:b-4)", "headers.JMSBogus")]
    assert rs[-1].message is not None and rs[-1].message.body == "still read"


def test_a_bad_value_for_a_type_given_is_an_error_for_that_message(tmp_path: Path) -> None:
    rs = load("rules.txt", types={"color": INT})
    assert rs[0].error is not None and rs[0].error.field == "properties.color" and "--types" in rs[0].error.reason
    assert all(r.message is not None for r in rs[1:])


def test_a_paste_without_blank_lines_still_splits_at_a_repeated_field() -> None:
    rs = load("no-blank-lines.txt")  # CRLF line ends too
    assert [r.message.headers["JMSMessageID"] for r in rs] == ["ID:nb-1", "ID:nb-2"]
    assert [r.message.properties["weight"] for r in rs] == [(STRING, "1"), (STRING, "2")]


def test_a_message_over_the_size_limit_is_rejected(tmp_path: Path) -> None:
    p = tmp_path / "big.txt"
    p.write_text("JMS_HEADER_FIELD:JMSMessageID = ID:1\nJMS_BODY_FIELD:JMSText = " + "x" * 5000 + "\n\nJMS_HEADER_FIELD:JMSMessageID = ID:2\n")
    rs = list(read_records(str(p), max_record_size=1000))
    assert rs[0].error is not None and "record too large" in rs[0].error.reason
    assert rs[1].message is not None and rs[1].message.headers["JMSMessageID"] == "ID:2"


def test_a_boolean_type_given_is_used() -> None:
    """JType.BOOLEAN is 0: found by the samples, where --types left booleans as Strings."""
    from jmsctl.values import BOOLEAN

    p = FIX / "rules.txt"
    rs = list(read_records(str(p), types={"color": BOOLEAN}))
    assert rs[0].message.properties["color"] == (BOOLEAN, False)  # Boolean.valueOf("blue")


def test_real_browse_output_loads_to_the_messages_sent() -> None:
    """tests/fixtures/formats/activemq-browse/real-5.17.2.txt is what Debian's ActiveMQ 5.17.2 console
    printed for five messages (scripts/capture_activemq_browse.sh, scripts/java/BrowseCapture.java);
    .sent.jsonl is what the producer sent. Kept back from the rules: it must load to those messages."""
    import json

    sent = {m["id"]: m for m in map(json.loads, (FIX / "real-5.17.2.sent.jsonl").read_text().splitlines())}
    types = {"weight": INT, "ratio": DOUBLE, "orderId": LONG, "express": BOOLEAN, "discount": SHORT, "unitPrice": FLOAT, "rating": BYTE}
    rs = list(read_records(str(FIX / "real-5.17.2.txt"), types=types))
    assert [r.error for r in rs] == [None] * 5
    got = {r.message.headers["JMSMessageID"]: r.message for r in rs}
    assert set(got) == set(sent)
    kinds = {"text": "text", "map": "map", "bytes": "bytes", "message": "message", "object": "object"}
    for mid, m in got.items():
        s = sent[mid]
        assert m.body_type == kinds[s["kind"]]
        assert (m.headers["JMSPriority"], m.headers["JMSDeliveryMode"], m.headers["JMSTimestamp"]) == (s["priority"], s["mode"], s["timestamp"])
        assert m.headers["JMSExpiration"] == s.get("expiration", 0) and m.headers["JMSDestination"] == "queue://orders"
    text = next(m for m in got.values() if m.body_type == "text")
    assert text.body == "first line\nsecond line" and text.headers["JMSType"] == "car" and text.headers["JMSCorrelationID"] == "corr-1"
    assert text.properties["weight"] == (INT, 2600) and text.properties["ratio"] == (DOUBLE, 0.5) and text.properties["express"] == (BOOLEAN, True)
    assert text.properties["orderId"] == (LONG, 4294967396) and text.properties["note"] == (STRING, "x = y")
    assert text.properties["JMSXGroupID"] == (STRING, "g1") and text.properties["JMSXGroupSeq"] == (INT, 0)  # the broker's 0
    mapped = next(m for m in got.values() if m.body_type == "map")
    assert mapped.body == {"sku": (STRING, "TRU-1"), "qty": (STRING, "3")} and mapped.properties["discount"] == (SHORT, 15)
    data = next(m for m in got.values() if m.body_type == "bytes")
    assert data.body is None and data.source["body_length"] == 5 and data.properties["unitPrice"] == (FLOAT, 12.5)
    plain = next(m for m in got.values() if m.body_type == "message")
    assert plain.headers["JMSReplyTo"] == "replies" and plain.properties["rating"] == (BYTE, -1)
    obj = next(m for m in got.values() if m.body_type == "object")
    assert obj.source["object_class"] == "java.lang.String" and obj.source["object_string"] == "an object"
    assert [m.headers["JMSDeliveryMode"] for m in (r.message for r in rs)] == ["PERSISTENT"] * 4 + ["NON_PERSISTENT"]  # the broker's order

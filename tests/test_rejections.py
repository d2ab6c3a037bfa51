"""Rejected records as a person reads them (issue 18): a file that is not a message dump is one
error saying what it looks like, not an error per line; repeated record errors are capped per file
with a count; the counts still add up (read = TRUE + FALSE + UNKNOWN + rejected)."""

from __future__ import annotations

import gzip
import json
import os
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jmsctl.cli.app import app
from jmsctl.messages.rejections import FIRST, RUN, SHOWN, looks_like, report_capped

runner = CliRunner()
SAMPLES = Path(__file__).parent.parent / "samples"
STATS = re.compile(r"read (\d+), TRUE (\d+), FALSE (\d+), UNKNOWN (\d+), rejected (\d+), selected (\d+)")


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["filter", *args])


def counts(stderr: str) -> tuple[int, ...]:
    m = STATS.search(stderr)
    assert m, stderr
    read, true, false, unknown, rejected, selected = (int(x) for x in m.groups())
    assert read == true + false + unknown + rejected, stderr
    return read, true, false, unknown, rejected, selected


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("jmsctl: error: ")]


def message(i: int, **props: object) -> str:
    return json.dumps({"headers": {"JMSType": "car", "JMSMessageID": f"ID:{i}"}, "properties": props})


# ----- what a file looks like ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sample", "words"),
    [
        (b"id,type,color\n1,car,blue\n2,car,red\n", "CSV (3 fields a line)"),
        (b"id\ttype\n1\tcar\n", "tab-separated values (2 fields a line)"),
        (b'<?xml version="1.0"?>\n<root>\n<a/>\n', "XML"),
        (b"<!DOCTYPE html>\n<html><body>", "HTML"),
        (bytes(range(256)) * 4, "binary data"),
        (b'[\n  {"headers": {}}\n', "JSON, but not one message per line"),
        (b"---\nkey: value\n", "YAML"),
        (b"hello world\nthis is prose\n", "text that is not JSON"),
    ],
)
def test_looks_like(sample: bytes, words: str) -> None:
    assert looks_like(sample).startswith(words)


def test_looks_like_names_a_registered_format_and_its_option() -> None:
    xml = (SAMPLES / "orders-artemis.xml").read_bytes()[:4096]
    assert "--from artemis-xml" in looks_like(xml)


# ----- a file that is not a dump -------------------------------------------------------------------


def test_csv_file_is_one_error_saying_csv(tmp_path: Path) -> None:
    f = tmp_path / "orders.ndjson"
    f.write_text("id,type,color\n" + "".join(f"{i},car,blue\n" for i in range(600)))
    r = run("JMSType = 'car'", str(f), "--stats")
    assert r.exit_code == 2
    errors = error_lines(r.stderr)
    assert len(errors) == 1, r.stderr
    assert errors[0].startswith(f"jmsctl: error: {f}: not a message dump: its first {FIRST} lines are not JSON messages; it looks like CSV")
    read, *_, rejected, selected = counts(r.stderr)
    assert read == rejected >= FIRST and selected == 0


def test_xml_read_as_ndjson_names_the_format_that_reads_it() -> None:
    """The issue's case (547 "invalid JSON" lines for a 30-message XML file): one line, naming the
    format the registry's sniffer recognises and the option that reads it."""
    r = run("JMSType = 'car'", str(SAMPLES / "orders-artemis.xml"), "--from", "ndjson", "--stats")
    assert r.exit_code == 2
    errors = error_lines(r.stderr)
    assert len(errors) == 1 and "not a message dump" in errors[0] and "read it with --from artemis-xml" in errors[0], r.stderr
    counts(r.stderr)


def test_gzip_csv_is_recognised_inside_the_gzip(tmp_path: Path) -> None:
    f = tmp_path / "orders.ndjson.gz"
    f.write_bytes(gzip.compress(b"id,type\n" + b"".join(b"%d,car\n" % i for i in range(100))))
    r = run("JMSType = 'car'", str(f))
    assert r.exit_code == 2
    assert len(error_lines(r.stderr)) == 1 and "CSV (2 fields a line)" in r.stderr


def test_binary_file_is_one_error(tmp_path: Path) -> None:
    f = tmp_path / "dump.ndjson"
    f.write_bytes(random.Random(7).randbytes(100_000))
    r = run("JMSType = 'car'", str(f), "--validate-all")
    assert r.exit_code == 2
    errors = error_lines(r.stderr)
    assert len(errors) == 1 and "binary data" in errors[0], r.stderr


def test_skip_invalid_still_refuses_a_file_that_is_not_a_dump(tmp_path: Path) -> None:
    f = tmp_path / "orders.ndjson"
    f.write_text("a;b\n" * 50)
    good = tmp_path / "good.ndjson"
    good.write_text(message(1) + "\n")
    r = run("JMSType = 'car'", str(f), str(good), "--skip-invalid", "--stats")
    assert r.exit_code == 2  # an input error, as an unreadable file is
    assert len(error_lines(r.stderr)) == 1 and "semicolon-separated" in r.stderr
    assert r.stdout == message(1) + "\n"  # the next file is still read
    assert counts(r.stderr)[5] == 1


def test_garbage_after_good_records_stops_after_a_run(tmp_path: Path) -> None:
    f = tmp_path / "dump.ndjson"
    lines = [message(i) for i in range(50)] + [f"garbage {i} car" for i in range(RUN + 50)]
    f.write_text("\n".join(lines) + "\n")
    r = run("JMSType = 'car'", str(f), "--stats")
    assert r.exit_code == 2
    assert r.stdout.count("\n") == 50
    last = error_lines(r.stderr)[-1]
    assert last.startswith(f"jmsctl: error: {f}:{50 + RUN}: stopped reading: lines 51 to {50 + RUN} are not JSON messages"), r.stderr
    assert 'the first reads "garbage 0 car"' in last
    assert len(error_lines(r.stderr)) <= SHOWN + 2
    counts(r.stderr)


def test_bad_messages_first_are_not_given_up_on() -> None:
    """A dump whose records are JSON messages with bad fields is a dump: every record is read."""
    r = run("JMSType = 'car'", str(SAMPLES / "bad-records.ndjson"), "--stats")
    assert r.exit_code == 2 and "not a message dump" not in r.stderr and "stopped reading" not in r.stderr
    read, *_, rejected, _ = counts(r.stderr)
    assert len(error_lines(r.stderr)) == rejected and read == (SAMPLES / "bad-records.ndjson").read_bytes().count(b"\n")


def test_a_few_broken_lines_at_the_start_are_reported_one_by_one(tmp_path: Path) -> None:
    f = tmp_path / "dump.ndjson"
    f.write_text("\n".join(["not json", "{broken", *(message(i) for i in range(10))]) + "\n")
    r = run("JMSType = 'car'", str(f), "--stats")
    assert r.exit_code == 2
    assert [e.split(": ")[2] for e in error_lines(r.stderr)] == [f"{f}:1", f"{f}:2"]
    assert counts(r.stderr) == (12, 10, 0, 0, 2, 10)


# ----- the cap ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_repeated_record_errors_are_capped_with_a_count(tmp_path: Path, jobs: str) -> None:
    f = tmp_path / "bad.ndjson"
    n = SHOWN * 3 + 7
    f.write_text("".join(message(i, w={"type": "int", "value": 1.5}) + "\n" for i in range(n)) + message(n) + "\n")
    r = run("JMSType = 'car'", str(f), "--stats", "--validate-all", "--jobs", jobs)
    assert r.exit_code == 2
    errors = error_lines(r.stderr)
    assert len(errors) == SHOWN + 1
    assert errors[-1] == f"jmsctl: error: {f}: {n - SHOWN:,} more rejected records not shown ({n:,} in this file; the first {SHOWN} are above)"
    assert counts(r.stderr) == (n + 1, 1, 0, 0, n, 1)


def test_the_cap_is_per_file(tmp_path: Path) -> None:
    a, b = tmp_path / "a.ndjson", tmp_path / "b.ndjson"
    for f in (a, b):
        f.write_text("".join(message(i, w={"type": "int", "value": "x"}) + "\n" for i in range(SHOWN + 1)))
    r = run("JMSType = 'car'", str(a), str(b), "--validate-all")
    errors = error_lines(r.stderr)
    assert len(errors) == 2 * (SHOWN + 1)
    assert sum("1 more rejected records not shown" in e for e in errors) == 2


def test_report_capped_groups_by_file() -> None:
    said: list[str] = []
    rejected = [(f"a.ndjson:{i}", "bad") for i in range(1, 6)] + [("b.ndjson:1", "bad"), ("c.json:[3]", "bad")]
    report_capped(rejected, said.append, shown=2)
    assert said == ["a.ndjson:1: bad", "a.ndjson:2: bad", "b.ndjson:1: bad", "c.json:[3]: bad",
                    "a.ndjson: 3 more rejected records not shown (5 in this file; the first 2 are above)"]


def test_a_big_csv_with_jobs_is_one_error_and_leaves_no_worker(tmp_path: Path) -> None:
    f = tmp_path / "big.ndjson"
    with open(f, "w") as out:
        out.write("id,type,color,weight\n")
        for i in range(200_000):
            out.write(f"{i},car,blue,{i}\n")
    assert f.stat().st_size > 4 << 20  # more than one block of the parallel path
    before = set(os.listdir("/proc")) if os.path.isdir("/proc") else set()
    r = run("JMSType = 'car'", str(f), "--jobs", "2", "--stats")
    assert r.exit_code == 2
    assert len(error_lines(r.stderr)) == 1 and "CSV (4 fields a line)" in r.stderr
    counts(r.stderr)
    if before:
        for pid in set(os.listdir("/proc")) - before:
            if pid.isdigit():
                try:
                    with open(f"/proc/{pid}/stat", "rb") as st:
                        fields = st.read().rsplit(b")", 1)[1].split()
                except OSError:
                    continue
                assert not (int(fields[1]) == os.getpid() and fields[0] != b"Z"), "a worker is left"


def test_convert_gives_up_on_a_csv_and_caps_record_errors(tmp_path: Path) -> None:
    csv = tmp_path / "orders.ndjson"
    csv.write_text("id,type\n" + "".join(f"{i},car\n" for i in range(300)))
    out = tmp_path / "out.ndjson"
    r = runner.invoke(app, ["convert", str(csv), "-o", str(out)])
    assert r.exit_code == 2
    errors = error_lines(r.stderr)
    assert len(errors) == 1 and "not a message dump" in errors[0] and "CSV (2 fields a line)" in errors[0], r.stderr
    assert not out.exists()
    bad = tmp_path / "bad.ndjson"
    n = SHOWN + 5
    bad.write_text(message(0) + "\n" + "".join(message(i, w={"type": "int", "value": 1.5}) + "\n" for i in range(n)))
    r = runner.invoke(app, ["convert", str(bad), "-o", str(out)])
    assert r.exit_code == 2
    errors = error_lines(r.stderr)
    assert len(errors) == SHOWN + 1 and errors[-1].endswith(f"5 more rejected records not shown ({n} in this file; the first {SHOWN} are above)")
    assert not out.exists()


def test_show_gives_up_on_a_csv_and_caps_rejected_blocks(tmp_path: Path) -> None:
    csv = tmp_path / "orders.ndjson"
    csv.write_text("id,type\n" + "".join(f"{i},car\n" for i in range(300)))
    r = runner.invoke(app, ["show", str(csv)])
    assert r.exit_code == 2
    assert r.stdout == "" and len(error_lines(r.stderr)) == 1 and "CSV (2 fields a line)" in r.stderr, r.stderr
    bad = tmp_path / "bad.ndjson"
    n = SHOWN + 3
    bad.write_text(message(0) + "\n" + "".join(message(i, w={"type": "int", "value": 1.5}) + "\n" for i in range(n)))
    r = runner.invoke(app, ["show", str(bad), "--format", "json"])
    assert r.exit_code == 2
    assert r.stdout.count("\n") == 1  # the one valid message
    rejected = [e for e in error_lines(r.stderr) if ": rejected: " in e]
    assert len(rejected) == SHOWN and error_lines(r.stderr)[-1].endswith(f"3 more rejected records not shown ({n} in this file; the first {SHOWN} are above)")

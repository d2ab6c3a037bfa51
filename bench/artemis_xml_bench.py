"""Artemis XML benchmark: messages/s and peak memory of the Artemis XML reader next to the NDJSON
path, on the same messages; the fmtn/a and ActiveMQ browse readers measured the same way.

    python bench/artemis_xml_bench.py                  # about 2 GB of Artemis XML (and the same messages as NDJSON)
    python bench/artemis_xml_bench.py --size-mb 200    # quicker
    python bench/artemis_xml_bench.py --size-mb 20 --json

It writes a ``data exp`` document of about ``--size-mb`` MB (the messages of samples/orders.ndjson,
written by jmsctl's Artemis XML writer with Artemis's internal properties, repeated with fresh ids;
cached in --workdir) and the same messages as NDJSON, then runs, each as a separate process:

- ``xml read``: every record of the XML through ``artemis_xml.read`` (streamed expat, messages built);
- ``ndjson read``: every record of the NDJSON through the loader (``read_records``), the plain path;
- ``fmtn-a read`` and ``activemq-browse read``: the same messages written by jmsctl's fmtn/a and
  browse writers (the browse text holds no property types: its reader's one warning goes to stderr),
  every record through ``read_records`` (the format sniffed, as a user's command reads it);
- ``jmsctl filter --count`` on each file, end to end, with the javadoc example selector; on the XML
  also with ``--validate-all``, which types every message whole (by default only the selector's
  names are typed, and the whole only of a message passed on).

For each it prints wall and CPU seconds, messages and MB per CPU second (CPU time, not wall time:
the rates hold on a shared, busy machine) and the peak RSS (``ru_maxrss`` of that child alone). Peak RSS that
stays flat from a small to a large document is the constant-memory claim; compare with --size-mb 20.
Exit status 0 always (a report, not a test); the counts of the runs must agree or it says so.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402
from childrun import run  # noqa: E402 - bench/: the script's own directory is on sys.path

from jmsctl.messages.encode import message_json  # noqa: E402
from jmsctl.messages.formats import activemq_browse, artemis_xml_writer, fmtn_a_writer  # noqa: E402
from jmsctl.messages.loader import read_records  # noqa: E402
from jmsctl.messages.model import Message  # noqa: E402
from jmsctl.values import BYTE, STRING  # noqa: E402

SELECTOR = "JMSType = 'car' AND color = 'blue' AND weight > 2500"
READ_XML = ("import sys; sys.path.insert(0, sys.argv[2]); from jmsctl.messages.formats import artemis_xml\n"
            "n = bad = 0\nwith open(sys.argv[1], 'rb') as f:\n    for r in artemis_xml.read(f, sys.argv[1]):\n"
            "        n += 1; bad += r.error is not None\nprint(n, bad)\n")
READ_NDJSON = ("import sys; sys.path.insert(0, sys.argv[2]); from jmsctl.messages.loader import read_records\n"
               "n = bad = 0\nfor r in read_records(sys.argv[1]):\n    n += 1; bad += r.error is not None\nprint(n, bad)\n")


def base_messages() -> list[Message]:
    out = []
    for n, record in enumerate(read_records(str(ROOT / "samples" / "orders.ndjson"))):
        m = record.message
        if m is None or m.body_type == "stream":
            continue
        props = {k: v for k, v in m.properties.items() if k != "JMSXDeliveryCount"}
        props["__AMQ_CID"] = (STRING, f"conn-{n % 7}")
        props["_AMQ_ROUTING_TYPE"] = (BYTE, 1)
        out.append(Message(m.headers, props, m.body_type, m.body, m.null_properties,
                           source={"format": "artemis-xml", "bytes_properties": {"_AMQ_DUPL_ID": base64.b64encode(f"dup-{n}".encode()).decode()}}))
    return out


def generate(xml_path: Path, ndjson_path: Path, size_mb: int) -> int:
    """The XML document (about size_mb MB) and the same messages as NDJSON, fmtn/a JSON and
    activemq browse text (beside the XML); returns the count."""
    base = base_messages()
    buf = io.BytesIO()
    artemis_xml_writer.write(base, buf, Counter())
    doc = buf.getvalue()
    head_end = doc.index(b"   <messages>\n") + len(b"   <messages>\n")
    tail_start = doc.rindex(b"   </messages>")
    blocks = doc[head_end:tail_start].split(b"      <message id=")[1:]
    lines = [orjson.dumps(message_json(m)) + b"\n" for m in base]
    target = size_mb * 1024 * 1024
    n = written = 0
    with xml_path.open("wb") as xml, ndjson_path.open("wb") as nd:
        xml.write(doc[:head_end])
        while written < target:
            for block, line in zip(blocks, lines, strict=True):
                rest = block[block.index(b" ") :]
                piece = b'      <message id="' + str(n).encode() + b'"' + rest
                xml.write(piece)
                nd.write(line)
                written += len(piece)
                n += 1
        xml.write(doc[tail_start:])
    again = [base[i % len(base)] for i in range(len(base))]  # one round; the files below repeat it n times in all
    with xml_path.with_suffix(".fmtn-a.json").open("wb") as out:
        fmtn_a_writer.write((again[i % len(again)] for i in range(n)), out, Counter())
    with xml_path.with_suffix(".browse.txt").open("wb") as out:
        activemq_browse.write((again[i % len(again)] for i in range(n)), out)
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=int, default=2048, help="size of the XML document (default 2048: about 2 GB)")
    ap.add_argument("--workdir", default="/tmp/jmsctl-artemis-bench", help="where the generated files are kept (reused when present)")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON too")
    ap.add_argument("--repeat", type=int, default=1, help="run each row this many times, interleaved, and keep the least CPU (default 1)")
    ap.add_argument("--baseline-root", metavar="DIR", help="another checkout of jmsctl (the code before a change): its XML reader is one more row")
    ap.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    xml_path, nd_path, count_path = (work / f"export-{args.size_mb}mb.{e}" for e in ("xml", "ndjson", "count"))
    if args.generate_only:
        count_path.write_text(str(generate(xml_path, nd_path, args.size_mb)))
        return
    if not count_path.exists():  # in a child: a forked child starts with its parent's resident size, which ru_maxrss counts
        t = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--generate-only", "--size-mb", str(args.size_mb), "--workdir", args.workdir], check=True)
        print(f"generated {xml_path} in {time.perf_counter() - t:.1f} s")
    n = int(count_path.read_text())
    fmtn_path, browse_path = xml_path.with_suffix(".fmtn-a.json"), xml_path.with_suffix(".browse.txt")
    if not fmtn_path.exists() or not browse_path.exists():
        print("the cached files predate the fmtn-a and browse rows: remove them from --workdir to have those rows")
    sizes = {"xml": xml_path.stat().st_size, "ndjson": nd_path.stat().st_size}
    sizes.update({k: p.stat().st_size for k, p in (("fmtn-a", fmtn_path), ("browse", browse_path)) if p.exists()})
    print(f"{n:,} messages: " + ", ".join(f"{k} {v / 1e6:,.0f} MB" for k, v in sizes.items()) + f"; load average {os.getloadavg()[0]:.1f}")
    py = sys.executable
    jmsctl = [py, "-m", "jmsctl", "filter", SELECTOR, "--count"]
    cases = [
        ("xml read (artemis_xml.read)", "xml", [py, "-c", READ_XML, str(xml_path), str(ROOT)]),
        ("ndjson read (read_records)", "ndjson", [py, "-c", READ_NDJSON, str(nd_path), str(ROOT)]),
        ("jmsctl filter --count, Artemis XML", "xml", [*jmsctl, str(xml_path)]),
        ("jmsctl filter --count, NDJSON", "ndjson", [*jmsctl, str(nd_path)]),
        ("filter --count --validate-all, XML", "xml", [*jmsctl, "--validate-all", str(xml_path)]),
    ]
    if args.baseline_root:
        cases.append((f"xml read, {Path(args.baseline_root).name}", "xml", [py, "-c", READ_XML, str(xml_path), str(Path(args.baseline_root).resolve())]))
    if "fmtn-a" in sizes and "browse" in sizes:
        cases += [
            ("fmtn-a read (read_records)", "fmtn-a", [py, "-c", READ_NDJSON, str(fmtn_path), str(ROOT)]),
            ("activemq-browse read (read_records)", "browse", [py, "-c", READ_NDJSON, str(browse_path), str(ROOT)]),
        ]
    rows = []
    runs: dict[str, tuple[float, float, float, str]] = {}
    pairs: list[float] = []  # XML read CPU / NDJSON read CPU, the two run one after the other in each round
    for _ in range(args.repeat):  # interleaved: a busy spell of the machine slows one run of each row, not all runs of one
        cpu: dict[str, float] = {}
        for name, _kind, cmd in cases:
            got = run(cmd)
            cpu[name] = got[1]
            if name not in runs or got[1] < runs[name][1]:
                runs[name] = got
        pairs.append(cpu[cases[1][0]] / cpu[cases[0][0]])
    print(f"{'what':36} {'wall s':>7} {'CPU s':>7} {'msgs/CPU-s':>10} {'MB/CPU-s':>8} {'peak RSS MB':>11}  output")
    for name, kind, _cmd in cases:
        elapsed, cpu, peak, out = runs[name]
        out = out.strip()
        row = {"what": name, "wall_s": round(elapsed, 2), "cpu_s": round(cpu, 2), "msgs_per_cpu_s": round(n / cpu), "msgs_per_wall_s": round(n / elapsed),
               "mb_per_cpu_s": round(sizes[kind] / 1e6 / cpu, 1), "peak_rss_mb": round(peak, 1), "output": out}
        rows.append(row)
        print(f"{name:36} {elapsed:7.1f} {cpu:7.1f} {row['msgs_per_cpu_s']:10,} {row['mb_per_cpu_s']:8.1f} {peak:11.1f}  {out}")
    if rows[0]["output"].split()[0] != rows[1]["output"].split()[0] or not rows[2]["output"] == rows[3]["output"] == rows[4]["output"]:
        print("COUNTS DIFFER between the XML and the NDJSON runs")
    print(f"XML read / NDJSON read: {rows[0]['msgs_per_cpu_s'] / rows[1]['msgs_per_cpu_s']:.2f}x the messages per CPU second; "
          f"filter: {rows[2]['msgs_per_cpu_s'] / rows[3]['msgs_per_cpu_s']:.2f}x")
    if len(pairs) > 1:
        pairs.sort()
        print(f"XML read / NDJSON read in each round (the two runs back to back): median {pairs[len(pairs) // 2]:.2f}x "
              f"(min {pairs[0]:.2f}x, max {pairs[-1]:.2f}x, {len(pairs)} rounds)")
    print(f"filter on XML, the selector's names typed / every message typed whole (--validate-all): "
          f"{rows[4]['cpu_s'] / rows[2]['cpu_s']:.2f}x the messages per CPU second")
    for row in rows[5:]:
        print(f"{row['what'].split(' (')[0]} / NDJSON read: {row['msgs_per_cpu_s'] / rows[1]['msgs_per_cpu_s']:.2f}x the messages per CPU second")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()

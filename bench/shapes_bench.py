"""``jmsctl filter SEL FILE`` (``--count``, and writing the selected lines to a file) on two dumps (typed
properties; mostly bare values), six selector shapes, against jq and against the partial-decode floor, in one run.

    python bench/shapes_bench.py                      # 1,000,000 messages (~534 MB; about 10 minutes with jq)
    python bench/shapes_bench.py --messages 200000    # quicker, for iterating
    python bench/shapes_bench.py --no-jq              # jmsctl and the floor only
    python bench/shapes_bench.py --no-jq --no-write --compare ../main   # this checkout against another one
    python bench/shapes_bench.py --dumps bare         # only the dump of mostly bare values

The dump is the kind users export (issue 18): every message a text message with the same six
headers, nine properties of which four are written in the typed ``{"type", "value"}`` form
(weight int, price double, quantity long, express boolean), an ISO time (colons in a string), a
50-byte text body; about 530 bytes a line. The second dump (``bare``) holds the same messages as
jmsctl's own writer writes them (``message_json``; fmtn/a writes its values bare too): every value bare
that reads back as its type (weight, price and express), only the long ``quantity`` typed; about 460
bytes a line. Each is generated once (cached in --workdir) and copied to /dev/shm, where every tool reads
it and every output is written.

For each selector, in this order within one run, ``--repeat`` times interleaved (the fastest of
each kept): the partial-decode floor, ``jmsctl filter --count`` (its defaults: the cores for a
file this large), the same from the ``--compare`` checkout, ``jmsctl filter`` writing the
selected lines to a file; then, ``--jq-repeat`` times, the jq program a person writes for this
dump (``jq -c 'select(.headers.JMSType == "car" and ...)' FILE | wc -l``, and ``> file``) and the
jq program that emulates the selector's three-valued logic (``> file``). The floor is a Python
process that decodes with msgspec only the headers and properties the selector reads (a Struct
of just those fields, typed values as a small Struct) and compares them: the least a Python
filter of this selector can do per line. Every tool must select the same number of messages,
else the bench exits 1. Printed per selector: wall seconds and the ratios jq / jmsctl (count
against ``| wc -l``, file against file, count against the 3VL program), and CPU per message
(user + sys of the whole process tree, workers included) of jmsctl and of the floor, with their
ratio (the target: at most 2). The load average is printed at the start and the end. Last, per dump,
what ``time`` reports for the two whole commands a person compares, ``jmsctl filter SEL FILE --count``
(default --jobs) and ``jq -c 'select(...)' FILE | wc -l``: wall and CPU (user + sys) seconds and jq's over
jmsctl's, against the targets of issue 36 (at least 8x in CPU, 10x in wall with both cores free: on a busy
machine the wall ratio is not the quiet machine's, the CPU ratio moves less).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent

# name -> (selector, jq condition emulating three-valued logic, floor: (header fields, property
# fields, Python condition), the plain jq condition a person writes for this dump). In the floor's
# condition, h.X is a header, p.X a property (typed values unwrapped by v()). The plain jq program
# reads the typed values' "value" as the dump writes them; on this dump it selects the same messages.
SHAPES: dict[str, tuple[str, str, tuple[tuple[str, ...], tuple[str, ...], str], str]] = {
    "javadoc": (
        "JMSType = 'car' AND color = 'blue' AND weight > 2500",
        'and3(and3(hs(.headers.JMSType; "car"); ps(.properties.color; "blue")); pgt(.properties.weight; 2500))',
        (("JMSType",), ("color", "weight"), "h.JMSType == 'car' and v(p.color) == 'blue' and num(w := v(p.weight)) and w > 2500"),
        '.headers.JMSType == "car" and .properties.color == "blue" and .properties.weight.value > 2500',
    ),
    "numeric": (
        "weight > 100",
        "pgt(.properties.weight; 100)",
        ((), ("weight",), "num(w := v(p.weight)) and w > 100"),
        ".properties.weight.value > 100",
    ),
    "one id": (
        "JMSMessageID = 'ID:bars-999999'",
        'hs(.headers.JMSMessageID; "ID:bars-999999")',
        (("JMSMessageID",), (), "h.JMSMessageID == 'ID:bars-999999'"),
        '.headers.JMSMessageID == "ID:bars-999999"',
    ),
    "like": (
        "region LIKE 'A%'",
        'tv(.properties.region) | if . == null then null elif .[0] == "s" then (.[1] | startswith("A")) else false end',
        ((), ("region",), "type(r := v(p.region)) is str and r.startswith('A')"),
        '.properties.region | startswith("A")',
    ),
    "arithmetic": (
        "price * weight > 1000000",
        '[tv(.properties.price), tv(.properties.weight)] | if .[0] == null or .[1] == null then null '
        'elif .[0][0] == "n" and .[1][0] == "n" then .[0][1] * .[1][1] > 1000000 else false end',
        ((), ("price", "weight"), "num(a := v(p.price)) and num(b := v(p.weight)) and a * b > 1000000"),
        ".properties.price.value * .properties.weight.value > 1000000",
    ),
    "in list": (
        "color IN ('red', 'blue')",
        'tv(.properties.color) | if . == null then null elif .[0] == "s" then (.[1] == "red" or .[1] == "blue") else false end',
        ((), ("color",), "v(p.color) in ('red', 'blue')"),
        '.properties.color == "red" or .properties.color == "blue"',
    ),
}

JQ_PRELUDE = r"""
def tv(p): p | if . == null then null
  elif type == "object" then (.type) as $t | (.value) as $v |
    if $t == "string" then ["s", $v] elif $t == "boolean" then ["b", $v] else ["n", $v] end
  elif type == "string" then ["s", .] elif type == "boolean" then ["b", .] elif type == "number" then ["n", .]
  else null end;
def and3(a; b): if (a == false) or (b == false) then false elif (a == null) or (b == null) then null else true end;
def hs(h; lit): h | if . == null then null elif type == "string" then . == lit else false end;
def ps(p; lit): tv(p) | if . == null then null elif .[0] == "s" then .[1] == lit else false end;
def pgt(p; n): tv(p) | if . == null then null elif .[0] == "n" then .[1] > n else false end;
"""

FLOOR = '''import sys
from typing import Union
import msgspec

class T(msgspec.Struct, gc=False):
    type: str
    value: Union[int, float, str, bool]

V = Union[int, float, str, bool, None, T]

class H(msgspec.Struct, gc=False):
{headers}

class P(msgspec.Struct, gc=False):
{props}

class R(msgspec.Struct, gc=False):
    headers: H = msgspec.field(default_factory=H)
    properties: P = msgspec.field(default_factory=P)

decode = msgspec.json.Decoder(R).decode

def v(x):
    return x.value if type(x) is T else x

def num(x):
    return type(x) is int or type(x) is float

n = 0
for line in sys.stdin.buffer:
    r = decode(line)
    h, p = r.headers, r.properties
    if {cond}:
        n += 1
print(n)
'''

COLORS = ["blue", "red", "green", "black", "white", "silver"]
REGIONS = ["APAC", "AMER", "EMEA", "EU", "US", "UK", "LATAM", "MEA"]
CUSTOMERS = ["Acme Corp", "Globex", "Initech", "Umbrella Logistics", "Stark Industries", "Wayne Enterprises", "Hooli", "Vandelay Imports"]
TYPES = ["car", "car", "truck", "bike", "van", "part"]


def generate(path: Path, n: int, seed: int = 18, bare: bool = False) -> None:
    """Text messages of one regular shape: six headers, nine properties (four typed), a 50-byte body;
    ``bare``: the same messages as jmsctl's writer writes them (values bare where that keeps their type)."""
    if bare:
        sys.path.insert(0, str(ROOT))
        from jmsctl.messages.decode import decode_message
        from jmsctl.messages.encode import message_json
    rnd = random.Random(seed)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as out:
        for i in range(n):
            weight = rnd.randint(101, 5000) if rnd.random() < 0.855 else rnd.randint(1, 100)
            msg = {
                "type": "text",
                "headers": {
                    "JMSMessageID": f"ID:bars-{i}",
                    "JMSTimestamp": 1_700_000_000_000 + i * 13,
                    "JMSType": rnd.choice(TYPES),
                    "JMSDeliveryMode": rnd.choice(["PERSISTENT", "NON_PERSISTENT"]),
                    "JMSPriority": rnd.randint(0, 9),
                    "JMSDestination": rnd.choice(["queue://orders", "queue://fleet"]),
                },
                "properties": {
                    "color": rnd.choice(COLORS),
                    "weight": {"type": "int", "value": weight},
                    "price": {"type": "double", "value": round(rnd.uniform(250.0, 5000.0), 2)},
                    "region": rnd.choice(REGIONS),
                    "customer": rnd.choice(CUSTOMERS),
                    "quantity": {"type": "long", "value": rnd.randint(1, 10_000)},
                    "express": {"type": "boolean", "value": rnd.random() < 0.3},
                    "sku": f"SKU-{rnd.randint(0, 99999):05d}",
                    "createdAt": f"2026-11-{1 + i % 28:02d}T{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}:{rnd.randint(0, 59):02d}Z",
                },
                "body": f"order {i:07d} for {rnd.choice(CUSTOMERS)}".ljust(50, ".")[:50],
            }
            out.write(orjson.dumps(message_json(decode_message(msg)) if bare else msg) + b"\n")
    tmp.replace(path)


def plain_jq(condition: str, dump: str) -> str:
    """The jq condition a person writes for that dump: on the bare one the numbers are read bare."""
    return condition.replace(".value", "") if dump == "bare" else condition


@dataclass
class Row:
    dump: str
    shape: str
    selector: str
    selected: int
    jmsctl_s: float  # filter --count, wall seconds
    jmsctl_cpu_us: float  # CPU microseconds per message, whole process tree
    floor_cpu_us: float
    vs_floor: float
    write_s: float | None = None  # filter SEL FILE > out (the selected lines written)
    write_cpu_us: float | None = None
    jq_count_s: float | None = None  # jq -c 'select(plain)' FILE | wc -l
    jq_write_s: float | None = None  # jq -c 'select(plain)' FILE > out
    jq3_s: float | None = None  # jq -c 'select(3VL emulation)' FILE > out
    vs_jq_count: float | None = None  # jq plain | wc -l / jmsctl --count
    vs_jq_write: float | None = None  # jq plain > out / jmsctl > out
    vs_jq3: float | None = None  # jq 3VL / jmsctl --count
    jq_cpu_us: float | None = None  # plain jq's CPU per message (| wc -l): the comparison that a machine's load moves least
    jmsctl_cpu_s: float | None = None  # what `time` reports: jmsctl filter --count, user + sys seconds (wall: jmsctl_s)
    jq_cpu_s: float | None = None  # jq | wc -l, user + sys seconds (wall: jq_count_s)
    cpu_vs_jq: float | None = None
    compare_s: float | None = None  # --compare: the other checkout's filter --count, wall seconds
    compare_cpu_us: float | None = None
    vs_compare_cpu: float | None = None  # this checkout's CPU / the other's


def timed(cmd: list[str], stdin: Path | None, stdout: Path, env: dict[str, str] | None = None, ok: tuple[int, ...] = (0, 1)) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + sys of the process and every child it waited for)."""
    with stdout.open("wb") as out, (stdin.open("rb") if stdin else open(os.devnull, "rb")) as inp:
        t0 = time.perf_counter()
        # cwd: not a checkout. `python -m` (and -c) put the working directory first on sys.path, before
        # PYTHONPATH: run from a checkout, every jmsctl (--compare's too) would be that checkout's.
        proc = subprocess.Popen(cmd, stdin=inp, stdout=out, stderr=subprocess.PIPE, env=env, cwd="/")
        assert proc.stderr is not None
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        raise SystemExit(f"{' '.join(cmd)} failed ({code}): {err.decode(errors='replace')[:500]}")
    return wall, usage.ru_utime + usage.ru_stime


def _count(path: Path) -> int:
    return int(path.read_text().split()[-1]) if path.stat().st_size else 0


def _lines(path: Path) -> int:
    with path.open("rb") as f:
        return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--workdir", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "jmsctl-shapes-bench")
    ap.add_argument("--outdir", type=Path, default=Path("/dev/shm/jmsctl-shapes-bench") if os.path.isdir("/dev/shm") else None)
    ap.add_argument("--shapes", nargs="+", choices=list(SHAPES), default=list(SHAPES))
    ap.add_argument("--dumps", nargs="+", choices=["typed", "bare"], default=["typed", "bare"],
                    help="typed: every property value written {type, value}; bare: as jmsctl's writer writes them (default: both)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of jmsctl and of the floor, interleaved, the fastest kept (default 3)")
    ap.add_argument("--jq-repeat", type=int, default=1, help="runs of jq (default 1: 8-20 s each on 1 M messages)")
    ap.add_argument("--no-jq", action="store_true")
    ap.add_argument("--no-jq-3vl", action="store_true", help="only the plain jq programs, not those emulating three-valued logic")
    ap.add_argument("--no-write", action="store_true", help="only --count (not the runs writing the selected lines to a file)")
    ap.add_argument("--compare", type=Path, help="another checkout (e.g. a git worktree of main): its filter --count timed too, interleaved")
    ap.add_argument("--jmsctl-args", default="", help="extra arguments for jmsctl filter (e.g. '--jobs 1')")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="do not compile jmsctl's bytecode first: with PYTHONDONTWRITEBYTECODE set, every start then compiles jmsctl's sources")
    args = ap.parse_args(argv)

    args.workdir = args.workdir.resolve()  # absolute: the commands run in / (timed)
    args.workdir.mkdir(parents=True, exist_ok=True)
    outdir = (args.outdir or args.workdir).resolve()
    outdir.mkdir(parents=True, exist_ok=True)
    sources: dict[str, Path] = {}
    for kind in args.dumps:
        dump = args.workdir / f"{kind}-{args.messages}.ndjson"
        if not dump.exists():
            print(f"generating {dump} ...", file=sys.stderr)
            generate(dump, args.messages, bare=kind == "bare")
        src = dump
        if args.outdir is not None:
            src = outdir / dump.name
            if not src.exists() or src.stat().st_size != dump.stat().st_size:
                shutil.copyfile(dump, src)
        sources[kind] = src
    jq = None if args.no_jq else shutil.which("jq")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = outdir / "out"
    compare_env = None
    if args.compare is not None:
        compare_env = {**os.environ, "PYTHONPATH": str(args.compare.resolve()) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    if not args.no_bytecode:
        # As `pip install` does: jmsctl's modules compiled once into __pycache__, so that each timed
        # start reads bytecode. Without it, an editable checkout run under PYTHONDONTWRITEBYTECODE=1
        # (this machine's shells) compiles its ~75 modules again at every start: +0.1 s CPU a run.
        for checkout in (ROOT, args.compare):
            if checkout is not None:
                compileall.compile_dir(str(Path(checkout).resolve() / "jmsctl"), quiet=1)
        print("jmsctl's bytecode compiled first, as pip install does (--no-bytecode: not)")
    rows: list[Row] = []
    dumps = ", ".join(f"{kind} {src.stat().st_size / 1e6:,.0f} MB ({src})" for kind, src in sources.items())
    print(f"dumps: {args.messages:,} messages, {dumps}; cores: {os.cpu_count()}; "
          f"jmsctl: filter SEL FILE [--count] {args.jmsctl_args}".rstrip() + f"; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")  # fmt: skip
    for kind, shape in ((kind, shape) for kind in sources for shape in args.shapes):
        src = sources[kind]
        selector, jq_cond, (hfields, pfields, cond), jq_plain = SHAPES[shape]
        jq_plain = plain_jq(jq_plain, kind)
        floor_src = outdir / "floor.py"
        floor_src.write_text(FLOOR.format(
            headers="\n".join(f"    {f}: Union[str, int, bool, None] = None" for f in hfields) or "    pass",
            props="\n".join(f"    {f}: V = None" for f in pfields) or "    pass",
            cond=cond,
        ))  # fmt: skip
        cmd = [sys.executable, "-m", "jmsctl", "filter", selector, str(src), *args.jmsctl_args.split()]
        best_wall = best_cpu = floor_cpu = write_wall = write_cpu = cmp_wall = cmp_cpu = float("inf")
        counts: set[int] = set()
        for _ in range(args.repeat):
            _, cpu = timed([sys.executable, str(floor_src)], src, out, ok=(0,))
            floor_cpu = min(floor_cpu, cpu)
            counts.add(_count(out))
            wall, cpu = timed([*cmd, "--count"], None, out, env)
            best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
            counts.add(_count(out))
            if compare_env is not None:
                wall, cpu = timed([*cmd, "--count"], None, out, compare_env)
                cmp_wall, cmp_cpu = min(cmp_wall, wall), min(cmp_cpu, cpu)
                counts.add(_count(out))
            if not args.no_write:
                wall, cpu = timed(cmd, None, out, env)
                write_wall, write_cpu = min(write_wall, wall), min(write_cpu, cpu)
                counts.add(_lines(out))
        n = args.messages
        r = Row(kind, shape, selector, -1, best_wall, best_cpu / n * 1e6, floor_cpu / n * 1e6, best_cpu / floor_cpu, jmsctl_cpu_s=best_cpu)
        if not args.no_write:
            r.write_s, r.write_cpu_us = write_wall, write_cpu / n * 1e6
        if compare_env is not None:
            r.compare_s, r.compare_cpu_us, r.vs_compare_cpu = cmp_wall, cmp_cpu / n * 1e6, best_cpu / cmp_cpu
        if jq is not None:
            jq_count = jq_write = jq3 = jq_count_cpu = float("inf")
            program = f"select({jq_plain})"
            for _ in range(args.jq_repeat):
                # the program a person writes, counted as a person counts: | wc -l
                wall, cpu = timed(["sh", "-c", f"{shlex.quote(jq)} -c {shlex.quote(program)} {shlex.quote(str(src))} | wc -l"], None, out)
                jq_count, jq_count_cpu = min(jq_count, wall), min(jq_count_cpu, cpu)
                counts.add(_count(out))
                if not args.no_write:
                    wall, _ = timed([jq, "-c", program, str(src)], None, out)
                    jq_write = min(jq_write, wall)
                    counts.add(_lines(out))
                if not args.no_jq_3vl:
                    wall, _ = timed([jq, "-c", f"{JQ_PRELUDE} select({jq_cond} == true)", str(src)], None, out)
                    jq3 = min(jq3, wall)
                    counts.add(_lines(out))
            r.jq_count_s, r.vs_jq_count = jq_count, jq_count / best_wall
            r.jq_cpu_us, r.cpu_vs_jq, r.jq_cpu_s = jq_count_cpu / n * 1e6, jq_count_cpu / best_cpu, jq_count_cpu
            if not args.no_write:
                r.jq_write_s, r.vs_jq_write = jq_write, jq_write / write_wall
            if not args.no_jq_3vl:
                r.jq3_s, r.vs_jq3 = jq3, jq3 / best_wall
        out.unlink(missing_ok=True)
        if len(counts) != 1:
            print(f"{kind} {shape}: the tools disagree on the count selected: {sorted(counts)}", file=sys.stderr)
            return 1
        r.selected = counts.pop()
        rows.append(r)
        print(f"  {kind} {shape}: {r.selected:,} selected, jmsctl --count {r.jmsctl_s:.2f} s" + (f", jq | wc -l {r.jq_count_s:.2f} s ({r.vs_jq_count:.1f}x)" if r.jq_count_s else ""),
              f"(load {os.getloadavg()[0]:.2f})", file=sys.stderr, flush=True)  # fmt: skip
    print()
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print("| dump | selector | selected | --count | jq \\| wc -l | vs jq | > file | jq > file | vs jq | jq 3VL | vs jq 3VL | CPU/msg jmsctl | CPU/msg floor | vs floor | jq CPU / jmsctl CPU |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")

    def sec(x: float | None) -> str:
        return "-" if x is None else f"{x:.2f} s"

    def times(x: float | None) -> str:
        return "-" if x is None else f"{x:.1f}x"

    for r in rows:
        print(f"| {r.dump} | `{r.selector}` | {r.selected:,} | {sec(r.jmsctl_s)} | {sec(r.jq_count_s)} | {times(r.vs_jq_count)} | {sec(r.write_s)} | {sec(r.jq_write_s)} | "
              f"{times(r.vs_jq_write)} | {sec(r.jq3_s)} | {times(r.vs_jq3)} | {r.jmsctl_cpu_us:.2f} us | {r.floor_cpu_us:.2f} us | {r.vs_floor:.2f}x | "
              f"{times(r.cpu_vs_jq)} |")  # fmt: skip
    if jq is not None:
        print()
        print("What `time` reports for `jmsctl filter SEL FILE --count` (default --jobs) and `jq -c 'select(...)' FILE | wc -l`, "
              "whole processes (the fastest run of each); targets (issue 36): jq/jmsctl >= 8x in CPU, >= 10x in wall with both cores free")
        print()
        print("| dump | selector | jmsctl wall | jmsctl CPU | jq wall | jq CPU | wall ratio | CPU ratio | targets |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
        for r in rows:
            verdict = "PASS" if (r.cpu_vs_jq or 0) >= 8 and (r.vs_jq_count or 0) >= 10 else "MISS"
            print(f"| {r.dump} | `{r.selector}` | {sec(r.jmsctl_s)} | {sec(r.jmsctl_cpu_s)} | {sec(r.jq_count_s)} | {sec(r.jq_cpu_s)} | "
                  f"{times(r.vs_jq_count)} | {times(r.cpu_vs_jq)} | {verdict} |")  # fmt: skip
    if compare_env is not None:
        print()
        print(f"--compare {args.compare}: filter --count, CPU per message, this checkout against that one (interleaved)")
        print()
        print("| dump | selector | this checkout | --compare | ratio |")
        print("| --- | --- | ---: | ---: | ---: |")
        for r in rows:
            print(f"| {r.dump} | `{r.selector}` | {r.jmsctl_cpu_us:.2f} us ({r.jmsctl_s:.2f} s) | {r.compare_cpu_us:.2f} us ({r.compare_s:.2f} s) | {r.vs_compare_cpu:.2f} |")
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How fast ``jmsctl scan`` reads a large Java tree: 10,000 files by default, one in ten with JMS
calls, annotations and constants (some selectors wrong), the rest ordinary classes without a
trigger word (skipped unparsed). Prints the scan's wall time (the whole command, start-up
included, best of --repeat runs) next to two baselines timed in the same run on the same tree:
reading every file once in Python (the I/O floor) and ``grep -rlE`` for the trigger words.

    python bench/scan_bench.py            # 10,000 files in a temporary directory
    python bench/scan_bench.py --files 50000 --git --repeat 5

Memory (issue 23): ``--big 5 50`` generates a Java source, a .properties file and an XML file of
each size in MB, each one long string of data (``--data prose``, or ``base64`` of random bytes) beside one selector, and prints each scan's wall and
CPU seconds and peak RSS (``ru_maxrss`` of that process alone), next to the same file with a short
literal. ``--tree DIR`` times a tree of your own (the Apache ActiveMQ sources: ``git archive`` of
apache/activemq); ``--baseline-root CHECKOUT`` runs every measurement a second time with another
checkout of jmsctl on PYTHONPATH (the commit before a change), in the same run, interleaved:

    python bench/scan_bench.py --big 5 50 --tree /work/data/activemq-src --baseline-root /tmp/jmsctl-before --repeat 3
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAIN = """package com.example.p{pkg};

import java.util.List;
import java.util.ArrayList;

public class C{n} {{
    private final List<String> items = new ArrayList<>();

    public int size() {{ return items.size(); }}

    public void add(String item) {{
        if (item == null || item.isEmpty()) {{
            throw new IllegalArgumentException("item " + {n});
        }}
        items.add(item.trim());
    }}
{methods}
}}
"""
METHOD = """
    public String m{k}(int x) {{
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < x; i++) {{ b.append(i).append(','); }}
        return b.toString() + "{k}";
    }}
"""
JMS = """package com.example.jms{pkg};

import jakarta.jms.*;

public class Consumer{n} {{
    private static final String SELECTOR = "region = 'EU' AND " +
        "priority > {n}";

    @JmsListener(destination = "q{n}", selector = "JMSType = 'car' AND weight {op} 5")
    public void onMessage(Message m) {{}}

    public void consume(Session session, Queue queue, String color) throws JMSException {{
        MessageConsumer a = session.createConsumer(queue, SELECTOR);
        MessageConsumer b = session.createConsumer(queue, "color = '" + color + "' AND size > 10");
        MessageConsumer c = session.createDurableSubscriber(null, "sub{n}", "JMSPriority > 4", false);
{methods}
    }}
}}
"""


def generate(root: Path, count: int, seed: int) -> int:
    """Write the tree; returns the number of files with selectors."""
    rng = random.Random(seed)
    jms = 0
    for n in range(count):
        pkg = n // 200
        d = root / "src" / "main" / "java" / "com" / "example" / f"p{pkg}"
        d.mkdir(parents=True, exist_ok=True)
        methods = "".join(METHOD.format(k=k) for k in range(rng.randint(2, 12)))
        if n % 10 == 0:
            jms += 1
            text = JMS.format(pkg=pkg, n=n, op=rng.choice(["=", "NOT=", "<>", "=="]), methods="")
        else:
            text = PLAIN.format(pkg=pkg, n=n, methods=methods)
        (d / f"C{n}.java").write_text(text)
    return jms


def timed(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    best = float("inf")
    last = None
    for _ in range(repeat):
        start = time.perf_counter()
        last = subprocess.run(cmd, capture_output=True, env=env)
        best = min(best, time.perf_counter() - start)
    assert last is not None
    return best, last


def read_all(root: Path) -> None:
    for dirpath, _, names in os.walk(root):
        for name in names:
            with open(os.path.join(dirpath, name), "rb") as f:
                f.read()


def big_sources(directory: Path, size: int, kind: str = "prose") -> list[Path]:
    """A Java source, a .properties file and an XML file, each a string of ``size`` characters of
    data (no selector in it) beside one selector: prose, or base64 of random bytes (seeded)."""
    if kind == "base64":
        data = base64.b64encode(random.Random(size).randbytes(size * 3 // 4 + 3)).decode()[:size]
    else:
        data = ("lorem ipsum, dolor sit amet 0123456789 " * (size // 39 + 1))[:size]
    directory.mkdir(parents=True, exist_ok=True)
    files = {
        "Generated.java": 'import jakarta.jms.*;\nclass Generated {\n  static final String DATA = "' + data + '";\n'
                          '  void f(Session s, Queue q) throws Exception { s.createConsumer(q, "region = \'EU\'"); }\n}\n',
        "generated.properties": "app.jms.selector=region = 'EU'\ndata=" + data + "\n",
        "generated.xml": '<beans><bean><property name="messageSelector" value="region = \'EU\'"/></bean>\n<data>' + data + "</data></beans>\n",
    }
    out = []
    for name, text in files.items():
        (directory / name).write_text(text)
        out.append(directory / name)
    return out


_LAUNCH = """import os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[1:])
_, status, usage = os.wait4(proc.pid, 0)
sys.stderr.write(f"{time.perf_counter() - start} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss / 1024} {os.waitstatus_to_exitcode(status)}\\n")
"""
"""Runs the measured command from a small process: a child's peak RSS counts its parent's resident
size at the fork, and this benchmark holds the generated sources."""


def measured(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float, bytes]:
    """Wall seconds, CPU seconds and peak RSS in MB of one command (wait4 in a small launcher), and
    its output. ``cwd``: the checkout measured (``python -m`` puts the working directory first on sys.path)."""
    r = subprocess.run([sys.executable, "-c", _LAUNCH, *cmd], capture_output=True, env=env, cwd=cwd)
    wall, cpu, rss, code = r.stderr.decode().strip().splitlines()[-1].split()
    if int(code) not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({code})")
    return float(wall), float(cpu), float(rss), r.stdout


def memory(args: argparse.Namespace, work: Path) -> None:
    """--big and --tree: wall, CPU and peak RSS of each scan, best of --repeat, with the baseline checkout."""
    roots = {"this checkout": ROOT} | ({"baseline": Path(args.baseline_root).resolve()} if args.baseline_root else {})
    targets: list[tuple[str, Path]] = []
    for mb in args.big or []:
        targets += [(f"{p.name}, {mb} MB {args.data}", p) for p in big_sources(work / f"big-{mb}", mb * 1_000_000, args.data)]
        targets += [(f"{p.name}, short literal", p) for p in big_sources(work / f"small-{mb}", 100, args.data)] if mb == args.big[0] else []
    if args.tree:
        targets.append((f"tree {args.tree}", Path(args.tree).resolve()))
    print(f"load average {os.getloadavg()[0]:.1f}; best of {args.repeat} (wall, and CPU and RSS of that run)")
    print(f"{'what':44} {'jmsctl':14} {'wall s':>8} {'CPU s':>7} {'peak RSS MB':>12}  selectors")
    for label, path in targets:
        for who, root in roots.items():
            env = {**os.environ, "PYTHONPATH": str(root), "NO_COLOR": "1"}
            runs = [measured([sys.executable, "-m", "jmsctl", "scan", "--format", "json", str(path)], env, root) for _ in range(args.repeat)]
            wall, cpu, rss, out = min(runs, key=lambda r: r[0])
            selectors = json.loads(out)["summary"]["selectors"]
            print(f"{label:44} {who:14} {wall:8.2f} {cpu:7.2f} {rss:12.1f}  {selectors}", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--git", action="store_true", help="make the tree a git repository (scan lists files with git ls-files)")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--big", type=int, nargs="+", metavar="MB", help="memory: sources with one literal of MB megabytes of data")
    ap.add_argument("--data", choices=("prose", "base64"), default="prose", help="what the --big literals hold (default prose)")
    ap.add_argument("--tree", help="memory and time: scan this directory")
    ap.add_argument("--baseline-root", help="another jmsctl checkout, measured the same way in the same run")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="scan-bench-"))
    if args.big or args.tree:
        try:
            memory(args, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    try:
        tree = work / "tree"
        t0 = time.perf_counter()
        jms = generate(tree, args.files, args.seed)
        print(f"generated {args.files:,} Java files ({jms:,} with selectors) in {time.perf_counter() - t0:.1f} s: {tree}")
        if args.git:
            subprocess.run(["git", "init", "-q", str(tree)], check=True)
            subprocess.run(["git", "-C", str(tree), "add", "-A"], check=True)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
        scan_s, r = timed([sys.executable, "-m", "jmsctl", "scan", "--format", "json", str(tree)], args.repeat, env)
        if r.returncode not in (0, 1):
            sys.exit(f"scan failed ({r.returncode}): {r.stderr.decode()[:2000]}")
        summary = json.loads(r.stdout)["summary"]
        floor = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            read_all(tree)
            floor = min(floor, time.perf_counter() - start)
        print(f"jmsctl scan: {scan_s:.2f} s (best of {args.repeat}) for {summary['files']:,} files, "
              f"{summary['selectors']:,} selectors ({summary['invalid']:,} invalid, {summary['built_at_run_time']:,} built at run time)")
        print(f"read every file in Python: {floor:.2f} s  -> scan / read = {scan_s / floor:.1f}x")
        if shutil.which("grep"):
            grep_s, _ = timed(["grep", "-rlE", "createConsumer|[Ss]elector|Selected", str(tree)], args.repeat)
            print(f"grep -rlE for the trigger words: {grep_s:.2f} s  -> scan / grep = {scan_s / grep_s:.1f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

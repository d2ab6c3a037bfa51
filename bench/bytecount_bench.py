"""The compiled byte scans of the fast filter (jmsctl/filter/_bytecount.c) against what runs without them,
CPU nanoseconds per line in one process (``time.process_time``, the fastest of ``--repeat``):

    python bench/bytecount_bench.py                      # 100,000 messages of shapes_bench.py's two dumps
    python bench/bytecount_bench.py --messages 20000     # quicker

- **key count**: one path key's occurrences in each 512 KB chunk (``filter.keycount``: what the column
  path counts to prove the key once on each line), compiled, against the ``re`` superset counted without
  the compiled part (``plan.key_superset``) and ``bytes.count``;
- **prefilter scan**: the lines of each chunk that the prefilter keeps (``filter.linehits`` on the uncut
  chunk, compiled) against the chunk's split, its blank-line count and ``plan.line_scanner``, for three
  selectors of the shapes bench;
- **chunk decoded whole**: msgspec's ``decode_lines`` of each chunk (``columnpath.process_uncut``, where
  ``brace_lines`` shows each line to be one value) against the chunk's split and a ``decode`` a line;
- **Engine.process**: the whole fast path (``--count``, one process) for the same selectors,
  ``weight > 100`` and ``price * weight > 1000000``, with the compiled part and with it switched off (as
  without a C compiler).

The dumps are shapes_bench.py's (its generator, seed and shapes), written to --workdir if missing.
Exits 0; it prints a table. Without the compiled part it says so and times only the Python side.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from filter_costs import cpu_ns_per_line as per_line
from shapes_bench import generate

from jmsctl import selector as sel
from jmsctl.filter import keycount, linehits, native
from jmsctl.filter.batch import chunk_lines, count_records
from jmsctl.filter.fast import Engine
from jmsctl.filter.plan import FilterPlan, key_superset, line_scanner

CHUNK = 512 << 10
SCANNED = ("JMSType = 'car' AND color = 'blue' AND weight > 2500", "region LIKE 'A%'", "color IN ('red', 'blue')")
WHOLE = (*SCANNED, "weight > 100", "price * weight > 1000000")


def chunks_of(path: Path) -> list[bytes]:
    data = path.read_bytes()
    out, at = [], 0
    while at < len(data):
        end = data.rfind(b"\n", at, at + CHUNK) + 1
        if end <= at:
            end = len(data)
        out.append(data[at:end])
        at = end
    return out


def switched_off() -> Callable[[], None]:
    """The compiled part out of the filter's reach, as without a C compiler; returns the undo."""
    saved = native.lib
    native.lib = None

    def undo() -> None:
        native.lib = saved

    return undo


def measure(kind: str, chunks: list[bytes], repeat: int, compiled: bool) -> list[tuple[str, str, str, float, float | None]]:
    """The rows of one dump: (dump, what, the baseline's name, its ns a line, the compiled part's or None)."""
    rows: list[tuple[str, str, str, float, float | None]] = []
    n = sum(c.count(b"\n") for c in chunks)
    for key in (b'"price"', b'"weight"'):
        (count,), _ = keycount.counters((key,))
        superset = re.compile(re.escape(key_superset(key))).findall
        c_ns = per_line(lambda count=count: [count(c) for c in chunks], n, repeat) if compiled else None
        re_ns = per_line(lambda superset=superset: [len(superset(c)) for c in chunks], n, repeat)
        bc_ns = per_line(lambda key=key: [c.count(key) for c in chunks], n, repeat)
        rows.append((kind, f"key count {key.decode()}", "re superset", re_ns, c_ns))
        rows.append((kind, f"key count {key.decode()}", "bytes.count", bc_ns, c_ns))
    for text in SCANNED:
        groups = FilterPlan.of(sel.compile(text).ast).must_contain
        usual, fast = line_scanner(groups), linehits.hits_scanner(groups)
        assert usual is not None

        def split_scan(usual: Callable[..., list[int]] = usual) -> None:
            for c in chunks:
                lines = chunk_lines(c)
                count_records(lines)
                found = usual(c, lines)
                list(map(lines.__getitem__, found))

        c_ns = per_line(lambda fast=fast: [fast(c) for c in chunks], n, repeat) if fast is not None else None
        rows.append((kind, f"prefilter scan `{text}`", "split + line_scanner", per_line(split_scan, n, repeat), c_ns))
    part = Engine(sel.compile("price * weight > 1000000"), exact=False).partial
    assert part is not None

    def cut() -> None:
        for c in chunks:
            list(map(part.decode, chunk_lines(c)))

    def whole() -> None:
        for c in chunks:
            if native.lib is not None and native.lib.brace_lines(c) > 0:
                part.decode_lines(c)

    c_ns = per_line(whole, n, repeat) if compiled else None
    rows.append((kind, "chunk decoded (`price`, `weight`)", "split + decode a line", per_line(cut, n, repeat), c_ns))
    for text in WHOLE:
        def run(text: str = text) -> None:
            e = Engine(sel.compile(text), exact=False, discard=True)
            for c in chunks:
                e.process(c)

        c_ns = per_line(run, n, repeat) if compiled else None
        undo = switched_off()
        try:
            py_ns = per_line(run, n, repeat)
        finally:
            undo()
        rows.append((kind, f"Engine.process `{text}`", "compiled part off", py_ns, c_ns))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--workdir", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "jmsctl-bytecount-bench")
    args = ap.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    compiled = native.lib is not None
    print(f"compiled part: {'built' if compiled else 'NOT built (no C compiler or no Python.h at install): the Python side only'}")
    rows: list[tuple[str, str, str, float, float | None]] = []
    for kind in ("typed", "bare"):
        dump = args.workdir / f"{kind}-{args.messages}.ndjson"
        if not dump.exists():
            generate(dump, args.messages, bare=kind == "bare")
        rows += measure(kind, chunks_of(dump), args.repeat, compiled)
    print(f"\n{args.messages:,} messages a dump, CPU ns a line, fastest of {args.repeat}\n")
    print("| dump | what | baseline | baseline ns | compiled ns | ratio |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for kind, what, base, py_ns, c_ns in rows:
        c_text = "-" if c_ns is None else f"{c_ns:.0f}"
        ratio = "-" if c_ns is None else f"{c_ns / py_ns:.2f}"
        print(f"| {kind} | {what} | {base} | {py_ns:.0f} | {c_text} | {ratio} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

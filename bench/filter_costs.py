"""Where the fast filter's time goes: CPU nanoseconds per line of each stage, in one process.

    python bench/filter_costs.py                   # the jq_bench dump of 200,000 messages (generated if missing)
    python bench/filter_costs.py --messages 50000  # quicker

Each stage runs over the same lines of the jq_bench dump (``bench/jq_bench.py``'s generator) and is
timed in CPU time of this process (``time.process_time``, best of 5), which moves less than wall time
on a shared machine. The stages, each including the ones above it where it says so:

- ``split``: the chunk cut into lines (``bytes.split``);
- ``orjson.loads``: what the parse floor does per line (a dict, no validation);
- ``validating decode``: ``fastschema.decode`` (msgspec, the whole record checked against FORMAT.md);
- ``+ unique-keys proof``: the same plus ``fastschema.keys_unique`` (the colon count against the
  members kept; the loader rejects repeated keys): the cost of agreeing with that rejection;
- ``plain judge``: ``loader.judge_line`` (orjson, the duplicate-key check, decode_message), what every
  line cost before the fast path;
- ``Engine.process``: the whole fast path for each jq_bench selector (``exact=False`` as ``jmsctl
  filter`` runs without ``--stats``: the text prefilter skips lines unparsed), then with ``--stats``
  (every line classified) and with ``--validate-all`` (every line parsed and validated).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from jq_bench import SELECTORS, generate

from jmsctl import selector as sel
from jmsctl.filter import schema as fastschema
from jmsctl.filter.fast import Engine
from jmsctl.messages.loader import judge_line


def cpu_ns_per_line(run: Callable[[], object], lines: int, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        run()
        best = min(best, time.process_time() - t0)
    return best / lines * 1e9


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--messages", type=int, default=200_000)
    ap.add_argument("--workdir", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "jmsctl-jq-bench")
    args = ap.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    dump = args.workdir / f"dump-{args.messages}.ndjson"
    if not dump.exists():
        generate(dump, args.messages)
    data = dump.read_bytes()
    lines = data.split(b"\n")[:-1]
    n = len(lines)
    chunks: list[bytes] = []
    pos = 0
    while pos < len(data):  # 2 MB chunks of whole lines, as --jobs blocks
        end = data.find(b"\n", pos + (2 << 20))
        end = len(data) if end == -1 else end + 1
        chunks.append(data[pos:end])
        pos = end

    def each(fn: Callable[[bytes], object]) -> Callable[[], None]:
        def run() -> None:
            for raw in lines:
                fn(raw)

        return run

    made = fastschema.TYPED_MADE

    def decode(raw: bytes) -> object:
        made.clear()
        return fastschema.decode(raw)

    def decode_and_prove(raw: bytes) -> bool:
        made.clear()
        return fastschema.keys_unique(raw, fastschema.decode(raw), len(made))

    rows: list[tuple[str, float]] = [
        ("split", cpu_ns_per_line(lambda: [c.split(b"\n") for c in chunks], n)),
        ("orjson.loads (the parse floor's work)", cpu_ns_per_line(each(orjson.loads), n)),
        ("validating decode (fastschema.decode)", cpu_ns_per_line(each(decode), n)),
        ("+ unique-keys proof (keys_unique)", cpu_ns_per_line(each(decode_and_prove), n)),
        ("plain judge (loader.judge_line)", cpu_ns_per_line(each(lambda raw: judge_line("f", 1, raw)), n)),
    ]
    for key, text in SELECTORS.items():
        compiled = sel.compile(text)
        for label, options in (("", {"exact": False}), (" --stats", {"exact": True}), (" --validate-all", {"exact": False, "validate_all": True})):
            engine = Engine(compiled, **options)  # type: ignore[arg-type]
            rows.append((f"Engine.process, {key}{label}", cpu_ns_per_line(lambda e=engine: [e.process(c) for c in chunks], n)))  # type: ignore[misc]
    print(f"{n:,} lines of {dump} ({len(data) / n:.0f} bytes each); CPU ns per line, best of 5; load average {os.getloadavg()[0]:.2f}")
    for label, ns in rows:
        print(f"  {label:<48} {ns:8.0f} ns   {1e9 / ns / 1e3:8.0f} k lines/s per core")
    return 0


if __name__ == "__main__":
    sys.exit(main())

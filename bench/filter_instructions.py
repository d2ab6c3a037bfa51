"""Instructions per line of the fast filter (``Engine.process`` over a file's chunks), counted by
callgrind: a figure the machine's load does not move, for comparing two checkouts on a busy machine.

    python bench/filter_instructions.py "price * weight > 1000000" DUMP           # this checkout
    python bench/filter_instructions.py "weight > 100" DUMP --compare ../other    # and another one

Each count is two runs under ``valgrind --tool=callgrind`` (about 50x slower than a plain run: use a
dump of some 50,000 lines, e.g. ``head -50000`` of bench/shapes_bench.py's): the file read and cut
into 2 MiB chunks as the workers cut it, once without and once with processing them (``--count``'s
options); the difference over the number of lines is printed. Needs ``apt-get install valgrind``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import sys
from jmsctl import selector as sel
from jmsctl.filter.fast import Engine
s = sel.compile(sys.argv[1])
data = open(sys.argv[2], "rb").read()
e = Engine(s, exact=False, discard=True)
chunks, i = [], 0
while i < len(data):
    j = data.find(b"\\n", i + (2 << 20))
    j = len(data) if j == -1 else j + 1
    chunks.append(data[i:j])
    i = j
if sys.argv[3] == "run":
    print(sum(e.process(c).selected for c in chunks))
"""


def instructions(checkout: Path, selector: str, dump: Path, run: bool) -> int:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", CHILD, selector, str(dump.resolve()),
                        "run" if run else "read"], env=env, capture_output=True, text=True, check=True, cwd="/")  # not a checkout: -c puts the cwd first on sys.path
    found = re.search(r"Collected : (\d+)", r.stderr)
    if found is None:
        raise SystemExit(f"no callgrind total in:\n{r.stderr[-2000:]}")
    return int(found.group(1))


def per_line(checkout: Path, selector: str, dump: Path) -> float:
    with dump.open("rb") as f:
        lines = sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))
    return (instructions(checkout, selector, dump, True) - instructions(checkout, selector, dump, False)) / max(lines, 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("selector")
    ap.add_argument("dump", type=Path)
    ap.add_argument("--compare", type=Path, help="another checkout, counted the same way")
    args = ap.parse_args(argv)
    mine = per_line(ROOT, args.selector, args.dump)
    print(f"{ROOT}: {mine:,.0f} instructions a line")
    if args.compare is not None:
        theirs = per_line(args.compare.resolve(), args.selector, args.dump)
        print(f"{args.compare}: {theirs:,.0f} instructions a line ({mine / theirs:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Start-up of the command line: whole processes timed by hyperfine, with each command's import profile.

    python bench/startup_bench.py              # 20 runs of each command (about 30 s)
    python bench/startup_bench.py --runs 50    # steadier medians
    python bench/startup_bench.py --json       # the figures as JSON
    python bench/startup_bench.py --compare ../main   # also another checkout, measured in the same run

Each command is run as a person types it: the ``jmsctl`` console script that ``pip install`` writes for
the checkout's entry point (pyproject.toml), bytecode compiled first (as pip leaves an install). Reported: median
and mean wall (hyperfine), mean CPU (user + sys, which the machine's load moves less than the wall), the
target and PASS/MISS, then the ten costliest imports (``python -X importtime``, cumulative) of each and
which heavy modules (z3, pyspark, JPype, msgspec, lark, rich) the command loaded. The load average is
printed before and after: on a busy machine the wall figures are not the quiet machine's. Always exits 0
(a report, not a test); tests/test_startup_imports.py keeps the heavy modules out without timing.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "orders.ndjson"
HEAVY = ("z3", "pyspark", "jpype", "msgspec", "lark", "rich")

# name, arguments after jmsctl, extra environment, target wall (ms) on a quiet 2-core machine
COMMANDS: list[tuple[str, list[str], dict[str, str], float]] = [
    ("jmsctl --version", ["--version"], {}, 120),
    ('jmsctl check "a = 1"', ["check", "a = 1"], {}, 120),
    ("Tab after jmsctl filter --st", [], {"_JMSCTL_COMPLETE": "complete_bash", "COMP_WORDS": "jmsctl filter --st", "COMP_CWORD": "2"}, 120),
    ("jmsctl filter \"JMSType = 'car'\" orders.ndjson --count (3,000)", ["filter", "JMSType = 'car'", str(SAMPLE), "--count"], {}, 200),
]


def jmsctl_argv(root: Path, directory: Path) -> list[str]:
    """The ``jmsctl`` console script as ``pip install`` writes it for ROOT's pyproject.toml entry point,
    written into ``directory`` (the one installed beside the interpreter may name another checkout's entry
    point: jmsctl.cli.entry since issue 36, jmsctl.cli.app before); ``python -m jmsctl`` without one."""
    found = re.search(r'^jmsctl = "([\w.]+):(\w+)"', (root / "pyproject.toml").read_text(encoding="utf-8"), re.M)
    if found is None:
        return [sys.executable, "-m", "jmsctl"]
    module, func = found.groups()
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "jmsctl"
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom {module} import {func}\nif __name__ == '__main__':\n"
                      f"    sys.argv[0] = sys.argv[0].removesuffix('.exe')\n    sys.exit({func}())\n")
    script.chmod(0o755)
    return [str(script)]


def environment(root: Path = ROOT) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)  # this checkout's jmsctl, whatever the console script was installed from
    return env


def hyperfine(argv: list[str], extra: dict[str, str], runs: int, warmup: int, root: Path = ROOT) -> dict[str, float]:
    """One command under hyperfine (no shell; ``env`` sets the completion variables): seconds."""
    command = " ".join(_quote(a) for a in (["env", *(f"{k}={v}" for k, v in extra.items())] if extra else []) + argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "h.json"
        done = subprocess.run(["hyperfine", "-N", "--style", "none", "--warmup", str(warmup), "--runs", str(runs), "--export-json", str(out),
                               command], env=environment(root), capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            raise SystemExit(f"startup_bench: hyperfine failed on {command}:\n{done.stderr}")
        result = json.loads(out.read_text())["results"][0]
    return {"median": result["median"], "mean": result["mean"], "min": result["min"], "cpu": result["user"] + result["system"]}


def _quote(arg: str) -> str:
    """hyperfine -N splits the command line as a shell would (quotes, no expansion)."""
    return arg if arg and all(c.isalnum() or c in "-_./=:," for c in arg) else "'" + arg.replace("'", "'\\''") + "'"


def import_profile(argv: list[str], extra: dict[str, str]) -> dict[str, object]:
    """``-X importtime`` of one run: total, the costliest top-level imports and the heavy modules."""
    env = {**environment(), **extra, "PYTHONPROFILEIMPORTTIME": "1"}
    r = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=ROOT)
    rows: list[tuple[str, int, int]] = []  # name, depth, cumulative us
    for line in r.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        _, cumulative, name = line.split(":", 1)[1].split("|")
        depth = (len(name) - len(name.lstrip())) // 2
        rows.append((name.strip(), depth, int(cumulative)))
    top = sorted((r for r in rows if r[1] <= 1), key=lambda r: -r[2])[:10]
    heavy = sorted({name.split(".")[0] for name, _, _ in rows if name.split(".")[0] in HEAVY})
    return {"total_ms": sum(r[2] for r in rows if r[1] == 0) / 1000, "top": [(n, c / 1000) for n, _, c in top], "heavy": heavy}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--compare", metavar="CHECKOUT", help="another checkout of jmsctl, measured the same way in the same run")
    args = ap.parse_args(argv)
    if shutil.which("hyperfine") is None:
        print("startup_bench: hyperfine is not installed (Debian: apt-get install hyperfine)", file=sys.stderr)
        return 2
    other = Path(args.compare).resolve() if args.compare else None
    for root in (ROOT, other) if other else (ROOT,):
        compileall.compile_dir(str(root / "jmsctl"), quiet=1)
    scripts = Path(tempfile.mkdtemp(prefix="jmsctl-startup-"))
    base = jmsctl_argv(ROOT, scripts / "this")
    theirs_argv = jmsctl_argv(other, scripts / "other") if other else base
    load_before = os.getloadavg()
    results = []
    baseline = hyperfine([sys.executable, "-c", "pass"], {}, args.runs, args.warmup)
    for name, rest, extra, target in COMMANDS:
        timing = hyperfine(base + rest, extra, args.runs, args.warmup)
        profile = import_profile(base + rest, extra)
        results.append({"command": name, "target_ms": target, **{k: v * 1000 for k, v in timing.items()}, "imports": profile,
                        "verdict": "PASS" if timing["median"] * 1000 <= target else "MISS"})
        if other is not None:
            theirs = hyperfine(theirs_argv + rest, extra, args.runs, args.warmup, other)
            results[-1]["compare"] = {k: v * 1000 for k, v in theirs.items()}
    load_after = os.getloadavg()
    shutil.rmtree(scripts, ignore_errors=True)
    doc = {"python_pass_ms": {k: v * 1000 for k, v in baseline.items()}, "load_before": load_before, "load_after": load_after,
           "cpus": os.cpu_count(), "runs": args.runs, "results": results}
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, after {load_after[0]:.2f} "
          f"{load_after[1]:.2f} {load_after[2]:.2f} ({os.cpu_count()} CPUs); {args.runs} runs each; {' '.join(base)}")
    print(f"python -c pass: median {baseline['median'] * 1000:.1f} ms, CPU {baseline['cpu'] * 1000:.1f} ms")
    print(f"{'command':64} {'median':>8} {'mean':>8} {'CPU':>8} {'target':>7}")
    for r in results:
        print(f"{r['command']:64} {r['median']:6.1f}ms {r['mean']:6.1f}ms {r['cpu']:6.1f}ms {r['target_ms']:5.0f}ms {r['verdict']}")
        if "compare" in r:
            c = r["compare"]
            print(f"{'  ' + str(other):64} {c['median']:6.1f}ms {c['mean']:6.1f}ms {c['cpu']:6.1f}ms")
    for r in results:
        imports = r["imports"]
        print(f"\n{r['command']}: imports {imports['total_ms']:.1f} ms; heavy modules loaded: {', '.join(imports['heavy']) or 'none'}")
        for module, ms in imports["top"]:
            print(f"  {ms:7.1f} ms  {module}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

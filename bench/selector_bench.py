#!/usr/bin/env python3
"""Selector throughput benchmark: evaluations/s and cold parses/s, against baselines and the issue's targets.

    python bench/selector_bench.py                 # about a minute, readable table
    python bench/selector_bench.py --seconds 0.5   # quicker, noisier
    python bench/selector_bench.py --json          # machine-readable results

Every measurement runs a calibrated loop (time.perf_counter; the batch size doubles until one
batch takes a measurable time, then batches repeat until the budget of a run is spent) three
times and keeps the best run. ``--seconds`` is the budget of one measurement, split over the
three runs. See bench/README.md for what each number means.
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib
import itertools
import json
import platform
import string
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

try:
    import jmsctl.selector  # noqa: F401
except ImportError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jmsctl.selector as selector
from jmsctl.messages.decode import decode_message
from jmsctl.values import STRING

# ----- what is measured ------------------------------------------------------------------------

JAVADOC = "JMSType = 'car' AND color = 'blue' AND weight > 2500"
POOL_SIZE = 1000  # distinct, equally expensive selector texts per cold-parse measurement
TARGET_EVALS = 1_000_000
TARGET_PARSES = 10_000
ARTEMIS_EVALS = 19_000_000
ARTEMIS_PARSES = 91_000
ARTEMIS_LINE = "Artemis (Java) on this machine: ~19 M evaluations/s, ~91 k parses/s (from the issue)"

# The javadoc example's two messages. The non-matching one fails on the *last* term, so the
# evaluator has to look at all three properties (the slowest way to say FALSE).
MATCHING = {"headers": {"JMSType": "car"}, "properties": {"color": "blue", "weight": 2600}}
NON_MATCHING = {"headers": {"JMSType": "car"}, "properties": {"color": "blue", "weight": 2400}}

# The extra rows read these two messages; again every non-match is decided by the last thing tested.
BIG = 10_000
EXTRA_MATCHING = {
    "headers": {"JMSType": "car"},
    "properties": {"phone": "12993", "country": "SE", "weight": 2600, "ratio": 1.5, "code": 1020, "big": "a" * (BIG - 1) + "b"},
}
EXTRA_NON_MATCHING = {
    "headers": {"JMSType": "car"},
    "properties": {"phone": "12994", "country": "US", "weight": 2600, "ratio": 2.5, "code": 999, "big": "a" * BIG},
}

_TAG_CHARS = string.digits + string.ascii_lowercase


def tag(i: int) -> str:
    """Two characters, distinct for i < 1296: varies a literal or a name without changing its length."""
    return _TAG_CHARS[i // 36 % 36] + _TAG_CHARS[i % 36]


COUNTRIES = ("AT", "BE", "DE", "DK", "ES", "FI", "FR", "IT", "NL", "SE")
OR_CODES = range(1001, 1021)


def _in_list(first: str) -> str:
    return "country IN (" + ", ".join(f"'{c}'" for c in (first, *COUNTRIES[1:])) + ")"


def _or_chain(first: int) -> str:
    return " OR ".join(f"code = {c}" for c in (first, *OR_CODES[1:]))


PATHOLOGICAL = "'%a%a%a%a%a%a%a%a%b'"

# label, selector text, a same-length equivalent text for pool entry i (i = 0..999)
EXTRAS: tuple[tuple[str, str, Callable[[int], str]], ...] = (
    ("LIKE '12%3'", "phone LIKE '12%3'", lambda i: f"phone LIKE '{tag(i)}%3'"),
    ("IN list of 10 strings", _in_list(COUNTRIES[0]), lambda i: _in_list(tag(i))),
    ("arithmetic", "weight * 2 + 1 > 5000 AND ratio / 2.0 < 1", lambda i: f"weight * 2 + 1 > {5000 + i} AND ratio / 2.0 < 1"),
    ("20-term OR chain", _or_chain(OR_CODES[0]), lambda i: _or_chain(2000 + i)),
    (f"LIKE {PATHOLOGICAL} on {BIG:,} chars", f"big LIKE {PATHOLOGICAL}", lambda i: f"b{tag(i)} LIKE {PATHOLOGICAL}"),
)


def javadoc_variant(i: int) -> str:
    """``... AND weight > N`` with N = 2500..3499: same tokens, same length, a different text."""
    return f"JMSType = 'car' AND color = 'blue' AND weight > {2500 + i}"


def json_variant(i: int) -> str:
    return '{"and": [{"=": ["JMSType", "car"]}, {"=": ["color", "blue"]}, {">": ["weight", ' + str(2500 + i) + "]}]}"


def python_variant(i: int) -> str:
    return f"JMSType == 'car' and color == 'blue' and weight > {2500 + i}"


def pool(variant: Callable[[int], str], like: str | None = None) -> list[str]:
    texts = [variant(i) for i in range(POOL_SIZE)]
    if len(set(texts)) != POOL_SIZE:
        raise SystemExit(f"bench setup: the pool for {texts[0]!r} has duplicate texts")
    if like is not None and any(len(t) != len(like) for t in texts):
        raise SystemExit(f"bench setup: the pool for {like!r} changes the text length")
    return texts


# ----- timing ----------------------------------------------------------------------------------

Runner = Callable[[int], float]  # run n iterations, return the elapsed seconds


def pool_loop(f: Callable[[Any], Any], texts: Sequence[Any]) -> Runner:
    """Cycles through the pool (continuing where the previous batch stopped)."""
    source = itertools.cycle(texts)

    def run(n: int) -> float:
        it = itertools.islice(source, n)
        t0 = time.perf_counter()
        for t in it:
            f(t)
        return time.perf_counter() - t0

    return run


def call_loop(f: Callable[[Any], Any], arg: Any) -> Runner:
    """The same argument every time (a pool of one)."""
    return pool_loop(f, [arg])


def best_rate(run: Runner, seconds: float, runs: int = 3) -> dict[str, Any]:
    """Iterations per second: best of ``runs`` runs of about seconds/runs each."""
    per_run = seconds / runs
    batch_floor = max(per_run / 20, 0.0005)
    n = 1
    while True:  # calibrate the batch size
        dt = run(n)
        if dt >= batch_floor or n >= 1 << 28:
            break
        n = n * 2 if dt <= 0 else max(n * 2, min(n * 100, int(n * batch_floor / dt) + 1))
    gc.collect()
    rates = []
    for _ in range(runs):
        done, elapsed = 0, 0.0
        while elapsed < per_run:
            elapsed += run(n)
            done += n
        rates.append(done / elapsed)
    return {"rate": max(rates), "runs": rates, "batch": n}


# ----- the benchmark ---------------------------------------------------------------------------


def _tri(v: Any) -> str:
    return {True: "TRUE", False: "FALSE", None: "UNKNOWN"}[v]


def _hand_written() -> Callable[[dict[str, Any]], bool]:
    """The javadoc selector written by hand on the same dict: the floor a closure tree can approach."""
    car, blue = (STRING, "car"), (STRING, "blue")
    return lambda v: v.get("JMSType") == car and v.get("color") == blue and (w := v.get("weight")) is not None and w[1] > 2500


def _caches() -> list[str]:
    """functools caches on the selector path (module level), so a reader knows what 'cold' avoided."""
    found = []
    for mod_name in sorted(m for m in list(sys.modules) if m == "jmsctl.selector" or m.startswith("jmsctl.selector.")):
        mod = importlib.import_module(mod_name)
        for attr, obj in sorted(vars(mod).items()):
            if callable(obj) and hasattr(obj, "cache_info") and getattr(obj, "__module__", None) == mod_name:
                params = obj.cache_parameters() if hasattr(obj, "cache_parameters") else {}
                found.append(f"{mod_name}.{attr} (maxsize={params.get('maxsize')})")
    return found


def _checked(text: str, messages: Sequence[tuple[str, Any, bool]]) -> selector.Selector:
    sel = selector.compile(text)
    for name, values, expected in messages:
        got = sel.evaluate(values)
        if got is not expected:
            raise SystemExit(f"bench setup: {text!r} is {_tri(got)} on the {name} message, expected {_tri(expected)}")
    return sel


def like_scaling(seconds: float) -> list[dict[str, Any]]:
    """Time of the pathological LIKE against growing values.

    'a' * n is the issue's case (a backtracking '.*a.*a...b' regex never finishes on it); 'c' * (n - 9) + 'a' * 8 + 'b'
    makes every '%' segment search scan to the end of the value, the most work a linear matcher can be made to do.
    """
    sel = selector.compile(f"big LIKE {PATHOLOGICAL}")
    out = []
    for n in (1_000, 10_000, 100_000):
        row: dict[str, Any] = {"length": n}
        for key, value, expected in (("all_a", "a" * n, False), ("scan", "c" * (n - 9) + "a" * 8 + "b", True)):
            values = {"big": (STRING, value)}
            if sel.evaluate(values) is not expected:
                raise SystemExit(f"bench setup: LIKE {PATHOLOGICAL} on a {n}-character value is not {_tri(expected)}")
            row[f"us_{key}"] = 1e6 / best_rate(call_loop(sel.evaluate, values), seconds)["rate"]
        out.append(row)
    return out


def run_benchmarks(seconds: float, progress: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    def measure(label: str, run: Runner) -> dict[str, Any]:
        progress(label)
        return best_rate(run, seconds)

    match_values = decode_message(MATCHING).selector_values()
    miss_values = decode_message(NON_MATCHING).selector_values()
    sel = _checked(JAVADOC, [("matching", match_values, True), ("non-matching", miss_values, False)])
    hand = _hand_written()
    if hand(match_values) is not True or hand(miss_values) is not False:
        raise SystemExit("bench setup: the hand-written baseline disagrees with the selector")

    # -- evaluation of the javadoc selector
    evaluation = []
    for msg, values, result in (("matching", match_values, True), ("non-matching", miss_values, False)):
        base = measure(f"hand-written ({msg})", call_loop(hand, values))["rate"]
        for name, f in (("sel.evaluate(values)", sel.evaluate), ("sel.matches(values)", sel.matches), ("hand-written lambda", hand)):
            rate = base if f is hand else measure(f"{name} ({msg})", call_loop(f, values))["rate"]
            evaluation.append({"name": name, "message": msg, "result": _tri(result), "rate": rate, "vs_hand_written": rate / base})

    # -- cold parses: every call sees a text it has not seen in the previous 999 calls
    selector_pool = pool(javadoc_variant, like=JAVADOC)
    parse_rates = {}
    parsers: tuple[tuple[str, Callable[[str], Any], list[str]], ...] = (
        ("jmsctl.selector.parse", selector.parse, selector_pool),
        ("jmsctl.selector.analyze", selector.analyze, selector_pool),
        ("jmsctl.selector.compile", selector.compile, selector_pool),
        ("json.loads (baseline)", json.loads, pool(json_variant)),
        ("ast.parse (baseline)", lambda t: ast.parse(t, mode="eval"), pool(python_variant)),
    )
    for name, parser, texts in parsers:
        parse_rates[name] = measure(name, pool_loop(parser, texts))["rate"]
    json_rate, ast_rate = parse_rates["json.loads (baseline)"], parse_rates["ast.parse (baseline)"]
    parsing = [{"name": k, "rate": r, "vs_json_loads": r / json_rate, "vs_ast_parse": r / ast_rate} for k, r in parse_rates.items()]
    warm = measure("compile, one repeated text", call_loop(selector.compile, JAVADOC))["rate"]
    cache = {
        "functools_caches": _caches(),
        "warm_compile_rate": warm,
        "warm_over_cold": warm / parse_rates["jmsctl.selector.compile"],
    }

    # -- targets
    eval_rate = min(r["rate"] for r in evaluation if r["name"] == "sel.evaluate(values)")
    targets = [
        {"name": "evaluations/s (sel.evaluate, slower message)", "target": TARGET_EVALS, "rate": eval_rate, "artemis": ARTEMIS_EVALS},
        {
            "name": "cold parses/s (parse: text -> AST)",
            "target": TARGET_PARSES,
            "rate": parse_rates["jmsctl.selector.parse"],
            "artemis": ARTEMIS_PARSES,
        },
        {
            "name": "cold parses/s (compile)",
            "target": TARGET_PARSES,
            "rate": parse_rates["jmsctl.selector.compile"],
            "artemis": ARTEMIS_PARSES,
        },
        {
            "name": "cold parses/s (analyze)",
            "target": TARGET_PARSES,
            "rate": parse_rates["jmsctl.selector.analyze"],
            "artemis": ARTEMIS_PARSES,
        },
    ]
    for t in targets:
        t["status"] = "PASS" if t["rate"] >= t["target"] else "MISS"
        t["vs_artemis"] = t["rate"] / t["artemis"]

    # -- extra selectors
    x_match = decode_message(EXTRA_MATCHING).selector_values()
    x_miss = decode_message(EXTRA_NON_MATCHING).selector_values()
    extras = []
    for label, text, variant in EXTRAS:
        xsel = _checked(text, [("matching", x_match, True), ("non-matching", x_miss, False)])
        m = measure(f"{label}: evaluate (matching)", call_loop(xsel.evaluate, x_match))["rate"]
        nm = measure(f"{label}: evaluate (non-matching)", call_loop(xsel.evaluate, x_miss))["rate"]
        c = measure(f"{label}: compile", pool_loop(selector.compile, pool(variant, like=text)))["rate"]
        extras.append(
            {
                "name": label,
                "text": text,
                "rate_matching": m,
                "rate_non_matching": nm,
                "us_per_eval_worst": 1e6 / min(m, nm),
                "compile_rate": c,
            }
        )
    progress("LIKE scaling")
    scaling = like_scaling(min(seconds, 1.0) / 2)

    return {
        "environment": _environment(),
        "seconds_per_measurement": seconds,
        "selector": JAVADOC,
        "pool_size": POOL_SIZE,
        "evaluation": evaluation,
        "parsing": parsing,
        "cache_check": cache,
        "targets": targets,
        "artemis": {"line": ARTEMIS_LINE, "evaluations_per_s": ARTEMIS_EVALS, "parses_per_s": ARTEMIS_PARSES},
        "extras": extras,
        "like_scaling": scaling,
    }


def _environment() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next((line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), cpu)
    except OSError:
        pass
    versions = {}
    for dist in ("jmsctl", "lark"):
        try:
            from importlib.metadata import version

            versions[dist] = version(dist)
        except Exception:
            versions[dist] = "?"
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "cpu": cpu,
        "jmsctl": versions["jmsctl"],
        "lark": versions["lark"],
    }


# ----- output ----------------------------------------------------------------------------------


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], align: str) -> str:
    """align: one 'l' or 'r' per column."""
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(str(c).ljust(w) if a == "l" else str(c).rjust(w) for c, w, a in zip(cells, widths, align, strict=True)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _n(x: float) -> str:
    return f"{x:,.0f}"


def _x(x: float) -> str:
    return f"{x:.2f}x" if x < 10 else f"{x:.1f}x"


def _ratio_word(r: float) -> str:
    return f"{1 / r:.1f}x slower" if r < 1 else f"{r:.1f}x faster"


def render_text(res: dict[str, Any]) -> str:
    env = res["environment"]
    out = [
        "jmsctl selector benchmark",
        f"  {env['python']} | {env['platform']} | {env['cpu']} | jmsctl {env['jmsctl']} | lark {env['lark']}",
        f"  best of 3 runs, {res['seconds_per_measurement']:g} s per measurement (time.perf_counter, calibrated loop)",
        "",
        f"1. Evaluation of  {res['selector']}",
        "   (non-matching message: weight 2400, so all three terms are tested)",
        "",
    ]
    rows = [
        [r["name"], r["message"], r["result"], _n(r["rate"]), f"{1e9 / r['rate']:,.0f}", _x(r["vs_hand_written"])]
        for r in res["evaluation"]
    ]
    out.append(_table(["measurement", "message", "result", "evals/s", "ns/eval", "vs hand-written"], rows, "lllrrr"))
    out.append(
        "   evaluator / hand-written: "
        + ", ".join(
            f"{r['message']} {r['vs_hand_written']:.2f} ({_ratio_word(r['vs_hand_written'])})"
            for r in res["evaluation"]
            if r["name"] == "sel.evaluate(values)"
        )
    )
    out += [
        "",
        f"2. Cold parses ({res['pool_size']:,} distinct same-length texts, 'weight > 2500'..'> 3499', cycled; nothing memoised)",
        "",
    ]
    rows = [[r["name"], _n(r["rate"]), f"{1e6 / r['rate']:,.1f}", _x(r["vs_json_loads"]), _x(r["vs_ast_parse"])] for r in res["parsing"]]
    out.append(_table(["measurement", "parses/s", "us/parse", "vs json.loads", "vs ast.parse"], rows, "lrrrr"))
    cc = res["cache_check"]
    caches = ", ".join(cc["functools_caches"]) or "none"
    verdict = "no per-text cache" if cc["warm_over_cold"] < 1.5 else "WARNING: a repeated text is much faster, something caches"
    out.append(
        f"   cache check: compile() of one repeated text {_n(cc['warm_compile_rate'])}/s = {cc['warm_over_cold']:.2f}x cold ({verdict})"
    )
    out.append(f"   functools caches on the selector path: {caches}")
    out += ["", "3. Targets (from the issue)", ""]
    rows = [[t["name"], f">= {_n(t['target'])}", _n(t["rate"]), t["status"], f"{t['vs_artemis']:.3f}x"] for t in res["targets"]]
    out.append(_table(["target", "required", "measured", "status", "vs Artemis"], rows, "lrrlr"))
    out.append(f"   {res['artemis']['line']}")
    out += ["", "4. More selectors (evaluate on a matching / non-matching message; cold compile from a 1,000-text pool)", ""]
    rows = [
        [r["name"], _n(r["rate_matching"]), _n(r["rate_non_matching"]), f"{r['us_per_eval_worst']:,.1f}", _n(r["compile_rate"])]
        for r in res["extras"]
    ]
    out.append(_table(["selector", "evals/s TRUE", "evals/s FALSE", "us/eval (worst)", "compile/s"], rows, "lrrrr"))
    out.append("")
    width = max(len(r["name"]) for r in res["extras"])
    for r in res["extras"]:
        text, terms = r["text"], r["text"].split(" OR ")
        if len(text) > 90 and len(terms) > 3:
            text = f"{terms[0]} OR {terms[1]} OR ... OR {terms[-1]}  ({len(terms)} terms)"
        out.append(f"   {r['name']:<{width}}  {text}")
    sc = res["like_scaling"]
    out += ["", f"5. LIKE {PATHOLOGICAL} against longer values (us per evaluation)", ""]
    rows = [[f"{s['length']:,}", f"{s['us_all_a']:,.2f}", f"{s['us_scan']:,.2f}"] for s in sc]
    out.append(_table(["value length", "'a' * n (FALSE)", "'c' * (n-9) + 'aaaaaaaab' (TRUE)"], rows, "rrr"))
    growth = sc[-1]["us_scan"] / sc[-2]["us_scan"]
    shape = "linear or better" if growth < 15 else "SUPERLINEAR"
    out.append(
        f"   10x longer value -> {growth:.1f}x time for the full scan ({shape}); "
        f"{sc[1]['length']:,} 'a's take {sc[1]['us_all_a'] / 1000:.4f} ms"
    )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time budget of one measurement (default 2)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args(argv)
    if not args.seconds > 0:
        ap.error("--seconds must be positive")
    tty = sys.stderr.isatty()

    def progress(label: str) -> None:
        if tty:
            print(f"\r\033[K  measuring {label} ...", end="", file=sys.stderr, flush=True)

    res = run_benchmarks(args.seconds, progress=progress)
    if tty:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    print(json.dumps(res, indent=2) if args.json else render_text(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())

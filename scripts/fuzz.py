#!/usr/bin/env python3
"""Fuzz jmsctl for as long as asked: the hostile-input targets of the test suite, round-robin,
under the ``long`` hypothesis profile.

- selectors (tests/test_hostile_selectors.py): random text, token soup, mutated selectors, repeated
  fragments, evaluation on messages with extreme values;
- records (tests/test_hostile_records.py, tests/test_loader_jsonkeys.py): NDJSON files of broken
  lines (truncated, NUL, invalid UTF-8, BOM, CR, blank, big numbers, deep nesting, duplicate keys,
  noise), filter's fast path against the plain path on such files (counts, rejections, selected
  lines), the chunked reading against the record reader under random record size limits and chunk
  sizes, JSON arrays of broken items, duplicate keys in every JSON spelling.

    python scripts/fuzz.py --minutes 5
    python scripts/fuzz.py --minutes 60 --target "mutated selectors" --target evaluation
    python scripts/fuzz.py --minutes 30 --records      # only the record targets

Each target runs in rounds sized to take about --round seconds, until the time is up; a failing
round is reported with hypothesis' falsifying (shrunk) example and a @reproduce_failure blob, and
the fuzzing goes on. At the end it prints the figures: cases tried per target, failures. Exit
status 0 when there were no failures, 1 otherwise. CI runs the same targets for a few hundred cases
each (``python -m pytest tests/test_hostile_selectors.py tests/test_hostile_records.py
tests/test_loader_jsonkeys.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

import tests.conftest  # noqa: E402, F401 - registers the hypothesis profiles ("long")
from tests.test_hostile_records import RECORD_TARGETS  # noqa: E402
from tests.test_hostile_selectors import FUZZ_TARGETS as SELECTOR_TARGETS  # noqa: E402
from tests.test_loader_jsonkeys import JSONKEYS_TARGETS  # noqa: E402

RECORDS = {**RECORD_TARGETS, **JSONKEYS_TARGETS}
FUZZ_TARGETS = {**SELECTOR_TARGETS, **RECORDS}


class Target:
    def __init__(self, name: str, make_strategy: Callable[[], Any], check: Callable[[Any], Any]) -> None:
        self.name, self.cases, self.failures, self.seconds = name, 0, 0, 0.0
        self.strategy = make_strategy()
        self.check = check

    def run_round(self, examples: int) -> None:
        def counted(value: Any) -> None:
            self.cases += 1
            self.check(value)

        test = settings(
            settings.get_profile("long"),
            max_examples=examples,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            print_blob=True,
        )(given(self.strategy)(counted))
        started = time.monotonic()
        try:
            test()
        except Exception:
            self.failures += 1
            print(f"\nFAILURE in {self.name}:", flush=True)
            traceback.print_exc()
            sys.stdout.flush()
        finally:
            self.seconds += time.monotonic() - started

    def rate(self) -> float:
        return self.cases / self.seconds if self.seconds > 0 else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=5.0, help="how long to fuzz (default 5)")
    parser.add_argument("--target", action="append", choices=sorted(FUZZ_TARGETS), help="fuzz only this target (repeatable)")
    parser.add_argument("--records", action="store_true", help="fuzz only the record and file targets")
    parser.add_argument("--round", type=float, default=20.0, help="seconds per round of one target (default 20)")
    args = parser.parse_args(argv)

    names = args.target or list(RECORDS if args.records else FUZZ_TARGETS)
    targets = [Target(name, *FUZZ_TARGETS[name]) for name in names]
    deadline = time.monotonic() + args.minutes * 60
    started = time.monotonic()
    print(f"fuzzing {len(targets)} targets for {args.minutes:g} minutes: {', '.join(t.name for t in targets)}", flush=True)
    rounds = 0
    while time.monotonic() < deadline:
        for target in targets:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            budget = min(args.round, remaining)
            examples = 25 if target.rate() == 0 else max(1, int(target.rate() * budget))
            target.run_round(examples)
        rounds += 1
        elapsed = time.monotonic() - started
        total = sum(t.cases for t in targets)
        print(f"  {elapsed / 60:5.1f} min: {total:,} cases, failures: {sum(t.failures for t in targets)}", flush=True)

    elapsed = time.monotonic() - started
    total, failures = sum(t.cases for t in targets), sum(t.failures for t in targets)
    print(f"\nfuzzed for {elapsed / 60:.1f} minutes in {rounds} rounds: {total:,} cases tried, failures: {failures}")
    width = max(len(t.name) for t in targets)
    for t in targets:
        print(f"  {t.name.ljust(width)}  {t.cases:>9,} cases  {t.rate():>8,.0f}/s  failures: {t.failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

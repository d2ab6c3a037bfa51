"""Selector test files (the JSONL shape of ``tests/conformance/``; README, ``jmsctl test``): run cases, report failures.

A case is ``{"id", "selector", "message", "expect": match|nomatch|error|valid}`` with optional
``dialect`` (jakarta|ibm|artemis|activemq), ``code`` and ``column`` (the first error's code and 1-based column),
``warnings`` (the exact warning codes, sorted), ``note`` and ``jakarta`` (in broker files: the standard's verdict where the broker's differs; not checked here).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from jmsctl import selector as sel
from jmsctl.diagnostics import locate
from jmsctl.messages.decode import RecordError, decode_message
from jmsctl.messages.loader import opened
from jmsctl.values import tri_name

EXPECTATIONS = ("match", "nomatch", "error", "valid")
KEYS = {"id", "selector", "message", "expect", "note", "dialect", "code", "column", "warnings", "jakarta"}


@dataclass(frozen=True)
class CaseResult:
    id: str
    location: str
    selector: str
    expected: str
    actual: str
    passed: bool
    detail: str = ""


def _problem(case_id: str, location: str, selector: str, expected: str, why: str) -> CaseResult:
    return CaseResult(case_id, location, selector, expected, "invalid test case", False, why)


def run_case(case: Any, location: str) -> CaseResult:
    """One case; never raises, a malformed case is a failure that says why."""
    if not isinstance(case, dict):
        return _problem("?", location, "", "?", "a test case is a JSON object")
    case_id = str(case.get("id", location))
    text, expect = case.get("selector"), case.get("expect")
    if not isinstance(text, str):
        return _problem(case_id, location, "", str(expect), "\"selector\" must be a string")
    if expect not in EXPECTATIONS:
        return _problem(case_id, location, text, str(expect), f"\"expect\" must be one of {', '.join(EXPECTATIONS)}")
    unknown = set(case) - KEYS
    if unknown:
        return _problem(case_id, location, text, expect, f"unknown key {sorted(unknown)[0]!r}")
    dialect = case.get("dialect", "jakarta")
    if dialect not in sel.DIALECTS:
        return _problem(case_id, location, text, expect, f"unknown dialect {dialect!r}")
    analysis = sel.analyze(text, dialect)

    def result(actual: str, passed: bool, detail: str = "") -> CaseResult:
        return CaseResult(case_id, location, text, expect, actual, passed, detail)

    if analysis.errors:
        first = analysis.errors[0]
        actual = f"error {first.code} at column {locate(text, first.span.start).column}: {first.message}"
        if expect != "error":
            return result(actual, False)
        return _check_error_details(case, first, text, result, actual)
    if expect == "error":
        return result("valid", False)
    wanted = case.get("warnings")
    if wanted is not None:
        got = sorted(d.code for d in analysis.warnings)
        if got != sorted(wanted):
            return result(f"warnings {got}", False, f"expected warnings {sorted(wanted)}")
    if expect == "valid":
        return result("valid", True)
    try:
        message = decode_message(case.get("message", {}))
    except RecordError as err:
        return _problem(case_id, location, text, expect, f"message: {err}")
    value = sel.compile(text, dialect).evaluate(message)
    actual = "match" if value is True else "nomatch"
    return result(actual, actual == expect, f"selector is {tri_name(value)}")


def _check_error_details(case: dict[str, Any], first: Any, text: str, result: Any, actual: str) -> CaseResult:
    code, column = case.get("code"), case.get("column")
    if code is not None and first.code != code:
        return result(actual, False, f"expected error code {code}")  # type: ignore[no-any-return]
    if column is not None and locate(text, first.span.start).column != column:
        return result(actual, False, f"expected column {column}")  # type: ignore[no-any-return]
    return result("error", True)  # type: ignore[no-any-return]


def read_cases(path: str) -> Iterator[tuple[str, Any]]:
    """(location, parsed case or InvalidLine) for every non-blank line (.gz read as such); a file
    that cannot be read raises InputError."""
    with opened(path) as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield f"{path}:{lineno}", orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                yield f"{path}:{lineno}", InvalidLine(str(exc))


@dataclass(frozen=True)
class InvalidLine:
    reason: str


def run_file(path: str) -> Iterator[CaseResult]:
    for location, case in read_cases(path):
        if isinstance(case, InvalidLine):
            yield _problem("?", location, "", "?", f"invalid JSON: {case.reason}")
        else:
            yield run_case(case, location)

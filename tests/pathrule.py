"""The rule of what ``jmsctl filter`` proves about a line it selects in its default mode, written
independently of the engine (README "What filter proves"), for the tests that compare the paths."""

from __future__ import annotations

import json
from typing import Any

from jmsctl import selector as sel
from jmsctl.filter.plan import FilterPlan
from jmsctl.messages.loader import judge_line
from jmsctl.spec import HEADERS


class _Obj(dict):  # type: ignore[type-arg]
    """A JSON object that remembers its repeated keys."""

    repeated: set[str]


def _pairs(pairs: list[tuple[str, Any]]) -> _Obj:
    obj = _Obj(pairs)
    obj.repeated = {k for i, (k, _) in enumerate(pairs) if any(k == k2 for k2, _ in pairs[:i])}
    return obj


def path_verdict(selector: sel.Selector, line: bytes) -> Any:
    """The rule of what filter proves about a line it selects in its default mode (README "What
    filter proves"), checked independently of the engine: the line is one valid JSON object
    (strict UTF-8), no key on the selector's paths repeats (``headers`` / ``properties``, the
    identifier's key, a typed value's keys), and the record made of only those values is valid
    and evaluates to this verdict by the plain path. None: the rule does not vouch for the line."""
    try:
        obj = json.loads(line.decode("utf-8"), object_pairs_hook=_pairs, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    except (ValueError, RecursionError):
        return None
    if type(obj) is not _Obj:
        return None
    names = FilterPlan.of(selector.ast).identifiers
    projection: dict[str, Any] = {}
    for part, wanted in (("headers", [x for x in names if x in HEADERS]), ("properties", [x for x in names if x not in HEADERS])):
        if not wanted or part not in obj:
            continue
        if part in obj.repeated or type(obj[part]) is not _Obj:
            return None
        sub = obj[part]
        if any(name in sub.repeated or (type(sub.get(name)) is _Obj and sub[name].repeated) for name in wanted):
            return None
        projection[part] = {name: sub[name] for name in wanted if name in sub}
    record = judge_line("p", 1, json.dumps(projection).encode())
    if record.message is None:
        return None
    return selector.evaluate(record.message.selector_values())

"""Verdict shortcuts from the plan's String tests (``FilterPlan.required`` / ``sufficient``): a
String that the selector's TRUE requires and that is not there rules TRUE out
(``possible_function``, when FALSE and UNKNOWN need not be told apart); a String that one
disjunct of a top-level OR makes TRUE makes the whole TRUE (``sure_function``, the Jakarta
reading). Either spares the view and the evaluation of a line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import UNSET

from jmsctl.filter import schema as fs
from jmsctl.filter.plan import FilterPlan
from jmsctl.selector import nodes as n
from jmsctl.values import STRING


def _string_rule(checks: tuple[tuple[str, bool, frozenset[str], bool], ...], any_hit: bool) -> Callable[[Any], bool]:
    """record -> bool from (identifier, inside, strings, is a header) checks on decoded values: a
    check hits when the value is a String that is (``inside``) or is not among the strings.
    ``any_hit``: True as soon as one check hits, else False; otherwise False as soon as one
    misses, else True."""
    tstring = fs.TString

    def rule(rec: Any) -> bool:
        for name, inside, strings, header in checks:
            if header:
                h = rec.headers
                v = None if h is UNSET else getattr(h, name)
            else:
                p = rec.properties
                v = None if p is UNSET else p.get(name)
            if type(v) is not str:
                if type(v) is not tstring:
                    if any_hit:
                        continue
                    return False
                v = v.value
            if ((v in strings) is inside) is any_hit:
                return any_hit
        return not any_hit

    return rule


def view_rule(checks: tuple[Any, ...], inside: bool | None, any_hit: bool) -> Callable[[dict[str, Any]], bool]:
    """``_string_rule`` on a selector view (``plan.required`` with ``inside`` True, or
    ``plan.sufficient`` with ``inside`` None: each check says): a String is ``(STRING, s)``
    there, from a bare or typed string alike."""
    rules = tuple((c[0], True, c[1]) if inside else (c[0], c[1], c[2]) for c in checks)

    def rule(view: dict[str, Any]) -> bool:
        for name, within, strings in rules:
            tv = view.get(name)
            if tv is None or tv[0] is not STRING:
                if any_hit:
                    continue
                return False
            if ((tv[1] in strings) is within) is any_hit:
                return any_hit
        return not any_hit

    return rule


def possible_function(plan: FilterPlan) -> Callable[[Any], bool] | None:
    """record -> False when the selector cannot be TRUE for it, read from the decoded values the
    selector requires to be certain Strings (``plan.required``); None: no such value.
    Cheaper than the view and the evaluation, for the lines that cannot be selected."""
    required = sorted(plan.required, key=lambda r: r[0] in n.HEADERS)  # properties first
    if not required:
        return None
    return _string_rule(tuple((name, True, allowed, name in n.HEADERS) for name, allowed in required), any_hit=False)


def sure_function(plan: FilterPlan) -> Callable[[Any], bool] | None:
    """record -> True when the selector is certainly TRUE for it, read from the decoded values
    that suffice (``plan.sufficient``: one disjunct of the top-level OR, a String compared with
    literals; none under the IBM reading); None: no such value. The exact result when it says
    True, cheaper than the view and the evaluation (on ``region <> 'APAC' OR ...``, most lines)."""
    sufficient = plan.sufficient
    if not sufficient:
        return None
    return _string_rule(tuple((name, inside, strings, name in n.HEADERS) for name, inside, strings in sufficient), any_hit=True)


__all__ = ["possible_function", "sure_function", "view_rule"]

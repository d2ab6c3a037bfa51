"""What the fast filter computes once for a selector and a set of options (``Setup``), before any
line: the compiled selector's function, the prefilter, the view, the shortcuts, the path decoder
and the column kernel. Every stage (``linescan``, ``whole``, ``pathdecode``, ``columnpath``) reads
it; ``fast.Engine`` is a Setup that processes chunks."""

from __future__ import annotations

import re
from typing import Any

from jmsctl.filter.columns import kernel_for
from jmsctl.filter.keycount import Counter, counters
from jmsctl.filter.linehits import hits_scanner
from jmsctl.filter.partial import partial_for
from jmsctl.filter.plan import FilterPlan, key_superset, line_scanner, line_test
from jmsctl.filter.shortcuts import possible_function, sure_function, view_rule
from jmsctl.filter.view import view_function
from jmsctl.selector import Selector

_MIN_NEEDLE = 3  # bytes: a shorter literal is no prefilter


class Setup:
    """One selector and one set of options, prepared.

    ``exact``: every line is classified TRUE / FALSE / UNKNOWN / rejected (``--stats``);
    otherwise a line shown not TRUE early counts as ``skipped``. Without ``exact``,
    ``validate_all`` and ``invert``, a line the prefilter proves not TRUE is not even parsed: its
    rejection, if it is broken, is not found (``--validate-all`` finds every one).
    ``max_record_size``: a longer line (bytes before its b"\\n") is rejected as the loader rejects it.
    """

    def __init__(
        self,
        selector: Selector,
        *,
        invert: bool = False,
        exact: bool = True,
        validate_all: bool = False,
        keep_lines: bool = False,
        discard: bool = False,
        name: str = "<stdin>",
        prefilter: bool = True,
        max_record_size: int | None = None,
        plan: FilterPlan | None = None,
        partial: bool = True,
    ) -> None:
        self.selector = selector
        # Everything the engine knows about the selector beyond its compiled form, computed once.
        self.plan = plan = FilterPlan.of(selector.ast, selector.dialect) if plan is None else plan
        self.invert = invert
        self.exact = exact
        self.keep_lines = keep_lines
        self.discard = discard  # only counts wanted (--count): the selected lines are not joined into ``out``
        self.name = name
        self.max_record_size = max_record_size
        self.fn = selector._fn  # evaluate() without the bound-method hop: called once per line
        groups = plan.must_contain if prefilter and not exact else ()
        if groups and any(len(x) < _MIN_NEEDLE - x.startswith(b'"') for x in groups[0].needles):
            # 'A' of a LIKE 'A%' is in most lines: searching for it costs more than it skips. With its
            # opening quote (plan.group_of: a value starting with 'A'), '"A' is in far fewer.
            groups = ()
        self.skip = bool(groups) and not validate_all and not invert
        # Per line, a substring test costs about what building the view and evaluating saves, so
        # the prefilter is used only where it saves the decode: lines skipped unparsed.
        self.test = line_test(groups) if self.skip else None
        self.scan = line_scanner(groups) if self.skip else None
        # The same scan over a chunk not cut into lines (``filter.linehits``; None without the compiled part).
        self.chunk_scan = hits_scanner(groups) if self.skip else None
        self.view = view_function(plan.identifiers)
        # Without --stats and --invert, FALSE and UNKNOWN need not be told apart: a line whose
        # decoded values rule out TRUE is counted as skipped, its view never built.
        self.possible = possible_function(plan) if not exact and not invert else None
        # A line whose decoded values make the selector TRUE for certain is TRUE without the view.
        self.sure = sure_function(plan)
        # The default mode decodes only the selector's paths (filter.partial: what filter proves
        # about a line it selects); --stats, --validate-all and --invert validate whole records.
        self.partial = partial_for(plan, selector.dialect) if partial and not exact and not validate_all and not invert else None
        self.view_possible = view_rule(plan.required, True, False) if self.partial is not None and plan.required else None
        self.view_sure = view_rule(plan.sufficient, None, True) if self.partial is not None and plan.sufficient else None
        # The chunk's verdicts from its columns of values (filter.columns), when the path is decoded.
        part = self.partial
        self.key_scans: tuple[tuple[Any, Any], ...] = ()
        # Each key's occurrences in a chunk (``filter.keycount``), and whether those counts are exact (else supersets).
        self.key_counts: tuple[Counter, ...] = ()
        self.counts_exact = False
        if part is not None:
            self.key_counts, self.counts_exact = counters(part.keys)
        # Whether a chunk is tried decoded whole (``columnpath.process_uncut``): not after a chunk whose lines
        # failed their decode (a dump with broken lines would be decoded twice), again after a clean one.
        self.whole_decode = True
        # Whether the column path's last chunk held typed values on the path: the next chunk is then
        # decoded with its properties raw (``filter.columnpath``). What a Setup learns as it runs.
        self.typed_seen = False
        # A few lines of the last chunk, held until the next one is split (``linescan._HELD_EVERY``).
        self.held: list[bytes] = []
        self.kernel = kernel_for(selector, part.headers, part.properties) if part is not None else None
        if self.kernel is not None and part is not None:
            # A typed value on the path, its key once on the line, has two members exactly when
            # its object holds two colons before its "}" (counted for the chunk).
            # One scan per key finds both: each occurrence of the key, with the typed object after it
            # when that holds two colons (else b""). The first pattern is a part of the key (from its
            # rarest byte after the opening quote, ``plan.key_superset``: a regex finds it far faster),
            # so it also finds "xweight" and weight" ending a string: when its count is the decodes'
            # count, there is none of those; when not, the exact key is counted before the per-line
            # loop is given the chunk.
            ws = rb"[ \t\r\n]*"
            two = b"(" + ws + b":" + ws + rb"\{[^:}]*:[^:}]*:[^:}]*\})?"
            self.key_scans = tuple((re.compile(re.escape(key_superset(key)) + two).findall, re.compile(re.escape(key) + two).findall)
                                   for key in part.keys)


__all__ = ["Setup"]

"""The fast filter of NDJSON chunks: the same selections, counts and rejections as the plain path
(``loader`` + ``decode_message`` + ``Message.selector_values``), with less work per line.

``Engine`` is the entry point: a ``Setup`` (everything computed once for a selector and its
options) that processes chunks. The work is split by stage, one module each, readable alone:

1. **Line scan** (``linescan``): the chunk cut into lines; lines over the maximum record size
   rejected unread; with a text prefilter (``plan.FilterPlan.must_contain``; not with ``--stats``,
   ``--validate-all`` or ``--invert``) a line that provably cannot be selected is not parsed at
   all, only counted (``skipped``). A broken record among those is not selected, as the plain
   path would not select it, but it is not found either.
2. **Decode**, one of three:
   - ``whole``: the whole record validated by msgspec (``schema``, at least as strict as
     ``decode_message``), then a proof that no key repeats; a line refused goes to the plain
     path (``loader.judge_line``), so it is rejected exactly as the plain path rejects it. The
     reference the other stages defer to for a line they cannot vouch for (``whole.judge``).
   - ``pathdecode``: the default mode (``partial``: only the selector's paths decoded and
     validated, README "What filter proves"), line by line;
   - ``columnpath``: the same proofs counted for a whole chunk decoded by one ``map``, when the
     selector has a column kernel.
3. **Verdict**: the compiled selector on the view (``view``: decoded values -> selector values),
   the String shortcuts before it (``shortcuts``), or the column kernels (``columns``).
4. **Counting** (``batch``): each stage returns a ``Batch``; ``read == true + false + unknown +
   rejected + skipped``.

tests/test_fastpath.py compares the paths with the plain path on the samples and on lines built
to defeat each step; tests/test_columns.py the column path.
"""

from __future__ import annotations

from typing import Any

from jmsctl.filter import linescan, whole
from jmsctl.filter.batch import COUNTS, Batch, add_counts
from jmsctl.filter.setup import Setup
from jmsctl.filter.shortcuts import possible_function, sure_function
from jmsctl.filter.view import property_value, view_function
from jmsctl.messages.decode import RecordError


class Engine(Setup):
    """Selection of NDJSON chunks for one selector and one set of options (``Setup``)."""

    def process(self, chunk: bytes, max_count: int | None = None) -> Batch:
        """Select from a chunk of whole lines (the last may lack its b"\\n" at the end of a file).
        With ``max_count`` it stops after that many selected lines: ``lines`` then counts only
        the lines read."""
        with whole.DECODING:
            return linescan.process(self, chunk, max_count)

    def judge(self, raw: bytes) -> tuple[Any, RecordError | None]:
        """One non-blank line (no line terminator): (True / False / None, None), or (None, the
        rejection), as ``process`` would judge it in the whole decode."""
        with whole.DECODING:
            return whole.judge(self, raw)


__all__ = ["COUNTS", "Batch", "Engine", "add_counts", "possible_function", "property_value", "sure_function", "view_function"]

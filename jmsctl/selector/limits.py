"""The selector engine's two documented limits, and how diagnostics quote long source text.

Every stage is linear in the selector's length and no stage recurses along an AND/OR chain, so
the only limits are the ones a diagnostic names:

- ``MAX_LENGTH`` (E121): the text itself. Parsing costs about 4 µs and 100 bytes of memory per
  character, so the limit bounds one selector's work to well under a minute and a few hundred MB.
- ``MAX_DEPTH`` (E120): nesting. The compiled evaluator is a tree of closures that call each
  other, one Python frame per level, so depth must stay well inside Python's recursion limit.
  An AND or OR chain is one level however long (it compiles to one closure over a list), and
  redundant parentheses are no level at all.
- ``MAX_DIAGNOSTICS`` (W013): a 100,000-item IN list of numbers has 100,000 errors; every one is
  shown with its source line, so only the first ones (errors before warnings) are reported.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

MAX_LENGTH = 4 * 1024 * 1024  # characters (code points) in one selector
MAX_DEPTH = 200  # nested levels: NOT, arithmetic, comparison operands, alternating AND/OR
MAX_DIAGNOSTICS = 100  # reported per selector (errors first); W013 counts the rest

SHOWN = 60  # source text quoted in a diagnostic message is cut to about this many characters


def clip(text: str, limit: int = SHOWN) -> str:
    """Text for a message: longer than ``limit``, it keeps its start and end and says how long it is."""
    if len(text) <= limit:
        return text
    return f"{text[: limit * 2 // 3]}...{text[-(limit // 5) :]} ({len(text):,} characters)"


LARGE = 64 * 1024  # characters from which the cyclic garbage collector is paused while parsing


@contextmanager
def gc_paused(length: int) -> Iterator[None]:
    """Pause the cyclic GC while a large selector is parsed and checked.

    A large selector allocates hundreds of thousands of AST nodes, none of them in a cycle, and the
    collector would scan them again and again as they accumulate: half the time of a 1 MB parse.
    """
    if length < LARGE or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()

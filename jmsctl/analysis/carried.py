"""W016 told which properties the messages carry (``check --like DUMP``, ``--properties NAMES``).

Alone, the unquoted-word lint (selector/lints/unquoted_word.py) guesses from a word's shape. Given
the names a dump's messages carry (or a list), it says exactly: ``color = red`` warns when ``red`` is
no property of those messages and ``color`` is one (or a header), whatever the word looks like;
``price = cost`` stays quiet when the messages carry both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from jmsctl import selector as sel
from jmsctl.diagnostics import Diagnostic
from jmsctl.messages.loader import InputError, read_records
from jmsctl.selector import nodes as n
from jmsctl.selector.lints import unquoted_word


class CarriedError(Exception):
    """A dump that cannot say what its messages carry: a rejected record (located), an unreadable file."""


def names_in_dumps(paths: Iterable[str]) -> frozenset[str]:
    """Every property name of every message of the dumps; a rejected record is an error (nothing dropped)."""
    names: set[str] = set()
    for path in paths:
        try:
            for record in read_records(path):
                if record.message is None:
                    raise CarriedError(f"{record.location}: {record.error}")
                names.update(record.message.get_property_names())
        except InputError as exc:
            raise CarriedError(str(exc)) from None
        except OSError as exc:
            raise CarriedError(f"{path}: {exc.strerror or exc}") from None
    return frozenset(names)


def names_in_lists(lists: Iterable[str]) -> frozenset[str]:
    """``--properties a,b --properties c``: comma- or space-separated names."""
    return frozenset(name for item in lists for name in item.replace(",", " ").split())


def refine(analysis: sel.Analysis, found: Sequence[Diagnostic], properties: frozenset[str]) -> tuple[Diagnostic, ...]:
    """``found`` with W016 decided by ``properties`` instead of the word's shape, in source order."""
    if analysis.ast is None:
        return tuple(found)
    kept = [d for d in found if d.code != "W016"]
    for node in n.walk(analysis.ast):
        if isinstance(node, n.Comparison):
            for prop, word in unquoted_word.suspects(node, properties):
                kept.append(unquoted_word.diagnostic(node, prop, word, " (not a property the messages carry)"))
    kept.sort(key=lambda d: (d.span.start, d.severity.value, d.code))
    return tuple(kept)


__all__ = ["CarriedError", "names_in_dumps", "names_in_lists", "refine"]

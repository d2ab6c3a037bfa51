"""Completion on the selector line of ``jmsctl view``: header and JMSX names, and the property names
seen in the first records of the dump, for the word being typed (Right accepts it)."""

from __future__ import annotations

import re

from textual.suggester import Suggester

from jmsctl.cli.commands.view.index import Dump

SAMPLE = 1000  # records read for their property names
_LAST_WORD = re.compile(r"[A-Za-z_$][\w$]*$")
_IN_STRING = re.compile(r"^(?:[^']*'[^']*')*[^']*'[^']*$")  # an odd number of quotes: inside a string literal


def sample_names(dump: Dump, sample: int = SAMPLE) -> list[str]:
    """The header and JMSX names, then the property names of the first ``sample`` records."""
    from jmsctl.spec import HEADERS, JMSX_TYPES

    dump.wait(1.0)  # an index being built: its first lines at least
    seen: dict[str, None] = dict.fromkeys((*HEADERS, *JMSX_TYPES))
    ids = dump.ids()
    for i in range(min(sample, len(ids))):
        message = dump.record(ids[i]).message
        if message is not None:
            seen.update(dict.fromkeys(message.properties))
    return list(seen)


class NameSuggester(Suggester):
    """Suggests the rest of the name being typed at the end of the line (names in a first-seen order)."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.names = names

    async def get_suggestion(self, value: str) -> str | None:
        return complete(value, self.names)


def complete(value: str, names: list[str]) -> str | None:
    """``value`` with its last word completed to a name, or None (no word, inside a string, no name)."""
    match = _LAST_WORD.search(value)
    if match is None or _IN_STRING.match(value):
        return None
    word = match.group()
    for name in names:
        if name.startswith(word) and name != word:
            return value + name[len(word) :]
    return None


__all__ = ["NameSuggester", "complete", "sample_names"]

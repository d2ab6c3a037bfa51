"""The registry of extractors: one module per kind of file where selectors live.

An extractor names the file suffixes it reads, a trigger (bytes a file must contain to be worth
parsing: most files of a tree have none, and are skipped unread beyond the search), and a function
from (path, text) to the selectors found. Adding one is a module and a line in ``_MODULES``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from jmsctl.scan.found import Found


@dataclass(frozen=True)
class Extractor:
    name: str
    suffixes: tuple[str, ...]
    trigger: re.Pattern[bytes]
    extract: Callable[[str, str], list[Found]]
    words: tuple[bytes, ...] = (b"elect", b"ELECT")  # one must be in the file before ``trigger`` is searched
    # A regex ``extract`` searches the whole text for, not only where it finds a selector (a JMS
    # import that makes generic call names count), and lower-case words one of which every match
    # holds: scan/cuts.py keeps whether it matches the same in a cut text as in the file.
    context: re.Pattern[str] | None = None
    keep: tuple[bytes, ...] = ()

    def triggered(self, data: bytes) -> bool:
        """Whether the file may hold a selector: bytes ``in`` (a fast search) for the words, then the regex
        (three times faster than the regex alone on a tree where most files hold neither)."""
        return any(w in data for w in self.words) and self.trigger.search(data) is not None


_MODULES = ("jvm", "xml", "properties", "yaml", "python")

# Keys that end in 'selector' without being message selectors: Kubernetes' (nodeSelector,
# labelSelector, namespaceSelector, podSelector, ...), read by the properties and YAML extractors.
_NOT_MESSAGE = re.compile(r"(?:node|label|namespace|pod|object|field|service|match|topology|volume|resource|css|xpath|jquery|element|dom|html)[-_.]?selector$", re.IGNORECASE)


def selector_key(key: str) -> bool:
    """Whether a configuration key names a message selector: it ends in 'selector', and not a
    Kubernetes-style label selector."""
    return key.lower().endswith("selector") and _NOT_MESSAGE.search(key) is None


@cache
def extractors() -> tuple[Extractor, ...]:
    return tuple(importlib.import_module(f"jmsctl.scan.extractors.{name}").EXTRACTOR for name in _MODULES)


def for_path(path: str) -> Extractor | None:
    lower = path.lower()
    for ex in extractors():
        if lower.endswith(ex.suffixes):
            return ex
    return None


__all__ = ["Extractor", "extractors", "for_path", "selector_key"]

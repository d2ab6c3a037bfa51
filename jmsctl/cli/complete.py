"""Shell completion of values (``jmsctl --install-completion`` for bash, zsh, fish).

Typer installs the shell side; these give the values: in a selector, the header and JMSX names and
the property names of the message files already on the command line (the last word of the selector
is completed, the rest kept); for ``get FILE NAME``, the property names of FILE. Files are read
only a little (``SAMPLE`` records): completion must answer at once, and a broken file gives no
names rather than an error.
"""

from __future__ import annotations

import os
import re
from typing import Any

import typer

SAMPLE = 200  # records read from each file for its property names

_LAST_WORD = re.compile(r"[A-Za-z_$][\w$]*$")


def _headers() -> tuple[str, ...]:
    from jmsctl.spec import HEADERS, JMSX_TYPES

    return (*HEADERS, *JMSX_TYPES)


def property_names(paths: list[str]) -> list[str]:
    """The property names of the first records of each file, in order of first appearance."""
    from jmsctl.messages.loader import read_records

    seen: dict[str, None] = {}
    for path in paths:
        if path == "-":
            continue
        try:
            for count, record in enumerate(read_records(path)):
                if count >= SAMPLE:
                    break
                if record.message is not None:
                    seen.update(dict.fromkeys(record.message.properties))
                    seen.update(dict.fromkeys(record.message.null_properties))
        except Exception:  # completion never fails: an unreadable file has no names to offer
            continue
    return list(seen)


def _files_on_line(ctx: Any) -> list[str]:
    """The message files given so far (filter's arguments after the selector, show's files...)."""
    params = getattr(ctx, "params", {}) or {}
    files: list[str] = []
    for key in ("files", "inputs", "file"):
        value = params.get(key)
        if isinstance(value, str):
            files.append(value)
        elif isinstance(value, (list, tuple)):
            files.extend(v for v in value if isinstance(v, str))
    args = params.get("args")
    if isinstance(args, (list, tuple)):
        files.extend(a for a in args[1:] if isinstance(a, str))
    return files


def _files(ctx: typer.Context, args: list[str]) -> list[str]:
    """The files on the line: as parsed so far, else any argument that names a file (click leaves
    the arguments unparsed while an option's value is being completed: ``show FILE --where ...``)."""
    words = list(args or [])
    if not words:  # typer passes none for an option's value: the shell's own line (bash; zsh and fish)
        line = os.environ.get("COMP_WORDS") or os.environ.get("_TYPER_COMPLETE_ARGS") or ""
        words = line.split()
    return _files_on_line(ctx) or [w for w in words if os.path.isfile(w)]


def names_for_selector(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """A selector being typed: its last word completed with header, JMSX and property names."""
    m = _LAST_WORD.search(incomplete)
    word = m.group() if m else ""
    if m is None and incomplete and not incomplete.endswith((" ", "(")):
        return []
    head = incomplete[: len(incomplete) - len(word)]
    names = [*_headers(), *property_names(_files(ctx, args))]
    return [head + name for name in dict.fromkeys(names) if name.startswith(word)]


def names_in_file(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """``get FILE NAME``: the property names of FILE."""
    return [name for name in property_names(_files(ctx, args)) if name.startswith(incomplete)]


def selector_then_files(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """``SELECTOR [FILE...]``: names while the selector is typed; then the shell's own file names."""
    if (getattr(ctx, "params", {}) or {}).get("args"):
        return []
    return names_for_selector(ctx, args, incomplete)


__all__ = ["SAMPLE", "names_for_selector", "names_in_file", "property_names", "selector_then_files"]

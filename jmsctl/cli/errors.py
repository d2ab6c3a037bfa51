"""One style for every usage and input error of every command, as grep and compilers write them:
``jmsctl: error: FILE:LINE: message`` on stderr (``jmsctl: error: message`` when no file is
concerned), exit status 2. Selector diagnostics (``error[E002]: ...`` with a caret) are not errors
of this kind: they stay in check's formats.

Also the check every command that takes a selector and message files runs when the selector does not
compile: the arguments given the wrong way round (``filter orders.ndjson "JMSType = 'car'"``).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

PREFIX = "jmsctl: error: "
USAGE = 2  # grep's status for a usage or input error
FORMAT_NOTE = "jmsctl: note: the message format, record by record: docs/FORMAT.md (jmsctl docs FORMAT prints it)"  # after rejected records


class UsageFailure(Exception):
    """A usage or input error raised in a command's core, reported by ``fail`` at the command's edge."""


def error_line(text: str) -> str:
    """``text`` (``FILE:LINE: message`` or ``message``) as one error line, without its ``\\n``."""
    return PREFIX + text


def say(text: str) -> None:
    """Write one error line on stderr (and go on: the caller decides the exit status)."""
    sys.stderr.write(error_line(text) + "\n")
    sys.stderr.flush()


def fail(text: str) -> NoReturn:
    """Write one error line and end the command with status 2."""
    import typer  # the CLI's own: this module is imported by commands only

    say(text)
    raise typer.Exit(USAGE)


# ----- arguments the wrong way round -------------------------------------------------------------

# What a file name seldom holds and a selector usually does: a comparison, a quote, a keyword between spaces.
_SELECTOR_LIKE = re.compile(r"[=<>']|\s(?:AND|OR|NOT|LIKE|IN|BETWEEN|IS)\s", re.IGNORECASE)


def looks_like_selector(text: str) -> bool:
    """Whether an argument given as a file reads as a selector (and names no existing path)."""
    if text == "-" or os.path.exists(text):
        return False
    if _SELECTOR_LIKE.search(text):
        return True
    from jmsctl import selector as sel

    return not sel.analyze(text).errors


def swapped_arguments(selector: str, files: Sequence[str]) -> str | None:
    """The error for ``CMD FILE SELECTOR`` (None when the arguments look right): the selector argument
    names an existing file and a file argument reads as a selector, or no file was given at all.
    Called only for a selector that does not compile, so a valid one is never second-guessed."""
    if selector in ("", "-") or not os.path.isfile(selector):
        return None
    likely = [f for f in files if looks_like_selector(f)]
    if likely:
        return (f"arguments are SELECTOR FILE...: {selector!r} is a file and {likely[0]!r} reads as a selector "
                f"(swap them: {shell_word(likely[0])} {shell_word(selector)})")
    if not files:
        return f"arguments are SELECTOR FILE...: the selector argument {selector!r} is a file; give the selector first"
    return None


def swapped_file_first(file: str, other: str, usage: str) -> str | None:
    """For commands whose arguments are FILE then something else (``get FILE NAME``): the error when
    FILE names nothing and the other argument is an existing file."""
    if file != "-" and not os.path.exists(file) and other != "-" and os.path.isfile(other):
        return f"arguments are {usage}: {file!r} is not a file and {other!r} is (swap them)"
    return None


def shell_word(text: str) -> str:
    """``text`` as one shell word, in the quotes a person would type."""
    if re.fullmatch(r"[\w./:@%+=-]+", text):
        return text
    if "'" not in text:
        return f"'{text}'"
    if not re.search(r'["$`\\!]', text):
        return f'"{text}"'
    import shlex

    return shlex.quote(text)


__all__ = ["FORMAT_NOTE", "PREFIX", "USAGE", "UsageFailure", "error_line", "fail", "looks_like_selector", "say", "shell_word", "swapped_arguments", "swapped_file_first"]

"""Unified diffs that ``git apply`` and ``patch -p1`` take: ``check --diff`` and ``scan --diff``.

difflib's ``unified_diff`` leaves out the ``\\ No newline at end of file`` marker, so a file whose
last line has no line break gives a patch git refuses; this adds it, and keeps each line's own
terminator (CRLF stays CRLF).
"""

from __future__ import annotations

import difflib
import re

NO_NEWLINE = "\\ No newline at end of file\n"


_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


def _lines(text: str) -> list[str]:
    """Lines as git counts them: ended by LF only (str.splitlines would also split at CR, FF, U+2028...)."""
    return _LINE.findall(text)


def unified(old: str, new: str, path: str, context: int = 3) -> str:
    """The patch from ``old`` to ``new`` of the file ``path`` (``a/path`` -> ``b/path``); '' when equal."""
    if old == new:
        return ""
    a, b = _lines(old), _lines(new)
    out: list[str] = []
    for line in difflib.unified_diff(a, b, f"a/{path.lstrip('/')}", f"b/{path.lstrip('/')}", n=context):
        if line.startswith(("---", "+++")):
            out.append(line.rstrip("\n") + "\n")
        elif line.endswith("\n"):
            out.append(line)
        else:  # the file's last line, without a line break
            out.append(line + "\n" + NO_NEWLINE)
    return "".join(out)


__all__ = ["unified"]

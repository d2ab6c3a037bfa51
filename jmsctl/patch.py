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


_BLINE = re.compile(rb"[^\n]*\n|[^\n]+\Z")


def unified_bytes(old: bytes, new: bytes, path: str, context: int = 3) -> bytes:
    """``unified`` of the bytes on disk: a BOM, Latin-1 or any 8-bit text kept byte for byte, so
    ``git apply`` finds the context lines it compares with the file; b'' when equal."""
    if old == new:
        return b""
    a, b = _BLINE.findall(old), _BLINE.findall(new)
    name = path.lstrip("/").encode("utf-8", "surrogateescape")
    out: list[bytes] = []
    for line in difflib.diff_bytes(difflib.unified_diff, a, b, b"a/" + name, b"b/" + name, n=context):
        if line.startswith((b"---", b"+++")):
            out.append(line.rstrip(b"\n") + b"\n")
        elif line.endswith(b"\n"):
            out.append(line)
        else:
            out.append(line + b"\n" + NO_NEWLINE.encode())
    return b"".join(out)


__all__ = ["unified", "unified_bytes"]

"""``jmsctl docs [NAME[#SECTION]]``: the documents diagnostics and help cite, wherever jmsctl is.

Diagnostics cite the rules by document and section (``SEMANTICS#like``); a user who installed the wheel has no
docs/ directory, so the documents ship inside the package (``jmsctl/docs``, a link to the checkout's
docs/ that the wheel build copies) and this command prints one, one section of one, or where they are.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Optional

import typer

from jmsctl.cli.errors import fail

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = "```"


def docs_dir() -> Path:
    """The documents: the package's own (an installed wheel), else the checkout's docs/."""
    package = Path(__file__).resolve().parent.parent.parent
    for candidate in (package / "docs", package.parent / "docs"):
        if any(candidate.glob("*.md")):
            return candidate
    return package / "docs"


def documents() -> dict[str, Path]:
    """Document name (SEMANTICS, FORMAT, dialects, artemis-xml) -> file."""
    return {p.stem: p for p in sorted(docs_dir().glob("*.md"))}


def slug(heading: str) -> str:
    """GitHub's anchor for a heading (what a citation's ``#anchor`` names)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def section(text: str, anchor: str) -> str | None:
    """The section whose heading's anchor is ``anchor``: its heading down to the next heading of
    the same or a higher level (None: no such section). Headings inside code blocks do not count."""
    lines = text.splitlines(keepends=True)
    seen: dict[str, int] = {}
    start = level = None
    fenced = False
    for i, line in enumerate(lines):
        if line.startswith(_FENCE):
            fenced = not fenced
        m = None if fenced else _HEADING.match(line)
        if m is None:
            continue
        if start is not None and len(m.group(1)) <= level:  # type: ignore[operator]
            return "".join(lines[start:i])
        s = slug(m.group(2))
        n = seen.get(s, 0)
        seen[s] = n + 1
        if start is None and (s if n == 0 else f"{s}-{n}") == anchor:
            start, level = i, len(m.group(1))
    return None if start is None else "".join(lines[start:])


def _name(given: str) -> tuple[str, str]:
    """``docs/SEMANTICS.md#like``, ``SEMANTICS.md#like``, ``SEMANTICS#like`` or ``semantics`` -> (name, anchor)."""
    name, _, anchor = given.partition("#")
    name = name.removeprefix("docs/").removesuffix(".md")
    return name, anchor


def docs(
    name: Optional[str] = typer.Argument(  # noqa: UP045
        None, metavar="[NAME[#SECTION]]", help="SEMANTICS, FORMAT, dialects or artemis-xml; #SECTION (as a diagnostic's rule cites it) prints that section only."
    ),
    path: bool = typer.Option(False, "--path", help="Print where the document is (the directory, without NAME) instead of its text."),
) -> None:
    """Print the documents that diagnostics and help cite.

    They are installed with jmsctl. A citation such as docs/SEMANTICS.md#like is jmsctl docs SEMANTICS#like. Without NAME: the documents and where they are. Exit 0 printed, 2 no such document or section.

    Example: jmsctl docs SEMANTICS#like
    """
    docs_by_name = documents()
    if name is None:
        if path:
            sys.stdout.write(f"{docs_dir()}\n")
            return
        sys.stdout.write(f"jmsctl's documents, in {docs_dir()} (jmsctl docs NAME prints one):\n")
        for stem, file in docs_by_name.items():
            title = next((line.lstrip("# ").strip() for line in file.read_text(encoding="utf-8").splitlines() if line.startswith("# ")), "")
            sys.stdout.write(f"  {stem:<12} {title}\n")
        return
    stem, anchor = _name(name)
    found = docs_by_name.get(stem) or next((f for s, f in docs_by_name.items() if s.lower() == stem.lower()), None)
    if found is None:
        fail(f"docs: no document {stem!r}: one of {', '.join(docs_by_name)}")
    if path:
        sys.stdout.write(f"{found}{'#' + anchor if anchor else ''}\n")
        return
    text = found.read_text(encoding="utf-8")
    if anchor:
        part = section(text, anchor)
        if part is None:
            fail(f"docs: {found.stem} has no section #{anchor}")
        text = part
    sys.stdout.write(text if text.endswith("\n") else text + "\n")

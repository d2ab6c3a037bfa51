"""``check --fix`` and ``check --diff``: the fixed selectors, or a patch; what each fix assumes and
what was not applied on stderr. The fixes themselves are jmsctl/analysis/fixes.py."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from jmsctl import selector as sel
from jmsctl.analysis import fixes
from jmsctl.cli.render import Source
from jmsctl.diagnostics import Diagnostic
from jmsctl.patch import unified

Lint = Callable[[str, tuple[Diagnostic, ...]], tuple[Diagnostic, ...]]


def fix_source(src: Source, dialect: str, lint: Lint | None, portability: bool) -> fixes.Fixed:
    found = None
    if lint is not None:
        found = lint(src.text, sel.analyze(src.text, dialect).diagnostics)
    return fixes.fix(src.text, dialect, portability=found if portability else None, found=found)


def notes(where: str, fixed: fixes.Fixed) -> list[str]:
    """One line per fix applied (with what it assumes), per suggestion shown, and for a selector left invalid."""
    out: list[str] = []
    out.extend(f"{where}: fixed {fixes.describe(f, fixed.proof)}" for f in fixed.fixes)
    for s in fixed.suggestions:
        out.append(f"{where}: not applied {s.code} ({s.why}): {s.text}")
    if not fixed.valid:
        out.append(f"{where}: {fixed.proof}")
    return out


def report_fixes(sources: list[Source], texts: dict[str, str], as_json: bool, diff: bool, dialect: str,
                 lint: Lint | None, portability: bool, write_json: Callable[[Any], None]) -> int:
    """Exit 1 when a selector is still invalid after fixing, else 0. ``write_json``: check's writer."""
    results = [(src, fix_source(src, dialect, lint, portability)) for src in sources]
    invalid = sum(1 for _, f in results if not f.valid)
    if as_json:
        write_json({"selectors": [_json(src, f) for src, f in results],
                    "summary": {"checked": len(results), "fixed": sum(1 for _, f in results if f.changed),
                                "suggestions": sum(len(f.suggestions) for _, f in results), "invalid": invalid}})
        return 1 if invalid else 0
    for src, f in results:
        for line in notes(f"{src.name}:{src.first_line}", f):
            sys.stderr.write(line + "\n")
    if diff:
        sys.stdout.write(_patch(results, texts))
    else:
        for _, f in results:
            sys.stdout.write(f.text + "\n")
    return 1 if invalid else 0


def _patch(results: list[tuple[Source, fixes.Fixed]], texts: dict[str, str]) -> str:
    """Files (and stdin) as whole files with their fixed lines; each argument as a one-line file of its name."""
    out: list[str] = []
    by_file: dict[str, list[tuple[Source, fixes.Fixed]]] = {}
    for src, f in results:
        if src.name in texts:
            by_file.setdefault(src.name, []).append((src, f))
        elif f.changed:
            out.append(unified(src.text + "\n", f.text + "\n", src.name))
    for name, items in by_file.items():
        lines = texts[name].split("\n")
        for src, f in items:
            if f.changed and "\n" not in f.text:
                lines[src.first_line - 1] = lines[src.first_line - 1].replace(src.text, f.text, 1)
        out.append(unified(texts[name], "\n".join(lines), name))
    return "".join(out)


def _json(src: Source, f: fixes.Fixed) -> dict[str, Any]:
    return {"source": src.name, "line": src.first_line, "selector": src.text, "fixed": f.text, "changed": f.changed,
            "valid": f.valid, "proof": f.proof,
            "fixes": [{"code": x.code, "title": x.title, "assumes": x.assumes or None} for x in f.fixes],
            "suggestions": [{"code": s.code, "title": s.title, "text": s.text, "why": s.why} for s in f.suggestions]}


__all__ = ["fix_source", "notes", "report_fixes"]

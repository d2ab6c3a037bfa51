"""``scan --fix`` and ``scan --diff``: the proven fixes written into the files (all or nothing, each
file's mode kept, through jmsctl/outputs.py) or printed as one patch. The work is jmsctl/scan/fix.py."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from jmsctl import selector as sel
from jmsctl.analysis import fixes
from jmsctl.diagnostics import Diagnostic, locate
from jmsctl.outputs import Output, OutputError, open_output
from jmsctl.patch import unified_bytes
from jmsctl.scan import FileResult, encode_like, read_text
from jmsctl.scan.fix import FileFix, fix_file
from jmsctl.scan.verify import Checked

Lint = Callable[[str, tuple[Diagnostic, ...]], tuple[Diagnostic, ...]]


def _fixer(dialect: str, lint: Lint | None) -> Callable[[Checked], fixes.Fixed | None]:
    def fixer(checked: Checked) -> fixes.Fixed | None:
        text = checked.text
        found = lint(text, sel.analyze(text, dialect).diagnostics) if lint is not None else None
        return fixes.fix(text, dialect, portability=found, found=found)

    return fixer


def _broker_aware(fixer: Callable[[Checked], fixes.Fixed | None], who: str) -> Callable[[Checked], fixes.Fixed | None]:
    """No E005 fix in a file whose broker reads "x" as a property name (scan/broker.py): the
    selector works there, and a string literal would change what it selects."""
    if not who:
        return fixer

    def aware(checked: Checked) -> fixes.Fixed | None:
        got = fixer(checked)
        if got is not None and any(f.code == "E005" for f in got.fixes):
            return fixes.Fixed(got.original, got.original, (), False,
                               f"not fixed: {who} (this file's imports) reads \"...\" as a quoted property name, not a string")
        return got

    return aware


def _where(ff: FileFix, checked: Checked) -> str:
    at = locate(ff.old, checked.found.start)
    return f"{ff.path}:{at.line}:{at.column}"


def _notes(ff: FileFix, written: bool) -> list[str]:
    out: list[str] = []
    verb = "fixed" if written else "fix"
    for checked, fixed in ff.applied:
        out.extend(f"{_where(ff, checked)}: {verb} {fixes.describe(f, fixed.proof)}" for f in fixed.fixes)
        out.extend(f"{_where(ff, checked)}: not applied {s.code} ({s.why}): {s.text}" for s in fixed.suggestions)
    for checked, fixed in ff.shown:
        out.extend(f"{_where(ff, checked)}: not applied {s.code} ({s.why}): {s.text}" for s in fixed.suggestions)
    for d in ff.skipped:
        at = locate(ff.old, d.span.start)
        out.append(f"{ff.path}:{at.line}:{at.column}: not fixed ({d.message})")
    for checked, fixed, why in ff.refused:
        out.append(f"{_where(ff, checked)}: not fixed ({why})" + (f": {fixed.text}" if fixed.changed else ""))
    return out


def _display(path: str, roots: dict[str, str | None]) -> str:
    """The path as git apply wants it: relative to the root of the git work tree that holds the
    file; outside one, relative to the working directory when under it."""
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in roots:
        try:
            done = subprocess.run(["git", "-C", folder, "rev-parse", "--show-toplevel"], capture_output=True, text=True, timeout=60)
            roots[folder] = done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None
        except (OSError, subprocess.SubprocessError):
            roots[folder] = None
    root = roots[folder]
    if root is not None:
        return os.path.relpath(os.path.realpath(path), os.path.realpath(root)).replace(os.sep, "/")
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _patch(changed: list[FileFix], failures: list[str]) -> bytes:
    """One patch of the bytes on disk: each file's fixed text encoded as the file is (its BOM, its
    8-bit encoding), so git apply takes it."""
    roots: dict[str, str | None] = {}
    out: list[bytes] = []
    for ff in changed:
        try:
            with open(ff.path, "rb") as f:
                data = f.read()
        except OSError as exc:
            failures.append(f"{ff.path}: {exc.strerror or exc}")
            continue
        new = encode_like(data, ff.new) if read_text(data) == ff.old else None
        if new is None:
            failures.append(f"{ff.path}: changed while it was scanned, or a fixed character does not fit its encoding; not in the patch")
            continue
        out.append(unified_bytes(data, new, _display(ff.path, roots)))
    return b"".join(out)


def applied_json(ff: FileFix) -> list[dict[str, Any]]:
    """The fixes applied to one file, for ``--format json`` after ``--fix`` (a record for CI)."""
    out = []
    for checked, fixed in ff.applied:
        at = locate(ff.old, checked.found.start)
        out.append({"source": ff.path, "line": at.line, "column": at.column, "selector": fixed.original, "fixed": fixed.text,
                    "proof": fixed.proof, "fixes": [{"code": f.code, "title": f.title, "assumes": f.assumes or None} for f in fixed.fixes]})
    return out


def apply_fixes(results: list[FileResult], dialect: str, lint: Lint | None, *, write: bool, failures: list[str],
                applied: list[dict[str, Any]] | None = None) -> tuple[int, set[str]]:
    """The fixes of every file: written (``write``) or printed as a patch. Returns the exit status
    (--diff: 1 when the patch is not empty) and the files written; ``applied`` gets a record of
    each fix written."""
    fixer = _fixer(dialect, lint)
    fixed = [fix_file(r, _broker_aware(fixer, r.quoted_ids)) for r in results]
    for ff in fixed:
        for line in _notes(ff, write):
            sys.stderr.write(line + "\n")
    changed = [ff for ff in fixed if ff.changed]
    if not write:
        patch = _patch(changed, failures)
        sys.stdout.flush()
        sys.stdout.buffer.write(patch)
        sys.stdout.buffer.flush()
        return (1 if changed else 0), set()
    written = _write(changed, failures)
    if applied is not None:
        applied.extend(x for ff in fixed if ff.path in written for x in applied_json(ff))
    return 0, written


def _write(changed: list[FileFix], failures: list[str]) -> set[str]:
    """Every changed file replaced, or none: all are written to temporary files first, then renamed."""
    outputs: list[Output] = []
    try:
        for ff in changed:
            with open(ff.path, "rb") as f:
                data = f.read()
            if read_text(data) != ff.old:
                raise OutputError(f"{ff.path}: changed while it was scanned; not fixed")
            encoded = encode_like(data, ff.new)
            if encoded is None:
                raise OutputError(f"{ff.path}: a fixed character does not fit the file's encoding; not fixed")
            out = open_output(ff.path)
            outputs.append(out)
            out.write(encoded)
        for out in outputs:
            out.commit()
    except (OSError, OutputError) as exc:
        for out in outputs:
            out.discard()
        failures.append(str(exc) if isinstance(exc, OutputError) else f"{getattr(exc, 'filename', '') or 'scan --fix'}: {exc.strerror or exc}")
        return set()
    return {ff.path for ff in changed}


__all__ = ["apply_fixes"]

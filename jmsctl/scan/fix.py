"""``scan --fix`` / ``scan --diff``: a selector's fixes written back into its source, in the file's
own escaping, only where the selector is one constant literal (``Found.literal``, no hole).

The fixes are the smallest edits of the decoded selector (jmsctl/analysis/fixes.py). Each edit
becomes an edit of the file through the ``Mapped`` offsets: the characters it removes are their
source characters (escapes and all), and the characters it adds are spelled as this selector
already spells them where it can (``&lt;`` in an XML attribute that has one, ``%27`` in a URI
that writes quotes so), else escaped as the place needs (``\\"`` in a Java string, ``&apos;`` in a
'-quoted attribute, ``''`` in a '-quoted YAML scalar, ``%25`` in a URI...). Then the file is
read again by its own extractor, and the fix is kept only if that finds the fixed selector where
the old one was and every other selector unchanged: a spelling that would not read back is
refused, never written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from jmsctl.analysis.fixes import Fixed
from jmsctl.diagnostics import Diagnostic
from jmsctl.scan import FileResult
from jmsctl.scan.extractors import Extractor, for_path
from jmsctl.scan.found import Found, Hole, Mapped, NotScanned
from jmsctl.scan.verify import Checked

FileEdit = tuple[int, int, str]


@dataclass
class FileFix:
    path: str
    old: str
    new: str
    applied: list[tuple[Checked, Fixed]] = field(default_factory=list)
    refused: list[tuple[Checked, Fixed, str]] = field(default_factory=list)  # with the reason
    shown: list[tuple[Checked, Fixed]] = field(default_factory=list)  # unchanged, with suggestions only
    skipped: list[Diagnostic] = field(default_factory=list)  # the file was not scanned (I002): why, never a traceback

    @property
    def changed(self) -> bool:
        return self.new != self.old


def _written(found: Found) -> str:
    return "".join(p.text if isinstance(p, Mapped) else p.source for p in found.pieces)


def _found(extractor: Extractor, path: str, text: str) -> list[Found]:
    return sorted(extractor.extract(path, text), key=lambda f: (f.start, f.end))


_JVM_DOLLAR = (".kt", ".kts", ".groovy", ".gradle")


def _escapes(path: str, found: Found, text: str, mapped: Mapped) -> dict[str, str]:
    """How a character the place does not take as itself is written there (the default spelling)."""
    lower = path.lower()
    before = text[mapped.starts[0] - 1] if mapped.starts and mapped.starts[0] > 0 else ""
    quote = before if before in ("'", '"') else ""
    table: dict[str, str] = {}
    if lower.endswith((".java", ".kt", ".kts", ".scala", ".sc", ".groovy", ".gradle", ".py")):
        table = {"\\": "\\\\", "\n": "\\n", "\t": "\\t", '"': '\\"'}
        if quote == "'":
            table["'"] = "\\'"
        if lower.endswith(_JVM_DOLLAR):
            table["$"] = "\\$"
    elif lower.endswith(".xml"):
        head = text[: mapped.starts[0]] if mapped.starts else ""
        if head.rfind("<![CDATA[") > head.rfind("]]>"):
            table = {}  # inside CDATA every character is itself
        else:
            table = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
            if quote != "'":
                table['"'] = "&quot;"
            if quote != '"':
                table["'"] = "&apos;"
    elif lower.endswith(".properties"):
        table = {"\\": "\\\\", "\n": "\\n"}
    elif lower.endswith((".yml", ".yaml")):
        table = {"'": "''"} if quote == "'" else {'"': '\\"', "\\": "\\\\"} if quote == '"' else {}
    if found.kind == "endpoint URI":  # URL-encode first, then the outer place's escaping of the result
        outer = table
        url = {"%": "%25", "&": "%26", "+": "%2B", "#": "%23", " ": "%20"}
        if any(text[a:b].startswith("%") for a, b in zip(mapped.starts, mapped.ends, strict=True)):  # a URI written encoded: encode as it does
            url.update({"<": "%3C", ">": "%3E", "=": "%3D", "'": "%27", "!": "%21", "(": "%28", ")": "%29", ",": "%2C"})
        table = {ch: "".join(outer.get(c, c) for c in enc) for ch, enc in url.items()}
        table.update({ch: enc for ch, enc in outer.items() if ch not in table})
    return table


def _spellings(text: str, mapped: Mapped) -> dict[str, str]:
    """How this selector already writes each character it holds (a character from its own source span)."""
    out: dict[str, str] = {}
    n = len(mapped.text)
    for i, ch in enumerate(mapped.text):
        if ch in out:
            continue
        alone = (i == 0 or mapped.starts[i - 1] != mapped.starts[i]) and (i == n - 1 or mapped.starts[i + 1] != mapped.starts[i])
        if alone and mapped.ends[i] > mapped.starts[i]:
            out[ch] = text[mapped.starts[i] : mapped.ends[i]]
    return out


def file_edits(path: str, found: Found, text: str, fixed: Fixed) -> list[FileEdit]:
    """The selector's edits as edits of the file's text."""
    mapped = found.pieces[0]
    assert isinstance(mapped, Mapped)
    spell = {**_escapes(path, found, text, mapped), **_spellings(text, mapped)}
    out: list[FileEdit] = []
    n = len(mapped.text)
    for a, b, new in fixed.edits:
        if a < b:
            start, end = mapped.starts[a], mapped.ends[b - 1]
        else:
            start = end = mapped.starts[a] if a < n else mapped.ends[n - 1]
        out.append((start, end, "".join(spell.get(ch, ch) for ch in new)))
    return out


def _apply(text: str, edits: list[FileEdit]) -> str:
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _overlap(edits: list[FileEdit]) -> bool:
    spans = sorted((s, e) for s, e, _ in edits)
    return any(spans[i][1] > spans[i + 1][0] or (spans[i] == spans[i + 1]) for i in range(len(spans) - 1))


def _also(other: Found, text: str, found: Found, fixed: Fixed) -> str:
    """What another selector reads once ``found``'s literal is fixed: a constant used again in a
    concatenation (``SEL + " AND b = 2"``) reads the fixed text where it holds the old one."""
    mapped = found.pieces[0]
    if not isinstance(mapped, Mapped) or not mapped.starts:
        return text
    lo, hi = mapped.starts[0], mapped.ends[-1]
    if not any(isinstance(p, Mapped) and any(lo <= s < hi for s in p.starts) for p in other.pieces):
        return text
    return text.replace(fixed.original, fixed.text, 1)


def fix_file(result: FileResult, fixer: Callable[[Checked], Fixed | None], extractor: Extractor | None = None) -> FileFix:
    """Every applicable fix of one scanned file, each checked by reading the file again."""
    extractor = extractor or for_path(result.path)
    out = FileFix(result.path, result.text, result.text)
    if extractor is None or result.cuts:  # a text with cuts is not the file: fixes are made from a whole read
        return out
    if result.notes:  # not scanned (I002): nothing of it is fixed, and the rest of the tree is
        out.skipped.extend(result.notes)
        return out
    try:
        founds = _found(extractor, result.path, result.text)
    except NotScanned as exc:
        out.skipped.append(exc.diagnostic)
        return out
    before = [_written(f) for f in founds]
    accepted: list[FileEdit] = []
    expected = list(before)
    for index, checked in enumerate(result.selectors):  # in the order of _found's: the same extraction
        found = checked.found
        if found.dynamic or any(isinstance(p, Hole) for p in found.pieces) or len(found.pieces) != 1:
            if checked.errors:
                out.refused.append((checked, Fixed(checked.text, checked.text, (), False, "built at run time"),
                                    "built at run time: only a selector that is one constant literal is rewritten"))
            continue
        fixed = fixer(checked)
        if fixed is None:
            continue
        if not fixed.changed:
            if checked.errors and not fixed.valid:  # said as check --fix says it: why it stays invalid
                out.refused.append((checked, fixed, fixed.proof.removeprefix("not fixed: ")))
            if fixed.suggestions:
                out.shown.append((checked, fixed))
            continue
        if index < len(before) and before[index] == fixed.original and expected[index] == fixed.text:
            out.applied.append((checked, fixed))  # a constant used twice (or in a concatenation): fixed with the first use
            continue
        if not found.literal:
            out.refused.append((checked, fixed, "not one constant literal of the file (a concatenation or a constant built of parts): shown, not written"))
            continue
        if index >= len(before) or before[index] != fixed.original:
            out.refused.append((checked, fixed, "not found again in the file"))
            continue
        edits = file_edits(result.path, found, result.text, fixed)
        trial = [*accepted, *edits]
        if _overlap(trial):
            out.refused.append((checked, fixed, "its source overlaps another fix's"))
            continue
        want = [fixed.text if f.pieces == found.pieces else _also(f, w, found, fixed) for f, w in zip(founds, expected, strict=True)]
        new_text = _apply(result.text, trial)
        try:
            got = [_written(f) for f in _found(extractor, result.path, new_text)]
        except (NotScanned, ValueError, LookupError, RecursionError) as exc:  # the rewritten file refused: the fix is refused, said
            out.refused.append((checked, fixed, f"the file would not read back ({type(exc).__name__})"))
            continue
        if got != want:
            out.refused.append((checked, fixed, "its spelling in this file would not read back as the fixed selector"))
            continue
        accepted, expected = trial, want
        out.applied.append((checked, fixed))
    out.new = _apply(result.text, accepted)
    return out


__all__ = ["FileFix", "file_edits", "fix_file"]

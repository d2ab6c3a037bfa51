"""``jmsctl scan``: files -> extractors -> Found selectors -> the engine -> diagnostics at file:line:col.

walk.py lists the files (``.gitignore``, ``--include``/``--exclude``); extractors/ find selectors
in each kind of file; verify.py checks them (placeholders and run-time parts as holes); sarif.py
writes SARIF 2.1.0. The CLI (cli/commands/scan.py) only wires options and renders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from jmsctl.diagnostics import Diagnostic
from jmsctl.scan import cuts as _cuts
from jmsctl.scan.extractors import Extractor, for_path
from jmsctl.scan.found import Hole, NotScanned
from jmsctl.scan.verify import Checked, Lint, verify
from jmsctl.selector import Analysis, analyze


@dataclass(frozen=True)
class FileResult:
    path: str
    text: str  # the decoded file (diagnostic spans are offsets into it), long plain runs cut out (scan/cuts.py)
    selectors: tuple[Checked, ...]
    notes: tuple[Diagnostic, ...] = ()  # about the file itself: not scanned, and why (infos)
    # Where ``text`` lost characters of the file: lines and columns located in it are the file's,
    # absolute offsets are moved by ``file_offset``. Empty for a file read whole.
    cuts: tuple[_cuts.Cut, ...] = ()

    def file_offset(self, offset: int) -> int:
        """An offset in ``text`` as an offset in the whole file's text."""
        return _cuts.file_offset(self.cuts, offset)


def read_text(data: bytes) -> str:
    """UTF-8 (a BOM dropped), else Latin-1: one character per byte, so columns stay exact for
    8-bit files. CRLF kept: offsets are the file's."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def encode_like(original: bytes, text: str) -> bytes | None:
    """``text`` in the encoding ``read_text`` read ``original`` with (its BOM kept); None when a
    character does not fit (a fix's character in a Latin-1 file)."""
    bom = b"\xef\xbb\xbf" if original.startswith(b"\xef\xbb\xbf") else b""
    try:
        original[len(bom):].decode("utf-8")
        return bom + text.encode("utf-8")
    except UnicodeDecodeError:
        try:
            return text.encode("latin-1")
        except UnicodeEncodeError:
            return None
    except UnicodeEncodeError:  # a lone surrogate
        return None


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:8192]


def scan_file(path: str, analyze_text: Callable[[str], Analysis] = analyze, lint: Lint | None = None,
              whole: bool = False) -> FileResult | None:
    """``scan_bytes`` of a file read here: its bytes are let go once decoded, so that a large file
    is not held twice while its selectors are looked for. OSError when it cannot be read."""
    extractor = for_path(path)
    if extractor is None:
        return None
    with open(path, "rb") as f:
        data = f.read()
    if not extractor.triggered(data) or is_binary(data):
        return None
    if whole or len(data) < _cuts.BIG:
        text = read_text(data)
        del data
        return _extracted(path, text, (), extractor, analyze_text, lint)
    text, cuts = _cuts.read_cut(data, extractor.keep)
    del data
    result = _extracted(path, text, cuts, extractor, analyze_text, lint)
    return result if result is not None else scan_file(path, analyze_text, lint, whole=True)


def scan_bytes(path: str, data: bytes, extractor: Extractor | None = None,
               analyze_text: Callable[[str], Analysis] = analyze, lint: Lint | None = None,
               whole: bool = False) -> FileResult | None:
    """The selectors of one file's content; None when it is binary, of no known kind, or holds
    no trigger word (then it is not parsed at all). A large file's plain runs are cut out unless
    ``whole`` (scan/cuts.py); the results are the same."""
    extractor = extractor or for_path(path)
    if extractor is None or not extractor.triggered(data) or is_binary(data):
        return None
    if not whole and len(data) >= _cuts.BIG:
        result = _extracted(path, *_cuts.read_cut(data, extractor.keep), extractor, analyze_text, lint)
        if result is not None:
            return result
    return _extracted(path, read_text(data), (), extractor, analyze_text, lint)


def _extracted(path: str, text: str, cuts: tuple[_cuts.Cut, ...], extractor: Extractor,
               analyze_text: Callable[[str], Analysis], lint: Lint | None) -> FileResult | None:
    """The file's selectors checked; None when the text has cuts and one of them may be part of
    what was found (the caller reads the file again whole)."""
    try:
        found = sorted(extractor.extract(path, text), key=lambda f: (f.start, f.end))
    except NotScanned as exc:
        if cuts and _cuts.touched(text, cuts, exc.diagnostic.span):
            return None
        return FileResult(path, text, (), (exc.diagnostic,), cuts)
    checked = tuple(verify(f, analyze_text, lint, path) for f in found)
    if cuts and any(_cuts.touched(text, cuts, _offsets(c)) for c in checked):
        return None
    return FileResult(path, text, checked, (), cuts)


def _offsets(checked: Checked) -> Iterator[int]:
    """Every file offset a checked selector stands on: its expression, its pieces' sources, its
    diagnostics."""
    found = checked.found
    yield found.start
    yield found.end
    for p in found.pieces:
        if isinstance(p, Hole):
            yield p.start
            yield p.end
        elif p.starts:
            yield min(p.starts)
            yield max(p.ends)
    for d in checked.diagnostics:
        yield d.span.start
        yield d.span.end


__all__ = ["FileResult", "encode_like", "is_binary", "read_text", "scan_bytes", "scan_file"]

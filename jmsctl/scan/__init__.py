"""``jmsctl scan``: files -> extractors -> Found selectors -> the engine -> diagnostics at file:line:col.

walk.py lists the files (``.gitignore``, ``--include``/``--exclude``); extractors/ find selectors
in each kind of file; verify.py checks them (placeholders and run-time parts as holes); sarif.py
writes SARIF 2.1.0. The CLI (cli/commands/scan.py) only wires options and renders.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jmsctl.diagnostics import Diagnostic
from jmsctl.scan.extractors import Extractor, for_path
from jmsctl.scan.found import NotScanned
from jmsctl.scan.verify import Checked, Lint, verify
from jmsctl.selector import Analysis, analyze


@dataclass(frozen=True)
class FileResult:
    path: str
    text: str  # the decoded file (diagnostic spans are offsets into it)
    selectors: tuple[Checked, ...]
    notes: tuple[Diagnostic, ...] = ()  # about the file itself: not scanned, and why (infos)


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


def scan_file(path: str, analyze_text: Callable[[str], Analysis] = analyze, lint: Lint | None = None) -> FileResult | None:
    """``scan_bytes`` of a file read here: its bytes are let go once decoded, so that a large file
    is not held twice while its selectors are looked for. OSError when it cannot be read."""
    extractor = for_path(path)
    if extractor is None:
        return None
    with open(path, "rb") as f:
        data = f.read()
    if not extractor.triggered(data) or is_binary(data):
        return None
    text = read_text(data)
    del data
    return _extracted(path, text, extractor, analyze_text, lint)


def scan_bytes(path: str, data: bytes, extractor: Extractor | None = None,
               analyze_text: Callable[[str], Analysis] = analyze, lint: Lint | None = None) -> FileResult | None:
    """The selectors of one file's content; None when it is binary, of no known kind, or holds
    no trigger word (then it is not parsed at all)."""
    extractor = extractor or for_path(path)
    if extractor is None or not extractor.triggered(data) or is_binary(data):
        return None
    return _extracted(path, read_text(data), extractor, analyze_text, lint)


def _extracted(path: str, text: str, extractor: Extractor, analyze_text: Callable[[str], Analysis], lint: Lint | None) -> FileResult:
    try:
        found = sorted(extractor.extract(path, text), key=lambda f: (f.start, f.end))
    except NotScanned as exc:
        return FileResult(path, text, (), (exc.diagnostic,))
    return FileResult(path, text, tuple(verify(f, analyze_text, lint, path) for f in found))


__all__ = ["FileResult", "encode_like", "is_binary", "read_text", "scan_bytes", "scan_file"]

"""``jmsctl scan``: files -> extractors -> Found selectors -> the engine -> diagnostics at file:line:col.

walk.py lists the files (``.gitignore``, ``--include``/``--exclude``); extractors/ find selectors
in each kind of file; verify.py checks them (placeholders and run-time parts as holes); sarif.py
writes SARIF 2.1.0. The CLI (cli/commands/scan.py) only wires options and renders.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from jmsctl.diagnostics import Diagnostic, Span, warning
from jmsctl.scan import broker as _broker
from jmsctl.scan import cuts as _cuts
from jmsctl.scan.extractors import Extractor, for_path
from jmsctl.scan.found import Hole, Mapped, NotScanned
from jmsctl.scan.verify import Checked, Lint, verify
from jmsctl.selector import Analysis, analyze
from jmsctl.selector.limits import clip


@dataclass(frozen=True)
class FileResult:
    path: str
    text: str  # the decoded file (diagnostic spans are offsets into it), long plain runs cut out (scan/cuts.py)
    selectors: tuple[Checked, ...]
    notes: tuple[Diagnostic, ...] = ()  # about the file itself: not scanned, and why (infos)
    # Where ``text`` lost characters of the file: lines and columns located in it are the file's,
    # absolute offsets are moved by ``file_offset``. Empty for a file read whole.
    cuts: tuple[_cuts.Cut, ...] = ()
    quoted_ids: str = ""  # who reads "x" as a property name in this file (scan/broker.py), or ''

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
    """``scan_bytes`` of a file read here. A file under ``cuts.BIG`` is read whole and its bytes let
    go once decoded; a larger one is read a block at a time and only its text with the long plain
    runs cut out is built (scan/cuts.py), unless ``whole``. OSError when it cannot be read."""
    extractor = for_path(path)
    if extractor is None:
        return None
    with open(path, "rb") as f:
        if not whole and os.fstat(f.fileno()).st_size >= _cuts.BIG:
            return _large(path, f, extractor, analyze_text, lint)
        data = f.read()
    if not extractor.triggered(data) or is_binary(data):
        return None
    text = read_text(data)
    del data
    return _extracted(path, text, (), extractor, analyze_text, lint)


def scan_bytes(path: str, data: bytes, extractor: Extractor | None = None,
               analyze_text: Callable[[str], Analysis] = analyze, lint: Lint | None = None,
               whole: bool = False) -> FileResult | None:
    """The selectors of one file's content; None when it is binary, of no known kind, or holds
    no trigger word (then it is not parsed at all). Large content is read as ``scan_file`` reads
    a large file unless ``whole``; the results are the same."""
    extractor = extractor or for_path(path)
    if extractor is None:
        return None
    if not whole and len(data) >= _cuts.BIG:
        return _large(path, io.BytesIO(data), extractor, analyze_text, lint)
    if not extractor.triggered(data) or is_binary(data):
        return None
    text = read_text(data)
    return _extracted(path, text, (), extractor, analyze_text, lint)


def _large(path: str, f: BinaryIO, extractor: Extractor, analyze_text: Callable[[str], Analysis], lint: Lint | None) -> FileResult | None:
    """A large file's selectors from its cut text; when one may involve what was cut, from its
    whole text (read again: memory as before the cuts, for that file only)."""
    read = _cuts.read_large(f, extractor.words, extractor.trigger, extractor.keep, extractor.context)
    if read is None:
        return None
    result = _extracted(path, *read, extractor, analyze_text, lint)
    if not _touches_cut(result):
        return result
    del read, result
    f.seek(0)
    text = read_text(f.read())
    return _extracted(path, text, (), extractor, analyze_text, lint)


def _extracted(path: str, text: str, cuts: tuple[_cuts.Cut, ...], extractor: Extractor,
               analyze_text: Callable[[str], Analysis], lint: Lint | None) -> FileResult:
    try:
        found = sorted(extractor.extract(path, text), key=lambda f: (f.start, f.end))
    except NotScanned as exc:
        return FileResult(path, text, (), (exc.diagnostic,), cuts)
    checked = tuple(_uri_cut(verify(f, analyze_text, lint, path), text) for f in found)
    who = _broker.quoted_ids(text) if any(d.code == "E005" for c in checked for d in c.diagnostics) else ""
    if who:
        checked = tuple(Checked(c.found, c.text, tuple(_broker.noted(d, who) for d in c.diagnostics)) for c in checked)
    return FileResult(path, text, checked, (), cuts, who)


_AMP = re.compile(r"&(?:amp;)?")
_OPTION = re.compile(r"[\w.\-]+=")


def _uri_cut(checked: Checked, text: str) -> Checked:
    """W019: an endpoint URI's selector that Camel cuts at '&' (``?selector=a = 1 && b = 2``): the
    query is split at every '&' (camel-util URISupport.parseQuery), so the consumer gets the text
    before it; '&' that starts no ``name=`` option is the selector's own."""
    found = checked.found
    last = found.pieces[-1] if found.pieces else None
    if found.kind != "endpoint URI" or not isinstance(last, Mapped) or not last.text:
        return checked
    end = last.ends[-1]
    amp = _AMP.match(text, end)
    if amp is None or _OPTION.match(text, amp.end()):
        return checked
    rest = text[amp.end() : amp.end() + 40].split("\n", 1)[0].split('"', 1)[0].replace("&amp;", "&")
    d = warning("W019", f"the endpoint URI cuts the selector at '&': the consumer gets `{clip(checked.text)}`, "
                f"and `{clip(rest)}` is read as another option",
                Span(end, amp.end()), hint="a URI query is split at '&': write AND / OR, or encode '&' as %26")
    return Checked(found, checked.text, (*checked.diagnostics, d))


def _touches_cut(r: FileResult) -> bool:
    """Whether a selector, its source, a diagnostic or a note stands on a line that lost characters."""
    return bool(r.cuts) and (any(_cuts.touched(r.text, r.cuts, d.span) for d in r.notes)
                             or any(_cuts.touched(r.text, r.cuts, _offsets(c)) for c in r.selectors))


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

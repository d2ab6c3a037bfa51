"""Duplicate keys in JSON text, found exactly.

orjson and msgspec keep the last of two equal keys without a word, and other readers keep the
first, so a record that repeats a key means different things to different consumers: the loader
rejects it. Keys are compared as JSON strings, after their escapes are decoded (``"a"`` and
``"\\u0061"`` are the same key).

Three layers, from cheap to thorough:

- ``unique_keys_proved(raw, parsed)``: "no duplicate" for the usual record in a few microseconds,
  from the reading orjson already made of it (a colon count; see its docstring);
- ``has_duplicate_key(raw)``: exact on valid JSON, the standard library's C scanner with a hook that
  only compares the keys of each object and builds nothing;
- ``first_duplicate_key(raw)``: the repeated key and where it is, from an iterative scan, token by
  token in document order (no recursion limit); run only when there is something to find.

None of them raises on any input; on text that is not valid JSON the answer is unspecified (the
loader rejects such a record as invalid JSON first).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import orjson

Path = tuple[str | int, ...]  # object keys and array indices from the document's root


class _Duplicate(Exception):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> None:
    if len(pairs) > 1 and len({k for k, _ in pairs}) != len(pairs):
        raise _Duplicate
    return None  # nothing is built: only the keys matter


_QUICK = json.JSONDecoder(object_pairs_hook=_pairs, parse_int=len, parse_float=len, parse_constant=len)


def unique_keys_proved(raw: bytes, parsed: Any) -> bool:
    """True when no object of ``raw`` repeats a key, proved cheaply from ``parsed``, orjson's reading
    of ``raw`` (dicts, lists, strings, numbers); False means "not proved": ask ``has_duplicate_key``.

    Every member of an object in ``raw`` has one structural colon, and any other colon is inside a
    string. orjson writes ``parsed`` back with one colon per member it kept and the strings it kept,
    colons unescaped. Unless an escape spells a colon (``\\u003a``), the colons of ``raw`` count its
    members plus the colons of its strings, a superset of the strings kept; so the two counts are
    equal exactly when no member was dropped, that is when no key repeats."""
    if b"\\u003" in raw:
        return False
    try:
        return raw.count(b":") == orjson.dumps(parsed).count(b":")
    except (orjson.JSONEncodeError, TypeError):  # nested deeper than orjson writes, or not orjson's types
        return False


def has_duplicate_key(raw: bytes) -> bool:
    """Whether any object of the JSON text ``raw`` repeats a key (exact on valid JSON)."""
    try:
        _QUICK.decode(raw.decode("utf-8"))
    except _Duplicate:
        return True
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the C scanner goes
        return next(_duplicates(raw), None) is not None
    return False


def first_duplicate_key(raw: bytes) -> tuple[str, str] | None:
    """The first repeated key of the JSON text ``raw``, in document order, as (field path, key):
    the path names the repeated member as RecordError fields do (``properties.x``,
    ``body[2].type``, ``headers.JMSType``); None when no object repeats a key."""
    if not has_duplicate_key(raw):
        return None
    found = next(_duplicates(raw), None)
    return None if found is None else (field_path(found[0]), found[1])


def first_duplicate_key_per_item(raw: bytes) -> dict[int, tuple[str, str]]:
    """For a JSON array of records: item index -> its first repeated key (field path within the
    item, key). Empty when no object repeats a key."""
    if not has_duplicate_key(raw):
        return {}
    out: dict[int, tuple[str, str]] = {}
    for path, key in _duplicates(raw):
        if path and isinstance(path[0], int) and path[0] not in out:
            out[path[0]] = (field_path(path[1:]), key)
    return out


def field_path(path: Path) -> str:
    """``("body", 2, "type")`` -> ``body[2].type``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


# A string token (escapes kept), or one structural character; numbers, literals and white space
# fall between the matches and are skipped.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\],]', re.DOTALL)


def _key(token: bytes) -> str:
    inner = token[1:-1]
    if b"\\" not in inner:
        return inner.decode("utf-8", "surrogateescape")
    try:
        return json.loads(token.decode("utf-8", "surrogateescape"))  # type: ignore[no-any-return]
    except ValueError:  # a broken escape: not JSON, compare the spelling
        return inner.decode("utf-8", "surrogateescape")


def _duplicates(raw: bytes) -> Iterator[tuple[Path, str]]:
    """Every repeated key, in document order: (path of the repeated member, key).

    One frame per open container: an object's frame is the set of its keys so far, an array's is
    None; ``path`` holds the current key or index of each open container."""
    frames: list[set[str] | None] = []
    path: list[str | int] = []
    expect_key = False
    for m in _TOKEN.finditer(raw):
        token = m.group()
        c = token[0]
        if c == 0x22:  # '"'
            if expect_key and frames:
                key = _key(token)
                seen = frames[-1]
                assert seen is not None
                path[-1] = key
                if key in seen:
                    yield tuple(path), key
                seen.add(key)
                expect_key = False
        elif c == 0x7B:  # '{'
            frames.append(set())
            path.append("")
            expect_key = True
        elif c == 0x5B:  # '['
            frames.append(None)
            path.append(0)
            expect_key = False
        elif c == 0x2C:  # ','
            if frames and frames[-1] is None:
                path[-1] = int(path[-1]) + 1
            else:
                expect_key = bool(frames)
        elif frames:  # '}' or ']'
            frames.pop()
            path.pop()
            expect_key = False

"""Duplicate keys (jmsctl/messages/jsonkeys.py): exact for every JSON spelling of a key, located in
document order, cheap proof of uniqueness never wrong, and no exception on any bytes."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jmsctl.messages.jsonkeys import (
    field_path,
    first_duplicate_key,
    first_duplicate_key_per_item,
    has_duplicate_key,
    unique_keys_proved,
)


class Obj(list):  # type: ignore[type-arg]
    """A JSON object as the list of its members, repeats kept."""


KEYS = st.text(alphabet="ab:\u00e9\U0001f600\"\\", min_size=0, max_size=3)
SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False) | KEYS
TREES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.lists(st.tuples(KEYS, inner), max_size=4).map(Obj), max_leaves=25)


def _string(s: str, draw: Any) -> str:
    """One JSON spelling of ``s``: each character literal or as a \\u escape (surrogate pairs for
    characters beyond the BMP), and the escapes in either case of hex digit."""
    out = ['"']
    for ch in s:
        forced = ch in '"\\'
        if forced or draw(st.booleans()):
            if forced and draw(st.booleans()):
                out.append("\\" + ch)
                continue
            units = [ord(ch)] if ord(ch) < 0x10000 else [0xD800 + ((ord(ch) - 0x10000) >> 10), 0xDC00 + ((ord(ch) - 0x10000) & 0x3FF)]
            for u in units:
                text = f"\\u{u:04x}"
                out.append(text.upper().replace("\\U", "\\u") if draw(st.booleans()) else text)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _dump(tree: Any, draw: Any) -> str:
    ws = draw(st.sampled_from(["", " ", "\n ", "\t"]))
    if isinstance(tree, Obj):
        return "{" + ws + ",".join(f"{_string(k, draw)}{ws}:{ws}{_dump(v, draw)}" for k, v in tree) + ws + "}"
    if isinstance(tree, list):
        return "[" + ws + f",{ws}".join(_dump(v, draw) for v in tree) + "]"
    if isinstance(tree, str):
        return _string(tree, draw)
    return json.dumps(tree)


def _reference(tree: Any, path: tuple[Any, ...] = ()) -> tuple[tuple[Any, ...], str] | None:
    """The first repeated key in document order: an object's members in order, each key checked
    before the member's value is entered (the recursive definition the scanner must match)."""
    if isinstance(tree, Obj):
        seen: set[str] = set()
        for k, v in tree:
            if k in seen:
                return (*path, k), k
            seen.add(k)
            found = _reference(v, (*path, k))
            if found:
                return found
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            found = _reference(v, (*path, i))
            if found:
                return found
    return None


@st.composite
def spelled_trees(draw: Any) -> tuple[bytes, Any]:
    """A JSON value with repeated keys now and then, and one spelling of it."""
    tree = draw(TREES)
    return _dump(tree, draw).encode("utf-8"), tree


def check_duplicates(case: tuple[bytes, Any]) -> None:
    raw, tree = case
    expected = _reference(tree)
    assert has_duplicate_key(raw) is (expected is not None)
    assert first_duplicate_key(raw) == (None if expected is None else (field_path(expected[0]), expected[1]))
    if isinstance(tree, list) and not isinstance(tree, Obj):
        per_item = {i: _reference(v) for i, v in enumerate(tree)}
        want = {i: (field_path(f[0]), f[1]) for i, f in per_item.items() if f is not None}
        assert first_duplicate_key_per_item(raw) == want
    if unique_keys_proved(raw, orjson.loads(raw)):  # the cheap proof is never wrong
        assert expected is None


JSONKEYS_TARGETS = {"duplicate keys": (spelled_trees, check_duplicates)}


@given(spelled_trees())
def test_duplicates_match_the_reference(case: tuple[bytes, Any]) -> None:
    check_duplicates(case)


@pytest.mark.parametrize(
    ("raw", "found"),
    [
        (b'{"a": 1, "\\u0061": 2}', ("a", "a")),
        (b'{"\\u00E9": 1, "\xc3\xa9": 2}', ("\u00e9", "\u00e9")),
        (b'{"\\ud83d\\ude00": 1, "\xf0\x9f\x98\x80": 2}', ("\U0001f600", "\U0001f600")),
        (b'{"headers": {"JMSType": "a", "JMSType": "b"}}', ("headers.JMSType", "JMSType")),
        (b'{"properties": {"x": {"type": "int", "type": "long", "value": 1}}}', ("properties.x.type", "type")),
        (b'{"type": "stream", "body": [1, {"type": "bytes", "value": "", "value": "AA=="}]}', ("body[1].value", "value")),
        (b'{"x": "a\\",\\"x\\":", "y": {"x": 1}}', None),  # keys inside strings are not keys
        (b'{"a": {"a": {"a": 1}}}', None),  # equal keys of different objects
        (b'{"a":1,"b":2,"a":3,"b":4}', ("a", "a")),  # the first repeat in document order
    ],
)
def test_examples(raw: bytes, found: tuple[str, str] | None) -> None:
    assert first_duplicate_key(raw) == found
    assert not unique_keys_proved(raw, orjson.loads(raw)) if found else unique_keys_proved(raw, orjson.loads(raw))


def test_deeper_than_any_recursion_limit() -> None:
    depth = 100_000
    raw = b'{"k":' * depth + b'{"z": 1, "z": 2}' + b"}" * depth
    assert first_duplicate_key(raw) == (".".join(["k"] * depth + ["z"]), "z")
    assert first_duplicate_key(b"[" * depth + b"]" * depth) is None


def test_escaped_colon_is_not_proved() -> None:
    raw = b'{"a": 1, "a": "\\u003a"}'  # the escape spells the colon the dropped member took away
    assert raw.count(b":") == orjson.dumps(orjson.loads(raw)).count(b":")  # the counts alone would agree
    assert not unique_keys_proved(raw, orjson.loads(raw))
    assert first_duplicate_key(raw) == ("a", "a")


@given(st.binary(max_size=200))
def test_never_raises_on_any_bytes(raw: bytes) -> None:
    result = first_duplicate_key(raw)
    assert result is None or isinstance(result[1], str)
    assert isinstance(has_duplicate_key(raw), bool)
    first_duplicate_key_per_item(raw)

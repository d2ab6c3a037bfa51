"""LIKE: agrees with a straightforward regex translation on small inputs, and stays linear on
patterns that make a backtracking regex explode."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from jmsctl.selector.like import compile_like


def reference(pattern: str, escape: str | None, value: str) -> bool:
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if escape is not None and c == escape and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "%" else "." if c == "_" else re.escape(c))
        i += 1
    return re.fullmatch("".join(out), value, re.DOTALL) is not None


ALPHABET = ["a", "b", "%", "_", "!", "\n", ".", "*", "😀"]


@st.composite
def patterns(draw):
    escape = draw(st.sampled_from([None, "!"]))
    chars = draw(st.lists(st.sampled_from(ALPHABET), max_size=8))
    out = []
    for c in chars:
        out.append(c + draw(st.sampled_from(["%", "_", "!"])) if escape and c == escape else c)
    return "".join(out), escape


@given(patterns(), st.text(alphabet="ab!%_\n.😀", max_size=10))
def test_like_agrees_with_regex_reference(pe, value) -> None:
    pattern, escape = pe
    assert compile_like(pattern, escape)(value) is reference(pattern, escape, value)


def test_javadoc_examples() -> None:
    assert compile_like("12%3", None)("123") and compile_like("12%3", None)("12993")
    assert not compile_like("12%3", None)("1234")
    assert compile_like("l_se", None)("lose") and not compile_like("l_se", None)("loose")
    assert compile_like("\\_%", "\\")("_foo") and not compile_like("\\_%", "\\")("bar")


def test_underscore_is_one_code_point() -> None:
    assert compile_like("_", None)("😀")
    assert compile_like("a_b", None)("a\nb")


def test_no_backtracking_blow_up() -> None:
    """'%a%a%a%a%a%a%a%a%b' on 10,000 'a's: exponential for a regex, one pass per segment here."""
    match = compile_like("%a%a%a%a%a%a%a%a%b", None)
    value = "a" * 10_000
    assert match(value) is False
    assert match(value + "b") is True
    assert compile_like("%a_a_a_a_a_a%b", None)(value) is False

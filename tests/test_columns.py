"""The column kernels of the fast filter (jmsctl.filter.columns, filter.columnpath):
the same verdicts as the compiled selector and the plain path, on values of every spelling
(bare / typed, int / long / double / float, NULL, absent, wrong types, long overflow, -0.0,
special doubles) and on chunks holding broken lines (invalid JSON, repeated keys, a typed value
with a repeated member, "properties" twice, escapes)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from jmsctl import selector as sel
from jmsctl.filter import columnpath
from jmsctl.filter import schema as fs
from jmsctl.filter.columns import ASK, kernel_for
from jmsctl.filter.fast import Engine, property_value
from tests.test_fastpath import check_engine

SINGLE = ["weight > 100", "weight = 3", "weight < 2.5", "100 <= weight", "1 / weight < 0", "weight <> 7", "weight IN ('a', 'b')",
          "weight LIKE 'A%'", "weight IS NULL", "weight = TRUE", "-weight > 2.5", "weight BETWEEN 1 AND 3000"]
PAIR = ["price * weight > 1000000", "weight * price <= 10", "price + weight = 4", "price - weight < 0.5", "1000 < weight * price",
        "price * weight > 2.5", "price * weight = 9223372036854775807"]

# JSON spellings of a property value (None: the property absent).
_NUMBERS = [0, 1, 3, 7, 100, 101, -1, 2147483647, 2147483648, 9223372036854775807, -9223372036854775808, 9007199254740993]
_FLOATS = ["0.0", "-0.0", "2.5", "100.0", "1e3", "1e19", "-1e19", "9.3e18", "1e308", "1.5e-300", "123456.78"]
VALUE_TEXTS = (
    [None, "null", '"A1"', '"x"', "true", "false", "{}"]
    + [str(v) for v in _NUMBERS]
    + ["9223372036854775808", "-9223372036854775809"]  # beyond long: rejected
    + _FLOATS
    + [f'{{"type":"int","value":{v}}}' for v in (3, 100, 101, -2147483648, 2147483648)]
    + [f'{{"type":"long","value":{v}}}' for v in (3, 9223372036854775807, 9007199254740993)]
    + [f'{{"type":"short","value":{v}}}' for v in (3, 32768)] + ['{"type":"byte","value":101}']
    + [f'{{"type":"double","value":{v}}}' for v in ("2.5", "-0.0", "0", "1e19", '"NaN"', '"Infinity"', '"-Infinity"', "101")]
    + [f'{{"type":"float","value":{v}}}' for v in ("2.5", "3.4028235e38", "1e39", "101", '"NaN"')]
    + ['{"type":"string","value":"A}"}', '{"type":"boolean","value":true}', '{"type":"int","value":"3"}']
    + ['{"type":"int","value":3,"value":300}', '{"type":"int","type":"long","value":3}', '{"value":3,"type":"int"}', '{ "type" : "int" , "value" : 3 }']
)


def _line(weight: str | None, price: str | None, trap: int) -> bytes:
    props = []
    if weight is not None:
        props.append(f'"weight":{weight}')
    if price is not None:
        props.append(f'"price":{price}')
    props.append('"color":"blue"')
    line = '{"type":"text","properties":{' + ",".join(props) + '},"body":"b"}'
    if trap == 1 and weight is not None:
        line = line.replace('"color"', f'"weight":{weight},"color"')  # the key twice
    elif trap == 2:
        line = line[:-1]  # invalid JSON
    elif trap == 3:
        line = line.replace('"body"', '"properties":{"weight":1},"body"')  # "properties" twice
    elif trap == 4:
        line = line.replace('"color"', '"c\\u006flor"')  # an escape: the per-line loop decides the chunk
    elif trap == 5:
        line = "  "  # blank
    elif trap == 6:
        line = line.replace('"body":"b"', '"body":"heavyweight"')  # the key's name ending a string
    elif trap == 7:
        line = line.replace('"color"', '"weights":{"type":"int","value":1},"xprice":2,"color"')  # keys the first count also finds
    return line.encode()


values = st.sampled_from(VALUE_TEXTS)
traps = st.sampled_from([0] * 12 + [1, 2, 3, 4, 5, 6, 7])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(values, values, traps), min_size=1, max_size=10), st.sampled_from(SINGLE + PAIR))
def test_columns_equal_plain_path(rows: list[tuple[str | None, str | None, int]], text: str) -> None:
    lines = [_line(w, p, trap) for w, p, trap in rows]
    check_engine(text, lines)


def test_kernels_are_used_on_clean_chunks() -> None:
    """A chunk with nothing to refuse goes through columnpath.process, not the per-line loop; a
    repeated key, a typed value with three members, "properties" twice or an escape hand the
    chunk back (None)."""
    clean = [_line(w, p, 0) for w in ('{"type":"int","value":3777}', "12", None, "null") for p in ('{"type":"double","value":2.5}', "3", None)]
    for text in ("weight > 100", "price * weight > 1000000"):
        e = Engine(sel.compile(text), exact=False)
        assert e.kernel is not None, text
        b = columnpath.process(e, clean, b"\n".join(clean))
        assert b is not None and b.read == len(clean), text
        for trap in (1, 3, 4):
            bad = [*clean, _line('{"type":"int","value":5}', "2", trap)]
            assert columnpath.process(e, bad, b"\n".join(bad)) is None, (text, trap)
        bad = [*clean, _line('{"type":"int","value":3,"value":300}', "2", 0)]
        assert columnpath.process(e, bad, b"\n".join(bad)) is None, text
        near = [*clean, _line('{"type":"int","value":5}', "2", 7), _line("5", "2", 6)]  # "weights", "heavyweight": counted exactly then
        b = columnpath.process(e, near, b"\n".join(near))
        assert b is not None and b.read == len(near), text
    e = Engine(sel.compile("color IN ('blue', 'red')"), exact=False)  # no typed value on the path
    assert e.kernel is not None
    assert columnpath.process(e, clean, b"\n".join(clean)) is not None
    twice = [*clean, b'{"properties":{"color":"red","color":"blue"}}']
    assert columnpath.process(e, twice, b"\n".join(twice)) is None
    # headers read, or three properties, or an OR of two comparisons: no kernel (the per-line loop)
    for text in ("JMSType = 'car' AND weight > 1", "a + b + c > 1", "a > 1 OR b > 2"):
        e = Engine(sel.compile(text), exact=False)
        assert e.kernel is None, text


def test_single_kernel_remembers_nothing_wrong() -> None:
    """One property: the verdict per distinct (class, value class, value), never a -0.0 for a 0.0,
    a 1.0 for a 1 or a True for a 1; the compiled selector decides each."""
    selector = sel.compile("1 / weight < 0")
    kernel = kernel_for(selector, (), ("weight",))
    assert kernel is not None
    col = [0.0, -0.0, 0.0, -0.0, fs.TDouble(value=-0.0), fs.TDouble(value=0.0), fs.TDouble(value=0)]
    for _ in range(2):  # the second time from what the first remembered
        assert kernel.verdicts([col]) == [False, True, False, True, True, False, False]
    selector = sel.compile("weight = 1")
    kernel = kernel_for(selector, (), ("weight",))
    assert kernel is not None
    col = [1, True, 1.0, fs.TInt(value=1), fs.TBoolean(value=True), fs.TString(value="1"), None, "1"]
    kernel.verdicts([col])
    got = kernel.verdicts([col])
    want = [selector._fn(({} if v is None else {"weight": property_value(v, "w")}).get) for v in col]
    want[5] = ASK  # a typed string is checked line by line
    assert got == want


def test_pair_kernel_equals_compiled_selector() -> None:
    """a * b op number: the whole-column rule and the per-pair rule against the compiled selector."""
    col_values = [fs.TDouble(value=2.5), fs.TDouble(value="NaN"), fs.TDouble(value="Infinity"), fs.TDouble(value=9007199254740993),
                  fs.TInt(value=400000), fs.TLong(value=9223372036854775807), 400001, 2.5, True, "x", None, fs.TFloat(value=2.5), fs.TShort(value=-3)]
    for text in PAIR:
        selector = sel.compile(text)
        kernel = kernel_for(selector, (), ("price", "weight"))
        assert kernel is not None, text
        for x in col_values:
            for y in col_values:
                view = {k: property_value(v, k) for k, v in (("price", x), ("weight", y)) if v is not None}
                want = selector._fn(view.get)
                # one line (the per-pair rule) and a homogeneous column of three (the column rule)
                assert kernel.verdicts([[x], [y]]) == [want], (text, x, y)
                assert kernel.verdicts([[x] * 3, [y] * 3]) == [want] * 3, (text, x, y)


def test_a_batch_with_rejections_reports_them_in_place() -> None:
    """Broken lines inside a clean chunk: rejected with the plain path's words, at their index."""
    lines = [_line("5", "2.5", 0), b'{"type":"text","properties":{"weight":}}', _line("500", "2.5", 0), b"[1]", _line("9223372036854775808", "1", 0)]
    e = Engine(sel.compile("weight > 100"), exact=False, name="f")
    b = e.process(b"\n".join(lines) + b"\n")
    assert [i for i, *_ in b.errors] == [1, 3, 4]
    assert (b.read, b.true, b.rejected) == (5, 1, 3)
    assert b.out == lines[2] + b"\n"
    assert json.loads(lines[2])["properties"]["weight"] == 500


def test_single_comparison_columns_equal_compiled_selector() -> None:
    """name op number on a column of one numeric kind (compared whole) and on mixed columns."""
    kinds = [
        [fs.TInt(value=v) for v in (-5, 0, 99, 100, 101, 2147483647)],
        [fs.TLong(value=v) for v in (9007199254740993, -9223372036854775808, 100)],
        [fs.TShort(value=100), fs.TShort(value=-1)], [fs.TByte(value=101)],
        [0, 100, 101, 9223372036854775807, 9007199254740993],
        [fs.TDouble(value=v) for v in (2.5, 100, 100.0, -0.0, "NaN", "Infinity", "-Infinity", 9007199254740993)],
        [2.5, 100.0, 1e19],  # bare doubles: remembered verdicts (1e19 is the plain path's)
        [fs.TFloat(value=2.5), fs.TFloat(value=100)], ["100", True, None],
    ]
    for text in ["weight > 100", "weight = 100", "100 < weight", "weight <= 2.5", "weight <> 100.0", "weight >= 9007199254740992",
                 "weight = 9007199254740993", "weight < 1e19"]:
        selector = sel.compile(text)
        kernel = kernel_for(selector, (), ("weight",))
        assert kernel is not None
        for col in [*kinds, [v for k in kinds for v in k]]:
            want = []
            for v in col:
                try:
                    want.append(selector._fn(({} if v is None else {"weight": property_value(v, "w")}).get))
                except Exception:
                    want.append(ASK)
            assert kernel.verdicts([col]) == want, (text, col)

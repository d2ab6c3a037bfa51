"""The column kernels of the fast filter (jmsctl.filter.columns, filter.columnpath):
the same verdicts as the compiled selector and the plain path, on values of every spelling
(bare / typed, int / long / double / float, NULL, absent, wrong types, long overflow, -0.0,
special doubles) and on chunks holding broken lines (invalid JSON, repeated keys, a typed value
with a repeated member, "properties" twice, escapes)."""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from jmsctl import selector as sel
from jmsctl.filter import columnpath
from jmsctl.filter import schema as fs
from jmsctl.filter.columns import ASK, kernel_for
from jmsctl.filter.fast import Engine, property_value
from jmsctl.filter.plan import FilterPlan
from jmsctl.messages.loader import judge_line
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
    for text, raw in itertools.product(("weight > 100", "price * weight > 1000000"), (False, True)):
        e = Engine(sel.compile(text), exact=False)
        assert e.kernel is not None, text
        e.typed_seen = raw  # typed members proved by the regex scans, or from raw values
        b = columnpath.process(e, clean, b"\n".join(clean))
        assert b is not None and b.read == len(clean), text
        assert e.typed_seen  # the chunk held typed values: the next is decoded raw
        for trap in (1, 3, 4):
            bad = [*clean, _line('{"type":"int","value":5}', "2", trap)]
            e.typed_seen = raw
            assert columnpath.process(e, bad, b"\n".join(bad)) is None, (text, trap)
        for twice in ('{"type":"int","value":3,"value":300}', '{"type":"int","type":"int","value":3}', '{"value":1,"type":"int","value":3}'):
            bad = [*clean, _line(twice, "2", 0)]
            e.typed_seen = raw
            assert columnpath.process(e, bad, b"\n".join(bad)) is None, (text, raw, twice)
        near = [*clean, _line('{"type":"int","value":5}', "2", 7), _line("5", "2", 6)]  # "weights", "heavyweight": counted exactly then
        e.typed_seen = raw
        b = columnpath.process(e, near, b"\n".join(near))
        assert b is not None and b.read == len(near), text
    e = Engine(sel.compile("weight > 100"), exact=False)
    untyped = [_line(w, None, 0) for w in ("12", "null", None, "300")]
    e.typed_seen = True
    assert columnpath.process(e, untyped, b"\n".join(untyped)) is not None
    assert not e.typed_seen  # no typed value on the path: the next chunk is decoded as usual
    e = Engine(sel.compile("color IN ('blue', 'red')"), exact=False)  # no typed value on the path
    assert e.kernel is not None
    assert columnpath.process(e, clean, b"\n".join(clean)) is not None
    twice = [*clean, b'{"properties":{"color":"red","color":"blue"}}']
    assert columnpath.process(e, twice, b"\n".join(twice)) is None
    # headers, three properties, AND / OR / NOT: a kernel; the IBM reading, a broker dialect: none
    for text in ("JMSType = 'car' AND weight > 1", "a + b + c > 1", "a > 1 OR b > 2", "NOT (JMSPriority > 4 OR a IS NULL) AND b LIKE 'x%'"):
        assert Engine(sel.compile(text), exact=False).kernel is not None, text
        assert Engine(sel.compile(text, "ibm"), exact=False).kernel is None, text
        assert Engine(sel.compile(text, "artemis"), exact=False).kernel is None, text


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


# ----- any AND / OR / NOT of conditions over headers and properties (issue 23) ------------------

ATOMS = [
    "JMSType = 'car'", "JMSType <> 'car'", "JMSType IN ('car', 'van')", "JMSType LIKE 'c%'", "JMSType IS NULL", "JMSPriority > 4",
    "JMSPriority BETWEEN 2 AND 7", "JMSPriority = 4.0", "JMSTimestamp >= 5", "JMSTimestamp < 9223372036854775807",
    "JMSDeliveryMode = 'PERSISTENT'", "JMSDeliveryMode <> 'NON_PERSISTENT'", "JMSMessageID IN ('ID:1', 'ID:2')", "JMSCorrelationID IS NULL",
    "color = 'blue'", "color IN ('red', 'blue')", "color NOT IN ('red')", "color LIKE 'b%'", "color > 3", "weight > 2500", "weight = 3",
    "weight < 2.5", "weight <> 7", "price * weight > 1000000", "price + weight = 4", "weight - price < 0.5", "-weight > 2.5",
    "weight IS NULL", "weight IS NOT NULL", "express", "express = TRUE", "1 / weight < 0", "weight BETWEEN 1 AND 3000",
    "weight NOT BETWEEN 1 AND 3000", "price + weight + express > 1", "1 = 1", "1 = 2", "color = weight",
]
selectors = st.recursive(
    st.sampled_from(ATOMS),
    lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda t: f"({t[0]}) AND ({t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]}) OR ({t[1]})"),
        inner.map(lambda x: f"NOT ({x})"),
    ),
    max_leaves=5,
)
_HEADER_TEXTS = {
    "JMSType": ['"car"', '"van"', '"bike"', "null", "5", None],
    "JMSPriority": ["0", "4", "5", "9", "12", "-1", "null", "4.0", None],
    "JMSTimestamp": ["1", "10", "9223372036854775807", "9223372036854775808", "null", None],
    "JMSDeliveryMode": ["1", "2", '"PERSISTENT"', '"NON_PERSISTENT"', "3", None],
    "JMSMessageID": ['"ID:1"', '"ID:3"', "null", None],
    "JMSCorrelationID": ['"c"', "null", None],
}
_STRING_TEXTS = [None, "null", '"blue"', '"red"', '"b"', '"car"', "3", "true", "-0.0", '{"type":"string","value":"blue"}', '{"type":"double","value":"NaN"}',
                 '{"type":"boolean","value":false}', '{"type":"int","value":3}', "[1]"]
header_rows = st.fixed_dictionaries({name: st.sampled_from(choices) for name, choices in _HEADER_TEXTS.items()})
property_rows = st.fixed_dictionaries({"color": st.sampled_from(_STRING_TEXTS), "weight": values, "price": values,
                                       "express": st.sampled_from([None, "true", "false", '{"type":"boolean","value":true}', '"true"', "1"])})
traps2 = st.sampled_from([0] * 16 + [1, 2, 3, 4, 5, 6])


def _record(headers: dict[str, str | None], props: dict[str, str | None], trap: int) -> bytes:
    h = ",".join(f'"{k}":{v}' for k, v in headers.items() if v is not None)
    p = "".join(f'"{k}":{v},' for k, v in props.items() if v is not None)
    line = '{"type":"text","headers":{' + h + '},"properties":{' + p + '"region":"EU"},"body":"x:y"}'
    if trap == 1:
        line = line.replace('"region"', '"JMSType":"car","color":"red","region"' if "color" in p else '"weight":1,"region"')  # a key twice
    elif trap == 2 and h:
        line = line.replace('"headers":{', '"headers":{"JMSPriority":3,')  # a header twice (or once more)
    elif trap == 3:
        line = line.replace('"region":"EU"', '"r\\u0065gion":"EU"')  # an escape
    elif trap == 4:
        line = line.replace('"body"', '"headers":{},"body"')  # "headers" twice
    elif trap == 5:
        line = line.replace('"region":"EU"', '"region":"EU","weight":{"type":"int","value":5,"value":6}')
    elif trap == 6:
        line = line[:-3]  # broken JSON
    return line.encode()


rows = st.lists(st.tuples(header_rows, property_rows, traps2), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(rows, selectors)
def test_any_boolean_shape_equals_plain_path(records: list[Any], text: str) -> None:
    """fast = plain (hypothesis) for any AND / OR / NOT of conditions over headers and
    properties: values of every type under one name, typed values, -0.0, NaN, out-of-range
    headers, repeated keys, escapes, broken lines; every mode (check_engine), and on the lines
    the plain path accepts, the column path's verdicts line by line."""
    lines = [_record(h, p, trap) for h, p, trap in records]
    check_engine(text, lines)
    selector = sel.compile(text)
    e = Engine(selector, exact=False, name="f", prefilter=False)
    valid = [x for x in lines if judge_line("f", 1, x).message is not None]
    if not valid:
        return
    want = [selector.evaluate(_message(x).selector_values()) for x in valid]
    if e.partial is None:  # a selector that reads no identifier: nothing to decode
        assert FilterPlan.of(selector.ast).identifiers == ()
        return
    assert e.kernel is not None, text
    for raw in (False, True):  # typed members proved by the regex scans, or from raw values
        e.typed_seen = raw
        b = columnpath.process(e, valid, b"\n".join(valid))
        if b is None:
            # A count could not prove the chunk (a key twice on a line, an escape, a typed String, a
            # line the path decode refuses after it made its headers): the per-line loop decides it.
            e.typed_seen = raw
            b = e.process(b"".join(x + b"\n" for x in valid))
            assert (b.true, b.false + b.unknown + b.skipped, b.rejected) == (want.count(True), len(want) - want.count(True), 0), text
        else:
            assert (b.true, b.false, b.unknown, b.rejected) == (want.count(True), want.count(False), want.count(None), 0), (text, raw)
        assert b.out == b"".join(x + b"\n" for x, w in zip(valid, want, strict=True) if w is True), (text, raw)


def _message(line: bytes) -> Any:
    record = judge_line("f", 1, line)
    assert record.message is not None
    return record.message


def test_the_javadoc_shape_takes_the_column_path() -> None:
    """The javadoc's own shape (a header and two properties) is judged by columns on a clean
    chunk: the per-line loop is not entered."""
    text = "JMSType = 'car' AND color = 'blue' AND weight > 2500"
    lines = [_record({"JMSType": t, "JMSPriority": "4"}, {"color": c, "weight": w, "price": None, "express": None}, 0)
             for t in ('"car"', '"van"', "null") for c in ('"blue"', '"red"', None) for w in ('{"type":"int","value":2600}', "2400", "2600", None)]
    e = Engine(sel.compile(text), exact=False, name="f")
    assert e.kernel is not None and e.kernel.names == ("JMSType", "color", "weight")
    b = columnpath.process(e, lines, b"\n".join(lines))
    assert b is not None and (b.true, b.false, b.unknown) == (2, 24, 10)
    check_engine(text, lines)


# ----- columns of one kind, compared whole (issue 36: bare doubles, typed values decoded at once) ----

# Bare doubles are compared whole unless one is integral beyond +-2^63 (then the per-value rules).
_BARE_DOUBLES = ["-0.0", "0.0", "2.5", "1.5e-300", "123456.78", "9.2e18", "-9.2e18", "100.0", "250.5", "4.9e-324", "1e-5", "1234.5e10"]
_HUGE_DOUBLES = ["1e308", "-1e308", "1.7976931348623157e308", "1e19", "9.3e18", "1e400", "18446744073709551616", "-9223372036854775809"]
_BARE_INTS = ["0", "-1", "3", "101", "400001", "2147483648", "9223372036854775807", "-9223372036854775808", "9007199254740993"]
_TYPED_DOUBLES = [f'{{"type":"double","value":{v}}}' for v in ("2.5", "-0.0", "0", "1e308", '"NaN"', '"Infinity"', '"-Infinity"', "101", "9007199254740993")]
_TYPED_INTS = [f'{{"type":"int","value":{v}}}' for v in (3, 101, -2147483648, 0, 2147483647)]
_TYPED_MIXED = [*_TYPED_DOUBLES, *_TYPED_INTS, '{"type":"long","value":9223372036854775807}']


def _column_lines(prices: list[str], weights: list[str]) -> list[bytes]:
    return [_line(w, p, 0) for p, w in zip(prices, weights, strict=True)]


def test_columns_of_one_kind_equal_plain_path() -> None:
    """Every line a bare double (or a bare integer, or a typed value) on both paths, with many
    distinct values: the column path compares the columns whole, with the plain path's verdicts on
    -0.0, overflow to infinity (1e308 * 400001), integers beyond 2^53, NaN and the infinities; an
    integral double beyond 2^63 (possibly an integer orjson read as a double) or a string that looks
    like a number sends its column to the per-value rules; a repeated key, an escape, a broken line
    and a typed value with a member twice are found as before."""
    n = len(_TYPED_MIXED)

    def cycle(xs: list[str]) -> list[str]:
        return [xs[i % len(xs)] for i in range(n)]

    columns = [cycle(x) for x in (_BARE_DOUBLES, _BARE_INTS, _TYPED_DOUBLES, _TYPED_INTS, _TYPED_MIXED, _BARE_DOUBLES[::-1])]
    texts = [*PAIR, "weight > 100", "weight <= 2.5", "price * weight > 1e308", "price - weight < 0", "price + weight = 2.5"]
    for text in texts:
        for prices, weights in itertools.product(columns, columns):
            lines = _column_lines(prices, weights)
            check_engine(text, lines)
            for e_raw in (False, True):  # the typed values decoded at once (raw mode) and as Structs
                e = Engine(sel.compile(text), exact=False)
                e.typed_seen = e_raw
                got = columnpath.process(e, lines, b"\n".join(lines))
                assert got is not None, (text, prices[0], weights[0])  # nothing to refuse: the columns decide
        for trap in (*_HUGE_DOUBLES, '"2.5"', '{"type":"string","value":"2.5"}', "null", "true"):
            lines = _column_lines([*cycle(_BARE_DOUBLES), trap], [*cycle(_BARE_INTS), "3"])
            check_engine(text, lines)
    doubles = cycle(_BARE_DOUBLES)
    for broken in (b'{"type":"text","properties":{"price":2.5,"price":3.5,"weight":3}}',
                   b'{"type":"text","properties":{"price":2.5,"w\\u0065ight":3}}', b'{"type":"text","properties":{"price":2.5,',
                   b'{"type":"text","properties":{"price":{"type":"double","value":2.5,"value":1e300},"weight":3}}'):
        lines = [*_column_lines(doubles, cycle(_BARE_INTS)), broken]
        for text in ("price * weight > 1000000", "price > 2"):
            check_engine(text, lines)

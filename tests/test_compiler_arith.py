"""The compiler's double-arithmetic comparison (``a * b > literal`` with a double operand) agrees
with the reference evaluator on every operand type: doubles, floats, integers, NaN, infinities,
Strings, booleans, NULL."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from jmsctl import selector as sel
from jmsctl.selector.reference import evaluate
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, to_f32

_NUMBERS = st.one_of(st.floats(allow_nan=True), st.sampled_from([0.0, -0.0, math.inf, -math.inf, 1e308, 1000000.0]))
VALUES = st.one_of(
    st.none(),
    _NUMBERS.map(lambda x: (DOUBLE, x)),
    st.floats(width=32).map(lambda x: (FLOAT, to_f32(x))),
    st.integers(-(2**31), 2**31 - 1).map(lambda x: (INT, x)),
    st.integers(-(2**63), 2**63 - 1).map(lambda x: (LONG, x)),
    st.integers(-128, 127).map(lambda x: (BYTE, x)),
    st.integers(-(2**15), 2**15 - 1).map(lambda x: (SHORT, x)),
    st.text(max_size=3).map(lambda x: (STRING, x)),
    st.booleans().map(lambda x: (BOOLEAN, x)),
)
SELECTORS = [
    "price * weight > 1000000", "price + weight <= 2.5", "price - weight = 0", "1000000 < price * weight",
    "price * weight <> 3", "price * weight >= 1.5e300", "price * weight < -1", "price / weight > 1",
]  # fmt: skip


@given(st.sampled_from(SELECTORS), VALUES, VALUES, st.sampled_from(["jakarta", "ibm"]))
def test_double_arithmetic_agrees_with_reference(text: str, price: object, weight: object, dialect: str) -> None:
    compiled = sel.compile(text, dialect)
    view = {k: v for k, v in (("price", price), ("weight", weight)) if v is not None}
    assert compiled.evaluate(view) is evaluate(compiled.ast, view.get, dialect).result, (text, view)

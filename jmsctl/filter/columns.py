"""Verdicts for a whole chunk's decoded property values at once, for the selector shapes whose
verdict depends on one or two properties only (``weight > 100``, ``region LIKE 'A%'``,
``color IN (...)``, ``price * weight > 1000000``): the fast filter's per-line Python loop is
most of its time, and these shapes need none of it.

A ``Kernel`` maps the column(s) of decoded values (``filter.partial``'s Structs: a bare ``str`` /
``int`` / ``float`` / ``bool``, a typed ``fs.T*`` Struct, None or UNSET) to a list of verdicts,
True / False / None (UNKNOWN), or ``ASK``: this line's verdict is left to the per-line path
(a value whose conversion may raise, a typed String, ...). The verdict is never computed by
other rules than the compiled selector's:

- one property: the compiled selector itself, run once per distinct (type, value) on the view
  ``view.property_value`` builds, and remembered (the usual dump has a few thousand distinct
  weights or a handful of regions). A zero float is never remembered (-0.0 == 0.0 in a dict,
  not under division).
- ``a (+ - *) b op number`` (Jakarta reading): when one operand is a double and the other an
  integral or double value, the compiler's own rule (``compiler._double_arith_vs_literal``):
  both promoted to double, compared on doubles; any other pair goes to the compiled selector
  on its view, line by line.

tests/test_columns.py compares every kernel with the compiled selector on generated values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter
from typing import Any

from msgspec import UNSET

from jmsctl.filter import schema as fs
from jmsctl.filter.view import property_value
from jmsctl.messages.decode import SPECIAL_FLOATS, AmbiguousNumber, RecordError, decode_value
from jmsctl.selector import Selector
from jmsctl.selector import nodes as n
from jmsctl.values import BYTE, COMPARATORS, DOUBLE, LONG

ASK = object()  # this line's verdict is the per-line path's
_MEMO_LIMIT = 1 << 16
_INTEGRAL_TYPED = (fs.TByte, fs.TShort, fs.TInt, fs.TLong)
_ARITH: dict[str, Callable[[Any, Any], Any]] = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
_VALUE = attrgetter("value")
_FLIP = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


@dataclass(frozen=True)
class Kernel:
    """``names``: the properties read, in column order; ``verdicts(columns)`` -> one verdict per line."""

    names: tuple[str, ...]
    verdicts: Callable[[list[list[Any]]], list[Any]]


def _view_value(v: Any, name: str) -> Any:
    """A decoded value -> its selector value (JType, value), None when absent; raises as the
    conversion raises (then the line is ASKed)."""
    if v is None or v is UNSET:
        return None
    return property_value(v, f"properties.{name}")


def _single(name: str, fn: Callable[[Any], Any], compare: tuple[Callable[[Any, Any], bool], Any, bool] | None = None) -> Callable[[list[list[Any]]], list[Any]]:
    """``compare``: (operator, literal, the literal is a double) of ``name op number``: a column
    of one numeric kind is compared whole, as the compiler compares (``_ident_vs_literal``:
    integral with integral exactly, anything with a double literal or a double value on
    doubles); any other column goes through the remembered verdicts."""
    memo: dict[Any, Any] = {}
    typed = frozenset(fs.TYPED)
    tstring = fs.TString
    miss = object()

    def compute(v: Any) -> Any:
        if type(v) is tstring:
            return ASK  # a typed string may hold a "}": its key's two members are checked per line
        try:
            tv = _view_value(v, name)
        except (AmbiguousNumber, RecordError, KeyError, ValueError):
            return ASK
        return fn(({} if tv is None else {name: tv}).get)

    def verdicts(columns: list[list[Any]]) -> list[Any]:
        col = columns[0]
        if compare is not None:
            numbers = _doubles(col, exact=True)
            if numbers is not None:
                opf, lit, lit_double = compare
                is_double, xs = numbers
                return list(map(opf, xs if is_double or not lit_double else map(float, xs), repeat(float(lit) if is_double else lit)))
        get = memo.get
        # The key: the value's class, its (unwrapped) value's class, the value: 1, 1.0, True and
        # TInt(1) stay apart.
        out = [get((t, type(x), x), miss) for v in col for t in (type(v),) for x in ((v.value if t in typed else v),)]
        if miss in out:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            i = -1
            for r in out:
                i += 1
                if r is miss:
                    v = col[i]
                    t = type(v)
                    x = v.value if t in typed else v
                    r = out[i] = compute(v)
                    if not (type(x) is float and x == 0.0):  # -0.0 == 0.0 as keys: never remembered
                        memo[(t, type(x), x)] = r
        return out

    return verdicts


def _as_number(v: Any) -> tuple[bool, float] | None:
    """(is a double, the value as a double) for a double or integral value, else None."""
    t = type(v)
    if t is fs.TDouble:
        x = v.value
        return True, (SPECIAL_FLOATS[x] if type(x) is str else float(x))
    if t is int or t in _INTEGRAL_TYPED:
        return False, float(v if t is int else v.value)
    if t is float:
        try:
            return True, decode_value(v, "")[1]  # DOUBLE, or AmbiguousNumber: the per-line path
        except AmbiguousNumber:
            return None
    return None


def _doubles(col: list[Any], exact: bool = False) -> tuple[bool, list[Any]] | None:
    """(the column is of doubles, its values as doubles) when every value is a typed double or
    every value an integral number of one kind (bare or typed); else None. ``exact``: the
    integral values as they are (Python ints), not as doubles."""
    if not col:
        return None
    kinds = list(map(type, col))
    first = kinds[0]
    if kinds.count(first) != len(kinds):
        return None
    if first is fs.TDouble:
        # "NaN", "Infinity", "-Infinity" (the only strings a typed double holds) read as float() reads them
        return True, list(map(float, map(_VALUE, col)))
    if first in _INTEGRAL_TYPED:
        return False, list(map(_VALUE, col)) if exact else list(map(float, map(_VALUE, col)))
    if first is int:
        return False, col if exact else list(map(float, col))
    return None


def _double_arith(a: str, b: str, fop: Callable[[Any, Any], Any], cmp: Callable[[Any, Any], bool], lit: float,
                  fn: Callable[[Any], Any]) -> Callable[[list[list[Any]]], list[Any]]:
    def slow(x: Any, y: Any) -> Any:
        try:
            tx, ty = _view_value(x, a), _view_value(y, b)
        except (AmbiguousNumber, RecordError, KeyError, ValueError):
            return ASK
        view = {}
        if tx is not None:
            view[a] = tx
        if ty is not None:
            view[b] = ty
        return fn(view.get)

    def verdict(x: Any, y: Any) -> Any:
        if type(x) is fs.TString or type(y) is fs.TString:
            return ASK
        nx, ny = _as_number(x), _as_number(y)
        if nx is not None and ny is not None and (nx[0] or ny[0]):
            return cmp(fop(nx[1], ny[1]), lit)
        return slow(x, y)

    def verdicts(columns: list[list[Any]]) -> list[Any]:
        cx, cy = columns
        dx, dy = _doubles(cx), _doubles(cy)
        if dx is not None and dy is not None and (dx[0] or dy[0]):
            # Every line holds two numbers, one a double: the rule above, on whole columns.
            return list(map(cmp, map(fop, dx[1], dy[1]), repeat(lit)))
        return list(map(verdict, cx, cy))

    return verdicts


def kernel_for(selector: Selector, headers: tuple[str, ...], properties: tuple[str, ...]) -> Kernel | None:
    """The kernel of a selector whose path decode reads ``properties`` and no header; None when
    its shape has none (then the per-line loop decides)."""
    if headers or selector.dialect != "jakarta" or not 1 <= len(properties) <= 2:
        return None
    fn = selector._fn
    ast = selector.ast
    if len(properties) == 1:
        compare = None
        if isinstance(ast, n.Comparison) and ast.op in COMPARATORS:
            for ident, lit, op in ((ast.left, ast.right, ast.op), (ast.right, ast.left, _FLIP[ast.op])):
                if isinstance(ident, n.Identifier) and isinstance(lit, n.Literal) and (BYTE <= lit.value[0] <= LONG or lit.value[0] is DOUBLE):
                    compare = (COMPARATORS[op], lit.value[1], lit.value[0] is DOUBLE)
        return Kernel(properties, _single(properties[0], fn, compare))
    if not isinstance(ast, n.Comparison):
        return None
    for arith, lit, op in ((ast.left, ast.right, ast.op), (ast.right, ast.left, _FLIP[ast.op])):
        if isinstance(arith, n.Arithmetic) and isinstance(lit, n.Literal) and arith.op in _ARITH:
            x, y, (tl, vl) = arith.left, arith.right, lit.value
            if isinstance(x, n.Identifier) and isinstance(y, n.Identifier) and x.name != y.name and BYTE <= tl <= DOUBLE:
                if {x.name, y.name} != set(properties):
                    return None
                value = float(vl) if tl <= LONG else vl  # as the compiler: a float literal is an exact double
                return Kernel((x.name, y.name), _double_arith(x.name, y.name, _ARITH[arith.op], COMPARATORS[op], value, fn))
    return None


__all__ = ["ASK", "Kernel", "kernel_for"]

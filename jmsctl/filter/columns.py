"""Verdicts for a whole chunk's decoded values at once, for any AND / OR / NOT of conditions over
headers and properties (the javadoc's ``JMSType = 'car' AND color = 'blue' AND weight > 2500``,
``weight > 100``, ``region LIKE 'A%'``, ``price * weight > 1000000``, ...), under the Jakarta
reading: the fast filter's per-line Python loop is most of its time, and these shapes need none
of it.

A ``Kernel`` maps the columns of decoded values (``filter.partial``'s Structs: a bare ``str`` /
``int`` / ``float`` / ``bool``, a typed ``fs.T*`` Struct, None or UNSET; a header as decoded) to
three masks, one byte a line (``Masks``: TRUE, FALSE, and ``ASK``: this line's verdict is left
to the per-line path, for a value whose conversion may raise, a typed String, ...). The
selector's AND / OR / NOT are combined on the masks by Kleene's three-valued logic, as the
compiler combines them (``_tree``: TRUE of an AND is the AND of the TRUEs, FALSE the OR of the
FALSEs; NOT swaps them). Each condition under them (``_leaf``) is the compiled selector of just
that condition (``compiler.compile_selector``), so no verdict is computed by other rules than the
compiler's:

- one identifier: run once per distinct (type, value) on the view ``view.property_value``
  builds (a header in its selector type), and remembered (the usual dump has a few thousand
  distinct weights or a handful of regions). A zero float is never remembered (-0.0 == 0.0 in a
  dict, not under division). Where the compiler's own rule is a comparison of Python values,
  whole columns are compared at once: ``x op number`` on a column of one numeric kind
  (``_ident_vs_literal``), ``x = 'a'`` / ``x IN (...)`` on a column of Strings only.
- ``a (+ - *) b op number``: when one operand is a double and the other an integral or double
  value, the compiler's own rule (``compiler._double_arith_vs_literal``): both promoted to
  double, compared on doubles; any other pair, and any condition of more identifiers, goes to
  the compiled condition on its view, line by line.

tests/test_columns.py compares every kernel with the compiled selector on generated values and
the column path with the plain path on generated dumps (hypothesis).
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter
from typing import Any

from msgspec import UNSET

from jmsctl.filter import schema as fs
from jmsctl.filter.view import DELIVERY_VIEW, HEADER_TYPE, property_value
from jmsctl.messages.decode import AMBIGUOUS_BEYOND, SPECIAL_FLOATS, AmbiguousNumber, RecordError, decode_value
from jmsctl.selector import Selector
from jmsctl.selector import nodes as n
from jmsctl.selector.compiler import compile_selector
from jmsctl.values import BOOLEAN, BYTE, COMPARATORS, DOUBLE, LONG, STRING

ASK = object()  # this line's verdict is the per-line path's
_MEMO_LIMIT = 1 << 16
_INTEGRAL_TYPED = (fs.TByte, fs.TShort, fs.TInt, fs.TLong)
_ARITH: dict[str, Callable[[Any, Any], Any]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_VALUE = attrgetter("value")
_FLIP = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


Masks = tuple[int, int, int]  # (TRUE, FALSE, ASK): one byte a line, 1 where the verdict is that


@dataclass(frozen=True)
class Kernel:
    """``names``: the identifiers read, in column order (headers first, as ``Partial.keys``);
    ``masks(columns)`` -> the lines' verdicts as byte-lane masks (``Masks``; a line in none of
    the three is UNKNOWN; TRUE and FALSE never hold an ASKed line)."""

    names: tuple[str, ...]
    masks: Callable[[list[list[Any]]], Masks]

    def verdicts(self, columns: list[list[Any]]) -> list[Any]:
        """One verdict a line: True / False / None / ASK (for tests and small chunks)."""
        t, f, a = self.masks(columns)
        size = len(columns[0]) if columns else 0
        tb, fb, ab = (m.to_bytes(size, "little") for m in (t, f, a))
        return [ASK if x[2] else True if x[0] else False if x[1] else None for x in zip(tb, fb, ab, strict=True)]


def _view_value(v: Any, name: str) -> Any:
    """A decoded value -> its selector value (JType, value), None when absent; raises as the
    conversion raises (then the line is ASKed). A header (the path decode holds the selector's
    six) in its selector type, as ``view.view_function`` reads it."""
    if v is None or v is UNSET:
        return None
    if name in n.HEADERS:
        return DELIVERY_VIEW[v] if name == "JMSDeliveryMode" else (HEADER_TYPE[name], v)
    return property_value(v, f"properties.{name}")


def _single(name: str, fn: Callable[[Any], Any], compare: tuple[Callable[[Any, Any], bool], Any, bool] | None = None) -> Callable[[list[list[Any]]], Any]:
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

    def verdicts(columns: list[list[Any]]) -> Any:
        col = columns[0]
        if compare is not None:
            numbers = _doubles(col, exact=True)
            if numbers is not None:
                opf, lit, lit_double = compare
                is_double, xs = numbers
                hit = _bits(bytes(map(opf, xs if is_double or not lit_double else map(float, xs), repeat(float(lit) if is_double else lit))))
                return hit, _bits(b"\x01" * len(col)) ^ hit, 0  # masks: every value a number
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


class Column(list[Any]):
    """A column of values whose classes are known (``kinds``: ``set(map(type, values))``): the column
    path takes them for its proofs, and a kernel reads them rather than passing over the column again
    (a pass of 20-25 ns a value; copying the list into a Column costs a tenth of it)."""

    __slots__ = ("kinds",)

    def __init__(self, values: list[Any], kinds: set[type]) -> None:
        super().__init__(values)
        self.kinds = kinds


def _kinds(col: list[Any]) -> set[type]:
    """The classes of a column's values (not to be changed: a Column's own set)."""
    return col.kinds if type(col) is Column else set(map(type, col))


def _doubles(col: list[Any], exact: bool = False) -> tuple[bool, list[Any]] | None:
    """(the column is of doubles, its values as doubles) when every value is a typed double or
    every value an integral number of one kind (bare or typed); else None. ``exact``: the
    integral values as they are (Python ints), not as doubles."""
    if not col:
        return None
    kinds = _kinds(col)
    if len(kinds) != 1:
        return None
    first = next(iter(kinds))
    if first is fs.TDouble:
        # "NaN", "Infinity", "-Infinity" (the only strings a typed double holds) read as float() reads them
        return True, list(map(float, map(_VALUE, col)))
    if first in _INTEGRAL_TYPED:
        return False, list(map(_VALUE, col)) if exact else list(map(float, map(_VALUE, col)))
    if first is int:
        return False, col if exact else list(map(float, col))
    # Bare doubles (jmsctl's own writer, fmtn/a): each a DOUBLE as ``decode_value`` reads it, unless
    # integral beyond +-2^63 (AmbiguousNumber: the per-line path; msgspec refuses such an integer before
    # this, so the test is a guard). min / max in C: a NaN (no bare JSON number is one) gives either NaN,
    # which fails the test, or the extreme of the others.
    if first is float and min(col) > -AMBIGUOUS_BEYOND and max(col) < AMBIGUOUS_BEYOND:
        return True, col
    return None


def _double_arith(a: str, b: str, fop: Callable[[Any, Any], Any], cmp: Callable[[Any, Any], bool], lit: float,
                  fn: Callable[[Any], Any]) -> Callable[[list[list[Any]]], Masks | list[Any]]:
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

    def verdicts(columns: list[list[Any]]) -> Masks | list[Any]:
        cx, cy = columns
        dx, dy = _doubles(cx, exact=True), _doubles(cy, exact=True)
        if dx is not None and dy is not None and (dx[0] or dy[0]):
            # Every line holds two numbers, one a double: the rule above, on whole columns, straight
            # to the masks (a comparison of floats is a bool: one byte a line). An integral column is
            # left as ints: Python's float op int converts the int as float() does (PyLong_AsDouble).
            hit = _bits(bytes(map(cmp, map(fop, dx[1], dy[1]), repeat(lit))))
            return hit, _bits(b"\x01" * len(cx)) ^ hit, 0
        return list(map(verdict, cx, cy))

    return verdicts


# Verdict -> one code byte (True == 1 as a key: the lists hold only these four), and code bytes -> each
# mask's bytes by ``bytes.translate`` (one pass in C; a map through a table per mask was three).
_CODE = {None: 0, True: 1, False: 2, ASK: 3}
_TRUE_OF, _FALSE_OF, _ASK_OF = (bytes(int(i == code) for i in range(256)) for code in (1, 2, 3))
_MAX_DEPTH = 64  # AND / OR / NOT nesting beyond this: no kernel (the per-line loop)
_STRING_HEADERS = frozenset(name for name, jtype in HEADER_TYPE.items() if jtype is STRING)
_NUMBER_HEADERS = frozenset(name for name, jtype in HEADER_TYPE.items() if jtype is not STRING and jtype is not BOOLEAN)


def _bits(data: bytes) -> int:
    return int.from_bytes(data, "little")


def _from_codes(codes: bytes) -> Masks:
    return _bits(codes.translate(_TRUE_OF)), _bits(codes.translate(_FALSE_OF)), _bits(codes.translate(_ASK_OF))


def _from_verdicts(out: list[Any]) -> Masks:
    return _from_codes(bytes(map(_CODE.__getitem__, out)))


def _string_test(node: n.Node) -> tuple[str, bool, frozenset[str]] | None:
    """(identifier, TRUE when among, strings) of ``x = 'a'``, ``x <> 'a'``, ``x [NOT] IN ('a', ...)``."""
    if isinstance(node, n.Comparison) and node.op in ("=", "<>"):
        for ident, lit in ((node.left, node.right), (node.right, node.left)):
            if isinstance(ident, n.Identifier) and isinstance(lit, n.Literal) and lit.value[0] is STRING:
                return ident.name, node.op == "=", frozenset((lit.value[1],))
    if isinstance(node, n.InList) and isinstance(node.operand, n.Identifier) and all(isinstance(x, n.Literal) and x.value[0] is STRING for x in node.items):
        return node.operand.name, not node.negated, frozenset(x.value[1] for x in node.items if isinstance(x, n.Literal))
    return None


def _leaf(node: n.Node, index: dict[str, int]) -> Callable[[list[list[Any]]], Masks] | None:
    """The masks of one condition that is no AND / OR / NOT: the compiled selector of just this
    condition (``compiler.compile_selector``, the same rules as the whole), run per distinct value
    or on whole columns where its rule is the compiler's own."""
    fn = compile_selector(node)
    names = tuple(dict.fromkeys(x.name for x in n.walk(node) if isinstance(x, n.Identifier)))
    if not names:
        try:
            v = fn(lambda name: None)
        except Exception:
            return None
        const = {True: (1, 0), False: (0, 1), None: (0, 0)}[v]

        def constant(columns: list[list[Any]]) -> Masks:
            ones = _bits(b"\x01" * len(columns[0]))
            return (ones if const[0] else 0, ones if const[1] else 0, 0)

        return constant
    where = tuple(index[x] for x in names)
    if len(names) == 1:
        name = names[0]
        at = where[0]
        test = _string_test(node)
        strings = None
        if test is not None and (name in _STRING_HEADERS or name not in n.HEADERS):
            strings = test  # a column of Strings only: compared whole
        compare = None
        if isinstance(node, n.Comparison) and node.op in COMPARATORS and (name in _NUMBER_HEADERS or name not in n.HEADERS):
            for ident, lit, op in ((node.left, node.right, node.op), (node.right, node.left, _FLIP[node.op])):
                if isinstance(ident, n.Identifier) and isinstance(lit, n.Literal) and (BYTE <= lit.value[0] <= LONG or lit.value[0] is DOUBLE):
                    compare = (COMPARATORS[op], lit.value[1], lit.value[0] is DOUBLE)
        one = _single(name, fn, compare)

        # The code of each distinct value's verdict (a Python str or int: no 1.0, True or -0.0 among them).
        memo: dict[type, dict[Any, int]] = {str: {}, int: {}}

        def single(columns: list[list[Any]]) -> Masks:
            col = columns[at]
            first = type(col[0]) if col else None
            if first is str and strings is None:
                # A column of Strings whose values all have their verdict already: one map. A value of another
                # class is no key of this memo (no decoded value equals a str but a str; a Struct is not
                # hashable): it stops the map, and the column's classes are looked at below.
                with contextlib.suppress(KeyError, TypeError):
                    return _from_codes(bytes(map(memo[str].__getitem__, col)))
            if first in memo and len(_kinds(col)) == 1:  # a column of Strings, or of bare integers
                if strings is not None and first is str:
                    hit = _bits(bytes(map(strings[2].__contains__, col)))
                    ones = _bits(b"\x01" * len(col))
                    return (hit, ones ^ hit, 0) if strings[1] else (ones ^ hit, hit, 0)
                if compare is None or first is str:
                    codes = memo[first]
                    if len(codes) > _MEMO_LIMIT:
                        codes.clear()
                    for v in set(col).difference(codes):
                        codes[v] = _CODE[_evaluate(fn, names, (v,))]
                    return _from_codes(bytes(map(codes.__getitem__, col)))
            out = one([col])
            if type(out) is tuple:
                return out
            return _from_verdicts(out)

        return single
    pair = _pair_kernel(node, names, fn) if len(names) == 2 else None
    if pair is not None:
        ia, ib = where

        def two(columns: list[list[Any]]) -> Masks:
            out = pair([columns[ia], columns[ib]])
            return out if isinstance(out, tuple) else _from_verdicts(out)

        return two

    def generic(columns: list[list[Any]]) -> Masks:
        out: list[Any] = []
        for values in zip(*(columns[i] for i in where), strict=True):
            out.append(_evaluate(fn, names, values))
        return _from_verdicts(out)

    return generic


def _evaluate(fn: Callable[[Any], Any], names: tuple[str, ...], values: tuple[Any, ...]) -> Any:
    """``fn`` on the view of these decoded values; ASK when a value cannot be converted here."""
    view = {}
    try:
        for name, v in zip(names, values, strict=True):
            if type(v) is fs.TString:
                return ASK  # a typed string may hold a "}": its key's two members are checked per line
            tv = _view_value(v, name)
            if tv is not None:
                view[name] = tv
        return fn(view.get)
    except (AmbiguousNumber, RecordError, KeyError, ValueError, ArithmeticError):
        return ASK


def _pair_kernel(node: n.Node, names: tuple[str, ...], fn: Callable[[Any], Any]) -> Callable[[list[list[Any]]], Masks | list[Any]] | None:
    """``a (+ - *) b op number`` of two properties (``_double_arith``); anything else of two
    identifiers: the compiled condition per line."""
    if isinstance(node, n.Comparison) and node.op in COMPARATORS and not any(x in n.HEADERS for x in names):
        for arith, lit, op in ((node.left, node.right, node.op), (node.right, node.left, _FLIP[node.op])):
            if isinstance(arith, n.Arithmetic) and isinstance(lit, n.Literal) and arith.op in _ARITH:
                x, y, (tl, vl) = arith.left, arith.right, lit.value
                if isinstance(x, n.Identifier) and isinstance(y, n.Identifier) and x.name != y.name and BYTE <= tl <= DOUBLE:
                    value = float(vl) if tl <= LONG else vl  # as the compiler: a float literal is an exact double
                    kernel = _double_arith(x.name, y.name, _ARITH[arith.op], COMPARATORS[op], value, fn)
                    if (x.name, y.name) == names:
                        return kernel
                    return lambda columns: kernel([columns[1], columns[0]])

    def pairs(columns: list[list[Any]]) -> list[Any]:
        return [_evaluate(fn, names, values) for values in zip(*columns, strict=True)]

    return pairs


def _tree(node: n.Node, index: dict[str, int], depth: int = 0) -> Callable[[list[list[Any]]], Masks] | None:
    """The masks of a selector: its AND / OR / NOT combined on masks, by Kleene's three-valued
    logic as the compiler combines them (TRUE and FALSE sets; ASK spreads to the line)."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(node, (n.And, n.Or)):
        kind = type(node)
        links: list[n.Node] = []
        stack: list[n.Node] = [node]
        while stack:
            cur = stack.pop()
            if type(cur) is kind:
                assert isinstance(cur, (n.And, n.Or))
                stack += [cur.right, cur.left]
            else:
                links.append(cur)
        parts = [_tree(x, index, depth + 1) for x in links]
        if any(p is None for p in parts):
            return None
        funcs = [p for p in parts if p is not None]
        conj = kind is n.And

        def junction(columns: list[list[Any]]) -> Masks:
            t, f, a = funcs[0](columns)
            for g in funcs[1:]:
                t2, f2, a2 = g(columns)
                if conj:
                    t, f = t & t2, f | f2
                else:
                    t, f = t | t2, f & f2
                a |= a2
            return t, f, a

        return junction
    if isinstance(node, n.Not):
        inner = _tree(node.operand, index, depth + 1)
        if inner is None:
            return None
        g = inner

        def negation(columns: list[list[Any]]) -> Masks:
            t, f, a = g(columns)
            return f, t, a

        return negation
    return _leaf(node, index)


def kernel_for(selector: Selector, headers: tuple[str, ...], properties: tuple[str, ...]) -> Kernel | None:
    """The kernel of a selector whose path decode reads these headers and properties: any AND /
    OR / NOT of conditions, each evaluated on its columns (``_leaf``); None under another reading
    than the Jakarta one (the IBM reading makes the whole FALSE from inside a condition) or a
    nesting deeper than ``_MAX_DEPTH``."""
    if selector.dialect != "jakarta" or selector.ast is None or not headers + properties:
        return None
    names = headers + properties
    tree = _tree(selector.ast, {name: i for i, name in enumerate(names)})
    if tree is None:
        return None
    whole = tree

    def masks(columns: list[list[Any]]) -> Masks:
        t, f, a = whole(columns)
        if a:
            keep = ~a
            t, f = t & keep, f & keep
        return t, f, a

    return Kernel(names, masks)


__all__ = ["ASK", "Column", "Kernel", "kernel_for"]

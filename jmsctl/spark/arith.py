"""Arithmetic on typed Column values (typed.py), and whole arithmetic trees as one stack machine.

``unary`` and ``binary`` are one node each: Java's binary numeric promotion, type errors, NULL,
int/long wrap-around, float rounding, division by zero (docs/SEMANTICS.md#numeric-promotion), with javaops.py
supplying operations that never raise.

A node refers to its operands several times (their type code and payloads), so a deep tree written
out as one expression grows exponentially, and nesting Spark lambdas to share operands runs into
the analyzer's iteration limit after about 35 levels. An arithmetic tree is therefore compiled
to postfix (literal-only subtrees evaluated here by ``jmsctl.values``) and, unless it is tiny,
run by one ``aggregate`` over the instruction array with a stack of packed values as the
accumulator: the merge function applies one instruction (push, or one operator to the top of the
stack) and is built once, from ``unary`` and ``binary`` on lambda variables. The expression has
constant size whatever the shape or depth of the tree, and it is all JVM code (a higher-order
function is interpreted rather than code-generated: only selectors with arithmetic of more than
``INLINE_OPS`` operators pay for that).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from pyspark.sql import Column
from pyspark.sql import functions as F

from jmsctl.selector import nodes as n
from jmsctl.spark import javaops as J
from jmsctl.spark.typed import (
    ERR,
    FLOAT_K,
    INT_LIKE,
    INTEGRAL,
    NOCONST,
    NOT_NUMBER,
    NULLK,
    NUMERIC,
    Case,
    Val,
    any_of,
    arith_kinds,
    as_double,
    as_float,
    identifier,
    is_in,
    literal,
    null,
    nullable,
    or_w,
    unary_kinds,
    unless,
    val_arith_kinds,
)
from jmsctl.values import JType, arithmetic, negate, unary_plus

INLINE_OPS = 2  # operators up to which an arithmetic tree is written out as one expression
TYPES = {"t": "int", "i": "bigint", "f": "float", "d": "double", "w": "boolean"}  # a packed number
CODES = {"push": 0, "+": 1, "-": 2, "*": 3, "/": 4, "neg": 5, "pos": 6}


def unary(op: str, a: Val, ibm: bool) -> Val:
    """``-a`` or ``+a``: unary numeric promotion (byte and short become int); -MIN wraps."""
    t = Case().when(is_in(a, NOT_NUMBER), J.lit(ERR)).when(is_in(a, INT_LIKE), J.lit(3)).otherwise(a.t)
    i = a.i if a.may(INTEGRAL) else None
    if i is not None and op == "-":
        ints = a.kinds & INTEGRAL
        if ints <= INT_LIKE:
            i = J.wrap32(-i)
        elif ints == {4}:
            i = J.long_negate(i)
        else:
            i = J.narrow(J.long_negate(i), a.t != 4)
    f = a.f if a.may(INTEGRAL | FLOAT_K) else None
    d = a.d if a.may(NUMERIC) else None
    if op == "-":
        f = None if f is None else -f
        d = None if d is None else -d
    w = or_w(a.w, nullable(a) if ibm and NULLK in a.kinds else None)  # type: ignore[arg-type]  # IBM: arithmetic on NULL
    return Val(unary_kinds(a), t, i=i, f=f, d=d, w=w)


def binary(op: str, a: Val, b: Val, ibm: bool) -> Val:
    """``a op b``: the integral, float and double results side by side (typed.py), and the type
    code: a type error wins over NULL, integer division by zero is NULL."""
    kinds = val_arith_kinds(op, a, b)
    err = any_of(is_in(a, NOT_NUMBER), is_in(b, NOT_NUMBER))
    any_null = any_of(nullable(a), nullable(b))
    case = Case().when(err, J.lit(ERR)).when(any_null, null("int"))
    both_integral = a.may(INTEGRAL) and b.may(INTEGRAL) and a.i is not None and b.i is not None
    by_zero: Column | None = None  # integer division by zero: NULL, payloads included
    if op == "/" and both_integral and NULLK in kinds:
        by_zero = (b.i == 0) & a.i.isNotNull()  # type: ignore[union-attr]
        case.when(by_zero, null("int"))
    promoted = {max(ka, kb, 3) for ka in a.kinds & NUMERIC for kb in b.kinds & NUMERIC}
    t = case.otherwise(J.lit(next(iter(promoted))) if len(promoted) == 1 else F.greatest(a.t, b.t, J.lit(3)))
    i = None
    if both_integral:
        ints = {max(ka, kb, 3) for ka in a.kinds & INTEGRAL for kb in b.kinds & INTEGRAL}
        if ints == {3}:
            i = J.int_op(op, a.i, b.i)  # type: ignore[arg-type]
        elif ints == {4}:
            i = J.long_op(op, a.i, b.i)  # type: ignore[arg-type]
        else:
            i = J.narrow(J.long_op(op, a.i, b.i), (a.t <= 3) & (b.t <= 3))  # type: ignore[arg-type]
    f = d = None
    if int(JType.FLOAT) in kinds:
        x, y = as_float(a, True), as_float(b, True)
        f = None if x is None or y is None else unless(by_zero, J.floating_op(op, x, y, as_float=True), "float")
    if int(JType.DOUBLE) in kinds:
        x, y = as_double(a, True), as_double(b, True)
        d = None if x is None or y is None else unless(by_zero, J.floating_op(op, x, y, as_float=False), "double")
    w = or_w(a.w, b.w)
    if ibm and any_null is not False and err is not True:  # IBM: arithmetic on NULL (not on a type error)
        w = or_w(w, Case().when(err, J.lit(False)).when(any_null, J.lit(True)).otherwise(J.lit(False)))
    return Val(kinds, t, i=i, f=f, d=d, w=w)


def fold(op: str, operands: list[Val], ibm: bool) -> Val:
    """A literal-only operation, evaluated here by the shared value model."""
    consts = [v.const for v in operands]
    if op in ("neg", "pos"):
        r = negate(consts[0]) if op == "neg" else unary_plus(consts[0])
    else:
        r = arithmetic(op, consts[0], consts[1])
    folded = literal(r)
    if not ibm:
        return folded
    triggered = r is None and any(c is None for c in consts)  # IBM: arithmetic on NULL
    return replace(folded, w=J.lit(True) if triggered else or_w(*(v.w for v in operands)))


# ----- postfix programs ------------------------------------------------------------------------

Program = list[tuple[str, Val | None]]  # ("push", value) or (operator, None)


def program(root: n.Node, ibm: bool, resolve: Callable[[str], Val] = identifier) -> Program:
    """The tree in postfix order, literal-only subtrees folded to one push (no recursion: any depth)."""
    out: Program = []
    stack: list[tuple[n.Node, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if isinstance(node, n.Literal):
            out.append(("push", literal(node.value)))
        elif isinstance(node, n.Identifier):
            out.append(("push", resolve(node.name)))
        elif not expanded:
            stack.append((node, True))
            children = [node.operand] if isinstance(node, n.Unary) else [node.left, node.right]  # type: ignore[union-attr]
            stack.extend((c, False) for c in reversed(children))
        else:
            op = ("neg" if node.op == "-" else "pos") if isinstance(node, n.Unary) else node.op  # type: ignore[union-attr]
            arity = 1 if op in ("neg", "pos") else 2
            operands = out[-arity:]
            if all(kind == "push" and v is not None and v.const is not NOCONST for kind, v in operands):
                del out[-arity:]
                out.append(("push", fold(op, [v for _, v in operands], ibm)))  # type: ignore[misc]
            else:
                out.append((op, None))
    return out


def run_inline(prog: Program, ibm: bool, bind2: Callable[[Val, Val, Callable[[Val, Val], Val]], Val]) -> Val:
    """A small program written out as one expression (``bind2`` shares a large operand)."""
    stack: list[Val] = []
    for op, v in prog:
        if op == "push":
            stack.append(v)  # type: ignore[arg-type]
        elif op in ("neg", "pos"):
            sign = "-" if op == "neg" else "+"
            stack.append(unary(sign, stack.pop(), ibm))
        else:
            b, a = stack.pop(), stack.pop()
            stack.append(bind2(a, b, lambda x, y, op=op: binary(op, x, y, ibm)))  # type: ignore[misc]
    return stack[0]


def static_kinds(prog: Program) -> tuple[frozenset[int], frozenset[int]]:
    """(every kind a stack entry can have, the kinds of the result)."""
    stack: list[frozenset[int]] = []
    seen: set[int] = set()
    for op, v in prog:
        if op == "push":
            kinds = v.kinds  # type: ignore[union-attr]
        elif op in ("neg", "pos"):
            kinds = frozenset(ERR if k in NOT_NUMBER else NULLK if k == NULLK else max(k, 3) for k in stack.pop())
        else:
            b, a = stack.pop(), stack.pop()
            kinds = arith_kinds(op, a, b)
        stack.append(kinds)
        seen |= kinds
    return frozenset(seen), stack[0]


def _field(v: Val, name: str) -> Column:
    value = getattr(v, name)
    if value is None:
        return J.lit(False) if name == "w" else null(TYPES[name])
    return value.cast(TYPES[name])


def pack(v: Val, ibm: bool, code: int | None = None) -> Column:
    """A number as struct<t int, i bigint, f float, d double[, w boolean][, k int]>."""
    cols = [_field(v, name).alias(name) for name in TYPES if name != "w" or ibm]
    if code is not None:
        cols.append(J.lit(code).alias("k"))
    return F.struct(*cols)


def unpack(col: Column, kinds: frozenset[int], ibm: bool) -> Val:
    get = col.getField
    return Val(kinds, get("t"), i=get("i"), f=get("f"), d=get("d"), w=get("w") if ibm else None, small=True)


def run_machine(prog: Program, ibm: bool) -> Val:
    """The program run by one ``aggregate``: a stack of packed numbers, one instruction per step."""
    entry_kinds, result_kinds = static_kinds(prog)
    nothing = Val(frozenset({NULLK}), null("int"))
    instructions = F.array(*[pack(v if v is not None else nothing, ibm, CODES[op]) for op, v in prog])
    empty = F.slice(F.array(pack(nothing, ibm)), 1, 0)
    ops = sorted({op for op, _ in prog if op != "push"}, key=CODES.__getitem__)

    def step(stack: Column, x: Column) -> Column:
        size = F.size(stack)
        top, second = unpack(F.try_element_at(stack, J.lit(-1)), entry_kinds, ibm), unpack(F.try_element_at(stack, J.lit(-2)), entry_kinds, ibm)
        pushed = F.struct(*[x.getField(name).alias(name) for name in TYPES if name != "w" or ibm])
        out = F.when(x.getField("k") == 0, F.concat(stack, F.array(pushed)))
        for op in ops:
            if op in ("neg", "pos"):
                result = unary("-" if op == "neg" else "+", top, ibm)
                rest = F.slice(stack, J.lit(1), size - 1)
            else:
                result = binary(op, second, top, ibm)
                rest = F.slice(stack, J.lit(1), size - 2)
            out = out.when(x.getField("k") == CODES[op], F.concat(rest, F.array(pack(result, ibm))))
        return out

    final = F.try_element_at(F.aggregate(instructions, empty, step), J.lit(1))
    return replace(unpack(final, result_kinds, ibm), small=False, packed=final)  # bound as one struct


__all__ = ["INLINE_OPS", "binary", "program", "run_inline", "run_machine", "unary"]

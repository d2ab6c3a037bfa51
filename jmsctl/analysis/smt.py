"""A checked selector AST as SMT formulas: the engine's exact reading (values.py, compiler.py).

Every identifier is a message slot whose *type* is unknown too: a type (absent, boolean, byte,
short, int, long, float, double, String) and one variable per representation (a Bool, a 64-bit
vector for the four integral types, IEEE float32 and float64, a String). An expression's value is
a small table ``kind -> (guard, term)`` (guards exclusive), so that Java's promotion rules apply per
pair of kinds: int and long wrap (bit-vectors), float and double round to nearest even (FP
theory), integer division truncates (bvsdiv) and a zero divisor gives NULL, a String or boolean in
arithmetic is a type error that makes a comparison FALSE. A condition is a pair of formulas
``(is TRUE, is FALSE)``: UNKNOWN is neither, so three-valued logic needs no third formula.

The ``ibm`` dialect's "whole selector FALSE" (docs/SEMANTICS.md#ibm-dialect) is a disjunction of the
conditions under which some node would raise, collected while encoding: the IBM evaluator
evaluates every operand, so every node counts.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Generic, TypeVar

import z3

from jmsctl.selector import nodes as n
from jmsctl.selector.like import split_pattern
from jmsctl.spec import DELIVERY_MODES, JMSX_TYPES, PRIORITY_RANGE
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, RANGES, SHORT, STRING, JType, TypedValue

MAX_CHAR = 0x2FFFF  # z3's alphabet; characters no literal uses are interchangeable, so this loses nothing


class K(IntEnum):
    """The kinds an expression's value can have at run time (byte and short compute as int)."""

    NULL = 0
    ERR = 1  # a String or boolean met arithmetic: compares FALSE, wins over NULL
    BOOL = 2
    I32 = 3
    I64 = 4
    F32 = 5
    F64 = 6
    STR = 7


NUMERIC = (K.I32, K.I64, K.F32, K.F64)
Tri = tuple[z3.BoolRef, z3.BoolRef]  # (is TRUE, is FALSE)
TRUE_F: z3.BoolRef = z3.BoolVal(True)
FALSE_F: z3.BoolRef = z3.BoolVal(False)
RNE = z3.RNE()
F32S, F64S = z3.Float32(), z3.Float64()


class Unsupported(Exception):
    """A selector the encoding cannot state exactly (a character outside the solver's alphabet)."""


def string_val(text: str, ctx: z3.Context | None = None) -> z3.SeqRef:
    """A z3 String literal of exactly these characters (z3 reads ``\\u{..}`` escapes in its literals)."""
    out = []
    for ch in text:
        c = ord(ch)
        if c > MAX_CHAR or 0xD800 <= c <= 0xDFFF:
            raise Unsupported(f"the character U+{c:04X} is outside the solver's alphabet")
        out.append(ch if 0x20 <= c < 0x7F and ch != "\\" else f"\\u{{{c:x}}}")
    return z3.StringVal("".join(out), ctx)


def python_string(value: z3.ExprRef) -> str:
    """The characters of a z3 String value (``as_string`` escapes some, ambiguously)."""
    ctx, ast = value.ctx_ref(), value.as_ast()
    length = z3.Z3_get_string_length(ctx, ast)
    buf = (ctypes.c_uint * max(length, 1))()
    z3.Z3_get_string_contents(ctx, ast, length, buf)
    return "".join(chr(buf[i]) for i in range(length))


_ALPHABET = z3.Union(z3.Range("\\u{0}", "\\u{d7ff}"), z3.Range("\\u{e000}", f"\\u{{{MAX_CHAR:x}}}"))
VALID_STRING = z3.Star(_ALPHABET)


KindT = TypeVar("KindT", bound=IntEnum)


@dataclass
class Cases(Generic[KindT]):
    """A value's possible kinds: kind -> (guard, term), the guards exclusive. One class for the standard's
    kinds (``Val`` below) and the brokers' Java classes (``broker_encoding.Val``)."""

    cases: dict[KindT, tuple[z3.BoolRef, Any]] = field(default_factory=dict)

    def add(self, guard: z3.BoolRef, kind: KindT, term: Any = None) -> None:
        if z3.is_false(guard):
            return
        old = self.cases.get(kind)
        if old is None:
            self.cases[kind] = (guard, term)
        else:
            g0, t0 = old
            self.cases[kind] = (z3.Or(g0, guard), None if term is None else z3.If(guard, term, t0))

    def items(self) -> Iterable[tuple[KindT, z3.BoolRef, Any]]:
        for kind, (g, t) in self.cases.items():
            yield kind, g, t

    def guard(self, *kinds: KindT) -> z3.BoolRef:
        gs = [self.cases[k][0] for k in kinds if k in self.cases]
        return z3.Or(*gs) if len(gs) > 1 else (gs[0] if gs else FALSE_F)


class Val(Cases[K]):
    """An expression's possible values under the standard's kinds."""


def _and(a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
    if z3.is_true(a):
        return b
    if z3.is_true(b):
        return a
    return z3.And(a, b)


def _or_all(fs: list[z3.BoolRef]) -> z3.BoolRef:
    fs = [f for f in fs if not z3.is_false(f)]
    return z3.Or(*fs) if len(fs) > 1 else (fs[0] if fs else FALSE_F)


def literal(value: TypedValue) -> Val:
    t, v = value
    out = Val()
    if t is BOOLEAN:
        out.add(TRUE_F, K.BOOL, z3.BoolVal(bool(v)))
    elif t is LONG:
        out.add(TRUE_F, K.I64, z3.BitVecVal(v, 64))
    elif t.is_integral:
        out.add(TRUE_F, K.I32, z3.BitVecVal(v, 32))
    elif t is FLOAT:
        out.add(TRUE_F, K.F32, z3.FPVal(v, F32S))
    elif t is DOUBLE:
        out.add(TRUE_F, K.F64, z3.FPVal(v, F64S))
    else:
        out.add(TRUE_F, K.STR, string_val(v))
    return out


# ----- the message: one slot per name ------------------------------------------------------------

HEADER_TYPES: Mapping[str, JType] = {
    "JMSDeliveryMode": STRING, "JMSPriority": INT, "JMSMessageID": STRING,
    "JMSTimestamp": LONG, "JMSCorrelationID": STRING, "JMSType": STRING,
}
# A name of one type: a header's, or a JMSX property's as the specification types it (validate's
# N007 rejects any other type, so a witness never has one; docs/FORMAT.md).
FIXED_TYPES: Mapping[str, JType] = {**HEADER_TYPES, **{name: t for name in JMSX_TYPES if (t := JType.from_name(JMSX_TYPES[name]))}}


@dataclass(frozen=True)
class Domain:
    """Which messages count: per name the types it may have (None in the set: absent). ``closed``:
    names not listed are absent. The default is every message the dump format can carry."""

    types: Mapping[str, frozenset[JType | None]] = field(default_factory=dict)
    closed: bool = False

    def allowed(self, name: str) -> frozenset[JType | None] | None:
        if name in self.types:
            return self.types[name]
        return frozenset({None}) if self.closed else None

    def admits(self, view: Mapping[str, TypedValue]) -> bool:
        """Whether a message (its selector view: name -> value, absent names left out) counts."""
        for name in {*view, *self.types}:
            allowed = self.allowed(name)
            v = view.get(name)
            if allowed is not None and (None if v is None else v[0]) not in allowed:
                return False
        return True


ANY = Domain()


# A slot's type is two integers: its numeric group (what decides the cost of the formulas: none,
# int-like, long, float, double) and the type within the group. Fixing the group of the names
# under arithmetic to a constant lets the solver drop every other kind's terms (``split``).
GROUPS: Mapping[JType | None, tuple[int, int]] = {
    None: (0, 0), BOOLEAN: (0, 1), STRING: (0, 2), BYTE: (1, 0), SHORT: (1, 1), INT: (1, 2),
    LONG: (2, 0), FLOAT: (3, 0), DOUBLE: (4, 0),
}
BY_GROUP = {g: t for t, g in GROUPS.items()}


@dataclass
class Slot:
    name: str
    group: z3.ArithRef
    sub: z3.ArithRef
    b: z3.BoolRef
    i: z3.BitVecRef
    f: z3.FPRef
    d: z3.FPRef
    s: z3.SeqRef
    types: frozenset[JType | None] = frozenset()

    def is_type(self, t: JType | None) -> z3.BoolRef:
        g, sub = GROUPS[t]
        return z3.And(self.group == g, self.sub == sub)

    def groups(self) -> list[int]:
        """The numeric groups this slot's types fall in, cheapest first."""
        return sorted({GROUPS[t][0] for t in self.types})


# Slots are shared by every Message (the same name, the same z3 variables): a selector encoded once
# can then be asked with any other in any question (solver.py caches encodings per selector). The
# variables are named after the name (``var_name``), never numbered in the order names were met: a
# question's formula is then the same in every process, whatever was asked before (budget.py solves
# it in a z3 context of its own); the constraints are kept per name and allowed types.
_SLOTS: dict[tuple[str, frozenset[JType | None]], tuple[Slot, tuple[z3.BoolRef, ...]]] = {}
_VALUES: dict[str, Val] = {}
MAX_SHARED = 20_000  # slots kept; past it the tables start again (z3 makes the same variables again by name)


def var_name(name: str) -> str:
    """The name as a plain SMT-LIB symbol, one to one: letters and digits kept, every other character
    ``_hex_`` (cvc5 reads z3's SMT-LIB text, portfolio.py, and its constants' names back)."""
    return "".join(c if c.isascii() and c.isalnum() else f"_{ord(c):x}_" for c in name)


def in_ctx(term: Any, ctx: z3.Context) -> Any:
    """``term`` in the z3 context ``ctx`` (a copy made by z3's translation where it lives in another)."""
    return term if term.ctx is ctx else term.translate(ctx)


def _shared_slot(name: str, types: frozenset[JType | None]) -> tuple[Slot, tuple[z3.BoolRef, ...]]:
    found = _SLOTS.get((name, types))
    if found is not None:
        return found
    if len(_SLOTS) >= MAX_SHARED:
        _SLOTS.clear()
        _VALUES.clear()
    k = var_name(name)
    s = Slot(name, z3.Int(f"g_{k}"), z3.Int(f"t_{k}"), z3.Bool(f"b_{k}"), z3.BitVec(f"i_{k}", 64), z3.FP(f"f_{k}", F32S),
             z3.FP(f"d_{k}", F64S), z3.String(f"s_{k}"), types)
    c = [z3.Or(*[s.is_type(t) for t in types]) if types else FALSE_F]
    for t in (BYTE, SHORT, INT):
        if t in types:
            lo, hi = RANGES[t]
            c.append(z3.Implies(s.is_type(t), z3.And(s.i >= lo, s.i <= hi)))
    if STRING in types:
        c.append(z3.Implies(s.is_type(STRING), z3.InRe(s.s, VALID_STRING)))
    if name == "JMSPriority":
        c.append(z3.Implies(s.is_type(INT), z3.And(s.i >= PRIORITY_RANGE.start, s.i < PRIORITY_RANGE.stop)))
    elif name == "JMSDeliveryMode":
        c.append(z3.Implies(s.is_type(STRING), z3.Or(*[s.s == z3.StringVal(m) for m in sorted(set(DELIVERY_MODES.values()))])))
    out = _SLOTS[(name, types)] = (s, tuple(c))
    return out


class Message:
    """The symbolic message: the slots of the names used, with their domain constraints."""

    def __init__(self, domain: Domain = ANY) -> None:
        self.domain = domain
        self.slots: dict[str, Slot] = {}
        self.constraints: list[z3.BoolRef] = []

    def slot(self, name: str) -> Slot:
        found = self.slots.get(name)
        if found is not None:
            return found
        types: set[JType | None] = {None, *JType}
        fixed = FIXED_TYPES.get(name)
        if fixed is not None:
            types = {None, fixed}
        allowed = self.domain.allowed(name)
        if allowed is not None:
            types &= set(allowed)
        s, constraints = _shared_slot(name, frozenset(types))
        self.slots[name] = s
        self.constraints.extend(constraints)
        return s

    def value(self, name: str) -> Val:
        """The name's possible values (the same terms whatever the domain: only its constraints differ)."""
        s = self.slot(name)
        found = _VALUES.get(name)
        if found is not None:
            return found
        header = FIXED_TYPES.get(name)
        out = _VALUES[name] = Val()
        out.add(s.is_type(None), K.NULL)
        # a header has its one type or none (javadoc): its other kinds are left out, not merely
        # constrained away, so that `-JMSDeliveryMode` is visibly never a number to the solver
        if header is None or header is BOOLEAN:
            out.add(s.is_type(BOOLEAN), K.BOOL, s.b)
        if header is None or header in (BYTE, SHORT, INT):
            out.add(z3.Or(s.is_type(BYTE), s.is_type(SHORT), s.is_type(INT)), K.I32, z3.Extract(31, 0, s.i))
        if header is None or header is LONG:
            out.add(s.is_type(LONG), K.I64, s.i)
        if header is None or header is FLOAT:
            out.add(s.is_type(FLOAT), K.F32, s.f)
        if header is None or header is DOUBLE:
            out.add(s.is_type(DOUBLE), K.F64, s.d)
        if header is None or header is STRING:
            out.add(s.is_type(STRING), K.STR, s.s)
        return out

    def read(self, model: z3.ModelRef) -> dict[str, TypedValue | None]:
        """Each slot's value in a model: (JType, Python value), or None for absent."""
        out: dict[str, TypedValue | None] = {}

        def value(term: Any) -> Any:  # the model's own context (budget.solve's): the slots are translated into it
            return model.eval(in_ctx(term, model.ctx), model_completion=True)

        for name, s in self.slots.items():
            g = value(s.group).as_long()
            sub = value(s.sub).as_long()
            found = BY_GROUP[(g, sub)]
            if found is None:
                out[name] = None
                continue
            t = found
            if t is BOOLEAN:
                out[name] = (t, z3.is_true(value(s.b)))
            elif t.is_integral:
                out[name] = (t, value(s.i).as_signed_long())
            elif t is FLOAT:
                out[name] = (t, fp_value(value(s.f)))
            elif t is DOUBLE:
                out[name] = (t, fp_value(value(s.d)))
            else:
                out[name] = (t, python_string(value(s.s)))
        return out


def fp_value(v: Any) -> float:
    """A z3 floating-point numeral as the Python float of the same value (float32 values are exact doubles)."""
    import math
    import struct

    if v.isNaN():
        return math.nan
    if v.isInf():
        return -math.inf if v.isNegative() else math.inf
    ebits, sbits = v.ebits(), v.sbits()
    sign = 1 if v.isNegative() else 0
    exponent = v.exponent_as_long(biased=True) if not v.isZero() else 0
    significand = v.significand_as_long()
    if v.isSubnormal() or v.isZero():
        exponent = 0
    bits = (sign << (ebits + sbits - 1)) | (exponent << (sbits - 1)) | significand
    if ebits == 8:
        return float(struct.unpack("<f", bits.to_bytes(4, "little"))[0])
    return float(struct.unpack("<d", bits.to_bytes(8, "little"))[0])


# ----- expressions and conditions --------------------------------------------------------------


def _to64(k: K, v: Any) -> Any:
    return z3.SignExt(32, v) if k is K.I32 else v


def _to_fp(k: K, v: Any, sort: z3.FPSortRef) -> Any:
    if k in (K.I32, K.I64):
        return z3.fpSignedToFP(RNE, v, sort)
    if k is K.F32 and sort == F64S:
        return z3.fpFPToFP(RNE, v, F64S)
    return v


def _promote(ka: K, va: Any, kb: K, vb: Any) -> tuple[K, Any, Any]:
    """Binary numeric promotion of two numeric cases: the common kind and both operands in it."""
    if ka in (K.I32, K.I64) and kb in (K.I32, K.I64):
        if ka is K.I32 and kb is K.I32:
            return K.I32, va, vb
        return K.I64, _to64(ka, va), _to64(kb, vb)
    if K.F64 in (ka, kb):
        return K.F64, _to_fp(ka, va, F64S), _to_fp(kb, vb, F64S)
    return K.F32, _to_fp(ka, va, F32S), _to_fp(kb, vb, F32S)


_INT_CMP = {"=": lambda x, y: x == y, "<>": lambda x, y: x != y, "<": lambda x, y: x < y,
            "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}
_FP_CMP = {"=": z3.fpEQ, "<>": lambda x, y: z3.Not(z3.fpEQ(x, y)), "<": z3.fpLT, "<=": z3.fpLEQ,
           ">": z3.fpGT, ">=": z3.fpGEQ}
_FP_ARITH = {"+": z3.fpAdd, "-": z3.fpSub, "*": z3.fpMul, "/": z3.fpDiv}


class Encoder:
    """One or more selectors over one symbolic message."""

    def __init__(self, message: Message, ibm: bool = False) -> None:
        self.msg = message
        self.ibm = ibm
        self.aborts: list[z3.BoolRef] = []  # ibm: conditions that make the whole selector FALSE

    def selector(self, ast: n.Node | None) -> Tri:
        """The selector's (is TRUE, is FALSE); no selector is TRUE."""
        if ast is None:
            return TRUE_F, FALSE_F
        self.aborts = []
        t, f = self.cond(ast)
        if self.ibm and self.aborts:
            abort = _or_all(self.aborts)
            return z3.And(t, z3.Not(abort)), z3.Or(f, abort)
        return t, f

    # ----- values ----------------------------------------------------------------------------

    def value(self, node: n.Node) -> Val:
        if isinstance(node, n.Literal):
            return literal(node.value)
        if isinstance(node, n.Identifier):
            return self.msg.value(node.name)
        if isinstance(node, n.Unary):
            return self._unary(node)
        if isinstance(node, n.Arithmetic):
            return self._arithmetic(node)
        raise Unsupported(f"not a value: {type(node).__name__}")

    def _unary(self, node: n.Unary) -> Val:
        a = self.value(node.operand)
        out = Val()
        if self.ibm and K.NULL in a.cases:
            self.aborts.append(a.cases[K.NULL][0])
        for k, g, v in a.items():
            if k in (K.NULL, K.ERR):
                out.add(g, k)
            elif k in (K.BOOL, K.STR):
                out.add(g, K.ERR)
            elif node.op == "+":
                out.add(g, k, v)
            elif k in (K.I32, K.I64):
                out.add(g, k, -v)
            else:
                out.add(g, k, z3.fpNeg(v))
        return out

    def _arithmetic(self, node: n.Arithmetic) -> Val:
        a, b, op = self.value(node.left), self.value(node.right), node.op
        out = Val()
        for ka, ga, va in a.items():
            for kb, gb, vb in b.items():
                g = _and(ga, gb)
                if ka in (K.ERR, K.BOOL, K.STR) or kb in (K.ERR, K.BOOL, K.STR):
                    out.add(g, K.ERR)
                elif ka is K.NULL or kb is K.NULL:
                    out.add(g, K.NULL)
                    if self.ibm:
                        self.aborts.append(g)  # IBM: arithmetic on NULL
                else:
                    k, x, y = _promote(ka, va, kb, vb)
                    if k in (K.I32, K.I64):
                        if op == "/":
                            zero = y == 0
                            out.add(_and(g, zero), K.NULL)  # docs/SEMANTICS.md#numeric-promotion: integer division by zero
                            out.add(_and(g, z3.Not(zero)), k, x / y)  # bvsdiv truncates; MIN / -1 wraps
                        else:
                            out.add(g, k, x + y if op == "+" else x - y if op == "-" else x * y)
                    elif op == "*":
                        out.add(g, k, z3.fpMul(RNE, x, y))
                    else:
                        out.add(g, k, _FP_ARITH[op](RNE, x, y))
        return out

    # ----- conditions ------------------------------------------------------------------------

    def cond(self, node: n.Node) -> Tri:
        if isinstance(node, n.And):
            parts = [self.cond(o) for o in n.chain(node)]
            return z3.And(*[t for t, _ in parts]), z3.Or(*[f for _, f in parts])
        if isinstance(node, n.Or):
            parts = [self.cond(o) for o in n.chain(node)]
            return z3.Or(*[t for t, _ in parts]), z3.And(*[f for _, f in parts])
        if isinstance(node, n.Not):
            t, f = self.cond(node.operand)
            return f, t
        if isinstance(node, n.Comparison):
            return self.compare(node.op, self.value(node.left), self.value(node.right))
        if isinstance(node, n.Between):
            return self._between(node)
        if isinstance(node, n.InList):
            return self._string_predicate(node.operand, node.negated, lambda s: z3.Or(*[s == self._string_item(i) for i in node.items]))
        if isinstance(node, n.Like):
            rx = like_regex(node)
            return self._string_predicate(node.operand, node.negated, lambda s: z3.InRe(s, rx))
        if isinstance(node, n.IsNull):
            null = self.value(node.operand).guard(K.NULL)
            return (z3.Not(null), null) if node.negated else (null, z3.Not(null))
        if isinstance(node, n.Literal) and node.value[0] is BOOLEAN:
            return (TRUE_F, FALSE_F) if node.value[1] else (FALSE_F, TRUE_F)
        if isinstance(node, n.Identifier):
            v = self.msg.value(node.name)
            other = v.guard(*(k for k in v.cases if k not in (K.NULL, K.BOOL)))
            if self.ibm:
                self.aborts.append(other)  # docs/SEMANTICS.md#ibm-dialect: 'x' stands for 'x = TRUE', unlike types
            if K.BOOL in v.cases:
                g, b = v.cases[K.BOOL]
                return z3.And(g, b), z3.Or(z3.And(g, z3.Not(b)), other)
            return FALSE_F, other
        raise Unsupported(f"not a condition: {type(node).__name__}")

    def _string_item(self, item: n.Node) -> z3.SeqRef:
        if isinstance(item, n.Literal) and item.value[0] is STRING:
            return string_val(item.value[1])
        raise Unsupported("an IN list item that is not a string literal")

    def _string_predicate(self, operand: n.Node, negated: bool, test: Any) -> Tri:
        """IN and LIKE: a String is tested; NULL and every other type give UNKNOWN (both readings)."""
        v = self.value(operand)
        if K.STR not in v.cases:
            return FALSE_F, FALSE_F
        g, s = v.cases[K.STR]
        hit = test(s)
        t, f = z3.And(g, hit), z3.And(g, z3.Not(hit))
        return (f, t) if negated else (t, f)

    def compare(self, op: str, a: Val, b: Val) -> Tri:
        trues: list[z3.BoolRef] = []
        falses: list[z3.BoolRef] = []
        for ka, ga, va in a.items():
            for kb, gb, vb in b.items():
                g = _and(ga, gb)
                if ka is K.ERR or kb is K.ERR:
                    falses.append(g)
                    if self.ibm:
                        self.aborts.append(g)
                elif ka is K.NULL or kb is K.NULL:
                    continue  # UNKNOWN
                elif ka in NUMERIC and kb in NUMERIC:
                    k, x, y = _promote(ka, va, kb, vb)
                    hit = (_INT_CMP if k in (K.I32, K.I64) else _FP_CMP)[op](x, y)
                    trues.append(_and(g, hit))
                    falses.append(_and(g, z3.Not(hit)))
                elif ka is kb and op in ("=", "<>"):
                    hit = va == vb if op == "=" else va != vb
                    trues.append(_and(g, hit))
                    falses.append(_and(g, z3.Not(hit)))
                else:  # unlike types, or String/boolean ordering: FALSE
                    falses.append(g)
                    if self.ibm and ka is not kb:
                        self.aborts.append(g)
        return _or_all(trues), _or_all(falses)

    def _between(self, node: n.Between) -> Tri:
        v, lo, hi = self.value(node.operand), self.value(node.low), self.value(node.high)
        if node.negated:
            t1, f1 = self.compare("<", v, lo)
            t2, f2 = self.compare(">", v, hi)
            t, f = z3.Or(t1, t2), z3.And(f1, f2)
        else:
            t1, f1 = self.compare(">=", v, lo)
            t2, f2 = self.compare("<=", v, hi)
            t, f = z3.And(t1, t2), z3.Or(f1, f2)
        if self.ibm:  # IBM: BETWEEN with a NULL operand is FALSE, NOT BETWEEN TRUE (a mismatch aborts first)
            null = z3.Or(v.guard(K.NULL), lo.guard(K.NULL), hi.guard(K.NULL))
            result = (TRUE_F, FALSE_F) if node.negated else (FALSE_F, TRUE_F)
            t, f = z3.If(null, result[0], t), z3.If(null, result[1], f)
        return t, f


def like_regex(node: n.Like) -> z3.ReRef:
    """The LIKE pattern as a regular expression, split exactly as like.py splits it."""
    if not (isinstance(node.pattern, n.Literal) and node.pattern.value[0] is STRING):
        raise Unsupported("a LIKE pattern that is not a string literal")
    escape = node.escape.value[1] if isinstance(node.escape, n.Literal) else None
    any_char = z3.AllChar(z3.ReSort(z3.StringSort()))
    parts: list[z3.ReRef] = []
    for i, segment in enumerate(split_pattern(node.pattern.value[1], escape)):
        if i:
            parts.append(z3.Star(any_char))
        run: list[str] = []
        for c in segment:
            if c is None:
                if run:
                    parts.append(z3.Re(string_val("".join(run))))
                    run = []
                parts.append(any_char)
            else:
                run.append(c)
        if run:
            parts.append(z3.Re(string_val("".join(run))))
    if not parts:
        return z3.Re(z3.StringVal(""))
    return z3.Concat(*parts) if len(parts) > 1 else parts[0]


__all__ = ["ANY", "Domain", "Encoder", "Message", "Unsupported"]

"""The brokers' reading of a selector (``--dialect activemq|artemis``) as SMT formulas, so that the
solver proves there too: the same symbolic message as smt.py (its slots, shared by name), another
value model. The ground truth is selector/dialects/broker_evaluator.py; every rule here follows one
of its functions, and through it the brokers' ``filter`` classes. Sources, cited per rule:
AMQ = apache/activemq at c3580e79d2, ``activemq-client/src/main/java/org/apache/activemq/filter/``;
ART = apache/activemq-artemis at 6700541d46, ``artemis-selector/src/main/java/org/apache/activemq/
artemis/selector/filter/`` (a fork of the same classes; line numbers are AMQ's unless named).

- Values are boxed Java objects: a tagged union of Byte, Short, Integer, Long, Float, Double,
  BigDecimal (an integer literal beyond the long range), String, Boolean and null, plus THROW (a
  RuntimeException: the broker does not deliver the message). Byte and Short stay apart from
  Integer: compare() treats them differently.
- ``compare()`` (ComparisonExpression.java 397-515) widens only one way: the left operand to the
  right one's class, or the right one for Long vs Integer, Float vs Integer/Long, Double vs
  Integer/Long/Float; every other pair of classes is FALSE. ActiveMQ casts a Float right of a Double
  back to float (line 483) and ``Double.compareTo(Float)`` throws; Artemis widens it (ART 464).
  Then ``compareTo``: Float/Double order NaN above everything and equal to itself, -0.0 below 0.0.
- ``=`` is EqualsExpression.evaluate() (225-243): null = null is TRUE, null on the right FALSE,
  on the left NULL; both operands are evaluated. ``<`` etc. (385-395) stop at a NULL on the left.
- Arithmetic (ArithmeticExpression.java 40-195): NULL left ends it before the right; a String left
  of ``+`` concatenates ``String.valueOf`` of the right; otherwise non-numbers throw (asNumber,
  177-183); int if both are Byte/Short/Integer/BigDecimal, long if one is a Long, double if one
  is a Float/Double (numberType, 163-171), with Java's wrapping; ``/`` and ``%`` always in double
  (155-161: ``%`` is C's fmod, not IEEE's remainder).
- Negation (UnaryExpression.java 41-58, 168-196): a Byte or Short throws, a non-number is NULL,
  Integer.MIN_VALUE wraps, a BigDecimal whose negation is Long.MIN_VALUE becomes that Long.
- Conditions (LogicExpression.java 105-185, UnaryExpression.java 60-166, 243-264): ``matches()``
  at the top and in AND/OR short-circuits on the first non-TRUE (TRUE); evaluate() below NOT and
  in comparisons stops at FALSE (TRUE) and goes on past NULL; an exception ends all of it.

A condition is (TRUE, FALSE, THROW), exclusive; NULL is none of them. The selector's verdict is
TRUE exactly when matches() is true and nothing threw. Two things have no cheap exact formula and
are over-approximated by a fresh constant (an existential, so "unsat" stays a proof): the text of a
Float/Double concatenated to a String, and ``%`` on a long or floating operand (fmod); a "sat" through one is confirmed by the engine or answered as unknown
(``Encoding.approximate``). What is not encoded raises smt.Unsupported (the solver then searches):
names whose value the broker takes from message fields (ActiveMQ's JMSXDeliveryCount, JMSRedelivered,
JMSMessageID, destinations, JMSExpiration), and the STOMP conversion prefix (String-to-number ``valueOf``).
"""

from __future__ import annotations

import hashlib
from enum import IntEnum
from typing import Any

import z3

from jmsctl.analysis import smt
from jmsctl.analysis.broker_like import like_regex
from jmsctl.analysis.folding import and_all, or_all
from jmsctl.analysis.smt import F32S, F64S, FALSE_F, RNE, TRUE_F, string_val
from jmsctl.selector import nodes as n
from jmsctl.selector.dialects import Dialect
from jmsctl.selector.dialects.broker_headers import BROKER_HEADERS
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, LONG_MAX, LONG_MIN, SHORT, STRING, wrap32, wrap64


class J(IntEnum):
    """The Java classes a value can have at run time, THROW for an exception."""

    NULL = 0
    THROW = 1
    BOOL = 2
    BYTE = 3
    SHORT = 4
    INT = 5
    LONG = 6
    FLOAT = 7
    DOUBLE = 8
    BIG = 9  # BigDecimal: only an integer literal beyond the long range (ConstantExpression.createFromDecimal 51-71)
    STR = 10


NUMBERS = (J.BYTE, J.SHORT, J.INT, J.LONG, J.FLOAT, J.DOUBLE)  # compare()'s widening order
INTEGRAL = (J.BYTE, J.SHORT, J.INT, J.LONG)
_OF_TYPE = {BOOLEAN: J.BOOL, BYTE: J.BYTE, SHORT: J.SHORT, INT: J.INT, LONG: J.LONG, FLOAT: J.FLOAT, DOUBLE: J.DOUBLE, STRING: J.STR}
# ActiveMQ reads these from message fields (broker_evaluator._FIELDS). Two are stated: an int
# JMSXGroupSeq is the group sequence field, 0 when unset, and a String JMSXGroupID the group id field
# (the only types a message carries them with, smt.FIXED_TYPES); the others are not.
_FIELD_BACKED = ("JMSXDeliveryCount", "JMSRedelivered", "JMSMessageID", "JMSDestination", "JMSReplyTo")
_FIELD_DEFAULTS = {"JMSXGroupSeq": (INT, 0)}
_DURABLE = {"PERSISTENT": "DURABLE", "NON_PERSISTENT": "NON_DURABLE"}
Cond = tuple[z3.BoolRef, z3.BoolRef, z3.BoolRef]  # (TRUE, FALSE, THROW), exclusive


class Val(smt.Cases[J]):
    """A value's possible Java classes (THROW for an exception); over a message the guards are exhaustive."""

    def others(self, *kinds: J) -> list[tuple[J, z3.BoolRef, Any]]:
        return [(k, g, t) for k, (g, t) in self.cases.items() if k not in kinds]


def _not(f: z3.BoolRef) -> z3.BoolRef:
    return FALSE_F if z3.is_true(f) else TRUE_F if z3.is_false(f) else z3.Not(f)


def _const(kind: J, term: Any = None) -> Val:
    out = Val()
    out.add(TRUE_F, kind, term)
    return out


# ----- compareTo() and the conversions of compare() ---------------------------------------------


def _width(kind: J) -> int:
    return 64 if kind is J.LONG else 32


def _convert(kind: J, v: Any, to: J) -> Any:
    """Number.xxxValue() as compare() and the arithmetic call it: a widening, or long -> float (RNE)."""
    if kind is to:
        return v
    if to in INTEGRAL:
        return z3.SignExt(_width(to) - _width(kind), v) if _width(to) > _width(kind) else v
    sort = F32S if to is J.FLOAT else F64S
    if kind in INTEGRAL:
        return z3.fpSignedToFP(RNE, v, sort)
    return z3.fpFPToFP(RNE, v, F64S)  # float -> double: exact


def _fp_eq(a: Any, b: Any) -> z3.BoolRef:
    """Float/Double.compareTo(...) == 0: NaN equals NaN, -0.0 is not 0.0."""
    return z3.Or(z3.And(z3.fpIsNaN(a), z3.fpIsNaN(b)), z3.And(z3.fpEQ(a, b), z3.fpIsNegative(a) == z3.fpIsNegative(b)))


def _fp_lt(a: Any, b: Any) -> z3.BoolRef:
    """Float/Double.compareTo(...) < 0: NaN above everything, -0.0 below 0.0."""
    both_zero = z3.And(z3.fpIsZero(a), z3.fpIsZero(b), z3.fpIsNegative(a), z3.Not(z3.fpIsNegative(b)))
    return z3.And(z3.Not(z3.fpIsNaN(a)), z3.Or(z3.fpIsNaN(b), z3.fpLT(a, b), both_zero))


def _utf16_key(c: Any) -> Any:
    """A code point mapped so that the order of the keys is the order of the UTF-16 units: a
    supplementary character (a high surrogate first) sorts between U+D7FF and U+E000."""
    return z3.If(c >= 0x10000, c - 0x10000 + 0xD800, z3.If(c >= 0xE000, c + 0x20000, c))


class Encoding:
    """One selector under one broker dialect; ``approximate`` once a fresh constant stood in for a value."""

    def __init__(self, message: smt.Message, dialect: Dialect, tag: str = "") -> None:
        self.msg = message
        self.d = dialect
        self.tag = tag  # the selector's, in the names of its fresh constants
        self.made = 0
        self.cast_throws = dialect.double_vs_float == "float-cast-throws"
        self.approximate = False
        self.sides: list[z3.BoolRef] = []  # constraints that define fresh constants: part of every question it is in
        self.names: dict[str, Val] = {}  # one Val per name: the same object on both sides of `x <> x`

    def fresh(self, sort: z3.SortRef, prefix: str) -> Any:
        """A constant of its own, named by the selector and a count, not by z3's process-wide counter
        (z3.FreshConst): a question's formula is then the same after any earlier question (budget.fresh)."""
        self.made += 1
        return z3.Const(f"{prefix}!{self.tag}!{self.made}", sort)

    def selector(self, ast: n.Node | None) -> smt.Tri:
        """(is TRUE, is FALSE) of the broker's verdict, which is TRUE or FALSE (an exception: FALSE)."""
        if ast is None:
            return TRUE_F, FALSE_F
        if self.d.convert_string_expressions:
            raise smt.Unsupported("the STOMP conversion prefix (a String read with valueOf) is not encoded")
        matched, _ = self.matches(ast)
        return matched, _not(matched)

    # ----- matches(): (matched, threw) ------------------------------------------------------

    def matches(self, node: n.Node) -> tuple[z3.BoolRef, z3.BoolRef]:
        if isinstance(node, (n.And, n.Or)):  # LogicExpression.matches(), 130-138 and 171-179
            goes_on, stop, threw = TRUE_F, [], []
            for part in n.chain(node):
                m, x = self.matches(part)
                threw.append(and_all(goes_on, x))
                if isinstance(node, n.And):
                    goes_on = and_all(goes_on, m)
                else:
                    stop.append(and_all(goes_on, m))
                    goes_on = and_all(goes_on, _not(m), _not(x))
            return (goes_on if isinstance(node, n.And) else or_all(stop)), or_all(threw)
        if isinstance(node, n.Between):  # createBetween: an AND (OR) of two comparisons, matched as one
            x, lo, hi = (self.value(c) for c in (node.operand, node.low, node.high))
            if node.negated:
                t1, _, x1 = self._ordered(x, lo, "<")
                t2, _, x2 = self._ordered(x, hi, ">")
                on = and_all(_not(t1), _not(x1))
                return or_all([t1, and_all(on, t2)]), or_all([x1, and_all(on, x2)])
            t1, _, x1 = self._ordered(x, lo, ">=")
            t2, _, x2 = self._ordered(x, hi, "<=")
            return and_all(t1, t2), or_all([x1, and_all(t1, x2)])
        t, _, x = self.cond(node)
        return t, x

    # ----- evaluate() of a condition: (TRUE, FALSE, THROW) -----------------------------------

    def cond(self, node: n.Node) -> Cond:
        if isinstance(node, (n.And, n.Or)):  # LogicExpression.evaluate(), 112-127 and 153-168
            stop_at_true = isinstance(node, n.Or)
            goes_on, stops, threw, lasts = TRUE_F, [], [], []
            for part in n.chain(node):
                t, f, x = self.cond(part)
                stop, last = (t, f) if stop_at_true else (f, t)
                stops.append(and_all(goes_on, stop))
                threw.append(and_all(goes_on, x))
                lasts.append(last)
                goes_on = and_all(goes_on, _not(stop), _not(x))
            stopped, all_last = or_all(stops), and_all(*lasts)
            return (stopped, all_last, or_all(threw)) if stop_at_true else (all_last, stopped, or_all(threw))
        if isinstance(node, n.Not):  # NotExpression, 248-254
            t, f, x = self.cond(node.operand)
            return f, t, x
        if isinstance(node, n.Identifier):  # createBooleanCast, 145-166: a non-Boolean is FALSE
            v = self.value(node)
            other = or_all([g for _, g, _ in v.others(J.NULL, J.BOOL)])
            if J.BOOL in v.cases:
                g, b = v.cases[J.BOOL]
                return and_all(g, b), or_all([and_all(g, _not(b)), other]), FALSE_F
            return FALSE_F, other, FALSE_F
        if isinstance(node, n.Literal):
            value = node.value[1]
            return (TRUE_F if value is True else FALSE_F), (TRUE_F if value is False else FALSE_F), FALSE_F
        if isinstance(node, n.Comparison):
            a, b = self.value(node.left), self.value(node.right)
            if node.op in ("=", "<>"):
                t, f, x = self._equals(a, b)
                return (f, t, x) if node.op == "<>" else (t, f, x)  # createNotEqual: NOT of the equality
            return self._ordered(a, b, node.op)
        if isinstance(node, n.Between):  # (x >= lo) AND (x <= hi); NOT: (x < lo) OR (x > hi)
            x, lo, hi = (self.value(c) for c in (node.operand, node.low, node.high))
            first, second = (self._ordered(x, lo, "<"), self._ordered(x, hi, ">")) if node.negated else \
                (self._ordered(x, lo, ">="), self._ordered(x, hi, "<="))
            return self._logic2(first, second, node.negated)
        if isinstance(node, n.IsNull):  # createIsNull: EqualsExpression against the NULL constant
            v = self.value(node.operand)
            null, threw = v.guard(J.NULL), v.guard(J.THROW)
            other = or_all([g for _, g, _ in v.others(J.NULL, J.THROW)])
            return (other, null, threw) if node.negated else (null, other, threw)
        if isinstance(node, n.InList):  # createInExpression, 60-120: a non-String is NULL
            v = self.value(node.operand)
            if J.STR not in v.cases:
                return FALSE_F, FALSE_F, v.guard(J.THROW)
            g, s = v.cases[J.STR]
            hit = or_all([s == self._item(i) for i in node.items])
            t, f = and_all(g, hit), and_all(g, _not(hit))
            return (f, t, v.guard(J.THROW)) if node.negated else (t, f, v.guard(J.THROW))
        if isinstance(node, n.Like):  # LikeExpression.evaluate(), ComparisonExpression 129-145: a non-String is FALSE
            return self._like(node)
        raise smt.Unsupported(f"not a broker condition: {type(node).__name__}")

    @staticmethod
    def _logic2(first: Cond, second: Cond, stop_at_true: bool) -> Cond:
        """LogicExpression.evaluate() of two conditions."""
        (t1, f1, x1), (t2, f2, x2) = first, second
        stop1, stop2 = (t1, t2) if stop_at_true else (f1, f2)
        on = and_all(_not(stop1), _not(x1))
        stopped, threw = or_all([stop1, and_all(on, stop2)]), or_all([x1, and_all(on, x2)])
        last = and_all(f1, f2) if stop_at_true else and_all(t1, t2)
        return (stopped, last, threw) if stop_at_true else (last, stopped, threw)

    def _item(self, item: n.Node) -> Any:
        if isinstance(item, n.Literal) and item.value[0] is STRING:
            return string_val(item.value[1])
        raise smt.Unsupported("an IN list item that is not a string literal")

    def _like(self, node: n.Like) -> Cond:
        v = self.value(node.operand)
        rx = like_regex(node)
        other = or_all([g for _, g, _ in v.others(J.NULL, J.THROW, J.STR)])
        t, f = FALSE_F, other
        if J.STR in v.cases:
            g, s = v.cases[J.STR]
            t, f = and_all(g, z3.InRe(s, rx)), or_all([and_all(g, z3.Not(z3.InRe(s, rx))), other])
        return (f, t, v.guard(J.THROW)) if node.negated else (t, f, v.guard(J.THROW))

    # ----- comparisons -------------------------------------------------------------------------

    def _equals(self, a: Val, b: Val) -> Cond:
        """EqualsExpression.evaluate() (ComparisonExpression.java 225-243): both operands evaluated,
        null = null TRUE, NULL only for a null on the left; unlike classes through compare()."""
        trues: list[z3.BoolRef] = []
        falses: list[z3.BoolRef] = []
        threw = [a.guard(J.THROW), and_all(_not(a.guard(J.THROW)), b.guard(J.THROW))]
        for ka, ga, va in a.others(J.THROW):
            for kb, gb, vb in b.others(J.THROW):
                if a is b and ka is not kb:
                    continue  # one name on both sides: one class at a time
                g = and_all(ga, gb)
                if ka is J.NULL or kb is J.NULL:
                    if ka is kb:
                        trues.append(g)
                    elif kb is J.NULL:
                        falses.append(g)
                    continue
                self._sorted(g, self._compare(ka, va, kb, vb, "="), trues, falses, threw)
        return or_all(trues), or_all(falses), or_all(threw)

    def _ordered(self, a: Val, b: Val, op: str) -> Cond:
        """ComparisonExpression.evaluate() (385-395): NULL on the left ends it before the right."""
        trues: list[z3.BoolRef] = []
        falses: list[z3.BoolRef] = []
        threw = [a.guard(J.THROW)]
        for ka, ga, va in a.others(J.THROW, J.NULL):
            threw.append(and_all(ga, b.guard(J.THROW)))
            for kb, gb, vb in b.others(J.THROW, J.NULL):
                if a is not b or ka is kb:  # one name on both sides: one class at a time
                    self._sorted(and_all(ga, gb), self._compare(ka, va, kb, vb, op), trues, falses, threw)
        return or_all(trues), or_all(falses), or_all(threw)

    @staticmethod
    def _sorted(g: z3.BoolRef, outcome: Any, trues: list[z3.BoolRef], falses: list[z3.BoolRef], threw: list[z3.BoolRef]) -> None:
        if outcome is None:
            falses.append(g)
        elif outcome is J.THROW:
            threw.append(g)
        else:
            trues.append(and_all(g, outcome))
            falses.append(and_all(g, _not(outcome)))

    def _compare(self, ka: J, va: Any, kb: J, vb: Any, op: str) -> Any:
        """compare() (397-515) of two non-null values: a formula for asBoolean(compareTo), None for
        FALSE (unlike classes), J.THROW for ActiveMQ's Double.compareTo(Float)."""
        if ka is not kb:
            if ka not in NUMBERS or kb not in NUMBERS:
                return None  # Boolean, String, BigDecimal against another class: FALSE (line 507-508)
            if ka is J.DOUBLE and kb is J.FLOAT and self.cast_throws:
                return J.THROW  # AMQ line 483: rv = (float) ...; Double.compareTo(Float): ClassCastException
            if NUMBERS.index(ka) < NUMBERS.index(kb):
                va, ka = _convert(ka, va, kb), kb
            elif ka in (J.LONG, J.FLOAT, J.DOUBLE) and kb in (J.INT, J.LONG, J.FLOAT):
                vb = _convert(kb, vb, ka)  # Long vs Integer (454); Float vs Integer/Long (466-469); Double (478-483)
            else:
                return None  # a narrower class on the right: Short vs Byte, Integer vs Short, ... FALSE
        eq, lt = self._order(ka, va, vb)
        if op == "=":
            return eq(va, vb)
        if op == "<":
            return lt(va, vb)
        if op == ">":
            return lt(vb, va)
        return z3.Or(eq(va, vb), lt(va, vb)) if op == "<=" else z3.Or(eq(va, vb), lt(vb, va))

    def _order(self, kind: J, a: Any, b: Any) -> tuple[Any, Any]:
        """(equals, less than) of compareTo() for one class."""
        if kind in (J.FLOAT, J.DOUBLE):
            return _fp_eq, _fp_lt
        if kind in INTEGRAL or kind is J.BIG:
            return (lambda x, y: x == y), (lambda x, y: x < y)
        if kind is J.BOOL:
            return (lambda x, y: x == y), (lambda x, y: z3.And(z3.Not(x), y))
        return (lambda x, y: x == y), self._string_lt

    def _string_lt(self, a: Any, b: Any) -> z3.BoolRef:
        """String.compareTo() < 0, which compares UTF-16 units: at the first index where the two
        differ (a fresh constant, defined by a side constraint that every message satisfies with
        exactly one value), a shorter string or the lower unit sorts first."""
        i, la, lb = self.fresh(z3.IntSort(), "first_difference"), z3.Length(a), z3.Length(b)
        self.sides.append(z3.And(i >= 0, i <= la, i <= lb, z3.SubString(a, 0, i) == z3.SubString(b, 0, i),
                                 z3.Or(i == la, i == lb, z3.SubString(a, i, 1) != z3.SubString(b, i, 1))))
        ca, cb = (_utf16_key(z3.StrToCode(z3.SubString(s, i, 1))) for s in (a, b))
        return z3.Or(z3.And(i == la, i < lb), z3.And(i < la, i < lb, ca < cb))

    def _fmod(self, ka: J, va: Any, kb: J, vb: Any) -> Any:
        """Java's double ``%`` (C's fmod) of a long or a floating value: z3's IEEE remainder costs
        minutes, so a fresh double stands in, held to what fmod gives: NaN for a NaN or infinite
        dividend or a NaN or zero divisor, the dividend itself for an infinite divisor or a zero
        dividend, else a number below |y|, zero or of x's sign (an integral operand's tests on its bits)."""
        self.approximate = True
        r = self.fresh(F64S, "fmod")
        x_int, y_int = ka in INTEGRAL or ka is J.BIG, kb in INTEGRAL or kb is J.BIG
        x, y = _double(ka, va), _double(kb, vb)
        x_zero = (va == 0) if ka in INTEGRAL else z3.fpIsZero(x)
        x_neg = (va < 0) if ka in INTEGRAL else z3.fpIsNegative(x)
        nan = or_all([] if x_int else [z3.fpIsNaN(x), z3.fpIsInf(x)])
        nan = or_all([nan, (vb == 0) if kb in INTEGRAL else z3.fpIsZero(y), *([] if y_int else [z3.fpIsNaN(y)])])
        bounded = z3.And(z3.Not(z3.fpIsNaN(r)), z3.fpLT(z3.fpAbs(r), z3.fpAbs(y)), z3.Or(z3.fpIsZero(r), z3.fpIsNegative(r) == x_neg))
        if x_int and y_int:  # the remainder of two integral values is integral
            bounded = z3.And(bounded, z3.fpRoundToIntegral(z3.RTZ(), r) == r)
        zero = z3.If(x_neg, z3.fpMinusZero(F64S), z3.fpPlusZero(F64S))  # one of the values r stands for, where r is none
        rest = z3.If(bounded, r, zero)
        if not x_int:  # |x| < |y|: x itself (for a long x the conversion would cost more than the answer)
            rest = z3.If(z3.fpLT(z3.fpAbs(x), z3.fpAbs(y)), x, rest)
        if not y_int:
            rest = z3.If(z3.fpIsInf(y), x, rest)
        return z3.If(nan, z3.fpNaN(F64S), z3.If(x_zero, z3.fpPlusZero(F64S) if x_int else x, rest))

    # ----- values -------------------------------------------------------------------------------

    def value(self, node: n.Node) -> Val:
        if isinstance(node, n.Literal):
            return _literal(node)
        if isinstance(node, n.Identifier):
            found = self.names.get(node.name)
            if found is None:
                found = self.names[node.name] = self._property(node.name)
            return found
        if isinstance(node, n.Unary):
            return _negate(self.value(node.operand))
        if isinstance(node, n.Arithmetic):
            return self._arithmetic(node.op, self.value(node.left), self.value(node.right))
        t, f, x = self.cond(node)  # a condition as a value: Boolean, null, or its exception
        out = Val()
        out.add(x, J.THROW)
        out.add(or_all([t, f]), J.BOOL, t)
        out.add(and_all(_not(t), _not(f), _not(x)), J.NULL)
        return out

    def _property(self, name: str) -> Val:
        """broker_evaluator._Compiler._property: what the broker reads for a name."""
        d = self.d
        if name in d.null_names or (name in BROKER_HEADERS and name not in d.extra_headers):
            return _const(J.NULL)  # the engine finds no such property
        if name in BROKER_HEADERS or (d.field_backed_jmsx and name in _FIELD_BACKED):
            raise smt.Unsupported(f"{name} under {d.name} is read from the message's fields, which the solver does not model")
        s = self.msg.slot(name)
        fixed = smt.FIXED_TYPES.get(name)
        out = Val()
        default = d.header_defaults.get(name, _FIELD_DEFAULTS.get(name) if d.field_backed_jmsx else None)
        if default is None:
            out.add(s.is_type(None), J.NULL)
        else:  # ActiveMQ's PropertyExpression reads a field's default where the message has none
            t, v = default
            out.add(s.is_type(None), _OF_TYPE[t], _literal_term(_OF_TYPE[t], v))
        for t, kind in _OF_TYPE.items():
            if fixed is not None and t is not fixed:
                continue
            term = s.b if kind is J.BOOL else s.i if kind is J.LONG else z3.Extract(31, 0, s.i) if kind in INTEGRAL else \
                s.f if kind is J.FLOAT else s.d if kind is J.DOUBLE else s.s
            if kind is J.STR and name == "JMSDeliveryMode" and d.rewrite_delivery_mode_literals:
                for old, new in _DURABLE.items():  # Artemis reads AMQDurable: DURABLE / NON_DURABLE
                    term = z3.If(s.s == z3.StringVal(old), z3.StringVal(new), term)
            out.add(s.is_type(t), kind, term)
        return out

    def _arithmetic(self, op: str, a: Val, b: Val) -> Val:
        out = Val()
        out.add(a.guard(J.THROW), J.THROW)
        out.add(a.guard(J.NULL), J.NULL)  # the right operand is not evaluated (ArithmeticExpression 185-195)
        for ka, ga, va in a.others(J.THROW, J.NULL):
            out.add(and_all(ga, b.guard(J.THROW)), J.THROW)
            out.add(and_all(ga, b.guard(J.NULL)), J.NULL)
            for kb, gb, vb in b.others(J.THROW, J.NULL):
                if a is b and ka is not kb:
                    continue  # one name on both sides: one class at a time
                g = and_all(ga, gb)
                if op == "+" and ka is J.STR:  # createPlus 43-46: text + rvalue
                    out.add(g, J.STR, z3.Concat(va, self._text(kb, vb)))
                elif ka not in (*NUMBERS, J.BIG) or kb not in (*NUMBERS, J.BIG):
                    out.add(g, J.THROW)  # asNumber() (177-183), or no numeric left operand (50, 65, ...)
                elif op == "%" and ka in (J.BYTE, J.SHORT, J.INT) and kb in (J.BYTE, J.SHORT, J.INT):
                    out.add(g, J.DOUBLE, _int_fmod(va, vb))  # mod(): in double (159-161), exact on ints
                elif op == "%":
                    out.add(g, J.DOUBLE, self._fmod(ka, va, kb, vb))
                elif op == "/":  # divide(): in double (155-157)
                    out.add(g, J.DOUBLE, z3.fpDiv(RNE, _double(ka, va), _double(kb, vb)))
                elif J.FLOAT in (ka, kb) or J.DOUBLE in (ka, kb):
                    x, y = _double(ka, va), _double(kb, vb)
                    out.add(g, J.DOUBLE, {"+": z3.fpAdd, "-": z3.fpSub, "*": z3.fpMul}[op](RNE, x, y))
                else:
                    kind = J.LONG if J.LONG in (ka, kb) else J.INT
                    x, y = _integral(ka, va, kind), _integral(kb, vb, kind)
                    out.add(g, kind, x + y if op == "+" else x - y if op == "-" else x * y)
        return out

    def _text(self, kind: J, v: Any) -> Any:
        """String.valueOf(v) of a non-null value, for ``+``."""
        if kind is J.STR:
            return v
        if kind is J.BOOL:
            return z3.If(v, z3.StringVal("true"), z3.StringVal("false"))
        if kind is J.BIG:
            return z3.StringVal(str(_big(v)))
        if kind in INTEGRAL:
            i = z3.BV2Int(v, is_signed=True)
            return z3.If(i < 0, z3.Concat(z3.StringVal("-"), z3.IntToStr(-i)), z3.IntToStr(i))
        self.approximate = True  # Float/Double.toString: a fresh String stands in
        return self.fresh(z3.StringSort(), "float_text")


def _big(v: Any) -> int:
    if not z3.is_int_value(v):
        raise smt.Unsupported("a BigDecimal that is not a constant")
    return int(v.as_long())


def _double(kind: J, v: Any) -> Any:
    """doubleValue()."""
    if kind is J.BIG:
        x = _big(v)
        try:
            return z3.FPVal(float(x), F64S)
        except OverflowError:  # beyond double range: an infinity, as BigDecimal.doubleValue() gives
            return z3.fpPlusInfinity(F64S) if x > 0 else z3.fpMinusInfinity(F64S)
    return _convert(kind, v, J.DOUBLE)


def _integral(kind: J, v: Any, to: J) -> Any:
    """intValue() / longValue(): a BigDecimal keeps its low bits."""
    if kind is J.BIG:
        x = _big(v)
        return z3.BitVecVal(wrap64(x) if to is J.LONG else wrap32(x), _width(to))
    return _convert(kind, v, to)


def _int_fmod(x: Any, y: Any) -> Any:
    """Java's double ``%`` of two integers exact as doubles: their truncated remainder, -0.0 for a
    zero one of a negative dividend, NaN for a zero divisor."""
    r = z3.SRem(x, y)
    zero = z3.If(x < 0, z3.fpMinusZero(F64S), z3.fpPlusZero(F64S))
    return z3.If(y == 0, z3.fpNaN(F64S), z3.If(r == 0, zero, z3.fpSignedToFP(RNE, r, F64S)))


def _negate(a: Val) -> Val:
    """createNegate and negate() (UnaryExpression.java 41-58, 168-196)."""
    out = Val()
    for k, g, v in a.others():
        if k in (J.NULL, J.THROW):
            out.add(g, k)
        elif k in (J.BOOL, J.STR):
            out.add(g, J.NULL)  # not a Number: null (line 51)
        elif k in (J.BYTE, J.SHORT):
            out.add(g, J.THROW)  # "Don't know how to negate"
        elif k in (J.INT, J.LONG):
            out.add(g, k, -v)
        elif k in (J.FLOAT, J.DOUBLE):
            out.add(g, k, z3.fpNeg(v))
        else:
            x = -_big(v)
            if x == LONG_MIN:
                out.add(g, J.LONG, z3.BitVecVal(x, 64))
            else:
                out.add(g, J.BIG, z3.IntVal(x))
    return out


def _literal_term(kind: J, v: Any) -> Any:
    if kind is J.BOOL:
        return z3.BoolVal(bool(v))
    if kind is J.STR:
        return string_val(v)
    if kind is J.FLOAT:
        return z3.FPVal(v, F32S)
    if kind is J.DOUBLE:
        return z3.FPVal(v, F64S)
    if kind is J.BIG:
        return z3.IntVal(v)
    return z3.BitVecVal(v, _width(kind))


def _literal(node: n.Literal) -> Val:
    """The literal as the broker's lexer typed it (broker_lexer.py); beyond the long range a BigDecimal."""
    t, v = node.value
    if t is BOOLEAN and v is None:
        return _const(J.NULL)
    kind = _OF_TYPE[t]
    if kind is J.LONG and not LONG_MIN <= v <= LONG_MAX:
        kind = J.BIG
    return _const(kind, _literal_term(kind, v))


def encode(ast: n.Node | None, dialect: Dialect, message: smt.Message | None = None) -> tuple[smt.Tri, bool, list[z3.BoolRef]]:
    """The selector's (is TRUE, is FALSE) under a broker dialect; whether a fresh constant stood in
    for some value (then a model is a witness only once the engine confirms it); and the side
    constraints every question with it must hold (they define its fresh constants)."""
    tag = hashlib.blake2b(f"{dialect.name} {ast!r}".encode(), digest_size=8).hexdigest()  # AST reprs leave spans out
    e = Encoding(message if message is not None else smt.Message(), dialect, tag)
    tri = e.selector(ast)
    return tri, e.approximate, e.sides


__all__ = ["Encoding", "J", "encode"]

"""Checked broker AST -> closures with the brokers' Java-object semantics (dialects whose
``evaluation`` is ``java``).

The brokers evaluate with the classes of their ``filter`` package (apache/activemq
``activemq-client/src/main/java/org/apache/activemq/filter/``, forked into apache/activemq-artemis
``artemis-selector/.../selector/filter/``), not with the standard's value model. This module
follows those classes: ``matches()`` at the top and in AND/OR (short-circuit on the first non-TRUE
or TRUE), ``evaluate()`` below NOT and inside comparisons, ComparisonExpression.compare()'s one-way
widening, ArithmeticExpression's int/long/double arithmetic with '/' and '%' in double, and a
RuntimeException (a String in arithmetic, negating a Byte) ending the evaluation: the broker does
not deliver the message. Values are the shared typed tuples; the engine's BigDecimal is ``_BIG``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from jmsctl.exceptions import NumberFormatException
from jmsctl.javatext import java_to_string
from jmsctl.selector import nodes as n
from jmsctl.selector.dialects import Dialect
from jmsctl.selector.dialects.broker_headers import BROKER_HEADERS
from jmsctl.valueof import value_of
from jmsctl.values import (
    BOOLEAN,
    BYTE,
    DOUBLE,
    FLOAT,
    INT,
    LONG,
    LONG_MAX,
    LONG_MIN,
    SHORT,
    STRING,
    Tri,
    int_to_f32,
    to_f32,
    wrap32,
    wrap64,
)

_BIG = "BigDecimal"  # a class of its own: integer literals beyond long range
Getter = Callable[[str], Any]
JVal = Callable[[Getter], Any]
JCond = Callable[[Getter], Tri]


class EngineThrew(Exception):
    """A RuntimeException inside the engine while evaluating: the message is not delivered."""


# ----- ComparisonExpression.compare() ---------------------------------------------------------

_NUMERIC_ORDER = {BYTE: 0, SHORT: 1, INT: 2, LONG: 3, FLOAT: 4, DOUBLE: 5}


def _convert(cls: Any, v: Any, to: Any) -> Any:
    """Number.xxxValue(): ``v`` of class ``cls`` as class ``to`` (a widening, or long -> float)."""
    if to is FLOAT:
        return int_to_f32(v) if cls in (BYTE, SHORT, INT, LONG) else v
    if to is DOUBLE:
        return float(v)
    return v


def _java_cmp(cls: Any, a: Any, b: Any) -> int:
    """compareTo() of two values of one class."""
    if cls is FLOAT or cls is DOUBLE:
        # Float/Double.compareTo: -0.0 < 0.0, NaN above everything and equal to itself
        ka = (1, 0.0) if math.isnan(a) else (0, a)
        kb = (1, 0.0) if math.isnan(b) else (0, b)
        if ka == kb:
            if a == 0.0 and b == 0.0:
                sa, sb = math.copysign(1, a), math.copysign(1, b)
                return (sa > sb) - (sa < sb)
            return 0
        return -1 if ka < kb else 1
    if cls is STRING and not (a.isascii() and b.isascii()):
        a, b = a.encode("utf-16-be", "surrogatepass"), b.encode("utf-16-be", "surrogatepass")  # compareTo: UTF-16 units
    return (a > b) - (a < b)


def compare(lv: Any, rv: Any, float_cast_throws: bool, convert: bool = False) -> int | None:
    """``compare()``'s conversions: the compareTo() result, or None where it answers FALSE.
    ``convert``: the dialect's ``convert_string_expressions`` (a String against a number or a boolean)."""
    lc, rc = lv[0], rv[0]
    a, b = lv[1], rv[1]
    if lc is not rc and convert and (lc is STRING or rc is STRING):
        return _converted(lv, rv)
    if lc is not rc:
        lo, ro = _NUMERIC_ORDER.get(lc), _NUMERIC_ORDER.get(rc)
        if lo is None or ro is None:
            return None  # Boolean, String or BigDecimal against another class: FALSE
        if lc is DOUBLE and rc is FLOAT and float_cast_throws:
            raise EngineThrew("Double.compareTo(Float)")  # ActiveMQ: rv = (float) ...; ClassCastException
        if lo < ro:
            a, lc = _convert(lc, a, rc), rc
        elif lc in (LONG, FLOAT, DOUBLE) and rc in (INT, LONG, FLOAT):
            b = _convert(rc, b, lc)  # Long vs Integer; Float vs Integer/Long; Double vs Integer/Long/Float
        else:
            return None  # a narrower class on the right: Short vs Byte, Integer vs Short, ... FALSE
    return _java_cmp(lc, a, b)


def equals(lv: Any, rv: Any, float_cast_throws: bool, convert: bool = False) -> Tri:
    """EqualsExpression.evaluate()."""
    if lv is None or rv is None:
        if lv is None and rv is None:
            return True
        return None if lv is None else False
    if lv[0] is rv[0]:
        return _java_cmp(lv[0], lv[1], rv[1]) == 0
    c = compare(lv, rv, float_cast_throws, convert)
    return c == 0


def _converted(lv: Any, rv: Any) -> int | None:
    """compare() with CONVERT_STRING_EXPRESSIONS, one side a String (apache/activemq
    activemq-client/src/main/java/org/apache/activemq/filter/ComparisonExpression.java compare(),
    lines 403-497 at activemq-5.17.2): the String is read with the other class's ``valueOf``
    (NumberFormatException: FALSE) and the two compared as that class. A Boolean on the left casts
    the Boolean itself to String (``Boolean.valueOf((String) lv)``): ClassCastException, which the
    engine does not catch. A BigDecimal literal against a String stays FALSE."""
    lc, rc = lv[0], rv[0]
    if lc is BOOLEAN:
        raise EngineThrew("ClassCastException: Boolean cannot be cast to String")
    if lc is STRING:
        other, text, keep, left = rc, lv[1], rv[1], True
    else:
        other, text, keep, left = lc, rv[1], lv[1], False
    if other is not BOOLEAN and other not in _NUMERIC_ORDER:
        return None
    try:
        parsed = value_of(text, other)
    except NumberFormatException:
        return None
    a, b = (parsed, keep) if left else (keep, parsed)
    return _java_cmp(other, a, b)


# ----- ArithmeticExpression and UnaryExpression.createNegate ----------------------------------


def _number(v: Any) -> Any:
    if v[0] in _NUMERIC_ORDER or v[0] is _BIG:
        return v
    # The engine's words without the value: the message is never shown (compile_java's verdict
    # catches it), and the repr of a long string cost more than the whole evaluation.
    raise EngineThrew("Cannot convert value into a number")


def _java_int(v: Any) -> int:
    """intValue() of a Byte, Short, Integer or BigDecimal (its low 32 bits)."""
    return wrap32(v[1])


def _long_value(v: Any) -> int:
    return wrap64(v[1])


def _double_value(v: Any) -> float:
    try:
        return float(v[1])
    except OverflowError:  # BigDecimal.doubleValue() of a literal beyond double range: an infinity
        return math.inf if v[1] > 0 else -math.inf


def _java_string(v: Any) -> str:
    """String.valueOf of a non-null value (a BigDecimal literal prints as its integer, as str does)."""
    return java_to_string(v)


def arithmetic(op: str, lv: Any, rv: Any) -> Any:
    if op == "+" and lv[0] is STRING:
        return (STRING, lv[1] + ("null" if rv is None else _java_string(rv)))
    a, b = _number(lv), _number(rv)
    if op == "/" or op == "%":
        x, y = _double_value(a), _double_value(b)
        if op == "/":
            if y == 0.0:
                return (DOUBLE, math.nan if x == 0.0 or math.isnan(x) else math.copysign(math.inf, x) * math.copysign(1, y))
            return (DOUBLE, x / y)
        if y == 0.0 or math.isinf(x) or math.isnan(x) or math.isnan(y):
            return (DOUBLE, math.nan)
        return (DOUBLE, math.fmod(x, y))
    if a[0] in (FLOAT, DOUBLE) or b[0] in (FLOAT, DOUBLE):
        x, y = _double_value(a), _double_value(b)
        try:
            r = x + y if op == "+" else x - y if op == "-" else x * y
        except OverflowError:  # pragma: no cover - float arithmetic saturates in CPython
            r = math.inf
        return (DOUBLE, r)
    if a[0] is LONG or b[0] is LONG:
        x, y = _long_value(a), _long_value(b)
        return (LONG, wrap64(x + y if op == "+" else x - y if op == "-" else x * y))
    x, y = _java_int(a), _java_int(b)
    return (INT, wrap32(x + y if op == "+" else x - y if op == "-" else x * y))


def negate(v: Any) -> Any:
    if v is None:
        return None
    cls, x = v
    if cls is INT:
        return (INT, wrap32(-x))
    if cls is LONG:
        return (LONG, wrap64(-x))
    if cls is FLOAT or cls is DOUBLE:
        return (cls, -x)
    if cls is _BIG:
        return (LONG, -x) if -x == LONG_MIN else (_BIG, -x)
    if cls in (BYTE, SHORT):
        raise EngineThrew("Don't know how to negate")
    return None  # a String or Boolean negates to NULL


# ----- LIKE (ComparisonExpression.LikeExpression) ---------------------------------------------


def like_regex(pattern: str, escape: str | None) -> re.Pattern[str]:
    """The engine's regex: the escape character escapes only '_', '%' and itself; elsewhere it is literal."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if escape is not None and c == escape and i + 1 < len(pattern) and pattern[i + 1] in ("_", "%", escape):
            i += 1
            # "\\x" + Integer.toHexString(char): a Java \x takes two hex digits, so an escaped
            # escape character above U+00FF is that byte followed by the other digits as text
            # (one below U+0010 makes the pattern invalid: the parser rejects it, see broker_parser.py).
            digits = format(ord(pattern[i]), "x")
            out.append(re.escape(chr(int(digits[:2], 16)) + digits[2:]))
        elif c == "%":
            out.append(".*?")
        elif c == "_":
            out.append(".")
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out), re.DOTALL)


# ----- the compiler -------------------------------------------------------------------------


def compile_java(node: n.Node | None, dialect: Dialect) -> Callable[[Getter], Tri]:
    """The broker's verdict: TRUE when ``matches()`` is true, FALSE otherwise (also when it threw)."""
    if node is None:
        return lambda get: True
    matches = _Compiler(dialect).matches(node)

    def verdict(get: Getter) -> Tri:
        try:
            return matches(get)
        except EngineThrew:
            return False

    return verdict


class _Compiler:
    def __init__(self, dialect: Dialect) -> None:
        self.d = dialect
        # compare()'s two rule switches, passed along as one value: (a Double vs a Float throws, Strings converted)
        self.throws = (dialect.double_vs_float == "float-cast-throws", dialect.convert_string_expressions)

    # matches(): TRUE-only, short-circuit on the first non-TRUE (AND) or TRUE (OR)
    def matches(self, node: n.Node) -> Callable[[Getter], bool]:
        if isinstance(node, n.And):
            fs = tuple(self.matches(c) for c in n.chain(node))
            return lambda get: all(f(get) for f in fs)
        if isinstance(node, n.Or):
            fs = tuple(self.matches(c) for c in n.chain(node))
            return lambda get: any(f(get) for f in fs)
        if isinstance(node, n.Between):  # an AND (OR) of two comparisons: matches() short-circuits
            x, lo, hi, throws = self.value(node.operand), self.value(node.low), self.value(node.high), self.throws
            if node.negated:
                return lambda get: _ordered(x, lo, _LT, throws, get) is True or _ordered(x, hi, _GT, throws, get) is True
            return lambda get: _ordered(x, lo, _GE, throws, get) is True and _ordered(x, hi, _LE, throws, get) is True
        f = self.cond(node)
        return lambda get: f(get) is True

    # evaluate() of a BooleanExpression
    def cond(self, node: n.Node) -> JCond:
        if isinstance(node, (n.And, n.Or)):
            return self._logic(node)
        if isinstance(node, n.Not):
            f = self.cond(node.operand)

            def not_(get: Getter) -> Tri:
                v = f(get)
                return None if v is None else not v
            return not_
        if isinstance(node, n.Identifier):  # UnaryExpression.createBooleanCast
            get_value = self.value(node)

            def cast(get: Getter) -> Tri:
                v = get_value(get)
                if v is None:
                    return None
                return bool(v[1]) if v[0] is BOOLEAN else False
            return cast
        if isinstance(node, n.Literal):
            constant = node.value[1]
            return lambda get: constant
        if isinstance(node, n.Comparison):
            return self._comparison(node)
        if isinstance(node, n.Between):
            return self._between(node)
        if isinstance(node, n.IsNull):
            f = self.value(node.operand)
            if node.negated:
                return lambda get: f(get) is not None
            return lambda get: f(get) is None
        if isinstance(node, n.InList):
            return self._in(node)
        if isinstance(node, n.Like):
            return self._like(node)
        raise TypeError(f"not a broker condition: {node!r}")  # the parser's as_boolean() rejects the rest

    def _logic(self, node: n.And | n.Or) -> JCond:
        fs = tuple(self.cond(c) for c in n.chain(node))
        stop = isinstance(node, n.Or)  # OR stops at TRUE, AND at FALSE

        def logic(get: Getter) -> Tri:
            nulls = False
            for f in fs:
                v = f(get)
                if v is None:
                    nulls = True
                elif v is stop:
                    return stop
            return None if nulls else not stop
        return logic

    def _comparison(self, node: n.Comparison) -> JCond:
        left, right, op, throws = self.value(node.left), self.value(node.right), node.op, self.throws
        if op == "=":
            return lambda get: equals(left(get), right(get), *throws)
        if op == "<>":
            def not_equal(get: Getter) -> Tri:
                v = equals(left(get), right(get), *throws)
                return None if v is None else not v
            return not_equal
        test = {"<": _LT, "<=": _LE, ">": _GT, ">=": _GE}[op]
        return lambda get: _ordered(left, right, test, throws, get)

    def _between(self, node: n.Between) -> JCond:
        # createBetween: (x >= lo) AND (x <= hi); createNotBetween: (x < lo) OR (x > hi)
        x, lo, hi, throws = self.value(node.operand), self.value(node.low), self.value(node.high), self.throws
        first, second, stop = (_LT, _GT, True) if node.negated else (_GE, _LE, False)

        def between(get: Getter) -> Tri:
            a = _ordered(x, lo, first, throws, get)
            if a is stop:
                return stop
            b = _ordered(x, hi, second, throws, get)
            if b is stop:
                return stop
            return None if a is None or b is None else not stop
        return between

    def _in(self, node: n.InList) -> JCond:
        f = self.value(node.operand)
        items = frozenset(i.value[1] for i in node.items if isinstance(i, n.Literal))
        negated = node.negated

        def in_(get: Getter) -> Tri:
            v = f(get)
            if v is None or v[0] is not STRING:
                return None
            return (v[1] in items) is not negated
        return in_

    def _like(self, node: n.Like) -> JCond:
        f = self.value(node.operand)
        assert isinstance(node.pattern, n.Literal)
        escape = node.escape.value[1] if isinstance(node.escape, n.Literal) else None
        match = like_regex(node.pattern.value[1], escape).fullmatch
        negated = node.negated

        def like(get: Getter) -> Tri:
            v = f(get)
            if v is None:
                return None
            result = v[0] is STRING and match(v[1]) is not None
            return not result if negated else result
        return like

    # values: what evaluate() returns inside a comparison or arithmetic
    def value(self, node: n.Node) -> JVal:
        if isinstance(node, n.Literal):
            cls, v = node.value
            if cls is BOOLEAN and v is None:
                return lambda get: None
            if cls is LONG and not LONG_MIN <= v <= LONG_MAX:
                big = (_BIG, v)
                return lambda get: big
            const = node.value
            return lambda get: const
        if isinstance(node, n.Identifier):
            return self._property(node.name)
        if isinstance(node, n.Unary):
            f = self.value(node.operand)
            return lambda get: negate(f(get))
        if isinstance(node, n.Arithmetic):
            left, right, op = self.value(node.left), self.value(node.right), node.op

            def arith(get: Getter) -> Any:
                a = left(get)
                if a is None:
                    return None
                b = right(get)
                if b is None:
                    return None
                return arithmetic(op, a, b)
            return arith
        f = self.cond(node)

        def boolean(get: Getter) -> Any:
            v = f(get)
            return None if v is None else (BOOLEAN, v)
        return boolean

    def _property(self, name: str) -> JVal:
        if name in self.d.null_names or (name in BROKER_HEADERS and name not in self.d.extra_headers):
            return lambda get: None  # the engine finds no such property
        if self.d.field_backed_jmsx and name in _FIELDS:
            return _FIELDS[name]
        default = self.d.header_defaults.get(name)
        if default is not None:
            return lambda get: get(name) or default
        if name == "JMSDeliveryMode" and self.d.rewrite_delivery_mode_literals:
            # SelectorTranslator: JMSDeliveryMode -> AMQDurable, which FilterImpl reads as DURABLE/NON_DURABLE
            def durable(get: Getter) -> Any:
                v = get(name)
                return (STRING, _DURABLE.get(v[1], v[1])) if v is not None and v[0] is STRING else v
            return durable
        return lambda get: get(name)


def _java_integer(v: Any) -> int | None:
    """TypeConversionSupport.convert(value, Integer.class): Byte, Short, Integer, or a String that
    Integer.valueOf() reads; None where it refuses (the JMS setter then throws and sets nothing)."""
    if v is None:
        return None
    if v[0] in (BYTE, SHORT, INT):
        return int(v[1])
    if v[0] is STRING and re.fullmatch(r"[+-]?[0-9]+", v[1]) and -(1 << 31) <= int(v[1]) < (1 << 31):
        return int(v[1])
    return None


def _group_seq(get: Getter) -> Any:
    seq = _java_integer(get("JMSXGroupSeq"))
    return (INT, 0 if seq is None else seq)


def _delivery_count(get: Getter) -> Any:
    count = _java_integer(get("JMSXDeliveryCount"))
    if count is None:
        redelivered = get("JMSRedelivered")
        count = 2 if redelivered is not None and redelivered[1] is True else 1
    return (INT, count)


def _redelivered(get: Getter) -> Any:
    # One field, redeliveryCounter: a JMSXDeliveryCount property (set after the headers) decides
    count = _java_integer(get("JMSXDeliveryCount"))
    if count is not None:
        return (BOOLEAN, wrap32(count - 1) > 0)  # setRedeliveryCounter(rc - 1); isRedelivered(): counter > 0
    header = get("JMSRedelivered")
    return (BOOLEAN, header is not None and header[1] is True)


def _group_id(get: Getter) -> Any:
    v = get("JMSXGroupID")
    return v if v is None or v[0] is STRING else (STRING, _java_string(v))


_JAVA_LONG = re.compile(r"[+-]?[0-9]+")


def _java_long(text: str) -> bool:
    return _JAVA_LONG.fullmatch(text) is not None and LONG_MIN <= int(text) <= LONG_MAX


def _message_id_text(value: str) -> str:
    """MessageId.toString() of setJMSMessageID(value): the text itself when it parses as an ActiveMQ
    id (its last one to three ':'-separated parts Long.parseLong-able, the last one present), else
    the 'text view' with 'ID:' put in front unless it is there."""
    key = value
    for level in range(3):  # sequence, producer value, session id
        p = key.rfind(":")
        if p < 0:
            if level == 0:
                break  # no sequence: NumberFormatException
            return value
        if not _java_long(key[p + 1 :]):
            break
        key = key[:p]
    else:
        return value
    return value if value.startswith("ID:") else "ID:" + value


def _message_id(get: Getter) -> Any:
    v = get("JMSMessageID")
    return v if v is None else (STRING, _message_id_text(v[1]))


_DESTINATION_PREFIXES = ("queue://", "topic://", "temp-queue://", "temp-topic://")


def _destination(name: str) -> JVal:
    def destination(get: Getter) -> Any:
        # ActiveMQDestination.createDestination(text, QUEUE_TYPE).toString(): a bare name is a queue
        v = get(name)
        if v is None or v[0] is not STRING:  # not a header (always a String): a property, which PropertyExpression never reads for this name
            return None
        if v[1].startswith(_DESTINATION_PREFIXES):
            return v
        return (STRING, "queue://" + v[1])
    return destination


# ActiveMQ's JMS setters write these names to message fields (ActiveMQMessage.JMS_PROPERTY_SETERS)
# and PropertyExpression reads the fields back: redeliveryCounter, groupSequence, groupID.
_FIELDS: dict[str, JVal] = {
    "JMSXGroupSeq": _group_seq,
    "JMSXDeliveryCount": _delivery_count,
    "JMSRedelivered": _redelivered,
    "JMSXGroupID": _group_id,
    "JMSMessageID": _message_id,
    "JMSDestination": _destination("JMSDestination"),
    "JMSReplyTo": _destination("JMSReplyTo"),
}

# The other names a field-backed name reads (its field is written by either).
_ALSO_READS = {"JMSRedelivered": ("JMSXDeliveryCount",), "JMSXDeliveryCount": ("JMSRedelivered",)}


def names_read(identifiers: tuple[str, ...], dialect: Dialect) -> tuple[str, ...]:
    """Every message value the evaluator may look up for these identifiers (a message view needs them all)."""
    if not dialect.field_backed_jmsx:
        return identifiers
    extra = [also for name in identifiers for also in _ALSO_READS.get(name, ())]
    return tuple(dict.fromkeys((*identifiers, *extra)))


_DURABLE = {"PERSISTENT": "DURABLE", "NON_PERSISTENT": "NON_DURABLE"}


def _LT(c: int) -> bool:
    return c < 0


def _LE(c: int) -> bool:
    return c <= 0


def _GT(c: int) -> bool:
    return c > 0


def _GE(c: int) -> bool:
    return c >= 0


def _ordered(left: JVal, right: JVal, test: Callable[[int], bool], throws: tuple[bool, bool], get: Getter) -> Tri:
    """ComparisonExpression.evaluate(): NULL on the left ends it before the right is evaluated."""
    a = left(get)
    if a is None:
        return None
    b = right(get)
    if b is None:
        return None
    c = compare(a, b, *throws)
    return False if c is None else test(c)


__all__ = ["EngineThrew", "compile_java", "to_f32"]

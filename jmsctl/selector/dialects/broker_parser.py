"""Selector text -> AST by the brokers' JavaCC grammar (dialects whose ``grammar`` is ``javacc``).

ActiveMQ Classic and Artemis parse with the same generated parser (apache/activemq
``activemq-client/src/main/grammar/SelectorParser.jj``, apache/activemq-artemis
``artemis-selector/src/main/javacc/StrictParser.jj``). This module follows that grammar, including
what a JavaCC parser does and does not read: tokens are lexed (broker_lexer.py) only when the parser looks at them,
``JmsSelector()`` has no ``<EOF>`` (text after a complete expression is never parsed), and the
syntactic lookahead ``LOOKAHEAD(("+"|"-") multExpr())`` is a *scan* whose loops stop quietly where
an iteration fails. The construction-time checks of the ``filter`` package (``asBooleanExpression``,
``checkLessThanOperand``, ``checkEqualOperand``, IN on a property only, a one-character ESCAPE) are
errors, as the brokers reject the selector.

It builds the shared AST with three broker readings: NULL is ``Literal((BOOLEAN, None))`` (the
engine's ``BooleanConstantExpression NULL``), a decimal literal beyond long range is
``Literal((LONG, v))`` with ``v`` out of range (the engine's BigDecimal), and a unary minus is
never folded into its literal (the engine negates at run time: ``-2147483648`` is a Long).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from jmsctl.diagnostics import Diagnostic, SelectorError, Span, error
from jmsctl.selector import nodes as n
from jmsctl.selector.dialects import Dialect
from jmsctl.selector.dialects.broker_lexer import ID, KEYWORDS, Tok, _Lexer
from jmsctl.selector.limits import MAX_LENGTH
from jmsctl.values import BOOLEAN, DOUBLE, INT, INT_MAX, INT_MIN, LONG, LONG_MAX, STRING, wrap32, wrap64

_LITERALS = {"STRING", "DEC", "HEX", "OCT", "FLOAT", "TRUE", "FALSE", "NULL"}
_LESS = {">", ">=", "<", "<="}

class _Rejected(Exception):
    """A construction-time RuntimeException or ParseException of the engine."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        self.diagnostic = diagnostic


def _span(node: n.Node) -> Span:
    return node.span


def _join(a: n.Node | Tok, b: n.Node | Tok) -> Span:
    start = a.start if isinstance(a, Tok) else a.span.start
    end = b.end if isinstance(b, Tok) else b.span.end
    return Span(start, end)


def is_null_literal(node: n.Node) -> bool:
    return isinstance(node, n.Literal) and node.value[0] is BOOLEAN and node.value[1] is None


def is_boolean_expression(node: n.Node) -> bool:
    """What the engine's classes implement BooleanExpression: predicates, logic, TRUE/FALSE/NULL."""
    if isinstance(node, n.Literal):
        return node.value[0] is BOOLEAN
    return isinstance(node, (n.Comparison, n.Between, n.InList, n.Like, n.IsNull, n.Not, n.And, n.Or))


def _memo(scan: Callable[[_Parser], bool]) -> Callable[[_Parser], bool]:
    """A scan from a given position always ends the same way (the lexing is fixed): remember it, so
    that the lookaheads of nested '+' and '(' rescan nothing (JavaCC rescans: quadratic)."""
    name = scan.__name__

    def remembered(self: _Parser) -> bool:
        key = (name, self.sp)
        end = self.memo.get(key)
        if end is None:
            ok = scan(self)
            self.memo[key] = self.sp if ok else -1
            return ok
        if end < 0:
            return False
        self.sp = end
        return True

    return remembered


class _Parser:
    def __init__(self, text: str, dialect: Dialect, hyphenated: bool = False) -> None:
        self.lex = _Lexer(text, dialect, hyphenated)
        self.pos = 0
        self.sp = 0  # the scan position of a syntactic lookahead
        self.memo: dict[tuple[str, int], int] = {}

    # ----- tokens --------------------------------------------------------------------------
    def tok(self, i: int = 0) -> Tok:
        return self.lex.get(self.pos + i)

    def kind(self, i: int = 0) -> str:
        return self.lex.get(self.pos + i).kind

    def take(self, kind: str) -> Tok:
        t = self.lex.get(self.pos)
        if t.kind != kind:
            raise SelectorError(_unexpected(t, "the end of the selector" if kind == "EOF" else kind))
        self.pos += 1
        return t

    # ----- productions (SelectorParser.jj) --------------------------------------------------
    def selector(self) -> n.Node:
        node = self.as_boolean(self.or_())
        self.take("EOF")  # JmsSelector(): orExpression() <EOF>
        return node

    def or_(self) -> n.Node:
        left = self.and_()
        while self.kind() == "OR":
            self.take("OR")
            right = self.and_()
            left = n.Or(self.as_boolean(left), self.as_boolean(right), _join(left, right))
        return left

    def and_(self) -> n.Node:
        left = self.equality()
        while self.kind() == "AND":
            self.take("AND")
            right = self.equality()
            left = n.And(self.as_boolean(left), self.as_boolean(right), _join(left, right))
        return left

    def equality(self) -> n.Node:
        left = self.comparison()
        while True:
            k = self.kind()
            if k in ("=", "<>"):
                op = self.take(k)
                right = self.comparison()
                self.check_equal(left, right)
                left = n.Comparison(k, left, right, _join(left, right), Span(op.start, op.end))
            elif k == "IS":
                negated = self.kind(1) != "NULL"  # LOOKAHEAD(2) <IS> <NULL>, else <IS> <NOT> <NULL>
                self.take("IS")
                if negated:
                    self.take("NOT")
                end = self.take("NULL")
                left = n.IsNull(negated, left, _join(left, end))
            else:
                return left

    def comparison(self) -> n.Node:
        left = self.add()
        while True:
            k = self.kind()
            if k in _LESS:
                op = self.take(k)
                right = self.add()
                self.check_less(left)
                self.check_less(right)
                left = n.Comparison(k, left, right, _join(left, right), Span(op.start, op.end))
                continue
            negated = k == "NOT"
            if negated:
                k = self.kind(1)  # LOOKAHEAD(2) <NOT> <LIKE> | <NOT> <BETWEEN> | <NOT> <IN>
                if k not in ("LIKE", "BETWEEN", "IN"):
                    raise SelectorError(_unexpected(self.tok(1), "LIKE, BETWEEN or IN"))
                self.take("NOT")
            if k == "LIKE":
                left = self.like(left, negated)
            elif k == "BETWEEN":
                self.take("BETWEEN")
                low = self.add()
                self.take("AND")
                high = self.add()
                for part in (left, low, left, high):
                    self.check_less(part)
                left = n.Between(negated, left, low, high, _join(left, high))
            elif k == "IN":
                left = self.in_(left, negated)
            else:
                return left

    def like(self, left: n.Node, negated: bool) -> n.Node:
        self.take("LIKE")
        pattern = self.string()
        escape = None
        if self.kind() == "ESCAPE":
            self.take("ESCAPE")
            escape = self.string()
            if len(escape.value[1]) != 1:
                raise self.rejected(escape, "the ESCAPE string literal is invalid: it can only be one character")
            esc = escape.value[1]
            if ord(esc) < 0x10 and esc + esc in pattern.value[1]:  # '\x' + one hex digit: PatternSyntaxException
                raise self.rejected(pattern, "the engine builds an invalid regular expression for this escaped escape character")
        return n.Like(negated, left, pattern, escape, _join(left, escape or pattern))

    def in_(self, left: n.Node, negated: bool) -> n.Node:
        self.take("IN")
        self.take("(")
        items = [self.string()]
        while self.kind() == ",":
            self.take(",")
            items.append(self.string())
        end = self.take(")")
        if not isinstance(left, n.Identifier):
            raise self.rejected(left, "expected a property for IN expression", hint="the broker allows IN only after a property name")
        return n.InList(negated, left, tuple(items), _join(left, end))

    def add(self) -> n.Node:
        left = self.mult()
        while self.kind() in ("+", "-") and self.scan_from(self.pos + 1, self.scan_mult):
            op = self.take(self.kind())
            right = self.mult()
            left = n.Arithmetic(op.kind, left, right, _join(left, right), Span(op.start, op.end))
        return left

    def mult(self) -> n.Node:
        left = self.unary()
        while self.kind() in ("*", "/", "%"):
            op = self.take(self.kind())
            right = self.unary()
            left = n.Arithmetic(op.kind, left, right, _join(left, right), Span(op.start, op.end))
        return left

    def unary(self) -> n.Node:
        k = self.kind()
        if k == "+" and self.scan_from(self.pos + 1, self.scan_unary):
            self.take("+")
            return self.unary()  # the engine keeps no node for a unary plus
        if k == "-":
            op = self.take("-")
            operand = self.unary()
            return n.Unary("-", operand, _join(op, operand))
        if k == "NOT":
            op = self.take("NOT")
            operand = self.unary()
            return n.Not(self.as_boolean(operand), _join(op, operand))
        if k in ("XPATH", "XQUERY"):
            t = self.tok()
            raise SelectorError(error("E131", f"{k} selectors (on the message body) are not evaluated by jmsctl",
                                      Span(t.start, t.end), hint="the broker accepts them; jmsctl has no XML body model"))
        return self.primary()

    def primary(self) -> n.Node:
        t = self.tok()
        if t.kind in _LITERALS:
            return self.literal()
        if t.kind == "ID":
            if self.kind(1) == "(" and self.lex.dialect.function_calls:  # LOOKAHEAD(<ID> "(") functionCallExpr()
                raise SelectorError(error("E132", f"function calls ({t.text}(...)) are ActiveMQ extensions jmsctl does not evaluate",
                                          Span(t.start, self.tok(1).end), hint="INLIST, MAKELIST, REGEX, REPLACE and SPLIT are not portable"))
            self.pos += 1
            return n.Identifier(t.text, Span(t.start, t.end))
        if t.kind == "QUOTED_ID":  # Artemis: "name" with "" for a quote
            self.pos += 1
            return n.Identifier(t.text[1:-1].replace('""', '"'), Span(t.start, t.end))
        if t.kind == "(":
            self.take("(")
            inner = self.or_()
            self.take(")")
            return inner
        raise SelectorError(_unexpected(t, "an operand"))

    def string(self) -> n.Literal:
        t = self.take("STRING")
        return n.Literal((STRING, t.text[1:-1].replace("''", "'")), Span(t.start, t.end), "")

    def literal(self) -> n.Node:
        t = self.tok()
        if t.kind == "STRING":
            return self.string()
        self.pos += 1
        span = Span(t.start, t.end)
        if t.kind in ("TRUE", "FALSE", "NULL"):
            value = None if t.kind == "NULL" else t.kind == "TRUE"
            return n.Literal((BOOLEAN, value), span, t.text)
        if t.kind == "FLOAT":
            return n.Literal((DOUBLE, float(t.text)), span, t.text)
        if t.kind == "DEC":
            v = int(t.text.rstrip("lL"))  # ConstantExpression.createFromDecimal: Long, else BigDecimal
            if v > LONG_MAX and INT_MIN <= wrap64(v) <= INT_MAX:
                # then 'if (Integer.MIN_VALUE <= value.longValue() <= Integer.MAX_VALUE) value = value.intValue()':
                # a BigDecimal whose low 64 bits fit an int becomes the Integer of its low 32 bits
                return n.Literal((INT, wrap32(v)), span, t.text)
        else:
            v = int(t.text[2:], 16) if t.kind == "HEX" else int(t.text, 8)
            if v > LONG_MAX:  # Long.parseLong throws NumberFormatException
                raise self.rejected(n.Literal((LONG, 0), span), f"{t.text} is out of range for Long.parseLong",
                                    hint="the broker reads hex and octal literals as a signed long")
        return n.Literal((INT if v <= INT_MAX else LONG, v), span, t.text)

    # ----- the filter package's construction checks ----------------------------------------
    def as_boolean(self, node: n.Node) -> n.Node:
        if is_boolean_expression(node) or isinstance(node, n.Identifier):
            return node
        raise self.rejected(node, "expression will not result in a boolean value",
                            hint="the broker takes a property name, a comparison or TRUE/FALSE as a condition")

    def check_less(self, node: n.Node) -> None:
        """checkLessThanOperand: no String, boolean or NULL literal, no boolean expression."""
        if isinstance(node, n.Literal):
            if node.value[0] in (BOOLEAN, STRING):
                raise self.rejected(node, "value cannot be compared with <, <=, > or >= (or BETWEEN)")
        elif is_boolean_expression(node):
            raise self.rejected(node, "a condition cannot be compared with <, <=, > or >= (or BETWEEN)")

    def check_equal(self, left: n.Node, right: n.Node) -> None:
        """checkEqualOperand (no NULL literal) and checkEqualOperandCompatability."""
        for part in (left, right):
            if is_null_literal(part):
                raise self.rejected(part, "NULL cannot be compared", hint="write 'x IS NULL'")
        if isinstance(left, n.Literal) and isinstance(right, n.Literal) and left.value[0] is BOOLEAN and right.value[0] is not BOOLEAN:
            raise self.rejected(right, "a boolean literal cannot be compared with this literal")

    def rejected(self, node: n.Node, message: str, hint: str | None = None) -> _Rejected:
        return _Rejected(error("E130", f"the broker rejects this selector: {message}", _span(node), hint=hint))

    # ----- syntactic lookahead: JavaCC's scan, where a failed loop iteration just ends the loop
    def scan_from(self, start: int, scan: object) -> bool:
        self.sp = start
        return scan()  # type: ignore[operator, no-any-return]

    def st(self, kind: str) -> bool:
        if self.lex.get(self.sp).kind == kind:
            self.sp += 1
            return True
        return False

    def scan_loop(self, iteration: object) -> bool:
        while True:
            save = self.sp
            if not iteration():  # type: ignore[operator]
                self.sp = save
                return True

    def first(self, *alternatives: object) -> bool:
        save = self.sp
        for alt in alternatives:
            self.sp = save
            if alt():  # type: ignore[operator]
                return True
        self.sp = save
        return False

    @_memo
    def scan_or(self) -> bool:
        return self.scan_and() and self.scan_loop(lambda: self.st("OR") and self.scan_and())

    @_memo
    def scan_and(self) -> bool:
        return self.scan_equality() and self.scan_loop(lambda: self.st("AND") and self.scan_equality())

    @_memo
    def scan_equality(self) -> bool:
        return self.scan_comparison() and self.scan_loop(lambda: self.first(
            lambda: self.st("=") and self.scan_comparison(),
            lambda: self.st("<>") and self.scan_comparison(),
            lambda: self.st("IS") and self.st("NULL"),
            lambda: self.st("IS") and self.st("NOT") and self.st("NULL"),
        ))

    @_memo
    def scan_comparison(self) -> bool:
        def like() -> bool:
            return self.st("LIKE") and self.st("STRING") and (self.first(lambda: self.st("ESCAPE") and self.st("STRING")) or True)

        def between() -> bool:
            return self.st("BETWEEN") and self.scan_add() and self.st("AND") and self.scan_add()

        def in_() -> bool:
            return (self.st("IN") and self.st("(") and self.st("STRING")
                    and self.scan_loop(lambda: self.st(",") and self.st("STRING")) and self.st(")"))

        return self.scan_add() and self.scan_loop(lambda: self.first(
            *(lambda op=op: self.st(op) and self.scan_add() for op in (">", ">=", "<", "<=")),
            like, lambda: self.st("NOT") and like(),
            between, lambda: self.st("NOT") and between(),
            in_, lambda: self.st("NOT") and in_(),
        ))

    @_memo
    def scan_add(self) -> bool:
        return self.scan_mult() and self.scan_loop(lambda: (self.st("+") or self.st("-")) and self.scan_mult())

    @_memo
    def scan_mult(self) -> bool:
        return self.scan_unary() and self.scan_loop(lambda: (self.st("*") or self.st("/") or self.st("%")) and self.scan_unary())

    @_memo
    def scan_unary(self) -> bool:
        return self.first(
            lambda: self.st("+") and self.scan_unary(),
            lambda: self.st("-") and self.scan_unary(),
            lambda: self.st("NOT") and self.scan_unary(),
            lambda: self.st("XPATH") and self.st("STRING"),
            lambda: self.st("XQUERY") and self.st("STRING"),
            self.scan_primary,
        )

    def scan_function(self) -> bool:
        return (self.lex.dialect.function_calls and self.st("ID") and self.st("(") and self.scan_unary()
                and self.scan_loop(lambda: self.st(",") and self.scan_unary()) and self.st(")"))

    @_memo
    def scan_primary(self) -> bool:
        k = self.lex.get(self.sp).kind
        if k in _LITERALS or k == "ID" or k == "QUOTED_ID":
            self.sp += 1
            return True
        return self.st("(") and self.scan_or() and self.st(")")


def canonical(node: n.Node) -> str:
    """The broker AST as text with every operator parenthesised: one reading under any grammar."""
    out: list[str] = []
    stack: list[n.Node | str] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, str):
            out.append(cur)
            continue
        parts = _canonical_parts(cur)
        stack.extend(reversed(parts))
    return "".join(out)


def _canonical_parts(node: n.Node) -> list[n.Node | str]:
    if isinstance(node, n.Literal):
        t, v = node.value
        if t is BOOLEAN:
            return ["NULL" if v is None else "TRUE" if v else "FALSE"]
        if t is STRING:
            return ["'" + v.replace("'", "''") + "'"]
        return [node.text or repr(v)]
    if isinstance(node, n.Identifier):
        return [node.name if ID.fullmatch(node.name) and node.name.upper() not in KEYWORDS else '"' + node.name.replace('"', '""') + '"']
    if isinstance(node, n.Unary):
        return ["(-", node.operand, ")"]
    if isinstance(node, n.Not):
        return ["(NOT ", node.operand, ")"]
    if isinstance(node, (n.And, n.Or, n.Comparison, n.Arithmetic)):
        op = node.op if isinstance(node, (n.Comparison, n.Arithmetic)) else "AND" if isinstance(node, n.And) else "OR"
        return ["(", node.left, f" {op} ", node.right, ")"]
    if isinstance(node, n.IsNull):
        return ["(", node.operand, " IS NOT NULL)" if node.negated else " IS NULL)"]
    neg = " NOT" if node.negated else ""
    if isinstance(node, n.Between):
        return ["(", node.operand, f"{neg} BETWEEN ", node.low, " AND ", node.high, ")"]
    if isinstance(node, n.InList):
        items: list[n.Node | str] = []
        for k, item in enumerate(node.items):
            items.extend([", "] if k else [])
            items.append(item)
        return ["(", node.operand, f"{neg} IN (", *items, "))"]
    tail: list[n.Node | str] = [" ESCAPE ", node.escape, ")"] if node.escape is not None else [")"]
    return ["(", node.operand, f"{neg} LIKE ", node.pattern, *tail]


def _unexpected(t: Tok, wanted: str) -> Diagnostic:
    if t.kind == "EOF":
        return error("E003", "unexpected end of selector", Span(t.start, t.start), expected=(wanted,))
    return error("E002", f"unexpected '{t.text}'", Span(t.start, t.end), expected=(wanted,))


_JAVA_TRIMMED = "".join(chr(c) for c in range(0x21))


def _java_rstrip(text: str) -> str:
    return text.rstrip(_JAVA_TRIMMED)


def parse(text: str, dialect: Dialect) -> n.Node | None:
    """The AST of a selector under a broker dialect; raises SelectorError at the first error."""
    if len(text) > MAX_LENGTH:
        from jmsctl.selector.parser import too_long

        raise SelectorError(too_long(len(text)))
    if not _java_rstrip(text):
        if text and dialect.blank_is_error:
            raise SelectorError(error("E003", "the selector is blank: the broker trims it and rejects the empty rest", Span(0, len(text)),
                                      hint="send no selector at all, or an empty one"))
        return None  # the JMS client treats an empty or blank selector as none
    if dialect.blank_is_error:  # FilterImpl.createFilter() trims: a last line comment loses its line end
        text = text[: len(_java_rstrip(text))]
    if dialect.conversion_prefix and text.startswith(dialect.conversion_prefix):
        # SelectorParser.parse() strips it (dialects/activemq.py, conversion_prefix): blanked here, so
        # that every position stays that of the text as written.
        text = " " * len(dialect.conversion_prefix) + text[len(dialect.conversion_prefix):]
    hyphenated = False
    while dialect.hyphenated_prefix:  # Artemis SelectorParser.parse(): its prefixes, in any order, blanked
        head = text.lstrip(" ")
        if head.startswith(dialect.hyphenated_prefix):
            hyphenated, cut = True, len(dialect.hyphenated_prefix)
        elif head.startswith("no_" + dialect.hyphenated_prefix):
            hyphenated, cut = False, len(dialect.hyphenated_prefix) + 3
        else:
            break
        blank = len(text) - len(head) + cut
        text = " " * blank + text[blank:]
    parser = _Parser(text, dialect, hyphenated)
    # The grammar's recursive descent follows the nesting; Python frames (not the C stack, in 3.11)
    # allow as deep a nesting as the engines' default Java stacks.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _RECURSION))
    try:
        return parser.selector()
    except _Rejected as exc:
        raise SelectorError(exc.diagnostic) from None
    except RecursionError:
        raise SelectorError(error("E120", "the selector is nested too deeply for the broker dialect's parser", Span(0, len(text)))) from None
    finally:
        sys.setrecursionlimit(limit)


_RECURSION = 20_000

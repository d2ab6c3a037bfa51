"""Static rules of docs/SEMANTICS.md#grammar (errors) and the warnings that catch selectors that
are valid but cannot mean what was written. Also the static type of every node, for explain."""

from __future__ import annotations

from jmsctl.diagnostics import Diagnostic, Span, error, warning
from jmsctl.selector import nodes as n
from jmsctl.selector.dialects.broker_headers import BROKER_HEADERS, broker_header_note
from jmsctl.selector.limits import MAX_DEPTH, MAX_DIAGNOSTICS, clip
from jmsctl.selector.lints import by_node_type, root_rules
from jmsctl.values import BOOLEAN, DOUBLE, FLOAT, INT, LONG, STRING, JType, format_plain, promote

HEADER_TYPES: dict[str, JType] = {
    "JMSDeliveryMode": STRING,
    "JMSPriority": INT,
    "JMSMessageID": STRING,
    "JMSTimestamp": LONG,
    "JMSCorrelationID": STRING,
    "JMSType": STRING,
}
JMSX_JTYPES: dict[str, JType] = {name: JType.from_name(t) or STRING for name, t in n.JMSX_TYPES.items()}
SIX = ", ".join(n.HEADERS)
NOT_SELECTABLE = {
    "JMSDestination": "destinations are not selectable",
    "JMSReplyTo": "reply-to destinations are not selectable",
    "JMSExpiration": "expiration is not selectable",
    "JMSRedelivered": "the redelivered flag is not selectable",
    "JMSDeliveryTime": "delivery time is not selectable",
}


def is_condition(node: n.Node) -> bool:
    """Section 2: a comparison, a predicate, a boolean literal, an identifier, or NOT/AND/OR of them."""
    if isinstance(node, (*n.PREDICATES, *n.LOGICAL, n.Identifier)):
        return True
    return isinstance(node, n.Literal) and node.value[0] is BOOLEAN


def is_value(node: n.Node) -> bool:
    return isinstance(node, (n.Literal, n.Identifier, n.Unary, n.Arithmetic))


def _literal_type(node: n.Node) -> JType | None:
    return node.value[0] if isinstance(node, n.Literal) else None


def static_type(node: n.Node, memo: dict[int, JType | None] | None = None) -> str:
    """What a node yields whatever the message: 'condition', a Java type, 'numeric' or 'any'.

    ``memo`` (one dict per AST) keeps the numeric types of arithmetic nodes between calls, so that
    typing every node of a tree costs one pass, not one pass per node."""
    if isinstance(node, n.Literal):
        return node.value[0].java_name
    if isinstance(node, n.Identifier):
        known = HEADER_TYPES.get(node.name) or JMSX_JTYPES.get(node.name)
        return known.java_name if known is not None else "any"
    if isinstance(node, (n.Unary, n.Arithmetic)):
        t = _numeric_type(node, memo)
        return t.java_name if t is not None else "numeric"
    return "condition"


def _numeric_type(node: n.Node, memo: dict[int, JType | None] | None = None) -> JType | None:
    """The static numeric type of a value expression, or None; iterative (arithmetic may nest deeply)."""
    if isinstance(node, n.Literal):
        t = node.value[0]
        return t if t.is_numeric else None
    if isinstance(node, n.Identifier):
        known = HEADER_TYPES.get(node.name) or JMSX_JTYPES.get(node.name)
        return known if known is not None and known.is_numeric else None
    if not isinstance(node, (n.Unary, n.Arithmetic)):
        return None
    # Post-order over the arithmetic tree with a stack of results: no recursion.
    results: list[JType | None] = []
    stack: list[tuple[n.Node, bool]] = [(node, False)]
    while stack:
        cur, done = stack.pop()
        if not done and memo is not None and id(cur) in memo:
            results.append(memo[id(cur)])
        elif isinstance(cur, n.Unary):
            if done:
                operand = results.pop()
                results.append(None if operand is None else promote(operand, INT))
            else:
                stack.append((cur, True))
                stack.append((cur.operand, False))
        elif isinstance(cur, n.Arithmetic):
            if done:
                b, a = results.pop(), results.pop()
                results.append(None if a is None or b is None else promote(a, b))
            else:
                stack.append((cur, True))
                stack.append((cur.right, False))
                stack.append((cur.left, False))
        else:
            results.append(_numeric_type(cur))  # a leaf (or a condition: None)
            continue
        if done and memo is not None:
            memo[id(cur)] = results[-1]
    return results[0]


def check(node: n.Node | None, source: str) -> list[Diagnostic]:
    """Every static error and warning, in source order; or only E120 when the selector nests too deeply."""
    if node is None:
        return []
    out: list[Diagnostic] = []
    if not is_condition(node):
        out.append(_not_condition(node, "the selector"))
    for rule in root_rules():
        out.extend(rule.run(node, source))
    lints = by_node_type()
    stack = [(node, 1)]
    while stack:  # iterative: no selector can exhaust Python's stack here
        child, depth = stack.pop()
        if depth > MAX_DEPTH:
            return [too_deep(child.span)]
        _check_node(child, source, out)
        kind = type(child)
        runs = lints.get(kind)  # the lints of selector/lints/, one module each
        if runs is not None:
            for run in runs:
                found = run(child, source)
                if found:
                    out.extend(found)
        chain = kind is n.And or kind is n.Or
        # An AND/OR chain is one level however long (the compiler makes it one closure over a list).
        stack.extend((c, depth if chain and type(c) is kind else depth + 1) for c in n.children(child))
    if len(out) > 1:
        out.sort(key=lambda d: (d.span.start, d.severity.value, d.code))
    if len(out) > MAX_DIAGNOSTICS:
        return _capped(out)
    return out


def _capped(out: list[Diagnostic]) -> list[Diagnostic]:
    """The first MAX_DIAGNOSTICS diagnostics, errors before warnings, in source order; W013 counts the rest."""
    errors = [d for d in out if d.is_error]
    kept = errors[:MAX_DIAGNOSTICS] + [d for d in out if not d.is_error][: max(0, MAX_DIAGNOSTICS - len(errors))]
    kept_ids = {id(d) for d in kept}
    dropped = [d for d in out if id(d) not in kept_ids]
    dropped_errors = sum(1 for d in dropped if d.is_error)
    kinds = ", ".join(f"{count:,} {noun}{'s' if count != 1 else ''}" for count, noun in
                      ((dropped_errors, "error"), (len(dropped) - dropped_errors, "warning")) if count)
    kept.sort(key=lambda d: (d.span.start, d.severity.value, d.code))
    kept.append(warning("W013", f"{len(dropped):,} more diagnostics not reported ({kinds}): the limit is {MAX_DIAGNOSTICS} per selector",
                        dropped[0].span, hint="fix the ones reported and check again"))
    return kept


def too_deep(span: Span) -> Diagnostic:
    return error("E120", f"the selector nests deeper than the nesting limit of {MAX_DEPTH} levels", span,
                 hint=f"the limit is {MAX_DEPTH} nested levels of NOT, arithmetic, comparisons and alternating AND/OR; "
                      "a chain of one operator (a OR b OR c ...) counts as one level however long: flatten the expression")


def _describe(node: n.Node) -> str:
    if isinstance(node, n.Literal):
        return f"the {node.value[0].java_name} literal {clip(format_plain(*node.value))}"
    if isinstance(node, (n.Arithmetic, n.Unary)):
        return "an arithmetic expression"
    if isinstance(node, n.Identifier):
        return f"the identifier {clip(node.name)}"
    return "a condition"


def _not_condition(node: n.Node, where: str) -> Diagnostic:
    return error("E101", f"{where} must be a condition, but this is {_describe(node)}", node.span,
                 expected=("a comparison, a predicate, TRUE/FALSE or a boolean identifier",),
                 hint="compare it with something, e.g. 'x > 0'")


def _check_node(node: n.Node, source: str, out: list[Diagnostic]) -> None:
    kind = type(node)
    if kind is n.Identifier:
        _check_identifier(node, out)  # type: ignore[arg-type]
    elif kind is n.Literal:
        _warn_literal(node, source, out)  # type: ignore[arg-type]
        _warn_double_minus(node, source, out)
    elif kind is n.And or kind is n.Or:
        op = "AND" if kind is n.And else "OR"
        for side in (node.left, node.right):  # type: ignore[union-attr]
            if not is_condition(side):
                out.append(_not_condition(side, f"an operand of {op}"))
    elif kind is n.Comparison:
        _check_comparison(node, out)  # type: ignore[arg-type]
    elif kind is n.Not:
        _check_not(node, source, out)  # type: ignore[arg-type]
    elif kind is n.Between:
        for part in (node.operand, node.low, node.high):  # type: ignore[union-attr]
            _check_operand(part, "BETWEEN", out)
    elif kind is n.InList:
        _check_in(node, out)  # type: ignore[arg-type]
    elif kind is n.Like:
        _check_like(node, out)  # type: ignore[arg-type]
    elif kind is n.IsNull:
        _check_identifier_operand(node.operand, "IS NULL", out)  # type: ignore[union-attr]
    elif kind is n.Arithmetic:
        _check_operand(node.left, "arithmetic", out)  # type: ignore[union-attr]
        _check_operand(node.right, "arithmetic", out)  # type: ignore[union-attr]
        _warn_hyphenated_name(node, source, out)  # type: ignore[arg-type]
    else:
        _check_operand(node.operand, "arithmetic", out)  # type: ignore[union-attr]
        _warn_double_minus(node, source, out)


def _check_not(node: n.Not, source: str, out: list[Diagnostic]) -> None:
    if not is_condition(node.operand):
        out.append(_not_condition(node.operand, "the operand of NOT"))
    elif isinstance(node.operand, n.Comparison) and source[node.span.start : node.operand.span.start].strip().upper() == "NOT":
        out.append(warning("W011", "ActiveMQ and Artemis read 'NOT a = 1' as '(NOT a) = 1'", node.span,
                           hint="write NOT (...) with parentheses so every broker reads it the same way"))


def _check_in(node: n.InList, out: list[Diagnostic]) -> None:
    _check_identifier_operand(node.operand, "IN", out)
    for item in node.items:
        if _literal_type(item) is not STRING:
            out.append(error("E105", f"an IN list holds string literals only, not {_describe(item)}", item.span,
                             expected=("a string literal",), hint="IN compares Strings: write x IN ('1', '2') or use = / OR for numbers"))
    _warn_header_type(node.operand, "IN", out)


def _warn_double_minus(node: n.Node, source: str, out: list[Diagnostic]) -> None:
    start = node.span.start
    if start > 0 and source[start] == "-" and source[start - 1] == "-":
        out.append(warning("W009", "'--' is not a comment: it is a minus sign followed by a negation", Span(start - 1, start + 1),
                           hint="selectors have no comments; write 'a - -b' with a space if the double minus is intended"))


def _check_operand(part: n.Node, where: str, out: list[Diagnostic]) -> None:
    t = _literal_type(part)
    if t is STRING or t is BOOLEAN:
        code = "E110" if where == "BETWEEN" else "E109"
        out.append(error(code, f"{_describe(part)} cannot be an operand of {where}", part.span,
                         expected=("a numeric expression",), hint="only numbers take part in arithmetic and BETWEEN"))
    elif not is_value(part):
        out.append(error("E102", f"a condition cannot be an operand of {where}", part.span, expected=("a numeric expression",)))


def _check_comparison(node: n.Comparison, out: list[Diagnostic]) -> None:
    for side in (node.left, node.right):
        if not is_value(side):
            chained = side is node.left and isinstance(side, n.PREDICATES) and side.span.start == node.span.start
            out.append(error("E102", "comparisons do not chain" if chained else "a comparison operand must be a value, not a condition",
                             side.span if not chained else node.op_span, expected=("a value: literal, identifier or arithmetic",),
                             hint="combine conditions with AND: 'a = b AND b = c'" if chained else "compare values; use the condition itself, or NOT, instead of '= TRUE'"))
            return
    lt, rt = _literal_type(node.left), _literal_type(node.right)
    if node.op not in ("=", "<>"):
        for side, t in ((node.left, lt), (node.right, rt)):
            if t is STRING or t is BOOLEAN:
                out.append(error("E111", f"'{node.op}' cannot compare {_describe(side)}: Strings and booleans take only = and <>",
                                 side.span, expected=("a numeric operand",), hint="ordering is defined for numbers only"))
                return
    if (lt is not None and rt is not None and lt.is_numeric != rt.is_numeric) or (lt in (STRING, BOOLEAN) and rt in (STRING, BOOLEAN) and lt is not rt):
        out.append(error("E112", f"{_describe(node.left)} and {_describe(node.right)} have unlike types: the comparison is always FALSE",
                         node.span, hint="compare values of the same kind"))
        return
    _warn_comparison_types(node, out)


def _check_identifier_operand(part: n.Node, where: str, out: list[Diagnostic]) -> None:
    if not isinstance(part, n.Identifier):
        out.append(error("E104", f"the left operand of {where} must be an identifier, not {_describe(part)}", part.span,
                         expected=("an identifier",), hint=f"{where} tests a header or property: 'name {where} ...'"))


def _check_like(node: n.Like, out: list[Diagnostic]) -> None:
    _check_identifier_operand(node.operand, "LIKE", out)
    _warn_header_type(node.operand, "LIKE", out)
    if _literal_type(node.pattern) is not STRING:
        out.append(error("E106", f"a LIKE pattern must be a string literal, not {_describe(node.pattern)}", node.pattern.span,
                         expected=("a string literal",), hint="write the pattern in single quotes: x LIKE 'a%'"))
        return
    escape: str | None = None
    if node.escape is not None:
        if _literal_type(node.escape) is not STRING or len(node.escape.value[1]) != 1:  # type: ignore[union-attr]
            out.append(error("E107", "ESCAPE takes a string literal of exactly one character", node.escape.span,
                             expected=("a one-character string literal",), hint="for example ESCAPE '!'"))
            return
        escape = node.escape.value[1]  # type: ignore[union-attr]
    if escape is not None:
        _check_escapes(node.pattern, escape, out)


def _check_escapes(pattern: n.Node, escape: str, out: list[Diagnostic]) -> None:
    text = pattern.value[1]  # type: ignore[union-attr]
    i = 0
    while i < len(text):
        if text[i] == escape:
            if i + 1 >= len(text) or text[i + 1] not in ("_", "%", escape):
                out.append(error("E108", f"the escape character '{escape}' must be followed by '_', '%' or itself",
                                 pattern.span, hint=f"write '{escape}{escape}' for a literal '{escape}'"))
                return
            i += 2
        else:
            i += 1


# Identifiers are case-sensitive (javadoc): 'JMSCorrelationId' or 'jmsType' names no header and selects nothing.
CANONICAL: dict[str, str] = {name.lower(): name for name in (*n.HEADERS, *n.JMSX_TYPES)}


def _check_identifier(node: n.Identifier, out: list[Diagnostic]) -> None:
    kind = node.kind
    meant = CANONICAL.get(node.name.lower()) if len(node.name) < 20 else None
    if meant is not None and meant != node.name:
        _wrong_case(node, meant, out)
        return
    if kind is n.IdentifierKind.INVALID:
        why = NOT_SELECTABLE.get(node.name, "names starting with JMS are reserved")
        hint = "JMSX... and JMS_... names are properties; other JMS names are not selectable"
        if node.name in BROKER_HEADERS:  # selector/dialects/broker_headers.py: ActiveMQ Classic evaluates them anyway
            hint = broker_header_note(node.name) + "; --dialect activemq reads it as ActiveMQ does"
        out.append(error("E113", f"{clip(node.name)} cannot be used in a selector: {why}", node.span,
                         expected=(f"one of the six selectable headers: {SIX}",), hint=hint))
    elif kind is n.IdentifierKind.JMSX and node.name not in n.JMSX_TYPES:
        out.append(warning("W004", f"{clip(node.name)} is not a JMSX property defined by the specification", node.span,
                           hint="defined: " + ", ".join(n.JMSX_TYPES)))


def _warn_literal(node: n.Literal, source: str, out: list[Diagnostic]) -> None:
    shown = node.text.lstrip("+-")
    text = shown.replace("_", "")
    if len(text) > 1 and text[0] == "0" and text[1:2].isdigit() and node.value[0] in (INT, LONG):
        decimal = text.rstrip("lL").lstrip("0")  # read as decimal (a str: it may be long, and int() limits digits)
        if len(decimal) > 1:  # one digit (or none) means the same in octal and decimal
            value = int(text.rstrip("lL"), 8)  # base 8: no digit limit, linear
            out.append(warning("W001", f"{clip(shown)} is an octal literal: its value is {value}, not {clip(decimal)}",
                               node.span, hint=f"write {clip(decimal)} without the leading zero for a decimal number"))


def _warn_hyphenated_name(node: n.Arithmetic, source: str, out: list[Diagnostic]) -> None:
    if node.op != "-" or not isinstance(node.left, n.Identifier) or not isinstance(node.right, n.Identifier):
        return
    if node.left.span.end == node.op_span.start and node.op_span.end == node.right.span.start:
        name = source[node.left.span.start : node.right.span.end]
        out.append(warning("W003", f"'{clip(name)}' is the subtraction {clip(node.left.name)} - {clip(node.right.name)}, not a property name",
                           node.span, hint="property names cannot contain '-'; add spaces if a subtraction is meant"))


_DELIVERY_MODES = {1: "NON_PERSISTENT", 2: "PERSISTENT"}


def _header_type(node: n.Node) -> JType | None:
    return HEADER_TYPES.get(node.name) if isinstance(node, n.Identifier) else None


def _warn_comparison_types(node: n.Comparison, out: list[Diagnostic]) -> None:
    for ident, other in ((node.left, node.right), (node.right, node.left)):
        ht = _header_type(ident)
        if ht is None:
            continue
        ot = _literal_type(other)
        if ot is None:  # JType.BOOLEAN is 0: test for None, never for truth
            ot = _numeric_type(other)
        if ot is None:
            continue
        name = ident.name  # type: ignore[union-attr]
        if ht.is_numeric != ot.is_numeric or (not ht.is_numeric and ht is not ot):
            hint = None
            if name == "JMSDeliveryMode" and isinstance(other, n.Literal) and other.value[1] in _DELIVERY_MODES and ot.is_numeric:
                hint = f"selectors see the delivery mode as a String: use JMSDeliveryMode = '{_DELIVERY_MODES[other.value[1]]}'"
            out.append(warning("W002", f"{name} is a {ht.java_name}, so this comparison with {_describe(other)} is never TRUE",
                               node.span, hint=hint))
        elif name == "JMSDeliveryMode" and isinstance(other, n.Literal) and other.value[1] not in _DELIVERY_MODES.values():
            out.append(warning("W002", f"JMSDeliveryMode is 'PERSISTENT' or 'NON_PERSISTENT', never {format_plain(*other.value)}",
                               node.span, hint="the values are upper case"))
        elif name == "JMSPriority" and isinstance(other, n.Literal) and ot.is_integral and node.op == "=" and not 0 <= other.value[1] <= 9:
            out.append(warning("W002", f"JMSPriority is 0..9, never {other.value[1]}", node.span))
    lt, rt = _numeric_type(node.left), _numeric_type(node.right)
    left_numeric = lt is not None or isinstance(node.left, (n.Arithmetic, n.Unary))
    right_numeric = rt is not None or isinstance(node.right, (n.Arithmetic, n.Unary))
    mixed = (left_numeric and _literal_type(node.right) in (STRING, BOOLEAN)) or (right_numeric and _literal_type(node.left) in (STRING, BOOLEAN))
    if mixed and _header_type(node.left) is None and _header_type(node.right) is None:
        out.append(warning("W010", "a numeric expression compared with a String or boolean literal is never TRUE", node.span))
    if node.op in ("=", "<>") and (FLOAT in (lt, rt)) and (DOUBLE in (_literal_type(node.left), _literal_type(node.right))):
        out.append(warning("W012", "a float compared with a double literal: the float is widened exactly, so 0.1f = 0.1 is FALSE",
                           node.span, hint="use a float literal (0.1f) or a range"))


def _warn_header_type(operand: n.Node, where: str, out: list[Diagnostic]) -> None:
    ht = _header_type(operand) or (JMSX_JTYPES.get(operand.name) if isinstance(operand, n.Identifier) else None)
    if ht is not None and ht is not STRING:
        out.append(warning("W006", f"{clip(operand.name)} is a {ht.java_name}: {where} on it is always UNKNOWN", operand.span,  # type: ignore[union-attr]
                           hint=f"{where} applies to Strings only"))


def _wrong_case(node: n.Identifier, meant: str, out: list[Diagnostic]) -> None:
    what = "header" if meant in HEADER_TYPES else "JMSX property"
    hint = f"names are case-sensitive: write {meant}"
    if node.kind is n.IdentifierKind.INVALID:  # 'JMSCorrelationId': a reserved JMS name, not selectable at all
        out.append(error("E113", f"{node.name} cannot be used in a selector: did you mean the {what} {meant}?", node.span,
                         expected=(meant,), hint=hint))
    elif node.kind is n.IdentifierKind.JMSX:  # 'JMSXGroupId': a JMSX name the specification does not define
        out.append(warning("W004", f"{node.name} is not a JMSX property defined by the specification: did you mean {meant}?",
                           node.span, hint=hint))
    else:  # 'jmsType': an application property that no provider sets
        out.append(warning("W014", f"{node.name} is not the {what} {meant} (names are case-sensitive): did you mean {meant}?",
                           node.span, hint=f"write {meant}; as written it is an application property that no provider sets"))

"""Selector text -> AST through one cached lark LALR parser; lark errors -> diagnostics.

The parse table is read from lalr_table.py, generated from grammar.lark with lark: building it
(compiling the grammar with lark's own LALR parser, then the LALR analysis of ours) took about
25 ms of every start of the command line, reading it takes 1 ms. The callbacks are made from the
stored rules as lark's ParseTreeBuilder makes them (``_callback``), so a parse does not import lark
at all (importing it was another 15 ms of each start). If grammar.lark has changed since the table
was generated, or the table cannot be read, lark builds the table and its callbacks as before.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

from jmsctl.diagnostics import Diagnostic, SelectorError, Span, error
from jmsctl.selector import lexer
from jmsctl.selector.builder import Builder
from jmsctl.selector.lexer import Token
from jmsctl.selector.limits import MAX_LENGTH, clip
from jmsctl.selector.nodes import Node


def grammar_text() -> str:
    try:  # the file beside this module; importlib.resources (and the zipfile it imports) only for a package in a zip
        with open(os.path.join(os.path.dirname(__file__), "grammar.lark"), encoding="utf-8") as f:
            return f.read()
    except OSError:  # pragma: no cover - not installed as files
        from importlib import resources

        return resources.files("jmsctl.selector").joinpath("grammar.lark").read_text(encoding="utf-8")


def grammar_sha256(text: str) -> str:
    """Checked by the first parse of a process (_table is cached): CPython's own SHA-256 where it has it,
    which loads in a tenth of hashlib's time (hashlib loads OpenSSL); the same digest."""
    try:
        from _sha256 import sha256  # type: ignore[import-not-found]  # CPython 3.11 (3.12: _sha2)
    except ImportError:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found,no-redef]
        except ImportError:
            from hashlib import sha256  # type: ignore[assignment]
    return sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def _lark() -> Any:
    from lark import Lark
    from lark.lexer import Lexer

    class _SelectorLexer(Lexer):
        __future_interface__ = 0

        def __init__(self, lexer_conf: Any) -> None:
            pass

        def lex(self, data: str) -> Any:  # type: ignore[override]
            return lexer.tokens(data)

    return Lark(grammar_text(), parser="lalr", lexer=_SelectorLexer, transformer=Builder(), maybe_placeholders=False)


class Unexpected(Exception):
    """A token the table has no action for (lark's UnexpectedToken: ``token`` and the terminal names
    ``expected`` in that state)."""

    def __init__(self, token: Token, expected: set[str]) -> None:
        super().__init__(f"unexpected {token.type}")
        self.token = token
        self.expected = expected


def parse(text: str) -> Node | None:
    """The AST of a selector (None for an empty one); raises SelectorError at the first syntax error.

    Linear in the length of the text, which is limited to MAX_LENGTH characters (E121).
    """
    if len(text) > MAX_LENGTH:
        raise SelectorError(too_long(len(text)))
    try:
        return _run(text)
    except Unexpected as exc:
        raise SelectorError(_unexpected(text, exc)) from None


def _run(text: str) -> Node | None:
    """lark's LALR loop (``ParserState.feed_token``) over lark's own table and callbacks, without its
    per-step generality (asserts, rule comparisons, callback lookups): a quarter of a parse's time.

    A shift is the next state; a reduction is (length of the rule, the rule's name, its callback).
    On a token the table has no entry for, it raises Unexpected (lark's UnexpectedToken) after the same
    reductions lark would have made, so errors are reported exactly as before.
    """
    tables = _table()
    actions = tables.actions
    state_stack = [tables.start_state]
    value_stack: list[Any] = []
    token = None
    for token in lexer.tokens(text):
        kind = token.type
        while True:
            try:
                action = actions[state_stack[-1]][kind]
            except KeyError:
                raise _unexpected_token(token, state_stack[-1]) from None
            if type(action) is not tuple:
                state_stack.append(action)
                value_stack.append(token)
                break
            size, origin, callback = action
            if size:
                values = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                values = []
            value_stack.append(callback(values))
            state_stack.append(actions[state_stack[-1]][origin])
    end = Token("$END", "", token.start_pos, token.end_pos) if token is not None else Token("$END", "", 0)
    while True:
        try:
            action = actions[state_stack[-1]]["$END"]
        except KeyError:
            raise _unexpected_token(end, state_stack[-1]) from None
        if type(action) is not tuple:  # pragma: no cover - the grammar never shifts $END
            raise _unexpected_token(end, state_stack[-1])
        size, origin, callback = action
        if size:
            values = value_stack[-size:]
            del state_stack[-size:]
            del value_stack[-size:]
        else:
            values = []
        value_stack.append(callback(values))
        state_stack.append(actions[state_stack[-1]][origin])
        if state_stack[-1] == tables.end_state:
            return value_stack[-1]  # type: ignore[no-any-return]


def _unexpected_token(token: Token, state: Any) -> Unexpected:
    return Unexpected(token, {s for s in _table().states[state] if s.isupper()})


_OPERAND_START = {"IDENT", "NUMBER", "STRING", "TRUE", "FALSE", "LPAR", "PLUS", "MINUS"}
_COMPARISON = {"EQ", "NE", "LT", "LE", "GT", "GE"}
_ARITHMETIC = {"PLUS", "MINUS", "STAR", "SLASH"}
_PREDICATE = {"BETWEEN", "IN", "LIKE", "IS"}
_NAMES = {
    "EQ": "'='", "NE": "'<>'", "LT": "'<'", "LE": "'<='", "GT": "'>'", "GE": "'>='",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
    "LPAR": "'('", "RPAR": "')'", "COMMA": "','",
    "IDENT": "an identifier", "NUMBER": "a number", "STRING": "a string literal",
    "$END": "the end of the selector",
}


def describe_expected(expected: set[str]) -> tuple[str, ...]:
    """lark's terminal names -> a short list a person can act on."""
    out: list[str] = []
    rest = set(expected)
    if len(rest & _OPERAND_START) >= 4:
        out.append("a condition or operand" if "NOT" in rest else "an operand (identifier, literal or '(')")
        rest -= _OPERAND_START | {"NOT"}
    if rest & _PREDICATE or len(rest & _COMPARISON) > 1:
        if rest & _COMPARISON:
            out.append("a comparison operator")
        if rest & _ARITHMETIC:
            out.append("an arithmetic operator")
        if rest & _PREDICATE:
            out.append("BETWEEN, IN, LIKE or IS")
        rest -= _COMPARISON | _ARITHMETIC | _PREDICATE
        rest.discard("NOT")
    for name in sorted(rest, key=lambda t: (t == "$END", t)):
        out.append(_NAMES.get(name, name))
    return tuple(out)


def _token_text(tok: Token) -> str:
    if tok.type == "$END":
        return "end of selector"
    if tok.type == "STRING":
        return "string literal"
    if tok.type == "IDENT":
        return f"identifier '{clip(str(tok))}'"
    if tok.type == "NUMBER":
        return f"number {clip(str(tok))}"
    return f"'{tok}'" if tok.type in _NAMES else str(tok).upper()


def too_long(length: int) -> Diagnostic:
    return error("E121", f"the selector is {length:,} characters long, over the length limit of {MAX_LENGTH:,}",
                 Span(MAX_LENGTH, length), hint=f"the limit is {MAX_LENGTH:,} characters (4 MiB); split the selector or "
                                                "use fewer, shorter IN lists")


def _replay(text: str, start: int, exc: Unexpected) -> tuple[set[str], Token | None]:
    """The terminals that can follow the text before the error, and the token before it.

    By the time lark raises, it has already reduced on the offending token (AND is no longer
    acceptable after 'x = 1' once ')' forced the reduction), so the tokens before it are replayed
    through the parse table, states only: no values, no callbacks, one table lookup per step.
    The set is what lark's ``InteractiveParser.accepts()`` gives for that state, without copying
    the state stack for every terminal (it can be as deep as the nesting).
    """
    states, start_state, end_state, _ = _table()
    stack = [start_state]
    prev = None
    try:
        for tok in lexer.tokens(text):
            if (tok.start_pos or 0) >= start:
                break
            prev = tok
            kind = tok.type
            while True:
                action, arg = states[stack[-1]][kind]
                if action is SHIFT:
                    stack.append(arg)
                    break
                size = len(arg.expansion)
                if size:
                    del stack[-size:]
                stack.append(states[stack[-1]][arg.origin][1])
    except (KeyError, SelectorError):  # pragma: no cover - the prefix parsed once already; fall back
        return set(exc.expected), prev
    return {t for t in states[stack[-1]] if t.isupper() and _shifts(states, end_state, stack, t)}, prev


def _shifts(states: Any, end_state: Any, stack: list[Any], terminal: str) -> bool:
    """Whether ``terminal`` would be shifted (or end the parse) from ``stack``, reducing as needed.

    The reductions run on a virtual stack: the untouched part of ``stack`` below ``height`` and
    the states pushed since on ``pushed``.
    """
    height, pushed = len(stack), list[Any]()
    state = stack[-1]
    while True:
        entry = states[state].get(terminal)
        if entry is None:
            return False
        action, arg = entry
        if action is SHIFT:
            return True
        size = len(arg.expansion)
        from_pushed = min(size, len(pushed))
        if from_pushed:
            del pushed[-from_pushed:]
        height -= size - from_pushed
        below = pushed[-1] if pushed else stack[height - 1]
        state = states[below][arg.origin][1]
        pushed.append(state)
        if terminal == "$END" and state == end_state:
            return True


SHIFT, REDUCE = "shift", "reduce"  # the actions of a table's states (lark's Shift and Reduce)


class RuleData(NamedTuple):
    """A rule of the grammar as lark compiles it (lark's Rule and RuleOptions, hashable, without lark)."""

    origin: str
    expansion: tuple[tuple[str, bool, bool], ...]  # each symbol: name, is a terminal, filtered out of the children
    order: int
    alias: str | None
    keep_all_tokens: bool
    expand1: bool  # ``?rule``: a single child stands for the rule
    priority: Any
    template_source: Any
    empty_indices: tuple[Any, ...]


class _Tables(NamedTuple):
    states: Any  # state -> terminal or rule name -> (SHIFT, next state) or (REDUCE, RuleData)
    start_state: Any
    end_state: Any
    actions: dict[Any, dict[str, Any]]  # the same, compiled for _run


@lru_cache(maxsize=1)
def _table() -> _Tables:
    try:
        stored = stored_table()
    except Exception:  # pragma: no cover - no table, or a lark whose internals moved: its own build is always right
        stored = None
    return stored if stored is not None else built_table()


def built_table() -> _Tables:
    """The table and callbacks as lark builds them from grammar.lark."""
    from lark.parsers.lalr_analysis import Shift

    conf = _lark().parse_interactive("").parser_state.parse_conf
    rules = {arg: _from_lark(arg) for row in conf.states.values() for action, arg in row.values() if action is not Shift}
    states = {state: {name: (SHIFT, arg) if action is Shift else (REDUCE, rules[arg]) for name, (action, arg) in row.items()}
              for state, row in conf.states.items()}
    return _compiled(states, conf.start_state, conf.end_state, {rules[rule]: f for rule, f in conf.callbacks.items() if rule in rules})


def _from_lark(rule: Any) -> RuleData:
    o = rule.options
    return RuleData(rule.origin.name, tuple((s.name, s.is_term, bool(getattr(s, "filter_out", False))) for s in rule.expansion),
                    rule.order, rule.alias, o.keep_all_tokens, o.expand1, o.priority, o.template_source, tuple(o.empty_indices))


def _compiled(states: Any, start_state: Any, end_state: Any, callbacks: dict[RuleData, Any]) -> _Tables:
    actions = {
        state: {name: arg if action is SHIFT else (len(arg.expansion), arg.origin, callbacks[arg])
                for name, (action, arg) in row.items()}
        for state, row in states.items()
    }
    return _Tables(states, start_state, end_state, actions)


def stored_table() -> _Tables | None:
    """The table of lalr_table.py, with callbacks made from its rules as ``Lark()`` makes them;
    None if it was generated from another grammar.lark."""
    from jmsctl.selector.lalr_table import TABLE

    data = json.loads(TABLE)
    if data["grammar_sha256"] != grammar_sha256(grammar_text()):
        return None
    rules = [_rule(r) for r in data["rules"]]
    builder = Builder()
    callbacks = {rule: _callback(rule, builder) for rule in rules}
    states = {i: {name: (SHIFT, to) if to >= 0 else (REDUCE, rules[-1 - to]) for name, to in row.items()}
              for i, row in enumerate(data["states"])}
    return _compiled(states, data["start"], data["end"], callbacks)


class _Tree(NamedTuple):
    """A rule without a Builder method (lark's Tree): only the inlined ``_rule``s, whose children
    their parent takes in their place."""

    data: str
    children: list[Any]


def _callback(rule: RuleData, builder: Builder) -> Callable[[list[Any]], Any]:
    """What lark's ParseTreeBuilder(rules, Tree, propagate_positions=False, ambiguous=False,
    maybe_placeholders=False).create_callback(builder) gives for ``rule`` (lark/parse_tree_builder.py:
    the Builder method of its alias or name, else a tree; a single child for a ``?rule``; the children
    filtered (tokens filtered out) and ``_rule``s' children inlined). tests/test_parse_table.py parses
    every corpus selector with these and with lark's and compares."""
    name = rule.alias or rule.template_source or rule.origin
    method = getattr(builder, name, None)
    f: Callable[[list[Any]], Any] = method if method is not None else (lambda children: _Tree(name, children))
    if rule.expand1 and not rule.alias:
        make = f
        f = lambda children: children[0] if len(children) == 1 else make(children)  # noqa: E731
    include = [(i, not is_term and symbol.startswith("_")) for i, (symbol, is_term, filter_out) in enumerate(rule.expansion)
               if rule.keep_all_tokens or not (is_term and filter_out)]
    if len(include) < len(rule.expansion) or any(expand for _, expand in include):
        build = f

        def f(children: list[Any]) -> Any:  # lark's ChildFilterLALR_NoPlaceholders
            filtered: list[Any] = []
            for i, expand in include:
                if not expand:
                    filtered.append(children[i])
                elif filtered:
                    filtered += children[i].children
                else:
                    filtered = children[i].children
            return build(filtered)

    return f


def _rule(data: dict[str, Any]) -> RuleData:
    o = data["options"]
    return RuleData(data["origin"], tuple((name, is_term, filter_out) for name, is_term, filter_out in data["expansion"]),
                    data["order"], data["alias"], o["keep_all_tokens"], o["expand1"], o["priority"], o["template_source"],
                    tuple(o["empty_indices"]))


def _rule_data(rule: RuleData) -> dict[str, Any]:
    return {
        "origin": rule.origin,
        "expansion": [list(symbol) for symbol in rule.expansion],
        "order": rule.order,
        "alias": rule.alias,
        "options": {"keep_all_tokens": rule.keep_all_tokens, "expand1": rule.expand1, "priority": rule.priority,
                    "template_source": rule.template_source, "empty_indices": list(rule.empty_indices)},
    }


def table_json(tables: _Tables) -> str:
    """A table as lalr_table.py stores it: states numbered in breadth-first order from the start
    state (symbols in sorted order), rules in sorted order, so that the same automaton always gives
    the same text, whichever numbering lark chose. Shift (and goto): the next state; reduce: -1 - rule."""
    states = tables.states
    order = [tables.start_state]
    number = {tables.start_state: 0}
    for state in order:  # grows while it is walked
        for name in sorted(states[state]):
            action, arg = states[state][name]
            if action is SHIFT and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    if tables.end_state not in number:
        number[tables.end_state] = len(order)
        order.append(tables.end_state)
    if len(order) != len(states):
        raise ValueError(f"{len(states) - len(order)} states cannot be reached from the start state")
    rules = sorted({arg for row in states.values() for action, arg in row.values() if action is not SHIFT},
                   key=lambda r: json.dumps(_rule_data(r), sort_keys=True))
    index = {rule: i for i, rule in enumerate(rules)}
    rows = [{name: number[arg] if action is SHIFT else -1 - index[arg] for name, (action, arg) in sorted(states[s].items())}
            for s in order]
    lines = [
        "{",
        f'"grammar_sha256": {json.dumps(grammar_sha256(grammar_text()))},',
        f'"start": 0, "end": {number[tables.end_state]},',
        '"rules": [',
        ",\n".join(json.dumps(_rule_data(r), sort_keys=True) for r in rules),
        '], "states": [',
        ",\n".join(json.dumps(row) for row in rows),
        "]}",
    ]
    return "\n".join(lines) + "\n"


def _unexpected(text: str, exc: Unexpected) -> Diagnostic:
    tok: Token = exc.token
    at_end = tok.type == "$END"
    start = len(text) if at_end else (tok.start_pos or 0)
    acceptable, prev = _replay(text, start, exc)
    expected = describe_expected(acceptable)
    end = start if at_end else (tok.end_pos or start + 1)
    span = Span(start, max(end, start))

    if tok.type == "NULL":
        return error("E015", "NULL can only be tested with IS NULL or IS NOT NULL", span, expected=expected,
                     hint="write 'x IS NULL'; a comparison with NULL would always be unknown")
    if prev is not None and prev.type == "NOT" and tok.type in _COMPARISON and _after_operand(text, prev):
        return _not_comparison(text, prev, tok)
    if prev is not None and prev.type == "IS" and tok.type in ("TRUE", "FALSE"):
        return _is_boolean(text, prev, tok, span)
    if prev is not None and prev.type == "NOT" and tok.type in ("TRUE", "FALSE") and _before_is(text, prev):
        return _is_boolean(text, prev, tok, span, negated=True)
    if prev is not None and prev.type == "NOT" and tok.type in _COMPARISON | _PREDICATE | {"STAR", "SLASH"}:
        pspan = Span(prev.start_pos or 0, prev.end_pos or 0)
        return error("E014", "NOT is a reserved word and cannot be used as an identifier", pspan,
                     expected=expected, hint="reserved words: NOT AND OR BETWEEN LIKE IN IS ESCAPE NULL TRUE FALSE (any case)")
    if tok.type in lexer.KEYWORDS and "IDENT" in exc.expected and tok.type not in ("NOT", "TRUE", "FALSE"):
        return error("E014", f"{str(tok).upper()} is a reserved word and cannot be used as an identifier", span,
                     expected=expected, hint="reserved words: NOT AND OR BETWEEN LIKE IN IS ESCAPE NULL TRUE FALSE (any case)")
    if prev is not None and prev.type == "IS" and tok.type == "IDENT":
        return error("E002", f"unexpected {_token_text(tok)} after IS", span, expected=("NULL", "NOT NULL"),
                     hint="IS tests for NULL only: 'x IS NULL' or 'x IS NOT NULL'")
    if tok.type == "RPAR" and "RPAR" not in exc.expected and "IDENT" not in exc.expected:
        return error("E002", "unbalanced ')': there is no '(' to close", span, expected=expected)
    if prev is not None and prev.type in ("IN", "LPAR", "COMMA") and tok.type == "RPAR":
        return error("E002", "unexpected ')'", span, expected=("a string literal",),
                     hint="an IN list holds one or more string literals: x IN ('a', 'b')")
    if at_end:
        return error("E003", "unexpected end of selector", span, expected=expected)
    hint = None
    if tok.type in ("IDENT", "NUMBER", "STRING", "LPAR") and "AND" in exc.expected:
        hint = "join conditions with AND or OR"
    return error("E002", f"unexpected {_token_text(tok)}", span, expected=expected, hint=hint)


_OPERAND_END = {"IDENT", "NUMBER", "STRING", "RPAR", "TRUE", "FALSE"}


def _token_before(text: str, tok: Token) -> Token | None:
    """The token that ends before ``tok`` (the prefix lexed again: only on this error path)."""
    last = None
    try:
        for t in lexer.tokens(text[: tok.start_pos or 0]):
            last = t
    except SelectorError:  # pragma: no cover - the prefix lexed once already
        return None
    return last


def _after_operand(text: str, not_tok: Token) -> bool:
    before = _token_before(text, not_tok)
    return before is not None and before.type in _OPERAND_END


def _before_is(text: str, not_tok: Token) -> bool:
    before = _token_before(text, not_tok)
    return before is not None and before.type == "IS"


def _not_comparison(text: str, not_tok: Token, op: Token) -> Diagnostic:
    """``Country NOT= 'UK'``: NOT after an operand only negates BETWEEN, IN, LIKE (and IS NOT NULL)."""
    start, end = not_tok.start_pos or 0, op.end_pos or 0
    if op.type == "EQ":
        fixed = text[:start].rstrip() + " <> " + text[end:].lstrip()
        hint = f"not-equal is '<>': {clip(fixed)}"
    else:
        hint = f"negate the comparison with parentheses: NOT (a {op} b), or use the opposite operator"
    return error("E016", f"NOT cannot come before '{op}': after an operand NOT must be followed by BETWEEN, IN, LIKE (or IS NOT NULL)",
                 Span(start, end), expected=("BETWEEN", "IN", "LIKE"), hint=hint)


def _is_boolean(text: str, first: Token, tok: Token, span: Span, negated: bool = False) -> Diagnostic:
    """``Fragile IS TRUE``: IS tests NULL only; a boolean is compared with '='."""
    is_start = first.start_pos or 0
    if negated:
        before = _token_before(text, first)
        is_start = (before.start_pos or 0) if before is not None else is_start
    operator = "<>" if negated else "="
    fixed = text[:is_start].rstrip() + f" {operator} " + text[tok.start_pos or 0 :]
    return error("E002", f"IS takes only NULL or NOT NULL, not {str(tok).upper()}", span, expected=("NULL", "NOT NULL"),
                 hint=f"compare a boolean with '{operator}': {clip(fixed)}")

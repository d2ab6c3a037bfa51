"""The messages a portability witness is looked for among: built from the selector's own identifiers
and literals, in a fixed order from the simplest (nothing set) to the busiest.

Each identifier gets candidate values: absent; for a property, every Java type at and around each
numeric literal (and products of two literals, where integer division shows), each string literal,
strings matching each LIKE pattern, the numbers as Strings, TRUE and FALSE; for a header, values of
its own type (every priority, both delivery modes, the literals). The search is bounded and
deterministic: no message, each identifier alone, each pair, then seeded random combinations.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import re
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from jmsctl import selector as sel
from jmsctl.exceptions import InvalidSelectorException
from jmsctl.messages.model import Message
from jmsctl.selector import nodes as n
from jmsctl.spec import JMSX_TYPES
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, TypedValue, in_range, int_to_f32, to_f32

STANDARD = "jakarta"
MAX_EVALUATIONS = 200_000  # verdicts computed per selector, all dialects and searches together
MAX_WORK = 8_000_000  # the same bound in AST nodes: an evaluation costs the selector's size, a compilation
COMPILE_WEIGHT = 40  # forty times that (about 1 and 40 microseconds a node): big selectors stop sooner
ABSENT: Any = None
STRING_HEADERS = ("JMSType", "JMSCorrelationID", "JMSMessageID")
LONG_HEADERS = ("JMSTimestamp", "JMSExpiration", "JMSDeliveryTime")
DESTINATION_HEADERS = ("JMSDestination", "JMSReplyTo")
HEADERS = frozenset((*STRING_HEADERS, *LONG_HEADERS, *DESTINATION_HEADERS, "JMSPriority", "JMSDeliveryMode", "JMSRedelivered"))
PAIR_WIDTH = 14  # candidates per identifier tried in the pairs phase


@dataclass(frozen=True)
class Ingredients:
    """What a selector is made of: identifier names, numeric and string literal values, LIKE patterns;
    ``kinds`` limits a property's values to the kinds its uses expect (absent: any kind)."""

    names: tuple[str, ...]
    numbers: tuple[int | float, ...]
    strings: tuple[str, ...]
    patterns: tuple[tuple[str, str | None], ...]
    kinds: tuple[tuple[str, frozenset[str]], ...] = ()
    near: tuple[tuple[str, Ingredients], ...] = ()  # per identifier: the literals of its own predicates
    valid_only: bool = False  # only messages validate accepts (JMSX properties of their own type): the solver's witnesses


STRING_KIND, NUMBER_KIND, BOOLEAN_KIND = "string", "number", "boolean"


def expected_kinds(ast: n.Node | None) -> dict[str, frozenset[str]]:
    """The kinds of value each identifier's uses expect: String for LIKE and IN and a comparison with a
    String literal, number for arithmetic, BETWEEN and a comparison with a number, boolean for an
    identifier used as a condition. A message whose property has another kind is one the selector's
    author did not mean (``phone LIKE '1%'`` on an int phone): the lint leaves those out unless asked."""
    kinds: dict[str, set[str]] = {}

    def want(node: n.Node, kind: str) -> None:
        if isinstance(node, n.Identifier):
            kinds.setdefault(node.name, set()).add(kind)

    def literal_kind(node: n.Node) -> str | None:
        if isinstance(node, n.Literal):
            t = node.value[0]
            return STRING_KIND if t is STRING else BOOLEAN_KIND if t is BOOLEAN else NUMBER_KIND
        return NUMBER_KIND if isinstance(node, (n.Arithmetic, n.Unary)) else None

    if ast is None:
        return {}
    want(ast, BOOLEAN_KIND)
    for node in n.walk(ast):
        if isinstance(node, (n.Like, n.InList)):
            want(node.operand, STRING_KIND)
        elif isinstance(node, (n.Arithmetic, n.Between)):
            for part in n.children(node):
                want(part, NUMBER_KIND)
        elif isinstance(node, n.Unary):
            want(node.operand, NUMBER_KIND)
        elif isinstance(node, (n.And, n.Or, n.Not)):
            for part in n.children(node):
                want(part, BOOLEAN_KIND)
        elif isinstance(node, n.Comparison):
            for one, other in ((node.left, node.right), (node.right, node.left)):
                kind = literal_kind(other)
                if kind is not None:
                    want(one, kind)
    return {name: frozenset(k) for name, k in kinds.items()}


def _kind(value: TypedValue) -> str:
    t = value[0]
    return STRING_KIND if t is STRING else BOOLEAN_KIND if t is BOOLEAN else NUMBER_KIND


def ingredients(asts: Iterable[n.Node | None], standard: n.Node | None = None, valid_only: bool = False) -> Ingredients:
    """Identifiers and literals of one or more readings of a selector (each dialect's AST), in order;
    with ``standard`` (the standard's AST) properties keep to the kinds of value it expects;
    ``valid_only``: JMSX properties only of the specification's type (the portability lint also
    shows how a broker reads a mistyped one)."""
    names: dict[str, None] = {}
    numbers: dict[int | float, None] = {}
    strings: dict[str, None] = {}
    patterns: dict[tuple[str, str | None], None] = {}
    for ast in asts:
        for node in n.walk(ast) if ast is not None else ():
            if isinstance(node, n.Identifier):
                names[node.name] = None
            elif isinstance(node, n.Literal):
                t, v = node.value
                if t is STRING:
                    strings[v] = None
                elif t is not BOOLEAN and (t <= LONG or math.isfinite(v)):
                    numbers[v] = None
            elif isinstance(node, n.Like) and isinstance(node.pattern, n.Literal) and node.pattern.value[0] is STRING:
                esc = node.escape.value[1] if isinstance(node.escape, n.Literal) else None
                patterns[(node.pattern.value[1], esc if isinstance(esc, str) else None)] = None
    kinds = tuple(expected_kinds(standard).items()) if standard is not None else ()
    near = tuple(_near(standard).items()) if standard is not None and len(names) > 1 else ()
    cap = MAX_LITERALS
    return Ingredients(tuple(names), tuple(numbers)[:cap], tuple(strings)[:cap], tuple(patterns)[:cap], kinds, near, valid_only)


MAX_LITERALS = 16  # literals of the whole selector every identifier tries (each also tries those of its predicates)


def _near(ast: n.Node) -> dict[str, Ingredients]:
    """Each identifier's own literals: those of the predicates (comparison, BETWEEN, IN, LIKE) it is in."""
    out: dict[str, Ingredients] = {}
    for node in n.walk(ast):
        if not isinstance(node, n.PREDICATES):
            continue
        inner = ingredients([node])
        for name in inner.names:
            if name not in out and len(out) < MAX_NEAR:
                out[name] = inner
    return out


MAX_NEAR = 256  # identifiers that get their own literals first
NEAR_FIRST = 6  # of which this many go before the selector's literals


def _like_samples(pattern: str, escape: str | None) -> list[str]:
    """Strings a LIKE pattern matches (read with and without its escape), and one it does not."""
    plain, literal = [], []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if escape is not None and c == escape and i + 1 < len(pattern):
            plain.append(pattern[i + 1])
            literal.append(c + pattern[i + 1])
            i += 2
            continue
        plain.append("" if c == "%" else "a" if c == "_" else c)
        literal.append("" if c == "%" else "a" if c == "_" else c)
        i += 1
    return ["".join(plain), "".join(literal), pattern, "".join(plain) + "z"]


def _numbers(ing: Ingredients) -> list[int | float]:
    base: list[int | float] = list(ing.numbers)
    ints = [v for v in base if isinstance(v, int)][:6]
    derived: list[int | float] = []
    for v in base:
        derived += [v + 1, v - 1] if isinstance(v, int) else [v + 1]
    for x, y in itertools.combinations_with_replacement(ints, 2):
        derived += [x * y + 1, x * y - 1, x * y]  # x / y truncates differently from x / y exactly
    for s in ing.strings:  # a String literal that spells a number: the number itself
        if re.fullmatch(r"-?[0-9]{1,19}", s):
            derived.append(int(s))
    derived += [0, 1, -1, 2]
    out: dict[int | float, None] = {}
    for v in (*base, *derived):
        out.setdefault(v, None)
    return list(out)


def _typed_numbers(v: int | float) -> list[TypedValue]:
    """``v`` as each Java type that holds it, int and double first."""
    out: list[TypedValue] = []
    if isinstance(v, int):
        for t in (INT, LONG, SHORT, BYTE):
            if in_range(t, v):
                out.append((t, v))
        out.append((DOUBLE, float(v)))
        f = int_to_f32(v)
        if math.isfinite(f):
            out.append((FLOAT, f))
    else:
        out.append((DOUBLE, v))
        f = to_f32(v)
        if math.isfinite(f):
            out.append((FLOAT, f))
        out.append((DOUBLE, v + 0.5))
    if v == 0:
        out.append((DOUBLE, -0.0))
    return out


def property_candidates(ing: Ingredients) -> list[TypedValue]:
    numbers = _numbers(ing)
    out: list[TypedValue] = []
    for v in numbers[: len(ing.numbers) + 4]:  # the literals themselves and their neighbours first
        out += _typed_numbers(v)[:2]
    out += [(STRING, s) for s in ing.strings]
    out += [(BOOLEAN, True), (BOOLEAN, False)]
    for pattern, escape in ing.patterns:
        out += [(STRING, s) for s in _like_samples(pattern, escape)]
    for v in numbers:
        out += _typed_numbers(v)
    out += [(STRING, str(v)) for v in ing.numbers if isinstance(v, int)]
    out += [(STRING, "x"), (STRING, "")]
    return _unique(out)


def _unique(values: Iterable[TypedValue]) -> list[TypedValue]:
    seen: dict[tuple[Any, Any, str], None] = {}
    unique: list[TypedValue] = []
    for t, v in values:
        key = (t, v, repr(v))  # 0.0 and -0.0 are different candidates
        if key not in seen:
            seen[key] = None
            unique.append((t, v))
    return unique


FIELD_PROPERTIES = ("JMSXDeliveryCount", "JMSXGroupSeq")  # int JMSX properties some brokers keep in message fields


def header_candidates(name: str, ing: Ingredients) -> list[Any]:
    """JSON header values (the dump format's), of the header's own type; for the int JMSX properties
    some brokers keep in fields, typed int values."""
    ints = [v for v in _numbers(ing) if isinstance(v, int)]
    if name in FIELD_PROPERTIES:
        return [(INT, v) for v in dict.fromkeys((0, 1, 2, *ints)) if in_range(INT, v)]
    if name == "JMSPriority":
        return [4, 0, 9, *(v for v in range(10) if v not in (0, 4, 9))]
    if name == "JMSDeliveryMode":
        return ["PERSISTENT", "NON_PERSISTENT"]
    if name == "JMSRedelivered":
        return [False, True]
    if name in LONG_HEADERS:
        return [0, *(v for v in ints if in_range(LONG, v) and v != 0)]
    if name in DESTINATION_HEADERS:
        return ["queue://x", *(f"queue://{s}" for s in ing.strings), *(s for s in ing.strings if "://" in s)]
    return [*ing.strings, "x", "ID:x"]  # JMSType, JMSCorrelationID, JMSMessageID


@dataclass(frozen=True)
class Candidate:
    """One message of the search: header JSON values and typed properties (absent ones left out)."""

    headers: tuple[tuple[str, Any], ...]
    properties: tuple[tuple[str, TypedValue], ...]

    def message(self) -> Message:
        return Message(dict(self.headers), dict(self.properties))

    def absent(self, names: Iterable[str]) -> list[str]:
        present = {k for k, _ in self.headers} | {k for k, _ in self.properties}
        return [name for name in names if name not in present]

    def with_value(self, name: str, value: Any) -> Candidate:
        return _candidate({**dict(self.headers), **dict(self.properties), name: value})


def _candidate(values: dict[str, Any]) -> Candidate:
    headers = tuple((k, v) for k, v in values.items() if k in HEADERS and v is not ABSENT)
    props = tuple((k, v) for k, v in values.items() if k not in HEADERS and v is not ABSENT)
    return Candidate(headers, props)


@functools.lru_cache(maxsize=64)
def _table(ing: Ingredients) -> tuple[tuple[str, list[Any]], ...]:
    return tuple(candidates(ing.names, ing).items())


def candidates(names: Sequence[str], ing: Ingredients) -> dict[str, list[Any]]:
    """Each identifier's values, absent first (its own predicates' literals before the selector's);
    names no message can carry (JMSFoo) only absent."""
    table: dict[str, list[Any]] = {}
    props = property_candidates(ing)
    kinds = dict(ing.kinds)
    near = dict(ing.near)
    by_kinds: dict[frozenset[str] | None, list[TypedValue]] = {None: props}
    for name in names:
        allowed = kinds.get(name)
        if name in HEADERS:
            mine = near.get(name)
            table[name] = [ABSENT, *dict.fromkeys((*header_candidates(name, mine), *header_candidates(name, ing)) if mine else
                                                  header_candidates(name, ing))]
            continue
        if name.startswith("JMS") and not name.startswith(("JMSX", "JMS_")):
            table[name] = [ABSENT]
            continue
        if allowed not in by_kinds:
            by_kinds[allowed] = [v for v in props if _kind(v) in allowed]  # type: ignore[operator]
        values = by_kinds[allowed]
        mine = near.get(name)
        if mine is not None and (mine.numbers or mine.strings) and mine.numbers + mine.strings != ing.numbers + ing.strings:
            own = [v for v in property_candidates(mine) if allowed is None or _kind(v) in allowed]
            values = _unique([*own[:NEAR_FIRST], *values, *own])
        if ing.valid_only and name in JMSX_TYPES:  # the specification's type only: validate rejects any other (N007)
            values = [v for v in values if v[0].java_name == JMSX_TYPES[name]]
        table[name] = [ABSENT, *values]
    return table


def messages(text: str, ing: Ingredients, budget: int, present: frozenset[str] = frozenset(),
             focus: Sequence[str] = ()) -> Iterator[Candidate]:
    """At most ``budget`` distinct messages, simplest first; names in ``present`` are never absent, names
    in ``focus`` (those of the part of the selector in question) are varied first."""
    names = [*(x for x in focus if x in ing.names), *(x for x in ing.names if x not in focus)]
    table = dict(_table(ing))
    for name in present:
        if name in table and len(table[name]) > 1:
            table[name] = table[name][1:]
    base = {name: table[name][0] for name in names}
    seen: set[Candidate] = set()

    def emit(values: dict[str, Any]) -> Iterator[Candidate]:
        c = _candidate(values)
        if c not in seen:
            seen.add(c)
            yield c

    yield from emit(base)
    for name in names:
        for v in table[name][1:]:
            if len(seen) >= budget:
                return
            yield from emit({**base, name: v})
    for a, b in itertools.combinations(names, 2):
        for va, vb in itertools.product(table[a][1:PAIR_WIDTH], table[b][1:PAIR_WIDTH]):
            if len(seen) >= budget:
                return
            yield from emit({**base, a: va, b: vb})
    if len(names) < 3:
        return
    rng = random.Random(zlib.crc32(text.encode("utf-8", "surrogatepass")))
    for _ in range(budget * 3):
        if len(seen) >= budget:
            return
        yield from emit({name: rng.choice(table[name]) for name in names})


class Readings:
    """Compiled selectors per (text, dialect), and verdicts per (text, dialect, message), cached; the
    work done is counted (``size``: the selector's nodes) so that a search stops when it is spent."""

    def __init__(self, size: int = 1) -> None:
        self.size = max(1, size)
        self.work = 0
        self.evaluations = 0
        self._compiled: dict[tuple[str, str], Any] = {}
        self._verdicts: dict[tuple[str, str, Candidate], str] = {}
        self._messages: dict[Candidate, Any] = {}

    def compiled(self, text: str, dialect: str) -> Any:
        key = (text, dialect)
        if key not in self._compiled:
            self.work += COMPILE_WEIGHT * self.size
            try:
                self._compiled[key] = getattr(sel, "compile")(text, dialect)  # noqa: B009 - 'compile' the selector API
            except InvalidSelectorException:
                self._compiled[key] = None
        return self._compiled[key]

    @property
    def exhausted(self) -> bool:
        return self.evaluations >= MAX_EVALUATIONS or self.work >= MAX_WORK

    def verdict(self, text: str, dialect: str, c: Candidate) -> str:
        """match, nomatch or error; an exception while evaluating is nomatch (not delivered)."""
        key = (text, dialect, c)
        found = self._verdicts.get(key)
        if found is None:
            compiled = self.compiled(text, dialect)
            self.evaluations += 1
            self.work += self.size
            if compiled is None:
                found = "error"
            else:
                msg = self._messages.get(c)
                if msg is None:
                    msg = self._messages[c] = c.message()
                try:
                    found = "match" if compiled.evaluate(msg) is True else "nomatch"
                except Exception:  # a dialect may model the broker's exception so
                    found = "nomatch"
            self._verdicts[key] = found
        return found


WIDE = (-100, 100, -1_000_000, 1_000_000)  # numbers past the literals' neighbours (`1.5f - f - 10L > t`: t -100)


def wide_messages(text: str, ast: n.Node | None, count: int) -> Iterator[Message]:
    """Random messages over the selector's names: each value one of its probe values or, for a
    property, one of WIDE in each numeric type its name may have (seeded by the text: the same
    messages every run). The solver's deeper search, for a selector it gave up on."""
    ing = ingredients([ast], valid_only=True)
    table = candidates(ing.names, ing)
    wide = [(t, float(v) if t in (FLOAT, DOUBLE) else v) for v in WIDE for t in (INT, LONG, FLOAT, DOUBLE)]
    for name, values in table.items():
        if name not in HEADERS and len(values) > 1:  # not a header, nor a name no message carries
            values.extend(v for v in wide if name not in JMSX_TYPES or v[0].java_name == JMSX_TYPES[name])
    rng = random.Random(zlib.crc32(text.encode("utf-8", "surrogatepass")))
    for _ in range(count):
        chosen = {name: rng.choice(vs) for name, vs in table.items()}
        yield Message({k: v for k, v in chosen.items() if k in HEADERS and v is not ABSENT},
                      {k: v for k, v in chosen.items() if k not in HEADERS and v is not ABSENT})


ODD_CATEGORIES = frozenset(("Cc", "Cf", "Cn", "Co", "Cs", "Zl", "Zp", "Zs", "Mn", "Me"))  # controls, unassigned, invisible


def plain_strings(values: dict[str, TypedValue | None]) -> dict[str, TypedValue | None] | None:
    """The values with each odd character of a String (a NUL, an unassigned code point: where any
    character would do, z3 picks one a person cannot read) made a plain letter; None if none is odd."""
    import unicodedata

    out = dict(values)
    changed = False
    for name, v in values.items():
        if v is not None and v[0] is STRING and name != "JMSDeliveryMode":
            text = "".join("a" if unicodedata.category(c) in ODD_CATEGORIES and c != " " else c for c in v[1])
            if text != v[1]:
                out[name], changed = (STRING, text), True
    return out if changed else None



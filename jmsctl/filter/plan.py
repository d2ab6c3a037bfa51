"""The filter plan of a selector (``FilterPlan``), computed once from its AST; above all the text
prefilter: which NDJSON lines a selector provably cannot select, without parsing them.

``needles(ast)`` finds string literals that a selector's TRUE requires (in CNF: every group must
be satisfied, a group by any one of its literals). A record is selected only when the selector is
TRUE, so a line in which no spelling of any literal of some group can occur is FALSE, UNKNOWN or
rejected: never selected.

Which predicates require a literal (for a String value ``s`` of identifier ``x``):

- ``x = 'lit'`` (either side), ``x IN ('a', 'b')``: TRUE only when ``x`` is that String;
- ``x LIKE 'ab%cd'``: TRUE only when the value contains every literal run of the pattern (the
  longest is used);
- ``A AND B``: the groups of both; ``A OR B``: one group, the union of one group of each side
  (none when a side requires nothing); ``NOT``, ``BETWEEN``, ``IS NULL``, numbers: nothing.

``JMSDeliveryMode`` is excluded: its String value comes from the number ``1`` or ``2`` as well.
The IBM dialect only turns some TRUE results into FALSE (or NOT BETWEEN on NULL into TRUE, which
requires nothing here), so the same groups are sound for it.

How a literal can be spelled in JSON. A JSON string may write any character as ``\\uXXXX``
(a character outside the BMP as a surrogate pair of them), and ``"`` ``\\`` ``/`` and the
controls ``\\b \\f \\n \\r \\t`` also by a two-character escape; every other character that occurs
in a string is its own UTF-8 bytes. Hence, for a literal whose characters include none of
``" \\ / \\b \\f \\n \\r \\t``: a JSON string equal to it is either the literal's UTF-8 bytes
verbatim, or contains a ``\\u`` escape, so a line that contains neither the verbatim bytes nor the
two bytes ``\\u`` cannot hold it anywhere (keys, headers, bodies included). For a literal with one
of those characters the marker is a single backslash. The test may say "maybe" wrongly (the
literal in another field, inside a longer string, ``\\\\u`` that is an escaped backslash): such a
line is simply parsed. It never says "no" wrongly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, islice, repeat
from operator import contains
from typing import Any

from jmsctl.selector import dialects
from jmsctl.selector import nodes as n
from jmsctl.selector.like import split_pattern
from jmsctl.values import STRING

# Characters that JSON can also write as a two-character escape (\" \\ \/ \b \f \n \r \t).
_SHORT_ESCAPED = frozenset('"\\/\b\f\n\r\t')
_MAX_GROUPS = 2


@dataclass(frozen=True)
class Group:
    """Alternatives: a line may hold the value when it contains any needle, or ``marker``."""

    needles: tuple[bytes, ...]
    marker: bytes  # b"\\u" normally; b"\\" when a literal has a short-escapable character
    # A regex for the same values where the selector reads them (``anchored_pattern``: the identifier's key,
    # a colon, the value, bare or typed), searched in place of the needles where a line is looked for
    # the first group; None: the needles alone.
    anchored: bytes | None = None

    @property
    def strength(self) -> int:
        """Shortest needle (longer needles match fewer lines by chance); a backslash marker is weak."""
        return min(len(x) for x in self.needles) - (100 if self.marker == b"\\" else 0)


def group_of(literals: tuple[str, ...], opening: bool = True, closing: bool = True, name: str | None = None) -> Group | None:
    """The group for 'the value is one of these Strings' (None when one of them is empty).

    ``opening`` / ``closing``: each literal is where the String starts / ends (the whole value for
    ``=`` and IN, a LIKE pattern's first or last run): the needle holds the JSON string's quote
    there. A String's JSON text is its opening quote, each character verbatim or escaped, its
    closing quote: a value that starts with 'A' spelled without escapes holds the bytes ``"A``
    (a line holding neither them nor the marker cannot hold such a value), and ``"A`` is in far
    fewer lines than ``A`` (a region's 'APAC' against every 'A' of a name or a text). The opening
    quote only where the needle would be shorter than three bytes without it: ``re`` finds a needle
    by its first byte, and a quote is on every line many times (``"red"`` costs 1.2-1.4 times ``red"``)."""
    if not literals or any(lit == "" for lit in literals):
        return None
    weak = any(ch in _SHORT_ESCAPED for lit in literals for ch in lit)
    after = b'"' if closing else b""
    bodies = tuple(lit.encode("utf-8", "surrogatepass") + after for lit in literals)
    needles = tuple(dict.fromkeys(b'"' + x if opening and len(x) < 3 else x for x in bodies))
    anchored = None
    # Where it saves a pass over the chunk (several needles: one search for them all) or lines parsed for
    # nothing (a needle of three bytes or less, ``"A``, is in many values): searching the key costs more
    # than a needle of a few bytes does (``color"...`` 280-320 ns a line, ``blue"`` 230).
    if name is not None and opening and all(len(x) < _FIND_FROM for x in needles) and (len(needles) > 1 or len(needles[0]) <= 3):
        anchored = anchored_pattern(name, bodies)
    return Group(needles, b"\\" if weak else b"\\u", anchored)


_WS = rb"[ \t\r]*"  # JSON white space within a line


def anchored_pattern(name: str, starts: tuple[bytes, ...]) -> bytes:
    """A regex that every NDJSON line holds in which identifier ``name`` is a String value starting with
    one of ``starts`` (the closing quote ending one where it is the whole value), when neither the key nor
    the value is spelled with a backslash escape (the group's marker finds those lines): the name's key
    (a part of it from its rarest byte, ``key_superset``), white space, a colon, white space, then the
    value, bare (``"red"``) or in a typed value (``{"type": "string", "value": "red"}``, its members in
    either order: the ``"value"`` member, not past the object's ``}``; the type's name holds none).
    A header or a property is only ever a String that way (messages/decode.py: a bare string, or an
    object of exactly the keys type and value). Where the needles alone find every line holding the
    value anywhere (``"Acme"`` of a customer for ``region LIKE 'A%'``, a third of the lines of
    bench/shapes_bench.py's dumps), this finds those where the selector's own name holds it, and one
    search finds the line for every value of an IN list (one pass over the chunk, not one a value)."""
    key = f'"{name}"'.encode("utf-8", "surrogatepass")
    typed = rb'(?:\{[^}]*"value"' + _WS + b":" + _WS + b")?"
    values = b"(?:" + b"|".join(re.escape(x) for x in starts) + b")"
    # The compact bare spelling (``"color":"red"``) first: white space and typed values only where the key is
    # not followed by ':"' (each part beyond a literal costs ``re`` some 50 ns a try).
    general = b'(?!:")' + _WS + b":" + _WS + typed + b'"' + values
    return re.escape(key_superset(key)) + b'(?::"' + values + b"|" + general + b")"


def needles(ast: n.Node | None) -> tuple[Group, ...]:
    """The literal groups that the selector's TRUE requires (``FilterPlan.must_contain``)."""
    return FilterPlan.of(ast).must_contain


def required_values(ast: n.Node | None) -> tuple[tuple[str, frozenset[str]], ...]:
    """``FilterPlan.required`` of the AST."""
    return FilterPlan.of(ast).required


def sufficient_values(ast: n.Node | None) -> tuple[tuple[str, bool, frozenset[str]], ...]:
    """``FilterPlan.sufficient`` of the AST (the Jakarta reading)."""
    return FilterPlan.of(ast).sufficient


def _string_identifier(node: n.Node) -> str | None:
    if isinstance(node, n.Identifier) and node.name != "JMSDeliveryMode":
        return node.name
    return None


def _string_literal(node: n.Node) -> str | None:
    if isinstance(node, n.Literal) and node.value[0] is STRING:
        return str(node.value[1])
    return None


def _required(node: n.Node) -> list[Group]:
    # AND / OR chains are walked with a stack: deep selectors must not hit the recursion limit.
    if isinstance(node, n.And):
        out: list[Group] = []
        stack: list[n.Node] = [node]
        while stack:
            cur = stack.pop()
            if isinstance(cur, n.And):
                stack += [cur.right, cur.left]
            else:
                out += _required(cur)
        return out
    if isinstance(node, n.Or):
        alternatives: list[bytes] = []
        weak = False
        stack = [node]
        while stack:
            cur = stack.pop()
            if isinstance(cur, n.Or):
                stack += [cur.right, cur.left]
                continue
            side = _required(cur)
            if not side:
                return []  # this side can be TRUE without any literal
            best = max(side, key=lambda g: g.strength)
            alternatives += best.needles
            weak = weak or best.marker == b"\\"
        return [Group(tuple(dict.fromkeys(alternatives)), b"\\" if weak else b"\\u")]
    if isinstance(node, n.Comparison) and node.op == "=":
        for ident, lit in ((node.left, node.right), (node.right, node.left)):
            name, text = _string_identifier(ident), _string_literal(lit)
            if name is not None and text is not None:
                g = group_of((text,), name=name)
                return [g] if g else []
        return []
    if isinstance(node, n.InList) and not node.negated and _string_identifier(node.operand) is not None:
        texts = tuple(_string_literal(item) for item in node.items)
        if any(t is None for t in texts):
            return []
        g = group_of(tuple(t for t in texts if t is not None), name=_string_identifier(node.operand))
        return [g] if g else []
    if isinstance(node, n.Like) and not node.negated and _string_identifier(node.operand) is not None:
        pattern = _string_literal(node.pattern)
        escape = _string_literal(node.escape) if node.escape is not None else None
        if pattern is None:
            return []
        tokens = _like_tokens(pattern, escape)
        runs = like_runs(pattern, escape)
        if not runs:
            return []
        # The longest run, a quote added where it starts or ends the pattern (one more byte to match).
        first, last = bool(tokens) and not tokens[0][1], bool(tokens) and not tokens[-1][1]
        candidates = [(len(run) + (first and i == 0) + (last and i == len(runs) - 1), i) for i, run in enumerate(runs)]
        _, at = max(candidates)
        g = group_of((runs[at],), opening=first and at == 0, closing=last and at == len(runs) - 1, name=_string_identifier(node.operand))
        return [g] if g else []
    return []


def _string_test(node: n.Node) -> tuple[str, bool, frozenset[str]] | None:
    """(identifier, inside, strings) when ``node`` tests a String identifier against literals:
    ``x = 'lit'`` / ``x <> 'lit'`` (either side) or ``x [NOT] IN ('a', 'b')``, TRUE exactly when
    the value is a String that is (``inside``) or is not among the strings. ``JMSDeliveryMode``
    is left out (its String comes from a number too)."""
    if isinstance(node, n.Comparison) and node.op in ("=", "<>"):
        for ident, lit in ((node.left, node.right), (node.right, node.left)):
            name, text = _string_identifier(ident), _string_literal(lit)
            if name is not None and text is not None:
                return (name, node.op == "=", frozenset((text,)))
    elif isinstance(node, n.InList):
        name = _string_identifier(node.operand)
        texts = [_string_literal(item) for item in node.items]
        if name is not None and all(t is not None for t in texts):
            return (name, not node.negated, frozenset(t for t in texts if t is not None))
    return None


def _links(ast: n.Node, chain: type[n.And] | type[n.Or]) -> list[n.Node]:
    """The links of a top-level AND or OR chain, in order (one link: the node itself)."""
    out: list[n.Node] = []
    stack = [ast]
    while stack:
        node = stack.pop()
        if isinstance(node, chain):
            stack += [node.right, node.left]
        else:
            out.append(node)
    return out


@dataclass(frozen=True)
class FilterPlan:
    """What the filter paths need to know about one selector, computed once from its AST (``of``):
    the fast path (``fast.Engine``), the parallel path (its workers inherit the Engine) and Spark's
    raw-line path (``spark.ingest``, the same Engine) all read it.

    - ``identifiers``: the names the selector reads (the only values a line's view holds, and the
      only paths whose keys must be unambiguous for a line to be selected);
    - ``must_contain``: the literal groups a line must contain, in some JSON spelling, to be
      selected (strongest first, at most two: a line without them is skipped unparsed);
    - ``required``: (identifier, strings): TRUE only when each such value is a String among them
      (the conjuncts of the top-level AND), read from the decoded values before any view;
    - ``sufficient``: (identifier, inside, strings): TRUE as soon as one such value is a String
      that is (``inside``) or is not among them (the disjuncts of the top-level OR). Empty under
      the IBM reading, where a comparison of unlike types anywhere makes the whole FALSE."""

    identifiers: tuple[str, ...] = ()
    must_contain: tuple[Group, ...] = ()
    required: tuple[tuple[str, frozenset[str]], ...] = ()
    sufficient: tuple[tuple[str, bool, frozenset[str]], ...] = ()

    @classmethod
    def of(cls, ast: n.Node | None, dialect: str = "jakarta") -> FilterPlan:
        if ast is None:
            return cls()
        identifiers = tuple(dict.fromkeys(node.name for node in n.walk(ast) if isinstance(node, n.Identifier)))
        d = dialects.get(dialect)
        if d.is_broker:
            # A broker dialect reads the AST with other rules (selector/dialects/broker_evaluator.py): no shortcut is
            # proven for it, the plain evaluator decides every line.
            from jmsctl.selector.dialects.broker_evaluator import names_read

            return cls(names_read(identifiers, d))
        if isinstance(ast, n.Or):
            groups = _required(ast)
            required: tuple[tuple[str, frozenset[str]], ...] = ()
            sufficient = tuple(t for t in map(_string_test, _links(ast, n.Or)) if t is not None)
        else:
            links = _links(ast, n.And)
            groups = [g for link in links for g in _required(link)]
            tests = [t for t in map(_string_test, links) if t is not None]
            required = tuple((name, strings) for name, inside, strings in tests if inside)
            sufficient = tuple(tests) if len(links) == 1 else ()
        if dialect != "jakarta":
            sufficient = ()
        must = tuple(sorted(groups, key=lambda g: -g.strength)[:_MAX_GROUPS])
        return cls(identifiers, must, required, sufficient)


def _like_tokens(pattern: str, escape: str | None) -> list[tuple[str, bool]]:
    """A LIKE pattern as (character, is a wildcard) pairs, escapes resolved (the engine's own reading
    of the pattern, selector.like.split_pattern)."""
    tokens: list[tuple[str, bool]] = []
    for k, segment in enumerate(split_pattern(pattern, escape)):
        if k:
            tokens.append(("%", True))
        tokens.extend(("_", True) if ch is None else (ch, False) for ch in segment)
    return tokens


def like_runs(pattern: str, escape: str | None) -> list[str]:
    """The literal runs of a LIKE pattern: what any matching value contains verbatim."""
    runs: list[str] = []
    cur: list[str] = []
    for ch, wildcard in _like_tokens(pattern, escape):
        if wildcard:
            if cur:
                runs.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if cur:
        runs.append("".join(cur))
    return runs


def line_test(groups: tuple[Group, ...]) -> Callable[[bytes], bool] | None:
    """A function line -> False when the line provably cannot be selected (None: no prefilter)."""
    if not groups:
        return None
    checks = [(g.needles, g.marker) for g in groups]
    if groups[0].anchored is not None:  # the first group's values where the selector reads them
        anchored, first_marker = re.compile(groups[0].anchored).search, groups[0].marker
        rest = checks[1:]

        def key_and_value(line: bytes) -> bool:
            if first_marker not in line and anchored(line) is None:
                return False
            return all(marker in line or any(needle in line for needle in group_needles) for group_needles, marker in rest)

        return key_and_value
    if len(checks) == 1 and len(checks[0][0]) == 1:
        (needle,), marker = checks[0]

        def one(line: bytes) -> bool:
            return needle in line or marker in line

        return one

    def test(line: bytes) -> bool:
        for group_needles, marker in checks:
            if marker in line:
                continue
            for needle in group_needles:
                if needle in line:
                    break
            else:
                return False
        return True

    return test


_FIND_FROM = 8  # bytes: a needle this long is searched by bytes.find (line_scanner)

# Bytes of NDJSON message dumps, the most frequent first (counted on both dumps of bench/shapes_bench.py:
# a quote 66-84 times a line, 'e' 33-41, ':' 25-31, ... 'w' once); a byte not listed is rarer than all of them.
# Only the speed of a search depends on this order, never what it finds.
_COMMON = b'"e:t.r,oas0ilpuySnM1d{}2JcvTb67g 34D-5mI89EhxfAPNq/kUwKRZ\nO_LCGHVW'
_COMMONNESS = {byte: len(_COMMON) - i for i, byte in enumerate(_COMMON)}
_VERY_COMMON = frozenset(_COMMON[:7])  # 17-84 times a line each


def literal_pattern(literal: bytes) -> bytes:
    """A regex that matches ``literal`` where it occurs: the same occurrences as ``re.escape(literal)``.
    ``re`` skips to a pattern's first literal byte and tries the rest at each one: a literal that
    begins with a byte a JSON line holds dozens of times (a quote, 'e', ':', 'r', ...) is read from
    its rarest byte instead, each match beginning there, the bytes before it checked behind
    (``(?<=...)``): per line, ``"A`` of LIKE 'A%' read from its 'A' took 20-25 % less time, ``red"``
    read from its 'd' 10-15 % less, on bench/shapes_bench.py's dumps. (Where the first byte is rarer,
    ``price"`` from its 'c' rather than its 'p', the look behind costs what it saves.) A literal
    holding a line end is read from its start (a match beginning after that byte would be on the
    next line)."""
    if not literal or literal[0] not in _VERY_COMMON or b"\n" in literal:
        return re.escape(literal)
    at = min(range(len(literal)), key=lambda i: (_COMMONNESS.get(literal[i], 0), i))
    if at == 0:
        return re.escape(literal)
    return re.escape(literal[at:]) + b"(?<=" + re.escape(literal) + b")"


def key_superset(key: bytes) -> bytes:
    """The part of a key's JSON text (``"name"``) counted first to prove the key once on each line
    (``filter.columnpath``): the key from its rarest byte after the opening quote on, at least four
    bytes. Every occurrence of the key holds it, so a count of it that equals the lines' count of
    the key proves the same; ``re`` skips to its first byte and tries the rest at each one, and
    ``region"`` from its 'r' (some 20 a line) took 25 % longer than ``gion"``. (Not a look behind, as
    ``literal_pattern``: on a key found on every line, checking each match behind costs what it saves.)"""
    last = len(key) - 4
    if last < 1:
        return key[1:]
    at = min(range(1, last + 1), key=lambda i: (_COMMONNESS.get(key[i], 0), i))
    return key[at:]


def rarest_positions(literal: bytes) -> tuple[int, int]:
    """The two positions of ``literal``'s rarest bytes in a JSON line (``_COMMON``), the first one
    first: ``filter._bytecount`` takes as candidates the places where both sit at their offsets, and
    compares the whole literal only there (``"price"``: its 'p' and 'c', not its quotes)."""
    if len(literal) < 2:
        return 0, 0
    first, second = sorted(range(len(literal)), key=lambda i: (_COMMONNESS.get(literal[i], 0), i))[:2]
    return min(first, second), max(first, second)


class _Found:
    """What ``line_scanner`` reads of a ``re.Match`` (true, and ``start()``), for a ``bytes.find`` hit."""

    __slots__ = ("_at",)

    def __init__(self, at: int) -> None:
        self._at = at

    def start(self) -> int:
        return self._at


def _searcher(needle: bytes) -> Callable[[bytes], Any]:
    """``search(text)`` -> a match (true, with ``start()``) or None: ``re``'s for a short needle,
    ``bytes.find``'s for one of ``_FIND_FROM`` bytes or more, whose skip table makes it faster
    there (one pass of a chunk without the needle: 0.19 vs 0.25-0.34 us a line for
    b"ID:bars-999999", in one process, interleaved)."""
    if len(needle) < _FIND_FROM:
        # From its rarest byte (``literal_pattern``): a match begins a few bytes later, on the same line.
        return re.compile(literal_pattern(needle)).search

    def search(text: bytes) -> _Found | None:
        at = text.find(needle)
        return None if at == -1 else _Found(at)

    return search


def line_scanner(groups: tuple[Group, ...]) -> Callable[[bytes, list[bytes]], list[int]] | None:
    """A function (a chunk, its lines) -> the indexes of the lines that may be selected, in order;
    None: no prefilter.

    The strongest group's needles (and its marker, where the chunk holds a backslash) are each
    searched with its own compiled literal regex: ``re`` finds a literal twice as fast as
    ``bytes.find`` on short needles, and an alternation of literals is ten times slower than
    either. The chunk is searched once as one string (a needle in no line costs one pass); from the
    line of the first hit on, ``map`` searches line by line, which keeps Python out of the loop
    where a needle is in many lines (a hit in the chunk would cost a Python step to find its line).
    The lines found are then tested for the other groups. A first group ``anchored`` to its
    identifier's key is searched by that one regex instead of its needles (as ``line_test`` does)."""
    if not groups:
        return None
    first = groups[0]
    needles: tuple[Callable[..., Any], ...]
    if first.anchored is not None:
        needles = (re.compile(first.anchored).search,)
    else:
        needles = tuple(map(_searcher, first.needles))
    marker: Callable[..., Any] = re.compile(re.escape(first.marker)).search  # b"\\u" or b"\\": only where a backslash is
    rest = tuple((g.needles, g.marker) for g in groups[1:])
    one_more = rest[0][0][0] if len(rest) == 1 and len(rest[0][0]) == 1 else None

    def hits(search: Callable[..., Any], chunk: bytes, lines: list[bytes]) -> list[int]:
        m = search(chunk)
        if m is None:
            return []
        start = chunk.count(b"\n", 0, m.start())  # the line of the first hit
        return list(compress(range(start, len(lines)), map(search, islice(lines, start, None))))

    def others(line: bytes) -> bool:
        # line_test of the other groups
        return all(group_marker in line or any(x in line for x in group_needles) for group_needles, group_marker in rest)

    def scan(chunk: bytes, lines: list[bytes]) -> list[int]:
        backslash = b"\\" in chunk  # memchr: most chunks hold none
        patterns = (*needles, marker) if backslash else needles
        found = hits(patterns[0], chunk, lines)
        if len(patterns) > 1:
            found = sorted(set(found).union(*(hits(search, chunk, lines) for search in patterns[1:])))
        if not rest or not found:
            return found
        if one_more is not None and not backslash:
            return list(compress(found, map(contains, map(lines.__getitem__, found), repeat(one_more))))
        return [i for i in found if others(lines[i])]

    return scan


__all__ = ["FilterPlan", "Group", "anchored_pattern", "group_of", "key_superset", "like_runs", "line_scanner", "line_test", "literal_pattern", "needles", "rarest_positions", "required_values", "sufficient_values"]

"""Selectors as sets of messages: proofs of "never", "always", "same", "disjoint" and "covered",
and a witness message for every other answer.

    from jmsctl.analysis import solver
    solver.equivalent("a = 1 OR a <> 1", "a IS NOT NULL")   # Witness: a String a (FALSE vs TRUE)
    solver.equivalent("NOT (a > 1)", "a <= 1")               # Proof
    solver.overlap("a / 2 = 1", "a = 3")                     # Witness: {"a": 3}

Every answer is a ``Proof`` (the solver showed that no message of the domain is a counterexample),
a ``Witness`` (a message in docs/FORMAT.md's JSON form and each selector's verdict on it, computed
by jmsctl's engine for the dialect after a round trip through the dump format) or an ``Unknown``
(the solver spent its budget, or the dialect's semantics are not encoded). A witness
whose engine verdicts differ from the solver's model raises ``WitnessRejected``: that is a bug in
the encoding, never an answer.

The ``jakarta`` and ``ibm`` readings are encoded exactly (smt.py), the broker dialects
(``activemq``, ``artemis``) by broker_encoding.py (boxed Java values, their exceptions "not
delivered"); a broker selector it does not state (a name ActiveMQ reads from message fields,
STOMP's conversion prefix) gets the bounded search, evaluated by the broker evaluator, or ``Unknown``.

The solver's budget is ``rlimit``, z3's resource units (budget.py): the same question gets the same
answer at any load. ``timeout`` (seconds) is only an outer guard; an ``Unknown`` it caused says so.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
import z3

from jmsctl import selector as sel
from jmsctl.analysis import pairwise, smt
from jmsctl.analysis.budget import DEFAULT_RLIMIT, Budget, hot_names, solve, subproblems
from jmsctl.analysis.encoded import BROKER_ENCODED, ENCODED, SOLVED
from jmsctl.analysis.witness_message import doc as _doc
from jmsctl.analysis.witness_message import message as _message
from jmsctl.analysis.witness_message import read_witness
from jmsctl.exceptions import InvalidSelectorException
from jmsctl.messages.model import Message
from jmsctl.selector import dialects
from jmsctl.selector import nodes as n
from jmsctl.values import BOOLEAN, tri_name

DEFAULT_TIMEOUT = 60.0  # seconds per question: only the outer wall-clock guard (the budget is DEFAULT_RLIMIT)
# Terms (AST nodes) the encoder takes: real selectors have tens; building the z3 terms of a generated
# 100,000-term selector took minutes before the solver's own timeout could start counting.
MAX_NODES = 2_000


@dataclass(frozen=True)
class Proof:
    """No message of the domain is a counterexample: ``claim`` holds (``equivalent``, ``disjoint``,
    ``covered``, ``never``, ``always``)."""

    claim: str

    @property
    def result(self) -> str:
        return self.claim


@dataclass(frozen=True)
class Witness:
    """A message (FORMAT.md JSON) on which the claim fails, and each selector's verdict on it
    (``TRUE``/``FALSE``/``UNKNOWN``), in the order the selectors were given."""

    result: str  # different, overlap, gap, selects, misses
    message: dict[str, Any]
    verdicts: tuple[str, ...]
    selectors: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Unknown:
    """No answer: the solver's reason (its budget spent, an unsupported construct, a dialect not
    encoded); ``timed_out``: the wall-clock guard ended it, so it may differ on a quieter machine."""

    reason: str
    timed_out: bool = False

    @property
    def result(self) -> str:
        return "unknown"


Answer = Proof | Witness | Unknown


class WitnessRejected(AssertionError):
    """The engine's verdicts on a solver witness are not the model's: the encoding has a bug."""


# ----- the questions ---------------------------------------------------------------------------


def never(text: str, dialect: str = "jakarta", timeout: float = DEFAULT_TIMEOUT, domain: smt.Domain = smt.ANY, *,
          probes: int | None = None, rlimit: int = DEFAULT_RLIMIT) -> Answer:
    """Proof("never"): no message makes the selector TRUE (W040); else a Witness("selects") it selects.
    ``probes``: messages tried before the solver (default PROBES; 0 when the caller tried its own).
    Where the solver gives up on the whole, it is asked about the parts without arithmetic (within
    one more budget): an AND with a part that is never TRUE, or an OR whose every part is
    never TRUE, is never TRUE (`-0.1 / JMSPriority = 017 AND JMSDeliveryMode LIKE '%c'`)."""
    answer = _ask([text], dialect, Budget(rlimit, timeout), domain, lambda ts: ts[0][0], lambda v: v[0] == "TRUE", "never",
                  "selects", probes)
    if isinstance(answer, Unknown) and not answer.timed_out and dialect in ENCODED:
        ast = _prepared(text, dialect).ast
        budget = Budget(rlimit, timeout)
        if isinstance(ast, (n.And, n.Or)) and _never_by_parts(ast, dialect, budget, domain):
            return Proof("never")
        if budget.fired:
            return Unknown(budget.guard_reason(), timed_out=True)
    return answer


def _never_by_parts(node: n.Node, dialect: str, budget: Budget, domain: smt.Domain) -> bool:
    """Proved: ``node`` is never TRUE, from its AND/OR structure and the solver on its parts without
    arithmetic. Exact in both encoded readings: TRUE of an AND needs each part TRUE, of an OR one
    part TRUE, and IBM's whole-selector FALSE only removes TRUEs."""
    if isinstance(node, n.And):
        return any(_never_by_parts(c, dialect, budget, domain) for c in n.chain(node))
    if isinstance(node, n.Or):
        return all(_never_by_parts(c, dialect, budget, domain) for c in n.chain(node))
    if isinstance(node, n.Literal):
        return node.value == (BOOLEAN, False)
    if budget.spent or budget.wall_left() <= 0 or hot_names([node]):  # arithmetic: the parts are as hard as the whole
        return False
    message = smt.Message(domain)
    try:
        t, _ = smt.Encoder(message, ibm=dialects.get(dialect).ibm_whole_false).selector(node)
    except smt.Unsupported:
        return False
    return solve(z3.And(*message.constraints, t), message, [], budget) == "unsat"


def always(text: str, dialect: str = "jakarta", timeout: float = DEFAULT_TIMEOUT, domain: smt.Domain = smt.ANY, *,
           probes: int | None = None, rlimit: int = DEFAULT_RLIMIT) -> Answer:
    """Proof("always"): every message is selected, as with no selector (W041); else a Witness("misses")."""
    return _ask([text], dialect, Budget(rlimit, timeout), domain, lambda ts: z3.Not(ts[0][0]), lambda v: v[0] != "TRUE", "always", "misses", probes)


def equivalent(a: str, b: str, dialect: str = "jakarta", timeout: float = DEFAULT_TIMEOUT, *,
               three_valued: bool = False, domain: smt.Domain = smt.ANY, rlimit: int = DEFAULT_RLIMIT) -> Answer:
    """Proof("equivalent"): both select the same messages; else Witness("different") selected by one only.

    ``three_valued``: equivalent only when the verdicts are the same on every message, UNKNOWN
    and FALSE told apart (what a rewrite under NOT or inside a larger selector needs)."""
    if three_valued:
        def differ(ts: list[smt.Tri]) -> z3.BoolRef:
            (ta, fa), (tb, fb) = ts
            return z3.Or(ta != tb, fa != fb)
        return _ask([a, b], dialect, Budget(rlimit, timeout), domain, differ, lambda v: v[0] != v[1], "equivalent", "different")
    return _ask([a, b], dialect, Budget(rlimit, timeout), domain, lambda ts: ts[0][0] != ts[1][0],
                lambda v: (v[0] == "TRUE") != (v[1] == "TRUE"), "equivalent", "different")


def overlap(a: str, b: str, dialect: str = "jakarta", timeout: float = DEFAULT_TIMEOUT, domain: smt.Domain = smt.ANY, *,
            rlimit: int = DEFAULT_RLIMIT) -> Answer:
    """Proof("disjoint"): no message is selected by both; else Witness("overlap") selected by both.

    Cheapest first, every answer as exact as the solver's (the selectors' facts are cached, so asking
    every pair of many selectors pays for each selector once): a message each selects on its own
    (probes, or the solver's witness for ``never``), merged, and judged by the engine; over disjoint
    names the two are independent, so the answer is the two ``never`` answers (each within
    its own budget): both select a message (merged) or one selects none (proved); else the probes of the
    pair, a proof that one selects nothing, and last the solver on the pair. In Jakarta's reading a pair
    on shared names also gets pairwise.py's steps: a proof from each name's kind and each operand
    pair's order, before the probes; messages repaired or completed, before the solver."""
    def ask(probes: int | None = None) -> Answer:
        return _ask([a, b], dialect, Budget(rlimit, timeout), domain, lambda ts: z3.And(ts[0][0], ts[1][0]), _both_true, "disjoint",
                    "overlap", probes)

    if dialect not in ENCODED or domain is not smt.ANY:
        return ask()
    pa, pb = _prepared(a, dialect), _prepared(b, dialect)
    if not pa.names.isdisjoint(pb.names):  # one name compared with numbers, or a part on one name never TRUE with the other's
        exact = _exact([pa, pb], _both_true, "overlap", "disjoint")
        if exact is not None:
            return exact
    for p in (pa, pb):
        _probe_alone(p)
    # what this question learns of each selector (never's witness) stays in it: the same answer in any order
    pa, pb = dataclasses.replace(pa, selects=list(pa.selects)), dataclasses.replace(pb, selects=list(pb.selects))
    smaller = lambda p: (p.size, p.text)  # noqa: E731 - the order never's are asked in: not which were asked before
    found = _merged(pa, pb)
    if found is not None:
        return found
    cheap = dialect == "jakarta" and not pa.names.isdisjoint(pb.names) and pa.size + pb.size <= MAX_NODES  # pairwise.py's steps
    if cheap and pairwise.never_together([pa, pb], rlimit):
        return Proof("disjoint")
    if pa.names.isdisjoint(pb.names):  # independent: both TRUE at once exactly when each is TRUE alone
        open_ = [p for p in (pa, pb) if not p.selects]  # a message it selects is known: not "never"
        given_up = []
        for p in sorted(open_, key=smaller):
            answer = _never(p, timeout, rlimit)
            if isinstance(answer, Proof):
                return Proof("disjoint")
            if isinstance(answer, Unknown):
                given_up.append((p, answer))
        if given_up:
            return Unknown(f"{given_up[0][0].text!r} alone: {given_up[0][1].reason}", given_up[0][1].timed_out)
        found = _merged(pa, pb)
        if found is not None:
            return found
        # both select a message yet the engine rejects their merge: the solver decides
    found = _probe([pa, pb], _both_true, "overlap", domain, PROBES)
    if found is not None:
        return found
    for p in sorted((p for p in (pa, pb) if not p.selects), key=smaller):
        answer = _never(p, timeout, rlimit)
        if isinstance(answer, Proof):
            return Proof("disjoint")
        if isinstance(answer, Witness):
            found = _merged(pa, pb)  # with the solver's witness
            if found is not None:
                return found
    found = _merged(pa, pb, aligned=True)  # last before the solver: a shared name given another of the message's values
    if found is None and cheap:  # a message repaired by the engine's arithmetic, or completed by the solver
        judge = functools.partial(_judged, pa, pb)
        encode = lambda p: _encoded(_prepared(p.text, p.dialect), smt.Message())  # noqa: E731 - the cached selector's encoding
        found = pairwise.repaired([pa, pb], judge) or pairwise.extended(pa, pb, encode, judge, timeout)  # type: ignore[arg-type]
    return found if found is not None else ask(probes=0)


def _both_true(v: Sequence[str]) -> bool:
    return v[0] == "TRUE" and v[1] == "TRUE"


def coverage(texts: Sequence[str], given: str | None = None, dialect: str = "jakarta", timeout: float = DEFAULT_TIMEOUT,
             domain: smt.Domain = smt.ANY, *, rlimit: int = DEFAULT_RLIMIT) -> Answer:
    """Proof("covered"): every message of the domain (TRUE under ``given``, when given) is selected by
    at least one selector; else Witness("gap") selected by none (``given`` last among its verdicts)."""
    texts = list(texts)
    all_texts = [*texts, given] if given is not None else texts
    count = len(texts)

    def gap(ts: list[smt.Tri]) -> z3.BoolRef:
        parts = [z3.Not(t) for t, _ in ts[:count]]
        if given is not None:
            parts.append(ts[count][0])
        return z3.And(*parts)

    def confirmed(v: Sequence[str]) -> bool:
        return all(x != "TRUE" for x in v[:count]) and (given is None or v[count] == "TRUE")

    return _ask(all_texts, dialect, Budget(rlimit, timeout), domain, gap, confirmed, "covered", "gap", present=True)


# ----- machinery -------------------------------------------------------------------------------


def _analyzed(text: str, dialect: str) -> n.Node | None:
    analysis = sel.analyze(text, dialect)
    if not analysis.valid:
        raise InvalidSelectorException(text, analysis.errors)
    return analysis.ast


def _ask(texts: Sequence[str], dialect: str | Sequence[str], budget: Budget, domain: smt.Domain,
         counterexample: Callable[[list[smt.Tri]], z3.BoolRef], confirmed: Callable[[Sequence[str]], bool],
         claim: str, found: str, probes: int | None = None, present: bool = False) -> Answer:
    """Look for a message of the domain satisfying ``counterexample``: none is the Proof of ``claim``.
    ``dialect`` is one for every selector, or one per selector (two readings of one text)."""
    each = [dialect] * len(texts) if isinstance(dialect, str) else list(dialect)
    prepared = [_prepared(t, d) for t, d in zip(texts, each, strict=True)]
    encoded = all(d in SOLVED for d in each)
    if domain is smt.ANY and all(_exactly(p) for p in prepared):  # one name compared with numbers: a few messages decide (onename.py)
        exact = _exact(prepared, confirmed, found, claim)
        if exact is not None:
            return exact
    count = SEARCH if not encoded else PROBES if probes is None else probes
    probed = _probe(prepared, confirmed, found, domain, count, present) if count else None
    if probed is not None:
        return probed
    if not encoded:
        names = ", ".join(sorted({d for d in each if d not in SOLVED}))
        return Unknown(f"the {names} dialect's evaluation is not encoded for the solver, and the bounded search found no witness")
    size = sum(p.size for p in prepared)
    if size > MAX_NODES:  # the encoding alone would outlast any budget: the bounded search first, as for a broker dialect
        probed = _probe(prepared, confirmed, found, domain, SEARCH) if count < SEARCH else None
        if probed is not None:
            return probed
        return Unknown(f"{size} terms are more than the solver is given ({MAX_NODES}), and the bounded search of {SEARCH:,} "
                       "messages found no witness; no proof is claimed")
    if claim == "never" and each == ["jakarta"] and domain is smt.ANY:  # pairwise.py's cheap steps, on one selector
        if pairwise.never_together(prepared, budget.left):
            return Proof(claim)
        alone = [dataclasses.replace(p, selects=[]) for p in prepared]  # from the empty message, whatever other questions found
        repaired = pairwise.repaired(alone, functools.partial(_judged, *prepared))
        if repaired is not None:
            return repaired
    ctx_message = smt.Message(domain)
    try:
        tris = [_encoded(p, ctx_message) for p in prepared]
    except smt.Unsupported as exc:
        if any(d in BROKER_ENCODED for d in each):  # a broker reading not encoded: the bounded search is all there is
            probed = _probe(prepared, confirmed, found, domain, SEARCH, present) if 0 < count < SEARCH else None  # 0: the caller searched
            return probed or Unknown(f"{exc}; the bounded search of {SEARCH:,} messages found no witness")
        return Unknown(str(exc))
    formula = z3.And(*ctx_message.constraints, counterexample(tris))
    outcome = solve(formula, ctx_message, hot_names([p.ast for p in prepared]), budget, present)
    if isinstance(outcome, str):
        return Proof(claim) if outcome == "unsat" else Unknown(outcome, budget.fired)
    model = outcome
    values = ctx_message.read(model)
    expected = tuple(_verdict(model, t) for t in tris)
    message, doc = _message(values)
    verdicts = tuple(_engine_verdict(t, d, message) for t, d in zip(texts, each, strict=True))
    if verdicts != expected or not confirmed(verdicts):
        if any(p.approximate for p in prepared):  # a fresh constant stood in for a value: the model is no witness
            return Unknown("the solver's model is no witness (the broker encoding over-approximates a number's text "
                           "or a floating '%' there), and no proof is claimed")
        raise WitnessRejected(f"the engine's verdicts {verdicts} on {orjson.dumps(doc).decode()} are not the solver's {expected} "
                              f"for {list(texts)!r} ({each})")
    from jmsctl.analysis.witness import plain_strings

    plain = plain_strings(values)
    if plain is not None:  # the same verdicts with plain letters for the solver's NULs and unassigned characters
        plain_message, plain_doc = _message(plain)
        if tuple(_engine_verdict(t, d, plain_message) for t, d in zip(texts, each, strict=True)) == verdicts:
            doc = plain_doc
    return Witness(found, doc, verdicts, tuple(texts))


def _exactly(p: _Prepared) -> bool:
    """Whether onename.py's few messages hold every verdict of the selector in its dialect: always in
    the encoded readings; in a broker's, when no String is read as a number (STOMP's prefix) and
    every name is a plain property (the engine reads JMS* names from message fields and headers)."""
    if p.dialect in ENCODED:
        return True
    d = dialects.get(p.dialect)
    return d.for_selector(p.text) is d and not any(name.startswith("JMS") for name in p.names)


def _exact(prepared: Sequence[_Prepared], confirmed: Callable[[Sequence[str]], bool], found: str, claim: str) -> Answer | None:
    """The answer where the selectors compare one name with numbers (every verdict they can give is
    on one of a few messages), or a proof of never / disjoint from the parts of their ANDs on one
    name; None where neither applies."""
    from jmsctl.analysis import onename

    compiled = [p.compiled for p in prepared]

    def judge(m: Message) -> bool | None:
        if not confirmed(_verdicts(compiled, m)):
            return False
        return True if confirmed(_verdicts(compiled, read_witness(_doc(m)))) else None  # None: lost in the format

    decided, message = onename.decide([p.ast for p in prepared], judge, present=claim == "covered")
    if decided:
        if message is None:
            return Proof(claim)
        doc = _doc(message)
        return Witness(found, doc, _verdicts(compiled, read_witness(doc)), tuple(p.text for p in prepared))
    if claim in ("never", "disjoint") and all(p.dialect in ENCODED for p in prepared):  # TRUE of all at once: every AND's parts
        conjuncts = [c for p in prepared if p.ast is not None for c in (n.chain(p.ast) if isinstance(p.ast, n.And) else [p.ast])]
        if onename.never_by_name(conjuncts, functools.partial(_all_true, prepared[0].dialect)):
            return Proof(claim)
    return None


def _all_true(dialect: str, parts: Sequence[n.Node], message: Message) -> bool:
    from jmsctl.selector.unparser import unparse

    return all(_verdicts([_prepared(unparse(p), dialect).compiled], message)[0] == "TRUE" for p in parts)


# ----- one selector, prepared once for every question it takes part in -------------------------


@dataclass
class _Prepared:
    """A selector in a dialect as the questions need it, built once: its AST, its engine, its names,
    its encoding (the same z3 terms in every question: smt.Message shares slots by name), and what
    is known of it alone (a few messages it selects; ``never``'s answer and the budget it had)."""

    text: str
    dialect: str
    ast: n.Node | None
    names: frozenset[str]
    size: int
    compiled: sel.Selector
    tri: smt.Tri | None = None
    approximate: bool = False  # broker_encoding.py put a fresh constant for some value
    sides: list[z3.BoolRef] = field(default_factory=list)  # broker_encoding.py's constraints defining its fresh constants
    unsupported: str | None = None
    probed: bool = False
    selects: list[Message] = field(default_factory=list)  # messages it selects, as read back from the format
    never: dict[int, tuple[Answer, list[Message]]] = field(default_factory=dict)  # per budget: the answer, the messages it found


_PREPARED: OrderedDict[tuple[str, str], _Prepared] = OrderedDict()
MAX_PREPARED = 4_096  # selectors kept (least recently used dropped): a cache, never a different answer


def _prepared(text: str, dialect: str) -> _Prepared:
    key = (text, dialect)
    found = _PREPARED.get(key)
    if found is not None:
        _PREPARED.move_to_end(key)
        return found
    ast = _analyzed(text, dialect)
    nodes = n.walk(ast) if ast is not None else []
    names = frozenset(x.name for x in nodes if isinstance(x, n.Identifier))
    out = _PREPARED[key] = _Prepared(text, dialect, ast, names, len(nodes), getattr(sel, "compile")(text, dialect))  # noqa: B009 - the selector API's 'compile'
    if len(_PREPARED) > MAX_PREPARED:
        _PREPARED.popitem(last=False)
    return out


def _encoded(p: _Prepared, message: smt.Message) -> smt.Tri:
    """The selector's (is TRUE, is FALSE), encoded on first use; its names' slots joined to ``message``."""
    if p.tri is None and p.unsupported is None:
        try:
            if p.dialect in BROKER_ENCODED:
                from jmsctl.analysis import broker_encoding

                p.tri, p.approximate, p.sides = broker_encoding.encode(p.ast, dialects.get(p.dialect).for_selector(p.text))
            else:
                p.tri = smt.Encoder(smt.Message(), ibm=dialects.get(p.dialect).ibm_whole_false).selector(p.ast)
        except smt.Unsupported as exc:
            p.unsupported = str(exc)
    if p.tri is None:
        raise smt.Unsupported(p.unsupported or "not encoded")
    for name in sorted(p.names):
        message.slot(name)
    message.constraints.extend(p.sides)
    return p.tri


MERGED = 4  # messages kept per selector to merge with another selector's
ALONE = 1_024  # probe messages per selector alone, once (~15-60 ms at most; `(d + .5) > f` needs 66, z3 2 s)
DEEP = 16_384  # the same, once, for a selector the solver gave up on alone (a count, not seconds: the same every run)


def _probe_alone(p: _Prepared, budget: int | None = None, guard: Budget | None = None) -> None:
    """Look among the probe messages for a few the selector selects (engine-judged, read back);
    once with ALONE messages, or again with a larger ``budget`` (within ``guard``'s wall clock)."""
    if budget is None:
        if p.probed:
            return
        p.probed, budget = True, ALONE
    from jmsctl.analysis import witness as w

    messages: Iterator[Message] = (c.message() for c in w.messages(p.text, w.ingredients([p.ast], valid_only=True), budget))
    if guard is not None:  # the deeper search: half of it random messages with wider numbers
        messages = itertools.chain(itertools.islice(messages, budget // 2), w.wide_messages(p.text, p.ast, budget // 2))
    for i, candidate in enumerate(messages):
        if len(p.selects) >= MERGED or (guard is not None and i % 256 == 255 and guard.wall_left() <= 0):
            return
        if _verdicts([p.compiled], candidate)[0] == "TRUE":
            message = read_witness(_doc(candidate))
            if _verdicts([p.compiled], message)[0] == "TRUE" and message not in p.selects:
                p.selects.append(message)


def _never(p: _Prepared, timeout: float, rlimit: int) -> Answer:
    """``never`` for the selector, asked once per budget (again after the wall-clock guard ended it);
    where the solver gives up, a deeper probe search may still find a message it selects. The messages
    found go to ``p.selects`` (``overlap``'s copy, for its question only) and with the answer to the cache."""
    known = p.never.get(rlimit)
    if known is not None:
        p.selects[:0] = known[1]
        return known[0]
    answer = never(p.text, p.dialect, timeout, probes=0 if p.probed else None, rlimit=rlimit)
    found: list[Message] = []
    if isinstance(answer, Witness):
        found = [read_witness(answer.message)]
    elif isinstance(answer, Unknown) and not p.selects:
        guard = Budget(rlimit, timeout)
        deep = dataclasses.replace(p, selects=[])
        _probe_alone(deep, DEEP, guard)
        found = deep.selects
        if found:
            answer = Witness("selects", _doc(found[0]), ("TRUE",), (p.text,))
        elif guard.fired:
            answer = Unknown(guard.guard_reason(), timed_out=True)
    if not (isinstance(answer, Unknown) and answer.timed_out):
        p.never[rlimit] = (answer, found)
    p.selects[:0] = found
    return answer


def _merged(a: _Prepared, b: _Prepared, aligned: bool = False) -> Witness | None:
    """A message each selects on its own, merged (one's values first, then the other's), selected
    by both as the engine judges it after the dump format's round trip; None when no merge is.
    ``aligned``: also each merge with one shared property set to another value the message holds
    (`n = t` beside a selector whose witness has n 3 and t 5: n 5 or t 3), a bounded few more."""
    shared = sorted(a.names & b.names) if aligned else []
    for ma in a.selects:
        for mb in b.selects:
            for first, then in ((ma, mb), (mb, ma)):
                merged = Message({**then.headers, **first.headers}, {**then.properties, **first.properties})
                variants = [merged] if not aligned else [
                    Message(merged.headers, {**merged.properties, x: v})
                    for x in shared if x in merged.properties
                    for v in dict.fromkeys([*merged.properties.values(), *(m.properties[x] for m in (ma, mb) if x in m.properties)])
                    if x not in smt.FIXED_TYPES or v[0] is smt.FIXED_TYPES[x]]  # a JMSX property keeps its type (validate)
                for m in variants:
                    found = _judged(a, b, m=m)
                    if found is not None:
                        return found
    return None


def _judged(*prepared: _Prepared, m: Message) -> Witness | None:
    """The witness ``m`` is (overlap of two, selects of one), where every selector selects it as the
    engine judges it after the round trip."""
    compiled = [p.compiled for p in prepared]
    if any(v != "TRUE" for v in _verdicts(compiled, m)):
        return None
    doc = _doc(m)
    verdicts = _verdicts(compiled, read_witness(doc))
    found = "overlap" if len(prepared) > 1 else "selects"
    return Witness(found, doc, verdicts, tuple(p.text for p in prepared)) if all(v == "TRUE" for v in verdicts) else None


def readings_differ(text: str, a: str, b: str, timeout: float = DEFAULT_TIMEOUT, domain: smt.Domain = smt.ANY, *,
                    rlimit: int = DEFAULT_RLIMIT) -> Answer:
    """Proof("equivalent"): dialects ``a`` and ``b`` select the same messages with ``text``; else a
    Witness("different") with the two verdicts (what ``check --portability`` asks of each dialect)."""
    return _ask([text, text], [a, b], Budget(rlimit, timeout), domain, lambda ts: ts[0][0] != ts[1][0],
                lambda v: (v[0] == "TRUE") != (v[1] == "TRUE"), "equivalent", "different")


def _verdict(model: z3.ModelRef, tri: smt.Tri) -> str:
    """The selector's verdict in the model, evaluated in the model's own context (budget.solve's)."""
    if z3.is_true(model.eval(smt.in_ctx(tri[0], model.ctx), model_completion=True)):
        return "TRUE"
    return "FALSE" if z3.is_true(model.eval(smt.in_ctx(tri[1], model.ctx), model_completion=True)) else "UNKNOWN"


def _engine_verdict(text: str, dialect: str, message: Message) -> str:
    try:
        return tri_name(sel.evaluate(text, message, dialect))
    except Exception:  # a broker evaluator models the broker's exception: not delivered
        return "FALSE"


PROBES = 64  # messages from the selectors' literals tried before the solver (most witnesses are among them)
SEARCH = 1500  # the same for a dialect the solver does not encode: all there is


def _probe(prepared: Sequence[_Prepared], confirmed: Callable[[Sequence[str]], bool], found: str, domain: smt.Domain,
           budget: int, present: bool = False) -> Witness | None:
    """The portability lint's bounded search (messages built from the selectors' own literals),
    judged by the engine: a witness found here needs no solver. ``present``: messages that carry
    every name first (a coverage gap shown on `{}` hides the values between the selectors')."""
    from jmsctl.analysis import witness as w

    texts = tuple(p.text for p in prepared)
    compiled = [p.compiled for p in prepared]
    ing = w.ingredients([p.ast for p in prepared], valid_only=True)
    candidates: Iterable[w.Candidate] = w.messages(" ".join(texts), ing, budget)
    if present:
        candidates = itertools.chain(w.messages(" ".join(texts), ing, budget // 2, present=frozenset(ing.names)), candidates)
    for candidate in candidates:
        message = candidate.message()
        if domain.admits(message.selector_values()) and confirmed(_verdicts(compiled, message)):
            doc = _doc(message)
            verdicts = _verdicts(compiled, read_witness(doc))
            if confirmed(verdicts):
                return Witness(found, doc, verdicts, texts)
    return None


def _verdicts(compiled: Sequence[sel.Selector], message: Message) -> tuple[str, ...]:
    out = []
    for c in compiled:
        try:
            out.append(tri_name(c.evaluate(message)))
        except Exception:  # a broker evaluator models the broker's exception: not delivered
            out.append("FALSE")
    return tuple(out)


def as_json(answer: Answer) -> dict[str, Any]:
    """The ``--format json`` object of one answer: result, witness (or null), verdicts (or null)."""
    if isinstance(answer, Witness):
        return {"result": answer.result, "witness": answer.message, "verdicts": list(answer.verdicts)}
    out: dict[str, Any] = {"result": answer.result, "witness": None, "verdicts": None}
    if isinstance(answer, Unknown):
        out["reason"] = answer.reason
        if answer.timed_out:
            out["timed_out"] = True
    return out


__all__ = ["DEFAULT_RLIMIT", "Answer", "Proof", "Unknown", "Witness", "WitnessRejected", "always", "as_json", "coverage",
           "equivalent", "never", "overlap", "read_witness", "readings_differ", "subproblems"]

"""Selectors in Java, Kotlin, Scala and Groovy: the selector argument of the JMS calls (by its
position in each signature), Spring's JmsTemplate and listener containers, EJB
``@ActivationConfigProperty(propertyName = "messageSelector", propertyValue = ...)``, Spring
``@JmsListener(selector = ...)``, and endpoint URIs with ``selector=`` in any string literal.

An argument is followed through ``+`` concatenations, parentheses, constants assigned once in the
same file, ``String.format``/``MessageFormat.format``/``.formatted`` and ``.trim()``-like calls;
anything else in it (a variable, a call) is a Hole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jmsctl.scan.extractors import Extractor, uri
from jmsctl.scan.extractors import _jvm_calls as _calls
from jmsctl.scan.extractors._jvm_lexer import Tok, decode, tokens
from jmsctl.scan.found import Found, Hole, Mapped, Piece, join

# Method -> {number of arguments: index of the selector}. Sources: jakarta.jms Session, JMSContext,
# QueueSession, TopicSession, Connection (createConnectionConsumer and its shared/durable forms) javadoc; Spring JmsTemplate (receiveSelected, receiveSelectedAndConvert,
# browseSelected); AbstractMessageListenerContainer.setMessageSelector. The overloads without a
# selector are absent: createDurableSubscriber(topic, name) has no selector, and in
# createDurableSubscriber(topic, name, selector, noLocal) the second string is the subscription name.
CALLS: dict[str, dict[int, int]] = {
    "createConsumer": {2: 1, 3: 1},
    "createSubscriber": {3: 1},
    "createConnectionConsumer": {4: 1},
    "createDurableConnectionConsumer": {5: 2},
    "createSharedConnectionConsumer": {5: 2},
    "createSharedDurableConnectionConsumer": {5: 2},
    "createReceiver": {2: 1},
    "createBrowser": {2: 1},
    "createQueueBrowser": {2: 1},
    "createDurableSubscriber": {4: 2},
    "createDurableConsumer": {4: 2},
    "createSharedConsumer": {3: 2},
    "createSharedDurableConsumer": {3: 2},
    "setMessageSelector": {1: 0},
    "setSelector": {1: 0},  # Spring SimpleJmsListenerEndpoint
    "messageSelector": {1: 0},  # Spring Integration's JmsListenerContainerSpec
    "receiveSelected": {1: 0, 2: 1},
    "receiveSelectedAndConvert": {1: 0, 2: 1},  # and JmsMessagingTemplate's with a Class last (_jvm_calls.py)
    "browseSelected": {2: 0, 3: 1},
}
# The parameters of each overload (the javadoc's names), for saying which argument a selector is (W018).
SIGNATURES: dict[tuple[str, int], str] = {
    ("createConsumer", 2): "createConsumer(Destination destination, String messageSelector)",
    ("createConsumer", 3): "createConsumer(Destination destination, String messageSelector, boolean noLocal)",
    ("createSubscriber", 3): "createSubscriber(Topic topic, String messageSelector, boolean noLocal)",
    ("createConnectionConsumer", 4): "createConnectionConsumer(Destination destination, String messageSelector, ServerSessionPool sessionPool, int maxMessages)",
    ("createDurableConnectionConsumer", 5): "createDurableConnectionConsumer(Topic topic, String subscriptionName, String messageSelector, ServerSessionPool sessionPool, int maxMessages)",
    ("createSharedConnectionConsumer", 5): "createSharedConnectionConsumer(Topic topic, String subscriptionName, String messageSelector, ServerSessionPool sessionPool, int maxMessages)",
    ("createSharedDurableConnectionConsumer", 5): "createSharedDurableConnectionConsumer(Topic topic, String subscriptionName, String messageSelector, ServerSessionPool sessionPool, int maxMessages)",
    ("createReceiver", 2): "createReceiver(Queue queue, String messageSelector)",
    ("createBrowser", 2): "createBrowser(Queue queue, String messageSelector)",
    ("createQueueBrowser", 2): "createQueueBrowser(Queue queue, String messageSelector)",
    ("createDurableSubscriber", 4): "createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal)",
    ("createDurableConsumer", 4): "createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal)",
    ("createSharedConsumer", 3): "createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector)",
    ("createSharedDurableConsumer", 3): "createSharedDurableConsumer(Topic topic, String name, String messageSelector)",
    ("setMessageSelector", 1): "setMessageSelector(String messageSelector)",
    ("setSelector", 1): "setSelector(String selector)",
    ("messageSelector", 1): "messageSelector(String messageSelector)",
    ("receiveSelected", 1): "receiveSelected(String messageSelector)",
    ("receiveSelected", 2): "receiveSelected(Destination destination, String messageSelector)",
    ("receiveSelectedAndConvert", 1): "receiveSelectedAndConvert(String messageSelector)",
    ("receiveSelectedAndConvert", 2): "receiveSelectedAndConvert(Destination destination, String messageSelector)",
    ("browseSelected", 2): "browseSelected(String messageSelector, BrowserCallback<T> action)",
    ("browseSelected", 3): "browseSelected(Destination queue, String messageSelector, BrowserCallback<T> action)",
}
_RESOLVED = {"@JmsListener", "@ActivationConfigProperty"}  # Spring (and EE containers) resolve ${...} in these

# Names other APIs use too (Kafka has createConsumer): read only in a file that mentions a JMS API.
# setMessageSelector, receiveSelected(AndConvert) and browseSelected are JMS's (Spring's) alone.
_JMS_ONLY = {"setMessageSelector", "receiveSelected", "receiveSelectedAndConvert", "browseSelected"}
JMS_CONTEXT = re.compile(r"jms|activemq|artemis|hornetq|qpid|ibm\.mq|\bmq\b|solace|tibco|weblogic", re.IGNORECASE)
_KEEP_CALLS = {"trim", "strip", "trimIndent", "stripIndent", "trimMargin", "intern", "toString"}
_HINTED = re.compile(r"selector|filter", re.IGNORECASE)
LANGUAGES = {".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".scala": "scala", ".sc": "scala", ".groovy": "groovy", ".gradle": "groovy"}


class _File:
    def __init__(self, text: str, language: str) -> None:
        self.text = text
        self.language = language
        self.toks = tokens(text, language)
        self.match = _brackets(self.toks)
        self.constants = _constants(self.toks, self.match)
        self.used: set[int] = set()  # string tokens already read as part of a selector

    def resolve(self, name: str, at: int) -> tuple[int, int] | None:
        """The expression a name holds where token ``at`` uses it: its one assignment before ``at``
        in a scope around ``at``, or the only assignment in the file (a constant declared below);
        None when that is not one (assigned in two places, or to something not made of literals).
        (NULL, NULL) for null."""
        assigns = self.constants.get(name, [])
        here = [a for a in assigns if a.scope[0] <= at <= a.scope[1] and a.at < at]
        if here:
            # a later assignment in a block between the declaration and the use (if (x) { sel = ...; }) may have run
            later = [a for a in assigns if here[-1].at < a.at < at and a not in here]
            chosen = here if not later else []
        else:
            chosen = assigns if len(assigns) == 1 else []
        if len(chosen) != 1 or chosen[0].start == UNKNOWN:
            return None
        return (NULL, NULL) if chosen[0].start == NULL else (chosen[0].start, chosen[0].end)

    def args(self, open_at: int) -> list[tuple[int, int]]:
        """Token ranges of the arguments of the call whose '(' is token ``open_at``."""
        close = self.match.get(open_at, len(self.toks))
        out, start, i = [], open_at + 1, open_at + 1
        while i < close:
            if self.toks[i].text == ",":
                out.append((start, i))
                start = i + 1
            i = self.match.get(i, i) + 1
        if close > open_at + 1:
            out.append((start, close))
        return out

    def pieces(self, a: int, b: int, depth: int = 0) -> tuple[list[Piece], bool, bool]:
        """An expression's pieces, and whether it is a printf / MessageFormat template."""
        out: list[Piece] = []
        printf = message_format = False
        for x, y in self._operands(a, b):
            got, p, mf = self._operand(x, y, depth)
            out.extend(got)
            printf, message_format = printf or p, message_format or mf
        return out, printf, message_format

    def _operands(self, a: int, b: int) -> list[tuple[int, int]]:
        out, start, i = [], a, a
        while i < b:
            if self.toks[i].text == "+" and i > start:
                out.append((start, i))
                start = i + 1
            i = self.match.get(i, i) + 1
        out.append((start, b))
        return [(x, y) for x, y in out if y > x]

    def _operand(self, a: int, b: int, depth: int) -> tuple[list[Piece], bool, bool]:
        toks = self.toks
        first, last = toks[a], toks[b - 1]
        hole: list[Piece] = [Hole(first.start, last.end, self.text[first.start : last.end])]
        if depth > 20:
            return hole, False, False
        if b - a == 1 and first.kind == "string":
            self.used.add(a)
            return decode(first, self.language), False, False
        if first.text == "(" and self.match.get(a) == b - 1:
            return self.pieces(a + 1, b - 1, depth + 1)
        names = [t.text for t in toks[a:b]]
        if all(t.kind == "ident" or t.text == "." for t in toks[a:b]):
            held = self.resolve(names[-1], a)
            if held is not None and held[0] >= 0:
                return self.pieces(*held, depth=depth + 1)
        if names[-1] == ")":  # a call: ... name ( args )
            return self._call(a, b, depth, hole)
        return hole, False, False

    def _call(self, a: int, b: int, depth: int, hole: list[Piece]) -> tuple[list[Piece], bool, bool]:
        toks = self.toks
        open_at = next((i for i in range(a, b) if toks[i].text == "(" and self.match.get(i) == b - 1), None)
        if open_at is None or open_at == a:
            return hole, False, False
        name = toks[open_at - 1].text
        args = self.args(open_at)
        if args and ((name in ("of", "toSimpleString") and open_at - 3 >= a and toks[open_at - 3].text == "SimpleString")
                     or (name == "SimpleString" and toks[a].text == "new")):
            return self.pieces(*args[0], depth=depth + 1)  # Artemis core: a filter is a SimpleString of the same language
        if name == "format" and args and open_at - 3 >= a and toks[open_at - 3].text in ("String", "MessageFormat"):
            got, _, _ = self.pieces(*args[0], depth=depth + 1)
            return got, toks[open_at - 3].text == "String", toks[open_at - 3].text == "MessageFormat"
        if open_at - 2 >= a and toks[open_at - 2].text == ".":
            got, p, mf = self.pieces(a, open_at - 2, depth + 1)
            if name == "formatted":
                return got, True, mf
            if name in _KEEP_CALLS and not args:
                return got, p, mf
        return hole, False, False


def _brackets(toks: list[Tok]) -> dict[int, int]:
    """Index of each '(' '[' '{' -> index of its closing token (unbalanced: end of file)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    out: dict[int, int] = {}
    stack: list[int] = []
    for i, t in enumerate(toks):
        if t.kind != "punct":
            continue
        if t.text in pairs:
            stack.append(i)
        elif t.text in (")", "]", "}"):
            while stack and pairs[toks[stack[-1]].text] != t.text:
                out[stack.pop()] = i  # a stray closer: close what is open, as far as it matches
            if stack:
                out[stack.pop()] = i
    for i in stack:
        out[i] = len(toks)
    return out


NULL, UNKNOWN = -2, -3  # an assignment of null; of an expression that is not made of literals and names


@dataclass(frozen=True, slots=True)
class _Assign:
    start: int  # token range of the expression (or NULL / UNKNOWN)
    end: int
    at: int  # the name's token
    scope: tuple[int, int]  # the braces around it (a method's body, a class's); the file for a script


def _constants(toks: list[Tok], match: dict[int, int]) -> dict[str, list[_Assign]]:
    """Every NAME = expression outside parentheses (annotation elements are inside them), with its
    scope; a use reads the one assignment before it in a scope around it (see _File.resolve)."""
    out: dict[str, list[_Assign]] = {}
    opened: list[int] = []
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if t.text == "(":
            i = match.get(i, n) + 1
            continue
        if t.text == "{":
            opened.append(i)
        elif t.text == "}" and opened:
            opened.pop()
        elif t.kind == "ident" and i + 2 < n and toks[i + 1].text == "=" and toks[i + 2].text not in ("=", ">"):
            end = _expression_end(toks, i + 2, match)
            scope = (opened[-1], match.get(opened[-1], n)) if opened else (-1, n)
            if end == i + 3 and toks[i + 2].text == "null":
                start = NULL
            elif end > i + 2 and any(toks[k].kind == "string" for k in range(i + 2, end)):
                start = i + 2
            else:
                start = UNKNOWN
            out.setdefault(t.text, []).append(_Assign(start, end, i, scope))
            i = max(end, i + 2)
            continue
        i += 1
    return out


def _expression_end(toks: list[Tok], i: int, match: dict[int, int]) -> int:
    """End of an initializer: ';' ',' or a closing bracket; a new line ends it (Kotlin, Scala,
    Groovy) unless a '+' ends the line or starts the next."""
    n = len(toks)
    start = i
    while i < n:
        t = toks[i]
        if t.text in (";", ",", ")", "}", "]"):
            return i
        if i > start and t.newline_before and t.text not in ("+", ".") and toks[i - 1].text not in ("+", "."):
            return i
        if t.text in ("(", "[", "{"):
            i = match.get(i, n) + 1
            continue
        if not (t.kind in ("string", "ident") or t.text in ("+", ".")):
            return start  # not a constant expression
        i += 1
    return i


def extract(path: str, text: str) -> list[Found]:
    language = next((lang for suffix, lang in LANGUAGES.items() if path.endswith(suffix)), "java")
    f = _File(text, language)
    found: list[Found] = []
    toks = f.toks
    jms = JMS_CONTEXT.search(text) is not None
    types: dict[str, set[str]] | None = None  # read once, at the first call named like a JMS call
    local: set[tuple[str, int]] = set()
    for i, t in enumerate(toks):
        if t.kind != "ident" or i + 1 >= len(toks) or toks[i + 1].text != "(":
            continue
        if t.text in CALLS and (jms or t.text in _JMS_ONLY) and not _declaration(f, i):
            args = f.args(i + 1)
            if types is None:
                types = _calls.declared_types(toks)
                local = _calls.local_methods(toks, lambda k: _declaration(f, k), lambda k: len(f.args(k)))
            index = CALLS[t.text].get(len(args))
            chosen = _calls.selector_argument(t.text, args, toks, i, types, local, index, SIGNATURES.get((t.text, len(args)), t.text))
            if chosen is not None:
                where = _calls.destination_argument(t.text, len(args), chosen)
                named = _destination(f, *args[where]) if where is not None and where < len(args) else ""
                _add(f, found, *args[chosen[0]], t.text, f"argument {chosen[0] + 1} of {chosen[1]}", named)
        elif t.text in ("JmsListener", "ActivationConfigProperty"):
            _annotation(f, found, i + 1, t.text)
    for i, t in enumerate(toks):
        if t.kind == "string" and i not in f.used and _has_option(t):
            found.extend(_uri_selectors(f, i))
    return found


def _has_option(t: Tok) -> bool:
    """Whether a literal holds a URI selector option, searched in place (a long one is not copied)."""
    if t.source is None:
        return uri.OPTION.search(t.text) is not None
    return uri.OPTION.search(t.source, t.start, t.end) is not None


def _uri_selectors(f: _File, i: int) -> list[Found]:
    """Selectors in an endpoint URI literal; one whose value runs on into '+ something' (the rest of
    the URI built at run time) ends with a Hole."""
    t, toks = f.toks[i], f.toks
    pieces = decode(t, f.language)
    out = []
    for k, piece in enumerate(pieces):
        if not isinstance(piece, Mapped):
            continue
        for m in uri.selectors(piece):
            parts: list[Piece] = [m]
            runs_on = (not m.text or m.ends[-1] == piece.ends[-1]) and "&" not in piece.text[len(piece.text) - len(m.text):]
            if runs_on and k == len(pieces) - 1 and i + 2 < len(toks) and toks[i + 1].text == "+":
                nxt = toks[i + 2]
                parts.append(Hole(nxt.start, nxt.end, nxt.literal))
            elif runs_on and k + 1 < len(pieces):
                parts.append(pieces[k + 1])  # a template expression inside the literal
            out.append(Found(join(parts), m.starts[0] if m.text else t.start, t.end, "endpoint URI", literal=len(parts) == 1,
                             destination=uri.destination(piece.text)))
    return out


# Words that may come before a call (not a return type before a method's name).
_BEFORE_CALL = {"return", "throw", "else", "case", "yield", "await", "new", "in", "is", "as", "do", "then", "assert", "not", "and", "or"}


def _declaration(f: _File, i: int) -> bool:
    """Whether ``name(`` at token i declares the method rather than calls it: a return type, 'fun' or
    'def' before the name, or parameters written 'Type name' / 'name: Type'."""
    toks = f.toks
    prev = toks[i - 1] if i > 0 else None
    if prev is not None and ((prev.kind == "ident" and prev.text not in _BEFORE_CALL) or prev.text in (">", "]")):
        return True
    for a, b in f.args(i + 1):
        if b - a >= 2 and toks[a].kind == "ident" and toks[a + 1].kind == "ident" and toks[a].text not in ("new", "final"):
            return True
        if b - a >= 3 and toks[a].kind == "ident" and toks[a + 1].text == ":" and toks[a + 2].kind == "ident":
            return True
    return False


def _one_literal(f: _File, pieces: tuple[Piece, ...]) -> bool:
    """Whether the pieces are one string token's text, all of it (not a concatenation, not a part)."""
    if len(pieces) != 1 or not isinstance(pieces[0], Mapped) or not pieces[0].text:
        return False
    m = pieces[0]
    tok = next((t for t in f.toks if t.kind == "string" and t.start <= m.starts[0] < t.end), None)
    if tok is None or m.ends[-1] > tok.end:
        return False
    whole = decode(tok, f.language)
    return len(whole) == 1 and isinstance(whole[0], Mapped) and whole[0].text == m.text


def _ternary(f: _File, a: int, b: int) -> tuple[int, int] | None:
    """The tokens of ``?`` and its ``:`` when the argument is ``cond ? x : y`` at its top level."""
    i, q, depth = a, None, 0
    while i < b:
        text = f.toks[i].text
        if text == "?":
            q, depth = (i, 0) if q is None else (q, depth + 1)
        elif text == ":" and q is not None:
            if depth == 0:
                return q, i
            depth -= 1
        i = f.match.get(i, i) + 1
    return None


def _add(f: _File, found: list[Found], a: int, b: int, kind: str, role: str = "", destination: str = "") -> None:
    toks = f.toks
    split = _ternary(f, a, b)
    if split is not None:  # flag ? "a <> 1" : "b = 2": either branch may be the selector
        _add(f, found, split[0] + 1, split[1], kind, role, destination)
        _add(f, found, split[1] + 1, b, kind, role, destination)
        return
    if b - a == 1 and (toks[a].text == "null" or f.resolve(toks[a].text, a) == (NULL, NULL)):
        return
    pieces, printf, message_format = f.pieces(a, b)
    pieces_t = join(pieces)
    if all(isinstance(p, Hole) for p in pieces_t):
        written = f.text[toks[a].start : toks[b - 1].end]
        if not _HINTED.search(written):
            return  # a bare variable or call not named like a selector: unknown, and maybe not one (a listener)
    found.append(Found(pieces_t, toks[a].start, toks[b - 1].end, kind, printf, message_format,
                       literal=not printf and not message_format and _one_literal(f, pieces_t), resolves=kind in _RESOLVED, role=role,
                       destination=destination))


_NAMING_CALLS = {"createQueue", "createTopic", "ActiveMQQueue", "ActiveMQTopic", "of", "toSimpleString", "SimpleString", "queue", "topic"}


def _destination(f: _File, a: int, b: int, depth: int = 0) -> str:
    """The queue or topic name an argument holds where the file writes it: a string literal, a
    constant holding one, ``session.createQueue("orders")``, ``new ActiveMQQueue("orders")``,
    ``SimpleString.of("orders")``, or a name assigned one of those; '' otherwise."""
    toks = f.toks
    if b - a < 1 or depth > 5:
        return ""
    if b - a == 1 and toks[a].kind == "string":
        pieces = decode(toks[a], f.language)
        return pieces[0].text if len(pieces) == 1 and isinstance(pieces[0], Mapped) else ""
    if all(t.kind == "ident" or t.text == "." for t in toks[a:b]):
        held = f.resolve(toks[b - 1].text, a)
        assigns = f.constants.get(toks[b - 1].text, [])
        if held is None and len(assigns) == 1 and assigns[0].start == UNKNOWN:  # q = s.createQueue(ORDERS): no string in it
            held = (assigns[0].at + 2, assigns[0].end)
        return _destination(f, *held, depth=depth + 1) if held is not None and held[0] >= 0 else ""
    if toks[b - 1].text == ")":
        open_at = next((i for i in range(a, b) if toks[i].text == "(" and f.match.get(i) == b - 1), None)
        if open_at is not None and open_at > a and toks[open_at - 1].text in _NAMING_CALLS:
            args = f.args(open_at)
            return _destination(f, *args[0], depth=depth + 1) if len(args) == 1 else ""
    return ""


def _annotation(f: _File, found: list[Found], open_at: int, name: str) -> None:
    elements: dict[str, tuple[int, int]] = {}
    for a, b in f.args(open_at):
        if b - a >= 3 and f.toks[a].kind == "ident" and f.toks[a + 1].text == "=":
            elements[f.toks[a].text] = (a + 2, b)
    if name == "JmsListener" and "selector" in elements:
        named = _destination(f, *elements["destination"]) if "destination" in elements else ""
        _add(f, found, *elements["selector"], "@JmsListener", "the selector element of @JmsListener", named)
    elif name == "ActivationConfigProperty" and "propertyName" in elements and "propertyValue" in elements:
        key, _, _ = f.pieces(*elements["propertyName"])
        if len(key) == 1 and isinstance(key[0], Mapped) and key[0].text.strip().lower() == "messageselector":
            _add(f, found, *elements["propertyValue"], "@ActivationConfigProperty", "the messageSelector activation property")


EXTRACTOR = Extractor(
    name="jvm",
    suffixes=tuple(LANGUAGES),
    trigger=re.compile(rb"create(?:Consumer|Receiver|Browser|QueueBrowser|Durable|Shared|Subscriber|ConnectionConsumer)|[Ss]elector|Selected"),
    extract=extract,
    words=(b"elect", b"create"),
    context=JMS_CONTEXT,
    keep=(b"jms", b"mq", b"artemis", b"hornetq", b"qpid", b"solace", b"tibco", b"weblogic"),
)

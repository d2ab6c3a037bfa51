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

from jmsctl.scan.extractors import Extractor, uri
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
    "receiveSelectedAndConvert": {1: 0, 2: 1},
    "browseSelected": {2: 0, 3: 1},
}
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
        if all(t.kind == "ident" or t.text == "." for t in toks[a:b]) and names[-1] in self.constants:
            start, end = self.constants[names[-1]]
            if (start, end) != (-1, -1):
                return self.pieces(start, end, depth + 1)
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


def _constants(toks: list[Tok], match: dict[int, int]) -> dict[str, tuple[int, int]]:
    """NAME = expression, outside parentheses (annotation elements are inside them), when the
    expression holds only literals, names, '+', '.', parentheses; assigned twice: (-1, -1)."""
    out: dict[str, tuple[int, int]] = {}
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if t.text == "(":
            close = match.get(i, n)
            i = close + 1
            continue
        if t.kind == "ident" and i + 2 < n and toks[i + 1].text == "=" and toks[i + 2].text not in ("=", ">"):
            end = _expression_end(toks, i + 2, match)
            if end > i + 2 and any(toks[k].kind == "string" for k in range(i + 2, end)):
                out[t.text] = (i + 2, end) if t.text not in out else (-1, -1)
            elif t.text in out:
                out[t.text] = (-1, -1)
            i = end
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
    for i, t in enumerate(toks):
        if t.kind != "ident" or i + 1 >= len(toks) or toks[i + 1].text != "(":
            continue
        if t.text in CALLS and (jms or t.text in _JMS_ONLY):
            args = f.args(i + 1)
            index = CALLS[t.text].get(len(args))
            if index is not None:
                _add(f, found, *args[index], t.text)
        elif t.text in ("JmsListener", "ActivationConfigProperty"):
            _annotation(f, found, i + 1, t.text)
    for i, t in enumerate(toks):
        if t.kind == "string" and i not in f.used and uri.OPTION.search(t.text):
            for piece in decode(t, language):
                if isinstance(piece, Mapped):
                    found.extend(Found((m,), m.starts[0] if m.text else t.start, t.end, "endpoint URI")
                                 for m in uri.selectors(piece))
    return found


def _add(f: _File, found: list[Found], a: int, b: int, kind: str) -> None:
    toks = f.toks
    if b - a == 1 and toks[a].text == "null":
        return
    pieces, printf, message_format = f.pieces(a, b)
    pieces_t = join(pieces)
    if all(isinstance(p, Hole) for p in pieces_t):
        written = f.text[toks[a].start : toks[b - 1].end]
        if not _HINTED.search(written):
            return  # a bare variable or call not named like a selector: unknown, and maybe not one (a listener)
    found.append(Found(pieces_t, toks[a].start, toks[b - 1].end, kind, printf, message_format))


def _annotation(f: _File, found: list[Found], open_at: int, name: str) -> None:
    elements: dict[str, tuple[int, int]] = {}
    for a, b in f.args(open_at):
        if b - a >= 3 and f.toks[a].kind == "ident" and f.toks[a + 1].text == "=":
            elements[f.toks[a].text] = (a + 2, b)
    if name == "JmsListener" and "selector" in elements:
        _add(f, found, *elements["selector"], "@JmsListener")
    elif name == "ActivationConfigProperty" and "propertyName" in elements and "propertyValue" in elements:
        key, _, _ = f.pieces(*elements["propertyName"])
        if len(key) == 1 and isinstance(key[0], Mapped) and key[0].text.strip().lower() == "messageselector":
            _add(f, found, *elements["propertyValue"], "@ActivationConfigProperty")


EXTRACTOR = Extractor(
    name="jvm",
    suffixes=tuple(LANGUAGES),
    trigger=re.compile(rb"create(?:Consumer|Receiver|Browser|QueueBrowser|Durable|Shared|Subscriber|ConnectionConsumer)|[Ss]elector|Selected"),
    extract=extract,
    words=(b"elect", b"create"),
)

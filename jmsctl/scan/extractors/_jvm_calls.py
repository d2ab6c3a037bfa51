"""Whether a call named like a JMS call is one, from what the file shows: the methods it declares
itself (a local helper ``createConsumer(Session s, String topic)``), the declared types of the
receiver and the arguments, the arity, and the kind of the last argument.

Not JMS calls, with their sources:
- ActiveMQ's JMX ``BrokerViewMBean.createDurableSubscriber(String clientId, String subscriberName,
  String topicName, String selector)`` (apache/activemq activemq-broker/src/main/java/org/apache/
  activemq/broker/jmx/BrokerViewMBean.java): four arguments as JMS's, the selector is the fourth.
- Artemis's test client ``AmqpSession.createReceiver(Source source, String receiverId)``
  (apache/activemq-artemis tests/artemis-test-support/src/main/java/org/apache/activemq/transport/
  amqp/client/AmqpSession.java:398): no selector; its ``createReceiver(String address, String
  selector)`` (line 286) has one, as JMS's.
- Spring's ``JmsMessagingTemplate.receiveSelectedAndConvert(String messageSelector, Class<T>)`` and
  ``(D destination, String messageSelector, Class<T>)`` (spring-projects/spring-framework spring-jms
  JmsMessageOperations.java, JmsMessagingTemplate.java): the class argument comes last.
"""

from __future__ import annotations

from collections.abc import Callable

from jmsctl.scan.extractors._jvm_lexer import Tok

_JMX_DURABLE = "BrokerViewMBean.createDurableSubscriber(String clientId, String subscriberName, String topicName, String selector)"
_NOT_A_TYPE = {"return", "new", "throw", "else", "case", "import", "package", "final", "static", "private", "public", "protected",
               "val", "var", "def", "fun", "class", "interface", "extends", "implements", "instanceof", "in", "is", "as"}


def declared_types(toks: list[Tok]) -> dict[str, set[str]]:
    """Each name -> the types the file declares it with: ``Type name`` followed by ``= ; , ) :``
    (Java, Groovy), ``name: Type`` (Kotlin, Scala). Generic types by their raw name."""
    out: dict[str, set[str]] = {}
    n = len(toks)
    for i in range(n - 2):
        a, b, c = toks[i], toks[i + 1], toks[i + 2]
        if a.kind == "ident" and b.kind == "ident" and a.text not in _NOT_A_TYPE and c.text in ("=", ";", ",", ")", ":"):
            out.setdefault(b.text, set()).add(a.text)
        elif a.kind == "ident" and b.text == ":" and c.kind == "ident" and (i == 0 or toks[i - 1].text != "?"):
            out.setdefault(a.text, set()).add(c.text)
    return out


def local_methods(toks: list[Tok], declares: Callable[[int], bool], arity: Callable[[int], int]) -> set[tuple[str, int]]:
    """(name, number of parameters) of the methods the file declares itself."""
    return {(t.text, arity(i + 1)) for i, t in enumerate(toks)
            if t.kind == "ident" and i + 1 < len(toks) and toks[i + 1].text == "(" and declares(i)}


def receiver(toks: list[Tok], i: int) -> str | None:
    """The name a call at token ``i`` is made on (``session`` in ``session.createConsumer``), '' for
    an unqualified call or ``this.``, None when it is an expression (a call, an index)."""
    if i < 2 or toks[i - 1].text != ".":
        return ""
    before = toks[i - 2]
    if before.text in ("this", "self"):
        return ""
    return before.text if before.kind == "ident" else None


def _one(toks: list[Tok], arg: tuple[int, int]) -> Tok | None:
    a, b = arg
    return toks[a] if b - a == 1 else None


def _is_class(toks: list[Tok], arg: tuple[int, int]) -> bool:
    """``Foo.class`` or Kotlin's ``Foo::class.java``."""
    texts = [t.text for t in toks[arg[0] : arg[1]]]
    return texts[-2:] == [".", "class"] or "::" in texts or texts[-3:] == ["class", ".", "java"]


def selector_argument(name: str, args: list[tuple[int, int]], toks: list[Tok], i: int, types: dict[str, set[str]],
                      local: set[tuple[str, int]], index: int | None, signature: str) -> tuple[int, str] | None:
    """(index of the selector argument, the signature it is read with), or None when this call is
    not a JMS call (or has no selector), by what the file shows; ``index``/``signature``: the JMS
    reading by arity alone."""
    on = receiver(toks, i)
    if on == "" and (name, len(args)) in local:
        return None  # the file's own method of that name and arity
    on_types = types.get(on or "", set())
    if name == "createDurableSubscriber" and len(args) == 4:
        last, first = _one(toks, args[3]), _one(toks, args[0])
        jmx = (any(t.endswith("MBean") for t in on_types)
               or (last is not None and (last.kind == "string" or last.text == "null" or "String" in types.get(last.text, set())))
               or (first is not None and first.kind == "string"))
        if jmx and not (last is not None and last.text in ("true", "false")):
            return 3, _JMX_DURABLE
    if name == "createReceiver" and len(args) == 2:
        first = toks[args[0][0]]
        if ("Source" in types.get(first.text, set()) and args[0][1] - args[0][0] == 1) or (first.text == "new" and toks[args[0][0] + 1].text == "Source"):
            return None  # AmqpSession.createReceiver(Source source, String receiverId)
    if name in ("receiveSelectedAndConvert", "receiveSelected") and args and _is_class(toks, args[-1]) and len(args) in (2, 3):
        where = len(args) - 2
        params = ("String messageSelector, Class<T> targetClass" if where == 0 else "D destination, String messageSelector, Class<T> targetClass")
        return where, f"JmsMessagingTemplate.{name}({params})"
    if index is None:
        return None
    return index, signature


_NO_DESTINATION = {"setMessageSelector", "setSelector", "messageSelector"}


def destination_argument(name: str, arity: int, chosen: tuple[int, str]) -> int | None:
    """Which argument names the destination of a call whose selector is ``chosen``: the first
    (Destination, Queue, Topic, an address), the topic name of JMX's createDurableSubscriber, none
    for a setter or a call on the default destination (the selector first)."""
    index, signature = chosen
    if name in _NO_DESTINATION or index == 0:
        return None
    if signature == _JMX_DURABLE:
        return 2
    return 0


__all__ = ["declared_types", "destination_argument", "local_methods", "receiver", "selector_argument"]

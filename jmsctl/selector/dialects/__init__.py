"""Broker dialects: each one a frozen table of rule switches, each switch with its evidence.

The parser, checker and evaluators read the switches of the dialect they are given; a dialect is
never a second engine, with one exception measured and kept: the brokers' reading. ActiveMQ Classic
and Artemis lex lazily with JavaCC (text after a complete expression is never read) and evaluate
with Java objects (Integer vs Long comparisons, exceptions that mean "not delivered"); those two
switches (``grammar``, ``evaluation``) select ``broker_parser.py`` and ``broker_evaluator.py``
here, which build and read the same AST. Adding a dialect: one module holding ``DIALECT`` and one
line in ``_MODULES``.

    from jmsctl.selector import dialects
    dialects.get("artemis").not_binds_tighter   # True
    dialects.names()                            # ('jakarta', 'ibm', 'artemis', 'activemq')
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from importlib import import_module
from types import MappingProxyType
from typing import Any

_MODULES = ("jakarta", "ibm", "artemis", "activemq")


@dataclass(frozen=True)
class Dialect:
    """The switches, defaulting to the standard's reading; ``evidence`` says, for every switch a
    dialect sets, which engine source (or ruling) shows it."""

    name: str
    title: str
    # --- grammar and literals ---------------------------------------------------------------
    grammar: str = "jakarta"  # "jakarta" (grammar.lark) or "javacc" (the brokers' SelectorParser.jj)
    not_binds_tighter: bool = False  # NOT is a unary operator above comparison: NOT a = 1 is (NOT a) = 1
    chained_comparisons: bool = False  # a = b = c and x IS NULL IS NULL are accepted
    ascii_identifiers: bool = False  # identifiers are [A-Za-z_$][A-Za-z0-9_$]* only
    line_comments: bool = False  # '--' to a line end (the end of line is required) is skipped
    block_comments: bool = False  # /* ... */ is skipped
    blank_is_error: bool = False  # a selector of only white space is rejected
    quoted_identifiers: bool = False  # "name" (with "" for a quote) is an identifier
    function_calls: bool = False  # name(args) calls a registered function
    rewrite_delivery_mode_literals: bool = False  # 'PERSISTENT' -> 'DURABLE' in the text, quotes included
    conversion_prefix: str = ""  # a selector that begins with it is read without it, convert_string_expressions on
    hyphenated_prefix: str = ""  # a selector that begins with it is read without it, '-' allowed inside names ('no_' + it: not)
    # --- evaluation -------------------------------------------------------------------------
    evaluation: str = "jakarta"  # "jakarta" (values.py) or "java" (the brokers' filter package objects)
    ibm_whole_false: bool = False  # docs/SEMANTICS.md#ibm-dialect: a type error makes the whole selector FALSE
    integer_division_truncates: bool = True  # False: '/' always divides as double
    double_vs_float: str = "widen"  # "widen" or "float-cast-throws" (Double compared with Float)
    convert_string_expressions: bool = False  # a String compared with a number or boolean is read with its valueOf first
    header_defaults: MappingProxyType[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    field_backed_jmsx: bool = False  # JMSXGroupSeq/JMSXDeliveryCount/JMSXGroupID/JMSRedelivered are message fields
    null_names: tuple[str, ...] = ()  # names the engine reads as NULL whatever the message holds
    extra_headers: tuple[str, ...] = ()  # header names outside the javadoc's list that the engine evaluates
    evidence: MappingProxyType[str, str] = field(default_factory=lambda: MappingProxyType({}), compare=False)

    def for_selector(self, text: str) -> Dialect:
        """The dialect ``text`` is read under: with ``convert_string_expressions`` on when it begins
        with the ``conversion_prefix`` (ActiveMQ's STOMP puts it before every selector it receives)."""
        if self.conversion_prefix and not self.convert_string_expressions and text.startswith(self.conversion_prefix):
            return replace(self, convert_string_expressions=True)
        return self

    @property
    def is_broker(self) -> bool:
        """Parsed by the brokers' JavaCC grammar and evaluated with their Java objects."""
        return self.grammar == "javacc"

    def switches(self) -> dict[str, Any]:
        """Every rule switch and its value (not name, title, evidence)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("name", "title", "evidence")}


def names() -> tuple[str, ...]:
    return _MODULES


_CACHE: dict[str, Dialect] = {}


def get(name: str) -> Dialect:
    """The dialect called ``name``; ValueError naming the known ones otherwise."""
    d = _CACHE.get(name)
    if d is None:
        if name not in _MODULES:
            raise ValueError(f"unknown dialect {name!r}; expected one of {', '.join(_MODULES)}")
        d = _CACHE[name] = import_module(f"{__name__}.{name}").DIALECT
    return d


def frozen(mapping: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(dict(mapping))


__all__ = ["Dialect", "frozen", "get", "names"]

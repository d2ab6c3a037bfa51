"""Decoded values -> selector values: a value of the validating schema (``jmsctl.filter.schema``, a
bare ``str`` / ``int`` / ``float`` / ``bool`` or a typed ``T*`` Struct) becomes the ``(JType,
value)`` that ``decode.decode_value`` gives for it, and a decoded record becomes the selector view
``Message.selector_values()`` would give, for just the identifiers a selector reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import UNSET

from jmsctl.filter import schema as fs
from jmsctl.messages.decode import SPECIAL_FLOATS, decode_value
from jmsctl.messages.model import DELIVERY_MODES
from jmsctl.selector import nodes as n
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, INT, LONG, SHORT, STRING


def _typed_value(tag: str) -> Callable[[Any, str], Any]:
    def convert(v: Any, where: str) -> Any:
        return decode_value({"type": tag, "value": v.value}, where)

    return convert


# A schema value -> (JType, value), as decode.decode_value gives it. The schema has checked the
# ranges of typed integers already; floating typed values go through decode_value (float32 rounding).
CONVERT: dict[type, Callable[[Any, str], Any]] = {
    str: lambda v, where: (STRING, v),
    bool: lambda v, where: (BOOLEAN, v),
    int: decode_value,  # INT or LONG by range
    float: decode_value,  # DOUBLE, or AmbiguousNumber (a written integer beyond long?): the plain path
    fs.TBoolean: lambda v, where: (BOOLEAN, v.value),
    fs.TByte: lambda v, where: (BYTE, v.value),
    fs.TShort: lambda v, where: (SHORT, v.value),
    fs.TInt: lambda v, where: (INT, v.value),
    fs.TLong: lambda v, where: (LONG, v.value),
    fs.TFloat: _typed_value("float"),
    fs.TDouble: lambda v, where: (DOUBLE, float(v.value) if type(v.value) is not str else SPECIAL_FLOATS[v.value]),
    fs.TString: lambda v, where: (STRING, v.value),
}


def property_value(v: Any, where: str) -> Any:
    """A property value of the schema -> (JType, value), as decode.decode_value gives it."""
    return CONVERT[type(v)](v, where)


# A header's selector type; JMSDeliveryMode reads 1 / 2 as its String names, by a table.
HEADER_TYPE: dict[str, Any] = {"JMSMessageID": STRING, "JMSCorrelationID": STRING, "JMSType": STRING, "JMSPriority": INT, "JMSTimestamp": LONG,
                                # read only under a broker dialect (the checker rejects them otherwise): Message.selector_values() too
                                "JMSExpiration": LONG, "JMSRedelivered": BOOLEAN, "JMSDestination": STRING, "JMSReplyTo": STRING}
VIEW_HEADERS = frozenset(HEADER_TYPE) | {"JMSDeliveryMode"}
_BROKER_ONLY = frozenset(VIEW_HEADERS - set(n.HEADERS))
DELIVERY_VIEW: dict[Any, Any] = {written: (STRING, name) for written, name in DELIVERY_MODES.items()}


def view_function(names: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    """record -> {name: (JType, value)} for just these names, as Message.selector_values() would
    give them: headers in their selector types, a property named like a header left out."""
    headers = tuple((name, HEADER_TYPE.get(name), DELIVERY_VIEW if name == "JMSDeliveryMode" else None) for name in names if name in VIEW_HEADERS)
    props = tuple((name, f"properties.{name}") for name in names if name not in VIEW_HEADERS)
    convert = CONVERT
    # This runs for every line: the usual selector reads one header and one or two properties,
    # and those are read without a loop (a third of the view's time).
    h0, h0_type, h0_table = headers[0] if len(headers) == 1 else ("", None, None)
    p0, p0_where = props[0] if 1 <= len(props) <= 2 else ("", "")
    p1, p1_where = props[1] if len(props) == 2 else ("", "")
    loop_headers = len(headers) > 1
    loop_props = len(props) > 2

    def view_of(rec: Any) -> dict[str, Any]:
        view: dict[str, Any] = {}
        if h0:
            h = rec.headers
            if h is not UNSET:
                v = getattr(h, h0)
                if v is not None and v is not UNSET:
                    view[h0] = (h0_type, v) if h0_table is None else h0_table[v]
        elif loop_headers:
            h = rec.headers
            if h is not UNSET:
                for name, jtype, table in headers:
                    v = getattr(h, name)
                    if v is not None and v is not UNSET:
                        view[name] = (jtype, v) if table is None else table[v]
        if p0:
            p = rec.properties
            if p is not UNSET:
                v = p.get(p0)
                if v is not None:
                    view[p0] = (STRING, v) if type(v) is str else convert[type(v)](v, p0_where)
                if p1:
                    v = p.get(p1)
                    if v is not None:
                        view[p1] = (STRING, v) if type(v) is str else convert[type(v)](v, p1_where)
        elif loop_props:
            p = rec.properties
            if p is not UNSET:
                for name, where in props:
                    v = p.get(name)
                    if v is not None:
                        view[name] = (STRING, v) if type(v) is str else convert[type(v)](v, where)
        return view

    fallback = tuple((name, f"properties.{name}") for name in names if name in _BROKER_ONLY)
    if not fallback:
        return view_of

    def view_with_properties(rec: Any) -> dict[str, Any]:
        # A broker dialect's header name (JMSExpiration, ...): the header, else a property so named,
        # as Message.selector_values() gives it.
        view = view_of(rec)
        p = rec.properties
        for name, where in fallback:
            if name not in view and p is not UNSET:
                v = p.get(name)
                if v is not None:
                    view[name] = (STRING, v) if type(v) is str else convert[type(v)](v, where)
        return view

    return view_with_properties


TYPED = frozenset(fs.TYPED)
# Typed values whose schema type is their selector value as it is (ranges checked by the schema).
EXACT_TYPED = {fs.TBoolean: BOOLEAN, fs.TByte: BYTE, fs.TShort: SHORT, fs.TInt: INT, fs.TLong: LONG}


__all__ = ["CONVERT", "DELIVERY_VIEW", "EXACT_TYPED", "HEADER_TYPE", "TYPED", "VIEW_HEADERS", "property_value", "view_function"]

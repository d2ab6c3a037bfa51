"""The selector-path decode: only the headers and properties a selector reads, for ``filter``'s
default mode (not ``--stats``, ``--validate-all`` or ``--invert``).

What ``filter`` proves about a line before it counts the selector's verdict on it (the rule, in
README "What filter proves"): the line is one valid JSON object (its syntax, as msgspec parses
every byte of it, and its UTF-8); every value the selector reads is unambiguous (the record
holds ``headers`` / ``properties`` once, the identifier's key occurs once on the line, a typed
``{"type", "value"}`` value has exactly those two keys) and valid by FORMAT.md (the same msgspec
types as the full schema, ``schema.Headers`` and ``schema.Property``). What the selector does not
read (other fields, the body, the message type) is not validated: that is ``--validate-all``'s
and ``validate``'s job. Any line this decode cannot vouch for goes to the full path
(``whole.judge``: the whole record validated, the plain loader's rejection when broken),
so the verdict on a line is never a guess.

The uniqueness of the top-level ``headers`` and ``properties`` is counted per line, by the Structs
the decode makes (``Partial.made``). The uniqueness of an identifier's key is proved per chunk: a
key ``"weight"`` occurs at least once in a line whose decoded properties hold ``weight`` (no line
here holds a ``\\u`` escape, the only other spelling of such a key), so when the chunk's count of
``"weight"`` equals the number of lines that hold it, no line holds it twice (``Partial.keys``
are the byte strings counted; one scan of the chunk each).
"""

from __future__ import annotations

import re
import typing
from dataclasses import dataclass
from typing import Any, Union

import msgspec
from msgspec import UNSET, Raw, UnsetType

from jmsctl.filter import schema as fs
from jmsctl.filter.plan import FilterPlan
from jmsctl.selector import dialects
from jmsctl.selector import nodes as n

# A key spelled only one way in JSON text without \u escapes: no character with a short escape.
_UNSAFE = frozenset('"\\/')


@dataclass(frozen=True)
class Partial:
    """A selector's path decoder: ``decode(line)`` -> a record with ``headers`` (a Struct of just
    the headers read, or UNSET; no such attribute when the selector reads no header) and
    ``properties`` (a Struct of the properties read, each as the whole schema reads a property
    value, or UNSET; no such attribute when it reads no property); ``keys``: the identifiers' keys as they are spelled
    on a line, to be counted; ``made``: the headers and properties Structs that ``decode`` made
    since it was last cleared (msgspec calls its ``append`` with each one: a line that repeats
    ``headers`` or ``properties`` makes two)."""

    decode: Any
    headers: tuple[str, ...]
    properties: tuple[str, ...]
    keys: tuple[bytes, ...]
    made: list[Any]
    # The same decode with each property kept as its raw JSON text (``Raw``), and the decoder of a
    # JSON array of property values (the Raws joined): the column path's way to prove a typed value's two members by counting
    # the colons of its own text (``filter.columnpath``). None when the selector reads no property.
    raw_decode: Any = None
    values_decode: Any = None
    # ``decode`` and ``raw_decode`` of a whole chunk of lines, as a sequence of JSON values (``decode_lines``):
    # ``filter.columnpath.process_uncut`` proves that each value is one line.
    decode_lines: Any = None
    raw_decode_lines: Any = None


def partial_for(plan: FilterPlan, dialect: str = "jakarta") -> Partial | None:
    """The path decoder of a plan; None when a name cannot be counted safely (a quote, backslash
    or slash in it), the selector reads nothing, reads a header outside the selector's six (a
    broker's JMSExpiration, ...: the header, else a property so named) or is read by a broker
    dialect (its evaluator reads more than the view): the whole record is validated then."""
    names = plan.identifiers
    if not names or any(ch in _UNSAFE for name in names for ch in name) or dialects.get(dialect).is_broker:
        return None
    if any(name in fs.Headers.__struct_fields__ and name not in n.HEADERS for name in names):
        return None
    headers = tuple(name for name in names if name in n.HEADERS)
    props = tuple(name for name in names if name not in n.HEADERS)
    # include_extras: the Annotated ranges (JMSPriority 0..9, long timestamps) stay on the types;
    # without it get_type_hints strips them and 12 would decode as a priority.
    hints = typing.get_type_hints(fs.Headers, include_extras=True)
    made: list[Any] = []
    fields: list[Any] = []
    keys: list[bytes] = []
    if headers:
        h = msgspec.defstruct("PathHeaders", [(name, hints[name], UNSET) for name in headers], gc=False, namespace={"__post_init__": made.append})
        fields.append(("headers", Union[h, UnsetType], UNSET))  # noqa: UP007
        keys += [f'"{name}"'.encode() for name in headers]
    # A part the selector does not read is no field: msgspec parses it as it parses any other key's
    # value (every byte), and makes nothing of it (a Raw a line was 3-4 % of the decode's time).
    if props:
        fields_p = [(name, Union[fs.Property, UnsetType], UNSET) for name in props]  # noqa: UP007
        p = msgspec.defstruct("PathProperties", fields_p, gc=False, namespace={"__post_init__": made.append})
        fields.append(("properties", Union[p, UnsetType], UNSET))  # noqa: UP007
        keys += [f'"{name}"'.encode("utf-8", "surrogatepass") for name in props]
    record = msgspec.defstruct("PathRecord", fields, gc=False)
    raw = values_decode = None
    if props:
        raw_p = msgspec.defstruct("PathRawProperties", [(name, Union[Raw, UnsetType], UNSET) for name in props], gc=False, namespace={"__post_init__": made.append})  # noqa: UP007
        raw_record = msgspec.defstruct("PathRawRecord", [*fields[:-1], ("properties", Union[raw_p, UnsetType], UNSET)], gc=False)  # noqa: UP007
        raw = msgspec.json.Decoder(raw_record)
        values_decode = msgspec.json.Decoder(list[fs.Property]).decode  # type: ignore[valid-type]
    plain = msgspec.json.Decoder(record)
    return Partial(plain.decode, headers, props, tuple(keys), made, raw and raw.decode, values_decode, plain.decode_lines, raw and raw.decode_lines)


_ESCAPE = re.compile(rb"\\u").search


def has_escape(text: bytes) -> bool:
    """Whether ``text`` holds a ``\\u`` escape (a key may be spelled another way then: the
    counts prove nothing about it). A backslash is looked for first (memchr: most chunks hold none)."""
    return b"\\" in text and _ESCAPE(text) is not None


def utf8(data: bytes) -> bool:
    """Whether ``data`` is valid UTF-8 (msgspec does not check every string it skips)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


__all__ = ["Partial", "has_escape", "partial_for", "utf8"]

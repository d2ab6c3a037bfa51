"""Messages (and rejected records) -> findings: property names, values, headers and an optional schema.

Pure checking, no printing: ``check_record`` turns one loader ``Record`` into a list of ``Finding``s,
each with a stable code (``CODES``), a severity, the record location, the field path and a message.
The rules are the javadoc's ("Message Properties", "Message Headers") with docs/SEMANTICS.md#property-names:

- a property name is a selector identifier (docs/SEMANTICS.md#identifiers): Java identifier characters, not a keyword in
  any ASCII case; ``JMSX`` names are the spec's with their types; ``JMS_`` names are provider-specific;
  every other ``JMS`` name is reserved;
- a schema (name -> getter type) is checked with the conversion table and Java's ``valueOf`` rules
  (``jmsctl.messages.conversion``): what ``getIntProperty("weight")`` would do on each message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from jmsctl.diagnostics import Severity
from jmsctl.exceptions import MessageFormatException, NullPointerException, NumberFormatException
from jmsctl.messages.conversion import read_as
from jmsctl.messages.loader import Record
from jmsctl.messages.model import Message
from jmsctl.spec import HEADER_NAMES, HEADERS, IDENTIFIER, IDENTIFIER_PART_CHAR, IDENTIFIER_START_CHAR, JMSX_TYPES, KEYWORDS
from jmsctl.values import STRING, JType, TypedValue, format_value

ERROR, WARNING = Severity.ERROR, Severity.WARNING


class Code(NamedTuple):
    severity: Severity
    kind: str  # record, name, value, header, schema
    description: str


CODES: dict[str, Code] = {
    "R001": Code(ERROR, "record", "invalid JSON, invalid UTF-8, or over the maximum record size: the record cannot be read"),
    "R002": Code(ERROR, "record", "not a message: not a JSON object, an unknown top-level key, a type or body that do not match"),
    "R003": Code(ERROR, "record", "invalid header: unknown header name, or a value of the wrong type or range"),
    "R004": Code(ERROR, "record", "invalid property value: wrong shape, unknown type, or out of the type's range"),
    "N001": Code(ERROR, "name", "empty property name"),
    "N002": Code(ERROR, "name", "property name is not a selector identifier (Java identifier characters)"),
    "N003": Code(ERROR, "name", "property name is a selector keyword (NOT AND OR BETWEEN LIKE IN IS ESCAPE NULL TRUE FALSE)"),
    "N004": Code(ERROR, "name", "property name starts with 'JMS' but is neither a JMSX nor a JMS_ name (reserved)"),
    "N005": Code(ERROR, "name", "a header name used as a property name"),
    "N006": Code(WARNING, "name", "JMSX name that the specification does not define"),
    "N007": Code(ERROR, "name", "JMSX property with a type other than the specification's"),
    "V001": Code(WARNING, "value", "property written as JSON null: not a property value, selectors see it as absent"),
    "H001": Code(WARNING, "header", "JMSMessageID does not start with 'ID:'"),
    "H002": Code(ERROR, "header", "JMSPriority outside 0..9"),
    "H003": Code(WARNING, "header", "negative JMSTimestamp, JMSExpiration or JMSDeliveryTime"),
    "H004": Code(WARNING, "header", "JMSDestination or JMSReplyTo not of the form queue://name or topic://name (or temp-queue://, temp-topic://)"),
    "S001": Code(ERROR, "schema", "schema getter refused by the conversion table (MessageFormatException)"),
    "S002": Code(ERROR, "schema", "String value that the getter's valueOf rejects (NumberFormatException)"),
    "S003": Code(WARNING, "schema", "absent property read with a numeric getter: valueOf(null) throws"),
}


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    location: str  # file:line or file:[index], as the loader names records
    field: str  # properties.weight, headers.JMSPriority; "" for the record as a whole
    message: str

    @property
    def severity(self) -> Severity:
        return CODES[self.code].severity

    @property
    def kind(self) -> str:
        return CODES[self.code].kind

    @property
    def is_error(self) -> bool:
        return self.severity is ERROR

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "severity": self.severity.value, "kind": self.kind,
                "location": self.location, "field": self.field, "message": self.message}


# ----- schema ------------------------------------------------------------------------------------

# A schema maps a property name to the getter that reads it; None is getObjectProperty (reads anything).
Schema = dict[str, JType | None]

SCHEMA_TYPES: dict[str, JType | None] = {
    "boolean": JType.BOOLEAN, "byte": JType.BYTE, "short": JType.SHORT, "int": JType.INT, "long": JType.LONG,
    "float": JType.FLOAT, "double": JType.DOUBLE, "String": JType.STRING, "string": JType.STRING, "object": None,
}
_SCHEMA_NAMES = "boolean byte short int long float double String object"


class SchemaError(Exception):
    """A schema that cannot be used; ``problems`` lists every reason (exit status 2 in the CLI)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def parse_schema(data: bytes | str) -> Schema:
    """Schema text (a JSON object name -> getter type) -> Schema, or SchemaError naming every problem."""
    try:
        pairs = json.loads(data, object_pairs_hook=_pairs)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SchemaError([f"not valid JSON: {exc}"]) from None
    if not isinstance(pairs, _Pairs):
        raise SchemaError([f"a schema is a JSON object of property name -> type, not a {_kind(pairs)}"])
    problems: list[str] = []
    schema: Schema = {}
    for name, kind in pairs:
        if name in schema:
            problems.append(f"property {name!r} is given twice")
        elif not isinstance(kind, str) or kind not in SCHEMA_TYPES:
            problems.append(f"property {name!r}: type {json.dumps(kind)} is not one of {_SCHEMA_NAMES}")
        else:
            schema[name] = SCHEMA_TYPES[kind]
    if problems:
        raise SchemaError(problems)
    return schema


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its key/value pairs in order (so duplicate keys can be reported)."""


def _pairs(items: list[tuple[str, Any]]) -> _Pairs:
    return _Pairs(items)


def _kind(v: Any) -> str:
    return {list: "JSON array", str: "JSON string", bool: "JSON boolean", type(None): "JSON null"}.get(type(v), "JSON number")


def getter(target: JType | None) -> str:
    if target is None:
        return "getObjectProperty"
    return f"get{'String' if target is STRING else target.java_name.capitalize()}Property"


_BOX = {JType.BYTE: "Byte", JType.SHORT: "Short", JType.INT: "Integer", JType.LONG: "Long",
        JType.FLOAT: "Float", JType.DOUBLE: "Double", JType.BOOLEAN: "Boolean"}


def _check_schema(msg: Message, location: str, schema: Schema) -> Iterator[Finding]:
    for name, target in schema.items():
        if target is None:
            continue  # getObjectProperty reads every value, and null when absent
        value = msg.properties.get(name)
        where = _field(name)
        call = f"{getter(target)}({json.dumps(name, ensure_ascii=False)})"
        try:
            read_as(value, target)
        except MessageFormatException as exc:
            yield Finding("S001", location, where, f"{call} throws MessageFormatException: {_held(value)}; {exc}")
        except (NumberFormatException, NullPointerException) as exc:
            java = type(exc).__name__
            if value is None:
                absent = "written as JSON null (absent)" if name in msg.null_properties else "absent"
                yield Finding("S003", location, where,
                              f"{call} throws {java}: the property is {absent}, and {_BOX[target]}.valueOf(null) fails")
            else:
                yield Finding("S002", location, where, f"{call} throws {java}: {_BOX[target]}.valueOf rejects {_held(value)}; {exc}")


def _held(value: TypedValue | None) -> str:
    return "the property is absent" if value is None else f"the value is {format_value(value)}"


# ----- names, values, headers ----------------------------------------------------------------------

_DESTINATION = re.compile(r"(queue|topic|temp-queue|temp-topic)://.+", re.DOTALL)


def _field(name: str) -> str:
    return f"properties.{name}" if name else 'properties[""]'


def _char(ch: str) -> str:
    return f"{ch!r} (U+{ord(ch):04X})"


def check_name(name: str, value: TypedValue | None, location: str) -> Iterator[Finding]:
    """The javadoc: 'Property names must obey the rules for a message selector identifier', plus the
    reserved prefixes: JMSX (the spec's names and types), JMS_ (provider), any other JMS (reserved)."""
    where = _field(name)
    if not name:
        yield Finding("N001", location, where, "a property name must not be empty (the javadoc: IllegalArgumentException)")
        return
    if IDENTIFIER.fullmatch(name) is None:
        yield Finding("N002", location, where, f"property name {name!r} is not a selector identifier: {_bad_char(name)}")
        return
    if name.isascii() and name.upper() in KEYWORDS:  # keywords are ASCII, case-insensitive (docs/SEMANTICS.md#keywords)
        yield Finding("N003", location, where, f"property name {name!r} is the selector keyword {name.upper()}: no selector can name it")
        return
    if name.startswith("JMSX"):
        yield from _check_jmsx(name, value, location, where)
    elif name.startswith("JMS_"):
        return  # provider-specific (JMS_vendor_name): fine
    elif name in HEADER_NAMES:
        seen = "selectors read the header, never this property" if name in HEADERS else "it is not selectable either"
        yield Finding("N005", location, where,
                      f"{name!r} is a header name, not a property: put it under \"headers\" ({seen}); "
                      "names starting with JMS are reserved")
    elif name.startswith("JMS"):
        yield Finding("N004", location, where,
                      f"property name {name!r} starts with 'JMS' but is neither a JMSX nor a JMS_ name: the prefix is reserved")


def _bad_char(name: str) -> str:
    if IDENTIFIER_START_CHAR.match(name) is None:
        return f"it starts with {_char(name[0])}; the first character must be a Java identifier start (a letter, '$', '_')"
    part = IDENTIFIER_PART_CHAR.for_text(name)
    i = next(i for i in range(1, len(name)) if part.match(name, i) is None)
    return f"character {_char(name[i])} at index {i} is not a Java identifier part (letters, digits, '$', '_')"


def _check_jmsx(name: str, value: TypedValue | None, location: str, where: str) -> Iterator[Finding]:
    expected = JMSX_TYPES.get(name)
    if expected is None:
        known = ", ".join(JMSX_TYPES)
        yield Finding("N006", location, where, f"{name!r} is not a JMSX name the specification defines (they are {known})")
        return
    jt = JType.from_name(expected)
    if value is not None and value[0] is not jt:
        hint = ""
        if jt is JType.LONG and value[0] is JType.INT:
            hint = f"; a bare integer in the int range is an int: write {{\"type\": \"long\", \"value\": {value[1]}}}"
        yield Finding("N007", location, where, f"{name} is {expected} in the specification, not {value[0].java_name} ({format_value(value)}){hint}")


def check_headers(headers: dict[str, Any], location: str) -> Iterator[Finding]:
    """Values the loader accepts but that no provider would set (FORMAT.md 'Headers')."""
    mid = headers.get("JMSMessageID")
    if isinstance(mid, str) and not mid.startswith("ID:"):
        yield Finding("H001", location, "headers.JMSMessageID",
                      f"JMSMessageID {mid!r} does not start with 'ID:' (the javadoc: every message ID starts with the prefix 'ID:')")
    prio = headers.get("JMSPriority")
    if isinstance(prio, int) and not 0 <= prio <= 9:
        yield Finding("H002", location, "headers.JMSPriority", f"JMSPriority {prio} is outside 0..9")
    for name in ("JMSTimestamp", "JMSExpiration", "JMSDeliveryTime"):
        v = headers.get(name)
        if isinstance(v, int) and v < 0:
            yield Finding("H003", location, f"headers.{name}", f"{name} {v} is negative: it is milliseconds since the epoch (0 for none)")
    for name in ("JMSDestination", "JMSReplyTo"):
        v = headers.get(name)
        if isinstance(v, str) and _DESTINATION.fullmatch(v) is None:
            yield Finding("H004", location, f"headers.{name}", f"{name} {v!r} is not of the form queue://name or topic://name (temp-queue://, temp-topic:// also pass)")


def check_message(msg: Message, location: str, schema: Schema | None = None) -> list[Finding]:
    """Every finding for one decoded message, in field order: headers, properties, schema."""
    out = list(check_headers(msg.headers, location))
    for name, value in msg.properties.items():
        out.extend(check_name(name, value, location))
    for name in msg.null_properties:
        out.extend(check_name(name, None, location))
        out.append(Finding("V001", location, _field(name),
                           f"{name!r} is JSON null, which is not a property value: selectors see it as absent (NULL); "
                           "omit the property or give it a value"))
    if schema:
        out.extend(_check_schema(msg, location, schema))
    return out


def check_record(record: Record, schema: Schema | None = None) -> list[Finding]:
    """The findings for one loader record: its rejection (R...), or the checks of its message."""
    if record.error is not None:
        err = record.error
        if not err.field and err.reason.startswith(("invalid JSON", "record too large")):
            code = "R001"
        elif err.field.startswith("headers."):
            code = "R003"
        elif err.field.startswith("properties."):
            code = "R004"
        else:
            code = "R002"
        return [Finding(code, record.location, err.field, err.reason)]
    assert record.message is not None
    return check_message(record.message, record.location, schema)


# ----- summary -------------------------------------------------------------------------------------


@dataclass
class Summary:
    """Counts per code (and the first location of each), in constant memory.

    ``records == messages + rejected`` and ``errors + warnings == sum(by_code counts)``.
    """

    records: int = 0
    messages: int = 0
    rejected: int = 0
    errors: int = 0
    warnings: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    first: dict[str, str] = field(default_factory=dict)

    def add_record(self, record: Record) -> None:
        self.records += 1
        if record.error is None:
            self.messages += 1
        else:
            self.rejected += 1

    def add(self, finding: Finding) -> None:
        if finding.is_error:
            self.errors += 1
        else:
            self.warnings += 1
        self.counts[finding.code] = self.counts.get(finding.code, 0) + 1
        self.first.setdefault(finding.code, finding.location)

    def by_code(self) -> list[dict[str, Any]]:
        return [{"code": c, "severity": CODES[c].severity.value, "kind": CODES[c].kind, "count": self.counts[c],
                 "description": CODES[c].description, "first": self.first[c]} for c in sorted(self.counts)]

    def to_dict(self) -> dict[str, Any]:
        return {"records": self.records, "messages": self.messages, "rejected": self.rejected,
                "errors": self.errors, "warnings": self.warnings, "by_code": self.by_code()}


def validate(records: Iterable[Record], schema: Schema | None = None, summary: Summary | None = None) -> Iterator[Finding]:
    """The findings of a record stream, as they come; ``summary`` is updated on the way."""
    for record in records:
        if summary is not None:
            summary.add_record(record)
        for finding in check_record(record, schema):
            if summary is not None:
                summary.add(finding)
            yield finding

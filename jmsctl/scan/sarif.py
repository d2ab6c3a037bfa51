"""SARIF 2.1.0 (OASIS) for ``jmsctl scan --format sarif``: one result per diagnostic, located at the
file's line and column (code points: ``columnKind``), with one rule per diagnostic code, so that
GitHub code scanning shows each error on its line. Paths are relative to the working directory
(``%SRCROOT%``), as GitHub's upload expects for a checkout."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from jmsctl.diagnostics import Diagnostic, Severity, locate

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}

# Short descriptions of the codes (README's table); a code not listed takes its first message.
RULES = {
    "E001": "unexpected character", "E002": "syntax error", "E003": "unexpected end of selector",
    "E004": "unterminated string literal", "E005": "double quotes do not delimit strings",
    "E006": "'!=' is not an operator (write '<>')", "E007": "'==' is not an operator (write '=')",
    "E008": "SQL comments are not supported", "E010": "malformed numeric literal", "E011": "integer literal out of range",
    "E012": "floating literal overflows or underflows", "E013": "octal literal with digit 8 or 9",
    "E014": "reserved word used as an identifier", "E015": "NULL outside IS [NOT] NULL",
    "E016": "NOT before a comparison (not-equal is '<>')", "E017": "selector still URL-encoded",
    "E018": "a template, not a selector", "E101": "not a condition", "E102": "a condition used as a value",
    "E104": "IN / LIKE / IS NULL need an identifier", "E105": "IN list items must be string literals",
    "E106": "LIKE pattern must be a string literal", "E107": "ESCAPE takes one character",
    "E108": "LIKE escape not followed by _, % or itself", "E109": "string or boolean in arithmetic",
    "E110": "string or boolean in BETWEEN", "E111": "ordering comparison of a string or boolean",
    "E112": "comparison of unlike literal types", "E113": "JMS name that is not a selectable header",
    "E120": "nesting too deep", "E121": "selector too long", "W001": "octal literal", "W002": "header compared with a value it never has",
    "W003": "a-b is a subtraction", "W004": "JMSX name not defined by the specification", "W006": "IN / LIKE on a non-String header",
    "W009": "'--' is not a comment", "W010": "numeric expression compared with a String or boolean",
    "W011": "NOT a = 1 binds differently on ActiveMQ and Artemis", "W012": "float compared with a double literal",
    "W013": "more diagnostics not reported", "W014": "wrong-case header name",
    "W015": "template placeholder inside a string literal", "W016": "unquoted word compared with a property",
    "W017": "one string holding a list inside IN", "W018": "bare identifier as the whole selector",
    "W019": "endpoint URI cuts the selector at '&'",
    "I001": "selector built at run time: not checked whole", "I002": "file not scanned",
    "E130": "the broker rejects the selector", "W130": "a header the standard does not let a selector read",
    "E131": "XPATH / XQUERY selector not evaluated", "E132": "function call not evaluated",
}


def _uri(path: str) -> str:
    rel = os.path.relpath(path) if os.path.isabs(path) or not path.startswith("..") else path
    rel = rel.replace(os.sep, "/")
    return quote(rel[2:] if rel.startswith("./") else rel)  # a URI reference: spaces and '%' escaped


def document(items: Iterable[tuple[str, str, Diagnostic]], version: str) -> dict[str, Any]:
    """``items``: (path, file text, diagnostic in file offsets) in report order."""
    rules: dict[str, dict[str, Any]] = {}
    results = []
    for path, text, d in items:
        if d.code not in rules:
            rules[d.code] = _rule(d)
        start, end = locate(text, d.span.start), locate(text, d.span.end)
        message = d.message if not d.hint else f"{d.message} (hint: {d.hint})"
        region: dict[str, Any] = {"startLine": start.line, "startColumn": start.column,
                                  "endLine": end.line, "endColumn": max(end.column, start.column) if end.line == start.line else end.column,
                                  "snippet": {"text": start.line_text}}
        results.append({
            "ruleId": d.code,
            "ruleIndex": list(rules).index(d.code),
            "level": _LEVELS[d.severity],
            "message": {"text": message},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(path), "uriBaseId": "%SRCROOT%"}, "region": region}}],
        })
    cwd = os.getcwd().replace(os.sep, "/")
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "jmsctl", "version": version, "rules": list(rules.values())}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": "file://" + ("" if cwd.startswith("/") else "/") + cwd.rstrip("/") + "/"}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def _rule(d: Diagnostic) -> dict[str, Any]:
    short = RULES.get(d.code, d.message)
    return {
        "id": d.code,
        "name": d.code,
        "shortDescription": {"text": short},
        "fullDescription": {"text": f"JMS message selector: {short}"},
        "help": {"text": "Run 'jmsctl check' on the selector for the full diagnostic; the README lists every code."},
        "defaultConfiguration": {"level": _LEVELS[d.severity]},
        "properties": {"tags": ["jms", "selector"]},
    }

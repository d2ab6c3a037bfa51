"""Second looks at a syntax error: text that is not a selector yet, but a template or a URL.

Both come from where selectors live (issue 16): a ``${selector}`` placeholder of Spring or Maven,
``%s`` of String.format, ``{0}`` of MessageFormat; and a selector copied out of a Camel endpoint URI
still URL-encoded (``color%3D%27blue%27``). The parser's own error there ("unexpected character
'%'") is right but does not help; these say what the text is. Only called on a syntax error, so a
valid selector is never second-guessed.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

from jmsctl.diagnostics import Diagnostic, Span, error
from jmsctl.selector.limits import clip

# ${name} (Spring, Maven, shells), #{expr} (SpEL), {{name}} (Camel), {0} (MessageFormat), %s %d %1$s (printf).
TEMPLATE = re.compile(r"\$\{[^{}\n]*\}|#\{[^{}\n]*\}|\{\{[^{}\n]*\}\}|\{[0-9]+(?:,[^{}\n]*)?\}")
PRINTF = re.compile(r"%(?:[0-9]+\$)?[-#+ 0,(]*[0-9]*(?:\.[0-9]+)?[sdfxXcbeEgGn]")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_QUOTED = re.compile(r"'[^']*(?:''[^']*)*'")


def outside_quotes(text: str) -> str:
    """The text with the insides of string literals blanked (same length: offsets stay)."""
    return _QUOTED.sub(lambda m: "'" + " " * (len(m.group()) - 2) + "'", text)


def refine(text: str, diag: Diagnostic) -> Diagnostic:
    """A clearer diagnostic for a template or a URL-encoded selector; else ``diag`` itself.

    ``%2d`` is both printf and URL encoding: ${..}, #{..} and {0} are looked for first, then
    URL encoding (%XX with hex digits), then printf's %s."""
    bare = outside_quotes(text)
    found = TEMPLATE.search(bare)
    if found is None:
        url = _url_encoded(text, bare)
        if url is not None:
            return url
        found = PRINTF.search(bare)
    if found is not None:
        shown = text[found.start() : found.end()]
        return error("E018", f"this is a template, not a selector: {clip(shown)} is filled in at run time", Span(*found.span()),
                     hint="check the selector the template produces, or scan the source with 'jmsctl scan', which checks the constant parts")
    return diag


def _url_encoded(text: str, bare: str) -> Diagnostic | None:
    encoded = _PERCENT.search(bare)
    if encoded is None and ("+" not in bare or " " in text.strip()):
        return None
    decoded = unquote_plus(text)
    if decoded == text or (encoded is None and not _parses(decoded)):
        return None
    at = encoded.start() if encoded is not None else bare.index("+")
    held = TEMPLATE.search(decoded) or PRINTF.search(outside_quotes(decoded))
    also = f"; it also holds the placeholder {clip(held.group())}, compared as text unless something fills it in first (W015)" if held else ""
    return error("E017", f"the selector is still URL-encoded: decoded it reads {clip(decoded)}{also}", Span(at, at + (3 if encoded else 1)),
                 hint="decode it where it is copied from an endpoint URI (%27 is ', %3D is =, + is a space)")


def _parses(text: str) -> bool:
    from jmsctl.diagnostics import SelectorError
    from jmsctl.selector.parser import parse

    try:
        parse(text)
    except SelectorError:
        return False
    return True

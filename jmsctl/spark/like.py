"""``x LIKE pattern [ESCAPE c]`` as a Spark Column, without Spark's LIKE.

Spark's LIKE treats a backslash as an escape even without an ESCAPE clause, and its translation of
``%`` to ``.*`` backtracks polynomially (``%a%a%a%a%a%a%a%a%b`` on a long value never finishes). This
uses the local matcher's split (``jmsctl.selector.like.split_pattern``): segments between the ``%``
wildcards, each of fixed width (``_`` is any one character, line terminators included).

- no ``%``: equality, or an anchored regex of fixed width when there is a ``_``;
- ``%`` only at the ends and no ``_``: startswith / endswith (with a length check so that the two
  ends cannot overlap) / contains;
- otherwise one Java regex: ``(?s)\\A first (?>.*?middle1) (?>.*?middle2) ... .* last\\z``. Each middle
  segment is matched leftmost inside an atomic group, which the engine cannot backtrack into, and
  leftmost placement is always right because a ``%`` absorbs any gap (the argument of the local
  matcher): the match is linear in the value length, whatever the pattern.

Every pattern character is written ``\\x{hex}`` (letters and digits as themselves), so no character
is a regex metacharacter, and ``(?s)`` makes ``.`` match line terminators too (Java's ``.`` does not
match \\n, \\r, \\u0085, \\u2028, \\u2029 otherwise). Java regexes and Spark's ``length`` work on code
points, as Python's ``str`` does locally, so ``_`` is one code point in both engines.
"""

from __future__ import annotations

from pyspark.sql import Column
from pyspark.sql import functions as F

from jmsctl.selector.like import Segment, split_pattern
from jmsctl.spark.javaops import lit, null


def _char(c: str | None) -> str:
    if c is None:
        return "."
    if c.isascii() and c.isalnum():
        return c
    return f"\\x{{{ord(c):x}}}"


def _regex(seg: Segment) -> str:
    return "".join(_char(c) for c in seg)


def _literal(seg: Segment) -> str | None:
    """The segment as plain text, or None when it has a '_'."""
    return None if None in seg else "".join(seg)  # type: ignore[arg-type]


def like_regex(pattern: str, escape: str | None) -> str:
    """The Java regex (for ``rlike``, which finds) that matches exactly what the pattern matches."""
    segments = split_pattern(pattern, escape)
    if len(segments) == 1:
        return "(?s)\\A" + _regex(segments[0]) + "\\z"
    first, last = segments[0], segments[-1]
    middle = "".join("(?>.*?" + _regex(seg) + ")" for seg in segments[1:-1] if seg)
    return "(?s)\\A" + _regex(first) + middle + ".*" + _regex(last) + "\\z"


def like_column(s: Column, pattern: str, escape: str | None) -> Column:
    """Whether the String column ``s`` matches; NULL where ``s`` is NULL."""
    segments = split_pattern(pattern, escape)
    first, last = segments[0], segments[-1]
    middle = [seg for seg in segments[1:-1] if seg]
    if any(None in seg for seg in segments):
        return s.rlike(like_regex(pattern, escape))  # a '_' somewhere
    if len(segments) == 1:
        return s == lit(_literal(first))
    if middle:
        if len(middle) == 1 and not first and not last:
            return s.contains(lit(_literal(middle[0])))
        return s.rlike(like_regex(pattern, escape))
    return _ends(s, _literal(first) or "", _literal(last) or "")


def _ends(s: Column, first: str, last: str) -> Column:
    """``first%last`` without '_': prefix and suffix that do not overlap."""
    if not first and not last:
        return s.isNotNull() | null("boolean")  # '%', '%%': TRUE for any String, NULL for NULL
    if not last:
        return s.startswith(lit(first))
    if not first:
        return s.endswith(lit(last))
    return s.startswith(lit(first)) & s.endswith(lit(last)) & (F.length(s) >= len(first) + len(last))

"""The console script's entry (``jmsctl``, ``python -m jmsctl``): what can be answered without the
command-line framework is answered here, before typer, click and the commands load (issue 36: half of
``jmsctl --version``'s start-up was importing typer). Two requests are answered at once:

- ``jmsctl --version`` (alone);
- bash's Tab completion of a command's option names (``_JMSCTL_COMPLETE=complete_bash``, the word being
  completed starts with ``-``, no option given before it): from the table ``completion_table`` keeps of
  what typer answers for each command, used only while the sources it was made from are unchanged.

Anything else, and anything these do not recognise exactly, goes to ``jmsctl.cli.app.main``, which answers
everything (these two included) through typer. Only the standard library is imported here.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    """Entry point (pyproject's ``[project.scripts]``)."""
    answer = at_once(sys.argv[1:], os.environ)
    if answer is not None:
        _write(answer)
        return
    from jmsctl.cli.app import main as full

    full()


def at_once(args: list[str], env: os._Environ[str] | dict[str, str]) -> str | None:
    """The output of ``jmsctl ARGS`` in environment ``env`` when it is answered without typer; None:
    the command line decides (and answers the same)."""
    if args == ["--version"] and not any(name.startswith("_JMSCTL_COMPLETE") for name in env):
        from jmsctl._version import VERSION

        return f"jmsctl {VERSION}\n"
    if env.get("_JMSCTL_COMPLETE") == "complete_bash" and not args:
        return _bash_options(env.get("COMP_WORDS", ""), env.get("COMP_CWORD", ""))
    return None


def _bash_options(words: str, cword: str) -> str | None:
    """typer's answer to bash for ``jmsctl COMMAND [WORD...] -PREFIX`` (the words before the prefix not
    options), or None. typer splits COMP_WORDS with shlex and answers the option names of the command,
    in its order, that start with the prefix, one a line (a newline after the last, or alone when none does)."""
    if "-" not in words or not cword.isdigit():
        return None
    import shlex

    try:
        lex = shlex.shlex(words, posix=True)
        lex.whitespace_split, lex.commenters = True, ""
        split = list(lex)
    except ValueError:  # an unclosed quote: typer's own splitting keeps the partial word
        return None
    at = int(cword)
    if not 2 <= at < len(split):
        return None
    incomplete, before = split[at], split[1:at]
    if not incomplete.startswith("-") or "=" in incomplete or any(word.startswith("-") for word in before):
        return None
    from jmsctl.cli import completion_table

    names = completion_table.options(before[0])
    if names is None:
        return None
    return "".join(f"{name}\n" for name in names if name.startswith(incomplete)) or "\n"


def _write(text: str) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # as jmsctl.cli.app.main: a closed pipe ends quietly (status 141)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(141)


__all__ = ["at_once", "main"]

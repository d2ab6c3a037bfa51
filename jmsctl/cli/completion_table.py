"""Each command's option names as typer completes them, kept so that Tab after ``jmsctl filter --st``
is answered without loading typer (``entry``). Made by ``python -m jmsctl.cli.completion_table`` from
typer's own answers; each command's row holds a checksum (CRC-32) of the sources its options come from
(its module and the ``jmsctl.cli`` modules it imports that define options): a row whose sources changed since is
not used (typer answers, slower, never otherwise), and tests/test_startup_imports.py says to make the
table again. The brokers' commands are left to typer (their options change often)."""

from __future__ import annotations

import os
import re
import zlib

_CLI = os.path.dirname(os.path.abspath(__file__))

# command -> (checksum of its sources, its option names in typer's order); written by write() below
TABLE: dict[str, tuple[int, tuple[str, ...]]] = {
    "check": (1238510487, ("--file", "-f", "--format", "--strict", "--dialect", "--portability", "--against", "--mistyped", "--solver-timeout", "--fix", "--diff", "--like", "--properties", "--help",)),
    "explain": (3281678878, ("--message", "--id", "--format", "--dialect", "--max-record-size", "--from", "--types", "--help",)),
    "test": (3582785566, ("--format", "--verbose", "--help",)),
    "scan": (1569999097, ("--include", "--exclude", "--format", "--strict", "--dialect", "--portability", "--against", "--mistyped", "--like", "--properties", "--solver-timeout", "--fix", "--diff", "--help",)),
    "diff": (3420944517, ("--file", "-f", "--dialect", "--timeout", "--rlimit", "--witness", "--format", "--help",)),
    "overlap": (3532993515, ("--file", "-f", "--dialect", "--timeout", "--rlimit", "--witness", "--all", "--format", "--help",)),
    "coverage": (257587754, ("--file", "-f", "--given", "--like", "--dialect", "--timeout", "--rlimit", "--witness", "--format", "--help",)),
    "filter": (2083088022, ("--file", "-f", "--count", "-c", "--invert", "-v", "--max-count", "-m", "--format", "--output", "-o", "--explain", "--stats", "--dialect", "--skip-invalid", "--validate-all", "--jobs", "-j", "--max-record-size", "--from", "--types", "--quiet", "-q", "--help",)),
    "show": (3333348965, ("--index", "--id", "--where", "-w", "--dialect", "--format", "--max-record-size", "--from", "--types", "--quiet", "-q", "--help",)),
    "get": (1462747218, ("--as", "--index", "-i", "--max-record-size", "--from", "--types", "--help",)),
    "table": (2240855481, ("--format", "--help",)),
    "validate": (4006640207, ("--schema", "--format", "--max-record-size", "--from", "--help",)),
    "convert": (305859077, ("--output", "-o", "--from", "--to", "--skip-invalid", "--stats", "--max-record-size", "--help",)),
    "profile": (4025599830, ("--format", "--top", "--output", "-o", "--skip-invalid", "--max-record-size", "--from", "--types", "--help",)),
    "docs": (3782355378, ("--path", "--help",)),
}

_LEFT_OUT = frozenset({"browse", "send", "watch", "move", "copy", "purge", "spark"})


def options(command: str) -> tuple[str, ...] | None:
    """The option names of ``command`` when its row is current; None: ask typer."""
    row = TABLE.get(command)
    if row is None or checksum(command) != row[0]:
        return None
    return row[1]


def sources(command: str) -> list[str]:
    """The files a command's options are read from: its module and the jmsctl.cli modules it imports
    that define options (``Option(`` in their text: options.py, selecting.py); app.py's ``finish``
    changes no option's name."""
    module = _module(command)
    if module is None:
        return []
    path = os.path.join(os.path.dirname(_CLI), *module.split(".")[1:]) + ".py"
    files = [path]
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return files
    for name in re.findall(r"^from jmsctl\.cli\.(\w+) import", text, re.M):
        other = os.path.join(_CLI, name + ".py")
        try:
            with open(other, encoding="utf-8") as f:
                if "Option(" not in f.read():
                    continue  # defines no option (errors, render, complete...): its changes leave the row current
        except OSError:
            pass
        files.append(other)
    return files


def checksum(command: str) -> int | None:
    crc = 0
    files = sources(command)
    if not files:
        return None
    for path in files:
        try:
            with open(path, "rb") as f:
                crc = zlib.crc32(f.read(), crc)
        except OSError:
            return None
    return crc


def _module(command: str) -> str | None:
    """``COMMANDS[command]``'s module, read from app.py's text (importing app.py would load typer)."""
    try:
        with open(os.path.join(_CLI, "app.py"), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    found = re.search(r'^    "' + re.escape(command) + r'": \("(jmsctl\.cli\.commands\.\w+)"', text, re.M)
    return found.group(1) if found else None


def typer_options(command: str) -> list[str]:
    """What typer answers to bash for ``jmsctl COMMAND -`` (every option name), in-process."""
    import contextlib
    import io

    from jmsctl.cli.app import app

    env = {"_JMSCTL_COMPLETE": "complete_bash", "COMP_WORDS": f"jmsctl {command} -", "COMP_CWORD": "2"}
    saved = {k: os.environ.get(k) for k in env}
    out = io.StringIO()
    try:
        os.environ.update(env)
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            app(prog_name="jmsctl", args=[])
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return out.getvalue().split()


def build() -> dict[str, tuple[int, tuple[str, ...]]]:
    from jmsctl.cli.app import COMMANDS

    table = {}
    for command in COMMANDS:
        crc = checksum(command)
        if command not in _LEFT_OUT and crc is not None:
            table[command] = (crc, tuple(typer_options(command)))
    return table


def write() -> None:
    """This file again, with the table typer gives now."""
    path = os.path.abspath(__file__)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rows = "".join(f'    "{name}": ({crc}, ({", ".join(f"{x!r}" for x in names).replace(chr(39), chr(34))},)),\n' for name, (crc, names) in build().items())
    start = text.index("TABLE: dict[str, tuple[int, tuple[str, ...]]] = {\n") + len("TABLE: dict[str, tuple[int, tuple[str, ...]]] = {\n")
    end = text.index("}\n", start)
    with open(f"{path}.tmp", "w", encoding="utf-8") as f:  # whole or not at all: a failed write leaves the table as it was
        f.write(text[:start] + rows + text[end:])
    os.replace(f"{path}.tmp", path)


if __name__ == "__main__":
    write()

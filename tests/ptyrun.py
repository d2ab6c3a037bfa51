"""Run ``python -m jmsctl`` on a pseudo-terminal, for the colour-on-a-terminal-only tests."""

from __future__ import annotations

import os
import pty
import sys


def terminal_env(**extra: str) -> dict[str, str]:
    """The current environment as a colour terminal would have it, without NO_COLOR/FORCE_COLOR."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    env.update(extra)
    return env


def run_in_pty(args: list[str], env: dict[str, str]) -> str:
    """Everything the command wrote to its terminal."""
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - child
        os.execve(sys.executable, [sys.executable, "-m", "jmsctl", *args], env)
    chunks = []
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode("utf-8", "replace")

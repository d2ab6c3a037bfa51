"""``jmsctl view`` in a real terminal (issue 34): tmux runs it on samples/orders.ndjson, send-keys types
a selector with a mistake and then the fix, capture-pane reads what the terminal shows (the caret, the
counts, the explanation), and the write key produces a file that ``jmsctl filter`` agrees with.

With JMSCTL_VIEW_SCREENSHOT=FILE.svg the last screen is also written there, colours included (docs/view.png
is that file converted: ``rsvg-convert FILE.svg -o docs/view.png``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("textual")
if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)

from jmsctl import selector as sel
from jmsctl.filter import Counts, select
from jmsctl.messages.loader import read_records

ROOT = Path(__file__).resolve().parent.parent
ORDERS = "samples/orders.ndjson"
WRONG = "JMSType = 'car' AND weight >> 2500"
RIGHT = "JMSType = 'car' AND weight > 2500"
DEADLINE = 60.0  # seconds for any one thing to appear (a loaded machine starts Python slowly)


class Terminal:
    """One tmux server of its own (``-L``), one window of 160x45 running a command."""

    def __init__(self, command: str, tmp: Path) -> None:
        self.socket = f"jmsctl-view-{os.getpid()}"
        self.paged = tmp / "paged.txt"
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PAGER": f"tee {self.paged}"}
        self.env.pop("NO_COLOR", None)
        for name in ("COLUMNS", "LINES"):  # pytest-xdist's workers have COLUMNS=80 LINES=24: Textual would take them over the pane's 160x45
            self.env.pop(name, None)
        self.tmux("new-session", "-d", "-x", "160", "-y", "45", "-c", str(ROOT), command)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, env=self.env, timeout=30).stdout

    def screen(self, colours: bool = False) -> str:
        return self.tmux("capture-pane", "-p", *(["-e"] if colours else []))

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.tmux("send-keys", *(["-l"] if literal else []), *keys)

    def wait_for(self, what: str) -> str:
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            shown = self.screen()
            if what in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{what!r} never shown; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


def test_view_in_tmux_mistake_fix_counts_explanation_write(tmp_path: Path) -> None:
    out = tmp_path / "cars.ndjson"
    term = Terminal(f"{shlex_quote(sys.executable)} -m jmsctl view {ORDERS}", tmp_path)
    try:
        term.wait_for("3,000 messages")
        term.keys("/")
        term.wait_for("[selector line]")  # focused: the keys go to the selector line now
        term.keys(WRONG, literal=True)
        shown = term.wait_for("error[E002]")
        lines = shown.splitlines()
        source = next(line for line in lines if "1 | " + WRONG in line)
        caret = next(line for line in lines if line.rstrip().endswith("^") or "^ expected" in line)
        assert caret.index("^") == source.index(">>") + 1, shown  # the caret under the second '>'
        assert "hint" in shown or "expected an operand" in shown
        term.keys("Left", "Left", "Left", "Left", "Left", "BSpace")
        counts = Counts()
        selected = [r.location for r in select(sel.compile(RIGHT), read_records(str(ROOT / ORDERS)), counts)]
        status = f"TRUE {counts.true:,}  FALSE {counts.false:,}  UNKNOWN {counts.unknown:,}  rejected {counts.rejected:,}  read 3,000"
        shown = term.wait_for(status)
        assert "error[E002]" not in shown
        first = selected[0].rsplit(":", 1)[1]
        term.keys("Escape")
        term.wait_for("[list]")
        term.keys("e")
        shown = term.wait_for("Result: TRUE -> selected")
        assert f"orders.ndjson:{first}" in shown and "weight (application property)" in shown
        shot = os.environ.get("JMSCTL_VIEW_SCREENSHOT")
        if shot:
            save_svg(term.screen(colours=True), shot)
        term.keys("o")  # $PAGER (here tee into a file) gets the message as show prints it, then the screen comes back
        end = time.monotonic() + DEADLINE
        while not (term.paged.exists() and "Properties" in term.paged.read_text()) and time.monotonic() < end:
            time.sleep(0.1)
        paged = term.paged.read_text()
        assert f"orders.ndjson:{first}" in paged and "weight" in paged
        term.wait_for("Result: TRUE -> selected")
        term.keys("w")
        term.wait_for("Write the selection to")
        term.keys(str(out), literal=True)
        term.keys("Enter")
        term.wait_for(f"wrote {counts.true:,} messages")
        term.keys("x")
        end = time.monotonic() + DEADLINE
        while term.tmux("list-sessions") and time.monotonic() < end:
            time.sleep(0.1)
    finally:
        term.close()
    filtered = subprocess.run([sys.executable, "-m", "jmsctl", "filter", RIGHT, ORDERS], cwd=ROOT, capture_output=True, check=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    assert out.read_bytes() == filtered and filtered.count(b"\n") == counts.true


def shlex_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def save_svg(ansi: str, path: str) -> None:
    """The terminal's screen (capture-pane -e) as an SVG, by rich."""
    from rich.console import Console
    from rich.text import Text

    console = Console(record=True, width=160, force_terminal=True, color_system="truecolor", file=open(os.devnull, "w"))  # noqa: SIM115
    for line in ansi.rstrip("\n").split("\n"):
        console.print(Text.from_ansi(line), no_wrap=True, crop=True)
    console.save_svg(path, title="jmsctl view samples/orders.ndjson")

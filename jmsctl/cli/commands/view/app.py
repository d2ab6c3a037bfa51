"""``jmsctl view``: the Textual application. The list of messages on the left, the selected message,
the explanation and the profile on the right, the selector line below, checked and applied as it is
typed, the counts in the status line.

Narrowing runs in a thread worker (``Dump.narrow``: the fast filter for an indexed NDJSON file) and
reports its steps to the screen; a key typed meanwhile cancels it and starts the next one. Nothing
here evaluates a selector by itself: the dump, the explainer and the profiler do.
"""

from __future__ import annotations

import io
import os
import shlex
import subprocess
from array import array
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.console import Console
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message as TextualMessage
from textual.screen import Screen
from textual.widgets import Footer, Input, ProgressBar, Static, TabbedContent, TabPane
from textual.worker import get_current_worker

from jmsctl import selector as sel
from jmsctl.analysis.profile import Profiler
from jmsctl.cli.commands.view.complete import NameSuggester, sample_names
from jmsctl.cli.commands.view.index import Dump, Step, WatchedDump
from jmsctl.cli.commands.view.panes import diagnostics_text, explanation_pane, message_pane, profile_pane
from jmsctl.cli.commands.view.rows import MessageList, Rows
from jmsctl.cli.commands.view.screens import AskScreen, HelpScreen
from jmsctl.cli.commands.view.write import WRITABLE, write_selection
from jmsctl.filter import Counts

PLACEHOLDER = "/ to type a selector (empty: every message)"
FOCUSED_PLACEHOLDER = "type a selector (Escape: back to the list; up/down: history; Right: complete a name)"
DRAIN_EVERY = 0.05  # seconds between two looks at what the narrowing found
PROFILE_LIMIT = 20_000  # records profiled at most (the first of the selection): reading each one costs


class Found(TextualMessage):
    """From the narrowing's thread: its first matches are waiting (``_pending``)."""


class SelectorInput(Input):
    """The selector line: Escape back to the list, up/down walk the history."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "list", show=False),
        Binding("up", "history(-1)", show=False),
        Binding("down", "history(1)", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.history: list[str] = []
        self._at = 0

    def on_focus(self) -> None:
        self.placeholder = FOCUSED_PLACEHOLDER
        self.app.sub_title = "selector line"  # type: ignore[attr-defined]

    def on_blur(self) -> None:
        self.placeholder = PLACEHOLDER

    def remember(self, text: str) -> None:
        if text.strip() and (not self.history or self.history[-1] != text):
            self.history.append(text)
        self._at = len(self.history)

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self._at = max(0, min(len(self.history), self._at + step))
        self.value = self.history[self._at] if self._at < len(self.history) else ""
        self.cursor_position = len(self.value)

    def action_leave(self) -> None:
        self.remember(self.value)
        self.app.query_one(MessageList).focus()


class ViewApp(App[str | None]):
    TITLE = "jmsctl view"
    CSS = """
    #title { height: 1; background: $panel; color: $text; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 1fr; min-width: 40; }
    #colheads { height: 1; color: $text-muted; text-style: bold; }
    #right { width: 1fr; border-left: solid $panel-lighten-2; }
    #selector { border: tall $accent; }
    #selector.-invalid { border: tall $error; }
    #diagnostics { height: auto; max-height: 10; padding: 0 1; }
    #diagnostics.-none { display: none; }
    #status { height: 1; padding: 0 1; }
    #counts { width: 1fr; }
    #progress { width: 30; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_selector", "selector"),
        Binding("question_mark,f1", "help", "help"),
        Binding("q", "quit", "quit"),
        Binding("x", "print_and_quit", "quit, print selector"),
        Binding("m", "pane('message')", "message", show=False),
        Binding("e", "pane('explain')", "explain", show=False),
        Binding("f", "pane('profile')", "profile", show=False),
        Binding("u", "toggle_unknown", "UNKNOWN group"),
        Binding("a", "add_column", "column", show=False),
        Binding("g", "jump", "go to"),
        Binding("w", "write", "write"),
        Binding("c", "copy_id", "copy id", show=False),
        Binding("o", "pager", "pager", show=False),
        Binding("r", "refresh", "refresh", show=False),
    ]

    def __init__(self, dump: Dump, dialect: str = "jakarta", selector: str = "", refresh: Callable[[], Dump] | None = None) -> None:
        super().__init__()
        self.dump = dump
        self.dialect = dialect
        self.initial = selector
        self.reload = refresh
        self.generation = 0  # of the narrowing whose steps are shown
        self.valid_text = ""  # the last valid selector (what the list shows)
        self.found: array[int] = array("q")
        self.counts: Counts | None = None
        self.done = 1.0
        self.narrowing = False
        self.show_unknown = False
        self.unknown: list[int] | None = None
        self.names: list[str] = []
        self._shown: tuple[Any, ...] = ()
        self._status_line = ""
        self.invalid = False  # the selector line holds an invalid selector (the list shows the last valid one)  # what the active pane shows (_update_panes)
        self._pending: deque[tuple[int, Step]] = deque()  # the narrowing's steps, from its thread

    # ----- layout -----

    def compose(self) -> ComposeResult:
        yield Static(self.dump.name, id="title", markup=False)
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static("", id="colheads", markup=False)
                yield MessageList(self.dump, id="list")
            with TabbedContent(id="right", initial="message"):
                with TabPane("Message", id="message"), VerticalScroll():
                    yield Static("", id="message-body")
                with TabPane("Explain", id="explain"), VerticalScroll():
                    yield Static("", id="explain-body")
                with TabPane("Profile", id="profile"), VerticalScroll():
                    yield Static("", id="profile-body")
        yield SelectorInput(placeholder=PLACEHOLDER, id="selector")
        yield Static("", id="diagnostics", classes="-none")
        with Horizontal(id="status"):
            yield Static("", id="counts", markup=False)
            yield ProgressBar(total=100, show_eta=False, id="progress")
        yield Footer()

    @property
    def main(self) -> Screen[Any]:
        """The screen of the list and the panes (queried even while a dialog is on top of it)."""
        return self.screen_stack[0] if self.screen_stack else self.screen

    def on_mount(self) -> None:
        ml = self.main.query_one(MessageList)
        self.main.query_one("#colheads", Static).update(ml.header())
        ml.focus()
        self.set_interval(0.2, self._poll_index)
        self.set_interval(DRAIN_EVERY, self._drain)
        self._sample_names()
        if self.initial:
            self.main.query_one(SelectorInput).value = self.initial
        self._status()

    @work(thread=True, group="names")
    def _sample_names(self) -> None:
        names = sample_names(self.dump)
        self.call_from_thread(self._set_names, names)

    def _set_names(self, names: list[str]) -> None:
        self.names = names
        self.main.query_one(SelectorInput).suggester = NameSuggester(names)

    def _poll_index(self) -> None:
        """While the index grows, the list of every record grows with it."""
        if not self.screen_stack:  # closing
            return
        found = self.main.query(MessageList)
        if not found:  # closing: the widgets are gone before the timers
            return
        ml = found.first()
        known = len(self.dump.ids())
        if not self.valid_text.strip() and ml.virtual_size.height != known:
            ml.show(Rows(self.dump.ids()))
            self._status()
        elif isinstance(self.dump, WatchedDump) and self.valid_text.strip() and not self.narrowing and self.counts and self.counts.read != known:
            self._start_narrowing(self.valid_text)  # messages arrived: the selection again (a loaded list: quick)
        elif self.dump.complete and not self.narrowing and not self.valid_text.strip():
            self._status()

    # ----- the selector line -----

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "selector":
            return
        text = event.value
        analysis = sel.analyze(text, self.dialect)
        box = self.main.query_one("#diagnostics", Static)
        event.input.set_class(not analysis.valid, "-invalid")
        shown = analysis.errors if not analysis.valid else analysis.warnings
        if shown or not box.has_class("-none"):  # nothing to show and nothing shown: no layout
            box.update(diagnostics_text(text, shown) if shown else "")
            box.set_class(not shown, "-none")
        if not analysis.valid:
            self.generation += 1  # a narrowing still running is for a text no longer there
            self.workers.cancel_group(self, "narrow")
            self.narrowing = False
            self.invalid = True
            self._status()
            return
        self.invalid = False
        self.valid_text = text
        self._start_narrowing(text)
        self._update_panes()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "selector":
            assert isinstance(event.input, SelectorInput)
            event.input.remember(event.value)
            self.main.query_one(MessageList).focus()

    def _start_narrowing(self, text: str) -> None:
        self.generation += 1
        self.workers.cancel_group(self, "narrow")
        self.workers.cancel_group(self, "profile")
        self.unknown = None
        ml = self.main.query_one(MessageList)
        if not text.strip():
            self.found = array("q")
            self.counts = None
            self.narrowing = False
            self.done = 1.0
            ml.show(Rows(self.dump.ids()))
            self._status()
            return
        selector = sel.compile(text, self.dialect)
        self.found = array("q")
        self.counts = Counts()
        self.narrowing = True
        self.done = 0.0
        self._status()  # the list keeps the previous selection until the first step of this one (no flash, one layout less)
        self._narrow(selector, self.generation)

    @work(thread=True, group="narrow")
    def _narrow(self, selector: sel.Selector, generation: int) -> None:
        worker = get_current_worker()

        def cancelled() -> bool:
            return worker.is_cancelled or generation != self.generation

        true_ids: list[int] = []

        def report(step: Step) -> None:  # taken by the screen's next tick (_drain): the filter never waits for it
            if not cancelled():
                self._pending.append((generation, step))
                if step.ids and not true_ids:  # the first matches: shown now, not at the next tick
                    self.post_message(Found())  # post_message is thread-safe
                true_ids.extend(step.ids)

        finished = self.dump.narrow(selector, cancelled, report)
        if finished and self.show_unknown and not cancelled():
            self._find_unknown(selector, true_ids, generation, cancelled)

    def _find_unknown(self, selector: sel.Selector, true_ids: list[int], generation: int, cancelled: Callable[[], bool]) -> None:
        negation = sel.compile(f"NOT (\n{selector.text}\n)", self.dialect)
        unknown = self.dump.unknown_ids(negation, true_ids, cancelled)
        if unknown is not None and not cancelled():
            self.call_from_thread(self._set_unknown, generation, unknown)

    def on_found(self, event: Found) -> None:
        self._drain()

    def _drain(self) -> None:
        """The steps the narrowing reported since the last tick, shown at once."""
        if not self.screen_stack or not self.main.query(MessageList):  # closing: the widgets are gone before the timers
            return
        last = None
        while self._pending:
            generation, step = self._pending.popleft()
            if generation == self.generation:
                self.found.extend(step.ids)
                last = step
        if last is not None:
            self._step(last)

    def _step(self, step: Step) -> None:
        self.counts = step.counts
        self.done = step.done
        if step.done >= 1.0:
            self.narrowing = False
        ml = self.main.query_one(MessageList)
        ml.show(Rows(self.found, self.unknown, self._unknown_title()))
        self._status()
        if not self.narrowing:
            self._update_panes()

    def _set_unknown(self, generation: int, unknown: list[int]) -> None:
        if generation != self.generation:
            return
        self.unknown = unknown
        self.main.query_one(MessageList).show(Rows(self.found, unknown, self._unknown_title()))

    def _unknown_title(self) -> str:
        return f"UNKNOWN ({len(self.unknown):,})" if self.unknown is not None else ""

    # ----- status line -----

    def _status(self) -> None:
        parts: list[str] = []
        total = len(self.dump.ids())
        if self.invalid:
            parts.append("invalid selector: the list shows the last valid one")
        if self.counts is None or not self.valid_text.strip():
            state = "" if self.dump.complete else " (watching…)" if isinstance(self.dump, WatchedDump) else " (indexing…)"
            parts.append(f"{total:,} messages{state}")
            self.done = 1.0 if self.dump.complete else self.done
        else:
            c = self.counts
            parts.append(f"TRUE {c.true:,}  FALSE {c.false:,}  UNKNOWN {c.unknown:,}  rejected {c.rejected:,}  read {c.read:,}")
            if self.narrowing:
                parts.append("narrowing…")
        if self.show_unknown:
            parts.append("[u] UNKNOWN group on")
        line = "  |  ".join(parts)
        if line != self._status_line:  # one line of fixed height: no layout
            self._status_line = line
            self.main.query_one("#counts", Static).update(line, layout=False)
        self.main.query_one("#progress", ProgressBar).update(progress=round(self.done * 100))

    # ----- panes -----

    def watch_sub_title(self, value: str) -> None:
        """Where the keys go, on the title line: the list or the selector line (as vim says INSERT)."""
        if self.screen_stack and self.main.query("#title"):
            self.main.query_one("#title", Static).update(f"{self.dump.name}   [{value}]", layout=False)

    def on_descendant_focus(self, event: Any) -> None:
        if isinstance(event.widget, MessageList):
            self.sub_title = "list"

    def on_message_list_highlighted(self, event: MessageList.Highlighted) -> None:
        self._update_panes()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._update_panes()

    def _update_panes(self) -> None:
        """The active pane, when what it shows changed (the record, the selector, the selection)."""
        ml = self.main.query_one(MessageList)
        rid = ml.current()
        active = self.main.query_one(TabbedContent).active
        key = (active, rid, self.valid_text if active != "message" else "", self.generation if active == "profile" else 0, id(self.dump))
        if key == self._shown or (active == "profile" and self.narrowing):
            return
        self._shown = key
        record = self.dump.record(rid) if rid is not None else None
        if active == "message":
            body = message_pane(record) if record is not None else Text("(no message)", style="dim")
            self.main.query_one("#message-body", Static).update(body)
        elif active == "explain":
            self.main.query_one("#explain-body", Static).update(explanation_pane(self.valid_text, record, self.dialect))
        elif active == "profile":
            self.main.query_one("#profile-body", Static).update(profile_pane(None, ""))
            rows = ml.rows.main if isinstance(ml.rows, Rows) else ml.rows
            self._profile(list(rows[:PROFILE_LIMIT]), len(rows), self.generation)

    @work(thread=True, group="profile", exclusive=True)
    def _profile(self, ids: Sequence[int], total: int, generation: int) -> None:
        worker = get_current_worker()
        profiler = Profiler()
        for i, rid in enumerate(ids):
            if i % 500 == 0 and (worker.is_cancelled or generation != self.generation):
                return
            profiler.add_record(self.dump.record(rid))
        of = f"the selection: {total:,} message{'s' if total != 1 else ''}" + (f" (profiled: the first {len(ids):,})" if total > len(ids) else "")
        result = profiler.result()
        if not worker.is_cancelled and generation == self.generation:
            self.call_from_thread(lambda: self.main.query_one("#profile-body", Static).update(profile_pane(result, of)))

    # ----- keys -----

    def action_focus_selector(self) -> None:
        self.main.query_one(SelectorInput).focus()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_print_and_quit(self) -> None:
        self.exit(self.main.query_one(SelectorInput).value)

    def action_pane(self, name: str) -> None:
        self.main.query_one(TabbedContent).active = name

    def action_toggle_unknown(self) -> None:
        self.show_unknown = not self.show_unknown
        self._start_narrowing(self.valid_text)

    def action_add_column(self) -> None:
        def add(name: Any) -> None:
            if name and name.strip():
                ml = self.main.query_one(MessageList)
                ml.properties.append(name.strip())
                self.main.query_one("#colheads", Static).update(ml.header())
                ml.refresh_size()

        hint = ", ".join(n for n in self.names if not n.startswith("JMS"))[:60]
        self.push_screen(AskScreen(f"Property to show as a column ({hint}…):"), add)

    def action_jump(self) -> None:
        def jump(answer: Any) -> None:
            if not answer or not answer.strip():
                return
            pos = answer.strip()
            rid = self._rid_at(pos)
            if rid is None or not self.main.query_one(MessageList).go_to(rid):
                self.notify(f"no message at {pos} in the list", severity="warning")

        self.push_screen(AskScreen("Go to position (as in FILE:POSITION):"), jump)

    def _rid_at(self, pos: str) -> int | None:
        ids = self.dump.ids()
        if isinstance(ids, range):  # a loaded dump: its positions are its own (FILE:[i], QUEUE:N)
            return next((rid for rid in ids if self.dump.position(rid) == pos), None)
        return int(pos) if pos.isdigit() else None

    def action_write(self) -> None:
        if self.narrowing:
            self.notify("the narrowing is still running: write when it is done", severity="warning")
            return

        def write(answer: Any) -> None:
            if not answer or not answer[0].strip():
                return
            path, fmt = answer
            self._write(path.strip(), fmt)

        self.push_screen(AskScreen("Write the selection to (all or nothing):", "", WRITABLE), write)

    @work(thread=True, group="write")
    def _write(self, path: str, fmt: str) -> None:
        ml = self.main.query_one(MessageList)
        ids = list(ml.rows.main) if isinstance(ml.rows, Rows) else list(ml.rows)
        outcome, severity = write_selection(self.dump, ids, path, fmt)
        self.call_from_thread(self.notify, outcome, severity=severity, timeout=6)

    def action_copy_id(self) -> None:
        rid = self.main.query_one(MessageList).current()
        record = self.dump.record(rid) if rid is not None else None
        mid = record.message.headers.get("JMSMessageID") if record is not None and record.message is not None else None
        if mid is None:
            self.notify("this message has no JMSMessageID", severity="warning")
            return
        self.copy_to_clipboard(str(mid))
        self.notify(f"copied {mid}")

    def action_pager(self) -> None:
        rid = self.main.query_one(MessageList).current()
        if rid is None:
            return
        buffer = io.StringIO()
        Console(file=buffer, no_color=True, highlight=False, width=120, force_terminal=False).print(message_pane(self.dump.record(rid)))
        pager = shlex.split(os.environ.get("PAGER") or "less")
        with self.suspend():
            try:
                subprocess.run(pager, input=buffer.getvalue().encode("utf-8", "backslashreplace"), check=False)
            except OSError as exc:
                self.notify(f"cannot run $PAGER {pager[0]}: {exc.strerror or exc}", severity="error")

    def action_refresh(self) -> None:
        if self.reload is None:
            self.notify("r browses the queue again: only for jmsctl view URL QUEUE", severity="warning")
            return
        self._reload()

    @work(thread=True, group="reload", exclusive=True)
    def _reload(self) -> None:
        assert self.reload is not None
        try:
            dump = self.reload()
        except Exception as exc:  # a broker error: said on the screen, the list kept
            self.call_from_thread(self.notify, str(exc), severity="error")
            return
        self.call_from_thread(self._replace_dump, dump)

    def _replace_dump(self, dump: Dump) -> None:
        self.dump = dump
        ml = self.main.query_one(MessageList)
        ml.dump = dump
        self.main.query_one("#title", Static).update(f"{dump.name}   [{self.sub_title}]", layout=False)
        self._start_narrowing(self.valid_text)
        self.notify(f"browsed again: {len(dump.ids()):,} messages")


__all__ = ["SelectorInput", "ViewApp"]

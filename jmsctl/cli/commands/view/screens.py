"""The small screens of ``jmsctl view``: the help (every key), and the one-question dialogs (write the
selection to a file, jump to a position, add a property column). Each answers with ``dismiss``."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Select, Static

# key, what it does: the help screen and the README list these.
KEYS: tuple[tuple[str, str], ...] = (
    ("/", "type a selector (Escape: back to the list)"),
    ("up / down (in the selector)", "the selectors typed before (history)"),
    ("right (in the selector)", "accept the completion of a header or property name"),
    ("up / down / pgup / pgdn / home / end / mouse", "move in the list"),
    ("m / e / f", "show the message / the explanation / the profile of the selection"),
    ("u", "show the UNKNOWN messages as their own group"),
    ("a", "add a property as a column"),
    ("g", "go to a position (a line number, as FILE:LINE says)"),
    ("w", "write the selection to a file (any format jmsctl writes; all or nothing)"),
    ("c", "copy the JMSMessageID of the message (terminal clipboard)"),
    ("o", "open the message in $PAGER"),
    ("r", "browse the queue again (jmsctl view URL QUEUE)"),
    ("x", "quit and print the selector on stdout"),
    ("q / ctrl+c", "quit"),
    ("? / f1", "this help"),
)


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,f1", "dismiss", "close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical { width: 90; height: auto; border: round $accent; background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        width = max(len(k) for k, _ in KEYS)
        lines = "\n".join(f"{k.ljust(width)}  {what}" for k, what in KEYS)
        with Vertical():
            yield Label("[b]jmsctl view: keys[/b]  (Escape closes)")
            yield Static(lines, markup=False, id="help-keys")

    def action_dismiss(self, result: Any = None) -> Any:  # type: ignore[override]
        return self.dismiss(None)


class AskScreen(ModalScreen[Any]):
    """One line to type (and a choice of formats for the write): dismissed with the answer, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]
    DEFAULT_CSS = """
    AskScreen { align: center middle; }
    AskScreen > Vertical { width: 70; height: auto; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, question: str, value: str = "", choices: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question)
            if self.choices:
                yield Select([(c, c) for c in self.choices], value=self.choices[0], allow_blank=False, id="ask-choice")
            yield Input(self.value, id="ask-input")

    def on_mount(self) -> None:
        self.query_one("#ask-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.choices:
            choice = self.query_one("#ask-choice", Select).value
            self.dismiss((event.value, str(choice)))
        else:
            self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


__all__ = ["KEYS", "AskScreen", "HelpScreen"]

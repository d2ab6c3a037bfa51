"""The message list of ``jmsctl view``: a virtual list (Textual's line API) over record ids.

Only the visible lines are rendered, each from its record (``Dump.record``, cached there): a list of
a million rows costs the ids and nothing else. The rows are the ids the list shows (every record, or
the selection, then the UNKNOWN ones as their own group); a row of ``GROUP`` is the group's title.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message as TextualMessage
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from jmsctl.cli.commands.view.index import Dump
from jmsctl.messages.printer import iso_millis, java_value, visible

GROUP = -1  # the row of a group's title

# The fixed columns: title, width, how a record gives the cell.
COLUMNS: tuple[tuple[str, int], ...] = (("pos", 8), ("JMSMessageID", 26), ("JMSType", 10), ("JMSTimestamp", 24), ("pri", 3))
PROPERTY_WIDTH = 14
RESIZE_EVERY = 0.5  # seconds between two layouts while the list grows (the rows show at once all the same)


class Rows(Sequence[int]):
    """The ids shown: the TRUE ones, then (when UNKNOWN is its own group) a title row and the UNKNOWN ones."""

    def __init__(self, main: Sequence[int], unknown: Sequence[int] | None = None, title: str = "") -> None:
        self.main = main
        self.unknown = unknown
        self.title = title

    def __len__(self) -> int:
        return len(self.main) + (1 + len(self.unknown) if self.unknown is not None else 0)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self.main)
        if i < 0:
            i += len(self)
        if i < n:
            return self.main[i]
        if self.unknown is None or i > n + len(self.unknown):
            raise IndexError(i)
        return GROUP if i == n else self.unknown[i - n - 1]


def cell(text: str, width: int) -> str:
    text = visible(text).replace("\n", " ").replace("\t", " ")
    return text[: width - 1] + "…" if len(text) > width else text.ljust(width)


class MessageList(ScrollView, can_focus=True):
    """The list; ``Highlighted`` is posted when the cursor moves to another record."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(-1)", "up", show=False),
        Binding("down,j", "move(1)", "down", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("home", "edge(0)", show=False),
        Binding("end", "edge(1)", show=False),
    ]
    DEFAULT_CSS = """
    MessageList { height: 1fr; }
    MessageList > .messagelist--cursor { background: $accent 40%; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"messagelist--cursor"}

    cursor: reactive[int] = reactive(0, always_update=True)

    class Highlighted(TextualMessage):
        def __init__(self, rid: int | None) -> None:
            super().__init__()
            self.rid = rid

    def __init__(self, dump: Dump, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dump = dump
        self.rows: Sequence[int] = Rows(dump.ids())
        self.properties: list[str] = []
        self._last_rid: int | None = None
        self._sized_at = 0.0  # when virtual_size was last set
        self._size_pending = False

    def on_mount(self) -> None:
        self.refresh_size()

    # ----- content -----

    def show(self, rows: Sequence[int], keep: bool = True) -> None:
        """Show these ids; the cursor stays on its record when it is among them (``keep``)."""
        current = self.current()
        self.rows = rows
        if keep and current is not None and self.go_to(current):
            pass
        else:
            self.cursor = min(self.cursor, max(0, len(rows) - 1)) if keep else 0
        self.refresh_size()

    def refresh_size(self) -> None:
        width = sum(w + 1 for _, w in COLUMNS) + len(self.properties) * (PROPERTY_WIDTH + 1)
        size = Size(width, len(self.rows))
        if size != self.virtual_size:  # a new size is a layout of the screen (the scroll bars)
            now = time.monotonic()
            growing = size.width == self.virtual_size.width and size.height > self.virtual_size.height > self.size.height
            if not growing or now - self._sized_at >= RESIZE_EVERY:
                self.virtual_size = size
                self._sized_at = now
            elif not self._size_pending:  # a list growing while a narrowing runs: one layout every RESIZE_EVERY
                self._size_pending = True
                self.set_timer(RESIZE_EVERY, self._size_later)
        self.refresh()
        self._announce()

    def _size_later(self) -> None:
        self._size_pending = False
        self._sized_at = 0.0
        self.refresh_size()

    def header(self) -> str:
        titles = [cell(t, w) for t, w in COLUMNS] + [cell(p, PROPERTY_WIDTH) for p in self.properties]
        return " ".join(titles)

    def current(self) -> int | None:
        if not 0 <= self.cursor < len(self.rows):
            return None
        rid = self.rows[self.cursor]
        return None if rid == GROUP else rid

    def line_text(self, rid: int) -> str:
        """One record's line, as shown (also what the tests read)."""
        if rid == GROUP:
            return f"── {getattr(self.rows, 'title', '')} " + "─" * 40
        record = self.dump.record(rid)
        pos = self.dump.position(rid)
        m = record.message
        if m is None:
            reason = str(record.error) if record.error is not None else "rejected"
            return f"{cell(pos, COLUMNS[0][1])} rejected: {visible(reason)}"
        h = m.headers
        stamp = h.get("JMSTimestamp")
        cells = [
            cell(pos, COLUMNS[0][1]),
            cell(str(h.get("JMSMessageID") or ""), COLUMNS[1][1]),
            cell(str(h.get("JMSType") or ""), COLUMNS[2][1]),
            cell(iso_millis(stamp) if isinstance(stamp, int) and not isinstance(stamp, bool) else "", COLUMNS[3][1]),
            cell("" if h.get("JMSPriority") is None else str(h.get("JMSPriority")), COLUMNS[4][1]),
        ]
        for name in self.properties:
            value = m.properties.get(name)
            cells.append(cell("" if value is None else java_value(value), PROPERTY_WIDTH))
        return " ".join(cells)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.size.width
        if index >= len(self.rows):
            return Strip.blank(width, self.rich_style)
        rid = self.rows[index]
        text = self.line_text(rid)
        style = self.rich_style
        if index == self.cursor:
            style = style + self.get_component_rich_style("messagelist--cursor")
        elif rid == GROUP:
            style = style + Style(bold=True, color="yellow")
        else:
            record = self.dump.record(rid)
            if record.message is None:
                style = style + Style(color="red")
        strip = Strip([Segment(text.ljust(scroll_x + width), style)])
        return strip.crop(scroll_x, scroll_x + width)

    # ----- cursor -----

    def watch_cursor(self, old: int, new: int) -> None:
        self.scroll_to_region_of(new)
        self.refresh()
        self._announce()

    def scroll_to_region_of(self, index: int) -> None:
        height = max(1, self.size.height)
        top = int(self.scroll_offset.y)
        if index < top:
            self.scroll_to(y=index, animate=False)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False)

    def _announce(self) -> None:
        rid = self.current()
        if rid != self._last_rid:
            self._last_rid = rid
            self.post_message(self.Highlighted(rid))

    def action_move(self, delta: int) -> None:
        if self.rows:
            self.cursor = max(0, min(len(self.rows) - 1, self.cursor + delta))

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(1, self.size.height - 1))

    def action_edge(self, end: int) -> None:
        if self.rows:
            self.cursor = len(self.rows) - 1 if end else 0

    def go_to(self, rid: int) -> bool:
        """Move the cursor to a record's row; False when it is not shown."""
        rows = self.rows
        main = rows.main if isinstance(rows, Rows) else rows
        index = _index_of(main, rid)
        if index is None and isinstance(rows, Rows) and rows.unknown is not None:
            found = _index_of(rows.unknown, rid)
            index = None if found is None else len(rows.main) + 1 + found
        if index is None:
            return False
        self.cursor = index
        return True

    def on_click(self, event: Any) -> None:
        index = int(self.scroll_offset.y) + event.y
        if 0 <= index < len(self.rows):
            self.cursor = index


def _index_of(ids: Sequence[int], rid: int) -> int | None:
    """Ids are in increasing order: a binary search."""
    import bisect

    i = bisect.bisect_left(ids, rid)
    return i if i < len(ids) and ids[i] == rid else None


def header_text(ml: MessageList) -> Text:
    return Text(ml.header(), style="bold")


__all__ = ["COLUMNS", "GROUP", "MessageList", "Rows", "cell", "header_text"]

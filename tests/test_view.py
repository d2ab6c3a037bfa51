"""``jmsctl view`` (issue 34): the Textual app driven by Textual's pilot, with assertions on what the
screen shows, compared with what ``jmsctl filter`` selects and counts on the same file."""

from __future__ import annotations

import asyncio
import gzip
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("textual")

from rich.console import Console

from jmsctl import selector as sel
from jmsctl.cli.commands.view.app import SelectorInput, ViewApp
from jmsctl.cli.commands.view.complete import complete
from jmsctl.cli.commands.view.index import IndexedDump, LoadedDump, open_dump
from jmsctl.cli.commands.view.rows import GROUP, MessageList
from jmsctl.filter import Counts, select, select_file
from jmsctl.messages.loader import read_records

ROOT = Path(__file__).resolve().parent.parent
ORDERS = str(ROOT / "samples" / "orders.ndjson")
CARS = "JMSType = 'car' AND weight > 2500"


@pytest.fixture(scope="module")
def orders(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The first 600 records of the sample: each key typed narrows the whole file again; fast tests."""
    path = tmp_path_factory.mktemp("view") / "orders.ndjson"
    path.write_bytes(b"".join(Path(ORDERS).read_bytes().splitlines(keepends=True)[:600]))
    return str(path)


def text_of(widget) -> str:
    """A Static's content as the terminal shows it, without colour."""
    buffer = io.StringIO()
    Console(file=buffer, width=200, no_color=True, highlight=False, force_terminal=False).print(widget.content)
    return buffer.getvalue()


def shown_rows(app: ViewApp) -> list[str]:
    """The list's lines as rendered on the screen (the visible ones)."""
    ml = app.query_one(MessageList)
    return [ml.render_line(y).text.rstrip() for y in range(ml.size.height)]


def expected(text: str, path: str = ORDERS) -> tuple[Counts, list[str]]:
    """What filter (the plain path) selects: its counts and the locations of the TRUE records."""
    counts = Counts()
    locations = [r.location for r in select(sel.compile(text), read_records(path), counts)]
    return counts, locations


async def settle(app: ViewApp, pilot) -> None:
    """Every worker done and what they found on the screen (bounded: 10 s at most)."""
    for _ in range(500):
        await app.workers.wait_for_complete()
        await pilot.pause(0.02)
        if not app.narrowing and not app._pending and not app.workers and app.dump.complete:
            break
    await pilot.pause(0.25)  # the index poll (every 0.2 s) has seen the whole index


async def type_text(pilot, text: str) -> None:
    """The selector typed letter by letter (each key a new narrowing, the previous one cancelled)."""
    for ch in text:
        await pilot.press("space" if ch == " " else ch)


def run(coro) -> None:
    asyncio.run(coro)


def test_list_shows_every_record_and_the_first_message(orders: str) -> None:
    async def go() -> None:
        app = ViewApp(open_dump([orders]))
        async with app.run_test(size=(160, 40)) as pilot:
            await settle(app, pilot)
            rows = shown_rows(app)
            first = next(read_records(orders)).message
            assert rows[0].startswith("1 ") and first.headers["JMSMessageID"] in rows[0] and first.headers["JMSType"] in rows[0]
            assert "600 messages" in text_of(app.query_one("#counts"))
            detail = text_of(app.query_one("#message-body"))
            assert first.headers["JMSMessageID"] in detail and "Properties" in detail and "weight" in detail

    run(go())


def test_selector_typed_letter_by_letter_narrows_as_filter_does(orders: str) -> None:
    async def go() -> None:
        app = ViewApp(open_dump([orders]))
        async with app.run_test(size=(160, 40)) as pilot:
            await pilot.press("slash")
            assert isinstance(app.focused, SelectorInput)
            await type_text(pilot, CARS)
            await settle(app, pilot)
            counts, locations = expected(CARS, orders)
            status = text_of(app.query_one("#counts"))
            assert f"TRUE {counts.true:,}  FALSE {counts.false:,}  UNKNOWN {counts.unknown:,}  rejected {counts.rejected:,}" in status
            assert counts.true + counts.false + counts.unknown + counts.rejected == 600
            ml = app.query_one(MessageList)
            assert [ml.dump.location(rid) for rid in ml.rows] == locations
            assert shown_rows(app)[0].startswith(locations[0].rsplit(":", 1)[1] + " ")
            assert app.query_one("#diagnostics").has_class("-none")
            await pilot.press("escape")
            assert isinstance(app.focused, MessageList)

    run(go())


def test_a_mistake_shows_the_caret_and_hint_then_the_fix_narrows(orders: str) -> None:
    async def go() -> None:
        app = ViewApp(open_dump([orders]))
        async with app.run_test(size=(160, 40)) as pilot:
            await pilot.press("slash")
            await type_text(pilot, "JMSType = 'car' AND weight >> 2500")
            await settle(app, pilot)
            diag = text_of(app.query_one("#diagnostics"))
            assert "error[E002]" in diag
            source_line = next(line for line in diag.splitlines() if line.startswith("1 | "))
            caret_line = next(line for line in diag.splitlines() if "^" in line)
            assert caret_line.index("^") == source_line.index(">>") + 1  # under the second '>'
            assert "invalid selector" in text_of(app.query_one("#counts"))
            assert app.query_one(SelectorInput).has_class("-invalid")
            await pilot.press("left", "left", "left", "left", "left", "backspace")  # the fix: one '>' less
            await settle(app, pilot)
            assert app.query_one(SelectorInput).value == CARS
            assert app.query_one("#diagnostics").has_class("-none")
            counts, _ = expected(CARS, orders)
            assert f"TRUE {counts.true:,}" in text_of(app.query_one("#counts"))

    run(go())


def test_explanation_pane_says_why(orders: str) -> None:
    async def go() -> None:
        app = ViewApp(open_dump([orders]), selector=CARS)
        async with app.run_test(size=(160, 50)) as pilot:
            await settle(app, pilot)
            await pilot.press("e")
            await pilot.pause()
            why = text_of(app.query_one("#explain-body"))
            assert "Result: TRUE -> selected" in why and "weight (application property)" in why and "AND" in why

    run(go())


def test_unknown_group_holds_exactly_the_unknown_records(orders: str) -> None:
    async def go() -> None:
        app = ViewApp(open_dump([orders]), selector="color = 'blue'")
        async with app.run_test(size=(160, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("u")
            await settle(app, pilot)
            counts, locations = expected("color = 'blue'", orders)
            ml = app.query_one(MessageList)
            rows = list(ml.rows)
            title = rows.index(GROUP)
            unknown = rows[title + 1 :]
            assert len(unknown) == counts.unknown > 0
            assert [ml.dump.location(r) for r in rows[:title]] == locations
            # UNKNOWN: the message has no color property
            assert all("color" not in ml.dump.record(r).message.properties for r in unknown)
            assert f"UNKNOWN ({counts.unknown:,})" in ml.line_text(GROUP)

    run(go())


def test_write_key_writes_what_filter_writes(tmp_path: Path, orders: str) -> None:
    out = tmp_path / "cars.ndjson"

    async def go() -> None:
        app = ViewApp(open_dump([orders]), selector=CARS)
        async with app.run_test(size=(160, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("w")
            await pilot.pause()
            app.screen.query_one("#ask-input").value = str(out)
            await pilot.press("enter")
            await settle(app, pilot)

    run(go())
    filtered = subprocess.run([sys.executable, "-m", "jmsctl", "filter", CARS, orders], capture_output=True, check=True).stdout
    assert out.read_bytes() == filtered and filtered.count(b"\n") == expected(CARS, orders)[0].true


def test_history_print_on_exit_jump_and_columns(orders: str) -> None:
    async def go() -> None:
        app = ViewApp(open_dump([orders]))
        async with app.run_test(size=(160, 40)) as pilot:
            selector_line = app.query_one(SelectorInput)
            await pilot.press("slash")
            selector_line.value = "color = 'red'"
            await pilot.press("enter", "slash")
            selector_line.value = "JMSPriority > 4"
            await pilot.press("enter", "slash", "ctrl+u")
            await pilot.press("up")
            assert selector_line.value == "JMSPriority > 4"
            await pilot.press("up")
            assert selector_line.value == "color = 'red'"
            await pilot.press("escape")
            await settle(app, pilot)
            line = int(expected("color = 'red'", orders)[1][9].rsplit(":", 1)[1])  # the 10th red one
            await pilot.press("g")
            await type_text(pilot, str(line))
            await pilot.press("enter")
            await pilot.pause()
            ml = app.query_one(MessageList)
            assert ml.current() == line and ml.cursor == 9
            await pilot.press("a")
            await type_text(pilot, "weight")
            await pilot.press("enter")
            await pilot.pause()
            assert "weight" in text_of(app.query_one("#colheads"))
            weight = ml.dump.record(line).message.properties["weight"][1]
            assert any(row.startswith(f"{line} ") and row.rstrip().endswith(str(weight)) for row in shown_rows(app))
            await pilot.press("x")
        assert app.return_value == "color = 'red'"

    run(go())


def test_completion_of_names_seen_in_the_data(orders: str) -> None:
    names = ["JMSType", "JMSTimestamp", "color", "customer"]
    assert complete("JMSTy", names) == "JMSType"
    assert complete("weight > 3 AND cu", names) == "weight > 3 AND customer"
    assert complete("color = 'cu", names) is None  # inside a string literal

    async def go() -> None:
        app = ViewApp(open_dump([orders]))
        async with app.run_test(size=(160, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("slash")
            await type_text(pilot, "unitPr")
            await pilot.pause(0.1)
            await pilot.press("right")
            assert app.query_one(SelectorInput).value == "unitPrice"

    run(go())


def test_resizing_keeps_the_cursor_visible(orders: str) -> None:
    async def go() -> None:
        app = ViewApp(open_dump([orders]))
        async with app.run_test(size=(160, 40)) as pilot:
            await settle(app, pilot)
            for _ in range(3):
                await pilot.press("pagedown")
            ml = app.query_one(MessageList)
            cursor = ml.cursor
            await pilot.resize_terminal(90, 20)
            await pilot.pause()
            await pilot.press("down")
            await pilot.pause()
            assert ml.size.width < 90
            rows = shown_rows(app)
            assert any(row.startswith(f"{cursor + 2} ") for row in rows)  # the row under the cursor is on the screen

    run(go())


def test_loaded_dumps_count_as_the_plain_path(tmp_path: Path) -> None:
    """Other formats (a JSON array, gzip) are loaded; their narrowing counts as filter does."""
    gz = tmp_path / "orders.ndjson.gz"
    gz.write_bytes(gzip.compress(Path(ORDERS).read_bytes()))
    for path in (str(ROOT / "samples" / "orders.json"), str(gz), str(ROOT / "samples" / "bad-records.ndjson")):
        dump = open_dump([path])
        counts, locations = expected(CARS, path)
        found: list[int] = []
        last = []
        ok = dump.narrow(sel.compile(CARS), lambda: False, lambda step, found=found, last=last: (found.extend(step.ids), last.append(step.counts)))
        assert ok and [dump.location(r) for r in found] == locations, path
        c = last[-1]
        assert (c.read, c.true, c.false, c.unknown, c.rejected) == (counts.read, counts.true, counts.false, counts.unknown, counts.rejected), path
    assert isinstance(open_dump([str(gz)]), LoadedDump)


def test_index_names_the_records_as_the_loader_does(tmp_path: Path) -> None:
    lines = Path(ROOT / "samples" / "bad-records.ndjson").read_bytes()
    path = tmp_path / "with-blanks.ndjson"
    path.write_bytes(b"\xef\xbb\xbf" + lines.replace(b"\n", b"\n\n", 3) + b"   \n")
    dump = open_dump([str(path)])
    assert isinstance(dump, IndexedDump) and dump.wait(10)
    records = list(read_records(str(path)))
    assert [dump.location(rid) for rid in dump.ids()] == [r.location for r in records]
    for rid, record in zip(dump.ids(), records, strict=True):
        mine = dump.record(rid)
        assert (mine.location, mine.raw, mine.message, str(mine.error)) == (record.location, record.raw, record.message, str(record.error))
    counts = Counts()
    list(select_file(sel.compile(CARS), str(path), counts))
    steps = []
    assert dump.narrow(sel.compile(CARS), lambda: False, steps.append)
    assert steps[-1].counts.rejected == counts.rejected > 0 and steps[-1].counts.read == counts.read


def test_a_cancelled_narrowing_stops() -> None:
    dump = open_dump([ORDERS])
    steps = []
    assert not dump.narrow(sel.compile(CARS), lambda: True, steps.append)
    assert steps == []


def test_without_a_terminal_one_line_and_exit_2() -> None:
    proc = subprocess.run([sys.executable, "-m", "jmsctl", "view", ORDERS], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("jmsctl: error: view: needs a terminal")


def test_textual_is_loaded_by_the_view_command_only() -> None:
    code = (
        "import sys; from jmsctl.cli import app; [app.load_command(n) for n in app.COMMANDS if n != 'view'];"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'textual'], 'textual loaded';"
        "app.load_command('view'); assert 'textual' not in sys.modules; print('ok')"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and proc.stdout == "ok\n", proc.stderr


def test_refresh_browses_again_and_copy_takes_the_message_id(orders: str) -> None:
    """``view URL QUEUE``: r calls the browse again (here a stand-in returning more messages)."""
    messages = [r.message for r in read_records(orders)]
    browses = []

    def browse() -> LoadedDump:
        browses.append(1)
        return LoadedDump.of_messages("stomp://127.0.0.1:1 orders", messages[: 10 * (len(browses) + 1)])

    async def go() -> None:
        app = ViewApp(LoadedDump.of_messages("stomp://127.0.0.1:1 orders", messages[:10]), refresh=browse)
        async with app.run_test(size=(160, 40)) as pilot:
            await settle(app, pilot)
            assert "10 messages" in text_of(app.query_one("#counts"))
            await pilot.press("r")
            await settle(app, pilot)
            assert browses == [1] and "20 messages" in text_of(app.query_one("#counts"))
            assert shown_rows(app)[19].startswith("20 ")
            await pilot.press("c")
            assert app.clipboard == messages[0].headers["JMSMessageID"]

    run(go())


def test_profile_pane_profiles_the_selection(orders: str) -> None:
    from jmsctl.analysis.profile import Profiler

    async def go() -> None:
        app = ViewApp(open_dump([orders]), selector=CARS)
        async with app.run_test(size=(160, 60)) as pilot:
            await settle(app, pilot)
            await pilot.press("f")
            await settle(app, pilot)
            shown = text_of(app.query_one("#profile-body"))
            counts, locations = expected(CARS, orders)
            profiler = Profiler()
            by_location = {r.location: r for r in read_records(orders)}
            for location in locations:
                profiler.add_record(by_location[location])
            profile = profiler.result()
            assert f"the selection: {counts.true:,} messages" in shown  # all of them profiled (under PROFILE_LIMIT)
            assert f"read {profile.read:,}, profiled {profile.messages:,}, rejected 0" in shown
            weight = next(p for p in profile.properties if p.name == "weight")
            assert weight.absent == 0 and "weight" in shown  # every car over 2500 has a weight

    run(go())


def test_help_screen_lists_the_keys_and_the_mouse_moves_the_cursor(orders: str) -> None:
    from jmsctl.cli.commands.view.screens import KEYS, HelpScreen

    async def go() -> None:
        app = ViewApp(open_dump([orders]))
        async with app.run_test(size=(160, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            listed = text_of(app.screen.query_one("#help-keys"))
            assert all(what in listed for _, what in KEYS) and "write the selection to a file" in listed
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)
            await pilot.click(MessageList, offset=(3, 4))
            await pilot.pause()
            assert app.query_one(MessageList).current() == 5  # the fifth line of the file, the fifth row

    run(go())


@pytest.mark.parametrize("fmt", ["json", "fmtn-a", "artemis-xml"])
def test_write_in_other_formats_reads_back_as_the_selection(tmp_path: Path, orders: str, fmt: str) -> None:
    from jmsctl.cli.commands.view.write import write_selection
    from jmsctl.messages.encode import message_json

    dump = open_dump([orders])
    found: list[int] = []
    dump.narrow(sel.compile(CARS), lambda: False, lambda step: found.extend(step.ids))
    out = tmp_path / f"cars.{fmt}"
    said, severity = write_selection(dump, found, str(out), fmt)
    assert severity == "information" and said.startswith(f"wrote {len(found):,} messages")
    back = [r.message for r in read_records(str(out))]
    assert len(back) == len(found) > 0
    assert [m.headers.get("JMSMessageID") for m in back] == [dump.record(r).message.headers.get("JMSMessageID") for r in found]
    if fmt == "json":  # the jmsctl notation holds everything
        assert [message_json(m) for m in back] == [message_json(dump.record(r).message) for r in found]


def test_a_write_that_fails_leaves_nothing(tmp_path: Path, orders: str) -> None:
    from jmsctl.cli.commands.view.write import write_selection

    dump = open_dump([orders])
    said, severity = write_selection(dump, list(dump.ids()), str(tmp_path / "missing" / "out.ndjson"), "ndjson")
    assert severity == "error" and "missing" in said and not (tmp_path / "missing").exists()


def test_a_watched_topic_grows_the_list_and_the_selection() -> None:
    """``--watch``: messages appended as they arrive (a stand-in for a transport's watch), the
    selection made again as they do."""
    import threading

    from jmsctl.cli.commands.view.index import WatchedDump

    messages = [r.message for r in read_records(str(ROOT / "samples" / "orders-small.ndjson"))]
    release = threading.Event()

    def watch():
        yield from messages[:2]
        release.wait(30)
        yield from messages[2:]

    async def go() -> None:
        app = ViewApp(WatchedDump("stomp://127.0.0.1:1 prices", watch), selector="weight > 2500")
        async with app.run_test(size=(160, 40)) as pilot:
            for _ in range(200):
                await pilot.pause(0.05)
                if app.counts and app.counts.read == 2 and not app.narrowing:
                    break
            assert app.counts.read == 2
            release.set()
            for _ in range(200):
                await pilot.pause(0.05)
                if app.counts.read == len(messages) and not app.narrowing and app.dump.complete:
                    break
            counts, locations = expected("weight > 2500", str(ROOT / "samples" / "orders-small.ndjson"))
            assert (app.counts.read, app.counts.true, app.counts.unknown) == (counts.read, counts.true, counts.unknown)
            assert len(app.query_one(MessageList).rows) == len(locations)

    run(go())

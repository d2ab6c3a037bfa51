"""Snapshot tests of ``jmsctl view``'s screens (SVG under tests/__snapshots__/, reviewed like code):
the first screen, a selector with a mistake (the caret), the explanation of a selected message.
``pytest tests/test_view_snapshots.py --snapshot-update`` writes them again after a deliberate change."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("textual")
pytest.importorskip("pytest_textual_snapshot")

from jmsctl.cli.commands.view.app import ViewApp
from jmsctl.cli.commands.view.index import open_dump

ROOT = Path(__file__).resolve().parent.parent
SMALL = "samples/orders-small.ndjson"  # four messages: a screen that fits, named relatively (the title shows it)
SIZE = (130, 36)


async def settled(pilot) -> None:
    app = pilot.app
    for _ in range(500):
        await app.workers.wait_for_complete()
        await pilot.pause(0.02)
        if not app.narrowing and not app._pending and app.dump.complete:
            break
    await pilot.pause(0.3)  # the index poll (every 0.2 s) has said the index is complete


def app_on(selector: str = "") -> ViewApp:
    import os

    os.chdir(ROOT)
    return ViewApp(open_dump([SMALL]), selector=selector)


def test_first_screen(snap_compare) -> None:
    assert snap_compare(app_on(), terminal_size=SIZE, run_before=settled)


def test_a_mistake_and_its_caret(snap_compare) -> None:
    assert snap_compare(app_on("JMSType = 'car' AND weight >> 2500"), terminal_size=SIZE, run_before=settled)


def test_explanation_of_the_selected_message(snap_compare) -> None:
    async def explain(pilot) -> None:
        await settled(pilot)
        await pilot.press("e")
        await settled(pilot)

    assert snap_compare(app_on("JMSType = 'car' AND weight > 2500"), terminal_size=SIZE, run_before=explain)

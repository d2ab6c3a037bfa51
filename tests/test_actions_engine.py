"""jmsctl/brokers/actions.py without a broker: the order that makes an action safe (the backup
durable before each commit), the rollback on any exception, and the counts, with a Mover that
records what it is asked to do (the live tests, tests/test_actions_live.py, run the real ones)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson
import pytest

from jmsctl.brokers import actions
from jmsctl.messages.model import Message
from jmsctl.values import INT


class FakeMover:
    """A queue of ``count`` messages; ``fail_at``: the call (``take``/``commit``) and its number that raises."""

    def __init__(self, count: int, backup: Path | None = None, fail_at: tuple[str, int] | None = None,
                 gone: frozenset[str] = frozenset()) -> None:
        self.queue = [f"ID:{i}" for i in range(count)]
        self.open: list[str] = []
        self.moved: list[str] = []
        self.backup = backup
        self.fail_at = fail_at
        self.gone = gone
        self.calls: Counter[str] = Counter()
        self.selector: str | None = None
        self.lines_at_commit: list[int] = []

    @property
    def lost(self) -> Counter[str]:
        return Counter()

    def _maybe_fail(self, name: str) -> None:
        self.calls[name] += 1
        if self.fail_at == (name, self.calls[name]):
            raise RuntimeError(f"{name} {self.calls[name]} failed")

    def select(self, selector: str | None) -> None:
        self.selector = selector

    def take(self, count: int, wait: float, full: bool) -> list[actions.Taken]:
        self._maybe_fail("take")
        wanted = self.queue
        if self.selector and self.selector.startswith("JMSMessageID IN"):
            wanted = [i for i in self.queue if f"'{i}'" in self.selector and i not in self.gone]
        got = [i for i in wanted if i not in self.open][:count]
        self.open += got
        return [actions.Taken(i, Message({"JMSMessageID": i}, {"n": (INT, int(i[3:]))}, "text", i) if full else None) for i in got]

    def commit(self) -> None:
        if self.backup is not None:
            self.lines_at_commit.append(len(self.backup.read_bytes().splitlines()))  # what is on disk now
        self._maybe_fail("commit")
        self.moved += self.open
        self.queue = [i for i in self.queue if i not in self.open]
        self.open = []

    def rollback(self) -> None:
        self.calls["rollback"] += 1
        self.open = []

    def close(self) -> None:
        pass


def encode(m: Message) -> bytes:
    return orjson.dumps({"id": m.headers["JMSMessageID"]}) + b"\n"


def test_every_batch_is_in_the_backup_before_its_commit(tmp_path: Path) -> None:
    path = tmp_path / "b.ndjson"
    backup = actions.Backup(str(path), encode)
    mover = FakeMover(250, path)
    tally = actions.Tally()
    actions.run(mover, tally, batch=100, backup=backup)
    backup.close()
    assert mover.lines_at_commit[:3] == [100, 200, 250]  # on disk before each commit: the batch included
    assert (tally.read, tally.acted, tally.batches, tally.rolled_back) == (250, 250, 3, 0)
    assert [orjson.loads(x)["id"] for x in path.read_bytes().splitlines()] == mover.moved == [f"ID:{i}" for i in range(250)]


def test_an_error_mid_batch_rolls_it_back_and_cuts_it_from_the_backup(tmp_path: Path) -> None:
    path = tmp_path / "b.ndjson"
    backup = actions.Backup(str(path), encode)
    mover = FakeMover(250, path, fail_at=("take", 3))
    tally = actions.Tally()
    with pytest.raises(RuntimeError, match="take 3 failed"):
        actions.run(mover, tally, batch=100, backup=backup)
    backup.close()
    assert (tally.acted, tally.batches, mover.calls["rollback"]) == (200, 2, 1)
    assert len(mover.queue) == 50 and len(path.read_bytes().splitlines()) == 200


def test_a_commit_that_fails_is_in_doubt_and_its_lines_stay(tmp_path: Path) -> None:
    """A commit that got no answer may have been done: the backup keeps its batch (a superset)."""
    path = tmp_path / "b.ndjson"
    backup = actions.Backup(str(path), encode)
    mover = FakeMover(250, path, fail_at=("commit", 2))
    tally = actions.Tally()
    with pytest.raises(RuntimeError):
        actions.run(mover, tally, batch=100, backup=backup)
    backup.close()
    assert tally.in_doubt and tally.acted == 100 and tally.rolled_back == 100
    assert len(path.read_bytes().splitlines()) == 200


def test_a_stop_between_take_and_commit_rolls_back(tmp_path: Path) -> None:
    mover = FakeMover(250)
    tally = actions.Tally()
    calls = Counter[str]()

    def check() -> None:
        calls["check"] += 1
        if calls["check"] == 3:  # before the second commit
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        actions.run(mover, tally, batch=100, check=check)
    assert (tally.acted, tally.rolled_back, tally.in_doubt) == (100, 100, False)
    assert len(mover.queue) == 150


def test_ids_gone_meanwhile_are_skipped_and_named() -> None:
    mover = FakeMover(30, gone=frozenset({"ID:4", "ID:17"}))
    tally = actions.Tally()
    ids = [f"ID:{i}" for i in range(0, 30, 2)] + ["ID:17"]
    actions.run(mover, tally, ids=ids, batch=4, wait=0.01)
    assert tally.skipped_ids == ["ID:4", "ID:17"] and tally.skipped == 2
    assert sorted(mover.moved) == sorted(set(ids) - {"ID:4", "ID:17"}) and tally.acted == 14


def test_max_count_and_a_short_take_is_not_the_end() -> None:
    mover = FakeMover(500)
    real_take = mover.take
    mover.take = lambda count, wait, full: real_take(min(count, 30), wait, full)  # type: ignore[method-assign]
    tally = actions.Tally()
    actions.run(mover, tally, batch=100, max_count=250)
    assert tally.acted == 250 and len(mover.queue) == 250


def test_a_backup_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "b.ndjson").write_text("old")
    with pytest.raises(FileExistsError):
        actions.Backup(str(tmp_path / "b.ndjson"), encode)
    assert (tmp_path / "b.ndjson").read_text() == "old"


def test_in_selector_doubles_quotes() -> None:
    assert actions.in_selector(["ID:a", "it's"]) == "JMSMessageID IN ('ID:a', 'it''s')"

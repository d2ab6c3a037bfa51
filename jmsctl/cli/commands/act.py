"""``jmsctl move``, ``copy`` and ``purge``: act on the messages of a live broker's queue, losing nothing.

The engine is jmsctl/brokers/actions.py (batches, the backup made durable before each commit, the
rollback on any error or signal); this module reads the options, chooses the messages (the broker's
``--selector``, or ``--where`` under jmsctl's engine: browse first, then act on exactly those ids),
asks on a terminal, and says what was done: read, acted on, left, skipped (gone meanwhile).
Exit 0 acted, 1 nothing matched, 2 error (130/143 on SIGINT/SIGTERM, the open batch rolled back).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NoReturn, Optional

import orjson
import typer

from jmsctl import brokers, cleanup
from jmsctl.brokers import actions
from jmsctl.cli.commands.broker import URL_HELP, _classpath, _compiled, _notes, _options, _timeout, _write, ends_process
from jmsctl.cli.errors import fail
from jmsctl.cli.options import DIALECT_HELP, Dialect, writer_format
from jmsctl.cli.render import is_terminal
from jmsctl.messages.encode import message_json
from jmsctl.messages.model import Message
from jmsctl.outputs import OutputError, open_output

VERBS = {"move": ("moved", "move"), "copy": ("copied", "copy"), "purge": ("purged", "purge")}


def _selector() -> Any:
    return typer.Option(None, "--selector", "-s", metavar="SEL", help="Chosen by the broker, with its own engine.")


def _where() -> Any:
    return typer.Option(None, "--where", "-w", metavar="SEL",
                        help="Chosen here with jmsctl's engine under --dialect: the queue is browsed, then exactly those messages are acted on.")


def _dialect() -> Any:
    return typer.Option(None, "--dialect", help=DIALECT_HELP + " For --where; default: jakarta.")


def _all() -> Any:
    return typer.Option(False, "--all", help="Act on every message (needed when neither --selector nor --where is given).")


def _max_count() -> Any:
    return typer.Option(None, "--max-count", "-m", min=0, help="Act on at most N messages.")


def _dry_run() -> Any:
    return typer.Option(False, "--dry-run", help="Write what would be acted on, as browse writes it (-o, --to), and the count; change nothing.")


def _output() -> Any:
    return typer.Option(None, "--output", "-o", metavar="FILE", help="With --dry-run: write to FILE (all or nothing).")


def _to() -> Any:
    return typer.Option("ndjson", "--to", metavar="FORMAT", help="With --dry-run: the format written (ndjson, json, fmtn-a, artemis-xml).")


def _yes() -> Any:
    return typer.Option(False, "--yes", "-y", help="Do not ask (needed when stdin is not a terminal).")


def _batch() -> Any:
    return typer.Option(actions.DEFAULT_BATCH, "--batch", min=1, metavar="N", help="Messages per transaction.")


def _wait() -> Any:
    return typer.Option(actions.DEFAULT_WAIT, "--wait", min=0.05, metavar="SECONDS",
                        help="The queue is done when no message comes for SECONDS (a chosen id that does not come was gone meanwhile).")


def _idle_timeout() -> Any:
    return typer.Option(brokers.DEFAULT_IDLE_TIMEOUT, "--idle-timeout", min=0.1, metavar="SECONDS",
                        help="End a browse (--where, --dry-run, copy) that delivers nothing for SECONDS (exit 2).")


def _backup() -> Any:
    return typer.Option(None, "--backup", metavar="FILE",
                        help="Write every removed message to FILE (NDJSON, a new file), flushed and fsynced before the commit that removes it.")


@dataclass
class Plan:
    verb: str
    url: str
    source: str
    target: str | None
    to_origin: bool
    selector: str | None
    where: str | None
    dialect: str
    everything: bool
    max_count: int | None
    dry_run: bool
    output: str | None
    to: str
    yes: bool
    batch: int
    wait: float
    backup: str | None
    options: brokers.Options


@ends_process
def move(
    url: str = typer.Argument(..., metavar="URL", help=URL_HELP),
    source: str = typer.Argument(..., metavar="SRC", help="The queue messages are taken from."),
    target: Optional[str] = typer.Argument(None, metavar="DST", help="The queue they go to (queue://, topic:// prefixes allowed); none with --to-origin."),  # noqa: UP045
    to_origin: bool = typer.Option(False, "--to-origin", help="Send each message back where the broker dead-lettered it from (ActiveMQ records it)."),
    selector: Optional[str] = _selector(), where: Optional[str] = _where(), dialect: Optional[Dialect] = _dialect(),  # noqa: UP045, B008
    everything: bool = _all(), max_count: Optional[int] = _max_count(), dry_run: bool = _dry_run(),  # noqa: UP045
    output: Optional[str] = _output(), to: str = _to(), yes: bool = _yes(), batch: int = _batch(), wait: float = _wait(),  # noqa: UP045
    backup: Optional[str] = _backup(), timeout: float = _timeout(), idle_timeout: float = _idle_timeout(),  # noqa: UP045
    classpath: Optional[str] = _classpath(),  # noqa: UP045
) -> None:
    """Move messages from one queue to another, in transactions.

    Each batch (--batch) is consumed from SRC and sent to DST in one transaction; an error, Ctrl-C or SIGTERM rolls the open batch back (its messages stay in SRC) and says how many were moved. A moved message keeps body, typed properties, JMSType, JMSCorrelationID, JMSReplyTo, priority and delivery mode; its old JMSMessageID and queue go into JmsctlOriginalMessageID and JmsctlOriginalDestination.

    Exit 0 moved, 1 nothing matched, 2 error. Credentials: JMSCTL_USER and JMSCTL_PASSWORD, else netrc.

    Example: jmsctl move activemq:tcp://127.0.0.1:61616 ActiveMQ.DLQ --to-origin --where "customer = 'acme'" --backup dlq.ndjson
    """
    if to_origin and target is not None:
        fail("move --to-origin sends each message where it came from: give no DST")
    if not to_origin and target is None:
        fail("move needs DST (or --to-origin)")
    _act(Plan("move", url, source, target, to_origin, selector, where, (dialect or Dialect.jakarta).value, everything, max_count,
              dry_run, output, to, yes, batch, wait, backup, _options(timeout, classpath, idle_timeout)))


@ends_process
def copy(
    url: str = typer.Argument(..., metavar="URL", help=URL_HELP),
    source: str = typer.Argument(..., metavar="SRC", help="The queue messages are copied from (left as it is)."),
    target: str = typer.Argument(..., metavar="DST", help="The queue the copies go to (queue://, topic:// prefixes allowed)."),
    selector: Optional[str] = _selector(), where: Optional[str] = _where(), dialect: Optional[Dialect] = _dialect(),  # noqa: UP045, B008
    everything: bool = _all(), max_count: Optional[int] = _max_count(), dry_run: bool = _dry_run(),  # noqa: UP045
    output: Optional[str] = _output(), to: str = _to(), yes: bool = _yes(), batch: int = _batch(),  # noqa: UP045
    timeout: float = _timeout(), idle_timeout: float = _idle_timeout(), classpath: Optional[str] = _classpath(),  # noqa: UP045
) -> None:
    """Copy messages to another queue, leaving them where they are.

    The copies are sent in transactions of --batch messages; they keep what move keeps, with the original's JMSMessageID and queue in JmsctlOriginalMessageID and JmsctlOriginalDestination.

    Exit 0 copied, 1 nothing matched, 2 error. Credentials: JMSCTL_USER and JMSCTL_PASSWORD, else netrc.

    Example: jmsctl copy activemq:tcp://127.0.0.1:61616 orders replay --where "JMSRedelivered = TRUE" --yes
    """
    _act(Plan("copy", url, source, target, False, selector, where, (dialect or Dialect.jakarta).value, everything, max_count,
              dry_run, output, to, yes, batch, actions.DEFAULT_WAIT, None, _options(timeout, classpath, idle_timeout)))


@ends_process
def purge(
    url: str = typer.Argument(..., metavar="URL", help=URL_HELP),
    queue: str = typer.Argument(..., metavar="QUEUE", help="The queue messages are removed from."),
    selector: Optional[str] = _selector(), where: Optional[str] = _where(), dialect: Optional[Dialect] = _dialect(),  # noqa: UP045, B008
    everything: bool = _all(), max_count: Optional[int] = _max_count(), dry_run: bool = _dry_run(),  # noqa: UP045
    output: Optional[str] = _output(), to: str = _to(), yes: bool = _yes(), batch: int = _batch(), wait: float = _wait(),  # noqa: UP045
    backup: Optional[str] = _backup(), timeout: float = _timeout(), idle_timeout: float = _idle_timeout(),  # noqa: UP045
    classpath: Optional[str] = _classpath(),  # noqa: UP045
) -> None:
    """Remove messages from a queue, backed up first if asked.

    With --backup FILE every removed message is in FILE (NDJSON) before the transaction that removes it commits: `jmsctl send URL QUEUE FILE` puts them back.

    Exit 0 purged, 1 nothing matched, 2 error. Credentials: JMSCTL_USER and JMSCTL_PASSWORD, else netrc.

    Example: jmsctl purge stomp://127.0.0.1:61613 orders --selector "JMSType = 'test'" --backup purged.ndjson --yes
    """
    _act(Plan("purge", url, queue, None, False, selector, where, (dialect or Dialect.jakarta).value, everything, max_count,
              dry_run, output, to, yes, batch, wait, backup, _options(timeout, classpath, idle_timeout)))


# ----- the common course -----------------------------------------------------------------------


def _what(plan: Plan) -> str:
    """``from SRC to DST`` with how the messages are chosen, for the question and the summary."""
    where = f"{plan.source} to {plan.target}" if plan.target else f"{plan.source} to their origin" if plan.to_origin else plan.source
    chosen = [f"--selector {plan.selector!r}"] if plan.selector else []
    chosen += [f"--where {plan.where!r} (--dialect {plan.dialect})"] if plan.where else []
    return f"{'from ' if plan.verb != 'purge' else ''}{where}" + (f" chosen by {' and '.join(chosen)}" if chosen else " (--all)")


def _act(plan: Plan) -> None:
    if plan.target is not None and plan.target.removeprefix("queue://") == plan.source:
        fail(f"{plan.verb} from {plan.source} to itself would take its own messages again: give another DST")
    if plan.selector is None and plan.where is None and not plan.everything:
        fail(f"{plan.verb} with neither --selector nor --where acts on every message of {plan.source}: say so with --all")
    local = _compiled(plan.where, plan.dialect, "--where") if plan.where is not None else None
    if plan.dry_run:
        _dry(plan, local)
        return
    if plan.output is not None or plan.to != "ndjson":
        fail("-o and --to write what --dry-run would act on; the backup of removed messages is --backup FILE (NDJSON)")
    if not plan.yes and not is_terminal(sys.stdin):
        fail(f"{plan.verb} changes the broker: give --yes (stdin is not a terminal to ask on)")
    backup = None
    if plan.backup is not None:
        if plan.verb == "copy":
            fail("copy removes nothing: --backup is for move and purge")
        try:
            backup = actions.Backup(plan.backup, lambda m: orjson.dumps(message_json(m)) + b"\n")
        except FileExistsError:
            fail(f"{plan.backup}: already exists (a backup is never overwritten: name a new file)")
        except OSError as exc:
            fail(f"cannot write {plan.backup}: {exc.strerror or exc}")
    tally = actions.Tally()
    browsed: int | None = None
    try:
        with cleanup.stopping(), brokers.connect(plan.url, plan.options) as conn:
            ids: list[str] | None = None
            chosen: list[Message] | None = None
            if local is not None or plan.verb == "copy":
                everything = list(conn.browse(plan.source, plan.selector))
                browsed = len(everything)
                chosen = [m for m in everything if local is None or local.matches(m)]
                del everything
                if plan.max_count is not None:
                    chosen = chosen[:plan.max_count]
                ids = [str(m.headers.get("JMSMessageID")) for m in chosen]
            elif getattr(conn, "queue_exists", None) is not None and conn.queue_exists(plan.source) is False:  # type: ignore[attr-defined]
                fail(f"{plan.url}: no queue {plan.source!r} on the broker (nothing was created)")  # a consumer would create it
            if not plan.yes:
                count = len(ids) if ids is not None else _count(conn, plan)
                if count == 0:
                    _finish(plan, tally, browsed, Counter())
                if not _confirm(f"{plan.verb} {count} message{'s' if count != 1 else ''} {_what(plan)}? [y/N] "):
                    fail("nothing done (not confirmed)")
            with _Signals() as stop:
                if plan.verb == "copy":
                    assert chosen is not None
                    lost = _copy(conn, plan, chosen, tally, stop.check)
                else:
                    lost = _move(conn, plan, ids, tally, backup, stop.check)
    except brokers.BrokerError as exc:
        _stopped(plan, tally, str(exc), 2)
    except cleanup.Stopped as stop:
        _stopped(plan, tally, f"stopped by {stop.name}", stop.status)
    except KeyboardInterrupt:
        _stopped(plan, tally, "stopped by SIGINT", 130)
    finally:
        if backup is not None:
            backup.close()
            if tally.acted == 0 and not tally.in_doubt:  # nothing was removed: no backup of nothing left behind
                with contextlib.suppress(OSError):
                    os.unlink(backup.path)
    _notes(plan.options)
    _finish(plan, tally, browsed, lost)


def _move(conn: brokers.Connection, plan: Plan, ids: list[str] | None, tally: actions.Tally, backup: actions.Backup | None,
          check: Any) -> Counter[str]:
    mover: actions.Mover
    if brokers.transport_module(conn.target) == "stomp":
        from jmsctl.brokers.stomp_mover import StompMover

        mover = StompMover(conn, plan.source, plan.target, plan.to_origin, plan.batch)  # type: ignore[arg-type]
    else:
        from jmsctl.brokers.jms_mover import JmsMover

        mover = JmsMover(conn, plan.source, plan.target, plan.to_origin)  # type: ignore[arg-type]
    try:
        actions.run(mover, tally, selector=plan.selector if ids is None else None, ids=ids, max_count=plan.max_count,
                    batch=plan.batch, wait=plan.wait, backup=backup, progress=_Progress(VERBS[plan.verb][0]), check=check)
    finally:
        mover.close()
    return mover.lost


def _copy(conn: brokers.Connection, plan: Plan, chosen: list[Message], tally: actions.Tally, check: Any) -> Counter[str]:
    """The browsed messages sent to DST with their origin in two properties, --batch a transaction."""
    assert plan.target is not None
    report = brokers.SendReport()
    tally.read = len(chosen)
    for start in range(0, len(chosen), plan.batch):
        check()
        chunk = [_traced(m, plan.source) for m in chosen[start:start + plan.batch]]
        before = report.sent
        try:
            conn.send(plan.target, chunk, report)
        finally:
            tally.acted = report.sent
            tally.rolled_back = len(chunk) - (report.sent - before)
        tally.batches += 1
    tally.rolled_back = 0
    return Counter({k: v for k, v in report.lost.items() if not k.startswith(("JMSMessageID (", "JMSTimestamp (", "JMSRedelivered ("))})


def _traced(m: Message, source: str) -> Message:
    props = dict(m.properties)
    from jmsctl.values import STRING

    props[actions.ORIGINAL_ID] = (STRING, str(m.headers.get("JMSMessageID", "")))
    props[actions.ORIGINAL_DESTINATION] = (STRING, str(m.headers.get("JMSDestination") or f"queue://{source}"))
    return Message(m.headers, props, m.body_type, m.body, source=m.source)


def _count(conn: brokers.Connection, plan: Plan) -> int:
    """How many the broker's selector chooses now (for the question on a terminal)."""
    n = 0
    for _ in conn.browse(plan.source, plan.selector):
        n += 1
        if plan.max_count is not None and n >= plan.max_count:
            break
    return n


def _confirm(question: str) -> bool:
    sys.stderr.write(question)
    sys.stderr.flush()
    answer = sys.stdin.readline().strip().lower()
    return answer in ("y", "yes")


def _dry(plan: Plan, local: Any) -> None:
    """What would be acted on, written as browse writes it, and the count; nothing changes."""
    fmt = writer_format(plan.to)
    try:
        out = open_output(plan.output)
    except OutputError as exc:
        fail(str(exc))
    counts = Counter[str]()
    lost: Counter[str] = Counter()
    try:
        with cleanup.stopping(), brokers.connect(plan.url, plan.options) as conn:
            def chosen() -> Iterator[Message]:
                for m in conn.browse(plan.source, plan.selector):
                    counts["read"] += 1
                    if local is not None and not local.matches(m):
                        continue
                    if plan.max_count is not None and counts["chosen"] >= plan.max_count:
                        return
                    counts["chosen"] += 1
                    yield m

            _write(fmt, chosen(), out.stream, lost)
    except brokers.BrokerError as exc:
        out.discard()
        fail(f"{exc}{f'; {plan.output} not written' if plan.output else ''}")
    except cleanup.Stopped as stop:
        out.discard()
        fail_status = stop.status
        sys.stderr.write(f"jmsctl: error: stopped by {stop.name}; nothing changed{f', {plan.output} not written' if plan.output else ''}\n")
        raise typer.Exit(fail_status) from None
    except BaseException:
        out.discard()
        raise
    try:
        out.commit()
    except OSError as exc:
        fail(f"cannot write {plan.output or '<stdout>'}: {exc.strerror or exc}")
    _notes(plan.options)
    n = counts["chosen"]
    sys.stderr.write(f"{plan.verb} --dry-run: would {VERBS[plan.verb][1]} {n} message{'s' if n != 1 else ''} {_what(plan)}"
                     f" (read {counts['read']}; nothing changed)\n")
    if n == 0:
        raise typer.Exit(1)


def _summary(plan: Plan, tally: actions.Tally, browsed: int | None) -> str:
    read = browsed if browsed is not None else tally.read
    left = read - tally.acted - tally.skipped
    done = VERBS[plan.verb][0]
    return (f"{plan.verb}: read {read}, {done} {tally.acted}, left {left}, skipped {tally.skipped} (gone meanwhile)"
            f"; {tally.batches} transaction{'s' if tally.batches != 1 else ''} committed")


def _finish(plan: Plan, tally: actions.Tally, browsed: int | None, lost: Counter[str]) -> NoReturn:
    for what, n in sorted(lost.items()):
        sys.stderr.write(f"jmsctl {plan.verb}: not kept: {what}: {n} message{'s' if n != 1 else ''}\n")
    if tally.skipped_ids:
        shown = ", ".join(tally.skipped_ids[:10]) + (f" and {len(tally.skipped_ids) - 10} more" if len(tally.skipped_ids) > 10 else "")
        sys.stderr.write(f"jmsctl {plan.verb}: gone from {plan.source} before they could be taken: {shown}\n")
    sys.stderr.write(_summary(plan, tally, browsed) + "\n")
    raise typer.Exit(0 if tally.acted else 1)


def _stopped(plan: Plan, tally: actions.Tally, why: str, status: int) -> NoReturn:
    back = f"; the open batch of {tally.rolled_back} was rolled back (still in {plan.source})" if tally.rolled_back else ""
    if tally.in_doubt:
        back = (f"; the last commit ({tally.rolled_back} message{'s' if tally.rolled_back != 1 else ''}) got no answer: "
                f"the broker did it or rolled it back; count {plan.source} to know")
    sys.stderr.write(f"jmsctl: error: {why}; {tally.acted} {VERBS[plan.verb][0]} in {tally.batches} committed "
                     f"transaction{'s' if tally.batches != 1 else ''}{back}\n")
    raise typer.Exit(status)


class _Progress:
    """``moved N (R/s)`` on stderr every half second, on a terminal only."""

    def __init__(self, done: str) -> None:
        self.on = is_terminal(sys.stderr)
        self.done = done
        self.start = self.last = time.monotonic()

    def __call__(self, tally: actions.Tally) -> None:
        now = time.monotonic()
        if self.on and now - self.last > 0.5:
            self.last = now
            sys.stderr.write(f"\r{self.done} {tally.acted:,} ({tally.acted / (now - self.start):,.0f}/s)\x1b[K")
            sys.stderr.flush()


class _Signals:
    """SIGINT, SIGTERM and SIGHUP while acting are recorded and raised by ``check`` (as
    cleanup.Stopped) between a take and a commit, never inside a commit: a commit interrupted half
    way would leave its outcome unknown. A second signal raises at once (a broker that no longer
    answers). The JVM runs with -Xrs (jmsctl/brokers/jms.py): the signals are Python's."""

    SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, n))

    def __init__(self) -> None:
        self.signum: int | None = None
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> _Signals:
        for sig in self.SIGNALS:
            if signal.getsignal(sig) != signal.SIG_IGN:
                self.previous[sig] = signal.signal(sig, self._record)
        return self

    def _record(self, signum: int, frame: object) -> None:
        first = self.signum is None
        self.signum = signum
        if not first:
            self.check()

    def check(self) -> None:
        if self.signum is not None:
            raise cleanup.Stopped(self.signum)

    def __exit__(self, *exc: object) -> None:
        for sig, previous in self.previous.items():
            signal.signal(sig, previous)


__all__ = ["copy", "move", "purge"]

"""``jmsctl browse``, ``send`` and ``watch``: a live broker through a transport of jmsctl.brokers.

Every broker failure (down, login refused, no such queue, a selector it rejects, a browse that
stalls, a connection lost) is one line naming the URL and the reason, exit status 2. Outputs are all
or nothing (jmsctl.outputs): on Ctrl-C, SIGTERM or SIGHUP the file is not written and the process
ends (its connections with it), one line saying what was done (a send: how many the broker has),
exit 128 + the signal; a stalled browse keeps what was read, counted.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import functools
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from enum import Enum
from typing import TYPE_CHECKING, Any, NoReturn, Optional

import orjson
import typer

from jmsctl import brokers, cleanup
from jmsctl.cli.errors import fail, say
from jmsctl.cli.options import DIALECT_HELP, Dialect, from_format, max_record_size, writer_format
from jmsctl.cli.render import Source, is_terminal
from jmsctl.cli.selecting import compiled, quiet_option
from jmsctl.messages import formats
from jmsctl.messages.encode import message_json
from jmsctl.messages.model import Message
from jmsctl.outputs import OutputError, open_output

if TYPE_CHECKING:  # the selector package loads when a selector is compiled (--where, --compare): a plain browse needs none
    from jmsctl import selector as sel

URL_HELP = "stomp://HOST:PORT, stomps://HOST:PORT (TLS), or PROVIDER:URL through the provider's JMS client (activemq:tcp://HOST:61616)."
CREDENTIALS = "Credentials: JMSCTL_USER and JMSCTL_PASSWORD, else the netrc entry of the broker's host."


def _timeout() -> Any:
    return typer.Option(brokers.DEFAULT_TIMEOUT, "--timeout", min=0.1, metavar="SECONDS", help="Give up connecting (and waiting for an answer) after SECONDS.")


def _classpath() -> Any:
    return typer.Option(
        None, "--classpath", metavar="JARS",
        help="The JMS provider's client jars (':'-separated, globs allowed; also JMSCTL_CLASSPATH). Debian's ActiveMQ client is found by default.",
    )


def _options(timeout: float, classpath: str | None, idle_timeout: float = brokers.DEFAULT_IDLE_TIMEOUT) -> brokers.Options:
    extra = tuple(p for p in (classpath or "").split(":") if p) + brokers.env_classpath()
    return brokers.Options(timeout=timeout, idle_timeout=idle_timeout, classpath=extra)


def _notes(options: brokers.Options) -> None:
    for note in dict.fromkeys(options.notes):
        sys.stderr.write(f"jmsctl: note: {note}\n")


def _compiled(text: str, dialect: str, what: str, quiet: bool = True) -> sel.Selector:
    """``what``'s selector compiled (exit 2 if invalid); its warnings on stderr once unless ``quiet``."""
    return compiled(Source(what, text), dialect, quiet)


def ends_process(command: Callable[..., None]) -> Callable[..., None]:
    """A broker command that ends the process itself when it has started a JVM (brokers.end_process:
    JPype's exit hook can hang on a connection a signal or a dead broker left half open), with the
    status it would have returned. Also for the commands built on the brokers (move, copy, purge)."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except typer.Exit as exc:
            brokers.end_process(exc.exit_code)
            raise
        except BrokenPipeError:
            with contextlib.suppress(OSError):  # stdout's last flush cannot fail again
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            brokers.end_process(128 + 13)  # SIGPIPE, as jmsctl.cli.app.main says it
            raise
        brokers.end_process(0)

    return run


class _Progress:
    """``browsed N (R/s)`` on stderr every half second, on a terminal only; erased at the end."""

    def __init__(self) -> None:
        self.on = is_terminal(sys.stderr)
        self.start = self.last = time.monotonic()
        self.count = 0

    def __call__(self, messages: Iterable[Message]) -> Iterator[Message]:
        for m in messages:
            self.count += 1
            yield m
            if self.on and self.count % 64 == 0 and (now := time.monotonic()) - self.last > 0.5:
                self.last = now
                sys.stderr.write(f"\rbrowsed {self.count:,} ({self.count / (now - self.start):,.0f}/s)")
                sys.stderr.flush()
        self.done()

    def done(self) -> None:
        if self.on and self.last > self.start:
            sys.stderr.write("\r\x1b[K")
            self.last = self.start


# ----- browse ----------------------------------------------------------------------------------


@ends_process
def browse(
    url: str = typer.Argument(..., metavar="URL", help=URL_HELP),
    queue: str = typer.Argument(..., metavar="QUEUE", help="The queue's plain name (orders)."),
    selector: Optional[str] = typer.Option(None, "--selector", "-s", metavar="SEL", help="Applied by the broker, with its own engine."),  # noqa: UP045
    where: Optional[str] = typer.Option(None, "--where", "-w", metavar="SEL", help="Applied here, with jmsctl's engine under --dialect."),  # noqa: UP045
    dialect: Optional[Dialect] = typer.Option(None, "--dialect", help=DIALECT_HELP + " Default: jakarta for --where, the broker's for --compare."),  # noqa: UP045, B008
    explain: bool = typer.Option(False, "--explain", help="With --where: instead of each message written, why it was selected."),
    compare_: bool = typer.Option(
        False, "--compare", help="With --selector: browse selected and unselected, and list the messages on which the broker and jmsctl differ (exit 1 if any)."
    ),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write to FILE all or nothing (not written on an error or a signal)."),  # noqa: UP045
    target: str = typer.Option("ndjson", "--to", metavar="FORMAT", help="The format written: ndjson (default), json, fmtn-a, artemis-xml."),
    max_count: Optional[int] = typer.Option(None, "--max-count", "-m", min=0, help="Stop after N messages written."),  # noqa: UP045
    stats: bool = typer.Option(False, "--stats", help="Print browsed and written counts and the rate on stderr."),
    timeout: float = _timeout(),
    idle_timeout: float = typer.Option(
        brokers.DEFAULT_IDLE_TIMEOUT, "--idle-timeout", min=0.1, metavar="SECONDS",
        help="End a browse that delivers nothing for SECONDS (what was read is kept and counted; exit 2).",
    ),
    classpath: Optional[str] = _classpath(),  # noqa: UP045
    quiet: bool = quiet_option(),
    rejected_file: Optional[str] = typer.Option(  # noqa: UP045
        None, "--rejected", metavar="FILE",
        help="Write the messages the client cannot decode to FILE (NDJSON: position, JMSMessageID, reason, raw bytes in base64).",
    ),
) -> None:
    """Browse a queue without consuming it, as a consumer sees it.

    Every header, typed property and body, written as NDJSON (or --to FORMAT).

    Exit 0 browsed, 1 (--compare) differences found, 2 any error. Credentials: JMSCTL_USER and JMSCTL_PASSWORD, else netrc.

    Example: jmsctl browse stomp://127.0.0.1:61613 orders --selector "weight > 2500" -o heavy.ndjson
    """
    _named(url, queue, "queue")
    if compare_ and selector is None:
        fail("--compare needs --selector (the broker's selection is what is compared)")
    if compare_:
        ignored = [name for name, given in (("--where", where is not None), ("--explain", explain), ("-o", output is not None),
                                            ("--to", target != "ndjson"), ("--max-count", max_count is not None)) if given]
        if ignored:
            fail(f"--compare prints its report on stdout and browses every message: {', '.join(ignored)} does not apply to it")
    if explain and where is None:
        fail("--explain needs --where (the local selector it explains)")
    local_dialect = (dialect or Dialect.jakarta).value
    local = _compiled(where, local_dialect, "--where", quiet) if where is not None else None
    options = _options(timeout, classpath, idle_timeout)
    if compare_:
        assert selector is not None
        _compare(url, queue, selector, dialect.value if dialect else None, options)
        return
    fmt = writer_format(target)
    with cleanup.stopping():
        _browse(url, queue, selector, local, local_dialect, explain, where, output, fmt, max_count, stats, options, rejected_file)


def _browse(url: str, queue: str, selector: str | None, local: Any, local_dialect: str, explain: bool, where: str | None,
            output: str | None, fmt: formats.Format, max_count: int | None, stats: bool, options: brokers.Options,
            rejected_file: str | None) -> None:
    try:
        out = open_output(output)
    except OutputError as exc:
        fail(str(exc))
    progress = _Progress()
    counts = Counter[str]()
    lost: Counter[str] = Counter()
    stalled: brokers.BrowseStalled | None = None
    started = time.monotonic()
    try:
        with brokers.connect(url, options) as conn:
            if not conn.typed:
                options.notes.append(f"{url}: properties arrive as Strings (STOMP carries no types)")

            def selected() -> Iterator[Message]:
                for m in progress(conn.browse(queue, selector)):
                    counts["browsed"] += 1
                    if local is not None and not local.matches(m):
                        continue
                    if max_count is not None and counts["written"] >= max_count:
                        return
                    counts["written"] += 1
                    yield m

            try:
                if explain:
                    assert where is not None
                    _write_explained(selected(), out.stream, where, local_dialect)
                else:
                    _write(fmt, selected(), out.stream, lost)
            except brokers.BrowseStalled as exc:
                stalled = exc
    except brokers.BrokerError as exc:
        out.discard()
        progress.done()
        fail(f"{exc}{f'; {output} not written' if output else ''}")
    except cleanup.Stopped as stop:  # on stdout (a file's temp is removed by jmsctl.cleanup's own handler)
        out.discard()
        progress.done()
        _stopped(stop, f"after {counts['browsed']} message{'s' if counts['browsed'] != 1 else ''} browsed")
    except BrokenPipeError:
        out.discard()
        raise typer.Exit(0) from None
    except OSError as exc:
        out.discard()
        fail(f"cannot write {output or '<stdout>'}: {exc.strerror or exc}")
    except BaseException:
        out.discard()
        raise
    try:
        out.commit()
    except OSError as exc:
        fail(f"cannot write {output or '<stdout>'}: {exc.strerror or exc}")
    _notes(options)
    for what, n in sorted(lost.items()):
        sys.stderr.write(f"jmsctl browse: not in {fmt.name} as it was: {what}: {n} message{'s' if n != 1 else ''}\n")
    rejected = _rejected(url, queue, options.rejected, rejected_file)
    if stats:
        seconds = max(time.monotonic() - started, 1e-9)
        read = counts["browsed"] + rejected
        sys.stderr.write(f"browsed {read}, written {counts['written']}, rejected {rejected} ({read / seconds:,.0f} messages/s)\n")
    if stalled is not None:
        kept = f"; the {counts['written']} written are in {output}" if output else ""
        fail(f"{stalled}{kept}")
    if rejected:
        kept = f" in {output}" if output else ""
        fail(f"{url} {queue}: {rejected} message{'s' if rejected != 1 else ''} the client could not decode "
             f"{'were' if rejected != 1 else 'was'} rejected; the {counts['written']} others are written{kept}")


def _rejected(url: str, queue: str, rejected: list[brokers.Rejected], path: str | None) -> int:
    """The messages the client could not decode: each named on stderr (the first SHOWN), and with
    their raw bytes in ``--rejected FILE`` (NDJSON, all or nothing). Returns their count."""
    from jmsctl.messages.rejections import SHOWN

    for r in rejected[:SHOWN]:
        kept = f"; its {len(r.raw)} raw bytes {'in ' + path if path else 'kept with --rejected FILE'}" if r.raw is not None else ""
        say(f"{url} {queue}: message {r.position} ({r.message_id or 'no JMSMessageID'}): the client cannot decode it: {r.reason}{kept}")
    if len(rejected) > SHOWN:
        say(f"{url} {queue}: {len(rejected) - SHOWN:,} more rejected messages not shown")
    if path is not None:
        try:
            with open_output(path) as out:
                for r in rejected:
                    record = {"position": r.position, "JMSMessageID": r.message_id, "reason": r.reason,
                              "raw": base64.b64encode(r.raw).decode() if r.raw is not None else None}
                    out.write(orjson.dumps(record) + b"\n")
        except (OutputError, OSError) as exc:
            fail(f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}")
    return len(rejected)


def _write(fmt: formats.Format, messages: Iterable[Message], stream: Any, lost: Counter[str]) -> None:
    import inspect

    assert fmt.write is not None
    if "lost" in inspect.signature(fmt.write).parameters:
        fmt.write(messages, stream, lost)  # type: ignore[call-arg]
    else:
        fmt.write(messages, stream)


def _write_explained(messages: Iterable[Message], stream: Any, text: str, dialect: str) -> None:
    for m in messages:
        stream.write(_explained(m, text, dialect).encode("utf-8", "backslashreplace"))


def _explained(m: Message, text: str, dialect: str) -> str:
    from jmsctl.cli.commands.filter_run import _printable
    from jmsctl.selector.explainer import explain
    from jmsctl.selector.why import deciding

    ex = explain(text, m.get, dialect)
    mid = m.headers.get("JMSMessageID")
    head = f"{_printable(mid) if mid else '(no JMSMessageID)'}  {ex.result} -> {'selected' if ex.selected else 'not selected'}"
    return head + "\n" + "".join(f"  {_printable(str(r))}\n" for r in deciding(ex))


def _compare(url: str, queue: str, selector: str, dialect: str | None, options: brokers.Options) -> None:
    from jmsctl.brokers.compare import compare, describe
    from jmsctl.brokers.stomp import CONVERT_PREFIX

    try:
        with cleanup.stopping(), brokers.connect(url, options) as conn:
            chosen = dialect or conn.dialect
            if chosen is None:
                fail(f"{url}: the broker does not say which engine it runs: give --dialect")
            judged = (conn.selector_prefix if chosen == "activemq" else "") + selector
            _compiled(judged, chosen, "--selector")
            selected = list(conn.browse(queue, selector))
            everything = list(conn.browse(queue))
            uncarried = frozenset(getattr(conn, "uncarried", ()))
    except brokers.BrokerError as exc:
        fail(str(exc))
    except cleanup.Stopped as stop:
        _stopped(stop, "nothing compared")
    result = compare(selected, everything, judged, chosen, uncarried)
    _notes(options)
    w = sys.stdout.write
    w(f"{url} {queue}: browsed {result.browsed}; the broker selected {result.broker_selected}, "
      f"jmsctl --dialect {chosen} {result.jmsctl_selected}; {len(result.differences)} difference{'s' if len(result.differences) != 1 else ''}\n")
    if judged != selector:
        w(f"judged as the broker parses it: {judged}\n")
    for d in result.differences:
        w(describe(d) + "\n" + "".join("  " + line + "\n" for line in _explained(d.message, judged, chosen).splitlines()[1:]))
    if result.unmatched:
        w(f"{result.unmatched} selected by the broker were not in the unselected browse (the queue changed between the browses)\n")
    if result.without_id:
        w(f"{result.without_id} messages without a JMSMessageID were not compared\n")
    if result.uncarried:
        it = "them" if len(result.uncarried) > 1 else "it"
        w(f"{' and '.join(result.uncarried)} not compared: STOMP does not carry {it} (the broker selects on {it}, jmsctl judged "
          f"without {it}): {result.left_out} message{'s' if result.left_out != 1 else ''} on which the two differ left out\n")
    if result.differences and chosen == "activemq" and not judged.startswith(CONVERT_PREFIX):
        cached = compare(selected, everything, CONVERT_PREFIX + selector, chosen, uncarried)
        if not cached.differences:
            w(f"every difference goes under the converting reading ({CONVERT_PREFIX}{selector}), which a STOMP client's "
              "subscription gets: ActiveMQ caches a selector's parse under its text without that prefix, so a STOMP client "
              "has used this text on this broker since it started, and the broker selects as STOMP reads it. Not a difference "
              "of jmsctl's: to compare, change the text (append AND 1 = 1) or restart the broker\n")
    if options.rejected:
        ids = sorted({r.message_id or f"position {r.position}" for r in options.rejected})
        w(f"{len(ids)} message{'s' if len(ids) != 1 else ''} the client could not decode {'were' if len(ids) != 1 else 'was'} "
          f"not compared: {', '.join(ids[:5])}{' ...' if len(ids) > 5 else ''}\n")
    if result.differences:
        raise typer.Exit(1)


# ----- send ------------------------------------------------------------------------------------


@ends_process
def send(
    url: str = typer.Argument(..., metavar="URL", help=URL_HELP),
    queue: str = typer.Argument(..., metavar="QUEUE", help="The queue's plain name (orders); topic:NAME publishes to a topic."),
    files: list[str] = typer.Argument(..., metavar="FILE...", help="Message dumps of any format jmsctl reads ('-' is stdin)."),  # noqa: B008
    source_format: Optional[str] = from_format(),  # noqa: UP045
    dry_run: bool = typer.Option(False, "--dry-run", help="Print what would be sent (NDJSON; source.time_to_live) and send nothing."),
    timeout: float = _timeout(),
    classpath: Optional[str] = _classpath(),  # noqa: UP045
    max_size: int = max_record_size(),
) -> None:
    """Send the messages of dumps to a queue, as a producer would.

    The headers a producer sets, and typed properties.

    Every file is read first: a record that cannot be read sends nothing (exit 2). What the transport
    cannot carry (message id, timestamp; over STOMP property types and map, stream, object bodies) is
    said once with a count. Credentials: JMSCTL_USER and JMSCTL_PASSWORD, else netrc.

    Example: jmsctl send stomp://127.0.0.1:61613 orders samples/orders.ndjson
    """
    _named(url, queue, "queue")
    with cleanup.stopping():
        try:
            messages = _read_all(files, source_format, max_size)
        except cleanup.Stopped as stop:
            _stopped(stop, "nothing sent")
        _send(url, queue, messages, dry_run, timeout, classpath)


def _send(url: str, queue: str, messages: list[Message], dry_run: bool, timeout: float, classpath: str | None) -> None:
    report = brokers.SendReport()
    if dry_run:
        from jmsctl.brokers.outgoing import prepare

        try:
            stomp = brokers.transport_module(brokers.parse_url(url)) == "stomp"
        except brokers.BrokerError as exc:
            fail(str(exc))
        from jmsctl.brokers.stomp import activemq_refusal

        for m in messages:
            out = prepare(m, stomp, report.lost)
            refused = activemq_refusal(out.message) if stomp else None
            if refused is not None:  # the limit is ActiveMQ's: said for a STOMP URL (the broker is not asked)
                report.lost[refused.replace(": not sent", ": would not be sent to ActiveMQ")] += 1
                continue
            record = message_json(out.message)
            if out.time_to_live:
                record["source"] = {"time_to_live": out.time_to_live}
            sys.stdout.buffer.write(orjson.dumps(record) + b"\n")
            report.sent += 1
    else:
        options = _options(timeout, classpath)
        try:
            with brokers.connect(url, options) as conn:
                conn.send(queue, messages, report)
        except brokers.BrokerError as exc:
            _lost(report)
            fail(f"{exc}; {_sent(report, messages, queue)}")
        except cleanup.Stopped as stop:
            _lost(report)
            _stopped(stop, _sent(report, messages, queue))
        _notes(options)
    _lost(report)
    verb = "would send" if dry_run else "sent"
    sys.stderr.write(f"{verb} {report.sent} message{'s' if report.sent != 1 else ''} to {queue}\n")
    if report.sent < len(messages) and not dry_run:  # refused before sending (a known limit of the broker's), said above
        fail(f"{len(messages) - report.sent} of {len(messages)} messages were not sent (said above)")


def _named(url: str, name: str, default: str) -> None:
    """A destination argument checked before anything is read or sent (a comma; no name): exit 2."""
    from jmsctl.brokers.interface import destination

    try:
        destination(brokers.parse_url(url), name, default)
    except brokers.BrokerError as exc:
        fail(str(exc))


def _said(text: str) -> None:
    """What a watch says at once on stderr (subscribed: from now on, messages are printed)."""
    sys.stderr.write(f"jmsctl watch: {text}\n")
    sys.stderr.flush()


def _lost(report: brokers.SendReport) -> None:
    for what, n in sorted(report.lost.items()):
        sys.stderr.write(f"jmsctl send: not carried: {what}: {n} message{'s' if n != 1 else ''}\n")


def _sent(report: brokers.SendReport, messages: list[Message], queue: str) -> str:
    """What a send that ended early did: the messages the broker took (committed, or receipted)."""
    return f"{report.sent} of {len(messages)} messages were sent to {queue} (the broker has them), the other {len(messages) - report.sent} not"


def _stopped(stop: cleanup.Stopped, done: str) -> NoReturn:
    """A broker command stopped by a signal: one line saying what was done, exit 128 + the signal."""
    say(f"stopped by {stop.name}; {done}")
    raise typer.Exit(stop.status)


def _read_all(files: list[str], source_format: str | None, max_size: int) -> list[Message]:
    """Every message of every file, or exit 2 naming the records that cannot be read (nothing sent)."""
    from jmsctl.messages.loader import InputError, read_records  # send's reader: browse and watch need none
    from jmsctl.messages.rejections import Rejections

    messages: list[Message] = []
    errors = 0
    rejections = Rejections(say, lambda: len(messages))
    for path in files:
        reader = read_records(path, max_size, source_format)
        rejections.start("<stdin>" if path == "-" else path)
        try:
            for record in reader:
                if record.message is None:
                    errors += 1
                    rejections(record)
                else:
                    messages.append(record.message)
        except InputError as exc:
            rejections.abandon()
            errors += 1
            say(str(exc))
        finally:
            rejections.finish()
            reader.close()
    if errors:
        fail(f"{errors} record{'s' if errors != 1 else ''} could not be read: nothing sent")
    return messages


# ----- watch -----------------------------------------------------------------------------------


class WatchFormat(str, Enum):
    pretty = "pretty"
    ndjson = "ndjson"


@ends_process
def watch(
    url: str = typer.Argument(..., metavar="URL", help=URL_HELP),
    topic: str = typer.Argument(..., metavar="TOPIC", help="The topic's plain name (topic:NAME reads the same)."),
    selector: Optional[str] = typer.Option(None, "--selector", "-s", metavar="SEL", help="Applied by the broker."),  # noqa: UP045
    output_format: WatchFormat = typer.Option(WatchFormat.pretty, "--format", help="pretty (readable blocks) or ndjson."),  # noqa: B008
    timeout: float = _timeout(),
    classpath: Optional[str] = _classpath(),  # noqa: UP045
) -> None:
    """Print the messages published on a topic, until interrupted.

    A non-durable subscription, as tail -f follows a file.

    Ctrl-C or SIGTERM ends it (exit 130 / 143), closing the subscription. Credentials: JMSCTL_USER and JMSCTL_PASSWORD, else netrc.

    Example: jmsctl watch stomp://127.0.0.1:61613 prices --format ndjson
    """
    from jmsctl.cli.commands.filter_run import pretty

    _named(url, topic, "topic")
    options = dataclasses.replace(_options(timeout, classpath), progress=_said)
    n = 0
    try:
        with cleanup.stopping(), brokers.connect(url, options) as conn:
            for m in conn.watch(topic, selector):
                n += 1
                if output_format is WatchFormat.ndjson:
                    sys.stdout.buffer.write(orjson.dumps(message_json(m)) + b"\n")
                else:
                    sys.stdout.buffer.write((pretty(f"#{n}", m) + "\n").encode("utf-8", "backslashreplace"))
                sys.stdout.flush()
    except brokers.BrokerError as exc:
        fail(str(exc))
    except cleanup.Stopped as stop:  # how a watch ends: silently, the subscription closed
        raise typer.Exit(stop.status) from None
    except BrokenPipeError:
        raise typer.Exit(0) from None


__all__ = ["browse", "send", "watch"]

"""``jmsctl view``: a dump or a live queue in the terminal, the selector applied as it is typed.

Thin: the arguments, the terminal check, opening the dump (``cli.commands.view.index``) or browsing the queue,
then the Textual application (``cli.commands.view.app``), imported here only when the command runs: textual is
an optional extra (``pip install 'jmsctl[view]'``) and no other command loads it.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Optional

import typer

from jmsctl.cli.complete import names_for_selector
from jmsctl.cli.errors import fail
from jmsctl.cli.options import DIALECT_HELP, Dialect, from_format, max_record_size

NO_TERMINAL = "view: needs a terminal (stdin and stdout); in a pipe use filter, show or explain --message"


def view(
    sources: list[str] = typer.Argument(..., metavar="FILE... | URL QUEUE", help="Message files of any format jmsctl reads (.gz too, '-' stdin), or a broker URL and a queue to browse."),  # noqa: B008
    selector: str = typer.Option("", "--selector", "-s", metavar="SEL", autocompletion=names_for_selector, help="The selector to start with."),
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    watch: bool = typer.Option(False, "--watch", help="URL TOPIC: follow the topic, the messages appended as they are published."),
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
) -> None:
    """Explore messages in the terminal, a selector applied as typed.

    The list of messages, the selector line checked as you type (carets, hints, names completed), the counts TRUE / FALSE / UNKNOWN / rejected, the message in full, why the selector is TRUE, FALSE or UNKNOWN on it, and the profile of the selection. '?' lists the keys; 'x' quits printing the selector on stdout. A large NDJSON file is indexed, not loaded. Exit 0, 2 no terminal or an unreadable input.

    Example: jmsctl view samples/orders.ndjson -s "JMSType = 'car' AND weight > 2500"
    """
    stdin_dump = "-" in sources
    if not sys.stdout.isatty() or not (sys.stdin.isatty() or stdin_dump):
        fail(NO_TERMINAL)
    try:
        from jmsctl.cli.commands.view.app import ViewApp
    except ImportError as exc:
        fail(f"view: needs textual ({exc.name}): pip install 'jmsctl[view]'")
    if watch and not (len(sources) == 2 and "://" in sources[0]):
        fail("view: --watch needs URL TOPIC")
    dump, reload = _watch(*sources) if watch else _open(sources, max_size, source_format)
    if stdin_dump:
        _keys_from_terminal()
    result = ViewApp(dump, dialect.value, selector, reload).run()
    if result is not None:
        sys.stdout.write(result + "\n")


def _open(sources: list[str], max_size: int, source_format: str | None) -> tuple[Any, Any]:
    from jmsctl.cli.commands.view.index import LoadedDump, open_dump
    from jmsctl.messages.loader import InputError

    if len(sources) == 2 and "://" in sources[0] and not os.path.exists(sources[0]):
        url, queue = sources

        def browse() -> Any:
            from jmsctl import brokers

            options = brokers.Options(classpath=brokers.env_classpath())
            with brokers.connect(url, options) as conn:
                return LoadedDump.of_messages(f"{url} {queue}", list(conn.browse(queue)))

        try:
            return browse(), browse
        except Exception as exc:  # BrokerError and the transports' own: one line
            fail(str(exc))
    try:
        return open_dump(sources, source_format, max_size), None
    except InputError as exc:
        fail(str(exc))


def _watch(url: str, topic: str) -> tuple[Any, Any]:
    from jmsctl import brokers
    from jmsctl.cli.commands.view.index import WatchedDump

    options = brokers.Options(classpath=brokers.env_classpath())
    try:
        opened = brokers.connect(url, options)  # here: a broker out of reach is one line before the screen
    except Exception as exc:  # BrokerError and the transports' own: one line
        fail(str(exc))

    def messages() -> Any:
        with opened as conn:  # closed when the watch ends
            yield from conn.watch(topic)

    return WatchedDump(f"{url} {topic}", messages), None


def _keys_from_terminal() -> None:
    """The dump came on stdin: the keys come from the terminal (as less does)."""
    try:
        tty = os.open("/dev/tty", os.O_RDONLY)
    except OSError:
        fail(NO_TERMINAL)
    os.dup2(tty, 0)
    os.close(tty)

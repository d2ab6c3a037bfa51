"""``jmsctl convert``: message dumps of any format jmsctl reads -> one dump in a format it writes
(jmsctl NDJSON by default; fmtn/a JSON for ``a -R``, Artemis XML for ``artemis data imp``).

What the target format cannot hold (JMSDeliveryMode in Artemis XML, JMSDestination in fmtn/a, ...)
is said once at the end, with the number of messages concerned, never per message. The output is
written all or nothing: on any error (a record that cannot be read, unless ``--skip-invalid``) the
file is not written (or replaced). Exit status 0 converted, 2 any error.
"""

from __future__ import annotations

import inspect
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Optional

import typer

from jmsctl.cli.errors import fail, say
from jmsctl.cli.options import from_format, max_record_size, writer_format
from jmsctl.messages.loader import InputError, read_records
from jmsctl.messages.model import Message
from jmsctl.messages.rejections import Rejections
from jmsctl.outputs import OutputError, open_output

WRITABLE_HELP = "ndjson (default), json, fmtn-a (a -R), artemis-xml (artemis data imp)"


def convert(
    inputs: Optional[list[str]] = typer.Argument(None, metavar="INPUT...", help="Message files of any format jmsctl reads (.gz too); none or '-' is stdin."),  # noqa: UP045, B008
    output: Optional[str] = typer.Option(  # noqa: UP045
        None, "--output", "-o", metavar="OUT", help="Write to OUT atomically (temp file renamed at the end; not written on any error)."
    ),
    source_format: Optional[str] = from_format(),  # noqa: UP045
    target: str = typer.Option("ndjson", "--to", metavar="FORMAT", help=f"The format written: {WRITABLE_HELP}."),
    skip_invalid: bool = typer.Option(False, "--skip-invalid", help="Leave out the records that cannot be read, counted, instead of failing (exit 2)."),
    stats: bool = typer.Option(False, "--stats", help="Print the format of each input and read, written and rejected counts on stderr."),
    max_size: int = max_record_size(),
) -> None:
    """Convert message dumps to NDJSON, fmtn/a JSON or Artemis XML.

    What the target format cannot hold is said once at the end. Exit 0 converted, 2 any error.

    Example: jmsctl convert samples/orders-small.ndjson --to artemis-xml -o orders.xml
    """
    fmt = writer_format(target)
    try:
        out = open_output(output)
    except OutputError as exc:
        fail(str(exc))
    counts = Counter[str]()
    lost: Counter[str] = Counter()
    detected: list[str] = []
    errors = 0

    # Rejected records capped per file; a file that is not a dump is one error (jmsctl.messages.rejections).
    rejections = Rejections(None if skip_invalid else say, lambda: counts["written"])

    def messages() -> Iterator[Message]:
        nonlocal errors
        for path in inputs or ["-"]:
            reader = read_records(path, max_size, source_format)
            rejections.start("<stdin>" if path == "-" else path)
            try:
                for record in reader:
                    counts["read"] += 1
                    if record.message is None:
                        counts["rejected"] += 1
                        errors += 0 if skip_invalid else 1
                        rejections(record)
                        continue
                    counts["written"] += 1
                    yield record.message
            except InputError as exc:
                rejections.abandon()
                errors += 1
                say(str(exc))
            finally:
                rejections.finish()
                reader.close()
            if reader.format is not None:
                detected.append(f"{'<stdin>' if path == '-' else path}: format {reader.format} ({'--from' if source_format else 'detected'})")

    try:
        if "lost" in inspect.signature(fmt.write).parameters:
            fmt.write(messages(), out.stream, lost)  # type: ignore[call-arg]
        else:
            fmt.write(messages(), out.stream)
    except BrokenPipeError:
        out.discard()
        raise typer.Exit(0) from None
    except OSError as exc:  # the output's write failed (a full disk, /dev/full): the temp file is gone
        out.discard()
        fail(f"cannot write {output or '<stdout>'}: {exc.strerror or exc}")
    except BaseException:
        out.discard()
        raise
    if errors:
        out.discard()
    else:
        try:
            out.commit()
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror or exc}")
    for what, n in sorted(lost.items()) if not errors else ():
        sys.stderr.write(f"jmsctl convert: not in {fmt.name} as it was: {what}: {n} message{'s' if n != 1 else ''}\n")
    if stats:
        for line in detected:
            sys.stderr.write(line + "\n")
        sys.stderr.write(f"read {counts['read']}, written {counts['written'] if not errors else 0}, rejected {counts['rejected']}\n")
    if errors:
        raise typer.Exit(2)

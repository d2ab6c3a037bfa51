"""``jmsctl spark filter | convert | explain``: the selector engine on Apache Spark.

pyspark is imported only when a command runs (the rest of the CLI works without it), and only by
``jmsctl.spark``. Counts, rejected records and exit status are those of ``jmsctl filter``: exit 0
something selected, 1 nothing, 2 any error (an error wins); rejected records are reported as
``file:line: field: reason`` unless ``--skip-invalid`` counts them silently.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from jmsctl import selector as sel
from jmsctl.analysis.profile import TOP
from jmsctl.cli.commands.profile import FORMAT_HELP, TOP_HELP, ProfileFormat, emit
from jmsctl.cli.complete import selector_then_files
from jmsctl.cli.errors import FORMAT_NOTE, fail, say, swapped_arguments
from jmsctl.cli.options import DIALECT_HELP, Dialect, from_format, max_record_size
from jmsctl.cli.render import Source, console, print_full
from jmsctl.exceptions import InvalidSelectorException
from jmsctl.messages.rejections import report_capped
from jmsctl.outputs import OutputError, open_output

if TYPE_CHECKING:
    from jmsctl.spark.job import Output, Report

spark_app = typer.Typer(
    name="spark",
    help="Selectors on Apache Spark: filter, convert and profile dumps.\n\nThe dumps: NDJSON, gzip, parquet.\n\n"
    "Example: jmsctl spark filter \"JMSType = 'car'\" samples/orders.ndjson --count",
    no_args_is_help=True,
    add_completion=False,
)


class SparkFormat(str, Enum):
    ndjson = "ndjson"
    parquet = "parquet"


class Engine(str, Enum):
    local = "local"
    native = "native"


class _Failure(Exception):
    """Reported in one line on stderr: exit status 2."""


def _say(prog: str, text: str) -> None:
    say(text)


def _compile(text: str, dialect: str, inputs: list[str] | None = None) -> sel.Selector:
    try:
        return sel.compile(text, dialect)
    except InvalidSelectorException as exc:
        swapped = swapped_arguments(text, inputs) if inputs is not None else None
        if swapped:
            fail(swapped)
        print_full(console(stderr=True), Source("<arg>", text), exc.diagnostics)
        raise typer.Exit(2) from None


@contextmanager
def _spark_errors(prog: str) -> Iterator[None]:
    """pyspark missing, Java missing, a failed job: one line on stderr and exit status 2."""
    try:
        yield
    except _Failure as exc:
        _say(prog, str(exc))
        raise typer.Exit(2) from None
    except ImportError as exc:
        _say(prog, f"needs pyspark and pyarrow (pip install 'jmsctl[spark]'): {exc}")
        raise typer.Exit(2) from None
    except typer.Exit:
        raise
    except Exception as exc:  # Spark reports job failures as Py4J / captured JVM exceptions
        _say(prog, _job_failure(exc))
        raise typer.Exit(2) from None


_WORKER_INPUT_ERROR = re.compile(r"\bInputError: (.+)")


def _job_failure(exc: Exception) -> str:
    """One line for a failed job: an unreadable input in the loader's words when a Python worker
    raised one (its traceback is inside Spark's exception text), else the exception's first line."""
    text = str(exc).strip()
    found = _WORKER_INPUT_ERROR.findall(text)
    if found:
        return found[-1].strip()
    return f"Spark job failed: {text.splitlines()[0] if text else type(exc).__name__}"


def _session(master: str | None) -> Any:
    from jmsctl.spark.session import SparkUnavailable, get_session

    try:
        return get_session(master)
    except SparkUnavailable as exc:
        raise _Failure(str(exc)) from None


def _output(path: str) -> Output:
    from jmsctl.spark.job import Output, OutputError

    try:
        return Output(path)
    except OutputError as exc:
        raise _Failure(str(exc)) from None


def _report_problems(prog: str, report: Report, skip_invalid: bool) -> int:
    """Print unreadable inputs and (unless skipped) rejected records; the number of errors."""
    for problem in report.input_errors:
        _say(prog, problem)
    if not skip_invalid:
        report_capped(report.rejected, say)
    return len(report.input_errors) + (0 if skip_invalid else len(report.rejected))


def _finish(prog: str, out: Output | None, errors: int) -> None:
    if out is None:
        return
    if errors:
        out.discard()
        _say(prog, f"{out.path} not written because of the errors above")
    else:
        out.commit()


def _selector_and_inputs(args: list[str], selector_file: str | None) -> tuple[str, list[str]]:
    """SELECTOR INPUT..., or with -f the selector from a file and every argument an input (as filter)."""
    if selector_file is None:
        if len(args) < 2:
            fail(swapped_arguments(args[0], []) or "spark filter: give the SELECTOR, then at least one INPUT")
        return args[0], args[1:]
    try:
        text = sys.stdin.read() if selector_file == "-" else Path(selector_file).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        fail(f"{selector_file}: not UTF-8 text")
    except OSError as exc:
        fail(f"{selector_file}: {exc.strerror or exc}")
    return text.rstrip("\r\n"), args


@spark_app.command("filter")
def spark_filter(
    args: list[str] = typer.Argument(  # noqa: B008
        ..., metavar="SELECTOR INPUT...", autocompletion=selector_then_files,
        help="The selector (unless -f), then NDJSON (.gz too), JSON arrays, parquet files or directories from spark convert/filter.",
    ),
    selector_file: Optional[str] = typer.Option(  # noqa: UP045
        None, "--file", "-f", metavar="SELECTOR_FILE", help="Read the selector from this file ('-': stdin); every argument is then an input."
    ),
    invert: bool = typer.Option(False, "--invert", "-v", help="Select the messages the selector does not select (FALSE or UNKNOWN)."),
    max_count: Optional[int] = typer.Option(  # noqa: UP045
        None, "--max-count", "-m", min=0, metavar="N", help="At most N selected messages, the first in input order (every record is still read and counted)."
    ),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="DIR", help="Write the selected messages to DIR (a Spark output directory)."),  # noqa: UP045
    output_format: SparkFormat = typer.Option(SparkFormat.ndjson, "--format", help="ndjson (the input lines, byte for byte) or parquet (the message layout)."),  # noqa: B008
    master: Optional[str] = typer.Option(None, "--master", help="Spark master URL; default local[*], an embedded Spark."),  # noqa: UP045
    count: bool = typer.Option(False, "--count", "-c", help="Print the number of selected messages on stdout."),
    skip_invalid: bool = typer.Option(False, "--skip-invalid", help="Count rejected records silently instead of reporting them (exit 2)."),
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    engine: Engine = typer.Option(Engine.local, "--engine", help="NDJSON input: local (the local evaluator inside the decoding step, faster) or native (the Spark Column)."),  # noqa: B008
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
) -> None:
    """Filter dumps on Spark, with filter's rules and counts.

    Counts on stderr as filter --stats. Exit 0 some selected, 1 none, 2 any error.

    Example: jmsctl spark filter "JMSType = 'car'" samples/orders.ndjson --count
    """
    selector, inputs = _selector_and_inputs(args, selector_file)
    compiled = _compile(selector, dialect.value, inputs if selector_file is None else None)
    with _spark_errors("filter"):
        if output is None and not count:
            raise _Failure("give --output DIR for the selected messages, or --count")
        from jmsctl.spark.job import run_filter

        spark = _session(master)
        out = None if output is None else _output(output)
        try:
            report = run_filter(spark, compiled, inputs, output=out, output_format=output_format.value, engine=engine.value, max_record_size=max_size,
                                source_format=source_format, invert=invert, max_count=max_count)
        except BaseException:
            if out is not None:
                out.discard()
            raise
        errors = _report_problems("filter", report, skip_invalid)
        _finish("filter", out, errors)
        c = report.counts
        if count:
            sys.stdout.write(f"{c.selected}\n")
        sys.stderr.write(f"read {c.read}, TRUE {c.true}, FALSE {c.false}, UNKNOWN {c.unknown}, rejected {c.rejected}, selected {c.selected}\n")
    raise typer.Exit(2 if errors else 0 if c.selected else 1)


@spark_app.command("convert")
def spark_convert(
    inputs: list[str] = typer.Argument(..., metavar="INPUT...", help="NDJSON (.gz too) or JSON message dumps."),  # noqa: B008
    output: str = typer.Option(..., "--output", "-o", metavar="DIR", help="The parquet output directory."),
    master: Optional[str] = typer.Option(None, "--master", help="Spark master URL; default local[*]."),  # noqa: UP045
    skip_invalid: bool = typer.Option(False, "--skip-invalid", help="Keep rejected records (with their error) without reporting them."),
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
) -> None:
    """Turn dumps into parquet in the message layout.

    Rejected records are kept, with their error. Exit 0, or 2 on any error.

    Example: jmsctl spark convert samples/orders.ndjson --output orders.parquet/
    """
    with _spark_errors("convert"):
        from jmsctl.spark.job import run_convert

        spark = _session(master)
        out = _output(output)
        try:
            report = run_convert(spark, inputs, out, max_size, source_format)
        except BaseException:
            out.discard()
            raise
        errors = _report_problems("convert", report, skip_invalid)
        _finish("convert", out, errors)
        c = report.counts
        sys.stderr.write(f"read {c.read}, rejected {c.rejected}, written {0 if errors else c.read}\n")
    raise typer.Exit(2 if errors else 0)


@spark_app.command("profile")
def spark_profile(
    inputs: list[str] = typer.Argument(..., metavar="INPUT...", help="NDJSON (.gz too), JSON, parquet from spark convert, or any dump jmsctl reads."),  # noqa: B008
    output_format: ProfileFormat = typer.Option(ProfileFormat.table, "--format", help=FORMAT_HELP),  # noqa: B008
    top: int = typer.Option(TOP, "--top", min=0, max=100, metavar="N", help=TOP_HELP),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="OUT", help="Write to OUT atomically (not written on an unreadable input)."),  # noqa: UP045
    master: Optional[str] = typer.Option(None, "--master", help="Spark master URL; default local[*]."),  # noqa: UP045
    skip_invalid: bool = typer.Option(False, "--skip-invalid", help="Count the records that cannot be read without reporting them (exit 0)."),
    max_size: int = max_record_size(),
    source_format: Optional[str] = from_format(),  # noqa: UP045
) -> None:
    """Profile dumps on Spark: the document of jmsctl profile, from native aggregations.

    Most common values are always exact here (Spark counts every value). Exit 0 profiled, 2 a rejected record or an unreadable input.

    Example: jmsctl spark profile samples/orders.ndjson --format json
    """
    try:
        out = open_output(output)
    except OutputError as exc:
        fail(str(exc))
    with _spark_errors("profile"):
        from jmsctl.spark.profile import run_profile

        result, report = run_profile(_session(master), inputs, top, max_size, source_format)
        for problem in report.input_errors:
            say(problem)
        if not skip_invalid:
            report_capped(report.rejected, say)
        if result is None or report.input_errors:
            out.discard()
            raise typer.Exit(2)
    emit(out, output, result, output_format)
    if report.rejected and not skip_invalid:
        sys.stderr.write(f"{FORMAT_NOTE}\n")
    raise typer.Exit(2 if report.rejected and not skip_invalid else 0)


@spark_app.command("explain")
def spark_explain(
    selector: str = typer.Argument(..., help="The selector."),
    dialect: Dialect = typer.Option(Dialect.jakarta, "--dialect", help=DIALECT_HELP),  # noqa: B008
    master: Optional[str] = typer.Option(None, "--master", help="Spark master URL; default local[*]."),  # noqa: UP045
) -> None:
    """Print a selector's Spark Column and physical plan.

    Example: jmsctl spark explain "JMSType = 'car' AND weight > 2500"
    """
    compiled = _compile(selector, dialect.value)
    if sel.dialects.get(dialect.value).is_broker:  # before starting Spark: there is no Column to show
        fail(f"spark explain: the {dialect.value} dialect has no Spark Column; its selectors run on the local evaluator inside Spark")
    with _spark_errors("explain"):
        from jmsctl.spark.job import explain

        column, plan = explain(_session(master), compiled)
        sys.stdout.write(f"Column:\n{column}\n\nPhysical plan:\n{plan}")


__all__ = ["spark_app"]

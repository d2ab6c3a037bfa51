"""The SparkSession jmsctl runs on: embedded ``local[*]`` by default, any master with ``--master``.

One session per process (Spark's own rule: ``getOrCreate`` returns the active one, so the tests and
the commands share it), in classic mode: Spark Connect builds Columns faster (no Py4J call per
operator) but its protobuf plans have a nesting limit (about 100 levels) that selectors nested as
deep as jmsctl allows (200 levels) exceed. Settings that matter for a command-line tool: no UI, few shuffle
partitions, UTC, quiet logs, and Python workers that run this interpreter (the one that has jmsctl
and orjson), unless ``PYSPARK_PYTHON`` says otherwise. The selector Column does not depend on any
session setting (ANSI mode included); nothing here changes them for correctness.

On a cluster the executors need jmsctl's dependencies (orjson, lark, pyarrow) installed; jmsctl
itself is shipped to them as a zip of the package (``addPyFile``) when the master is not local.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import threading
import zipfile
from pathlib import Path
from typing import IO

from pyspark.sql import SparkSession

from jmsctl.spark.javacheck import JavaProblem, check_java

DEFAULT_MASTER = "local[*]"
_CONFIG = {
    "spark.api.mode": "classic",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "4",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    # PySpark otherwise records the Python call site of every Column function (five Py4J round
    # trips and a stack walk each): the selector compiler makes hundreds of such calls.
    "spark.python.sql.dataFrameDebugging.enabled": "false",
}
# Spark's own log lines (start-up banners, warnings, code generation fallbacks) are not for the
# people running a command: a failed job reaches them as an exception. Only FATAL is logged.
_LOG4J = """\
rootLogger.level = fatal
logger.repl.name = org.apache.spark.repl.Main
logger.repl.level = fatal
logger.gateway.name = org.apache.spark.api.python.PythonGatewayServer
logger.gateway.level = fatal
rootLogger.appenderRef.stderr.ref = stderr
appender.stderr.type = Console
appender.stderr.name = stderr
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n
"""


class SparkUnavailable(RuntimeError):
    """pyspark is importable but Spark cannot start (no Java, most often)."""


def java_available() -> bool:
    return bool(os.environ.get("JAVA_HOME")) or shutil.which("java") is not None


def get_session(master: str | None = None, app_name: str = "jmsctl") -> SparkSession:
    """The active session, or a new one on ``master`` (default ``local[*]``)."""
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    try:
        check_java()  # before Spark starts: one sentence instead of the launcher's output and a trace
    except JavaProblem as exc:
        raise SparkUnavailable(str(exc)) from None
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    settings = {
        "spark.master": master or DEFAULT_MASTER,
        "spark.app.name": app_name,
        "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile={_log4j_file()}",
        **_CONFIG,
    }
    builder = SparkSession.builder
    for key, value in settings.items():
        builder = builder.config(key, value)
    try:
        _start_context_quietly(settings)
        session = builder.getOrCreate()
    except Exception as exc:  # Py4J / JVM start-up failures come in many classes
        raise SparkUnavailable(f"Spark did not start: {exc}") from exc
    if not (master or DEFAULT_MASTER).startswith("local"):
        session.sparkContext.addPyFile(_package_zip())
    return session


def _start_context_quietly(settings: dict[str, str]) -> None:
    """Start the JVM with its stderr relayed line by line, without the banner every JVM of Spark 4
    prints (``WARNING: Using incubator modules: jdk.incubator.vector``: Spark's own launcher
    option, nothing the user can act on). pyspark's ``launch_gateway(popen_kwargs=...)`` is meant
    for capturing the JVM's output; where it is unavailable (a gateway that already runs, as under
    spark-submit), the builder starts the context as usual."""
    if "PYSPARK_GATEWAY_PORT" in os.environ:
        return
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway

    conf = SparkConf(loadDefaults=True).setAll(list(settings.items()))
    read_end, write_end = os.pipe()
    relay = threading.Thread(target=_relay, args=(os.fdopen(read_end, "rb"),), name="jmsctl-jvm-stderr", daemon=True)
    relay.start()  # before the launch: what the JVM says when it fails to start is shown too
    try:
        gateway = launch_gateway(conf, popen_kwargs={"stderr": write_end})
    except BaseException:
        os.close(write_end)
        relay.join(timeout=5)  # the JVM has exited: its last words before ours
        raise
    os.close(write_end)  # the JVM holds its own copy: the relay ends when the JVM does
    SparkContext(conf=conf, gateway=gateway)


_JVM_NOISE = (b"WARNING: Using incubator modules:",)


def _relay(stream: IO[bytes]) -> None:
    """The JVM's stderr to ours, but for the lines in ``_JVM_NOISE``."""
    for line in iter(stream.readline, b""):
        if not line.startswith(_JVM_NOISE):
            with contextlib.suppress(OSError):  # our stderr is closed: keep draining, or the JVM would block on a full pipe
                os.write(2, line)


def _log4j_file() -> str:
    path = Path(tempfile.gettempdir()) / f"jmsctl-log4j2-{os.getuid() if hasattr(os, 'getuid') else 0}.properties"
    if not path.exists() or path.read_text() != _LOG4J:
        path.write_text(_LOG4J)
    return path.as_uri()


def _package_zip() -> str:
    """jmsctl as a zip in a temporary directory, for the executors of a cluster."""
    root = Path(__file__).resolve().parent.parent
    target = Path(tempfile.mkdtemp(prefix="jmsctl-")) / "jmsctl.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in root.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                zf.write(path, Path("jmsctl") / path.relative_to(root))
    return str(target)


__all__ = ["DEFAULT_MASTER", "SparkUnavailable", "get_session", "java_available"]

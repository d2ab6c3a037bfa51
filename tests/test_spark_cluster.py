"""``jmsctl spark`` on a real standalone cluster (issue 18): pyspark's own master and two workers
on 127.0.0.1, executors on a Python that cannot import jmsctl (the package reaches them as the zip
``get_session`` ships), counts compared with the local engine, and a worker killed mid-job.

The cluster is started by the fixture from the pyspark package's ``bin/spark-class`` and always
stopped by it: every daemon in its own process group (killed as a group at the end) and with
``PR_SET_PDEATHSIG`` so that it dies with the test process even if that is killed. Each step is
bounded in time; the whole module runs in well under two minutes on two cores.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import signal
import site
import socket
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pyspark = pytest.importorskip("pyspark")

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "samples"
SPARK_HOME = Path(pyspark.__file__).parent
SPARK_CLASS = SPARK_HOME / "bin" / "spark-class"
CARS = "JMSType = 'car' AND weight > 2500"
STEP = 240  # seconds any one step may take: far more than on an idle machine (a loaded one is slow)
STATS = re.compile(r"read (\d+), TRUE (\d+), FALSE (\d+), UNKNOWN (\d+), rejected (\d+), selected (\d+)")

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the cluster's clean-up relies on Linux process groups and prctl"),
    pytest.mark.skipif(shutil.which("java") is None and not os.environ.get("JAVA_HOME"), reason="Spark needs Java"),
    pytest.mark.skipif(not SPARK_CLASS.exists(), reason="pyspark without bin/spark-class"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_the_test() -> None:  # pragma: no cover - runs in the child before exec
    os.setsid()  # its own process group: killed as one, with the JVM that spark-class execs
    ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG


@dataclass
class Cluster:
    url: str
    workdir: Path
    env: dict[str, str]
    executor_python: Path
    daemons: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def start(self, name: str, *args: str) -> None:
        log = open(self.workdir / f"{name}.log", "wb")  # noqa: SIM115 - the daemon writes it until stopped
        self.daemons[name] = subprocess.Popen(
            [str(SPARK_CLASS), *args], stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=self.env,
            preexec_fn=_die_with_the_test, cwd=self.workdir,
        )
        log.close()

    def log(self, name: str) -> str:
        return (self.workdir / f"{name}.log").read_text(errors="replace")

    def wait_for(self, name: str, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.log(name):
                return
            if self.daemons[name].poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"{name} did not say {text!r} within {timeout} s:\n{self.log(name)[-3000:]}")

    def kill(self, name: str) -> None:
        """The daemon and everything in its process group (a worker's executors are its children,
        in the same group), at once."""
        p = self.daemons[name]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=10)

    def stop(self) -> None:
        for name in reversed(list(self.daemons)):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.daemons[name].pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for name, p in self.daemons.items():
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.kill(name)
            with contextlib.suppress(ProcessLookupError):  # executors a worker left behind in its group
                os.killpg(p.pid, signal.SIGKILL)


# Every JVM of the module (three daemons, and each application's driver and executors) lives for seconds:
# only the JIT's first tier (its second compiles Spark's start-up code on the two cores the tests share).
SHORT_LIVED_JVM = os.environ.get("JMSCTL_TEST_JVM_OPTS", "-XX:TieredStopAtLevel=1")


def _clean_env(workdir: Path) -> dict[str, str]:
    """The daemons' environment: no PYTHONPATH (executors must not find the checkout), quiet logs,
    small heaps, everything on 127.0.0.1."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYSPARK", "SPARK"))}
    conf = workdir / "conf"
    conf.mkdir()
    (conf / "spark-defaults.conf").write_text(
        "spark.executor.memory 512m\n"
        "spark.driver.memory 512m\n"
        "spark.cores.max 2\n"
        "spark.deploy.maxExecutorRetries -1\n"
        f"spark.driver.defaultJavaOptions {SHORT_LIVED_JVM}\n"
        f"spark.executor.defaultJavaOptions {SHORT_LIVED_JVM}\n"
    )
    env.update(
        SPARK_DAEMON_JAVA_OPTS=SHORT_LIVED_JVM,
        SPARK_HOME=str(SPARK_HOME),
        SPARK_CONF_DIR=str(conf),
        SPARK_LOCAL_IP="127.0.0.1",
        SPARK_LOCAL_HOSTNAME="localhost",
        SPARK_DAEMON_MEMORY="256m",
        SPARK_LOG_DIR=str(workdir / "logs"),
        SPARK_WORKER_DIR=str(workdir / "work"),
    )
    return env


def _executor_python(workdir: Path) -> Path:
    """A Python for the executors that cannot import jmsctl, whichever way the test's own Python
    has it (a checkout on PYTHONPATH, or ``pip install -e`` as CI does, whose finder a ``.pth`` file
    installs): a fresh venv whose one ``.pth`` names this Python's site-packages directories as plain
    path entries (the ``.pth`` files in them are not run then), started in isolated mode (-I:
    PYTHONPATH ignored). Only the zip that Spark ships makes jmsctl importable there."""
    env_dir = workdir / "executor-venv"
    venv.create(env_dir, with_pip=False, symlinks=True)
    site_dirs = [p for p in [*site.getsitepackages(), site.getusersitepackages()] if os.path.isdir(p)]
    for target in env_dir.glob("lib/python3*/site-packages"):
        (target / "parent-site-packages.pth").write_text("".join(f"{p}\n" for p in site_dirs))
    wrapper = workdir / "executor-python"
    wrapper.write_text(f"#!/bin/sh\nexec {env_dir / 'bin' / 'python'} -I \"$@\"\n")
    wrapper.chmod(0o755)
    return wrapper


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Master and two workers of one core each, started together (a worker retries until the
    master is up), stopped at the end whatever happened."""
    workdir = tmp_path_factory.mktemp("spark-cluster")
    port = _free_port()
    c = Cluster(f"spark://127.0.0.1:{port}", workdir, _clean_env(workdir), _executor_python(workdir))
    try:
        c.start("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port), "--webui-port", str(_free_port()))
        for i in (1, 2):
            c.start(f"worker{i}", "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "1", "--memory", "768m",
                    "--webui-port", str(_free_port()), "--work-dir", str(workdir / f"work{i}"), c.url)
        for name in ("worker1", "worker2"):
            c.wait_for(name, "Successfully registered with master", STEP)
        yield c
    finally:
        c.stop()


def start(cluster: Cluster, *args: str, cores: int = 2) -> subprocess.Popen[str]:
    """A jmsctl command on the cluster, started: the driver runs from the checkout, the executors on
    ``executor_python``; the application takes at most ``cores`` of the cluster's two cores
    (``spark.cores.max`` in the spark-defaults.conf its driver reads)."""
    env = dict(cluster.env, PYTHONPATH=str(ROOT), PYSPARK_PYTHON=str(cluster.executor_python), PYSPARK_DRIVER_PYTHON=sys.executable)
    if cores != 2:
        conf = cluster.workdir / f"conf-{cores}-cores"
        if not conf.exists():
            conf.mkdir()
            defaults = (cluster.workdir / "conf" / "spark-defaults.conf").read_text()
            (conf / "spark-defaults.conf").write_text(defaults.replace("spark.cores.max 2\n", f"spark.cores.max {cores}\n"))
        env["SPARK_CONF_DIR"] = str(conf)
    return subprocess.Popen([sys.executable, "-m", "jmsctl", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=cluster.workdir)


def start_local(*args: str) -> subprocess.Popen[str]:
    """A jmsctl command of the local engine, started (it runs while a cluster job does)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "jmsctl", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def end(p: subprocess.Popen[str]) -> None:
    """Killed and reaped if still running."""
    if p.poll() is None:
        p.kill()
        p.communicate()


def finish(p: subprocess.Popen[str], timeout: float = STEP) -> subprocess.CompletedProcess[str]:
    """The started command's result (killed if it outlives ``timeout``)."""
    try:
        out, err = p.communicate(timeout=timeout)
    finally:
        end(p)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def stats(stderr: str) -> tuple[int, ...]:
    m = STATS.search(stderr)
    assert m, stderr[-3000:]
    return tuple(int(x) for x in m.groups())


def test_the_executor_python_cannot_import_jmsctl(cluster: Cluster) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([str(cluster.executor_python), "-c", "import jmsctl"], capture_output=True, text=True, env=env, cwd="/")
    assert r.returncode != 0 and "ModuleNotFoundError" in r.stderr
    r = subprocess.run([str(cluster.executor_python), "-c", "import pyspark, orjson, msgspec, lark, pyarrow"], capture_output=True, text=True, cwd="/")
    assert r.returncode == 0, r.stderr


def test_filter_and_convert_on_the_cluster_count_as_the_local_engine(cluster: Cluster, tmp_path: Path) -> None:
    """The filter and the convert are two applications running at once, one core (one executor, on
    one worker) each, with the local engine meanwhile. (Two applications of two cores each ran one
    after the other: 50-60 s of the module's two minutes.)"""
    inputs = [str(SAMPLES / "orders.ndjson"), str(SAMPLES / "bad-records.ndjson")]
    out, parquet = tmp_path / "cars", tmp_path / "orders.parquet"
    filtering = start(cluster, "spark", "filter", CARS, *inputs, "--master", cluster.url, "--output", str(out), "--skip-invalid", cores=1)
    converting = start(cluster, "spark", "convert", *inputs, "--master", cluster.url, "--output", str(parquet), "--skip-invalid", cores=1)
    try:
        expected = finish(start_local("filter", CARS, *inputs, "--stats", "--skip-invalid"))
        r, c = finish(filtering), finish(converting)
    finally:
        end(filtering)
        end(converting)
    assert expected.returncode == 0, expected.stderr
    want = stats(expected.stderr)

    assert r.returncode == 0, r.stderr[-3000:]
    assert stats(r.stderr) == want
    parts = sorted(out.glob("part-*.ndjson"))
    assert parts and (out / "_SUCCESS").exists()
    assert b"".join(p.read_bytes() for p in parts) == expected.stdout.encode()

    assert c.returncode == 0, c.stderr[-3000:]
    assert c.stderr.strip().splitlines()[-1] == f"read {want[0]}, rejected {want[4]}, written {want[0]}"
    pq = pytest.importorskip("pyarrow.parquet")
    table = pq.read_table(str(parquet))
    assert table.num_rows == want[0]
    assert sum(e is not None for e in table.column("error").to_pylist()) == want[4]


@pytest.fixture(scope="module")
def big_dump(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 16 MB of the sample in one file (one task's range each time it is named)."""
    path = tmp_path_factory.mktemp("big") / "big.ndjson"
    data = (SAMPLES / "orders.ndjson").read_bytes()
    with open(path, "wb") as f:
        for _ in range(max(1, (16 << 20) // len(data))):
            f.write(data)
    return path


def test_a_worker_killed_mid_job_still_gives_the_whole_output(cluster: Cluster, big_dump: Path, tmp_path: Path) -> None:
    """Once both executors write task attempts, one worker is killed with its executor: Spark runs
    the lost tasks again on the other, and every selected line is written exactly once."""
    copies = 12  # twelve tasks for two one-core executors: the job outlives the kill even on a fast, quiet machine (six once ended first)
    counting = start_local("filter", "weight > 100", str(big_dump), "--count")  # the local answer, counted meanwhile
    out = tmp_path / "heavy"
    p = start(cluster, "spark", "filter", "weight > 100", *[str(big_dump)] * copies, "--master", cluster.url, "--output", str(out))
    try:
        deadline = time.monotonic() + STEP
        seen: set[str] = set()  # task attempts seen writing, over the polls: an attempt's directory lives only while it writes
        while time.monotonic() < deadline and p.poll() is None and len(seen) < 2:
            seen.update(a.name for a in tmp_path.glob(".heavy.tmp-*/_temporary/0/_temporary/*"))
            time.sleep(0.05)  # until two tasks have written: the job is under way, ten tasks still to run
        assert p.poll() is None, "the job ended before a worker could be killed"
        cluster.kill("worker2")
        _, err = p.communicate(timeout=STEP)
    finally:
        end(p)
        expected = finish(counting)
    assert p.returncode == 0, err[-3000:]
    assert expected.returncode == 0, expected.stderr
    lines = sum(f.read_bytes().count(b"\n") for f in out.glob("part-*.ndjson"))
    assert lines == copies * int(expected.stdout) == stats(err)[5]

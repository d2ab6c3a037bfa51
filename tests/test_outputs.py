"""Outputs that never destroy what they point at (issue 18): ``jmsctl.outputs`` and the commands
that write through it, for every kind of path, for full disks and devices, and when killed.

Runs as a normal user; as root (CI), the read-only directory is made with ``chattr +i`` (root
ignores permission bits), and the test is skipped where neither works. As root the device tests
write to their own device nodes (``mknod`` of /dev/null's and /dev/full's numbers in the test's
directory), never to the system's: a regression there would replace the machine's /dev/null.
A normal user cannot replace anything in /dev, so the real nodes are safe to use then."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jmsctl import cleanup
from jmsctl.outputs import OutputError, open_output

ROOT = Path(__file__).parent.parent
SAMPLE = ROOT / "samples" / "orders.ndjson"
CARS = "JMSType = 'car'"


def jmsctl(*args: str) -> list[str]:
    return [sys.executable, "-m", "jmsctl", *args]


def env() -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    out["PYTHONPATH"] = str(ROOT) + os.pathsep + out.get("PYTHONPATH", "")
    return out


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(jmsctl(*args), capture_output=True, text=True, env=env(), timeout=timeout)


def expected_cars() -> bytes:
    r = subprocess.run(jmsctl("filter", CARS, str(SAMPLE)), capture_output=True, env=env(), timeout=120)
    assert r.returncode == 0 and r.stdout.count(b"\n") > 100
    return r.stdout


def listing(directory: Path) -> list[str]:
    return sorted(os.listdir(directory))


_DEVICES = {"null": (1, 3), "full": (1, 7)}  # Linux's mem devices (Documentation/admin-guide/devices.txt)


@pytest.fixture
def device(tmp_path: Path) -> object:
    """``device("null")``: a path to a null (or full) character device that a broken writer could
    not destroy for anyone else: the system's own for a normal user, a private node for root."""

    def make(name: str) -> str:
        system = f"/dev/{name}"
        if os.geteuid() != 0:
            if not os.path.exists(system):
                pytest.skip(f"no {system}")
            return system
        private = tmp_path / f"dev-{name}"
        try:
            os.mknod(private, 0o666 | stat.S_IFCHR, os.makedev(*_DEVICES[name]))
            with open(private, "wb"):
                pass
        except OSError:
            pytest.skip("root, and no private device node here: not risking the system's")
        return str(private)

    return make


# ----- the module --------------------------------------------------------------------------------


def test_new_file_is_written_on_commit_only(tmp_path: Path) -> None:
    path = tmp_path / "out.ndjson"
    out = open_output(str(path))
    out.write(b"a\n")
    assert not path.exists()  # nothing at the path until commit
    assert len(listing(tmp_path)) == 1 and listing(tmp_path)[0].startswith(".out.ndjson.")
    out.commit()
    assert path.read_bytes() == b"a\n"
    assert listing(tmp_path) == ["out.ndjson"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask


def test_discard_and_errors_leave_the_old_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "out.ndjson"
    path.write_bytes(b"old\n")
    out = open_output(str(path))
    out.write(b"new\n")
    out.discard()
    assert path.read_bytes() == b"old\n" and listing(tmp_path) == ["out.ndjson"]
    with pytest.raises(RuntimeError), open_output(str(path)) as out:
        out.write(b"new\n")
        raise RuntimeError("boom")
    assert path.read_bytes() == b"old\n" and listing(tmp_path) == ["out.ndjson"]


def test_existing_file_mode_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "out.ndjson"
    path.write_bytes(b"old\n")
    path.chmod(0o640)
    with open_output(str(path)) as out:
        out.write(b"new\n")
    assert path.read_bytes() == b"new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_symlink_stays_a_link_and_its_target_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "data.ndjson"
    target.write_bytes(b"old\n")
    target.chmod(0o600)
    link = tmp_path / "link.ndjson"
    link.symlink_to(target)
    with open_output(str(link)) as out:
        out.write(b"new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() == b"new\n" and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert listing(tmp_path / "real") == ["data.ndjson"]  # the temp file was next to the target


def test_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "new.ndjson")
    with open_output(str(link)) as out:
        out.write(b"x\n")
    assert link.is_symlink() and (tmp_path / "new.ndjson").read_bytes() == b"x\n"


def test_dev_null_is_written_not_replaced(device: Any) -> None:
    null = device("null")
    with open_output(null) as out:
        assert out.direct
        out.write(b"x\n" * 100_000)
    assert stat.S_ISCHR(os.stat(null).st_mode)


def test_dev_full_raises_enospc_and_stays_a_device(device: Any) -> None:
    full = device("full")
    out = open_output(full)
    with pytest.raises(OSError) as info:
        out.write(b"x" * (1 << 20))
        out.commit()
    assert info.value.errno == errno.ENOSPC
    out.discard()
    assert stat.S_ISCHR(os.stat(full).st_mode)


@contextlib.contextmanager
def fifo_reader(path: Path) -> Iterator[list[bytes]]:
    """A FIFO at ``path`` with a thread reading everything from it; the bytes in the list after."""
    os.mkfifo(path)
    got: list[bytes] = []

    def read() -> None:
        with open(path, "rb") as f:
            got.append(f.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    yield got
    thread.join(timeout=60)
    assert not thread.is_alive()


def test_fifo_is_written_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    with fifo_reader(fifo) as got, open_output(str(fifo)) as out:
        assert out.direct
        out.write(b"hello\n" * 50_000)
    assert got == [b"hello\n" * 50_000]
    assert stat.S_ISFIFO(fifo.stat().st_mode) and listing(tmp_path) == ["fifo"]


def test_directory_and_missing_directory_are_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a directory"):
        open_output(str(tmp_path))
    with pytest.raises(OutputError, match="no such directory"):
        open_output(str(tmp_path / "missing" / "out"))


def test_signal_handlers_are_installed_only_while_a_file_is_pending(tmp_path: Path) -> None:
    before = signal.getsignal(signal.SIGTERM)
    out = open_output(str(tmp_path / "o"))
    assert signal.getsignal(signal.SIGTERM) is cleanup._handler
    out.commit()
    assert signal.getsignal(signal.SIGTERM) is before
    with open_output(str(tmp_path / "o")) as out:
        assert signal.getsignal(signal.SIGTERM) is cleanup._handler
    assert signal.getsignal(signal.SIGTERM) is before


@contextlib.contextmanager
def read_only_directory(path: Path) -> Iterator[Path]:
    """``path`` made a directory nobody can create files in, even root (chattr +i), or a skip."""
    path.mkdir()
    path.chmod(0o555)
    immutable = False
    try:
        probe = path / "probe"
        try:
            probe.write_bytes(b"")
        except PermissionError:
            pass
        else:  # root: permission bits do not stop it
            probe.unlink()
            if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
                pytest.skip("cannot make a directory read-only for this user")
            immutable = True
        yield path
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], capture_output=True)
        path.chmod(0o755)


def test_read_only_directory_is_a_clear_error(tmp_path: Path) -> None:
    with read_only_directory(tmp_path / "ro") as ro:
        with pytest.raises(OutputError, match=r"cannot write .*out\.ndjson: .*cannot create a file in"):
            open_output(str(ro / "out.ndjson"))
        r = run("filter", CARS, str(SAMPLE), "-o", str(ro / "out.ndjson"))
        assert r.returncode == 2, r.stderr
        assert r.stderr.startswith("jmsctl: error: cannot write ") and "Traceback" not in r.stderr
        assert r.stdout == "" and listing(ro) == []


# ----- filter --output on every kind of path ------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_filter_to_dev_null_and_dev_full(device: Any, jobs: str) -> None:
    null, full = device("null"), device("full")
    r = run("filter", CARS, str(SAMPLE), "-o", null, "--jobs", jobs)
    assert r.returncode == 0 and r.stderr == ""
    assert stat.S_ISCHR(os.stat(null).st_mode)
    r = run("filter", CARS, str(SAMPLE), "-o", full, "--jobs", jobs)
    assert r.returncode == 2
    assert f"cannot write {full}: No space left on device" in r.stderr and "Traceback" not in r.stderr
    assert stat.S_ISCHR(os.stat(full).st_mode)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_filter_to_a_fifo_with_a_reader(tmp_path: Path, jobs: str) -> None:
    """--jobs 2: the workers write to the FIFO themselves."""
    fifo = tmp_path / "fifo"
    with fifo_reader(fifo) as got:
        r = run("filter", CARS, str(SAMPLE), "-o", str(fifo), "--jobs", jobs)
    assert r.returncode == 0, r.stderr
    assert got == [expected_cars()]
    assert stat.S_ISFIFO(fifo.stat().st_mode) and listing(tmp_path) == ["fifo"]


def test_filter_to_a_symlink_keeps_the_link_and_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "target.ndjson"
    target.write_bytes(b"old\n")
    target.chmod(0o604)
    link = tmp_path / "link"
    link.symlink_to(target.name)
    r = run("filter", CARS, str(SAMPLE), "-o", str(link))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and os.readlink(link) == "target.ndjson"
    assert target.read_bytes() == expected_cars()
    assert stat.S_IMODE(target.stat().st_mode) == 0o604
    assert listing(tmp_path) == ["link", "target.ndjson"]


def test_count_with_output_writes_the_count_and_keeps_the_file_on_error(tmp_path: Path) -> None:
    """--count --output FILE: FILE gets the count (as ``grep -c > FILE``); on an error FILE is
    left exactly as it was, never truncated."""
    out = tmp_path / "count.txt"
    out.write_text("previous\n")
    r = run("filter", CARS, str(SAMPLE), "--count", "-o", str(out))
    assert r.returncode == 0 and r.stdout == ""
    assert out.read_bytes() == b"%d\n" % expected_cars().count(b"\n")
    out.write_text("previous\n")
    r = run("filter", CARS, str(SAMPLE), str(ROOT / "samples" / "bad-records.ndjson"), "--count", "-o", str(out))
    assert r.returncode == 2 and "not written" in r.stderr
    assert out.read_text() == "previous\n" and listing(tmp_path) == ["count.txt"]


# ----- killed while writing -----------------------------------------------------------------------


def children(pid: int) -> list[int]:
    """The live child processes of ``pid``, from /proc (zombies are dead)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != b"Z":
            found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def wait_until(condition: object, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def _default_signals() -> None:
    """In the child: the signals the test sends at their default action, whatever the suite inherited
    (a background job ignores SIGINT; under nohup SIGHUP is ignored, and jmsctl rightly keeps it so)."""
    for sig in (signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
def test_killed_mid_write_leaves_no_temp_file_and_no_output(tmp_path: Path, sig: signal.Signals, existing: bool) -> None:
    """Killed while the temp file holds part of the output: exit 128 + n, the temp file gone, and
    the output as before (absent, or the old file untouched)."""
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "selected.ndjson"
    if existing:
        out.write_bytes(b"old\n")
    p = subprocess.Popen(jmsctl("filter", "x = 1", "-", "--output", str(out)), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env(), preexec_fn=_default_signals)
    assert p.stdin is not None
    p.stdin.write(b'{"properties": {"x": 1}}\n' * 20_000)  # 500 kB selected: more than the write buffer
    p.stdin.flush()

    def temp_has_data() -> bool:
        return any(name.startswith(".") and (out_dir / name).stat().st_size > 0 for name in os.listdir(out_dir))

    assert wait_until(temp_has_data), "filter never wrote to its temp file"
    p.send_signal(sig)
    _, err = p.communicate(timeout=60)  # stdin still open: it was killed, it did not finish
    assert p.returncode == 128 + sig, err.decode()
    assert b"Traceback" not in err and b"not written" in err
    assert listing(out_dir) == (["selected.ndjson"] if existing else [])
    if existing:
        assert out.read_bytes() == b"old\n"


@pytest.fixture
def hangup_ignored() -> Iterator[None]:
    """The suite as ``nohup pytest`` runs it: SIGHUP ignored, inherited by every child."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, before)


def test_the_hangup_test_passes_under_nohup(tmp_path: Path, hangup_ignored: None) -> None:
    """Issue 35 item 22: the SIGHUP case failed when the suite ran under nohup (only SIGINT was reset)."""
    test_killed_mid_write_leaves_no_temp_file_and_no_output(tmp_path, signal.SIGHUP, False)


def test_under_nohup_jmsctl_keeps_ignoring_a_hangup(tmp_path: Path, hangup_ignored: None) -> None:
    """What nohup asks for: a hangup while the output is half written changes nothing; it is all written."""
    out = tmp_path / "selected.ndjson"
    p = subprocess.Popen(jmsctl("filter", "x = 1", "-", "--output", str(out)), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env())
    assert p.stdin is not None
    p.stdin.write(b'{"properties": {"x": 1}}\n' * 20_000)
    p.stdin.flush()
    assert wait_until(lambda: any(name.startswith(".") and (tmp_path / name).stat().st_size > 0 for name in os.listdir(tmp_path)))
    p.send_signal(signal.SIGHUP)
    _, err = p.communicate(timeout=60)
    assert (p.returncode, err) == (0, b"")
    assert out.read_bytes() == b'{"properties": {"x": 1}}\n' * 20_000


@pytest.fixture(scope="module")
def big_dump(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 12 MB of the sample (several of parallel's 2 MB blocks)."""
    path = tmp_path_factory.mktemp("big") / "big.ndjson"
    data = SAMPLE.read_bytes()
    with open(path, "wb") as f:
        for _ in range(max(1, (12 << 20) // len(data))):
            f.write(data)
    return path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and PR_SET_PDEATHSIG are Linux")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=lambda s: s.name)
def test_workers_die_with_their_parent(big_dump: Path, sig: signal.Signals) -> None:
    """filter --jobs 2 into a pipe nobody reads: the workers block writing to it. Kill the parent
    (SIGKILL cannot be caught: only the kernel's parent-death signal can end them then): the
    workers are gone within seconds, and the pipe's write end with them."""
    p = subprocess.Popen(jmsctl("filter", CARS, str(big_dump), "--jobs", "2"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env())
    try:
        assert wait_until(lambda: len(children(p.pid)) >= 2), "the workers did not start"
        workers = children(p.pid)
        time.sleep(0.3)  # working, and soon blocked on the full pipe
        p.send_signal(sig)
        p.wait(timeout=30)
        assert wait_until(lambda: not any(alive(w) for w in workers), timeout=10), "workers outlived their parent"
        assert p.returncode in (-sig, 128 + sig)
    finally:
        for pid in [p.pid, *children(p.pid)]:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        p.communicate(timeout=30)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux")
def test_sigterm_with_jobs_and_output_file_leaves_nothing(big_dump: Path, tmp_path: Path) -> None:
    """--jobs 2 --output FILE killed while the workers write the temp file: no worker, no temp file,
    no FILE."""
    out = tmp_path / "selected.ndjson"
    p = subprocess.Popen(jmsctl("filter", "JMSType <> 'no such type'", str(big_dump), str(big_dump), str(big_dump), "--jobs", "2", "-o", str(out)),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env())
    try:
        assert wait_until(lambda: len(children(p.pid)) >= 2), "the workers did not start"
        workers = children(p.pid)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
        assert p.returncode == 128 + signal.SIGTERM, err.decode()
        assert wait_until(lambda: not any(alive(w) for w in workers), timeout=10)
        assert listing(tmp_path) == []
    finally:
        with contextlib.suppress(OSError):
            os.kill(p.pid, signal.SIGKILL)


def _spark_ready() -> bool:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return False
    return shutil.which("java") is not None or bool(os.environ.get("JAVA_HOME"))


@pytest.mark.skipif(not sys.platform.startswith("linux") or not _spark_ready(), reason="needs Linux, pyspark and Java")
def test_spark_filter_killed_mid_job_leaves_no_partial_directory(big_dump: Path, tmp_path: Path) -> None:
    """SIGTERM while Spark writes: exit 143, the JVM gone, no temporary directory (with Spark's
    _temporary in it) and no output directory."""
    out_dir = tmp_path / "work"
    out_dir.mkdir()
    inputs = [str(big_dump)] * 4
    p = subprocess.Popen(jmsctl("spark", "filter", "JMSType <> 'none'", *inputs, "--output", str(out_dir / "out")),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env())
    try:
        assert wait_until(lambda: any(n.startswith(".out.tmp-") for n in os.listdir(out_dir)), timeout=120), "the job never started writing"
        jvms = children(p.pid)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
        assert p.returncode == 128 + signal.SIGTERM, err.decode()[-2000:]
        assert b"out not written" in err and b"Traceback" not in err
        assert listing(out_dir) == []
        assert wait_until(lambda: not any(alive(j) for j in jvms), timeout=20), "the JVM outlived jmsctl"
    finally:
        for pid in [p.pid, *children(p.pid)]:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.communicate(timeout=30)


def test_a_signal_in_a_held_block_is_raised_when_the_block_ends() -> None:
    """cleanup.held: a step and its count go together (a JMS send's commit and the number said
    committed): the Stopped of a signal received inside comes after the block's last statement."""
    from jmsctl import cleanup

    done: list[str] = []
    with pytest.raises(cleanup.Stopped) as stop, cleanup.stopping():
        with cleanup.held():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # the handler runs here, between statements: it must not raise
            done.append("counted")
        done.append("after the block")  # never reached: Stopped at the block's end
    assert done == ["counted"] and stop.value.status == 128 + signal.SIGTERM

"""``--jobs N``: one NDJSON file filtered by N worker processes, the output in input order.

The file (regular, uncompressed) is cut into blocks of BLOCK_SIZE bytes, each moved forward to
the next line start, so that every line belongs to exactly one block. Worker ``w`` of ``N``
(forked: it inherits the compiled selector) processes blocks ``w, w + N, w + 2N, ...`` (each in
pieces of about PIECE_SIZE bytes) with the same ``fastpath.Engine`` as one process would, and puts each block's Batch (selected lines,
counts, rejections, number of lines) on its own queue of at most QUEUE_DEPTH batches. The
parent takes block 0 from queue 0, block 1 from queue 1, ...: the batches come back in file
order, and the parent adds up line numbers and counts exactly as the sequential path does.
Memory is bounded by N x (QUEUE_DEPTH + 2) blocks, whatever the size of the file: a block that
holds a line longer than the maximum record size (rejected) is read in pieces, that line counted
through but never held, as the loader reads it.

With ``direct`` (NDJSON output to a file descriptor), each worker writes its block's selected
lines to that descriptor itself, in turn (a shared "next block to write" number), and sends only
counts and rejections: the selected bytes are not copied through a pipe to the parent and written
again (on a non-selective selector, most of the file).

Workers die with their parent, whatever ends it: on Linux each asks the kernel for SIGKILL when
its parent dies (``PR_SET_PDEATHSIG``, which covers a SIGKILL of the parent too), and while they
run the parent's SIGTERM, SIGHUP and SIGINT handlers (``jmsctl.cleanup``) kill them first. An
orphaned worker would otherwise hold the input and the caller's stdout open for good.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import multiprocessing
import os
import queue
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from jmsctl import cleanup
from jmsctl.filter.fast import Batch, Engine
from jmsctl.messages.loader import line_chunks

BLOCK_SIZE = 2 << 20
# A block is processed in pieces of about this many bytes, each read on its own: a piece, its lines and
# what is decoded from them stay in the core's cache (1 MB of L2 here) across the passes over them (the
# split, the scans, the decode, the key counts), where a whole block's did not (``Engine.process`` of
# --count on 48 MB of bench/shapes_bench.py's typed dump, fastest of 7 runs interleaved: 6-12 % less
# CPU in pieces of 512 KB than of 2 MB, on five of its six selectors). Blocks stay the unit handed
# between processes.
PIECE_SIZE = 512 << 10
QUEUE_DEPTH = 2
_BOM = b"\xef\xbb\xbf"


def available() -> bool:
    """Workers are forked (they inherit the compiled selector). Not beside a JVM that JPype started
    in this process (a live broker's client, jmsctl/brokers/jms.py): its threads hold malloc's and
    their own locks at any moment, and a child forked then hung for good in its first allocation
    (seen in the test run). The caller then reads the file in this process instead."""
    return "fork" in multiprocessing.get_all_start_methods() and not _jvm_in_process()


def _jvm_in_process() -> bool:
    jpype = sys.modules.get("jpype")
    return bool(jpype is not None and getattr(jpype, "isJVMStarted", lambda: False)())


def _line_start_at_or_after(fd: int, pos: int, size: int, probe: int = 1 << 16) -> int:
    """The first line start >= pos (pos itself when the byte before it is a newline), before
    ``size``; read ``probe`` bytes at a time."""
    if pos >= size:
        return size
    at = pos - 1
    while at < size:
        data = os.pread(fd, probe, at)
        if not data:
            break
        nl = data.find(b"\n")
        if nl != -1:
            return at + nl + 1
        at += len(data)
        probe = max(probe, min(2 * probe, 1 << 20))  # a long line: larger reads
    return size


class _Range(io.RawIOBase):
    """Bytes ``[lo, hi)`` of an open file, read with ``pread`` (the file offset is not shared)."""

    def __init__(self, fd: int, lo: int, hi: int) -> None:
        self.fd, self.pos, self.hi = fd, lo, hi

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self.hi - self.pos)
        if n <= 0:
            return 0
        data = os.pread(self.fd, n, self.pos)
        buffer[: len(data)] = data
        self.pos += len(data)
        return len(data)


def _then(total: Batch, sub: Batch, parts: list[bytes]) -> None:
    """``sub``, the Batch of the lines that follow ``total``'s, added to it (its output to ``parts``)."""
    offset = total.lines
    for name in ("read", "true", "false", "unknown", "rejected", "skipped", "selected", "lines"):
        setattr(total, name, getattr(total, name) + getattr(sub, name))
    if sub.kept:
        total.kept += [(offset + i, raw) for i, raw in sub.kept]
    if sub.errors:
        total.errors += [(offset + i, raw, where, reason) for i, raw, where, reason in sub.errors]
    if sub.out:
        parts.append(sub.out)


def _streamed(engine: Engine, fd: int, lo: int, hi: int, limit: int) -> Batch:
    """One block that is too long to hold (a line over the maximum record size in it): its lines
    in chunks from the loader's own chunker, an oversized line as the rejection it gives."""
    total = Batch()
    parts: list[bytes] = []
    stream = io.BufferedReader(_Range(fd, lo, hi), BLOCK_SIZE)
    for item in line_chunks(b"", stream, BLOCK_SIZE, engine.name, limit):
        if isinstance(item, bytes):
            sub = engine.process(item)
        else:
            assert item.error is not None  # an OversizedLine
            sub = Batch(lines=1, read=1, rejected=1, errors=[(0, None, item.error.field, item.error.reason)])
        _then(total, sub, parts)
    total.out = b"".join(parts)
    return total


def _in_pieces(engine: Engine, fd: int, lo: int, hi: int, path: str) -> Batch:
    """The lines of bytes ``[lo, hi)`` (whole lines), processed in pieces of about PIECE_SIZE
    bytes, each cut at a line start and read on its own (no copy of a block cut up)."""
    total = Batch()
    parts: list[bytes] = []
    pos = lo
    while pos < hi:
        end = hi if hi - pos < 2 * PIECE_SIZE else _line_start_at_or_after(fd, pos + PIECE_SIZE, hi, 1 << 12)
        chunk = os.pread(fd, end - pos, pos)
        if len(chunk) != end - pos:
            raise OSError(f"{path}: the file changed while it was read")
        _then(total, engine.process(chunk), parts)
        pos = end
    total.out = b"".join(parts) if len(parts) != 1 else parts[0]
    return total


class _Turns:
    """Blocks written in file order by several processes: block k waits until k - 1 is written."""

    def __init__(self, ctx: Any) -> None:
        self.cond = ctx.Condition()
        self.next = ctx.Value("q", 0, lock=False)  # guarded by cond

    def write(self, fd: int, k: int, data: bytes) -> None:
        with self.cond:
            self.cond.wait_for(lambda: self.next.value == k)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        with self.cond:
            self.next.value = k + 1
            self.cond.notify_all()


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # <malloc.h> (glibc)
_HEAP_KEPT = 32 << 20  # bytes: glibc's largest mmap threshold on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX)


def _keep_heap() -> None:
    """glibc's malloc told to keep freed memory for the next block (no-op elsewhere). Each block is a
    new 2 MB ``bytes`` (``os.pread``) and its lines another 2 MB of small ones, all freed before the
    next: by default malloc maps the block afresh or hands the heap's top back to the kernel, and
    every page of the next block is then faulted in again (a minor fault each 4 KB: 40,000 in the
    workers on the bare dump of 1 M messages of bench/shapes_bench.py, about 0.1 s of system time,
    against 7,000 with the memory kept). The pages a worker's lines take from pymalloc are kept
    by ``linescan._HELD_EVERY``."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None)
            libc.mallopt(_M_MMAP_THRESHOLD, _HEAP_KEPT)
            libc.mallopt(_M_TRIM_THRESHOLD, 8 * _HEAP_KEPT)


def _die_with_parent(parent: int) -> None:
    """SIGKILL from the kernel when the parent dies (Linux), and an exit now if it already has:
    the parent may have died between the fork and the prctl call."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _worker(
    engine: Engine, path: str, start: int, size: int, block: int, nblocks: int, w: int, jobs: int, out: Any, direct: tuple[int, _Turns] | None,
    parent: int,
) -> None:
    _die_with_parent(parent)
    _keep_heap()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends the workers
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)):
        signal.signal(sig, signal.SIG_DFL)  # not the parent's clean-up handler: a worker just ends
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            for k in range(w, nblocks, jobs):
                lo = start if k == 0 else _line_start_at_or_after(fd, start + k * block, size)
                hi = _line_start_at_or_after(fd, start + (k + 1) * block, size)
                limit = engine.max_record_size
                if limit is not None and hi - lo > max(limit, 2 * block):
                    batch = _streamed(engine, fd, lo, hi, limit)
                else:
                    batch = _in_pieces(engine, fd, lo, hi, path)
                if direct is not None:
                    direct[1].write(direct[0], k, batch.out)
                    batch.out = b""
                out.put(batch)
        finally:
            os.close(fd)
    except BrokenPipeError:
        out.put("BrokenPipeError")
    except OSError as exc:  # ENOSPC, EIO...: the parent raises it again, as its own write would
        out.put(("OSError", exc.errno, exc.strerror or str(exc)))
    except BaseException:
        out.put("".join(traceback.format_exc()))


def batches(engine: Engine, path: str, jobs: int, block: int | None = None, direct: Callable[[], int | None] | None = None,
            start: int | None = None) -> Iterator[Batch]:
    """The Batches of an NDJSON file in file order, from ``jobs`` worker processes (blocks of
    ``block`` bytes, BLOCK_SIZE by default). ``direct``: called before the workers start, it
    flushes the output and gives its file descriptor (None: not a real file); the workers then
    write the selected lines there themselves, and the Batches come without them. ``start``: the
    offset of a line start to begin at (the lines before it processed by the caller)."""
    if block is None:
        block = BLOCK_SIZE
    size = os.path.getsize(path)
    if start is None:
        with open(path, "rb") as f:
            start = 3 if f.read(3) == _BOM else 0
    nblocks = max(1, -(-(size - start) // block))
    jobs = max(1, min(jobs, nblocks))
    ctx = multiprocessing.get_context("fork")
    queues = [ctx.Queue(maxsize=QUEUE_DEPTH) for _ in range(jobs)]
    for stream in (sys.stdout, sys.stderr):  # a forked child must not write buffered output again
        with contextlib.suppress(Exception):
            stream.flush()
    out_fd = direct() if direct is not None and not engine.keep_lines else None
    turns = (out_fd, _Turns(ctx)) if out_fd is not None else None
    procs = [
        ctx.Process(target=_worker, args=(engine, path, start, size, block, nblocks, w, jobs, queues[w], turns, os.getpid()), daemon=True)
        for w in range(jobs)
    ]

    def kill_workers() -> None:
        for p in procs:
            if p.pid is not None:
                with contextlib.suppress(OSError):
                    os.kill(p.pid, signal.SIGKILL)

    token = cleanup.register("", kill_workers)
    try:
        for p in procs:
            p.start()
        for k in range(nblocks):
            w = k % jobs
            while True:
                try:
                    item = queues[w].get(timeout=1.0)
                    break
                except queue.Empty:
                    if not procs[w].is_alive() and queues[w].empty():
                        raise RuntimeError(f"worker {w} for {path} exited with status {procs[w].exitcode}") from None
            if isinstance(item, tuple):
                raise OSError(item[1], item[2])
            if isinstance(item, str):
                if item == "BrokenPipeError":
                    raise BrokenPipeError(f"worker {w} for {path}: the output was closed")
                if "OSError" in item:
                    raise OSError(item.strip().splitlines()[-1])
                raise RuntimeError(f"worker {w} for {path} failed:\n{item}")
            yield item
    finally:
        for p in procs:
            if p.pid is not None and p.is_alive():
                p.terminate()
        for p in procs:
            if p.pid is not None:
                p.join()
        for q in queues:
            q.close()
            q.cancel_join_thread()
        cleanup.unregister(token)


__all__ = ["BLOCK_SIZE", "available", "batches"]

"""Executors for the job layer: run :class:`Task` objects in this process, in
local worker processes, or on a Dask cluster (see :mod:`polyforms.jobs.runner`).

Every executor has the same small interface: :meth:`Executor.submit` a task,
:meth:`Executor.next_result` of any finished one, :meth:`Executor.close` to
stop (and reap) whatever still runs. Workers never handle SIGINT themselves:
the parent stops them, so Ctrl-C shows no worker tracebacks.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import io
import itertools
import math
import os
import pickle
import signal
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .. import limits
from ..errors import PolyformError

__all__ = [
    "CheckpointError",
    "Dask",
    "Executor",
    "InProcess",
    "JobError",
    "Pieces",
    "Processes",
    "Spooled",
    "Task",
    "available_cores",
    "executor_from",
]

_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
_DASK_HINT = 'the dask executor needs dask.distributed: pip install "polyforms[dask]"'


# In a worker process: a byte shared with the parent, non-zero while some
# worker of the pool is idle with nothing queued for it (see :func:`peers_idle`).
_PEERS_IDLE: Any = None


def peers_idle() -> Callable[[], bool] | None:
    """In a worker process, a function telling whether another worker of the
    pool sits idle with no task waiting; None elsewhere (in the parent, on Dask).

    A long subtask that can stop where it stands and hand back the rest (a
    tiling count) asks it now and then: so the end of a run, or a stretch where
    the planned subtasks are all out and one worker grinds on an underestimated
    one, does not leave the other cores idle (8x8 + square, 2 processes: one
    worker waited 87 ms mid-run and 60 ms at the end of a 0.76 s run).
    """
    flag = _PEERS_IDLE
    if flag is None:
        return None
    return lambda: flag.value != 0


def stop_when(seconds: float) -> Callable[[], bool]:
    """A subtask's ``stop``: true once ``seconds`` have passed or, in a worker
    process, while another worker sits idle (:func:`peers_idle`)."""
    deadline = time.monotonic() + seconds
    idle = peers_idle()
    if idle is None:
        return lambda: time.monotonic() >= deadline
    return lambda: idle() or time.monotonic() >= deadline


class JobError(PolyformError):
    """A job cannot run as asked: bad task or plan, missing optional dependency, dead worker."""


class CheckpointError(JobError):
    """A checkpoint file belongs to another command, is in use, or is not a checkpoint."""


@dataclass(frozen=True)
class Task:
    """One subtask: ``function(*args)`` gives its result.

    Parameters
    ----------
    id : str
        Stable id such as ``"3"`` or ``"3.1.4"``: dot-separated words of letters,
        digits, ``_`` and ``-``; a child's id is its parent's id plus ``".k"``.
    function : callable
        A module-level function, so that it pickles by reference.
    args : tuple
    weight : float
        Estimated size (for example nodes of the subtree); drives planning and progress.
    """

    id: str
    function: Callable[..., Any]
    args: tuple = ()
    weight: float = 1.0


@dataclass(frozen=True)
class Continued:
    """The result of a subtask that stopped with work left (counts only).

    ``result`` is what it did (added to the sum like any result); ``rest``
    describes what is left, as JSON values, and ``weights`` estimates each
    item of it. The job's ``resume(task, rest, weights)`` turns them into new
    tasks with ids ``task.id + ".cK"``; a checkpoint journals them all, so a
    resumed run takes up the same new tasks. ``done``, if known, is the share
    (0 to 1) of the task's own weight that it did; progress counts that much
    of it as done (without it: the task's weight less the rest's).
    """

    result: Any
    rest: list
    weights: list
    done: float | None = None


#: A worker process hands back a bytes result at least this long through a file in
#: the run's spool directory, not the pipe (see :class:`Spooled`).
SPOOL_BYTES = 256 * 1024


class Pieces:
    """A task's bytes result made piece by piece: its value is the pieces joined.

    A worker with a spool directory writes the pieces to a spool file as they
    come, so a result of many megabytes is never whole in its memory. A
    chunk of a catalogue formatted whole came into fresh memory that the
    system zero-filled page by page: for free polyominoes of size 16 to jsonl
    (2 GB in 216 chunks) 5.4 s of formatting against 3.7 s in pieces of 4,096
    polyforms, and the two workers' wall time 8.0-8.3 s against 6.1-6.6 s.
    Everywhere else (this process, a remote cluster) the pieces are joined.
    """

    __slots__ = ("pieces",)

    def __init__(self, pieces: Iterable[bytes]) -> None:
        self.pieces = pieces

    def join(self) -> bytes:
        return b"".join(self.pieces)


#: What copy_file_range answers when it cannot copy between two files (other file
#: systems on older kernels, special files): Python copies instead.
_NO_KERNEL_COPY = {errno.EXDEV, errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EBADF}
#: Errors that Python's copy would meet too: raised at once.
_FATAL = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG}


class Spooled:
    """A bytes result that a worker process left in a file, for the parent to copy.

    Through the pipe, a result is copied into the pipe, out of it, into a
    buffer and by unpickling into a bytes object; for free polyominoes of
    size 16 to jsonl (2 GB) that took 5 of the parent's 8 CPU seconds, on two
    cores that the two workers need. From a file, :meth:`copy_to` has the
    kernel copy it to the output (``os.copy_file_range``): 0.9 s. The job
    layer hands these only to consumers that ask for them (``files=True``);
    everyone else gets the bytes from :meth:`read`.
    """

    __slots__ = ("path", "size", "owned")

    def __init__(self, path: str, size: int, owned: bool = True) -> None:
        self.path, self.size, self.owned = path, size, owned  # owned: deleted once used

    def __len__(self) -> int:
        return self.size

    def _done(self) -> None:
        if self.owned:
            with contextlib.suppress(OSError):
                os.unlink(self.path)

    def read(self) -> bytes:
        """The bytes (the file is then deleted, if the result owns it)."""
        with open(self.path, "rb") as handle:
            data = handle.read()
        self._done()
        return data

    def head(self) -> bytes:
        """The first line, newline included: where a chunk keeps its count."""
        with open(self.path, "rb") as handle:
            return handle.readline(64)

    def copy_to(self, stream: Any, start: int = 0) -> None:
        """Append the bytes from offset ``start`` to ``size`` to the binary ``stream``.

        The kernel copies into plain files (``io.FileIO`` and the buffered
        writers over one); any other stream, a kernel that refuses before the
        first byte, or one that stops early, gets the rest copied by Python.
        A source shorter than ``size`` is an error (:class:`JobError`).
        """
        left = self.size - start
        with open(self.path, "rb") as source:
            if isinstance(stream, (io.FileIO, io.BufferedWriter, io.BufferedRandom)):
                stream.flush()
                whole = left
                try:
                    out = stream.fileno()
                    while left > 0:
                        copied = os.copy_file_range(source.fileno(), out, left, start)
                        if copied == 0:
                            break  # the source ends early: Python finds how short
                        start, left = start + copied, left - copied
                except (AttributeError, io.UnsupportedOperation):
                    pass  # no copy_file_range on this system
                except OSError as error:
                    # Refused before the first byte (another file system, a
                    # sandbox's EPERM): Python copies. A full disk, or a
                    # failure part way: the error stands.
                    if error.errno in _FATAL or (
                        left < whole and error.errno not in _NO_KERNEL_COPY
                    ):
                        raise
            source.seek(start)
            while left > 0:
                block = source.read(min(left, 1 << 20))
                if not block:
                    raise JobError(
                        f"a spooled result is {left} bytes shorter than its {self.size}: "
                        f"{self.path}"
                    )
                view = memoryview(block)
                while view:  # a raw file may take part of a block
                    view = view[stream.write(view) :]
                left -= len(block)
        self._done()


class Shared(bytes):
    """Bytes that many tasks of a job take as an argument (a tiling count's spec,
    40-50 KB on the benchmark rows). A worker process gets them once, not with
    every task, and a Dask batch once for all its tasks; a task run in this
    process sees them as the bytes they are. Only a task's own arguments are
    looked at, not what they hold."""

    @functools.cached_property
    def key(self) -> str:
        return hashlib.sha1(self).hexdigest()


class _SharedRef(NamedTuple):
    """Stands for a :class:`Shared` argument in a task's message."""

    key: str


#: Shared bytes a worker process keeps, the most recent; the parent keeps the
#: same list for each worker (both see the same messages in the same order).
_SHARED_KEPT = 8
_SHARED: dict[str, bytes] = {}  # in a worker process: key -> bytes, oldest first


def _pickled(task: Task) -> tuple[bytes, dict[str, Shared]]:
    """``(function, args)`` of ``task`` pickled for a worker process or a Dask worker,
    its :class:`Shared` arguments left out (stood for by their keys) and returned
    apart, by key."""
    shared = {arg.key: arg for arg in task.args if type(arg) is Shared}
    args = task.args
    if shared:
        args = tuple(_SharedRef(arg.key) if type(arg) is Shared else arg for arg in args)
    try:
        return pickle.dumps((task.function, args), protocol=pickle.HIGHEST_PROTOCOL), shared
    except Exception as error:
        raise JobError(f"subtask {task.id} cannot be sent to a worker: {error}") from None


def _unpickled(message: bytes, shared: dict[str, bytes]) -> tuple[Callable[..., Any], tuple]:
    """The function and arguments of a task's message, its shared bytes put back."""
    function, args = pickle.loads(message)
    if any(type(arg) is _SharedRef for arg in args):
        args = tuple(shared[arg.key] if type(arg) is _SharedRef else arg for arg in args)
    return function, args


def _keep(kept: dict[str, Any], key: str, value: Any) -> None:
    """Add ``key`` to ``kept``, dropping the oldest beyond :data:`_SHARED_KEPT`."""
    kept[key] = value
    while len(kept) > _SHARED_KEPT:
        del kept[next(iter(kept))]


def _make_spool(owner: Any) -> str:
    """A new spool directory for ``owner``'s workers; removed by :func:`_remove_spool`,
    or when ``owner`` is garbage-collected or the interpreter exits unclosed."""
    import tempfile
    import weakref

    path = tempfile.mkdtemp(prefix="polyforms-spool-")
    owner._spool_finalizer = weakref.finalize(owner, _rmtree_in, os.getpid(), path)
    return path


def _rmtree_in(pid: int, path: str) -> None:
    """Remove ``path`` if this is process ``pid``: a child forked by the caller
    (not our workers, which end without exit hooks) must not, at its exit,
    remove the directory its parent still uses."""
    if os.getpid() == pid:
        import shutil

        shutil.rmtree(path, ignore_errors=True)


def _remove_spool(owner: Any) -> None:
    finalizer = getattr(owner, "_spool_finalizer", None)
    owner._spool = owner._spool_finalizer = None
    if finalizer is not None:
        finalizer()  # once: removes the directory and forgets it


def _spooled(result: Any, spool: str | None, limit: int) -> Any:
    """``result`` as a task hands it back: a :class:`Spooled` file holding it when
    it is bytes or :class:`Pieces` of at least ``limit`` and the process has a
    spool directory (that of its pool, on the same machine); else as it is,
    :class:`Pieces` joined. The limit comes from the parent (:data:`SPOOL_BYTES`
    when the pool started), so that a lowered one reaches every kind of worker."""
    if spool is None:
        return result.join() if isinstance(result, Pieces) else result
    if isinstance(result, Pieces):
        return _spooled_pieces(iter(result.pieces), spool, limit)
    if isinstance(result, (bytes, bytearray)) and len(result) >= limit:
        return _spooled_pieces(iter((result,)), spool, limit)
    return result


def _spooled_pieces(pieces: Iterator[bytes], spool: str, limit: int) -> Any:
    """Pieces of a result joined if they stay under ``limit``, else a spool file
    written piece by piece (joined in memory if the spool cannot take them)."""
    head: list[bytes] = []
    size = 0
    for piece in pieces:
        head.append(piece)
        size += len(piece)
        if size >= limit:
            break
    else:
        return b"".join(head)
    import tempfile

    rest = itertools.chain(head, pieces)
    try:
        handle, path = tempfile.mkstemp(dir=spool)
    except OSError:
        return b"".join(rest)  # the spool is gone: the pipe still works
    done = 0  # bytes in the file
    try:
        with open(handle, "wb", buffering=0) as stream:
            for piece in rest:  # an error of the task's own comes out of here
                pending = memoryview(piece)
                try:
                    while pending:
                        wrote = stream.write(pending)
                        pending, done = pending[wrote:], done + wrote
                except OSError:  # a full disk, say: read back what it took, send by pipe
                    stream.close()
                    with open(path, "rb") as written:
                        whole = written.read(done)
                    os.unlink(path)
                    return whole + bytes(pending) + b"".join(rest)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    return Spooled(path, done)


class Executor:
    """Runs tasks somewhere; subclasses implement submit, next_result, in_flight and close.

    ``close()`` stops whatever is still running at once (results in flight are
    lost; a checkpoint has the finished ones). An executor is reusable after
    ``close``: it starts again on the next ``submit``.
    """

    workers: int = 1
    _ends: dict[Any, float] | None = None  # worker -> when its last task ended (monotonic)
    _since: float = 0.0

    def start_run(self) -> None:
        """Forget the task end times of earlier runs (:func:`polyforms.jobs.run` calls it)."""
        self._ends, self._since = {}, time.monotonic()

    def expect(self, weight: float) -> None:
        """The tasks the run has planned to submit weigh ``weight`` in all
        (:func:`polyforms.jobs.runner.run` says so before its first submission; tasks
        handed back later come on top). Nothing by default."""

    def _ended(self, worker: Any) -> None:
        if self._ends is not None:
            self._ends[worker] = time.monotonic()

    @property
    def tail(self) -> float:
        """Seconds from the first worker going idle for good to the last task's end.

        Measured over the tasks since :meth:`start_run`, from when the parent
        received each worker's last result; a worker that got no task counts
        as idle from the start. 0 with one worker, or before any task ended.
        """
        ends = list((self._ends or {}).values())
        if not ends or self.workers <= 1:
            return 0.0
        first_idle = self._since if len(ends) < self.workers else min(ends)
        return max(ends) - first_idle

    @property
    def capacity(self) -> int:
        """How many tasks may be submitted and unfinished at once."""
        return 2 * self.workers

    @property
    def in_flight(self) -> int:
        raise NotImplementedError

    def submit(self, task: Task, tag: str = "") -> None:
        """Start ``task``; ``tag`` prefixes its name where the backend shows names."""
        raise NotImplementedError

    def running(self) -> list[tuple[Task, float]]:
        """The tasks running now, each with the ``time.monotonic()`` it started at,
        as far as this executor knows (none by default). :func:`polyforms.jobs.runner.run`
        credits their progress so far to the fraction done, so a few long
        subtasks under way do not make the ETA read their run time as idle."""
        return []

    def next_result(self) -> tuple[Task, Any]:
        """Wait for a submitted task to finish; return it and its result, or raise its error."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def map_unordered(self, tasks: Iterable[Task]) -> Iterator[tuple[Task, Any]]:
        """Yield ``(task, result)`` as tasks finish, with at most ``capacity`` in flight
        (large bytes results that came through a spool file are read back)."""
        pending = iter(tasks)
        try:
            while True:
                while self.in_flight < self.capacity:
                    task = next(pending, None)
                    if task is None:
                        break
                    self.submit(task)
                if not self.in_flight:
                    return
                task, result = self.next_result()
                yield task, result.read() if isinstance(result, Spooled) else result
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InProcess(Executor):
    """Run each task in the calling process, in submission order (the default)."""

    def __init__(self) -> None:
        self._queue: deque[Task] = deque()

    @property
    def in_flight(self) -> int:
        return len(self._queue)

    def submit(self, task: Task, tag: str = "") -> None:
        self._queue.append(task)

    def next_result(self) -> tuple[Task, Any]:
        task = self._queue.popleft()
        return task, _spooled(task.function(*task.args), None, 0)  # Pieces joined

    def close(self) -> None:
        self._queue.clear()


def available_cores() -> int:
    """Cores this process may use (its CPU affinity where known, else ``os.cpu_count()``)."""
    with contextlib.suppress(AttributeError, OSError):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def capped_workers(n: int, what: str, stacklevel: int) -> tuple[int, str | None]:
    """``n`` ``what`` (worker processes, threads; 0: one a core) as many as the
    cores allow, and the note of a cap, also given as a RuntimeWarning
    (``stacklevel`` counted from the caller), or None."""
    cores = available_cores()
    if n > cores:
        note = f"{n} {what} asked for but {cores} cores: using {cores}"
        warnings.warn(note, RuntimeWarning, stacklevel=stacklevel + 1)
        return cores, note
    return n or cores, None


#: The first item of a message that brings a worker process :class:`Shared` bytes.
_SHARED_TAG = "polyforms-shared"

#: The largest task message queued behind a running task: well inside the 200 KB
#: a Unix socket buffers, so sending it never blocks (tiling subtasks: ~30 KB).
_QUEUED_BYTES = 64 * 1024


@dataclass
class _Worker:
    process: Any
    conn: Any
    tasks: deque[Task] = field(default_factory=deque)  # sent, oldest first, not yet answered
    shared: dict[str, None] = field(default_factory=dict)  # keys of the Shared bytes it holds
    since: float = 0.0  # when tasks[0] started (monotonic), as the parent saw it


class Processes(Executor):
    """Local worker processes fed through one pipe each, with one task queued ahead.

    A worker gets its next task while it runs the current one (when the message
    is small enough to sit in the pipe, :data:`_QUEUED_BYTES`), so it starts it
    as soon as it sends a result instead of waiting for the parent to wake up,
    read the result and answer: on two busy cores that round trip left each
    worker idle 0.05-0.3 s in a 2-second run.

    ``n = 0`` takes every core; more than the cores is capped with a
    RuntimeWarning (the text is also in ``note``). Workers use the "fork" start
    method where available, ignore SIGINT and SIGHUP (so Ctrl-C never prints
    worker tracebacks; the parent stops them) and die at once on SIGTERM.
    ``close()`` terminates them, reaps them within two seconds and kills any
    left. A worker whose parent vanished exits at its next read of the pipe.
    """

    def __init__(self, n: int = 0) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise JobError(f"the number of worker processes must be an integer >= 0, not {n!r}")
        self.workers, self.note = capped_workers(n, "worker processes", stacklevel=2)
        # Imported here: a run in this process (a progress bar's) needs none of it (11 ms).
        import multiprocessing

        methods = multiprocessing.get_all_start_methods()
        self._fork = "fork" in methods
        self._context = multiprocessing.get_context("fork" if self._fork else None)
        self._pool: list[_Worker] = []
        self._waiting: deque[tuple[Task, bytes, dict[str, Shared]]] = deque()
        self._spool: str | None = None  # a directory for large results, made with the pool
        self._idle: Any = None  # the pool's shared "a worker is idle" byte (peers_idle)

    @property
    def pids(self) -> list[int]:
        """Process ids of the running workers."""
        return [worker.process.pid for worker in self._pool]

    @property
    def in_flight(self) -> int:
        return len(self._waiting) + sum(len(worker.tasks) for worker in self._pool)

    def running(self) -> list[tuple[Task, float]]:
        return [(worker.tasks[0], worker.since) for worker in self._pool if worker.tasks]

    def _start(self) -> None:
        # Block our signals across fork so that no child runs the parent's handler
        # before it has installed its own; a pending one is delivered after.
        mask = hasattr(signal, "pthread_sigmask")
        if mask:
            old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        try:
            self._spool = _make_spool(self)
            self._idle = self._context.RawValue("b", 0)
            parents: list[Any] = []
            for k in range(self.workers):
                parent, child = self._context.Pipe()
                parents.append(parent)
                # A forked child closes its copies of the parent ends, or it would keep
                # them open and no worker would see the end of its pipe if we vanished.
                inherited = list(parents) if self._fork else []
                process = self._context.Process(
                    target=_worker_main,
                    args=(child, inherited, self._spool, SPOOL_BYTES, self._idle, self.workers),
                    daemon=True,
                    name=f"polyforms-worker-{k}",
                )
                self._pool.append(_Worker(process, parent))
                process.start()
                child.close()
        except BaseException:
            self.close()
            raise
        finally:
            if mask:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)

    def submit(self, task: Task, tag: str = "") -> None:
        blob, shared = _pickled(task)
        if not self._pool:
            self._start()
        self._waiting.append((task, blob, shared))
        self._feed()

    def _feed(self) -> None:
        """Send waiting tasks to idle workers, then queue one more behind each running task.

        A queued message must fit in the pipe's buffer: a larger one would block
        the parent in ``send`` until the worker finished its current task, and a
        worker blocked sending a large result back to it would then never read.
        """
        for depth in (0, 1):
            for worker in self._pool:
                if not self._waiting:
                    return
                if len(worker.tasks) != depth:
                    continue
                _, blob, shared = self._waiting[0]
                new = [key for key in shared if key not in worker.shared]
                if depth == 0 or len(blob) + sum(len(shared[k]) for k in new) <= _QUEUED_BYTES:
                    task = self._waiting.popleft()[0]
                    try:
                        for key in new:  # before the task: the worker keeps them
                            message = (_SHARED_TAG, (key, bytes(shared[key])))
                            worker.conn.send_bytes(pickle.dumps(message))
                            _keep(worker.shared, key, None)
                        worker.conn.send_bytes(blob)
                    except OSError:  # the worker is gone (a broken pipe)
                        if worker.tasks:
                            raise self._death(worker, "while running", worker.tasks[0]) from None
                        raise self._death(worker, "before it took", task) from None
                    worker.tasks.append(task)
                    if depth == 0:
                        worker.since = time.monotonic()

    def next_result(self) -> tuple[Task, Any]:
        busy = {worker.conn: worker for worker in self._pool if worker.tasks}
        if not busy:
            raise JobError("no subtask is running")
        if self._idle is not None:
            # Everything submitted is out, so a worker without a task stays idle
            # until a running one hands part of its work back (peers_idle). Set
            # here only: the caller submits what it has before it waits again.
            self._idle.value = int(len(busy) < len(self._pool))
        from multiprocessing.connection import wait

        worker = busy[wait(list(busy))[0]]
        task = worker.tasks[0]
        try:
            ok, payload = worker.conn.recv()
        except (EOFError, OSError):
            raise self._death(worker, "while running", task) from None
        worker.tasks.popleft()
        self._ended(worker.process.pid)
        # A queued task started when the worker sent this result: about now.
        worker.since = time.monotonic()
        self._feed()
        if ok:
            return task, payload
        error, text = payload
        if hasattr(error, "add_note"):  # Python >= 3.11: show where it happened
            error.add_note(f"in subtask {task.id}, in a worker process:\n{text.rstrip()}")
        raise error

    @staticmethod
    def _death(worker: _Worker, when: str, task: Task) -> JobError:
        """The error for a worker found dead (its pipe closed) ``when`` ``task``."""
        worker.process.join(0.2)
        code = worker.process.exitcode
        if code is not None and -code in _SIGNALS:
            time.sleep(0.05)  # a signal to the whole group: let ours arrive and win
        return JobError(f"a worker process died (exit status {code}) {when} subtask {task.id}")

    def close(self) -> None:
        pool, self._pool = self._pool, []
        self._waiting.clear()
        self._idle = None
        _reap([worker.process for worker in pool])
        for worker in pool:
            worker.conn.close()
        _remove_spool(self)


def _worker_main(
    conn: Any,
    inherited: list[Any],
    spool: str | None,
    limit: int,
    idle: Any = None,
    workers: int = 1,
) -> None:
    global _PEERS_IDLE
    _PEERS_IDLE = idle
    limits.memo_sharers = workers  # each worker's tiling memo takes its share of memory
    for other in inherited:
        other.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
    while True:
        try:
            message = conn.recv_bytes()
        except (EOFError, OSError):
            return  # the parent closed the pipe or is gone
        try:
            function, args = _unpickled(message, _SHARED)
            if type(function) is str and function == _SHARED_TAG:  # for tasks to come: no reply
                _keep(_SHARED, args[0], args[1])
                continue
            reply: tuple = (True, _spooled(function(*args), spool, limit))
        except BaseException as error:
            reply = (False, _portable(error))
        try:
            conn.send(reply)
        except OSError:
            return
        except Exception as error:  # the result does not pickle
            conn.send((False, _portable(JobError(f"a result cannot be sent back: {error}"))))


def _portable(error: BaseException) -> tuple[BaseException, str]:
    import traceback

    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        error = JobError(f"{type(error).__name__}: {error}")
    return error, text


def _reap(processes: list[Any], timeout: float = 1.5) -> None:
    """Terminate, join within ``timeout``, then kill whatever is left: no zombies, no orphans."""
    for process in processes:
        with contextlib.suppress(Exception):
            if process.is_alive():
                process.terminate()
    deadline = time.monotonic() + timeout
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.kill()
            process.join(0.5)


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise JobError(_DASK_HINT) from None
    return distributed


def _is_client(obj: object) -> bool:
    return type(obj).__name__ == "Client" and type(obj).__module__.startswith("distributed")


#: Seconds to reach a Dask scheduler given by address before giving up (dask's
#: own default, 30 s, was paid twice before the error: a mistyped address
#: took the command a minute to refuse).
CONNECT_SECONDS = 10


def _remote_client(distributed: Any, address: str) -> Any:
    """A client of the Dask scheduler at ``address``, or a :class:`JobError`
    within about :data:`CONNECT_SECONDS`.

    Dask's own timeout covers the TCP connection only: a server that accepts it
    and never answers kept ``Client()`` waiting for ever, so the client is made
    in a thread given that long (left behind, a daemon, if it never returns).
    Whatever else answers (a web server, say) makes dask fail in its own ways
    (one tried to allocate 3 EiB from an HTTP reply): all of them are "cannot
    reach dask".
    """
    made: dict[str, Any] = {}

    def connect() -> None:
        try:
            made["client"] = distributed.Client(address, timeout=CONNECT_SECONDS)
        except BaseException as error:  # handed to the caller's thread
            made["error"] = error

    thread = threading.Thread(target=connect, name="polyforms-dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + 2)
    if thread.is_alive():
        raise JobError(
            f"cannot reach dask at {address}: no answer from a dask scheduler "
            f"in {CONNECT_SECONDS} s"
        )
    error = made.get("error")
    if isinstance(error, (ValueError, TypeError)):  # no port, unknown protocol
        raise JobError(f"not a dask scheduler address: {error}") from None
    if isinstance(error, Exception):
        text = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        raise JobError(f"cannot reach dask at {address}: {text}") from None
    if error is not None:
        raise error  # KeyboardInterrupt and the like
    return made["client"]


#: Settings for a LocalCluster of our own. We do not read its workers'
#: statistical profiles, sampled every 10 ms: they took 5-10 % of the workers'
#: CPU (8x8 + square). Its timers (the event loops' tick every 20 ms, system
#: monitors every 500 ms, workers' memory checks every 100 ms) kept an idle
#: cluster at 8 % of a core, 1.5 % with these, on the cores the tasks run on
#: (2-worker runs of 8x8 + square 0.66-0.73 of one worker -> 0.63-0.67, 3x4x5
#: --distinct 0.60-0.66 -> 0.57-0.59). They only slow down what nobody reads
#: here (dashboards, warnings of a blocked loop); memory is still checked,
#: every second.
_LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}


class Dask(Executor):
    """Run tasks on a dask.distributed cluster, a few consecutive tasks per dask task.

    ``client_or_address`` is a ``distributed.Client`` (left open at ``close``),
    a scheduler address such as ``"tcp://host:8786"``, or ``"local"``: a
    LocalCluster of ``workers`` single-threaded processes, started on first use
    and closed with the client by ``close``. Consecutive submitted tasks go as
    one dask task (a batch: how many, see :attr:`guide`), keyed ``tag-id`` by
    its first task's id, with ``pure=False``; ``close`` cancels those still
    running.

    Raises
    ------
    JobError
        dask.distributed is not installed (the message says what to install).
    """

    #: Tasks in a batch when the run has not said what it plans (:meth:`expect`),
    #: and at most until a batch has come back; those first batches stop at the
    #: planned weight / (floor * workers) too (3x4x5 --distinct begins with
    #: tasks of 50-200 ms).
    batch = 4
    #: Then a batch takes consecutive tasks until they weigh the weight not yet
    #: sent / (guide * workers), but at least the planned weight / (floor *
    #: workers): big batches first, small ones at the end (guided
    #: self-scheduling); yet no more than a worker does in batch_seconds, at the
    #: pace of the batches so far (the fraction done moves only when a batch
    #: comes back), nor more than max_batch tasks. Every dask task costs the
    #: scheduler, the client and the worker a few milliseconds of CPU, on the
    #: cores the tasks run on, and the job layer's subtasks take 5-70 ms each on
    #: the benchmark rows: a fixed 4 tasks a batch left 8x8 + square (tasks of 6
    #: ms) at 0.70-0.75 of one worker; a fixed 12 took it to 0.63-0.65 but 3x4x5
    #: --distinct (heavy tasks first) from 0.61 to 0.66, its last batches on one
    #: worker while the other idled.
    guide = 4
    floor = 16
    batch_seconds = 1.0
    max_batch = 64

    @property
    def capacity(self) -> int:
        """Two batches a worker: one running, one waiting on the worker, so that a
        worker never waits for a round trip through the scheduler. Without a plan
        (:meth:`expect`) batches of :attr:`batch` tasks; with one, room for another
        task while fewer than two batches a worker are out."""
        if self._floor_weight is None:
            return 2 * self.batch * self.workers
        return self.in_flight + int(len(self._futures) < 2 * self.workers)

    def expect(self, weight: float) -> None:
        if weight > 0:
            self._left = weight
            self._floor_weight = weight / (self.floor * self.workers)

    def _open_batch(self) -> None:
        """Set the weight and the number of tasks at which the batch begun now is sent."""
        self._batch_weight, self._most = math.inf, self.batch
        if self._floor_weight is None:
            return
        if not self._took:  # small batches until the pace is known
            self._batch_weight = self._floor_weight
            return
        guided = max(self._left / (self.guide * self.workers), self._floor_weight)
        paced = self._weighed / self._took * self.batch_seconds
        self._batch_weight, self._most = min(guided, paced), self.max_batch

    def __init__(self, client_or_address: Any = "local", workers: int = 2) -> None:
        _distributed()
        if not (isinstance(client_or_address, str) or _is_client(client_or_address)):
            raise JobError(f"not a dask Client or address: {client_or_address!r}")
        self._target = client_or_address
        self._hint = max(1, int(workers))
        self.note: str | None = None
        if client_or_address == "local":  # its workers are processes of this machine
            self._hint, self.note = capped_workers(self._hint, "dask workers", stacklevel=2)
        self._counted: int | None = None  # the cluster's threads, asked once per run
        self._client: Any = None
        self._cluster: Any = None
        self._completed: Any = None
        # The batch being filled: each task, its message and its Shared bytes.
        self._unsent: list[tuple[Task, bytes, dict[str, Shared]]] = []
        self._tag = "polyforms"  # the key prefix of the run's batches
        self._futures: dict[str, tuple[Any, list[Task]]] = {}
        self._finished: deque[tuple[Task, Any]] = deque()  # results of a batch, not yet taken
        self._spool: str | None = None  # for large results, with a cluster of our own
        self._left = 0.0  # the planned weight not yet sent
        self._batch_weight, self._most = math.inf, self.batch  # send the batch at these
        self._forget_plan()

    def _forget_plan(self) -> None:
        self._floor_weight: float | None = None  # the least weight of a batch; None: no plan
        self._weighed, self._took = 0.0, 0.0  # weight and seconds of the batches back

    def start_run(self) -> None:
        super().start_run()
        self._counted = None  # the cluster may have grown or shrunk since the last run
        self._forget_plan()  # until expect()

    @property
    def workers(self) -> int:  # type: ignore[override]
        """The worker threads of the cluster, asked once per run: the question is a
        round trip to the scheduler, and the run loop reads :attr:`capacity` (hence
        this) before every submission (enumerate 18: 3 s of a 7-second run)."""
        if self._target == "local":
            return self._hint
        if self._counted is None:
            client = self._connect()  # cannot reach it: a JobError, once
            self._counted = self._hint
            with contextlib.suppress(Exception):
                self._counted = sum(client.nthreads().values()) or self._hint
        return self._counted

    @property
    def in_flight(self) -> int:
        running = sum(len(tasks) for _, tasks in self._futures.values())
        return len(self._unsent) + running + len(self._finished)

    def _connect(self) -> Any:
        if self._client is None:
            distributed = _distributed()
            if not isinstance(self._target, str):
                self._client = self._target
            elif self._target == "local":
                import logging

                import dask

                # Our own cluster is an implementation detail: its INFO and its
                # shutdown warnings ("lose already computed tasks") are noise here.
                logging.getLogger("distributed").setLevel(logging.ERROR)
                with dask.config.set(_LOCAL_CLUSTER_CONFIG):
                    self._cluster = distributed.LocalCluster(
                        n_workers=self._hint,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=":0",  # any free port: several clusters may run
                        silence_logs=logging.ERROR,
                    )
                self._client = distributed.Client(self._cluster)
                # Its workers run on this machine: large results come back as
                # files, as from Processes, not through the scheduler's sockets
                # (free n = 16 to jsonl sends 2 GB).
                self._spool = _make_spool(self)
            else:
                self._client = _remote_client(distributed, self._target)
            # The results come with the futures, fetched by the client's event loop
            # as they finish: asking each future for its result is another round trip.
            self._completed = distributed.as_completed(
                loop=self._client.loop, with_results=True, raise_errors=False
            )
        return self._client

    def submit(self, task: Task, tag: str = "") -> None:
        # Each task is pickled on its own: dask walks every nested argument looking
        # for futures, which costs seconds for a tiling spec of thousands of tuples.
        payload, shared = _pickled(task)
        self._tag = tag or self._tag
        if not self._unsent:
            self._open_batch()
        self._unsent.append((task, payload, shared))
        weight = sum(queued.weight for queued, _, _ in self._unsent)  # 64 tasks at most
        if weight >= self._batch_weight or len(self._unsent) >= self._most:
            self._send()

    def _take_batch(self) -> list[tuple[Task, bytes, dict[str, Shared]]]:
        """The batch being filled, taken out: its weight is no longer left to send."""
        batch, self._unsent = self._unsent, []
        self._left -= sum(task.weight for task, _, _ in batch)
        return batch

    def _send(self) -> None:
        client = self._connect()
        batch = self._take_batch()
        tasks = [task for task, _, _ in batch]
        calls = [(task.id, payload) for task, payload, _ in batch]
        shared = {key: bytes(data) for _, _, held in batch for key, data in held.items()}
        key = f"{self._tag}-{tasks[0].id}"
        future = client.submit(
            _call_pickled, calls, self._spool, SPOOL_BYTES, shared, key=key, pure=False
        )
        self._futures[future.key] = (future, tasks)
        self._completed.add(future)

    def next_result(self) -> tuple[Task, Any]:
        if not self._finished:
            if self._unsent:
                self._send()  # a part batch rather than an idle worker
            future, outcome = next(self._completed)
            _, tasks = self._futures.pop(future.key)
            if future.status != "finished":
                # An error comes as (type, exception, traceback); a cancellation as
                # the exception. The worker noted which subtask raised it.
                if future.status == "error":
                    raise outcome[1].with_traceback(outcome[2])
                raise outcome
            where, results, seconds = outcome
            if results and isinstance(results[-1], _Failed):
                raise results[-1].error
            self._ended(where)
            self._took += seconds
            self._weighed += sum(task.weight for task in tasks)
            self._finished.extend(zip(tasks, results))
        return self._finished.popleft()

    def close(self) -> None:
        futures = [future for future, _ in self._futures.values()]
        self._futures.clear()
        self._unsent.clear()
        self._finished.clear()
        client, cluster = self._client, self._cluster
        with contextlib.suppress(Exception):
            if futures:
                client.cancel(futures, force=True)
        if self._completed is not None:
            self._completed.clear()
        if isinstance(self._target, str) and client is not None:
            self._client = self._cluster = self._completed = None
            with contextlib.suppress(Exception):
                client.close()
            with contextlib.suppress(Exception):
                if cluster is not None:
                    cluster.close()
        _remove_spool(self)


_malloc_kept = False  # in a worker of our own Dask cluster: _keep_freed_memory done


def _keep_freed_memory() -> None:
    """In a worker of our own Dask cluster, have glibc's malloc keep freed memory.

    Dask runs tasks in a thread, and glibc hands the free top of a thread's
    arena back to the system at each free, so a catalogue subtask's buffers
    were zero-filled again page by page for every piece it formatted: free
    polyominoes of size 16 to jsonl took 1.4-2.0 s of system time a worker,
    against 0.3 s in a worker process (main arena), and 8.2-8.6 s against
    6.3-6.9 s of wall time. With 64 MiB kept at the top of an arena and blocks
    under 32 MiB taken from arenas, not mapped afresh, it is 0.3-0.5 s. A
    worker of someone else's cluster is left as it is; without glibc nothing
    changes.
    """
    global _malloc_kept
    _malloc_kept = True
    import ctypes

    with contextlib.suppress(OSError, AttributeError, TypeError):  # TypeError: Windows
        mallopt = ctypes.CDLL(None).mallopt
        mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        mallopt(-1, 64 << 20)  # M_TRIM_THRESHOLD
        mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD


@dataclass(frozen=True)
class _Failed:
    """A batch's last result when its task raised an error that is not a fault
    (see :func:`_call_pickled`)."""

    error: BaseException


def _call_pickled(
    calls: list[tuple[str, bytes]],
    spool: str | None = None,
    limit: int = SPOOL_BYTES,
    shared: dict[str, bytes] | None = None,
) -> tuple[str, list[Any], float]:
    """Run a batch of tasks, each shipped as its id and ``pickle.dumps((function, args))``
    (see :meth:`Dask.submit`), their :class:`Shared` arguments in ``shared``.
    Return the worker's address (for :attr:`Executor.tail`), the results in
    order, large bytes as files in ``spool`` when given (a cluster on this
    machine), and the seconds they took (the pace of batches). An error names
    its subtask (Python >= 3.11)."""
    if spool is not None and not _malloc_kept:
        _keep_freed_memory()
    # Workers of a cluster usually fill the cores of their machine: each tiling
    # memo takes its share of the memory.
    limits.memo_sharers = max(limits.memo_sharers, available_cores())
    results = []
    start = time.perf_counter()
    for task_id, payload in calls:
        function, args = _unpickled(payload, shared or {})
        try:
            results.append(_spooled(function(*args), spool, limit))
        except Exception as error:
            if hasattr(error, "add_note"):
                error.add_note(f"in subtask {task_id}, on dask")
            if not isinstance(error, (PolyformError, MemoryError)):
                raise  # a fault: the worker logs it, with its traceback
            # The caller's error, or too little memory: the run says so in one
            # line. Raised, it would first be logged with its traceback by the
            # worker ("Compute Failed") on the terminal of a local cluster.
            results.append(_Failed(error))
            break
    try:
        from distributed import get_worker

        where = get_worker().address
    except (ImportError, ValueError):
        where = ""
    return where, results, time.perf_counter() - start


def executor_from(jobs: int | None = None, dask: Any = None) -> Executor:
    """The executor for the command line's ``--jobs N`` and ``--dask ADDRESS``.

    ``dask`` (a Client, an address or ``"local"``) gives :class:`Dask`, with
    ``jobs`` workers for ``"local"`` (default 2, 0: every core); else ``jobs`` None or 1 gives
    :class:`InProcess` and any other N gives ``Processes(N)`` (0: every core).
    """
    if isinstance(dask, Executor):
        return dask
    if dask is not None:
        return Dask(dask, workers=available_cores() if jobs == 0 else jobs or 2)
    if jobs is None or jobs == 1:
        return InProcess()
    return Processes(jobs)


def _resolve_executor(executor: Any) -> tuple[Executor, bool]:
    """The executor for ``run`` and whether ``run`` owns it (closes it at the end)."""
    if executor is None:
        return InProcess(), True
    if isinstance(executor, Executor):
        return executor, False
    if isinstance(executor, int) and not isinstance(executor, bool):
        return executor_from(jobs=executor), True
    if isinstance(executor, str) or _is_client(executor):
        return Dask(executor), True
    raise JobError(f"not an executor: {executor!r}")

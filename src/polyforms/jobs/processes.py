"""Local worker processes: :class:`Processes`, one pipe per worker, a task queued ahead.

A worker process receives tasks as pickled messages (:mod:`.transport`), runs
them and sends back each result, a large one as a file in the pool's spool
directory. While the pool's planned tasks are all out, a worker with nothing
to do raises a flag that long subtasks watch (:func:`peers_idle`), so that
they hand back part of their work instead of leaving that core idle.
"""

from __future__ import annotations

import contextlib
import pickle
import signal
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import limits
from . import transport
from .executors import STOP_SIGNALS, Executor, capped_workers
from .tasks import JobError, Shared, Task
from .transport import (
    keep_recent,
    make_spool,
    pickled_task,
    remove_spool,
    spooled_result,
    unpickled_task,
)

__all__ = ["Processes", "peers_idle", "stop_when"]

# In a worker process: a byte shared with the parent, non-zero while some
# worker of the pool is idle with nothing queued for it (see :func:`peers_idle`).
_PEERS_IDLE: Any = None

_SHARED: dict[str, bytes] = {}  # in a worker process: key -> Shared bytes, oldest first


def peers_idle() -> Callable[[], bool] | None:
    """In a worker process, a function telling whether another worker of the
    pool sits idle with no task waiting; None elsewhere (in the parent, on Dask).

    A long subtask that can stop where it stands and hand back the rest (a
    tiling count) asks it now and then: so the end of a run, or a stretch where
    the planned subtasks are all out and one worker grinds on an underestimated
    one, does not leave the other cores idle.
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


#: The first item of a message that brings a worker process :class:`~polyforms.jobs.Shared` bytes.
_SHARED_TAG = "polyforms-shared"

#: The largest task message queued behind a running task: well inside the 200 KB
#: a Unix socket buffers, so sending it never blocks (a tiling subtask's fits).
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
    read the result and answer: on busy cores that round trip would leave every
    worker idle after each task.

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
    def spool(self) -> str | None:
        """The directory the workers write large results to (as
        :class:`~polyforms.jobs.Spooled` files): made with the pool, removed when
        the executor closes or is collected; None while no pool runs."""
        return self._spool

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
            old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            self._spool = make_spool(self)
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
                    args=(
                        child,
                        inherited,
                        self._spool,
                        transport.SPOOL_BYTES,
                        self._idle,
                        self.workers,
                    ),
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
        blob, shared = pickled_task(task)
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
                if len(worker.tasks) == depth and (depth == 0 or self._fits_behind(worker)):
                    self._send_next(worker)

    def _unsent_shared(self, worker: _Worker) -> list[str]:
        """The keys of the next waiting task's Shared bytes that ``worker`` lacks."""
        shared = self._waiting[0][2]
        return [key for key in shared if key not in worker.shared]

    def _fits_behind(self, worker: _Worker) -> bool:
        """Does the next waiting task's message (its new Shared bytes included)
        fit in the pipe behind ``worker``'s running task?"""
        _, blob, shared = self._waiting[0]
        new = self._unsent_shared(worker)
        return len(blob) + sum(len(shared[key]) for key in new) <= _QUEUED_BYTES

    def _send_next(self, worker: _Worker) -> None:
        """Send ``worker`` the next waiting task, preceded by the Shared bytes it lacks."""
        new = self._unsent_shared(worker)
        task, blob, shared = self._waiting.popleft()
        try:
            for key in new:  # before the task: the worker keeps them
                message = (_SHARED_TAG, (key, bytes(shared[key])))
                worker.conn.send_bytes(pickle.dumps(message))
                keep_recent(worker.shared, key, None)
            worker.conn.send_bytes(blob)
        except OSError:  # the worker is gone (a broken pipe)
            if worker.tasks:
                raise self._death(worker, "while running", worker.tasks[0]) from None
            raise self._death(worker, "before it took", task) from None
        worker.tasks.append(task)
        if len(worker.tasks) == 1:
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
        if code is not None and -code in STOP_SIGNALS:
            time.sleep(0.05)  # a signal to the whole group: let ours arrive and win
        return JobError(f"a worker process died (exit status {code}) {when} subtask {task.id}")

    def close(self) -> None:
        pool, self._pool = self._pool, []
        self._waiting.clear()
        self._idle = None
        _reap([worker.process for worker in pool])
        for worker in pool:
            worker.conn.close()
        remove_spool(self)


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
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    while True:
        try:
            message = conn.recv_bytes()
        except (EOFError, OSError):
            return  # the parent closed the pipe or is gone
        try:
            function, args = unpickled_task(message, _SHARED)
            if type(function) is str and function == _SHARED_TAG:  # for tasks to come: no reply
                keep_recent(_SHARED, args[0], args[1])
                continue
            reply: tuple = (True, spooled_result(function(*args), spool, limit))
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

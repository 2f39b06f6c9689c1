"""Executors: where the tasks of a run go (see :func:`polyforms.jobs.run`).

Every executor has the same small interface: :meth:`Executor.submit` a task,
:meth:`Executor.next_result` of any finished one, :meth:`Executor.close` to
stop (and reap) whatever still runs. :class:`InProcess` runs tasks in the
calling process; :class:`~polyforms.jobs.Processes` on local worker processes,
:class:`~polyforms.jobs.Dask` on a Dask cluster. Workers never handle SIGINT
themselves: the parent stops them, so Ctrl-C shows no worker tracebacks.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import warnings
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from .tasks import Spooled, Task
from .transport import spooled_result

__all__ = ["Executor", "InProcess", "available_cores", "capped_workers", "is_dask_client"]

#: The signals that stop a run: the parent handles them, its workers do not.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


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
        """Forget the task end times of earlier runs (:func:`~polyforms.jobs.run` calls it)."""
        self._ends, self._since = {}, time.monotonic()

    def expect(self, weight: float) -> None:
        """The tasks the run has planned to submit weigh ``weight`` in all
        (:func:`~polyforms.jobs.run` says so before its first submission; tasks
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
        as far as this executor knows (none by default). :func:`~polyforms.jobs.run`
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
        return task, spooled_result(task.function(*task.args), None, 0)  # Pieces joined

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


def is_dask_client(obj: object) -> bool:
    """Is ``obj`` a ``distributed.Client`` (told without importing distributed)?"""
    return type(obj).__name__ == "Client" and type(obj).__module__.startswith("distributed")

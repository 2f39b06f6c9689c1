"""Run a long search as deterministic subtasks: in order, in parallel, resumable.

A *job* cuts a long search (a polyform count, a catalogue, a tiling count) into
:class:`Task` objects, prefixes of its search tree, listed in *merge order*: the
result of the whole search is the concatenation of the tasks' results in that
order (for a count, their sum). :func:`run` runs them on an executor
(:class:`InProcess`, :class:`Processes`, :class:`Dask`) and yields the results
in merge order whatever order they finish in; a :class:`Checkpoint` journals
each result so that an interrupted run resumes where it stopped; SIGINT,
SIGTERM and SIGHUP become :class:`Interrupted` once every worker is stopped;
:class:`Progress` measures done work by task weights, which
:func:`estimate_tree` (Knuth's estimator) can supply. The module knows nothing
about polyforms.

Determinism: :func:`plan` refines tasks from their weights only, never from
timing, and a checkpoint records the worker count the plan was made for, so a
resumed run sees the same task ids even with another ``--jobs``.

Examples
--------
>>> def square(x):
...     return x * x
>>> job = StaticJob("squares", [Task(str(i), square, (i,)) for i in range(5)])
>>> [result for task, result in run(job)]
[0, 1, 4, 9, 16]
>>> run_sum(job)
30
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import json
import math
import os
import re
import signal
import stat
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any, NamedTuple, Protocol

from .._atomic import check_output_path
from .._stop import note_signal
from .estimate import Estimate, estimate_tree, estimate_weights
from .executors import (
    CheckpointError,
    Continued,
    Dask,
    Executor,
    InProcess,
    JobError,
    Processes,
    Spooled,
    Task,
    _resolve_executor,
    available_cores,
    executor_from,
)
from .options import check_jobs, wants_split

__all__ = [
    "Task",
    "Continued",
    "Job",
    "StaticJob",
    "JobError",
    "CheckpointError",
    "Interrupted",
    "Progress",
    "ProgressBar",
    "progress_bar",
    "Executor",
    "InProcess",
    "Processes",
    "Dask",
    "executor_from",
    "available_cores",
    "Checkpoint",
    "plan",
    "run",
    "run_sum",
    "LongRun",
    "Estimate",
    "estimate_tree",
    "estimate_weights",
]

# Task ids name side files of a checkpoint, so they are kept to safe characters.
_ID = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\Z")
_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
_DASK_HINT = 'the dask executor needs dask.distributed: pip install "polyforms[dask]"'


class Interrupted(KeyboardInterrupt):
    """SIGINT, SIGTERM or SIGHUP stopped :func:`run`; the workers are gone, the journal is flushed.

    A subclass of KeyboardInterrupt, so ``except Exception`` does not swallow it.

    Attributes
    ----------
    signum : int
    done, total : int
        Tasks finished (including those taken from the checkpoint) and planned.
    """

    def __init__(self, signum: int, done: int, total: int) -> None:
        super().__init__(signum, done, total)
        self.signum, self.done, self.total = signum, done, total

    @property
    def exit_status(self) -> int:
        """The shell's convention 128 + signal number: 130, 143 or 129."""
        return 128 + self.signum

    def message(self, resume_hint: str | None = None) -> str:
        """The one line to print, e.g. ``interrupted by SIGINT: 12 of 40 subtasks done; ...``."""
        try:
            name = signal.Signals(self.signum).name
        except ValueError:
            name = f"signal {self.signum}"
        text = f"interrupted by {name}: {self.done} of {self.total} subtasks done"
        return f"{text}; {resume_hint}" if resume_hint else text

    def __str__(self) -> str:
        return self.message()


class Job(Protocol):
    """What :func:`run` needs: a ``key`` and the deterministic split ``tasks()``.

    ``key`` names the work (command and parameters) and is written into
    checkpoints. ``tasks()`` lists the tasks in merge order. A job may also
    define ``refine(task) -> Sequence[Task] | None``: the children of a task in
    merge order, whose results concatenated (summed) equal the task's result,
    or None if it cannot be split. :func:`plan` uses it to balance the work.
    A job whose results are summed may let a task stop early with a
    :class:`Continued` result; it then defines ``resume(task, rest, weights) ->
    Sequence[Task]``, the tasks that do the rest (ids ``task.id + ".cK"``),
    which run after the planned ones. A job whose results are bytes (chunks of
    output) says so with ``chunks = True``: a journal that gives one of its
    tasks anything else is damaged (:class:`CheckpointError`).
    """

    key: str

    def tasks(self) -> Sequence[Task]: ...


@dataclass(frozen=True)
class StaticJob:
    """A job from a list of tasks and an optional ``refiner(task)``."""

    key: str
    task_list: Sequence[Task]
    refiner: Callable[[Task], Sequence[Task] | None] | None = None

    def tasks(self) -> Sequence[Task]:
        return self.task_list

    def refine(self, task: Task) -> Sequence[Task] | None:
        return None if self.refiner is None else self.refiner(task)


# --------------------------------------------------------------------------
# Planning


def plan(
    job: Job,
    workers: int = 1,
    *,
    per_worker: int = 8,
    heavy: int = 4,
    rounds: int = 3,
    max_tasks: int = 10_000,
) -> list[Task]:
    """The tasks to run for ``workers`` workers: ``job.tasks()`` refined where it helps.

    Without ``job.refine`` this is ``job.tasks()``. Otherwise (1) the heaviest
    task (ties: the shallowest, then the first) is refined until there are at
    least ``per_worker * workers`` tasks, so every worker has work; (2) for up to
    ``rounds`` rounds, every task heavier than ``total weight / (heavy * workers)``
    is refined, so no single task holds a quarter of one worker's share and the
    end of a run is not one worker grinding while the others idle. Children
    replace their parent in place, which keeps the merge order. Only the weights
    decide, so the plan is the same every time. Planning stops at ``max_tasks``.

    Raises
    ------
    JobError
        Duplicate or malformed ids, a child id that does not extend its parent's,
        a negative or non-finite weight.
    """
    tasks = list(job.tasks())
    _check_tasks(tasks)
    refine = getattr(job, "refine", None)
    if refine is None:
        return tasks
    workers = max(1, int(workers))
    final: set[str] = set()  # ids that cannot be split

    def split(task: Task) -> list[Task] | None:
        children = refine(task)
        if children is None:
            final.add(task.id)
            return None
        children = list(children)
        _check_tasks(children, parent=task.id)
        return children

    want = min(per_worker * workers, max_tasks)
    if len(tasks) < want:
        # The heaviest (the shallowest, then the first) first, through a heap: a
        # scan of the list for each split took minutes for a cluster of
        # thousands of workers. ``place`` keeps the merge order: a child's is
        # its parent's and its rank.
        heap = [(-task.weight, task.id.count("."), (i,), task) for i, task in enumerate(tasks)]
        heapq.heapify(heap)
        kept: list[tuple[tuple[int, ...], Task]] = []  # tasks that cannot be split
        count = len(tasks)
        while count < want and heap:
            _, _, place, task = heapq.heappop(heap)
            children = split(task)
            if children is None:
                kept.append((place, task))
                continue
            count += len(children) - 1
            for k, child in enumerate(children):
                heapq.heappush(heap, (-child.weight, child.id.count("."), (*place, k), child))
        kept.extend((place, task) for _, _, place, task in heap)
        tasks = [task for _, task in sorted(kept, key=lambda entry: entry[0])]
    for _ in range(rounds):
        limit = sum(task.weight for task in tasks) / (heavy * workers)
        refined: list[Task] = []
        changed = False
        for task in tasks:
            children = None
            if task.weight > limit and task.id not in final and len(tasks) < max_tasks:
                children = split(task)
            changed |= children is not None
            refined.extend([task] if children is None else children)
        tasks = refined
        if not changed:
            break
    _check_tasks(tasks)
    return tasks


def _check_tasks(tasks: Sequence[Task], parent: str | None = None) -> None:
    seen: set[str] = set()
    for task in tasks:
        if not isinstance(task, Task) or not isinstance(task.id, str) or not _ID.match(task.id):
            raise JobError(f"bad task id {getattr(task, 'id', task)!r}: use words like 3.1.4")
        if parent is not None and not task.id.startswith(parent + "."):
            raise JobError(f"child {task.id!r} of task {parent!r} must have an id {parent}.k")
        if task.id in seen:
            raise JobError(f"two tasks have the id {task.id!r}")
        if not (math.isfinite(task.weight) and task.weight >= 0):
            raise JobError(f"task {task.id!r} has weight {task.weight!r}; weights are >= 0")
        seen.add(task.id)


# --------------------------------------------------------------------------
# Progress


class Progress(NamedTuple):
    """Where a run is: ``fraction`` is done weight / total weight, ``eta`` in seconds or None.

    The done weight is the finished subtasks' plus an estimate of the part of
    the running ones done so far (where the executor says what runs: local
    processes do); ``done`` counts finished subtasks.

    ``elapsed`` counts from the start of this run; ``eta`` extrapolates the
    weight done in this run (not the part taken from a checkpoint). ``unit``
    names what ``done`` and ``total`` count: subtasks, or for a count by
    sweeps over boards (:mod:`polyforms.tiling.sweep`) the cells filled.
    """

    done: int
    total: int
    fraction: float
    elapsed: float
    eta: float | None
    unit: str = "subtasks"


#: The most of a running subtask's weight credited to the fraction done before it
#: ends: one that outruns its weight is not done, and a bar at 100 % with ETA 0
#: while it goes on would say so.
RUNNING_CAP = 0.9

#: Seconds between two redraws of a progress bar while a run waits for a subtask.
TICK_SECONDS = 1.0


class ProgressBar:
    """A callable taking :class:`Progress` that draws a tqdm bar; also a context manager.

    Shown if ``enabled`` is True, or None and ``stream`` is a terminal, so logs and
    pipes get no escape codes. The bar shows the fraction of weight done and the
    ETA of :class:`Progress` (from the weights, not tqdm's rate guess). With
    ``delay``, it appears only once a run has lasted that many seconds: a run
    that ends sooner draws nothing and never imports tqdm (26 ms). While a run
    waits for its next result it calls :meth:`tick` every :data:`TICK_SECONDS`.
    """

    def __init__(
        self,
        enabled: bool | None = None,
        stream: IO[str] | None = None,
        label: str = "",
        delay: float = 0.0,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = bool(enabled)
        self.label = label
        self.delay = delay
        self._bar: Any = None
        self._last = -math.inf
        self._seen: tuple[Progress, float] | None = None  # the last Progress, and when
        self._lock = threading.Lock()  # the bar is also drawn by run's ticking thread

    def __call__(self, progress: Progress) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        with self._lock:
            self._seen = (progress, now)
            if progress.done < progress.total and now - self._last < 0.1:
                return  # redrawing for every tiny task would cost more than the task
            self._draw(progress, now)

    def tick(self) -> None:
        """Redraw with the time since the last :class:`Progress`: the elapsed time
        goes on and the ETA counts down (or, once run out, extrapolates the pace
        with the wait counted), so a bar whose subtasks last minutes stays alive.
        :func:`run` calls it every :data:`TICK_SECONDS` from a thread of its own."""
        # Not waiting for the lock: whoever holds it is drawing (and a signal
        # handler that stops the run may hold it while it waits for this thread).
        if not self._lock.acquire(blocking=False):
            return
        try:
            if not self.enabled or self._seen is None:
                return
            (progress, then), now = self._seen, time.monotonic()
            since = now - then
            elapsed, eta = progress.elapsed + since, progress.eta
            if eta is not None and progress.done < progress.total:
                if eta > since:
                    eta -= since
                elif progress.elapsed > 0:
                    eta *= elapsed / progress.elapsed  # the pace, the wait counted
                else:
                    eta = None
            self._draw(progress._replace(elapsed=elapsed, eta=eta), now)
        finally:
            self._lock.release()

    def _draw(self, progress: Progress, now: float) -> None:
        if progress.elapsed < self.delay:
            return
        self._last = now
        from tqdm import tqdm

        clock = tqdm.format_interval
        eta = "?" if progress.eta is None else clock(progress.eta)
        label = self.label.replace("{", "{{").replace("}", "}}")
        # Our own text in the format: tqdm's ETA would come from its rate, not the weights.
        text = (
            (f"{label}: " if label else "")
            + "{percentage:3.0f}%|{bar}| "
            + f"{progress.done}/{progress.total} {progress.unit}, "
            + f"{clock(progress.elapsed)} elapsed, ETA {eta}"
        )
        try:
            if self._bar is None:  # drawn as it is made
                bar = _quiet_tqdm(tqdm)
                self._bar = bar(
                    total=1.0, initial=progress.fraction, file=self.stream, leave=False,
                    bar_format=text,
                )  # fmt: skip
                return
            self._bar.bar_format = text
            self._bar.n = progress.fraction
            self._bar.refresh()
        except (OSError, ValueError):
            # A stream that takes no more (2>/dev/full, a closed pipe) ends the bar,
            # not the run: the search's result still has to reach stdout.
            self.enabled, self._bar = False, None

    def close(self) -> None:
        with self._lock:
            self._seen = None
            bar, self._bar = self._bar, None
            if bar is not None:
                with contextlib.suppress(OSError, ValueError):
                    bar.close()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _quiet_tqdm(tqdm: type) -> type:
    # No monitor thread: worker processes are forked, and fork and threads mix badly.
    return type("_Bar", (tqdm,), {"monitor_interval": 0})


def progress_bar(
    enabled: bool | None = None, stream: IO[str] | None = None, label: str = "", delay: float = 0.0
) -> ProgressBar:
    """A :class:`ProgressBar` for ``run(progress=...)``; close it (or use ``with``) at the end."""
    return ProgressBar(enabled, stream, label, delay)


# --------------------------------------------------------------------------
# The options every long search takes


@dataclass
class LongRun:
    """How a long search runs: the ``jobs``/``executor``/``checkpoint``/``progress``
    keywords that every splittable search of the library takes, in one value.

    ``progress`` is a callable taking :class:`Progress`, True for a bar on
    stderr, or None / False. ``executor`` (an :class:`Executor`, a
    ``distributed.Client`` or a dask address) wins over ``jobs``.
    """

    jobs: int | None = 1
    executor: Any = None
    checkpoint: Any = None
    progress: Any = None

    def __post_init__(self) -> None:
        check_jobs(self.jobs)

    @property
    def split(self) -> bool:
        """True when the search must go through :func:`run` (otherwise one call does)."""
        return wants_split(self.jobs, self.executor, self.checkpoint, self.progress)

    def run(
        self, job: Job, *, ahead: int | None = None, files: bool = False
    ) -> Iterator[tuple[Task, Any]]:
        """:func:`run` with these options (a bar made for ``progress=True`` closes at the end).

        An executor made here from ``jobs`` is run's own, closed at the end (its
        workers reaped, its spool directory removed); one given stays open.
        """
        executor = self.executor if self.executor is not None else self.jobs
        callback, bar = progress_callback(self.progress)
        try:
            yield from run(
                job,
                executor=executor,
                checkpoint=self.checkpoint,
                progress=callback,
                ahead=ahead,
                files=files,
            )
        finally:
            if bar is not None:
                bar.close()

    def sum(self, job: Job) -> int:
        """The sum of the job's results: a count."""
        return _total(self.run(job))


def progress_callback(progress: Any) -> tuple[Callable[[Progress], Any] | None, ProgressBar | None]:
    """The callable a ``progress`` option asks for (True: a bar on stderr), and
    that bar if one was made here, to close at the end."""
    bar = progress_bar(True) if progress is True else None
    callback = bar if bar is not None else (progress or None)
    _check_progress(callback)
    return callback, bar


def _check_progress(progress: Any) -> None:
    if progress is not None and not callable(progress):
        raise JobError(f"progress must be a function taking Progress, not {progress!r:.40}")


def handle_signals(handler: Callable[[int, Any], Any]) -> dict[int, Any]:
    """Set ``handler`` for SIGINT, SIGTERM and SIGHUP; return the handlers it
    replaced, for :func:`restore_signals`. Only the main thread can set them:
    elsewhere nothing is set."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, handler) for signum in _SIGNALS}


def restore_signals(previous: dict[int, Any]) -> None:
    """Put back the handlers :func:`handle_signals` replaced."""
    for signum, handler in previous.items():
        if handler is not None:
            signal.signal(signum, handler)


# --------------------------------------------------------------------------
# Checkpoints

_HEADER = b'{"polyforms-checkpoint": '


def check_apart(output: Any, checkpoint: Any) -> None:
    """Raise :class:`CheckpointError` if ``checkpoint`` names the file ``output`` writes.

    The finished output would replace the journal (or a journal the output),
    and the next run with that checkpoint would be refused or start over.
    ``None`` and ``"-"`` (standard output) are always apart.
    """
    if checkpoint is None or not isinstance(output, (str, bytes, os.PathLike)):
        return  # no checkpoint, no output file, or a stream
    if os.fsdecode(os.fspath(output)) == "-":
        return
    same = os.path.realpath(output) == os.path.realpath(checkpoint)
    if not same:
        with contextlib.suppress(OSError):
            same = os.path.samefile(output, checkpoint)  # hard links
    if same:
        raise CheckpointError(
            f"the checkpoint {os.fspath(checkpoint)} is the output file: give it another name"
        )


class Checkpoint:
    """A journal of finished tasks at ``path``, for resuming the job named ``key``.

    The first line is a JSON header ``{"polyforms-checkpoint": 1, "key": KEY,
    "workers": W, "plan": P}`` (W: the worker count the plan was made for,
    reused on resume so the task ids match; P: a digest of the planned ids and
    weights, which must match on resume: a subtask id of another plan may name
    another subtree); then one JSON line per finished task,
    ``{"id": ID, "result": R}`` for JSON results or ``{"id": ID, "bytes": NAME,
    "size": N}`` for bytes, stored in ``PATH.chunks/NAME`` (written to a temporary
    name and renamed before the line is appended); a task that stopped early
    (:class:`Continued`) adds ``"rest"``, ``"weights"`` and, if known,
    ``"done"``; ``"t"`` is the seconds of work of the journal's runs when the
    task ended (a resumed run's first ETA comes from it). Each line is one ``write``
    followed by fsync; on opening, a last line cut short by a crash is dropped
    and truncated away. The file is locked while open. A finished journal is
    kept (re-running returns the result at once); :meth:`remove` deletes it.
    """

    def __init__(self, path: str | os.PathLike[str], key: str) -> None:
        name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
        if not isinstance(name, str) or not name:  # 5, b"x", ""
            raise CheckpointError(f"a checkpoint is a file name, not {path!r:.40}")
        self.path = name
        self.key = key
        self.chunks = self.path + ".chunks"
        self.entries: dict[str, dict] = {}
        self._fd: int | None = None
        self._header: dict | None = None
        self._workers = 1

    def open(self, workers: int) -> int:
        """Open or create the journal, load its entries; return the planned worker
        count. A new journal's header is written by :meth:`begin`.

        Raises
        ------
        CheckpointError
            The file belongs to another key, is not a checkpoint, or is in use.
        """
        try:
            fd = open_checkpoint(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND)
        except OSError as error:
            check_output_path(self.path)  # names the missing directory, the permission, ...
            raise CheckpointError(f"{self.path}: cannot open it ({error.strerror})") from None
        try:
            with contextlib.suppress(ImportError):
                import fcntl  # a POSIX record lock: unlike flock, forked workers do not hold it

                try:
                    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    raise CheckpointError(f"{self.path} is in use by another run") from None
            # Read through this fd: closing another fd of the file would drop the lock.
            os.lseek(fd, 0, os.SEEK_SET)
            data = b"".join(iter(lambda: os.read(fd, 1 << 20), b""))
            header, keep = self._parse(data)
            if keep < len(data):
                os.ftruncate(fd, keep)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        self._fd, self._header = fd, header
        recorded = header and header.get("workers")
        self._workers = recorded if isinstance(recorded, int) and recorded > 0 else workers
        return self._workers

    def begin(self, plan: str) -> None:
        """Write a new journal's header with ``plan`` (:func:`plan_digest` of the
        tasks planned), or check an old journal's: its results belong to the
        subtasks of its own plan (journals without one, of earlier versions, are
        taken as they are)."""
        assert self._fd is not None, "open() first"
        if self._header is None:
            self._header = {
                "polyforms-checkpoint": 1, "key": self.key, "workers": self._workers, "plan": plan
            }  # fmt: skip
            _append(self._fd, (json.dumps(self._header) + "\n").encode())
        elif self._header.get("plan", plan) != plan:
            raise CheckpointError(
                f"{self.path} was planned otherwise (by another version of polyforms?): "
                "remove it to start again"
            )

    def _parse(self, data: bytes) -> tuple[dict | None, int]:
        """The header (None if there is none yet) and the length of the sound part."""
        self.entries = {}
        lines = data.split(b"\n")[:-1]  # whatever follows the last newline is a cut line
        if not lines:
            if _HEADER.startswith(data[: len(_HEADER)]):
                return None, 0  # empty, or the header was being written
            raise CheckpointError(f"{self.path} is not a polyforms checkpoint")
        header = checked_header(self.path, lines[0], self.key)
        keep = len(lines[0]) + 1
        for number, line in enumerate(lines[1:], 2):
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError):  # (RecursionError: nested 100,000 deep)
                if number == len(lines):
                    break  # a last line garbled by a crash: drop it
                raise CheckpointError(f"{self.path} is corrupt at line {number}") from None
            if not _sound(entry):  # valid JSON that no run of ours writes: edited or damaged
                raise CheckpointError(f"{self.path} is corrupt at line {number}")
            task_id = entry["id"]
            if task_id in self.entries and "bytes" not in entry:
                # A run journals a subtask once; only an output chunk whose side
                # file was lost is run, and journalled, again.
                raise CheckpointError(f"{self.path} is corrupt at line {number}")
            keep += len(line) + 1
            if "bytes" in entry and not self._chunk_ok(entry):
                self.entries.pop(task_id, None)  # its side file is lost: run it again
                continue
            self.entries[task_id] = entry
        return header, keep

    def _chunk_ok(self, entry: dict) -> bool:
        try:
            name = entry["bytes"]
            path = os.path.join(self.chunks, name)
            return bool(_ID.match(name)) and os.path.getsize(path) == entry["size"]
        except (OSError, KeyError, TypeError):
            return False

    def record(self, task_id: str, result: Any, seconds: float | None = None) -> None:
        """Journal the result of a finished task (bytes go to a side file), and the
        ``seconds`` of work the journal's runs had done when it ended.

        Raises
        ------
        JobError
            A result that is neither bytes nor survives JSON unchanged (a tuple, say).
        """
        if self._fd is None:
            raise JobError(f"checkpoint {self.path} is not open")
        if isinstance(result, Continued):
            entry = {
                "id": task_id,
                "result": self._as_json(task_id, result.result),
                "rest": self._as_json(task_id, result.rest),
                "weights": self._as_json(task_id, result.weights),
            }
            if result.done is not None and math.isfinite(result.done):
                entry["done"] = float(result.done)
        elif isinstance(result, (bytes, bytearray, memoryview, Spooled)):
            os.makedirs(self.chunks, exist_ok=True)
            final = os.path.join(self.chunks, task_id)
            part = final + ".part"
            # A worker's file is moved in; on another file system it is copied.
            moved = isinstance(result, Spooled) and result.owned and _moved(result.path, part)
            with open(part, "r+b" if moved else "wb") as handle:
                if isinstance(result, Spooled) and not moved:
                    result.copy_to(handle)
                elif not moved:
                    handle.write(result)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(part, final)
            _fsync_directory(self.chunks)
            entry = {"id": task_id, "bytes": task_id, "size": len(result)}
        else:
            entry = {"id": task_id, "result": self._as_json(task_id, result)}
        if seconds is not None and math.isfinite(seconds):
            entry["t"] = round(seconds, 6)
        _append(self._fd, (json.dumps(entry, separators=(",", ":")) + "\n").encode())
        self.entries[task_id] = entry

    @property
    def seconds(self) -> float:
        """The seconds of work of the runs that wrote the journal (0 if it does not say)."""
        return max((entry.get("t", 0.0) for entry in self.entries.values()), default=0.0)

    @staticmethod
    def _as_json(task_id: str, value: Any) -> Any:
        try:
            same = json.loads(json.dumps(value)) == value
        except (TypeError, ValueError):
            same = False
        if not same:
            raise JobError(
                f"the result of subtask {task_id} cannot be journalled as JSON: "
                f"{type(value).__name__} (use int, str, list, dict or bytes)"
            )
        return value

    def continued(self, task_id: str) -> Continued | None:
        """The :class:`Continued` a journalled task that stopped early returned, else None."""
        entry = self.entries[task_id]
        if "rest" not in entry:
            return None
        # no "done" in a journal of an older version: the weights decide (_settled)
        return Continued(entry["result"], entry["rest"], entry["weights"], entry.get("done"))

    def result(self, task_id: str, files: bool = False) -> Any:
        """The journalled result of a task (bytes are read from the side file).

        With ``files``, bytes come as a :class:`~polyforms.jobs.executors.Spooled`
        view of the side file instead (which stays).
        """
        entry = self.entries[task_id]
        if "bytes" in entry:
            path = os.path.join(self.chunks, entry["bytes"])
            if files:
                return Spooled(path, entry["size"], owned=False)
            with open(path, "rb") as handle:
                return handle.read()
        return entry["result"]

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def remove(self) -> None:
        """Close and delete the journal and its side directory."""
        self.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        import shutil

        shutil.rmtree(self.chunks, ignore_errors=True)


def open_checkpoint(path: str, flags: int) -> int:
    """A descriptor of the checkpoint file ``path`` opened with ``flags``, without
    blocking (reading a FIFO would wait for ever); CheckpointError unless it is a
    regular file (/dev/null, a pipe: nothing to resume from). OSError passes."""
    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise CheckpointError(f"{path} is not a regular file, as a checkpoint must be")
    return fd


def plan_digest(tasks: Sequence[Task]) -> str:
    """A digest of planned ``tasks``: their ids and weights (to 6 digits: the
    compiled and readable kernels' estimates may differ in the last bits)."""
    text = "\n".join(f"{task.id} {task.weight:.6g}" for task in tasks)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def checked_header(path: str, line: bytes, key: str) -> dict:
    """The header of the checkpoint ``path`` from its first ``line``, if it is
    one of this version for the job ``key``; else :class:`CheckpointError`."""
    try:
        header = json.loads(line)
        version = header["polyforms-checkpoint"]
    except (ValueError, TypeError, KeyError):
        raise CheckpointError(f"{path} is not a polyforms checkpoint") from None
    if version != 1:
        raise CheckpointError(f"{path} is a checkpoint of another polyforms version")
    if header.get("key") != key:
        raise CheckpointError(
            f"{path} belongs to another command ({header.get('key')}); "
            "remove it or choose another checkpoint file"
        )
    return header


def _is_real(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return _is_real(value) and math.isfinite(value)


def _sound(entry: Any) -> bool:
    """Has a journal line the shape :meth:`Checkpoint.record` gives it?"""
    if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
        return False
    if "t" in entry and not (_is_number(entry["t"]) and entry["t"] >= 0):
        return False
    if "bytes" in entry:
        return True  # its side file is checked apart (a lost one is run again)
    if "result" not in entry:
        return False
    if "rest" not in entry:
        return True
    rest, weights = entry["rest"], entry.get("weights")
    return (
        isinstance(rest, list)
        and isinstance(weights, list)
        and len(rest) == len(weights)
        and all(_is_real(w) and w >= 0 for w in weights)  # inf: an estimate that overflowed
        and ("done" not in entry or _is_number(entry["done"]))
    )


def _total(results: Iterator[tuple[Task, Any]]) -> int:
    """The sum of the results of a count's tasks; one that is not a whole number (it
    can only come from a damaged journal) is a :class:`CheckpointError`."""
    total = 0
    for task, result in results:
        if isinstance(result, bool) or not isinstance(result, int):
            raise CheckpointError(
                f"the result of subtask {task.id} is not a count ({result!r:.40}): "
                "a damaged checkpoint? remove it to start again"
            )
        total += result
    return total


def _append(fd: int, line: bytes) -> None:
    written = os.write(fd, line)  # one write of the whole line (retried only if short)
    while written < len(line):
        written += os.write(fd, line[written:])
    os.fsync(fd)


def _fsync_directory(path: str) -> None:
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def counted_chunk(count: int, body: bytes) -> bytes:
    """A listing's chunk: ``b"COUNT\\n"`` (how many items it holds), then their text."""
    return b"%d\n" % count + body


def split_chunk(chunk: bytes) -> tuple[int, bytes]:
    """The count and the text of a :func:`counted_chunk`."""
    head, _, body = chunk.partition(b"\n")
    return _chunk_count(head), body


def _chunk_count(head: bytes) -> int:
    """The count a chunk's first line gives. Only a side file of a checkpoint
    edited or damaged on disk can hold another first line (what a crash cuts
    short is found by its size and run again)."""
    text = head.rstrip(b"\n")
    if not text.isdigit():
        raise CheckpointError(
            f"an output chunk starts with {bytes(text[:20])!r}, not its count: a checkpoint's "
            "side file damaged? remove the checkpoint to start again"
        )
    return int(text)


def _settled(weight: float, children: Sequence[Task], share: float | None) -> tuple[float, float]:
    """What a task that stopped early did, in weight, and how much the whole grows.

    Counting the task's whole weight as done while its children (what it left)
    still wait made the fraction jump: 10x10 by pentominoes with reuse, with
    subtasks of 10 s, read 2.3 % done after a minute of a run that ``--estimate``
    puts at 4e11 s. The task did ``share`` of its weight when it says so
    (:class:`Continued`); else the difference between its estimate and its
    children's, which is mostly the noise of two estimates when little was
    done. The children's estimates replace what the task's left, so the whole
    stays the sum of what is done and what waits (it may shrink).
    """
    rest = sum(child.weight for child in children)
    if share is None:
        return max(weight - rest, 0.0), max(rest - weight, 0.0)
    done = weight * min(max(share, 0.0), 1.0)
    return done, done + rest - weight


def _moved(source: str, target: str) -> bool:
    try:
        os.replace(source, target)
    except OSError:
        return False
    return True


def write_chunk(out: IO[bytes], chunk: bytes | Spooled, skip: int = 0) -> int:
    """Append the body of a :func:`counted_chunk` to the binary ``out``; return its count.

    A chunk holding items loses the first ``skip`` bytes of its body (the
    separator that a txt file's first picture goes without). A
    :class:`~polyforms.jobs.executors.Spooled` chunk is copied by the kernel, not
    read; either way the kernel is asked to start writing it to the disk.
    """
    from .._atomic import start_writeback

    if isinstance(chunk, Spooled):
        head = chunk.head()
    else:
        head = bytes(chunk[: chunk.index(b"\n") + 1])
    count = _chunk_count(head)
    start = len(head) + (skip if count else 0)
    if isinstance(chunk, Spooled):
        chunk.copy_to(out, start)
    else:
        out.write(memoryview(chunk)[start:])
    start_writeback(out)
    return count


# --------------------------------------------------------------------------
# Running

_ON_DISK = object()  # a buffered bytes result left in the checkpoint's side file


def run(
    job: Job,
    *,
    executor: Any = None,
    checkpoint: Any = None,
    progress: Callable[[Progress], Any] | None = None,
    ahead: int | None = None,
    files: bool = False,
) -> Iterator[tuple[Task, Any]]:
    """Run a job's planned tasks; yield ``(task, result)`` in merge order.

    Parameters
    ----------
    job : Job
    executor : Executor, distributed.Client, int or str, optional
        Where tasks run (default :class:`InProcess`); an int is ``--jobs``, a
        str a dask address. An executor passed in stays open after a normal end.
    checkpoint : Checkpoint or path, optional
        Journal for resuming: journalled tasks are not run again, their
        results come from the journal. The journal is kept at the end.
    progress : callable, optional
        Called with a :class:`Progress` at the start and after every task.
    ahead : int, optional
        Run at most this many tasks beyond the oldest not yet yielded, to bound
        the memory of results that finish early (say for output chunks); never
        fewer than the executor's capacity. Tasks are dispatched in merge order
        either way.
    files : bool
        Large bytes results may come as :class:`~polyforms.jobs.executors.Spooled`
        files (from worker processes, or a checkpoint's side files) rather
        than bytes, for writers that copy them to their output as they are.

    Notes
    -----
    Nothing happens until the first result is asked for. While the generator is
    active in the main thread, SIGINT, SIGTERM and SIGHUP raise
    :class:`Interrupted` after the executor has stopped its workers and the
    journal is closed; the previous handlers come back when the generator ends.
    Consume it fully or close it (``contextlib.closing``). A task's error is
    raised after the same cleanup.
    """
    if ahead is not None and ahead < 1:
        raise JobError(f"ahead must be at least 1, not {ahead}")
    return _Run(job, executor, checkpoint, progress, ahead, files).results()


def run_sum(job: Job, **options: Any) -> int:
    """The sum of the results of ``run(job, **options)``: a count."""
    return _total(run(job, **options))


class _Run:
    """The state of one :func:`run`, shared with its signal handler."""

    def __init__(
        self,
        job: Job,
        executor: Any,
        checkpoint: Any,
        progress: Any,
        ahead: int | None,
        files: bool = False,
    ) -> None:
        _check_progress(progress)
        self.job, self.progress, self.ahead, self.files = job, progress, ahead, files
        self.executor, self.owned = _resolve_executor(executor)
        if checkpoint is not None and not isinstance(checkpoint, Checkpoint):
            checkpoint = Checkpoint(checkpoint, job.key)
        if checkpoint is not None and checkpoint.key != job.key:
            raise CheckpointError(
                f"{checkpoint.path} belongs to another command ({checkpoint.key})"
            )
        self.checkpoint: Checkpoint | None = checkpoint
        self.done = self.total = 0
        self.inside = True  # False while the consumer runs between two results
        self.critical = False  # True while a journal line is written
        self.deferred: int | None = None
        self.stopping = self.closed = False
        self.interrupted: Interrupted | None = None
        self.previous: dict[int, Any] = {}
        self.ticker: threading.Thread | None = None
        # For the part of running subtasks done so far: when each task seen running
        # started, and the weight and busy seconds of the finished tasks so timed.
        self.started: dict[str, float] = {}
        self.timed_weight = self.busy = 0.0
        self.quiet = threading.Event()  # set: the ticking thread stops

    def _on_signal(self, signum: int, frame: object) -> None:
        note_signal(stopping=True)
        if self.stopping:
            return  # a second Ctrl-C must not break the cleanup, which takes < 2 s
        if self.critical:
            self.deferred = signum
            return
        self._interrupt(signum)

    def _interrupt(self, signum: int) -> None:
        self.stopping = True
        self.interrupted = Interrupted(signum, self.done, self.total)
        if not self.inside:
            # The exception lands in the consumer's code: clean up now rather than
            # whenever the suspended generator gets collected.
            self._shutdown(failed=True)
        raise self.interrupted

    def _install(self) -> None:
        self.previous = handle_signals(self._on_signal)

    def _tick(self, tick: Callable[[], None]) -> None:
        """Start a thread that calls ``tick`` (``progress.tick``, which a
        :class:`ProgressBar` has; other callables are called only by the run
        itself) every :data:`TICK_SECONDS` while the run waits for results.

        It starts after the run's first submissions, because :class:`Processes`
        forks its workers then and a fork must not copy a thread that may hold
        a lock (stderr's, the bar's). The tiling count of 10x10 with reused
        pentominoes runs subtasks of a minute: without it its bar showed nothing
        at all for the first minute, then the same elapsed time for the next.
        """

        def ticking() -> None:
            while not self.quiet.wait(TICK_SECONDS):
                try:
                    tick()
                except Exception:  # a bar that cannot draw must not stop the run
                    return

        self.ticker = threading.Thread(target=ticking, name="polyforms-progress", daemon=True)
        self.ticker.start()

    def _shutdown(self, failed: bool) -> None:
        if self.closed:
            return
        self.closed = self.stopping = True
        self.quiet.set()
        if self.ticker is not None:
            self.ticker.join()
        try:
            if failed or self.owned:
                self.executor.close()
        finally:
            try:
                if self.checkpoint is not None:
                    self.checkpoint.close()
            finally:
                restore_signals(self.previous)

    def results(self) -> Iterator[tuple[Task, Any]]:
        self._install()
        failed = True
        try:
            yield from self._loop()
            failed = False
        finally:
            self._shutdown(failed)

    def _emit(self, task: Task, result: Any) -> Iterator[tuple[Task, Any]]:
        self.inside = False
        try:
            yield task, result
        finally:
            self.inside = True
        if self.interrupted is not None:
            raise self.interrupted  # the consumer caught it and asked for more

    def _loop(self) -> Iterator[tuple[Task, Any]]:
        executor, checkpoint, ahead = self.executor, self.checkpoint, self.ahead
        executor.start_run()
        workers = executor.workers
        journal: dict[str, dict] = {}
        if checkpoint is not None:
            workers = checkpoint.open(workers)
            journal = checkpoint.entries
        tasks = plan(self.job, workers)
        if checkpoint is not None:
            checkpoint.begin(plan_digest(tasks))
        weights = [task.weight for task in tasks]
        if journal:
            # A resumed run takes up what journalled tasks that stopped early left.
            k = 0
            while k < len(tasks):
                if tasks[k].id in journal:
                    left = checkpoint.continued(tasks[k].id)  # type: ignore[union-attr]
                    if left is not None:
                        children = self._taken_up(tasks[k], left)
                        tasks.extend(children)
                        weights[k] = _settled(weights[k], children, left.done)[0]
                        weights.extend(child.weight for child in children)
                k += 1
        self.total = len(tasks)
        stored = [task.id in journal for task in tasks]
        self.done = sum(stored)
        done_weight = sum(w for w, s in zip(weights, stored) if s)
        self.start, self.whole = time.monotonic(), sum(weights)
        executor.expect(self.whole - done_weight)
        self.first = self._fraction(done_weight)
        self.before = checkpoint.seconds if checkpoint is not None else 0.0
        self._report(done_weight)
        position = {task.id: i for i, task in enumerate(tasks)}
        # Merge order, not heaviest first: the heaviest *estimates* are mostly
        # overestimates, so running them first made the fraction done jump and
        # the ETA read half the truth (measured: ETA at 25 % of the run 0.4-0.5x
        # the real total). plan() already cuts every task below a quarter of a
        # worker's share, which keeps the tail short.
        queue = deque(i for i in range(self.total) if not stored[i])
        key_hash = hashlib.sha1(self.job.key.encode()).hexdigest()[:10]
        tag = f"polyforms-{key_hash}-{os.urandom(3).hex()}"
        buffered: dict[int, Any] = {}
        following = 0  # the next task to yield, in merge order
        chunks = getattr(self.job, "chunks", False)
        tick = getattr(self.progress, "tick", None)
        while following < self.total:
            task = tasks[following]
            if stored[following] or following in buffered:
                result = buffered.pop(following, _ON_DISK)
                if result is _ON_DISK:
                    result = checkpoint.result(task.id, self.files)  # type: ignore[union-attr]
                    if chunks and not isinstance(result, (bytes, Spooled)):
                        raise CheckpointError(
                            f"{checkpoint.path} holds no output chunk for subtask {task.id}: "  # type: ignore[union-attr]
                            "a damaged checkpoint? remove it to start again"
                        )
                if isinstance(result, Spooled) and not self.files:
                    result = result.read()
                following += 1
                yield from self._emit(task, result)
                continue
            # Never fewer ahead than the executor holds: Dask sends tasks in
            # batches (4 to 64 tasks each), and fewer kept each worker to one
            # batch, idle for a round trip after each (free n = 16: 4-6 s of 12).
            while queue:
                capacity = executor.capacity
                if executor.in_flight >= capacity:
                    break
                if ahead is not None and queue[0] >= following + max(ahead, capacity):
                    break
                executor.submit(tasks[queue.popleft()], tag)
            if tick is not None and self.ticker is None:
                self._tick(tick)  # after the first submissions: worker processes fork there
            if self.progress is not None:  # only the progress reads start times
                for started, since in executor.running():
                    self.started.setdefault(started.id, since)
            finished, result = executor.next_result()
            if self.interrupted is not None:  # a task swallowed Interrupted
                raise self.interrupted
            i = position[finished.id]
            children = []
            if isinstance(result, Continued):
                # Checked before the journal keeps it: a rest the job cannot take up
                # must not be journalled either.
                children = self._resumed(finished, result.rest, result.weights)
            if checkpoint is not None:
                self.critical = True
                try:
                    spent = self.before + time.monotonic() - self.start
                    checkpoint.record(finished.id, result, spent)
                finally:
                    self.critical = False
                if isinstance(result, (bytes, bytearray, memoryview, Spooled)):
                    result = _ON_DISK  # read back when its turn comes, not kept in memory
            if isinstance(result, Continued):
                # The task stopped with work left: its rest runs as new tasks,
                # after the planned ones (its own result counts where it stands).
                share, result = result.done, result.result
                for child in children:
                    position[child.id] = len(tasks)
                    queue.append(len(tasks))
                    tasks.append(child)
                    weights.append(child.weight)
                    stored.append(False)
                self.total = len(tasks)
                weights[i], growth = _settled(weights[i], children, share)
                self.whole += growth
            since = self.started.pop(finished.id, None)
            if since is not None:
                self.timed_weight += weights[i]
                self.busy += time.monotonic() - since
            buffered[i] = result
            self.done += 1
            done_weight += weights[i]
            if self.deferred is not None:
                self._interrupt(self.deferred)
            self._report(done_weight)

    def _taken_up(self, task: Task, left: Continued) -> list[Task]:
        """The tasks that do what a journalled ``task`` left; a rest the job cannot
        read (the journal was edited or damaged) is a :class:`CheckpointError`."""
        try:
            return self._resumed(task, left.rest, left.weights)
        except (TypeError, ValueError, KeyError, IndexError) as error:
            raise CheckpointError(
                f"{self.checkpoint.path}: the rest of subtask {task.id} in it cannot be "  # type: ignore[union-attr]
                f"taken up ({error}); remove it to start again"
            ) from None

    def _resumed(self, task: Task, rest: list, weights: list) -> list[Task]:
        """The tasks that do what ``task`` left (see :class:`Continued`)."""
        resume = getattr(self.job, "resume", None)
        if resume is None:
            raise JobError(f"subtask {task.id} stopped early, and its job cannot resume it")
        if not rest or not all(rest) or len(rest) != len(weights):
            raise ValueError("a rest must be non-empty groups of nodes, one weight each")
        children = list(resume(task, rest, weights))
        _check_tasks(children, parent=task.id)
        return children

    def _fraction(self, done_weight: float) -> float:
        if self.done >= self.total:
            return 1.0  # exactly, whatever the rounding of the sum of weights
        if self.whole > 0:
            return min(1.0, max(0.0, done_weight / self.whole))
        return self.done / self.total if self.total else 1.0

    def _running_part(self, now: float) -> float:
        """The weight the running subtasks have done so far, estimated: the time each
        has run times the weight per busy second of the finished ones, at most
        :data:`RUNNING_CAP` of its weight. 0 where the executor cannot say what
        runs (:meth:`Executor.running`).

        Without it the fraction counted finished subtasks only, and while the first
        long ones ran the ETA read their time as lost: 3x4x5 --distinct with two
        workers showed 1.7x the real total at a quarter of the run, 4 of its 111
        subtasks ended and the next three (a fifth of the weight) half done.
        """
        if self.busy <= 0.0 or self.timed_weight <= 0.0:
            return 0.0
        pace = self.timed_weight / self.busy
        return sum(
            min(RUNNING_CAP * task.weight, pace * max(0.0, now - since))
            for task, since in self.executor.running()
        )

    def _report(self, done_weight: float) -> None:
        """Call ``progress``; the ETA extrapolates the weight done by this run alone
        (the running subtasks' part included), or, until a resumed run has done
        some, the pace of the runs before it."""
        if self.progress is None:
            return
        now = time.monotonic()
        elapsed = now - self.start
        fraction = self._fraction(done_weight + self._running_part(now))
        eta: float | None = None
        if self.done >= self.total:
            eta = 0.0
        elif fraction > self.first:
            eta = elapsed * (1.0 - fraction) / (fraction - self.first)
        elif self.first > 0 and self.before > 0:
            eta = self.before * (1.0 - fraction) / self.first
        self.progress(Progress(self.done, self.total, fraction, elapsed, eta))

"""Run a long search as deterministic subtasks: in order, in parallel, resumable.

A *job* cuts a long search (a polyform count, a catalogue, a tiling count) into
:class:`~polyforms.jobs.Task` objects, prefixes of its search tree, listed in
*merge order*: the result of the whole search is the concatenation of the
tasks' results in that order (for a count, their sum). :func:`run` runs them
on an executor (:class:`~polyforms.jobs.InProcess`,
:class:`~polyforms.jobs.Processes`, :class:`~polyforms.jobs.Dask`) and yields
the results in merge order whatever order they finish in; a
:class:`~polyforms.jobs.Checkpoint` journals each result so that an
interrupted run resumes where it stopped; SIGINT, SIGTERM and SIGHUP become
:class:`Interrupted` once every worker is stopped; a
:class:`~polyforms.jobs.Progress` measures done work by task weights, which
:func:`~polyforms.jobs.estimate_tree` (Knuth's estimator) can supply. The
job layer knows nothing about polyforms.

Examples
--------
>>> from polyforms.jobs import StaticJob, Task
>>> def square(x):
...     return x * x
>>> job = StaticJob("squares", [Task(str(i), square, (i,)) for i in range(5)])
>>> [result for task, result in run(job)]
[0, 1, 4, 9, 16]
>>> run_sum(job)
30
"""

from __future__ import annotations

import hashlib
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .._stop import note_signal
from .checkpoint import Checkpoint, plan_digest
from .executor_choice import resolve_executor
from .executors import STOP_SIGNALS
from .planning import plan
from .progress import TICK_SECONDS, Progress, Tally, check_progress, progress_callback
from .tasks import CheckpointError, Continued, Job, JobError, Spooled, Task, check_tasks

__all__ = ["Interrupted", "run", "run_sum"]

_ON_DISK = object()  # a buffered bytes result left in the checkpoint's side file


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


def handle_signals(handler: Callable[[int, Any], Any]) -> dict[int, Any]:
    """Set ``handler`` for SIGINT, SIGTERM and SIGHUP; return the handlers it
    replaced, for :func:`restore_signals`. Only the main thread can set them:
    elsewhere nothing is set."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS}


def restore_signals(previous: dict[int, Any]) -> None:
    """Put back the handlers :func:`handle_signals` replaced."""
    for signum, handler in previous.items():
        if handler is not None:
            signal.signal(signum, handler)


def run_long(
    job: Job, executor: Any, checkpoint: Any, progress: Any, *, ahead: int | None = None,
    files: bool = False,
) -> Iterator[tuple[Task, Any]]:  # fmt: skip
    """:func:`run` with a long run's options (:meth:`~polyforms.jobs.LongRun.run`:
    ``executor`` is its executor or else its ``jobs``); a bar made for
    ``progress=True`` closes at the end, and an executor made from ``jobs`` is
    run's own."""
    callback, bar = progress_callback(progress)
    try:
        yield from run(
            job,
            executor=executor,
            checkpoint=checkpoint,
            progress=callback,
            ahead=ahead,
            files=files,
        )
    finally:
        if bar is not None:
            bar.close()


def sum_long(job: Job, executor: Any, checkpoint: Any, progress: Any) -> int:
    """The sum of the job's results run as :func:`run_long` runs it
    (:meth:`~polyforms.jobs.LongRun.sum`)."""
    return _total(run_long(job, executor, checkpoint, progress))


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
        Where tasks run (default :class:`~polyforms.jobs.InProcess`); an int is ``--jobs``, a
        str a dask address. An executor passed in stays open after a normal end.
    checkpoint : Checkpoint or path, optional
        Journal for resuming: journalled tasks are not run again, their
        results come from the journal. The journal is kept at the end.
    progress : callable, optional
        Called with a :class:`~polyforms.jobs.Progress` at the start and after every task.
    ahead : int, optional
        Run at most this many tasks beyond the oldest not yet yielded, to bound
        the memory of results that finish early (say for output chunks); never
        fewer than the executor's capacity. Tasks are dispatched in merge order
        either way.
    files : bool
        Large bytes results may come as :class:`~polyforms.jobs.Spooled`
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


def _total(results: Iterator[tuple[Task, Any]]) -> int:
    """The sum of the results of a count's tasks; one that is not a whole number at
    least 0 (it can only come from a damaged journal) is a
    :class:`~polyforms.jobs.CheckpointError`."""
    total = 0
    for task, result in results:
        if isinstance(result, bool) or not isinstance(result, int) or result < 0:
            raise CheckpointError(
                f"the result of subtask {task.id} is not a count ({result!r:.40}): "
                "a damaged checkpoint? remove it to start again"
            )
        total += result
    return total


def settled(weight: float, children: Sequence[Task], share: float | None) -> tuple[float, float]:
    """What a task that stopped early did, in weight, and how much the whole grows.

    Counting the task's whole weight as done while its children (what it left)
    still wait would make the fraction jump ahead of the work: a task stopped
    by a time limit may have done a small part of a large subtree. The task did
    ``share`` of its weight when it says so (:class:`~polyforms.jobs.Continued`);
    else the difference between its estimate and its
    children's, which is mostly the noise of two estimates when little was
    done. The children's estimates replace what the task's left, so the whole
    stays the sum of what is done and what waits (it may shrink).
    """
    rest = sum(child.weight for child in children)
    if share is None:
        return max(weight - rest, 0.0), max(rest - weight, 0.0)
    done = weight * min(max(share, 0.0), 1.0)
    return done, done + rest - weight


def _batch_tag(key: str) -> str:
    """A prefix for the names of a run's tasks where the executor shows them
    (Dask keys): the job's key hashed, and a random part, so two runs differ."""
    key_hash = hashlib.sha1(key.encode()).hexdigest()[:10]
    return f"polyforms-{key_hash}-{os.urandom(3).hex()}"


class _Run:
    """The state of one :func:`run`, shared with its signal handler.

    The run keeps the plan as parallel lists indexed by merge order: ``tasks``,
    their ``weights`` (a task that stopped early keeps the part it did) and
    whether each is ``stored`` in the journal; ``position`` maps a task id to
    its index. ``queue`` holds the indices not yet submitted, in merge order;
    ``buffered`` the results that finished before their turn to be yielded.
    The rest a task hands back (:class:`~polyforms.jobs.Continued`) is
    appended to all of them.
    """

    def __init__(
        self,
        job: Job,
        executor: Any,
        checkpoint: Any,
        progress: Any,
        ahead: int | None,
        files: bool = False,
    ) -> None:
        check_progress(progress)
        self.job, self.progress, self.ahead, self.files = job, progress, ahead, files
        self.executor, self.owned = resolve_executor(executor)
        self.checkpoint = _checkpoint_of(checkpoint, job.key)
        self.tally = Tally(progress, self.executor.running)
        # The plan, in merge order (see the class's docstring).
        self.tasks: list[Task] = []
        self.weights: list[float] = []
        self.stored: list[bool] = []
        self.position: dict[str, int] = {}
        self.queue: deque[int] = deque()
        self.buffered: dict[int, Any] = {}
        self.tag = ""
        # Signals and the end of the run.
        self.inside = True  # False while the consumer runs between two results
        self.critical = False  # True while a journal line is written
        self.deferred: int | None = None
        self.stopping = self.closed = False
        self.interrupted: Interrupted | None = None
        self.previous: dict[int, Any] = {}
        self.ticker: threading.Thread | None = None
        self.quiet = threading.Event()  # set: the ticking thread stops

    # ------------------------------------------------------------------
    # Signals, the progress ticker, the end of the run

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
        self.interrupted = Interrupted(signum, self.tally.done, self.tally.total)
        if not self.inside:
            # The exception lands in the consumer's code: clean up now rather than
            # whenever the suspended generator gets collected.
            self._shutdown(failed=True)
        raise self.interrupted

    def _tick(self, tick: Callable[[], None]) -> None:
        """Start a thread that calls ``tick`` (``progress.tick``, which a
        :class:`~polyforms.jobs.ProgressBar` has; other callables are called only
        by the run itself) every :data:`~polyforms.jobs.progress.TICK_SECONDS`
        while the run waits for results.

        It starts after the run's first submissions, because
        :class:`~polyforms.jobs.Processes` forks its workers then and a fork must
        not copy a thread that may hold a lock (stderr's, the bar's). Subtasks
        may last minutes: without it a bar would show nothing until the first
        ended, and then an elapsed time standing still until the next.
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
        self.previous = handle_signals(self._on_signal)
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

    # ------------------------------------------------------------------
    # The run

    def _loop(self) -> Iterator[tuple[Task, Any]]:
        """Yield each task's result in merge order: the next one's as soon as it is
        journalled or finished, else after submitting what may run and waiting
        for a task to finish."""
        self._plan_tasks()
        self._begin_tally()
        self.tag = _batch_tag(self.job.key)
        tick = getattr(self.progress, "tick", None)
        following = 0  # the next task to yield, in merge order
        while following < len(self.tasks):
            if self.stored[following] or following in self.buffered:
                task, result = self.tasks[following], self._ready_result(following)
                following += 1
                yield from self._emit(task, result)
                continue
            self._submit_ready(following)
            if tick is not None and self.ticker is None:
                self._tick(tick)  # after the first submissions: worker processes fork there
            self.tally.note_running()
            self._take_result()

    def _plan_tasks(self) -> None:
        """Plan the tasks (for the worker count a journal was planned for, and
        checked against its plan), take up what journalled tasks left, and
        queue those the journal does not hold.

        Tasks run in merge order, not heaviest first: the heaviest *estimates*
        are mostly overestimates, so running them first would make the fraction
        done jump and the ETA read low. :func:`~polyforms.jobs.plan` already
        cuts every task below a quarter of a worker's share, which keeps the
        tail short.
        """
        executor, checkpoint = self.executor, self.checkpoint
        executor.start_run()
        workers = executor.workers
        if checkpoint is not None:
            workers = checkpoint.open(workers)
        self.tasks = plan(self.job, workers)
        if checkpoint is not None:
            checkpoint.begin(plan_digest(self.tasks))
        self.weights = [task.weight for task in self.tasks]
        journal = checkpoint.entries if checkpoint is not None else {}
        if journal:
            self._take_up_journalled_rests()
        self.stored = [task.id in journal for task in self.tasks]
        self.position = {task.id: i for i, task in enumerate(self.tasks)}
        self.queue = deque(i for i, stored in enumerate(self.stored) if not stored)

    def _take_up_journalled_rests(self) -> None:
        """Append the tasks that do what journalled tasks that stopped early left
        (those of them journalled too are taken up in turn)."""
        checkpoint = self.checkpoint
        assert checkpoint is not None
        k = 0
        while k < len(self.tasks):
            task = self.tasks[k]
            left = checkpoint.continued(task.id) if task.id in checkpoint.entries else None
            if left is not None:
                children = self._taken_up(task, left)
                self.tasks.extend(children)
                self.weights[k] = settled(self.weights[k], children, left.done)[0]
                self.weights.extend(child.weight for child in children)
            k += 1

    def _begin_tally(self) -> None:
        """Start the progress with what the journal holds, tell the executor the
        weight to come, and report."""
        done_weight = sum(w for w, stored in zip(self.weights, self.stored) if stored)
        whole = sum(self.weights)
        before = self.checkpoint.seconds if self.checkpoint is not None else 0.0
        self.tally.begin(sum(self.stored), len(self.tasks), done_weight, whole, before)
        self.executor.expect(whole - done_weight)
        self.tally.report()

    def _ready_result(self, i: int) -> Any:
        """The result of the ``i``-th task, finished or journalled, as the consumer
        takes it (bytes rather than a :class:`~polyforms.jobs.Spooled`, unless it
        asked for files)."""
        result = self.buffered.pop(i, _ON_DISK)
        if result is _ON_DISK:
            result = self._journalled_result(self.tasks[i])
        if isinstance(result, Spooled) and not self.files:
            result = result.read()
        return result

    def _journalled_result(self, task: Task) -> Any:
        """The result the journal holds for ``task``; a job of output chunks must
        find bytes there."""
        checkpoint = self.checkpoint
        assert checkpoint is not None
        result = checkpoint.result(task.id, self.files)
        if getattr(self.job, "chunks", False) and not isinstance(result, (bytes, Spooled)):
            raise CheckpointError(
                f"{checkpoint.path} holds no output chunk for subtask {task.id}: "
                "a damaged checkpoint? remove it to start again"
            )
        return result

    def _submit_ready(self, following: int) -> None:
        """Submit queued tasks, in merge order, while the executor has room and,
        with ``ahead``, while they are near enough the ``following`` one to yield.

        Never fewer ahead than the executor holds: Dask sends tasks in batches,
        and fewer would keep each worker to one batch, idle for a round trip
        after each.
        """
        executor, queue, ahead = self.executor, self.queue, self.ahead
        while queue:
            capacity = executor.capacity
            if executor.in_flight >= capacity:
                break
            if ahead is not None and queue[0] >= following + max(ahead, capacity):
                break
            executor.submit(self.tasks[queue.popleft()], self.tag)

    def _take_result(self) -> None:
        """Wait for a task to finish; journal its result, queue what it left, buffer
        the result until its turn, count it done and report."""
        finished, result = self.executor.next_result()
        if self.interrupted is not None:  # a task swallowed Interrupted
            raise self.interrupted
        i = self.position[finished.id]
        children: list[Task] = []
        if isinstance(result, Continued):
            # Checked before the journal keeps it: a rest the job cannot take up
            # must not be journalled either.
            children = self._resumed(finished, result.rest, result.weights)
        if self.checkpoint is not None:
            result = self._journal(finished, result)
        if isinstance(result, Continued):
            result = self._queue_rest(i, result, children)
        self.buffered[i] = result
        self.tally.finished(finished, self.weights[i])
        if self.deferred is not None:
            self._interrupt(self.deferred)
        self.tally.report()

    def _journal(self, task: Task, result: Any) -> Any:
        """Journal ``task``'s result, with no signal let in half way; return the
        result to buffer (bytes stay on disk, read back when their turn comes)."""
        checkpoint = self.checkpoint
        assert checkpoint is not None
        self.critical = True
        try:
            checkpoint.record(task.id, result, self.tally.seconds)
        finally:
            self.critical = False
        if isinstance(result, (bytes, bytearray, memoryview, Spooled)):
            return _ON_DISK
        return result

    def _queue_rest(self, i: int, continued: Continued, children: list[Task]) -> Any:
        """Append ``children``, the tasks that do what the ``i``-th task left, to
        run after the planned ones; return the task's own result, which counts
        where it stands."""
        for child in children:
            self.position[child.id] = len(self.tasks)
            self.queue.append(len(self.tasks))
            self.tasks.append(child)
            self.weights.append(child.weight)
            self.stored.append(False)
        self.weights[i], growth = settled(self.weights[i], children, continued.done)
        self.tally.grow(len(children), growth)
        return continued.result

    def _taken_up(self, task: Task, left: Continued) -> list[Task]:
        """The tasks that do what a journalled ``task`` left; a rest the job cannot
        read (the journal was edited or damaged) is a :class:`~polyforms.jobs.CheckpointError`."""
        try:
            return self._resumed(task, left.rest, left.weights)
        except (TypeError, ValueError, KeyError, IndexError, OverflowError) as error:
            raise CheckpointError(
                f"{self.checkpoint.path}: the rest of subtask {task.id} in it cannot be "  # type: ignore[union-attr]
                f"taken up ({error}); remove it to start again"
            ) from None

    def _resumed(self, task: Task, rest: list, weights: list) -> list[Task]:
        """The tasks that do what ``task`` left (see :class:`~polyforms.jobs.Continued`)."""
        resume = getattr(self.job, "resume", None)
        if resume is None:
            raise JobError(f"subtask {task.id} stopped early, and its job cannot resume it")
        if not rest or not all(rest) or len(rest) != len(weights):
            raise ValueError("a rest must be non-empty groups of nodes, one weight each")
        children = list(resume(task, rest, weights))
        check_tasks(children, parent=task.id)
        return children


def _checkpoint_of(checkpoint: Any, key: str) -> Checkpoint | None:
    """The :class:`~polyforms.jobs.Checkpoint` a run's ``checkpoint`` option names
    (None, a path or a Checkpoint), refused if it belongs to another job."""
    if checkpoint is not None and not isinstance(checkpoint, Checkpoint):
        checkpoint = Checkpoint(checkpoint, key)
    if checkpoint is not None and checkpoint.key != key:
        raise CheckpointError(f"{checkpoint.path} belongs to another command ({checkpoint.key})")
    return checkpoint

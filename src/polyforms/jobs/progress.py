"""Progress of a run: :class:`Progress` values, a tally that makes them, a bar that draws them.

A run measures what is done by the weights of its subtasks (estimates of
their size), not by their number: :class:`Tally` adds the weight of the
finished ones and an estimate of the part of the running ones done so far,
and extrapolates an ETA. :class:`ProgressBar` draws each :class:`Progress`
as a tqdm bar on a terminal.
"""

from __future__ import annotations

import contextlib
import math
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any, NamedTuple

from .tasks import JobError, Task

__all__ = ["Progress", "ProgressBar", "progress_bar"]


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

    def tick(self, now: float | None = None) -> None:
        """Redraw with the time since the last :class:`Progress`: the elapsed time
        goes on and the ETA counts down (or, once run out, extrapolates the pace
        with the wait counted), so a bar whose subtasks last minutes stays alive.
        :func:`~polyforms.jobs.run` calls it every :data:`TICK_SECONDS` from a thread of its own.
        ``now`` is the time to draw at, on :func:`time.monotonic`'s clock (default: now)."""
        # Not waiting for the lock: whoever holds it is drawing (and a signal
        # handler that stops the run may hold it while it waits for this thread).
        if not self._lock.acquire(blocking=False):
            return
        try:
            if not self.enabled or self._seen is None:
                return
            (progress, then) = self._seen
            now = time.monotonic() if now is None else now
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


def progress_callback(progress: Any) -> tuple[Callable[[Progress], Any] | None, ProgressBar | None]:
    """The callable a ``progress`` option asks for (True: a bar on stderr), and
    that bar if one was made here, to close at the end."""
    bar = progress_bar(True) if progress is True else None
    callback = bar if bar is not None else (progress or None)
    check_progress(callback)
    return callback, bar


def check_progress(progress: Any) -> None:
    if progress is not None and not callable(progress):
        raise JobError(f"progress must be a function taking Progress, not {progress!r:.40}")


class Tally:
    """How far one run is: subtasks done of those planned, their weight done of
    the whole, and the ETA, reported to ``progress`` (a callable taking
    :class:`Progress`, or None) after each subtask.

    ``running`` lists the tasks running now with their start times
    (:meth:`Executor.running <polyforms.jobs.Executor.running>`): their part
    done so far is estimated from the pace of the finished tasks that were
    seen running (:meth:`running_part`).
    """

    def __init__(
        self, progress: Callable[[Progress], Any] | None, running: Callable[[], list]
    ) -> None:
        self.progress, self.running = progress, running
        self.done = self.total = 0  # subtasks finished (journalled ones too) and planned
        self.done_weight = self.whole = 0.0
        self.start = time.monotonic()
        self.first = 0.0  # the fraction done when this run began (from the journal)
        self.before = 0.0  # seconds of work of the runs the journal comes from
        # When each task seen running started, and the weight and busy seconds of
        # the finished tasks so timed.
        self.started: dict[str, float] = {}
        self.timed_weight = self.busy = 0.0

    def begin(self, done: int, total: int, done_weight: float, whole: float, before: float) -> None:
        """Start the clock with ``done`` of ``total`` subtasks, ``done_weight`` of
        ``whole``, taken from a journal of runs that worked ``before`` seconds."""
        self.done, self.total, self.done_weight = done, total, done_weight
        self.start, self.whole = time.monotonic(), whole
        self.first = self.fraction(done_weight)
        self.before = before

    @property
    def seconds(self) -> float:
        """Seconds of work so far, the journal's runs included."""
        return self.before + time.monotonic() - self.start

    def grow(self, tasks: int, weight: float) -> None:
        """``tasks`` more subtasks to run, and the whole changed by ``weight``."""
        self.total += tasks
        self.whole += weight

    def note_running(self) -> None:
        """Note when each task now running started (only a progress reads it)."""
        if self.progress is not None:
            for task, since in self.running():
                self.started.setdefault(task.id, since)

    def finished(self, task: Task, weight: float) -> None:
        """Count ``task`` done, with ``weight`` (and its time, if it was seen running)."""
        since = self.started.pop(task.id, None)
        if since is not None:
            self.timed_weight += weight
            self.busy += time.monotonic() - since
        self.done += 1
        self.done_weight += weight

    def fraction(self, done_weight: float) -> float:
        """The fraction done, by weight: 1 exactly once every subtask is done."""
        if self.done >= self.total:
            return 1.0  # exactly, whatever the rounding of the sum of weights
        if self.whole > 0:
            return min(1.0, max(0.0, done_weight / self.whole))
        return self.done / self.total if self.total else 1.0

    def running_part(self, now: float) -> float:
        """The weight the running subtasks have done so far, estimated: the time each
        has run times the weight per busy second of the finished ones, at most
        :data:`RUNNING_CAP` of its weight. 0 where the executor cannot say what
        runs (:meth:`Executor.running <polyforms.jobs.Executor.running>`).

        Counting finished subtasks only, the ETA would read the time of a few
        long subtasks under way as lost, and overshoot while they run.
        """
        if self.busy <= 0.0 or self.timed_weight <= 0.0:
            return 0.0
        pace = self.timed_weight / self.busy
        return sum(
            min(RUNNING_CAP * task.weight, pace * max(0.0, now - since))
            for task, since in self.running()
        )

    def report(self) -> None:
        """Call ``progress``; the ETA extrapolates the weight done by this run alone
        (the running subtasks' part included), or, until a resumed run has done
        some, the pace of the runs before it."""
        if self.progress is None:
            return
        now = time.monotonic()
        elapsed = now - self.start
        fraction = self.fraction(self.done_weight + self.running_part(now))
        eta: float | None = None
        if self.done >= self.total:
            eta = 0.0
        elif fraction > self.first:
            eta = elapsed * (1.0 - fraction) / (fraction - self.first)
        elif self.first > 0 and self.before > 0:
            eta = self.before * (1.0 - fraction) / self.first
        self.progress(Progress(self.done, self.total, fraction, elapsed, eta))

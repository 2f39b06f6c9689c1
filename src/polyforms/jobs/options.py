"""The long-run options every splittable search takes, as one value: :class:`LongRun`.

A search's public function takes the keywords ``jobs``, ``executor``,
``checkpoint`` and ``progress``; where the call enters the library they become
one :class:`LongRun` (the command line builds it from its arguments), which is
passed down as it is. Its :attr:`~LongRun.split` says once whether the search
goes through the job layer. This module imports nothing of the layer, so a
search that runs in one call (no option asks for subtasks) never imports the
executors; :meth:`LongRun.run` and :meth:`LongRun.sum` import them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tasks import Job, Task

__all__ = ["ONE_CALL", "LongRun", "check_jobs", "wants_split"]


def check_jobs(jobs: object) -> None:
    """Refuse a ``jobs`` that is not None or a whole number at least 0."""
    if (
        isinstance(jobs, bool)
        or not (jobs is None or isinstance(jobs, int))
        or (jobs is not None and jobs < 0)
    ):
        from ..errors import PolyformError

        raise PolyformError(f"jobs must be a whole number at least 0, not {jobs!r}")


def wants_split(jobs: object, executor: object, checkpoint: object, progress: object) -> bool:
    """True when the options ask for the job layer: workers, a checkpoint or progress
    (the rule behind :attr:`LongRun.split`)."""
    check_jobs(jobs)
    parallel = executor is not None or (jobs is not None and jobs != 1)
    return parallel or checkpoint is not None or bool(progress)


class LongRun:
    """How a long search runs: the ``jobs``/``executor``/``checkpoint``/``progress``
    keywords that every splittable search of the library takes, in one value.

    ``jobs`` is a whole number at least 0 (0: every core) or None, checked here.
    ``progress`` is a callable taking :class:`~polyforms.jobs.Progress`, True for a bar on
    stderr, or None / False. ``executor`` (an :class:`~polyforms.jobs.Executor`, a
    ``distributed.Client`` or a dask address) wins over ``jobs``.

    Examples
    --------
    >>> LongRun().split, LongRun(jobs=2).split, LongRun(checkpoint="count.ckpt").split
    (False, True, True)
    >>> LongRun(jobs=-1)
    Traceback (most recent call last):
    ...
    polyforms.errors.PolyformError: jobs must be a whole number at least 0, not -1
    """

    # A plain class rather than a frozen dataclass: ``dataclasses`` (with
    # ``inspect``) costs every command about 4 ms of start-up.
    __slots__ = ("jobs", "executor", "checkpoint", "progress")
    jobs: int | None
    executor: Any
    checkpoint: Any
    progress: Any

    def __init__(
        self, jobs: int | None = 1, executor: Any = None, checkpoint: Any = None,
        progress: Any = None,
    ) -> None:  # fmt: skip
        check_jobs(jobs)
        for name, value in zip(self.__slots__, (jobs, executor, checkpoint, progress)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"LongRun is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"LongRun is immutable: cannot delete {name}")

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __reduce__(self) -> tuple:
        return LongRun, self._values()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LongRun):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "LongRun(" + ", ".join(
            f"{name}={value!r}" for name, value in zip(self.__slots__, self._values())
        ) + ")"  # fmt: skip

    @property
    def split(self) -> bool:
        """True when the search must go through :func:`~polyforms.jobs.run`
        (otherwise one call does): workers, an executor, a checkpoint or progress."""
        return wants_split(self.jobs, self.executor, self.checkpoint, self.progress)

    @property
    def keywords(self) -> dict[str, Any]:
        """The options as the keywords of the library's public functions, to hand a
        value built elsewhere (by the command line) to them."""
        return {
            "jobs": self.jobs,
            "executor": self.executor,
            "checkpoint": self.checkpoint,
            "progress": self.progress,
        }

    @property
    def workers(self) -> int:
        """The local workers ``jobs`` asks for, 1 for None or 0 (a guess for buffering)."""
        return 1 if self.jobs in (None, 0, 1) else self.jobs

    def run(
        self, job: Job, *, ahead: int | None = None, files: bool = False
    ) -> Iterator[tuple[Task, Any]]:
        """:func:`~polyforms.jobs.run` with these options (a bar made for
        ``progress=True`` closes at the end).

        An executor made here from ``jobs`` is run's own, closed at the end (its
        workers reaped, its spool directory removed); one given stays open.
        """
        from .runner import run_long

        return run_long(job, *self._run_options(), ahead=ahead, files=files)

    def sum(self, job: Job) -> int:
        """The sum of the job's results: a count."""
        from .runner import sum_long

        return sum_long(job, *self._run_options())

    def _run_options(self) -> tuple[Any, Any, Any]:
        """The executor (else ``jobs``), checkpoint and progress that a run takes."""
        executor = self.executor if self.executor is not None else self.jobs
        return executor, self.checkpoint, self.progress


#: The default options: a search in one call, in this process, with nothing journalled.
ONE_CALL = LongRun()

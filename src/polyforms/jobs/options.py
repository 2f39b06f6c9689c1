"""The run options every long search takes, checked without importing the job layer.

:class:`polyforms.jobs.LongRun` carries ``jobs``, ``executor``, ``checkpoint``
and ``progress``; a search that will run in one call (no option asks for
subtasks) needs only :func:`check_jobs` and :func:`wants_split`, so a short
count does not pay for importing the executors.
"""

from __future__ import annotations

__all__ = ["check_jobs", "wants_split"]


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
    """True when the options ask for the job layer: workers, a checkpoint or progress."""
    check_jobs(jobs)
    parallel = executor is not None or (jobs is not None and jobs != 1)
    return parallel or checkpoint is not None or bool(progress)

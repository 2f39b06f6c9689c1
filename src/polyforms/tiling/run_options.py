"""The long-run options of a tiling count or listing, as one value.

:meth:`TilingProblem.count <polyforms.tiling.problem.TilingProblem.count>`,
:meth:`~polyforms.tiling.problem.TilingProblem.solutions` and
:meth:`~polyforms.tiling.problem.TilingProblem.write` take the keywords
``jobs``, ``executor``, ``checkpoint`` and ``progress``; they become one
:class:`RunOptions` where the call enters, and travel so through the counts,
the sweeps and the listings. It is :class:`polyforms.jobs.LongRun`
without the job layer: a search that runs in one call (no option asks for
subtasks) never imports the executors, and ``jobs`` is checked where an
option is first asked for (:attr:`RunOptions.split`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..jobs.options import wants_split

if TYPE_CHECKING:
    from ..jobs.runner import LongRun

__all__ = ["RunOptions"]


class RunOptions(NamedTuple):
    """How a long tiling search runs (see :class:`polyforms.jobs.LongRun`).

    Examples
    --------
    >>> RunOptions().split, RunOptions(jobs=2).split
    (False, True)
    """

    jobs: int | None = 1
    executor: Any = None
    checkpoint: Any = None
    progress: Any = None

    @property
    def split(self) -> bool:
        """True when an option asks for the job layer: workers, a checkpoint or progress."""
        return wants_split(self.jobs, self.executor, self.checkpoint, self.progress)

    def long_run(self) -> LongRun:
        """The same options for the job layer (which this imports)."""
        from ..jobs.runner import LongRun

        return LongRun(self.jobs, self.executor, self.checkpoint, self.progress)

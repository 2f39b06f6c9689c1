"""Which executor runs a job: from the command line's ``--jobs`` and ``--dask``, or
from what a caller hands :func:`polyforms.jobs.run` as ``executor``.

The executors themselves import only :mod:`polyforms.jobs.executors` (the
interface); choosing among them is this module's alone, so none of them
imports another.
"""

from __future__ import annotations

from typing import Any

from .executors import Executor, InProcess, available_cores, is_dask_client
from .tasks import JobError

__all__ = ["executor_from", "resolve_executor"]


def executor_from(jobs: int | None = None, dask: Any = None) -> Executor:
    """The executor for the command line's ``--jobs N`` and ``--dask ADDRESS``.

    ``dask`` (a Client, an address or ``"local"``) gives :class:`~polyforms.jobs.Dask`,
    with ``jobs`` workers for ``"local"`` (default 2, 0: every core); else ``jobs``
    None or 1 gives :class:`InProcess` and any other N gives
    ``Processes(N)`` (0: every core).
    """
    if isinstance(dask, Executor):
        return dask
    if dask is not None:
        from .dask_cluster import Dask

        return Dask(dask, workers=available_cores() if jobs == 0 else jobs or 2)
    if jobs is None or jobs == 1:
        return InProcess()
    from .processes import Processes

    return Processes(jobs)


def resolve_executor(executor: Any) -> tuple[Executor, bool]:
    """The executor for ``run`` and whether ``run`` owns it (closes it at the end)."""
    if executor is None:
        return InProcess(), True
    if isinstance(executor, Executor):
        return executor, False
    if isinstance(executor, int) and not isinstance(executor, bool):
        return executor_from(jobs=executor), True
    if isinstance(executor, str) or is_dask_client(executor):
        from .dask_cluster import Dask

        return Dask(executor), True
    raise JobError(f"not an executor: {executor!r}")

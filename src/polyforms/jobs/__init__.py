"""The job layer: a long search cut into tasks, planned, run in-process, on local
processes or on Dask, journalled in a checkpoint, with progress.

One module a concept: ``tasks`` (the task protocol: what a job hands the
layer and what its tasks hand back), ``planning``, ``runner`` (:func:`run`),
``checkpoint``, ``progress``, ``executors`` (the interface, and this
process), ``processes``, ``dask_cluster``, ``transport`` (messages to workers
and spool files back), ``estimate`` (Knuth's estimator), ``options`` (the
long-run options as one value, :class:`LongRun`), ``resumable`` (count subtasks
that stop after a budget and hand back the rest).
"""

from __future__ import annotations

from .._lazy import attach

TYPE_CHECKING = False

_SOURCES = {
    "Task": "tasks",
    "Continued": "tasks",
    "Shared": "tasks",
    "Pieces": "tasks",
    "Spooled": "tasks",
    "Job": "tasks",
    "StaticJob": "tasks",
    "JobError": "tasks",
    "CheckpointError": "tasks",
    "plan": "planning",
    "run": "runner",
    "run_sum": "runner",
    "LongRun": "options",
    "Interrupted": "runner",
    "Checkpoint": "checkpoint",
    "Progress": "progress",
    "ProgressBar": "progress",
    "progress_bar": "progress",
    "Executor": "executors",
    "InProcess": "executors",
    "executor_from": "executor_choice",
    "available_cores": "executors",
    "Processes": "processes",
    "Dask": "dask_cluster",
    "Estimate": "estimate",
    "estimate_tree": "estimate",
    "estimate_weights": "estimate",
    "estimate_partial": "estimate",
    "frontier": "estimate",
    "group_weight": "estimate",
    "CountSearch": "resumable",
    "resumable_count": "resumable",
    "node_budget": "resumable",
    "check_jobs": "options",
    "wants_split": "options",
}

__all__, __getattr__, __dir__ = attach(__name__, _SOURCES)

if TYPE_CHECKING:  # the same names, imported eagerly, for type checkers
    from .checkpoint import Checkpoint
    from .dask_cluster import Dask
    from .estimate import (
        Estimate,
        estimate_partial,
        estimate_tree,
        estimate_weights,
        frontier,
        group_weight,
    )
    from .executor_choice import executor_from
    from .executors import Executor, InProcess, available_cores
    from .options import LongRun, check_jobs, wants_split
    from .planning import plan
    from .processes import Processes
    from .progress import Progress, ProgressBar, progress_bar
    from .resumable import CountSearch, node_budget, resumable_count
    from .runner import Interrupted, run, run_sum
    from .tasks import (
        CheckpointError,
        Continued,
        Job,
        JobError,
        Pieces,
        Shared,
        Spooled,
        StaticJob,
        Task,
    )

"""The job layer: a long search cut into tasks, planned, run in-process, on local
processes or on Dask, journalled in a checkpoint, with progress.
"""

from __future__ import annotations

from .._lazy import attach

TYPE_CHECKING = False

_SOURCES = {
    "Job": "runner",
    "StaticJob": "runner",
    "Interrupted": "runner",
    "Progress": "runner",
    "ProgressBar": "runner",
    "progress_bar": "runner",
    "Checkpoint": "runner",
    "plan": "runner",
    "run": "runner",
    "run_sum": "runner",
    "LongRun": "runner",
    "Task": "executors",
    "Continued": "executors",
    "Shared": "executors",
    "JobError": "executors",
    "CheckpointError": "executors",
    "Executor": "executors",
    "InProcess": "executors",
    "Processes": "executors",
    "Dask": "executors",
    "executor_from": "executors",
    "available_cores": "executors",
    "Pieces": "executors",
    "Spooled": "executors",
    "Estimate": "estimate",
    "estimate_tree": "estimate",
    "estimate_weights": "estimate",
    "estimate_partial": "estimate",
    "frontier": "estimate",
    "group_weight": "estimate",
    "check_jobs": "options",
    "wants_split": "options",
}

__all__, __getattr__, __dir__ = attach(__name__, _SOURCES)

if TYPE_CHECKING:  # the same names, imported eagerly, for type checkers
    from .estimate import (
        Estimate,
        estimate_partial,
        estimate_tree,
        estimate_weights,
        frontier,
        group_weight,
    )
    from .executors import (
        CheckpointError,
        Continued,
        Dask,
        Executor,
        InProcess,
        JobError,
        Pieces,
        Processes,
        Shared,
        Spooled,
        Task,
        available_cores,
        executor_from,
    )
    from .options import check_jobs, wants_split
    from .runner import (
        Checkpoint,
        Interrupted,
        Job,
        LongRun,
        Progress,
        ProgressBar,
        StaticJob,
        plan,
        progress_bar,
        run,
        run_sum,
    )

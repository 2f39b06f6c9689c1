"""Planning: a job's tasks refined, from their weights alone, until the workers share them well.

The plan depends on the weights only, never on timing, so it is the same
every time: a checkpoint records the worker count it was made for, and a
resumed run sees the same task ids even with another ``--jobs``.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence

from .tasks import Job, Task, check_tasks

__all__ = ["plan"]


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

    Examples
    --------
    >>> from polyforms.jobs import StaticJob, Task
    >>> def halves(task):
    ...     return [Task(f"{task.id}.{k}", len, (), task.weight / 2) for k in range(2)]
    >>> job = StaticJob("halves", [Task("0", len, (), 8.0)], halves)
    >>> [task.id for task in plan(job, 1, per_worker=3)]
    ['0.0.0', '0.0.1', '0.1.0', '0.1.1']
    """
    tasks = list(job.tasks())
    check_tasks(tasks)
    refine = getattr(job, "refine", None)
    if refine is None:
        return tasks
    splitter = _Splitter(refine)
    workers = max(1, int(workers))
    want = min(per_worker * workers, max_tasks)
    if len(tasks) < want:
        tasks = _refine_heaviest(tasks, want, splitter)
    for _ in range(rounds):
        limit = sum(task.weight for task in tasks) / (heavy * workers)
        tasks, changed = _refine_heavier(tasks, limit, max_tasks, splitter)
        if not changed:
            break
    check_tasks(tasks)
    return tasks


class _Splitter:
    """``job.refine`` checked, remembering the tasks that cannot be split."""

    def __init__(self, refine: Callable[[Task], Sequence[Task] | None]) -> None:
        self.refine = refine
        self.final: set[str] = set()  # ids that cannot be split

    def __call__(self, task: Task) -> list[Task] | None:
        children = self.refine(task)
        if children is None:
            self.final.add(task.id)
            return None
        children = list(children)
        check_tasks(children, parent=task.id)
        return children


def _refine_heaviest(tasks: list[Task], want: int, split: _Splitter) -> list[Task]:
    """``tasks`` with the heaviest (the shallowest, then the first) refined until
    there are ``want`` of them or none can be split, in merge order.

    The heaviest comes from a heap, not a scan of the list for each split,
    which a cluster of thousands of workers (a plan of tens of thousands of
    tasks) could not afford. ``place`` keeps the merge order: a child's is
    its parent's and its rank.
    """
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
    return [task for _, task in sorted(kept, key=lambda entry: entry[0])]


def _refine_heavier(
    tasks: list[Task], limit: float, max_tasks: int, split: _Splitter
) -> tuple[list[Task], bool]:
    """``tasks`` with each one heavier than ``limit`` replaced by its children
    (while there are fewer than ``max_tasks``), and whether any was."""
    refined: list[Task] = []
    changed = False
    for task in tasks:
        children = None
        if task.weight > limit and task.id not in split.final and len(tasks) < max_tasks:
            children = split(task)
        changed |= children is not None
        refined.extend([task] if children is None else children)
    return refined, changed

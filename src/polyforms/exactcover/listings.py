"""``polyforms solve``'s listing on the job layer: solutions written by subtasks.

A split listing takes the subtasks of :meth:`ExactCover.split`
(:class:`~polyforms.exactcover.subtasks.SplitJob`), which come in the order of
the search; the search chooses its next branching from the state alone, so a
search started below a subtask's node lists its solutions in the order the
whole search meets them. Each subtask lists the solutions below its node *and
formats them* (formatting is much of a listing's work); the parent writes the
chunks in merge order, so the output is byte-identical to a one-process run
whatever the executor, the number of workers or the interruptions. A
checkpoint keeps each finished chunk in a file beside its journal, and the
output file is written atomically: an interrupted run leaves no partial file,
and the same call resumes.

A chunk is bytes: the number of solutions it holds on a first line, then the
formatted solutions.
"""

from __future__ import annotations

import hashlib
import pickle
from typing import Any

from .cores import engine_for, new_search, solutions_of
from .dlxformat import format_solution
from .flat import shared_flat
from .subtasks import SplitJob

__all__ = ["SolveListingJob", "solve_listing"]


def _solve_chunk(
    digest: str, arrays: tuple, texts: list[str], forced: list[int], excluded: list[int]
) -> bytes:
    """A subtask of ``polyforms solve``: the solutions with ``forced`` taken and
    ``excluded`` left out, each written as its options' lines and a blank line."""
    from ..files.chunks import counted_chunk

    flat = shared_flat(digest, arrays)
    search = new_search(engine_for(None, flat), flat, forced, excluded)
    body = [format_solution(texts, sorted(solution)) for solution in solutions_of(search)]
    return counted_chunk(len(body), "".join(body).encode("utf-8"))


class SolveListingJob(SplitJob):
    """``polyforms solve``'s listing cut into subtasks (:class:`SplitJob`); its
    children come in search order, so the chunks concatenate to the listing."""

    chunks = True  # its results are output chunks (see jobs.Job)

    def __init__(self, problem: Any, texts: list[str]) -> None:
        super().__init__(problem.flat, list(problem._initial), python=False)
        self.texts = texts
        recipe = (self.arrays, self.initial, texts)
        self.digest = hashlib.sha1(pickle.dumps(recipe, protocol=4)).hexdigest()[:16]
        self.key = f"exact cover listing {self.digest}"

    def task(self, task_id: str, forced: list[int], excluded: list[int], weight: float):
        from ..jobs.tasks import Task

        args = (self.digest, self.arrays, self.texts, forced, excluded)
        return Task(task_id, _solve_chunk, args, weight)


def solve_listing(problem: Any, texts: list[str], path: Any, long_run: Any) -> int:
    """Write every solution of ``problem`` (an :class:`ExactCover`) as ``polyforms
    solve`` does (``texts[o]``: option ``o``'s line) to ``path`` (None: stdout),
    through the job layer (``long_run``: a :class:`~polyforms.jobs.LongRun`, or
    its keywords as a dict); return how many."""
    from ..files.chunks import write_listing
    from ..jobs.options import LongRun

    options = long_run if isinstance(long_run, LongRun) else LongRun(**long_run)
    return write_listing(SolveListingJob(problem, texts), path, options)

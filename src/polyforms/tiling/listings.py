"""Listings on the job layer: tilings written by subtasks (the exact-cover solutions
of ``polyforms solve``: :mod:`polyforms.exactcover.listings`).

A split listing cuts the search into prefixes of its tree, in search order
(:mod:`polyforms.jobs`). Each subtask lists the solutions below its prefix
*and formats them* (formatting is much of a listing's work); the parent writes
the chunks in merge order, so the output is byte-identical to a one-process
run whatever the executor, the number of workers or the interruptions. A
checkpoint keeps each finished chunk in a file beside its journal (as
catalogues do), and the output file is written atomically: an interrupted run
leaves no partial file, and the same call resumes.

The order of the prefixes is the order of the search: the parts of a tiling
listing (:func:`polyforms.tiling.representatives.listing_parts`) one after the
other, and within a part the prefixes of :func:`polyforms.jobs.estimate.frontier`,
each node replaced by its children in the order the search tries them. The
search chooses its next branching from the state alone, so a search started
below a prefix lists its solutions in the order the whole search meets them.

A chunk is bytes: the number of solutions it holds on a first line, then the
formatted solutions.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import pickle
import threading
import zlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from ..exactcover.listings import solve_listing  # named by polyforms.tiling.__all__

if TYPE_CHECKING:  # the job layer and the solutions sit below: no circle
    from .. import jobs as _jobs
    from ..files.solutions import Tiling
    from ..jobs.options import LongRun
    from ..piece_sets import PieceSet
    from ..region import Region
    from .engines import Searches
    from .layout import Layout
    from .symmetry_breaking import SymmetryBreaking


class ListedProblem(Protocol):
    """What a listing needs of a :class:`~polyforms.TilingProblem` (a Protocol: this
    module sits below the problem's, which calls it)."""

    region: Region
    pieces: PieceSet
    open: int
    engine: str
    strategy: str
    layout: Layout
    searches: Searches
    symmetry_breaking: SymmetryBreaking

    def steady(self, tiling: Tiling) -> Tiling: ...


# problem.py and the command line call this module; it never imports problem.py (the
# problem class travels in the subtasks' recipe) and takes the search's ``children``
# from it.
Children = Callable[[Any, tuple[int, ...]], list[tuple[int, ...]]]

__all__ = ["LISTING_FORMATS", "solve_listing", "tiling_listing", "tiling_solutions"]

#: The formats whose chunks a subtask writes (pictures and models hold a whole page).
LISTING_FORMATS = ("txt", "jsonl")
#: Subtasks a split listing starts from, before jobs.plan refines heavy ones.
SPLIT_TASKS = 64
#: Knuth probes per subtask for its weight.
PROBES = 16


def _digest(value: Any) -> str:
    return hashlib.sha1(pickle.dumps(value, protocol=4)).hexdigest()[:16]


def _chunk(count: int, body: list[str]) -> bytes:
    from ..files.chunks import counted_chunk

    return counted_chunk(count, "".join(body).encode("utf-8"))


# -- tilings -----------------------------------------------------------------------------

# Per process: the problems of the listings its subtasks belong to, by digest, with
# their listing parts and the idle searches of each part. A listing puts its own here
# while it runs (:meth:`TilingListingJob.shared`), so that subtasks run in this process
# or in worker processes forked meanwhile do not build the problem and its searches
# again. A search is lent to one caller at a time: threads of one process (a dask
# worker's, the planner beside them) each walk their own.
_TILINGS: dict[str, tuple[Any, list, dict[int, list]]] = {}
_TILINGS_LOCK = threading.Lock()


@contextlib.contextmanager
def _tiling_part(digest: str, packed_recipe: bytes, distinct: bool, part: int):
    """Lend (problem, finish, (search, spec, chosen)) of one part for a ``with`` block;
    the problem is built once per process and a search once per thread using it.

    The recipe comes pickled once per listing, not once per subtask (pickling a
    region and its pieces is most of a subtask's arguments), and is unpickled
    only here.
    """
    with _TILINGS_LOCK:  # building under the lock: a problem's parts fill in lazily
        found = _TILINGS.get(digest)
        if found is None:
            if len(_TILINGS) >= 4:
                _TILINGS.pop(next(iter(_TILINGS)))
            problem_class, region, pieces, options = pickle.loads(packed_recipe)
            problem = problem_class(region, pieces, **options)
            found = _TILINGS[digest] = (problem, _parts_of(problem, distinct), {})
        problem, parts, idle = found
        keep, finish = parts[part]
        waiting = idle.setdefault(part, [])
        entry = waiting.pop() if waiting else problem.searches.over(keep)
    try:
        yield problem, finish, entry
    finally:
        with _TILINGS_LOCK:
            waiting.append(entry)


def _parts_of(problem: ListedProblem, distinct: bool) -> list:
    """The listing parts of a problem (:func:`~polyforms.tiling.representatives.listing_parts`)."""
    from .representatives import listing_parts

    return listing_parts(problem.symmetry_breaking, distinct)


def _tiling_chunk(
    digest: str,
    packed_recipe: bytes,
    distinct: bool,
    part: int,
    prefix: tuple[int, ...],
    fmt: str,
    steady: bool,
) -> bytes:
    """A subtask: the tilings below ``prefix`` in one part, formatted as ``fmt``."""
    body: list[str] = []
    with _tiling_part(digest, packed_recipe, distinct, part) as (problem, finish, lent):
        search, _, chosen = lent
        for solution in search.solutions(prefix=prefix):
            tiling = finish(problem.layout.tiling(chosen[i] for i in solution))
            if tiling is None:
                continue
            tiling = problem.layout.present(tiling)
            if steady:
                tiling = problem.steady(tiling)
            body.append(tiling.to_jsonl() if fmt == "jsonl" else tiling.to_ascii() + "\n\n")
    return _chunk(len(body), body)


class TilingListingJob:
    """A tiling listing cut into subtasks (see :class:`polyforms.jobs.Job`)."""

    def __init__(
        self, problem: ListedProblem, distinct: bool, fmt: str, steady: bool, children: Children
    ) -> None:
        options = {"open": problem.open, "strategy": problem.strategy, "engine": problem.engine}
        recipe = (type(problem), problem.region, problem.pieces, options)
        self.packed_recipe = pickle.dumps(recipe, protocol=5)
        self.children = children
        self.distinct, self.fmt, self.steady = distinct, fmt, steady
        self.digest = _digest((recipe, distinct))
        self.problem, self.listing_parts = problem, _parts_of(problem, distinct)
        self.parts = [problem.searches.over(keep) for keep, _ in self.listing_parts]
        self.key = f"tiling listing {fmt} distinct={distinct} steady={steady} {self.digest}"
        self.chunks = True  # its results are output chunks (see jobs.Job)

    @contextlib.contextmanager
    def shared(self) -> Iterator[None]:
        """Offer this listing's problem and searches to the subtasks of this process and
        of the workers forked while it lasts (building them costs each worker ~0.1 s
        on 6x10 pentominoes, where a 2-worker run takes ~1 s)."""
        idle = {part: [entry] for part, entry in enumerate(self.parts)}
        _TILINGS[self.digest] = (self.problem, self.listing_parts, idle)
        try:
            yield
        finally:
            _TILINGS.pop(self.digest, None)

    @contextlib.contextmanager
    def _searching(self, part: int) -> Iterator[Any]:
        """The search of ``part`` for planning: lent from the pool while the listing
        is offered to subtasks (a thread of this process may run one), else its own."""
        if self.digest not in _TILINGS:
            yield self.parts[part][0]
            return
        with _tiling_part(self.digest, self.packed_recipe, self.distinct, part) as (_, _, lent):
            yield lent[0]

    @property
    def splittable(self) -> bool:
        """False for the dancing-links engine, whose search offers no branching to cut."""
        return all(spec is not None for _, spec, _ in self.parts)

    def _task(self, part: int, task_id: str, prefix: tuple[int, ...]) -> _jobs.Task:
        from ..jobs.estimate import estimate_tree
        from ..jobs.tasks import Task

        with self._searching(part) as search:
            estimate = estimate_tree(
                lambda node: self.children(search, node),
                prefix,
                probes=PROBES,
                seed=zlib.crc32(task_id.encode()),
            )
        args = (self.digest, self.packed_recipe, self.distinct, part, prefix, self.fmt, self.steady)
        return Task(task_id, _tiling_chunk, args, max(estimate.nodes, 1.0))

    def tasks(self) -> list[_jobs.Task]:
        from ..jobs.estimate import frontier

        want = max(1, SPLIT_TASKS // max(1, len(self.parts)))
        found = []
        for part in range(len(self.parts)):  # one after the other: the order
            with self._searching(part) as search:
                prefixes = frontier(lambda node, s=search: self.children(s, node), (), want)
            found.extend(self._task(part, f"{part}.{i}", p) for i, p in enumerate(prefixes))
        return found

    def refine(self, task: _jobs.Task) -> list[_jobs.Task] | None:
        part, prefix = task.args[3], task.args[4]
        with self._searching(part) as search:
            children = self.children(search, prefix)
        if not children:
            return None
        return [self._task(part, f"{task.id}.{k}", child) for k, child in enumerate(children)]


def tiling_listing(
    problem: ListedProblem,
    path: Any,
    fmt: str,
    *,
    distinct: bool,
    steady: bool,
    options: LongRun,
    children: Children,
) -> int | None:
    """Write the tilings of a :class:`~polyforms.tiling.problem.TilingProblem` as ``fmt`` (txt or
    jsonl) through the job layer; None when this listing cannot be split (the caller
    lists in one process). ``options``: the call's long-run options
    (:class:`~polyforms.jobs.LongRun`); ``children(search, prefix)``:
    the prefixes one level down."""
    if fmt not in LISTING_FORMATS:
        return None
    job = TilingListingJob(problem, distinct, fmt, steady, children)
    if not job.splittable:
        return None
    with job.shared():
        from ..files.chunks import write_listing

        return write_listing(job, path, options)


def tiling_solutions(
    problem: ListedProblem, distinct: bool, options: LongRun, children: Children
) -> Iterator[Tiling] | None:
    """The tilings, listed by subtasks and read back from their jsonl chunks; None when
    this listing cannot be split."""
    job = TilingListingJob(problem, distinct, "jsonl", False, children)
    if not job.splittable:
        return None
    return _read_back(problem, job, options)


def _read_back(problem: ListedProblem, job: TilingListingJob, options: LongRun) -> Iterator[Tiling]:
    from ..files.chunks import ahead_of, split_chunk
    from ..files.solutions import OpenTiling, Placement, Tiling
    from ..jobs.tasks import CheckpointError

    with job.shared():
        for task, chunk in options.run(job, ahead=ahead_of(options)):
            for line in split_chunk(chunk)[1].splitlines():
                try:
                    record = json.loads(line)
                    placements = [
                        Placement(p["piece"], tuple(map(tuple, p["cells"])))
                        for p in record["placements"]
                    ]
                    open_cells = list(map(tuple, record["open"])) if "open" in record else None
                except (ValueError, KeyError, TypeError, RecursionError):
                    # only a chunk a journal kept can be so: a worker's is written here
                    raise CheckpointError(
                        f"the tilings of subtask {task.id} cannot be read back: "
                        "a damaged checkpoint? remove it to start again"
                    ) from None
                if open_cells is not None:
                    yield OpenTiling(placements, problem.region, open_cells)
                else:
                    yield Tiling(placements, problem.region)

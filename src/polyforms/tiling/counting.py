"""Counting tilings: restricted kernel searches, sweeps, and counts cut into subtasks.

A count is a sum over *restrictions* of one kernel (the searches of nested
symmetry breaking, :meth:`SymmetryBreaking.restrictions
<polyforms.tiling.symmetry_breaking.SymmetryBreaking.restrictions>`): each
restricted search's tilings times its weight. :func:`count_restricted` runs it
one of three ways:

* every piece free: a sweep over boards (:mod:`polyforms.tiling.sweep`), in
  this process, in threads with the compiled kernel;
* a long-run option given (workers, an executor, a checkpoint, progress): on
  the job layer (:mod:`polyforms.jobs`) as a :class:`CountJob`, whose
  subtasks (:func:`count_task`) count below prefixes of the search tree and
  hand back what they leave when they stop early (:mod:`polyforms.jobs.resumable`,
  with the kernel as a :class:`KernelCount`);
* otherwise each restricted search in turn, in this process.
"""

from __future__ import annotations

import functools
import threading
import time
import warnings
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import CountOverflowError, TilingError
from ..jobs import resumable
from ..jobs.resumable import CountSearch
from ..limits import memo_bytes
from .engines import make_search, tiling_kernel
from .spec import SearchSpec
from .symmetry_breaking import Restrictions, count_exactly

if TYPE_CHECKING:
    from .. import jobs as _jobs
    from ..jobs.options import LongRun

__all__ = ["PROBES", "CountJob", "KernelCount", "children", "count_restricted", "count_task",
           "in_turn", "rest_of", "timed_count"]  # fmt: skip

#: Knuth probes per subtask for its weight. The weights' errors decide how far
#: the ETA strays, and a Knuth estimate's error is heavy-tailed: more probes make
#: a badly weighed subtask rarer, for a few milliseconds more of planning
#: (BENCHMARKS.md).
PROBES = 64

Prefixes = tuple[tuple[int, ...], ...]  # the nodes a subtask counts below


def count_restricted(
    search, spec: SearchSpec | None, restrictions: Restrictions, options: LongRun
) -> int:
    """Sum over ``restrictions`` (placements left out, weight) of the tilings the
    kernel ``search`` counts with those placements left out, times the weight.

    ``options``: the long-run options of :meth:`TilingProblem.count`; a split
    count needs the kernel's ``spec`` (the exact-cover engine has none).
    """
    if spec is not None:
        swept = _swept(search, spec, restrictions, options)
        if swept is not None:
            return swept
    if spec is not None and options.split:
        job = CountJob(spec, restrictions)
        _KERNELS.clear()
        _KERNELS[job.digest] = [[None, search]]
        try:
            return options.sum(job)
        finally:
            _KERNELS.clear()  # forked workers keep their copy; this process needs none
    return sum(count_exactly(search) * weight for weight in in_turn(search, restrictions))


def _swept(search, spec: SearchSpec, restrictions: Restrictions, options: LongRun) -> int | None:
    """The count by sweeps over boards (:mod:`polyforms.tiling.sweep`) when every piece
    is free and no cluster is asked for; None otherwise, or when a sweep would
    pass its memory budget (the count then goes by the search, with a warning)."""
    if not (search.memo and search.memo_ok) or options.executor is not None:
        return None
    try:
        if options.split:
            from . import sweep  # with the job layer's options: progress, checkpoint, signals

            key = CountJob(spec, restrictions).key if options.checkpoint is not None else ""
            make = functools.partial(make_search, spec)  # a search for each further thread
            return sweep.count(tiling_kernel(), search, restrictions, key, options, make)
        total = 0
        for weight in in_turn(search, restrictions):
            board_sweep = tiling_kernel().BoardSweep(search, budget=memo_bytes())
            while not board_sweep.run(1 << 20):
                pass
            total += board_sweep.count * weight
        return total
    except MemoryError as error:
        warnings.warn(f"{error} (POLYFORMS_MEMO): counting by the search instead, "
                      "which can take far longer", RuntimeWarning, stacklevel=4)  # fmt: skip
        return None


def in_turn(search, restrictions: Restrictions) -> Iterator[int]:
    """Restrict ``search`` to each of ``restrictions`` in turn, yielding its weight.
    A lone empty restriction leaves the kernel alone (the exact-cover engine's
    search, used so, cannot restrict)."""
    alone = len(restrictions) == 1 and not restrictions[0][0]
    for excluded, weight in restrictions:
        if not alone:
            search.restrict(excluded)
        yield weight


# -- kernels kept per process -------------------------------------------------------------

# Kernels by the digest of their spec: the idle ones, each with the part
# (restriction) it has now, least recently used first. A count's job puts its
# kernel here, so its subtasks, in this process or in worker processes forked
# after that, use it; other processes (dask workers, a pool started earlier)
# build it once. Restricting is cheap for fewest-options kernels (0.1 ms) but
# rebuilds the split lists of first-empty ones (8x8 + square: 4 ms), and the
# subtasks come part by part in turn, so a process keeps a few kernels of a
# spec, each restricted to the part it served last. A kernel is lent to one
# caller at a time and leaves the pool meanwhile: threads of one process (a
# dask worker's threads, the planner beside them) each search their own.
_KERNELS: dict[str, list[list[Any]]] = {}
_PER_SPEC = 4
_SPECS_KEPT = 4
_KERNELS_LOCK = threading.Lock()


@contextmanager
def _kernel_for(digest: str, packed_spec: bytes, part: str, excluded: tuple[int, ...]):
    """Lend the kernel of the spec with ``excluded`` left out (``part`` names
    that restriction) for the ``with`` block; it goes back to the pool after."""
    with _KERNELS_LOCK:
        pool = _KERNELS.get(digest)
        if pool is None:
            if len(_KERNELS) >= _SPECS_KEPT:
                _KERNELS.pop(next(iter(_KERNELS)))
            pool = _KERNELS[digest] = []
        # Ours for this part, else one for no part yet (the count's own kernel),
        # else the least recently used once the pool is full.
        entry = next((e for e in pool if e[0] == part), None)
        entry = entry or next((e for e in pool if e[0] is None), None)
        if entry is None and len(pool) >= _PER_SPEC:
            entry = pool[0]
        if entry is not None:
            pool.remove(entry)
    if entry is None:
        import pickle  # here: a count in one process never unpickles (start-up)

        entry = [None, make_search(pickle.loads(packed_spec))]
    if entry[0] != part:
        entry[1].restrict(excluded)
        entry[0] = part
    try:
        yield entry[1]
    finally:
        with _KERNELS_LOCK:
            pool = _KERNELS.get(digest)
            if pool is not None:
                pool.append(entry)
                if len(pool) > _PER_SPEC:
                    pool.pop(0)


# -- a subtask ------------------------------------------------------------------------------


def count_task(
    digest: str, packed_spec: bytes, part: str, excluded: tuple[int, ...],
    prefixes: Prefixes, weight: int, budget: int, seconds: float,
) -> int | Any:  # fmt: skip
    """A subtask: the tilings below each of ``prefixes`` in one part, times the
    part's weight, counted by :func:`polyforms.jobs.resumable_count`; after
    ``budget`` nodes or ``seconds``, or in a worker process once another worker
    sits idle, it stops and returns a :class:`polyforms.jobs.Continued` naming
    what is left (:func:`rest_of`). The count is the same wherever it stops.

    The spec comes pickled once per job (``packed_spec``), not once per
    subtask: a spec of thousands of placements is costly to pickle, and a
    process that has the kernel already never unpickles it. As
    :class:`~polyforms.jobs.Shared` bytes it goes to each worker
    process once.
    """
    with _kernel_for(digest, packed_spec, part, excluded) as search:
        return resumable.resumable_count(KernelCount(search, weight), prefixes, budget, seconds)


class KernelCount(CountSearch):
    """The tiling kernel ``search`` as a resumable count (:class:`polyforms.jobs.CountSearch`):
    its nodes are prefixes of placements, its tilings counted ``times`` over."""

    def __init__(self, search, times: int = 1) -> None:
        self.search, self.times = search, times
        self.prefix: tuple[int, ...] = ()
        self.overflowed = False

    @property
    def skips(self) -> bool:  # type: ignore[override]
        """The memo skips subtrees, so the nodes visited undercount the tree."""
        return bool(self.search.memo and self.search.memo_ok)

    def start(self, node: tuple[int, ...]) -> None:
        self.prefix, self.overflowed = node, False

    def count(self, budget: int, stop) -> tuple[int, int, bool]:
        search = self.search
        try:
            found = search.count(prefix=self.prefix, nodes=budget, stop=stop)
        except CountOverflowError:
            # Its tilings pass the kernel's 64-bit counter (the memo counts boards
            # of more than 2**63 - 1 ways): its children count them, as new subtasks.
            self.overflowed = True
            return 0, search.nodes, False
        except TilingError as error:
            # The kernel refuses a prefix it cannot place (overlapping placements):
            # the search hands back only nodes of its tree, so it came from a journal.
            from ..jobs.tasks import CheckpointError

            raise CheckpointError(
                f"a subtask's prefix is not a node of the count's search ({error}): "
                "a damaged checkpoint? remove it to start again"
            ) from None
        # nodes read now: branch and probe reset them
        return found * self.times, search.nodes, search.stopped_at is None

    def stopped_at(self, first: bool) -> tuple[list, list]:
        if self.overflowed:
            return [[list(child) for child in children(self.search, self.prefix)]], []
        return rest_of(self.search, self.prefix, self.search.stopped_at)

    def group(self, nodes) -> list[list[int]]:
        return [list(prefix) for prefix in nodes]

    def weight(self, group: list[list[int]]) -> float:
        from ..jobs.estimate import group_weight

        return group_weight(lambda prefix, seed: self.search.probe(tuple(prefix), 1, seed), group)


def rest_of(
    search, prefix: Sequence[int], path: Sequence[int]
) -> tuple[list[list[list[int]]], list[list[list[int]]]]:
    """What a count from ``prefix`` stopped at ``path`` has left, as groups of
    prefixes: the node it stopped at, then, from the deepest level up, the
    children after the path's at each level (in :meth:`branch` order, the
    order the search takes them). Together they partition the rest of the tree.

    Also what it searched, likewise: the children before the path's at each level.
    """
    groups = [[list(prefix) + list(path)]]
    searched = []
    for level in range(len(path) - 1, -1, -1):
        node = list(prefix) + list(path[:level])
        siblings = search.branch(node) or []
        at = siblings.index(path[level])
        later = siblings[at + 1 :]
        if later:
            groups.append([node + [p] for p in later])
        if at:
            searched.append([node + [p] for p in siblings[:at]])
    return groups, searched


def children(search, prefix: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The prefixes one level below ``prefix``, in the order the search takes them."""
    return [prefix + (p,) for p in search.branch(prefix) or ()]


def _frontier(search, want: int) -> list[tuple[int, ...]]:
    """About ``want`` prefixes whose subtrees partition the search, in search order."""
    from ..jobs.estimate import frontier

    return frontier(lambda node: children(search, node), (), want)


# -- the job ----------------------------------------------------------------------------------


class CountJob:
    """A tiling count cut into subtasks (see :class:`polyforms.jobs.Job`).

    Each part (a restriction of one kernel and its weight) is cut breadth-first
    into prefixes of placements; a prefix's subtree holds the tilings
    containing it, and the children of a node split them, so the counts add up.
    """

    def __init__(self, spec: SearchSpec, restrictions: Restrictions) -> None:
        import hashlib
        import pickle

        from ..jobs.tasks import Shared

        self.restrictions = restrictions
        # Every subtask takes the spec: a worker process gets it once (Shared).
        self.packed_spec = Shared(pickle.dumps(spec, protocol=5))
        self.digest = self.packed_spec.key[:16]  # its SHA-1, hashed once
        self.parts = [
            hashlib.sha1(
                b"%s %s *%d" % (self.digest.encode(), repr(excluded).encode(), weight)
            ).hexdigest()[:16]
            for excluded, weight in restrictions
        ]
        self.key = "tiling count " + hashlib.sha1("".join(self.parts).encode()).hexdigest()[:16]
        self.budget = resumable.TASK_NODES  # set from the estimates by tasks()
        self.placements, self.ncells = len(spec.placements), spec.ncells  # a rest's bounds

    def _kernel(self, part: int):
        """Lend this process's kernel, restricted to ``part``, for a ``with`` block."""
        excluded = self.restrictions[part][0]
        return _kernel_for(self.digest, self.packed_spec, self.parts[part], excluded)

    def _weight(self, part: int, task_id: str, prefix: tuple[int, ...]) -> float:
        """Knuth's estimate of the nodes below ``prefix`` in ``part``."""
        with self._kernel(part) as search:
            return search.probe(prefix, PROBES, zlib.crc32(task_id.encode()))

    def task(self, part: int, task_id: str, prefixes: Prefixes, nodes: float) -> _jobs.Task:
        """The subtask counting below ``prefixes`` in ``part``, weighing ``nodes``."""
        from ..jobs.tasks import Task

        excluded, weight = self.restrictions[part]
        parts = (self.digest, self.packed_spec, self.parts[part], excluded)
        args = (*parts, prefixes, weight, self.budget, resumable.TASK_SECONDS)
        return Task(task_id, count_task, args, max(nodes, 1.0))

    def tasks(self) -> list[_jobs.Task]:
        want = max(1, resumable.SPLIT_TASKS // len(self.parts))
        weighed = []  # (part, id, prefix, nodes) of each subtask, part by part
        for part in range(len(self.parts)):
            with self._kernel(part) as search:
                frontier = _frontier(search, want)
            ids = [f"{part}.{i}" for i in range(len(frontier))]
            weighed.append([(part, i, p, self._weight(part, i, p)) for i, p in zip(ids, frontier)])
        # Knuth's probes can miss heavy subtrees (a subtask estimated at a
        # fraction of a percent of the work may hold a quarter of it), so a
        # subtask stops after a share of the estimated whole and hands the rest
        # back as new subtasks.
        whole = sum(nodes for found in weighed for *_, nodes in found)
        self.budget = resumable.node_budget(whole)
        per_part = [
            [self.task(part, i, (prefix,), nodes) for part, i, prefix, nodes in found]
            for found in weighed
        ]
        # A count is a sum, so the order is free: take the parts in turn. The
        # progress then samples every restricted search from the start, whose
        # node costs per unit of Knuth weight differ (8x8 + square: 0.16 to 2.6),
        # instead of running them one after the other with the ETA misled by each.
        found = []
        for rank in range(max(map(len, per_part), default=0)):
            found.extend(tasks[rank] for tasks in per_part if rank < len(tasks))
        return found

    def refine(self, task: _jobs.Task) -> list[_jobs.Task] | None:
        part = int(task.id.partition(".")[0])
        [prefix] = task.args[4]
        with self._kernel(part) as search:
            below = children(search, prefix)
        if not below:
            return None
        ids = [f"{task.id}.{k}" for k in range(len(below))]
        return [
            self.task(part, i, (child,), self._weight(part, i, child))
            for i, child in zip(ids, below)
        ]

    def resume(self, task: _jobs.Task, rest: list, weights: list) -> list[_jobs.Task]:
        """The subtasks that count what ``task`` left (see :func:`count_task`).

        Raises
        ------
        ValueError
            A group of the rest that is not a list of prefixes, or a prefix that
            is not a node of ``task``'s search: placements ``0 <= p < P`` (a
            number past the compiled kernel's ints would overflow in a worker),
            at most one a cell. (The job layer makes it a
            :class:`~polyforms.jobs.CheckpointError` when the rest comes from a
            journal.) Placements that overlap are refused by the subtask
            (:func:`count_task`), whose kernel places them.
        """
        part = int(task.id.partition(".")[0])
        for group in rest:
            if not isinstance(group, list) or not all(isinstance(p, list) for p in group):
                raise ValueError(f"a group is not a list of prefixes: {group!r:.60}")
            for prefix in group:
                if not all(type(p) is int for p in prefix):
                    raise ValueError(f"a prefix is not a list of placements: {prefix!r:.60}")
                if len(prefix) > self.ncells or not all(0 <= p < self.placements for p in prefix):
                    raise ValueError(
                        f"a prefix is not a node of this search (placements 0 to "
                        f"{self.placements - 1}, at most {self.ncells}): {prefix!r:.60}"
                    )
        groups = [tuple(tuple(prefix) for prefix in group) for group in rest]
        return [
            self.task(part, f"{task.id}.c{k}", group, nodes)
            for k, (group, nodes) in enumerate(zip(groups, weights))
        ]


# -- a count with a time limit -------------------------------------------------------------


class _GaveUp(Exception):
    """A timed count ran past its time (raised from the kernel's progress call)."""


def timed_count(search, prefix: tuple[int, ...], give_up: float):
    """(tilings, nodes, seconds) of the subtree at ``prefix``, or None when its count
    is still running after ``give_up`` seconds (the kernel reports progress every
    2M nodes or so; it may be restarted after the stop)."""
    start = time.perf_counter()

    def watch(_fraction: float) -> None:
        if time.perf_counter() - start > give_up:
            raise _GaveUp

    try:
        found = search.count(progress=watch, prefix=prefix)
    except _GaveUp:
        return None
    return found, search.nodes, time.perf_counter() - start

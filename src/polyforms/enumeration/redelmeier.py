"""Redelmeier's algorithm: count and list polyominoes and polycubes.

This module is the readable reference of the enumeration and the dispatcher to
the compiled core (:mod:`polyforms._core._redelmeier`). Both walk the same
search tree in the same order, so they yield the same polyforms in the same
order; tests hold them to it.

The search tree
---------------
Redelmeier (1981) grows every fixed polyform from one root cell, the origin.
A polyform is reached exactly once if the origin is its least cell in the
order "last coordinate first": in 2D the lowest row, leftmost cell of it; in
3D the lowest layer, then lowest row, then leftmost cell. So only *allowed*
cells ``(x, y)`` with ``y > 0`` or ``y == 0 and x > 0`` (3D: ``z > 0``, or
``z == 0`` and ``(x, y)`` allowed in 2D) can join.

Each node of the tree holds the polyform grown so far and its *untried set*,
a sequence of allowed cells not yet considered. A node takes the cells of its
untried set one at a time from the front; each taken cell makes a child, and
is never offered to the later siblings. The child's untried set is what comes
after the taken cell, followed by the neighbours of the taken cell that were
never seen on the path from the root, in the order ``+x, +y, (+z), -x, -y,
(-z)``. (So every level can share one array: a child only appends.)

That fixes the *output order* of :func:`iter_cells`: depth-first order of this
tree. It does not depend on the backend or on ``jobs``.

Counting only needs the size of the untried set at the last level, not the
children (Redelmeier's own shortcut), and never builds a Python object per
node. Free and one-sided kinds keep a fixed polyform exactly when it is the
least of its images under the kind's group (``canonical``); the compiled
counter gets the same numbers faster by Burnside's lemma, from counts of the
polyforms each symmetry maps to themselves (see :mod:`polyforms.enumeration.burnside`).

Subtasks
--------
A node of the tree at depth ``d`` is a *prefix*: its cells in the order they
were added, and its untried set. The subtrees of all nodes at depth ``d``,
taken in depth-first order, produce exactly the polyforms of size ``n > d`` in
the order of the whole search. That is how ``jobs`` and ``progress`` cut a run
into subtasks, and why the output does not depend on them.

References
----------
D. H. Redelmeier, "Counting polyominoes: yet another attack",
Discrete Mathematics 36 (1981) 191-203.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import _backend, geometry
from ..errors import PolyformError
from ..jobs.options import ONE_CALL, LongRun
from . import burnside as _burnside
from .search_tree import Cell, Form, allowed, image, offsets, seen_by

if TYPE_CHECKING:
    from .. import jobs as _jobs

__all__ = [
    "estimate",
    "KINDS",
    "canonical",
    "count",
    "count_all",
    "iter_cells",
    "iter_packed",
    "iter_subtree",
    "count_subtree",
    "prefixes",
    "search_cells",
    "search_count",
    "search_estimate",
    "search_packed",
    "split_depth",
    "SearchJob",
]

KINDS = geometry.KINDS


# --------------------------------------------------------------------------
# Validation and canonical forms


def _check(n: object, dim: object, kind: object) -> None:
    geometry.check_size(n)
    geometry.check_dim(dim)
    geometry.check_kind(kind)


def canonical(cells: Iterable[Cell], dim: int, kind: str) -> Form:
    """Return the canonical form of a polyform for a kind.

    The canonical form is the least, in Python tuple order, of the normalised
    sorted cell tuples of the images of ``cells`` under the kind's group.

    Examples
    --------
    >>> canonical([(0, 0), (0, 1), (1, 1)], 2, "free")
    ((0, 0), (0, 1), (1, 0))
    >>> canonical([(0, 0), (0, 1), (1, 1)], 2, "fixed")
    ((0, 0), (0, 1), (1, 1))
    """
    _check(1, dim, kind)
    form = tuple(cells)
    group = geometry.signed_permutations(dim, kind)
    return min(image(form, perm, signs) for perm, signs in group)


Prefix = tuple[Form, Form]
"""A node of the search tree: its cells in the order added, and its untried set."""


def _root(dim: int) -> Prefix:
    return ((), ((0,) * dim,))


def prefixes(n: int, dim: int, depth: int) -> list[Prefix]:
    """Return the nodes of the search tree at ``depth`` cells, in depth-first order.

    Their subtrees partition the polyforms of every size greater than
    ``depth``, in the order of the whole search.

    Examples
    --------
    >>> for cells, untried in prefixes(3, 2, 2):
    ...     print(cells, untried)
    ((0, 0), (1, 0)) ((0, 1), (2, 0), (1, 1))
    ((0, 0), (0, 1)) ((1, 1), (0, 2), (-1, 1))
    """
    _check(n, dim, "fixed")
    if not 0 <= depth < n:
        raise PolyformError(f"prefix depth must be between 0 and {n - 1}, not {depth}")
    if depth == 0:
        return [_root(dim)]
    moves = offsets(dim)
    cells: list[Cell] = []
    seen = {(0,) * dim}
    found: list[Prefix] = []

    def grow(untried: list[Cell]) -> None:
        for i, cell in enumerate(untried):
            cells.append(cell)
            fresh = []
            for off in moves:
                nb = tuple(a + b for a, b in zip(cell, off))
                if nb not in seen and allowed(nb):
                    seen.add(nb)
                    fresh.append(nb)
            if len(cells) == depth:
                found.append((tuple(cells), tuple(untried[i + 1 :] + fresh)))
            else:
                grow(untried[i + 1 :] + fresh)
            seen.difference_update(fresh)
            cells.pop()

    grow([(0,) * dim])
    return found


# --------------------------------------------------------------------------
# Dispatch, subtasks, processes and progress


def _kernel():
    return _backend.kernel("redelmeier")


#: Subtasks a split search starts from (before the job layer refines heavy ones):
#: enough to balance two workers and move a progress bar smoothly.
SPLIT_TASKS = 150


def split_depth(n: int, dim: int) -> int:
    """Depth of the first prefixes with at least :data:`SPLIT_TASKS` of them (0: do not cut).

    It depends on ``n`` and ``dim`` only, so a resumed run cuts the same way.

    Examples
    --------
    >>> split_depth(5, 2), split_depth(12, 2), split_depth(10, 3)
    (0, 6, 5)
    """
    # fixed counts of small sizes (A001168, A001931): the width of the tree
    widths = {2: (1, 2, 6, 19, 63, 216, 760, 2725, 9910), 3: (1, 3, 15, 86, 534, 3481, 23502)}[dim]
    if n < 6:
        return 0
    depth = 1
    while depth < len(widths) and widths[depth - 1] < SPLIT_TASKS and depth < n - 4:
        depth += 1
    return depth


_Node = tuple[Form, Form, frozenset]
"""A prefix with its seen set, for walking the tree without recomputing it."""


class _Children(Sequence):
    """The children of a node, in search order, each made only when asked for.

    A node has one child per untried cell (none at size ``n - 1``: the counts
    stop there and add up the untried sets), so a Knuth probe learns the
    degree from the length and builds just the child it walks to.
    """

    def __init__(self, n: int, moves: tuple[Cell, ...], node: _Node) -> None:
        self.moves, self.node = moves, node
        self.size = len(node[1]) if len(node[0]) < n - 1 else 0

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.size))]
        if not 0 <= i < self.size:
            raise IndexError(i)
        cells, untried, seen = self.node
        cell = untried[i]
        fresh = []
        for off in self.moves:
            near = tuple(a + b for a, b in zip(cell, off))
            if near not in seen and allowed(near):
                fresh.append(near)
        return cells + (cell,), tuple(untried[i + 1 :]) + tuple(fresh), seen.union(fresh)


def _node(prefix: Prefix, dim: int) -> _Node:
    return prefix[0], tuple(prefix[1]), frozenset(seen_by(prefix[0], dim))


def _children(n: int, dim: int, prefix: Prefix) -> list[Prefix]:
    """The child prefixes of a prefix, in search order."""
    return [child[:2] for child in _Children(n, offsets(dim), _node(prefix, dim))]


#: What one polyform listed costs, in nodes of the search of size ``n - 1`` (where
#: its work is), fitted by least squares to the subtasks' times of a free
#: catalogue: packing is cheap, txt pictures cost two nodes, and jsonl and csv
#: records about eight (each needs the symmetry and holes of its polyform).
#: A count lists nothing.
OUTPUT_COST = {"count": 0.0, "pack": 0.5, "txt": 2.0, "jsonl": 8.0, "csv": 8.0}
#: A subtask is weighed by its subtree this many cells short of ``n``, counted.
WEIGHT_LEVELS = 5
#: Growth of the fixed counts per cell (Klarner's constant, about 4.06 in 2D; 8.3
#: in 3D): scales the weights of the few prefixes too deep to be cut short.
_GROWTH = {2: 4.06, 3: 8.3}


def _weight(n: int, dim: int, prefix: Prefix, kind: str, output_cost: float) -> float:
    """How long the subtask below ``prefix`` runs, in nodes of size ``n - 1``.

    The weight is the same search for size ``n - 5`` below the prefix (less
    short for prefixes near ``n``, but never the whole subtree), counted
    exactly by the kernel: about 1/1000 of the subtask's work. Every subtree
    grows by about the same factor per cell, so these exact counts share the
    work out more evenly than Knuth's random probes would, whose spread on
    one subtask is wide. A listing's time also follows the polyforms it lists
    (``output_cost`` each), which for one-sided and free ones lie very
    unevenly: whole subtrees hold no canonical form.
    """
    kernel, cells, untried = _kernel(), prefix[0], prefix[1]
    # Never the whole subtree, which the parent would count alone before any
    # worker starts (seconds, for large 3D prefixes): at least one cell beyond
    # the prefix, up to five short of n.
    short = max(0, min(WEIGHT_LEVELS, n - 2 - len(cells)))
    nodes = kernel.count_prefix(n - short - 1, dim, "fixed", cells, untried) if n > 1 else 1
    listed = kernel.count_prefix(n - short, dim, kind, cells, untried) if output_cost else 0
    return max((nodes + output_cost * listed) * _GROWTH[dim] ** short, 1.0)


class Estimate(NamedTuple):
    """The estimate of a count's search: nodes, what it counts, seconds, probes."""

    nodes: float
    solutions: float
    seconds: float
    probes: int


def estimate(n: int, dim: int = 2, budget: float = 0.5, seed: int = 0) -> Estimate:
    """Estimate the fixed count of size ``n`` without running it.

    Random probes with partial backtracking: a probe walks from the root to a
    random node ``depth`` cells deep (Knuth 1975: each child with equal
    chance), counts that node's subtree exactly with the kernel, and scales
    by the product of the branching degrees met; the mean over the probes is
    an unbiased estimate of the polyforms of size ``n``, of the nodes of size
    ``n - 1`` (where the count's work is) and, scaling the measured time of
    each exact count the same way, of the seconds the count takes on one
    core. ``depth`` is nine cells short of ``n`` and grows while a subtree
    takes over 20 ms. Probes run for about ``budget`` seconds.

    Examples
    --------
    >>> found = estimate(10)
    >>> 0.9 < found.solutions / 4655 / 8 < 1.1
    True
    """
    _check(n, dim, "fixed")
    return search_estimate(n, dim, budget, seed)


def search_estimate(n: int, dim: int, budget: float = 0.5, seed: int = 0) -> Estimate:
    """:func:`estimate` without its checks: ``n`` and ``dim`` are trusted.

    Its callers have checked them (:func:`estimate`,
    :func:`polyforms.enumeration.generate.estimate`).
    """
    import random
    import time

    kernel = _kernel()
    moves = offsets(dim)
    rng = random.Random(seed)
    depth = max(0, n - 9)
    totals = [0.0, 0.0, 0.0]
    probes = 0
    deadline = time.perf_counter() + budget
    while probes < 8 or time.perf_counter() < deadline:
        node = _node(_root(dim), dim)
        scale = 1
        while len(node[0]) < depth:
            children = _Children(n, moves, node)
            if not len(children):
                break
            scale *= len(children)
            node = children[rng.randrange(len(children))]
        start = time.perf_counter()
        found = _count_task(n, dim, "fixed", node[:2])
        took = time.perf_counter() - start
        below = kernel.count_prefix(n - 1, dim, "fixed", node[0], node[1]) if n > 1 else 1
        totals[0] += scale * below
        totals[1] += scale * found
        totals[2] += scale * took
        probes += 1
        if took > 0.02 and depth < n - 1:
            depth += 1
        if probes >= 1_000_000:
            break
    return Estimate(totals[0] / probes, totals[1] / probes, totals[2] / probes, probes)


def _count_task(n: int, dim: int, kind: str, prefix: Prefix) -> int:
    if dim == 3 and kind == "fixed":  # the polycube counter: its last three levels counted
        return _backend.kernel("polycubes").count_prefix(n, prefix[0], prefix[1])
    return _kernel().count_prefix(n, dim, kind, prefix[0], prefix[1])


def _packed_task(n: int, dim: int, kind: str, prefix: Prefix) -> bytes:
    return _kernel().pack_prefix(n, dim, kind, prefix[0], prefix[1])


class SearchJob:
    """Redelmeier's search cut at the prefixes of :func:`split_depth` (a
    :class:`polyforms.jobs.Job`).

    A task is one prefix; ``refine`` cuts it at the next level, whose prefixes
    list the same polyforms in the same order, so counts add up and packed
    chunks concatenate to the same catalogue. ``what`` is ``"count"`` (each
    task counts its subtree) or ``"pack"`` (each lists it as a packed chunk);
    ``listing``, the format the chunks will be written in, weighs the tasks
    (:data:`OUTPUT_COST`).
    """

    def __init__(self, what: str, n: int, dim: int, kind: str, listing: str = "pack") -> None:
        self.n, self.dim, self.kind = n, dim, kind
        self.function = _count_task if what == "count" else _packed_task
        self.output_cost = OUTPUT_COST["count" if what == "count" else listing]
        self.key = f"redelmeier {what} n={n} dim={dim} kind={kind}"
        self.chunks = what != "count"  # packed chunks (see jobs.Job)

    def _task(self, task_id: str, prefix: Prefix) -> _jobs.Task:
        weight = _weight(self.n, self.dim, prefix, self.kind, self.output_cost)
        from ..jobs.tasks import Task

        return Task(task_id, self.function, (self.n, self.dim, self.kind, prefix), weight)

    def tasks(self) -> list[_jobs.Task]:
        found = prefixes(self.n, self.dim, split_depth(self.n, self.dim))
        return [self._task(str(i), prefix) for i, prefix in enumerate(found)]

    def refine(self, task: _jobs.Task) -> list[_jobs.Task] | None:
        prefix = task.args[3]
        if len(prefix[0]) >= self.n - 3:
            return None  # too small to be worth cutting
        children = _children(self.n, self.dim, prefix)
        return [self._task(f"{task.id}.{k}", child) for k, child in enumerate(children)]


def _check_prefix(prefix: object, n: int, dim: int) -> Prefix:
    try:
        cells, untried = prefix  # type: ignore[misc]
        cells = tuple(tuple(int(v) for v in cell) for cell in cells)
        untried = tuple(tuple(int(v) for v in cell) for cell in untried)
    except (TypeError, ValueError):
        raise PolyformError("a prefix is a pair (cells, untried) of sequences of cells") from None
    if len(cells) >= n or any(len(cell) != dim for cell in cells + untried):
        raise PolyformError(f"not a prefix of the search for {dim}D polyforms of size {n}")
    return cells, untried


def count_subtree(prefix: Prefix, n: int, dim: int = 2, kind: str = "fixed") -> int:
    """Count the polyforms of size ``n`` of a kind in the subtree below one prefix.

    With the prefixes of :func:`prefixes` this cuts a count into independent
    pieces, to run anywhere (other machines, a dask cluster) and add up; for
    every kind the pieces sum to :func:`count`.

    Examples
    --------
    >>> [count_subtree(p, 6, kind="free") for p in prefixes(6, 2, 2)]
    [12, 23]
    """
    _check(n, dim, kind)
    prefix = _check_prefix(prefix, n, dim)
    return _count_task(n, dim, kind, prefix)


def iter_subtree(prefix: Prefix, n: int, dim: int = 2, kind: str = "fixed") -> Iterator[Form]:
    """Yield the polyforms of :func:`iter_cells` that lie in the subtree below one prefix.

    Concatenated over :func:`prefixes` in order, the subtrees give exactly
    the stream of :func:`iter_cells`.

    Examples
    --------
    >>> [len(list(iter_subtree(p, 4, kind="free"))) for p in prefixes(4, 2, 2)]
    [2, 3]
    """
    _check(n, dim, kind)
    prefix = _check_prefix(prefix, n, dim)
    for chunk in _kernel().iter_chunks(n, dim, kind, prefix[0], prefix[1]):
        yield from chunk


def count(
    n: int,
    dim: int = 2,
    kind: str = "fixed",
    *,
    jobs: int = 1,
    progress: Any = None,
    executor: Any = None,
    checkpoint: Any = None,
) -> int:
    """Count the polyforms of size ``n`` of a kind.

    Parameters
    ----------
    n : int
        Number of cells, at least 1.
    dim : int
        2 for polyominoes, 3 for polycubes.
    kind : str
        ``"fixed"`` (distinct up to translation), ``"one-sided"`` (up to
        rotation) or ``"free"`` (up to rotation and reflection).
    jobs : int
        Local worker processes (0: every core); the tree is cut into subtasks
        (:mod:`polyforms.jobs.runner`). The result does not depend on it.
    progress : callable or bool, optional
        Called with a :class:`polyforms.jobs.Progress` after each subtask
        (True: a bar on stderr).
    executor : optional
        Run the subtasks there instead: a :mod:`polyforms.jobs.runner` executor or a
        ``dask.distributed.Client``.
    checkpoint : path, optional
        Journal finished subtasks there; the same call resumes an interrupted run.

    Returns
    -------
    int

    Raises
    ------
    PolyformError
        For a size below 1, a dimension other than 2 or 3, or bad ``jobs``.
    UnknownNameError
        For an unknown kind.

    Notes
    -----
    Redelmeier (1981). Time is proportional to the number of fixed polyforms
    of size ``n - 1`` (the last level is counted, not visited); memory is
    O(n). The compiled core counts free and one-sided polyforms by Burnside's
    lemma; the reference filters the fixed ones by :func:`canonical`.

    Examples
    --------
    >>> [count(n) for n in range(1, 8)]
    [1, 2, 6, 19, 63, 216, 760]
    >>> count(5, kind="free"), count(5, 3, "one-sided")
    (12, 29)
    """
    _check(n, dim, kind)
    return search_count(n, dim, kind, LongRun(jobs, executor, checkpoint, progress))


def search_count(n: int, dim: int, kind: str, options: LongRun = ONE_CALL) -> int:
    """:func:`count` without its checks: ``n``, ``dim`` and ``kind`` are trusted,
    the long-run options are one value.

    Its callers have checked them (:func:`count`,
    :func:`polyforms.enumeration.generate.count`).
    """
    if kind != "fixed":
        return _burnside.count(n, dim, kind, search_count(n, dim, "fixed", options))
    if not options.split or split_depth(n, dim) == 0:
        return _count_task(n, dim, kind, _root(dim))
    return options.sum(SearchJob("count", n, dim, kind))


def count_all(n: int, dim: int = 2, kind: str = "fixed") -> list[int]:
    """Count the polyforms of every size from 1 to ``n``.

    Fixed counts come from one search (every node of the tree is one fixed
    polyform); the other kinds count each size in turn.

    Examples
    --------
    >>> count_all(6, 2, "free")
    [1, 1, 2, 5, 12, 35]
    """
    _check(n, dim, kind)
    if kind != "fixed":
        return [search_count(size, dim, kind) for size in range(1, n + 1)]
    return list(_kernel().count_levels(n, dim))


def iter_cells(
    n: int,
    dim: int = 2,
    kind: str = "fixed",
    *,
    jobs: int = 1,
    progress: Any = None,
    executor: Any = None,
    checkpoint: Any = None,
) -> Iterator[Form]:
    """Yield the polyforms of size ``n`` of a kind as sorted cell tuples.

    Each polyform is a tuple of cells sorted ascending, translated so that
    every coordinate has minimum 0; for the one-sided and free kinds it is the
    canonical form (:func:`canonical`).

    Parameters
    ----------
    n, dim, kind, jobs, progress, executor, checkpoint
        As for :func:`count`.

    Yields
    ------
    tuple of tuple of int

    Notes
    -----
    The order is the depth-first order of Redelmeier's search tree described
    in the module docstring: the same for the compiled and reference backends
    and for every ``jobs``. The compiled core hands polyforms over in chunks
    of packed cells, so no Python object is made per tree node.

    Examples
    --------
    >>> list(iter_cells(3, kind="free"))
    [((0, 0), (0, 1), (1, 0)), ((0, 0), (0, 1), (0, 2))]
    >>> sum(1 for _ in iter_cells(4, 3, "free"))
    7
    """
    _check(n, dim, kind)
    yield from search_cells(n, dim, kind, LongRun(jobs, executor, checkpoint, progress))


def search_cells(n: int, dim: int, kind: str, options: LongRun = ONE_CALL) -> Iterator[Form]:
    """:func:`iter_cells` without its checks: ``n``, ``dim`` and ``kind`` are trusted,
    the long-run options are one value.

    Its callers have checked them (:func:`iter_cells`,
    :func:`polyforms.enumeration.generate.plan_listing`).
    """
    kernel = _kernel()
    if not options.split or split_depth(n, dim) == 0:
        for chunk in kernel.iter_chunks(n, dim, kind, (), ((0,) * dim,)):
            yield from chunk
        return
    for packed in _packed_results(options, n, dim, kind):
        yield from kernel.unpack(n, dim, packed)


def _packed_results(options: LongRun, n: int, dim: int, kind: str) -> Iterator[bytes]:
    """The packed chunks of the subtasks, in order, at most a few ahead (bounded memory)."""
    ahead = 4 * max(options.workers, 2)
    for _, packed in options.run(SearchJob("pack", n, dim, kind), ahead=ahead):
        if packed:
            yield packed


def iter_packed(
    n: int,
    dim: int = 2,
    kind: str = "fixed",
    *,
    jobs: int = 1,
    progress: Any = None,
    executor: Any = None,
    checkpoint: Any = None,
    chunk: int = 16384,
) -> Iterator[bytes]:
    """Yield the polyforms of :func:`iter_cells`, packed, in chunks of bytes.

    Each polyform is its ``n`` sorted cells, each cell ``dim`` bytes (its
    coordinates, signed bytes), the format :func:`polyforms.files.catalogue.format_packed`
    reads. A chunk holds whole polyforms (at most ``chunk`` of them when
    ``jobs == 1`` and not ``progress``; one subtask's otherwise). This is the
    fast path for large catalogues: no Python object per polyform.

    Examples
    --------
    >>> list(iter_packed(3, kind="free"))
    [b'\\x00\\x00\\x00\\x01\\x01\\x00\\x00\\x00\\x00\\x01\\x00\\x02']
    """
    _check(n, dim, kind)
    if n > 127:
        raise PolyformError("packed cells are signed bytes: at most 127 cells")
    yield from search_packed(n, dim, kind, LongRun(jobs, executor, checkpoint, progress), chunk)


def search_packed(
    n: int, dim: int, kind: str, options: LongRun = ONE_CALL, chunk: int = 16384
) -> Iterator[bytes]:
    """:func:`iter_packed` without its checks: ``n`` (at most 127), ``dim`` and
    ``kind`` are trusted, the long-run options are one value.

    Its callers have checked them (:func:`iter_packed`, and
    :func:`polyforms.enumeration.generate.plan_listing`, which packs at most
    :data:`~polyforms.enumeration.generate.FILTER_MAX_CELLS` cells).
    """
    if not options.split or split_depth(n, dim) == 0:
        yield from _kernel().iter_packed(n, dim, kind, (), ((0,) * dim,), chunk)
        return
    yield from _packed_results(options, n, dim, kind)

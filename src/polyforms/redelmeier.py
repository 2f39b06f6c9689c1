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
polyforms each symmetry maps to themselves (see :mod:`polyforms._burnside`).

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

import itertools
from collections.abc import Callable, Iterable, Iterator

from . import _backend, _burnside, geometry
from . import _redelmeier_py as _twin
from .errors import PolyformError

__all__ = [
    "KINDS",
    "canonical",
    "count",
    "count_all",
    "iter_cells",
    "iter_packed",
    "iter_subtree",
    "count_subtree",
    "prefixes",
]

Cell = tuple[int, ...]
Form = tuple[Cell, ...]

KINDS = geometry.KINDS


# --------------------------------------------------------------------------
# Validation and canonical forms


def _check(n: object, dim: object, kind: object) -> None:
    geometry.check_size(n)
    geometry.check_dim(dim)
    geometry.check_kind(kind)


def _check_jobs(jobs: object) -> None:
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise PolyformError(f"jobs must be a whole number at least 1, not {jobs!r}")


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
    return min(_twin.image(form, perm, signs) for perm, signs in group)


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
    offsets = _twin.offsets(dim)
    cells: list[Cell] = []
    seen = {(0,) * dim}
    found: list[Prefix] = []

    def grow(untried: list[Cell]) -> None:
        for i, cell in enumerate(untried):
            cells.append(cell)
            fresh = []
            for off in offsets:
                nb = tuple(a + b for a, b in zip(cell, off))
                if nb not in seen and _twin.allowed(nb):
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


def _split_depth(n: int, dim: int, jobs: int, progress: bool) -> int:
    """Depth of the prefixes a run is cut at (0: do not cut).

    Enough subtasks to keep ``jobs`` processes busy with even loads and to
    move a progress bar smoothly, few enough that each is worth a round trip.
    """
    if n < 6 or (jobs == 1 and not progress):
        return 0
    want = 250 if jobs == 1 else 100 * jobs
    # fixed counts of small sizes (A001168, A001931): the width of the tree
    widths = {2: (1, 2, 6, 19, 63, 216, 760, 2725, 9910), 3: (1, 3, 15, 86, 534, 3481, 23502)}[dim]
    depth = 1
    while depth < len(widths) and widths[depth - 1] < want and depth < n - 4:
        depth += 1
    return depth


def _count_task(args: tuple[int, int, str, Prefix]) -> int:
    n, dim, kind, prefix = args
    return _kernel().count_prefix(n, dim, kind, prefix[0], prefix[1])


def _packed_task(args: tuple[int, int, str, Prefix]) -> bytes:
    n, dim, kind, prefix = args
    return _kernel().pack_prefix(n, dim, kind, prefix[0], prefix[1])


def _run_tasks(
    task: Callable,
    n: int,
    dim: int,
    kind: str,
    depth: int,
    jobs: int,
    progress: bool,
    ahead: int | None = None,
) -> Iterator:
    """Run one subtask per prefix at ``depth``; yield their results in prefix order.

    With ``jobs > 1`` they run in a pool of processes, at most ``ahead``
    subtasks (default ``4 * jobs``) ahead of the consumer so that a slow
    reader does not pile results up; counts, being small, may run all ahead.
    """
    work = [(n, dim, kind, prefix) for prefix in prefixes(n, dim, depth)]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(work), unit="subtask", desc=f"n={n} {kind}", leave=False, delay=1.0)
    try:
        if jobs == 1:
            for item in work:
                result = task(item)
                if bar is not None:
                    bar.update()
                yield result
            return
        import multiprocessing

        context = multiprocessing.get_context("fork")
        with context.Pool(jobs) as pool:
            pending = []
            queue = iter(work)
            for item in itertools.islice(queue, ahead or 4 * jobs):
                pending.append(pool.apply_async(task, (item,)))
            while pending:
                result = pending.pop(0).get()
                nxt = next(queue, None)
                if nxt is not None:
                    pending.append(pool.apply_async(task, (nxt,)))
                if bar is not None:
                    bar.update()
                yield result
    finally:
        if bar is not None:
            bar.close()


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
    return _count_task((n, dim, kind, prefix))


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
    n: int, dim: int = 2, kind: str = "fixed", *, jobs: int = 1, progress: bool = False
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
        Number of processes; the tree is cut into subtasks. The result does
        not depend on it.
    progress : bool
        Show a tqdm bar on stderr, one step per subtask done.

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
    _check_jobs(jobs)
    if kind != "fixed":
        return _burnside.count(n, dim, kind, count(n, dim, "fixed", jobs=jobs, progress=progress))
    depth = _split_depth(n, dim, jobs, progress)
    if depth == 0:
        return _kernel().count_prefix(n, dim, kind, (), ((0,) * dim,))
    return sum(_run_tasks(_count_task, n, dim, kind, depth, jobs, progress, ahead=1 << 30))


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
        return [count(size, dim, kind) for size in range(1, n + 1)]
    return list(_kernel().count_levels(n, dim))


def iter_cells(
    n: int, dim: int = 2, kind: str = "fixed", *, jobs: int = 1, progress: bool = False
) -> Iterator[Form]:
    """Yield the polyforms of size ``n`` of a kind as sorted cell tuples.

    Each polyform is a tuple of cells sorted ascending, translated so that
    every coordinate has minimum 0; for the one-sided and free kinds it is the
    canonical form (:func:`canonical`).

    Parameters
    ----------
    n, dim, kind, jobs, progress
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
    _check_jobs(jobs)
    depth = _split_depth(n, dim, jobs, progress)
    kernel = _kernel()
    if depth == 0:
        for chunk in kernel.iter_chunks(n, dim, kind, (), ((0,) * dim,)):
            yield from chunk
        return
    for packed in _run_tasks(_packed_task, n, dim, kind, depth, jobs, progress):
        yield from kernel.unpack(n, dim, packed)


def iter_packed(
    n: int,
    dim: int = 2,
    kind: str = "fixed",
    *,
    jobs: int = 1,
    progress: bool = False,
    chunk: int = 16384,
) -> Iterator[bytes]:
    """Yield the polyforms of :func:`iter_cells`, packed, in chunks of bytes.

    Each polyform is its ``n`` sorted cells, each cell ``dim`` bytes (its
    coordinates, signed bytes), the format :func:`polyforms.catalogue.format_packed`
    reads. A chunk holds whole polyforms (at most ``chunk`` of them when
    ``jobs == 1`` and not ``progress``; one subtask's otherwise). This is the
    fast path for large catalogues: no Python object per polyform.

    Examples
    --------
    >>> list(iter_packed(3, kind="free"))
    [b'\\x00\\x00\\x00\\x01\\x01\\x00\\x00\\x00\\x00\\x01\\x00\\x02']
    """
    _check(n, dim, kind)
    _check_jobs(jobs)
    if n > 127:
        raise PolyformError("packed cells are signed bytes: at most 127 cells")
    depth = _split_depth(n, dim, jobs, progress)
    if depth == 0:
        yield from _kernel().iter_packed(n, dim, kind, (), ((0,) * dim,), chunk)
        return
    for packed in _run_tasks(_packed_task, n, dim, kind, depth, jobs, progress):
        if packed:
            yield packed

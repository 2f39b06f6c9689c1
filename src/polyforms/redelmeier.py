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
from collections.abc import Callable, Iterable, Iterator, Sequence

from . import _backend, geometry
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
    "symmetries",
]

Cell = tuple[int, ...]
Form = tuple[Cell, ...]

KINDS = ("fixed", "one-sided", "free")
"""The kinds of polyform, from the most to the least distinguished."""


# --------------------------------------------------------------------------
# Validation and symmetry groups


def _check(n: object, dim: object, kind: object) -> None:
    geometry.check_size(n)
    geometry.check_dim(dim)
    geometry.check_kind(kind)


def _check_jobs(jobs: object) -> None:
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise PolyformError(f"jobs must be a whole number at least 1, not {jobs!r}")


def symmetries(dim: int, kind: str) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Return the symmetry group of a kind as signed permutations.

    Each element is ``(perm, signs)`` and maps a cell ``c`` to
    ``(signs[0] * c[perm[0]], signs[1] * c[perm[1]], ...)``. The identity
    comes first. Fixed: the identity only; one-sided: the rotations (4 in 2D,
    24 in 3D); free: rotations and reflections (8 in 2D, 48 in 3D).

    Examples
    --------
    >>> [len(symmetries(2, k)) for k in KINDS], [len(symmetries(3, k)) for k in KINDS]
    ([1, 4, 8], [1, 24, 48])
    """
    _check(1, dim, kind)
    group = []
    for transform in geometry.symmetries(dim, kind):
        # Each row of a signed permutation matrix has one non-zero entry.
        entries = (next((j, v) for j, v in enumerate(row) if v) for row in transform.matrix)
        perm, signs = zip(*entries)
        group.append((perm, signs))
    return tuple(group)


_normalise = geometry.normalise


def _image(form: Iterable[Cell], perm: Sequence[int], signs: Sequence[int]) -> Form:
    return _normalise(tuple(s * c[p] for p, s in zip(perm, signs)) for c in form)


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
    form = tuple(cells)
    return min(_image(form, perm, signs) for perm, signs in symmetries(dim, kind))


# --------------------------------------------------------------------------
# The lattice seen from the root


def _offsets(dim: int) -> tuple[Cell, ...]:
    """Neighbour offsets in the order they join the untried set."""
    unit = [tuple(int(i == j) for j in range(dim)) for i in range(dim)]
    return tuple(unit) + tuple(tuple(-v for v in u) for u in unit)


def _allowed(cell: Cell) -> bool:
    """True for cells after the origin in the order last coordinate first."""
    return cell[::-1] > (0,) * len(cell)


Prefix = tuple[Form, Form]
"""A node of the search tree: its cells in the order added, and its untried set."""


def _root(dim: int) -> Prefix:
    return ((), ((0,) * dim,))


def _seen(cells: Sequence[Cell], dim: int) -> set[Cell]:
    """Cells a node has seen: the origin and every allowed neighbour of its cells.

    Every cell ever pushed on an untried set on the path from the root is a
    neighbour of a cell of the node (or the origin), and every allowed
    neighbour of a cell of the node was pushed when that cell joined; so the
    seen set is determined by the cells alone.
    """
    seen = {(0,) * dim}
    for cell in cells:
        for off in _offsets(dim):
            nb = tuple(a + b for a, b in zip(cell, off))
            if _allowed(nb):
                seen.add(nb)
    return seen


def _py_walk(n: int, dim: int, prefix: Prefix) -> Iterator[list[Cell]]:
    """Yield the polyforms of size ``n`` below ``prefix``, in depth-first order.

    Each is the list of its cells in the order they were added (shared and
    mutated afterwards: copy what you keep).
    """
    offsets = _offsets(dim)
    cells = list(prefix[0])
    seen = _seen(cells, dim)

    def grow(untried: list[Cell]) -> Iterator[list[Cell]]:
        for i, cell in enumerate(untried):
            cells.append(cell)
            if len(cells) == n:
                yield cells
            else:
                fresh = []
                for off in offsets:
                    nb = tuple(a + b for a, b in zip(cell, off))
                    if nb not in seen and _allowed(nb):
                        seen.add(nb)
                        fresh.append(nb)
                yield from grow(untried[i + 1 :] + fresh)
                seen.difference_update(fresh)
            cells.pop()

    if len(cells) < n:
        yield from grow(list(prefix[1]))


def _py_count_fixed(n: int, dim: int, prefix: Prefix) -> int:
    """Count the fixed polyforms of size ``n`` below ``prefix`` (Redelmeier's shortcut)."""
    offsets = _offsets(dim)
    depth = len(prefix[0])
    seen = _seen(prefix[0], dim)

    def grow(size: int, untried: list[Cell]) -> int:
        if size == n - 1:
            return len(untried)  # each untried cell completes one polyform
        total = 0
        for i, cell in enumerate(untried):
            fresh = []
            for off in offsets:
                nb = tuple(a + b for a, b in zip(cell, off))
                if nb not in seen and _allowed(nb):
                    seen.add(nb)
                    fresh.append(nb)
            total += grow(size + 1, untried[i + 1 :] + fresh)
            seen.difference_update(fresh)
        return total

    return grow(depth, list(prefix[1])) if depth < n else 0


def _is_least(form: Form, group: Sequence[tuple[tuple[int, ...], tuple[int, ...]]]) -> bool:
    return all(form <= _image(form, perm, signs) for perm, signs in group[1:])


def _py_forms(n: int, dim: int, kind: str, prefix: Prefix) -> Iterator[Form]:
    group = symmetries(dim, kind)
    for cells in _py_walk(n, dim, prefix):
        form = _normalise(cells)
        if kind == "fixed" or _is_least(form, group):
            yield form


def _py_count(n: int, dim: int, kind: str, prefix: Prefix) -> int:
    if kind == "fixed":
        return _py_count_fixed(n, dim, prefix)
    return sum(1 for _ in _py_forms(n, dim, kind, prefix))


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
    offsets = _offsets(dim)
    cells: list[Cell] = []
    seen = {(0,) * dim}
    found: list[Prefix] = []

    def grow(untried: list[Cell]) -> None:
        for i, cell in enumerate(untried):
            cells.append(cell)
            fresh = []
            for off in offsets:
                nb = tuple(a + b for a, b in zip(cell, off))
                if nb not in seen and _allowed(nb):
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


def _core():
    return _backend.compiled("_redelmeier")


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


def _count_task(args: tuple[int, int, str, Prefix, bool]) -> int:
    n, dim, kind, prefix, python = args
    core = None if python else _core()
    if core is None:
        return _py_count(n, dim, kind, prefix)
    return core.count_prefix(n, dim, kind, prefix[0], prefix[1])


def _forms_task(args: tuple[int, int, str, Prefix, bool]) -> list[Form] | bytes:
    n, dim, kind, prefix, python = args
    core = None if python else _core()
    if core is None:
        return list(_py_forms(n, dim, kind, prefix))
    return core.pack_prefix(n, dim, kind, prefix[0], prefix[1])


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
    python = _core() is None
    work = [(n, dim, kind, prefix, python) for prefix in prefixes(n, dim, depth)]
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
    return _count_task((n, dim, kind, prefix, _core() is None))


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
    core = _core()
    if core is None:
        yield from _py_forms(n, dim, kind, prefix)
        return
    for chunk in core.iter_chunks(n, dim, kind, prefix[0], prefix[1]):
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
    core = _core()
    if core is not None and kind != "fixed":
        from . import _burnside

        return _burnside.count(
            n, dim, kind, lambda: count(n, dim, "fixed", jobs=jobs, progress=progress), core
        )
    depth = _split_depth(n, dim, jobs, progress)
    if depth == 0:
        if core is not None:
            return core.count_prefix(n, dim, kind, (), ((0,) * dim,))
        return _py_count(n, dim, kind, _root(dim))
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
    core = _core()
    if core is not None:
        return list(core.count_levels(n, dim))
    counts = [0] * n
    for size in range(1, n + 1):
        counts[size - 1] = _py_count_fixed(size, dim, _root(dim))
    return counts


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
    if depth == 0:
        core = _core()
        if core is None:
            yield from _py_forms(n, dim, kind, _root(dim))
        else:
            for chunk in core.iter_chunks(n, dim, kind, (), ((0,) * dim,)):
                yield from chunk
        return
    for forms in _run_tasks(_forms_task, n, dim, kind, depth, jobs, progress):
        if isinstance(forms, bytes):  # packed by the compiled core in another process
            forms = _core().unpack(n, dim, forms)
        yield from forms


def _pack(forms: Iterable[Form]) -> bytes:
    return bytes(v for form in forms for cell in form for v in cell)


def _packed_task(args: tuple[int, int, str, Prefix, bool]) -> bytes:
    n, dim, kind, prefix, python = args
    core = None if python else _core()
    if core is None:
        return _pack(_py_forms(n, dim, kind, prefix))
    return core.pack_prefix(n, dim, kind, prefix[0], prefix[1])


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
        core = _core()
        if core is not None:
            yield from core.iter_packed(n, dim, kind, (), ((0,) * dim,), chunk)
            return
        forms = _py_forms(n, dim, kind, _root(dim))
        while True:
            packed = _pack(itertools.islice(forms, chunk))
            if not packed:
                return
            yield packed
    for packed in _run_tasks(_packed_task, n, dim, kind, depth, jobs, progress):
        if packed:
            yield packed

"""Readable twin of :mod:`polyforms._core._lattice_redelmeier`: Redelmeier's search on a graph.

The lattice is handed over as a *neighbour table*: cells are numbered
``0 .. size - 1`` and ``neighbours[degree * c + k]`` is the ``k``-th neighbour
of cell ``c``, or -1 where the table has no cell (beyond its padding). The
numbering carries Redelmeier's order: a search from ``root`` admits only the
cells numbered after it, so every connected set of cells is reached exactly
once, from its least cell (see :mod:`polyforms.enumeration.hexagonal`, which
builds the tables).

The search tree is the square lattice's (:mod:`polyforms.enumeration.redelmeier`):
a node holds the cells chosen so far and its *untried* cells; it takes them
one at a time, and the child of a taken cell tries what comes after it,
followed by the taken cell's neighbours never seen on the path. The children
only append, so one array serves every level.

Three searches share it:

``count_fixed``
    The connected sets of ``n`` cells holding ``root``; the last three
    levels are counted without being visited (below).
``FixedWalk``
    The same sets, listed in chunks of cell numbers in the order the search
    adds them, or counted as ``count_fixed`` counts them.
``keep_canonical``
    Keeps the listed sets that are the least of their images under a group
    (the one-sided and free listings).
``count_invariant``
    Sets of *orbits* of a symmetry (a weighted graph: an orbit weighs its
    cells) whose cells are ``n`` and connected; the terms of Burnside's lemma.

The last three levels
---------------------
A node holds a set ``P`` and its untried set ``U``; its seen set is the root
and every neighbour after the root of ``P`` (``U`` is part of it). Call a
cell *free* when it comes after the root and is not seen. The subtree of the
node holds exactly one set ``P + A`` for each set ``A`` of ``k`` cells that
has no seen cell outside ``U`` and makes ``P + A`` connected: a cell of ``A``
next to ``P`` is untried, one not next to ``P`` is free. So the count below a
node depends on ``U`` and the free cells around it, not on the search order
(as for polycubes, :mod:`polyforms.enumeration._polycubes_py`).

For ``k = 1`` that is ``L = |U|``. Write ``d_a`` for the free neighbours of an
untried cell ``a`` (``D`` their sum), ``t_a`` for the pairs of them that
touch, and for a free cell ``f``, ``u_f`` and ``e_f`` for its untried and
free neighbours. For ``k = 2``, ``A`` is two untried cells, or one and a free
neighbour of it: ``C(L, 2) + D``. For ``k = 3``, by how many cells of ``A``
are untried:

* three: ``C(L, 3)``;
* two, ``a`` and ``b``, and a free cell next to either: over the pairs,
  ``(L - 1) D`` less the free cells next to both, ``sum_f C(u_f, 2)``;
* one, ``a``, and two free cells: both next to ``a`` (``C(d_a, 2)``), or a
  path ``a - f - g`` with ``g`` a free neighbour of ``f`` not next to ``a``:
  ``sum_f u_f e_f`` counts the paths, less ``2 t_a`` for the ``g`` next to
  ``a`` (each touching pair of free neighbours, in both orders).

Together::

    C(L, 3) + (L - 1) D + sum_a (C(d_a, 2) - 2 t_a) + sum_f (u_f e_f - C(u_f, 2))

On the triangular lattice no two neighbours of a triangle touch (its graph,
the honeycomb, is bipartite), so ``t_a = 0``; on the hexagonal lattice the
six neighbours of a hexagon form a ring, and ``t_a`` counts the free pairs
around it. Each term needs the neighbours of the untried cells and theirs
only: a node three cells short of ``n`` costs a few reads per untried cell
instead of a visit of each of its descendants. The compiled twin keeps the
terms on a byte a cell and goes one level further (see there).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

__all__ = ["count_fixed", "count_invariant", "keep_canonical", "FixedWalk"]


def _fresh(cell: int, neighbours: Sequence[int], degree: int, root: int, seen: bytearray):
    """The neighbours of ``cell`` after ``root`` not seen yet; marks them seen."""
    found = []
    for k in range(degree * cell, degree * cell + degree):
        near = neighbours[k]
        if near > root and not seen[near]:
            seen[near] = 1
            found.append(near)
    return found


def _last_levels(
    k: int, untried: Sequence[int], neighbours: Sequence[int], degree: int, root: int, seen
) -> int:
    """Sets ``k`` (1, 2 or 3) cells larger than a node with ``untried`` and ``seen``."""
    length = len(untried)
    if k == 1:
        return length

    def around(cell: int) -> list[int]:
        return list(neighbours[degree * cell : degree * cell + degree])

    def free(cell: int) -> bool:
        return cell > root and not seen[cell]

    free_near = {a: [f for f in around(a) if free(f)] for a in untried}
    near = sum(len(fs) for fs in free_near.values())  # D
    if k == 2:
        return comb(length, 2) + near
    met: dict[int, int] = {}  # u_f of every free cell next to the untried set
    for fs in free_near.values():
        for f in fs:
            met[f] = met.get(f, 0) + 1
    through = sum(u * sum(map(free, around(f))) - comb(u, 2) for f, u in met.items())
    pairs = 0
    for fs in free_near.values():
        touching = sum(1 for f, g in combinations(fs, 2) if g in around(f))  # t_a
        pairs += comb(len(fs), 2) - 2 * touching
    return comb(length, 3) + (length - 1) * near + pairs + through


def _count_below(
    n: int, size: int, untried: list[int], neighbours: Sequence[int], degree: int, root: int, seen
) -> int:
    """Sets of ``n`` cells below a node of ``size`` cells with ``untried`` and ``seen``."""
    if n - size <= 3:
        return _last_levels(n - size, untried, neighbours, degree, root, seen)
    total = 0
    for i, cell in enumerate(untried):
        fresh = _fresh(cell, neighbours, degree, root, seen)
        total += _count_below(n, size + 1, untried[i + 1 :] + fresh, neighbours, degree, root, seen)
        for near in fresh:
            seen[near] = 0
    return total


def count_fixed(n: int, neighbours: Sequence[int], degree: int, root: int) -> int:
    """The number of connected sets of ``n`` cells whose least cell is ``root``.

    Examples
    --------
    >>> path = [-1, 1, 0, 2, 1, -1]   # three cells in a row, degree 2
    >>> count_fixed(2, path, 2, 0), count_fixed(3, path, 2, 0), count_fixed(2, path, 2, 1)
    (1, 1, 1)
    """
    return FixedWalk(n, neighbours, degree, root).count()


class FixedWalk:
    """The connected sets of ``n`` cells whose least cell is ``root``, in search order.

    :meth:`fill` lists up to ``limit`` more sets as one flat list of cell
    numbers, ``n`` a set, each set in the order the search added its cells;
    an empty list when the walk is over. ``cells`` and ``untried`` start the
    walk at a node of the tree (a prefix: its cells in the order added, the
    first the root, and its untried set); it then lists the sets below it.

    Examples
    --------
    >>> walk = FixedWalk(2, [-1, 1, 0, 2, 1, -1], 2, 0)
    >>> walk.fill(10), walk.fill(10)
    ([0, 1], [])
    """

    def __init__(
        self,
        n: int,
        neighbours: Sequence[int],
        degree: int,
        root: int,
        cells: Sequence[int] | None = None,
        untried: Sequence[int] | None = None,
    ) -> None:
        self.n, self.neighbours, self.degree, self.root = n, list(neighbours), degree, root
        self._start = (cells, untried)
        self._sets = self._walk(cells, untried)

    def _walk(self, cells, untried):
        n, neighbours, degree, root = self.n, self.neighbours, self.degree, self.root
        path = [root]
        if n == 1:
            yield list(path)
            return
        seen = bytearray(len(neighbours) // degree)
        seen[root] = 1
        if cells is not None and len(cells) > 1:
            # the path has seen the root and every neighbour after it of its cells
            path = list(cells)
            for cell in path:
                for near in neighbours[degree * cell : degree * cell + degree]:
                    if near > root:
                        seen[near] = 1

        def grow(untried: list[int]):
            for i, cell in enumerate(untried):
                path.append(cell)
                if len(path) == n:
                    yield list(path)
                else:
                    fresh = _fresh(cell, neighbours, degree, root, seen)
                    yield from grow(untried[i + 1 :] + fresh)
                    for near in fresh:
                        seen[near] = 0
                path.pop()

        if len(path) > 1:
            yield from grow(list(untried or ()))
        else:
            yield from grow(_fresh(root, neighbours, degree, root, seen))

    def count(self) -> int:
        """The number of sets the rest of the walk holds (the last three levels counted
        without being visited, unless :meth:`fill` has begun the walk)."""
        if self._start is None:
            return sum(1 for _ in self._sets)
        self._start, (cells, untried) = None, self._start
        self._sets = iter(())
        n, neighbours, degree, root = self.n, self.neighbours, self.degree, self.root
        if n == 1:
            return 1
        seen = bytearray(len(neighbours) // degree)
        seen[root] = 1
        if cells is not None and len(cells) > 1:
            for cell in cells:
                for near in neighbours[degree * cell : degree * cell + degree]:
                    if near > root:
                        seen[near] = 1
            return _count_below(n, len(cells), list(untried or ()), neighbours, degree, root, seen)
        untried = _fresh(root, neighbours, degree, root, seen)
        return _count_below(n, 1, untried, neighbours, degree, root, seen)

    def fill(self, limit: int) -> list[int]:
        self._start = None
        found: list[int] = []
        for cells in self._sets:
            found.extend(cells)
            if len(found) >= limit * self.n:
                break
        return found


def count_invariant(
    n: int,
    orbit_neighbours: Sequence[int],
    orbit_degree: int,
    weights: Sequence[int],
    root: int,
    orbit_cells: Sequence[int],
    orbit_width: int,
    cell_neighbours: Sequence[int],
    cell_degree: int,
) -> int:
    """The number of sets of orbits, least orbit ``root``, whose cells are ``n`` and connected.

    Orbits form a graph (``orbit_neighbours``, padded with -1 to
    ``orbit_degree``): two orbits meet when a cell of one meets a cell of the
    other. Redelmeier's search on it, admitting the orbits after ``root``
    while their weights (cells) add up to at most ``n``, lists every set of
    orbits connected in that graph exactly once; a set of ``n`` cells counts
    when its cells are connected too (``orbit_cells``: the cells of each
    orbit, padded with -1 to ``orbit_width``; ``cell_neighbours``: the cells'
    table, -1 beyond the region). A set of orbits can be connected while its
    cells are not (two mirror images that do not touch).

    Examples
    --------
    >>> # cells 0 - 1 - 2 in a row, mirrored about cell 1: orbits {0, 2} and {1}
    >>> count_invariant(3, [1, 0], 1, [2, 1], 0, [0, 2, 1, -1], 2, [-1, 1, 0, 2, 1, -1], 2)
    1
    >>> count_invariant(2, [1, 0], 1, [2, 1], 0, [0, 2, 1, -1], 2, [-1, 1, 0, 2, 1, -1], 2)
    0
    """
    chosen = [root]
    seen = bytearray(len(weights))
    seen[root] = 1
    total = 0

    def connected() -> bool:
        cells = {c for o in chosen for c in orbit_cells[o * orbit_width : (o + 1) * orbit_width]}
        cells.discard(-1)
        start = next(iter(cells))
        reached, stack = {start}, [start]
        while stack:
            cell = stack.pop()
            for k in range(cell * cell_degree, (cell + 1) * cell_degree):
                near = cell_neighbours[k]
                if near in cells and near not in reached:
                    reached.add(near)
                    stack.append(near)
        return len(reached) == len(cells)

    def grow(weight: int, untried: list[int]) -> None:
        nonlocal total
        if weight == n:
            total += connected()
            return
        for i, orbit in enumerate(untried):
            if weight + weights[orbit] > n:
                continue
            chosen.append(orbit)
            fresh = _fresh(orbit, orbit_neighbours, orbit_degree, root, seen)
            grow(weight + weights[orbit], untried[i + 1 :] + fresh)
            for near in fresh:
                seen[near] = 0
            chosen.pop()

    if weights[root] <= n:
        grow(weights[root], _fresh(root, orbit_neighbours, orbit_degree, root, seen))
    return total


def _normal_keys(points: list[tuple[int, int]], triangles: bool) -> list[tuple[int, ...]]:
    """The cells at these centre points, in normal position, sorted (tuples)."""
    if triangles:
        cells = []
        for u, v in points:
            t = u % 3 - 1
            cells.append(((u - 1 - t) // 3, (v - 1 - t) // 3, t))
    else:
        cells = list(points)
    low_x = min(cell[0] for cell in cells)
    low_y = min(cell[1] for cell in cells)
    return sorted((cell[0] - low_x, cell[1] - low_y) + tuple(cell[2:]) for cell in cells)


def keep_canonical(
    chunk: Sequence[int], n: int, points: Sequence[int], matrices: Sequence[int], triangles: bool
) -> list[int]:
    """The sets of ``chunk`` (flat, ``n`` cell numbers a set) whose normal position is the
    least of its images under the ``matrices``.

    ``points`` holds each cell's centre point (two integers a cell: a
    hexagon's ``(q, r)``, three times a triangle's centre), on which the
    ``matrices`` (four integers each, row by row) act; ``triangles`` says
    which. The order is the order of cell tuples, as
    :meth:`polyforms.lattice.Lattice.normalise` sorts them.

    Examples
    --------
    >>> # two hexagons in a row, (0, 0) and (1, 0), and the half turn
    >>> keep_canonical([0, 1], 2, [0, 0, 1, 0], [-1, 0, 0, -1], False)
    [0, 1]
    """
    kept: list[int] = []
    for start in range(0, len(chunk), n):
        cells = chunk[start : start + n]
        centres = [(points[2 * c], points[2 * c + 1]) for c in cells]
        base = _normal_keys(centres, triangles)
        for m in range(0, len(matrices), 4):
            a, b, c, d = matrices[m : m + 4]
            image = _normal_keys([(a * u + b * v, c * u + d * v) for u, v in centres], triangles)
            if image < base:
                break
        else:
            kept.extend(cells)
    return kept

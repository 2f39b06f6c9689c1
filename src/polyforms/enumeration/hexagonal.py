"""Redelmeier's algorithm and Burnside's lemma on the triangular and hexagonal lattices.

Polyiamonds (:data:`~polyforms.lattice.TRIANGLE`) and polyhexes
(:data:`~polyforms.lattice.HEX`) are counted and listed by the search of
:mod:`polyforms.enumeration._lattice_redelmeier_py` (compiled:
:mod:`polyforms._core._lattice_redelmeier`), which runs on a *neighbour
table* built here.

The table
---------
For size ``n`` the cells of ``n`` rows ``y = 0 .. n - 1`` and ``2n + 3``
columns ``x = -n - 1 .. n + 1`` are numbered ``x' + W y`` (hexagons) or
``2 (x' + W y) + t`` (triangles), ``x' = x + n + 1`` and ``W = 2n + 3``, so
the numbering is the order "row, then column, then ▽ before △". A search from
the *root* admits only the cells numbered after it; every fixed polyform has
one least cell, translated to ``(0, 0)``, so it is reached exactly once from
the root ``(0, 0)`` (hexagons) or from ``(0, 0, 0)`` or ``(0, 0, 1)``
(triangles: a translation holds two cells). A polyform of ``n`` cells over
its least cell lies within ``n - 1`` rows below it and ``n - 1`` columns
either side, inside the table; neighbours beyond the table are -1.

Fixed counts count the last three levels (polyhexes: four) without visiting
them (see the kernel and its twin).
One-sided and free listings keep a fixed polyform when its normal position is
the least of its images under the kind's group (its canonical form), tested in
the kernel a chunk at a time.

Subtasks
--------
As on the square lattice (:mod:`polyforms.enumeration.redelmeier`), a node of
the tree is a *prefix* (its cells in the order added, and its untried set);
the subtrees of the nodes of one depth, roots in order, list the polyforms in
the order of the whole search, and their counts add up. :class:`LatticeSearchJob`
hands them to the job layer (``jobs``, ``checkpoint``, ``progress``).

Burnside's lemma
----------------
One-sided and free counts are ``(fixed + sum of fix(g) over g != identity) / |G|``,
``fix(g)`` the fixed polyforms that ``g`` maps to a translate of themselves.
Such a polyform is invariant under one isometry ``h(c) = L c + s`` with the
linear part ``L`` of ``g``: a rotation about a cell's centre, a vertex or an
edge's midpoint, or a reflection in a line through cells or along their
edges. Cells are taken by their *centre points* on ``(e1, e2)``: ``(q, r)``
for a hexagon, ``(3x + 1 + t, 3y + 1 + t)`` (three times the centre) for a
triangle, so ``h`` is integral. Translating the polyform by ``v`` changes
``s`` by ``(I - L) v``, so one ``s`` of each class modulo ``(I - L)`` of the
translations is searched (``h`` must have a fixed point: for a reflection,
``L s = -s``); a reflection's polyforms are further taken up to translations
along its axis by placing their least orbit in one period of the axis.

An invariant polyform is a union of orbits of ``h``, connected; every cell
``c`` lies within ``n - 1`` steps of ``h(c)`` and of the least cell, which
bounds a finite *region*. Redelmeier's search on the graph of the region's
orbits, from each root orbit, counts the unions of ``n`` connected cells
(``count_invariant``). Conjugate elements of the group of the hexagon have
equal ``fix``, so one element of each class is searched.

References
----------
D. H. Redelmeier, "Counting polyominoes: yet another attack",
Discrete Mathematics 36 (1981) 191-203.
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Iterator
from functools import cache

from .. import _backend
from ..jobs.options import ONE_CALL, LongRun
from ..lattice import HEX, TRIANGLE, Lattice  # noqa: F401 - HEX: for the examples

__all__ = [
    "LatticeSearchJob",
    "Table",
    "count",
    "count_fixed",
    "fix",
    "iter_cells",
    "prefixes",
    "terms",
]

Cell = tuple[int, ...]
Form = tuple[Cell, ...]
Matrix = tuple[tuple[int, int], tuple[int, int]]

#: Polyforms a listing takes from the kernel at a time.
CHUNK = 4096


def _kernel():
    return _backend.kernel("lattice_redelmeier")


# --------------------------------------------------------------------------
# The neighbour table


class Table:
    """The numbered cells of the search for size ``n`` on a lattice (see the module notes).

    Examples
    --------
    >>> table = Table(TRIANGLE, 2)
    >>> [table.cells[r] for r in table.roots], table.degree
    ([(0, 0, 0), (0, 0, 1)], 3)
    """

    def __init__(self, lattice: Lattice, n: int) -> None:
        self.lattice = lattice
        self.per = len(lattice.fundamental)  # cells a translation holds
        self.width, self.offset, self.rows = 2 * n + 3, n + 1, n
        self.cells: list[Cell] = []
        for y in range(self.rows):
            for x in range(-self.offset, self.width - self.offset):
                self.cells.extend(lattice.translate(lattice.fundamental, (x, y)))
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        self.degree = len(lattice.neighbours(lattice.origin))
        self.neighbours = [
            self.index.get(near, -1) for cell in self.cells for near in lattice.neighbours(cell)
        ]
        self.roots = [self.index[cell] for cell in lattice.fundamental]


@cache
def _table(lattice: Lattice, n: int) -> Table:
    return Table(lattice, n)


def count_fixed(n: int, lattice: Lattice, options: LongRun = ONE_CALL) -> int:
    """The number of fixed polyforms of size ``n`` (polyiamonds or polyhexes).

    ``options``: the long-run options (:class:`polyforms.jobs.LongRun`); when
    they ask for it the search is cut into subtasks (:class:`LatticeSearchJob`).

    Examples
    --------
    >>> count_fixed(6, HEX), count_fixed(6, TRIANGLE)
    (814, 94)
    """
    if options.split:
        return options.sum(LatticeSearchJob("count", n, lattice, "fixed"))
    table = _table(lattice, n)
    count = _kernel().count_fixed
    return sum(count(n, table.neighbours, table.degree, root) for root in table.roots)


def iter_cells(n: int, lattice: Lattice, kind: str, options: LongRun = ONE_CALL) -> Iterator[Form]:
    """Yield the polyforms of size ``n`` of a kind, each once, as sorted cells in normal
    position (the canonical form for ``one-sided`` and ``free``), in the order of the search.

    The kernel lists the fixed polyforms in chunks and, for the other kinds,
    keeps those that are the least of their images (``keep_canonical``).
    ``options`` as for :func:`count_fixed`: the order does not depend on them.

    Examples
    --------
    >>> sum(1 for _ in iter_cells(6, TRIANGLE, "free")), sum(1 for _ in iter_cells(4, HEX, "free"))
    (12, 7)
    """
    table = _table(lattice, n)
    cells, normalise = table.cells, lattice.normalise
    if options.split:
        job = LatticeSearchJob("list", n, lattice, kind)
        for _, packed in options.run(job, ahead=8):
            chunk = array("i")
            chunk.frombytes(packed)
            for start in range(0, len(chunk), n):
                yield normalise([cells[i] for i in chunk[start : start + n]])
        return
    for root in table.roots:
        for chunk in _walk_chunks(n, lattice, kind, root):
            for start in range(0, len(chunk), n):
                yield normalise([cells[i] for i in chunk[start : start + n]])


def _walk_chunks(n, lattice, kind, root, cells=None, untried=None) -> Iterator[list[int]]:
    """The sets below a node (the root, or a prefix), as chunks of cell numbers of the
    table, canonical ones only unless ``kind`` is fixed."""
    table = _table(lattice, n)
    kernel = _kernel()
    walk = kernel.FixedWalk(n, table.neighbours, table.degree, root, cells, untried)
    if kind != "fixed":
        points = [v for cell in table.cells for v in _centre(lattice, cell)]
        matrices = [v for m in _matrices(lattice, kind)[1:] for row in m for v in row]
    while chunk := walk.fill(CHUNK):
        if kind != "fixed":
            chunk = kernel.keep_canonical(chunk, n, points, matrices, lattice is TRIANGLE)
        yield chunk


# --------------------------------------------------------------------------
# Prefixes and subtasks

Prefix = tuple[int, tuple[int, ...], tuple[int, ...]]
"""A node of the search tree: its root, its cells in the order added (numbers of the
table of size ``n``), and its untried set."""

#: Subtasks a split search starts from (the job layer refines heavy ones).
SPLIT_TASKS = 150
#: Growth of the fixed counts per cell (the lattices' constants): scales the weights.
_GROWTH = {"triangle": 2.84, "hex": 5.18}


def prefixes(n: int, lattice: Lattice, depth: int) -> list[Prefix]:
    """The nodes of the search tree for size ``n`` at ``depth`` cells, in depth-first
    order, roots in order; their subtrees partition the polyforms of size ``n``.

    Examples
    --------
    >>> [len(prefixes(6, HEX, d)) for d in (1, 2, 3)]
    [1, 3, 11]
    """
    table = _table(lattice, n)
    found: list[Prefix] = []
    for root in table.roots:
        _prefixes_below(root, table, depth, found)
    return found


def _prefixes_below(root: int, table: Table, depth: int, found: list[Prefix]) -> None:
    """Append the nodes at ``depth`` cells of the tree from ``root`` to ``found``."""
    neighbours, degree = table.neighbours, table.degree
    seen = {root}
    cells = [root]

    def fresh_of(cell: int) -> list[int]:
        fresh = []
        for near in neighbours[degree * cell : degree * cell + degree]:
            if near > root and near not in seen:
                seen.add(near)
                fresh.append(near)
        return fresh

    def grow(untried: list[int]) -> None:
        if len(cells) == depth:
            found.append((root, tuple(cells), tuple(untried)))
            return
        for i, cell in enumerate(untried):
            cells.append(cell)
            fresh = fresh_of(cell)
            grow(untried[i + 1 :] + fresh)
            seen.difference_update(fresh)
            cells.pop()

    grow(fresh_of(root))


def _split_depth(n: int, lattice: Lattice) -> int:
    """The least depth with :data:`SPLIT_TASKS` prefixes or more (at most ``n - 4``)."""
    depth = 1
    while depth < n - 4 and len(prefixes(n, lattice, depth)) < SPLIT_TASKS:
        depth += 1
    return depth


def count_task(n: int, name: str, prefix: Prefix) -> int:
    root, cells, untried = prefix
    table = _table(_LATTICES[name], n)
    return _kernel().FixedWalk(n, table.neighbours, table.degree, root, cells, untried).count()


def _list_task(n: int, name: str, kind: str, prefix: Prefix) -> bytes:
    root, cells, untried = prefix
    found = array("i")
    for chunk in _walk_chunks(n, _LATTICES[name], kind, root, cells, untried):
        found.extend(chunk)
    return found.tobytes()


_LATTICES = {"triangle": TRIANGLE, "hex": HEX}


class LatticeSearchJob:
    """Redelmeier's search on a triangular or hexagonal lattice cut at its prefixes
    (a :class:`polyforms.jobs.Job`): each task counts (``what="count"``) or lists
    (``"list"``: the cell numbers of the table of size ``n``, as bytes of
    ``array("i")``) the subtree below one prefix; ``refine`` cuts a task at the
    next level, whose prefixes list the same polyforms in the same order.
    """

    def __init__(self, what: str, n: int, lattice: Lattice, kind: str) -> None:
        self.what, self.n, self.lattice, self.kind = what, n, lattice, kind
        self.key = f"lattice redelmeier {what} n={n} lattice={lattice.name} kind={kind}"
        self.chunks = what != "count"  # its results are output chunks (see jobs.Job)

    def _task(self, task_id: str, prefix: Prefix):
        from ..jobs.tasks import Task

        n, name = self.n, self.lattice.name
        root, cells, untried = prefix
        table = _table(self.lattice, n)
        # the subtree a few cells short of n, counted exactly, scaled by the growth
        short = max(0, min(5, n - 2 - len(cells)))
        walk = _kernel().FixedWalk(
            n - short - 1, table.neighbours, table.degree, root, cells, untried
        )
        below = walk.count() if n - short - 1 > len(cells) else 1
        weight = max(below * _GROWTH[name] ** short, 1.0)
        if self.what == "count":
            return Task(task_id, count_task, (n, name, prefix), weight)
        return Task(task_id, _list_task, (n, name, self.kind, prefix), weight)

    def tasks(self):
        found = prefixes(self.n, self.lattice, _split_depth(self.n, self.lattice))
        return [self._task(str(i), prefix) for i, prefix in enumerate(found)]

    def refine(self, task):
        root, cells, untried = task.args[-1]
        if len(cells) >= self.n - 3:
            return None  # too small to be worth cutting
        table = _table(self.lattice, self.n)
        neighbours, degree = table.neighbours, table.degree
        seen = {root}
        for cell in cells:
            seen.update(n for n in neighbours[degree * cell : degree * cell + degree] if n > root)
        children = []
        for i, cell in enumerate(untried):
            fresh = [
                near
                for near in neighbours[degree * cell : degree * cell + degree]
                if near > root and near not in seen
            ]
            children.append((root, cells + (cell,), tuple(untried[i + 1 :]) + tuple(fresh)))
        return [self._task(f"{task.id}.{k}", child) for k, child in enumerate(children)]


# --------------------------------------------------------------------------
# Burnside's lemma


def _centre(lattice: Lattice, cell: Cell) -> tuple[int, int]:
    """The cell's centre point (hexagon: itself; triangle: three times its centre)."""
    if lattice is TRIANGLE:
        x, y, t = cell
        return 3 * x + 1 + t, 3 * y + 1 + t
    return cell[0], cell[1]


def _cell(lattice: Lattice, point: tuple[int, int]) -> Cell | None:
    """The cell whose centre point is ``point``, or None if none is."""
    if lattice is TRIANGLE:
        u, v = point
        if u % 3 != v % 3 or u % 3 == 0:
            return None
        return TRIANGLE.triangle_at(u, v)
    return point


def _apply(matrix: Matrix, point: tuple[int, int]) -> tuple[int, int]:
    (a, b), (c, d) = matrix
    return a * point[0] + b * point[1], c * point[0] + d * point[1]


def _dot(p: tuple[int, int], q: tuple[int, int]) -> int:
    """Twice the Euclidean inner product on ``(e1, e2)`` (60 degrees apart): an integer."""
    return 2 * p[0] * q[0] + p[0] * q[1] + p[1] * q[0] + 2 * p[1] * q[1]


def _determinant(matrix: Matrix) -> int:
    return matrix[0][0] * matrix[1][1] - matrix[0][1] * matrix[1][0]


def _matrices(lattice: Lattice, kind: str) -> list[Matrix]:
    return [t.matrix for t in lattice.group(kind)]


def terms(lattice: Lattice, kind: str) -> list[tuple[Matrix, int]]:
    """The non-trivial terms of Burnside's sum: a class representative (a matrix) and
    how many elements of the kind's group it stands for.

    Examples
    --------
    >>> [times for _, times in terms(HEX, "free")]
    [2, 2, 1, 3, 3]
    """
    full = _matrices(lattice, "free")
    inverse = {m: next(k for k in full if _product(m, k) == ((1, 0), (0, 1))) for m in full}
    representative: dict[Matrix, Matrix] = {}
    for m in full:
        if m not in representative:
            for k in full:
                representative.setdefault(_product(_product(k, m), inverse[k]), m)
    times: dict[Matrix, int] = {}
    for m in _matrices(lattice, kind)[1:]:
        times[representative[m]] = times.get(representative[m], 0) + 1
    return list(times.items())


def _product(a: Matrix, b: Matrix) -> Matrix:
    return tuple(  # type: ignore[return-value]
        tuple(sum(a[i][k] * b[k][j] for k in range(2)) for j in range(2)) for i in range(2)
    )


def _shifts(lattice: Lattice, matrix: Matrix) -> list[tuple[int, int]]:
    """One shift ``s`` of each class of the isometries ``c -> L c + s`` with a fixed point
    that map cells to cells, modulo ``(I - L)`` of the translations."""
    m = 3 if lattice is TRIANGLE else 1  # translations are m Z^2 on centre points
    cosets = [_centre(lattice, cell) for cell in lattice.fundamental]
    reflection = _determinant(matrix) < 0
    (a, b), (c, d) = matrix
    # (I - L) of the translations m * (i, j), over a box wide enough to reach each class
    moved = {
        (m * ((1 - a) * i - b * j), m * (-c * i + (1 - d) * j))
        for i in range(-15, 16)
        for j in range(-15, 16)
    }
    found: list[tuple[int, int]] = []
    for s in itertools.product(range(-3 * m, 3 * m + 1), repeat=2):
        if reflection and _apply(matrix, s) != (-s[0], -s[1]):
            continue  # a glide reflection: no finite set is invariant
        images = [_apply(matrix, p) for p in cosets]
        if any(_cell(lattice, (u + s[0], v + s[1])) is None for u, v in images):
            continue
        if not any((s[0] - f[0], s[1] - f[1]) in moved for f in found):
            found.append(s)
    return found


def _axis_period(lattice: Lattice, matrix: Matrix) -> tuple[int, int]:
    """The least translation a reflection ``matrix`` fixes (along its axis)."""
    m = 3 if lattice is TRIANGLE else 1
    candidates = [
        (m * i, m * j)
        for i in range(-3, 4)
        for j in range(-3, 4)
        if (i, j) != (0, 0) and _apply(matrix, (m * i, m * j)) == (m * i, m * j)
    ]
    return min(candidates, key=lambda v: (_dot(v, v), v))


def _steps(lattice: Lattice) -> list[tuple[int, int]]:
    """The differences of centre points between neighbours."""
    found = set()
    for cell in lattice.fundamental:
        u = _centre(lattice, cell)
        for near in lattice.neighbours(cell):
            w = _centre(lattice, near)
            found.add((w[0] - u[0], w[1] - u[1]))
    return sorted(found)


def _searches(n: int, lattice: Lattice, matrix: Matrix, shift: tuple[int, int]):
    """The orbit graph of ``c -> L c + shift`` over its region, and the root orbits.

    Returns the kernel's arguments but ``n`` and ``root`` (see
    ``count_invariant``), and the list of roots.
    """
    steps = _steps(lattice)
    step = max(_dot(d, d) for d in steps)
    reach = (n - 1) ** 2 * step  # |h(c) - c|^2 bound, as _dot
    m = 3 if lattice is TRIANGLE else 1
    reflection = _determinant(matrix) < 0
    if reflection:
        axis = _axis_period(lattice, matrix)
        period = _dot(axis, axis)
        key_step = max(abs(_dot(d, axis)) for d in steps)
    radius = m * (2 * n + 8)

    def image(point):
        u, v = _apply(matrix, point)
        return u + shift[0], v + shift[1]

    region: list[tuple[tuple, tuple[int, int]]] = []  # (order key, centre point)
    for point in itertools.product(range(-radius, radius + 1), repeat=2):
        if _cell(lattice, point) is None:
            continue
        moved = image(point)
        gap = (moved[0] - point[0], moved[1] - point[1])
        if _dot(gap, gap) > reach:
            continue
        if reflection:
            key = _dot(point, axis)
            if not 0 <= key < period + (n - 1) * key_step:
                continue
            region.append(((key, point), point))
        else:
            region.append(((point,), point))
        if radius in map(abs, point):
            raise AssertionError("the region of a symmetric search reached its box")
    if not region:  # no cell close enough to its image
        return None, []
    region.sort()
    number = {point: i for i, (_, point) in enumerate(region)}
    orbit_of: dict[tuple[int, int], int] = {}
    orbits: list[list[int]] = []
    for _, point in region:  # orbits numbered in the order of their least cell
        if point in orbit_of:
            continue
        orbit, moved = [point], image(point)
        while moved != point:
            orbit.append(moved)
            moved = image(moved)
        for p in orbit:
            orbit_of[p] = len(orbits)
        orbits.append([number[p] for p in orbit])
    # cells' and orbits' neighbour tables
    cell_degree = len(lattice.neighbours(lattice.origin))
    cell_neighbours = []
    meets: list[set[int]] = [set() for _ in orbits]
    for _, point in region:
        cell = _cell(lattice, point)
        for near in lattice.neighbours(cell):
            other = number.get(_centre(lattice, near), -1)  # type: ignore[arg-type]
            cell_neighbours.append(other)
            if other >= 0 and orbit_of[region[other][1]] != orbit_of[point]:
                meets[orbit_of[point]].add(orbit_of[region[other][1]])
    orbit_degree = max(1, max(map(len, meets)))
    orbit_neighbours = [
        near for met in meets for near in sorted(met) + [-1] * (orbit_degree - len(met))
    ]
    width = max(map(len, orbits))
    orbit_cells = [c for orbit in orbits for c in orbit + [-1] * (width - len(orbit))]
    weights = [len(orbit) for orbit in orbits]
    roots = [
        i
        for i, orbit in enumerate(orbits)
        if weights[i] <= n and (not reflection or region[orbit[0]][0][0] < period)
    ]
    arguments = (orbit_neighbours, orbit_degree, weights, orbit_cells, width, cell_neighbours)
    return arguments + (cell_degree,), roots


def fix(n: int, lattice: Lattice, matrix: Matrix) -> int:
    """Fixed polyforms of size ``n`` that the symmetry ``matrix`` (not the identity) maps
    to a translate of themselves.

    Examples
    --------
    >>> fix(4, HEX, ((-1, 0), (0, -1)))   # a half turn: 12 fixed tetrahexes of 3 free shapes
    12
    """
    count_invariant = _kernel().count_invariant
    total = 0
    for shift in _shifts(lattice, matrix):
        arguments, roots = _searches(n, lattice, matrix, shift)
        for root in roots:
            orbit_neighbours, orbit_degree, weights, orbit_cells, width, cells, degree = arguments
            total += count_invariant(
                n, orbit_neighbours, orbit_degree, weights, root, orbit_cells, width, cells, degree
            )
    return total


def count(
    n: int,
    lattice: Lattice,
    kind: str,
    fixed_count: int | None = None,
    options: LongRun = ONE_CALL,
) -> int:
    """The number of polyforms of size ``n`` of a kind: fixed by Redelmeier's search
    (``options`` as for :func:`count_fixed`), the others by Burnside's lemma from it.

    Examples
    --------
    >>> [count(n, TRIANGLE, "free") for n in range(1, 9)]
    [1, 1, 1, 3, 4, 12, 24, 66]
    >>> [count(n, HEX, "one-sided") for n in range(1, 7)]
    [1, 1, 3, 10, 33, 147]
    """
    fixed = count_fixed(n, lattice, options) if fixed_count is None else fixed_count
    if kind == "fixed":
        return fixed
    total = fixed + sum(times * fix(n, lattice, rep) for rep, times in terms(lattice, kind))
    order = len(lattice.group(kind))
    if total % order:
        raise ArithmeticError(f"Burnside sum {total} is not a multiple of {order}")
    return total // order

"""Cells of the square and cubic lattices: the functions the searches call by dimension.

A cell is a tuple of integers: ``(x, y)`` on the square lattice, ``(x, y, z)``
on the cubic lattice. A set of cells is in *normal position* when it is a
sorted tuple whose minimum along every axis is 0; two sets are translates of
each other exactly when their normal positions are equal.

The symmetries fixing the origin are signed permutation matrices:

* square lattice: 8 (4 rotations, 4 reflections);
* cubic lattice: 48 (24 rotations, 24 reflections).

A *kind* picks a subgroup: ``"fixed"`` only the identity, ``"one-sided"`` the
rotations, ``"free"`` every symmetry.

Every answer here is the lattice's (:mod:`polyforms.lattice`): a function
taking ``dim`` asks the lattice of that dimension. :func:`normalise` and
:func:`neighbours` take no dimension: they are the static methods of
:class:`polyforms.lattice.HypercubicLattice`, the square and cubic lattices'
class, which work in any dimension, so the many calls from the searches pass
through no indirection.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from functools import cache

from .errors import PolyformError
from .lattice import (
    CUBE,
    KINDS,
    Cell,
    HypercubicLattice,
    Transform,
    as_cell,
    check_kind,
    connected_parts,
    of_dimension,
)

__all__ = [
    "Cell",
    "KINDS",
    "Transform",
    "symmetries",
    "signed_permutations",
    "all_symmetries",
    "SYMMETRY_ORDERS_3D",
    "check_kind",
    "check_dim",
    "as_cell",
    "check_size",
    "normalise",
    "bounding_box",
    "translate",
    "dilate",
    "neighbours",
    "is_connected",
    "components",
    "cell_graph",
]

normalise = HypercubicLattice.normalise
neighbours = HypercubicLattice.neighbours


def check_size(n: object) -> int:
    """Return ``n`` if it is a whole number of cells (at least 1), else raise PolyformError."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise PolyformError(f"size must be a whole number, not {n!r}")
    if n < 1:
        raise PolyformError(f"size must be at least 1, not {n}")
    from .errors import TooLargeError
    from .limits import MAX_CELLS

    if n > MAX_CELLS:
        raise TooLargeError(f"size {n} is beyond the limit of {MAX_CELLS} cells")
    return n


def check_dim(dim: int) -> int:
    """Return ``dim`` if it is 2 or 3 (a lattice's dimension), else raise PolyformError."""
    of_dimension(dim)
    return dim


@cache
def all_symmetries(dim: int) -> tuple[Transform, ...]:
    """Every lattice symmetry fixing the origin: 8 in 2D, 48 in 3D.

    Rotations come first (identity at index 0), then reflections.
    """
    return of_dimension(dim).transforms


@cache
def symmetries(dim: int, kind: str = "free") -> tuple[Transform, ...]:
    """The symmetry group that identifies polyforms of ``kind``.

    Parameters
    ----------
    dim : {2, 3}
    kind : {"fixed", "one-sided", "free"}
        ``fixed``: the identity only; ``one-sided``: rotations (4 or 24);
        ``free``: rotations and reflections (8 or 48).

    Examples
    --------
    >>> [len(symmetries(d, k)) for d in (2, 3) for k in KINDS]
    [1, 4, 8, 1, 24, 48]
    """
    check_kind(kind)
    return of_dimension(dim).group(kind)


SignedPermutation = tuple[tuple[int, ...], tuple[int, ...]]


@cache
def signed_permutations(dim: int, kind: str) -> tuple[SignedPermutation, ...]:
    """The group of a kind (:func:`symmetries`) as signed permutations, identity first.

    Each element is ``(perm, signs)`` and maps a cell ``c`` to
    ``(signs[0] * c[perm[0]], signs[1] * c[perm[1]], ...)``: the form the
    searches use, cheaper to apply than a matrix.

    Examples
    --------
    >>> [len(signed_permutations(2, k)) for k in KINDS]
    [1, 4, 8]
    >>> signed_permutations(2, "one-sided")[1]
    ((1, 0), (-1, 1))
    """
    check_kind(kind)
    return of_dimension(dim).signed_permutations(kind)


SYMMETRY_ORDERS_3D = CUBE.symmetry_classes
"""The orders a polycube's symmetry group can have (subgroups of the cube's 48)."""


def bounding_box(cells: Iterable[Sequence[int]]) -> tuple[Cell, Cell]:
    """Return ``(mins, maxs)``, the least and greatest coordinate along each axis."""
    columns = list(zip(*cells))
    if not columns:
        raise PolyformError("an empty set of cells has no bounding box")
    return tuple(min(c) for c in columns), tuple(max(c) for c in columns)


def translate(cells: Iterable[Sequence[int]], offset: Sequence[int]) -> tuple[Cell, ...]:
    """Shift every cell by ``offset`` (order kept)."""
    return tuple(tuple(c + o for c, o in zip(cell, offset)) for cell in cells)


def dilate(cells: Iterable[Sequence[int]], k: int) -> tuple[Cell, ...]:
    """Replace each cell by a ``k``-by-``k`` (by-``k``) block of cells; sorted.

    Examples
    --------
    >>> dilate([(0, 0), (1, 0)], 2)
    ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1))
    """
    if not isinstance(k, int) or k < 1:
        raise PolyformError(f"dilation factor must be a positive integer, not {k!r}")
    out = []
    for cell in cells:
        base = [c * k for c in cell]
        for step in itertools.product(range(k), repeat=len(base)):
            out.append(tuple(b + s for b, s in zip(base, step)))
    return tuple(sorted(out))


def components(cells: Iterable[Sequence[int]]) -> list[tuple[Cell, ...]]:
    """Split ``cells`` into edge- (face-) connected components, each sorted.

    Components are listed in the order of their least cell.
    """
    return connected_parts(cells, neighbours)


def cell_graph(cells: Iterable[Sequence[int]]):
    """The adjacency graph of ``cells`` (edges between cells sharing an edge or face).

    Returns a :class:`networkx.Graph` whose nodes are the cells. networkx is
    imported on first use only: the searches and the short commands never
    need it (importing it costs about 0.2 s).

    Examples
    --------
    >>> graph = cell_graph([(0, 0), (1, 0), (3, 0)])
    >>> graph.number_of_nodes(), graph.number_of_edges()
    (3, 1)
    """
    import networkx as nx

    nodes = {tuple(c) for c in cells}
    graph = nx.Graph()
    graph.add_nodes_from(sorted(nodes))
    graph.add_edges_from(
        (cell, other) for cell in nodes for other in neighbours(cell) if other in nodes
    )
    return graph


def is_connected(cells: Iterable[Sequence[int]]) -> bool:
    """True when ``cells`` is non-empty and edge- (face-) connected."""
    return len(components(cells)) == 1

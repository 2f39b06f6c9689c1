"""Readable twin of the compiled fixed-polycube counter (:mod:`polyforms._core._polycubes`).

It counts the fixed polycubes of size ``n`` below a prefix of Redelmeier's
tree (:func:`polyforms.enumeration.redelmeier.prefixes`): the tree of
:mod:`polyforms.enumeration.redelmeier`, whose rules (the order of neighbours,
allowed and seen cells) come from :mod:`polyforms.enumeration.search_tree`.
It visits the nodes up to three cells short of ``n`` and counts the last three
levels below each of those by the arithmetic derived here. The compiled twin
does the same sums on a byte board, and goes one level further: it counts the
children of a node four cells short of ``n`` by correcting these sums for the
cells within two steps of each taken cell (explained there).

The subtree of a node
---------------------
A node holds a polycube ``P`` and its untried set ``U``; its seen set ``S``
is the origin and every allowed neighbour of ``P`` (``U`` is part of it). Call
a cell *free* when it is allowed and not seen. The subtree of the node holds
exactly one polycube ``P + A`` for each set ``A`` of ``k`` cells that meets
``U``, has no seen cell outside ``U``, and makes ``P + A`` connected: a cell of
``A`` next to ``P`` is untried (every neighbour of ``P`` is seen), and a
cell of ``A`` not next to ``P`` is free. So the count below a node depends on
``U`` and the free cells around it, not on the order of the search.

For ``k = 1`` that is ``L = |U|``, Redelmeier's own shortcut. Write ``d_a``
for the free neighbours of an untried cell ``a`` (``D`` their sum), and for a
free cell ``f``, ``u_f`` and ``e_f`` for its untried and free neighbours.
For ``k = 2``, ``A`` is two untried cells or one untried cell and a free
neighbour of it::

    C(L, 2) + D

For ``k = 3``, by how many cells of ``A`` are untried:

* three: ``C(L, 3)``;
* two, ``a`` and ``b``, and a free cell next to either: over the pairs,
  ``|N(a) + N(b)|`` among the free cells, that is ``(L - 1) D`` less the free
  cells next to both, ``sum_f C(u_f, 2)``;
* one, ``a``, and two free cells: both next to ``a`` (``C(d_a, 2)``), or a
  path ``a - f - g`` with ``g`` a free neighbour of ``f`` (the cubic lattice
  is bipartite, so ``g`` is never next to ``a``): ``sum_f u_f e_f``.

Together::

    C(L, 3) + (L - 1) D + sum_a C(d_a, 2) + sum_f (u_f e_f - C(u_f, 2))

Each term needs only the neighbours of the untried cells and theirs, so a
node three cells short of ``n`` costs a few reads per untried cell instead of
a visit of each of its thousands of descendants. (Stanley Dodds's counter,
OEIS A000162, counts the same three levels this way.)
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from ..errors import PolyformError
from .search_tree import Cell, allowed, offsets, seen_by

__all__ = ["count_prefix"]

_MOVES = offsets(3)


def _neighbours(cell: Cell) -> list[Cell]:
    return [(cell[0] + dx, cell[1] + dy, cell[2] + dz) for dx, dy, dz in _MOVES]


def _last_levels(k: int, untried: Sequence[Cell], seen: set[Cell]) -> int:
    """Polycubes ``k`` (1, 2 or 3) cells larger than a node with ``untried`` and ``seen``."""
    length = len(untried)
    if k == 1:
        return length

    def free(cell: Cell) -> bool:
        return cell not in seen and allowed(cell)

    free_near = {a: [f for f in _neighbours(a) if free(f)] for a in untried}
    near = sum(len(fs) for fs in free_near.values())  # D
    if k == 2:
        return comb(length, 2) + near
    met: dict[Cell, int] = {}  # u_f of every free cell next to the untried set
    for fs in free_near.values():
        for f in fs:
            met[f] = met.get(f, 0) + 1
    through = sum(u * sum(map(free, _neighbours(f))) - comb(u, 2) for f, u in met.items())
    pairs = sum(comb(len(fs), 2) for fs in free_near.values())
    return comb(length, 3) + (length - 1) * near + pairs + through


def count_prefix(n: int, cells: Sequence[Cell], untried: Sequence[Cell]) -> int:
    """Count the fixed polycubes of size ``n`` below a prefix (cells, untried).

    Examples
    --------
    >>> [count_prefix(n, (), ((0, 0, 0),)) for n in range(1, 7)]
    [1, 3, 15, 86, 534, 3481]
    """
    if n < 1:
        raise PolyformError(f"size must be at least 1, not {n}")
    cells = [tuple(cell) for cell in cells]
    if len(cells) >= n:
        return 0
    for cell in cells + [tuple(cell) for cell in untried]:
        if len(cell) != 3 or not all(-n <= v <= n for v in cell) or cell[2] < 0:
            raise PolyformError(f"cell {cell!r} cannot belong to a polycube of size {n}")
    seen = seen_by(cells, 3)

    def grow(size: int, untried: list[Cell]) -> int:
        if n - size <= 3:
            return _last_levels(n - size, untried, seen)
        total = 0
        for i, cell in enumerate(untried):
            fresh = [near for near in _neighbours(cell) if near not in seen and allowed(near)]
            seen.update(fresh)
            total += grow(size + 1, untried[i + 1 :] + fresh)
            seen.difference_update(fresh)
        return total

    return grow(len(cells), [tuple(cell) for cell in untried])

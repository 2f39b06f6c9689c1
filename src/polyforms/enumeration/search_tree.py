"""The rules of Redelmeier's search tree, shared by its dispatcher and its readable twin.

:mod:`polyforms.enumeration.redelmeier` (prefixes, subtasks, probes) and the
readable twin :mod:`polyforms.enumeration._redelmeier_py` (the search itself)
walk the same tree, so they ask the same questions of it here: in which order
a cell's neighbours join an untried set, which cells may join at all, which
cells a node has seen, and where a symmetry maps a polyform. The compiled core
(:mod:`polyforms._core._redelmeier`) answers them in C the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..geometry import normalise

__all__ = ["Cell", "Form", "allowed", "image", "offsets", "seen_by"]

Cell = tuple[int, ...]
Form = tuple[Cell, ...]


def offsets(dim: int) -> tuple[Cell, ...]:
    """Neighbour offsets in the order they join the untried set: ``+x, +y, (+z), -x, -y, (-z)``.

    Examples
    --------
    >>> offsets(2)
    ((1, 0), (0, 1), (-1, 0), (0, -1))
    """
    unit = [tuple(int(i == j) for j in range(dim)) for i in range(dim)]
    return tuple(unit) + tuple(tuple(-v for v in u) for u in unit)


def allowed(cell: Cell) -> bool:
    """True for cells after the origin in the order last coordinate first.

    Examples
    --------
    >>> allowed((1, 0)), allowed((-1, 1)), allowed((-1, 0))
    (True, True, False)
    """
    return cell[::-1] > (0,) * len(cell)


def seen_by(cells: Sequence[Cell], dim: int) -> set[Cell]:
    """Cells a node has seen: the origin and every allowed neighbour of its cells.

    Every cell ever pushed on an untried set on the path from the root is a
    neighbour of a cell of the node (or the origin), and every allowed
    neighbour of a cell of the node was pushed when that cell joined; so the
    seen set is determined by the cells alone.
    """
    seen = {(0,) * dim}
    for cell in cells:
        for off in offsets(dim):
            neighbour = tuple(a + b for a, b in zip(cell, off))
            if allowed(neighbour):
                seen.add(neighbour)
    return seen


def image(form: Iterable[Cell], perm: Sequence[int], signs: Sequence[int]) -> Form:
    """A polyform mapped by one signed permutation, in normal position.

    Examples
    --------
    >>> image([(0, 0), (1, 0), (1, 1)], (1, 0), (1, -1))   # (x, y) -> (y, -x)
    ((0, 0), (0, 1), (1, 0))
    """
    return normalise(tuple(s * c[p] for p, s in zip(perm, signs)) for c in form)

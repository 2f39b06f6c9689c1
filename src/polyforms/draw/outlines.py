"""The boundary of a set of plane cells as closed loops of corner points.

Built from the polygons the lattice gives its cells
(:meth:`polyforms.lattice.Lattice.cell_edges`, in bulk
:meth:`polyforms.lattice.Lattice.sides`): a side between a cell of a set and a
cell outside it is on the set's boundary. Corners are the lattice's exact
integer vertices; :mod:`polyforms.draw.svg` writes the loops as paths.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..lattice import SQUARE, Lattice, Vertex

__all__ = ["boundary_loops"]

Cell2 = tuple[int, int]


def boundary_loops(cells: Iterable[Cell2], lattice: Lattice = SQUARE) -> list[list[Vertex]]:
    """The boundary of a set of plane cells as closed loops of corner points.

    Each side between a cell of the set and a cell outside it is walked
    once, with the set on its right-hand side on the page (clockwise round the
    outside, anticlockwise round a hole). At a corner where cells meet only
    at a point the walk takes the sharpest right turn, and a walk that still
    passes a corner twice (a hole touching the outside at a corner) is cut
    there, so every loop is simple. Corners where a loop goes straight on are
    dropped.

    Parameters
    ----------
    cells : iterable of cells
    lattice : Lattice
        Whose cell polygons are outlined (default the square lattice's unit squares).

    Returns
    -------
    list of list of vertices
        Loops in a fixed order (by their least corner), each starting at its
        least corner; corners are the lattice's vertices (for squares, the
        points ``(x, y)`` of the page in cell units).

    Examples
    --------
    >>> boundary_loops([(0, 0), (1, 0)])
    [[(0, 0), (2, 0), (2, 1), (0, 1)]]
    >>> len(boundary_loops([(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)]))
    2
    """
    return _loops(lattice.sides(cells)[0], lattice)


def _loops(outer: list[tuple[Vertex, Vertex]], lattice: Lattice) -> list[list[Vertex]]:
    """The closed loops the outer sides make (see :func:`boundary_loops`)."""
    outgoing: dict[Vertex, list[Vertex]] = {}
    for start, end in outer:
        outgoing.setdefault(start, []).append(end)
    loops = []
    while outgoing:
        loop = _walk(outgoing, lattice)
        loops.extend(_corners(part) for part in _simple_parts(loop))
    return sorted(loops)


def _walk(outgoing: dict[Vertex, list[Vertex]], lattice: Lattice) -> list[Vertex]:
    """Take one closed walk out of ``outgoing`` (the boundary sides left), from its least start."""
    start = min(outgoing)
    loop = [start]
    here, previous = start, None
    while True:
        ends = outgoing[here]
        if previous is None or len(ends) == 1:
            end = min(ends)
        else:  # a pinch corner: the sharpest right turn keeps the walk round its own cells
            end = max(ends, key=lambda e: _turn(lattice, previous, here, e))
        ends.remove(end)
        if not ends:
            del outgoing[here]
        if end == start:
            return loop
        loop.append(end)
        previous, here = here, end


def _turn(lattice: Lattice, before: Vertex, here: Vertex, after: Vertex) -> float:
    """The angle turned at ``here`` on the page, positive to the right (``y`` runs down)."""
    (ax, ay), (bx, by), (cx, cy) = (lattice.to_page(v) for v in (before, here, after))
    ux, uy, vx, vy = bx - ax, by - ay, cx - bx, cy - by
    return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)


def _simple_parts(loop: list[Vertex]) -> list[list[Vertex]]:
    """Split a closed walk at every point it visits twice, into simple loops.

    Where a hole touches the outside at a corner the walk passes that corner
    twice; cutting it there keeps every edge and its direction, so the
    enclosed area is unchanged.
    """
    seen: dict[Vertex, int] = {}
    for k, point in enumerate(loop):
        if point in seen:
            inner = loop[seen[point] : k]
            outer = loop[: seen[point]] + loop[k:]
            return _simple_parts(inner) + _simple_parts(outer)
        seen[point] = k
    least = loop.index(min(loop))
    return [loop[least:] + loop[:least]]


def _corners(loop: list[Vertex]) -> list[Vertex]:
    """Drop the points of a closed loop where it goes straight on."""
    kept = []
    count = len(loop)
    for i, (x, y) in enumerate(loop):
        (px, py), (nx, ny) = loop[i - 1], loop[(i + 1) % count]
        if (x - px) * (ny - y) != (y - py) * (nx - x):  # the two sides are not parallel
            kept.append((x, y))
    return kept

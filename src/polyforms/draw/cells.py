"""Where a plane picture's cells come from: the lattice a value is drawn on, whether its
cells are cubes (drawn isometrically) or plane cells, and the frame a plane picture
sits in.

Shared by the pictures of :mod:`polyforms.draw.plane` and
:mod:`polyforms.draw.tilings`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import PolyformError
from ..lattice import SQUARE, Lattice
from ..lattice import lattice as find_lattice
from .size import COORDINATE_LIMIT
from .svg import Cell2, _cells_2d, _dimension, _extent

__all__: list[str] = []


def _lattice_of(value: object, lattice: Lattice | str | None = None) -> Lattice | None:
    """The lattice named by the caller, else the value's own (a Polyform's, a Region's),
    else None: bare cells, square or cube as their length tells."""
    if lattice is not None:
        return find_lattice(lattice)
    found = getattr(value, "lattice", None)
    return found if isinstance(found, Lattice) else None


def _plane_lattice(value: object, lattice: Lattice | str | None = None) -> Lattice:
    """The lattice of plane cells: as :func:`_lattice_of` finds it, else the square's."""
    return _lattice_of(value, lattice) or SQUARE


def _solid(cells: Sequence[Sequence[int]], lattice: Lattice | None) -> bool:
    """Are these cells cubes, to be drawn isometrically?

    Bare cells and the square and cubic lattices' say so by their length (a
    triangle has three numbers too, so its lattice must be known: it is plane).

    Raises
    ------
    PolyformError
        No cells, or cells of mixed length.
    """
    if lattice is None or lattice.name in ("square", "cube"):
        return _dimension(cells) == 3
    if not cells:
        raise PolyformError("nothing to draw: no cells")
    return lattice.dimension == 3


def _plane_cells(cells: Iterable[Sequence[int]], lattice: Lattice) -> list[tuple[int, ...]]:
    """Cells of a plane lattice as whole-number tuples, each checked by the lattice
    (a triangle's third number is 0 or 1)."""
    if lattice is SQUARE:
        return _cells_2d(cells)
    return [lattice.as_cell(c, COORDINATE_LIMIT) for c in cells]


class _Frame:
    """Where a plane tiling sits: its cells shifted so their least ``x`` and ``y`` are 0
    (:meth:`shift`), and the box of the shifted cells' polygons on the page.

    ``left`` and ``top`` are the box's least corner, ``width`` and ``height``
    its size, all in drawing units (cells).
    """

    def __init__(self, placements, region: set[Cell2] | None, lattice: Lattice) -> None:
        cells = {c for _, cs in placements for c in cs}.union(region or ())
        self.lattice = lattice
        self.origin = _extent(cells)[0]
        (self.left, self.top), (self.width, self.height) = lattice.page_box(self.shift(cells))

    def shift(self, cells: Iterable[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
        """``cells`` moved so that the tiling's least ``x`` and ``y`` are 0."""
        return self.lattice.translate(cells, (-self.origin[0], -self.origin[1]))


def _plane_placements(
    placed: list[tuple[str, tuple[tuple[int, ...], ...]]], lattice: Lattice
) -> list[tuple[str, tuple[tuple[int, ...], ...]]]:
    """A plane tiling's placements as cells of ``lattice``, each checked by it (a
    triangle's third number is 0 or 1); square cells are taken as they are."""
    if lattice is SQUARE:
        return placed
    return [(name, tuple(_plane_cells(cells, lattice))) for name, cells in placed]

"""Regions to tile: immutable sets of cells with the lattice symmetries that keep them.

A :class:`Region` is 2D or 3D, may have holes and several parts, and is read
from a box size (``6x10``, ``3x4x5``), an ASCII picture, or a set of cells.
:meth:`Region.symmetries` gives the :class:`Symmetry` maps (a lattice symmetry
followed by a translation) that map it onto itself: the group G that
:mod:`polyforms.tiling.problem` uses to count essentially different tilings.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from itertools import repeat

from ._textio import shorten
from .errors import ParseError, PolyformError, TilingError, TooLargeError, WrongTypeError
from .geometry import Cell, Transform, as_cell
from .lattice import LAYER_BREAK, Lattice, of_dimension
from .lattice import lattice as find_lattice
from .limits import MAX_REGION_CELLS
from .polyform import count_marks, parse_picture

__all__ = ["Region", "Symmetry", "is_box"]

_BOX = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*(?:[xX×]\s*(\d+)\s*)?$")


def is_box(text: str) -> bool:
    """Does ``text`` write a box, ``HxW`` or ``HxWxD`` (as :meth:`Region.parse` reads it)?

    Examples
    --------
    >>> is_box("6x10"), is_box("3 x 4 x 5"), is_box("nofile.txt")
    (True, True, False)
    """
    return _BOX.match(text) is not None


# -- regions of the triangular and the hexagonal lattice ------------------------------

_SHAPE = re.compile(r"^\s*(tri|hex)\s*:\s*(\d+)\s*$")
_SHAPES = ("triangle", "hex")


def _plane_region(text: str, lattice: Lattice) -> Region:
    """A region of triangles or hexagons: ``HxW``, ``tri:N``, ``hex:N`` or a picture."""
    box, shape = _BOX.match(text), _SHAPE.match(text)
    sides = [g for g in (box or shape).groups() if g is not None] if box or shape else []
    for side in sides:
        if len(side.lstrip("0")) > 7:
            raise TooLargeError(
                f"a shape of side {shorten(side, 20)} is beyond the limit of "
                f"{MAX_REGION_CELLS:,} cells"
            )
    if box:
        if len(sides) == 3:
            raise TilingError(
                f"the {lattice.name} lattice is plane: a box has two sides, not {text.strip()!r}"
            )
        rows, columns = map(int, sides)
        if rows < 1 or columns < 1:
            raise TilingError(f"a parallelogram needs 2 positive sides, not {rows}x{columns}")
        _check_cells(rows * columns * len(lattice.fundamental))
        return Region(lattice.frame_cells([(0, 0), (columns - 1, rows - 1)]), lattice)
    if shape:
        name, side = shape.group(1), int(shape.group(2))
        if side < 1:
            raise TilingError(f"a {name}:N shape needs a positive side, not {side}")
        _check_cells(6 * side * side)
        return Region(_shape_cells(lattice, name, side), lattice)
    _check_cells(count_marks(text))
    cells = [cell for cell, _ in lattice.parse_picture(text)]
    if not cells:
        raise ParseError("the region picture has no cells")
    return Region(cells, lattice)


def _shape_cells(lattice: Lattice, name: str, side: int) -> list[Cell]:
    """The cells of a triangle (``tri``) or a hexagon (``hex``) of ``side`` cells a side.

    A cell belongs when its centre does; centres are tested on three times
    the ``(e1, e2)`` coordinates, where they are whole numbers. The triangle
    points up; the hexagon is centred on a vertex (triangles) or a hexagon.
    """
    if lattice.name == "hex":
        reach = side - 1
        if name == "tri":
            return [(q, r) for q in range(side) for r in range(side) if q + r <= reach]
        return [
            (q, r)
            for q in range(-reach, reach + 1)
            for r in range(-reach, reach + 1)
            if abs(q + r) <= reach
        ]
    span = range(-side, side + 1)
    found = []
    for x in span:
        for y in span:
            for t in (0, 1):
                u, v = 3 * x + 1 + t, 3 * y + 1 + t
                if name == "tri":
                    # The triangle with corners side * e1, side * e2, side * (e1 + e2): a △.
                    inside = 3 * side >= u > 0 and 3 * side >= v > 0 and u + v > 3 * side
                else:
                    inside = abs(u) <= 3 * side and abs(v) <= 3 * side and abs(u + v) <= 3 * side
                if inside:
                    found.append((x, y, t))
    return found


# -- region -------------------------------------------------------------------------


class Symmetry:
    """A lattice symmetry mapping a region onto itself: ``cell -> transform(cell) + offset``."""

    __slots__ = ("transform", "offset")  # a plain class: dataclasses cost 10 ms at start-up

    def __init__(self, transform: Transform, offset: Cell) -> None:
        object.__setattr__(self, "transform", transform)
        object.__setattr__(self, "offset", tuple(offset))

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("a Symmetry is immutable")

    def __reduce__(self) -> tuple:
        return Symmetry, (self.transform, self.offset)  # pickle through __init__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Symmetry):
            return NotImplemented
        return self.transform == other.transform and self.offset == other.offset

    def __hash__(self) -> int:
        return hash((self.transform, self.offset))

    def __repr__(self) -> str:
        return f"Symmetry({self.transform!r}, offset={self.offset})"

    @property
    def name(self) -> str:
        return self.transform.name

    @property
    def is_identity(self) -> bool:
        return self.transform.is_identity

    def __call__(self, cell: Sequence[int]) -> Cell:
        return tuple(a + b for a, b in zip(self.transform(cell), self.offset))

    def apply(self, cells: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
        """Images of ``cells``, sorted."""
        return tuple(sorted(self(c) for c in cells))


def _check_cells(count: int) -> None:
    if count > MAX_REGION_CELLS:
        raise TooLargeError(
            f"a region of {count:,} cells is beyond the limit of {MAX_REGION_CELLS:,} cells"
        )


class Region:
    """An immutable set of cells to tile, in normal position (each axis starts at 0).

    Parameters
    ----------
    cells : iterable of tuples of int
        The cells; all 2D or all 3D. Holes and several components are allowed.

    Examples
    --------
    >>> r = Region.parse("3x4")
    >>> r.size, r.dim, r.shape
    (12, 2, (4, 3))
    >>> len(r.symmetries())
    4
    >>> len(Region.parse("8x8").symmetries())
    8
    """

    def __init__(
        self, cells: Iterable[Sequence[int]], lattice: Lattice | str | None = None
    ) -> None:
        check_cell = as_cell if lattice is None else find_lattice(lattice).as_cell
        try:
            cells = [check_cell(c) for c in cells]
        except TypeError as error:
            if isinstance(error, PolyformError):
                raise
            raise WrongTypeError(f"a region is made of cells, not {type(cells).__name__}") from None
        _check_cells(len(cells))
        if not cells:
            raise TilingError("the region has no cells")
        if lattice is None:
            dims = {len(c) for c in cells}
            try:
                lattice = of_dimension(dims.pop() if len(dims) == 1 else None)
            except PolyformError:
                raise TilingError("region cells must all be 2D or all 3D") from None
        else:
            lattice = find_lattice(lattice)
        self.lattice: Lattice = lattice
        self.cells: tuple[Cell, ...] = lattice.normalise(set(cells))
        self.dim = lattice.dimension

    @classmethod
    def box(cls, *sides: int) -> Region:
        """The box ``H x W`` (rows, columns) or ``H x W x D`` (D layers)."""
        if len(sides) not in (2, 3) or any(s < 1 for s in sides):
            raise TilingError(f"a box needs 2 or 3 positive sides, not {sides}")
        _check_cells(math.prod(sides))
        h, w = sides[0], sides[1]
        layers = range(sides[2]) if len(sides) == 3 else [None]
        return cls(
            (x, y) if z is None else (x, y, z) for z in layers for y in range(h) for x in range(w)
        )

    @classmethod
    def parse(cls, text: str, lattice: Lattice | str | None = None) -> Region:
        """A box written ``HxW`` / ``HxWxD``, a shape by name, or an ASCII picture.

        In a picture a cell is ``#`` or any letter or digit, outside is ``.`` or a
        space; 3D pictures give z-layers separated by a line holding ``--``.

        On the triangular and the hexagonal lattice (``lattice``) ``HxW`` is a
        parallelogram of H rows of W rhombi (two triangles each) or hexagons;
        ``tri:N`` and ``hex:N`` are a triangle and a hexagon of side N; a picture
        is read as :mod:`polyforms.lattice.hexagonal` describes.

        Raises
        ------
        ParseError
            A bad character (with line and column), or no cells.
        TooLargeError
            More than :data:`~polyforms.limits.MAX_REGION_CELLS` cells, told
            before the picture is read.
        """
        if lattice is not None and find_lattice(lattice).name in _SHAPES:
            return _plane_region(text, find_lattice(lattice))
        match = _BOX.match(text)
        if match:
            sides = [g for g in match.groups() if g is not None]
            for side in sides:  # no int() of thousands of digits (Python refuses 4,301)
                if len(side.lstrip("0")) > 12:
                    raise TooLargeError(
                        f"a box of side {shorten(side, 20)} is beyond the limit of "
                        f"{MAX_REGION_CELLS:,} cells"
                    )
            return cls.box(*map(int, sides))
        _check_cells(count_marks(text))  # before a tuple is made for each cell
        cells = [cell for cell, _ in parse_picture(text)]
        if not cells:
            raise ParseError("the region picture has no cells")
        return cls(cells)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Region)
            and self.cells == other.cells
            and self.lattice is other.lattice
        )

    def __hash__(self) -> int:
        return hash(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self._cell_set

    def __repr__(self) -> str:
        if self.lattice.name in ("square", "cube"):
            return f"Region(<{self.size} cells, {self.dim}D>)"
        return f"Region(<{self.size} cells, {self.lattice.name}>)"

    def __str__(self) -> str:
        return self.to_ascii()

    @cached_property
    def _cell_set(self) -> frozenset[Cell]:
        return frozenset(self.cells)

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def shape(self) -> tuple[int, ...]:
        """Extent along each axis (x, y[, z])."""
        return tuple(max(c) + 1 for c in zip(*self.cells))

    @cached_property
    def components(self) -> list[tuple[Cell, ...]]:
        """The connected parts of the region, each sorted, in the order of their least cell."""
        return self.lattice.components(self.cells)

    def symmetries(self) -> list[Symmetry]:
        """The lattice symmetries mapping the region onto itself (identity first).

        Each is a point-group element followed by the translation that takes
        the image back onto the region: the one taking the image's least cell
        to the region's.
        """
        lattice = self.lattice
        extent = [max(column) - min(column) for column in zip(*self.cells)]
        found = []
        for transform in lattice.candidate_symmetries(extent):
            image = transform.apply(self.cells)
            if lattice.normalise(image) == self.cells:
                offset = tuple(a - b for a, b in zip(self.cells[0], min(image)))
                found.append(Symmetry(transform, offset))
        return found

    def _repr_svg_(self) -> str | None:
        from .draw.plane import region_svg

        try:
            return region_svg(self)
        except TooLargeError:  # beyond the limits of a drawing: the notebook shows the text
            return None

    def to_ascii(self, marks: Mapping[Cell, str] | None = None) -> str:
        """Draw the region (``#``) or a labelling of its cells; 3D layers joined by ``--``.

        A cell that ``marks`` leaves out shows ``?``. Unlike
        :meth:`polyforms.Polyform.to_ascii`, a flat 3D region has no ``--``.
        """
        if marks is None:
            labels = dict.fromkeys(self.cells, "#")
        else:
            labels = dict(zip(self.cells, map(marks.get, self.cells, repeat("?"))))
        layers = self.lattice.picture_layers(labels, grid=self._picture_grid)
        return f"\n{LAYER_BREAK}\n".join("\n".join(rows) for rows in layers)

    @cached_property
    def _picture_grid(self) -> list[list[tuple[Cell, ...]]]:
        # Kept: a listing of tilings draws the region once per tiling.
        return self.lattice.picture_grid(self.cells)

"""The triangular and the hexagonal lattice: polyiamonds and polyhexes.

Both lattices are drawn on the same plane grid, spanned on the page by

* ``e1``: one step to the right, and
* ``e2``: one step down and half a step to the right (60 degrees from ``e1``,
  ``y`` being down the page),

and share its twelve symmetries fixing the origin, written as integer
matrices on the ``(e1, e2)`` coordinates.

Cells
-----
``HEX``: a hexagon is ``(q, r)``, its centre at ``q * e1 + r * e2`` (*axial
coordinates*). Hexagons are "pointy-top": the row ``r`` is a horizontal row
of hexagons, and the next row is set half a hexagon to the right. The six
neighbours of ``(q, r)`` are ``(q ± 1, r)``, ``(q, r ± 1)``, ``(q + 1, r - 1)``
and ``(q - 1, r + 1)``.

``TRIANGLE``: the rhombus at ``(x, y)`` has corners ``P = x * e1 + y * e2``,
``P + e1``, ``P + e2`` and ``P + e1 + e2``; its short diagonal cuts it into two
triangles, ``(x, y, 0)`` with corners ``P, P + e1, P + e2`` (a flat top, the
point down: ▽) and ``(x, y, 1)`` with corners ``P + e1, P + e1 + e2, P + e2``
(a flat bottom, the point up: △). These are Knuth's ``xy`` and ``xy'``
(POLYIAMOND-DLX). A translation moves ``x`` and ``y`` and keeps the third
coordinate. ``(x, y, 0)`` meets ``(x, y, 1)``, ``(x - 1, y, 1)`` and
``(x, y - 1, 1)``; ``(x, y, 1)`` meets ``(x, y, 0)``, ``(x + 1, y, 0)`` and
``(x, y + 1, 0)``.

Symmetries
----------
Twelve: ``rotateA`` turns by ``A`` degrees (60 to 300), clockwise as the page
shows it, like the square lattice's ``rotate90``; ``mirrorA`` reflects in the
line through the origin at ``A`` degrees (0, 30, ..., 150) below the ``x`` axis
of the page. ``mirror0``, ``mirror60`` and ``mirror120`` lie along the grid's
lines (the rows of hexagons, the sides of triangles); ``mirror30``,
``mirror90`` and ``mirror150`` cross them at right angles.

Symmetry classes
----------------
A shape's class is the conjugacy class of its stabiliser in the group of the
hexagon (the dihedral group of order 12), as the literature on polyiamonds
and polyhexes lists them: ``none`` (C1), ``axis-mirror`` and
``diagonal-mirror`` (D1, one mirror along or across the grid's lines),
``rotation-180`` (C2), ``two-mirrors`` (D2), ``rotation-120`` (C3),
``axis-mirrors`` and ``diagonal-mirrors`` (D3, three mirrors along or across
the lines), ``rotation-60`` (C6) and ``full`` (D6).

Pictures
--------
One text line a row (``y`` or ``r``); the column of a cell is ``2x + y + t``
(triangles) or ``2q + r`` (hexagons), so each row sits one character right of
the row above, as on the page. For triangles every character is a cell: the
one at column ``c`` of line ``l`` (from 0) is ▽ when ``c + l`` is even and △
when it is odd; a ▽ meets the cell above it, a △ the cell below it, and both
meet their left and right neighbours. For hexagons every other character is a
cell and the others are spaces: ::

    triangles (a hexiamond)      hexagons (a tetrahex)
      ###.                          # #
      .###                           # #
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property

from ..errors import ParseError, PolyformError
from .base import Cell, Lattice, Transform, Vertex
from .pictures import read_picture

__all__ = ["HEX", "HEXAGONAL_SYMMETRY_CLASSES", "TRIANGLE", "HexagonalLattice", "TriangularLattice"]

_SQRT3 = 3**0.5

# The rotation by 60 degrees and the mirror in the x axis, on (e1, e2)
# coordinates: e1 -> e2, e2 -> e2 - e1; and e1 -> e1, e2 -> e1 - e2.
_ROTATE60 = ((0, -1), (1, 1))
_MIRROR0 = ((1, 1), (0, -1))


def _product(a, b):
    return tuple(
        tuple(sum(a[i][k] * b[k][j] for k in range(2)) for j in range(2)) for i in range(2)
    )


def _hexagonal_group() -> list[tuple[str, tuple[tuple[int, int], tuple[int, int]]]]:
    """The twelve matrices, named: rotations by 0, 60, ..., 300, then mirrors at 0, 30, ..., 150.

    A rotation by ``2A`` after the mirror at 0 is the mirror at ``A``.
    """
    rotations = [((1, 0), (0, 1))]
    for _ in range(5):
        rotations.append(_product(_ROTATE60, rotations[-1]))
    named = [("identity", rotations[0])]
    named += [(f"rotate{60 * k}", rotations[k]) for k in range(1, 6)]
    named += [(f"mirror{30 * k}", _product(rotations[k], _MIRROR0)) for k in range(6)]
    return named


#: The symmetry classes of polyiamonds and polyhexes, named by the stabiliser
#: (its group in Schoenflies notation, and which mirrors it has).
HEXAGONAL_SYMMETRY_CLASSES = {
    "none": "C1",
    "axis-mirror": "D1, a mirror along the grid's lines",
    "diagonal-mirror": "D1, a mirror across the grid's lines",
    "rotation-180": "C2",
    "two-mirrors": "D2",
    "rotation-120": "C3",
    "axis-mirrors": "D3, three mirrors along the grid's lines",
    "diagonal-mirrors": "D3, three mirrors across the grid's lines",
    "rotation-60": "C6",
    "full": "D6",
}

_AXIS = frozenset({"mirror0", "mirror60", "mirror120"})
_DIAGONAL = frozenset({"mirror30", "mirror90", "mirror150"})


class PlaneTransform(Transform):
    """A symmetry of the triangular or hexagonal lattice: a matrix on ``(e1, e2)``.

    Hexagons move by the matrix; a triangle moves as three times its centre
    does, which is a point of the grid (:meth:`TriangularLattice.triangle_at`).
    """

    __slots__ = ("_lattice_name",)
    __module__ = "polyforms.lattice"

    def __init__(self, name: str, matrix, lattice_name: str) -> None:
        super().__init__(name, matrix)
        object.__setattr__(self, "_lattice_name", lattice_name)

    def __reduce__(self) -> tuple:
        return PlaneTransform, (self.name, self.matrix, self._lattice_name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transform):
            return NotImplemented
        return (
            isinstance(other, PlaneTransform)
            and self._lattice_name == other._lattice_name
            and self.name == other.name
        )

    def __hash__(self) -> int:
        return hash((self._lattice_name, self.name))

    @property
    def lattice(self) -> Lattice:
        from . import lattice

        return lattice(self._lattice_name)

    def __call__(self, cell: Sequence[int]) -> Cell:
        (a, b), (c, d) = self.matrix
        if self._lattice_name == "hex":
            q, r = cell
            return (a * q + b * r, c * q + d * r)
        x, y, t = cell
        u, v = 3 * x + 1 + t, 3 * y + 1 + t  # three times the centre
        return TriangularLattice.triangle_at(a * u + b * v, c * u + d * v)

    def apply(self, cells: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
        # __call__ written out over the cells: catalogues take every polyform's
        # twelve images.
        (a, b), (c, d) = self.matrix
        if self._lattice_name == "hex":
            return tuple([(a * q + b * r, c * q + d * r) for q, r in cells])
        at = TriangularLattice.triangle_at
        return tuple(
            [
                at(
                    a * (3 * x + 1 + t) + b * (3 * y + 1 + t),
                    c * (3 * x + 1 + t) + d * (3 * y + 1 + t),
                )
                for x, y, t in cells
            ]
        )

    def __repr__(self) -> str:
        return f"Transform({self.name!r}, {self._lattice_name})"


class _HexagonalFamily(Lattice):
    """What the triangular and the hexagonal lattice share: the group, its classes, the page."""

    def __init__(self, name: str, coordinates: int) -> None:
        super().__init__(name, 2, coordinates, tuple(HEXAGONAL_SYMMETRY_CLASSES))

    def _point_group(self) -> tuple[Transform, ...]:
        return tuple(PlaneTransform(name, matrix, self.name) for name, matrix in _hexagonal_group())

    def symmetry_class(self, stabiliser: Iterable[Transform]) -> str:
        """One of :data:`HEXAGONAL_SYMMETRY_CLASSES`, from the stabiliser's names.

        Examples
        --------
        >>> HEX.symmetry_class([HEX.transforms[0], HEX.transform("rotate120")])
        'rotation-120'
        """
        names = {t.name for t in stabiliser}
        if len(names) == 12:
            return "full"
        if "rotate60" in names:
            return "rotation-60"
        if "rotate120" in names:
            if _AXIS <= names:
                return "axis-mirrors"
            if _DIAGONAL <= names:
                return "diagonal-mirrors"
            return "rotation-120"
        if "rotate180" in names:
            return "two-mirrors" if names & (_AXIS | _DIAGONAL) else "rotation-180"
        if names & _AXIS:
            return "axis-mirror"
        if names & _DIAGONAL:
            return "diagonal-mirror"
        return "none"

    # -- pictures ---------------------------------------------------------------------

    def picture_layers(
        self,
        marks: Mapping[Cell, str],
        empty: str = ".",
        grid: list[list[tuple[Cell, ...]]] | None = None,
    ) -> list[list[str]]:
        # A position that is no cell (None in the grid) is a space; rows lose
        # their trailing spaces so that pictures diff cleanly.
        get = marks.get
        rows = self.picture_grid(marks) if grid is None else grid
        return [
            [
                "".join(" " if at is None else get(at, empty) for at in row).rstrip(" ")
                for row in layer
            ]
            for layer in rows
        ]

    def picture_grid(self, cells: Iterable[Cell]) -> list[list[tuple[Cell | None, ...]]]:
        """Rows of positions from the least row to the greatest; ``None`` where no cell is.

        Each lattice places a cell at a column (``_column``) and says which
        cell a position holds (``_cell_at``).
        """
        cells = list(cells)
        if not cells:
            return [[]]
        rows = [cell[1] for cell in cells]
        columns = [self._column(cell) for cell in cells]
        top, bottom = min(rows), max(rows)
        # The picture's first line and column stand for the row ``top`` and the
        # column ``low_column``: their difference is even, so that a position's
        # parity (line + column) in the picture is its parity in the plane.
        low_column = min(columns) - (min(columns) - top) % 2
        width = max(columns) - low_column + 1
        return [
            [
                tuple(self._cell_at(low_column + i, row) for i in range(width))
                for row in range(top, bottom + 1)
            ]
        ]


class HexagonalLattice(_HexagonalFamily):
    """The lattice of polyhexes: a hexagon ``(q, r)`` in axial coordinates.

    Vertices are counted in thirds of ``e1`` and ``e2``: the hexagon's centre
    is the vertex ``(3q, 3r)`` and its corners lie around it.
    """

    # The corners round a hexagon, clockwise on the page from the top, in
    # thirds of (e1, e2); and the neighbour across the side that starts there.
    _CORNERS = ((1, -2), (2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1))
    _ACROSS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))

    def __init__(self) -> None:
        super().__init__("hex", 2)

    @cached_property
    def _frame(self) -> tuple[Cell, ...]:
        return ((1, 0), (0, 1))

    def neighbours(self, cell: Sequence[int]) -> tuple[Cell, ...]:
        """``(q - 1, r), (q + 1, r), (q, r - 1), (q, r + 1), (q + 1, r - 1), (q - 1, r + 1)``."""
        q, r = cell
        return (q - 1, r), (q + 1, r), (q, r - 1), (q, r + 1), (q + 1, r - 1), (q - 1, r + 1)

    def translate(self, cells: Iterable[Sequence[int]], vector: Sequence[int]) -> tuple[Cell, ...]:
        dq, dr = vector
        return tuple([(q + dq, r + dr) for q, r in cells])

    def normalise(self, cells: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
        # Lattice.normalise written out for two coordinates (catalogues call it
        # for every image of every polyform).
        cells = list(cells)
        if not cells:
            return ()
        lq = min([q for q, _ in cells])
        lr = min([r for _, r in cells])
        return tuple(sorted([(q - lq, r - lr) for q, r in cells]))

    def _column(self, cell: Cell) -> int:
        return 2 * cell[0] + cell[1]

    @staticmethod
    def _cell_at(column: int, row: int) -> Cell | None:
        return ((column - row) // 2, row) if (column - row) % 2 == 0 else None

    def parse_picture(self, text: str) -> list[tuple[Cell, str]]:
        """Read hexagons: every other character of a line, each line one to the right.

        The first mark fixes which characters are cells; a mark between two
        cells is a ParseError naming its line and column.

        Examples
        --------
        >>> HEX.parse_picture(" A B\\nA B")
        [((0, 0), 'A'), ((1, 0), 'B'), ((-1, 1), 'A'), ((0, 1), 'B')]
        """
        pairs = read_picture(text, layered=False)
        if not pairs:
            return []
        (column0, line0), _ = pairs[0]
        parity = (column0 + line0) % 2
        found = []
        for (column, line), mark in pairs:
            if (column + line) % 2 != parity:
                raise ParseError(
                    f"line {line + 1}, column {column + 1}: {mark!r} lies between two "
                    "hexagons (a hexagon is every other character, each line one to the right)"
                )
            found.append((((column - line - parity) // 2, line), mark))
        return found

    def cell_edges(self, cell: Cell) -> tuple[tuple[Vertex, Vertex, Cell], ...]:
        q, r = cell
        cq, cr = 3 * q, 3 * r
        corners = [(cq + a, cr + b) for a, b in self._CORNERS]
        return tuple(
            (corners[i], corners[(i + 1) % 6], (q + dq, r + dr))
            for i, (dq, dr) in enumerate(self._ACROSS)
        )

    def to_page(self, vertex: Vertex) -> tuple[float, float]:
        # Thirds of e1 and e2, with the hexagon's edge as the unit: e1 is sqrt(3) long.
        a, b = vertex
        return (_SQRT3 * (2 * a + b) / 6, b / 2)

    def cell_centre(self, cell: Cell) -> tuple[float, float]:
        return self.to_page((3 * cell[0], 3 * cell[1]))

    def cell_anchor(self, cell: Cell) -> tuple[float, float]:
        return self.cell_centre(cell)


class TriangularLattice(_HexagonalFamily):
    """The lattice of polyiamonds: a triangle ``(x, y, t)``, ``t`` 0 for ▽ and 1 for △.

    Vertices are the grid's points ``(x, y)``: the corners of the triangles.
    """

    def __init__(self) -> None:
        super().__init__("triangle", 3)

    @cached_property
    def _frame(self) -> tuple[Cell, ...]:
        # Two triangles whose centres span the plane tell the twelve apart.
        return ((0, 0, 0), (1, 0, 0))

    @property
    def fundamental(self) -> tuple[Cell, ...]:
        return ((0, 0, 0), (0, 0, 1))

    @staticmethod
    def triangle_at(u: int, v: int) -> Cell:
        """The triangle whose centre is ``(u / 3, v / 3)`` on ``(e1, e2)``."""
        t = u % 3 - 1
        return ((u - 1 - t) // 3, (v - 1 - t) // 3, t)

    def neighbours(self, cell: Sequence[int]) -> tuple[Cell, ...]:
        """▽ ``(x, y, 0)``: ``(x, y, 1), (x - 1, y, 1), (x, y - 1, 1)``; △: the reverse."""
        x, y, t = cell
        if t:
            return (x, y, 0), (x + 1, y, 0), (x, y + 1, 0)
        return (x, y, 1), (x - 1, y, 1), (x, y - 1, 1)

    def translate(self, cells: Iterable[Sequence[int]], vector: Sequence[int]) -> tuple[Cell, ...]:
        dx, dy = vector[0], vector[1]
        return tuple([(x + dx, y + dy, t) for x, y, t in cells])

    def normalise(self, cells: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
        # Lattice.normalise written out for (x, y, t) (catalogues call it for
        # every image of every polyform).
        cells = list(cells)
        if not cells:
            return ()
        lx = min([x for x, _, _ in cells])
        ly = min([y for _, y, _ in cells])
        return tuple(sorted([(x - lx, y - ly, t) for x, y, t in cells]))

    def as_cell(self, cell: object, limit: int = 1_000_000) -> Cell:
        found = super().as_cell(cell, limit)
        if found[2] not in (0, 1):
            raise PolyformError(
                f"a triangle's third coordinate is 0 (▽) or 1 (△), not {found[2]}: {found}"
            )
        return found

    def _column(self, cell: Cell) -> int:
        return 2 * cell[0] + cell[1] + cell[2]

    @staticmethod
    def _cell_at(column: int, row: int) -> Cell:
        t = (column - row) % 2
        return ((column - row - t) // 2, row, t)

    def parse_picture(self, text: str) -> list[tuple[Cell, str]]:
        """Read triangles: each character a cell, ▽ where line + column is even.

        Lines and columns count from 0 at the first line that is not blank.

        Examples
        --------
        >>> TRIANGLE.parse_picture("AB\\n.B")
        [((0, 0, 0), 'A'), ((0, 0, 1), 'B'), ((0, 1, 0), 'B')]
        """
        pairs = read_picture(text, layered=False)
        return [(self._cell_at(column, line), mark) for (column, line), mark in pairs]

    def cell_edges(self, cell: Cell) -> tuple[tuple[Vertex, Vertex, Cell], ...]:
        x, y, t = cell
        if t:
            return (
                ((x + 1, y), (x + 1, y + 1), (x + 1, y, 0)),
                ((x + 1, y + 1), (x, y + 1), (x, y + 1, 0)),
                ((x, y + 1), (x + 1, y), (x, y, 0)),
            )
        return (
            ((x, y), (x + 1, y), (x, y - 1, 1)),
            ((x + 1, y), (x, y + 1), (x, y, 1)),
            ((x, y + 1), (x, y), (x - 1, y, 1)),
        )

    def to_page(self, vertex: Vertex) -> tuple[float, float]:
        a, b = vertex
        return (a + b / 2, b * _SQRT3 / 2)

    def cell_centre(self, cell: Cell) -> tuple[float, float]:
        x, y, t = cell
        return self.to_page((x + (1 + t) / 3, y + (1 + t) / 3))  # type: ignore[arg-type]

    def cell_anchor(self, cell: Cell) -> tuple[float, float]:
        return self.cell_centre(cell)


# -- the instances --------------------------------------------------------------------

#: The triangular lattice: polyiamonds.
TRIANGLE = TriangularLattice()
#: The hexagonal lattice: polyhexes.
HEX = HexagonalLattice()

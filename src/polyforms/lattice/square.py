"""The square and the cubic lattice: unit squares and unit cubes at integer corners.

:class:`HypercubicLattice` holds what the two share (signed permutations for
a point group, the axis neighbours, normal position by each coordinate's
minimum, rectangular pictures); :class:`SquareLattice` and
:class:`CubicLattice` add their symmetry classes, pictures and shapes.
:data:`SQUARE` and :data:`CUBE` are the instances every module uses.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from itertools import repeat
from operator import add

from ..errors import UnknownNameError
from .base import Cell, Lattice, Line, Transform, Vertex, determinant
from .pictures import LAYER_BREAK, read_picture

__all__ = [
    "CUBE",
    "SQUARE",
    "SQUARE_SYMMETRY_CLASSES",
    "CubicLattice",
    "HypercubicLattice",
    "SquareLattice",
]


class HypercubicLattice(Lattice):
    """The lattice of unit squares or unit cubes: a cell is its integer corner ``(x, y[, z])``.

    The point group is the signed permutation matrices. Translating, stepping
    to a neighbour and reading a picture do not depend on the dimension here,
    so :func:`polyforms.geometry.normalise` and
    :func:`polyforms.geometry.neighbours` are this class's own static methods.
    """

    def __init__(self, name: str, dimension: int, symmetry_classes: tuple) -> None:
        super().__init__(name, dimension, dimension, symmetry_classes)
        self._signed: dict[str, tuple[tuple[Cell, Cell], ...]] = {}

    @staticmethod
    def neighbours(cell: Sequence[int]) -> Iterator[Cell]:
        """The ``2 * len(cell)`` cells one unit step away along an axis: ``-x, +x, -y, ...``."""
        cell = tuple(cell)
        for axis in range(len(cell)):
            # Slices of the tuple around the axis: no Python loop over coordinates.
            before, value, after = cell[:axis], cell[axis], cell[axis + 1 :]
            yield before + (value - 1,) + after
            yield before + (value + 1,) + after

    @staticmethod
    def normalise(cells: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
        """Translate ``cells`` so every coordinate's minimum is 0, and sort.

        Examples
        --------
        >>> SQUARE.normalise([(3, 5), (2, 5), (2, 6)])
        ((0, 0), (0, 1), (1, 0))
        """
        cells = list(cells)
        if not cells:
            return ()
        lows = [min(column) for column in zip(*cells)]
        return tuple(sorted(tuple(c - low for c, low in zip(cell, lows)) for cell in cells))

    def translate(self, cells: Iterable[Sequence[int]], vector: Sequence[int]) -> tuple[Cell, ...]:
        return tuple(tuple(map(add, cell, vector)) for cell in cells)

    @cached_property
    def _frame(self) -> tuple[Cell, ...]:
        # The unit vectors: their images are the columns of the matrix.
        axes = range(self.dimension)
        return tuple(tuple(int(i == j) for j in axes) for i in axes)

    def signed_permutations(self, kind: str) -> tuple[tuple[Cell, Cell], ...]:
        """The group of ``kind`` as ``(perm, signs)`` pairs.

        See :func:`polyforms.geometry.signed_permutations`; built once per kind.
        """
        if kind not in self._signed:
            group = []
            for transform in self.group(kind):
                # Each row of a signed permutation matrix has one non-zero entry.
                entries = (next((j, v) for j, v in enumerate(row) if v) for row in transform.matrix)
                perm, signs = zip(*entries)
                group.append((perm, signs))
            self._signed[kind] = tuple(group)
        return self._signed[kind]

    def candidate_symmetries(self, extent: Sequence[int]) -> list[Transform]:
        """The symmetries that keep the bounding box's extents (a 3x4x5 box: 8 of the 48)."""
        extent = list(extent)
        return [
            t
            for t in self.transforms
            if [sum(abs(a) * e for a, e in zip(row, extent)) for row in t.matrix] == extent
        ]

    # -- pictures ---------------------------------------------------------------------

    def picture_grid(self, cells: Iterable[Cell]) -> list[list[tuple[Cell, ...]]]:
        """``x`` along a row, ``y`` down the rows, one layer per ``z``."""
        columns = list(zip(*cells))
        if not columns:
            return [[]]
        xs, ys = (range(min(c), max(c) + 1) for c in columns[:2])
        if self.dimension == 2:
            return [[tuple(zip(xs, repeat(y))) for y in ys]]
        return [
            [tuple(zip(xs, repeat(y), repeat(z))) for y in ys]
            for z in range(min(columns[2]), max(columns[2]) + 1)
        ]


# The square lattice: (x, y) with x to the right and y down the page, as the
# ASCII pictures are read. Names describe the effect on a picture.
_SQUARE = (
    ("identity", ((1, 0), (0, 1))),
    ("rotate90", ((0, -1), (1, 0))),
    ("rotate180", ((-1, 0), (0, -1))),
    ("rotate270", ((0, 1), (-1, 0))),
    ("mirror-vertical", ((-1, 0), (0, 1))),  # left-right flip about a vertical axis
    ("mirror-horizontal", ((1, 0), (0, -1))),  # top-bottom flip about a horizontal axis
    ("mirror-diagonal", ((0, 1), (1, 0))),  # swap x and y
    ("mirror-antidiagonal", ((0, -1), (-1, 0))),
)

#: The eight symmetry classes of free polyominoes, named by the stabiliser in
#: the group of the square, with the OEIS sequence counting each (ORACLES.md).
SQUARE_SYMMETRY_CLASSES = {
    "none": "A006749",  # trivial stabiliser
    "axis-mirror": "A006746",  # one mirror axis parallel to the grid
    "diagonal-mirror": "A006748",  # one diagonal mirror axis
    "rotation-180": "A006747",  # half turn only
    "axis-mirrors": "A056877",  # two axis-parallel mirrors (and the half turn)
    "diagonal-mirrors": "A056878",  # two diagonal mirrors (and the half turn)
    "rotation-90": "A144553",  # quarter turns only
    "full": "A142886",  # all eight symmetries of the square
}

_AXIS_MIRRORS = frozenset({"mirror-vertical", "mirror-horizontal"})
_DIAGONAL_MIRRORS = frozenset({"mirror-diagonal", "mirror-antidiagonal"})


class SquareLattice(HypercubicLattice):
    """The square lattice of polyominoes: a cell ``(x, y)`` is the unit square at that corner."""

    def __init__(self) -> None:
        super().__init__("square", 2, tuple(SQUARE_SYMMETRY_CLASSES))

    def _point_group(self) -> tuple[Transform, ...]:
        return tuple(Transform(name, matrix) for name, matrix in _SQUARE)

    # neighbours and translate as HypercubicLattice's, written out for 2D:
    # drawings and Polyform's measures call them once per cell.
    def neighbours(self, cell: Sequence[int]) -> tuple[Cell, ...]:
        """``-x, +x, -y, +y``."""
        x, y = cell
        return (x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)

    def translate(self, cells: Iterable[Sequence[int]], vector: Sequence[int]) -> tuple[Cell, ...]:
        dx, dy = vector
        return tuple([(x + dx, y + dy) for x, y in cells])

    def symmetry_class(self, stabiliser: Iterable[Transform]) -> str:
        """One of the names of :data:`SQUARE_SYMMETRY_CLASSES`.

        Examples
        --------
        >>> SQUARE.symmetry_class([SQUARE.transforms[0], SQUARE.transform("rotate180")])
        'rotation-180'
        """
        names = {t.name for t in stabiliser}
        if len(names) == 8:
            return "full"
        if "rotate90" in names:
            return "rotation-90"
        if _AXIS_MIRRORS <= names:
            return "axis-mirrors"
        if _DIAGONAL_MIRRORS <= names:
            return "diagonal-mirrors"
        if "rotate180" in names:
            return "rotation-180"
        if names & _AXIS_MIRRORS:
            return "axis-mirror"
        if names & _DIAGONAL_MIRRORS:
            return "diagonal-mirror"
        return "none"

    def parse_symmetry_class(self, value: object) -> str:
        if value not in SQUARE_SYMMETRY_CLASSES:
            raise UnknownNameError(
                f"unknown symmetry class {str(value)[:40]!r}; "
                f"choose one of {', '.join(SQUARE_SYMMETRY_CLASSES)}"
            )
        return str(value)

    def parse_picture(self, text: str) -> list[tuple[Cell, str]]:
        """Read a one-layer picture; blank lines before and after are ignored.

        Examples
        --------
        >>> SQUARE.parse_picture("A.\\nAB")
        [((0, 0), 'A'), ((0, 1), 'A'), ((1, 1), 'B')]
        """
        return read_picture(text, layered=False)

    # A cell is the unit square with its least corner at the cell: vertices
    # are the page's own points, and the sides go clockwise from the top.
    def cell_polygon(self, cell: Cell) -> tuple[Vertex, ...]:
        x, y = cell
        return ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))

    def cell_edges(self, cell: Cell) -> tuple[tuple[Vertex, Vertex, Cell], ...]:
        x, y = cell
        return (
            ((x, y), (x + 1, y), (x, y - 1)),
            ((x + 1, y), (x + 1, y + 1), (x + 1, y)),
            ((x + 1, y + 1), (x, y + 1), (x, y + 1)),
            ((x, y + 1), (x, y), (x - 1, y)),
        )

    def sides(
        self, cells: Iterable[Cell]
    ) -> tuple[list[tuple[Vertex, Vertex]], list[tuple[Line, Vertex, Vertex]]]:
        # The sides of cell_edges, written out: a side is built only when it is
        # kept, and the top and left sides are the only inner ones taken (they
        # run from their lesser end). Catalogues and tilings draw thousands of cells.
        filled = set(cells)
        outer: list[tuple[Vertex, Vertex]] = []
        inner: list[tuple[Line, Vertex, Vertex]] = []
        for x, y in filled:
            if (x, y - 1) in filled:
                inner.append((((1, 0), y), (x, y), (x + 1, y)))
            else:
                outer.append(((x, y), (x + 1, y)))
            if (x + 1, y) in filled:
                inner.append((((0, 1), x + 1), (x + 1, y), (x + 1, y + 1)))
            else:
                outer.append(((x + 1, y), (x + 1, y + 1)))
            if (x, y + 1) not in filled:
                outer.append(((x + 1, y + 1), (x, y + 1)))
            if (x - 1, y) not in filled:
                outer.append(((x, y + 1), (x, y)))
        return outer, inner

    def to_page(self, vertex: Vertex) -> tuple[float, float]:
        return vertex

    def page_box(self, cells: Iterable[Cell]) -> tuple[tuple[float, float], tuple[float, float]]:
        xs, ys = zip(*cells)  # the squares' corners reach one further than the cells
        return (min(xs), min(ys)), (max(xs) + 1 - min(xs), max(ys) + 1 - min(ys))

    def cell_centre(self, cell: Cell) -> tuple[float, float]:
        return cell[0] + 0.5, cell[1] + 0.5

    def cell_anchor(self, cell: Cell) -> tuple[float, float]:
        return cell[0], cell[1]


def _cubic() -> tuple[Transform, ...]:
    """The 48 signed permutations of (x, y, z): identity, other rotations, reflections."""
    axes = "xyz"
    found = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            matrix = tuple(
                tuple(signs[i] if j == perm[i] else 0 for j in range(3)) for i in range(3)
            )
            name = ",".join(("-" if signs[i] < 0 else "") + axes[perm[i]] for i in range(3))
            found.append((name, matrix))
    identity = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    found.sort(key=lambda item: (item[1] != identity, determinant(item[1]) != 1, item[0]))
    return tuple(Transform(name, matrix) for name, matrix in found)


class CubicLattice(HypercubicLattice):
    """The cubic lattice of polycubes: a cell ``(x, y, z)`` is the unit cube at that corner.

    A symmetry class is the order of the stabiliser, one of the orders of the
    subgroups of the cube's 48 symmetries.
    """

    def __init__(self) -> None:
        super().__init__("cube", 3, (1, 2, 3, 4, 6, 8, 12, 16, 24, 48))

    def _point_group(self) -> tuple[Transform, ...]:
        return _cubic()

    def symmetry_class(self, stabiliser: Iterable[Transform]) -> int:
        return len({t.name for t in stabiliser})

    def parse_symmetry_class(self, value: object) -> int:
        """The order of a group, from a number or ASCII digits."""
        text = str(value)
        if not (text.isascii() and text.isdigit()) or int(text) not in self.symmetry_classes:
            orders = ", ".join(map(str, self.symmetry_classes))
            raise UnknownNameError(
                f"a 3D symmetry class is the order of its group ({orders}), not {text[:40]!r}"
            )
        return int(text)

    def parse_picture(self, text: str) -> list[tuple[Cell, str]]:
        """Read z-layers separated by lines holding ``--``; lines of spaces are rows.

        A line of spaces keeps the layers aligned, so only empty lines before
        the first line and after the last one are ignored.
        """
        return read_picture(text, layered=True)

    def _stacked(self, layers: list[list[str]]) -> str:
        text = super()._stacked(layers)
        # A flat picture keeps one layer break so that it reads back as 3D.
        return text + f"\n{LAYER_BREAK}" if len(layers) == 1 else text

    def cell_faces(self, cell: Cell) -> tuple[tuple[Cell, tuple[Cell, ...]], ...]:
        """The six unit squares of the cube, in the order of :meth:`neighbours`.

        The corners of each face go round it along the lesser other axis
        first, then the greater.
        """
        x, y, z = cell
        return tuple(
            ((x + a, y + b, z + c), tuple([(x + u, y + v, z + w) for u, v, w in corners]))
            for (a, b, c), corners in self._faces_at_origin
        )

    @cached_property
    def _faces_at_origin(self) -> tuple[tuple[Cell, tuple[Cell, ...]], ...]:
        faces = []
        for axis in range(3):
            first, second = (a for a in range(3) if a != axis)
            for side in (0, 1):
                across = [0, 0, 0]
                across[axis] = 2 * side - 1
                corners = []
                for u, v in ((0, 0), (1, 0), (1, 1), (0, 1)):
                    corner = [0, 0, 0]
                    corner[axis], corner[first], corner[second] = side, u, v
                    corners.append(tuple(corner))
                faces.append((tuple(across), tuple(corners)))
        return tuple(faces)


# -- the instances --------------------------------------------------------------------

#: The square lattice of the plane: polyominoes.
SQUARE = SquareLattice()
#: The cubic lattice of space: polycubes.
CUBE = CubicLattice()

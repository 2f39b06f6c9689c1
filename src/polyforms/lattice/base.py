"""The interface of a lattice, and the cells every lattice shares.

:class:`Lattice` is what the ground floor asks (:mod:`polyforms.geometry`,
:class:`polyforms.Polyform`, :class:`polyforms.Region`) and what the drawings
ask: subclasses supply the cells' neighbours, the point group, the pictures
and the shapes, and everything else follows from those. :func:`as_cell`,
:func:`check_kind` and :func:`connected_parts` hold for every lattice.

Conventions every lattice keeps
-------------------------------
* A cell is a tuple of :attr:`Lattice.coordinates` integers. Its first
  :attr:`Lattice.dimension` entries place it in the lattice's group of
  translations: a translation adds to those and to no others. Further entries
  tell apart cells at the same place (a triangle's orientation).
* The point group is listed identity first, then the other rotations, then
  the reflections; each :class:`~polyforms.lattice.Transform` has a name, and
  the symmetry classes of the lattice are named after the transforms that fix
  a shape.
* Pictures are text: ``x`` along a line, ``y`` down the lines, as in
  :func:`polyforms.polyform.parse_picture` (:mod:`polyforms.lattice.pictures`).
* Drawings are in *drawing units*, a cell's edge being 1, with ``y`` down the
  page. A plane cell is a polygon whose corners are exact integer *vertices*
  of the lattice; :meth:`Lattice.to_page` places a vertex on the page.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from itertools import repeat

from ..errors import PolyformError, UnknownNameError, WrongTypeError
from .pictures import LAYER_BREAK

__all__ = [
    "KINDS",
    "Cell",
    "Lattice",
    "Line",
    "Transform",
    "Vertex",
    "as_cell",
    "check_kind",
    "connected_parts",
    "determinant",
]

#: A cell: a tuple of integer coordinates, as its lattice reads them.
Cell = tuple[int, ...]
Vertex = tuple[int, int]
"""A corner of a plane cell, in the lattice's integer vertex coordinates."""
Line = tuple[Vertex, int]
"""A straight line of vertices: its direction and where it lies across (:meth:`Lattice.sides`)."""

#: The kinds of polyform: fixed, one-sided (up to rotation), free (and reflection).
KINDS = ("fixed", "one-sided", "free")


def check_kind(kind: str) -> str:
    """Return ``kind`` if it is one of :data:`KINDS`, else raise UnknownNameError."""
    if kind not in KINDS:
        raise UnknownNameError(f"unknown kind {kind!r}; choose one of {', '.join(KINDS)}")
    return kind


def as_cell(cell: object, limit: int = 1_000_000) -> Cell:
    """A cell as a tuple of whole numbers, or a typed error naming what was wrong.

    ``1.0`` is taken as 1; ``0.5``, ``inf``, ``True`` and strings are refused,
    as are coordinates beyond ``limit`` (a million: no region or polyform is
    that wide). The number of coordinates is checked by :meth:`Lattice.as_cell`.

    Examples
    --------
    >>> as_cell([1, 2.0])
    (1, 2)
    """
    try:
        values = tuple(cell)  # type: ignore[arg-type]
    except TypeError:
        raise WrongTypeError(
            f"a cell is a sequence of coordinates, not {str(cell)[:40]!r}"
        ) from None
    found = []
    for value in values:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise WrongTypeError(f"cell coordinates must be whole numbers, not {str(value)[:40]!r}")
        if abs(value) > limit:
            raise PolyformError(f"cell coordinate {value} is beyond {limit:,}")
        found.append(value)
    return tuple(found)


# -- the lattice ----------------------------------------------------------------------


class Lattice(ABC):
    """A lattice of cells: cells, neighbours, point group, normal position, pictures, shapes.

    Subclasses supply the abstract methods; everything else follows from them.
    Instances are constants compared by identity; tables (the group, its
    products, the subgroups) are built on first use and kept on the instance.

    Parameters
    ----------
    name : str
        How :func:`lattice` finds it (``"square"``).
    dimension : int
        Of the space the cells fill (2 or 3), and the number of leading cell
        coordinates that a translation moves.
    coordinates : int
        Integers in a cell (``dimension`` unless a cell carries more, as a
        triangle's orientation).
    symmetry_classes : tuple
        The values :meth:`symmetry_class` gives, in the order they are listed.
    """

    def __init__(
        self, name: str, dimension: int, coordinates: int, symmetry_classes: tuple
    ) -> None:
        self.name = name
        self.dimension = dimension
        self.coordinates = coordinates
        self.symmetry_classes = symmetry_classes

    def __repr__(self) -> str:
        return f"<{self.name} lattice>"

    def __reduce__(self) -> tuple:
        # The registry is the package's (its __init__ imports this module first).
        from . import lattice

        return lattice, (self.name,)  # unpickles to the same constant

    # -- cells ------------------------------------------------------------------------

    @property
    def origin(self) -> Cell:
        """The cell at the origin (every coordinate 0)."""
        return (0,) * self.coordinates

    def as_cell(self, cell: object, limit: int = 1_000_000) -> Cell:
        """A cell of this lattice from any sequence of whole numbers (see :func:`as_cell`).

        Raises
        ------
        WrongTypeError, PolyformError
            Not whole numbers, too far out, or the wrong number of coordinates.
        """
        found = as_cell(cell, limit)
        if len(found) != self.coordinates:
            raise PolyformError(
                f"a cell of the {self.name} lattice has {self.coordinates} coordinates, "
                f"not {len(found)}: {str(found)[:40]}"
            )
        return found

    @abstractmethod
    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """The cells sharing an edge (a face in 3D) with ``cell``."""

    def components(self, cells: Iterable[Sequence[int]]) -> list[tuple[Cell, ...]]:
        """Split ``cells`` into connected parts, each sorted, in the order of their least cell."""
        return connected_parts(cells, self.neighbours)

    # -- translations -----------------------------------------------------------------

    @property
    def fundamental(self) -> tuple[Cell, ...]:
        """The cells one translation of the lattice holds: the origin (a triangle has two)."""
        return (self.origin,)

    def frame_cells(self, cells: Iterable[Sequence[int]], margin: int = 0) -> Iterator[Cell]:
        """Every cell at the translations of the box around ``cells``, widened by ``margin``.

        The box is of the translated coordinates; each of its translations
        brings the cells of :attr:`fundamental`.
        """
        columns = list(zip(*cells))[: self.dimension]
        ranges = [range(min(c) - margin, max(c) + margin + 1) for c in columns]
        # The fundamental cells sit at the zero translation: a cell of the frame
        # is a translation followed by a fundamental cell's other coordinates.
        rests = [cell[self.dimension :] for cell in self.fundamental]
        for vector in itertools.product(*ranges):
            for rest in rests:
                yield vector + rest

    def translate(self, cells: Iterable[Sequence[int]], vector: Sequence[int]) -> tuple[Cell, ...]:
        """Move every cell by ``vector`` (:attr:`dimension` entries); order kept."""
        places = len(vector)
        return tuple(
            tuple(c + v for c, v in zip(cell, vector)) + tuple(cell[places:]) for cell in cells
        )

    def normalise(self, cells: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
        """Translate ``cells`` to *normal position*, and sort.

        Normal position puts the least of each translated coordinate at 0;
        two sets of cells are translates of each other exactly when their
        normal positions are equal.
        """
        cells = [tuple(cell) for cell in cells]
        if not cells:
            return ()
        back = [-min(column) for column in itertools.islice(zip(*cells), self.dimension)]
        return tuple(sorted(self.translate(cells, back)))

    # -- the point group --------------------------------------------------------------

    @abstractmethod
    def _point_group(self) -> tuple[Transform, ...]:
        """Every symmetry fixing the origin: identity, other rotations, reflections."""

    @property
    @abstractmethod
    def _frame(self) -> tuple[Cell, ...]:
        """Cells whose images tell every two symmetries apart."""

    @cached_property
    def transforms(self) -> tuple[Transform, ...]:
        """The point group: identity first, then the other rotations, then the reflections."""
        return self._point_group()

    @cached_property
    def rotations(self) -> tuple[Transform, ...]:
        """The proper subgroup (orientation preserving), identity first."""
        return tuple(t for t in self.transforms if t.is_rotation)

    def group(self, kind: str = "free") -> tuple[Transform, ...]:
        """The symmetries that identify polyforms of ``kind``.

        ``fixed``: the identity only; ``one-sided``: :attr:`rotations`;
        ``free``: :attr:`transforms`.
        """
        found = self._groups.get(kind)
        if found is None:
            check_kind(kind)  # raises: every kind is a key
        return found

    @cached_property
    def _groups(self) -> dict[str, tuple[Transform, ...]]:
        return {"fixed": self.transforms[:1], "one-sided": self.rotations, "free": self.transforms}

    def transform(self, name: str) -> Transform:
        """The symmetry called ``name``, or UnknownNameError listing the names."""
        for candidate in self.transforms:
            if candidate.name == name:
                return candidate
        raise UnknownNameError(
            f"the {self.name} lattice has no symmetry {name!r}; "
            f"choose one of {', '.join(t.name for t in self.transforms)}"
        )

    @cached_property
    def _by_action(self) -> dict[tuple[Cell, ...], Transform]:
        return {tuple(t(cell) for cell in self._frame): t for t in self.transforms}

    def _element(self, action: tuple[Cell, ...]) -> Transform:
        found = self._by_action.get(action)
        if found is None:
            raise PolyformError(f"not a symmetry of the {self.name} lattice: {action}")
        return found

    def compose(self, first: Transform, second: Transform) -> Transform:
        """``first ∘ second`` (``second`` applied first), the group's own element.

        A symmetry is known by where it takes the cells of :attr:`_frame`,
        so the product is found by applying both to those cells.
        """
        return self._element(tuple(first(second(cell)) for cell in self._frame))

    def inverse(self, transform: Transform) -> Transform:
        """The symmetry that undoes ``transform``."""
        images = tuple(transform(cell) for cell in self._frame)
        for candidate in self.transforms:
            if tuple(candidate(image) for image in images) == self._frame:
                return candidate
        raise PolyformError(f"not a symmetry of the {self.name} lattice: {transform!r}")

    def candidate_symmetries(self, extent: Sequence[int]) -> Sequence[Transform]:
        """The symmetries that may map cells spanning ``extent`` onto a translate of them.

        ``extent`` is the greatest minus the least of each coordinate. A quick
        sieve before comparing images (:meth:`polyforms.Region.symmetries`);
        here every symmetry passes.
        """
        return self.transforms

    # -- symmetry classes -------------------------------------------------------------

    @abstractmethod
    def symmetry_class(self, stabiliser: Iterable[Transform]) -> str | int:
        """The class, one of :attr:`symmetry_classes`, of a shape fixed by ``stabiliser``."""

    def parse_symmetry_class(self, value: object) -> str | int:
        """A symmetry class from user text; UnknownNameError if the lattice has no such class."""
        for known in self.symmetry_classes:
            if str(known) == str(value):
                return known
        raise UnknownNameError(
            f"unknown symmetry class {str(value)[:40]!r}; "
            f"choose one of {', '.join(map(str, self.symmetry_classes))}"
        )

    # -- pictures ---------------------------------------------------------------------

    @abstractmethod
    def parse_picture(self, text: str) -> list[tuple[Cell, str]]:
        """Read a picture into ``(cell, mark)`` pairs, in reading order."""

    @abstractmethod
    def picture_grid(self, cells: Iterable[Cell]) -> list[list[tuple[Cell, ...]]]:
        """The positions a picture of ``cells`` shows, layer by layer, row by row.

        Each row lists the cell each character of its line stands for; the
        picture starts at the cells' least coordinates.
        """

    def picture_layers(
        self,
        marks: Mapping[Cell, str],
        empty: str = ".",
        grid: list[list[tuple[Cell, ...]]] | None = None,
    ) -> list[list[str]]:
        """The text lines of a picture of the cells of ``marks``, layer by layer.

        Each cell shows its mark, every other position ``empty``. ``grid`` is
        :meth:`picture_grid` of the cells when the caller keeps it (a region
        draws many labellings of its cells).
        """
        get, fill = marks.get, repeat(empty)
        # Each row looks its positions up in one pass of map: no Python loop per position.
        return [
            ["".join(map(get, row, fill)) for row in rows]
            for rows in (self.picture_grid(marks) if grid is None else grid)
        ]

    def to_ascii(
        self,
        cells: Iterable[Sequence[int]],
        mark: str = "#",
        empty: str = ".",
        layout: str = "stacked",
    ) -> str:
        """A picture of ``cells`` that :meth:`parse_picture` reads back (in normal position).

        ``layout``: ``stacked`` layers one under the other, ``side`` side by side.
        """
        layers = self.picture_layers(dict.fromkeys(map(tuple, cells), mark), empty)
        if layout == "side":
            return "\n".join("  ".join(rows) for rows in zip(*layers))
        return self._stacked(layers)

    def _stacked(self, layers: list[list[str]]) -> str:
        return f"\n{LAYER_BREAK}\n".join("\n".join(rows) for rows in layers)

    # -- shapes for drawing -----------------------------------------------------------

    def cell_polygon(self, cell: Cell) -> tuple[Vertex, ...]:
        """The corners of a plane cell, clockwise on the page (``y`` down).

        Corners are vertices (see :meth:`to_page`), exact integers so that the
        corners of neighbouring cells compare equal.
        """
        return tuple(start for start, _, _ in self.cell_edges(cell))

    def cell_edges(self, cell: Cell) -> tuple[tuple[Vertex, Vertex, Cell], ...]:
        """The sides of a plane cell's polygon in order: ``(start, end, cell across)``.

        Going from ``start`` to ``end`` the cell is on the right-hand side on
        the page; the cell across the side has the same side reversed.
        """
        raise PolyformError(f"the cells of the {self.name} lattice are not plane polygons")

    def sides(
        self, cells: Iterable[Cell]
    ) -> tuple[list[tuple[Vertex, Vertex]], list[tuple[Line, Vertex, Vertex]]]:
        """The sides of a set of plane cells, as :meth:`cell_edges` gives them: outer and inner.

        Returns
        -------
        outer : list of (start, end)
            The sides between a cell of the set and a cell outside it, the set
            on their right.
        inner : list of (line, start, end)
            The sides between two cells of the set, each once, from its lesser
            end; ``line`` is the straight line it lies on: its direction
            (``end - start``) and the product of ``start`` with the normal
            whose first non-zero entry is positive. Lines sort by direction,
            then across (for squares: the vertical lines left to right, then
            the horizontal ones top to bottom).
        """
        filled = set(cells)
        outer: list[tuple[Vertex, Vertex]] = []
        inner: list[tuple[Line, Vertex, Vertex]] = []
        for cell in filled:
            for start, end, across in self.cell_edges(cell):
                if across not in filled:
                    outer.append((start, end))
                elif start < end:  # both cells list the side, once each way
                    dx, dy = end[0] - start[0], end[1] - start[1]
                    nx, ny = (dy, -dx) if dy > 0 or (dy == 0 and dx < 0) else (-dy, dx)
                    inner.append((((dx, dy), start[0] * nx + start[1] * ny), start, end))
        return outer, inner

    def to_page(self, vertex: Vertex) -> tuple[float, float]:
        """A vertex on the page, in drawing units (a cell's edge is 1; ``y`` down)."""
        raise PolyformError(f"the cells of the {self.name} lattice are not plane polygons")

    def page_box(self, cells: Iterable[Cell]) -> tuple[tuple[float, float], tuple[float, float]]:
        """The least corner and the size on the page of the cells' polygons, in drawing units."""
        corners = set(itertools.chain.from_iterable(map(self.cell_polygon, cells)))
        xs, ys = zip(*map(self.to_page, corners))
        return (min(xs), min(ys)), (max(xs) - min(xs), max(ys) - min(ys))

    def cell_centre(self, cell: Cell) -> tuple[float, float]:
        """The centre of a plane cell on the page, in drawing units."""
        corners = [self.to_page(vertex) for vertex in self.cell_polygon(cell)]
        return (
            sum(x for x, _ in corners) / len(corners),
            sum(y for _, y in corners) / len(corners),
        )

    def cell_anchor(self, cell: Cell) -> tuple[float, float]:
        """The page point of the translation that places a plane cell.

        Its first two coordinates read as a vertex: every cell of one
        orientation lies at the same offset from its anchor, so differences of
        anchors measure how far apart cells are (the labels of
        :func:`polyforms.draw.tiling_svg` go in the cell nearest a piece's
        centre), in whole numbers where the lattice's vertices are the page's.
        """
        return self.to_page((cell[0], cell[1]))

    def cell_faces(self, cell: Cell) -> tuple[tuple[Cell, tuple[Cell, ...]], ...]:
        """The faces of a solid cell: ``(cell across the face, corners in order round it)``."""
        raise PolyformError(f"the cells of the {self.name} lattice are not solids")


def connected_parts(cells: Iterable[Sequence[int]], neighbours) -> list[tuple[Cell, ...]]:
    """The parts of ``cells`` joined by ``neighbours``, each sorted, by their least cell."""
    remaining = {tuple(c) for c in cells}
    found = []
    for start in sorted(remaining):
        if start not in remaining:
            continue
        remaining.discard(start)
        stack, part = [start], [start]
        while stack:
            for other in neighbours(stack.pop()):
                if other in remaining:
                    remaining.discard(other)
                    stack.append(other)
                    part.append(other)
        found.append(tuple(sorted(part)))
    return found


# -- the point group's elements --------------------------------------------------


class Transform:
    """A lattice symmetry fixing the origin, here a signed permutation matrix.

    Parameters
    ----------
    name : str
        A readable name (``"rotate90"``, ``"mirror-diagonal"``, or in 3D the
        images of the axes such as ``"y,-x,z"``).
    matrix : tuple of tuple of int
        Row ``i`` gives output coordinate ``i`` as a combination of the inputs.

    Notes
    -----
    The group operations (:meth:`compose`, :meth:`inverse`) are the lattice's
    (:meth:`polyforms.lattice.Lattice.compose`): they need only
    :meth:`__call__`, so a lattice whose symmetries are not matrices on its
    cells subclasses this class for ``__call__``, :meth:`apply`,
    :attr:`is_rotation` and :attr:`lattice`.

    Examples
    --------
    >>> from polyforms.lattice import SQUARE
    >>> rotate = SQUARE.rotations[1]
    >>> rotate.name, rotate((1, 0))
    ('rotate90', (0, 1))
    """

    # A plain class rather than a frozen dataclass: importing dataclasses (and
    # with it inspect) costs 10 ms on every command's start-up.
    __slots__ = ("name", "matrix")

    # Pickles and the class's repr name it where users import it from
    # (polyforms.lattice), not the module of the package that defines it.
    __module__ = "polyforms.lattice"

    def __init__(self, name: str, matrix: tuple[tuple[int, ...], ...]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "matrix", matrix)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("a Transform is immutable")

    def __reduce__(self) -> tuple:
        return Transform, (self.name, self.matrix)  # pickle through __init__, not __setattr__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transform):
            return NotImplemented
        return self.name == other.name and self.matrix == other.matrix

    def __hash__(self) -> int:
        return hash((self.name, self.matrix))

    @property
    def dim(self) -> int:
        return len(self.matrix)

    @property
    def lattice(self) -> Lattice:
        """The lattice whose point group holds this transform (from its dimension)."""
        # The registry is the package's (its __init__ imports this module first).
        from . import lattice

        return lattice(self.dim)

    @property
    def is_rotation(self) -> bool:
        """True when the determinant is +1 (a proper rotation)."""
        return determinant(self.matrix) == 1

    @property
    def is_identity(self) -> bool:
        return all(
            value == (i == j) for i, row in enumerate(self.matrix) for j, value in enumerate(row)
        )

    def __call__(self, cell: Sequence[int]) -> Cell:
        return tuple(sum(a * c for a, c in zip(row, cell)) for row in self.matrix)

    def apply(self, cells: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
        """Return the images of ``cells`` (same order, not normalised)."""
        # Each row of a signed permutation has one non-zero entry: read it once.
        picks = [next((j, a) for j, a in enumerate(row) if a) for row in self.matrix]
        return tuple(tuple(a * cell[j] for j, a in picks) for cell in cells)

    def compose(self, other: Transform) -> Transform:
        """Return ``self ∘ other`` (apply ``other`` first), named as in the group."""
        return self.lattice.compose(self, other)

    def inverse(self) -> Transform:
        """Return the inverse transform, named as in the group."""
        return self.lattice.inverse(self)

    def __repr__(self) -> str:
        return f"Transform({self.name!r})"


def determinant(m: tuple[tuple[int, ...], ...]) -> int:
    """The determinant of a 2x2 or 3x3 integer matrix: +1 for a rotation, -1 for a reflection."""
    if len(m) == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )

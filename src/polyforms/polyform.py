"""The Polyform value type: a connected set of lattice cells up to translation.

A :class:`Polyform` holds its cells in normal position (sorted, minimum 0 on
every axis), so two polyforms compare equal exactly when they are translates
of each other: equality is that of *fixed* polyforms. Identifying rotations
and reflections is done explicitly with :meth:`Polyform.canonical`.

ASCII pictures are read with ``x`` along a line (left to right) and ``y`` down
the lines; a cell is ``#`` or any letter or digit, outside is ``.`` or a space.
A 3D picture gives its z-layers one after the other, separated by a line
holding ``--``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cached_property

from .errors import DisconnectedError, ParseError, PolyformError, TooLargeError, WrongTypeError
from .geometry import Cell, Transform, as_cell, bounding_box
from .lattice import (  # noqa: F401 - EMPTY: the picture syntax, importable from here
    CUBE,
    EMPTY,
    LAYER_BREAK,
    SQUARE,
    SQUARE_SYMMETRY_CLASSES,
    Lattice,
    of_dimension,
)
from .lattice import lattice as find_lattice

__all__ = [
    "Polyform",
    "count_marks",
    "parse_picture",
    "parse_lettered",
    "parse_symmetry_class",
    "SYMMETRY_CLASSES",
]

#: The eight symmetry classes of free polyominoes, named by the stabiliser in
#: the group of the square, with the OEIS sequence of each (ORACLES.md).
SYMMETRY_CLASSES = SQUARE_SYMMETRY_CLASSES


def parse_symmetry_class(value: object, dim: int) -> str | int:
    """A symmetry class as :attr:`Polyform.symmetry` gives it, from user text.

    2D: one of the names of :data:`SYMMETRY_CLASSES`. 3D: the order of the
    group, one of :data:`polyforms.geometry.SYMMETRY_ORDERS_3D` (given as a
    number or as ASCII digits). The lattice of dimension ``dim`` decides
    (:meth:`polyforms.lattice.Lattice.parse_symmetry_class`).

    Raises
    ------
    UnknownNameError
        Not a class of that dimension.
    PolyformError
        Not a dimension of a lattice.

    Examples
    --------
    >>> parse_symmetry_class("full", 2), parse_symmetry_class("24", 3)
    ('full', 24)
    """
    return of_dimension(dim).parse_symmetry_class(value)


class Polyform:
    """An immutable polyomino (2D) or polycube (3D), equal up to translation.

    Parameters
    ----------
    cells : iterable of tuples of int
        The cells, all of one dimension (2 or 3). Duplicates are merged.
    check : bool, default True
        Verify that the cells are edge- (face-) connected.

    Raises
    ------
    PolyformError
        No cells, mixed or unsupported dimensions.
    DisconnectedError
        The cells are not connected (when ``check`` is true).

    Examples
    --------
    >>> p = Polyform([(5, 5), (6, 5), (6, 6)])
    >>> p.cells, p.size, p.dim
    (((0, 0), (1, 0), (1, 1)), 3, 2)
    >>> print(p.to_ascii())
    ##
    .#
    """

    __slots__ = ("cells", "dim", "lattice", "__dict__")

    def __init__(
        self,
        cells: Iterable[Sequence[int]],
        *,
        check: bool = True,
        lattice: Lattice | str | None = None,
    ) -> None:
        given = None if lattice is None else find_lattice(lattice)
        check_cell = as_cell if given is None else given.as_cell
        try:
            cells = {check_cell(cell) for cell in cells}
        except TypeError as error:
            if isinstance(error, PolyformError):
                raise
            raise WrongTypeError(
                f"a polyform is made of cells, not {type(cells).__name__}"
            ) from None
        if not cells:
            raise PolyformError("a polyform needs at least one cell")
        if given is None:
            dims = {len(cell) for cell in cells}
            if len(dims) != 1:
                raise PolyformError(f"cells of mixed dimensions {sorted(dims)}")
            lattice = of_dimension(dims.pop())
        else:
            lattice = given
        normal = lattice.normalise(cells)
        if check and len(normal) > 1 and len(lattice.components(normal)) != 1:
            raise DisconnectedError(f"the {len(normal)} cells are not connected")
        self.cells: tuple[Cell, ...] = normal
        self.lattice: Lattice = lattice
        self.dim: int = lattice.dimension

    @classmethod
    def _trusted(cls, normal: tuple[Cell, ...], lattice: Lattice | int) -> Polyform:
        """Wrap cells already in normal position and known connected (no checks).

        ``lattice`` may be a bare dimension, naming the square or cubic lattice.
        """
        self = cls.__new__(cls)
        self.cells = normal
        self.lattice = lattice if isinstance(lattice, Lattice) else of_dimension(lattice)
        self.dim = self.lattice.dimension
        return self

    # -- value semantics ------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Polyform):
            return NotImplemented
        return self.cells == other.cells and self.lattice is other.lattice

    def __lt__(self, other: Polyform) -> bool:
        return (len(self.cells), self.cells) < (len(other.cells), other.cells)

    def __hash__(self) -> int:
        return hash(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self):
        return iter(self.cells)

    def __contains__(self, cell: object) -> bool:
        return cell in set(self.cells)

    def __repr__(self) -> str:
        if self.lattice.name in ("square", "cube"):
            return f"Polyform({list(self.cells)!r})"
        return f"Polyform({list(self.cells)!r}, lattice={self.lattice.name!r})"

    def __reduce__(self) -> tuple:
        return Polyform._trusted, (self.cells, self.lattice)

    def __str__(self) -> str:
        return self.to_ascii()

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    @property
    def bounding_box(self) -> tuple[int, ...]:
        """Extent along each axis, e.g. ``(3, 2)`` for a piece 3 wide and 2 high."""
        return tuple(high + 1 for high in bounding_box(self.cells)[1])

    # -- symmetry -------------------------------------------------------------------

    def transform(self, transform: Transform) -> Polyform:
        """The image under a lattice symmetry, in normal position."""
        return Polyform._trusted(self.lattice.normalise(transform.apply(self.cells)), self.lattice)

    def images(self, kind: str = "free") -> list[tuple[Cell, ...]]:
        """Normalised cell tuples of the images under each symmetry of ``kind`` (group order)."""
        lattice = self.lattice
        normalise = lattice.normalise
        return [normalise(t.apply(self.cells)) for t in lattice.group(kind)]

    def canonical(self, kind: str = "free") -> Polyform:
        """The least image under the group of ``kind`` (the class representative).

        Two polyforms are the same ``kind`` of polyform exactly when their
        canonical forms are equal. "Least" is Python's order on the sorted
        cell tuples, which the enumerators use too.

        Examples
        --------
        >>> a = Polyform([(0, 0), (1, 0), (1, 1)])
        >>> b = Polyform([(0, 0), (0, 1), (1, 0)])
        >>> a == b, a.canonical("free") == b.canonical("free")
        (False, True)
        """
        return Polyform._trusted(min(self.images(kind)), self.lattice)

    def orientations(self, kind: str = "free") -> list[Polyform]:
        """The distinct images under the group of ``kind``, sorted.

        Examples
        --------
        >>> len(Polyform([(0, 0), (1, 0), (2, 0)]).orientations("free"))
        2
        """
        return [Polyform._trusted(c, self.lattice) for c in sorted(set(self.images(kind)))]

    def stabiliser(self, kind: str = "free") -> tuple[Transform, ...]:
        """The symmetries of ``kind`` that map the polyform onto itself."""
        lattice = self.lattice
        normalise = lattice.normalise
        return tuple(t for t in lattice.group(kind) if normalise(t.apply(self.cells)) == self.cells)

    @cached_property
    def symmetry(self) -> str | int:
        """The symmetry class.

        The lattice names it from the stabiliser
        (:meth:`polyforms.lattice.Lattice.symmetry_class`). 2D: one of the
        eight names of :data:`SYMMETRY_CLASSES` (``"none"``, ``"axis-mirror"``,
        ...). 3D: the order of the group of rotations and reflections that map
        it onto itself (1 to 48).

        Examples
        --------
        >>> Polyform.from_ascii("##\\n##").symmetry
        'full'
        >>> Polyform.from_ascii(".##\\n##.\\n.#.").symmetry
        'none'
        """
        return self.lattice.symmetry_class(self.stabiliser("free"))

    # -- shape measures -------------------------------------------------------------

    @cached_property
    def holes(self) -> int:
        """Number of bounded empty regions (holes in 2D, enclosed cavities in 3D).

        In 2D a hole is a component of empty cells, joined along edges, that
        cannot reach the outside of the bounding box. In 3D the same with faces
        (an enclosed cavity).

        Examples
        --------
        >>> Polyform.from_ascii("###\\n#.#\\n##.").holes
        1
        """
        lattice = self.lattice
        filled = set(self.cells)
        # Flood the outside from a frame one translation wider than the cells.
        frame = set(lattice.frame_cells(self.cells, 1))
        start = min(frame)
        outside = {start}
        stack = [start]
        while stack:
            for other in lattice.neighbours(stack.pop()):
                if other not in outside and other not in filled and other in frame:
                    outside.add(other)
                    stack.append(other)
        empty_inside = [cell for cell in frame if cell not in filled and cell not in outside]
        return len(lattice.components(empty_inside)) if empty_inside else 0

    @property
    def perimeter(self) -> int:
        """Number of unit edges (2D) or unit faces (3D) on the boundary."""
        filled = set(self.cells)
        neighbours = self.lattice.neighbours
        return sum(1 for cell in self.cells for other in neighbours(cell) if other not in filled)

    @property
    def connected(self) -> bool:
        """True: a Polyform is connected unless built with ``check=False``."""
        return len(self.lattice.components(self.cells)) == 1

    # -- pictures -------------------------------------------------------------------

    @classmethod
    def from_ascii(cls, text: str, lattice: Lattice | str | None = None) -> Polyform:
        """Read a picture; every marked cell (``#``, a letter, a digit) belongs to it.

        ``lattice`` reads a picture of triangles or hexagons
        (:mod:`polyforms.lattice.hexagonal`); by default a picture is of
        squares, or of cubes when a line holds only ``--``.

        Raises
        ------
        ParseError
            No cells, or an unexpected character (message gives line and column).
        DisconnectedError
            The cells do not form one piece.
        """
        if not isinstance(text, str):
            raise WrongTypeError(f"a picture is text, not {type(text).__name__}")
        cells = [cell for cell, _ in parse_picture(text, lattice)]
        if not cells:
            raise ParseError("the picture has no cells")
        return cls(cells, lattice=lattice)

    def to_ascii(self, mark: str = "#", empty: str = ".", layout: str = "stacked") -> str:
        """Draw as text, one line per row; 3D layers ``stacked`` (``--`` between) or ``side``.

        ``Polyform.from_ascii(p.to_ascii()) == p`` for every polyform (a flat
        polycube ends with a ``--`` line so that it reads back as 3D): the
        lattice's picture (:meth:`polyforms.lattice.Lattice.to_ascii`).
        """
        return self.lattice.to_ascii(self.cells, mark, empty, layout)

    def _repr_svg_(self) -> str | None:  # pragma: no cover - exercised through draw's tests
        from .draw.plane import polyform_svg

        try:
            return polyform_svg(self)
        except TooLargeError:  # beyond the limits of a drawing: the notebook shows the text
            return None


def parse_picture(text: str, lattice: Lattice | str | None = None) -> list[tuple[Cell, str]]:
    """Read an ASCII picture into ``(cell, mark)`` pairs, in reading order.

    Marks are ``#``, letters and digits; ``.`` and spaces are outside. A line
    holding only ``--`` starts the next z-layer (the picture is then 3D).
    Empty lines before the first line and after the last one are ignored (in
    a 2D picture, lines of spaces too); x counts columns and y lines within a
    layer. In a 3D picture a line of spaces is a row of its layer: it keeps
    the layers aligned.

    The picture is read by its lattice: the cube's if a line holds only
    ``--``, else the square's (:meth:`polyforms.lattice.Lattice.parse_picture`).

    Raises
    ------
    ParseError
        A character that is neither a mark nor outside; the message gives line and column.

    Examples
    --------
    >>> parse_picture("A.\\nAB")
    [((0, 0), 'A'), ((0, 1), 'A'), ((1, 1), 'B')]
    """
    return _picture_lattice(text, lattice).parse_picture(text)


# What is not a cell's mark in a picture: everything but letters, digits and "#"
# (``\\W`` leaves the letters, the digits and "_"; "#" is counted apart).
_NOT_LETTER_OR_DIGIT = re.compile(r"[\W_]+")


def count_marks(text: str) -> int:
    """The number of cells a picture marks (``#``, letters, digits), counted without
    reading it: a reader can refuse a picture of millions of cells before it
    holds a tuple for each (a regular expression's pass, no object per cell).

    Examples
    --------
    >>> count_marks("A.\\nAB\\n--\\n#.")
    4
    """
    return len(_NOT_LETTER_OR_DIGIT.sub("", text)) + text.count("#")


def _picture_lattice(text: str, lattice: Lattice | str | None = None) -> Lattice:
    """The lattice a picture is drawn on: ``lattice`` if given, else see :func:`parse_picture`."""
    if lattice is not None:
        return find_lattice(lattice)
    three_d = any(line.strip() == LAYER_BREAK for line in text.replace("\r\n", "\n").split("\n"))
    return CUBE if three_d else SQUARE


def parse_lettered(text: str, lattice: Lattice | str | None = None) -> dict[str, tuple[Cell, ...]]:
    """Read a picture holding several pieces, one per letter; positions are kept.

    Returns the cells of each mark in order of first appearance, as drawn
    (not normalised), so a tiling picture can be read back as placements.

    Raises
    ------
    ParseError, DisconnectedError
        A bad character, or a letter whose cells are not one connected piece.

    Examples
    --------
    >>> parse_lettered("AAB\\nCBB")
    {'A': ((0, 0), (1, 0)), 'B': ((1, 1), (2, 0), (2, 1)), 'C': ((0, 1),)}
    """
    lattice = _picture_lattice(text, lattice)
    pieces: dict[str, list[Cell]] = {}
    for cell, mark in lattice.parse_picture(text):
        pieces.setdefault(mark, []).append(cell)
    out = {}
    for mark, cells in pieces.items():
        if len(lattice.components(cells)) != 1:
            raise DisconnectedError(f"the cells marked {mark!r} are not connected")
        out[mark] = tuple(sorted(cells))
    return out

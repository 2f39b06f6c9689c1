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

from collections.abc import Iterable, Sequence
from functools import cached_property

from .errors import DisconnectedError, ParseError, PolyformError, WrongTypeError
from .geometry import (
    Cell,
    Transform,
    as_cell,
    bounding_box,
    check_dim,
    components,
    neighbours,
    normalise,
    symmetries,
)

__all__ = [
    "Polyform",
    "parse_picture",
    "parse_lettered",
    "parse_symmetry_class",
    "SYMMETRY_CLASSES",
]

EMPTY = frozenset(".  ")  # characters that mark a position outside the polyform
LAYER_BREAK = "--"

# The eight symmetry classes of free polyominoes, named by the stabiliser in
# the group of the square (ORACLES.md gives the OEIS sequence of each).
SYMMETRY_CLASSES = {
    "none": "A006749",  # trivial stabiliser
    "axis-mirror": "A006746",  # one mirror axis parallel to the grid
    "diagonal-mirror": "A006748",  # one diagonal mirror axis
    "rotation-180": "A006747",  # half turn only
    "axis-mirrors": "A056877",  # two axis-parallel mirrors (and the half turn)
    "diagonal-mirrors": "A056878",  # two diagonal mirrors (and the half turn)
    "rotation-90": "A144553",  # quarter turns only
    "full": "A142886",  # all eight symmetries of the square
}


def parse_symmetry_class(value: object, dim: int) -> str | int:
    """A symmetry class as :attr:`Polyform.symmetry` gives it, from user text.

    2D: one of the names of :data:`SYMMETRY_CLASSES`. 3D: the order of the
    group, one of :data:`polyforms.geometry.SYMMETRY_ORDERS_3D` (given as a
    number or as ASCII digits).

    Raises
    ------
    UnknownNameError
        Not a class of that dimension.

    Examples
    --------
    >>> parse_symmetry_class("full", 2), parse_symmetry_class("24", 3)
    ('full', 24)
    """
    from .errors import UnknownNameError
    from .geometry import SYMMETRY_ORDERS_3D

    if dim == 2:
        if value not in SYMMETRY_CLASSES:
            raise UnknownNameError(
                f"unknown symmetry class {str(value)[:40]!r}; "
                f"choose one of {', '.join(SYMMETRY_CLASSES)}"
            )
        return str(value)
    text = str(value)
    if not (text.isascii() and text.isdigit()) or int(text) not in SYMMETRY_ORDERS_3D:
        orders = ", ".join(map(str, SYMMETRY_ORDERS_3D))
        raise UnknownNameError(
            f"a 3D symmetry class is the order of its group ({orders}), not {text[:40]!r}"
        )
    return int(text)


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

    __slots__ = ("cells", "dim", "__dict__")

    def __init__(self, cells: Iterable[Sequence[int]], *, check: bool = True) -> None:
        try:
            cells = {as_cell(cell) for cell in cells}
        except TypeError as error:
            if isinstance(error, PolyformError):
                raise
            raise WrongTypeError(
                f"a polyform is made of cells, not {type(cells).__name__}"
            ) from None
        if not cells:
            raise PolyformError("a polyform needs at least one cell")
        dims = {len(cell) for cell in cells}
        if len(dims) != 1:
            raise PolyformError(f"cells of mixed dimensions {sorted(dims)}")
        dim = check_dim(dims.pop())
        normal = normalise(cells)
        if check and len(normal) > 1 and len(components(normal)) != 1:
            raise DisconnectedError(f"the {len(normal)} cells are not connected")
        self.cells: tuple[Cell, ...] = normal
        self.dim: int = dim

    @classmethod
    def _trusted(cls, normal: tuple[Cell, ...], dim: int) -> Polyform:
        """Wrap cells already in normal position and known connected (no checks)."""
        self = cls.__new__(cls)
        self.cells = normal
        self.dim = dim
        return self

    # -- value semantics ------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Polyform):
            return NotImplemented
        return self.cells == other.cells

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
        return f"Polyform({list(self.cells)!r})"

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
        return Polyform._trusted(normalise(transform.apply(self.cells)), self.dim)

    def images(self, kind: str = "free") -> list[tuple[Cell, ...]]:
        """Normalised cell tuples of the images under each symmetry of ``kind`` (group order)."""
        return [normalise(t.apply(self.cells)) for t in symmetries(self.dim, kind)]

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
        return Polyform._trusted(min(self.images(kind)), self.dim)

    def orientations(self, kind: str = "free") -> list[Polyform]:
        """The distinct images under the group of ``kind``, sorted.

        Examples
        --------
        >>> len(Polyform([(0, 0), (1, 0), (2, 0)]).orientations("free"))
        2
        """
        return [Polyform._trusted(c, self.dim) for c in sorted(set(self.images(kind)))]

    def stabiliser(self, kind: str = "free") -> tuple[Transform, ...]:
        """The symmetries of ``kind`` that map the polyform onto itself."""
        return tuple(
            t for t in symmetries(self.dim, kind) if normalise(t.apply(self.cells)) == self.cells
        )

    @cached_property
    def symmetry(self) -> str | int:
        """The symmetry class.

        2D: one of the eight names of :data:`SYMMETRY_CLASSES` (``"none"``,
        ``"axis-mirror"``, ...). 3D: the order of the group of rotations and
        reflections that map it onto itself (1 to 48).

        Examples
        --------
        >>> Polyform.from_ascii("##\\n##").symmetry
        'full'
        >>> Polyform.from_ascii(".##\\n##.\\n.#.").symmetry
        'none'
        """
        names = {t.name for t in self.stabiliser("free")}
        if self.dim == 3:
            return len(names)
        if len(names) == 8:
            return "full"
        if "rotate90" in names:
            return "rotation-90"
        if {"mirror-vertical", "mirror-horizontal"} <= names:
            return "axis-mirrors"
        if {"mirror-diagonal", "mirror-antidiagonal"} <= names:
            return "diagonal-mirrors"
        if "rotate180" in names:
            return "rotation-180"
        if names & {"mirror-vertical", "mirror-horizontal"}:
            return "axis-mirror"
        if names & {"mirror-diagonal", "mirror-antidiagonal"}:
            return "diagonal-mirror"
        return "none"

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
        filled = set(self.cells)
        highs = [h + 1 for h in bounding_box(self.cells)[1]]

        # Flood the outside from a frame one cell wider than the bounding box.
        def inside_frame(cell: Cell) -> bool:
            return all(-1 <= c <= h for c, h in zip(cell, highs))

        start = tuple(-1 for _ in highs)
        outside = {start}
        stack = [start]
        while stack:
            for other in neighbours(stack.pop()):
                if other not in outside and other not in filled and inside_frame(other):
                    outside.add(other)
                    stack.append(other)
        empty_inside = []
        for cell in _box_cells(highs):
            if cell not in filled and cell not in outside:
                empty_inside.append(cell)
        return len(components(empty_inside)) if empty_inside else 0

    @property
    def perimeter(self) -> int:
        """Number of unit edges (2D) or unit faces (3D) on the boundary."""
        filled = set(self.cells)
        return sum(1 for cell in self.cells for other in neighbours(cell) if other not in filled)

    @property
    def connected(self) -> bool:
        """True: a Polyform is connected unless built with ``check=False``."""
        return len(components(self.cells)) == 1

    # -- pictures -------------------------------------------------------------------

    @classmethod
    def from_ascii(cls, text: str) -> Polyform:
        """Read a picture; every marked cell (``#``, a letter, a digit) belongs to it.

        Raises
        ------
        ParseError
            No cells, or an unexpected character (message gives line and column).
        DisconnectedError
            The cells do not form one piece.
        """
        if not isinstance(text, str):
            raise WrongTypeError(f"a picture is text, not {type(text).__name__}")
        cells = [cell for cell, _ in parse_picture(text)]
        if not cells:
            raise ParseError("the picture has no cells")
        return cls(cells)

    def to_ascii(self, mark: str = "#", empty: str = ".", layout: str = "stacked") -> str:
        """Draw as text, one line per row; 3D layers ``stacked`` (``--`` between) or ``side``.

        ``Polyform.from_ascii(p.to_ascii()) == p`` for every polyform (a flat
        polycube ends with a ``--`` line so that it reads back as 3D).
        """
        width, height = self.bounding_box[0], self.bounding_box[1]
        depth = self.bounding_box[2] if self.dim == 3 else 1
        filled = set(self.cells)
        layers = []
        for z in range(depth):
            layer = (z,) if self.dim == 3 else ()
            rows = [
                "".join(mark if (x, y, *layer) in filled else empty for x in range(width))
                for y in range(height)
            ]
            layers.append(rows)
        if layout == "side":
            return "\n".join("  ".join(layer[y] for layer in layers) for y in range(height))
        text = f"\n{LAYER_BREAK}\n".join("\n".join(rows) for rows in layers)
        # A flat polycube keeps one layer break so that it reads back as 3D.
        return text + f"\n{LAYER_BREAK}" if self.dim == 3 and depth == 1 else text

    def _repr_svg_(self) -> str:  # pragma: no cover - exercised through draw's tests
        from .draw.plane import polyform_svg

        return polyform_svg(self)


def _box_cells(highs: Sequence[int]):
    if len(highs) == 2:
        return ((x, y) for x in range(highs[0]) for y in range(highs[1]))
    return ((x, y, z) for x in range(highs[0]) for y in range(highs[1]) for z in range(highs[2]))


def parse_picture(text: str) -> list[tuple[Cell, str]]:
    """Read an ASCII picture into ``(cell, mark)`` pairs, in reading order.

    Marks are ``#``, letters and digits; ``.`` and spaces are outside. A line
    holding only ``--`` starts the next z-layer (the picture is then 3D).
    Empty lines before the first line and after the last one are ignored (in
    a 2D picture, lines of spaces too); x counts columns and y lines within a
    layer. In a 3D picture a line of spaces is a row of its layer: it keeps
    the layers aligned.

    Raises
    ------
    ParseError
        A character that is neither a mark nor outside; the message gives line and column.

    Examples
    --------
    >>> parse_picture("A.\\nAB")
    [((0, 0), 'A'), ((0, 1), 'A'), ((1, 1), 'B')]
    """
    lines = text.replace("\r\n", "\n").split("\n")
    three_d = any(line.strip() == LAYER_BREAK for line in lines)
    while lines and not (lines[0] if three_d else lines[0].strip()):
        lines.pop(0)
    while lines and not (lines[-1] if three_d else lines[-1].strip()):
        lines.pop()
    found: list[tuple[Cell, str]] = []
    z = y = 0
    for number, line in enumerate(lines, start=1):
        if line.strip() == LAYER_BREAK:
            z, y = z + 1, 0
            continue
        for x, char in enumerate(line.rstrip("\n")):
            if char in EMPTY:
                continue
            if not (char == "#" or char.isalnum()):
                raise ParseError(
                    f"line {number}, column {x + 1}: unexpected character {char!r} "
                    "(cells are '#', letters or digits; outside is '.' or space)"
                )
            found.append(((x, y, z) if three_d else (x, y), char))
        y += 1
    return found


def parse_lettered(text: str) -> dict[str, tuple[Cell, ...]]:
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
    pieces: dict[str, list[Cell]] = {}
    for cell, mark in parse_picture(text):
        pieces.setdefault(mark, []).append(cell)
    out = {}
    for mark, cells in pieces.items():
        if len(components(cells)) != 1:
            raise DisconnectedError(f"the cells marked {mark!r} are not connected")
        out[mark] = tuple(sorted(cells))
    return out

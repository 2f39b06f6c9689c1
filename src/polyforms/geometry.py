"""Lattice cells and the symmetry groups of the square and cubic lattices.

A cell is a tuple of integers: ``(x, y)`` on the square lattice, ``(x, y, z)``
on the cubic lattice. A set of cells is in *normal position* when it is a
sorted tuple whose minimum along every axis is 0; two sets are translates of
each other exactly when their normal positions are equal.

The symmetries fixing the origin are signed permutation matrices:

* square lattice: 8 (4 rotations, 4 reflections);
* cubic lattice: 48 (24 rotations, 24 reflections).

A *kind* picks a subgroup: ``"fixed"`` only the identity, ``"one-sided"`` the
rotations, ``"free"`` every symmetry.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from functools import cache

from .errors import PolyformError, UnknownNameError

__all__ = [
    "Cell",
    "KINDS",
    "Transform",
    "symmetries",
    "signed_permutations",
    "all_symmetries",
    "SYMMETRY_ORDERS_3D",
    "check_kind",
    "check_dim",
    "as_cell",
    "check_size",
    "normalise",
    "bounding_box",
    "translate",
    "dilate",
    "neighbours",
    "is_connected",
    "components",
    "cell_graph",
]

Cell = tuple[int, ...]

KINDS = ("fixed", "one-sided", "free")


def check_kind(kind: str) -> str:
    """Return ``kind`` if it is one of :data:`KINDS`, else raise UnknownNameError."""
    if kind not in KINDS:
        raise UnknownNameError(f"unknown kind {kind!r}; choose one of {', '.join(KINDS)}")
    return kind


def check_size(n: object) -> int:
    """Return ``n`` if it is a whole number of cells (at least 1), else raise PolyformError."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise PolyformError(f"size must be a whole number, not {n!r}")
    if n < 1:
        raise PolyformError(f"size must be at least 1, not {n}")
    from .errors import TooLargeError
    from .limits import MAX_CELLS

    if n > MAX_CELLS:
        raise TooLargeError(f"size {n} is beyond the limit of {MAX_CELLS} cells")
    return n


def as_cell(cell: object, limit: int = 1_000_000) -> Cell:
    """A cell as a tuple of whole numbers, or a typed error naming what was wrong.

    ``1.0`` is taken as 1; ``0.5``, ``inf``, ``True`` and strings are refused,
    as are coordinates beyond ``limit`` (a million: no region or polyform is
    that wide).

    Examples
    --------
    >>> as_cell([1, 2.0])
    (1, 2)
    """
    from .errors import WrongTypeError

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


def check_dim(dim: int) -> int:
    """Return ``dim`` if it is 2 or 3, else raise PolyformError."""
    if dim not in (2, 3):
        raise PolyformError(f"dimension must be 2 or 3, not {dim!r}")
    return dim


class Transform:
    """A lattice symmetry fixing the origin: a signed permutation matrix.

    Parameters
    ----------
    name : str
        A readable name (``"rotate90"``, ``"mirror-diagonal"``, or in 3D the
        images of the axes such as ``"y,-x,z"``).
    matrix : tuple of tuple of int
        Row ``i`` gives output coordinate ``i`` as a combination of the inputs.

    Examples
    --------
    >>> rotate = symmetries(2, "one-sided")[1]
    >>> rotate.name, rotate((1, 0))
    ('rotate90', (0, 1))
    """

    # A plain class rather than a frozen dataclass: importing dataclasses (and
    # with it inspect) cost 10 ms on every command's start-up.
    __slots__ = ("name", "matrix")

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
    def is_rotation(self) -> bool:
        """True when the determinant is +1 (a proper rotation)."""
        return _determinant(self.matrix) == 1

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
        product = tuple(
            tuple(
                sum(self.matrix[i][k] * other.matrix[k][j] for k in range(self.dim))
                for j in range(self.dim)
            )
            for i in range(self.dim)
        )
        return _by_matrix(product)

    def inverse(self) -> Transform:
        """Return the inverse transform (the transpose of the matrix)."""
        return _by_matrix(tuple(zip(*self.matrix)))

    def __repr__(self) -> str:
        return f"Transform({self.name!r})"


def _determinant(m: tuple[tuple[int, ...], ...]) -> int:
    if len(m) == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


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


def _cubic() -> list[tuple[str, tuple[tuple[int, ...], ...]]]:
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
    found.sort(key=lambda item: (item[1] != identity, _determinant(item[1]) != 1, item[0]))
    return found


@cache
def all_symmetries(dim: int) -> tuple[Transform, ...]:
    """Every lattice symmetry fixing the origin: 8 in 2D, 48 in 3D.

    Rotations come first (identity at index 0), then reflections.
    """
    table = _SQUARE if check_dim(dim) == 2 else _cubic()
    return tuple(Transform(name, matrix) for name, matrix in table)


@cache
def symmetries(dim: int, kind: str = "free") -> tuple[Transform, ...]:
    """The symmetry group that identifies polyforms of ``kind``.

    Parameters
    ----------
    dim : {2, 3}
    kind : {"fixed", "one-sided", "free"}
        ``fixed``: the identity only; ``one-sided``: rotations (4 or 24);
        ``free``: rotations and reflections (8 or 48).

    Examples
    --------
    >>> [len(symmetries(d, k)) for d in (2, 3) for k in KINDS]
    [1, 4, 8, 1, 24, 48]
    """
    check_kind(kind)
    group = all_symmetries(dim)
    if kind == "fixed":
        return group[:1]
    if kind == "one-sided":
        return tuple(t for t in group if t.is_rotation)
    return group


SignedPermutation = tuple[tuple[int, ...], tuple[int, ...]]


@cache
def signed_permutations(dim: int, kind: str) -> tuple[SignedPermutation, ...]:
    """The group of a kind (:func:`symmetries`) as signed permutations, identity first.

    Each element is ``(perm, signs)`` and maps a cell ``c`` to
    ``(signs[0] * c[perm[0]], signs[1] * c[perm[1]], ...)``: the form the
    searches use, cheaper to apply than a matrix.

    Examples
    --------
    >>> [len(signed_permutations(2, k)) for k in KINDS]
    [1, 4, 8]
    >>> signed_permutations(2, "one-sided")[1]
    ((1, 0), (-1, 1))
    """
    group = []
    for transform in symmetries(dim, kind):
        # Each row of a signed permutation matrix has one non-zero entry.
        entries = (next((j, v) for j, v in enumerate(row) if v) for row in transform.matrix)
        perm, signs = zip(*entries)
        group.append((perm, signs))
    return tuple(group)


SYMMETRY_ORDERS_3D = (1, 2, 3, 4, 6, 8, 12, 16, 24, 48)
"""The orders a polycube's symmetry group can have (subgroups of the cube's 48)."""


def _by_matrix(matrix: tuple[tuple[int, ...], ...]) -> Transform:
    for transform in all_symmetries(len(matrix)):
        if transform.matrix == matrix:
            return transform
    raise PolyformError(f"not a lattice symmetry: {matrix}")  # unreachable for group elements


def normalise(cells: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
    """Translate ``cells`` so every coordinate's minimum is 0, and sort.

    Examples
    --------
    >>> normalise([(3, 5), (2, 5), (2, 6)])
    ((0, 0), (0, 1), (1, 0))
    """
    cells = list(cells)
    if not cells:
        return ()
    lows = [min(column) for column in zip(*cells)]
    return tuple(sorted(tuple(c - low for c, low in zip(cell, lows)) for cell in cells))


def bounding_box(cells: Iterable[Sequence[int]]) -> tuple[Cell, Cell]:
    """Return ``(mins, maxs)``, the least and greatest coordinate along each axis."""
    columns = list(zip(*cells))
    if not columns:
        raise PolyformError("an empty set of cells has no bounding box")
    return tuple(min(c) for c in columns), tuple(max(c) for c in columns)


def translate(cells: Iterable[Sequence[int]], offset: Sequence[int]) -> tuple[Cell, ...]:
    """Shift every cell by ``offset`` (order kept)."""
    return tuple(tuple(c + o for c, o in zip(cell, offset)) for cell in cells)


def dilate(cells: Iterable[Sequence[int]], k: int) -> tuple[Cell, ...]:
    """Replace each cell by a ``k``-by-``k`` (by-``k``) block of cells; sorted.

    Examples
    --------
    >>> dilate([(0, 0), (1, 0)], 2)
    ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1))
    """
    if not isinstance(k, int) or k < 1:
        raise PolyformError(f"dilation factor must be a positive integer, not {k!r}")
    out = []
    for cell in cells:
        base = [c * k for c in cell]
        for step in itertools.product(range(k), repeat=len(base)):
            out.append(tuple(b + s for b, s in zip(base, step)))
    return tuple(sorted(out))


def neighbours(cell: Sequence[int]) -> Iterator[Cell]:
    """The 4 (2D) or 6 (3D) cells sharing an edge or face with ``cell``."""
    for axis in range(len(cell)):
        for step in (-1, 1):
            yield tuple(c + step if i == axis else c for i, c in enumerate(cell))


def components(cells: Iterable[Sequence[int]]) -> list[tuple[Cell, ...]]:
    """Split ``cells`` into edge- (face-) connected components, each sorted.

    Components are listed in the order of their least cell.
    """
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


def cell_graph(cells: Iterable[Sequence[int]]):
    """The adjacency graph of ``cells`` (edges between cells sharing an edge or face).

    Returns a :class:`networkx.Graph` whose nodes are the cells. networkx is
    imported on first use only: the searches and the short commands never
    need it (importing it costs about 0.2 s).

    Examples
    --------
    >>> graph = cell_graph([(0, 0), (1, 0), (3, 0)])
    >>> graph.number_of_nodes(), graph.number_of_edges()
    (3, 1)
    """
    import networkx as nx

    nodes = {tuple(c) for c in cells}
    graph = nx.Graph()
    graph.add_nodes_from(sorted(nodes))
    graph.add_edges_from(
        (cell, other) for cell in nodes for other in neighbours(cell) if other in nodes
    )
    return graph


def is_connected(cells: Iterable[Sequence[int]]) -> bool:
    """True when ``cells`` is non-empty and edge- (face-) connected."""
    return len(components(cells)) == 1

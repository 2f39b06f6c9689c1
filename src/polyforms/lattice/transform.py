"""Transform: a symmetry of a lattice that fixes the origin.

The point group of a lattice (:attr:`polyforms.lattice.Lattice.transforms`) is
a tuple of these values, each named. On the square and cubic lattices a
symmetry is a signed permutation matrix acting on the cell's coordinates; the
group operations ask the lattice, so a lattice whose symmetries are not
matrices subclasses :class:`Transform` for the action alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .base import Cell

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (7 ms at start-up)
if TYPE_CHECKING:
    from .base import Lattice

__all__ = ["Transform", "determinant"]


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

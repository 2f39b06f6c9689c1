"""Lattices: what a cell is, its neighbours, its point group, its pictures and its shape.

The ground floor (:mod:`polyforms.geometry`, :class:`polyforms.Polyform`,
:class:`polyforms.Region`) and the drawings ask a :class:`Lattice` every
question about cells instead of assuming one: which tuples are cells, which
cells are neighbours, which symmetries fix the origin, where a set of cells
sits when it is translated to the origin, how a set of cells is drawn as text,
and the polygon a cell covers in the plane. Four lattices exist:

============  ============  ==============  ===================================
lattice       name          cell            point group
============  ============  ==============  ===================================
``SQUARE``    ``square``    ``(x, y)``      8: 4 rotations, 4 reflections
``CUBE``      ``cube``      ``(x, y, z)``   48: 24 rotations, 24 reflections
``TRIANGLE``  ``triangle``  ``(x, y, t)``   12: 6 rotations, 6 reflections
``HEX``       ``hex``       ``(q, r)``      12: 6 rotations, 6 reflections
============  ============  ==============  ===================================

:func:`lattice` finds one by name or by dimension (a bare dimension names the
square or the cubic lattice, whose cells are tuples of 2 or 3 integers).

The modules
-----------
* :mod:`~polyforms.lattice.base`: :class:`Lattice`, the interface, with the
  conventions every lattice keeps; cells and kinds; :class:`Transform`, a
  symmetry fixing the origin (a lattice has its transforms, and a transform
  knows its lattice: one module).
* :mod:`~polyforms.lattice.pictures`: the text syntax of pictures, and its reader.
* :mod:`~polyforms.lattice.square`: the square and the cubic lattice,
  :data:`SQUARE` and :data:`CUBE`.
* :mod:`~polyforms.lattice.hexagonal`: the triangular and the hexagonal
  lattice, :data:`TRIANGLE` (polyiamonds) and :data:`HEX` (polyhexes), their
  coordinates, symmetries, classes and pictures.
* this package: every name above, and the lattices by name (:data:`LATTICES`).

Adding a lattice
----------------
A new family of polyforms is one module here holding one subclass of
:class:`Lattice`, and its instance added to :data:`LATTICES`;
``tests/test_lattice.py`` then checks its group, normal position, neighbours
and pictures. A hexagon's symmetries are integer matrices, though not signed
permutations; a triangle's are not matrices on its three numbers (they act on
three times its centre), so both lattices subclass :class:`Transform` for
``__call__`` and ``apply``; composing and inverting need no more than that
(:meth:`Lattice.compose`).
"""

from __future__ import annotations

from ..errors import PolyformError, UnknownNameError
from .base import (
    KINDS,
    Cell,
    Lattice,
    Line,
    Transform,
    Vertex,
    as_cell,
    check_kind,
    connected_parts,
)
from .hexagonal import (
    HEX,
    HEXAGONAL_SYMMETRY_CLASSES,
    TRIANGLE,
    HexagonalLattice,
    PlaneTransform,
    TriangularLattice,
)
from .pictures import EMPTY, LAYER_BREAK
from .square import (
    CUBE,
    SQUARE,
    SQUARE_SYMMETRY_CLASSES,
    CubicLattice,
    HypercubicLattice,
    SquareLattice,
)

__all__ = [
    "CUBE",
    "HEX",
    "HEXAGONAL_SYMMETRY_CLASSES",
    "KINDS",
    "LATTICES",
    "Line",
    "SQUARE",
    "SQUARE_SYMMETRY_CLASSES",
    "Cell",
    "CubicLattice",
    "HexagonalLattice",
    "HypercubicLattice",
    "Lattice",
    "PlaneTransform",
    "SquareLattice",
    "TRIANGLE",
    "Transform",
    "TriangularLattice",
    "as_cell",
    "check_kind",
    "connected_parts",
    "lattice",
    "of_dimension",
]

#: Every lattice by name.
LATTICES: dict[str, Lattice] = {"square": SQUARE, "cube": CUBE, "triangle": TRIANGLE, "hex": HEX}

# A bare dimension names the lattice whose cells are that many integers.
_BY_DIMENSION: dict[int, Lattice] = {2: SQUARE, 3: CUBE}


def lattice(name_or_dim: Lattice | str | int) -> Lattice:
    """The lattice called ``name_or_dim``, or of that dimension (2: square, 3: cube).

    A lattice is its own answer, so callers may take a lattice or its name.

    Raises
    ------
    UnknownNameError
        No such lattice; the message lists them.

    Examples
    --------
    >>> lattice("square") is lattice(2) is SQUARE, lattice(3).name
    (True, 'cube')
    """
    if isinstance(name_or_dim, Lattice):
        return name_or_dim
    found = LATTICES.get(name_or_dim) if isinstance(name_or_dim, str) else _dimension(name_or_dim)
    if found is None:
        known = ", ".join(f"{name} ({lat.dimension}D)" for name, lat in LATTICES.items())
        raise UnknownNameError(f"unknown lattice {str(name_or_dim)[:40]!r}; choose one of {known}")
    return found


def of_dimension(dim: int) -> Lattice:
    """The lattice a bare dimension names; PolyformError for any other than 2 and 3.

    The check of :func:`polyforms.geometry.check_dim`, with its message.
    """
    found = _dimension(dim)
    if found is None:
        dims = " or ".join(map(str, _BY_DIMENSION))
        raise PolyformError(f"dimension must be {dims}, not {dim!r}")
    return found


def _dimension(dim: object) -> Lattice | None:
    if isinstance(dim, bool):
        return None
    try:
        return _BY_DIMENSION.get(dim)  # type: ignore[call-overload]
    except TypeError:  # unhashable
        return None

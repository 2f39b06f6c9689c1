"""Named piece sets with their conventional names.

=====================  =====  ===============================================
name                   count  piece names
=====================  =====  ===============================================
monomino                   1  O
dominoes                   1  I
trominoes                  2  I L
tetrominoes                5  I O T S L (free)
one-sided-tetrominoes      7  I O T S Z L J
pentominoes               12  F I L N P T U V W X Y Z (Golomb's letters)
one-sided-pentominoes     18  the 12 letters, plus f l n p y z for the mirror
                              images of the six chiral ones
hexominoes                35  H01 ... H35, in canonical order
solid-pentominoes         12  the pentominoes as flat pentacubes
tetracubes                 8  I O T S L, the screws A and B, the branch P
                              (one-sided: mirror images differ)
soma                       7  V L T Z A B P (Piet Hein's Soma cube)
pentacubes                29  one-sided: the 12 planar ones by pentomino letter,
                              the 17 non-planar ones a ... q in canonical order
=====================  =====  ===============================================

:class:`PieceSet` adds what a tiling needs: copy counts, reuse, and which
orientations each piece may take.

Besides these, ``free:N``, ``one-sided:N`` and ``fixed:N`` name every
polyomino of size N of that kind (``dim=3`` for polycubes), named ``1``, ``2``,
... in sorted order of their canonical cells. Generated sets are built with the
naive method, whose sorted order does not depend on the backend.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from ._textio import shorten
from .errors import ParseError, PolyformError, TilingError, UnknownNameError
from .geometry import KINDS, Transform, check_dim
from .lattice import SQUARE, Lattice
from .limits import MAX_COPIES
from .polyform import Polyform, parse_lettered

__all__ = ["PieceSet", "parse_copies", "piece_set_names", "pieces"]

#: What a copy count may be: ``k`` (exactly k), ``(lo, hi)``, or ``(lo, None)`` (lo or more).
CopyCount = int | tuple[int, int | None]

_PENTOMINOES = {
    "F": ".##|##.|.#.",
    "I": "#####",
    "L": "####|#...",
    "N": "##..|.###",
    "P": "##|##|#.",
    "T": "###|.#.|.#.",
    "U": "#.#|###",
    "V": "#..|#..|###",
    "W": "#..|##.|.##",
    "X": ".#.|###|.#.",
    "Y": "####|.#..",
    "Z": "##.|.#.|.##",
}

_TETROMINOES = {"I": "####", "O": "##|##", "T": "###|.#.", "S": ".##|##.", "L": "###|#.."}
_ONE_SIDED_TETROMINOES = {
    "I": "####",
    "O": "##|##",
    "T": "###|.#.",
    "S": ".##|##.",
    "Z": "##.|.##",
    "L": "###|#..",
    "J": "###|..#",
}
_TROMINOES = {"I": "###", "L": "##|#."}

# Polycubes as explicit (x, y, z) cells.
_TETRACUBES = {
    "I": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)],
    "O": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],
    "T": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    "S": [(1, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0)],
    "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    "A": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)],  # screw
    "B": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)],  # the other screw (mirror of A)
    "P": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],  # branch (tripod)
}
_SOMA_ORDER = ("V", "L", "T", "Z", "A", "B", "P")


def _picture(rows: str) -> Polyform:
    return Polyform.from_ascii(rows.replace("|", "\n"))


def _flat(piece: Polyform) -> Polyform:
    return Polyform([cell + (0,) for cell in piece.cells])


def _mirror(piece: Polyform) -> Polyform:
    """The mirror image of a polyomino, flipped left to right."""
    return piece.transform(SQUARE.transform("mirror-vertical"))


@cache
def _named_set(name: str) -> dict[str, Polyform]:
    if name == "monomino":
        return {"O": _picture("#")}
    if name == "dominoes":
        return {"I": _picture("##")}
    if name == "trominoes":
        return {k: _picture(v) for k, v in _TROMINOES.items()}
    if name == "tetrominoes":
        return {k: _picture(v) for k, v in _TETROMINOES.items()}
    if name == "one-sided-tetrominoes":
        return {k: _picture(v) for k, v in _ONE_SIDED_TETROMINOES.items()}
    if name == "pentominoes":
        return {k: _picture(v) for k, v in _PENTOMINOES.items()}
    if name == "one-sided-pentominoes":
        out = {}
        for letter, rows in _PENTOMINOES.items():
            piece = _picture(rows)
            out[letter] = piece
            if piece.canonical("one-sided") != _mirror(piece).canonical("one-sided"):
                out[letter.lower()] = _mirror(piece)
        return out
    if name == "hexominoes":
        from .enumeration.generate import enumerate_polyforms

        return {f"H{i:02d}": p for i, p in enumerate(enumerate_polyforms(6, 2, "free", "naive"), 1)}
    if name == "solid-pentominoes":
        return {k: _flat(p) for k, p in _named_set("pentominoes").items()}
    if name == "tetracubes":
        return {k: Polyform(v) for k, v in _TETRACUBES.items()}
    if name == "soma":
        tetracubes = _named_set("tetracubes")
        soma = {"V": Polyform([(0, 0, 0), (1, 0, 0), (0, 1, 0)])}
        soma.update({k: tetracubes[k if k != "Z" else "S"] for k in _SOMA_ORDER[1:]})
        return soma
    if name == "pentacubes":
        from .enumeration.generate import enumerate_polyforms

        solid = _named_set("solid-pentominoes")
        planar = {p.canonical("one-sided"): k for k, p in solid.items()}
        named: dict[str, Polyform] = {}
        others = []
        for piece in enumerate_polyforms(5, 3, "one-sided", "naive"):
            if piece in planar:
                named[planar[piece]] = solid[planar[piece]]  # lying flat
            else:
                others.append(piece)
        named = {k: named[k] for k in _PENTOMINOES}  # pentomino letter order
        named.update({chr(ord("a") + i): p for i, p in enumerate(others)})
        return named
    if name in _PLANE_SETS:
        from .enumeration.generate import enumerate_polyforms

        lattice, size = _PLANE_SETS[name]
        found = enumerate_polyforms(size, kind="free", method="naive", lattice=lattice)
        return {chr(ord("A") + i): p for i, p in enumerate(found)}
    raise KeyError(name)


# The named sets of the triangular and the hexagonal lattice: every free polyform
# of one size, lettered A, B, ... in the order of their canonical forms (one
# letter each, so that a tiling's picture names every piece by one character).
_PLANE_SETS = {
    "tetriamonds": ("triangle", 4),
    "pentiamonds": ("triangle", 5),
    "hexiamonds": ("triangle", 6),
    "heptiamonds": ("triangle", 7),
    "trihexes": ("hex", 3),
    "tetrahexes": ("hex", 4),
    "pentahexes": ("hex", 5),
}

_NAMED = (
    "monomino",
    "dominoes",
    "trominoes",
    "tetrominoes",
    "one-sided-tetrominoes",
    "pentominoes",
    "one-sided-pentominoes",
    "hexominoes",
    "solid-pentominoes",
    "tetracubes",
    "soma",
    "pentacubes",
    *_PLANE_SETS,
)


def known_sets() -> str:
    """The known sets as an error message lists them, short: a one-sided set after
    its free one, the plane lattices' sets by their ends."""
    names = [name for name in _NAMED if name not in _PLANE_SETS]
    listed = ", ".join(
        f"(one-sided-){name}" if f"one-sided-{name}" in names else name
        for name in names
        if not name.startswith("one-sided-")
    )
    return (
        f"{listed}, tetriamonds..heptiamonds, trihexes..pentahexes, "
        "or fixed:N, one-sided:N, free:N"
    )


def piece_set_names() -> tuple[str, ...]:
    """The names :func:`pieces` accepts besides ``KIND:N``."""
    return _NAMED


def pieces(name: str, dim: int = 2, lattice: Lattice | str | None = None) -> dict[str, Polyform]:
    """Return a piece set as an ordered ``{name: Polyform}`` dictionary.

    Parameters
    ----------
    name : str
        One of :func:`piece_set_names`, or ``KIND:N`` with KIND in
        ``fixed``, ``one-sided``, ``free`` for every polyform of size N.
    dim : {2, 3}
        Dimension for ``KIND:N`` sets (ignored for named sets).
    lattice : Lattice or str, optional
        The lattice of ``KIND:N`` sets (``"triangle"``, ``"hex"``), instead of
        ``dim``. Named sets are of their own lattice: the polyiamonds
        (``tetriamonds`` to ``heptiamonds``) of the triangular one, the polyhexes
        (``trihexes`` to ``pentahexes``) of the hexagonal one; their pieces are
        lettered A, B, ... in the order of their canonical forms.

    Raises
    ------
    UnknownNameError
        An unknown set; the message lists the known ones.

    Examples
    --------
    >>> "".join(pieces("pentominoes"))
    'FILNPTUVWXYZ'
    >>> len(pieces("one-sided-pentominoes")), len(pieces("free:4", dim=3))
    (18, 7)
    """
    if ":" in name:
        kind, _, size = name.partition(":")
        if kind not in KINDS or not size.isdigit() or int(size) < 1:
            raise UnknownNameError(
                f"unknown piece set {shorten(name)!r}: write KIND:N with KIND one of "
                f"{', '.join(KINDS)} and N a positive whole number"
            )
        if int(size) > 10:
            raise PolyformError(
                f"piece set {shorten(name)!r} is too large to use as a set of pieces"
            )
        from .enumeration.generate import enumerate_polyforms

        if lattice is None:
            check_dim(dim)
        found = enumerate_polyforms(int(size), dim, kind, "naive", lattice=lattice)
        return {str(i): p for i, p in enumerate(found, 1)}
    if name not in _NAMED:
        raise UnknownNameError(
            f"unknown piece set {shorten(name)!r}; known sets: {known_sets()}"
        )
    return dict(_named_set(name))


# -- piece sets for tiling -----------------------------------------------------------


def _orientation_group(
    lattice: Lattice, kind: str, rotations: bool, reflections: bool
) -> list[Transform]:
    """The transforms a piece may undergo: the kind's group cut down by the two switches."""
    group = list(lattice.group(kind))
    if not reflections:
        group = [t for t in group if t.is_rotation]
    if not rotations:
        # No turning: the piece as given, and (reflections on) its first mirror image.
        mirrors = [t for t in group if not t.is_rotation][:1]
        group = [group[0]] + mirrors
    return group


def _copy_range(name: str, value: Any) -> tuple[int, int]:
    """``(lo, hi)`` from a copy count (``hi = -1``: any number), checked.

    Raises
    ------
    TilingError
        Not whole numbers, a bound below 0 or above :data:`~polyforms.limits.MAX_COPIES`,
        or an empty range.
    """
    if isinstance(value, tuple | list) and len(value) == 2:
        low, high = value
    else:
        low = high = value
    for bound in (low, high):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
            raise TilingError(
                f"copies of piece {shorten(name)!r} must be whole numbers or a pair (lo, hi), "
                f"not {shorten(repr(value))}"
            )
    if low is None:
        low = 0
    if low < 0 or (high is not None and high < 0):
        raise TilingError("piece counts must not be negative")
    if max(low, high or 0) > MAX_COPIES:
        raise TilingError(
            f"copies of piece {shorten(name)!r} must be from 0 to {MAX_COPIES:,} "
            f"((lo, None) for any number), not {shorten(repr(value))}"
        )
    if high is not None and low > high:
        raise TilingError(f"copies of piece {shorten(name)!r}: {low}..{high} is an empty range")
    return low, -1 if high is None else high


def parse_copies(text: str) -> dict[str, tuple[int, int | None]]:
    """Copy counts from ``NAME=K`` / ``NAME=LO..HI`` / ``NAME=LO..`` items joined by commas.

    Raises
    ------
    ParseError
        An item of another form, a number past :data:`~polyforms.limits.MAX_COPIES`,
        or a piece named twice.

    Examples
    --------
    >>> parse_copies("I=0..2,X=1,L=1..")
    {'I': (0, 2), 'X': (1, 1), 'L': (1, None)}
    """
    found: dict[str, tuple[int, int | None]] = {}
    for item in text.split(","):
        name, equals, value = item.strip().partition("=")
        low, dots, high = value.strip().partition("..")
        try:
            if not equals or not name.strip():
                raise ValueError
            lo = int(low) if low.strip() else 0
            hi = (int(high) if high.strip() else None) if dots else lo
            if not (low.strip() or dots) or lo < 0 or (hi is not None and hi < 0):
                raise ValueError
        except ValueError:
            raise ParseError(
                f"bad copies item {shorten(item.strip())!r}: write NAME=K, NAME=LO..HI or NAME=LO.."
            ) from None
        if max(lo, hi or 0) > MAX_COPIES:
            raise ParseError(
                f"bad copies item {shorten(item.strip())!r}: copies run from 0 to "
                f"{MAX_COPIES:,} (NAME=LO.. for any number)"
            )
        if name.strip() in found:
            raise ParseError(f"piece {shorten(name.strip())!r} is given copies twice")
        found[name.strip()] = (lo, hi)
    return found


class PieceSet:
    """Pieces with copy counts (exact or ranges) and allowed orientations.

    Parameters
    ----------
    pieces : mapping name -> Polyform
        The pieces, in order.
    counts : mapping name -> int or (lo, hi), optional
        Copies of each piece (default 1): ``k`` exactly, ``(lo, hi)`` from lo
        to hi, ``(lo, None)`` lo or more. Pieces not named here take the
        default (any number with ``reuse``, ``0..1`` with ``optional``).
    reuse : bool
        Any number of copies of every piece not named in ``counts``.
    optional : bool
        Every piece may be left out: ``0..1`` copies by default, ``0..k`` for
        a piece given exactly ``k``.
    kind : {"free", "one-sided", "fixed"}
        Orientations the set allows: ``free`` (rotations and reflections),
        ``one-sided`` (rotations), ``fixed`` (as given).
    rotations, reflections : bool
        Switch off rotations or reflections on top of ``kind``.

    Attributes
    ----------
    ranges : dict name -> (int, int)
        Least and greatest copies of each piece (``-1``: any number).
    counts : dict name -> int
        Greatest copies of each piece (``-1``: any number).
    reuse : bool
        Some piece may be used any number of times.
    all_free : bool
        Every piece may be used any number of times or not at all (some may be
        left out with a count of 0), none is required: a count then depends only
        on the cells filled, and memoizes.
    exact : bool
        Every piece has an exact count (no range).
    """

    def __init__(
        self,
        pieces: Mapping[str, Polyform],
        counts: Mapping[str, CopyCount] | None = None,
        *,
        reuse: bool = False,
        optional: bool = False,
        kind: str = "free",
        rotations: bool = True,
        reflections: bool = True,
    ) -> None:
        if not pieces:
            raise TilingError("the piece set is empty")
        self.pieces = dict(pieces)
        lattices = {p.lattice for p in self.pieces.values()}
        if len(lattices) != 1:
            names = sorted(lat.name for lat in lattices)
            raise TilingError(f"the pieces mix shapes of the {' and '.join(names)} lattices")
        self.lattice: Lattice = lattices.pop()
        self.dim = self.lattice.dimension
        unknown = set(counts or {}) - set(self.pieces)
        if unknown:
            raise TilingError(f"counts given for unknown pieces: {', '.join(sorted(unknown))}")
        given = dict(counts or {})
        self.ranges: dict[str, tuple[int, int]] = {}
        for name in self.pieces:
            if name in given:
                low, high = _copy_range(name, given[name])
                if optional and low == high:
                    low = 0
            elif reuse:
                low, high = 0, -1
            else:
                low, high = (0, 1) if optional else (1, 1)
            self.ranges[name] = (low, high)
        self.counts = {name: high for name, (_, high) in self.ranges.items()}
        self.reuse = any(high < 0 for _, high in self.ranges.values())
        self.all_free = self.reuse and all(
            high == 0 or (high < 0 and low == 0) for low, high in self.ranges.values()
        )
        self.exact = all(low == high for low, high in self.ranges.values())
        self.kind = kind
        self.transforms = _orientation_group(self.lattice, kind, rotations, reflections)
        # The orientations are orbits of a normal subgroup of the lattice's symmetries
        # (all of them, the rotations or the identity; not the identity and one
        # mirror): a symmetry then maps an orbit onto the orbit of its image.
        self._normal_orbits = rotations or len(self.transforms) == 1
        normalise = self.lattice.normalise
        self.orientations = {
            name: sorted({normalise(t.apply(p.cells)) for t in self.transforms})
            for name, p in self.pieces.items()
        }

    @property
    def names(self) -> list[str]:
        return list(self.pieces)

    @property
    def area(self) -> int:
        """Total area of all copies at their greatest counts (meaningless with ``reuse``)."""
        return sum(p.size * self.counts[n] for n, p in self.pieces.items())

    @property
    def area_range(self) -> tuple[int, int | None]:
        """Least and greatest area the copies cover (None: no greatest)."""
        low = sum(p.size * self.ranges[n][0] for n, p in self.pieces.items())
        high = None if self.reuse else self.area
        return low, high

    def permutation(self, transform: Transform) -> dict[str, str] | None:
        """How ``transform`` permutes the pieces, or None if it does not map the set to itself."""
        classes: dict[tuple, list[str]] = {}
        for name in self.pieces:
            key = (frozenset(self.orientations[name]), self.ranges[name])
            classes.setdefault(key, []).append(name)
        # With normal orbits the image of a class is the class holding the image of
        # any one of its shapes: one image per class instead of one per orientation.
        holder = {(o, count): key for key in classes for o in key[0] for count in [key[1]]}
        normalise = self.lattice.normalise
        mapping = {}
        for (shapes, count), names in classes.items():
            if self._normal_orbits:
                probe = normalise(transform.apply(next(iter(shapes))))
                target = classes.get(holder.get((probe, count)))  # type: ignore[arg-type]
            else:
                image = frozenset(normalise(transform.apply(o)) for o in shapes)
                target = classes.get((image, count))
            if target is None or len(target) != len(names):
                return None
            mapping.update(zip(names, target))
        return mapping

    @classmethod
    def resolve(
        cls,
        spec: Any,
        dim: int = 2,
        counts: Mapping[str, CopyCount] | None = None,
        *,
        reuse: bool = False,
        optional: bool = False,
        rotations: bool = True,
        reflections: bool = True,
        lattice: Lattice | str | None = None,
    ) -> PieceSet:
        """Build a piece set from a name, ``KIND:N``, picture text, or Python objects.

        ``spec`` may be a named set of :func:`polyforms.pieces`; ``free:N``,
        ``one-sided:N`` or ``fixed:N``; text holding ASCII pictures (pieces
        separated by blank lines; a picture drawn with letters gives one piece
        per letter, one drawn with ``#`` is named by its position); a mapping
        ``name -> Polyform or cells``; or a sequence of Polyforms (named 1, 2, ...).

        The allowed orientations follow the set: ``one-sided-...`` and
        ``one-sided:N`` sets turn but do not flip, ``fixed:N`` sets do neither,
        every 3D set only turns (a solid piece cannot be reflected; with the
        mirror pieces in the set, mirror tilings still count as the same), and
        other 2D sets are free.

        ``lattice`` reads pictures, ``KIND:N`` and cells on the triangular or
        hexagonal lattice (a named set brings its own lattice).
        """

        if isinstance(spec, PieceSet):
            return spec
        kind = None
        if isinstance(spec, str):
            if "\n" in spec or "#" in spec or "--" in spec:
                shapes = _pieces_from_text(spec, lattice)
            else:
                if ":" in spec:
                    kind = spec.partition(":")[0]
                elif spec.startswith("one-sided"):
                    kind = "one-sided"
                shapes = pieces(spec, dim=dim, lattice=lattice)
        elif isinstance(spec, Mapping):
            shapes = {
                str(k): v if isinstance(v, Polyform) else Polyform(v, lattice=lattice)
                for k, v in spec.items()
            }
        else:
            shapes = {}
            for i, item in enumerate(spec, 1):
                shapes[str(i)] = (
                    item if isinstance(item, Polyform) else Polyform(item, lattice=lattice)
                )
        if kind is None:
            three_d = bool(shapes) and next(iter(shapes.values())).dim == 3
            kind = "one-sided" if three_d else "free"
        return cls(shapes, counts, reuse=reuse, optional=optional, kind=kind,
                   rotations=rotations, reflections=reflections)  # fmt: skip


def _pieces_from_text(text: str, lattice: Lattice | str | None = None) -> dict[str, Polyform]:
    """Pieces from ASCII pictures separated by blank lines (see :meth:`PieceSet.resolve`)."""
    blocks, current = [], []
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.strip():
            current.append(line)
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    shapes: dict[str, Polyform] = {}
    for block in blocks:
        for mark, cells in parse_lettered(block, lattice).items():
            name = str(len(shapes) + 1) if mark == "#" else mark
            if name in shapes:
                raise ParseError(f"piece {name!r} is drawn twice")
            shapes[name] = Polyform(cells, lattice=lattice)
    if not shapes:
        raise ParseError("no pieces found in the picture text")
    return shapes

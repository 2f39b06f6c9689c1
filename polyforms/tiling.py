"""Tile a region of the square or cubic lattice with a set of pieces.

A tiling problem is built in three steps, each its own object:

* :class:`Region` -- the cells to cover (2D or 3D, holes and several parts allowed);
* :class:`PieceSet` -- the pieces, how many copies of each, which orientations;
* :class:`TilingProblem` -- every *placement* (a piece in one orientation at one
  position inside the region), searched by the compiled bitset kernel
  (:mod:`polyforms._core._tiling`) or by exact cover (:meth:`TilingProblem.to_exactcover`).

Essentially different tilings
-----------------------------
G is the group of lattice symmetries that map the region onto itself *and* the
piece set onto itself: a symmetry g belongs to G when, for every piece, the
images under g of the piece's allowed orientations are exactly the allowed
orientations of some piece with the same number of copies. With free pieces
that holds for every symmetry of the region. With one-sided pieces (no
reflections) a reflection belongs to G exactly when the set is closed under
mirror images (the 18 one-sided pentominoes, the Soma pieces): it then maps a
tiling to a tiling using the mirror pieces. With ``reflections=False`` on the
12 free pentominoes, F has no mirror in the set, so G holds rotations only.
Two tilings are the same when some g in G maps one onto the other (with the
piece names permuted as g permutes the pieces).

Counting classes uses symmetry breaking: one *breaker* piece, used once and
mapped to itself by all of G, is restricted to one placement per orbit of G.
Every class then has a member whose breaker sits on a representative ``p``; the
members with the breaker on ``p`` form one orbit of the stabiliser ``H_p``. So a
class is counted once by counting the tilings with the breaker on a
representative whose stabiliser is trivial, plus those on the other
representatives that are least in their ``H_p``-orbit. The same restricted
search also counts *all* tilings: ``sum over p of |G| / |H_p| * count(p)``.
Without a usable breaker (copies allowed, ``reuse``) every tiling is generated
and kept when it is the least of its images.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from . import _backend
from .errors import ParseError, PolyformError, TilingError
from .geometry import (
    Cell,
    Transform,
    all_symmetries,
    components,
    neighbours,
    normalise,
    symmetries,
)
from .polyform import Polyform, parse_lettered, parse_picture

__all__ = [
    "Region",
    "PieceSet",
    "Placement",
    "Tiling",
    "TilingProblem",
    "Symmetry",
    "tile",
]

_BOX = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*(?:[xX×]\s*(\d+)\s*)?$")


# -- region -------------------------------------------------------------------------


@dataclass(frozen=True)
class Symmetry:
    """A lattice symmetry mapping a region onto itself: ``cell -> transform(cell) + offset``."""

    transform: Transform
    offset: Cell

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

    def __init__(self, cells: Iterable[Sequence[int]]) -> None:
        cells = [tuple(int(v) for v in c) for c in cells]
        if not cells:
            raise TilingError("the region has no cells")
        dims = {len(c) for c in cells}
        if len(dims) != 1 or dims.pop() not in (2, 3):
            raise TilingError("region cells must all be 2D or all 3D")
        self.cells: tuple[Cell, ...] = normalise(set(cells))
        self.dim = len(self.cells[0])

    @classmethod
    def box(cls, *sides: int) -> Region:
        """The box ``H x W`` (rows, columns) or ``H x W x D`` (D layers)."""
        if len(sides) not in (2, 3) or any(s < 1 for s in sides):
            raise TilingError(f"a box needs 2 or 3 positive sides, not {sides}")
        h, w = sides[0], sides[1]
        layers = range(sides[2]) if len(sides) == 3 else [None]
        return cls(
            (x, y) if z is None else (x, y, z) for z in layers for y in range(h) for x in range(w)
        )

    @classmethod
    def parse(cls, text: str) -> Region:
        """A box written ``HxW`` / ``HxWxD``, or an ASCII picture.

        In a picture a cell is ``#`` or any letter or digit, outside is ``.`` or a
        space; 3D pictures give z-layers separated by a line holding ``--``.

        Raises
        ------
        ParseError
            A bad character (with line and column), or no cells.
        """
        match = _BOX.match(text)
        if match:
            return cls.box(*(int(g) for g in match.groups() if g is not None))
        cells = [cell for cell, _ in parse_picture(text)]
        if not cells:
            raise ParseError("the region picture has no cells")
        return cls(cells)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Region) and self.cells == other.cells

    def __hash__(self) -> int:
        return hash(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self._cell_set

    def __repr__(self) -> str:
        return f"Region(<{self.size} cells, {self.dim}D>)"

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
        """The connected parts of the region."""
        return components(self.cells)

    def symmetries(self) -> list[Symmetry]:
        """The lattice symmetries mapping the region onto itself (identity first)."""
        found = []
        for transform in all_symmetries(self.dim):
            image = transform.apply(self.cells)
            lows = [min(column) for column in zip(*image)]
            if normalise(image) == self.cells:
                found.append(Symmetry(transform, tuple(-low for low in lows)))
        return found

    def _repr_svg_(self) -> str:
        from .draw import region_svg

        return region_svg(self)

    def to_ascii(self, marks: Mapping[Cell, str] | None = None) -> str:
        """Draw the region (``#``) or a labelling of its cells; 3D layers joined by ``--``."""
        shape = self.shape
        layers = []
        for z in range(shape[2] if self.dim == 3 else 1):
            rows = []
            for y in range(shape[1]):
                row = ""
                for x in range(shape[0]):
                    cell = (x, y, z) if self.dim == 3 else (x, y)
                    if cell in self._cell_set:
                        row += marks.get(cell, "?") if marks is not None else "#"
                    else:
                        row += "."
                rows.append(row)
            layers.append("\n".join(rows))
        return "\n--\n".join(layers)


# -- pieces -------------------------------------------------------------------------


def _orientation_group(dim: int, kind: str, rotations: bool, reflections: bool) -> list[Transform]:
    """The transforms a piece may undergo: the kind's group cut down by the two switches."""
    group = list(symmetries(dim, kind))
    if not reflections:
        group = [t for t in group if t.is_rotation]
    if not rotations:
        # No turning: the piece as given, and (reflections on) its first mirror image.
        mirrors = [t for t in group if not t.is_rotation][:1]
        group = [group[0]] + mirrors
    return group


class PieceSet:
    """Pieces with copy counts and allowed orientations.

    Parameters
    ----------
    pieces : mapping name -> Polyform
        The pieces, in order.
    counts : mapping name -> int, optional
        Copies of each piece (default 1); ignored with ``reuse``.
    reuse : bool
        Any number of copies of every piece (the region alone must be covered).
    kind : {"free", "one-sided", "fixed"}
        Orientations the set allows: ``free`` (rotations and reflections),
        ``one-sided`` (rotations), ``fixed`` (as given).
    rotations, reflections : bool
        Switch off rotations or reflections on top of ``kind``.
    """

    def __init__(
        self,
        pieces: Mapping[str, Polyform],
        counts: Mapping[str, int] | None = None,
        *,
        reuse: bool = False,
        kind: str = "free",
        rotations: bool = True,
        reflections: bool = True,
    ) -> None:
        if not pieces:
            raise TilingError("the piece set is empty")
        self.pieces = dict(pieces)
        dims = {p.dim for p in self.pieces.values()}
        if len(dims) != 1:
            raise TilingError("the pieces mix 2D and 3D shapes")
        self.dim = dims.pop()
        unknown = set(counts or {}) - set(self.pieces)
        if unknown:
            raise TilingError(f"counts given for unknown pieces: {', '.join(sorted(unknown))}")
        self.reuse = reuse
        self.counts = {
            name: (-1 if reuse else int((counts or {}).get(name, 1))) for name in self.pieces
        }
        if any(c < 0 for c in self.counts.values()) and not reuse:
            raise TilingError("piece counts must not be negative")
        self.kind = kind
        self.transforms = _orientation_group(self.dim, kind, rotations, reflections)
        self.orientations = {
            name: sorted({normalise(t.apply(p.cells)) for t in self.transforms})
            for name, p in self.pieces.items()
        }

    @property
    def names(self) -> list[str]:
        return list(self.pieces)

    @property
    def area(self) -> int:
        """Total area of all copies (meaningless with ``reuse``)."""
        return sum(p.size * self.counts[n] for n, p in self.pieces.items())

    def permutation(self, transform: Transform) -> dict[str, str] | None:
        """How ``transform`` permutes the pieces, or None if it does not map the set to itself."""
        classes: dict[tuple, list[str]] = {}
        for name in self.pieces:
            classes.setdefault((frozenset(self.orientations[name]), self.counts[name]), []).append(
                name
            )
        mapping = {}
        for (shapes, count), names in classes.items():
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
        counts: Mapping[str, int] | None = None,
        *,
        reuse: bool = False,
        rotations: bool = True,
        reflections: bool = True,
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
        """
        from .pieces import pieces as named_pieces

        if isinstance(spec, PieceSet):
            return spec
        kind = None
        if isinstance(spec, str):
            if "\n" in spec or "#" in spec or "--" in spec:
                shapes = _pieces_from_text(spec)
            else:
                if ":" in spec:
                    kind = spec.partition(":")[0]
                elif spec.startswith("one-sided"):
                    kind = "one-sided"
                shapes = named_pieces(spec, dim=dim)
        elif isinstance(spec, Mapping):
            shapes = {str(k): v if isinstance(v, Polyform) else Polyform(v) for k, v in spec.items()}
        else:
            shapes = {}
            for i, item in enumerate(spec, 1):
                shapes[str(i)] = item if isinstance(item, Polyform) else Polyform(item)
        if kind is None:
            three_d = bool(shapes) and next(iter(shapes.values())).dim == 3
            kind = "one-sided" if three_d else "free"
        return cls(shapes, counts, reuse=reuse, kind=kind, rotations=rotations,
                   reflections=reflections)  # fmt: skip


def _pieces_from_text(text: str) -> dict[str, Polyform]:
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
        for mark, cells in parse_lettered(block).items():
            name = str(len(shapes) + 1) if mark == "#" else mark
            if name in shapes:
                raise ParseError(f"piece {name!r} is drawn twice")
            shapes[name] = Polyform(cells)
    if not shapes:
        raise ParseError("no pieces found in the picture text")
    return shapes


# -- solutions ----------------------------------------------------------------------


class Placement(NamedTuple):
    """One piece put in the region: its name and the sorted cells it covers.

    A named tuple, so ``for name, cells in tiling`` works and the drawing
    functions of :mod:`polyforms.draw` take a tiling as it is.
    """

    piece: str
    cells: tuple[Cell, ...]


class Tiling(tuple):
    """A tiling: a tuple of :class:`Placement`, printed as a letter picture."""

    region: Region

    def __new__(cls, placements: Iterable[Placement], region: Region) -> Tiling:
        self = super().__new__(cls, placements)
        self.region = region
        return self

    def labels(self) -> dict[Cell, str]:
        """One character per cell: the piece name when names are single distinct
        characters used once, else letters chosen so that touching pieces differ."""
        names = [p.piece for p in self]
        if all(len(n) == 1 for n in names) and len(set(names)) == len(names):
            chosen = names
        else:
            palette = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
            owner = {c: i for i, p in enumerate(self) for c in p.cells}
            chosen = []
            for i, placement in enumerate(self):
                near = {
                    chosen[owner[q]]
                    for c in placement.cells
                    for q in neighbours(c)
                    if q in owner and owner[q] < i
                }
                chosen.append(next((m for m in palette if m not in near), "?"))
        return {c: chosen[i] for i, p in enumerate(self) for c in p.cells}

    def to_ascii(self) -> str:
        return self.region.to_ascii(self.labels())

    def __str__(self) -> str:
        return self.to_ascii()

    def _repr_svg_(self) -> str:
        from .draw import tiling_svg

        return tiling_svg(self)

    def to_json(self) -> dict:
        """A JSON-ready description: ``{"placements": [{"piece", "cells"}, ...]}``."""
        return {"placements": [{"piece": p.piece, "cells": [list(c) for c in p.cells]}
                               for p in self]}  # fmt: skip


# -- the problem --------------------------------------------------------------------


def _kernel():
    core = _backend.compiled("_tiling")
    if core is None:
        from ._core import _tiling_py as core
    return core


class TilingProblem:
    """All placements of a piece set in a region, and the searches over them.

    Build with :func:`tile`. ``impossible`` holds the reason when the problem
    has no tiling for a reason seen at once (areas differ, a cell no placement
    covers, a piece that fits nowhere); then every search is empty.
    """

    def __init__(
        self, region: Region, pieces: PieceSet, *, strategy: str = "first", engine: str = "auto"
    ) -> None:
        if engine not in ("auto", "bitset", "dlx"):
            raise TilingError(f"unknown engine {engine!r}; choose auto, bitset or dlx")
        # Measured (BENCHMARKS.md): the first-empty-cell bitset search wins in the plane
        # (6x10: 4x faster than dancing links), dancing links with its fewest-options
        # rule wins in boxes (3x4x5: 7x fewer seconds than the bitset search).
        self.engine = engine if engine != "auto" else ("bitset" if region.dim == 2 else "dlx")
        if pieces.dim != region.dim:
            raise TilingError(
                f"the pieces are {pieces.dim}D but the region is {region.dim}D"
            )
        self.region = region
        self.pieces = pieces
        self.strategy = strategy
        extent = [max(column) - min(column) for column in zip(*region.cells)]
        self._axes = sorted(range(len(extent)), key=lambda a: (-extent[a], a))
        self.order = sorted(region.cells, key=self._key)
        self.index = {c: i for i, c in enumerate(self.order)}
        self.piece_names = pieces.names
        self.placements: list[tuple[int, tuple[int, ...]]] = []
        index = self.index
        for k, name in enumerate(self.piece_names):
            if pieces.counts[name] == 0:
                continue
            for shape in pieces.orientations[name]:
                # Put the shape's first cell (in fill order) on each region cell in turn.
                anchor = min(shape, key=self._key)
                deltas = [tuple(a - b for a, b in zip(c, anchor)) for c in shape]
                if region.dim == 2:
                    for x, y in self.order:
                        cells = [index.get((x + dx, y + dy)) for dx, dy in deltas]
                        if None not in cells:
                            self.placements.append((k, tuple(sorted(cells))))
                else:
                    for x, y, z in self.order:
                        cells = [index.get((x + dx, y + dy, z + dz)) for dx, dy, dz in deltas]
                        if None not in cells:
                            self.placements.append((k, tuple(sorted(cells))))
        self.neighbours = [
            [self.index[q] for q in neighbours(c) if q in self.index] for c in self.order
        ]
        self.impossible = self._why_impossible()

    def _key(self, cell: Cell) -> tuple:
        """Fill order: the longest axis varies slowest, so the frontier crosses the
        region along its short side (a 6x10 rectangle fills column by column of 6)."""
        return tuple(cell[a] for a in self._axes)

    def _why_impossible(self) -> str | None:
        pieces = self.pieces
        if not pieces.reuse and pieces.area != self.region.size:
            return (
                f"the pieces cover {pieces.area} cells but the region has {self.region.size}"
            )
        covered = set()
        used = set()
        for k, cells in self.placements:
            covered.update(cells)
            used.add(k)
        missing = [self.order[i] for i in range(len(self.order)) if i not in covered]
        if missing:
            return f"no placement covers the region cell {missing[0]}"
        if not pieces.reuse:
            for k, name in enumerate(self.piece_names):
                if pieces.counts[name] > 0 and k not in used:
                    return f"piece {name} fits nowhere in the region"
        return None

    def __repr__(self) -> str:
        return (
            f"TilingProblem({self.region!r}, {len(self.piece_names)} pieces, "
            f"{len(self.placements)} placements)"
        )

    # -- symmetry ---------------------------------------------------------------

    @cached_property
    def group(self) -> list[tuple[Symmetry, dict[str, str]]]:
        """G: the region's symmetries that map the piece set to itself, with the
        permutation each induces on the piece names (identity first)."""
        found = []
        for symmetry in self.region.symmetries():
            mapping = self.pieces.permutation(symmetry.transform)
            if mapping is not None:
                found.append((symmetry, mapping))
        return found

    def image(self, tiling: Iterable[Placement], g: int) -> tuple[Placement, ...]:
        """The tiling mapped by the ``g``-th element of :attr:`group`, sorted."""
        symmetry, mapping = self.group[g]
        return tuple(sorted(Placement(mapping[p.piece], symmetry.apply(p.cells)) for p in tiling))

    def canonical(self, tiling: Iterable[Placement]) -> tuple[Placement, ...]:
        """The least image of a tiling under G: equal for exactly the equivalent tilings."""
        return min(self.image(tiling, g) for g in range(len(self.group)))

    def stabiliser(self, tiling: Iterable[Placement]) -> list[Symmetry]:
        """The elements of G mapping the tiling onto itself."""
        own = tuple(sorted(tiling))
        return [s for g, (s, _) in enumerate(self.group) if self.image(own, g) == own]

    @cached_property
    def _breaker(self) -> tuple[int, dict[int, list[int]]] | None:
        """(breaker piece, {|H_p|: [representative placement indices]}) or None.

        The breaker is used exactly once and fixed by every permutation in G;
        among those, the one keeping the smallest share of its placements,
        ties going to representatives that come early in the fill order.
        """
        if self.pieces.reuse or len(self.group) == 1:
            return None
        best = None
        for k, name in enumerate(self.piece_names):
            if self.pieces.counts[name] != 1:
                continue
            if any(mapping[name] != name for _, mapping in self.group):
                continue
            # In fill order, so each orbit is represented by its earliest placement and
            # the search meets the breaker's deadline early.
            mine = sorted(
                (i for i, (piece, _) in enumerate(self.placements) if piece == k),
                key=lambda i: self.placements[i][1],
            )
            by_cells = {self.placements[i][1]: i for i in mine}
            seen: set[int] = set()
            reps: dict[int, list[int]] = {}
            for i in mine:  # placements are in fill order of their anchor
                if i in seen:
                    continue
                cells = [self.order[c] for c in self.placements[i][1]]
                orbit = set()
                fixed = 0
                for symmetry, _ in self.group:
                    image = tuple(sorted(self.index[c] for c in symmetry.apply(cells)))
                    j = by_cells[image]
                    orbit.add(j)
                    fixed += j == i
                seen |= orbit
                reps.setdefault(fixed, []).append(i)
            # The restricted search covers about (representatives / placements) of
            # the tree; prefer the piece that keeps the least, then the earliest deadline.
            kept = sum(len(r) for r in reps.values())
            score = (
                kept / len(mine),
                max(self.placements[i][1][0] for r in reps.values() for i in r),
            )
            if best is None or score < best[0]:
                best = (score, k, reps)
        return None if best is None else (best[1], best[2])

    # -- searches ---------------------------------------------------------------

    def _search(self, keep: Callable[[int], bool] | None = None):
        """(kernel search, kernel arguments, placement indices) over the placements
        ``i`` with ``keep(i)`` (all by default)."""
        chosen = [i for i in range(len(self.placements)) if keep is None or keep(i)]
        limits = [self.pieces.counts[n] for n in self.piece_names]
        must = [not self.pieces.reuse] * len(limits)
        sizes = [self.pieces.pieces[n].size for n in self.piece_names]
        arguments = (
            len(self.order),
            [self.placements[i] for i in chosen],
            limits,
            must,
            self.neighbours,
            self.strategy,
            # Measured: catching single isolated cells (a mask test) pays for itself;
            # flood-filling larger pockets costs more than the nodes it saves (6x10).
            2 if min(sizes) > 1 else 0,
        )
        if self.engine == "dlx":
            return _ExactCoverSearch(arguments), None, chosen
        return _make_search(arguments), arguments, chosen

    def _tiling(self, indices: Iterable[int]) -> Tiling:
        placements = []
        for i in indices:
            piece, cells = self.placements[i]
            placements.append(
                Placement(self.piece_names[piece], tuple(sorted(self.order[c] for c in cells)))
            )
        return Tiling(placements, self.region)

    def _restricted(self, reps: Sequence[int]) -> Callable[[int], bool]:
        breaker = self._breaker[0]  # type: ignore[index]
        allowed = set(reps)
        return lambda i: self.placements[i][0] != breaker or i in allowed

    def solutions(self, distinct: bool = False, limit: int | None = None) -> Iterator[Tiling]:
        """Yield tilings (``distinct``: one canonical representative per class).

        Parameters
        ----------
        distinct : bool
            Yield each class of equivalent tilings once, as its least image
            under G (see the module notes).
        limit : int, optional
            Stop after this many.
        """
        if limit is not None and limit <= 0 or self.impossible:
            return
        produced = 0
        for tiling in self._solutions(distinct):
            yield tiling
            produced += 1
            if produced == limit:
                return

    def _solutions(self, distinct: bool) -> Iterator[Tiling]:
        if not distinct:
            search, _, chosen = self._search()
            for solution in search.solutions():
                yield self._tiling(chosen[i] for i in solution)
            return
        if self._breaker is None:
            search, _, chosen = self._search()
            for solution in search.solutions():
                tiling = tuple(sorted(self._tiling(chosen[i] for i in solution)))
                if self.canonical(tiling) == tiling:
                    yield Tiling(tiling, self.region)
            return
        breaker, reps = self._breaker
        for fixed, group in sorted(reps.items()):
            search, _, chosen = self._search(self._restricted(group))
            for solution in search.solutions():
                tiling = self._tiling(chosen[i] for i in solution)
                if fixed > 1:
                    own = tuple(sorted(tiling))
                    if any(self.image(own, g) < own for g in self._stabiliser_of(tiling)):
                        continue
                yield Tiling(self.canonical(tiling), self.region)

    def _stabiliser_of(self, tiling: Tiling) -> list[int]:
        """Indices in G of the symmetries fixing the breaker's placement in ``tiling``."""
        name = self.piece_names[self._breaker[0]]  # type: ignore[index]
        cells = next(p.cells for p in tiling if p.piece == name)
        return [g for g, (s, _) in enumerate(self.group) if s.apply(cells) == cells]

    def count(
        self,
        distinct: bool = False,
        *,
        symmetry: bool = True,
        jobs: int = 1,
        progress: Callable[[float], None] | None = None,
    ) -> int:
        """Count tilings (``distinct``: classes under G) without building them.

        Parameters
        ----------
        distinct : bool
            Count classes of equivalent tilings.
        symmetry : bool
            Count all tilings through the symmetry-broken search (default);
            False searches the whole tree (a cross-check).
        jobs : int
            Processes to split the search across (same count).
        progress : callable, optional
            Called with the estimated share of the work done, from 0 to 1.

        Notes
        -----
        Cost: one kernel search over the placements, restricted for the
        breaker piece (about 1/|G| of the whole tree), plus a listing of the
        tilings whose breaker placement has a non-trivial stabiliser.
        """
        if self.impossible:
            return 0
        if self._breaker is None or (not distinct and not symmetry):
            if distinct:
                return sum(1 for _ in self._solutions(True))
            return _count(self._search(), jobs, progress)
        _, reps = self._breaker
        order = len(self.group)
        total = 0
        classes = sorted(reps.items())
        for step, (fixed, group) in enumerate(classes):
            def part(share: float, step: int = step) -> None:
                if progress is not None:
                    progress((step + share) / len(classes))

            if distinct and fixed > 1:
                total += sum(1 for _ in self._solutions_with(group, fixed))
            else:
                found = _count(self._search(self._restricted(group)), jobs, part)
                total += found if distinct else found * order // fixed
        return total

    def _solutions_with(self, group: Sequence[int], fixed: int) -> Iterator[Tiling]:
        search, _, chosen = self._search(self._restricted(group))
        for solution in search.solutions():
            tiling = self._tiling(chosen[i] for i in solution)
            own = tuple(sorted(tiling))
            if all(self.image(own, g) >= own for g in self._stabiliser_of(tiling)):
                yield tiling

    def first(self) -> Tiling | None:
        """One tiling, or None."""
        return next(self.solutions(limit=1), None)

    def to_exactcover(self):
        """The plain exact cover instance: items are the region cells (and the pieces,
        with their copy counts, unless ``reuse``); a choice is a :class:`Placement`.

        Examples
        --------
        >>> tile("2x4", "dominoes", reuse=True).to_exactcover().count()
        5
        """
        from .exactcover import ExactCover

        choices = {}
        for piece, cells in self.placements:
            name = self.piece_names[piece]
            placement = Placement(name, tuple(sorted(self.order[c] for c in cells)))
            items: list = list(placement.cells)
            if not self.pieces.reuse:
                items.append(("piece", name))
            choices[placement] = items
        multiplicity = {}
        primary: list = list(self.region.cells)
        if not self.pieces.reuse:
            for name in self.piece_names:
                if self.pieces.counts[name] > 0:
                    primary.append(("piece", name))
                    multiplicity[("piece", name)] = self.pieces.counts[name]
        return ExactCover(choices, multiplicity=multiplicity, primary=primary)


def _make_search(arguments: tuple):
    ncells, placements, limits, must, neighbours_, strategy, flood_cap = arguments
    return _kernel().TilingSearch(
        ncells, placements, limits, must, neighbours_, strategy=strategy, flood_cap=flood_cap
    )


class _ExactCoverSearch:
    """The kernel's interface over the exact-cover engine (dancing links, MRV)."""

    def __init__(self, arguments: tuple) -> None:
        from .exactcover import ExactCover

        _, placements, limits, _, _, _, _ = arguments
        choices = {i: list(cells) + [("piece", k)] for i, (k, cells) in enumerate(placements)}
        multiplicity = {}
        secondary = []
        for k, limit in enumerate(limits):
            if limit < 0:
                secondary.append(("piece", k))
                multiplicity[("piece", k)] = len(placements)
            else:
                multiplicity[("piece", k)] = limit
        used = {("piece", k) for k, _ in placements}
        multiplicity = {key: v for key, v in multiplicity.items() if key in used}
        secondary = [key for key in secondary if key in used]
        self.problem = ExactCover(choices, secondary=secondary, multiplicity=multiplicity)

    def count(self, progress=None, prefix=()) -> int:
        total = self.problem.count(initial=prefix)
        if progress is not None:
            progress(1.0)
        return total

    def solutions(self, limit=None, prefix=()):
        return self.problem.solutions(limit=limit, initial=prefix)


def _count(built, jobs: int, progress: Callable[[float], None] | None) -> int:
    """Count with one kernel search, or cut into subtasks over ``jobs`` processes."""
    search, arguments, _ = built
    if jobs <= 1 or arguments is None:
        return search.count(progress)
    # Expand the tree breadth-first until there are plenty of subtasks for the workers;
    # the children of a node split its tilings into disjoint families.
    leaves = 0
    frontier: list[tuple[int, ...]] = [()]
    while frontier and len(frontier) < 16 * jobs:
        deeper = []
        for prefix in frontier:
            children = search.branch(prefix)
            if children is None:
                leaves += 1
            else:
                deeper.extend(prefix + (p,) for p in children)
        if len(deeper) <= len(frontier) and not deeper:
            frontier = deeper
            break
        frontier = deeper
    if not frontier:
        return leaves
    import concurrent.futures
    import multiprocessing

    chunks = [frontier[i::jobs * 4] for i in range(jobs * 4)]
    total = leaves
    context = multiprocessing.get_context("fork" if hasattr(__import__("os"), "fork") else None)
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
        futures = [pool.submit(_count_prefixes, arguments, chunk) for chunk in chunks if chunk]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            total += future.result()
            if progress is not None:
                progress(done / len(futures))
    return total


def _count_prefixes(arguments: tuple, prefixes: list[tuple[int, ...]]) -> int:
    """Worker: the number of tilings below each prefix, summed."""
    search = _make_search(arguments)
    return sum(search.count(prefix=prefix) for prefix in prefixes)


def tile(
    region: Region | str | Iterable[Sequence[int]],
    pieces: Any,
    *,
    counts: Mapping[str, int] | None = None,
    reuse: bool = False,
    rotations: bool = True,
    reflections: bool = True,
    strategy: str = "first",
    engine: str = "auto",
) -> TilingProblem:
    """Build the problem of tiling ``region`` with ``pieces``.

    Parameters
    ----------
    region : Region, str or iterable of cells
        A :class:`Region`, a box ``"6x10"`` / ``"3x4x5"`` or an ASCII picture, or cells.
    pieces : str, mapping, sequence or PieceSet
        A named set (``"pentominoes"``), ``"free:N"`` / ``"one-sided:N"`` /
        ``"fixed:N"``, picture text, ``{name: Polyform}`` or a list of Polyforms.
    counts : mapping, optional
        Copies of each piece (default one each): ``{"I": 2}``.
    reuse : bool
        Any number of copies of each piece.
    rotations, reflections : bool
        Allow turning / mirroring the pieces (within what the set allows).
    strategy : {"first", "mrv"}
        Branching rule of the bitset kernel: first empty cell (default, measured
        faster on the benchmark puzzles) or fewest fitting placements.
    engine : {"auto", "bitset", "dlx"}
        The bitset kernel or the exact-cover engine; ``auto`` takes the bitset
        kernel for 2D regions and exact cover for 3D boxes (measured faster each).

    Returns
    -------
    TilingProblem

    Raises
    ------
    UnknownNameError, ParseError, DisconnectedError, TilingError
        Unknown set, bad picture, disconnected piece, 2D pieces for a 3D region.

    Examples
    --------
    >>> problem = tile("6x10", "pentominoes")
    >>> problem.count(), problem.count(distinct=True)
    (9356, 2339)
    >>> tile("5x5", "tetrominoes").impossible
    'the pieces cover 20 cells but the region has 25'
    >>> print(tile("2x2", "dominoes", reuse=True).first())
    AB
    AB
    """
    if not isinstance(region, Region):
        region = Region.parse(region) if isinstance(region, str) else Region(region)
    piece_set = PieceSet.resolve(
        pieces, region.dim, counts, reuse=reuse, rotations=rotations, reflections=reflections
    )
    return TilingProblem(region, piece_set, strategy=strategy, engine=engine)

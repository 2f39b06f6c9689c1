"""The layout of a tiling problem: the region's cells in fill order and every placement.

A :class:`Layout` is the tiling problem with its geometry reduced to numbers:
the region's cells numbered in *fill order* (the longest axis varies slowest,
so the frontier of a search crosses the region along its short side; the
cells at one translation, as a triangle's ▽ and △, come one after the other),
each cell's neighbours by number (as the region's lattice gives them), and
every *placement* -- a piece in one of its orientations at one position inside
the region -- as ``(piece index, sorted cell numbers)``. With ``open=K``
cells left uncovered, each cell is also a placement of one more piece,
:data:`OPEN`, used exactly ``K`` times.

From a layout come the kernel's arguments (:func:`search_spec`, a
:class:`~polyforms.tiling._tiling_py.SearchSpec` over some of the placements)
and the plain exact-cover instance (:func:`to_exact_cover`). A layout also
knows at once when the problem has no tiling (:attr:`Layout.impossible`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..errors import TooLargeError
from ..files.solutions import OpenTiling, Placement, Tiling
from ..geometry import Cell, bounding_box
from ..lattice import Lattice
from ..limits import MAX_PLACEMENTS
from ..piece_sets import PieceSet
from ..region import Region
from .spec import BoundedSearchSpec, SearchSpec

if TYPE_CHECKING:
    from ..exactcover.problem import ExactCover

__all__ = ["OPEN", "Layout", "build_layout", "search_spec", "to_exact_cover"]

#: The piece name of an open cell inside the searches (a name no piece can have):
#: an open cell is a one-cell placement that every symmetry maps to an open cell.
OPEN = "\x00open"

#: A placement as the searches see it: (piece index, sorted cell numbers).
PlacementCells = tuple[int, tuple[int, ...]]


class Layout(NamedTuple):
    """A tiling problem as numbers: cells in fill order and placements over them.

    Attributes
    ----------
    region, pieces, open
        The problem: the cells to cover, the piece set, the cells left open.
    order : list of cells
        The region's cells in fill order; cell number ``i`` is ``order[i]``.
    index : dict
        Each cell's number.
    piece_names : list of str
        The pieces in set order; piece ``k`` of a placement is ``piece_names[k]``
        (``k == len(piece_names)``: an open cell).
    placements : list of (int, tuple of int)
        Every placement, piece by piece, each orientation on each cell in turn.
    neighbours : list of list of int
        Each cell's neighbours inside the region, by number.
    impossible : str or None
        Why the problem has no tiling, when that is seen at once.
    """

    region: Region
    pieces: PieceSet
    open: int
    order: list[Cell]
    index: dict[Cell, int]
    piece_names: list[str]
    placements: list[PlacementCells]
    neighbours: list[list[int]]
    impossible: str | None

    def tiling(self, indices: Iterable[int]) -> Tiling:
        """The tiling of placement indices; open cells as placements of :data:`OPEN`."""
        placements = []
        names = [*self.piece_names, OPEN]
        for i in indices:
            piece, cells = self.placements[i]
            placements.append(Placement(names[piece], tuple(sorted(self.order[c] for c in cells))))
        return Tiling(placements, self.region)

    def present(self, tiling: Iterable[Placement]) -> Tiling:
        """The tiling as the user sees it: open cells apart (an :class:`OpenTiling`)."""
        placements = [p for p in tiling if p.piece != OPEN]
        if not self.open:
            return Tiling(placements, self.region)
        cells = [p.cells[0] for p in tiling if p.piece == OPEN]
        return OpenTiling(placements, self.region, cells)


# -- building the layout ----------------------------------------------------------------


def build_layout(region: Region, pieces: PieceSet, open: int = 0) -> Layout:
    """The layout of tiling ``region`` with ``pieces``, ``open`` cells left uncovered.

    A problem whose areas cannot match gets no placements (no search needs
    them). Raises :class:`~polyforms.errors.TooLargeError` before building
    more than :data:`~polyforms.limits.MAX_PLACEMENTS` placements.
    """
    lattice = region.lattice
    # The extent of the translated coordinates; a cell's further coordinates (a
    # triangle's orientation) are never moved and come last in the fill order.
    extent = [max(column) - min(column) for column in zip(*region.cells)][: lattice.dimension]
    area = area_problem(region, pieces, open)
    used = [] if area is not None else [n for n in pieces.names if pieces.counts[n] != 0]
    check_placement_bound(region, extent, [pieces.orientations[n] for n in used])
    if lattice.name in ("triangle", "hex"):
        key = _plane_sweep(region.cells)
    else:
        axes = sorted(range(len(extent)), key=lambda a: (-extent[a], a))

        def key(cell: Cell) -> tuple:
            return tuple(cell[a] for a in axes)

    order = sorted(region.cells, key=key)
    index = {c: i for i, c in enumerate(order)}
    placements = _place_pieces(pieces, used, order, extent, key, lattice)
    if open and area is None:
        # An open cell is a placement of one more piece, a monomino used exactly
        # ``open`` times: a solution is then a tiling together with its open set,
        # and every open set is searched in the one tree. It comes last, so that
        # the real pieces are tried first at every node.
        placements.extend((len(pieces.names), (c,)) for c in range(len(order)))
    near = [[index[q] for q in lattice.neighbours(c) if q in index] for c in order]
    layout = Layout(region, pieces, open, order, index, pieces.names, placements, near, None)
    return layout._replace(impossible=area or _why_impossible(layout))


def _plane_sweep(cells: Sequence[Cell]) -> Callable[[Cell], tuple]:
    """The fill order of a region of triangles or hexagons, as a sort key.

    The grid's lines run three ways, along which ``y``, ``x`` and ``x + y``
    stay constant. As on the square lattice, the lines of the coordinate with
    the most values are filled one after the other, so that the frontier runs
    along the shortest lines; within a line the coordinate with the next most
    values orders the cells, then a triangle's ▽ before its △. In the 6x6
    rhombus that is ``x + y`` (11 values against 6), the diagonals from its
    acute corner: 0.08 s to count the hexiamonds' tilings against 0.13 s line
    by line (BENCHMARKS.md).
    """
    lines = (lambda c: c[0], lambda c: c[1], lambda c: c[0] + c[1])
    spans = [len({line(c) for c in cells}) for line in lines]
    first, second = sorted(range(3), key=lambda k: (-spans[k], -k))[:2]
    slow, fast = lines[first], lines[second]
    return lambda c: (slow(c), fast(c), *c[2:])


def check_placement_bound(region: Region, extent: Sequence[int], orientations: list) -> None:
    """Refuse a problem of more than :data:`~polyforms.limits.MAX_PLACEMENTS`
    placements before building them, by a bound: each orientation's
    translations within the region's bounding box, at most one a cell
    (exact for a box)."""
    bound = 0
    for shapes in orientations:
        for shape in shapes:
            lows, highs = bounding_box(shape)
            spans = [hi - lo for lo, hi in zip(lows, highs)]
            fits = math.prod(max(0, e - span + 1) for e, span in zip(extent, spans))
            bound += min(region.size, fits)
    if bound > MAX_PLACEMENTS:
        raise TooLargeError(
            f"this tiling problem would have up to {bound:,} placements of pieces, beyond "
            f"the limit of {MAX_PLACEMENTS:,} (memory): use a smaller region or fewer pieces"
        )


class _Grid(NamedTuple):
    """A box around the region with a margin wider than any piece, its positions
    numbered along its axes. A shape's cells lie at fixed position offsets from
    its anchor, which never wrap into the next row or layer, so a placement is
    a few list reads, with no cells built and hashed.

    On a lattice whose translation holds several cells (a triangle's ▽ and
    △: :attr:`~polyforms.lattice.Lattice.fundamental`) each translation has
    that many positions, one after the other, and a shape's anchor must be a
    cell of the same kind as the shape's first cell: a translation never turns
    a ▽ into a △."""

    strides: list[int]
    anchors: list[int]  # each region cell's position, in fill order
    kinds: list[int]  # each region cell's place among the cells of its translation
    cells: list[int | None]  # the region cell number at each position, None elsewhere


def _grid(order: Sequence[Cell], extent: Sequence[int], margin: int, lattice: Lattice) -> _Grid:
    dim = len(extent)
    kind_of = {cell[dim:]: k for k, cell in enumerate(lattice.fundamental)}
    lows = [min(column) - margin for column in itertools.islice(zip(*order), dim)]
    strides = [len(kind_of)] * dim
    for a in range(dim - 2, -1, -1):
        strides[a] = strides[a + 1] * (extent[a + 1] + 1 + 2 * margin)
    kinds = [kind_of[cell[dim:]] for cell in order]
    anchors = [
        sum((x - low) * stride for x, low, stride in zip(cell, lows, strides)) + kind
        for cell, kind in zip(order, kinds)
    ]
    cells: list[int | None] = [None] * (strides[0] * (extent[0] + 1 + 2 * margin))
    for i, at in enumerate(anchors):
        cells[at] = i
    return _Grid(strides, anchors, kinds, cells)


def _place_pieces(
    pieces: PieceSet,
    used: Sequence[str],
    order: Sequence[Cell],
    extent: Sequence[int],
    key: Callable[[Cell], tuple],
    lattice: Lattice,
) -> list[PlacementCells]:
    """Every placement of the ``used`` pieces: each orientation with its first cell
    (in fill order) on each region cell of its kind in turn, where all its cells
    are in the region."""
    if not used:
        return []
    margin = 1 + max(max(map(max, shape)) for n in used for shape in pieces.orientations[n])
    strides, anchors, kinds, at_position = _grid(order, extent, margin, lattice)
    dim = len(extent)
    kind_of = {cell[dim:]: k for k, cell in enumerate(lattice.fundamental)}
    placements: list[PlacementCells] = []
    for k, name in enumerate(pieces.names):
        if name not in used:
            continue
        for shape in pieces.orientations[name]:
            first = min(shape, key=key)
            offsets = [
                sum((x - y) * stride for x, y, stride in zip(c, first, strides))
                + kind_of[c[dim:]]
                - kind_of[first[dim:]]
                for c in shape
            ]
            if len(kind_of) == 1:
                places = anchors
            else:
                mine = kind_of[first[dim:]]
                places = [at for at, kind in zip(anchors, kinds) if kind == mine]
            for at in places:
                cells = [at_position[at + offset] for offset in offsets]
                if None not in cells:
                    placements.append((k, tuple(sorted(cells))))  # type: ignore[arg-type]
    return placements


# -- no tiling, seen at once --------------------------------------------------------------


def area_problem(region: Region, pieces: PieceSet, open: int) -> str | None:
    """Why the copies cannot cover the region's cells less the open ones, or None."""
    low, high = pieces.area_range
    target = region.size - open
    where = f"the region has {region.size}" + (f" ({target} covered)" if open else "")
    if low == high and low != target:
        return f"the pieces cover {low} cells but {where}"
    if low > target:
        return f"the pieces cover at least {low} cells but {where}"
    if high is not None and high < target:
        return f"the pieces cover at most {high} cells but {where}"
    return None


def area_reachable(pieces: PieceSet, target: int) -> bool:
    """Whether some choice of copies within the ranges has total area ``target``:
    the reachable areas as the bits of one integer, a piece at a time.

    A piece's optional copies, up to ``extra`` of them, are added in chunks of
    1, 2, 4, ... copies and a last chunk of the remainder, whose sub-sums are
    every number from 0 to ``extra``: ``log2(extra)`` shifts of a
    ``target``-bit integer a piece, where one shift a copy would cost
    ``target**2 / 64`` word operations for a monomino (a million cells: minutes).
    """
    mask = (1 << (target + 1)) - 1
    reach = 1
    for name, (low, high) in pieces.ranges.items():
        size = pieces.pieces[name].size
        reach = (reach << (low * size)) & mask
        extra = min((target // size if high < 0 else high) - low, target // size)
        chunk = 1
        while extra > 0:
            copies = min(chunk, extra)
            reach |= (reach << (copies * size)) & mask
            extra -= copies
            chunk *= 2
    return bool(reach >> target & 1)


def _why_impossible(layout: Layout) -> str | None:
    """Why a layout whose areas can match has no tiling, when seen at once: a cell
    no placement covers, a required piece that fits nowhere, or no choice of
    copies of the right total area."""
    pieces = layout.pieces
    covered = set(itertools.chain.from_iterable(cells for _, cells in layout.placements))
    used = {k for k, _ in layout.placements}
    missing = [layout.order[i] for i in range(len(layout.order)) if i not in covered]
    if missing:
        return f"no placement covers the region cell {missing[0]}"
    for k, name in enumerate(layout.piece_names):
        if pieces.ranges[name][0] > 0 and k not in used:
            return f"piece {name} fits nowhere in the region"
    low, high = pieces.area_range
    target = layout.region.size - layout.open
    if low != high and not area_reachable(pieces, target):
        # e.g. pentominoes, each at most once, in 8x8: 64 is no multiple of 5
        return f"no choice of copies covers exactly {target} of the region's cells"
    return None


# -- the kernel's arguments ---------------------------------------------------------------


def search_spec(
    layout: Layout, strategy: str, keep: Callable[[int], bool] | None = None
) -> tuple[SearchSpec, list[int]]:
    """The kernel's arguments for the placements ``i`` with ``keep(i)`` (all by
    default), and those placements' indices in the layout (the spec numbers
    them from 0). Copy ranges add the lower bounds (a :class:`BoundedSearchSpec`)."""
    pieces, names = layout.pieces, layout.piece_names
    chosen = [i for i in range(len(layout.placements)) if keep is None or keep(i)]
    limits = [pieces.counts[n] for n in names] + [layout.open]
    minimums = [pieces.ranges[n][0] for n in names] + [layout.open]
    must = [low == high for low, high in zip(minimums, limits)]
    sizes = [pieces.pieces[n].size for n in names if pieces.counts[n]]
    if layout.open:
        sizes.append(1)
    spec = SearchSpec(
        ncells=len(layout.order),
        placements=[layout.placements[i] for i in chosen],
        limits=limits,
        must_use=must,
        neighbours=layout.neighbours,
        strategy=strategy,
        flood_cap=flood_cap(len(layout.order), min(sizes, default=1)),
    )
    if not pieces.exact:
        spec = BoundedSearchSpec(*spec, minimums=minimums)
    return spec, chosen


def flood_cap(ncells: int, least: int) -> int:
    """The largest isolated empty area the kernel tests, for a board of ``ncells``
    cells whose smallest piece has ``least`` cells (the kernel knows which sizes
    are dead).

    Single cells are a mask test and pay for themselves everywhere. Areas of
    two and three cells pay on a one-word board, where a few shifts find them
    (8x8 + square: a quarter less time; BENCHMARKS.md), but not on larger
    boards, where each takes a flood fill; nor do larger areas anywhere.
    """
    if least <= 1:
        return 0
    return 3 if ncells <= 64 else 1


# -- the exact-cover instance -------------------------------------------------------------


def to_exact_cover(layout: Layout) -> ExactCover:
    """The plain exact cover instance of a layout (see :meth:`TilingProblem.to_exactcover`)."""
    from ..exactcover.problem import ExactCover

    names = [*layout.piece_names, OPEN]
    counted = {
        name: (low, high if high >= 0 else max(len(layout.placements), low, 1))
        for name, (low, high) in layout.pieces.ranges.items()
        if high > 0 or (high < 0 and low > 0)
    }
    if layout.open:
        counted[OPEN] = (layout.open, layout.open)
    choices = {}
    for piece, cells in layout.placements:
        name = names[piece]
        placement = Placement(name, tuple(sorted(layout.order[c] for c in cells)))
        items: list = list(placement.cells)
        if name in counted:
            items.append("open" if name == OPEN else ("piece", name))
        choices[placement] = items
    primary: list = list(layout.region.cells)
    multiplicity = {}
    for name, bounds in counted.items():
        item = "open" if name == OPEN else ("piece", name)
        primary.append(item)
        multiplicity[item] = bounds
    return ExactCover(choices, multiplicity=multiplicity, primary=primary)

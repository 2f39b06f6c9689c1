"""Tile a region of the square or cubic lattice with a set of pieces.

A tiling problem is built in three steps, each its own object:

* :class:`Region` -- the cells to cover (2D or 3D, holes and several parts allowed);
* :class:`PieceSet` -- the pieces, how many copies of each, which orientations;
* :class:`TilingProblem` -- every *placement* (a piece in one orientation at one
  position inside the region), searched by the compiled bitset kernel
  (:mod:`polyforms._core._tiling`) or by exact cover (:meth:`TilingProblem.to_exactcover`).

Copies may be exact (``counts={"I": 2}``) or ranges (``counts={"I": (0, 2)}``,
``optional=True`` for ``0..1`` of every piece); the region is still covered
exactly, except for ``open=K`` cells that stay uncovered (each solution then
reports them as :attr:`OpenTiling.open`, and :meth:`TilingProblem.count_by_open`
counts the tilings of every open set in one search: see :mod:`polyforms.tiling.open_cells`).

Essentially different tilings (``distinct=True``) are the orbits of the valid
tilings under the symmetries of the region; they are counted and listed by
symmetry breaking where the piece set is closed under those symmetries and by
canonical forms otherwise: see :mod:`polyforms.tiling.symmetry_breaking`.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
import warnings
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import _backend
from ..errors import CountOverflowError, TilingError, TooLargeError
from ..files.solutions import Placement, Tiling
from ..geometry import (
    Cell,
    bounding_box,
    neighbours,
)
from ..jobs.options import wants_split
from ..limits import MAX_PLACEMENTS, check_limit, memo_bytes
from ..piece_sets import PieceSet
from ..region import Region, Symmetry
from ._tiling_py import BoundedSearchSpec, SearchSpec
from .open_cells import MAX_OPEN_ROWS, OpenCells, OpenTiling, by_open_rows, by_open_summary
from .symmetry_breaking import OPEN, SymmetryBreaking, count_exactly

if TYPE_CHECKING:
    from .. import jobs as _jobs

__all__ = [
    "MAX_OPEN_ROWS",
    "OpenTiling",
    "Region",
    "PieceSet",
    "Placement",
    "Tiling",
    "TilingProblem",
    "Symmetry",
    "by_open_rows",
    "by_open_summary",
    "tile",
]

# -- the problem --------------------------------------------------------------------


def _kernel():
    return _backend.kernel("tiling")


class TilingProblem(SymmetryBreaking, OpenCells):
    """All placements of a piece set in a region, and the searches over them.

    Build with :func:`tile`. ``impossible`` holds the reason when the problem
    has no tiling for a reason seen at once (areas differ, a cell no placement
    covers, a piece that fits nowhere); then every search is empty.
    """

    def __init__(
        self,
        region: Region,
        pieces: PieceSet,
        *,
        open: int = 0,
        strategy: str = "auto",
        engine: str = "auto",
    ) -> None:
        if isinstance(open, bool) or not isinstance(open, int) or not 0 <= open <= region.size:
            raise TilingError(
                f"open must be a whole number from 0 to the region's {region.size} cells, "
                f"not {str(open)[:20]!r}"
            )
        self.open = open
        if engine not in ("auto", "bitset", "dlx"):
            raise TilingError(f"unknown engine {engine!r}; choose auto, bitset or dlx")
        # Measured (BENCHMARKS.md): the bitset kernel wins everywhere; in the plane
        # branching on the first empty cell (6x10: 4x faster than dancing links), in
        # boxes on the fewest fitting placements (3x4x5: 7.6 s against 11.9 s for
        # dancing links and over 100 s for first-empty, whose tree is 20x larger).
        self.engine = "bitset" if engine == "auto" else engine
        if strategy == "auto":
            # In boxes too, first-empty wins when every piece is free (any number of
            # copies, none required): 2x4x4 by the tetrominoes, counted 0.79 s
            # against 3.6 s without the memo (0.024 s against 0.061 s with it),
            # listed 0.16 s against 0.24 s for the first 300,000 tilings.
            strategy = "first" if region.dim == 2 or pieces.all_free else "mrv"
        if pieces.dim != region.dim:
            raise TilingError(f"the pieces are {pieces.dim}D but the region is {region.dim}D")
        self.region = region
        self.pieces = pieces
        self.strategy = strategy
        extent = [max(column) - min(column) for column in zip(*region.cells)]
        area_differs = self._area_problem() is not None
        used = [] if area_differs else [n for n in pieces.names if pieces.counts[n] != 0]
        self._check_placements(extent, [pieces.orientations[n] for n in used])
        self._axes = sorted(range(len(extent)), key=lambda a: (-extent[a], a))
        self.order = sorted(region.cells, key=self._key)
        self.index = {c: i for i, c in enumerate(self.order)}
        self.piece_names = pieces.names
        self.placements: list[tuple[int, tuple[int, ...]]] = []
        # Cells as positions in a box around the region with a margin wider than any
        # piece, numbered along its axes: ``grid`` holds each region cell's index
        # (None elsewhere), and a shape's cells lie at fixed position offsets from
        # its anchor, which never wrap into the next row or layer. A placement is then
        # a few list reads, no tuples built and hashed (6x10: 10 ms -> 4 ms).
        margin = 1 + max((max(map(max, shape)) for n in used for shape in pieces.orientations[n]),
                         default=0)  # fmt: skip
        lows = [min(column) - margin for column in zip(*region.cells)]
        strides = [1] * region.dim
        for a in range(region.dim - 2, -1, -1):
            strides[a] = strides[a + 1] * (extent[a + 1] + 1 + 2 * margin)
        anchors = [
            sum((x - low) * stride for x, low, stride in zip(cell, lows, strides))
            for cell in self.order
        ]
        grid: list[int | None] = [None] * (strides[0] * (extent[0] + 1 + 2 * margin))
        for i, at in enumerate(anchors):
            grid[at] = i
        for k, name in enumerate(self.piece_names):
            if name not in used:  # no search: no placements needed
                continue
            for shape in pieces.orientations[name]:
                # Put the shape's first cell (in fill order) on each region cell in turn.
                first = min(shape, key=self._key)
                offsets = [
                    sum((x - y) * stride for x, y, stride in zip(c, first, strides)) for c in shape
                ]
                for at in anchors:
                    cells = [grid[at + offset] for offset in offsets]
                    if None not in cells:
                        self.placements.append((k, tuple(sorted(cells))))  # type: ignore[arg-type]
        if open and not area_differs:
            # An open cell is a placement of one more piece, a monomino used exactly
            # ``open`` times: a solution is then a tiling together with its open set,
            # and every open set is searched in the one tree. It comes last, so that
            # the real pieces are tried first at every node.
            self.placements.extend((len(self.piece_names), (c,)) for c in range(len(self.order)))
        self.neighbours = [
            [self.index[q] for q in neighbours(c) if q in self.index] for c in self.order
        ]
        self.impossible = self._why_impossible()

    def _check_placements(self, extent: list[int], orientations: list[list]) -> None:
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
                bound += min(self.region.size, fits)
        if bound > MAX_PLACEMENTS:
            raise TooLargeError(
                f"this tiling problem would have up to {bound:,} placements of pieces, beyond "
                f"the limit of {MAX_PLACEMENTS:,} (memory): use a smaller region or fewer pieces"
            )

    def _key(self, cell: Cell) -> tuple:
        """Fill order: the longest axis varies slowest, so the frontier crosses the
        region along its short side (a 6x10 rectangle fills column by column of 6)."""
        return tuple(cell[a] for a in self._axes)

    def _area_problem(self) -> str | None:
        """Why the copies cannot cover the region's cells less the open ones, or None."""
        low, high = self.pieces.area_range
        target = self.region.size - self.open
        where = f"the region has {self.region.size}" + (f" ({target} covered)" if self.open else "")
        if low == high and low != target:
            return f"the pieces cover {low} cells but {where}"
        if low > target:
            return f"the pieces cover at least {low} cells but {where}"
        if high is not None and high < target:
            return f"the pieces cover at most {high} cells but {where}"
        return None

    def _area_reachable(self, target: int) -> bool:
        """Whether some choice of copies within the ranges has total area ``target``:
        the reachable areas as the bits of one integer, a piece at a time."""
        mask = (1 << (target + 1)) - 1
        reach = 1
        for name, (low, high) in self.pieces.ranges.items():
            size = self.pieces.pieces[name].size
            reach = (reach << (low * size)) & mask
            extra = (target // size if high < 0 else high) - low
            for _ in range(min(extra, target // size)):
                grown = reach | ((reach << size) & mask)
                if grown == reach:
                    break
                reach = grown
        return bool(reach >> target & 1)

    def _why_impossible(self) -> str | None:
        pieces = self.pieces
        area = self._area_problem()
        if area is not None:
            return area
        covered = set(itertools.chain.from_iterable(cells for _, cells in self.placements))
        used = {k for k, _ in self.placements}
        missing = [self.order[i] for i in range(len(self.order)) if i not in covered]
        if missing:
            return f"no placement covers the region cell {missing[0]}"
        for k, name in enumerate(self.piece_names):
            if pieces.ranges[name][0] > 0 and k not in used:
                return f"piece {name} fits nowhere in the region"
        low, high = pieces.area_range
        target = self.region.size - self.open
        if low != high and not self._area_reachable(target):
            # e.g. pentominoes, each at most once, in 8x8: 64 is no multiple of 5
            return f"no choice of copies covers exactly {target} of the region's cells"
        return None

    def __repr__(self) -> str:
        return (
            f"TilingProblem({self.region!r}, {len(self.piece_names)} pieces, "
            f"{len(self.placements)} placements)"
        )

    # -- searches ---------------------------------------------------------------

    def _search(self, keep: Callable[[int], bool] | None = None):
        """(kernel search, kernel arguments, placement indices) over the placements
        ``i`` with ``keep(i)`` (all by default)."""
        chosen = [i for i in range(len(self.placements)) if keep is None or keep(i)]
        limits = [self.pieces.counts[n] for n in self.piece_names] + [self.open]
        minimums = [self.pieces.ranges[n][0] for n in self.piece_names] + [self.open]
        must = [low == high for low, high in zip(minimums, limits)]
        sizes = [self.pieces.pieces[n].size for n in self.piece_names if self.pieces.counts[n]]
        if self.open:
            sizes.append(1)
        spec = SearchSpec(
            ncells=len(self.order),
            placements=[self.placements[i] for i in chosen],
            limits=limits,
            must_use=must,
            neighbours=self.neighbours,
            strategy=self.strategy,
            flood_cap=_flood_cap(len(self.order), min(sizes, default=1)),
        )
        if not self.pieces.exact:
            spec = BoundedSearchSpec(*spec, minimums=minimums)
        search, spec = self._engine(spec)
        return search, spec, chosen

    def _engine(self, spec: SearchSpec):
        """(search, its spec for worker processes, or None) on the chosen engine."""
        if self.engine == "dlx":
            return _ExactCoverSearch(spec), None
        return make_search(spec), spec

    def _tiling(self, indices: Iterable[int]) -> Tiling:
        """The tiling of placement indices; open cells as placements of :data:`OPEN`."""
        placements = []
        names = [*self.piece_names, OPEN]
        for i in indices:
            piece, cells = self.placements[i]
            placements.append(Placement(names[piece], tuple(sorted(self.order[c] for c in cells))))
        return Tiling(placements, self.region)

    def _present(self, tiling: Iterable[Placement]) -> Tiling:
        """The tiling as the user sees it: open cells apart (an :class:`OpenTiling`)."""
        placements = [p for p in tiling if p.piece != OPEN]
        if not self.open:
            return Tiling(placements, self.region)
        cells = [p.cells[0] for p in tiling if p.piece == OPEN]
        return OpenTiling(placements, self.region, cells)

    def solutions(
        self,
        distinct: bool = False,
        limit: int | None = None,
        *,
        jobs: int = 1,
        executor: Any = None,
        checkpoint: Any = None,
        progress: Any = None,
    ) -> Iterator[Tiling]:
        """Yield tilings (``distinct``: one canonical representative per class).

        Parameters
        ----------
        distinct : bool
            Yield each class of equivalent tilings once, as its least image
            under G (see the module notes).
        limit : int, optional
            Stop after this many.
        jobs, executor, checkpoint, progress
            As for :meth:`count`: without ``limit``, subtasks list the tilings
            below prefixes of the search (:mod:`polyforms.tiling.listings`); the
            tilings come in the same order as from one process.
        """
        if check_limit(limit) == 0 or self.impossible:
            return
        if limit is None and wants_split(jobs, executor, checkpoint, progress):
            from . import listings as _listings

            long_run = dict(jobs=jobs, executor=executor, checkpoint=checkpoint, progress=progress)
            split = _listings.tiling_solutions(self, distinct, long_run, _children)
            if split is not None:
                yield from split
                return
        produced = 0
        for tiling in self._solutions(distinct):
            yield self._present(tiling)
            produced += 1
            if produced == limit:
                return

    def write(
        self,
        path: Any,
        fmt: str = "txt",
        *,
        distinct: bool = False,
        steady: bool | None = None,
        limit: int | None = None,
        jobs: int = 1,
        executor: Any = None,
        checkpoint: Any = None,
        progress: Any = None,
        **drawing: Any,
    ) -> int:
        """Write the tilings to ``path`` (None or ``"-"``: stdout) atomically; return how many.

        ``fmt`` and ``drawing`` (columns, labels, colours, unit, gap) are those
        of :func:`polyforms.files.solutions.write_tilings`; ``steady`` shows each
        class as :meth:`steady` gives it (default: for pictures and models).
        ``jobs``, ``executor``, ``checkpoint`` and ``progress`` run the listing
        on the job layer as for :meth:`count`: for txt and jsonl, subtasks
        format their tilings and the chunks are written in search order, so the
        file is byte-identical to a one-process run; a checkpoint keeps the
        finished chunks beside the journal and the same call resumes.
        """
        from ..files.solutions import PICTURE_FORMATS, write_tilings

        if steady is None:
            steady = fmt in PICTURE_FORMATS
        steady = bool(distinct and steady)
        long_run = dict(jobs=jobs, executor=executor, checkpoint=checkpoint, progress=progress)
        if limit is None and not self.impossible and wants_split(**long_run):
            from . import listings as _listings

            written = _listings.tiling_listing(
                self, path, fmt, distinct=distinct, steady=steady, long_run=long_run,
                children=_children,
            )  # fmt: skip
            if written is not None:
                return written
        tilings = self.solutions(distinct, limit, **long_run)
        if steady:
            tilings = map(self.steady, tilings)
        return write_tilings(tilings, path, fmt, region=self.region, **drawing)

    def _solutions(self, distinct: bool) -> Iterator[Tiling]:
        for keep, finish in self._listing_parts(distinct):
            search, _, chosen = self._search(keep)
            for solution in search.solutions():
                tiling = finish(self._tiling(chosen[i] for i in solution))
                if tiling is not None:
                    yield tiling

    def _listing_parts(
        self, distinct: bool
    ) -> list[tuple[Callable[[int], bool] | None, Callable[[Tiling], Tiling | None]]]:
        """The listing as searches run one after the other, in listing order.

        Each part is ``(keep, finish)``: the search over the placements ``i``
        with ``keep(i)`` (all when None), and what each of its tilings becomes,
        a Tiling or None when another tiling stands for its class. A split
        listing (:mod:`polyforms.tiling.listings`) runs each part below prefixes of
        its search with the same ``finish``, so both give the same tilings in
        the same order.
        """
        if not distinct:
            return [(None, _as_is)]
        parts: list = []
        if self._breaker is None:
            parts.append((None, self._if_canonical))
        else:
            # One tiling per class under G, each the least of its class.
            _, reps = self._breaker
            for fixed, group in sorted(reps.items()):
                finish = functools.partial(self._class_member, fixed)
                parts.append((self._restricted(group), finish))
        if not self.closed:
            parts = [(keep, _then(finish, self._if_least_valid)) for keep, finish in parts]
        return parts

    def _if_canonical(self, tiling: Tiling) -> Tiling | None:
        own = tuple(sorted(tiling))
        return Tiling(own, self.region) if self.canonical(own) == own else None

    def _class_member(self, fixed: int, tiling: Tiling) -> Tiling | None:
        """A tiling of the breaker's restricted search as the least of its class under G;
        None when its breaker placement is fixed by symmetries (``fixed > 1``) that map it
        to a lesser tiling of the same search."""
        if fixed > 1:
            own = tuple(sorted(tiling))
            if any(self.image(own, g) < own for g in self._stabiliser_of(tiling)):
                return None
        return Tiling(self.canonical(tiling), self.region)

    def _if_least_valid(self, tiling: Tiling) -> Tiling | None:
        # Orbits under all the region's symmetries, of which G keeps only those
        # that map the piece set onto itself: each G-class is listed once; the
        # region-class holds several G-classes, and its least member lies in
        # exactly one of them, which alone is kept.
        least = self.canonical_valid(tiling)
        return Tiling(least, self.region) if self.canonical(least) == tuple(tiling) else None

    def count(
        self,
        distinct: bool = False,
        *,
        symmetry: bool = True,
        jobs: int = 1,
        progress: Any = None,
        executor: Any = None,
        checkpoint: Any = None,
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
            Local worker processes (0: every core); the search is cut into
            subtasks (:mod:`polyforms.jobs.runner`). Same count. A count whose pieces
            are all free sweeps its boards in this process instead, in
            ``jobs`` threads with the compiled kernel (:mod:`polyforms.tiling.sweep`:
            progress, checkpoint and signals as for subtasks), unless
            ``executor`` is given.
        progress : callable or bool, optional
            Called with a :class:`polyforms.jobs.runner.Progress` after each subtask
            (True: a bar on stderr); its fraction is weighted by Knuth's
            estimates of the subtrees.
        executor : optional
            Run the subtasks there: a :mod:`polyforms.jobs.runner` executor or a
            ``dask.distributed.Client``.
        checkpoint : path, optional
            Journal finished subtasks there; the same call resumes.

        Notes
        -----
        Cost: kernel searches restricted by nested symmetry breaking (together
        about 1/|G| of the whole tree), plus, for ``distinct``, one small search
        per non-identity g for the tilings it fixes (Burnside), when every
        piece is used once or never, or all are free (those counts memoize).
        With other copy counts, ``distinct`` lists the tilings whose breaker
        placement has a non-trivial stabiliser instead (all of them without a
        breaker).
        """
        long_run = (jobs, executor, checkpoint, progress)
        if self.impossible:
            return 0
        if distinct and not self.closed:
            return sum(1 for _ in self._solutions(True))
        order = len(self.group)
        if distinct and not self._quotients_countable:
            if self._breaker is None:
                return sum(1 for _ in self._solutions(True))
            # Copies of a piece: list the tilings of the non-trivial stabiliser classes.
            _, reps = self._breaker
            total = 0
            for fixed, group in sorted(reps.items()):
                if fixed > 1:
                    total += sum(1 for _ in self._solutions_with(group, fixed))
                else:
                    search, spec, _ = self._search(self._restricted(group))
                    total += _count_restricted(search, spec, [((), 1)], long_run)
            return total
        if self.engine == "bitset":
            search, spec, _ = self._search()
            total = _count_restricted(search, spec, self._restrictions(symmetry), long_run)
        else:
            total = sum(search.count() * w for (search, _, _), w in self._counting_parts(symmetry))
        if distinct:
            # Burnside: classes = (1/|G|) sum over g of the tilings g fixes; the
            # identity fixes all of them (``total``), the others few (tiny searches).
            total += sum(self.fixed_count(g) for g in range(1, order))
            classes, rest = divmod(total, order)
            if rest:
                raise TilingError(f"internal error: Burnside sum {total} not divisible by {order}")
            return classes
        return total

    def _counting_parts(self, symmetry: bool = True) -> list[tuple[Any, int]]:
        """The searches whose counts, times their weights, add up to all tilings
        (one search each; :meth:`_restrictions` serves them from one kernel)."""
        if self._breaker is None or not symmetry:
            return [(self._search(), 1)]
        return [(self._search(self._allowing(allowed)), w) for allowed, w in self._plan]

    def _restrictions(self, symmetry: bool = True) -> Restrictions:
        """The searches of :meth:`_counting_parts` as restrictions of the kernel of
        all placements (:meth:`_search`): (placements left out, weight) each.

        The searches differ only in the placements of their breaker pieces, and
        building a kernel for each took 3x4x5 0.3 s for its 75 searches, where
        restricting one takes 0.1 ms (:meth:`TilingSearch.restrict`)."""
        if self._breaker is None or not symmetry:
            return [((), 1)]
        placements_of = self._placements_of
        return [
            (tuple(i for k, kept in allowed.items() for i in placements_of[k] if i not in kept), w)
            for allowed, w in self._plan
        ]

    def estimate(self, budget: float = 0.8, seed: int = 0) -> TreeEstimate:
        """Estimate the count's searches without running them: nodes, tilings and seconds.

        Random probes with partial backtracking (Knuth 1975, Purdom 1978) on
        the searches :meth:`count` runs (the restrictions of symmetry
        breaking), for about ``budget`` seconds shared among them by their
        sizes (a few plain Knuth probes each). The tilings estimated are all
        tilings (each search's times its weight), not classes; the nodes and
        seconds are those of the count's searches. With free pieces only they
        are those of the whole tree, which the count's memo mostly skips: an
        upper bound (8x8 by the tetrominoes: 3.8 s estimated, 0.1 s taken).
        """
        if self.impossible or self.engine != "bitset":
            return _estimate_restricted(None, None, [], budget, seed)
        search, spec, _ = self._search()
        return _estimate_restricted(search, spec, self._restrictions(), budget, seed)

    @property
    def memoized(self) -> bool:
        """Whether :meth:`count` skips most of its search tree: every piece is free
        (any number of copies), so it sweeps boards or memoizes them, and
        :meth:`estimate`'s nodes and seconds are an upper bound."""
        if self.impossible or self.engine != "bitset":
            return False
        search, _, _ = self._search()
        return bool(search.memo and search.memo_ok)

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
        """The plain exact cover instance: items are the region cells and the pieces
        with their copy counts or ranges (a piece used any number of times has no
        item); a choice is a :class:`Placement`. With open cells, each cell has one
        more choice, ``Placement(OPEN, (cell,))``, on the item ``"open"`` needed
        exactly ``open`` times.

        Examples
        --------
        >>> tile("2x4", "dominoes", reuse=True).to_exactcover().count()
        5
        """
        from ..exactcover.problem import ExactCover

        names = [*self.piece_names, OPEN]
        counted = {
            name: (low, high if high >= 0 else max(len(self.placements), low, 1))
            for name, (low, high) in self.pieces.ranges.items()
            if high > 0 or (high < 0 and low > 0)
        }
        if self.open:
            counted[OPEN] = (self.open, self.open)
        choices = {}
        for piece, cells in self.placements:
            name = names[piece]
            placement = Placement(name, tuple(sorted(self.order[c] for c in cells)))
            items: list = list(placement.cells)
            if name in counted:
                items.append("open" if name == OPEN else ("piece", name))
            choices[placement] = items
        primary: list = list(self.region.cells)
        multiplicity = {}
        for name, bounds in counted.items():
            item = "open" if name == OPEN else ("piece", name)
            primary.append(item)
            multiplicity[item] = bounds
        return ExactCover(choices, multiplicity=multiplicity, primary=primary)


def _as_is(tiling: Tiling) -> Tiling:
    return tiling


def _then(
    first: Callable[[Tiling], Tiling | None], second: Callable[[Tiling], Tiling | None]
) -> Callable[[Tiling], Tiling | None]:
    """``second`` after ``first``, None passing through."""

    def both(tiling: Tiling) -> Tiling | None:
        found = first(tiling)
        return None if found is None else second(found)

    return both


def _flood_cap(ncells: int, least: int) -> int:
    """The largest isolated empty area the kernel tests, for a board of ``ncells``
    cells whose smallest piece has ``least`` cells (the kernel knows which sizes
    are dead).

    Measured (BENCHMARKS.md, issue 15): single cells, a mask test, pay for
    themselves everywhere. Areas of two and three cells pay on a one-word
    board, where a few shifts find them (8x8 + square 25 % less time, 6x10
    10 %); on larger boards, where they take a flood, they do not (5x13 with
    two P: 1.27 -> 1.90 s for pairs alone), nor do floods of larger areas.
    """
    if least <= 1:
        return 0
    return 3 if ncells <= 64 else 1


def make_search(spec: SearchSpec):
    """The tiling kernel's search for a spec (compiled, or the readable twin)."""
    return _kernel().TilingSearch(
        spec.ncells,
        spec.placements,
        spec.limits,
        spec.must_use,
        spec.neighbours,
        strategy=spec.strategy,
        flood_cap=spec.flood_cap,
        minimums=getattr(spec, "minimums", None),
    )


class _ExactCoverSearch:
    """The tiling kernel's interface over the exact-cover cores (MRV branching).

    Items: the cells ``0 .. ncells - 1``, each exactly once, then one item per
    piece that some placement uses: primary with exactly ``limit`` uses, or
    secondary (any number) when the limit is -1. Option ``o`` is placement
    ``o``, so solutions come back as placement numbers.
    """

    def __init__(self, spec: SearchSpec) -> None:
        from array import array

        from ..exactcover import problem as exactcover

        used = sorted({k for k, _ in spec.placements})
        item_of = {k: spec.ncells + j for j, k in enumerate(used)}
        minimums = getattr(spec, "minimums", None) or [
            max(limit, 0) if must else 0 for limit, must in zip(spec.limits, spec.must_use)
        ]
        lower = [1] * spec.ncells + [minimums[k] for k in used]
        upper = [1] * spec.ncells + [
            spec.limits[k] if spec.limits[k] >= 0 else len(spec.placements) for k in used
        ]
        primary = [1] * spec.ncells + [int(spec.limits[k] >= 0 or minimums[k] > 0) for k in used]
        offsets, items = [0], []
        for k, cells in spec.placements:
            items.extend(sorted(cells))
            items.append(item_of[k])
            offsets.append(len(items))
        columns = (lower, upper, primary, offsets, items)
        self._arrays = tuple(array("i", values) for values in columns)
        self._flat = exactcover._Flat(*self._arrays)
        self._engine = exactcover._core(None, self._flat)

    def _new(self, prefix):
        return self._engine(*self._arrays, list(prefix), [])

    def count(self, progress=None, prefix=()) -> int:
        total = self._new(prefix).count()
        if progress is not None:
            progress(1.0)
        return total

    def solutions(self, limit=None, prefix=()):
        from ..exactcover import problem as exactcover

        return itertools.islice(exactcover._solutions_of(self._new(prefix)), limit)


class TreeEstimate(NamedTuple):
    """What :meth:`TilingProblem.estimate` expects of a search."""

    nodes: float
    solutions: float
    seconds: float
    probes: int


#: Subtasks a split tiling count starts from (before jobs.plan refines heavy ones).
SPLIT_TASKS = 64
#: Knuth probes per subtask for its weight. The weights' errors decide how far
#: the ETA strays: with 16, the first tasks of 3x4x5 --distinct ran 1.3x slower
#: per unit of weight than the whole and the ETA at a quarter of a 2-worker run
#: read 1.3-1.7x the truth; with 64, 0.95 (8x8 + square: 0.9 either way). The
#: plan takes 5-15 ms longer on the benchmark rows. 32 happened to overweigh
#: one heavy subtask of 8x8 + square twofold (its ETA read 2.1x): a Knuth
#: estimate's error is heavy-tailed, and more probes only make such luck rarer.
PROBES = 64
#: A subtask counts at most the larger of TASK_NODES nodes and 1/BUDGET_SHARE
#: of the estimated whole, then hands back the rest (:func:`_count_task`).
#: Measured on 8x8 + square (110 planned subtasks): 2^18 and 1/128 made 442
#: subtasks and slowed a 2-worker Dask run from 0.75 to 0.94 of one worker;
#: 2^20 and 1/32 make 167, within the noise of no handing back.
TASK_NODES = 1 << 20
BUDGET_SHARE = 32
#: ... and stops after this many seconds whatever its budget, so that a long count
#: journals its work (``--checkpoint``) and moves its progress at least this often:
#: 10x10 by pentominoes with reuse has 113 subtasks of about 10^16 nodes each,
#: which no run finishes, and an interrupted run kept nothing.
TASK_SECONDS = 60.0


Restrictions = list[tuple[tuple[int, ...], int]]  # (placements left out, weight) each
Prefixes = tuple[tuple[int, ...], ...]  # the nodes a subtask counts below


def _count_restricted(
    search, spec: SearchSpec | None, restrictions: Restrictions, long_run: tuple
) -> int:
    """Sum over ``restrictions`` (placements left out, weight) of the tilings the
    kernel ``search`` counts with those placements left out, times the weight.

    ``long_run``: the (jobs, executor, checkpoint, progress) of :meth:`TilingProblem.count`;
    a split count needs the kernel's ``spec`` (the exact-cover engine has none).
    """
    if spec is not None:
        swept = _swept(search, spec, restrictions, long_run)
        if swept is not None:
            return swept
    if spec is not None and wants_split(*long_run):
        from ..jobs import runner as jobs  # imported only by counts that split

        job = _CountJob(spec, restrictions)
        _KERNELS.clear()
        _KERNELS[job.digest] = [[None, search]]
        try:
            return jobs.LongRun(*long_run).sum(job)
        finally:
            _KERNELS.clear()  # forked workers keep their copy; this process needs none
    return sum(count_exactly(search) * weight for weight in _in_turn(search, restrictions))


def _swept(search, spec: SearchSpec, restrictions: Restrictions, long_run: tuple) -> int | None:
    """The count by sweeps over boards (:mod:`polyforms.tiling.sweep`) when every piece
    is free and no cluster is asked for; None otherwise, or when a sweep would
    pass its memory budget (the count then goes as before, with a warning)."""
    if not (search.memo and search.memo_ok) or long_run[1] is not None:
        return None
    try:
        if wants_split(*long_run):
            from . import (
                sweep as _sweep,  # with the job layer's options: progress, checkpoint, signals
            )

            key = _CountJob(spec, restrictions).key if long_run[2] is not None else ""
            make = functools.partial(make_search, spec)  # a search for each further thread
            return _sweep.count(_kernel(), search, restrictions, key, long_run, make)
        total = 0
        for weight in _in_turn(search, restrictions):
            sweep = _kernel().BoardSweep(search, budget=memo_bytes())
            while not sweep.run(1 << 20):
                pass
            total += sweep.count * weight
        return total
    except MemoryError as error:
        warnings.warn(f"{error} (POLYFORMS_MEMO): counting by the search instead, "
                      "which can take far longer", RuntimeWarning, stacklevel=4)  # fmt: skip
        return None


def _in_turn(search, restrictions: Restrictions) -> Iterator[int]:
    """Restrict ``search`` to each of ``restrictions`` in turn, yielding its weight.
    A lone empty restriction leaves the kernel alone (the exact-cover engine's
    search, used so, cannot restrict)."""
    alone = len(restrictions) == 1 and not restrictions[0][0]
    for excluded, weight in restrictions:
        if not alone:
            search.restrict(excluded)
        yield weight


# Kernels by the digest of their spec, each with the part (restriction) it has
# now, least recently used first. A count's job puts its kernel here, so its
# subtasks, in this process or in worker processes forked after that, use it;
# other processes (dask workers, a pool started earlier) build it once.
# Restricting is cheap for fewest-options kernels (0.1 ms) but rebuilds the
# split lists of first-empty ones (8x8 + square: 4 ms), and the subtasks come
# part by part in turn, so a process keeps a few kernels of a spec, each
# restricted to the part it served last.
_KERNELS: dict[str, list[list[Any]]] = {}
_PER_SPEC = 4
_SPECS_KEPT = 4


def _kernel_for(digest: str, packed_spec: bytes, part: str, excluded: tuple[int, ...]):
    """The kernel of the spec with ``excluded`` left out (``part`` names that restriction)."""
    pool = _KERNELS.get(digest)
    if pool is None:
        if len(_KERNELS) >= _SPECS_KEPT:
            _KERNELS.pop(next(iter(_KERNELS)))
        pool = _KERNELS[digest] = []
    # Ours for this part, else one for no part yet (the count's own kernel).
    entry = next((e for e in pool if e[0] == part), None)
    entry = entry or next((e for e in pool if e[0] is None), None)
    if entry is not None:
        pool.remove(entry)
    elif len(pool) < _PER_SPEC:
        import pickle

        entry = [None, make_search(pickle.loads(packed_spec))]
    else:
        entry = pool.pop(0)
    pool.append(entry)
    if entry[0] != part:
        entry[1].restrict(excluded)
        entry[0] = part
    return entry[1]


def _count_task(
    digest: str, packed_spec: bytes, part: str, excluded: tuple[int, ...],
    prefixes: Prefixes, weight: int, budget: int, seconds: float,
) -> int | Any:  # fmt: skip
    """A subtask: the tilings below each of ``prefixes`` in one part, times the
    part's weight; after ``budget`` nodes or ``seconds``, or in a worker
    process once another worker sits idle with nothing to do
    (:func:`~polyforms.jobs.executors.peers_idle`), it stops and returns a
    :class:`polyforms.jobs.runner.Continued` naming what is left (:func:`_rest`). The
    count is the same wherever it stops.

    The spec comes pickled once per job (``packed_spec``), not once per subtask:
    pickling a spec of thousands of placements for each of 200 subtasks took the
    parent 0.15 s of a 2-second run, and a process that has the kernel already
    never unpickles it. As :class:`~polyforms.jobs.executors.Shared` bytes it goes
    to each worker process once (8x8 + square: 9 MB less through the pipes).
    """
    from ..jobs.processes import stop_when
    from ..jobs.tasks import Continued

    search = _kernel_for(digest, packed_spec, part, excluded)
    found, left, stop = 0, budget, stop_when(seconds)
    for j, prefix in enumerate(prefixes):
        try:
            found += search.count(prefix=prefix, nodes=left, stop=stop)
            overflowed = False
        except CountOverflowError:
            overflowed = True
        left -= search.nodes  # read now: branch and probe reset it
        if overflowed:
            # Its tilings pass the kernel's 64-bit counter (the memo counts boards
            # of more than 2**63 - 1 ways): its children count them, as new subtasks.
            rest, searched = [[list(child) for child in _children(search, prefix)]], []
        elif search.stopped_at is not None:
            rest, searched = _rest(search, prefix, search.stopped_at)
        else:
            continue
        if j + 1 < len(prefixes):
            rest.append([list(p) for p in prefixes[j + 1 :]])
        weights = [_group_weight(search, group) for group in rest]
        # The share of its work it did, for the progress. (Counting siblings,
        # as Knuth's programs report progress, made the ETA of 10x10 with
        # reuse swing from 1.2e7 to 4e4 hours in a minute.)
        if search.memo and search.memo_ok:
            # The memo skips subtrees, so the nodes visited undercount the
            # tree the rest's weights measure: estimate the part behind alike.
            if j:
                searched.append([list(p) for p in prefixes[:j]])
            behind = sum(_group_weight(search, group) for group in searched)
        else:
            behind = float(budget - left)  # exact
        share = behind / (behind + sum(weights)) if behind > 0 else 0.0
        return Continued(found * weight, rest, weights, share)
    return found * weight


def _rest(
    search, prefix: Sequence[int], path: Sequence[int]
) -> tuple[list[list[list[int]]], list[list[list[int]]]]:
    """What a count from ``prefix`` stopped at ``path`` has left, as groups of
    prefixes: the node it stopped at, then, from the deepest level up, the
    children after the path's at each level (in :meth:`branch` order, the
    order the search takes them). Together they partition the rest of the tree.

    Also what it searched, likewise: the children before the path's at each level.
    """
    groups = [[list(prefix) + list(path)]]
    searched = []
    for level in range(len(path) - 1, -1, -1):
        node = list(prefix) + list(path[:level])
        siblings = search.branch(node) or []
        at = siblings.index(path[level])
        later = siblings[at + 1 :]
        if later:
            groups.append([node + [p] for p in later])
        if at:
            searched.append([node + [p] for p in siblings[:at]])
    return groups, searched


def _group_weight(search, group: list[list[int]]) -> float:
    """Knuth's estimate of the nodes below a group of prefixes (:func:`_estimate.group_weight`)."""
    from ..jobs.estimate import group_weight

    return group_weight(lambda prefix, seed: search.probe(tuple(prefix), 1, seed), group)


def _children(search, prefix: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [prefix + (p,) for p in search.branch(prefix) or ()]


def _frontier(search, want: int) -> list[tuple[int, ...]]:
    """About ``want`` prefixes whose subtrees partition the search, in search order."""
    from ..jobs.estimate import frontier

    return frontier(lambda node: _children(search, node), (), want)


class _CountJob:
    """A tiling count cut into subtasks (see :class:`polyforms.jobs.runner.Job`).

    Each part (a restriction of one kernel and its weight) is cut breadth-first
    into prefixes of placements; a prefix's subtree holds the tilings
    containing it, and the children of a node split them, so the counts add up.
    """

    def __init__(self, spec: SearchSpec, restrictions: Restrictions) -> None:
        import hashlib
        import pickle

        from ..jobs.tasks import Shared

        self.restrictions = restrictions
        # Every subtask takes the spec: a worker process gets it once (Shared).
        self.packed_spec = Shared(pickle.dumps(spec, protocol=5))
        self.digest = self.packed_spec.key[:16]  # its SHA-1, hashed once
        self.parts = [
            hashlib.sha1(
                b"%s %s *%d" % (self.digest.encode(), repr(excluded).encode(), weight)
            ).hexdigest()[:16]
            for excluded, weight in restrictions
        ]
        self.key = "tiling count " + hashlib.sha1("".join(self.parts).encode()).hexdigest()[:16]
        self.budget = TASK_NODES  # set from the estimates by tasks()

    def _kernel(self, part: int):
        """This process's kernel, restricted to ``part``."""
        excluded = self.restrictions[part][0]
        return _kernel_for(self.digest, self.packed_spec, self.parts[part], excluded)

    def _weight(self, part: int, task_id: str, prefix: tuple[int, ...]) -> float:
        """Knuth's estimate of the nodes below ``prefix`` in ``part``."""
        return self._kernel(part).probe(prefix, PROBES, zlib.crc32(task_id.encode()))

    def _task(self, part: int, task_id: str, prefixes: Prefixes, nodes: float) -> _jobs.Task:
        from ..jobs.tasks import Task

        excluded, weight = self.restrictions[part]
        parts = (self.digest, self.packed_spec, self.parts[part], excluded)
        args = (*parts, prefixes, weight, self.budget, TASK_SECONDS)
        return Task(task_id, _count_task, args, max(nodes, 1.0))

    def tasks(self) -> list[_jobs.Task]:
        want = max(1, SPLIT_TASKS // len(self.parts))
        weighed = []  # (part, id, prefix, nodes) of each subtask, part by part
        for part in range(len(self.parts)):
            frontier = _frontier(self._kernel(part), want)
            ids = [f"{part}.{i}" for i in range(len(frontier))]
            weighed.append([(part, i, p, self._weight(part, i, p)) for i, p in zip(ids, frontier)])
        # Knuth's probes miss heavy subtrees (8x8 + square: a subtask estimated
        # at 0.2 % of the work held 25 %), so a subtask stops after a share of
        # the estimated whole and hands the rest back as new subtasks.
        whole = sum(nodes for found in weighed for *_, nodes in found)
        self.budget = max(TASK_NODES, int(whole / BUDGET_SHARE))
        per_part = [
            [self._task(part, i, (prefix,), nodes) for part, i, prefix, nodes in found]
            for found in weighed
        ]
        # A count is a sum, so the order is free: take the parts in turn. The
        # progress then samples every restricted search from the start, whose
        # node costs per unit of Knuth weight differ (8x8 + square: 0.16 to 2.6),
        # instead of running them one after the other with the ETA misled by each.
        found = []
        for rank in range(max(map(len, per_part), default=0)):
            found.extend(tasks[rank] for tasks in per_part if rank < len(tasks))
        return found

    def refine(self, task: _jobs.Task) -> list[_jobs.Task] | None:
        part = int(task.id.partition(".")[0])
        [prefix] = task.args[4]
        children = _children(self._kernel(part), prefix)
        if not children:
            return None
        ids = [f"{task.id}.{k}" for k in range(len(children))]
        return [
            self._task(part, i, (child,), self._weight(part, i, child))
            for i, child in zip(ids, children)
        ]

    def resume(self, task: _jobs.Task, rest: list, weights: list) -> list[_jobs.Task]:
        """The subtasks that count what ``task`` left (see :func:`_count_task`)."""
        part = int(task.id.partition(".")[0])
        groups = [tuple(tuple(prefix) for prefix in group) for group in rest]
        for group in groups:
            for prefix in group:
                if not all(type(p) is int for p in prefix):
                    raise ValueError(f"a prefix is not a list of placements: {list(prefix)!r:.60}")
        return [
            self._task(part, f"{task.id}.c{k}", group, nodes)
            for k, (group, nodes) in enumerate(zip(groups, weights))
        ]


_OFFSET = 9
_THRESHOLD = 0.2
_MIN_PROBES = 2


#: Plain Knuth probes per search that share out an estimate's budget.
_SHARE_PROBES = 8


def _estimate_restricted(
    search, spec: SearchSpec | None, restrictions: Restrictions, budget: float, seed: int
) -> TreeEstimate:
    """Estimate the restricted searches of a count by random probes with partial
    backtracking.

    :func:`polyforms.jobs.estimate.estimate_partial` on each search (``search``
    restricted in turn), for a share of ``budget`` seconds in proportion to its
    size by ``_SHARE_PROBES`` plain probes (3x4x5: 75 searches, one of them
    two thirds of the work): a probe walks down random children (Knuth 1975)
    and counts the subtree where it stops exactly with the kernel (Purdom
    1978), starting ``_OFFSET`` placements short of a whole tiling and cutting
    deeper while a subtree costs more than ``_THRESHOLD`` seconds. Each exact
    count's measured time, scaled like its count, estimates the time of the
    whole search. Estimating the whole tree and dividing its time by |G|
    instead read 2.3x the truth on 6x10 and 2.7x on 8x8 + square: a breaker
    pinned near the root cuts more than 1/|G|.
    """
    from ..jobs.estimate import estimate_partial

    if not restrictions:
        return TreeEstimate(0.0, 0.0, 0.0, 0)
    sizes = [len(cells) for _, cells in spec.placements]
    depth = max(0, round(spec.ncells * len(sizes) / max(sum(sizes), 1)) - _OFFSET)
    shares = []
    if len(restrictions) > 1:
        shares = [
            search.probe((), _SHARE_PROBES, seed + k)
            for k, _ in enumerate(_in_turn(search, restrictions))
        ]
    whole = sum(shares)
    nodes = solutions = seconds = 0.0
    probes = 0
    for k, weight in enumerate(_in_turn(search, restrictions)):
        found = estimate_partial(
            functools.partial(_children, search),
            functools.partial(_timed_count, search),
            (),
            depth=depth,
            budget=budget * (shares[k] / whole if shares else 1.0),
            seed=seed + k,
            slow=_THRESHOLD,
            min_probes=_MIN_PROBES,
        )
        nodes += found.nodes
        solutions += weight * found.solutions
        seconds += found.seconds
        probes += found.probes
    return TreeEstimate(nodes, solutions, seconds, probes)


class _GaveUp(Exception):
    """A timed count ran past its time (raised from the kernel's progress call)."""


def _timed_count(search, prefix: tuple[int, ...], give_up: float):
    """(tilings, nodes, seconds) of the subtree at ``prefix``, or None when its count
    is still running after ``give_up`` seconds (the kernel reports progress every
    2M nodes or so; it may be restarted after the stop)."""
    start = time.perf_counter()

    def watch(_fraction: float) -> None:
        if time.perf_counter() - start > give_up:
            raise _GaveUp

    try:
        found = search.count(progress=watch, prefix=prefix)
    except _GaveUp:
        return None
    return found, search.nodes, time.perf_counter() - start


def tile(
    region: Region | str | Iterable[Sequence[int]],
    pieces: Any,
    *,
    counts: Mapping[str, int | tuple[int, int | None]] | None = None,
    reuse: bool = False,
    optional: bool = False,
    open: int = 0,
    rotations: bool = True,
    reflections: bool = True,
    strategy: str = "auto",
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
        Copies of each piece (default one each): exactly ``{"I": 2}``, or a
        range ``{"I": (0, 2)}`` (``(1, None)``: one or more).
    reuse : bool
        Any number of copies of each piece not named in ``counts``.
    optional : bool
        Each piece may be left out: ``0..1`` copies (``0..k`` for ``k`` in ``counts``).
    open : int
        Exactly this many cells of the region stay uncovered; each solution is
        an :class:`OpenTiling` naming them.
    rotations, reflections : bool
        Allow turning / mirroring the pieces (within what the set allows).
    strategy : {"auto", "first", "mrv"}
        Branching rule of the bitset kernel: first empty cell or fewest fitting
        placements; ``auto`` takes the first for 2D regions and for boxes whose
        pieces are all free (any number of copies, none required), the second
        for other 3D ones (measured faster each).
    engine : {"auto", "bitset", "dlx"}
        The bitset kernel or the exact-cover engine (dancing links); ``auto`` is
        the bitset kernel (measured faster in 2D and 3D).

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
    >>> tile("3x5", "pentominoes", optional=True).count()
    28
    >>> print(tile("1x3", "dominoes", open=1).first().open)
    ((2, 0),)
    """
    if not isinstance(region, Region):
        region = Region.parse(region) if isinstance(region, str) else Region(region)
    piece_set = PieceSet.resolve(
        pieces, region.dim, counts, reuse=reuse, optional=optional, rotations=rotations,
        reflections=reflections,
    )  # fmt: skip
    return TilingProblem(region, piece_set, open=open, strategy=strategy, engine=engine)

"""Tile a region of any lattice (square, cubic, triangular, hexagonal) with a set of pieces.

A tiling problem is built in three steps, each its own object:

* :class:`Region` -- the cells to cover (squares, cubes, triangles or hexagons;
  holes and several parts allowed);
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

This module is the front door: :func:`tile` and :class:`TilingProblem`, which
holds the parts of the problem and answers through them. The parts are
modules of their own: the placements and the kernel's arguments
(:mod:`~polyforms.tiling.layout`), the searches on each engine
(:mod:`~polyforms.tiling.engines`), counting (:mod:`~polyforms.tiling.counting`,
:mod:`~polyforms.tiling.sweep`), listing (:mod:`~polyforms.tiling.representatives`,
:mod:`~polyforms.tiling.listings`) and ``--estimate``
(:mod:`~polyforms.tiling.tree_estimate`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..errors import TilingError
from ..files.solutions import Placement, Tiling
from ..jobs.options import LongRun
from ..limits import check_estimate, check_limit
from ..piece_sets import PieceSet, named_set_lattice
from ..region import Region, Symmetry
from .counting import children, count_restricted
from .engines import ENGINES, KernelSearch, Searches
from .engines import make_search as make_search  # the scripts' way to a kernel of a spec
from .layout import build_layout, to_exact_cover
from .open_cells import MAX_OPEN_ROWS, OpenCells, OpenTiling, by_open_rows, by_open_summary
from .representatives import count_listed_classes, listing_parts, tilings_of
from .symmetry_breaking import SymmetryBreaking
from .tree_estimate import TreeEstimate, estimate_restricted

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


class TilingProblem:
    """All placements of a piece set in a region, and the searches over them.

    Build with :func:`tile`. ``impossible`` holds the reason when the problem
    has no tiling for a reason seen at once (areas differ, a cell no placement
    covers, a piece that fits nowhere); then every search is empty.

    The problem is made of three parts, each given what it needs:

    * :attr:`layout` -- the cells in fill order and every placement
      (:mod:`polyforms.tiling.layout`), also as :attr:`order`, :attr:`index`,
      :attr:`piece_names`, :attr:`placements` and :attr:`neighbours`;
    * :attr:`searches` -- the searches over the placements on the chosen
      engine (:mod:`polyforms.tiling.engines`);
    * :attr:`symmetry_breaking` -- the group G, the images of tilings and the
      restricted searches of essentially different tilings
      (:mod:`polyforms.tiling.symmetry_breaking`), through which the problem
      answers :attr:`group`, :meth:`canonical`, :meth:`steady`,
      :meth:`fixed_count` and the like.
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
        if engine != "auto" and engine not in ENGINES:
            raise TilingError(f"unknown engine {engine!r}; choose auto, bitset or dlx")
        if pieces.dim != region.dim:
            raise TilingError(f"the pieces are {pieces.dim}D but the region is {region.dim}D")
        if pieces.lattice is not region.lattice:
            raise TilingError(
                f"the pieces are of the {pieces.lattice.name} lattice but the region is of "
                f"the {region.lattice.name} lattice"
            )
        self.region = region
        self.pieces = pieces
        self.open = open
        # The bitset kernel is faster than dancing links in the plane and in
        # boxes alike (BENCHMARKS.md).
        self.engine = "bitset" if engine == "auto" else engine
        self.strategy = _auto_strategy(region, pieces) if strategy == "auto" else strategy
        layout = self.layout = build_layout(region, pieces, open)
        self.order, self.index, self.piece_names = layout.order, layout.index, layout.piece_names
        self.placements, self.neighbours = layout.placements, layout.neighbours
        self.impossible = layout.impossible
        self.searches = Searches(layout, self.strategy, self.engine)
        self.symmetry_breaking = SymmetryBreaking(layout, self.searches)
        self._open_cells = OpenCells(layout, self.searches, self.symmetry_breaking)

    def __repr__(self) -> str:
        return (
            f"TilingProblem({self.region!r}, {len(self.piece_names)} pieces, "
            f"{len(self.placements)} placements)"
        )

    # -- listing ------------------------------------------------------------------

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
        yield from self._listed(distinct, limit, LongRun(jobs, executor, checkpoint, progress))

    def _listed(self, distinct: bool, limit: int | None, options: LongRun) -> Iterator[Tiling]:
        """:meth:`solutions` with its long-run options as one value."""
        if check_limit(limit) == 0 or self.impossible:
            return
        if limit is None and options.split:
            from .listings import tiling_solutions  # with the writers: not for short listings

            split = tiling_solutions(self, distinct, options, children)
            if split is not None:
                yield from split
                return
        produced = 0
        for tiling in tilings_of(self.searches, listing_parts(self.symmetry_breaking, distinct)):
            yield self.layout.present(tiling)
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
        options = LongRun(jobs, executor, checkpoint, progress)
        if limit is None and not self.impossible and options.split:
            from .listings import tiling_listing

            written = tiling_listing(
                self, path, fmt, distinct=distinct, steady=steady, options=options,
                children=children,
            )  # fmt: skip
            if written is not None:
                return written
        tilings = self._listed(distinct, limit, options)
        if steady:
            tilings = map(self.steady, tilings)
        return write_tilings(tilings, path, fmt, region=self.region, **drawing)

    def first(self) -> Tiling | None:
        """One tiling, or None."""
        return next(self.solutions(limit=1), None)

    # -- counting -----------------------------------------------------------------

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
            subtasks (:mod:`polyforms.jobs`). Same count. A count whose pieces
            are all free sweeps its boards in this process instead, in
            ``jobs`` threads with the compiled kernel (:mod:`polyforms.tiling.sweep`:
            progress, checkpoint and signals as for subtasks), unless
            ``executor`` is given.
        progress : callable or bool, optional
            Called with a :class:`polyforms.jobs.Progress` after each subtask
            (True: a bar on stderr); its fraction is weighted by Knuth's
            estimates of the subtrees.
        executor : optional
            Run the subtasks there: a :mod:`polyforms.jobs` executor or a
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
        options = LongRun(jobs, executor, checkpoint, progress)
        if self.impossible:
            return 0
        breaking = self.symmetry_breaking
        if distinct and not breaking.closed:
            return sum(1 for _ in tilings_of(self.searches, listing_parts(breaking, True)))
        if distinct and not breaking.quotients_countable:
            return count_listed_classes(self.searches, breaking, options)
        if self.engine == "bitset":
            search, spec, _ = self.searches.over()
            total = count_restricted(search, spec, breaking.restrictions(symmetry), options)
        else:
            total = sum(search.count() * w for (search, _, _), w in self._counting_parts(symmetry))
        return self._burnside(total) if distinct else total

    def _burnside(self, total: int) -> int:
        """The classes under G of ``total`` tilings, by Burnside's lemma: (1/|G|) times
        the sum over g of the tilings g fixes; the identity fixes all of them
        (``total``), the other elements few (tiny searches)."""
        order = len(self.group)
        total += sum(self.fixed_count(g) for g in range(1, order))
        classes, rest = divmod(total, order)
        if rest:
            raise TilingError(f"internal error: Burnside sum {total} not divisible by {order}")
        return classes

    def _counting_parts(self, symmetry: bool = True) -> list[tuple[KernelSearch, int]]:
        """The searches whose counts, times their weights, add up to all tilings, each
        built on its own (:meth:`SymmetryBreaking.restrictions` serves them from one
        kernel instead)."""
        breaking = self.symmetry_breaking
        if breaking.breaker is None or not symmetry:
            return [(self.searches.over(), 1)]
        plan = breaking.plan or []
        return [(self.searches.over(breaking.allowing(allowed)), w) for allowed, w in plan]

    def estimate(self, budget: float = 0.8, seed: int = 0) -> TreeEstimate:
        """Estimate the count's searches without running them: nodes, tilings and seconds.

        Random probes with partial backtracking (Knuth 1975, Purdom 1978) on
        the searches :meth:`count` runs (the restrictions of symmetry
        breaking), for about ``budget`` seconds shared among them by their
        sizes (a few plain Knuth probes each). The tilings estimated are all
        tilings (each search's times its weight), not classes; the nodes and
        seconds are those of the count's searches. With free pieces only they
        are those of the whole tree, which the count's memo mostly skips: an
        upper bound, often far above the count's time (:attr:`memoized`).

        The tilings are nan, with a RuntimeWarning, where the probes cannot
        estimate them: none reached a tiling, and they were too few, or the
        tree too deep, to say there are none (100x100 by the dominoes).

        Raises
        ------
        WrongTypeError, PolyformError
            ``budget`` not a finite number of seconds, ``seed`` not a whole number.
        """
        budget, seed = check_estimate(budget, seed)
        if self.impossible or self.engine != "bitset":
            return estimate_restricted(None, None, [], budget, seed)
        search, spec, _ = self.searches.over()
        restrictions = self.symmetry_breaking.restrictions()
        found = estimate_restricted(search, spec, restrictions, budget, seed)
        if math.isnan(found.solutions):
            warnings.warn(
                f"cannot estimate the tilings: none of the {found.probes} probes reached one, "
                "too few to tell rare tilings from none", RuntimeWarning, stacklevel=2,
            )  # fmt: skip
        return found

    @property
    def memoized(self) -> bool:
        """Whether :meth:`count` skips most of its search tree: every piece is free
        (any number of copies), so it sweeps boards or memoizes them, and
        :meth:`estimate`'s nodes and seconds are an upper bound."""
        if self.impossible or self.engine != "bitset":
            return False
        search, _, _ = self.searches.over()
        return bool(search.memo and search.memo_ok)

    def count_by_open(self, distinct: bool = False) -> dict[tuple, int]:
        """The number of tilings for every set of open cells, in one search
        (:meth:`polyforms.tiling.open_cells.OpenCells.count_by_open`).

        Examples
        --------
        >>> tile("1x4", "dominoes", open=2).count_by_open()
        {((0, 0), (1, 0)): 1, ((0, 0), (3, 0)): 1, ((2, 0), (3, 0)): 1}
        """
        return self._open_cells.count_by_open(distinct)

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
        return to_exact_cover(self.layout)

    # -- symmetry, through the symmetry breaking ------------------------------------

    @property
    def group(self) -> list[tuple[Symmetry, dict[str, str]]]:
        """G: the region's symmetries that map the piece set to itself, with the
        permutation each induces on the piece names (identity first)."""
        return self.symmetry_breaking.group

    @property
    def region_group(self) -> list[tuple[Symmetry, dict[str, str] | None]]:
        """Every symmetry of the region, with its permutation of the pieces when it maps
        the piece set onto itself (else None); identity first."""
        return self.symmetry_breaking.region_group

    @property
    def closed(self) -> bool:
        """True when the piece set is closed under the region's symmetries (G is all of them)."""
        return self.symmetry_breaking.closed

    @property
    def steady_piece(self) -> str | None:
        """The piece that :meth:`steady` puts near the top-left
        (:attr:`SymmetryBreaking.steady_piece`)."""
        return self.symmetry_breaking.steady_piece

    def image(self, tiling: Iterable[Placement], g: int) -> tuple[Placement, ...]:
        """The tiling mapped by the ``g``-th element of :attr:`group`, sorted."""
        return self.symmetry_breaking.image(tiling, g)

    def canonical(self, tiling: Iterable[Placement]) -> tuple[Placement, ...]:
        """The least image of a tiling under G (:meth:`SymmetryBreaking.canonical`)."""
        return self.symmetry_breaking.canonical(tiling)

    def valid_image(self, tiling: Iterable[Placement], k: int) -> tuple[Placement, ...] | None:
        """The tiling mapped by the ``k``-th symmetry of the region, or None when that
        image is not a valid tiling (:meth:`SymmetryBreaking.valid_image`)."""
        return self.symmetry_breaking.valid_image(tiling, k)

    def canonical_valid(self, tiling: Iterable[Placement]) -> tuple[Placement, ...]:
        """The least valid image of a tiling under every symmetry of the region
        (:meth:`SymmetryBreaking.canonical_valid`)."""
        return self.symmetry_breaking.canonical_valid(tiling)

    def stabiliser(self, tiling: Iterable[Placement]) -> list[Symmetry]:
        """The elements of G mapping the tiling onto itself."""
        return self.symmetry_breaking.stabiliser(tiling)

    def steady_key(self, tiling: Iterable[Placement]) -> tuple:
        """What :meth:`steady` minimises (:meth:`SymmetryBreaking.steady_key`)."""
        return self.symmetry_breaking.steady_key(tiling)

    def steady(self, tiling: Iterable[Placement]) -> Tiling:
        """The image of a tiling within its class that a picture shows
        (:meth:`SymmetryBreaking.steady`)."""
        return self.symmetry_breaking.steady(tiling)

    def fixed_count(self, g: int) -> int:
        """The number of tilings mapped onto themselves by the ``g``-th element of G
        (:meth:`SymmetryBreaking.fixed_count`)."""
        return self.symmetry_breaking.fixed_count(g)

    # -- shorthands of the benchmark scripts and the long-run tests ------------------

    def _search(self, keep: Callable[[int], bool] | None = None) -> KernelSearch:
        """(search, spec, chosen) over the placements ``i`` with ``keep(i)``
        (:meth:`Searches.over`)."""
        return self.searches.over(keep)

    @property
    def _plan(self):
        """:attr:`SymmetryBreaking.plan`."""
        return self.symmetry_breaking.plan

    def _restrictions(self, symmetry: bool = True):
        """:meth:`SymmetryBreaking.restrictions`."""
        return self.symmetry_breaking.restrictions(symmetry)


def _plane_lattice(value: Region | PieceSet) -> Any:
    """The lattice to read pieces or a region on, given the other's: its own when it
    is triangular or hexagonal (two or three integers there do not tell the
    lattice), else None (the square or cubic lattice, from the dimension)."""
    return value.lattice if value.lattice.name in ("triangle", "hex") else None


def _auto_strategy(region: Region, pieces: PieceSet) -> str:
    """The bitset kernel's faster branching rule for a problem: the first empty cell
    in the plane, and in boxes whose pieces are all free (any number of copies,
    none required), where its memo does the work; otherwise the fewest fitting
    placements, whose tree in boxes is far smaller (BENCHMARKS.md)."""
    return "first" if region.dim == 2 or pieces.all_free else "mrv"


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
    lattice: Any = None,
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
        placements; ``auto`` takes the first for 2D regions and for boxes of free
        pieces (any number of copies, none required), else the second (faster each).
    engine : {"auto", "bitset", "dlx"}
        The bitset kernel or the exact-cover engine (dancing links); ``auto`` is
        the bitset kernel (measured faster in 2D and 3D).
    lattice : Lattice or str, optional
        The lattice of a region or pieces given as text or cells
        (``"triangle"``, ``"hex"``; default: square or cubic, from the
        coordinates). A named set of polyiamonds or polyhexes brings its own,
        so ``tile("6x6", "hexiamonds")`` tiles a rhombus of triangles.

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
    >>> tile("6x6", "hexiamonds").count(distinct=True)  # a rhombus of 72 triangles
    156
    """
    region = _region_of(region, pieces, lattice)
    piece_set = PieceSet.resolve(
        pieces, region.dim, counts, reuse=reuse, optional=optional, rotations=rotations,
        reflections=reflections, lattice=_plane_lattice(region),
    )  # fmt: skip
    return TilingProblem(region, piece_set, open=open, strategy=strategy, engine=engine)


def _region_of(region: Region | str | Iterable[Sequence[int]], pieces: Any, lattice: Any) -> Region:
    """``region`` as a :class:`Region`, read on ``lattice``, else on the lattice of
    pieces that know theirs (a named set of polyiamonds, a PieceSet)."""
    if isinstance(region, Region):
        return region
    if lattice is None:
        if isinstance(pieces, str):
            lattice = named_set_lattice(pieces)
        elif isinstance(pieces, PieceSet):
            lattice = _plane_lattice(pieces)
    if isinstance(region, str):
        return Region.parse(region, lattice=lattice)
    return Region(region, lattice=lattice)

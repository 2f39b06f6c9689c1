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

Symmetry breaking: one *breaker* piece, used once and mapped to itself by all
of G, is restricted to one placement per orbit of G. Every class then has a
member whose breaker sits on a representative ``p``; the members with the
breaker on ``p`` form one orbit of the stabiliser ``H_p``.

*Counting* nests this: the tilings with the breaker on ``p`` are permuted by
``H_p``, so a second piece is restricted to one placement per ``H_p``-orbit,
and so on until the last restricted placement has a trivial stabiliser (or no
piece is left). A search whose last restricted placement has stabiliser K
counts each tiling for ``|G| / |K|``; the weighted counts add up to all tilings,
at about 1/|G| of the whole tree whatever the breaker. The number of classes
then follows from Burnside's lemma, ``(1/|G|) sum over g of fix(g)``, where
fix(identity) is that total and fix(g) for the other g are tiny searches over
orbit options (:meth:`TilingProblem.fixed_count`); no tiling is listed. The
breaker at each level is the usable piece with the fewest placements (measured:
X in 6x10, I then X in 3x4x5).

*Listing* one tiling per class uses one level: the tilings with the breaker on
a representative whose stabiliser is trivial, plus those on the other
representatives that are least in their ``H_p``-orbit. Without a usable breaker
(copies allowed, ``reuse``) every tiling is generated and kept when it is the
least of its images; so is a distinct count when a piece has several copies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, NamedTuple

from . import _backend
from .errors import TilingError
from .geometry import (
    Cell,
    neighbours,
)
from .pieces import PieceSet
from .region import Region, Symmetry
from .solutions import Placement, Tiling

__all__ = [
    "Region",
    "PieceSet",
    "Placement",
    "Tiling",
    "TilingProblem",
    "Symmetry",
    "tile",
]

# -- the problem --------------------------------------------------------------------


def _kernel():
    return _backend.kernel("tiling")


class TilingProblem:
    """All placements of a piece set in a region, and the searches over them.

    Build with :func:`tile`. ``impossible`` holds the reason when the problem
    has no tiling for a reason seen at once (areas differ, a cell no placement
    covers, a piece that fits nowhere); then every search is empty.
    """

    def __init__(
        self, region: Region, pieces: PieceSet, *, strategy: str = "auto", engine: str = "auto"
    ) -> None:
        if engine not in ("auto", "bitset", "dlx"):
            raise TilingError(f"unknown engine {engine!r}; choose auto, bitset or dlx")
        # Measured (BENCHMARKS.md): the bitset kernel wins everywhere; in the plane
        # branching on the first empty cell (6x10: 4x faster than dancing links), in
        # boxes on the fewest fitting placements (3x4x5: 7.6 s against 11.9 s for
        # dancing links and over 100 s for first-empty, whose tree is 20x larger).
        self.engine = "bitset" if engine == "auto" else engine
        if strategy == "auto":
            strategy = "first" if region.dim == 2 else "mrv"
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
    def _cell_images(self) -> list[list[int]]:
        """For each element of G, the image of every cell index."""
        return [[self.index[symmetry(c)] for c in self.order] for symmetry, _ in self.group]

    def _breaker_in(
        self, subgroup: Sequence[int], exclude: Iterable[int] = ()
    ) -> tuple[int, dict[tuple[int, ...], list[int]]] | None:
        """(breaker piece, {stabiliser: representatives}) for the subgroup of G given
        by its element indices, or None when no piece can break it.

        A breaker is used exactly once and fixed by every permutation of the
        subgroup. Its placements fall into orbits under the subgroup; each orbit
        is represented by its earliest placement in fill order (so the search
        meets the breaker's deadline early), grouped by the stabiliser of that
        placement (a tuple of element indices, identity first).

        Choice: the piece with the fewest placements (first in the set on ties).
        With nested breaking every piece leaves about 1/|G| of the tree (the
        representatives weighted by 1/|stabiliser| add up to placements/|G|), so
        what differs is the shape of the tree: a rare piece is placed near the
        root, where its restriction cuts most. Measured (BENCHMARKS.md): X in
        6x10, 1.5 M nodes against 3.6 M for F; in 3x4x5, I 6.8 s, X 6.7 s,
        W 7.0 s, P 10.9 s.
        """
        if self.pieces.reuse or len(subgroup) == 1:
            return None
        skip = set(exclude)
        usable = [
            k
            for k, name in enumerate(self.piece_names)
            if self.pieces.counts[name] == 1
            and k not in skip
            and self._placements_of[k]
            and all(self.group[g][1][name] == name for g in subgroup)
        ]
        if not usable:
            return None
        k = min(usable, key=lambda k: (len(self._placements_of[k]), k))
        images = self._cell_images
        mine = self._placements_of[k]
        by_cells = {self.placements[i][1]: i for i in mine}
        seen: set[int] = set()
        reps: dict[tuple[int, ...], list[int]] = {}
        for i in mine:  # placements are in fill order of their anchor
            if i in seen:
                continue
            cells = self.placements[i][1]
            stabiliser = []
            for g in subgroup:
                j = by_cells[tuple(sorted(images[g][c] for c in cells))]
                seen.add(j)
                if j == i:
                    stabiliser.append(g)
            reps.setdefault(tuple(stabiliser), []).append(i)
        return k, reps

    @cached_property
    def _placements_of(self) -> list[list[int]]:
        """Each piece's placement indices, in fill order."""
        found: list[list[int]] = [[] for _ in self.piece_names]
        for i, (piece, _) in enumerate(self.placements):
            found[piece].append(i)
        return [sorted(mine, key=lambda i: self.placements[i][1]) for mine in found]

    @cached_property
    def _breaker(self) -> tuple[int, dict[int, list[int]]] | None:
        """(breaker piece, {|H_p|: [representative placement indices]}) under all of G,
        or None (see :meth:`_breaker_in`)."""
        found = self._breaker_in(range(len(self.group)))
        if found is None:
            return None
        piece, by_stabiliser = found
        reps: dict[int, list[int]] = {}
        for stabiliser, group in by_stabiliser.items():
            reps.setdefault(len(stabiliser), []).extend(group)
        return piece, {f: sorted(r, key=lambda i: self.placements[i][1])
                       for f, r in sorted(reps.items())}  # fmt: skip

    @cached_property
    def _plan(self) -> list[tuple[dict[int, frozenset[int]], int]] | None:
        """Restricted searches whose weighted counts sum to all tilings: a list of
        ({piece: allowed placements}, weight), or None without a breaker.

        Breaking nests: the tilings with the breaker on a representative p are
        mapped among themselves by the stabiliser H_p, so a second piece is
        restricted to one placement per H_p-orbit, and so on until the
        stabiliser is trivial or no piece is left to break it. A search whose
        last restricted placement has stabiliser K counts each of its tilings
        for |G| / |K| tilings.
        """
        order = len(self.group)
        plan: list[tuple[dict[int, frozenset[int]], int]] = []

        def descend(subgroup: tuple[int, ...], allowed: dict[int, frozenset[int]]) -> bool:
            found = self._breaker_in(subgroup, exclude=allowed)
            if found is None:
                return False
            piece, by_stabiliser = found
            classes = sorted(by_stabiliser.items(), key=lambda kv: (len(kv[0]), kv[0]))
            for stabiliser, group in classes:
                inner = {**allowed, piece: frozenset(group)}
                if len(stabiliser) == 1 or not descend(stabiliser, inner):
                    plan.append((inner, order // len(stabiliser)))
            return True

        if not descend(tuple(range(order)), {}):
            return None
        return plan

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
        search, arguments = self._engine(arguments)
        return search, arguments, chosen

    def _engine(self, arguments: tuple):
        """(search, arguments for worker processes or None) on the chosen engine."""
        if self.engine == "dlx":
            return _ExactCoverSearch(arguments), None
        return _make_search(arguments), arguments

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
        Cost: kernel searches restricted by nested symmetry breaking (together
        about 1/|G| of the whole tree), plus, for ``distinct``, one small search
        per non-identity g for the tilings it fixes (Burnside). With copies of
        a piece, ``distinct`` lists the tilings whose breaker placement has a
        non-trivial stabiliser instead.
        """
        if self.impossible:
            return 0
        if self._breaker is None or (not distinct and not symmetry):
            if distinct:
                return sum(1 for _ in self._solutions(True))
            return _count(self._search(), jobs, progress)
        order = len(self.group)
        if distinct and not self._quotients_countable:
            # Copies of a piece: list the tilings of the non-trivial stabiliser classes.
            _, reps = self._breaker
            total = 0
            for fixed, group in sorted(reps.items()):
                if fixed > 1:
                    total += sum(1 for _ in self._solutions_with(group, fixed))
                else:
                    total += _count(self._search(self._restricted(group)), jobs, None)
            if progress is not None:
                progress(1.0)
            return total
        plan = self._plan
        total = 0
        for step, (allowed, weight) in enumerate(plan):
            def part(share: float, step: int = step) -> None:
                if progress is not None:
                    progress((step + share) / len(plan))

            found = _count(self._search(self._allowing(allowed)), jobs, part)
            total += found * weight
        if distinct:
            # Burnside: classes = (1/|G|) sum over g of the tilings g fixes; the
            # identity fixes all of them (``total``), the others few (tiny searches).
            total += sum(self.fixed_count(g) for g in range(1, order))
            classes, rest = divmod(total, order)
            if rest:
                raise TilingError(f"internal error: Burnside sum {total} not divisible by {order}")
            return classes
        return total

    def _allowing(self, allowed: Mapping[int, frozenset[int]]) -> Callable[[int], bool]:
        def keep(i: int) -> bool:
            piece = self.placements[i][0]
            return piece not in allowed or i in allowed[piece]

        return keep

    @cached_property
    def _quotients_countable(self) -> bool:
        """True when :meth:`fixed_count` applies: every piece used at most once."""
        return not self.pieces.reuse and all(c <= 1 for c in self.pieces.counts.values())

    def fixed_count(self, g: int) -> int:
        """The number of tilings mapped onto themselves by the ``g``-th element of G.

        A tiling fixed by g is a union of whole orbits of placements under the
        cyclic group generated by g (with pieces permuted as g permutes them). So
        these tilings are the exact covers of the region by *orbit options*: the
        union of an orbit whose members are pairwise disjoint and use distinct
        pieces, all of them (a piece used twice would need two copies). Such an
        option uses every piece of its piece orbit once, so the pieces of one
        orbit become one item. Only for sets using each piece at most once.

        Notes
        -----
        Cost: a search over the orbit options, which are few (a placement must
        be mapped onto itself or onto disjoint placements) -- small next to
        the restricted search for g = identity.
        """
        if not self._quotients_countable:
            raise TilingError("fixed_count needs every piece used at most once")
        if self.impossible:
            return 0
        symmetry, mapping = self.group[g]
        cell_image = [self.index[symmetry(c)] for c in self.order]
        name_index = {name: k for k, name in enumerate(self.piece_names)}
        piece_image = [name_index[mapping[name]] for name in self.piece_names]
        # Items for the piece orbits of <g>.
        piece_item: dict[int, int] = {}
        for k in range(len(self.piece_names)):
            if k not in piece_item:
                item = len(set(piece_item.values()))
                j = k
                while j not in piece_item:
                    piece_item[j] = item
                    j = piece_image[j]
        options: set[tuple[int, tuple[int, ...]]] = set()
        for piece, cells in self.placements:
            covered: set[int] = set()
            used: set[int] = set()
            current_piece, current = piece, cells
            while True:
                if current_piece in used or covered.intersection(current):
                    break
                used.add(current_piece)
                covered.update(current)
                current_piece = piece_image[current_piece]
                current = tuple(sorted(cell_image[c] for c in current))
                if current_piece == piece and current == cells:
                    options.add((piece_item[piece], tuple(sorted(covered))))
                    break
        # Pieces of one orbit have the same count (G maps the set onto itself).
        limits = [0] * len(set(piece_item.values()))
        for k, name in enumerate(self.piece_names):
            limits[piece_item[k]] = self.pieces.counts[name]
        covered_cells = {c for _, cells in options for c in cells}
        used_items = {item for item, _ in options}
        if len(covered_cells) < len(self.order) or any(
            limit > 0 and item not in used_items for item, limit in enumerate(limits)
        ):
            return 0  # a cell or a piece no orbit option can take
        search, _ = self._engine(
            (
                len(self.order),
                sorted(options),
                limits,
                [limit > 0 for limit in limits],
                # Every component of an option is a whole piece, so a lone empty cell
                # is dead exactly when no piece is a single cell.
                self.neighbours if min(p.size for p in self.pieces.pieces.values()) > 1
                else None,
                self.strategy,
                2,
            )
        )
        return search.count()

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
        Copies of each piece (default one each): ``{"I": 2}``.
    reuse : bool
        Any number of copies of each piece.
    rotations, reflections : bool
        Allow turning / mirroring the pieces (within what the set allows).
    strategy : {"auto", "first", "mrv"}
        Branching rule of the bitset kernel: first empty cell or fewest fitting
        placements; ``auto`` takes the first for 2D regions and the second for
        3D ones (measured faster each).
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
    """
    if not isinstance(region, Region):
        region = Region.parse(region) if isinstance(region, str) else Region(region)
    piece_set = PieceSet.resolve(
        pieces, region.dim, counts, reuse=reuse, rotations=rotations, reflections=reflections
    )
    return TilingProblem(region, piece_set, strategy=strategy, engine=engine)

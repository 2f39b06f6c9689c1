"""Essentially different tilings: the symmetry group of a tiling problem and its breaking.

Essentially different tilings
-----------------------------
*Definition.* The distinct tilings are the orbits, under the symmetries of the
region, of the valid tilings: two valid tilings are the same when a symmetry
of the region maps one onto the other. A symmetry s maps a tiling to the
tiling whose placements are the images of its placements, each named by the
piece whose allowed orientations hold the image's shape (when s maps the
whole set onto itself, by the permutation of the pieces it induces: see G
below); the image is *valid* when every shape is an allowed orientation of
some piece and every piece's copies are within its range (open cells map to
open cells). Images that are not valid do not count: the orbit of a tiling is
the set of its valid images. This is an equivalence on the valid tilings
(the image of a valid image is a valid image, by the composed symmetry).

G is the group of lattice symmetries that map the region onto itself *and* the
piece set onto itself: a symmetry g belongs to G when, for every piece, the
images under g of the piece's allowed orientations are exactly the allowed
orientations of some piece with the same range of copies. Every image of a
valid tiling under G is valid. With free pieces that holds for every symmetry
of the region. With one-sided pieces (no reflections) a reflection belongs to
G exactly when the set is closed under mirror images (the 18 one-sided
pentominoes, the Soma pieces): it then maps a tiling to a tiling using the
mirror pieces. With ``reflections=False`` on the 12 free pentominoes, F has no
mirror in the set, so G holds rotations only.

When G is every symmetry of the region (the set is *closed*), the classes are
the orbits under G and are counted by symmetry breaking (below). Otherwise a
symmetry outside G may still map some valid tilings onto valid ones (those
that never use the pieces it breaks): the classes are then found by canonical
forms -- one tiling per G-class is listed (by symmetry breaking under G), and
it is kept when the least valid image of its region-class lies in its own
G-class (:meth:`SymmetryBreaking.canonical_valid`). Example: a 3x4 rectangle,
a domino and an S tetromino with any number of copies, no reflections: G is
the rotations (S has no mirror in the set), there are 9 classes under G, and
7 under all the region's symmetries, since two pairs of them are mirror
images that use only dominoes.

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
orbit options (:meth:`SymmetryBreaking.fixed_count`, :mod:`polyforms.tiling.fixed_tilings`);
no tiling is listed. The breaker at the top level is the usable piece with
the fewest placements (X in 6x10; I, then X, in 3x4x5); below it, the fewest
among those that no non-identity element of the stabiliser fixes, when there
are any.

*Listing* one tiling per class uses one level: the tilings with the breaker on
a representative whose stabiliser is trivial, plus those on the other
representatives that are least in their ``H_p``-orbit. Without a usable breaker
(copies allowed, ``reuse``) every tiling is generated and kept when it is the
least of its images; so is a distinct count when a piece has several copies.
Which tilings each part of a listing keeps is :mod:`polyforms.tiling.representatives`.

Steady orientation
------------------
A listed representative is the least image of its class (:meth:`canonical`),
which suits comparison by program but not by eye: in the first distinct 5x12
pentomino tilings the I lies on the left edge in most and on the right in a
few. For pictures, :meth:`SymmetryBreaking.steady` shows each class as the
image that puts one fixed piece, the *steady piece* (the longest piece that
every element of G maps to itself: the I of the pentominoes), as near the
top-left as it can go: its cells in reading order (layer, then row, then
column) are least; ties (the steady piece fixed by a symmetry) go to the least
image. The classes and their number do not change, only which member stands
for each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from ..errors import CountOverflowError, TilingError
from ..files.solutions import Placement, Tiling
from ..geometry import Cell
from ..region import Symmetry
from . import fixed_tilings
from .layout import OPEN, Layout

if TYPE_CHECKING:
    from .engines import Searches

__all__ = ["OPEN", "Restrictions", "SymmetryBreaking", "count_exactly"]

#: Restricted searches of one kernel: (placements left out, weight) each.
Restrictions = list[tuple[tuple[int, ...], int]]
#: A restricted search of nested breaking: ({piece: placements allowed}, weight).
PlanPart = tuple[dict[int, frozenset[int]], int]


class SymmetryBreaking:
    """The group G of a tiling problem, its images of tilings, and the restricted
    searches that count each class of tilings once.

    Parameters
    ----------
    layout : Layout
        The problem's cells and placements (:mod:`polyforms.tiling.layout`).
    searches : Searches
        Runs the small searches of Burnside's terms (:meth:`fixed_count`).

    A :class:`~polyforms.tiling.problem.TilingProblem` holds one, as
    :attr:`~polyforms.tiling.problem.TilingProblem.symmetry_breaking`, and
    answers its questions about symmetry through it.
    """

    def __init__(self, layout: Layout, searches: Searches) -> None:
        self.layout = layout
        self.searches = searches

    # -- the group and its images ---------------------------------------------------

    @cached_property
    def group(self) -> list[tuple[Symmetry, dict[str, str]]]:
        """G: the region's symmetries that map the piece set to itself, with the
        permutation each induces on the piece names (identity first)."""
        return [(s, mapping) for s, mapping in self.region_group if mapping is not None]

    @cached_property
    def region_group(self) -> list[tuple[Symmetry, dict[str, str] | None]]:
        """Every symmetry of the region, with its permutation of the pieces when it maps
        the piece set onto itself (else None); identity first."""
        pieces = self.layout.pieces
        return [(s, pieces.permutation(s.transform)) for s in self.layout.region.symmetries()]

    @cached_property
    def closed(self) -> bool:
        """True when the piece set is closed under the region's symmetries (G is all of them)."""
        return len(self.group) == len(self.region_group)

    def image(self, tiling: Iterable[Placement], g: int) -> tuple[Placement, ...]:
        """The tiling mapped by the ``g``-th element of :attr:`group`, sorted."""
        symmetry, mapping = self.group[g]
        return tuple(
            sorted(Placement(mapping.get(p.piece, OPEN), symmetry.apply(p.cells)) for p in tiling)
        )

    def canonical(self, tiling: Iterable[Placement]) -> tuple[Placement, ...]:
        """The least image of a tiling under G: equal for exactly the tilings equivalent
        under G (under every symmetry of the region when :attr:`closed`)."""
        tiling = self._with_open(tiling)
        return min(self.image(tiling, g) for g in range(len(self.group)))

    @staticmethod
    def _with_open(tiling: Iterable[Placement]) -> list[Placement]:
        """The placements, with the open cells of an OpenTiling as :data:`OPEN` ones."""
        return [*tiling, *(Placement(OPEN, (c,)) for c in getattr(tiling, "open", ()))]

    @cached_property
    def _shape_owners(self) -> dict[tuple, list[str]]:
        """The pieces (in set order) that may take each shape."""
        pieces = self.layout.pieces
        owners: dict[tuple, list[str]] = {}
        for name in self.layout.piece_names:
            if pieces.counts[name] != 0:
                for shape in pieces.orientations[name]:
                    owners.setdefault(shape, []).append(name)
        return owners

    @cached_property
    def _normalise(self) -> Callable[[Iterable[Cell]], tuple[Cell, ...]]:
        """The normal position of the region's lattice (the shapes' keys)."""
        return self.layout.region.lattice.normalise

    def valid_image(self, tiling: Iterable[Placement], k: int) -> tuple[Placement, ...] | None:
        """The tiling mapped by the ``k``-th symmetry of the region, sorted; None when that
        image is not a valid tiling (see the module notes)."""
        symmetry, mapping = self.region_group[k]
        placed = []
        used: dict[str, int] = {}
        for p in tiling:
            cells = symmetry.apply(p.cells)
            if p.piece == OPEN:
                name = OPEN
            elif mapping is not None:
                name = mapping[p.piece]
            else:
                owners = self._shape_owners.get(self._normalise(cells), ())
                if len(owners) != 1 and p.piece not in owners:
                    return None  # no piece takes this shape, or which one is not clear
                name = owners[0] if len(owners) == 1 else p.piece
                used[name] = used.get(name, 0) + 1
            placed.append(Placement(name, cells))
        if mapping is None:
            for name, (low, high) in self.layout.pieces.ranges.items():
                if not low <= used.get(name, 0) or 0 <= high < used.get(name, 0):
                    return None
        return tuple(sorted(placed))

    def canonical_valid(self, tiling: Iterable[Placement]) -> tuple[Placement, ...]:
        """The least valid image of a tiling under every symmetry of the region: equal for
        exactly the same tilings in the sense of the module notes."""
        tiling = self._with_open(tiling)
        images = (self.valid_image(tiling, k) for k in range(len(self.region_group)))
        return min(image for image in images if image is not None)

    def stabiliser(self, tiling: Iterable[Placement]) -> list[Symmetry]:
        """The elements of G mapping the tiling onto itself."""
        own = tuple(sorted(self._with_open(tiling)))
        return [s for g, (s, _) in enumerate(self.group) if self.image(own, g) == own]

    # -- the steady orientation of pictures -----------------------------------------

    @cached_property
    def steady_piece(self) -> str | None:
        """The piece that :meth:`steady` puts near the top-left: the longest piece (the
        greatest extent along an axis) that every element of G maps to itself, the
        first of the set on ties; None when no used piece is mapped to itself."""
        pieces = self.layout.pieces
        fixed = [
            name
            for name in self.layout.piece_names
            if pieces.counts[name] != 0 and all(m[name] == name for _, m in self.group)
        ]
        if not fixed:
            return None
        dim = self.layout.region.dim  # the extent along the translated axes
        extent = {name: max(pieces.pieces[name].bounding_box[:dim]) for name in fixed}
        return min(fixed, key=lambda name: -extent[name])  # min: the first on ties

    def steady_key(self, tiling: Iterable[Placement]) -> tuple:
        """What :meth:`steady` minimises: the steady piece's cells in reading order
        (layer, row, column), then the sorted placements."""
        own = tuple(sorted(tiling))
        name = self.steady_piece
        if name is None:
            return (), own
        reading = self._reading_place
        cells = sorted(reading(cell) for p in own if p.piece == name for cell in p.cells)
        return tuple(cells), own

    @cached_property
    def _reading_place(self) -> Callable[[Cell], tuple]:
        """A cell's place in reading order: layer, row, then column; on the triangular
        and hexagonal lattices the row is the second coordinate and the column that
        of the cell's picture (``2x + y + t``, ``2q + r``)."""
        name = self.layout.region.lattice.name
        if name == "triangle":
            return lambda cell: (cell[1], 2 * cell[0] + cell[1] + cell[2])
        if name == "hex":
            return lambda cell: (cell[1], 2 * cell[0] + cell[1])
        return lambda cell: cell[::-1]

    def steady(self, tiling: Iterable[Placement]) -> Tiling:
        """The image of a tiling within its class that a picture shows: the steady
        piece as near the top-left as it goes (see the module notes).

        Equivalent tilings give the same image, so a page of representatives
        shows every class in the same orientation whichever member the search
        found.

        Examples
        --------
        >>> from polyforms import tile
        >>> problem = tile("5x12", "pentominoes")
        >>> problem.steady_piece
        'I'
        >>> first = next(problem.solutions(distinct=True))
        >>> print(first)
        FYYYYXUULLLL
        FFFYXXXULWZZ
        TFPPPXUUWWZV
        TTTPPNNWWZZV
        TIIIIINNNVVV
        >>> print(problem.steady(first))
        TIIIIINNNVVV
        TTTPPNNWWZZV
        TFPPPXUUWWZV
        FFFYXXXULWZZ
        FYYYYXUULLLL
        """
        tiling = self._with_open(tiling)
        best = min((self.image(tiling, g) for g in range(len(self.group))), key=self.steady_key)
        return self.layout.present(best)

    # -- the placements under G -----------------------------------------------------

    @cached_property
    def placements_of(self) -> list[list[int]]:
        """Each piece's placement indices, in fill order (the last list: the open cells)."""
        placements = self.layout.placements
        found: list[list[int]] = [[] for _ in range(len(self.layout.piece_names) + 1)]
        for i, (piece, _) in enumerate(placements):
            found[piece].append(i)
        return [sorted(mine, key=lambda i: placements[i][1]) for mine in found]

    @cached_property
    def _cell_images(self) -> list[list[int]]:
        """For each element of G, the image of every cell index."""
        index, order = self.layout.index, self.layout.order
        return [[index[symmetry(c)] for c in order] for symmetry, _ in self.group]

    @cached_property
    def _placement_images(self) -> dict[int, dict[int, list[int]]]:
        """The cache of :meth:`_images_of_placements`, by piece."""
        return {}

    def _images_of_placements(self, piece: int) -> dict[int, list[int]]:
        """For each element of G that maps ``piece`` to itself (by index), the image of
        each of the piece's placements (in :attr:`placements_of` order), as placement
        indices. Made once per piece: nested breaking asks for the same breakers
        in many subgroups (3x4x5: 76 times)."""
        found = self._placement_images.get(piece)
        if found is not None:
            return found
        placements = self.layout.placements
        name = self.layout.piece_names[piece]
        mine = self.placements_of[piece]
        by_cells = {placements[i][1]: i for i in mine}
        found = {}
        for g, (_, mapping) in enumerate(self.group):
            if mapping[name] == name:
                images = self._cell_images[g]
                found[g] = [
                    by_cells[tuple(sorted([images[c] for c in placements[i][1]]))] for i in mine
                ]
        self._placement_images[piece] = found
        return found

    @cached_property
    def _placement_masks(self) -> list[int]:
        """Each placement's cells as the bits of one integer."""
        return [sum(1 << c for c in cells) for _, cells in self.layout.placements]

    @cached_property
    def _placement_index(self) -> dict[tuple[int, tuple[int, ...]], int]:
        """The index of each placement, by (piece, sorted cells)."""
        return {placement: i for i, placement in enumerate(self.layout.placements)}

    def _fixes_a_placement(self, k: int, g: int) -> bool:
        """Whether the ``g``-th element of G maps some placement of piece ``k`` onto
        itself (asked of the same pairs by Burnside terms and nested breaking)."""
        found = self._fixing.get((k, g))
        if found is None:
            bits = [1 << c for c in self._cell_images[g]]
            masks, placements = self._placement_masks, self.layout.placements
            found = self._fixing[k, g] = any(
                sum([bits[c] for c in placements[i][1]]) == masks[i] for i in self.placements_of[k]
            )
        return found

    @cached_property
    def _fixing(self) -> dict[tuple[int, int], bool]:
        """The cache of :meth:`_fixes_a_placement`, by (piece, element)."""
        return {}

    # -- the breaker and the plan of nested breaking ------------------------------------

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
        root, where its restriction cuts most (X in 6x10 leaves under half the
        nodes F leaves; BENCHMARKS.md). Below the top level (a stabiliser
        ``H_p``, whose breaker is already pinned near the root) a piece none of
        whose placements is fixed by a non-identity element comes first: it
        ends the nesting in one search, where a piece with fixed placements
        adds a search for each class of them (8x8 + square: the I under X's
        diagonal reflection, rather than the square, saves a fifth of the nodes).
        """
        if len(subgroup) == 1:
            return None
        usable = self._usable_breakers(subgroup, set(exclude))
        if not usable:
            return None
        if len(subgroup) < len(self.group):
            for k in usable:  # G's element 0 is the identity
                if not any(self._fixes_a_placement(k, g) for g in subgroup if g != 0):
                    return k, self._orbits_under(k, subgroup)
        return usable[0], self._orbits_under(usable[0], subgroup)

    def _usable_breakers(self, subgroup: Sequence[int], skip: set[int]) -> list[int]:
        """The pieces that can break ``subgroup``, fewest placements first: any piece
        used exactly once in every valid tiling will do, whatever the ranges of
        the others (each tiling then has one breaker placement), when every
        element of the subgroup maps it to itself."""
        ranges = self.layout.pieces.ranges
        usable = [
            k
            for k, name in enumerate(self.layout.piece_names)
            if ranges[name] == (1, 1)
            and k not in skip
            and self.placements_of[k]
            and all(self.group[g][1][name] == name for g in subgroup)
        ]
        usable.sort(key=lambda k: (len(self.placements_of[k]), k))
        return usable

    def _orbits_under(self, k: int, subgroup: Sequence[int]) -> dict[tuple[int, ...], list[int]]:
        """Piece ``k``'s placements by orbit under ``subgroup``: {stabiliser of the
        representative: representatives}, each orbit represented by its earliest
        placement in fill order."""
        images = self._images_of_placements(k)
        seen: set[int] = set()
        reps: dict[tuple[int, ...], list[int]] = {}
        # placements are in fill order of their anchor
        for position, i in enumerate(self.placements_of[k]):
            if i in seen:
                continue
            stabiliser = []
            for g in subgroup:
                j = images[g][position]
                seen.add(j)
                if j == i:
                    stabiliser.append(g)
            reps.setdefault(tuple(stabiliser), []).append(i)
        return reps

    @cached_property
    def breaker(self) -> tuple[int, dict[int, list[int]]] | None:
        """(breaker piece, {|H_p|: [representative placement indices]}) under all of G,
        or None when no piece can break it (see the module notes)."""
        found = self._breaker_in(range(len(self.group)))
        if found is None:
            return None
        piece, by_stabiliser = found
        reps: dict[int, list[int]] = {}
        for stabiliser, group in by_stabiliser.items():
            reps.setdefault(len(stabiliser), []).extend(group)
        placements = self.layout.placements
        return piece, {f: sorted(r, key=lambda i: placements[i][1])
                       for f, r in sorted(reps.items())}  # fmt: skip

    @cached_property
    def plan(self) -> list[PlanPart] | None:
        """Restricted searches whose weighted counts sum to all tilings: a list of
        ({piece: allowed placements}, weight), or None without a breaker.

        Breaking nests: the tilings with the breaker on a representative p are
        mapped among themselves by the stabiliser H_p, so a second piece is
        restricted to one placement per H_p-orbit, and so on until the
        stabiliser is trivial or no piece is left to break it. A search whose
        last restricted placement has stabiliser K counts each of its tilings
        for |G| / |K| tilings.
        """
        plan: list[PlanPart] = []
        if not self._descend(tuple(range(len(self.group))), {}, plan):
            return None
        return plan

    def _descend(
        self, subgroup: tuple[int, ...], allowed: dict[int, frozenset[int]], plan: list[PlanPart]
    ) -> bool:
        """Add to ``plan`` the searches that break ``subgroup`` below the restrictions
        ``allowed``; False when no piece can break it."""
        found = self._breaker_in(subgroup, exclude=allowed)
        if found is None:
            return False
        piece, by_stabiliser = found
        classes = sorted(by_stabiliser.items(), key=lambda kv: (len(kv[0]), kv[0]))
        for stabiliser, group in classes:
            inner = {**allowed, piece: frozenset(group)}
            if len(stabiliser) == 1 or not self._descend(stabiliser, inner, plan):
                plan.append((inner, len(self.group) // len(stabiliser)))
        return True

    def restrictions(self, symmetry: bool = True) -> Restrictions:
        """The searches of :attr:`plan` as restrictions of the kernel of all
        placements: (placements left out, weight) each; one unrestricted search
        without a breaker or without ``symmetry``.

        The searches differ only in the placements of their breaker pieces, so
        one kernel serves them all, restricted in turn
        (:meth:`~polyforms.tiling._tiling_py.TilingSearch.restrict`): far
        cheaper than building a kernel for each (3x4x5 has 75 of them).
        """
        if self.breaker is None or not symmetry:
            return [((), 1)]
        placements_of = self.placements_of
        return [
            (tuple(i for k, kept in allowed.items() for i in placements_of[k] if i not in kept), w)
            for allowed, w in self.plan  # type: ignore[union-attr]
        ]

    def restricted(self, reps: Sequence[int]) -> Callable[[int], bool]:
        """Which placements a search keeps with the breaker on one of ``reps`` only."""
        placements = self.layout.placements
        breaker = self.breaker[0]  # type: ignore[index]
        allowed = set(reps)
        return lambda i: placements[i][0] != breaker or i in allowed

    def allowing(self, allowed: Mapping[int, frozenset[int]]) -> Callable[[int], bool]:
        """Which placements the search of a :attr:`plan` part keeps."""
        placements = self.layout.placements

        def keep(i: int) -> bool:
            piece = placements[i][0]
            return piece not in allowed or i in allowed[piece]

        return keep

    def breaker_stabiliser(self, tiling: Tiling) -> list[int]:
        """Indices in G of the symmetries fixing the breaker's placement in ``tiling``."""
        name = self.layout.piece_names[self.breaker[0]]  # type: ignore[index]
        cells = next(p.cells for p in tiling if p.piece == name)
        return [g for g, (s, _) in enumerate(self.group) if s.apply(cells) == cells]

    # -- Burnside's terms -----------------------------------------------------------

    @cached_property
    def quotients_countable(self) -> bool:
        """True when :meth:`fixed_count` applies: no open cells, and every piece used
        exactly once or never, or every piece free (``pieces.all_free``)."""
        pieces = self.layout.pieces
        if self.layout.open:
            return False
        return pieces.all_free or (pieces.exact and all(c <= 1 for c in pieces.counts.values()))

    def _no_fixed_placement(self, g: int) -> bool:
        """True when a piece used once and mapped to itself by the ``g``-th element has
        no placement that element maps onto itself: no tiling is then fixed (its one
        placement of that piece would have to be). Tested on the pieces with the
        fewest placements first, it settles most symmetries at once (in 6x10 all
        three: a pentomino fixed by them would be centred between cells), without
        the images of all the placements that :meth:`fixed_count` needs otherwise."""
        _, mapping = self.group[g]
        counts = self.layout.pieces.counts
        pieces = [
            k
            for k, name in enumerate(self.layout.piece_names)
            if counts[name] == 1 and mapping[name] == name
        ]
        pieces.sort(key=lambda k: len(self.placements_of[k]))
        return any(not self._fixes_a_placement(k, g) for k in pieces)

    def fixed_count(self, g: int) -> int:
        """The number of tilings mapped onto themselves by the ``g``-th element of G.

        A tiling fixed by g is a union of whole orbits of placements under the
        cyclic group generated by g (with pieces permuted as g permutes them). So
        these tilings are the exact covers of the region by *orbit options*: the
        union of an orbit whose members are pairwise disjoint and use distinct
        pieces, all of them (a piece used twice would need two copies). Such an
        option uses every piece of its piece orbit once, so the pieces of one
        orbit become one item. For sets using each piece at most once, and for
        sets whose pieces are all free: an orbit may then reuse a piece, and the
        options are free too (their count memoizes, as the plain count's does).
        See :mod:`polyforms.tiling.fixed_tilings`.

        Notes
        -----
        Cost: a search over the orbit options, which are few (a placement must
        be mapped onto itself or onto disjoint placements) -- small next to
        the restricted search for g = identity.
        """
        if not self.quotients_countable:
            raise TilingError("fixed_count needs every piece used at most once, or all free")
        layout = self.layout
        if layout.impossible or self._no_fixed_placement(g):
            return 0
        _, mapping = self.group[g]
        piece_image = fixed_tilings.piece_images(layout.piece_names, mapping)
        piece_item = fixed_tilings.piece_orbits(piece_image)
        image = fixed_tilings.placement_images(
            layout.placements, piece_image, self._cell_images[g], self._placement_index
        )
        options = fixed_tilings.orbit_options(
            layout.placements, image, self._placement_masks, piece_item,
            reuse=layout.pieces.all_free, ncells=len(layout.order),
        )  # fmt: skip
        limits = fixed_tilings.orbit_limits(piece_item, layout.piece_names, layout.pieces.counts)
        if not fixed_tilings.coverable(options, limits, len(layout.order)):
            return 0  # a cell or a piece no orbit option can take
        spec = fixed_tilings.orbit_spec(layout, options, limits, self.searches.strategy)
        search, _ = self.searches.run(spec)
        return count_exactly(search)


def count_exactly(search, prefix: tuple[int, ...] = ()) -> int:
    """``search.count(prefix=prefix)`` of a tiling kernel, exact past its 64-bit
    counter: a subtree of more tilings (the memo counts boards of more ways than
    that) is counted child by child."""
    try:
        return search.count(prefix=prefix)
    except CountOverflowError:
        return sum(count_exactly(search, (*prefix, p)) for p in search.branch(prefix) or ())

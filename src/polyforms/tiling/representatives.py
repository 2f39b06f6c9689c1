"""Which tilings a listing yields: the parts of its search, and what each class keeps.

A listing of all tilings is one search. A listing of one tiling per class
(``distinct=True``) runs the searches of symmetry breaking one after the other
(:func:`listing_parts`), each with a *finish*: what each tiling it finds
becomes, a representative of its class or None when another tiling stands for
that class. With a breaker (see :mod:`polyforms.tiling.symmetry_breaking`)
the searches put it on one representative placement of each orbit, grouped
by the size of the placement's stabiliser, and a tiling is kept when it is the
least of its class among those with the breaker there; without one, every
tiling is searched and kept when it is the least of its images. When the
piece set is not closed under the region's symmetries, a kept tiling must
also be the least valid image of its region-class.

A split listing (:mod:`polyforms.tiling.listings`) runs each part below
prefixes of its search with the same finish, so both give the same tilings
in the same order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from ..files.solutions import Tiling
from .counting import count_restricted

if TYPE_CHECKING:
    from ..jobs.options import LongRun
    from .engines import Searches
    from .symmetry_breaking import SymmetryBreaking

__all__ = ["ListingPart", "count_listed_classes", "least_in_stabiliser", "listing_parts",
           "tilings_of"]  # fmt: skip

#: What a tiling found by a part's search becomes: a Tiling, or None to skip it.
Finish = Callable[[Tiling], Tiling | None]
#: A part of a listing: (which placements its search keeps, None for all; its finish).
ListingPart = tuple[Callable[[int], bool] | None, Finish]


def listing_parts(breaking: SymmetryBreaking, distinct: bool) -> list[ListingPart]:
    """The listing as searches run one after the other, in listing order: all
    tilings as they come, or (``distinct``) one tiling per class, each the
    least of its class."""
    if not distinct:
        return [(None, _as_is)]
    parts: list[ListingPart] = []
    if breaking.breaker is None:
        parts.append((None, functools.partial(_if_canonical, breaking)))
    else:
        _, reps = breaking.breaker
        for fixed, group in sorted(reps.items()):
            finish = functools.partial(_class_member, breaking, fixed)
            parts.append((breaking.restricted(group), finish))
    if not breaking.closed:
        least_valid = functools.partial(_if_least_valid, breaking)
        parts = [(keep, _then(finish, least_valid)) for keep, finish in parts]
    return parts


def tilings_of(searches: Searches, parts: Sequence[ListingPart]) -> Iterator[Tiling]:
    """The tilings the parts keep, part by part, in search order (internal form:
    open cells as placements)."""
    layout = searches.layout
    for keep, finish in parts:
        search, _, chosen = searches.over(keep)
        for solution in search.solutions():
            tiling = finish(layout.tiling(chosen[i] for i in solution))
            if tiling is not None:
                yield tiling


def least_in_stabiliser(
    searches: Searches, breaking: SymmetryBreaking, group: Sequence[int]
) -> Iterator[Tiling]:
    """The tilings with the breaker on one of the representatives ``group`` that
    are least among their images under the stabiliser of its placement: one
    tiling per class of those tilings."""
    search, _, chosen = searches.over(breaking.restricted(group))
    for solution in search.solutions():
        tiling = searches.layout.tiling(chosen[i] for i in solution)
        own = tuple(sorted(tiling))
        if all(breaking.image(own, g) >= own for g in breaking.breaker_stabiliser(tiling)):
            yield tiling


def count_listed_classes(searches: Searches, breaking: SymmetryBreaking, options: LongRun) -> int:
    """The number of classes under G, where Burnside's terms do not apply (copies
    of a piece): the tilings with the breaker on a representative of trivial
    stabiliser are counted (each is alone in its class there), those on the
    others listed, each class once; all listed without a breaker."""
    if breaking.breaker is None:
        return sum(1 for _ in tilings_of(searches, listing_parts(breaking, True)))
    _, reps = breaking.breaker
    total = 0
    for fixed, group in sorted(reps.items()):
        if fixed > 1:
            total += sum(1 for _ in least_in_stabiliser(searches, breaking, group))
        else:
            search, spec, _ = searches.over(breaking.restricted(group))
            total += count_restricted(search, spec, [((), 1)], options)
    return total


def _as_is(tiling: Tiling) -> Tiling:
    return tiling


def _then(first: Finish, second: Finish) -> Finish:
    """``second`` after ``first``, None passing through."""

    def both(tiling: Tiling) -> Tiling | None:
        found = first(tiling)
        return None if found is None else second(found)

    return both


def _if_canonical(breaking: SymmetryBreaking, tiling: Tiling) -> Tiling | None:
    """The tiling when it is the least of its images under G, else None."""
    own = tuple(sorted(tiling))
    return Tiling(own, breaking.layout.region) if breaking.canonical(own) == own else None


def _class_member(breaking: SymmetryBreaking, fixed: int, tiling: Tiling) -> Tiling | None:
    """A tiling of the breaker's restricted search as the least of its class under G;
    None when its breaker placement is fixed by symmetries (``fixed > 1``) that map it
    to a lesser tiling of the same search."""
    if fixed > 1:
        own = tuple(sorted(tiling))
        if any(breaking.image(own, g) < own for g in breaking.breaker_stabiliser(tiling)):
            return None
    return Tiling(breaking.canonical(tiling), breaking.layout.region)


def _if_least_valid(breaking: SymmetryBreaking, tiling: Tiling) -> Tiling | None:
    """The tiling when its G-class holds the least valid image of its region-class.

    Orbits under all the region's symmetries, of which G keeps only those that
    map the piece set onto itself: each G-class is listed once; the
    region-class holds several G-classes, and its least member lies in exactly
    one of them, which alone is kept.
    """
    least = breaking.canonical_valid(tiling)
    if breaking.canonical(least) != tuple(tiling):
        return None
    return Tiling(least, breaking.layout.region)

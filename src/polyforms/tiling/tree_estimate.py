"""Estimates of a tiling count's searches: nodes, tilings and seconds, before running them.

``polyforms tile ... --estimate`` and :meth:`TilingProblem.estimate
<polyforms.tiling.problem.TilingProblem.estimate>`: random probes with partial
backtracking (Knuth 1975, Purdom 1978) on the restricted searches the count
runs, each counted exactly where its subtree is small.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

from .counting import children, in_turn, timed_count
from .spec import SearchSpec
from .symmetry_breaking import Restrictions

__all__ = ["TreeEstimate", "estimate_restricted"]

#: A probe starts its exact counts this many placements short of a whole tiling ...
_OFFSET = 9
#: ... and cuts deeper while a subtree's count takes more than this many seconds,
_THRESHOLD = 0.2
#: with at least this many probes per search, whatever the budget.
_MIN_PROBES = 2
#: Plain Knuth probes per search that share out an estimate's budget.
_SHARE_PROBES = 8
#: Fewer probes than this, none of which reached a tiling, cannot tell rare
#: tilings from none (100x100 by the dominoes: 4 probes of 5,000 placements,
#: each stuck short of the end): the tilings are then not estimated (nan).
_SURE_PROBES = 100


class TreeEstimate(NamedTuple):
    """What :meth:`TilingProblem.estimate` expects of a search."""

    nodes: float
    solutions: float
    seconds: float
    probes: int


def estimate_restricted(
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
    whole search. The restricted searches are estimated one by one, not the
    whole tree divided by |G|: a breaker pinned near the root cuts more than
    1/|G| of the tree, so that would overestimate.

    The tilings are nan (not estimated) when no probe reached one, the trees
    were not counted whole, and the probes were too few to say there are none
    (:data:`_SURE_PROBES`) or the nodes passed the floats: Knuth's estimate is
    then 0 whatever the tilings.
    """
    from ..jobs.estimate import estimate_partial

    if not restrictions:
        return TreeEstimate(0.0, 0.0, 0.0, 0)
    sizes = [len(cells) for _, cells in spec.placements]
    depth = max(0, round(spec.ncells * len(sizes) / max(sum(sizes), 1)) - _OFFSET)
    shares = _shares(search, restrictions, seed)
    whole = sum(shares)
    nodes = solutions = seconds = 0.0
    probes = 0
    counted_whole: set[int] = set()  # the searches whose trees a probe counted whole

    def count(prefix: tuple[int, ...], give_up: float):  # in the search ``k`` of the loop
        found = timed_count(search, prefix, give_up)
        if found is not None and not prefix:
            counted_whole.add(k)
        return found

    for k, weight in enumerate(in_turn(search, restrictions)):
        found = estimate_partial(
            functools.partial(children, search),
            count,
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
    exact = len(counted_whole) == len(restrictions)
    if solutions == 0 and not exact and (probes < _SURE_PROBES or math.isinf(nodes)):
        solutions = math.nan
    return TreeEstimate(nodes, solutions, seconds, probes)


def _shares(search, restrictions: Restrictions, seed: int) -> list[float]:
    """Knuth's estimate of each restricted search's size, by a few plain probes
    (none for a lone search, which takes the whole budget)."""
    if len(restrictions) <= 1:
        return []
    return [
        search.probe((), _SHARE_PROBES, seed + k)
        for k, _ in enumerate(in_turn(search, restrictions))
    ]

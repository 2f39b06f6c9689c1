"""The size of an exact-cover search, estimated without running it (``solve --estimate``).

Random probes with partial backtracking (Knuth 1975; Purdom 1978) through
:func:`polyforms.jobs.estimate.estimate_partial`: a node of the tree is a subtask
``(forced, excluded)`` of :meth:`ExactCover.split`, its children are the
branches the search tries there (one level of the readable twin's
``split_depth``), and the subtree where a probe stops is counted exactly by
the compiled core, whose node count scales like the count. The time is the
nodes at the rate the search ran for a moment from the root: the exact
counts near the leaves are mostly a few nodes, whose time is the set-up of a
search, not its pace.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from ..jobs.estimate import TimedEstimate, estimate_partial
from . import _exactcover_py
from .flat import Flat

__all__ = ["estimate_search"]

#: Probes stop this many levels short of a solution's depth (guessed from the sizes).
OFFSET = 9

#: Seconds the search runs from the root to measure its pace.
CALIBRATION = 0.02


def solution_depth(flat: Flat) -> int:
    """A guess at the number of options in a solution: the primary coverings needed
    over the mean primary items of an option."""
    need = sum(low for low, primary in zip(flat.lower, flat.primary) if primary)
    options = len(flat.offsets) - 1
    covering = sum(1 for i in flat.items if flat.primary[i])
    if not options or not covering:
        return 0
    return round(need / (covering / options))


def _seconds_per_node(search: Any) -> float:
    """The pace of ``search``: run it for at least ``CALIBRATION`` seconds (or to its
    end) in doubling slices of nodes."""
    slice_, start = 1024, time.perf_counter()
    while True:
        search.count(nodes=slice_)
        took = time.perf_counter() - start
        if took >= CALIBRATION or search.done:
            return took / max(search.nodes, 1)
        slice_ *= 2


def estimate_search(
    flat: Flat,
    initial: list[int],
    new_search: Callable[[list[int], list[int]], Any],
    budget: float = 0.8,
    seed: int = 0,
) -> TimedEstimate:
    """Estimate the nodes, solutions and seconds of the search over ``flat`` with the
    options ``initial`` forced; ``new_search(forced, excluded)`` gives a search (with
    ``count(nodes=...)``, ``nodes`` and ``done``) that counts a probe's subtree."""
    rate = _seconds_per_node(new_search(list(initial), []))

    known: dict[tuple, list[tuple[list[int], list[int]]]] = {}

    def children(node: tuple[list[int], list[int]]) -> list[tuple[list[int], list[int]]]:
        # One level of the readable twin commits every child, and the levels near
        # the root are the same for many probes: they are kept.
        forced, excluded = node
        key = (tuple(forced), tuple(excluded))
        found = known.get(key)
        if found is None:
            # none at a solution (or an item left as it is): counted exactly below
            found = _exactcover_py.children(*flat.arrays, forced, excluded, flat.colours)
            if len(known) < 10_000:
                known[key] = found
        return found

    def count(node: tuple[list[int], list[int]], give_up: float) -> tuple[int, int, float] | None:
        search = new_search(*node)
        found = search.count(nodes=None if give_up == math.inf else max(1, int(give_up / rate)))
        if not search.done:
            return None
        return found, search.nodes, search.nodes * rate

    depth = max(0, solution_depth(flat) - OFFSET)
    return estimate_partial(children, count, (list(initial), []), depth=depth, budget=budget,
                            seed=seed)  # fmt: skip

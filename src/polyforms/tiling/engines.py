"""The searches of a tiling problem, on the bitset kernel or on exact cover.

Every search of a :class:`~polyforms.tiling.problem.TilingProblem` -- counts,
listings, the restricted searches of symmetry breaking, open cells -- is built
here from the problem's :class:`~polyforms.tiling.layout.Layout`: a
:class:`~polyforms.tiling._tiling_py.SearchSpec` (the kernel's arguments) run
by the tiling kernel (:func:`make_search`: compiled, or the readable twin) or
by the exact-cover cores behind the same interface (:class:`ExactCoverSearch`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, NamedTuple

from .. import _backend
from .layout import Layout, search_spec
from .spec import SearchSpec

__all__ = ["ENGINES", "ExactCoverSearch", "KernelSearch", "Searches", "make_search"]

#: The engines a problem may search on: the bitset kernel or dancing links.
ENGINES = ("bitset", "dlx")


def tiling_kernel():
    """The tiling kernel's module (compiled, or the readable twin)."""
    return _backend.kernel("tiling")


def make_search(spec: SearchSpec):
    """The tiling kernel's search for a spec (compiled, or the readable twin)."""
    return tiling_kernel().TilingSearch(
        spec.ncells,
        spec.placements,
        spec.limits,
        spec.must_use,
        spec.neighbours,
        strategy=spec.strategy,
        flood_cap=spec.flood_cap,
        minimums=getattr(spec, "minimums", None),
    )


class KernelSearch(NamedTuple):
    """A search over some of a layout's placements."""

    search: Any
    """The search: a :class:`~polyforms.tiling._tiling_py.TilingSearch` or an
    :class:`ExactCoverSearch`."""
    spec: SearchSpec | None
    """Its arguments, for rebuilding it in worker processes; None on exact cover."""
    chosen: list[int]
    """The layout's index of each placement the search numbers from 0."""


class Searches(NamedTuple):
    """The searches over a layout's placements on one engine and branching rule.

    Examples
    --------
    >>> from polyforms import tile
    >>> problem = tile("2x4", "dominoes", reuse=True)
    >>> problem.searches.over().search.count()
    5
    """

    layout: Layout
    strategy: str
    """The bitset kernel's branching rule: ``"first"`` empty cell or ``"mrv"``."""
    engine: str
    """``"bitset"`` (the tiling kernel) or ``"dlx"`` (exact cover)."""

    def over(self, keep: Callable[[int], bool] | None = None) -> KernelSearch:
        """The search over the placements ``i`` with ``keep(i)`` (all by default)."""
        spec, chosen = search_spec(self.layout, self.strategy, keep)
        search, spec = self.run(spec)
        return KernelSearch(search, spec, chosen)

    def run(self, spec: SearchSpec) -> tuple[Any, SearchSpec | None]:
        """The search of ``spec`` on this engine, and the spec for worker processes
        (None on exact cover, whose searches do not split)."""
        if self.engine == "dlx":
            return ExactCoverSearch(spec), None
        return make_search(spec), spec


class ExactCoverSearch:
    """The tiling kernel's interface over the exact-cover cores (MRV branching).

    Items: the cells ``0 .. ncells - 1``, each exactly once, then one item per
    piece that some placement uses: primary with exactly ``limit`` uses, or
    secondary (any number) when the limit is -1. Option ``o`` is placement
    ``o``, so solutions come back as placement numbers.
    """

    def __init__(self, spec: SearchSpec) -> None:
        from array import array

        from ..exactcover.cores import engine_for
        from ..exactcover.flat import Flat

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
        self._flat = Flat(*self._arrays)
        self._engine = engine_for(None, self._flat)

    def _new(self, prefix):
        return self._engine(*self._arrays, list(prefix), [])

    def count(self, progress=None, prefix=()) -> int:
        total = self._new(prefix).count()
        if progress is not None:
            progress(1.0)
        return total

    def solutions(self, limit=None, prefix=()):
        from ..exactcover.cores import solutions_of

        return itertools.islice(solutions_of(self._new(prefix)), limit)

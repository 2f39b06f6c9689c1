"""Open cells: tilings that leave K cells of the region uncovered, counted by open set.

An open cell is one more piece inside the search: a monomino used exactly K
times (:func:`~polyforms.tiling.layout.build_layout` adds it for ``open=K``), so a
solution is a tiling together with its open set, and one search visits every
open set. :meth:`OpenCells.count_by_open` files each tiling under its open
cells, so the 903 pairs of open cells of the calendar board take one search
instead of one each (about a second in all).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from ..errors import TilingError
from ..files.solutions import OpenTiling, Tiling  # OpenTiling: here too, the tilings of this module
from ..geometry import Cell
from ..region import Region

if TYPE_CHECKING:
    from .engines import Searches
    from .layout import Layout
    from .symmetry_breaking import SymmetryBreaking


class OpenProblem(Protocol):
    """What the by-open table needs of a problem (a :class:`~polyforms.TilingProblem`)."""

    region: Region
    open: int
    region_group: list


__all__ = ["MAX_OPEN_ROWS", "OpenCells", "OpenTiling", "by_open_rows", "by_open_summary"]


class OpenCells:
    """The counts of a tiling problem by open set.

    Parameters
    ----------
    layout : Layout
        The problem's cells and placements, the open cells among them
        (:mod:`polyforms.tiling.layout`).
    searches : Searches
        Builds the searches over the placements (:mod:`polyforms.tiling.engines`).
    symmetry_breaking : SymmetryBreaking
        The region's symmetries and the least valid images of tilings, for
        ``distinct`` counts.
    """

    def __init__(self, layout: Layout, searches: Searches, symmetry_breaking: SymmetryBreaking):
        self.layout = layout
        self.searches = searches
        self.symmetry_breaking = symmetry_breaking

    def count_by_open(self, distinct: bool = False) -> dict[tuple[Cell, ...], int]:
        """The number of tilings for every set of open cells, in one search.

        Parameters
        ----------
        distinct : bool
            Merge open sets that are images of each other under the region's
            symmetries (keyed by the least of them) and count the distinct
            tilings (module notes) whose open set is in each class.

        Returns
        -------
        dict
            ``{open cells (sorted, region coordinates): tilings}``, sorted by the
            open cells, holding only the open sets with at least one tiling.

        Raises
        ------
        TilingError
            The problem has no open cells (``open=0``).

        Notes
        -----
        Cost: one search of the whole tree (no symmetry breaking), each tiling
        visited once and filed under its open cells, instead of one search per
        open set; ``distinct`` adds the least valid image of each tiling.

        Examples
        --------
        >>> from polyforms import tile
        >>> tile("1x4", "dominoes", open=2).count_by_open()
        {((0, 0), (1, 0)): 1, ((0, 0), (3, 0)): 1, ((2, 0), (3, 0)): 1}
        >>> tile("1x4", "dominoes", open=2).count_by_open(distinct=True)
        {((0, 0), (1, 0)): 1, ((0, 0), (3, 0)): 1}
        """
        if not self.layout.open:
            raise TilingError("count_by_open needs open cells (open=K with K >= 1)")
        counts = self._tilings_by_open_set()
        if not distinct:
            return dict(sorted(counts.items()))
        return self._classes_by_open_set(counts)

    def _tilings_by_open_set(self) -> dict[tuple[Cell, ...], int]:
        """{open cells: tilings}, in the order the search meets the open sets."""
        layout = self.layout
        if layout.impossible:
            return {}
        found: dict[tuple[int, ...], int] = {}
        search, _, chosen = self.searches.over()
        opener = len(layout.piece_names)
        is_open = [layout.placements[i][0] == opener for i in chosen]
        for solution in search.solutions():
            key = tuple(sorted(p for p in solution if is_open[p]))
            found[key] = found.get(key, 0) + 1
        cells_of = [layout.placements[i][1][0] for i in chosen]
        order = layout.order
        return {
            tuple(sorted(order[cells_of[p]] for p in key)): total for key, total in found.items()
        }

    def _classes_by_open_set(
        self, counts: Mapping[tuple[Cell, ...], int]
    ) -> dict[tuple[Cell, ...], int]:
        """The distinct tilings of each class of open sets (keyed by its least member)."""
        breaking = self.symmetry_breaking
        classes: dict[tuple[Cell, ...], set] = {}
        symmetries = [s for s, _ in breaking.region_group]
        for opened in counts:
            least = min(tuple(sorted(s(c) for c in opened)) for s in symmetries)
            mine = classes.setdefault(least, set())
            for tiling in self._tilings_with_open(opened):
                mine.add(breaking.canonical_valid(tiling))
        return {key: len(forms) for key, forms in sorted(classes.items())}

    def _tilings_with_open(self, opened: Sequence[Cell]) -> Iterator[Tiling]:
        """Every tiling whose open cells are ``opened`` (internal form)."""
        layout = self.layout
        wanted = {layout.index[c] for c in opened}
        opener = len(layout.piece_names)
        placements = layout.placements
        search, _, chosen = self.searches.over(
            lambda i: placements[i][0] != opener or placements[i][1][0] in wanted
        )
        for solution in search.solutions():
            yield layout.tiling(chosen[i] for i in solution)


#: Open sets listed one by one (with the empty ones) up to this many; beyond, only
#: the sets with tilings are listed.
MAX_OPEN_ROWS = 1_000_000


def by_open_rows(
    problem: OpenProblem, counts: Mapping[tuple[Cell, ...], int], distinct: bool = False
) -> list[tuple[tuple[Cell, ...], int]]:
    """The rows of a by-open table: every open set (``distinct``: the least of each class
    under the region's symmetries) with its tilings, sorted, the empty sets included
    while there are at most :data:`MAX_OPEN_ROWS` sets.

    Examples
    --------
    >>> from polyforms import tile
    >>> problem = tile("1x3", "dominoes", open=1)
    >>> by_open_rows(problem, problem.count_by_open())
    [(((0, 0),), 1), (((1, 0),), 0), (((2, 0),), 1)]
    """
    from itertools import combinations
    from math import comb

    cells = sorted(problem.region.cells)
    if comb(len(cells), problem.open) > MAX_OPEN_ROWS:
        return sorted(counts.items())
    symmetries = [s for s, _ in problem.region_group]
    rows = []
    for opened in combinations(cells, problem.open):
        if distinct and min(tuple(sorted(s(c) for c in opened)) for s in symmetries) != opened:
            continue
        rows.append((opened, counts.get(opened, 0)))
    return rows


def by_open_summary(rows: Sequence[tuple[tuple[Cell, ...], int]], distinct: bool = False) -> str:
    """One line about a by-open table: the sets with none, those with exactly one
    tiling, the maximum and the mean.

    Examples
    --------
    >>> print(by_open_summary([(((0, 0),), 1), (((1, 0),), 0), (((2, 0),), 1)]))
    3 open sets: 1 with no tiling, 2 with exactly one ([[0,0]] [[2,0]]), maximum 1 ([[0,0]]), ...
    """

    def cells(opened: tuple[Cell, ...]) -> str:
        return "[" + ",".join("[" + ",".join(map(str, c)) + "]" for c in opened) + "]"

    what = "classes of open sets" if distinct else "open sets"
    if not rows:
        return f"0 {what}"
    unique = [opened for opened, total in rows if total == 1]
    best, most = max(rows, key=lambda row: row[1])
    shown = " ".join(cells(o) for o in unique[:5]) + (" ..." if len(unique) > 5 else "")
    mean = sum(total for _, total in rows) / len(rows)
    return (
        f"{len(rows)} {what}: {sum(1 for _, t in rows if t == 0)} with no tiling, "
        f"{len(unique)} with exactly one" + (f" ({shown})" if unique else "")
        + f", maximum {most} ({cells(best)}), mean {mean:.2f}"
    )  # fmt: skip

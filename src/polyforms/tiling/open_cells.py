"""Open cells: tilings that leave K cells of the region uncovered, counted by open set.

An open cell is one more piece inside the search: a monomino used exactly K
times (:class:`~polyforms.tiling.problem.TilingProblem` adds it when ``open=K``), so a
solution is a tiling together with its open set, and one search visits every
open set. :meth:`OpenCells.count_by_open` files each tiling under its open
cells: all 903 pairs of open cells of the calendar board in about 1 s, where
one search per pair took 372 searches for the dates alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any  # the problem is a TilingProblem (not imported: tiling imports us)

from ..errors import TilingError
from ..files.solutions import Placement, Tiling
from ..geometry import Cell
from ..region import Region

__all__ = ["MAX_OPEN_ROWS", "OpenCells", "OpenTiling", "by_open_rows", "by_open_summary"]


class OpenTiling(Tiling):
    """A tiling that leaves some cells of its region open (``tile(..., open=K)``).

    A tuple of the placements, like :class:`Tiling`, with the uncovered cells
    in :attr:`open` (sorted); pictures mark them ``*`` and the JSON form gives
    them as ``"open"``.
    """

    open: tuple[Cell, ...]

    def __new__(
        cls, placements: Iterable[Placement], region: Region, open: Iterable[Cell] = ()
    ) -> OpenTiling:
        self = super().__new__(cls, placements, region)
        self.open = tuple(sorted(open))
        return self

    def labels(self) -> dict[Cell, str]:
        marks = super().labels()
        marks.update((cell, "*") for cell in self.open)
        return marks

    def to_json(self) -> dict:
        found = super().to_json()
        found["open"] = [list(cell) for cell in self.open]
        return found


class OpenCells:
    """The by-open counts of a :class:`~polyforms.tiling.problem.TilingProblem` (a mixin: it
    reads ``open``, ``piece_names``, ``placements``, ``order``, ``index`` and the
    searches and symmetries of the problem)."""

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
        if not self.open:
            raise TilingError("count_by_open needs open cells (open=K with K >= 1)")
        found: dict[tuple[int, ...], int] = {}
        if not self.impossible:
            search, _, chosen = self._search()
            opener = len(self.piece_names)
            is_open = [self.placements[i][0] == opener for i in chosen]
            for solution in search.solutions():
                key = tuple(sorted(p for p in solution if is_open[p]))
                found[key] = found.get(key, 0) + 1
        order = self.order
        cells_of = [self.placements[i][1][0] for i in chosen] if found else []
        counts = {
            tuple(sorted(order[cells_of[p]] for p in key)): total for key, total in found.items()
        }
        if not distinct:
            return dict(sorted(counts.items()))
        classes: dict[tuple[Cell, ...], set] = {}
        symmetries = [s for s, _ in self.region_group]
        for opened in counts:
            least = min(tuple(sorted(s(c) for c in opened)) for s in symmetries)
            mine = classes.setdefault(least, set())
            for tiling in self._tilings_with_open(opened):
                mine.add(self.canonical_valid(tiling))
        return {key: len(forms) for key, forms in sorted(classes.items())}

    def _tilings_with_open(self, opened: Sequence[Cell]) -> Iterator[Tiling]:
        """Every tiling whose open cells are ``opened`` (internal form)."""
        wanted = {self.index[c] for c in opened}
        opener = len(self.piece_names)
        search, _, chosen = self._search(
            lambda i: self.placements[i][0] != opener or self.placements[i][1][0] in wanted
        )
        for solution in search.solutions():
            yield self._tiling(chosen[i] for i in solution)


#: Open sets listed one by one (with the empty ones) up to this many; beyond, only
#: the sets with tilings are listed.
MAX_OPEN_ROWS = 1_000_000


def by_open_rows(
    problem: Any, counts: Mapping[tuple[Cell, ...], int], distinct: bool = False
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

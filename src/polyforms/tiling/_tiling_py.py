"""Pure-Python tiling search: the readable twin of ``polyforms._core._tiling``.

The problem is given in its most reduced form, with no geometry left in it:

* the region is ``ncells`` cells numbered ``0 .. ncells-1``; the numbering is
  the fill order (the caller chooses it: scanning across the short side of a box
  first keeps the frontier small);
* a *placement* is a pair ``(piece, cells)``: the index of the piece it uses and
  the region cells it covers;
* ``limits[piece]`` is how many copies of each piece may be used (``-1`` for any
  number), and ``must_use[piece]`` says whether all of them have to be used (true
  when every piece is used exactly once and the areas add up); ``minimums[piece]``,
  when given, is the least number of copies instead (copy ranges ``lo..hi``): a
  full board is a tiling only when every piece reaches its minimum;
* ``neighbours[cell]`` lists the cells adjacent to a cell; it is used only to
  prune positions that leave an empty area no remaining piece can fill.

A tiling is a set of placements covering every cell once. The search fills
the region one branching step at a time:

``strategy="first"``
    Branch on the first empty cell in the numbering. Every cell before it is
    full, so only the placements whose *first* cell is that cell can cover it:
    they are kept in a list per cell (``by_first``). Cheap nodes, more of them.
``strategy="mrv"``
    Branch on the empty cell covered by the fewest fitting placements, or on a
    piece that must still be used and has even fewer fitting placements
    (Knuth's "minimum remaining values" rule of Algorithm X). Costly nodes,
    fewer of them.

Both visit each tiling exactly once: the fitting placements that cover the
chosen cell (or use the chosen piece) split the tilings below a node into
disjoint families. Two pruning rules cut dead branches early:

* *deadline*: with ``strategy="first"``, a piece still short of its minimum that
  has no placement starting at or after the first empty cell can never be placed;
* *isolated areas*: after a placement, every empty area it touches is measured
  by flood fill; an area smaller than the smallest piece, or whose size is not
  a multiple of the greatest common divisor of the piece sizes, cannot be filled.

The compiled twin implements the same rules with the same candidate order, so
both yield the same solutions in the same order.

*Memo*: when every piece may be used any number of times (or not at all), the
tilings below a node depend only on which cells are filled, so :meth:`count`
remembers the count below each board it finishes and adds it at once when the
board comes again, without searching it: the search becomes a dynamic
programme over the boards (5x10 by the pentominoes with reuse: 33,000 nodes
for 101,698,212 tilings). Nodes with fewer empty cells than two of the largest
piece are not remembered (their subtrees are too small to pay), and the memo
starts over after ``memo_entries`` boards. Both twins follow these rules, so
they still visit the same nodes. ``memo = False`` searches the whole tree (its
node count is then the tree's size). With pieces of limited copies the state
would also hold the copies left, and on the pentomino boards the lookups cost
more than the nodes they save, so those counts do not memoize.

The sweep over boards, :class:`BoardSweep`, the same dynamic programme run
forwards, is in :mod:`polyforms.tiling._board_sweep_py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from math import gcd

from .. import _walks
from ..errors import TilingError
from ..limits import memo_entries, memory_text  # noqa: F401 (the compiled module names it)
from ._board_sweep_py import SWEEP_FALL, SWEEP_MAGIC, SWEEP_MAGIC_WIDE, BoardSweep, sweep_front
from .spec import BoundedSearchSpec, SearchSpec  # the kernel's arguments, named

__all__ = [
    "STRATEGIES",
    "SWEEP_FALL",
    "SWEEP_MAGIC",
    "SWEEP_MAGIC_WIDE",
    "BoardSweep",
    "BoundedSearchSpec",
    "SearchSpec",
    "TilingSearch",
    "sweep_front",
]

STRATEGIES = ("first", "mrv")


class _Stopped(Exception):
    """A count with a node budget stopped; ``path`` leads to the first node not entered."""

    def __init__(self, path: tuple[int, ...]) -> None:
        super().__init__(path)
        self.path = path


STOP_CHUNK = 1 << 12  # nodes between two questions to a count's ``stop``


class TilingSearch:
    """Count or list the tilings of a numbered region by numbered placements.

    Parameters
    ----------
    ncells : int
        Number of region cells; cells are ``0 .. ncells-1`` in fill order.
    placements : sequence of (int, sequence of int)
        ``(piece, cells)`` for every way to put a piece in the region.
    limits : sequence of int
        Copies allowed of each piece; ``-1`` means any number.
    must_use : sequence of bool
        For each piece, whether all its copies must be used.
    neighbours : sequence of sequence of int, optional
        Adjacent cells of each cell; enables the isolated-area pruning.
    strategy : {"first", "mrv"}
        Branching rule (see the module notes).
    initial : sequence of int
        Placement indices forced before the search starts: the search then
        covers exactly the tilings that contain them (a subtask).
    flood_cap : int, optional
        Empty areas are measured up to this many cells (default: all); larger
        areas are left alone; 1 or less: only single isolated cells are caught.
        (The compiled twin finds areas of up to three cells on a one-word
        board with shifts, without a flood.)
        Pruning never changes the solutions or their order, only the work.
    minimums : sequence of int, optional
        Least number of copies of each piece (overrides ``must_use``, which
        means ``minimum = limit``); a piece whose minimum is below its limit
        is one whose copies form a range.

    Raises
    ------
    TilingError
        If a placement names a cell or piece out of range, or the initial
        placements overlap or use a piece too often.

    Examples
    --------
    The three tilings of a 2x3 rectangle by dominoes (cells numbered down the
    columns: 0 1 / 2 3 / 4 5 are the columns):

    >>> dominoes = [(0, c) for c in [(0, 1), (2, 3), (4, 5), (0, 2), (1, 3), (2, 4), (3, 5)]]
    >>> search = TilingSearch(6, dominoes, limits=[-1], must_use=[False])
    >>> search.count()
    3
    >>> [sorted(s) for s in search.solutions()]
    [[0, 1, 2], [0, 5, 6], [2, 3, 4]]
    """

    def __init__(
        self,
        ncells: int,
        placements: Sequence[tuple[int, Sequence[int]]],
        limits: Sequence[int],
        must_use: Sequence[bool],
        neighbours: Sequence[Sequence[int]] | None = None,
        strategy: str = "first",
        initial: Sequence[int] = (),
        flood_cap: int | None = None,
        minimums: Sequence[int] | None = None,
    ) -> None:
        if strategy not in STRATEGIES:
            raise TilingError(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
        npieces = len(limits)
        if len(must_use) != npieces:
            raise TilingError("limits and must_use must have one entry per piece")
        if minimums is not None and len(minimums) != npieces:
            raise TilingError("minimums must have one entry per piece")
        self.ncells = ncells
        self.strategy = strategy
        self.limits = [(-1 if limit < 0 else int(limit)) for limit in limits]
        if minimums is None:
            minimums = [max(lim, 0) if flag else 0 for lim, flag in zip(self.limits, must_use)]
        self.minimum = [max(int(m), 0) for m in minimums]
        for i, (low, high) in enumerate(zip(self.minimum, self.limits)):
            if 0 <= high < low:
                raise TilingError(f"piece {i}: minimum {low} above its limit")
        self.piece = []
        self.cells = []
        self.masks = []
        self.by_first: list[list[int]] = [[] for _ in range(ncells)]
        self.cover: list[list[int]] = [[] for _ in range(ncells)]
        self.by_piece: list[list[int]] = [[] for _ in range(npieces)]
        for index, (piece, cells) in enumerate(placements):
            cells = sorted(set(int(c) for c in cells))
            if not 0 <= piece < npieces:
                raise TilingError(f"placement {index} uses piece {piece}, not in 0..{npieces - 1}")
            if not cells or cells[0] < 0 or cells[-1] >= ncells:
                raise TilingError(f"placement {index} covers a cell outside 0..{ncells - 1}")
            self.piece.append(piece)
            self.cells.append(tuple(cells))
            self.masks.append(sum(1 << c for c in cells))
            self.by_first[cells[0]].append(index)
            for c in cells:
                self.cover[c].append(index)
            self.by_piece[piece].append(index)
        self.excluded: frozenset[int] = frozenset()
        self._deadlines_and_sizes()
        # Candidate lists run piece by piece (stable: the order within a piece is kept),
        # as in the compiled twin, which jumps over a used-up piece's run in one step.
        for lists in (self.by_first, self.cover):
            for c in range(ncells):
                lists[c].sort(key=lambda q: self.piece[q])
        self.neighbours = None if neighbours is None else [tuple(n) for n in neighbours]
        self.flood_cap = ncells if flood_cap is None else int(flood_cap)
        self.full = (1 << ncells) - 1
        self.initial = tuple(int(p) for p in initial)
        self._start_state()  # validates the initial placements
        self.nodes = 0
        self.stopped_at: tuple[int, ...] | None = None
        self.memo = True
        self.memo_ok = any(lim < 0 for lim in self.limits) and all(
            lim == 0 or (lim < 0 and low == 0) for lim, low in zip(self.limits, self.minimum)
        )
        self.memo_min_empty = 2 * max((len(cells) for cells in self.cells), default=1)
        self.memo_entries = memo_entries(max(1, (ncells + 63) // 64)) if self.memo_ok else 0
        self._memo: dict[int, int] = {}

    def _deadlines_and_sizes(self) -> None:
        """What the pruning rules read from the placements not excluded: the last
        cell each piece's placement can start on (past it, the piece is dead), and
        the least size and the gcd of the sizes (the area test)."""
        self.last_start = [-1] * len(self.limits)
        sizes = set()
        for p, cells in enumerate(self.cells):
            if p not in self.excluded:
                self.last_start[self.piece[p]] = max(self.last_start[self.piece[p]], cells[0])
                sizes.add(len(cells))
        self.min_size = min(sizes) if sizes else 1
        self.size_gcd = 0
        for size in sizes:
            self.size_gcd = gcd(self.size_gcd, size)
        self.size_gcd = self.size_gcd or 1

    def restrict(self, excluded: Iterable[int] = ()) -> None:
        """Leave the placements ``excluded`` out of the following searches, replacing
        any earlier restriction: they then run as on a kernel built without them,
        with the same placement numbers.

        One kernel so serves the restricted searches of symmetry breaking, which
        differ only in the placements of their breaker pieces (3x4x5 has 75 of
        them, and building a kernel costs far more than restricting one). Not
        while :meth:`solutions` is under way.

        Examples
        --------
        >>> dominoes = [(0, c) for c in [(0, 1), (2, 3), (4, 5), (0, 2), (1, 3), (2, 4), (3, 5)]]
        >>> search = TilingSearch(6, dominoes, limits=[-1], must_use=[False])
        >>> search.restrict([0])
        >>> search.count()
        1
        >>> search.restrict()
        >>> search.count()
        3
        """
        left_out = frozenset(int(p) for p in excluded)
        for p in left_out:
            if not 0 <= p < len(self.piece):
                raise TilingError(f"placement {p} does not exist")
            if p in self.initial:
                raise TilingError(f"initial placement {p} cannot be left out")
        self.excluded = left_out
        self._deadlines_and_sizes()
        self._memo.clear()

    # -- state ---------------------------------------------------------------

    def _start_state(self) -> tuple[int, list[int]]:
        occupied = 0
        remaining = list(self.limits)
        for p in self.initial:
            if not 0 <= p < len(self.piece):
                raise TilingError(f"initial placement {p} does not exist")
            if p in self.excluded:
                raise TilingError(f"initial placement {p} is left out by restrict()")
            if occupied & self.masks[p]:
                raise TilingError(f"initial placement {p} overlaps an earlier one")
            if remaining[self.piece[p]] == 0:
                raise TilingError(f"initial placement {p} uses piece {self.piece[p]} too often")
            occupied |= self.masks[p]
            remaining[self.piece[p]] -= 1
        return occupied, remaining

    def _owed(self, piece: int, remaining: list[int]) -> int:
        """Copies of ``piece`` still needed to reach its minimum (used = limit - remaining,
        also for an unbounded piece, whose count runs down from -1)."""
        return self.minimum[piece] - (self.limits[piece] - remaining[piece])

    def _fits(self, p: int, occupied: int, remaining: list[int]) -> bool:
        return (
            not (self.masks[p] & occupied)
            and remaining[self.piece[p]] != 0
            and p not in self.excluded
        )

    def _first_empty(self, occupied: int, start: int) -> int:
        c = start
        while occupied >> c & 1:
            c += 1
        return c

    def _branch(self, occupied: int, remaining: list[int], hint: int) -> tuple[int, list[int]]:
        """Return (branching cell, candidate placements in order); candidates may not fit."""
        if self.strategy == "first":
            c = self._first_empty(occupied, hint)
            for piece in range(len(remaining)):
                if self._owed(piece, remaining) > 0 and self.last_start[piece] < c:
                    return c, []  # this piece can no longer be placed
            return c, self.by_first[c]
        best_cell, best_list, best_count = -1, [], None
        for c in range(self.ncells):
            if occupied >> c & 1:
                continue
            count = 0
            for p in self.cover[c]:
                if self._fits(p, occupied, remaining):
                    count += 1
                    if best_count is not None and count >= best_count:
                        break
            if best_count is None or count < best_count:
                best_cell, best_list, best_count = c, self.cover[c], count
                # Scan on past a cell with one placement: a later cell with none
                # makes the node dead, where that placement would only lead to a
                # dead child (3x4x5: 11 % of the nodes).
                if count == 0:
                    break
        if best_count:
            for piece, left in enumerate(remaining):
                # Branching on a piece splits the tilings only when exactly one more
                # copy of it is used in each of them.
                if left == 1 and self.minimum[piece] == self.limits[piece]:
                    count = 0
                    for p in self.by_piece[piece]:
                        if self._fits(p, occupied, remaining):
                            count += 1
                            if count >= best_count:
                                break
                    if count < best_count:
                        best_cell, best_list, best_count = -1 - piece, self.by_piece[piece], count
                        if count == 0:
                            break
        return best_cell, best_list

    def _dead_size(self, size: int) -> bool:
        """True if no combination of the pieces fills an isolated area of ``size``
        cells (by the least piece size and the gcd of the sizes)."""
        return size < self.min_size or size % self.size_gcd != 0

    def _area_ok(self, p: int, occupied: int) -> bool:
        """False if placement ``p`` (already in ``occupied``) isolates an unfillable area."""
        if self.neighbours is None:
            return True
        border = {q for c in self.cells[p] for q in self.neighbours[c]} - set(self.cells[p])
        single_dead = self._dead_size(1)
        measured = occupied
        for start in sorted(border):
            if occupied >> start & 1:
                continue
            if all(occupied >> q & 1 for q in self.neighbours[start]):
                if single_dead:
                    return False
                continue
            if self.flood_cap <= 1 or measured >> start & 1:
                continue
            area, stack = 1 << start, [start]
            size = 0
            while stack and size < self.flood_cap:
                cell = stack.pop()
                size += 1
                for q in self.neighbours[cell]:
                    if not (measured | area) >> q & 1:
                        area |= 1 << q
                        stack.append(q)
            if stack:
                continue  # at least flood_cap cells: left alone
            if self._dead_size(size):
                return False
            measured |= area
        return True

    # -- the search ------------------------------------------------------------

    def _begin(self, prefix: Sequence[int]) -> tuple[int, list[int], list[int]]:
        """(board, copies left, placements on it) with the initial placements and
        ``prefix`` placed; the node count starts over."""
        saved = self.initial
        self.initial = saved + tuple(int(p) for p in prefix)
        try:
            occupied, remaining = self._start_state()
            chosen = list(self.initial)
        finally:
            self.initial = saved
        self.nodes = 0
        return occupied, remaining, chosen

    def _children(
        self, occupied: int, remaining: list[int], hint: int
    ) -> Iterator[tuple[int, int, int]]:
        """The children of a node, in order: (placement, board after it, the hint
        below it). Each candidate is tested as it comes, with the copies left then
        (the caller takes a copy off while it searches below a child)."""
        cell, candidates = self._branch(occupied, remaining, hint)
        for p in candidates:
            if not self._fits(p, occupied, remaining):
                continue
            now = occupied | self.masks[p]
            if self._area_ok(p, now):
                yield p, now, cell if cell >= 0 else 0

    def _asked_to_stop(self, stop: Callable[[], bool] | None) -> bool:
        """Whether ``stop`` (asked every STOP_CHUNK nodes, after the first) says stop."""
        return stop is not None and self.nodes > 0 and self.nodes % STOP_CHUNK == 0 and stop()

    def _search(
        self,
        prefix: Sequence[int] = (),
        nodes: int | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Iterator[list[int]]:
        """Yield each tiling (containing ``prefix``) as its placement indices, in order;
        with ``nodes``, raise :class:`_Stopped` before entering more nodes than that
        (or once ``stop`` says so, see :meth:`count`)."""
        occupied, remaining, chosen = self._begin(prefix)
        below = len(chosen)  # the placements of the path start here

        def visit(occupied: int, hint: int) -> Iterator[list[int]]:
            if (nodes is not None and self.nodes >= nodes) or self._asked_to_stop(stop):
                raise _Stopped(tuple(chosen[below:]))
            self.nodes += 1
            if occupied == self.full:
                if all(self._owed(k, remaining) <= 0 for k in range(len(remaining))):
                    yield list(chosen)
                return
            for p, now, below_hint in self._children(occupied, remaining, hint):
                remaining[self.piece[p]] -= 1
                chosen.append(p)
                yield from visit(now, below_hint)
                chosen.pop()
                remaining[self.piece[p]] += 1

        yield from visit(occupied, 0)

    def count(
        self,
        progress: Callable[[float], None] | None = None,
        prefix: Sequence[int] = (),
        nodes: int | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> int:
        """Return the number of tilings containing ``prefix`` (``progress`` only gets 1.0).

        With ``nodes``, the search stops before it would enter more nodes than
        that and returns the tilings found so far; :attr:`stopped_at` is then
        the path (placements below ``prefix``) to the first node not entered,
        else None. The rest of the search is that node's subtree and, at each
        level above it, the children after the path's (in :meth:`branch` order):
        so a long count can be cut where it stands (:mod:`polyforms.tiling.problem`).
        With ``stop``, it also stops so once ``stop()`` returns true, asked
        every ``STOP_CHUNK`` nodes (never before the first ``STOP_CHUNK``, so a
        stopped count has always made progress): a worker whose peers are idle
        hands its rest back.

        With free pieces only, the count memoizes (module notes): :attr:`nodes`
        is then the nodes visited, not the size of the tree, and the boards
        remembered serve the later counts of this kernel until :meth:`restrict`.
        """
        if nodes is not None and nodes < 0:
            raise TilingError(f"nodes must be at least 0, not {nodes}")
        self.stopped_at = None
        if self.memo and self.memo_ok:
            return self._tally(progress, prefix, nodes, stop)
        total = 0
        try:
            for _ in self._search(prefix, nodes, stop):
                total += 1
        except _Stopped as stopped:
            self.stopped_at = stopped.path
            return total
        if progress is not None:
            progress(1.0)
        return total

    def _tally(
        self,
        progress: Callable[[float], None] | None,
        prefix: Sequence[int],
        nodes: int | None,
        stop: Callable[[], bool] | None = None,
    ) -> int:
        """:meth:`count` with the memo (see the module notes): the nodes of
        :meth:`_search` in the same order, less the subtrees of boards met before."""
        occupied, remaining, chosen = self._begin(prefix)
        below = len(chosen)
        found = [0]
        memo = self._memo

        def visit(occupied: int, hint: int) -> None:
            if (nodes is not None and self.nodes >= nodes) or self._asked_to_stop(stop):
                raise _Stopped(tuple(chosen[below:]))
            self.nodes += 1
            remember = self.ncells - occupied.bit_count() >= self.memo_min_empty
            if remember:
                known = memo.get(occupied)
                if known is not None:
                    found[0] += known
                    return
            before = found[0]
            if occupied == self.full:
                found[0] += 1  # free pieces only: no minimum to meet
            else:
                for p, now, below_hint in self._children(occupied, remaining, hint):
                    remaining[self.piece[p]] -= 1
                    chosen.append(p)
                    visit(now, below_hint)
                    chosen.pop()
                    remaining[self.piece[p]] += 1
            if remember:
                if len(memo) >= self.memo_entries:
                    memo.clear()  # full: start over, as the compiled twin does
                memo[occupied] = found[0] - before

        try:
            visit(occupied, 0)
        except _Stopped as stopped:
            self.stopped_at = stopped.path
            return found[0]
        if progress is not None:
            progress(1.0)
        return found[0]

    def solutions(
        self, limit: int | None = None, prefix: Sequence[int] = ()
    ) -> Iterator[list[int]]:
        """Yield up to ``limit`` tilings containing ``prefix``, as placement index lists."""
        for found, solution in enumerate(self._search(prefix)):
            if limit is not None and found >= limit:
                return
            yield solution

    def branch(self, prefix: Sequence[int] = ()) -> list[int] | None:
        """Return the fitting children of the node reached by ``prefix``.

        The children split the tilings containing ``prefix`` (and the initial
        placements) into disjoint families, so a search can be cut into
        subtasks. None means ``prefix`` already covers the region.
        """
        occupied, remaining, _ = self._begin(prefix)
        if occupied == self.full:
            return None
        return [p for p, _, _ in self._children(occupied, remaining, 0)]

    def probe(self, prefix: Sequence[int] = (), probes: int = 1, seed: int = 0) -> float:
        """Knuth's estimate of the nodes below ``prefix`` (D. E. Knuth, Math. Comp.
        29 (1975) 121-136): the mean over ``probes`` random walks down the tree
        of :meth:`branch` of ``1 + d1 + d1*d2 + ...``, where ``d1, d2, ...`` are
        the numbers of children along the walk. The walks are drawn by a small
        generator of their own (splitmix64 seeding, xorshift64 steps, the high
        half of a xorshift64* product for each child index), so the compiled
        twin, which walks inside the kernel, takes the same walks.
        """
        if probes < 1:
            raise TilingError(f"probes must be at least 1, not {probes}")
        state = _walks.seeded(int(seed) & _walks.MASK64)
        total = 0.0
        for _ in range(probes):
            node = [int(p) for p in prefix]
            size = scale = 1.0
            while True:
                kids = self.branch(node)
                if not kids:
                    break
                scale *= len(kids)
                size += scale
                state = _walks.step(state)
                node.append(kids[_walks.draw(state, len(kids))])
            total += size
        self.nodes = 0
        return total / probes

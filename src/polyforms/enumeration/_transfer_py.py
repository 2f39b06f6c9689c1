"""Readable twin of the compiled transfer-matrix counter (:mod:`polyforms._core._transfer`).

It has the functions, arguments and results of the compiled core, which
:mod:`polyforms.enumeration.transfer` calls through :func:`polyforms._backend.kernel`;
tests hold the two to the same numbers. It is the specification, fast enough
for ``n <= 12`` or so.

The method (Jensen 2001; Knuth's POLYNUM) counts the fixed polyominoes whose
bounding box is ``width`` columns wide, without ever building one, by sweeping
that box cell by cell: row 0 from left to right, then row 1, and so on.

The data structure
------------------
After the cell ``(r, c)`` has been decided (filled or left empty), the
*frontier* is the last decided cell of every column: cells ``(r, 0) ..
(r, c)`` and ``(r - 1, c + 1) .. (r - 1, width - 1)``. Every cell still to
come touches the polyomino only through the frontier, so all that the future
needs to know about a partial polyomino is its *state*:

* which frontier cells are filled, and which of them are joined by the cells
  decided so far (a partition of the filled frontier cells into
  *components*). The decided cells lie above the frontier, so two components
  never cross: the partition is non-crossing, like nested parentheses;
* two bits: has the polyomino touched column 0 yet, and column ``width - 1``.

Here a frontier is a tuple of ``width`` labels, 0 for empty and ``1, 2, ...``
for the components in the order they first appear (so each state has one
spelling). The compiled core packs the same frontier into one 64-bit word,
Jensen's way: 3 bits a cell, 0 empty, 1 the first of a component with more
to come, 2 a middle one, 3 the last, 4 a component of one cell (nesting makes
the labels recoverable with a stack). Above 20 cells it edits the fields in
128 bits and stores them as the digits of a base-5 number, still one word.

A *table* maps each state to a polynomial: its coefficient of degree ``k`` is
the number of partial polyominoes with ``k`` cells that reach this state.
Partial polyominoes with the same state have the same futures, so they are
merged and never looked at again one by one: that is why the count grows like
the number of states (about 1.4 to 1.6 per cell) and not like the number of
polyominoes (about 4.06 per cell).

The loop
--------
For each cell ``(r, c)``, each state of the table gives at most two states of
the next table:

* *empty*: the frontier cell above, ``(r - 1, c)``, leaves the frontier. If
  it was the only frontier cell of its component, that component can never
  join the rest: the state dies (it was either disconnected, or a finished
  polyomino, which was counted when its last cell was placed);
* *filled* (degree + 1): the new cell joins the components of its upper and
  left neighbours (merging them), or starts a component of its own. If the
  result is a single component that touches both side columns, the polyomino
  may stop here, every later cell empty: its coefficients are added to the
  answer for height ``r + 1``. Each polyomino is counted once, at its last
  cell.

Row 0 starts from the empty frontier (nothing placed yet); the empty frontier
is dropped after row 0, so that row 0 is the top row of every polyomino.

*Pruning.* A state needs at least ``need`` more cells to become a polyomino
that is counted (:func:`cells_needed`): the new cells form pieces, each
connected and touching the frontier; some piece must bridge every gap between
components that no component spans, from below the filled cell on one side
to below the one on the other; some piece must reach each side column not yet
touched, and one must reach row ``width - 1`` (only boxes at least as tall as
they are wide are counted; see below). A piece spanning ``a`` columns and
``b`` rows has at least ``a + b - 1`` cells. Coefficients of degree above
``n - need`` are dropped, and a state whose every degree is dropped is not
kept. (Knuth's POLYNUM computes a sharper bound, which also charges nested
components, by min-plus products of 2 x 2 cost matrices.)

*Symmetry.* Transposing a polyomino swaps the width and height of its box, so
each width ``w`` only counts boxes ``w`` wide and at least ``w`` tall: a
square box counts once, a taller one twice (for it and its transpose). The
widths run from 1 to ``(n + 1) // 2``, as ``w + h - 1 <= n``.

Counts are modulo ``modulus`` (0: modulo 2**64, the compiled core's native
word); :mod:`polyforms.enumeration.transfer` combines moduli by the Chinese remainder
theorem when a count may reach 2**64.

References
----------
I. Jensen, "Enumerations of lattice animals and trees", J. Stat. Phys. 102
(2001) 865-881; I. Jensen, "Counting polyominoes: a parallel implementation
for cluster computing", ICCS 2003, LNCS 2659, 203-212. D. E. Knuth, POLYNUM
and POLYSLAVE (CWEB programs, 2001).
"""

from __future__ import annotations

from ..errors import PolyformError

__all__ = ["count_width", "cells_needed", "cells_used", "MAX_WIDTH"]

#: The widest box the compiled core packs into one 64-bit word (base 5: 5**26 * 4 < 2**63).
MAX_WIDTH = 26

State = tuple[tuple[int, ...], int]  # (frontier labels, touched bits: 1 left, 2 right)


def _normalise(frontier: list[int]) -> tuple[int, ...]:
    """Relabel the components 1, 2, ... in the order they first appear."""
    names: dict[int, int] = {}
    return tuple(0 if v == 0 else names.setdefault(v, len(names) + 1) for v in frontier)


def cells_needed(frontier: tuple[int, ...], touched: int, width: int, row: int, col: int) -> int:
    """A lower bound on the cells still to add for a state to become a counted polyomino.

    The state is the one after cell ``(row, col)``. The cells still to come
    form *pieces*, each connected and touching the frontier. A new cell next
    to frontier cell ``x`` lies in column ``x`` (below it), or in column
    ``col + 1`` when ``x == col`` (the cell ``(row, col + 1)``). So:

    * between two consecutive filled frontier cells ``p < q`` that no
      component spans, some piece must join the two sides, and it spans the
      columns from ``p`` (``p + 1`` if ``p == col``) to ``q``;
    * a polyomino that has not touched column 0 needs a piece spanning the
      columns 0 to the leftmost filled cell ``lo``; likewise on the right;
    * the polyomino must reach row ``width - 1`` (boxes at least as tall as
      they are wide), so some piece spans every row below ``row``.

    A piece spanning ``a`` columns and ``b`` rows has at least ``a + b - 1``
    cells. Adding up over the pieces: at least (the columns of the union of
    the intervals) + (the rows needed) - 1 cells when both are needed.

    Examples
    --------
    >>> cells_needed((1, 0, 0, 2), 3, 4, 5, 3)   # two components: a bridge of 4 cells
    4
    >>> cells_needed((0, 1, 0, 0), 0, 4, 0, 1)   # one cell in row 0: 4 columns, 3 rows
    6
    """
    filled = [x for x, v in enumerate(frontier) if v]
    if not filled:
        return 2 * width - 1  # nothing placed yet: the smallest box w x w has 2w - 1 cells
    lo, hi = filled[0], filled[-1]
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for x, v in enumerate(frontier):
        if v:
            first.setdefault(v, x)
            last[v] = x

    def spanned(left: int, right: int) -> bool:
        """Is there a component with a cell at or before ``left`` and one at or after ``right``?"""
        return any(first[v] <= left and last[v] >= right for v in first)

    # The columns that pieces of new cells must span, as intervals from left to right.
    intervals = []
    if not touched & 1:
        intervals.append((0, lo))  # from column 0 to below the leftmost filled cell
    for p, q in zip(filled, filled[1:]):
        if not spanned(p, q):
            # a bridge from below p (or, at the kink, from (row, col + 1)) to below q
            intervals.append((p + 1 if p == col else p, q))
    if not touched & 2:
        intervals.append((hi + 1 if hi == col else hi, width - 1))
    covered = set()
    for start, stop in intervals:
        covered.update(range(start, stop + 1))
    columns = len(covered)
    rows = width - 1 - row
    if rows <= 0:
        return columns
    return rows + columns - 1 if columns > 0 else rows


def cells_used(frontier: tuple[int, ...], width: int, row: int, col: int) -> int:
    """A lower bound on the cells a partial polyomino in this state already has.

    Every row above the frontier row ``row - 1`` holds a cell (else the part
    above it would be cut off), row ``row - 1`` at least one and at least its
    filled frontier cells, row ``row`` its filled frontier cells. The compiled
    core stores only the degrees from here to ``n - cells_needed``.
    """
    left = sum(1 for v in frontier[: col + 1] if v)
    if row == 0:
        return left
    right = sum(1 for v in frontier[col + 1 :] if v)
    return row - 1 + max(1, right) + left


class _Step:
    """The table being built for cell ``(row, col)``: states, their top degrees, bytes."""

    def __init__(self, n: int, width: int, row: int, col: int, wrap: int) -> None:
        self.n, self.width, self.row, self.col, self.wrap = n, width, row, col, wrap
        self.table: dict[State, dict[int, int]] = {}
        self.tops: dict[State, int] = {}  # each kept state's highest degree, n - cells_needed
        self.memory = 0

    def add(self, state: State, poly: dict[int, int], shift: int) -> None:
        """Add ``poly`` times x**shift to ``state`` (made, or pruned, on first sight)."""
        if state not in self.tops:
            frontier, touched = state
            top = self.n - cells_needed(frontier, touched, self.width, self.row, self.col)
            bottom = cells_used(frontier, self.width, self.row, self.col)
            if top < bottom:
                return  # pruned: no degree can still be counted
            self.tops[state] = top
            self.table[state] = {}
            self.memory += 16 + 8 * (top - bottom + 1)
        target, top = self.table[state], self.tops[state]
        for degree, number in poly.items():
            if degree + shift <= top:
                target[degree + shift] = (target.get(degree + shift, 0) + number) % self.wrap


def count_width(
    n: int, width: int, modulus: int = 0, wide: bool = False, base5: bool = False
) -> tuple[list[int], list[int], int, int]:
    """Count the fixed polyominoes of every size up to ``n`` whose box is ``width`` wide.

    Parameters
    ----------
    n : int
        Largest size; pruning keeps every polyomino of at most ``n`` cells.
    width : int
        Width of the bounding box, 1 to ``(n + 1) // 2``.
    modulus : int
        Count modulo this (0: modulo 2**64).
    wide : bool
        Count modulo 2**128 instead (two words a coefficient in the compiled
        core; every count up to n = 58 is below 2**128 > 4.5252**58, the
        rigorous bound on the growth of polyominoes).
    base5 : bool
        The compiled core's wide frontier (128-bit fields, stored in base 5),
        which it takes above 20 cells by itself; forced for tests. Frontiers
        here are tuples either way.

    Returns
    -------
    square, tall : list of int
        ``square[k]``: polyominoes of ``k`` cells whose box is ``width`` x
        ``width``; ``tall[k]``: those whose box is ``width`` wide and taller.
        Index 0 .. n; modulo ``modulus``.
    states : int
        The largest table, in states.
    memory : int
        The largest table in bytes, by the compiled core's layout (16 bytes a
        state plus 8 a stored coefficient; without the hash index).

    Examples
    --------
    >>> square, tall, states, memory = count_width(4, 2)
    >>> square[3], tall[4]          # the L trominoes; the L, S, Z tetrominoes upright
    (4, 8)
    """
    if not 1 <= width <= (n + 1) // 2 and not (n == 1 and width == 1):
        raise PolyformError(f"width must be between 1 and {(n + 1) // 2}, not {width}")
    if width > MAX_WIDTH:
        raise PolyformError(f"width {width} is above the widest box packed ({MAX_WIDTH})")
    if wide and modulus:
        raise PolyformError("wide counts are modulo 2**128: give no modulus with them")
    wrap = modulus if modulus else 1 << (128 if wide else 64)
    square = [0] * (n + 1)
    tall = [0] * (n + 1)
    peak_states, peak_memory = _sweep(n, width, wrap, square, tall)
    return square, tall, peak_states, peak_memory


def _sweep(n: int, width: int, wrap: int, square: list[int], tall: list[int]) -> tuple[int, int]:
    """Sweep the box cell by cell, adding the polyominoes that end to ``square`` and
    ``tall``; return the largest table in states and in bytes."""
    # One table: state -> {degree: number of partial polyominoes}.
    table: dict[State, dict[int, int]] = {((0,) * width, 0): {0: 1}}
    peak_states = peak_memory = 0
    for row in range(n - width + 1):  # a box w wide holds no polyomino of n cells taller than this
        for col in range(width):
            step = _Step(n, width, row, col, wrap)
            for state, poly in table.items():
                if row > 0 and not any(state[0]):
                    continue  # never started in row 0: row 0 must be the top row
                if not any(poly.values()):
                    continue  # every degree it could reach was cut off (or is 0 mod m)
                _transfer(step, state, poly, square, tall)
            table = step.table
            peak_states = max(peak_states, len(table))
            peak_memory = max(peak_memory, step.memory)
    return peak_states, peak_memory


def _transfer(
    step: _Step, state: State, poly: dict[int, int], square: list[int], tall: list[int]
) -> None:
    """Both transitions of one source state, and the polyominoes that end at its filled cell."""
    frontier, touched = state
    emptied = _emptied(frontier, step.col)
    if emptied is not None:
        step.add((emptied, touched), poly, 0)
    filled = _filled(frontier, touched, step.col, step.width)
    step.add(filled, poly, 1)
    if filled[1] == 3 and max(filled[0]) == 1 and step.row + 1 >= step.width:
        # One component touching both sides: it may end here.
        counts = square if step.row + 1 == step.width else tall
        for degree, number in poly.items():
            if degree < step.n:
                counts[degree + 1] = (counts[degree + 1] + number) % step.wrap


def _emptied(frontier: tuple[int, ...], col: int) -> tuple[int, ...] | None:
    """The frontier after leaving cell ``col`` empty, or None when a component is cut off.

    The cell above, ``(row - 1, col)``, leaves the frontier; if it was the only
    frontier cell of its component, that component can never join the rest.
    """
    up = frontier[col]
    if up and frontier.count(up) == 1:
        return None
    cells = list(frontier)
    cells[col] = 0
    return _normalise(cells)


def _filled(frontier: tuple[int, ...], touched: int, col: int, width: int) -> State:
    """The state after filling cell ``col``: it joins its upper and left neighbours."""
    up = frontier[col]
    left = frontier[col - 1] if col > 0 else 0
    cells = list(frontier)
    label = up or left or max(frontier) + 1
    if up and left and up != left:
        cells = [up if v == left else v for v in cells]
    cells[col] = label
    return _normalise(cells), touched | (col == 0) | (col == width - 1) << 1

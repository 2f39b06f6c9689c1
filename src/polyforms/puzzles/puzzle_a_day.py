"""The A-Puzzle-A-Day calendar board: leave one month and one day uncovered.

The board (43 cells: the 12 months in two rows of six, then the days 1-31)
and its eight pieces (seven pentominoes and a 2x3 block) are shipped as
``polyforms/data/calendar.txt``. For each of the 12 x 31 = 372 month-day
pairs, the two cells of the date stay open and the other 41 are tiled by the
eight pieces, each once, turned and flipped freely.

Every date at once is one search: the whole board with two open cells
(:func:`calendar_open_problem`), each tiling filed under its open pair
(:meth:`~polyforms.tiling.problem.TilingProblem.count_by_open`): about 1 s for all
903 pairs of cells, against one search per date.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache

from .._textio import shorten
from ..errors import TilingError
from ..geometry import Cell
from ..piece_sets import PieceSet
from ..polyform import Polyform, parse_lettered, parse_picture
from ..region import Region
from ..tiling.problem import TilingProblem

__all__ = [
    "MONTHS",
    "calendar_board",
    "calendar_pieces",
    "calendar_problem",
    "calendar_open_problem",
    "calendar_counts",
    "calendar_text",
]

#: The month names of the calendar board, in order.
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@cache
def _sections() -> dict[str, str]:
    # A path beside this module (importlib.resources would add 20 ms to every start-up).
    path = os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "calendar.txt"
    )
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    sections: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith(";"):  # a comment (a "#" line is a row of cells)
            continue
        if line.startswith("[") and line.rstrip().endswith("]"):
            current = line.strip()[1:-1]
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    return {name: "\n".join(lines) for name, lines in sections.items()}


@cache
def calendar_board() -> tuple[Cell, ...]:
    """The 43 board cells in reading order: 12 months, then days 1-31."""
    return tuple(cell for cell, _ in parse_picture(_sections()["board"]))


@cache
def calendar_pieces() -> dict[str, Polyform]:
    """The eight pieces: N V Z U Y P L (pentominoes) and O (2x3 block)."""
    return {name: Polyform(cells) for name, cells in parse_lettered(_sections()["pieces"]).items()}


def _whole(value: object, what: str, high: int) -> int:
    """A whole number from 1 to ``high``: an int, or ASCII digits (not 1.9, not '²')."""
    given = value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        # Thousands of digits are no day either (and int() refuses more than 4,300).
        value = int(value) if len(value.strip().lstrip("0")) <= 9 else None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise TilingError(
            f"{what} must be a whole number from 1 to {high}, not {shorten(str(given), 20)!r}"
        )
    return value


#: The months' full names, for :func:`_month_number`.
_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip


def _month_number(month: int | str) -> int:
    """1 to 12 from a number, or a month's full name or three-letter abbreviation in any
    case (``"Jun"``, ``"june"``, ``"JUNE"``); ``"Junk"`` is no month, not June."""
    if isinstance(month, str) and not (month.strip().isascii() and month.strip().isdigit()):
        key = month.strip().lower()
        for number, name in enumerate(_MONTH_NAMES, start=1):
            if key in (name, name[:3]):
                return number
        raise TilingError(
            f"unknown month {shorten(month, 20)!r}; use 1-12, {', '.join(MONTHS)} or the full name"
        )
    return _whole(month, "month", 12)


def calendar_problem(month: int | str, day: int) -> TilingProblem:
    """The tiling problem for one date: the board minus its month and day cells.

    Examples
    --------
    >>> calendar_problem("Jan", 1).count()
    64
    """
    m = _month_number(month)
    day = _whole(day, "day", 31)
    board = calendar_board()
    open_cells = {board[m - 1], board[12 + day - 1]}
    # Rows 0 and 1 and column 0 each keep some cell whatever the date, so the
    # region's normal position is the board's own and pictures line up.
    region = Region(c for c in board if c not in open_cells)
    return TilingProblem(region, PieceSet(calendar_pieces()))


def calendar_open_problem() -> TilingProblem:
    """The whole board with any two cells left open: every pair in one search.

    Examples
    --------
    >>> counts = calendar_open_problem().count_by_open()
    >>> len(counts), max(counts.values())
    (896, 305)
    """
    return TilingProblem(Region(calendar_board()), PieceSet(calendar_pieces()), open=2)


def calendar_counts() -> Iterator[tuple[int, int, int]]:
    """Yield ``(month, day, number of solutions)`` for all 372 month-day pairs.

    One search over every pair of open cells (:func:`calendar_open_problem`),
    read at the month-day pairs.

    Examples
    --------
    >>> counts = {(m, d): n for m, d, n in calendar_counts()}
    >>> counts[1, 1], counts[12, 25], max(counts.values()), counts[1, 25]
    (64, 92, 216, 216)
    """
    by_open = calendar_open_problem().count_by_open()
    board = calendar_board()
    for month in range(1, 13):
        for day in range(1, 32):
            pair = tuple(sorted((board[month - 1], board[12 + day - 1])))
            yield month, day, by_open.get(pair, 0)


def label_picture(month: int | str, day: int, text: str) -> str:
    """Mark the open date cells of a solution picture with ``*`` (the rest kept)."""
    m = _month_number(month)
    board = calendar_board()
    holes = {board[m - 1], board[12 + int(day) - 1]}
    rows = [list(row) for row in text.split("\n")]
    for x, y in holes:
        while len(rows[y]) <= x:
            rows[y].append(".")
        rows[y][x] = "*"
    return "\n".join("".join(row) for row in rows)


def calendar_text(
    month: int | str | None = None,
    day: int | str | None = None,
    *,
    count: bool = False,
    limit: int | None = None,
) -> Iterator[str]:
    """The text of ``polyforms calendar``, piece by piece.

    Without a date, one line ``month day count`` for each of the 372 dates
    (:func:`calendar_counts`); with one, its number of solutions (``count``),
    or its solutions as pictures with the open date cells marked ``*``, each
    followed by a blank line. ``limit`` stops after that many solutions.

    Examples
    --------
    >>> "".join(calendar_text("Dec", 25, count=True))
    '92\\n'
    >>> print("".join(calendar_text(1, 1, limit=1)), end="")
    *NNNPP.
    NNYPPP.
    *YYYYOO
    ZZUUUOO
    VZULUOO
    VZZLLLL
    VVV....
    <BLANKLINE>
    """
    if month is None:
        for number, date, total in calendar_counts():
            yield f"{MONTHS[number - 1]} {date} {total}\n"
        return
    if day is None:
        raise TilingError("give both MONTH and DAY, or neither")
    problem = calendar_problem(month, day)
    if count:
        if limit is None:
            total = problem.count()
        else:
            total = sum(1 for _ in problem.solutions(limit=limit))
        yield f"{total}\n"
        return
    for tiling in problem.solutions(limit=limit):
        yield label_picture(month, day, tiling.to_ascii()) + "\n\n"

"""Worked exact-cover examples: Sudoku, queens, Langford pairs, set partitions, word squares.

Each function builds an :class:`~polyforms.exactcover.problem.ExactCover`; the
counts in the examples are published results (see ``tests/test_examples.py``
for the citations).

Examples
--------
>>> queens(8).count()
92
>>> langford(3).count()
2
>>> set_partitions(4).count()
15
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence

from ..errors import ExactCoverError, ParseError, TooLargeError, WrongTypeError
from ..exactcover.problem import Coloured, ExactCover
from ..limits import MAX_PLACEMENTS

__all__ = [
    "langford",
    "queens",
    "set_partitions",
    "sudoku",
    "sudoku_grid",
    "two_queens",
    "word_square_grid",
    "word_squares",
]

_DIGITS = "123456789ABCDEFG"


def _size(n: object, least: int, options: Callable[[int], int], what: str) -> int:
    """``n`` checked: a whole number, at least ``least``, and a problem of at most
    :data:`~polyforms.limits.MAX_PLACEMENTS` options (``options(n)`` of them), so
    that ``queens(10**6)`` is refused before it builds a trillion options."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise WrongTypeError(f"n must be a whole number, not {str(n)[:40]!r}")
    if n < least:
        raise ExactCoverError(f"n must be at least {least}, got {n}")
    if n > 1 << 32 or options(n) > MAX_PLACEMENTS:
        raise TooLargeError(
            f"{what}({n}) would have more than {MAX_PLACEMENTS:,} options, the limit "
            "of a problem (polyforms.limits.MAX_PLACEMENTS)"
        )
    return n


def _parse_grid(grid: str | Sequence[Sequence[int]]) -> tuple[int, list[list[int]]]:
    """Read a Sudoku grid: a string of digits (``.`` or ``0`` for a blank) or rows of ints."""
    if isinstance(grid, str):
        cells = [ch for ch in grid if not ch.isspace() and ch not in "|-+"]
        size = {16: 4, 81: 9}.get(len(cells))
        if size is None:
            raise ParseError(f"a Sudoku grid has 16 or 81 cells, this one has {len(cells)}")
        values = []
        for position, ch in enumerate(cells):
            if ch in ".0_":
                values.append(0)
            elif ch in _DIGITS[:size]:
                values.append(_DIGITS.index(ch) + 1)
            else:
                raise ParseError(f"cell {position + 1} of the grid: {ch!r} is not a digit 1-{size}")
        return size, [values[r * size : (r + 1) * size] for r in range(size)]
    rows = [list(row) for row in grid]
    size = len(rows)
    if size not in (4, 9) or any(len(row) != size for row in rows):
        raise ParseError("a Sudoku grid is 4x4 or 9x9")
    for row in rows:
        for value in row:
            if not isinstance(value, int) or not 0 <= value <= size:
                raise ParseError(f"{value!r} is not a digit 0-{size}")
    return size, rows


def sudoku(grid: str | Sequence[Sequence[int]]) -> ExactCover:
    """The Sudoku puzzle ``grid`` (4x4 or 9x9) as exact cover.

    Parameters
    ----------
    grid : str or sequence of rows
        81 (or 16) characters, digits for givens and ``.`` or ``0`` for blanks
        (whitespace ignored), or rows of ints with 0 for a blank.

    Returns
    -------
    ExactCover
        Choices ``(row, column, digit)`` (0-based row and column, digit from 1);
        constraints ``("cell", r, c)``, ``("row", r, d)``, ``("col", c, d)``,
        ``("box", b, d)``. The givens are the initial choices; givens that clash
        give no solution.

    Raises
    ------
    ParseError
        If the grid is not 4x4 or 9x9 or holds something else than digits.

    Examples
    --------
    >>> sudoku("." * 16).count()
    288
    >>> puzzle = sudoku("1...  ..2.  .3..  ...4")
    >>> print(sudoku_grid(puzzle.first()))
    1243
    3421
    4312
    2134
    """
    size, rows = _parse_grid(grid)
    box = 2 if size == 4 else 3
    choices = {}
    for r, c, d in itertools.product(range(size), range(size), range(1, size + 1)):
        b = (r // box) * box + c // box
        choices[(r, c, d)] = [("cell", r, c), ("row", r, d), ("col", c, d), ("box", b, d)]
    givens = [(r, c, rows[r][c]) for r in range(size) for c in range(size) if rows[r][c]]
    return ExactCover(choices, initial=givens)


def sudoku_grid(solution: Iterable[tuple[int, int, int]] | None) -> str:
    """Draw a Sudoku solution (a list of ``(row, column, digit)``) as lines of digits."""
    if solution is None:
        raise ExactCoverError("no solution to draw")
    cells = {(r, c): d for r, c, d in solution}
    size = int(len(cells) ** 0.5)
    return "\n".join(
        "".join(_DIGITS[cells[(r, c)] - 1] if (r, c) in cells else "." for c in range(size))
        for r in range(size)
    )


def queens(n: int) -> ExactCover:
    """The n-queens problem: n non-attacking queens on an n x n board.

    Choices are squares ``(row, column)``; rows and columns are primary
    constraints, the diagonals ``("diag", r + c)`` and ``("anti", r - c)``
    secondary (at most one queen each). Counts: OEIS A000170.

    Examples
    --------
    >>> [queens(n).count() for n in range(1, 9)]
    [1, 0, 0, 2, 10, 4, 40, 92]
    """
    _size(n, 1, lambda n: n * n, "queens")
    return _queens(n, 1)


def two_queens(n: int) -> ExactCover:
    """Two queens in every row and column and at most two on each diagonal.

    Dudeney's sixteen-queens relaxation on an n x n board, with multiplicities:
    rows and columns exactly 2, diagonals (secondary) at most 2. Counts for
    n = 2..8: 1, 2, 11, 92, 1097, 19448, 477136 (OEIS A225623).

    Examples
    --------
    >>> [two_queens(n).count() for n in range(2, 6)]
    [1, 2, 11, 92]
    """
    _size(n, 2, lambda n: n * n, "two_queens")
    return _queens(n, 2)


def _queens(n: int, k: int) -> ExactCover:
    choices: dict[Hashable, list[Hashable]] = {}
    for r, c in itertools.product(range(n), repeat=2):
        choices[(r, c)] = [("row", r), ("col", c), ("diag", r + c), ("anti", r - c)]
    diagonals = [("diag", s) for s in range(2 * n - 1)] + [("anti", d) for d in range(1 - n, n)]
    primary = [(kind, i) for i in range(n) for kind in ("row", "col")]
    multiplicity = dict.fromkeys(primary + diagonals, k) if k > 1 else None
    return ExactCover(choices, secondary=diagonals, multiplicity=multiplicity, primary=primary)


def langford(n: int) -> ExactCover:
    """Langford pairs: place two copies of 1..n in 2n slots, the copies of k
    having k numbers between them.

    Choices ``(k, i)``: the copies of k in slots i and i + k + 1 (0-based).
    Constraints: the number ``k`` and the slots ``("slot", s)``. Both a
    pairing and its reversal are counted: 52 for n = 7, 300 for n = 8
    (twice OEIS A014552).

    Examples
    --------
    >>> langford(4).count()
    2
    >>> langford(5).count()
    0
    """
    _size(n, 1, lambda n: n * n, "langford")
    choices = {
        (k, i): [k, ("slot", i), ("slot", i + k + 1)]
        for k in range(1, n + 1)
        for i in range(2 * n - k - 1)
    }
    return ExactCover(choices, primary=list(range(1, n + 1)) + [("slot", s) for s in range(2 * n)])


def set_partitions(n: int) -> ExactCover:
    """Partitions of {1, ..., n} into non-empty blocks, as exact cover.

    Choices are the ``2**n - 1`` non-empty subsets (sorted tuples); the
    constraints are the elements. The count is the Bell number B(n)
    (OEIS A000110): 52, 203, 877, 4140, 21147, 115975 for n = 5..10.

    Examples
    --------
    >>> set_partitions(5).count()
    52
    """
    _size(n, 1, lambda n: 2 ** min(n, 64) - 1, "set_partitions")
    elements = range(1, n + 1)
    choices = {
        block: list(block)
        for size in range(1, n + 1)
        for block in itertools.combinations(elements, size)
    }
    return ExactCover(choices)


def word_squares(words: Iterable[str], *, distinct: bool = True) -> ExactCover:
    """Double word squares: an n x n grid whose rows and columns are all words of the list.

    An exact cover problem with colours (Knuth's XCC form, TAOCP 7.2.2.1): the
    primary constraints are the rows and the columns, each to be filled by one
    word; each cell is a secondary constraint that a row word and a column
    word may share only when they give it the same letter (its colour). With
    ``distinct`` no word is used twice (one uncoloured secondary constraint
    per word; a symmetric square then never counts).

    Parameters
    ----------
    words : iterable of str
        The word list; only the words of the most common length are used
        (n is that length), case kept.
    distinct : bool
        Every row and column a different word.

    Returns
    -------
    ExactCover
        Choices are ``("row", i, word)`` and ``("column", j, word)``.

    Raises
    ------
    ExactCoverError
        An empty word list.

    Examples
    --------
    >>> words = ["bag", "ice", "tee", "bit", "ace", "gee", "sea", "gas"]
    >>> problem = word_squares(words)
    >>> problem.count()
    2
    >>> print(word_square_grid(problem.first()))
    bag
    ice
    tee
    """
    found = sorted({w for w in words if isinstance(w, str) and w and not w.isspace()})
    if not found:
        raise ExactCoverError("the word list is empty")
    by_length: dict[int, int] = {}
    for word in found:
        by_length[len(word)] = by_length.get(len(word), 0) + 1
    n = max(sorted(by_length), key=lambda length: by_length[length])
    found = [w for w in found if len(w) == n]
    choices: dict[Hashable, list[Hashable]] = {}
    for word in found:
        for i in range(n):
            row: list[Hashable] = [("row", i)]
            row += [Coloured(("cell", i, j), letter) for j, letter in enumerate(word)]
            column: list[Hashable] = [("column", i)]
            column += [Coloured(("cell", j, i), letter) for j, letter in enumerate(word)]
            if distinct:
                row.append(("word", word))
                column.append(("word", word))
            choices["row", i, word] = row
            choices["column", i, word] = column
    secondary = [("cell", i, j) for i in range(n) for j in range(n)]
    if distinct:
        secondary += [("word", word) for word in found]
    primary = [("row", i) for i in range(n)] + [("column", j) for j in range(n)]
    return ExactCover(choices, secondary=secondary, primary=primary)


def word_square_grid(solution: Iterable[tuple[str, int, str]] | None) -> str:
    """The rows of a :func:`word_squares` solution, one per line ('' for None)."""
    if solution is None:
        return ""
    rows = sorted((i, word) for kind, i, word in solution if kind == "row")
    return "\n".join(word for _, word in rows)

"""Ready-made problems: A-Puzzle-A-Day, queens, Sudoku, Langford pairs, word
squares and set partitions.
"""

from __future__ import annotations

from .._lazy import attach

TYPE_CHECKING = False

_SOURCES = {
    "MONTHS": "puzzle_a_day",
    "calendar_board": "puzzle_a_day",
    "calendar_pieces": "puzzle_a_day",
    "calendar_problem": "puzzle_a_day",
    "calendar_open_problem": "puzzle_a_day",
    "calendar_counts": "puzzle_a_day",
    "langford": "examples",
    "queens": "examples",
    "set_partitions": "examples",
    "sudoku": "examples",
    "sudoku_grid": "examples",
    "two_queens": "examples",
    "word_square_grid": "examples",
    "word_squares": "examples",
}

__all__, __getattr__, __dir__ = attach(__name__, _SOURCES)

if TYPE_CHECKING:  # the same names, imported eagerly, for type checkers
    from .examples import (
        langford,
        queens,
        set_partitions,
        sudoku,
        sudoku_grid,
        two_queens,
        word_square_grid,
        word_squares,
    )
    from .puzzle_a_day import (
        MONTHS,
        calendar_board,
        calendar_counts,
        calendar_open_problem,
        calendar_pieces,
        calendar_problem,
    )

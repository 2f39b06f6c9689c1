"""Tiling regions with piece sets: the problem, essentially different tilings,
open cells, sweeps of boards, and listings as jobs.
"""

from __future__ import annotations

from .._lazy import attach

TYPE_CHECKING = False

_SOURCES = {
    "TilingProblem": "problem",
    "tile": "problem",
    "OpenCells": "open_cells",
    "OpenTiling": "open_cells",
    "by_open_rows": "open_cells",
    "by_open_summary": "open_cells",
    "MAX_OPEN_ROWS": "open_cells",
    "SymmetryBreaking": "symmetry_breaking",
    "count_exactly": "symmetry_breaking",
    "LISTING_FORMATS": "listings",
    "solve_listing": "listings",
    "tiling_listing": "listings",
    "tiling_solutions": "listings",
}

__all__, __getattr__, __dir__ = attach(__name__, _SOURCES)

if TYPE_CHECKING:  # the same names, imported eagerly, for type checkers
    from .listings import LISTING_FORMATS, solve_listing, tiling_listing, tiling_solutions
    from .open_cells import MAX_OPEN_ROWS, OpenCells, OpenTiling, by_open_rows, by_open_summary
    from .problem import TilingProblem, tile
    from .symmetry_breaking import SymmetryBreaking, count_exactly

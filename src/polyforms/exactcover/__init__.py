"""Exact cover: problems over hashable choices (Knuth's Algorithms X, M and C),
DLX text, estimates of the search, listings of the solutions as jobs.
"""

from __future__ import annotations

from .._lazy import attach

TYPE_CHECKING = False

_SOURCES = {
    "ExactCover": "problem",
    "Coloured": "problem",
    "Multiplicity": "problem",
    "MAX_MULTIPLICITY": "problem",
    "format_solution": "dlxformat",
    "parse_dlx": "dlxformat",
    "write_dlx": "dlxformat",
    "estimate_search": "estimate",
    "solve_listing": "listings",
}

__all__, __getattr__, __dir__ = attach(__name__, _SOURCES)

if TYPE_CHECKING:  # the same names, imported eagerly, for type checkers
    from .dlxformat import format_solution, parse_dlx, write_dlx
    from .estimate import estimate_search
    from .listings import solve_listing
    from .problem import MAX_MULTIPLICITY, Coloured, ExactCover, Multiplicity

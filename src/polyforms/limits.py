"""The limits polyforms checks before any work, in one place.

Each is enforced where the work starts (library and command line alike) with
a :class:`~polyforms.errors.TooLargeError` naming the limit; the estimates
that decide "enormous" are rough and deliberately generous. ``force=True``
(``--force``) lifts the limits marked so.

========================  =============  ==========================================
limit                     value          what
========================  =============  ==========================================
:data:`MAX_CELLS`         127            cells of a polyform (hard: the packed format)
:data:`CATALOGUE_LIMIT`   2e8            polyforms in a catalogue (``force``)
:data:`SVG_LIMIT`         20 000         polyforms or tilings drawn on one SVG page (``force``)
:data:`COUNT_LIMIT`       4e11           fixed polyforms a Redelmeier count visits (``force``)
:data:`NAIVE_LIMIT`       3e6            polyforms of one level the naive method holds (``force``)
:data:`MAX_REGION_CELLS`  1 000 000      cells of a region to tile (hard: memory)
:data:`MAX_PLACEMENTS`    20 000 000     placements of a tiling problem (hard: memory)
========================  =============  ==========================================
"""

from __future__ import annotations

__all__ = [
    "check_limit",
    "CATALOGUE_LIMIT",
    "COUNT_LIMIT",
    "MAX_CELLS",
    "MAX_PLACEMENTS",
    "MAX_REGION_CELLS",
    "NAIVE_LIMIT",
    "SVG_LIMIT",
]

MAX_CELLS = 127
CATALOGUE_LIMIT = 200_000_000
SVG_LIMIT = 20_000
COUNT_LIMIT = 400_000_000_000
NAIVE_LIMIT = 3_000_000
MAX_REGION_CELLS = 1_000_000
#: Each placement costs a tiling problem about 135 bytes and 1.8 us to build
#: (200x200 by the pentominoes, reused: 2.5 million in 4.5 s and 330 MB), so the
#: limit is about 2.7 GB and 40 s; 100x100x100 by the solid pentominoes would
#: have been 179 million (24 GB), built until memory ran out.
MAX_PLACEMENTS = 20_000_000


def check_limit(limit: object) -> int | None:
    """``limit`` (of solutions, tilings) if it is None or a whole number at least 0.

    Raises
    ------
    WrongTypeError, PolyformError
    """
    from .errors import PolyformError, WrongTypeError

    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise WrongTypeError(f"limit must be a whole number, not {str(limit)[:40]!r}")
    if limit < 0:
        raise PolyformError(f"limit must be at least 0, not {limit}")
    return limit

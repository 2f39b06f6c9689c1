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
:data:`MAX_COPIES`        1 000 000      copies of a piece in a tiling (hard: no region holds more)
:data:`MAX_HEADER_LINE`   4 KiB          the header line of a checkpoint (hard: not one of ours)
:data:`MAX_JOURNAL_LINE`  64 MiB         a line of a checkpoint's journal (hard: memory)
:func:`memo_bytes`        3/4 of the     memory of a tiling count with free pieces (sweep or memo)
                          free memory
========================  =============  ==========================================
"""

from __future__ import annotations

__all__ = [
    "check_estimate",
    "check_limit",
    "CATALOGUE_LIMIT",
    "COUNT_LIMIT",
    "MAX_CELLS",
    "MAX_COPIES",
    "MAX_HEADER_LINE",
    "MAX_JOURNAL_LINE",
    "MAX_PLACEMENTS",
    "MAX_REGION_CELLS",
    "NAIVE_LIMIT",
    "available_memory",
    "memo_bytes",
    "memo_entries",
    "memory_text",
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
#: Each copy of a piece covers a cell of the region, so no tiling uses more copies
#: than :data:`MAX_REGION_CELLS`; a count past it (``I=0..4294967298``) is a slip,
#: refused where it enters rather than wrapped around in the compiled kernel's
#: 32-bit counters. ``NAME=LO..`` asks for any number.
MAX_COPIES = MAX_REGION_CELLS
#: A checkpoint's first line, its JSON header, is read with a bounded read of
#: this many bytes: a file whose first line is longer is no checkpoint of ours
#: (whose headers take about 150 bytes), and is refused without reading on.
MAX_HEADER_LINE = 4096
#: A journal line longer than this is refused as corrupt as soon as the reader
#: passes it, without holding more of it. The longest a run writes are the rests
#: of stopped subtasks: groups of prefixes of the search tree, kilobytes to a few
#: megabytes (a prefix per branch left on each level of the path).
MAX_JOURNAL_LINE = 64 << 20


#: The share of the memory the machine can still give that a tiling count's memo
#: may take (the memo grows only as its count needs; a quarter stays free).
MEMO_SHARE = 0.75
#: The least memory a count's memo is given, whatever the machine says (the one
#: size it had before it followed the machine).
MEMO_LEAST = 128 << 20
#: The processes on this machine that may count at once, each with its own memo:
#: a worker process of a run sets it to the run's number of workers.
memo_sharers = 1


def available_memory() -> int:
    """Bytes the machine can still give (Linux: MemAvailable), or 0 when unknown."""
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def memory_text(count: int) -> str:
    """``count`` bytes for a message: ``"17.2 GiB"``, ``"1.0 MiB"``, ``"512 KiB"``."""
    for unit, shift in (("GiB", 30), ("MiB", 20)):
        if count >= 1 << shift:
            return f"{count / (1 << shift):.1f} {unit}"
    return f"{count >> 10} KiB" if count >= 1024 else f"{count} bytes"


def _parse_bytes(text: str) -> int:
    """``"6G"``, ``"512M"``, ``"300000000"``: bytes (K, M, G, T are powers of 1024)."""
    from .errors import PolyformError

    value = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = 1
    if value[-1:] in ("K", "M", "G", "T"):
        scale = 1 << (10 * ("KMGT".index(value[-1]) + 1))
        value = value[:-1]
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not number >= 0 or number * scale > 2**62:  # also NaN
        raise PolyformError(
            f"POLYFORMS_MEMO must be a size such as 4G or 512M, not {text.strip()[:40]!r}"
        )
    return int(number * scale)


def memo_bytes() -> int:
    """The most memory one tiling count with free pieces may take: the tables of
    its sweep over boards (:mod:`polyforms.tiling.sweep`), or the memo of its search.

    ``POLYFORMS_MEMO`` (``"6G"``, ``"512M"``, bytes) sets it; otherwise
    :data:`MEMO_SHARE` of the memory the machine can still give
    (:func:`available_memory`), shared by the :data:`memo_sharers` processes
    counting on it, and at least :data:`MEMO_LEAST`. The memo grows only as a
    count needs it: most counts take a few megabytes, but one that meets more
    boards than the memo holds starts it over and slows down by orders of
    magnitude (8x10 by the pentominoes, any number of each: 3.2 million boards,
    3.4 s with room for them, over 300 s in 128 MiB; 10x10: 130 million boards,
    4 minutes in 12 GiB, over 25 minutes in 6 GiB).

    Raises
    ------
    PolyformError
        ``POLYFORMS_MEMO`` is not a size.
    """
    import os

    asked = os.environ.get("POLYFORMS_MEMO", "").strip()
    if asked:
        return _parse_bytes(asked)
    return max(MEMO_LEAST, int(available_memory() * MEMO_SHARE) // max(1, memo_sharers))


def memo_entries(words: int, budget: int | None = None) -> int:
    """The boards a memo holds before it starts over (both tiling twins' rule).

    A board takes a slot of ``words + 2`` 64-bit words (its generation, its count,
    the board) in the compiled twin's table, which is about half full and
    doubles as it fills: while it doubles for the last time it holds the old
    table and the new one, three slots for each board it may hold. Those fit in
    ``budget`` (default :func:`memo_bytes`). A power of two, at least 1.
    """
    if budget is None:
        budget = memo_bytes()
    entries = 1
    while 3 * (2 * entries) * (words + 2) * 8 <= budget:
        entries *= 2
    return entries


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


def check_estimate(budget: object, seed: object) -> tuple[float, int]:
    """``(budget, seed)`` of an estimate if ``budget`` is a finite number of seconds
    and ``seed`` a whole number (a budget of ``inf`` would probe for hours).

    Raises
    ------
    WrongTypeError, PolyformError
    """
    import math

    from .errors import PolyformError, WrongTypeError

    if isinstance(budget, bool) or not isinstance(budget, int | float):
        raise WrongTypeError(f"budget must be a number of seconds, not {str(budget)[:40]!r}")
    try:
        seconds = float(budget)
    except OverflowError:
        seconds = math.inf
    if not math.isfinite(seconds):
        raise PolyformError(f"budget must be a finite number of seconds, not {str(budget)[:40]}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise WrongTypeError(f"seed must be a whole number, not {str(seed)[:40]!r}")
    return seconds, seed

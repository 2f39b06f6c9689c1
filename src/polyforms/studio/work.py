"""What a studio job computes, in its own process: counts, pages of pictures, by-open maps.

Each function takes a :class:`~polyforms.studio.puzzle.Puzzle` and the job's
parameters and returns JSON values; :func:`run` sends them (or the one-line
error) back through a pipe. The process is ended from outside to stop a job
(:mod:`polyforms.studio.jobs`), so nothing here needs to poll for a stop.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from typing import Any

from .._stop import SignalExit
from ..errors import PolyformError
from ..jobs.runner import Interrupted
from .puzzle import Puzzle
from .puzzle_files import puzzle_from_json

__all__ = [
    "KINDS", "MAX_PAGE", "MAX_LISTED", "by_open", "count", "estimate", "listing", "run", "warm",
]  # fmt: skip

#: Pictures on one page of a listing.
MAX_PAGE = 48
#: Seconds between two progress messages of a run.
PROGRESS_SECONDS = 0.2
#: The tilings a listing may go through to reach its page (the SVG limit of the library).
MAX_LISTED = 20_000
#: Seconds of the estimate a count takes first when it is to ask before a long run.
ASK_BUDGET = 0.15


def count(
    puzzle: Puzzle,
    distinct: bool = False,
    ask_over: float | None = None,
    progress: Callable | None = None,
    **_: Any,
) -> dict[str, Any]:
    """``{"total": tilings}`` (``distinct``: classes under the board's symmetries);
    ``progress`` is called with a :class:`polyforms.jobs.Progress` after each subtask.

    With ``ask_over`` seconds, a short estimate (:data:`ASK_BUDGET`) comes first,
    and a count it forecasts as longer is not run: ``{"forecast": estimate}``
    instead, for the page to ask whether to go on."""
    problem = puzzle.problem()
    if ask_over is not None and not problem.impossible:
        forecast = _estimate(problem, ASK_BUDGET)
        if forecast["seconds"] > ask_over:
            return {"forecast": forecast, "impossible": None}
    total = problem.count(distinct=bool(distinct), progress=progress)
    return {"total": total, "impossible": problem.impossible}


def estimate(puzzle: Puzzle, **_: Any) -> dict[str, Any]:
    """Knuth's estimate of the count's search: tilings, nodes, seconds (about 0.8 s)."""
    return _estimate(puzzle.problem(), 0.8)


def _estimate(problem, budget: float) -> dict[str, Any]:
    import math
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        found = problem.estimate(budget=budget)
    tilings = None if math.isnan(found.solutions) else found.solutions
    return {
        "tilings": tilings, "nodes": found.nodes, "seconds": found.seconds,
        "memoized": problem.memoized, "impossible": problem.impossible,
    }  # fmt: skip


def listing(
    puzzle: Puzzle,
    distinct: bool = False,
    offset: int = 0,
    limit: int = 12,
    palette: str = "default",
    **_: Any,
) -> dict[str, Any]:
    """The tilings ``offset`` to ``offset + limit`` as SVG pictures with letters in
    ``palette`` (classes in the steady orientation when ``distinct``), whether more
    follow, and the same tilings as ``txt`` and ``jsonl`` text (the page's export,
    as ``polyforms tile`` writes them) and as one SVG ``sheet`` (the page's export)."""
    from ..draw.plane import tiling_svg, tilings_sheet_svg

    if puzzle.lattice == "cube":  # layer pictures and cubes for the 3D view
        from .solids import solid_listing

        return solid_listing(puzzle, distinct, offset, limit, palette)
    problem = puzzle.problem()
    wanted = offset + limit
    pictures, txt, jsonl, shown_all = [], [], [], []
    seen = 0
    for tiling in problem.solutions(distinct=bool(distinct), limit=wanted + 1):
        seen += 1
        if offset < seen <= wanted:
            shown = problem.steady(tiling) if distinct else tiling
            shown_all.append(shown)
            pictures.append(tiling_svg(shown, problem.region, labels=True, colours=palette))
            txt.append(shown.to_ascii() + "\n\n")
            jsonl.append(shown.to_jsonl())
    return {
        "svgs": pictures, "offset": offset, "more": seen > wanted,
        "txt": "".join(txt), "jsonl": "".join(jsonl),
        "sheet": str(tilings_sheet_svg(
            shown_all, region_cells=problem.region, cell=20, colours=palette, labels=True,
            columns=3, captions=True,
        )) if shown_all else None,
    }  # fmt: skip


def by_open(puzzle: Puzzle, **_: Any) -> dict[str, Any]:
    """The ``--by-open`` analysis as a heat map: for every cell of the board (in the
    page's coordinates), the tilings that leave it open, and the table's summary."""
    from ..tiling.open_cells import by_open_rows, by_open_summary

    if not puzzle.open:
        raise PolyformError("by-open needs open cells: set open to 1 or more")
    problem = puzzle.problem()
    rows = by_open_rows(problem, problem.count_by_open())
    # The region is the board moved to the origin: back to the page's cells.
    page_of = dict(zip(sorted(problem.region.cells), puzzle.cells, strict=True))
    heat = {cell: 0 for cell in puzzle.cells}
    for opened, total in rows:
        for cell in opened:
            heat[page_of[cell]] += total
    unique = [[list(page_of[c]) for c in opened] for opened, total in rows if total == 1]
    svg = None  # the heat map as the library draws it (a plane board's; the page's export)
    if puzzle.lattice != "cube":
        from ..draw.open_map import open_map_svg

        svg = str(open_map_svg(rows, problem.region))
    return {
        "heat": [[list(cell), total] for cell, total in heat.items()],
        "unique": unique[:100],
        "summary": by_open_summary(rows),
        "svg": svg,
    }


def warm() -> None:
    """Import and run once what every job uses (piece sets, the kernel, the drawing)."""
    from .puzzle import set_lattices

    for name, lattice in set_lattices().items():
        if lattice == "square" and name == "pentominoes":
            cells = [[x, y] for x in range(5) for y in range(3)]
            puzzle = {"rows": 3, "cols": 5, "cells": cells, "pieces": name, "optional": True}
            listing(puzzle_from_json(puzzle), distinct=True, limit=1)
            count(puzzle_from_json(puzzle), distinct=True)


#: The jobs a page may start, by name.
KINDS: dict[str, Callable[..., dict[str, Any]]] = {
    "count": count,
    "estimate": estimate,
    "list": listing,
    "by-open": by_open,
}


def run(kind: str, puzzle_json: dict, params: dict, connection) -> None:
    """The body of a job process: compute, sending ``("progress", fields, None)`` as
    a count goes, then ``("done", result, seconds)`` or ``("error", message, seconds)``,
    and end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    began = time.perf_counter()
    last = [0.0]

    def report(progress) -> None:
        # At most a few messages a second: the server pushes them ten times a second.
        now = time.perf_counter()
        if now - last[0] < PROGRESS_SECONDS and progress.done < progress.total:
            return
        last[0] = now
        connection.send(("progress", {
            "fraction": progress.fraction, "eta": progress.eta, "elapsed": progress.elapsed,
            "done": progress.done, "total": progress.total, "unit": progress.unit,
        }, None))  # fmt: skip

    try:
        result = KINDS[kind](puzzle_from_json(puzzle_json), **params, progress=report)
        message = ("done", result, time.perf_counter() - began)
    except PolyformError as error:
        message = ("error", str(error), time.perf_counter() - began)
    except MemoryError:
        message = ("error", "out of memory", time.perf_counter() - began)
    except (Interrupted, SignalExit):
        # Stop: the server ended this process (SIGTERM) and has already
        # marked the job stopped; the count stopped its workers. Nothing to say.
        return
    connection.send(message)
    connection.close()

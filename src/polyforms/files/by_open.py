"""By-open tables: the number of tilings of every set of open cells, one row a set.

``polyforms tile REGION --pieces SET --open K --by-open`` counts, in one
search, the tilings that leave each set of ``K`` cells open
(:meth:`polyforms.tiling.open_cells.OpenCells.count_by_open`) and writes the
table (:func:`polyforms.tiling.open_cells.by_open_rows`) as

jsonl
    One object a row, ``{"open":[[x,y],...],"tilings":N}``.
csv
    A header ``open,tilings``, then one row a set, its cells as the same JSON
    list (quoted).

The file is written atomically (:func:`polyforms._atomic.atomic_output`).
"""

from __future__ import annotations

import csv
import json
import os
from typing import Any

from .._atomic import atomic_output
from ..errors import UnknownNameError

__all__ = ["FORMATS", "write_by_open"]

FORMATS = ("jsonl", "csv")

Row = tuple[tuple[tuple[int, ...], ...], int]


def write_by_open(
    problem: Any,
    path: str | os.PathLike[str] | None,
    fmt: str = "jsonl",
    *,
    distinct: bool = False,
) -> list[Row]:
    """Count the tilings of ``problem`` for every set of open cells and write the
    table to ``path`` (``None`` or ``"-"``: stdout); return its rows.

    Parameters
    ----------
    problem : TilingProblem
        A problem with open cells (``open=K``).
    path : path, "-" or None
    fmt : {"jsonl", "csv"}
    distinct : bool
        One row per class of open sets under the region's symmetries, with
        its distinct tilings (see :func:`polyforms.tiling.open_cells.by_open_rows`).

    Returns
    -------
    list of (open cells, tilings)
        The rows written, for a summary
        (:func:`polyforms.tiling.open_cells.by_open_summary`).
    """
    from ..tiling import by_open_rows

    if fmt not in FORMATS:
        raise UnknownNameError(f"--by-open writes jsonl or csv, not {fmt}")
    rows = by_open_rows(problem, problem.count_by_open(distinct), distinct)
    with atomic_output(path) as out:
        table = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
        if table is not None:
            table.writerow(["open", "tilings"])
        for opened, total in rows:
            cells = json.dumps([list(c) for c in opened], separators=(",", ":"))
            if table is not None:
                table.writerow([cells, total])
            else:
                out.write(f'{{"open":{cells},"tilings":{total}}}\n')
    return rows

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
from collections.abc import Iterable

from .._atomic import atomic_output
from ..errors import UnknownNameError

__all__ = ["FORMATS", "write_by_open"]

FORMATS = ("jsonl", "csv")

Row = tuple[tuple[tuple[int, ...], ...], int]


def write_by_open(
    rows: Iterable[Row], path: str | os.PathLike[str] | None, fmt: str = "jsonl"
) -> None:
    """Write a by-open table to ``path`` (``None`` or ``"-"``: stdout).

    Parameters
    ----------
    rows : iterable of (open cells, tilings)
        The table (:func:`polyforms.tiling.open_cells.by_open_rows` of a
        problem's :meth:`~polyforms.TilingProblem.count_by_open`).
    path : path, "-" or None
    fmt : {"jsonl", "csv"}

    Examples
    --------
    >>> import io, contextlib
    >>> out = io.StringIO()
    >>> with contextlib.redirect_stdout(out):
    ...     write_by_open([(((0, 0),), 1), (((1, 0),), 0)], None, "csv")
    >>> print(out.getvalue(), end="")
    open,tilings
    "[[0,0]]",1
    "[[1,0]]",0
    """
    if fmt not in FORMATS:
        raise UnknownNameError(f"--by-open writes jsonl or csv, not {fmt}")
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

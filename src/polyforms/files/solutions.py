"""Tilings as values, and every file format of them, written and read.

A :class:`Tiling` is a tuple of :class:`Placement` (a piece name and the
sorted cells it covers) together with the :class:`~polyforms.region.Region`
it tiles. This module owns its formats; the searches only produce tilings
and the command line only names a format.

Formats
-------
txt
    Each tiling as a letter picture of its region (:meth:`Tiling.to_ascii`),
    followed by a blank line.
jsonl
    One JSON object per line: ``{"placements": [{"piece": name, "cells":
    [[x, y], ...]}, ...]}``; keys in that order, no spaces, so equal tilings
    give equal bytes. A tiling of the triangular or hexagonal lattice begins
    with ``"lattice": "triangle"`` (``"hex"``): its cells (``[x, y, t]``,
    ``[q, r]``) do not tell it. :func:`read_solutions` also takes ``"name"``
    for ``"piece"``, ``[name, cells]`` pairs, an object ``{name: cells}`` and
    an optional ``"region"`` key listing the region's cells.
svg
    A page of tilings (:func:`polyforms.draw.plane.tilings_sheet_svg`), or one
    tiling's picture, with piece letters when the cells are large enough.
stl, obj, glb
    3D models, one solid per piece in its place (:func:`polyforms.draw.mesh.packings_model`;
    needs the ``mesh`` extra).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, NamedTuple

from .._textio import NAME_LIMIT, load_json, piece_name, shorten
from ..errors import ParseError, PolyformError, TooLargeError, UnknownNameError
from ..geometry import Cell, as_cell
from ..lattice import lattice as find_lattice
from ..region import Region

__all__ = [
    "FORMATS",
    "Placement",
    "OpenTiling",
    "Tiling",
    "placements_from_record",
    "read_solutions",
    "write_tilings",
]

FORMATS = ("txt", "jsonl", "svg", "stl", "obj", "glb")
#: The 3D model formats (polyforms.draw.mesh.MESH_FORMATS, without importing it).
MODEL_FORMATS = ("stl", "obj", "glb")
#: The formats that are pictures or models rather than listings.
PICTURE_FORMATS = ("svg", *MODEL_FORMATS)

_LIMIT = 1 << 20  # the largest coordinate read from a solutions file

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _shows(mark: str) -> bool:
    """Can ``mark`` stand for a piece in a picture (a line of the txt format)?"""
    return mark.isprintable() and not mark.isspace() and mark != "."


class Placement(NamedTuple):
    """One piece put in the region: its name and the sorted cells it covers.

    A named tuple, so ``for name, cells in tiling`` works and the drawing
    functions of :mod:`polyforms.draw.plane` take a tiling as it is.
    """

    piece: str
    cells: tuple[Cell, ...]


class Tiling(tuple):
    """A tiling: a tuple of :class:`Placement`, printed as a letter picture."""

    region: Region

    def __new__(cls, placements: Iterable[Placement], region: Region) -> Tiling:
        self = super().__new__(cls, placements)
        self.region = region
        return self

    def adjacency(self):
        """The graph of the placements (by index) with an edge between touching pieces.

        Returns a :class:`networkx.Graph`; networkx is imported on first use.
        """
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(range(len(self)))
        graph.add_edges_from((i, j) for i, near in enumerate(self._touching()) for j in near)
        return graph

    def _touching(self) -> list[set[int]]:
        """For each placement, the indices of the placements it touches."""
        owner = {c: i for i, p in enumerate(self) for c in p.cells}
        neighbours = self.region.lattice.neighbours
        return [
            {owner[q] for c in placement.cells for q in neighbours(c) if q in owner} - {i}
            for i, placement in enumerate(self)
        ]

    def labels(self) -> dict[Cell, str]:
        """One character per cell.

        The piece names when they are single distinct characters that a
        picture can show (printable, neither a space nor the ``.`` of an
        empty position); otherwise
        letters chosen so that touching pieces differ: the greedy colouring of
        :meth:`adjacency` with the placements taken in order, as
        ``networkx.greedy_color`` gives it (tests hold the two equal). It is
        written out here because listings label every tiling, and importing
        networkx would add about 0.2 s to each such command.
        """
        names = [p.piece for p in self]
        if all(len(n) == 1 and _shows(n) for n in names) and len(set(names)) == len(names):
            chosen = names
        else:
            colours: list[int] = []
            for i, touching in enumerate(self._touching()):
                near = {colours[j] for j in touching if j < i}
                colours.append(next(k for k in range(len(near) + 1) if k not in near))
            chosen = [_LETTERS[k] if k < len(_LETTERS) else "?" for k in colours]
        return {c: chosen[i] for i, p in enumerate(self) for c in p.cells}

    def to_ascii(self) -> str:
        """The region's picture with each cell marked by its piece (:meth:`labels`)."""
        return self.region.to_ascii(self.labels())

    def __str__(self) -> str:
        return self.to_ascii()

    def _repr_svg_(self) -> str | None:
        from ..draw.plane import tiling_svg

        try:
            return tiling_svg(self)
        except TooLargeError:  # beyond the limits of a drawing: the notebook shows the text
            return None

    def to_json(self) -> dict:
        """A JSON-ready description: ``{"placements": [{"piece", "cells"}, ...]}``,
        after ``"lattice"`` for a tiling of the triangular or hexagonal lattice."""
        found = {"lattice": self.region.lattice.name} if _named_lattice(self.region) else {}
        found["placements"] = [{"piece": p.piece, "cells": [list(c) for c in p.cells]}
                               for p in self]  # fmt: skip
        return found

    def to_jsonl(self) -> str:
        """:meth:`to_json` as one line of the jsonl format, with its newline."""
        import json  # here: a count never writes (start-up)

        return json.dumps(self.to_json(), separators=(",", ":")) + "\n"


def _named_lattice(region: Region) -> bool:
    """Whether a file of tilings of ``region`` names its lattice: when its cells do
    not tell it (not the square or cubic lattice)."""
    return region.lattice.name not in ("square", "cube")


class OpenTiling(Tiling):
    """A tiling that leaves some cells of its region open (``tile(..., open=K)``).

    A tuple of the placements, like :class:`Tiling`, with the uncovered cells
    in :attr:`open` (sorted); pictures mark them ``*`` and the JSON form gives
    them as ``"open"``.
    """

    open: tuple[Cell, ...]

    def __new__(
        cls, placements: Iterable[Placement], region: Region, open: Iterable[Cell] = ()
    ) -> OpenTiling:
        self = super().__new__(cls, placements, region)
        self.open = tuple(sorted(open))
        return self

    def labels(self) -> dict[Cell, str]:
        marks = super().labels()
        marks.update((cell, "*") for cell in self.open)
        return marks

    def to_json(self) -> dict:
        found = super().to_json()
        found["open"] = [list(cell) for cell in self.open]
        return found


def write_tilings(
    tilings: Iterable[Tiling],
    path: str | os.PathLike[str] | None,
    fmt: str = "txt",
    *,
    columns: int | None = None,
    region: Region | None = None,
    labels: bool | None = None,
    colours: Mapping[str, str] | str | None = None,
    unit: float = 10.0,
    gap: float = 0.0,
    force: bool = False,
) -> int:
    """Write tilings to ``path`` (None or ``"-"``: stdout), atomically; return how many.

    ``txt`` and ``jsonl`` stream; ``svg`` lays out one page and the model
    formats one scene, and so hold the tilings they draw (pass a ``limit`` to
    the search for large runs). ``labels`` and ``colours`` are for ``svg``
    (:func:`polyforms.draw.plane.tilings_sheet_svg`); ``unit`` (the edge of a cube,
    mm) and ``gap`` (play between pieces, mm) for the models
    (:func:`polyforms.draw.mesh.packings_model`), which lay out several tilings in
    ``columns`` too. A page or a scene past the limits of a drawing
    (:data:`polyforms.draw.plane.PIECE_LIMIT` pieces,
    :data:`polyforms.draw.plane.CELL_LIMIT` cells) is refused as the tilings come,
    before the file is opened, unless ``force``.

    Raises
    ------
    UnknownNameError
        An unknown format.
    TooLargeError
        A picture or model past the limits, without ``force``.
    """
    if fmt not in FORMATS:
        raise UnknownNameError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if fmt in MODEL_FORMATS:
        from ..draw.mesh import write_packings

        # The model is made before the file is opened: a missing extra leaves no file.
        return write_packings(
            tilings, path, fmt, unit=unit, gap=gap, columns=columns, colours=colours, force=force
        )
    written = 0
    from .._atomic import atomic_output  # here: a count never writes (start-up)

    with atomic_output(path) as out:
        if fmt == "svg":
            from ..draw.plane import tilings_sheet_svg

            drawn = [0]  # the drawing gathers the tilings, counted against its limits
            cells = region.cells if region is not None else None
            out.write(
                tilings_sheet_svg(
                    _counting(tilings, drawn),
                    columns=columns,
                    region_cells=cells,
                    lattice=region.lattice if region is not None else None,
                    labels=labels,
                    colours=colours,
                    force=force,
                )  # fmt: skip
            )
            return drawn[0]
        for tiling in tilings:
            out.write(tiling.to_jsonl() if fmt == "jsonl" else tiling.to_ascii() + "\n\n")
            written += 1
    return written


def _counting(items: Iterable[Tiling], counter: list[int]) -> Iterator[Tiling]:
    """Yield ``items``, counting them in ``counter[0]``."""
    for item in items:
        counter[0] += 1
        yield item


def placements_from_record(record: Mapping) -> list[tuple[str, tuple[tuple[int, ...], ...]]]:
    """Read the placements of one solution record (a parsed JSON object).

    Accepted shapes of ``record["placements"]``: a list of objects
    ``{"piece": name, "cells": [[x, y], ...]}`` (``"name"`` also accepted),
    a list of ``[name, cells]`` pairs, or an object ``{name: cells}``.

    Raises
    ------
    ParseError
        The record has no ``placements`` or they have another shape, or a
        piece name is not a name (:func:`polyforms._textio.piece_name`:
        printable text, at most 100 characters).

    Examples
    --------
    >>> placements_from_record({"placements": [{"piece": "I", "cells": [[0, 0], [1, 0]]}]})
    [('I', ((0, 0), (1, 0)))]
    >>> placements_from_record({"placements": {"O": [[0, 0]]}})
    [('O', ((0, 0),))]
    """
    raw = record.get("placements") if isinstance(record, Mapping) else None
    if raw is None:
        raise ParseError("not a solution record: no 'placements' key")
    if isinstance(raw, Mapping):
        pairs = list(raw.items())
    elif isinstance(raw, list):
        pairs = []
        for item in raw:
            if isinstance(item, Mapping):
                name = item.get("piece", item.get("name"))
                if name is None or "cells" not in item:
                    raise ParseError("a placement object needs 'piece' and 'cells'")
                pairs.append((name, item["cells"]))
            else:
                pairs.append(item)
    else:
        raise ParseError("'placements' must be a list or an object")
    placed = []
    for pair in pairs:
        try:
            name, cells = pair
            cells = tuple(as_cell(cell, _LIMIT) for cell in cells)
        except (TypeError, ValueError):
            raise ParseError("a placement is a (piece name, cells) pair of whole numbers") from None
        name = piece_name(name)  # it goes into output files as it is
        if not cells:
            raise ParseError(f"placement of piece {name!r} has no cells")
        placed.append((name, cells))
    if not placed:
        raise ParseError("a solution record with no placements")
    return placed


def read_solutions(
    stream: IO[str], name: str = "<input>", limit: int | None = None, *, lattices: bool = False
) -> Iterator[tuple]:
    """Yield ``(placements, region cells or None)`` for each record of a jsonl stream;
    with ``lattices``, ``(placements, region cells or None, lattice)``, the lattice
    named by the record's ``"lattice"`` key (None without one: square or cubic,
    from the cells), whose cells the placements' are checked to be.

    Raises
    ------
    ParseError
        A line that is not JSON or not a solution record (the message names it),
        or names an unknown lattice or cells not of its lattice.

    Examples
    --------
    >>> import io
    >>> line = '{"lattice":"hex","placements":[{"piece":"A","cells":[[0,0],[1,0]]}]}'
    >>> next(read_solutions(io.StringIO(line), lattices=True))
    ([('A', ((0, 0), (1, 0)))], None, <hex lattice>)
    """
    found = 0
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        if limit is not None and found >= limit:
            return
        try:
            record = load_json(line)
            placements = placements_from_record(record)
            region = record.get("region")
            cells = None if region is None else [as_cell(c, _LIMIT) for c in region]
            lattice = _record_lattice(record, placements, cells) if lattices else None
        except (ValueError, TypeError, PolyformError) as error:
            shown = shorten(name, NAME_LIMIT)
            raise ParseError(f"{shown}: line {number}: not a solution record ({error})") from None
        found += 1
        yield (placements, cells, lattice) if lattices else (placements, cells)


def _record_lattice(record: Mapping, placements: list, cells: list[Cell] | None):
    """The lattice a record names (None when it names none), its cells checked to be
    of that lattice.

    Raises
    ------
    PolyformError
        An unknown lattice, or a cell that is not one of its cells.
    """
    name = record.get("lattice")
    if name is None:
        return None
    if not isinstance(name, str):
        raise ParseError("'lattice' must be the name of a lattice")
    lattice = find_lattice(shorten(name, 40))
    for _, placed in placements:
        for cell in placed:
            lattice.as_cell(cell, _LIMIT)
    for cell in cells or ():
        lattice.as_cell(cell, _LIMIT)
    return lattice

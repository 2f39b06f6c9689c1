"""Draw what a file holds: a catalogue of polyforms or a file of tilings.

This sits above the readers (:mod:`polyforms.files.catalogue`,
:mod:`polyforms.files.solutions`) and the drawing (:mod:`polyforms.draw.plane`), which
work on cells and know nothing of files.
"""

from __future__ import annotations

import itertools
import os
from typing import TYPE_CHECKING

from .._textio import NAME_LIMIT, iter_lines, load_json, shorten
from ..draw.plane import catalogue_svg, tilings_sheet_svg
from ..draw.size import DrawingSize
from ..draw.svg import Colours, SvgDrawing
from ..errors import ParseError
from .catalogue import read_catalogue
from .solutions import read_solutions

if TYPE_CHECKING:
    from ..draw.mesh import Model

__all__ = ["draw_file", "model_file"]


def draw_file(
    path: str | os.PathLike[str],
    *,
    columns: int | None = None,
    cell: float | None = None,
    symmetry: bool = False,
    dim: int = 2,
    exploded: bool = False,
    limit: int | None = None,
    labels: bool | None = None,
    colours: Colours = None,
    force: bool = False,
) -> SvgDrawing:
    """Draw a catalogue file or a file of tiling solutions.

    What the file holds is told by its name and first record:

    * ``.txt``, ``.csv``, or ``.jsonl`` whose records have ``cells``: a
      catalogue (read with :func:`polyforms.files.catalogue.read_catalogue`), drawn
      as a sheet by :func:`polyforms.draw.plane.catalogue_svg`.
    * ``.jsonl`` whose records have ``placements``: tiling or packing
      solutions, one per line (:func:`polyforms.files.solutions.read_solutions`).
      One solution is drawn by :func:`polyforms.draw.plane.tiling_svg` (or
      :func:`polyforms.draw.isometric.exploded_svg` when ``exploded``), several as a
      numbered sheet by :func:`polyforms.draw.plane.tilings_sheet_svg`.

    Parameters
    ----------
    path : path
    columns : int, optional
        Items per row of a sheet.
    cell : float, optional
        Cell size in pixels (default depends on the kind of picture).
    symmetry : bool
        Catalogues: add the symmetry class to each label.
    dim : {2, 3}
        Only for txt catalogues, whose pictures do not say their dimension.
    exploded : bool
        Solutions in 3D: draw the (first) packing layer by layer.
    limit : int, optional
        Draw only the first ``limit`` items.
    labels : bool, optional
        Solutions: piece letters (default: when the cells are large enough).
    colours : mapping name -> colour, or a palette name, optional
        Solutions: the pieces' colours (``"colour-blind"``: that palette).
    force : bool
        Draw past the limits of a drawing (:data:`polyforms.draw.plane.PIECE_LIMIT`
        pieces, :data:`polyforms.draw.plane.CELL_LIMIT` cells).

    Raises
    ------
    ParseError
        A line that is not JSON or not a record of the expected kind.
    UnknownNameError
        A file ending that names no known format.
    TooLargeError
        Past a limit of a drawing, without ``force``: told as the file is read,
        which is read no further.
    """
    name = os.fspath(path)
    holds, kind = _what_it_holds(name)
    if holds == "solutions":
        return _draw_solutions(name, columns, cell, exploded, limit, labels, colours, force)
    items = _catalogue_items(name, dim, limit, force)
    return catalogue_svg(
        items, columns=columns, cell=cell or 12, kind=kind, symmetry=symmetry, force=force
    )


def _catalogue_items(name: str, dim: int, limit: int | None, force: bool) -> list:
    """The first ``limit`` polyforms of a catalogue file, counted as they are read."""
    size = DrawingSize(force)
    items = []
    for polyform in itertools.islice(read_catalogue(name, dim=dim), limit):
        size.add(1, polyform.size)
        items.append(polyform)
    return items


def _solutions(name: str, limit: int | None, force: bool) -> tuple[list, list | None]:
    """The first ``limit`` solutions of a jsonl file and the first region given, counted
    as they are read (the region once for each solution, as a drawing draws it)."""
    size = DrawingSize(force)
    solutions, region = [], None
    for placements, cells in read_solutions(iter_lines(name, "solutions file"), name, limit):
        if region is None:
            region = cells
        size.add(len(placements), sum(len(c) for _, c in placements) + len(region or ()))
        solutions.append(placements)
    return solutions, region


def _what_it_holds(name: str) -> tuple[str, str | None]:
    """("solutions" or "catalogue", the catalogue's kind if its records say it)."""
    if not name.lower().endswith(".jsonl"):
        return "catalogue", None
    first = next((line for line in iter_lines(name, "file to draw") if line.strip()), None)
    if first is None:
        raise ParseError(f"{shorten(name, NAME_LIMIT)}: the file is empty")
    try:
        record = load_json(first)
    except ValueError as error:
        raise ParseError(
            f"{shorten(name, NAME_LIMIT)}: the first record is not JSON ({error})"
        ) from None
    if isinstance(record, dict) and "placements" in record:
        return "solutions", None
    return "catalogue", record.get("kind") if isinstance(record, dict) else None


def model_file(
    path: str | os.PathLike[str],
    fmt: str = "stl",
    *,
    unit: float = 10.0,
    gap: float = 0.0,
    columns: int | None = None,
    dim: int = 2,
    limit: int | None = None,
    colours: Colours = None,
    force: bool = False,
) -> Model:
    """A 3D model (STL, OBJ or GLB) of what a catalogue or solutions file holds.

    A catalogue gives its pieces side by side
    (:func:`polyforms.draw.mesh.pieces_model`), a solutions file its packings
    with each piece in its place (:func:`polyforms.draw.mesh.packings_model`);
    files are told apart as by :func:`draw_file`.

    Parameters
    ----------
    path : path
    fmt : {"stl", "obj", "glb"}
    unit, gap : float
        Edge of a cube and play between pieces, in millimetres.
    columns, dim, limit, force
        As for :func:`draw_file`.
    colours : mapping name -> colour, or a palette name, optional

    Raises
    ------
    MeshLibraryMissing
        trimesh (the ``mesh`` extra) is not installed.
    ParseError, UnknownNameError, TooLargeError
        As for :func:`draw_file`.
    """
    from ..draw.mesh import packings_model, pieces_model

    name = os.fspath(path)
    options = {"unit": unit, "gap": gap, "columns": columns, "colours": colours, "force": force}
    if _what_it_holds(name)[0] == "solutions":
        packings, _ = _solutions(name, limit, force)
        if not packings:
            raise ParseError(f"{shorten(name, NAME_LIMIT)}: no solutions to model")
        return packings_model(packings, fmt, **options)
    return pieces_model(_catalogue_items(name, dim, limit, force), fmt, **options)


def _draw_solutions(
    name: str, columns, cell, exploded: bool, limit, labels, colours, force: bool
) -> SvgDrawing:
    solutions, region = _solutions(name, limit, force)
    if not solutions:
        raise ParseError(f"{shorten(name, NAME_LIMIT)}: no solutions to draw")
    if exploded:
        from ..draw.isometric import exploded_svg

        return exploded_svg(
            solutions[0], cell=cell or 20, columns=columns, labels=labels, colours=colours,
            force=force,
        )  # fmt: skip
    return tilings_sheet_svg(
        solutions, columns=columns, region_cells=region, cell=cell, labels=labels,
        colours=colours, force=force,
    )  # fmt: skip

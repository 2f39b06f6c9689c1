"""Draw what a file holds: a catalogue of polyforms or a file of tilings.

This sits above the readers (:mod:`polyforms.files.catalogue`,
:mod:`polyforms.files.solutions`) and the drawing (:mod:`polyforms.draw.plane`), which
work on cells and know nothing of files.

The lattice
-----------
Cells are numbers: a triangle ``(x, y, t)`` looks like a cube, a hexagon
``(q, r)`` like a square. A file says its lattice in the ``"lattice"`` field
of its first record (``"triangle"``, ``"hex"``); the caller may say it instead
(``lattice=``, ``--lattice``), and where both say it they must agree. Without
either, a file is of squares or cubes as its cells' length tells, as always.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .._textio import NAME_LIMIT, iter_lines, load_json, shorten
from ..draw.plane import catalogue_svg, tilings_sheet_svg
from ..draw.size import DrawingSize
from ..draw.svg import Colours, SvgDrawing
from ..errors import ParseError, PolyformError
from ..lattice import LATTICES, Lattice
from ..lattice import lattice as find_lattice
from ..polyform import Polyform
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
    lattice: Lattice | str | None = None,
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
    lattice : Lattice or str, optional
        The lattice of the file's cells (``"triangle"``, ``"hex"``) when its
        records do not say it (see the module's notes).

    Raises
    ------
    ParseError
        A line that is not JSON or not a record of the expected kind; a lattice
        the file names that is unknown or that ``lattice`` contradicts.
    UnknownNameError
        A file ending that names no known format; an unknown ``lattice``.
    TooLargeError
        Past a limit of a drawing, without ``force``: told as the file is read,
        which is read no further.
    """
    name = os.fspath(path)
    holds, kind, recorded = _what_it_holds(name)
    plane = _file_lattice(name, recorded, lattice)
    if holds == "solutions":
        return _draw_solutions(name, columns, cell, exploded, limit, labels, colours, force, plane)
    items = _catalogue_items(name, dim, limit, force, plane)
    return catalogue_svg(
        items, columns=columns, cell=cell or 12, kind=kind, symmetry=symmetry, force=force
    )


def _file_lattice(name: str, recorded: object, given: Lattice | str | None) -> Lattice | None:
    """The lattice of a file's cells: the one its first record names, or the one given;
    None for neither (squares or cubes, told by the cells).

    Raises
    ------
    ParseError
        The file names no lattice that exists, or another one than ``given``.
    UnknownNameError
        ``given`` names no lattice.
    """
    chosen = None if given is None else find_lattice(given)
    if recorded is None:
        return chosen
    found = LATTICES.get(recorded) if isinstance(recorded, str) else None
    shown = shorten(name, NAME_LIMIT)
    if found is None:
        raise ParseError(
            f"{shown}: unknown lattice {shorten(repr(recorded), 40)}; "
            f"choose one of {', '.join(LATTICES)}"
        )
    if chosen is not None and chosen is not found:
        raise ParseError(
            f"{shown}: the file is of the {found.name} lattice, not the {chosen.name} lattice"
        )
    return found


def _plane_family(lattice: Lattice | None) -> bool:
    """Is this a lattice whose cells the square and cube readers cannot read?"""
    return lattice is not None and lattice.name not in ("square", "cube")


def _catalogue_items(
    name: str, dim: int, limit: int | None, force: bool, lattice: Lattice | None = None
) -> list:
    """The first ``limit`` polyforms of a catalogue file, counted as they are read."""
    size = DrawingSize(force)
    items = []
    if _plane_family(lattice):
        polyforms = _lattice_catalogue(name, lattice)
    else:
        polyforms = read_catalogue(name, dim=dim)
    for polyform in itertools.islice(polyforms, limit):
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


def _lattice_catalogue(name: str, lattice: Lattice) -> Iterator[Polyform]:
    """The polyforms of a catalogue of triangles or hexagons: jsonl records with
    ``cells`` (each record's own ``"lattice"`` if it names one), or txt pictures
    separated by blank lines.

    Raises
    ------
    ParseError
        A line or picture that is no polyform of the lattice (naming the file
        and the line); a csv file (its cells are read as squares or cubes).
    """
    shown = shorten(name, NAME_LIMIT)
    fmt = os.path.splitext(name)[1].lstrip(".").lower()
    if fmt not in ("jsonl", "txt"):
        raise ParseError(
            f"{shown}: a catalogue of the {lattice.name} lattice is drawn from jsonl or txt, "
            f"not {fmt or 'a file without an ending'}"
        )
    lines = iter_lines(name, "catalogue file")
    if fmt == "txt":
        yield from _lattice_pictures(lines, shown, lattice)
        return
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = load_json(line)
            own = record.get("lattice", lattice.name)
            if own != lattice.name:
                raise ParseError(f"a record of the {shorten(str(own), 40)} lattice")
            yield Polyform(record["cells"], lattice=lattice)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise ParseError(
                f"{shown}: line {number}: not a catalogue record of the {lattice.name} "
                f"lattice ({error})"
            ) from None


def _lattice_pictures(lines, shown: str, lattice: Lattice) -> Iterator[Polyform]:
    """Polyforms from text pictures of ``lattice`` separated by blank lines."""
    block: list[str] = []
    for number, line in enumerate(itertools.chain(lines, ["\n"]), start=1):
        if line.strip():
            block.append(line.rstrip("\n"))
        elif block:
            try:
                yield Polyform.from_ascii("\n".join(block), lattice=lattice)
            except PolyformError as error:
                raise ParseError(
                    f"{shown}: the picture at line {number - len(block)}: {error}"
                ) from None
            block = []


def _what_it_holds(name: str) -> tuple[str, str | None, object]:
    """("solutions" or "catalogue", the catalogue's kind if its records say it, the
    lattice its first record names or None)."""
    if not name.lower().endswith(".jsonl"):
        return "catalogue", None, None
    first = next((line for line in iter_lines(name, "file to draw") if line.strip()), None)
    if first is None:
        raise ParseError(f"{shorten(name, NAME_LIMIT)}: the file is empty")
    try:
        record = load_json(first)
    except ValueError as error:
        raise ParseError(
            f"{shorten(name, NAME_LIMIT)}: the first record is not JSON ({error})"
        ) from None
    if not isinstance(record, dict):
        return "catalogue", None, None
    if "placements" in record:
        return "solutions", None, record.get("lattice")
    return "catalogue", record.get("kind"), record.get("lattice")


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
    lattice: Lattice | str | None = None,
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
    columns, dim, limit, force, lattice
        As for :func:`draw_file`.
    colours : mapping name -> colour, or a palette name, optional

    Raises
    ------
    MeshLibraryMissing
        trimesh (the ``mesh`` extra) is not installed.
    ParseError, UnknownNameError, TooLargeError
        As for :func:`draw_file`.
    PolyformError
        A file of triangles or hexagons: models are of squares and cubes.
    """
    from ..draw.mesh import packings_model, pieces_model

    name = os.fspath(path)
    options = {"unit": unit, "gap": gap, "columns": columns, "colours": colours, "force": force}
    holds, _, recorded = _what_it_holds(name)
    found = _file_lattice(name, recorded, lattice)
    if _plane_family(found):
        raise PolyformError(
            f"3D models are of squares and cubes; the {found.name} lattice has none: draw it as SVG"
        )
    if holds == "solutions":
        packings, _ = _solutions(name, limit, force)
        if not packings:
            raise ParseError(f"{shorten(name, NAME_LIMIT)}: no solutions to model")
        return packings_model(packings, fmt, **options)
    return pieces_model(_catalogue_items(name, dim, limit, force), fmt, **options)


def _draw_solutions(
    name: str,
    columns,
    cell,
    exploded: bool,
    limit,
    labels,
    colours,
    force: bool,
    lattice: Lattice | None = None,
) -> SvgDrawing:
    solutions, region = _solutions(name, limit, force)
    if not solutions:
        raise ParseError(f"{shorten(name, NAME_LIMIT)}: no solutions to draw")
    if exploded and _plane_family(lattice):
        raise PolyformError(f"the {lattice.name} lattice is plane: nothing to explode")
    if exploded:
        from ..draw.isometric import exploded_svg

        return exploded_svg(
            solutions[0], cell=cell or 20, columns=columns, labels=labels, colours=colours,
            force=force,
        )  # fmt: skip
    return tilings_sheet_svg(
        solutions, columns=columns, region_cells=region, cell=cell, labels=labels,
        colours=colours, force=force, lattice=lattice,
    )  # fmt: skip

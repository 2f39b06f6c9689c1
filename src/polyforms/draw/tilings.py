"""SVG pictures of tilings: one tiling (:func:`tiling_svg`) or a numbered page of
several (:func:`tilings_sheet_svg`), on any plane lattice; packings of cubes are
handed to :mod:`polyforms.draw.isometric`.

The conventions (cells, pieces, colours, labels) are those of
:mod:`polyforms.draw.plane`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..errors import PolyformError
from ..lattice import SQUARE, Lattice
from .cells import _Frame, _lattice_of, _plane_cells, _plane_placements, _solid
from .size import DrawingSize
from .svg import (
    INK,
    UNCOVERED,
    Cell2,
    Colours,
    PlacementLike,
    SvgDrawing,
    _colour_for,
    _document,
    _finish,
    _label_size,
    _label_spot,
    _label_text,
    _labels_group,
    _loops_path,
    _num,
    _numbered_sheet,
    _Pieces,
    _placements,
    _region_cells,
    _want_labels,
    _widths,
    boundary_loops,
    readable_cell,
)

if TYPE_CHECKING:
    import svgwrite

__all__ = ["tiling_svg", "tilings_sheet_svg"]


def _add_tiling(
    drawing: svgwrite.Drawing,
    placements: list[tuple[str, tuple[tuple[int, ...], ...]]],
    region: set[Cell2] | None,
    cell: float,
    colours: Colours,
    frame: _Frame,
    offset: tuple[float, float],
    labels: bool = False,
) -> None:
    """Draw one 2D tiling into ``drawing`` with the top-left corner of ``frame`` at ``offset``.

    With ``labels``, each piece's name is written in its deepest cell
    (:func:`polyforms.draw.svg._label_spot`), above every outline.
    """
    lattice = frame.lattice
    placements = [(name, frame.shift(cells)) for name, cells in placements]
    region_cells = None if region is None else frame.shift(region)
    ox, oy = offset[0] - frame.left * cell, offset[1] - frame.top * cell
    tiling = drawing.g(class_="tiling", transform=f"translate({_num(ox)},{_num(oy)})")
    if region_cells is not None:
        empty = sorted(set(region_cells) - {c for _, cells in placements for c in cells})
        if empty:
            tiling.add(
                drawing.path(
                    d=_loops_path(boundary_loops(empty, lattice), cell, lattice=lattice),
                    fill=UNCOVERED,
                    fill_rule="evenodd",
                    class_="uncovered",
                )
            )
    layers = _Pieces(drawing, cell, lattice=lattice)
    for name, cells in placements:
        layers.add(cells, fill=_colour_for(name, colours), name=name)
    layers.finish(tiling)
    if region_cells is not None:
        tiling.add(
            drawing.path(
                d=_loops_path(boundary_loops(region_cells, lattice), cell, lattice=lattice),
                fill="none",
                stroke=INK,
                stroke_width=_widths(cell)[0],
                stroke_linejoin="round",
                class_="region",
            )
        )
    if labels:
        letters = _labels_group(drawing)
        for name, cells in placements:
            x, y = lattice.cell_centre(_label_spot(cells, lattice))
            fill = _colour_for(name, colours)
            size = _label_size(name, cell, lattice)
            letters.add(_label_text(drawing, name, (x * cell, y * cell), size, fill))
        tiling.add(letters)
    drawing.add(tiling)


def tiling_svg(
    placements: Iterable[PlacementLike],
    region_cells: Iterable[Sequence[int]] | None = None,
    *,
    cell: float | None = None,
    colours: Colours = None,
    labels: bool | None = None,
    force: bool = False,
    lattice: Lattice | str | None = None,
) -> SvgDrawing:
    """Draw a tiling: one colour per piece name, thick lines between pieces, piece letters.

    Parameters
    ----------
    placements : iterable of (piece name, cells)
        One entry per placed piece, cells as ``(x, y)`` (or ``(x, y, z)``:
        then the packing is drawn isometrically, see
        :func:`polyforms.draw.isometric.packing_svg`). Objects with ``.piece`` and
        ``.cells`` do as well as pairs.
    region_cells : iterable of cells, or an object with ``.cells``, optional
        The region tiled: its edge is drawn thick and any cell no piece
        covers is shaded grey. Holes (cells outside the region) stay blank.
        Default: the ``.region`` of ``placements`` if it has one.
    cell : float, optional
        Side of a cell in pixels; default :func:`readable_cell` (16 to 32,
        about 400 pixels across: a 6x10 rectangle gets 32).
    colours : mapping name -> colour, or a palette name, optional
        Overrides :func:`piece_colour` for some names; ``"colour-blind"``
        takes that palette (:data:`PALETTES`).
    labels : bool, optional
        Write each piece's name in it; default: when a cell is at least
        :data:`LABEL_MIN_CELL` pixels.
    force : bool
        Draw more than :data:`PIECE_LIMIT` pieces or :data:`CELL_LIMIT` cells
        (the pieces' and the region's).
    lattice : Lattice or str, optional
        Whose cells these are (``"triangle"``, ``"hex"``); default the
        region's, else told by the cells' length (square or cube).

    Raises
    ------
    PolyformError
        A placement that is not a (name, cells) pair, or cells of mixed dimension.
    TooLargeError
        Past one of those limits, without ``force`` (told as the placements are read).

    Examples
    --------
    >>> svg = tiling_svg([("I", [(0, 0), (1, 0)]), ("L", [(0, 1), (1, 1)])])
    >>> svg.count('class="piece"'), svg.count('class="label"'), 'data-piece="L"' in svg
    (2, 2, True)
    """
    size = DrawingSize(force)
    placed = _placements(placements, size)
    if region_cells is None:  # a tiling object that knows its region
        region_cells = getattr(placements, "region", None)
    region = _region_cells(region_cells, size)
    given = _lattice_of(region_cells, lattice)
    if _solid([c for _, cs in placed for c in cs] + (region or []), given):
        from .isometric import packing_svg

        return packing_svg(placed, cell=cell, colours=colours, labels=labels, force=force)
    plane = given or SQUARE
    placed = _plane_placements(placed, plane)
    region2 = None if region is None else set(_plane_cells(region, plane))
    frame = _Frame(placed, region2, plane)
    if cell is None:
        cell = readable_cell(frame.width, frame.height)
    margin = cell / 2
    drawing = _document(frame.width * cell + 2 * margin, frame.height * cell + 2 * margin)
    _add_tiling(
        drawing, placed, region2, cell, colours, frame, (margin, margin),
        _want_labels(labels, cell),
    )  # fmt: skip
    return _finish(drawing)


def tilings_sheet_svg(
    solutions: Iterable[Iterable[PlacementLike]],
    *,
    columns: int | None = None,
    region_cells: Iterable[Sequence[int]] | None = None,
    cell: float | None = None,
    colours: Colours = None,
    labels: bool | None = None,
    captions: bool | None = None,
    force: bool = False,
    lattice: Lattice | str | None = None,
) -> SvgDrawing:
    """A page of several tilings (or packings) in a grid, all at one cell size.

    A page of one tiling is that tiling's picture (:func:`tiling_svg`, or
    :func:`polyforms.draw.isometric.packing_svg`): the default size suits one
    picture and there is no caption to number it.

    Parameters
    ----------
    solutions : iterable of placement lists
        Each as for :func:`tiling_svg`.
    columns : int, optional
        Tilings per row; default about twice as many columns as rows (at most 30).
    region_cells : iterable of cells, optional
        The region every solution tiles (drawn as in :func:`tiling_svg`).
    cell : float, optional
        Side of a cell in pixels (cube edge in 3D); default 10 on a page of
        several, as for :func:`tiling_svg` for one.
    colours : mapping name -> colour, or a palette name, optional
    labels : bool, optional
        Piece letters; default: when a cell is at least :data:`LABEL_MIN_CELL`
        pixels (so not at the default size of a page of several).
    captions : bool, optional
        Number the tilings from 1 underneath; default: when there are several.
    force : bool
        Draw more than :data:`PIECE_LIMIT` pieces or :data:`CELL_LIMIT` cells
        (all the tilings' pieces, and the region once for each).
    lattice : Lattice or str, optional
        As for :func:`tiling_svg`.

    Raises
    ------
    TooLargeError
        Past one of those limits, without ``force``: told as the solutions are
        read, so a stream of them is read no further.

    Examples
    --------
    >>> one = [("I", [(0, 0), (1, 0)])]
    >>> two = [("I", [(0, 0), (0, 1)])]
    >>> sheet = tilings_sheet_svg([one, two, one])
    >>> sheet.count('class="tiling"'), sheet.count("<text")
    (3, 3)
    >>> tilings_sheet_svg([one]).count("<text")  # no caption; a letter in the piece
    1
    """
    given = _lattice_of(region_cells, lattice)
    region = _region_cells(region_cells, DrawingSize(force))
    placed = _sheet_placements(solutions, region, force)
    dims = _dimensions(placed, region, given)
    if captions is None:
        captions = len(placed) > 1
    if len(placed) == 1 and not captions:
        return tiling_svg(
            placed[0], region, cell=cell, colours=colours, labels=labels, force=force,
            lattice=given,
        )  # fmt: skip
    cell = 10 if cell is None else cell
    show = _want_labels(labels, cell)
    if dims == {3}:
        from .isometric import packings_sheet

        return packings_sheet(
            placed, columns=columns, cell=cell, colours=colours, labels=show, captions=captions
        )
    return _plane_sheet(placed, region, given or SQUARE, columns, cell, colours, show, captions)


def _sheet_placements(solutions: Iterable, region: list | None, force: bool) -> list:
    """The solutions of a sheet read within the drawing limits, the region counted
    once for each (it is drawn with every tiling)."""
    size = DrawingSize(force)
    placed = []
    for solution in solutions:
        placed.append(_placements(solution, size))
        size.add(0, len(region or ()))
    if not placed:
        raise PolyformError("nothing to draw: no solutions")
    return placed


def _dimensions(placed: list, region: list | None, given: Lattice | None) -> set[int]:
    """{2} or {3}: the dimension of every solution of a sheet."""
    dims = {
        3 if _solid([c for _, cs in p for c in cs] + (region or []), given) else 2 for p in placed
    }
    if len(dims) != 1:
        raise PolyformError("a sheet holds solutions of one dimension")
    return dims


def _plane_sheet(
    placed: list, region: list | None, plane: Lattice, columns: int | None, cell: float,
    colours: Colours, show: bool, captions: bool,
) -> SvgDrawing:  # fmt: skip
    """The page of :func:`tilings_sheet_svg` for tilings of a plane lattice."""
    placed = [_plane_placements(solution, plane) for solution in placed]
    region2 = None if region is None else set(_plane_cells(region, plane))
    frames = [_Frame(p, region2, plane) for p in placed]
    font = max(8.0, min(12.0, cell))

    def place(drawing, k: int, x: float, y: float) -> None:
        _add_tiling(drawing, placed[k], region2, cell, colours, frames[k], (x, y), show)

    return _numbered_sheet(
        [(frame.width * cell, frame.height * cell) for frame in frames],
        place,
        columns=columns,
        cell=cell,
        label_room=round(font * 1.6) if captions else 0,
        font=font,
        title=f"{len(placed)} tilings",
    )

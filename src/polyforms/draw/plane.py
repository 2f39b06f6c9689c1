"""SVG pictures: polyforms, catalogue sheets, tilings, regions and N-queens boards.

Every function returns an :class:`SvgDrawing`, a ``str`` holding a complete
SVG document that Jupyter shows as a picture (it has ``_repr_svg_``) and
:meth:`SvgDrawing.save` writes atomically. Output is deterministic: no random
ids, numbers written with at most two decimals, attributes in a fixed order,
so the same input gives the same bytes.

Conventions
-----------
* A 2D cell ``(x, y)`` is drawn with ``x`` to the right and ``y`` down the
  page, as in the ASCII pictures of :mod:`polyforms.polyform`.
* A piece is one ``<g class="piece">`` group holding one path for its area and
  thick outline (holes are cut out by the even-odd rule) and, when it has more
  than one cell, one path of thin lines between its cells. A catalogue of
  thousands of polyforms therefore stays small: two paths per piece, never one
  shape per cell.
* A tiling solution is plain data: a sequence of ``(piece name, cells)``
  placements; a region is a set of cells. Nothing here depends on the classes
  of :mod:`polyforms.tiling.problem`.
* Colours are stable per piece name (:func:`piece_colour`): the twelve
  pentominoes have a fixed palette chosen so that every two colours differ
  clearly (a second palette, ``colours="colour-blind"``, also for red-green
  colour blindness), any other name a colour derived from a checksum of the name.
* Tilings and packings carry their piece names (``labels``), by default
  whenever a cell is at least :data:`LABEL_MIN_CELL` pixels: a picture can
  then be checked against the letter pictures of the text output. A lone
  tiling is drawn at a readable size (:func:`readable_cell`) without a
  caption; pages of several are numbered.

3D pictures (isometric packings and exploded views) live in
:mod:`polyforms.draw.isometric`; the functions here hand 3D input over to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import PolyformError
from ..geometry import bounding_box
from .svg import (
    FONT,
    INK,
    LABEL_MIN_CELL,
    PALETTES,
    PAPER,
    PENTOMINO_COLOURS,
    PLAIN,
    UNCOVERED,
    Cell2,
    Colours,
    PlacementLike,
    SvgDrawing,
    _cells_2d,
    _colour_for,
    _dimension,
    _document,
    _extent,
    _finish,
    _grid,
    _inner_path,
    _label_size,
    _label_spot,
    _label_text,
    _label_width,
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
    piece_colour,
    readable_cell,
)

if TYPE_CHECKING:
    import svgwrite

__all__ = [
    "LABEL_MIN_CELL",
    "PALETTES",
    "PENTOMINO_COLOURS",
    "SvgDrawing",
    "boundary_loops",
    "catalogue_svg",
    "piece_colour",
    "polyform_svg",
    "queens_svg",
    "readable_cell",
    "region_svg",
    "tiling_svg",
    "tilings_sheet_svg",
]

# -- a polyform ----------------------------------------------------------------------


def polyform_svg(
    polyform: Iterable[Sequence[int]],
    *,
    cell: float = 24,
    colour: str | None = None,
    name: str | None = None,
) -> SvgDrawing:
    """Draw one polyomino (flat, outlined) or polycube (isometric).

    Parameters
    ----------
    polyform : iterable of cells, or an object with ``.cells`` (a Polyform)
    cell : float
        Side of a cell in pixels.
    colour : str, optional
        Fill; default the colour of ``name`` if given, else a light blue.
    name : str, optional
        A piece name, used for the colour and recorded as ``data-piece``.

    Examples
    --------
    >>> ring = [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]
    >>> svg = polyform_svg(ring, cell=10)
    >>> svg.count('class="piece"'), 'fill-rule="evenodd"' in svg
    (1, True)
    """
    cells = tuple(tuple(c) for c in getattr(polyform, "cells", polyform))
    fill = colour or (piece_colour(name) if name is not None else PLAIN)
    if _dimension(cells) == 3:
        from .isometric import packing_svg

        return packing_svg(
            [(name or "", cells)], cell=cell, colours={name or "": fill}, labels=False
        )
    cells = _cells_2d(cells)
    margin = cell / 2
    (min_x, min_y), (max_x, max_y) = _extent(cells)
    drawing = _document(
        (max_x - min_x + 1) * cell + 2 * margin, (max_y - min_y + 1) * cell + 2 * margin
    )
    layers = _Pieces(drawing, cell, fill)
    layers.add([(x - min_x, y - min_y) for x, y in cells], (margin, margin), name=name)
    layers.finish(drawing)
    return _finish(drawing)


# -- sheets --------------------------------------------------------------------------


class _Item:
    """One catalogue entry as drawing sees it: cells, dimension and extent."""

    def __init__(self, shape) -> None:
        self.cells = tuple(tuple(c) for c in shape.cells)
        self.dim = len(self.cells[0]) if self.cells else 2
        self.shape = shape  # its symmetry class is computed only when a label asks
        low, high = bounding_box(self.cells)
        self.bounding_box = tuple(h - lo + 1 for lo, h in zip(low, high))


def _named_items(items) -> list[tuple[str | None, _Item]]:
    """(name or None, item) for each entry: shapes are anything with ``.cells``."""
    if isinstance(items, Mapping):
        items = items.items()
    out = []
    for item in items:
        if hasattr(item, "cells"):
            out.append((None, _Item(item)))
        elif isinstance(item, tuple) and len(item) == 2 and hasattr(item[1], "cells"):
            out.append((str(item[0]), _Item(item[1])))
        else:
            raise PolyformError(
                f"a catalogue item must be a Polyform or (name, Polyform), "
                f"not {type(item).__name__}"
            )
    return out


def catalogue_svg(
    items: Iterable[Any] | Mapping[str, Any],
    *,
    columns: int | None = None,
    cell: float = 12,
    kind: str | None = None,
    symmetry: bool = False,
    labels: bool = True,
) -> SvgDrawing:
    """A sheet of polyforms in a grid, all at one cell size, each labelled.

    Parameters
    ----------
    items : iterable of Polyform, of (name, Polyform) pairs, or a mapping name -> Polyform
        (any object with ``.cells`` does for a Polyform; ``.symmetry`` is read
        for the labels when ``symmetry`` is true)
        Drawn in order, left to right then down. Named pieces get their colour
        (:func:`piece_colour`); unnamed ones a light blue.
    columns : int, optional
        Items per row; default about twice as many columns as rows (at most 30).
    cell : float
        Side of a cell (2D) or cube edge (3D) in pixels, the same for every item.
    kind : str, optional
        Recorded in the document title (``"free"``, ...).
    symmetry : bool
        Add the symmetry class to each label.
    labels : bool
        Label each item with its index from 1 and its name.

    Notes
    -----
    Two paths per 2D polyform (area with outline, inner lines) and one text;
    the 369 free octominoes make a sheet of about 60 kB.

    Examples
    --------
    >>> from polyforms import pieces
    >>> sheet = catalogue_svg(pieces("pentominoes"), columns=6)
    >>> sheet.count('class="piece"'), sheet.count("<text")
    (12, 12)
    """
    named = _named_items(items)
    if not named:
        raise PolyformError("nothing to draw: the catalogue is empty")
    dims = {p.dim for _, p in named}
    if len(dims) != 1:
        raise PolyformError("a catalogue sheet holds polyforms of one dimension")
    if dims == {3}:
        from .isometric import iso_extent

        boxes = [iso_extent(p.cells, cell) for _, p in named]
    else:
        boxes = [(p.bounding_box[0] * cell, p.bounding_box[1] * cell) for _, p in named]
    texts = []
    for index, (name, polyform) in enumerate(named, start=1):
        words = [str(index)] + ([name] if name else [])
        if symmetry:
            words.append(str(getattr(polyform.shape, "symmetry", "")))
        texts.append(" ".join(words) if labels else "")
    font = max(8.0, min(12.0, cell * 0.9))
    width = max(max(w for w, _ in boxes), max(_label_width(t, font) for t in texts)) + cell
    label_room = round(font * 1.6) if labels else 0
    height = max(h for _, h in boxes) + cell + label_room
    columns, rows = _grid(len(named), columns)
    margin = cell / 2
    title = f"{len(named)} {kind + ' ' if kind else ''}polyform{'s' if len(named) > 1 else ''}"
    drawing = _document(columns * width + 2 * margin, rows * height + 2 * margin, title)
    cells_3d = []
    layers = _Pieces(drawing, cell)
    text_group = drawing.g(font_family=FONT, font_size=_num(font), text_anchor="middle", fill=INK)
    for slot, ((name, polyform), (w, h), text) in enumerate(zip(named, boxes, texts)):
        left = margin + (slot % columns) * width
        top = margin + (slot // columns) * height
        # Centred across, standing on the label (close to it whatever its height).
        ox, oy = left + (width - w) / 2, top + cell / 2 + (height - cell - label_room - h)
        fill = piece_colour(name) if name else None
        if polyform.dim == 2:
            layers.add(polyform.cells, (round(ox), round(oy)), fill, name)
        else:
            cells_3d.append(((name or "", polyform.cells), fill or PLAIN, (ox, oy)))
        if text:
            text_group.add(
                drawing.text(
                    text, insert=(_num(left + width / 2), _num(top + height - label_room / 2))
                )
            )
    if cells_3d:
        from .isometric import add_iso

        for placement, fill, offset in cells_3d:
            add_iso(drawing, [placement], cell, {placement[0]: fill}, offset)
    else:
        layers.finish(drawing)
    drawing.add(text_group)
    return _finish(drawing)


# -- tilings -------------------------------------------------------------------------


def _add_tiling(
    drawing: svgwrite.Drawing,
    placements: list[tuple[str, tuple[tuple[int, ...], ...]]],
    region: set[Cell2] | None,
    cell: float,
    colours: Colours,
    origin: Cell2,
    offset: tuple[float, float],
    labels: bool = False,
) -> None:
    """Draw one 2D tiling into ``drawing`` with its least corner ``origin`` at ``offset``.

    With ``labels``, each piece's name is written in its deepest cell
    (:func:`polyforms.draw.svg._label_spot`), above every outline.
    """
    ox, oy = offset
    mx, my = origin

    def shift(cells: Iterable[Sequence[int]]) -> list[Cell2]:
        return [(x - mx, y - my) for x, y in cells]

    tiling = drawing.g(class_="tiling", transform=f"translate({_num(ox)},{_num(oy)})")
    if region is not None:
        covered = {c for _, cells in placements for c in cells}
        empty = shift(sorted(region - covered))
        if empty:
            tiling.add(
                drawing.path(
                    d=_loops_path(boundary_loops(empty), cell),
                    fill=UNCOVERED,
                    fill_rule="evenodd",
                    class_="uncovered",
                )
            )
    layers = _Pieces(drawing, cell)
    for name, cells in placements:
        layers.add(shift(cells), fill=_colour_for(name, colours), name=name)
    layers.finish(tiling)
    if region is not None:
        thick = _widths(cell)[0]
        tiling.add(
            drawing.path(
                d=_loops_path(boundary_loops(shift(region)), cell),
                fill="none",
                stroke=INK,
                stroke_width=thick,
                stroke_linejoin="round",
                class_="region",
            )
        )
    if labels:
        letters = _labels_group(drawing)
        for name, cells in placements:
            x, y = _label_spot(shift(cells))
            centre = ((x + 0.5) * cell, (y + 0.5) * cell)
            fill = _colour_for(name, colours)
            letters.add(_label_text(drawing, name, centre, _label_size(name, cell), fill))
        tiling.add(letters)
    drawing.add(tiling)


def _tiling_extent(placements, region) -> tuple[Cell2, Cell2]:
    cells = [c for _, cs in placements for c in cs] + list(region or ())
    return _extent(cells)


def tiling_svg(
    placements: Iterable[PlacementLike],
    region_cells: Iterable[Sequence[int]] | None = None,
    *,
    cell: float | None = None,
    colours: Colours = None,
    labels: bool | None = None,
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

    Raises
    ------
    PolyformError
        A placement that is not a (name, cells) pair, or cells of mixed dimension.

    Examples
    --------
    >>> svg = tiling_svg([("I", [(0, 0), (1, 0)]), ("L", [(0, 1), (1, 1)])])
    >>> svg.count('class="piece"'), svg.count('class="label"'), 'data-piece="L"' in svg
    (2, 2, True)
    """
    placed = _placements(placements)
    if region_cells is None:  # a tiling object that knows its region
        region_cells = getattr(placements, "region", None)
    region = _region_cells(region_cells)
    if _dimension([c for _, cs in placed for c in cs] + (region or [])) == 3:
        from .isometric import packing_svg

        return packing_svg(placed, cell=cell, colours=colours, labels=labels)
    region2 = None if region is None else set(_cells_2d(region))
    (min_x, min_y), (max_x, max_y) = _tiling_extent(placed, region2)
    if cell is None:
        cell = readable_cell(max_x - min_x + 1, max_y - min_y + 1)
    margin = cell / 2
    drawing = _document(
        (max_x - min_x + 1) * cell + 2 * margin, (max_y - min_y + 1) * cell + 2 * margin
    )
    _add_tiling(
        drawing, placed, region2, cell, colours, (min_x, min_y), (margin, margin),
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
    placed = [_placements(s) for s in solutions]
    if not placed:
        raise PolyformError("nothing to draw: no solutions")
    region = _region_cells(region_cells)
    dims = {_dimension([c for _, cs in p for c in cs] + (region or [])) for p in placed}
    if len(dims) != 1:
        raise PolyformError("a sheet holds solutions of one dimension")
    if captions is None:
        captions = len(placed) > 1
    if len(placed) == 1 and not captions:
        return tiling_svg(placed[0], region, cell=cell, colours=colours, labels=labels)
    cell = 10 if cell is None else cell
    show = _want_labels(labels, cell)
    if dims == {3}:
        from .isometric import packings_sheet

        return packings_sheet(
            placed, columns=columns, cell=cell, colours=colours, labels=show, captions=captions
        )
    region2 = None if region is None else set(_cells_2d(region))
    extents = [_tiling_extent(p, region2) for p in placed]
    font = max(8.0, min(12.0, cell))

    def place(drawing, k: int, x: float, y: float) -> None:
        _add_tiling(drawing, placed[k], region2, cell, colours, extents[k][0], (x, y), show)

    return _numbered_sheet(
        [((hx - lx + 1) * cell, (hy - ly + 1) * cell) for (lx, ly), (hx, hy) in extents],
        place,
        columns=columns,
        cell=cell,
        label_room=round(font * 1.6) if captions else 0,
        font=font,
        title=f"{len(placed)} tilings",
    )


def region_svg(cells: Iterable[Sequence[int]], *, cell: float = 20) -> SvgDrawing:
    """Draw a region to be tiled: grey cells on a thin grid, thick edge, blank holes.

    For ``Region._repr_svg_``: ``cells`` may be any object with ``.cells``.
    A 3D region is drawn as grey isometric cubes.

    Examples
    --------
    >>> svg = region_svg([(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)])
    >>> svg.count('class="region"')
    1
    """
    cells = _region_cells(cells)
    if not cells:
        raise PolyformError("nothing to draw: the region is empty")
    if _dimension(cells) == 3:
        from .isometric import packing_svg

        return packing_svg([("", cells)], cell=cell, colours={"": UNCOVERED}, labels=False)
    region = set(_cells_2d(cells))
    (min_x, min_y), (max_x, max_y) = _extent(region)
    margin = cell / 2
    drawing = _document(
        (max_x - min_x + 1) * cell + 2 * margin, (max_y - min_y + 1) * cell + 2 * margin
    )
    shifted = [(x - min_x, y - min_y) for x, y in sorted(region)]
    thick, thin = _widths(cell)
    group = drawing.g(
        class_="region",
        transform=f"translate({_num(margin)},{_num(margin)})",
        stroke=INK,
        stroke_linejoin="round",
    )
    group.add(
        drawing.path(
            d=_loops_path(boundary_loops(shifted), cell),
            fill=UNCOVERED,
            fill_rule="evenodd",
            stroke="none",
        )
    )
    inner = _inner_path(shifted, cell)
    if inner:
        group.add(drawing.path(d=inner, fill="none", stroke_width=thin, stroke_opacity="0.3"))
    group.add(
        drawing.path(d=_loops_path(boundary_loops(shifted), cell), fill="none", stroke_width=thick)
    )
    drawing.add(group)
    return _finish(drawing)


# -- N queens ------------------------------------------------------------------------

# A crown in a unit square: five points over a band.
_CROWN = (
    (0.16, 0.84),
    (0.08, 0.3),
    (0.3, 0.54),
    (0.5, 0.14),
    (0.7, 0.54),
    (0.92, 0.3),
    (0.84, 0.84),
)


def queens_svg(n: int, queens: Iterable[tuple[int, int]], *, cell: float = 32) -> SvgDrawing:
    """An ``n`` by ``n`` chessboard with a crown on each queen's square.

    Parameters
    ----------
    n : int
        Board size.
    queens : iterable of (row, column)
        Row 0 at the top, column 0 at the left.
    cell : float
        Side of a square in pixels.

    Raises
    ------
    PolyformError
        ``n`` below 1, or a queen off the board.

    Examples
    --------
    >>> svg = queens_svg(4, [(0, 1), (1, 3), (2, 0), (3, 2)])
    >>> svg.count('class="queen"'), svg.count('class="dark"')
    (4, 1)
    """
    if n < 1:
        raise PolyformError(f"board size must be at least 1, not {n}")
    placed = sorted({(int(r), int(c)) for r, c in queens})
    for r, c in placed:
        if not (0 <= r < n and 0 <= c < n):
            raise PolyformError(f"queen at row {r}, column {c} is off the {n}x{n} board")
    margin = cell / 4
    drawing = _document(n * cell + 2 * margin, n * cell + 2 * margin)
    board = drawing.g(transform=f"translate({_num(margin)},{_num(margin)})")
    board.add(drawing.rect(insert=(0, 0), size=(_num(n * cell), _num(n * cell)), fill="#f0d9b5"))
    dark = [(x, y) for y in range(n) for x in range(n) if (x + y) % 2 == 1]
    if dark:
        board.add(
            drawing.path(d=_loops_path(boundary_loops(dark), cell), fill="#b58863", class_="dark")
        )
    board.add(
        drawing.rect(
            insert=(0, 0),
            size=(_num(n * cell), _num(n * cell)),
            fill="none",
            stroke=INK,
            stroke_width=_widths(cell)[0],
        )
    )
    crowns = drawing.g(
        fill=INK, stroke=PAPER, stroke_width=_num(max(0.5, cell / 40)), stroke_linejoin="round"
    )
    for r, c in placed:
        corners = [f"{_num((c + u) * cell)} {_num((r + v) * cell)}" for u, v in _CROWN]
        crowns.add(drawing.path(d="M" + "L".join(corners) + "Z", class_="queen"))
    board.add(crowns)
    drawing.add(board)
    return _finish(drawing)

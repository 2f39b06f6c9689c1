"""SVG pictures: polyforms, catalogue sheets, tilings, regions and N-queens boards.

Every function returns an :class:`SvgDrawing`, a ``str`` holding a complete
SVG document that Jupyter shows as a picture (it has ``_repr_svg_``) and
:meth:`SvgDrawing.save` writes atomically. Output is deterministic: no random
ids, numbers written with at most two decimals, attributes in a fixed order,
so the same input gives the same bytes.

Conventions
-----------
* A plane cell is drawn with ``x`` to the right and ``y`` down the page, as
  in the ASCII pictures of :mod:`polyforms.polyform`, as the polygon its
  lattice gives it (:meth:`polyforms.lattice.Lattice.cell_edges`, placed by
  :meth:`~polyforms.lattice.Lattice.to_page`: squares, true triangles and
  hexagons, a cell's edge ``cell`` pixels long). The lattice is the one
  named by ``lattice=``, else that of the value drawn (a Polyform's, a
  Region's, a tiling's region's); bare cells are squares ``(x, y)`` or cubes
  ``(x, y, z)`` by their length, so a triangle ``(x, y, t)`` needs its
  lattice to be told from a cube.
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
from ..lattice import SQUARE, Lattice
from ..lattice import lattice as find_lattice
from .size import CELL_LIMIT, COORDINATE_LIMIT, PIECE_LIMIT, DrawingSize
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
    _label_size,
    _label_spot,
    _label_text,
    _label_width,
    _labels_group,
    _loops,
    _loops_path,
    _num,
    _numbered_sheet,
    _Pieces,
    _placements,
    _region_cells,
    _runs_path,
    _want_labels,
    _widths,
    boundary_loops,
    piece_colour,
    readable_cell,
)

if TYPE_CHECKING:
    import svgwrite

__all__ = [
    "CELL_LIMIT",
    "LABEL_MIN_CELL",
    "PALETTES",
    "PENTOMINO_COLOURS",
    "PIECE_LIMIT",
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
    force: bool = False,
    lattice: Lattice | str | None = None,
) -> SvgDrawing:
    """Draw one polyomino, polyiamond or polyhex (flat, outlined) or polycube (isometric).

    Parameters
    ----------
    polyform : iterable of cells, or an object with ``.cells`` (a Polyform)
    cell : float
        Side of a cell in pixels.
    colour : str, optional
        Fill; default the colour of ``name`` if given, else a light blue.
    name : str, optional
        A piece name, used for the colour and recorded as ``data-piece``.
    force : bool
        Draw more than :data:`CELL_LIMIT` cells.
    lattice : Lattice or str, optional
        Whose cells these are (``"triangle"``, ``"hex"``); default the
        polyform's own, else told by the cells' length (square or cube).

    Raises
    ------
    TooLargeError
        More than :data:`CELL_LIMIT` cells, without ``force``.

    Examples
    --------
    >>> rhombus = polyform_svg([(0, 0, 0), (0, 0, 1)], lattice="triangle", cell=24)
    >>> 'd="M0 0H24L36 20.78H12Z"' in rhombus  # ▽ and △: four sides
    True
    >>> ring = [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]
    >>> svg = polyform_svg(ring, cell=10)
    >>> svg.count('class="piece"'), 'fill-rule="evenodd"' in svg
    (1, True)
    """
    cells = tuple(tuple(c) for c in getattr(polyform, "cells", polyform))
    DrawingSize(force).add(1, len(cells))
    fill = colour or (piece_colour(name) if name is not None else PLAIN)
    given = _lattice_of(polyform, lattice)
    if _solid(cells, given):
        from .isometric import packing_svg

        return packing_svg(
            [(name or "", cells)], cell=cell, colours={name or "": fill}, labels=False, force=force
        )
    lattice = given or SQUARE
    cells = _plane_cells(cells, lattice)
    (min_x, min_y), _ = _extent(cells)
    shifted = lattice.translate(cells, (-min_x, -min_y))
    margin = cell / 2
    (left, top), (width, height) = lattice.page_box(shifted)
    drawing = _document(width * cell + 2 * margin, height * cell + 2 * margin)
    layers = _Pieces(drawing, cell, fill, lattice)
    layers.add(shifted, (margin - left * cell, margin - top * cell), name=name)
    layers.finish(drawing)
    return _finish(drawing)


def _lattice_of(value: object, lattice: Lattice | str | None = None) -> Lattice | None:
    """The lattice named by the caller, else the value's own (a Polyform's, a Region's),
    else None: bare cells, square or cube as their length tells."""
    if lattice is not None:
        return find_lattice(lattice)
    found = getattr(value, "lattice", None)
    return found if isinstance(found, Lattice) else None


def _plane_lattice(value: object, lattice: Lattice | str | None = None) -> Lattice:
    """The lattice of plane cells: as :func:`_lattice_of` finds it, else the square's."""
    return _lattice_of(value, lattice) or SQUARE


def _solid(cells: Sequence[Sequence[int]], lattice: Lattice | None) -> bool:
    """Are these cells cubes, to be drawn isometrically?

    Bare cells and the square and cubic lattices' say so by their length (a
    triangle has three numbers too, so its lattice must be known: it is plane).

    Raises
    ------
    PolyformError
        No cells, or cells of mixed length.
    """
    if lattice is None or lattice.name in ("square", "cube"):
        return _dimension(cells) == 3
    if not cells:
        raise PolyformError("nothing to draw: no cells")
    return lattice.dimension == 3


def _plane_cells(cells: Iterable[Sequence[int]], lattice: Lattice) -> list[tuple[int, ...]]:
    """Cells of a plane lattice as whole-number tuples, each checked by the lattice
    (a triangle's third number is 0 or 1)."""
    if lattice is SQUARE:
        return _cells_2d(cells)
    return [lattice.as_cell(c, COORDINATE_LIMIT) for c in cells]


# -- sheets --------------------------------------------------------------------------


class _Item:
    """One catalogue entry as drawing sees it: cells, dimension and lattice."""

    def __init__(self, shape) -> None:
        self.cells = tuple(tuple(c) for c in shape.cells)
        if not self.cells:
            raise PolyformError("a catalogue item has no cells")
        found = _lattice_of(shape)  # a triangle's cells have three numbers: ask its lattice
        self.dim = len(self.cells[0]) if found is None else found.dimension
        self.shape = shape  # its symmetry class is computed only when a label asks
        self.lattice = (found or SQUARE) if self.dim == 2 else None

    def box(self, cell: float) -> tuple[float, float, float, float]:
        """Where its picture starts and how large it is, in pixels: left, top, width, height.

        A plane item starts at the least corner of its cells' polygons; an
        isometric picture places itself (:func:`polyforms.draw.isometric.add_iso`).
        """
        if self.lattice is None:
            from .isometric import iso_extent

            return (0, 0, *iso_extent(self.cells, cell))
        (left, top), (width, height) = self.lattice.page_box(self.cells)
        return left * cell, top * cell, width * cell, height * cell

    def label(self, index: int, name: str | None, symmetry: bool) -> str:
        """Its index from 1, its name, and (with ``symmetry``) its symmetry class."""
        words = [str(index)] + ([name] if name else [])
        if symmetry:
            words.append(str(getattr(self.shape, "symmetry", "")))
        return " ".join(words)


def _named_items(items, size: DrawingSize) -> list[tuple[str | None, _Item]]:
    """(name or None, item) for each entry: shapes are anything with ``.cells``; all of one
    dimension, at least one; each counted in ``size`` as it is read."""
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
        size.add(1, len(out[-1][1].cells))
    if not out:
        raise PolyformError("nothing to draw: the catalogue is empty")
    if len({item.dim for _, item in out}) != 1:
        raise PolyformError("a catalogue sheet holds polyforms of one dimension")
    if len({item.lattice for _, item in out}) != 1:
        raise PolyformError("a catalogue sheet holds polyforms of one lattice")
    return out


def catalogue_svg(
    items: Iterable[Any] | Mapping[str, Any],
    *,
    columns: int | None = None,
    cell: float = 12,
    kind: str | None = None,
    symmetry: bool = False,
    labels: bool = True,
    force: bool = False,
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
    force : bool
        Draw more than :data:`PIECE_LIMIT` polyforms or :data:`CELL_LIMIT` cells.

    Raises
    ------
    TooLargeError
        Past one of those limits, without ``force`` (told as the items are read).

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
    named = _named_items(items, DrawingSize(force))
    texts = [
        item.label(index, name, symmetry) if labels else ""
        for index, (name, item) in enumerate(named, start=1)
    ]
    boxes = [item.box(cell) for _, item in named]
    font = max(8.0, min(12.0, cell * 0.9))
    label_room = round(font * 1.6) if labels else 0
    columns, rows = _grid(len(named), columns)
    grid = _Grid(
        width=max(max(b[2] for b in boxes), max(_label_width(t, font) for t in texts)) + cell,
        height=max(b[3] for b in boxes) + cell + label_room,
        columns=columns,
        margin=cell / 2,
    )
    title = f"{len(named)} {kind + ' ' if kind else ''}polyform{'s' if len(named) > 1 else ''}"
    drawing = _document(
        columns * grid.width + 2 * grid.margin, rows * grid.height + 2 * grid.margin, title
    )
    # Each picture centred across its slot, standing on the label (close to it
    # whatever its height).
    corners = []
    for index, (left, top, width, height) in enumerate(boxes):
        x, y = grid.corner(index)
        corners.append(
            (x + (grid.width - width) / 2 - left,
             y + cell / 2 + (grid.height - cell - label_room - height) - top)
        )  # fmt: skip
    _draw_items(drawing, named, corners, cell)
    _add_item_labels(drawing, texts, grid, font, label_room)
    return _finish(drawing)


class _Grid:
    """The slots of a sheet: all of one size, in rows of ``columns``, inside a margin."""

    def __init__(self, width: float, height: float, columns: int, margin: float) -> None:
        self.width, self.height, self.columns, self.margin = width, height, columns, margin

    def corner(self, index: int) -> tuple[float, float]:
        """The top-left corner of slot ``index`` (left to right, then down)."""
        return (
            self.margin + (index % self.columns) * self.width,
            self.margin + (index // self.columns) * self.height,
        )


def _draw_items(
    drawing: svgwrite.Drawing,
    named: list[tuple[str | None, _Item]],
    corners: list[tuple[float, float]],
    cell: float,
) -> None:
    """Draw each item with its picture's top-left corner at its corner: outlined cells in
    two layers (:class:`polyforms.draw.svg._Pieces`, at whole pixels), or isometric cubes."""
    if named[0][1].lattice is None:
        from .isometric import add_iso

        for (name, item), offset in zip(named, corners):
            fill = piece_colour(name) if name else PLAIN
            add_iso(drawing, [(name or "", item.cells)], cell, {name or "": fill}, offset)
        return
    layers = _Pieces(drawing, cell, lattice=named[0][1].lattice)
    for (name, item), (x, y) in zip(named, corners):
        layers.add(item.cells, (round(x), round(y)), piece_colour(name) if name else None, name)
    layers.finish(drawing)


def _add_item_labels(
    drawing: svgwrite.Drawing, texts: list[str], grid: _Grid, font: float, label_room: float
) -> None:
    """Write each item's label centred under its slot (an empty label writes nothing)."""
    group = drawing.g(font_family=FONT, font_size=_num(font), text_anchor="middle", fill=INK)
    for index, text in enumerate(texts):
        if text:
            left, top = grid.corner(index)
            middle = (_num(left + grid.width / 2), _num(top + grid.height - label_room / 2))
            group.add(drawing.text(text, insert=middle))
    drawing.add(group)


# -- tilings -------------------------------------------------------------------------


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


class _Frame:
    """Where a plane tiling sits: its cells shifted so their least ``x`` and ``y`` are 0
    (:meth:`shift`), and the box of the shifted cells' polygons on the page.

    ``left`` and ``top`` are the box's least corner, ``width`` and ``height``
    its size, all in drawing units (cells).
    """

    def __init__(self, placements, region: set[Cell2] | None, lattice: Lattice) -> None:
        cells = {c for _, cs in placements for c in cs}.union(region or ())
        self.lattice = lattice
        self.origin = _extent(cells)[0]
        (self.left, self.top), (self.width, self.height) = lattice.page_box(self.shift(cells))

    def shift(self, cells: Iterable[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
        """``cells`` moved so that the tiling's least ``x`` and ``y`` are 0."""
        return self.lattice.translate(cells, (-self.origin[0], -self.origin[1]))


def _plane_placements(
    placed: list[tuple[str, tuple[tuple[int, ...], ...]]], lattice: Lattice
) -> list[tuple[str, tuple[tuple[int, ...], ...]]]:
    """A plane tiling's placements as cells of ``lattice``, each checked by it (a
    triangle's third number is 0 or 1); square cells are taken as they are."""
    if lattice is SQUARE:
        return placed
    return [(name, tuple(_plane_cells(cells, lattice))) for name, cells in placed]


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
    size = DrawingSize(force)
    given = _lattice_of(region_cells, lattice)
    region = _region_cells(region_cells, DrawingSize(force))
    placed = []
    for solution in solutions:
        placed.append(_placements(solution, size))
        size.add(0, len(region or ()))  # the region is drawn with every tiling
    if not placed:
        raise PolyformError("nothing to draw: no solutions")
    dims = {
        3 if _solid([c for _, cs in p for c in cs] + (region or []), given) else 2 for p in placed
    }
    if len(dims) != 1:
        raise PolyformError("a sheet holds solutions of one dimension")
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
    plane = given or SQUARE
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


def region_svg(
    cells: Iterable[Sequence[int]],
    *,
    cell: float = 20,
    force: bool = False,
    lattice: Lattice | str | None = None,
) -> SvgDrawing:
    """Draw a region to be tiled: grey cells on a thin grid, thick edge, blank holes.

    For ``Region._repr_svg_``: ``cells`` may be any object with ``.cells``,
    drawn on its ``.lattice`` (or on ``lattice``: ``"triangle"``, ``"hex"``;
    bare cells are squares or cubes by their length). A 3D region is drawn
    as grey isometric cubes. More than :data:`CELL_LIMIT` cells are a
    :class:`~polyforms.errors.TooLargeError` unless ``force``.

    Examples
    --------
    >>> svg = region_svg([(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)])
    >>> svg.count('class="region"')
    1
    """
    given = _lattice_of(cells, lattice)
    cells = _region_cells(cells, DrawingSize(force))
    if not cells:
        raise PolyformError("nothing to draw: the region is empty")
    if _solid(cells, given):
        from .isometric import packing_svg

        return packing_svg(
            [("", cells)], cell=cell, colours={"": UNCOVERED}, labels=False, force=force
        )
    lattice = given or SQUARE
    region = set(_plane_cells(cells, lattice))
    frame = _Frame([], region, lattice)
    shifted = frame.shift(sorted(region))
    margin = cell / 2
    drawing = _document(frame.width * cell + 2 * margin, frame.height * cell + 2 * margin)
    thick, thin = _widths(cell)
    left, top = margin - frame.left * cell, margin - frame.top * cell
    group = drawing.g(
        class_="region",
        transform=f"translate({_num(left)},{_num(top)})",
        stroke=INK,
        stroke_linejoin="round",
    )
    outer, inner_sides = lattice.sides(shifted)
    outline = _loops_path(_loops(outer, lattice), cell, lattice=lattice)
    group.add(drawing.path(d=outline, fill=UNCOVERED, fill_rule="evenodd", stroke="none"))
    inner = _runs_path(inner_sides, cell, 0, 0, lattice)
    if inner:
        group.add(drawing.path(d=inner, fill="none", stroke_width=thin, stroke_opacity="0.3"))
    group.add(drawing.path(d=outline, fill="none", stroke_width=thick))
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


def queens_svg(
    n: int, queens: Iterable[tuple[int, int]], *, cell: float = 32, force: bool = False
) -> SvgDrawing:
    """An ``n`` by ``n`` chessboard with a crown on each queen's square.

    Parameters
    ----------
    n : int
        Board size.
    queens : iterable of (row, column)
        Row 0 at the top, column 0 at the left.
    cell : float
        Side of a square in pixels.
    force : bool
        Draw a board of more than :data:`CELL_LIMIT` squares.

    Raises
    ------
    PolyformError
        ``n`` below 1, or a queen off the board.
    TooLargeError
        More than :data:`CELL_LIMIT` squares, without ``force``.

    Examples
    --------
    >>> svg = queens_svg(4, [(0, 1), (1, 3), (2, 0), (3, 2)])
    >>> svg.count('class="queen"'), svg.count('class="dark"')
    (4, 1)
    """
    if n < 1:
        raise PolyformError(f"board size must be at least 1, not {n}")
    DrawingSize(force).add(0, n * n)
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

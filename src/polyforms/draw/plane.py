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
Tilings are drawn by :mod:`polyforms.draw.tilings` and N-queens boards by
:mod:`polyforms.draw.queens`; this module names them too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import PolyformError
from ..lattice import SQUARE, Lattice
from .cells import _Frame, _lattice_of, _plane_cells, _solid
from .queens import queens_svg
from .size import CELL_LIMIT, PIECE_LIMIT, DrawingSize
from .svg import (
    FONT,
    INK,
    LABEL_MIN_CELL,
    PALETTES,
    PENTOMINO_COLOURS,
    PLAIN,
    UNCOVERED,
    SvgDrawing,
    _document,
    _extent,
    _finish,
    _grid,
    _label_width,
    _loops,
    _loops_path,
    _num,
    _Pieces,
    _region_cells,
    _runs_path,
    _widths,
    boundary_loops,
    piece_colour,
    readable_cell,
)
from .tilings import tiling_svg, tilings_sheet_svg

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

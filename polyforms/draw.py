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
  of :mod:`polyforms.tiling`.
* Colours are stable per piece name (:func:`piece_colour`): the twelve
  pentominoes have a fixed palette, any other name a colour derived from a
  checksum of the name.

3D pictures (isometric packings and exploded views) live in
:mod:`polyforms.draw3d`; the functions here hand 3D input over to it.
"""

from __future__ import annotations

import colorsys
import math
import os
import zlib
from collections.abc import Iterable, Mapping, Sequence

import svgwrite

from ._atomic import atomic_output
from .errors import PolyformError
from .polyform import Polyform

__all__ = [
    "PENTOMINO_COLOURS",
    "SvgDrawing",
    "catalogue_svg",
    "piece_colour",
    "placements_from_record",
    "polyform_svg",
    "queens_svg",
    "region_svg",
    "tiling_svg",
    "tilings_sheet_svg",
]

Cell2 = tuple[int, int]
Placement = tuple[str, Sequence[Sequence[int]]]

# Golomb's twelve letters, each a colour that stays apart from its likely neighbours.
PENTOMINO_COLOURS: dict[str, str] = {
    "F": "#e15759",
    "I": "#4e79a7",
    "L": "#f28e2b",
    "N": "#76b7b2",
    "P": "#59a14f",
    "T": "#edc948",
    "U": "#b07aa1",
    "V": "#ff9da7",
    "W": "#9c755f",
    "X": "#bab0ac",
    "Y": "#a0cbe8",
    "Z": "#b5cf6b",
}

INK = "#222222"  # outlines and text
PAPER = "#ffffff"  # background
EMPTY = "#ececec"  # region cells that no piece covers
PLAIN = "#9ecae1"  # a polyform drawn on its own, without a name
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


class SvgDrawing(str):
    """An SVG document as text; notebooks display it as a picture.

    It is an ordinary ``str`` (write it, compare it, parse it), with
    ``_repr_svg_`` for Jupyter and :meth:`save` for an atomic write.
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the document to ``path`` (``"-"``: stdout) atomically."""
        with atomic_output(path) as out:
            out.write(self)


# -- colours -------------------------------------------------------------------------


def piece_colour(name: str) -> str:
    """The fill colour of a piece, the same in every drawing.

    The twelve pentomino letters have the fixed palette
    :data:`PENTOMINO_COLOURS`; a lower-case pentomino letter (the mirror
    image in one-sided sets) gets a lighter tint of its upper-case colour;
    any other name gets a colour from the CRC-32 of its text.

    Examples
    --------
    >>> piece_colour("F"), piece_colour("f")
    ('#e15759', '#eb8f90')
    >>> piece_colour("H07") == piece_colour("H07") != piece_colour("H08")
    True
    """
    if name in PENTOMINO_COLOURS:
        return PENTOMINO_COLOURS[name]
    if name.upper() in PENTOMINO_COLOURS and len(name) == 1:
        return _mix(PENTOMINO_COLOURS[name.upper()], PAPER, 0.35)
    code = zlib.crc32(name.encode("utf-8"))
    # Spread hues by the golden angle; vary lightness and saturation a little so
    # that names with nearby hues still differ.
    hue = (code % 1000) * 0.618034 % 1.0
    lightness = (0.62, 0.7, 0.78)[(code >> 10) % 3]
    saturation = (0.45, 0.6)[(code >> 12) % 2]
    red, green, blue = colorsys.hls_to_rgb(hue, lightness, saturation)
    return _hex(red * 255, green * 255, blue * 255)


def _hex(red: float, green: float, blue: float) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, round(c))) for c in (red, green, blue)))


def _rgb(colour: str) -> tuple[int, int, int]:
    text = colour.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6:
        raise PolyformError(f"colour {colour!r} is not of the form #rrggbb")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _mix(colour: str, other: str, amount: float) -> str:
    """``colour`` moved ``amount`` (0 to 1) of the way towards ``other``."""
    a, b = _rgb(colour), _rgb(other)
    return _hex(*(x + (y - x) * amount for x, y in zip(a, b)))


def _colour_for(name: str, colours: Mapping[str, str] | None) -> str:
    if colours and name in colours:
        return colours[name]
    return piece_colour(name)


# -- numbers and documents -------------------------------------------------------------


def _num(value: float) -> str:
    """A coordinate as short fixed text: at most two decimals, no ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _document(width: float, height: float, title: str | None = None) -> svgwrite.Drawing:
    width, height = math.ceil(width), math.ceil(height)
    drawing = svgwrite.Drawing(size=(str(width), str(height)), profile="full", debug=False)
    drawing.viewbox(0, 0, width, height)
    if title:
        drawing.set_desc(title=title)
    drawing.add(drawing.rect(insert=(0, 0), size=(str(width), str(height)), fill=PAPER))
    return drawing


def _finish(drawing: svgwrite.Drawing) -> SvgDrawing:
    return SvgDrawing(drawing.tostring())


def _widths(cell: float) -> tuple[str, str]:
    """Stroke widths (thick outline, thin inner line) for a cell size."""
    return _num(max(1.0, cell / 9)), _num(max(0.4, cell / 28))


# -- outlines --------------------------------------------------------------------------

# Directions on the page (y down) in clockwise order: a right turn is the next one.
_CLOCKWISE = ((1, 0), (0, 1), (-1, 0), (0, -1))


def boundary_loops(cells: Iterable[Cell2]) -> list[list[Cell2]]:
    """The boundary of a set of square cells as closed loops of corner points.

    Each unit edge between a cell of the set and a cell outside it is walked
    once, with the set on its right-hand side on the page (clockwise round the
    outside, anticlockwise round a hole). At a corner where two cells meet
    only diagonally the walk turns right, so every loop is simple. Corners
    where a loop goes straight on are dropped.

    Returns
    -------
    list of list of (x, y)
        Loops in a fixed order (by their least corner), each starting at its
        least corner.

    Examples
    --------
    >>> boundary_loops([(0, 0), (1, 0)])
    [[(0, 0), (2, 0), (2, 1), (0, 1)]]
    >>> len(boundary_loops([(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)]))
    2
    """
    filled = set(cells)
    outgoing: dict[Cell2, list[Cell2]] = {}

    def edge(start: Cell2, end: Cell2) -> None:
        outgoing.setdefault(start, []).append(end)

    for x, y in filled:
        if (x, y - 1) not in filled:
            edge((x, y), (x + 1, y))
        if (x + 1, y) not in filled:
            edge((x + 1, y), (x + 1, y + 1))
        if (x, y + 1) not in filled:
            edge((x + 1, y + 1), (x, y + 1))
        if (x - 1, y) not in filled:
            edge((x, y + 1), (x, y))
    loops = []
    while outgoing:
        start = min(outgoing)
        loop = [start]
        here, heading = start, None
        while True:
            ends = outgoing[here]
            if heading is None or len(ends) == 1:
                end = min(ends)
            else:  # a pinch corner: prefer right, straight, left
                turn = _CLOCKWISE.index(heading)
                order = [_CLOCKWISE[(turn + k) % 4] for k in (1, 0, 3)]
                end = min(ends, key=lambda e: order.index((e[0] - here[0], e[1] - here[1])))
            ends.remove(end)
            if not ends:
                del outgoing[here]
            heading = (end[0] - here[0], end[1] - here[1])
            if end == start:
                break
            loop.append(end)
            here = end
        loops.append(_corners(loop))
    return loops


def _corners(loop: list[Cell2]) -> list[Cell2]:
    """Drop the points of a closed axis-parallel loop where it goes straight on."""
    kept = []
    count = len(loop)
    for i, (x, y) in enumerate(loop):
        (px, py), (nx, ny) = loop[i - 1], loop[(i + 1) % count]
        if not ((px == x == nx) or (py == y == ny)):
            kept.append((x, y))
    return kept


def _loops_path(loops: list[list[Cell2]], cell: float, dx: float = 0, dy: float = 0) -> str:
    """Path data of closed axis-parallel loops, scaled by ``cell`` and shifted."""
    parts = []
    for loop in loops:
        x0, y0 = loop[0]
        parts.append(f"M{_num(dx + x0 * cell)} {_num(dy + y0 * cell)}")
        previous = loop[0]
        for x, y in loop[1:]:
            if y == previous[1]:
                parts.append(f"H{_num(dx + x * cell)}")
            else:
                parts.append(f"V{_num(dy + y * cell)}")
            previous = (x, y)
        parts.append("Z")
    return "".join(parts)


def _inner_path(cells: Iterable[Cell2], cell: float, dx: float = 0, dy: float = 0) -> str:
    """Path data of the unit edges between two cells of the set, merged into runs."""
    filled = set(cells)
    vertical: dict[int, list[int]] = {}  # x of the line -> y of each unit edge on it
    horizontal: dict[int, list[int]] = {}
    for x, y in filled:
        if (x + 1, y) in filled:
            vertical.setdefault(x + 1, []).append(y)
        if (x, y + 1) in filled:
            horizontal.setdefault(y + 1, []).append(x)
    parts = []
    for x in sorted(vertical):
        for low, high in _runs(vertical[x]):
            parts.append(
                f"M{_num(dx + x * cell)} {_num(dy + low * cell)}V{_num(dy + high * cell)}"
            )
    for y in sorted(horizontal):
        for low, high in _runs(horizontal[y]):
            parts.append(
                f"M{_num(dx + low * cell)} {_num(dy + y * cell)}H{_num(dx + high * cell)}"
            )
    return "".join(parts)


def _runs(values: list[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive unit steps: [0, 1, 2, 5] -> [(0, 3), (5, 6)]."""
    runs: list[tuple[int, int]] = []
    for value in sorted(values):
        if runs and runs[-1][1] == value:
            runs[-1] = (runs[-1][0], value + 1)
        else:
            runs.append((value, value + 1))
    return runs


class _Pieces:
    """The 2D pieces of one picture, drawn as two layers.

    First one ``<path class="piece">`` per piece: its area, holes cut out by the
    even-odd rule, stroked thick. Then a single path holding, for every piece,
    the thin lines between two of its cells. Pieces never overlap, so drawing
    all the thin lines last changes nothing but the size of the file: two
    elements per piece would cost a third more bytes on a sheet of thousands.
    The thin lines are half-transparent ink, so where they end on an outline
    they vanish into it.
    """

    def __init__(self, drawing: svgwrite.Drawing, cell: float, fill: str = PLAIN) -> None:
        self.drawing, self.cell = drawing, cell
        self.thick, self.thin = _widths(cell)
        self.layer = drawing.g(fill=fill, stroke=INK, stroke_width=self.thick,
                               stroke_linejoin="round", fill_rule="evenodd")
        self.joins: list[str] = []

    def add(self, cells: Sequence[Cell2], offset: tuple[float, float] = (0, 0),
            fill: str | None = None, name: str | None = None) -> None:
        attributes = {"class_": "piece"}
        if fill is not None:
            attributes["fill"] = fill
        if name is not None:
            attributes["data-piece"] = name
        if offset != (0, 0):
            attributes["transform"] = f"translate({_num(offset[0])},{_num(offset[1])})"
        outline = _loops_path(boundary_loops(cells), self.cell)
        self.layer.add(self.drawing.path(d=outline, **attributes))
        self.joins.append(_inner_path(cells, self.cell, *offset))

    def finish(self, parent) -> None:
        """Add both layers to ``parent`` (the drawing or a group)."""
        parent.add(self.layer)
        joins = "".join(self.joins)
        if joins:
            parent.add(self.drawing.path(d=joins, class_="joins", fill="none", stroke=INK,
                                         stroke_width=self.thin, stroke_opacity="0.45"))


def _cells_2d(cells: Iterable[Sequence[int]]) -> list[Cell2]:
    out = []
    for c in cells:
        if len(c) != 2:
            raise PolyformError(f"expected 2D cells (x, y), got {tuple(c)!r}")
        out.append((int(c[0]), int(c[1])))
    return out


def _dimension(cells: Iterable[Sequence[int]]) -> int:
    dims = {len(c) for c in cells}
    if len(dims) != 1 or not dims <= {2, 3}:
        raise PolyformError(f"cells must all be 2D or all 3D, got lengths {sorted(dims)}")
    return dims.pop()


# -- a polyform ----------------------------------------------------------------------


def polyform_svg(
    polyform: Polyform | Iterable[Sequence[int]],
    *,
    cell: float = 24,
    colour: str | None = None,
    name: str | None = None,
) -> SvgDrawing:
    """Draw one polyomino (flat, outlined) or polycube (isometric).

    Parameters
    ----------
    polyform : Polyform or iterable of cells
    cell : float
        Side of a cell in pixels.
    colour : str, optional
        Fill; default the colour of ``name`` if given, else a light blue.
    name : str, optional
        A piece name, used for the colour and recorded as ``data-piece``.

    Examples
    --------
    >>> svg = polyform_svg(Polyform.from_ascii("###\\n#.#\\n###"), cell=10)
    >>> svg.count('class="piece"'), 'fill-rule="evenodd"' in svg
    (1, True)
    """
    cells = polyform.cells if isinstance(polyform, Polyform) else tuple(polyform)
    fill = colour or (piece_colour(name) if name is not None else PLAIN)
    if _dimension(cells) == 3:
        from .draw3d import packing_svg

        return packing_svg([(name or "", cells)], cell=cell, colours={name or "": fill})
    cells = _cells_2d(cells)
    margin = cell / 2
    (min_x, min_y), (max_x, max_y) = _extent(cells)
    drawing = _document((max_x - min_x + 1) * cell + 2 * margin,
                        (max_y - min_y + 1) * cell + 2 * margin)
    layers = _Pieces(drawing, cell, fill)
    layers.add([(x - min_x, y - min_y) for x, y in cells], (margin, margin), name=name)
    layers.finish(drawing)
    return _finish(drawing)


def _extent(cells: Iterable[Cell2]) -> tuple[Cell2, Cell2]:
    xs, ys = zip(*cells)
    return (min(xs), min(ys)), (max(xs), max(ys))


# -- sheets --------------------------------------------------------------------------


def _grid(count: int, columns: int | None) -> tuple[int, int]:
    """Columns and rows of a sheet of ``count`` items; default about twice as wide as tall."""
    if columns is None:
        columns = min(30, max(1, math.ceil(math.sqrt(2 * count))))
    if columns < 1:
        raise PolyformError(f"columns must be at least 1, not {columns}")
    columns = max(1, min(columns, count))
    return columns, max(1, math.ceil(count / columns))


def _label_width(text: str, size: float) -> float:
    return 0.6 * size * len(text)  # a generous estimate for a sans-serif face


def _named_items(items) -> list[tuple[str | None, Polyform]]:
    if isinstance(items, Mapping):
        items = items.items()
    out = []
    for item in items:
        if isinstance(item, Polyform):
            out.append((None, item))
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Polyform):
            out.append((str(item[0]), item[1]))
        else:
            raise PolyformError(f"a catalogue item must be a Polyform or (name, Polyform), "
                                f"not {type(item).__name__}")
    return out


def catalogue_svg(
    items: Iterable[Polyform] | Iterable[tuple[str, Polyform]] | Mapping[str, Polyform],
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
        from .draw3d import iso_extent

        boxes = [iso_extent(p.cells, cell) for _, p in named]
    else:
        boxes = [(p.bounding_box[0] * cell, p.bounding_box[1] * cell) for _, p in named]
    texts = []
    for index, (name, polyform) in enumerate(named, start=1):
        words = [str(index)] + ([name] if name else [])
        if symmetry:
            words.append(str(polyform.symmetry))
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
    text_group = drawing.g(font_family=FONT, font_size=_num(font), text_anchor="middle",
                           fill=INK)
    for slot, ((name, polyform), (w, h), text) in enumerate(zip(named, boxes, texts)):
        left = margin + (slot % columns) * width
        top = margin + (slot // columns) * height
        ox, oy = left + (width - w) / 2, top + cell / 2 + (height - cell - label_room - h) / 2
        fill = piece_colour(name) if name else None
        if polyform.dim == 2:
            layers.add(polyform.cells, (round(ox), round(oy)), fill, name)
        else:
            cells_3d.append(((name or "", polyform.cells), fill or PLAIN, (ox, oy)))
        if text:
            text_group.add(drawing.text(text, insert=(_num(left + width / 2),
                                                      _num(top + height - label_room / 2))))
    if cells_3d:
        from .draw3d import add_iso

        for placement, fill, offset in cells_3d:
            add_iso(drawing, [placement], cell, {placement[0]: fill}, offset)
    else:
        layers.finish(drawing)
    drawing.add(text_group)
    return _finish(drawing)


# -- tilings -------------------------------------------------------------------------


def _placements(placements: Iterable[Placement]) -> list[tuple[str, tuple[tuple[int, ...], ...]]]:
    out = []
    for placement in placements:
        try:
            name, cells = placement
        except (TypeError, ValueError):
            raise PolyformError(
                f"a placement is a (piece name, cells) pair, not {placement!r}"
            ) from None
        cells = tuple(tuple(int(c) for c in cell) for cell in cells)
        if not cells:
            raise PolyformError(f"placement of piece {name!r} has no cells")
        out.append((str(name), cells))
    if not out:
        raise PolyformError("nothing to draw: no placements")
    return out


def _add_tiling(
    drawing: svgwrite.Drawing,
    placements: list[tuple[str, tuple[tuple[int, ...], ...]]],
    region: set[Cell2] | None,
    cell: float,
    colours: Mapping[str, str] | None,
    origin: Cell2,
    offset: tuple[float, float],
) -> None:
    """Draw one 2D tiling into ``drawing`` with its least corner ``origin`` at ``offset``."""
    ox, oy = offset
    mx, my = origin

    def shift(cells: Iterable[Sequence[int]]) -> list[Cell2]:
        return [(x - mx, y - my) for x, y in cells]

    tiling = drawing.g(class_="tiling", transform=f"translate({_num(ox)},{_num(oy)})")
    if region is not None:
        covered = {c for _, cells in placements for c in cells}
        empty = shift(sorted(region - covered))
        if empty:
            tiling.add(drawing.path(d=_loops_path(boundary_loops(empty), cell), fill=EMPTY,
                                    fill_rule="evenodd", class_="uncovered"))
    layers = _Pieces(drawing, cell)
    for name, cells in placements:
        layers.add(shift(cells), fill=_colour_for(name, colours), name=name)
    layers.finish(tiling)
    if region is not None:
        thick = _widths(cell)[0]
        tiling.add(drawing.path(d=_loops_path(boundary_loops(shift(region)), cell), fill="none",
                                stroke=INK, stroke_width=thick, stroke_linejoin="round",
                                class_="region"))
    drawing.add(tiling)


def _tiling_extent(placements, region) -> tuple[Cell2, Cell2]:
    cells = [c for _, cs in placements for c in cs] + list(region or ())
    return _extent(cells)


def tiling_svg(
    placements: Iterable[Placement],
    region_cells: Iterable[Sequence[int]] | None = None,
    *,
    cell: float = 20,
    colours: Mapping[str, str] | None = None,
) -> SvgDrawing:
    """Draw a tiling: one colour per piece name, thick lines between pieces.

    Parameters
    ----------
    placements : iterable of (piece name, cells)
        One entry per placed piece, cells as ``(x, y)`` (or ``(x, y, z)``:
        then the packing is drawn isometrically, see
        :func:`polyforms.draw3d.packing_svg`).
    region_cells : iterable of cells, optional
        The region tiled: its edge is drawn thick and any cell no piece
        covers is shaded grey. Holes (cells outside the region) stay blank.
    cell : float
        Side of a cell in pixels.
    colours : mapping name -> colour, optional
        Overrides :func:`piece_colour` for some names.

    Raises
    ------
    PolyformError
        A placement that is not a (name, cells) pair, or cells of mixed dimension.

    Examples
    --------
    >>> svg = tiling_svg([("I", [(0, 0), (1, 0)]), ("L", [(0, 1), (1, 1)])])
    >>> svg.count('class="piece"'), 'data-piece="L"' in svg
    (2, True)
    """
    placed = _placements(placements)
    region = None if region_cells is None else [tuple(c) for c in region_cells]
    if _dimension([c for _, cs in placed for c in cs] + (region or [])) == 3:
        from .draw3d import packing_svg

        return packing_svg(placed, cell=cell, colours=colours)
    region2 = None if region is None else set(_cells_2d(region))
    (min_x, min_y), (max_x, max_y) = _tiling_extent(placed, region2)
    margin = cell / 2
    drawing = _document((max_x - min_x + 1) * cell + 2 * margin,
                        (max_y - min_y + 1) * cell + 2 * margin)
    _add_tiling(drawing, placed, region2, cell, colours, (min_x, min_y), (margin, margin))
    return _finish(drawing)


def tilings_sheet_svg(
    solutions: Iterable[Iterable[Placement]],
    *,
    columns: int | None = None,
    region_cells: Iterable[Sequence[int]] | None = None,
    cell: float = 10,
    colours: Mapping[str, str] | None = None,
    labels: bool = True,
) -> SvgDrawing:
    """A page of several tilings (or packings) in a grid, all at one cell size.

    Parameters
    ----------
    solutions : iterable of placement lists
        Each as for :func:`tiling_svg`.
    columns : int, optional
        Tilings per row; default about twice as many columns as rows (at most 30).
    region_cells : iterable of cells, optional
        The region every solution tiles (drawn as in :func:`tiling_svg`).
    labels : bool
        Number the tilings from 1 underneath.

    Examples
    --------
    >>> one = [("I", [(0, 0), (1, 0)])]
    >>> two = [("I", [(0, 0), (0, 1)])]
    >>> sheet = tilings_sheet_svg([one, two, one])
    >>> sheet.count('class="tiling"'), sheet.count("<text")
    (3, 3)
    """
    placed = [_placements(s) for s in solutions]
    if not placed:
        raise PolyformError("nothing to draw: no solutions")
    region = None if region_cells is None else [tuple(c) for c in region_cells]
    dims = {_dimension([c for _, cs in p for c in cs] + (region or [])) for p in placed}
    if len(dims) != 1:
        raise PolyformError("a sheet holds solutions of one dimension")
    if dims == {3}:
        from .draw3d import packings_sheet

        return packings_sheet(placed, columns=columns, cell=cell, colours=colours, labels=labels)
    region2 = None if region is None else set(_cells_2d(region))
    extents = [_tiling_extent(p, region2) for p in placed]
    width = max(hx - lx + 1 for (lx, _), (hx, _) in extents) * cell + cell
    font = max(8.0, min(12.0, cell))
    label_room = round(font * 1.6) if labels else 0
    height = max(hy - ly + 1 for (_, ly), (_, hy) in extents) * cell + cell + label_room
    columns, rows = _grid(len(placed), columns)
    margin = cell / 2
    drawing = _document(columns * width + 2 * margin, rows * height + 2 * margin,
                        f"{len(placed)} tilings")
    text_group = drawing.g(font_family=FONT, font_size=_num(font), text_anchor="middle",
                           fill=INK)
    for slot, (solution, (low, high)) in enumerate(zip(placed, extents)):
        left = margin + (slot % columns) * width
        top = margin + (slot // columns) * height
        w, h = (high[0] - low[0] + 1) * cell, (high[1] - low[1] + 1) * cell
        offset = (left + (width - w) / 2, top + cell / 2 + (height - cell - label_room - h) / 2)
        _add_tiling(drawing, solution, region2, cell, colours, low, offset)
        if labels:
            text_group.add(drawing.text(str(slot + 1), insert=(
                _num(left + width / 2), _num(top + height - label_room / 2))))
    drawing.add(text_group)
    return _finish(drawing)


def region_svg(cells: Iterable[Sequence[int]], *, cell: float = 20) -> SvgDrawing:
    """Draw a region to be tiled: grey cells on a thin grid, thick edge, blank holes.

    For ``Region._repr_svg_``. A 3D region is drawn as grey isometric cubes.

    Examples
    --------
    >>> svg = region_svg([(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)])
    >>> svg.count('class="region"')
    1
    """
    cells = [tuple(c) for c in cells]
    if not cells:
        raise PolyformError("nothing to draw: the region is empty")
    if _dimension(cells) == 3:
        from .draw3d import packing_svg

        return packing_svg([("", cells)], cell=cell, colours={"": EMPTY})
    region = set(_cells_2d(cells))
    (min_x, min_y), (max_x, max_y) = _extent(region)
    margin = cell / 2
    drawing = _document((max_x - min_x + 1) * cell + 2 * margin,
                        (max_y - min_y + 1) * cell + 2 * margin)
    shifted = [(x - min_x, y - min_y) for x, y in sorted(region)]
    thick, thin = _widths(cell)
    group = drawing.g(class_="region", transform=f"translate({_num(margin)},{_num(margin)})",
                      stroke=INK, stroke_linejoin="round")
    group.add(drawing.path(d=_loops_path(boundary_loops(shifted), cell), fill=EMPTY,
                           fill_rule="evenodd", stroke="none"))
    inner = _inner_path(shifted, cell)
    if inner:
        group.add(drawing.path(d=inner, fill="none", stroke_width=thin, stroke_opacity="0.3"))
    group.add(drawing.path(d=_loops_path(boundary_loops(shifted), cell), fill="none",
                           stroke_width=thick))
    drawing.add(group)
    return _finish(drawing)


def placements_from_record(record: Mapping) -> list[tuple[str, tuple[tuple[int, ...], ...]]]:
    """Read the placements of one solution record (a parsed JSON object).

    Accepted shapes of ``record["placements"]``: a list of objects
    ``{"piece": name, "cells": [[x, y], ...]}`` (``"name"`` also accepted),
    a list of ``[name, cells]`` pairs, or an object ``{name: cells}``.

    Raises
    ------
    PolyformError
        The record has no ``placements`` or they have another shape.

    Examples
    --------
    >>> placements_from_record({"placements": [{"piece": "I", "cells": [[0, 0], [1, 0]]}]})
    [('I', ((0, 0), (1, 0)))]
    >>> placements_from_record({"placements": {"O": [[0, 0]]}})
    [('O', ((0, 0),))]
    """
    raw = record.get("placements") if isinstance(record, Mapping) else None
    if raw is None:
        raise PolyformError("not a solution record: no 'placements' key")
    if isinstance(raw, Mapping):
        pairs = list(raw.items())
    else:
        pairs = []
        for item in raw:
            if isinstance(item, Mapping):
                name = item.get("piece", item.get("name"))
                if name is None or "cells" not in item:
                    raise PolyformError("a placement object needs 'piece' and 'cells'")
                pairs.append((name, item["cells"]))
            else:
                pairs.append(item)
    return _placements(pairs)


# -- N queens ------------------------------------------------------------------------

# A crown in a unit square: five points over a band.
_CROWN = ((0.18, 0.78), (0.14, 0.34), (0.32, 0.56), (0.5, 0.2), (0.68, 0.56), (0.86, 0.34),
          (0.82, 0.78))


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
        board.add(drawing.path(d=_loops_path(boundary_loops(dark), cell), fill="#b58863",
                               class_="dark"))
    board.add(drawing.rect(insert=(0, 0), size=(_num(n * cell), _num(n * cell)), fill="none",
                           stroke=INK, stroke_width=_widths(cell)[0]))
    crowns = drawing.g(fill=INK, stroke=PAPER, stroke_width=_num(max(0.5, cell / 40)),
                       stroke_linejoin="round")
    for r, c in placed:
        corners = [f"{_num((c + u) * cell)} {_num((r + v) * cell)}" for u, v in _CROWN]
        crowns.add(drawing.path(d="M" + "L".join(corners) + "Z", class_="queen"))
    board.add(crowns)
    drawing.add(board)
    return _finish(drawing)

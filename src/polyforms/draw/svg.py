"""Shared parts of the SVG pictures: documents, numbers, piece letters, cell outlines.

Private to the modules of :mod:`polyforms.draw`; :mod:`polyforms.draw.plane` and
:mod:`polyforms.draw.isometric` name the public ones (:class:`SvgDrawing`,
:func:`piece_colour`, :data:`PENTOMINO_COLOURS`, :func:`boundary_loops`). The
colours live in :mod:`polyforms.draw.colours` and the boundary loops in
:mod:`polyforms.draw.outlines`; this module names them too.

Outlines are built from the polygons the lattice gives its cells
(:meth:`polyforms.lattice.Lattice.cell_edges`, in bulk
:meth:`polyforms.lattice.Lattice.sides`): a side between a cell of a set and a
cell outside it is on the set's boundary, a side between two cells of the set
is a thin inner line. Corners are the lattice's exact integer vertices,
placed on the page by :meth:`polyforms.lattice.Lattice.to_page`.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from .._atomic import atomic_output
from .._textio import shorten
from ..errors import PolyformError
from ..lattice import SQUARE, Lattice, Line, Vertex

# "X as X": colours that isometric.py, mesh.py and the tests take from here.
from .colours import COLOUR_BLIND_COLOURS as COLOUR_BLIND_COLOURS
from .colours import INK, PALETTES, PAPER, PENTOMINO_COLOURS, _text_colour, piece_colour
from .colours import PLAIN as PLAIN
from .colours import UNCOVERED as UNCOVERED
from .colours import Colours as Colours
from .colours import _colour_for as _colour_for
from .colours import _luminance as _luminance
from .colours import _mix as _mix
from .colours import _rgb as _rgb
from .outlines import Cell2, _loops, boundary_loops
from .size import DrawingSize, whole_cell

if TYPE_CHECKING:  # svgwrite takes a tenth of a second to import: only when drawing
    import svgwrite

__all__ = [
    "PALETTES",
    "PENTOMINO_COLOURS",
    "SvgDrawing",
    "boundary_loops",
    "piece_colour",
    "readable_cell",
]

PlacementLike = tuple[str, Sequence[Sequence[int]]]
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

#: Piece letters are drawn by default only when a cell is at least this many
#: pixels: below it a letter is too small to read and only clutters the picture.
LABEL_MIN_CELL = 14


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


# -- piece letters ---------------------------------------------------------------------


def _want_labels(labels: bool | None, cell: float) -> bool:
    """Letters on when asked, or by default when a cell is large enough to hold one."""
    return cell >= LABEL_MIN_CELL if labels is None else bool(labels)


def _label_size(name: str, cell: float, lattice: Lattice = SQUARE) -> float:
    """Font size of a piece's name in a cell: about half the cell, smaller for long names.

    ``cell`` is a square's side; on another lattice it is scaled by how wide
    the cell is across its centre (:func:`_label_room`), where the text runs.
    """
    if lattice is not SQUARE:
        cell *= _label_room(lattice)
    return min(0.55 * cell, 1.5 * cell / max(1, len(name)))


def _label_room(lattice: Lattice) -> float:
    """The width of a plane cell along the horizontal line through its centre, at most 1.

    A square's is 1, a hexagon's more (taken as 1: a letter of a square's
    size reads well), a triangle's two thirds of its side. Every cell of the
    lattices drawn has the same width there.
    """
    cell = lattice.origin
    cx, cy = lattice.cell_centre(cell)
    corners = [lattice.to_page(vertex) for vertex in lattice.cell_polygon(cell)]
    crossings = []
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]):
        if (y0 - cy) * (y1 - cy) < 0:  # the side crosses the line
            crossings.append(x0 + (x1 - x0) * (cy - y0) / (y1 - y0))
    return min(1.0, max(crossings) - min(crossings))


def _label_spot(cells: Sequence[Cell2], lattice: Lattice = SQUARE) -> Cell2:
    """The cell of a 2D piece where its letter goes.

    The cell deepest inside the piece (most steps from a cell outside it), so
    the letter sits in the piece's bulk, not on an arm; among those the one
    nearest the piece's centre of mass, then the least. Distances are measured
    between the cells' anchors (:meth:`polyforms.lattice.Lattice.cell_anchor`;
    for squares, their integer corners).
    """
    filled = set(cells)
    around = {c: tuple(lattice.neighbours(c)) for c in filled}
    depth: dict[Cell2, int] = {}
    frontier = [c for c in filled if any(n not in filled for n in around[c])]
    for c in frontier:
        depth[c] = 1
    while frontier:  # breadth first from the boundary cells inwards
        deeper = []
        for c in frontier:
            for n in around[c]:
                if n in filled and n not in depth:
                    depth[n] = depth[c] + 1
                    deeper.append(n)
        frontier = deeper
    anchors = {c: lattice.cell_anchor(c) for c in filled}
    cx = sum(x for x, _ in anchors.values()) / len(filled)
    cy = sum(y for _, y in anchors.values()) / len(filled)
    # Anchors off the integers (a triangle's centre) make equal distances differ
    # in their last bits: rounded, a tie goes to the least cell, as on squares
    # (whose anchors are whole: their distances are kept as they are).
    tidy = float if lattice is SQUARE else functools.partial(round, ndigits=9)

    def nearness(c: Cell2) -> tuple:
        x, y = anchors[c]
        return -depth[c], tidy((x - cx) ** 2 + (y - cy) ** 2), c

    return min(filled, key=nearness)


def _label_text(
    drawing: svgwrite.Drawing,
    name: str,
    centre: tuple[float, float],
    size: float,
    fill: str,
    alone: bool = False,
):
    """A piece letter centred on ``centre``, in ink or white, whichever shows on ``fill``.

    ``alone``: the text carries its own font and no stroke (it sits among
    stroked faces); otherwise it inherits them from a :func:`_labels_group`.
    """
    style = {"font_family": FONT, "text_anchor": "middle", "stroke": "none"} if alone else {}
    # A baseline offset rather than dominant-baseline, which some renderers ignore.
    return drawing.text(
        name,
        insert=(_num(centre[0]), _num(centre[1] + size * 0.36)),
        font_size=_num(size),
        fill=_text_colour(fill),
        class_="label",
        **style,
        **{"data-piece": name},
    )


def _labels_group(drawing: svgwrite.Drawing):
    return drawing.g(font_family=FONT, text_anchor="middle", class_="labels")


def readable_cell(width: int, height: int) -> float:
    """The default cell size of a lone tiling: about 400 pixels across, 16 to 32 per cell.

    Examples
    --------
    >>> readable_cell(10, 6), readable_cell(40, 40), readable_cell(2, 2)
    (32, 16, 32)
    """
    return max(16, min(32, round(400 / max(width, height, 1))))


# -- numbers and documents -------------------------------------------------------------


def _num(value: float) -> str:
    """A coordinate as short fixed text: at most two decimals, no ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _document(width: float, height: float, title: str | None = None) -> svgwrite.Drawing:
    import svgwrite

    width, height = math.ceil(width), math.ceil(height)
    drawing = svgwrite.Drawing(size=(str(width), str(height)), profile="full", debug=False)
    drawing.viewbox(0, 0, width, height)
    if title:
        drawing.set_desc(title=title)
    drawing.add(drawing.rect(insert=(0, 0), size=(str(width), str(height)), fill=PAPER))
    return drawing


# The characters XML 1.0 cannot hold at all, not even as a character reference:
# C0 controls other than tab and line ends, lone surrogates, U+FFFE and U+FFFF.
# A piece name from Python may hold them (names read from files are checked,
# polyforms._textio.piece_name); one in the document and no XML parser reads it.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


# A numeric character reference; the serialiser writes a lone surrogate as one
# (``&#55296;``), which names a character XML cannot hold either.
_REFERENCE = re.compile(r"&#(x[0-9a-fA-F]+|[0-9]+);")


def _escape_code(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _visible(match: re.Match[str]) -> str:
    """A character XML cannot hold, written as its escape (``\\x01``, ``\\ud800``)."""
    return _escape_code(ord(match.group()))


def _visible_reference(match: re.Match[str]) -> str:
    """A reference to a character XML cannot hold, written as its escape; others kept."""
    digits = match.group(1)
    code = int(digits[1:], 16) if digits[0] == "x" else int(digits)
    # Only the serialiser writes "&#": an "&" of the text itself becomes "&amp;".
    return _escape_code(code) if _NOT_XML.match(chr(code)) else match.group()


def _finish(drawing: svgwrite.Drawing) -> SvgDrawing:
    """The document as text; characters XML cannot hold are written as escapes."""
    text = drawing.tostring()
    if _NOT_XML.search(text):
        text = _NOT_XML.sub(_visible, text)
    if "&#" in text:
        text = _REFERENCE.sub(_visible_reference, text)
    return SvgDrawing(text)


def _widths(cell: float) -> tuple[str, str]:
    """Stroke widths (thick outline, thin inner line) for a cell size."""
    return _num(max(1.0, cell / 9)), _num(max(0.4, cell / 28))


def _loops_path(
    loops: list[list[Vertex]],
    cell: float,
    dx: float = 0,
    dy: float = 0,
    lattice: Lattice = SQUARE,
) -> str:
    """Path data of closed loops of vertices, placed on the page, scaled by ``cell`` and shifted."""
    to_page = lattice.to_page
    parts = []
    for loop in loops:
        points = [to_page(vertex) for vertex in loop]
        x, y = points[0]
        parts.append(f"M{_num(dx + x * cell)} {_num(dy + y * cell)}")
        for (px, py), (x, y) in zip(points, points[1:]):
            if y == py:
                parts.append(f"H{_num(dx + x * cell)}")
            elif x == px:
                parts.append(f"V{_num(dy + y * cell)}")
            else:
                parts.append(f"L{_num(dx + x * cell)} {_num(dy + y * cell)}")
        parts.append("Z")
    return "".join(parts)


def _inner_path(
    cells: Iterable[Cell2], cell: float, dx: float = 0, dy: float = 0, lattice: Lattice = SQUARE
) -> str:
    """Path data of the sides between two cells of the set, merged into straight runs."""
    return _runs_path(lattice.sides(cells)[1], cell, dx, dy, lattice)


def _runs_path(
    inner: list[tuple[Line, Vertex, Vertex]], cell: float, dx: float, dy: float, lattice: Lattice
) -> str:
    """Path data of inner sides (:meth:`polyforms.lattice.Lattice.sides`) merged into runs.

    Line by line in the order of the lines, each run from its lesser end: a
    run goes on while the next side of its line starts where it ends.
    """
    lines: dict[Line, list[tuple[Vertex, Vertex]]] = {}
    for line, start, end in inner:
        lines.setdefault(line, []).append((start, end))
    runs = []
    for line in sorted(lines):
        sides = sorted(lines[line])
        low, high = sides[0]
        for start, end in sides[1:]:
            if start != high:
                runs.append((low, high))
                low = start
            high = end
        runs.append((low, high))
    parts = []
    for low, high in runs:
        (x0, y0), (x1, y1) = lattice.to_page(low), lattice.to_page(high)
        parts.append(f"M{_num(dx + x0 * cell)} {_num(dy + y0 * cell)}")
        if x0 == x1:
            parts.append(f"V{_num(dy + y1 * cell)}")
        elif y0 == y1:
            parts.append(f"H{_num(dx + x1 * cell)}")
        else:
            parts.append(f"L{_num(dx + x1 * cell)} {_num(dy + y1 * cell)}")
    return "".join(parts)


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

    def __init__(
        self, drawing: svgwrite.Drawing, cell: float, fill: str = PLAIN, lattice: Lattice = SQUARE
    ) -> None:
        self.drawing, self.cell, self.lattice = drawing, cell, lattice
        self.thick, self.thin = _widths(cell)
        self.layer = drawing.g(
            fill=fill,
            stroke=INK,
            stroke_width=self.thick,
            stroke_linejoin="round",
            fill_rule="evenodd",
        )
        self.joins: list[str] = []

    def add(
        self,
        cells: Sequence[Cell2],
        offset: tuple[float, float] = (0, 0),
        fill: str | None = None,
        name: str | None = None,
    ) -> None:
        attributes = {"class_": "piece"}
        if fill is not None:
            attributes["fill"] = fill
        if name is not None:
            attributes["data-piece"] = name
        if offset != (0, 0):
            attributes["transform"] = f"translate({_num(offset[0])},{_num(offset[1])})"
        outer, inner = self.lattice.sides(cells)
        outline = _loops_path(_loops(outer, self.lattice), self.cell, lattice=self.lattice)
        self.layer.add(self.drawing.path(d=outline, **attributes))
        self.joins.append(_runs_path(inner, self.cell, *offset, self.lattice))

    def finish(self, parent) -> None:
        """Add both layers to ``parent`` (the drawing or a group)."""
        parent.add(self.layer)
        joins = "".join(self.joins)
        if joins:
            parent.add(
                self.drawing.path(
                    d=joins,
                    class_="joins",
                    fill="none",
                    stroke=INK,
                    stroke_width=self.thin,
                    stroke_opacity="0.45",
                )
            )


def _cells_2d(cells: Iterable[Sequence[int]]) -> list[Cell2]:
    out = []
    for c in cells:
        if len(c) != 2:
            raise PolyformError(f"expected 2D cells (x, y), got {tuple(c)!r}")
        out.append(whole_cell(c))
    return out


def _dimension(cells: Iterable[Sequence[int]]) -> int:
    dims = {len(c) for c in cells}
    if len(dims) != 1 or not dims <= {2, 3}:
        raise PolyformError(f"cells must all be 2D or all 3D, got lengths {sorted(dims)}")
    return dims.pop()


def _extent(cells: Iterable[Sequence[int]]) -> tuple[Cell2, Cell2]:
    """The least and greatest ``x`` and ``y`` of plane cells (their place, in cells)."""
    xs, ys = zip(*((c[0], c[1]) for c in cells))
    return (min(xs), min(ys)), (max(xs), max(ys))


def _grid(count: int, columns: int | None) -> tuple[int, int]:
    """Columns and rows of a sheet of ``count`` items; default about twice as wide as tall."""
    if columns is None:
        columns = min(30, max(1, math.ceil(math.sqrt(2 * count))))
    if columns < 1:
        raise PolyformError(f"columns must be at least 1, not {columns}")
    columns = max(1, min(columns, count))
    return columns, max(1, math.ceil(count / columns))


def _numbered_sheet(
    sizes: Sequence[tuple[float, float]],
    place: Callable[[svgwrite.Drawing, int, float, float], None],
    *,
    columns: int | None,
    cell: float,
    label_room: float,
    font: float,
    title: str,
) -> SvgDrawing:
    """A page of items in a grid, each centred in its slot and numbered from 1 under it.

    ``sizes`` gives each item's drawn width and height; ``place(drawing, k, x, y)``
    draws item ``k`` with its top-left corner at ``(x, y)``. Slots are as large
    as the largest item plus one cell, plus ``label_room`` for the number (no
    numbers when it is 0).
    """
    width = max(w for w, _ in sizes) + cell
    height = max(h for _, h in sizes) + cell + label_room
    columns, rows = _grid(len(sizes), columns)
    margin = cell / 2
    drawing = _document(columns * width + 2 * margin, rows * height + 2 * margin, title)
    text_group = drawing.g(font_family=FONT, font_size=_num(font), text_anchor="middle", fill=INK)
    for slot, (w, h) in enumerate(sizes):
        left = margin + (slot % columns) * width
        top = margin + (slot // columns) * height
        place(drawing, slot, left + (width - w) / 2,
              top + cell / 2 + (height - cell - label_room - h) / 2)  # fmt: skip
        if label_room:
            text_group.add(
                drawing.text(
                    str(slot + 1),
                    insert=(_num(left + width / 2), _num(top + height - label_room / 2)),
                )
            )
    drawing.add(text_group)
    return _finish(drawing)


def _label_width(text: str, size: float) -> float:
    return 0.6 * size * len(text)  # a generous estimate for a sans-serif face


def _placements(
    placements: Iterable[PlacementLike], size: DrawingSize | None = None
) -> list[tuple[str, tuple[tuple[int, ...], ...]]]:
    """Placements as (name, cells) pairs; objects with ``.piece`` and ``.cells`` also do.

    Each is counted in ``size`` (default: a size of its own, not forced) as it is read.
    """
    if size is None:
        size = DrawingSize()
    out = []
    for placement in placements:
        try:
            if hasattr(placement, "piece") and hasattr(placement, "cells"):
                name, cells = placement.piece, placement.cells
            else:
                name, cells = placement
        except (TypeError, ValueError):
            raise PolyformError(
                f"a placement is a (piece name, cells) pair, not {shorten(repr(placement))}"
            ) from None
        cells = tuple(map(whole_cell, cells))
        if not cells:
            raise PolyformError(f"placement of piece {shorten(repr(name))} has no cells")
        size.add(1, len(cells))
        out.append((str(name), cells))
    if not out:
        raise PolyformError("nothing to draw: no placements")
    return out


def _region_cells(region, size: DrawingSize | None = None) -> list[tuple[int, ...]] | None:
    """The cells of a region given as cells or as an object with ``.cells``, counted in
    ``size`` (default: a size of their own)."""
    if region is None:
        return None
    cells = [tuple(c) for c in getattr(region, "cells", region)]
    (DrawingSize() if size is None else size).add(0, len(cells))
    return cells

"""Isometric SVG pictures of polycubes and packed boxes, whole or layer by layer.

Projection
----------
A point ``(x, y, z)`` goes to ``((x - y) cos 30°, (x + y) / 2 - z)`` times
the cube edge on the page: ``x`` runs down to the right, ``y`` down to the
left, ``z`` up. Seen from above, a layer therefore looks like its ASCII
picture (``x`` along a line, ``y`` down the lines) turned by 45 degrees.

The viewer looks from the ``+x, +y, +z`` side, so only faces facing ``+x``,
``+y`` and ``+z`` can be seen, and only where the neighbouring cell in that
direction is empty; a cube's faces are the cubic lattice's
(:meth:`polyforms.lattice.CubicLattice.cell_faces`). Cubes are painted far to
near, in increasing ``x + y + z`` (painter's order): two unit cubes of the
lattice with the same sum never overlap on the page, and of two overlapping
ones the larger sum is nearer.

Each visible face is one ``<path class="face">`` filled with its piece's
colour, shaded by direction (top lighter, left a little darker, right darker), with a
thin line round it; its edges that are not shared with a face of the same
piece in the same plane (a piece boundary, a fold, the silhouette) are drawn
again thick, right after the face, so a nearer face always repaints the full
width of a shared thick edge.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..errors import PolyformError
from ..lattice import CUBE
from .size import DrawingSize, whole_cell
from .svg import (
    FONT,
    INK,
    PAPER,
    Colours,
    SvgDrawing,
    _colour_for,
    _document,
    _finish,
    _grid,
    _label_size,
    _label_text,
    _label_width,
    _mix,
    _num,
    _numbered_sheet,
    _placements,
    _want_labels,
    _widths,
)

if TYPE_CHECKING:  # svgwrite takes a tenth of a second to import: only when drawing
    import svgwrite

__all__ = ["exploded_svg", "iso_extent", "packing_svg"]

Cell3 = tuple[int, int, int]
_COS30 = math.sqrt(3) / 2
_AXES = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
# Shade of a face by the axis it faces: +x (right on the page), +y (left), +z (top).
_SHADES = ((0.3, INK), (0.12, INK), (0.12, PAPER))


def _project(point: Sequence[float], edge: float) -> tuple[float, float]:
    x, y, z = point
    return (x - y) * _COS30 * edge, ((x + y) / 2 - z) * edge


def _bounds(cells: Iterable[Cell3], edge: float) -> tuple[float, float, float, float]:
    """Least and greatest page coordinates of the cubes' corners."""
    xs, ys = [], []
    for x, y, z in cells:
        # The silhouette of a cube is a hexagon: these six corners bound it.
        for corner in (
            (x + 1, y, z),
            (x, y + 1, z),
            (x, y, z + 1),
            (x + 1, y, z + 1),
            (x, y + 1, z + 1),
            (x + 1, y + 1, z),
        ):
            px, py = _project(corner, edge)
            xs.append(px)
            ys.append(py)
    return min(xs), min(ys), max(xs), max(ys)


def iso_extent(cells: Iterable[Sequence[int]], edge: float) -> tuple[float, float]:
    """Width and height on the page of the isometric picture of ``cells``.

    Examples
    --------
    >>> [round(v, 2) for v in iso_extent([(0, 0, 0)], 10)]
    [17.32, 20.0]
    """
    low_x, low_y, high_x, high_y = _bounds(_cells_3d(cells), edge)
    return high_x - low_x, high_y - low_y


def _cells_3d(cells: Iterable[Sequence[int]]) -> list[Cell3]:
    out = []
    for c in cells:
        if len(c) != 3:
            raise PolyformError(f"expected 3D cells (x, y, z), got {tuple(c)!r}")
        out.append(whole_cell(c))
    return out


def _step(cell: Sequence[int], axis: int, sign: int) -> Cell3:
    moved = list(cell)
    moved[axis] += sign
    return tuple(moved)  # type: ignore[return-value]


def _face_edges(cube: Cell3, corners: Sequence[Cell3]) -> list[tuple[Cell3, Cell3, Cell3]]:
    """The four edges of a face of ``cube`` in order round it: ``(start, end, cube beside)``.

    The cube beside is the neighbour of ``cube`` across that edge in the
    face's plane: an edge's midpoint lies half a cell from the face's centre,
    towards it (twice both points are whole numbers).
    """
    x, y, z = cube
    a, b, c, d = corners
    # Twice the centre: half the sum of the four corners.
    mx, my, mz = (
        (a[0] + b[0] + c[0] + d[0]) // 2,
        (a[1] + b[1] + c[1] + d[1]) // 2,
        (a[2] + b[2] + c[2] + d[2]) // 2,
    )
    return [
        (start, end, (x + start[0] + end[0] - mx, y + start[1] + end[1] - my,
                      z + start[2] + end[2] - mz))
        for start, end in ((a, b), (b, c), (c, d), (d, a))
    ]  # fmt: skip


def _owners(placements: Sequence[tuple[str, Sequence[Sequence[int]]]]) -> dict[Cell3, int]:
    """The index of the placement holding each cube; PolyformError if two hold one."""
    owner: dict[Cell3, int] = {}
    for index, (_, cells) in enumerate(placements):
        for cube in _cells_3d(cells):
            if cube in owner:
                raise PolyformError(f"cell {cube} is covered by two pieces")
            owner[cube] = index
    return owner


def _labelled_faces(
    painted: list[Cell3], owner: dict[Cell3, int], placements: Sequence[tuple[str, object]]
) -> dict[tuple[Cell3, int], int]:
    """The face that carries each named piece's letter, ``(cube, axis) -> piece``.

    Each named piece's last visible face in painter's order (a cube's top comes
    last): the nearest the viewer, so the letter is rarely hidden.
    """
    last_face: dict[int, tuple[Cell3, int]] = {}
    for cube in painted:
        for axis in (0, 1, 2):
            if _step(cube, axis, 1) not in owner and placements[owner[cube]][0]:
                last_face[owner[cube]] = (cube, axis)
    return {face: piece for piece, face in last_face.items()}


def add_iso(
    drawing: svgwrite.Drawing,
    placements: Sequence[tuple[str, Sequence[Sequence[int]]]],
    edge: float,
    colours: Colours,
    offset: tuple[float, float],
    labels: bool = False,
) -> None:
    """Draw placements of cubes isometrically with their picture's top-left corner at ``offset``.

    With ``labels``, each named piece gets its name on one of its visible
    faces (:func:`_labelled_faces`). The letter is painted right after its
    face, so a nearer cube that covers the face covers the letter too.
    """
    owner = _owners(placements)
    low_x, low_y, _, _ = _bounds(owner, edge)
    thick, thin = _widths(edge)
    group = drawing.g(
        class_="packing",
        stroke=INK,
        stroke_width=thin,
        stroke_linejoin="round",
        stroke_linecap="round",
        transform=f"translate({_num(offset[0] - low_x)},{_num(offset[1] - low_y)})",
    )
    fills = []
    for name, _ in placements:
        base = _colour_for(name, colours)
        fills.append([_mix(base, target, amount) for amount, target in _SHADES])

    def point(corner: Cell3) -> str:
        px, py = _project(corner, edge)
        return f"{_num(px)} {_num(py)}"

    painted = sorted(owner, key=lambda c: (sum(c), c))
    labelled = _labelled_faces(painted, owner, placements) if labels else {}
    for cube in painted:
        piece = owner[cube]
        faces = CUBE.cell_faces(cube)  # facing -x, +x, -y, +y, -z, +z
        for axis in (0, 1, 2):
            front, corners = faces[2 * axis + 1]
            if front in owner:
                continue  # hidden behind the neighbour
            edges = _face_edges(cube, corners)
            outline = "M" + "L".join(point(a) for a, _, _ in edges) + "Z"
            group.add(
                drawing.path(
                    d=outline,
                    fill=fills[piece][axis],
                    class_="face",
                    stroke_opacity="0.45",
                    **{"data-piece": placements[piece][0]},
                )
            )
            # Thick where the face does not go on flat into the same piece.
            strong = [
                f"M{point(a)}L{point(b)}"
                for a, b, beside in edges
                if owner.get(beside) != piece or _step(beside, axis, 1) in owner
            ]
            if strong:
                group.add(drawing.path(d="".join(strong), fill="none", stroke_width=thick))
            if (cube, axis) in labelled:
                name = placements[piece][0]
                centre = _project([c + (1 if a == axis else 0.5) for a, c in enumerate(cube)], edge)
                size = _label_size(name, edge) * 0.85  # a face is foreshortened
                text = _label_text(drawing, name, centre, size, fills[piece][axis], alone=True)
                group.add(text)
    drawing.add(group)


def packing_svg(
    placements: Iterable[tuple[str, Sequence[Sequence[int]]]],
    *,
    cell: float | None = None,
    colours: Colours = None,
    labels: bool | None = None,
    force: bool = False,
) -> SvgDrawing:
    """Draw polycubes or a packed box in isometric projection.

    Parameters
    ----------
    placements : iterable of (piece name, cells)
        Cells ``(x, y, z)``; no cell in two pieces.
    cell : float, optional
        Cube edge in pixels (default 24).
    colours : mapping name -> colour, or a palette name, optional
        Overrides :func:`polyforms.draw.plane.piece_colour`.
    labels : bool, optional
        Write each piece's name on its nearest visible face; default: when the
        edge is at least :data:`polyforms.draw.plane.LABEL_MIN_CELL` pixels.
    force : bool
        Draw more than :data:`~polyforms.draw.plane.PIECE_LIMIT` pieces or
        :data:`~polyforms.draw.plane.CELL_LIMIT` cubes.

    Raises
    ------
    PolyformError
        Cells that are not 3D, or a cell in two pieces.
    TooLargeError
        Past one of those limits, without ``force``.

    Examples
    --------
    >>> box = [("A", [(x, y, 0) for x in range(2) for y in range(2)]),
    ...        ("B", [(x, y, 1) for x in range(2) for y in range(2)])]
    >>> packing_svg(box).count('class="face"')  # 4 on top, 4 left, 4 right
    12
    """
    placed = _placements(placements, DrawingSize(force))
    cell = 24 if cell is None else cell
    cubes = [c for _, cells in placed for c in _cells_3d(cells)]
    low_x, low_y, high_x, high_y = _bounds(cubes, cell)
    margin = cell / 2
    drawing = _document(high_x - low_x + 2 * margin, high_y - low_y + 2 * margin)
    add_iso(drawing, placed, cell, colours, (margin, margin), _want_labels(labels, cell))
    return _finish(drawing)


def _to_layers(
    placements: list[tuple[str, tuple[tuple[int, ...], ...]]], axis: int
) -> dict[int, list[tuple[str, list[Cell3]]]]:
    """Split placements into layers across ``axis``, each turned so the layer lies flat.

    A cyclic turn of the axes (a rotation, so no mirror image) takes ``axis`` to z.
    """
    turn = {0: (1, 2, 0), 1: (2, 0, 1), 2: (0, 1, 2)}[axis]
    layers: dict[int, dict[str, list[Cell3]]] = {}
    for index, (name, cells) in enumerate(placements):
        for cube in _cells_3d(cells):
            level = cube[axis]
            flat = (cube[turn[0]], cube[turn[1]], 0)
            layers.setdefault(level, {}).setdefault((index, name), []).append(flat)
    return {
        level: [(name, cells) for (_, name), cells in sorted(pieces.items())]
        for level, pieces in sorted(layers.items())
    }


def exploded_svg(
    placements: Iterable[tuple[str, Sequence[Sequence[int]]]],
    *,
    axis: int = 2,
    cell: float = 20,
    colours: Colours = None,
    columns: int | None = None,
    labels: bool | None = None,
    force: bool = False,
) -> SvgDrawing:
    """Draw a packing layer by layer: one isometric slab per level along ``axis``.

    Parameters
    ----------
    placements : iterable of (piece name, cells)
    axis : {0, 1, 2}
        Cut across x, y or z (default: horizontal layers, z = 0 first).
    cell : float
        Cube edge in pixels.
    colours : mapping name -> colour, optional
    columns : int, optional
        Slabs per row (default all in one row).
    labels : bool, optional
        Piece letters on each slab (see :func:`packing_svg`).
    force : bool
        Draw past the limits (see :func:`packing_svg`).

    Examples
    --------
    >>> box = [("A", [(0, 0, 0), (0, 0, 1)]), ("B", [(1, 0, 0), (1, 0, 1)])]
    >>> svg = exploded_svg(box)
    >>> svg.count('class="packing"'), svg.count('class="label"'), svg.count("<text")
    (2, 4, 6)
    """
    if axis not in (0, 1, 2):
        raise PolyformError(f"axis must be 0, 1 or 2, not {axis!r}")
    placed = _placements(placements, DrawingSize(force))
    layers = _to_layers(placed, axis)
    # Every slab is laid out in the frame of the whole cross-section, so they align.
    footprint = [c for level in layers.values() for _, cells in level for c in cells]
    low_x, low_y, high_x, high_y = _bounds(footprint, cell)
    font = max(8.0, min(12.0, cell * 0.7))
    label_room = font * 1.8
    width = max(high_x - low_x, _label_width("x = 00", font)) + cell
    height = high_y - low_y + cell + label_room
    columns, rows = _grid(len(layers), columns or len(layers))
    margin = cell / 2
    drawing = _document(
        columns * width + 2 * margin, rows * height + 2 * margin, f"{len(layers)} layers"
    )
    text_group = drawing.g(font_family=FONT, font_size=_num(font), text_anchor="middle", fill=INK)
    letter = "xyz"[axis]
    for slot, (level, pieces) in enumerate(layers.items()):
        left = margin + (slot % columns) * width
        top = margin + (slot // columns) * height
        slab_low = _bounds([c for _, cells in pieces for c in cells], cell)
        offset = (left + cell / 2 + slab_low[0] - low_x, top + cell / 2 + slab_low[1] - low_y)
        add_iso(drawing, pieces, cell, colours, offset, _want_labels(labels, cell))
        text_group.add(
            drawing.text(
                f"{letter} = {level}",
                insert=(_num(left + width / 2), _num(top + height - label_room / 3)),
            )
        )
    drawing.add(text_group)
    return _finish(drawing)


def packings_sheet(
    solutions: Sequence[Sequence[tuple[str, Sequence[Sequence[int]]]]],
    *,
    columns: int | None = None,
    cell: float = 10,
    colours: Colours = None,
    labels: bool = False,
    captions: bool = True,
) -> SvgDrawing:
    """A page of packings in a grid, numbered from 1 (see ``tilings_sheet_svg``)."""
    bounds = [_bounds([c for _, cells in s for c in _cells_3d(cells)], cell) for s in solutions]
    font = max(8.0, min(12.0, cell))

    def place(drawing, k: int, x: float, y: float) -> None:
        add_iso(drawing, solutions[k], cell, colours, (x, y), labels)

    return _numbered_sheet(
        [(hx - lx, hy - ly) for lx, ly, hx, hy in bounds],
        place,
        columns=columns,
        cell=cell,
        label_room=font * 1.6 if captions else 0,
        font=font,
        title=f"{len(solutions)} packings",
    )

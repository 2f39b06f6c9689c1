"""Open-cell maps: a board's cells coloured by the tilings that leave each one open.

``polyforms tile REGION --pieces SET --open K --by-open -o map.svg`` counts, in
one search, the tilings of every set of ``K`` open cells
(:meth:`polyforms.TilingProblem.count_by_open`) and draws them here as a heat
map: every cell of the board is one polygon of its lattice, coloured by the
number of tilings that leave it open (with ``K`` above 1, the sum over the open
sets that hold it), its count written in it when the cells are large enough,
and a legend of the scale underneath. A designer reads at a glance which cells
can be left open, and where the puzzle has one solution.

The scale is viridis (van der Walt and Smith, matplotlib 2015): its lightness
rises steadily from dark violet to yellow, so the order of the counts reads
in grey print and with every common colour blindness.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..errors import PolyformError
from ..lattice import SQUARE, Lattice
from .cells import _Frame, _lattice_of, _plane_cells, _solid
from .colours import INK, _mix
from .size import DrawingSize
from .svg import (
    FONT,
    SvgDrawing,
    _document,
    _finish,
    _label_size,
    _loops_path,
    _num,
    _region_cells,
    _text_colour,
    _widths,
    boundary_loops,
    readable_cell,
)

__all__ = ["HEAT_SCALE", "heat_colour", "open_counts", "open_map_svg"]

#: The colours of the scale from the least count to the greatest: viridis at nine
#: even steps, between which a count's colour is mixed linearly.
HEAT_SCALE = (
    "#440154", "#472c7a", "#3b518b", "#2c718e", "#21908d",
    "#27ad81", "#5cc863", "#aadc32", "#fde725",
)  # fmt: skip

#: Swatches in the legend (the least and the greatest count among them).
_LEGEND_STEPS = 6


def heat_colour(count: int, most: int) -> str:
    """The colour of ``count`` on a scale from 0 to ``most`` (:data:`HEAT_SCALE`).

    Examples
    --------
    >>> heat_colour(0, 10), heat_colour(10, 10), heat_colour(0, 0)
    ('#440154', '#fde725', '#440154')
    """
    if most <= 0:
        return HEAT_SCALE[0]
    position = max(0.0, min(1.0, count / most)) * (len(HEAT_SCALE) - 1)
    step = min(int(position), len(HEAT_SCALE) - 2)
    return _mix(HEAT_SCALE[step], HEAT_SCALE[step + 1], position - step)


def open_counts(
    rows: Iterable[tuple[Sequence[Sequence[int]], int]] | Mapping,
    cells: Iterable[Sequence[int]],
) -> dict[tuple[int, ...], int]:
    """The tilings that leave each cell open, from a by-open table.

    Parameters
    ----------
    rows : iterable of (open cells, tilings), or a mapping open cells -> tilings
        The table of :meth:`polyforms.TilingProblem.count_by_open` (or its rows,
        :func:`polyforms.tiling.by_open_rows`): every open set with tilings.
    cells : iterable of cells
        The board; a cell that no row names counts 0.

    Returns
    -------
    dict
        Each cell of the board -> the sum of the tilings of the open sets that
        hold it.

    Raises
    ------
    PolyformError
        An open set with a cell off the board.

    Examples
    --------
    >>> open_counts({((0, 0), (1, 0)): 2, ((0, 0), (2, 0)): 1}, [(0, 0), (1, 0), (2, 0)])
    {(0, 0): 3, (1, 0): 2, (2, 0): 1}
    """
    if isinstance(rows, Mapping):
        rows = rows.items()
    counts = {tuple(c): 0 for c in cells}
    for opened, total in rows:
        for cell in opened:
            cell = tuple(cell)
            if cell not in counts:
                raise PolyformError(f"open cell {list(cell)} is not a cell of the board")
            counts[cell] += int(total)
    return counts


def open_map_svg(
    rows: Iterable[tuple[Sequence[Sequence[int]], int]] | Mapping,
    region_cells: Iterable[Sequence[int]],
    *,
    cell: float | None = None,
    labels: bool | None = None,
    force: bool = False,
    lattice: Lattice | str | None = None,
) -> SvgDrawing:
    """A board's cells coloured by the tilings that leave each open, with a legend.

    Parameters
    ----------
    rows : iterable of (open cells, tilings), or a mapping open cells -> tilings
        The by-open table (:meth:`polyforms.TilingProblem.count_by_open`, or
        :func:`polyforms.tiling.by_open_rows` of it), of every open set: not a
        ``distinct`` table, whose classes name one open set each.
    region_cells : iterable of cells, or a Region
        The board, drawn on its lattice (a Region's, or ``lattice``).
    cell : float, optional
        Side of a cell in pixels; default :func:`~polyforms.draw.readable_cell`.
    labels : bool, optional
        Write each cell's count in it; default: when every count fits its cell.
    force : bool
        Draw more than :data:`~polyforms.draw.CELL_LIMIT` cells.
    lattice : Lattice or str, optional
        Whose cells these are (``"triangle"``, ``"hex"``); default the region's,
        else squares.

    Returns
    -------
    SvgDrawing
        One ``<path class="cell">`` per board cell, with ``data-cell`` (its
        coordinates, ``"x,y"``) and ``data-count``, under the board's outline;
        a ``<g class="legend">`` of swatches.

    Raises
    ------
    PolyformError
        An empty or 3D board, or an open cell off the board.
    TooLargeError
        More than :data:`~polyforms.draw.CELL_LIMIT` cells, without ``force``.

    Notes
    -----
    One path per cell: a board of 10,000 cells is a drawing of about 1 MB.

    Examples
    --------
    >>> from polyforms import tile
    >>> problem = tile("1x3", "dominoes", open=1)
    >>> svg = open_map_svg(problem.count_by_open(), problem.region)
    >>> svg.count('class="cell"'), 'data-count="1"' in svg, 'data-count="0"' in svg
    (3, True, True)
    """
    given = _lattice_of(region_cells, lattice)
    cells = _region_cells(region_cells, DrawingSize(force))
    if not cells:
        raise PolyformError("nothing to draw: the board is empty")
    if _solid(cells, given):
        raise PolyformError("an open-cell map is of a plane board, not of a box of cubes")
    plane = given or SQUARE
    board = sorted(set(_plane_cells(cells, plane)))
    counts = open_counts(rows, board)
    frame = _Frame([], set(board), plane)
    if cell is None:
        cell = readable_cell(frame.width, frame.height)
    most = max(counts.values())
    font = max(8.0, min(12.0, cell * 0.8))
    width = max(frame.width * cell, _LEGEND_STEPS * 3 * font)
    margin = cell / 2
    legend_top = margin + frame.height * cell + font
    drawing = _document(
        width + 2 * margin,
        legend_top + 3.5 * font + margin,
        f"open-cell map: the tilings that leave each cell open (most {most})",
    )
    _add_cells(drawing, frame, counts, cell, (margin, margin), labels)
    _add_legend(drawing, most, font, (margin, legend_top))
    return _finish(drawing)


def _add_cells(
    drawing,
    frame: _Frame,
    counts: dict[tuple[int, ...], int],
    cell: float,
    offset: tuple[float, float],
    labels: bool | None,
) -> None:
    """One filled polygon per cell, the board's outline over them, and the counts."""
    lattice = frame.lattice
    most = max(counts.values())
    left, top = offset[0] - frame.left * cell, offset[1] - frame.top * cell
    group = drawing.g(class_="open-map", transform=f"translate({_num(left)},{_num(top)})")
    thick, thin = _widths(cell)
    shifted = dict(zip(frame.shift(counts), counts.values()))
    for (place, total), board_cell in zip(shifted.items(), counts):
        group.add(
            drawing.path(
                d=_loops_path(boundary_loops([place], lattice), cell, lattice=lattice),
                fill=heat_colour(total, most),
                stroke=INK,
                stroke_width=thin,
                stroke_opacity="0.4",
                class_="cell",
                **{"data-cell": ",".join(map(str, board_cell)), "data-count": str(total)},
            )
        )
    outline = _loops_path(boundary_loops(list(shifted), lattice), cell, lattice=lattice)
    group.add(drawing.path(d=outline, fill="none", stroke=INK, stroke_width=thick))
    size = 0.8 * _label_size(str(most), cell, lattice)  # the longest count fits its cell
    if labels or (labels is None and size >= 7):
        texts = drawing.g(font_family=FONT, font_size=_num(size), text_anchor="middle")
        for place, total in shifted.items():
            x, y = lattice.cell_centre(place)
            texts.add(
                drawing.text(
                    str(total),
                    insert=(_num(x * cell), _num(y * cell + size * 0.36)),
                    fill=_text_colour(heat_colour(total, most)),
                    class_="count",
                )
            )
        group.add(texts)
    drawing.add(group)


def _add_legend(drawing, most: int, font: float, corner: tuple[float, float]) -> None:
    """Swatches of the scale from 0 to ``most``, each with its count, and a caption."""
    steps = sorted({round(most * k / (_LEGEND_STEPS - 1)) for k in range(_LEGEND_STEPS)})
    x, y = corner
    swatch = 3 * font
    group = drawing.g(class_="legend", font_family=FONT, font_size=_num(font), fill=INK)
    group.add(drawing.text("tilings with the cell open", insert=(_num(x), _num(y + font * 0.9))))
    for index, value in enumerate(steps):
        left = x + index * swatch
        group.add(
            drawing.rect(
                insert=(_num(left), _num(y + 1.3 * font)),
                size=(_num(swatch), _num(font)),
                fill=heat_colour(value, most),
                class_="swatch",
                **{"data-count": str(value)},
            )
        )
        group.add(
            drawing.text(
                str(value),
                insert=(_num(left + swatch / 2), _num(y + 3.2 * font)),
                text_anchor="middle",
            )
        )
    drawing.add(group)

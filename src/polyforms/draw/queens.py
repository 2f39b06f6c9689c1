"""SVG pictures of N-queens boards (:func:`queens_svg`)."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import PolyformError
from .size import DrawingSize
from .svg import (
    INK,
    PAPER,
    SvgDrawing,
    _document,
    _finish,
    _loops_path,
    _num,
    _widths,
    boundary_loops,
)

__all__ = ["queens_svg"]


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

"""How much one picture or model may draw, and the cells it takes.

A drawing is laid out whole, in memory, before a byte is written: its cost
grows with its pieces and its cells, whatever the input claims. Every drawing
function of :mod:`polyforms.draw` counts what it reads in a :class:`DrawingSize`
and refuses, as soon as it is passed, more than :data:`PIECE_LIMIT` pieces or
:data:`CELL_LIMIT` cells, unless called with ``force=True`` (``--force``).
Cells are read by :func:`whole_cell`: whole numbers, never truncated.
"""

from __future__ import annotations

from ..errors import TooLargeError
from ..lattice import as_cell
from ..limits import SVG_LIMIT

__all__ = ["CELL_LIMIT", "COORDINATE_LIMIT", "PIECE_LIMIT", "DrawingSize", "whole_cell"]

#: The most pieces one picture or model draws unless forced: a catalogue's
#: polyforms, a tiling's placements, summed over a page of tilings. It is
#: :data:`polyforms.limits.SVG_LIMIT`: a picture takes about 50 us and 4 kB a piece,
#: a model ten times that (20,000 monominoes: an SVG in 1 s and 90 MB, an STL in
#: 5 s and 330 MB).
PIECE_LIMIT = SVG_LIMIT

#: The most cells one picture or model draws unless forced: the pieces' cells plus
#: the cells of the regions drawn with them (a page of 1,666 tilings of 6x10 by
#: the pentominoes, the most PIECE_LIMIT allows, draws 200,000). A cell takes
#: about 12 us and 1.2 kB in a picture and 40 us and 5 kB in a model: at the
#: limit, 3 s and 300 MB, or 10 s and 1.2 GB.
CELL_LIMIT = 250_000


class DrawingSize:
    """What one picture or model will draw, counted as its input is gathered.

    Each drawing function makes one and calls :meth:`add` as it reads its
    input, so a stream of tilings too large to draw is refused once the
    limit is passed, before the rest is read or anything is drawn.

    Parameters
    ----------
    force : bool
        Count, but never refuse.
    """

    __slots__ = ("force", "pieces", "cells")

    def __init__(self, force: bool = False) -> None:
        self.force = bool(force)
        self.pieces = 0
        self.cells = 0

    def add(self, pieces: int, cells: int) -> None:
        """Count ``pieces`` pieces and ``cells`` cells more.

        Raises
        ------
        TooLargeError
            Past :data:`PIECE_LIMIT` pieces or :data:`CELL_LIMIT` cells, unless forced.
        """
        self.pieces += pieces
        self.cells += cells
        if self.force:
            return
        if self.pieces > PIECE_LIMIT:
            what = f"more than {PIECE_LIMIT:,} pieces"
        elif self.cells > CELL_LIMIT:
            what = f"more than {CELL_LIMIT:,} cells"
        else:
            return
        raise TooLargeError(
            f"a picture or model of {what} is beyond the limit of a drawing; draw fewer "
            "(tile and draw take --limit K), or insist with --force (force=True)"
        )


#: The largest coordinate a drawing takes (a page of that many cells is far beyond
#: any limit; the bound keeps a number from becoming an absurd width).
COORDINATE_LIMIT = 1 << 30


def whole_cell(cell: object) -> tuple[int, ...]:
    """A cell to draw or model: whole numbers, ``2.0`` taken as 2 and ``0.5`` refused
    (a drawing never truncates a cell into its neighbour's place).

    Raises
    ------
    WrongTypeError, PolyformError
        Not a sequence of whole numbers, or a coordinate beyond :data:`COORDINATE_LIMIT`.
    """
    return as_cell(cell, COORDINATE_LIMIT)

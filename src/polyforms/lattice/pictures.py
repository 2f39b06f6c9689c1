"""The text pictures of cells: their characters, their layers, and reading them.

A picture is lines of text, ``x`` along a line and ``y`` down the lines. A
cell is ``#``, a letter or a digit (the mark names the piece the cell belongs
to, where that matters); a position outside the cells is ``.`` or a space. A
picture of cubes is its z-layers one under the other, each layer after the
first starting below a line that holds only ``--``. Lattices read pictures
with :func:`read_picture` and print them with
:meth:`polyforms.lattice.Lattice.to_ascii`; :mod:`polyforms.polyform` and
:mod:`polyforms.region` use the same characters.
"""

from __future__ import annotations

from ..errors import ParseError

__all__ = ["EMPTY", "LAYER_BREAK", "read_picture"]

EMPTY = frozenset(".  ")  # characters that mark a position outside the picture's cells
LAYER_BREAK = "--"  # a line holding only this starts the next z-layer of a picture


def read_picture(text: str, layered: bool) -> list[tuple[tuple[int, ...], str]]:
    """The ``(cell, mark)`` pairs of a picture, in reading order.

    ``layered`` reads z-layers and gives cells ``(x, y, z)``; otherwise cells
    are ``(x, y)``. Blank lines at the start and at the end are ignored; in a
    layered picture only empty ones are, as a line of spaces is a row that
    keeps the layers aligned.

    Raises
    ------
    ParseError
        A character that is neither a cell nor outside, with its line and column.

    Examples
    --------
    >>> read_picture("#.\\n##", layered=False)
    [((0, 0), '#'), ((0, 1), '#'), ((1, 1), '#')]
    """
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not (lines[0] if layered else lines[0].strip()):
        lines.pop(0)
    while lines and not (lines[-1] if layered else lines[-1].strip()):
        lines.pop()
    found: list[tuple[tuple[int, ...], str]] = []
    z = y = 0
    for number, line in enumerate(lines, start=1):
        if layered and line.strip() == LAYER_BREAK:
            z, y = z + 1, 0
            continue
        for x, char in enumerate(line.rstrip("\n")):
            if char in EMPTY:
                continue
            if not (char == "#" or char.isalnum()):
                raise ParseError(
                    f"line {number}, column {x + 1}: unexpected character {char!r} "
                    "(cells are '#', letters or digits; outside is '.' or space)"
                )
            found.append(((x, y, z) if layered else (x, y), char))
        y += 1
    return found

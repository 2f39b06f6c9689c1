"""The studio's 3D puzzles: a box of cubes drawn as a stack of layers, solid piece sets.

A solid puzzle is a :class:`~polyforms.studio.puzzle.Puzzle` on the ``cube``
lattice with a third side, ``layers``, and its cells ``[x, y, z]`` inside the
``cols`` x ``rows`` x ``layers`` box (``x`` along a line of a layer's
picture, ``y`` down the lines, ``z`` the layer), as :meth:`polyforms.Region.parse`
makes ``"RxCxL"``::

    {"format": "polyforms-studio", "version": 1, "lattice": "cube",
     "rows": 3, "cols": 4, "layers": 5, "cells": [[0, 0, 0], ...],
     "pieces": "solid-pentominoes", "rotations": true, "reflections": true,
     "copies": 1, "counts": "", "optional": false, "open": 0, "shapes": []}

``pieces`` names a solid set of :mod:`polyforms.piece_sets`, or is ``"own"``:
the pieces are then ``shapes``, ``[{"name": "A", "cells": [[x, y, z], ...]},
...]`` (what a BurrTools file holds), with their copies in ``counts``. A file
ending in ``.xmpuzzle`` is read and written as BurrTools XML
(:func:`read_solid_xmpuzzle`, :func:`xmpuzzle_bytes`); a listing of a solid
puzzle is pages of layer pictures plus the pieces' cubes for the page's 3D view
(:func:`solid_listing`).
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from typing import Any

from ..errors import PolyformError, TooLargeError, WrongTypeError
from .puzzle import FORMAT, MAX_COPIES_ASKED, VERSION, Puzzle, counts_text, whole_field

__all__ = [
    "BOX_PRESETS",
    "MAX_BOX_CELLS",
    "MAX_BOX_SIDE",
    "MAX_SHAPES",
    "OWN",
    "SolidPuzzle",
    "box_grid",
    "read_solid_xmpuzzle",
    "solid_listing",
    "solid_puzzle_of",
    "solid_sets",
    "xmpuzzle_bytes",
]

#: Rows, columns and layers of a box the studio draws.
MAX_BOX_SIDE = 40
#: Cells of the largest box drawn (as many squares as the largest plane grid).
MAX_BOX_CELLS = 20_000
#: Own pieces a puzzle may carry (a BurrTools file's shapes).
MAX_SHAPES = 200
#: Box sizes offered as presets (rows x columns x layers).
BOX_PRESETS = ("3x3x3", "3x4x5", "2x5x6", "2x3x10", "4x4x4")
#: ``pieces`` when the puzzle's own ``shapes`` are the pieces.
OWN = "own"
#: Layers side by side in the drawing grid before a new row of layers starts.
_LAYER_ROW_WIDTH = 36
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_.-]{1,20}")


@functools.cache
def solid_sets() -> dict[str, int]:
    """The named solid piece sets, each with its number of pieces, in the library's order."""
    from ..piece_sets import piece_set_names, pieces

    found = {}
    for name in piece_set_names():
        shapes = pieces(name, dim=3)
        if next(iter(shapes.values())).lattice.name == "cube":
            found[name] = len(shapes)
    return found


def _box_side(value: object, what: str) -> int:
    return whole_field(value, what, 1, MAX_BOX_SIDE)


def box_grid(rows: object, cols: object, layers: object) -> list[list[Any]]:
    """The drawing grid of a box: each cell ``[x, y, z]`` with the square that draws
    it, the layers side by side (``z`` = 0 at the left), wrapping into rows of layers.

    Raises
    ------
    PolyformError
        A side out of 1 to :data:`MAX_BOX_SIDE`, or more than :data:`MAX_BOX_CELLS` cells.
    """
    rows, cols = _box_side(rows, "rows"), _box_side(cols, "cols")
    layers = _box_side(layers, "layers")
    if rows * cols * layers > MAX_BOX_CELLS:
        raise TooLargeError(f"a box of more than {MAX_BOX_CELLS:,} cells is not drawn")
    across = max(1, min(layers, _LAYER_ROW_WIDTH // (cols + 1)))
    square = ((0, 0), (1, 0), (1, 1), (0, 1))
    grid = []
    for z in range(layers):
        left, top = (z % across) * (cols + 1), (z // across) * (rows + 1)
        for y in range(rows):
            for x in range(cols):
                corners = [[left + x + dx, top + y + dy] for dx, dy in square]
                grid.append([[x, y, z], corners])
    return grid


@dataclass(frozen=True)
class SolidPuzzle(Puzzle):
    """A box of cubes with holes and a solid piece set (named, or its own shapes)."""

    layers: int = 1
    shapes: tuple[tuple[str, tuple[tuple[int, int, int], ...]], ...] = ()

    @classmethod
    def from_json(cls, value: object) -> SolidPuzzle:
        """Read and check a solid puzzle given as parsed JSON (``lattice`` is ``cube``).

        Raises
        ------
        PolyformError
            A field missing, of the wrong type or out of bounds; one line.
        """
        if not isinstance(value, dict):
            raise WrongTypeError("a puzzle is a JSON object")
        if value.get("format", FORMAT) != FORMAT or value.get("version", VERSION) != VERSION:
            raise PolyformError(f"not a {FORMAT} puzzle of version {VERSION}")
        sides = [_box_side(value.get(k), k) for k in ("rows", "cols", "layers")]
        rows, cols, layers = sides
        cells = _box_cells(value.get("cells"), (cols, rows, layers))
        pieces = value.get("pieces")
        shapes: tuple = ()
        if pieces == OWN:
            shapes = _shapes(value.get("shapes"))
        elif pieces not in solid_sets():
            raise PolyformError(
                f"unknown solid piece set {str(pieces)[:40]!r}; choose one of "
                + ", ".join([*solid_sets(), OWN])
            )
        names = [name for name, _ in shapes] if shapes else _set_names(pieces)
        flags = {key: value.get(key, True) for key in ("rotations", "reflections")}
        flags["optional"] = value.get("optional", False)
        for key, flag in flags.items():
            if not isinstance(flag, bool):
                raise WrongTypeError(f"{key} must be true or false")

        copies = whole_field(value.get("copies", 1), "copies", 1, MAX_COPIES_ASKED)
        counts = _counts(value.get("counts", ""), names, pieces)
        opened = whole_field(value.get("open", 0), "open", 0, len(cells))
        return cls(
            "cube", rows, cols, cells, pieces, copies=copies, counts=counts, open=opened,
            layers=layers, shapes=shapes, **flags,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The puzzle as JSON values, with its format and version first."""
        fields = {
            "lattice": "cube", "rows": self.rows, "cols": self.cols, "layers": self.layers,
            "cells": [list(cell) for cell in self.cells], "pieces": self.pieces,
            "rotations": self.rotations, "reflections": self.reflections,
            "copies": self.copies, "counts": self.counts, "optional": self.optional,
            "open": self.open,
            "shapes": [{"name": n, "cells": [list(c) for c in cells]} for n, cells in self.shapes],
        }  # fmt: skip
        return {"format": FORMAT, "version": VERSION, **fields}

    def piece_shapes(self) -> dict[str, Any]:
        """The pieces as :class:`~polyforms.Polyform` values, by name."""
        from ..piece_sets import pieces
        from ..polyform import Polyform

        if self.pieces != OWN:
            return pieces(self.pieces, dim=3)
        return {name: Polyform(cells, check=False, lattice="cube") for name, cells in self.shapes}

    def copy_counts(self) -> dict[str, Any] | None:
        """Each piece's copies as :func:`polyforms.tile` takes them (None: one each)."""
        if self.copies == 1 and not self.counts:
            return None
        from ..piece_sets import parse_copies

        counts: dict[str, Any] = {name: self.copies for name in self.piece_shapes()}
        if self.counts:
            counts.update(parse_copies(self.counts))
        return counts

    def problem(self):
        """The :class:`~polyforms.TilingProblem` of this puzzle."""
        from ..region import Region
        from ..tiling.problem import tile

        region = Region(self.cells, lattice="cube")
        pieces = self.pieces if self.pieces != OWN else self.piece_shapes()
        return tile(
            region, pieces, counts=self.copy_counts(), optional=self.optional, open=self.open,
            rotations=self.rotations, reflections=self.reflections,
        )  # fmt: skip


def _set_names(name: str) -> list[str]:
    from ..piece_sets import pieces

    return list(pieces(name, dim=3))


def _box_cells(value: object, sizes: tuple[int, int, int]) -> tuple[tuple[int, int, int], ...]:
    """The board's cells: each ``[x, y, z]`` inside the box, none twice, at least one."""
    if not isinstance(value, list):
        raise WrongTypeError("cells must be a list of cells")
    if not value:
        raise PolyformError("the board has no cells")
    if len(value) > MAX_BOX_CELLS:
        raise TooLargeError(f"the board has {len(value):,} cells, more than {MAX_BOX_CELLS:,}")
    cells = []
    for cell in value:
        if not (
            isinstance(cell, list)
            and len(cell) == 3
            and all(type(k) is int and 0 <= k < side for k, side in zip(cell, sizes))
        ):
            raise PolyformError(
                f"a cell is [x, y, z] inside the {sizes[0]}x{sizes[1]}x{sizes[2]} box "
                f"(x, y, z from 0), not {str(cell)[:40]}"
            )
        cells.append((cell[0], cell[1], cell[2]))
    if len(set(cells)) != len(cells):
        raise PolyformError("a cell is on the board twice")
    return tuple(sorted(cells))


def _shapes(value: object) -> tuple:
    """Own pieces: a list of ``{"name", "cells"}``, names plain and distinct."""
    if not isinstance(value, list) or not value:
        raise WrongTypeError('own pieces need shapes: a list of {"name": ..., "cells": [...]}')
    if len(value) > MAX_SHAPES:
        raise TooLargeError(f"{len(value):,} shapes, more than {MAX_SHAPES}")
    shapes, total = [], 0
    for shape in value:
        if not isinstance(shape, dict) or not isinstance(shape.get("name"), str):
            raise WrongTypeError('a shape is {"name": text, "cells": [[x, y, z], ...]}')
        name = shape["name"]
        if not _PLAIN_NAME.fullmatch(name):
            raise PolyformError(
                f"a shape's name is 1-20 letters, digits, '_', '.' or '-', not {name[:20]!r}"
            )
        cells = shape.get("cells")
        if not isinstance(cells, list) or not cells:
            raise WrongTypeError(f"shape {name} needs a list of cells")
        total += len(cells)
        if total > MAX_BOX_CELLS:
            raise TooLargeError(f"the shapes have more than {MAX_BOX_CELLS:,} cells")
        checked = _box_cells(cells, (MAX_BOX_SIDE,) * 3)
        shapes.append((name, checked))
    if len({name for name, _ in shapes}) != len(shapes):
        raise PolyformError("two shapes have the same name")
    return tuple(shapes)


def _counts(value: object, names: list[str], pieces: str) -> str:
    """Per-piece counts as ``--copies`` reads them, every name one of the pieces'."""
    return counts_text(value, lambda: set(names), "own pieces" if pieces == OWN else pieces)


# -- BurrTools files -------------------------------------------------------------------


def solid_puzzle_of(region, piece_set) -> SolidPuzzle:
    """The studio puzzle of a BurrTools problem (the region and pieces of a
    :class:`~polyforms.files.burrtools.BurrToolsPuzzle`): its box, its shapes as own
    pieces, their copies as counts, turned but never mirrored (as BurrTools)."""
    cells = region.cells
    sizes = [max(c[k] for c in cells) + 1 for k in range(3)]
    if any(side > MAX_BOX_SIDE for side in sizes) or len(cells) > MAX_BOX_CELLS:
        raise TooLargeError(
            f"the result shape is {sizes[0]}x{sizes[1]}x{sizes[2]}: the studio draws boxes of "
            f"at most {MAX_BOX_SIDE} a side and {MAX_BOX_CELLS:,} cells"
        )
    shapes, counts, names = [], [], set()
    for number, (name, polyform) in enumerate(piece_set.pieces.items(), 1):
        plain = name if _PLAIN_NAME.fullmatch(name) and name not in names else f"S{number}"
        names.add(plain)
        shapes.append({"name": plain, "cells": [list(c) for c in polyform.cells]})
        low, high = piece_set.ranges[name]
        if (low, high) != (1, 1):
            counts.append(f"{plain}={low}" if low == high else f"{plain}={low}..{high}")
    return SolidPuzzle.from_json({
        "lattice": "cube", "cols": sizes[0], "rows": sizes[1], "layers": sizes[2],
        "cells": [list(c) for c in cells], "pieces": OWN, "shapes": shapes,
        "counts": ",".join(counts), "rotations": True, "reflections": False,
    })  # fmt: skip


def xmpuzzle_puzzle_bytes(data: bytes, where: str) -> SolidPuzzle:
    """The studio puzzle of a BurrTools file's bytes (its first problem)."""
    from ..files.burrtools import xmpuzzle_puzzle

    found = xmpuzzle_puzzle(data, where)
    try:
        return solid_puzzle_of(found.region, found.pieces)
    except PolyformError as error:
        raise type(error)(f"{where}: {error}") from None


def read_solid_xmpuzzle(path: str | os.PathLike[str]) -> SolidPuzzle:
    """The studio puzzle of the BurrTools file ``path`` (its first problem).

    Raises
    ------
    PolyformError
        Not a BurrTools file of the cube grid, or too large for the studio; OSError.
    """
    from ..files.burrtools import read_xmpuzzle

    found = read_xmpuzzle(path)
    try:
        return solid_puzzle_of(found.region, found.pieces)
    except PolyformError as error:
        raise type(error)(f"{os.fspath(path)}: {error}") from None


def _piece_set(puzzle: Puzzle):
    from ..piece_sets import PieceSet

    if not isinstance(puzzle, SolidPuzzle):
        raise PolyformError("a BurrTools file holds cubes: this puzzle is a plane board")
    counts = puzzle.copy_counts()
    return PieceSet(
        puzzle.piece_shapes(), counts, optional=puzzle.optional,
        rotations=puzzle.rotations, reflections=puzzle.reflections,
    )  # fmt: skip


def xmpuzzle_bytes(puzzle: Puzzle, name: str = "") -> bytes:
    """The puzzle as a gzipped BurrTools file (BurrTools turns its pieces, never mirrors them)."""
    import gzip

    from ..files.burrtools import xmpuzzle_text
    from ..region import Region

    pieces = _piece_set(puzzle)  # first: a plane puzzle is refused by name
    text = xmpuzzle_text(Region(puzzle.cells, lattice="cube"), pieces, name)
    return gzip.compress(text.encode(), mtime=0)


def write_solid_xmpuzzle(puzzle: Puzzle, path: str | os.PathLike[str]) -> None:
    """Write the puzzle to ``path`` as a BurrTools file, atomically."""
    from .._atomic import atomic_output

    data = xmpuzzle_bytes(puzzle)
    with atomic_output(path, "wb") as handle:
        handle.write(data)


# -- listings --------------------------------------------------------------------------


def solid_listing(
    puzzle: SolidPuzzle,
    distinct: bool = False,
    offset: int = 0,
    limit: int = 12,
    palette: str = "default",
    **_: Any,
) -> dict[str, Any]:
    """The packings ``offset`` to ``offset + limit``: each as a row of layer pictures
    (SVG, letters in ``palette``) and as its pieces' cubes (``placements``: name and
    cells, for the page's 3D view), the pieces' ``colours``, whether more follow, and
    the packings as ``txt`` and ``jsonl`` (as ``polyforms tile`` writes them)."""
    from ..draw.isometric import exploded_svg
    from ..draw.svg import piece_colour

    problem = puzzle.problem()
    wanted = offset + limit
    pictures, placements, txt, jsonl = [], [], [], []
    seen = 0
    for tiling in problem.solutions(distinct=bool(distinct), limit=wanted + 1):
        seen += 1
        if offset < seen <= wanted:
            shown = problem.steady(tiling) if distinct else tiling
            placed = [(p.piece, [list(c) for c in p.cells]) for p in shown]
            pictures.append(exploded_svg(placed, labels=True, colours=palette))
            placements.append(placed)
            txt.append(shown.to_ascii() + "\n\n")
            jsonl.append(shown.to_jsonl())
    names = {name for placed in placements for name, _ in placed}
    return {
        "svgs": pictures, "offset": offset, "more": seen > wanted,
        "txt": "".join(txt), "jsonl": "".join(jsonl), "placements": placements,
        "colours": {name: piece_colour(name, palette) for name in sorted(names)},
        "size": [puzzle.cols, puzzle.rows, puzzle.layers],
    }  # fmt: skip

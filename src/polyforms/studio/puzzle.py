"""A studio puzzle: the board's cells on a lattice, a piece set and the options.

A puzzle travels as JSON between the page, the server and a file::

    {"format": "polyforms-studio", "version": 1, "lattice": "square",
     "rows": 6, "cols": 10, "cells": [[0, 0], [1, 0], ...],
     "pieces": "pentominoes", "rotations": true, "reflections": true,
     "copies": 1, "counts": "I=0..2,X=1", "optional": false, "open": 0,
     "custom": [{"name": "D", "cells": [[0, 0], [1, 0]]}]}

``rows`` and ``cols`` are the drawing grid the page shows; ``cells`` are the
board, in the grid's coordinates (:func:`grid_cells`). ``copies`` is every
piece's count; ``counts`` overrides it per piece, written as ``polyforms tile
--copies`` takes it (:func:`polyforms.piece_sets.parse_copies`: ``NAME=K``,
``NAME=LO..HI``, ``NAME=LO..``). ``custom`` holds pieces drawn in the studio,
each a name and its cells on the board's lattice, added to the named set
(``pieces`` may then be ``""``: the drawn pieces alone); copies and counts
apply to them as to the named ones. Everything read is
checked here, so the server and the job processes see only sound values, and
every fault is one line (:class:`~polyforms.errors.PolyformError`).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from ..errors import PolyformError, TooLargeError, WrongTypeError
from ..limits import MAX_REGION_CELLS

__all__ = [
    "LATTICES",
    "MAX_FILE_BYTES",
    "MAX_GRID_SIDE",
    "Puzzle",
    "counts_text",
    "grid_cells",
    "piece_cells",
    "set_lattices",
    "whole_field",
]

FORMAT = "polyforms-studio"
VERSION = 1
#: The plane lattices the studio draws: name -> the name the library gives it.
LATTICES = ("square", "triangle", "hex")
#: Rows and columns of the drawing grid (100 x 100: 10,000 squares, 20,000 triangles).
MAX_GRID_SIDE = 100
#: Copies of each piece the page may ask for.
MAX_COPIES_ASKED = 100
#: The longest per-piece ``counts`` text read.
MAX_COUNTS_TEXT = 2000
#: The largest puzzle file read (a 100 x 100 board is about 130 KB of JSON).
MAX_FILE_BYTES = 4 << 20
#: Pieces a puzzle may draw for itself, and the cells of each.
MAX_CUSTOM = 40
MAX_CUSTOM_CELLS = 64
#: What a drawn piece may be called: as ``--copies`` reads a name.
CUSTOM_NAME = re.compile(r"^[A-Za-z0-9_]{1,12}$")


@functools.cache
def set_lattices() -> dict[str, str]:
    """The named plane piece sets, each with its lattice's name, in the library's order."""
    from ..piece_sets import piece_set_names, pieces

    found = {}
    for name in piece_set_names():
        first = next(iter(pieces(name).values()))
        if first.dim == 2:
            found[name] = first.lattice.name
    return found


def grid_cells(lattice: str, rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """The cells of the drawing grid: a ``rows`` x ``cols`` rectangle of squares, or a
    parallelogram of rhombi (two triangles each) or hexagons, as
    :meth:`polyforms.Region.parse` makes ``"RxC"``."""
    from ..region import Region

    _check_lattice(lattice)
    rows, cols = _side(rows, "rows"), _side(cols, "cols")
    if lattice == "square":
        return Region.box(rows, cols).cells
    return Region.parse(f"{rows}x{cols}", lattice=lattice).cells


def piece_cells(lattice: str, value: object) -> tuple[tuple[int, ...], ...]:
    """Checked cells of a drawn piece (not necessarily connected: one being drawn)."""
    _check_lattice(lattice)
    cells = _cells(value, 3 if lattice == "triangle" else 2, "a piece")
    if len(cells) > MAX_CUSTOM_CELLS:
        raise TooLargeError(f"a piece has more than {MAX_CUSTOM_CELLS} cells")
    return cells


@dataclass(frozen=True)
class Puzzle:
    """A board and a piece set with its options: what the studio counts and lists."""

    lattice: str
    rows: int
    cols: int
    cells: tuple[tuple[int, ...], ...]
    pieces: str
    rotations: bool = True
    reflections: bool = True
    copies: int = 1
    counts: str = ""
    optional: bool = False
    open: int = 0
    custom: tuple[tuple[str, tuple[tuple[int, ...], ...]], ...] = ()

    @classmethod
    def from_json(cls, value: object) -> Puzzle:
        """Read and check a plane puzzle given as parsed JSON
        (:func:`~polyforms.studio.puzzle_files.puzzle_from_json` reads boxes too).

        Raises
        ------
        PolyformError
            Not a puzzle: a field missing, of the wrong type or out of bounds.
        """
        if not isinstance(value, Mapping):
            raise WrongTypeError("a puzzle is a JSON object")
        if value.get("format", FORMAT) != FORMAT or value.get("version", VERSION) != VERSION:
            raise PolyformError(f"not a {FORMAT} puzzle of version {VERSION}")
        lattice = _check_lattice(value.get("lattice", "square"))
        rows = _side(value.get("rows"), "rows")
        cols = _side(value.get("cols"), "cols")
        cells = _cells(value.get("cells"), 3 if lattice == "triangle" else 2)
        custom = _custom(value.get("custom", []), lattice)
        pieces = _set_name(value.get("pieces"), lattice, custom)
        flags = {key: value.get(key, True) for key in ("rotations", "reflections")}
        flags["optional"] = value.get("optional", False)
        for key, flag in flags.items():
            if not isinstance(flag, bool):
                raise WrongTypeError(f"{key} must be true or false")
        copies = whole_field(value.get("copies", 1), "copies", 1, MAX_COPIES_ASKED)
        counts = _counts(value.get("counts", ""), pieces, custom)
        opened = whole_field(value.get("open", 0), "open", 0, len(cells))
        return cls(
            lattice, rows, cols, cells, pieces, copies=copies, counts=counts, open=opened,
            custom=custom, **flags,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The puzzle as JSON values (cells as lists), with its format and version first."""
        fields = asdict(self)
        fields["cells"] = [list(cell) for cell in self.cells]
        # Drawn pieces only when there are some: a named set's puzzle has no "custom" key.
        fields.pop("custom")
        if self.custom:
            fields["custom"] = [
                {"name": name, "cells": [list(cell) for cell in cells]}
                for name, cells in self.custom
            ]
        return {"format": FORMAT, "version": VERSION, **fields}

    def problem(self):
        """The :class:`~polyforms.TilingProblem` of this puzzle."""
        from ..region import Region
        from ..tiling.problem import tile

        region = Region(self.cells, lattice=self.lattice)
        counts: dict | None = None
        if self.copies != 1 or self.counts:
            from ..piece_sets import parse_copies

            counts = {name: self.copies for name in self.piece_names()}
            if self.counts:
                counts.update(parse_copies(self.counts))
        pieces = self._piece_set(counts) if self.custom else self.pieces
        return tile(
            region, pieces, counts=counts, optional=self.optional, open=self.open,
            rotations=self.rotations, reflections=self.reflections,
        )  # fmt: skip

    def piece_names(self) -> list[str]:
        """The names of the named set's pieces, then of the drawn ones."""
        from ..piece_sets import pieces

        named = list(pieces(self.pieces)) if self.pieces else []
        return named + [name for name, _ in self.custom]

    def _piece_set(self, counts: dict | None):
        """The named set's pieces and the drawn ones as one
        :class:`~polyforms.PieceSet`, turned as the named set allows."""
        from ..piece_sets import PieceSet, pieces
        from ..polyform import Polyform

        shapes = dict(pieces(self.pieces)) if self.pieces else {}
        for name, cells in self.custom:
            shapes[name] = Polyform(cells, lattice=self.lattice)
        return PieceSet(
            shapes, counts, optional=self.optional, rotations=self.rotations,
            reflections=self.reflections,
            kind="one-sided" if self.pieces.startswith("one-sided") else "free",
        )  # fmt: skip


def _check_lattice(lattice: object) -> str:
    if lattice not in LATTICES:
        shown = str(lattice)[:20]
        raise PolyformError(f"lattice must be one of {', '.join(LATTICES)}, not {shown!r}")
    return lattice  # type: ignore[return-value]


def _set_name(pieces: object, lattice: str, custom: tuple) -> str:
    """The named set of a puzzle, on its lattice (``""``: the drawn pieces alone)."""
    if pieces == "" and custom:
        return ""
    if pieces not in set_lattices():
        raise PolyformError(
            f"unknown piece set {str(pieces)[:40]!r}; choose one of " + ", ".join(set_lattices())
        )
    if set_lattices()[pieces] != lattice:
        raise PolyformError(f"the {pieces} are not drawn on the {lattice} lattice")
    from ..piece_sets import pieces as named_pieces

    taken = [name for name, _ in custom if name in named_pieces(pieces)]
    if taken:
        raise PolyformError(f"the {pieces} have a piece called {taken[0]!r}: name yours otherwise")
    return pieces  # type: ignore[return-value]


def _custom(value: object, lattice: str) -> tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]:
    """The drawn pieces: at most :data:`MAX_CUSTOM`, each a name and at most
    :data:`MAX_CUSTOM_CELLS` connected cells of the lattice, no name twice."""
    from ..polyform import Polyform

    if not isinstance(value, list):
        raise WrongTypeError("custom must be a list of pieces")
    if len(value) > MAX_CUSTOM:
        raise TooLargeError(f"at most {MAX_CUSTOM} pieces may be drawn, not {len(value)}")
    found: dict[str, tuple[tuple[int, ...], ...]] = {}
    for piece in value:
        if not isinstance(piece, Mapping):
            raise WrongTypeError("a drawn piece is a JSON object with a name and cells")
        name = piece.get("name")
        if not isinstance(name, str) or not CUSTOM_NAME.match(name):
            raise PolyformError(
                f"a piece's name is 1 to 12 letters, digits or _, not {str(name)[:20]!r}"
            )
        if name in found:
            raise PolyformError(f"two drawn pieces are called {name!r}")
        cells = _cells(piece.get("cells"), 3 if lattice == "triangle" else 2, f"piece {name}")
        if len(cells) > MAX_CUSTOM_CELLS:
            raise TooLargeError(f"piece {name} has more than {MAX_CUSTOM_CELLS} cells")
        try:
            Polyform(cells, lattice=lattice)
        except PolyformError as error:
            raise type(error)(f"piece {name}: {error}") from None
        found[name] = cells
    return tuple(found.items())


def _counts(value: object, pieces: str, custom: tuple = ()) -> str:
    """Per-piece counts as ``--copies`` reads them, every name one of the set's
    or of the drawn pieces."""
    from ..piece_sets import pieces as named_pieces

    def known() -> set[str]:
        names = set(named_pieces(pieces)) if pieces else set()
        return names | {name for name, _ in custom}

    among = " and ".join(filter(None, [pieces, "drawn pieces" if custom else ""]))
    return counts_text(value, known, among)


def counts_text(value: object, known, among: str) -> str:
    """The ``counts`` field: text as ``--copies`` reads it (bounded), every name in
    ``known()`` (called only when there is text), ``among`` naming them in errors."""
    from ..piece_sets import parse_copies

    if not isinstance(value, str):
        raise WrongTypeError("counts must be text such as I=0..2,X=1")
    if len(value) > MAX_COUNTS_TEXT:
        raise TooLargeError(f"counts is longer than {MAX_COUNTS_TEXT:,} characters")
    text = value.strip()
    if not text:
        return ""
    names = known()
    unknown = [name for name in parse_copies(text) if name not in names]
    if unknown:
        shown = ", ".join(repr(name[:20]) for name in unknown[:5])
        raise PolyformError(f"counts name pieces not among the {among}: {shown}")
    return text


def whole_field(value: object, what: str, low: int, high: int) -> int:
    """A puzzle field ``what`` that must be a whole number from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongTypeError(f"{what} must be a whole number, not {str(value)[:20]!r}")
    if not low <= value <= high:
        raise PolyformError(f"{what} must be from {low} to {high}, not {value}")
    return value


def _side(value: object, what: str) -> int:
    return whole_field(value, what, 1, MAX_GRID_SIDE)


def _cells(value: object, length: int, what: str = "the board") -> tuple[tuple[int, ...], ...]:
    """The cells of ``what``: a list of at most as many cells as the largest grid, each
    ``length`` whole numbers in the grid's range, none twice."""
    if not isinstance(value, list):
        raise WrongTypeError("cells must be a list of cells")
    most = min(MAX_REGION_CELLS, 2 * MAX_GRID_SIDE**2)
    if not value:
        raise PolyformError(f"{what} has no cells")
    if len(value) > most:
        raise TooLargeError(f"{what} has {len(value):,} cells, more than the {most:,} drawn")
    cells = []
    for cell in value:
        if (
            not isinstance(cell, list)
            or len(cell) != length
            or not all(type(k) is int and 0 <= k < 2 * MAX_GRID_SIDE for k in cell)
        ):
            raise PolyformError(
                f"a cell is a list of {length} whole numbers from 0 to {2 * MAX_GRID_SIDE - 1}, "
                f"not {json.dumps(cell)[:40]}"
            )
        cells.append(tuple(cell))
    if len(set(cells)) != len(cells):
        raise PolyformError(f"a cell is on {what} twice")
    return tuple(sorted(cells))

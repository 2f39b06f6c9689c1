"""Any studio puzzle, plane or a box of cubes: read from parsed JSON, from a
file (JSON, or a BurrTools ``.xmpuzzle``), and written back.

:class:`~polyforms.studio.puzzle.Puzzle` reads the plane puzzles and
:class:`~polyforms.studio.solids.SolidPuzzle` the boxes; this module chooses
between them, above both.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from ..errors import PolyformError, TooLargeError, WrongTypeError
from .puzzle import MAX_FILE_BYTES, Puzzle
from .solids import SolidPuzzle, read_solid_xmpuzzle, write_solid_xmpuzzle

__all__ = ["puzzle_from_json", "read_puzzle", "write_puzzle"]


def puzzle_from_json(value: object) -> Puzzle:
    """Read and check a puzzle given as parsed JSON: a box of layers when its
    lattice is ``cube``, else a plane puzzle.

    Raises
    ------
    PolyformError
        Not a puzzle: a field missing, of the wrong type or out of bounds.
    """
    if not isinstance(value, Mapping):
        raise WrongTypeError("a puzzle is a JSON object")
    if value.get("lattice") == "cube":
        return SolidPuzzle.from_json(dict(value))
    return Puzzle.from_json(value)


def read_puzzle(path: str | os.PathLike[str]) -> Puzzle:
    """The puzzle in a JSON file, or the box of a BurrTools ``.xmpuzzle`` file.

    Raises
    ------
    PolyformError
        Not a puzzle file (named in the message); OSError: unreadable.
    """
    if os.fspath(path).endswith(".xmpuzzle"):
        return read_solid_xmpuzzle(path)
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise TooLargeError(f"{os.fspath(path)}: larger than {MAX_FILE_BYTES >> 20} MiB")
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError) as error:
        raise PolyformError(f"{os.fspath(path)}: not JSON ({error})") from None
    try:
        return puzzle_from_json(value)
    except PolyformError as error:
        raise type(error)(f"{os.fspath(path)}: {error}") from None


def write_puzzle(puzzle: Puzzle, path: str | os.PathLike[str]) -> None:
    """Write the puzzle to ``path`` atomically (a whole file or the old one); a path
    ending in ``.xmpuzzle`` gets a BurrTools file."""
    from .._atomic import atomic_output

    if os.fspath(path).endswith(".xmpuzzle"):
        return write_solid_xmpuzzle(puzzle, path)
    text = json.dumps(puzzle.to_json(), separators=(",", ":")) + "\n"
    with atomic_output(path) as handle:
        handle.write(text)

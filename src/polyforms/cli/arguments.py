"""The file arguments of the command line: inputs given by a file name, ``-`` or
inline text, and the format an output file's name implies.

``polyforms tile REGION --pieces SET`` takes either argument as a file (an
existing path, or ``-`` for standard input) or as the text itself: a box
(``6x10``, ``3x4x5``) or a set's name (``pentominoes``, ``free:4``). A picture
is taken inline only when it holds a line break, so that a mistyped file name
(``nofile.txt``, whose letters would be cells) is an error saying so and
never a one-line picture. ``polyforms solve FILE.dlx`` takes a file. An error
in the text of a file names the file first, so that a user with two input
files knows which one is wrong.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from .._textio import NAME_LIMIT, InputFileError, read_text, shorten
from ..errors import FileError, PolyformError, TooLargeError, UnknownNameError

if TYPE_CHECKING:
    from ..exactcover.problem import ExactCover
    from ..piece_sets import PieceSet
    from ..region import Region

__all__ = ["format_from_path", "read_dlx", "read_piece_set", "read_region", "read_tile_inputs"]

T = TypeVar("T")


def read_region(spec: str, lattice: str | None = None) -> Region:
    """The region ``spec`` names: a box (``6x10``, ``3x4x5``), a picture in a
    file (an existing path, or ``-`` for standard input), or a picture written
    inline, which must hold a line break. On the triangular or hexagonal
    ``lattice`` a box is a parallelogram and ``tri:N`` / ``hex:N`` name a
    triangle and a hexagon (:meth:`polyforms.Region.parse`).

    Raises
    ------
    InputFileError
        ``spec`` is none of these: "no such file, and not a shape like 6x10 or
        3x4x5: nofile.txt".
    """
    from ..region import Region, is_box

    text, name = _text_or_file(spec, "region file")
    plane = lattice in ("triangle", "hex")
    if name is None and "\n" not in text and not is_box(text):
        if not (plane and re.match(r"^\s*(tri|hex)\s*:", text)):
            shown = shorten(text, NAME_LIMIT)
            shapes = "6x6, tri:N or hex:N" if plane else "6x10 or 3x4x5"
            raise InputFileError(
                f"no such file, and not a shape like {shapes}: {shown}", shown, errno.ENOENT
            )
    region = _parsed(name, lambda: Region.parse(text, lattice=lattice))
    if lattice is not None and region.lattice.name != lattice:
        raise PolyformError(
            f"the region is of the {region.lattice.name} lattice, not of the {lattice} lattice"
        )
    return region


def read_tile_inputs(args) -> tuple[Region, PieceSet]:
    """The region and the pieces of ``polyforms tile``: both from a BurrTools
    ``REGION.xmpuzzle`` file (:mod:`polyforms.files.burrtools`), else REGION and
    ``--pieces`` as :func:`read_region` and :func:`read_piece_set` read them."""
    if args.region.lower().endswith(".xmpuzzle"):
        given = [flag for flag, value in (("--pieces", args.pieces), ("--copies", args.copies))
                 if value is not None]  # fmt: skip
        if given:
            raise PolyformError(f"a .xmpuzzle file brings its pieces and counts: drop {given[0]}")
        from ..files.burrtools import read_xmpuzzle

        puzzle = read_xmpuzzle(args.region)
        return puzzle.region, puzzle.pieces
    if args.pieces is None:
        raise PolyformError("the argument --pieces is required (unless REGION is a .xmpuzzle)")
    from ..piece_sets import named_set_lattice

    # Without --lattice, a named set of polyiamonds or polyhexes brings its lattice.
    lattice = args.lattice or named_set_lattice(args.pieces)
    region = read_region(args.region, lattice)
    piece_set = read_piece_set(
        args.pieces, region.dim, args.copies, reuse=args.reuse, optional=args.optional,
        rotations=args.rotations, reflections=args.reflections, lattice=lattice,
    )  # fmt: skip
    return region, piece_set


def read_piece_set(
    spec: str,
    dim: int = 2,
    copies: str | None = None,
    *,
    reuse: bool = False,
    optional: bool = False,
    rotations: bool = True,
    reflections: bool = True,
    lattice: str | None = None,
) -> PieceSet:
    """The piece set ``spec`` names (see :meth:`polyforms.piece_sets.PieceSet.resolve`),
    the pictures in a file (an existing path, or ``-``), or pictures written
    inline, which must hold a line break.

    ``copies`` is the text of ``--copies`` (:func:`polyforms.piece_sets.parse_copies`);
    the keywords are those of :meth:`~polyforms.piece_sets.PieceSet.resolve`;
    pictures, ``free:N`` and the like are read on ``lattice`` (a name).

    Raises
    ------
    UnknownNameError
        ``spec`` is neither a file nor a set's name ("unknown piece set
        'nofile.txt', and no such file; known sets: ...").
    PolyformError
        The set is of another lattice than ``lattice`` (hexiamonds on hex).
    """
    from ..piece_sets import PieceSet, known_sets, parse_copies

    text, name = _text_or_file(spec, "pieces file")
    if name is None and "\n" not in text and not _set_name(text):
        raise UnknownNameError(
            f"unknown piece set {shorten(text)!r}, and no such file; known sets: {known_sets()}"
        )
    if name is not None or "\n" in text:
        _check_picture_cells(name, text)
    counts = parse_copies(copies) if copies else None
    plane = lattice if lattice in ("triangle", "hex") else None
    found = _parsed(
        name,
        lambda: PieceSet.resolve(
            text, dim, counts, reuse=reuse, optional=optional, rotations=rotations,
            reflections=reflections, lattice=plane,
        ),
    )  # fmt: skip
    if lattice is not None and found.lattice.name != lattice:
        what = f"the set {shorten(text)}" if name is None and "\n" not in text else "the pieces"
        raise PolyformError(
            f"{what} is of the {found.lattice.name} lattice, not of the {lattice} lattice"
        )
    return found


def read_dlx(path: str) -> ExactCover:
    """The exact cover problem in Knuth's DLX format in file ``path`` (``-``: standard input)."""
    from ..exactcover.problem import ExactCover

    text = read_text(path, "DLX file")
    return _parsed(_file_name(path), lambda: ExactCover.from_dlx(text))


def format_from_path(path: str | None, formats: tuple[str, ...], default: str) -> str:
    """The format named by an output file's ending, or ``default`` (no file, or no ending).

    Examples
    --------
    >>> format_from_path("free8.jsonl", ("txt", "jsonl"), "txt")
    'jsonl'
    >>> format_from_path(None, ("txt", "jsonl"), "txt")
    'txt'
    """
    if not path or path == "-":
        return default
    ending = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if ending in formats:
        return ending
    if ending:
        raise UnknownNameError(
            f"cannot tell the format from {shorten(path, NAME_LIMIT)!r}; "
            f"give --format ({', '.join(formats)})"
        )
    return default


def _set_name(text: str) -> bool:
    """Might ``text`` name a piece set: one of the names, or ``KIND:N``? (A wrong
    ``KIND:N`` gets its own message from :func:`polyforms.piece_sets.pieces`.)"""
    from ..piece_sets import piece_set_names

    return text in piece_set_names() or ":" in text


def _text_or_file(spec: str, what: str) -> tuple[str, str | None]:
    """The text of ``spec`` and its file's name when it names a file (or is ``-``),
    else ``spec`` itself and None.

    An existing path is always a file, whatever it looks like, and its text
    is always a picture: it ends with a newline, so that one line of letters
    is never taken for the name of a piece set.
    """
    if spec == "-" or os.path.exists(spec):
        text = read_text(spec, what)
        return (text if text.endswith("\n") else text + "\n"), _file_name(spec)
    return spec, None


def _check_picture_cells(name: str | None, text: str) -> None:
    """Refuse pictures of pieces marking more cells than the largest region has,
    before they are read (a tuple per cell): no such piece could be placed."""
    from ..limits import MAX_REGION_CELLS
    from ..polyform import count_marks

    cells = count_marks(text)
    if cells > MAX_REGION_CELLS:
        where = f"{name}: " if name else ""
        raise TooLargeError(
            f"{where}the pictures of the pieces mark {cells:,} cells, beyond the limit of "
            f"{MAX_REGION_CELLS:,} (the most a region may have)"
        )


def _file_name(spec: str) -> str:
    return "standard input" if spec == "-" else shorten(spec, NAME_LIMIT)


def _parsed(name: str | None, parse: Callable[[], T]) -> T:
    """``parse()``, with the input file's ``name`` (if any) before the message of an
    error in its text."""
    try:
        return parse()
    except FileError:
        raise  # names its file already
    except PolyformError as error:
        if name is None:
            raise
        raise type(error)(f"{name}: {error}") from None

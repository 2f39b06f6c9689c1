"""polyforms: polyominoes and polycubes, enumeration, exact cover and tiling.

The public API is flat: ``import polyforms as pf`` then ``pf.polyominoes(5)``,
``pf.ExactCover(...)``, ``pf.tile(...)``.

Names are loaded on first use (PEP 562), so ``import polyforms`` and the
``polyforms`` command start in milliseconds and a command pays only for the
modules it uses.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (7 ms at start-up)

__version__ = "0.2.0.dev0"

# name -> the module of polyforms that defines it
_SOURCES = {
    "calendar_problem": "puzzles.puzzle_a_day",
    "read_catalogue": "files.catalogue",
    "write_catalogue": "files.catalogue",
    "SvgDrawing": "draw.plane",
    "catalogue_svg": "draw.plane",
    "piece_colour": "draw.plane",
    "polyform_svg": "draw.plane",
    "queens_svg": "draw.plane",
    "region_svg": "draw.plane",
    "tiling_svg": "draw.plane",
    "tilings_sheet_svg": "draw.plane",
    "exploded_svg": "draw.isometric",
    "packing_svg": "draw.isometric",
    "draw_file": "files.drawfile",
    "count": "enumeration.generate",
    "enumerate_polyforms": "enumeration.generate",
    "polycubes": "enumeration.generate",
    "polyominoes": "enumeration.generate",
    "DisconnectedError": "errors",
    "DLXFormatError": "errors",
    "ExactCoverError": "errors",
    "ParseError": "errors",
    "PolyformError": "errors",
    "TilingError": "errors",
    "TooLargeError": "errors",
    "UnknownNameError": "errors",
    "ExactCover": "exactcover.problem",
    "Coloured": "exactcover.problem",
    "Transform": "geometry",
    "dilate": "geometry",
    "normalise": "geometry",
    "symmetries": "geometry",
    "PieceSet": "piece_sets",
    "piece_set_names": "piece_sets",
    "pieces": "piece_sets",
    "SYMMETRY_CLASSES": "polyform",
    "Polyform": "polyform",
    "parse_lettered": "polyform",
    "Region": "region",
    "Placement": "files.solutions",
    "Tiling": "files.solutions",
    "read_solutions": "files.solutions",
    "write_tilings": "files.solutions",
    "TilingProblem": "tiling.problem",
    "tile": "tiling.problem",
}

# public modules: name -> where it lives
_SUBMODULES = {"examples": "puzzles.examples"}

# the packages by concern, loaded when first named (``polyforms.tiling``)
_PACKAGES = ("draw", "enumeration", "exactcover", "files", "jobs", "puzzles", "tiling")

__all__ = sorted([*_SOURCES, *_SUBMODULES])


def __getattr__(name: str) -> object:
    if name in _SOURCES:
        value = getattr(importlib.import_module(f"{__name__}.{_SOURCES[name]}"), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"{__name__}.{_SUBMODULES[name]}")
    elif name in _PACKAGES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:  # for type checkers and IDEs: the same names, imported eagerly
    from .draw.isometric import exploded_svg, packing_svg
    from .draw.plane import (
        SvgDrawing,
        catalogue_svg,
        piece_colour,
        polyform_svg,
        queens_svg,
        region_svg,
        tiling_svg,
        tilings_sheet_svg,
    )
    from .enumeration.generate import count, enumerate_polyforms, polycubes, polyominoes
    from .errors import (
        DisconnectedError,
        DLXFormatError,
        ExactCoverError,
        ParseError,
        PolyformError,
        TilingError,
        TooLargeError,
        UnknownNameError,
    )
    from .exactcover.problem import Coloured, ExactCover
    from .files.catalogue import read_catalogue, write_catalogue
    from .files.drawfile import draw_file
    from .files.solutions import Placement, Tiling, read_solutions, write_tilings
    from .geometry import Transform, dilate, normalise, symmetries
    from .piece_sets import PieceSet, piece_set_names, pieces
    from .polyform import SYMMETRY_CLASSES, Polyform, parse_lettered
    from .puzzles import examples
    from .puzzles.puzzle_a_day import calendar_problem
    from .region import Region
    from .tiling.problem import TilingProblem, tile

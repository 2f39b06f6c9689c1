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
    "calendar_problem": "calendar",
    "read_catalogue": "catalogue",
    "write_catalogue": "catalogue",
    "SvgDrawing": "draw",
    "catalogue_svg": "draw",
    "piece_colour": "draw",
    "polyform_svg": "draw",
    "queens_svg": "draw",
    "region_svg": "draw",
    "tiling_svg": "draw",
    "tilings_sheet_svg": "draw",
    "exploded_svg": "draw3d",
    "packing_svg": "draw3d",
    "draw_file": "drawfile",
    "count": "enumerate",
    "enumerate_polyforms": "enumerate",
    "polycubes": "enumerate",
    "polyominoes": "enumerate",
    "DisconnectedError": "errors",
    "DLXFormatError": "errors",
    "ExactCoverError": "errors",
    "ParseError": "errors",
    "PolyformError": "errors",
    "TilingError": "errors",
    "TooLargeError": "errors",
    "UnknownNameError": "errors",
    "ExactCover": "exactcover",
    "Coloured": "exactcover",
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
    "Placement": "solutions",
    "Tiling": "solutions",
    "read_solutions": "solutions",
    "write_tilings": "solutions",
    "TilingProblem": "tiling",
    "tile": "tiling",
}

_SUBMODULES = ("examples",)

__all__ = sorted([*_SOURCES, *_SUBMODULES])


def __getattr__(name: str) -> object:
    if name in _SOURCES:
        value = getattr(importlib.import_module(f"{__name__}.{_SOURCES[name]}"), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:  # for type checkers and IDEs: the same names, imported eagerly
    from . import examples
    from .calendar import calendar_problem
    from .catalogue import read_catalogue, write_catalogue
    from .draw import (
        SvgDrawing,
        catalogue_svg,
        piece_colour,
        polyform_svg,
        queens_svg,
        region_svg,
        tiling_svg,
        tilings_sheet_svg,
    )
    from .draw3d import exploded_svg, packing_svg
    from .drawfile import draw_file
    from .enumerate import count, enumerate_polyforms, polycubes, polyominoes
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
    from .exactcover import Coloured, ExactCover
    from .geometry import Transform, dilate, normalise, symmetries
    from .piece_sets import PieceSet, piece_set_names, pieces
    from .polyform import SYMMETRY_CLASSES, Polyform, parse_lettered
    from .region import Region
    from .solutions import Placement, Tiling, read_solutions, write_tilings
    from .tiling import TilingProblem, tile

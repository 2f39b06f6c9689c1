"""polyforms: polyominoes and polycubes, enumeration, exact cover and tiling.

The public API is flat: ``import polyforms as pf`` then ``pf.polyominoes(5)``,
``pf.ExactCover(...)``, ``pf.tile(...)``.
"""

from __future__ import annotations

from . import examples  # noqa: E402  (needs ExactCover)
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
from .exactcover import ExactCover
from .geometry import Transform, dilate, normalise, symmetries
from .pieces import PieceSet, piece_set_names, pieces
from .polyform import SYMMETRY_CLASSES, Polyform, parse_lettered
from .region import Region
from .solutions import Placement, Tiling, read_solutions, write_tilings
from .tiling import TilingProblem, tile

__version__ = "0.1.0.dev0"

__all__ = [
    "Polyform",
    "SYMMETRY_CLASSES",
    "Transform",
    "count",
    "dilate",
    "enumerate_polyforms",
    "normalise",
    "parse_lettered",
    "piece_set_names",
    "pieces",
    "polycubes",
    "polyominoes",
    "read_catalogue",
    "symmetries",
    "write_catalogue",
    "SvgDrawing",
    "catalogue_svg",
    "draw_file",
    "exploded_svg",
    "packing_svg",
    "piece_colour",
    "polyform_svg",
    "queens_svg",
    "region_svg",
    "tiling_svg",
    "tilings_sheet_svg",
    "calendar_problem",
    "PieceSet",
    "Placement",
    "Region",
    "tile",
    "Tiling",
    "read_solutions",
    "write_tilings",
    "TilingProblem",
    "DisconnectedError",
    "DLXFormatError",
    "examples",
    "ExactCover",
    "ExactCoverError",
    "ParseError",
    "PolyformError",
    "TilingError",
    "TooLargeError",
    "UnknownNameError",
]

"""polyforms: polyominoes and polycubes, enumeration, exact cover and tiling.

The public API is flat: ``import polyforms as pf`` then ``pf.polyominoes(5)``,
``pf.ExactCover(...)``, ``pf.tile(...)``.
"""

from __future__ import annotations

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
from . import examples  # noqa: E402  (needs ExactCover)

__version__ = "0.1.0.dev0"

__all__ = [
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

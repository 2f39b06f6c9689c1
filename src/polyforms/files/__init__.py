"""Files: catalogues of polyforms and files of tilings, written and read, and
drawing what a file holds.
"""

from __future__ import annotations

from .._lazy import attach

TYPE_CHECKING = False

_SOURCES = {
    "read_catalogue": "catalogue",
    "write_catalogue": "catalogue",
    "write_polyforms": "catalogue",
    "Placement": "solutions",
    "Tiling": "solutions",
    "read_solutions": "solutions",
    "write_tilings": "solutions",
    "draw_file": "drawfile",
    "model_file": "drawfile",
}

__all__, __getattr__, __dir__ = attach(__name__, _SOURCES)

if TYPE_CHECKING:  # the same names, imported eagerly, for type checkers
    from .catalogue import read_catalogue, write_catalogue, write_polyforms
    from .drawfile import draw_file, model_file
    from .solutions import Placement, Tiling, read_solutions, write_tilings

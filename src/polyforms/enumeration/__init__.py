"""Enumerating and counting polyforms: the naive method, Redelmeier's algorithm,
transfer matrices and Burnside's lemma.
"""

from __future__ import annotations

from .._lazy import attach

TYPE_CHECKING = False

_SOURCES = {
    "count": "generate",
    "enumerate_polyforms": "generate",
    "estimate": "generate",
    "polycubes": "generate",
    "polyominoes": "generate",
    "METHODS": "generate",
}

__all__, __getattr__, __dir__ = attach(__name__, _SOURCES)

if TYPE_CHECKING:  # the same names, imported eagerly, for type checkers
    from .generate import METHODS, count, enumerate_polyforms, estimate, polycubes, polyominoes

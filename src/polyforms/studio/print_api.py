"""The studio's route for printing a puzzle's pieces: a sheet to cut out or a 3D model.

=========================  ======  =========================================
route                      method  what
=========================  ======  =========================================
``/api/pieces``            POST    the puzzle's pieces as svg (any lattice) or stl, obj, glb (cubes)
=========================  ======  =========================================

The body is ``{"puzzle": ..., "format": "svg", "cell": 20, "edge": 20, "gap": 0.2,
"palette": "default"}``. A plane puzzle's sheet is the library's catalogue of its
pieces (:func:`polyforms.draw.catalogue_svg`), each copy the puzzle may use once,
with its width and height in millimetres so that a cell's edge prints ``cell`` mm
long; a box's pieces are a model of separate pieces (:func:`polyforms.draw.pieces_model`,
cube edge ``edge`` mm, play ``gap`` mm) or their isometric pictures. The route sits
behind the token guard and body bound of every ``/api/`` route and touches no file:
the bytes go back to the page.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import PolyformError, TooLargeError, WrongTypeError
from .puzzle import Puzzle
from .puzzle_files import puzzle_from_json
from .requests import read_json
from .solid_api import EXPORT_FORMATS

__all__ = ["MAX_PRINTED", "piece_items", "pieces_file", "print_routes"]

#: The most pieces (copies counted) one sheet or model holds.
MAX_PRINTED = 500
#: A plane cell's edge on paper, in millimetres: the default and the bounds.
CELL_MM, MIN_CELL_MM, MAX_CELL_MM = 20.0, 3.0, 200.0
#: The width of paper a sheet's rows fill (A4 less 10 mm margins), in millimetres.
PAGE_MM = 190.0
#: A cell's edge in the drawing's own units, which the millimetres scale.
_DRAWN_CELL = 24
_ROOT_SIZE = re.compile(r'^(<svg[^>]*?) height="([0-9.]+)"([^>]*?) width="([0-9.]+)"')


def piece_items(puzzle: Puzzle) -> list[tuple[str, Any]]:
    """The pieces to print, ``(name, Polyform)``, each as many times as the puzzle
    may use it (a range: its greatest; any number: as many as the board holds)."""
    from ..piece_sets import PieceSet

    if puzzle.lattice == "cube":
        shapes, counts = puzzle.piece_shapes(), puzzle.copy_counts()
    else:
        shapes = puzzle._piece_set(None).pieces
        counts = None
        if puzzle.copies != 1 or puzzle.counts:
            from ..piece_sets import parse_copies

            counts = {name: puzzle.copies for name in shapes}
            counts.update(parse_copies(puzzle.counts) if puzzle.counts else {})
    ranges = PieceSet(shapes, counts, optional=puzzle.optional).ranges
    items: list[tuple[str, Any]] = []
    for name, shape in shapes.items():
        low, high = ranges[name]
        copies = high if high >= 0 else max(low, len(puzzle.cells) // max(1, shape.size))
        items.extend([(name, shape)] * copies)
        if len(items) > MAX_PRINTED:
            raise TooLargeError(f"more than {MAX_PRINTED} pieces to print")
    if not items:
        raise PolyformError("the puzzle uses no piece: nothing to print")
    return items


def _size(value: object, what: str, default: float, low: float, high: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise WrongTypeError(f"{what} must be a number of millimetres from {low:g} to {high:g}")
    return float(value)


def _in_millimetres(svg: str, scale: float) -> str:
    """The sheet with its width and height in millimetres: ``scale`` mm per unit."""

    def sized(match: re.Match[str]) -> str:
        height, width = float(match.group(2)) * scale, float(match.group(4)) * scale
        return f'{match.group(1)} height="{height:.2f}mm"{match.group(3)} width="{width:.2f}mm"'

    return _ROOT_SIZE.sub(sized, svg, count=1)


def plane_sheet(items: list, cell_mm: float) -> str:
    """The cut-out sheet: the pieces in rows that fill :data:`PAGE_MM`, labelled."""
    from ..draw import catalogue_svg

    one_column = catalogue_svg(items, columns=1, cell=_DRAWN_CELL)
    slot = float(_ROOT_SIZE.match(one_column).group(4)) - _DRAWN_CELL  # type: ignore[union-attr]
    scale = cell_mm / _DRAWN_CELL
    columns = max(1, int((PAGE_MM / scale - _DRAWN_CELL) // slot))
    sheet = catalogue_svg(items, columns=min(columns, len(items)), cell=_DRAWN_CELL)
    return _in_millimetres(str(sheet), scale)


def pieces_file(value: object) -> tuple[bytes, str]:
    """The file of a ``/api/pieces`` request: its bytes and its format.

    Raises
    ------
    PolyformError
        A bad puzzle, format, size or palette, too many pieces, or trimesh missing.
    """
    if not isinstance(value, dict):
        raise WrongTypeError("pieces are asked as a JSON object")
    puzzle = puzzle_from_json(value.get("puzzle"))
    fmt = value.get("format", "svg")
    allowed = list(EXPORT_FORMATS) if puzzle.lattice == "cube" else ["svg"]
    if fmt not in allowed:
        shown = str(fmt)[:20]
        raise PolyformError(f"format must be one of {', '.join(allowed)}, not {shown!r}")
    items = piece_items(puzzle)
    if puzzle.lattice != "cube":
        cell = _size(value.get("cell"), "cell", CELL_MM, MIN_CELL_MM, MAX_CELL_MM)
        return plane_sheet(items, cell).encode(), fmt
    if fmt == "svg":
        from ..draw import catalogue_svg

        return str(catalogue_svg(items, cell=16)).encode(), fmt
    from ..draw.mesh import pieces_model
    from ..draw.svg import PALETTES

    palette = value.get("palette", "default")
    if palette not in PALETTES:
        raise PolyformError(f"palette must be one of {', '.join(PALETTES)}")
    edge = _size(value.get("edge"), "edge", 20.0, 1.0, 500.0)
    gap = _size(value.get("gap"), "gap", 0.2, 0.0, edge / 2)
    model = pieces_model(items, fmt, unit=edge, gap=gap, colours=palette)
    return bytes(model), fmt


def print_routes() -> list[Route]:
    """The route above (:func:`polyforms.studio.app.create_app` adds it)."""

    async def pieces(request: Request) -> Response:
        data, fmt = await run_in_threadpool(pieces_file, await read_json(request))
        return Response(data, media_type=EXPORT_FORMATS[fmt], headers={
            "Content-Disposition": f'attachment; filename="pieces.{fmt}"'})  # fmt: skip

    return [Route("/api/pieces", pieces, methods=["POST"])]

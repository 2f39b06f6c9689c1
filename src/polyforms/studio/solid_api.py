"""The studio's routes for 3D puzzles: box grids, solid sets, model export, BurrTools files.

=========================  ======  =========================================
route                      method  what
=========================  ======  =========================================
``/api/solids``            GET     the solid piece sets and the box presets
``/api/box``               POST    a box's drawing grid: its layers side by side
``/api/export``            POST    one packing as stl, obj, glb or svg
``/api/xmpuzzle/read``     POST    a BurrTools file's bytes -> a puzzle
``/api/xmpuzzle``          POST    a puzzle -> a BurrTools file's bytes
=========================  ======  =========================================

They sit behind the same token guard and body bound as every ``/api/`` route
(:mod:`polyforms.studio.app`); none touches a file: a BurrTools file is sent by
the page (read there from the file the user picked) and handed back as bytes.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import PolyformError, TooLargeError, WrongTypeError
from .puzzle_files import puzzle_from_json
from .requests import read_body, read_json
from .solids import (
    BOX_PRESETS,
    MAX_BOX_CELLS,
    MAX_BOX_SIDE,
    box_grid,
    solid_sets,
    xmpuzzle_bytes,
    xmpuzzle_puzzle_bytes,
)

__all__ = ["EXPORT_FORMATS", "solid_routes"]

#: Export formats of one packing, with their media types.
EXPORT_FORMATS = {
    "stl": "model/stl",
    "obj": "model/obj",
    "glb": "model/gltf-binary",
    "svg": "image/svg+xml",
}
#: The greatest coordinate of a cube sent for export.
_MAX_COORDINATE = 1000


def _placements(value: object) -> list[tuple[str, list[tuple[int, int, int]]]]:
    """A packing sent by the page, checked: ``[[name, [[x, y, z], ...]], ...]``."""
    if not isinstance(value, list) or not value:
        raise WrongTypeError("placements must be a list of [name, cells]")
    placed, total = [], 0
    for item in value:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
                and 0 < len(item[0]) <= 40 and isinstance(item[1], list) and item[1]):  # fmt: skip
            raise WrongTypeError("a placement is [name, [[x, y, z], ...]]")
        total += len(item[1])
        if total > MAX_BOX_CELLS:
            raise TooLargeError(f"a packing of more than {MAX_BOX_CELLS:,} cubes is not exported")
        cells = []
        for cell in item[1]:
            if not (isinstance(cell, list) and len(cell) == 3
                    and all(type(k) is int and 0 <= k <= _MAX_COORDINATE
                            for k in cell)):  # fmt: skip
                raise PolyformError(
                    f"a cube is [x, y, z], each from 0 to {_MAX_COORDINATE}, not {str(cell)[:40]}"
                )
            cells.append((cell[0], cell[1], cell[2]))
        placed.append((item[0], cells))
    return placed


def export_packing(fmt: object, placements: object, palette: object = "default") -> bytes:
    """One packing's file: a 3D model (``stl``, ``obj``, ``glb``: the ``mesh`` extra)
    or its layers as SVG.

    Raises
    ------
    PolyformError
        An unknown format or palette, a bad packing, or trimesh missing
        (:class:`~polyforms.draw.mesh.MeshLibraryMissing`, saying how to install it).
    """
    from ..draw.svg import PALETTES

    if fmt not in EXPORT_FORMATS:
        shown = str(fmt)[:20]
        raise PolyformError(f"format must be one of {', '.join(EXPORT_FORMATS)}, not {shown!r}")
    if palette not in PALETTES:
        shown = str(palette)[:20]
        raise PolyformError(f"palette must be one of {', '.join(PALETTES)}, not {shown!r}")
    placed = _placements(placements)
    if fmt == "svg":
        from ..draw.isometric import exploded_svg

        return exploded_svg(placed, labels=True, colours=palette).encode()
    from ..draw.mesh import packings_model

    return bytes(packings_model([placed], fmt, colours=palette))


def solid_routes() -> list[Route]:
    """The routes above (:func:`polyforms.studio.app.create_app` adds them)."""

    async def solids(request: Request) -> JSONResponse:
        return JSONResponse({
            "sets": solid_sets(), "presets": list(BOX_PRESETS), "max_side": MAX_BOX_SIDE,
            "max_cells": MAX_BOX_CELLS,
        })  # fmt: skip

    async def box(request: Request) -> JSONResponse:
        value = await read_json(request)
        if not isinstance(value, dict):
            raise WrongTypeError("a box is asked as a JSON object")
        cells = box_grid(value.get("rows"), value.get("cols"), value.get("layers"))
        return JSONResponse({"lattice": "cube", "cells": cells})

    async def export(request: Request) -> Response:
        value = await read_json(request)
        if not isinstance(value, dict):
            raise WrongTypeError("an export is asked as a JSON object")
        fmt = value.get("format")
        data = await run_in_threadpool(
            export_packing, fmt, value.get("placements"), value.get("palette", "default")
        )
        return Response(data, media_type=EXPORT_FORMATS[fmt], headers={
            "Content-Disposition": f'attachment; filename="packing.{fmt}"'})  # fmt: skip

    async def read_burrtools(request: Request) -> JSONResponse:
        data = await read_body(request)
        name = request.headers.get("x-file-name", "")[:80] or "the file"
        puzzle = await run_in_threadpool(xmpuzzle_puzzle_bytes, data, name)
        return JSONResponse(puzzle.to_json())

    async def write_burrtools(request: Request) -> Response:
        checked = puzzle_from_json(await read_json(request))
        data = await run_in_threadpool(xmpuzzle_bytes, checked)
        return Response(data, media_type="application/gzip", headers={
            "Content-Disposition": 'attachment; filename="puzzle.xmpuzzle"'})  # fmt: skip

    return [
        Route("/api/solids", solids),
        Route("/api/box", box, methods=["POST"]),
        Route("/api/export", export, methods=["POST"]),
        Route("/api/xmpuzzle/read", read_burrtools, methods=["POST"]),
        Route("/api/xmpuzzle", write_burrtools, methods=["POST"]),
    ]

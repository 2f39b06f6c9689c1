"""A still picture of a 3D model: a packing as its printed pieces look, in SVG.

:mod:`polyforms.draw.mesh` builds each piece's closed surface
(:func:`~polyforms.draw.mesh.cube_surface`) for STL, OBJ and GLB files; here the
same surfaces, with the same ``gap`` between pieces and the same axes (z up,
seen from above a layer looks like its picture), are projected orthographically
from above the front right corner and painted back to front, each face shaded
by its angle to the light. No mesh library is needed: the picture shows what a
model file holds without a 3D viewer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import PolyformError
from .colours import INK, _mix
from .mesh import cube_surface
from .size import DrawingSize
from .svg import PLAIN, Colours, SvgDrawing, _colour_for, _document, _finish, _num, _placements

__all__ = ["model_preview_svg"]

Point = tuple[float, float, float]

# The view: from the front right, above (azimuth from +x towards +y, elevation), in
# the model's frame; the light comes from above, a little from the front left.
_AZIMUTH, _ELEVATION = math.radians(-55.0), math.radians(32.0)
_LIGHT = (-0.35, -0.55, 0.76)


def _unit_vector(vector: Point) -> Point:
    length = math.sqrt(sum(c * c for c in vector))
    return (vector[0] / length, vector[1] / length, vector[2] / length)


def _view() -> tuple[Point, Point, Point]:
    """The directions towards the viewer, to the right of the page, and up the page."""
    ca, sa = math.cos(_AZIMUTH), math.sin(_AZIMUTH)
    ce, se = math.cos(_ELEVATION), math.sin(_ELEVATION)
    return (ce * ca, ce * sa, se), (-sa, ca, 0.0), (-se * ca, -se * sa, ce)


def _dot(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _faces(cells: Sequence[Sequence[int]], gap: float) -> list[tuple[list[Point], Point]]:
    """A piece's surface as polygons in the model's frame, each with its outward normal.

    The two triangles of each square of :func:`~polyforms.draw.mesh.cube_surface`
    make one four-sided face; the picture's y is turned upwards (y -> -y), as a
    model file has it.
    """
    vertices, triangles = cube_surface(cells, unit=1.0, gap=gap)
    moved = [(x, -y, z) for x, y, z in vertices]
    faces = []
    index = 0
    while index < len(triangles):
        first = triangles[index]
        second = triangles[index + 1] if index + 1 < len(triangles) else None
        if second is not None and second[0] == first[0] and second[1] == first[2]:
            corners, index = [*first, second[2]], index + 2
        else:
            corners, index = list(first), index + 1
        points = [moved[k] for k in corners]
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = points[:3]
        u, v = (bx - ax, by - ay, bz - az), (cx - ax, cy - ay, cz - az)
        # cube_surface winds counter-clockwise seen from outside; the mirror turns it
        normal = (-(u[1] * v[2] - u[2] * v[1]), -(u[2] * v[0] - u[0] * v[2]),
                  -(u[0] * v[1] - u[1] * v[0]))  # fmt: skip
        faces.append((points, _unit_vector(normal)))
    return faces


def _painted_faces(placed: list, gap: float, cell: float, colours: Colours) -> list:
    """The faces of ``placed`` turned towards the viewer, back to front: (depth,
    piece order, corners on the page, shaded colour, piece name) each."""
    towards, right, up = _view()
    light = _unit_vector(_LIGHT)
    painted = []
    for order, (name, cells) in enumerate(placed):
        fill = _colour_for(name, colours) if name else PLAIN
        for points, normal in _faces(cells, gap):
            if _dot(normal, towards) <= 1e-9:
                continue  # turned away from the viewer
            depth = sum(_dot(p, towards) for p in points) / len(points)
            shade = _mix(fill, "#000000", 0.5 * (1 - max(0.0, _dot(normal, light))))
            page = [(_dot(p, right) * cell, -_dot(p, up) * cell) for p in points]
            painted.append((round(depth, 6), order, page, shade, name))
    if not painted:
        raise PolyformError("nothing to draw: no faces")
    painted.sort(key=lambda face: (face[0], face[1]))
    return painted


def model_preview_svg(
    placements: Iterable[Any],
    *,
    gap: float = 0.0,
    cell: float = 24,
    colours: Colours = None,
    force: bool = False,
) -> SvgDrawing:
    """A packing drawn as its 3D model: shaded solids, seen from above the front right.

    Parameters
    ----------
    placements : iterable of (piece name, cells)
        A packing (or a tiling: one cube thick), as for
        :func:`polyforms.draw.mesh.packings_model`.
    gap : float
        Play between touching pieces, in cube edges (a model's ``--gap`` over
        its ``--unit``): each face moves ``gap / 2`` inwards, so the pieces
        show apart.
    cell : float
        Length of a cube's edge on the page, in pixels.
    colours : mapping name -> colour, or a palette name, optional
        As for :func:`polyforms.draw.tiling_svg`.
    force : bool
        Draw more than :data:`~polyforms.draw.PIECE_LIMIT` pieces or
        :data:`~polyforms.draw.CELL_LIMIT` cubes.

    Returns
    -------
    SvgDrawing
        One ``<path class="face">`` (with ``data-piece``) per face turned
        towards the viewer, painted back to front.

    Raises
    ------
    PolyformError
        No placements, or a ``gap`` of a cube's edge or more.
    TooLargeError
        Past one of the limits, without ``force``.

    Notes
    -----
    Each cube shows at most three faces; a 3x4x5 packing is about 250 faces.
    Faces are painted in the order of their centres' depth, which is exact for
    the unit squares of cubes on a grid seen along no axis.

    Examples
    --------
    >>> svg = model_preview_svg([("I", [(0, 0, 0), (1, 0, 0)])])
    >>> svg.count('class="face"')  # a 2x1x1 bar: two squares on top, two in front, one end
    5
    """
    if not 0 <= gap < 1:
        raise PolyformError(f"the gap must be at least 0 and less than a cube's edge, not {gap}")
    placed = _placements(placements, DrawingSize(force))  # none: "nothing to draw"
    painted = _painted_faces(placed, gap, cell, colours)
    xs = [x for face in painted for x, _ in face[2]]
    ys = [y for face in painted for _, y in face[2]]
    margin = cell / 2
    drawing = _document(max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin)
    dx, dy = margin - min(xs), margin - min(ys)
    group = drawing.g(stroke=INK, stroke_width=_num(max(0.4, cell / 40)), stroke_linejoin="round")
    for _, _, page, shade, name in painted:
        outline = "M" + "L".join(f"{_num(x + dx)} {_num(y + dy)}" for x, y in page) + "Z"
        group.add(drawing.path(d=outline, fill=shade, class_="face", **{"data-piece": name}))
    drawing.add(group)
    return _finish(drawing)

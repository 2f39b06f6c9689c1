"""3D models of polyforms and packings for printing and viewing: STL, OBJ and GLB.

The surfaces are built here, from the cells; the files are written by trimesh,
an optional extra (``pip install "polyforms[mesh]"``), imported only when a
model is made, so ``import polyforms`` and the command line never load it or
numpy. Without it every function raises :class:`MeshLibraryMissing`, one line
saying how to install it.

Geometry
--------
Each piece is one closed surface: the faces of its cubes that do not touch
another cube of the piece, joined at shared corners, so every edge belongs to
exactly two triangles (watertight, outward normals) and the enclosed volume is
the number of cubes times ``unit**3``. A 2D polyomino becomes a tile one unit
thick.

With ``gap > 0`` every face of a piece is moved ``gap / 2`` inwards, so two
pieces that touch in a packing stand ``gap`` apart and printed pieces fit
together with that much play. The shrunken piece is computed exactly on a grid
that cuts each unit at ``gap / 2`` from either side: a sub-box belongs to it
when every cube within ``gap / 2`` of it belongs to the piece. Cubes of one
piece that meet only along an edge (possible from five cubes on) share that
edge among four faces without a gap; any gap parts them and every surface is
then a 2-manifold.

Orientation: seen from above (looking down the z axis), a layer of a model
looks like its ASCII picture, ``x`` to the right and ``y`` down the page: the
model's y axis is the picture's turned upwards, so mirror-image pieces (the
Soma's A and B) print as drawn. STL and OBJ are in millimetres with z up, as
printing software reads them; GLB follows glTF: metres, y up (the model's
axes x, y, z become glTF's z, x, y).

Formats
-------
stl
    ASCII STL with one named ``solid`` per piece (``solid F`` ... ``endsolid``).
obj
    Wavefront OBJ, one object (``o F``) per piece, with its colour per vertex.
glb
    Binary glTF, one node and mesh per piece, coloured.

Examples
--------
>>> from polyforms.draw.mesh import cube_surface
>>> vertices, faces = cube_surface([(0, 0, 0), (1, 0, 0)])
>>> len(vertices), len(faces)  # a 2x1x1 box: 12 corners, 10 squares
(12, 20)
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .._atomic import atomic_output
from .._textio import shorten
from ..errors import PolyformError, UnknownNameError
from .size import DrawingSize, whole_cell
from .svg import PLAIN, Colours, _colour_for, _placements, _rgb

if TYPE_CHECKING:  # trimesh (and numpy) load only when a model is made
    import trimesh

__all__ = [
    "MAX_GAP",
    "MAX_UNIT",
    "MESH_FORMATS",
    "MIN_GAP",
    "MIN_UNIT",
    "MeshLibraryMissing",
    "Model",
    "cube_surface",
    "packings_model",
    "piece_mesh",
    "pieces_model",
    "write_packings",
    "write_pieces",
]

#: The 3D model formats, by file ending.
MESH_FORMATS = ("stl", "obj", "glb")

#: The edge of a cube, in millimetres, a model may have: from a hundredth of a
#: millimetre (coordinates are written to a millionth) to a metre (a box of a
#: thousand cubes a side is then a kilometre; larger units only make overflow).
MIN_UNIT, MAX_UNIT = 0.01, 1000.0
#: The play between pieces, in millimetres, besides none: at least a micrometre
#: (less is lost in the written coordinates and leaves faces of no area), at most
#: 100 mm, and always less than the unit.
MIN_GAP, MAX_GAP = 0.001, 100.0

Cell3 = tuple[int, int, int]
Vertex = tuple[float, float, float]


class MeshLibraryMissing(PolyformError):
    """The 3D model formats need trimesh, the optional ``mesh`` extra."""


class Model(bytes):
    """The bytes of a model file (STL, OBJ or GLB), with :meth:`save`."""

    __slots__ = ()

    def save(self, path: str | os.PathLike[str] | None) -> None:
        """Write the file to ``path`` (None or ``"-"``: stdout) atomically."""
        with atomic_output(path, "wb") as out:
            out.write(self)


def _trimesh():
    try:
        import trimesh
    except ImportError:
        raise MeshLibraryMissing(
            '3D models (stl, obj, glb) need the mesh extra: pip install "polyforms[mesh]"'
        ) from None
    return trimesh


# -- surfaces ------------------------------------------------------------------------


def _cells_3d(cells: Iterable[Sequence[int]]) -> list[Cell3]:
    """Cells as 3D integer triples; a 2D cell ``(x, y)`` lies in the layer z = 0.

    A coordinate that is not a whole number (``0.5``) is refused, never truncated.
    """
    out = []
    for cell in cells:
        whole = whole_cell(cell)
        if len(whole) == 2:
            out.append((*whole, 0))
        elif len(whole) == 3:
            out.append(whole)
        else:
            raise PolyformError(f"expected 2D or 3D cells, got {shorten(repr(whole))}")
    if not out:
        raise PolyformError("a piece with no cells has no model")
    return out  # type: ignore[return-value]


def _check_sizes(unit: float, gap: float) -> None:
    """Refuse a unit or gap outside its range (:data:`MIN_UNIT` ... :data:`MAX_GAP`)."""
    number = (int, float)
    if not (
        isinstance(unit, number)
        and not isinstance(unit, bool)
        and MIN_UNIT <= unit <= MAX_UNIT  # also refuses NaN
    ):
        raise PolyformError(
            f"the unit must be a size from {MIN_UNIT:g} to {MAX_UNIT:g} mm, "
            f"not {shorten(repr(unit))}"
        )
    if not (
        isinstance(gap, number)
        and not isinstance(gap, bool)
        and (gap == 0 or MIN_GAP <= gap <= MAX_GAP)
        and gap < unit
    ):
        raise PolyformError(
            f"the gap must be 0 or a size from {MIN_GAP:g} to {MAX_GAP:g} mm, less than "
            f"the unit ({unit:g} mm), not {shorten(repr(gap))}"
        )


def _model_name(name: str) -> str:
    """A solid's name as a model file may carry it: on one line, UTF-8.

    Names read from files are checked already (:func:`polyforms._textio.piece_name`);
    a name from Python may hold a line break, which would start a statement of
    its own in an OBJ or STL file, or a lone surrogate, which no UTF-8 file can
    hold. Such characters are written as escapes (``\\n``, ``\\ud800``).
    """
    return shorten(name, len(name))


def cube_surface(
    cells: Iterable[Sequence[int]], *, unit: float = 1.0, gap: float = 0.0
) -> tuple[list[Vertex], list[tuple[int, int, int]]]:
    """The closed surface of a polycube as triangles: (vertices, faces).

    Coordinates are the cells' own (``y`` down the picture); the caller
    turns them into a model's frame. Faces wind counter-clockwise seen from
    outside. Vertices are listed once each, in a fixed order, so equal
    cells give equal lists.

    Parameters
    ----------
    cells : iterable of (x, y, z) or (x, y)
    unit : float
        Edge of a cube.
    gap : float
        Twice the distance by which every face is moved inwards (see the
        module notes); 0 keeps the cubes whole.

    Notes
    -----
    Cost: O(number of cells) with ``gap`` 0; 27 sub-boxes per cell otherwise.
    """
    _check_sizes(unit, gap)
    boxes, steps = _boxes(set(_cells_3d(cells)), gap / 2 / unit)

    def coordinate(k: int) -> float:
        whole, part = divmod(k, len(steps))
        return round((whole + steps[part]) * unit, 6)  # no float noise in the files

    index: dict[tuple[int, int, int], int] = {}
    vertices: list[Vertex] = []
    faces: list[tuple[int, int, int]] = []

    def corner(point: tuple[int, int, int]) -> int:
        found = index.get(point)
        if found is None:
            found = index[point] = len(vertices)
            vertices.append(tuple(coordinate(k) for k in point))  # type: ignore[arg-type]
        return found

    for box in sorted(boxes):
        for axis in range(3):
            u, v = (axis + 1) % 3, (axis + 2) % 3  # u x v points along +axis
            for sign in (1, -1):
                beside = list(box)
                beside[axis] += sign
                if tuple(beside) in boxes:
                    continue
                base = list(box)
                if sign == 1:
                    base[axis] += 1
                square = []
                for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
                    point = list(base)
                    point[u] += du
                    point[v] += dv
                    square.append(corner(tuple(point)))  # type: ignore[arg-type]
                if sign == -1:
                    square.reverse()
                faces.append((square[0], square[1], square[2]))
                faces.append((square[0], square[2], square[3]))
    return vertices, faces


def _boxes(cubes: set[Cell3], inset: float) -> tuple[set[Cell3], tuple[float, ...]]:
    """The boxes of the shrunken piece on its grid, and where the grid cuts each unit.

    ``inset`` is how far each face moves in, as a fraction of a unit. Box ``k``
    along an axis starts at unit ``k // len(steps)`` plus ``steps[k % len(steps)]``.
    """
    if inset == 0:
        # The grid is the lattice itself: a box per cube, coordinate k is k units.
        return cubes, (0.0,)
    # Each unit is cut into [0, r], [r, 1 - r], [1 - r, 1]; a sub-box is kept when
    # every cube that a point of it is within r of belongs to the piece. Along an
    # axis the first part reaches back into the cube before, the last one into the
    # cube after.
    reach = ((-1, 0), (0,), (0, 1))
    boxes = set()
    for x, y, z in cubes:
        for part in itertools.product(range(3), repeat=3):
            near = itertools.product(*(reach[p] for p in part))
            if all((x + dx, y + dy, z + dz) in cubes for dx, dy, dz in near):
                boxes.add((3 * x + part[0], 3 * y + part[1], 3 * z + part[2]))
    return boxes, (0.0, inset, 1 - inset)


def piece_mesh(
    cells: Iterable[Sequence[int]],
    *,
    unit: float = 10.0,
    gap: float = 0.0,
    name: str | None = None,
    colour: str | None = None,
) -> trimesh.Trimesh:
    """A watertight trimesh of one piece, in millimetres, z up, as placed (not moved).

    Parameters
    ----------
    cells : iterable of (x, y, z) or (x, y)
    unit : float
        Edge of a cube in millimetres.
    gap : float
        Play between touching pieces in millimetres (each face moves ``gap / 2`` in).
    name : str, optional
        Recorded as the mesh's name (the solid's or object's name in a file).
    colour : str, optional
        ``#rrggbb``, given to every vertex.

    Raises
    ------
    MeshLibraryMissing
        trimesh is not installed.
    """
    trimesh = _trimesh()
    vertices, faces = cube_surface(cells, unit=unit, gap=gap)
    # Turn the picture's y (down the page) upwards by a mirror y -> -y, and reverse
    # every face so the normals still point out: seen from above, a layer then looks
    # like its picture. (A rotation could not do it: the pictures are a mirror frame.)
    flipped = [(x, -y, z) for x, y, z in vertices]
    turned = [(a, c, b) for a, b, c in faces]
    mesh = trimesh.Trimesh(vertices=flipped, faces=turned, process=False)
    if name is not None:
        mesh.metadata["name"] = _model_name(name)
    if colour is not None:
        mesh.visual.vertex_colors = [*_rgb(colour), 255]
    return mesh


# -- models: several solids in one scene -----------------------------------------------


def _layout(groups: Sequence[Sequence[Sequence[Cell3]]], columns: int | None) -> list[Cell3]:
    """An offset (in cells) for each group, putting the groups in a grid one cell apart.

    Rows run down the picture (+y), so the first group is at the top left seen from above.
    """
    if columns is None:
        columns = max(1, math.ceil(math.sqrt(len(groups))))
    lows, sizes = [], []
    for group in groups:
        cells = [c for piece in group for c in piece]
        low = tuple(min(column) for column in zip(*cells))
        high = tuple(max(column) for column in zip(*cells))
        lows.append(low)
        sizes.append(tuple(h - lo + 1 for lo, h in zip(low, high)))
    width = max(s[0] for s in sizes) + 1
    depth = max(s[1] for s in sizes) + 1
    offsets = []
    for k, low in enumerate(lows):
        row, column = divmod(k, columns)
        offsets.append((column * width - low[0], row * depth - low[1], -low[2]))
    return offsets


def _scene(
    groups: Sequence[Sequence[tuple[str, Sequence[Cell3]]]],
    *,
    unit: float,
    gap: float,
    columns: int | None,
    colours: Colours,
    names: Sequence[Sequence[str]],
) -> trimesh.Scene:
    trimesh = _trimesh()
    _check_sizes(unit, gap)
    cell_groups = [[_cells_3d(cells) for _, cells in group] for group in groups]
    offsets = _layout(cell_groups, columns)
    # piece_mesh turns y into -y; starting from y - depth puts the model at y >= 0.
    depth = max(y + oy + 1 for group, (_, oy, _) in zip(cell_groups, offsets)
                for cells in group for _, y, _ in cells)  # fmt: skip
    scene = trimesh.Scene()
    for group, cells_of, (ox, oy, oz), labels in zip(groups, cell_groups, offsets, names):
        for (piece, _), cells, label in zip(group, cells_of, labels):
            moved = [(x + ox, y + oy - depth, z + oz) for x, y, z in cells]
            fill = _colour_for(piece, colours) if piece else PLAIN
            mesh = piece_mesh(moved, unit=unit, gap=gap, name=label, colour=fill)
            scene.add_geometry(mesh, geom_name=label, node_name=label)
    return scene


def _export(scene: trimesh.Scene, fmt: str) -> Model:
    """The bytes of a file of ``fmt`` holding every solid of ``scene`` by name."""
    if fmt == "stl":
        from trimesh.exchange.stl import export_stl_ascii

        # trimesh writes a scene's STL as one merged solid: write one solid per piece.
        return Model("".join(export_stl_ascii(m) for m in scene.geometry.values()).encode())
    if fmt == "obj":
        text = scene.export(file_type="obj", header="polyforms: one object per piece, mm, z up")
        return Model(text.encode("utf-8"))
    # glTF is in metres with y up: scale, and turn z up into y up by the rotation
    # (x, y, z) -> (y, z, x), which keeps the model where every coordinate is >= 0.
    import numpy as np

    turn = np.array([[0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1]], dtype=float)
    for mesh in scene.geometry.values():
        mesh.apply_transform(turn)
        mesh.apply_scale(0.001)
    return Model(scene.export(file_type="glb"))


def _check_format(fmt: str) -> None:
    if fmt not in MESH_FORMATS:
        raise UnknownNameError(
            f"unknown model format {fmt!r}; choose one of {', '.join(MESH_FORMATS)}"
        )


def _unique(names: list[str]) -> list[str]:
    """Names made unique (``F``, ``F.2``, ...), since a file's solids are found by name."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}.{seen[name]}")
    return out


def pieces_model(
    items: Iterable[Any],
    fmt: str = "stl",
    *,
    unit: float = 10.0,
    gap: float = 0.0,
    columns: int | None = None,
    colours: Colours = None,
    force: bool = False,
) -> Model:
    """A model file of separate pieces laid out in a grid on the print bed, one unit apart.

    Parameters
    ----------
    items : iterable of Polyform, of cells, or of (name, Polyform or cells) pairs
        Each piece as given (its orientation kept), lowest layer on the bed.
    fmt : {"stl", "obj", "glb"}
    unit : float
        Edge of a cube in millimetres.
    gap : float
        Play in millimetres (see the module notes).
    columns : int, optional
        Pieces per row (default: a square grid).
    colours : mapping name -> colour, or a palette name, optional
    force : bool
        Model more than :data:`~polyforms.draw.plane.PIECE_LIMIT` pieces or
        :data:`~polyforms.draw.plane.CELL_LIMIT` cubes.

    Returns
    -------
    Model
        The file's contents (bytes, with ``.save(path)``); its solids are
        named by the pieces' names, or numbered from 1.

    Raises
    ------
    MeshLibraryMissing, UnknownNameError, PolyformError
        No trimesh; an unknown format; no pieces, or bad sizes.
    TooLargeError
        Past one of the limits, without ``force``: told as the items are read.
    """
    _check_format(fmt)
    _check_sizes(unit, gap)
    size = DrawingSize(force)
    pieces: list[tuple[str, Sequence[Sequence[int]]]] = []
    for item in items:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            name, shape = item
        else:
            name, shape = "", item
        cells = getattr(shape, "cells", shape)
        if not isinstance(cells, Sequence):
            cells = list(cells)
        size.add(1, len(cells))
        pieces.append((name, cells))
    if not pieces:
        raise PolyformError("nothing to model: no pieces")
    labels = _unique([_model_name(name) or str(k) for k, (name, _) in enumerate(pieces, 1)])
    scene = _scene(
        [[piece] for piece in pieces],
        unit=unit,
        gap=gap,
        columns=columns,
        colours=colours,
        names=[[label] for label in labels],
    )
    return _export(scene, fmt)


def packings_model(
    packings: Iterable[Iterable[Any]],
    fmt: str = "stl",
    *,
    unit: float = 10.0,
    gap: float = 0.0,
    columns: int | None = None,
    colours: Colours = None,
    force: bool = False,
) -> Model:
    """A model file of packings (or tilings), each piece a solid in its place.

    Parameters
    ----------
    packings : iterable of placement lists
        Each a tiling (``(name, cells)`` pairs, or objects with ``.piece`` and
        ``.cells``); several are laid out in a grid one unit apart.
    fmt, unit, gap, columns, colours, force
        As for :func:`pieces_model`; the limits count every packing's pieces.

    Returns
    -------
    Model
        Solids named by their pieces (``F``; ``3/F`` for the third of several packings).
    """
    _check_format(fmt)
    _check_sizes(unit, gap)
    size = DrawingSize(force)
    groups = [_placements(packing, size) for packing in packings]
    if not groups:
        raise PolyformError("nothing to model: no packings")
    if len(groups) == 1:
        names = [_unique([_model_name(name) for name, _ in groups[0]])]
    else:
        names = [
            _unique([f"{k}/{_model_name(name)}" for name, _ in group])
            for k, group in enumerate(groups, 1)
        ]
    scene = _scene(groups, unit=unit, gap=gap, columns=columns, colours=colours, names=names)
    return _export(scene, fmt)


def write_pieces(
    items: Iterable[Any], path: str | os.PathLike[str] | None, fmt: str = "stl", **options: Any
) -> int:
    """Write :func:`pieces_model` to ``path`` (None or ``"-"``: stdout) atomically; return how
    many pieces. The model is made before the file is opened; ``options`` are those of
    :func:`pieces_model` (``force`` too: the items are counted as they are read)."""
    size = DrawingSize(options.get("force", False))
    gathered = []
    for item in items:
        gathered.append(item)
        size.add(1, 0)  # the cells are counted by pieces_model
    pieces_model(gathered, fmt, **options).save(path)
    return len(gathered)


def write_packings(
    packings: Iterable[Iterable[Any]],
    path: str | os.PathLike[str] | None,
    fmt: str = "stl",
    **options: Any,
) -> int:
    """Write :func:`packings_model` to ``path`` atomically; return how many packings.

    ``options`` are those of :func:`packings_model`; the packings are counted as
    they are read, so a stream too large to model is read no further.
    """
    size = DrawingSize(options.get("force", False))
    gathered = [_placements(packing, size) for packing in packings]
    packings_model(gathered, fmt, **options).save(path)
    return len(gathered)

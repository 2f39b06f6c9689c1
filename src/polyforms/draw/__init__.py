"""Pictures: SVG of polyforms, regions, tilings, catalogues and open-cell maps (plane:
squares, triangles and hexagons; isometric: cubes), 3D models (STL, OBJ, GLB) and
still previews of them.

One picture or model draws at most :data:`PIECE_LIMIT` pieces (20,000, the
:data:`polyforms.limits.SVG_LIMIT`) and :data:`CELL_LIMIT` cells (250,000):
past either, every drawing function raises
:class:`~polyforms.errors.TooLargeError` as it reads its input, unless called
with ``force=True`` (``--force``).
"""

from __future__ import annotations

from .._lazy import attach

TYPE_CHECKING = False

_SOURCES = {
    "CELL_LIMIT": "plane",
    "LABEL_MIN_CELL": "plane",
    "PALETTES": "plane",
    "PENTOMINO_COLOURS": "plane",
    "PIECE_LIMIT": "plane",
    "SvgDrawing": "plane",
    "boundary_loops": "plane",
    "catalogue_svg": "plane",
    "piece_colour": "plane",
    "polyform_svg": "plane",
    "queens_svg": "queens",
    "readable_cell": "plane",
    "region_svg": "plane",
    "tiling_svg": "tilings",
    "tilings_sheet_svg": "tilings",
    "exploded_svg": "isometric",
    "iso_extent": "isometric",
    "packing_svg": "isometric",
    "open_counts": "open_map",
    "open_map_svg": "open_map",
    "model_preview_svg": "preview",
    "MESH_FORMATS": "mesh",
    "MeshLibraryMissing": "mesh",
    "Model": "mesh",
    "cube_surface": "mesh",
    "packings_model": "mesh",
    "piece_mesh": "mesh",
    "pieces_model": "mesh",
    "write_packings": "mesh",
    "write_pieces": "mesh",
}

__all__, __getattr__, __dir__ = attach(__name__, _SOURCES)

if TYPE_CHECKING:  # the same names, imported eagerly, for type checkers
    from .isometric import exploded_svg, iso_extent, packing_svg
    from .mesh import (
        MESH_FORMATS,
        MeshLibraryMissing,
        Model,
        cube_surface,
        packings_model,
        piece_mesh,
        pieces_model,
        write_packings,
        write_pieces,
    )
    from .open_map import open_counts, open_map_svg
    from .plane import (
        CELL_LIMIT,
        LABEL_MIN_CELL,
        PALETTES,
        PENTOMINO_COLOURS,
        PIECE_LIMIT,
        SvgDrawing,
        boundary_loops,
        catalogue_svg,
        piece_colour,
        polyform_svg,
        readable_cell,
        region_svg,
    )
    from .preview import model_preview_svg
    from .queens import queens_svg
    from .tilings import tiling_svg, tilings_sheet_svg

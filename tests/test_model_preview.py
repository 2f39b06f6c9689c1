"""Still pictures of 3D models (``model_preview_svg``): well-formed SVG, and the faces a
viewer above the front right corner sees, counted by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from polyforms.draw import model_preview_svg
from polyforms.errors import PolyformError

sys.path.insert(0, str(Path(__file__).parent))
from _svg_check import SVG, parsed  # noqa: E402


def _faces(svg: str) -> list:
    return [p for p in parsed(svg).iter(f"{SVG}path") if p.get("class") == "face"]


def test_one_cube_shows_three_faces():
    faces = _faces(model_preview_svg([("X", [(0, 0, 0)])]))
    assert len(faces) == 3
    assert len({face.get("fill") for face in faces}) == 3  # each shaded by its own angle


@pytest.mark.parametrize(("width", "depth", "height"), [(3, 4, 5), (2, 2, 2), (5, 1, 1)])
def test_a_solid_box_shows_its_top_front_and_right(width, depth, height):
    cells = [(x, y, z) for x in range(width) for y in range(depth) for z in range(height)]
    faces = _faces(model_preview_svg([("B", cells)]))
    assert len(faces) == width * depth + width * height + depth * height


def test_faces_are_painted_back_to_front():
    """Two cubes side by side along x, seen from the right: every face of the left
    one is painted before the right one covers part of it; a gap shrinks the faces."""
    pair = [("B", [(1, 0, 0)]), ("A", [(0, 0, 0)])]
    faces = _faces(model_preview_svg(pair))
    assert [face.get("data-piece") for face in faces] == ["A"] * 3 + ["B"] * 3
    parted = _faces(model_preview_svg(pair, gap=0.2))
    assert [face.get("data-piece") for face in parted] == ["A"] * 3 + ["B"] * 3
    assert [f.get("d") for f in parted] != [f.get("d") for f in faces]


def test_bad_gaps_and_no_pieces_are_refused():
    with pytest.raises(PolyformError, match="gap"):
        model_preview_svg([("A", [(0, 0, 0)])], gap=1.0)
    with pytest.raises(PolyformError, match="nothing to draw"):
        model_preview_svg([])

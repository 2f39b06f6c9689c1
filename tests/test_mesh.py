"""3D models: each piece a closed surface of the right volume, read back by trimesh."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from polyforms import PolyformError, pieces, tile
from polyforms.draw.mesh import (
    MESH_FORMATS,
    MeshLibraryMissing,
    cube_surface,
    packings_model,
    pieces_model,
)

trimesh = pytest.importorskip("trimesh", reason="trimesh (the mesh extra) makes the models")


def load(data: bytes, fmt: str) -> dict:
    """Name -> mesh of every solid in a model file, as trimesh reads it back."""
    options = {"split_objects": True, "group_material": False} if fmt == "obj" else {}
    scene = trimesh.load(io.BytesIO(data), file_type=fmt, force="scene", **options)
    return dict(scene.geometry)


def volume(mm3: float, fmt: str):
    """``mm3`` as the file gives it: glTF is in metres (and single precision)."""
    return pytest.approx(mm3 * 1e-9, rel=1e-5) if fmt == "glb" else pytest.approx(mm3)


@pytest.mark.parametrize("fmt", MESH_FORMATS)
def test_packing_one_watertight_solid_per_piece(fmt):
    packing = tile("3x4x5", "solid-pentominoes").first()
    data = packings_model([packing], fmt, unit=10)
    solids = load(data, fmt)
    assert sorted(solids) == sorted("FILNPTUVWXYZ")
    for name, mesh in solids.items():
        assert mesh.is_watertight and mesh.is_winding_consistent, name
        assert mesh.volume == volume(5 * 10**3, fmt), name
    # Assembled: the pieces fill the box 30 x 40 x 50 mm exactly.
    scene = trimesh.Scene(list(solids.values()))
    size = sorted(scene.bounds[1] * (1000 if fmt == "glb" else 1))
    assert scene.bounds[0] == pytest.approx([0, 0, 0], abs=1e-6)
    assert size == pytest.approx([30, 40, 50])
    assert data == packings_model([packing], fmt, unit=10)  # same bytes every time


@pytest.mark.parametrize("fmt", MESH_FORMATS)
def test_gap_parts_touching_pieces(fmt):
    packing = tile("3x4x5", "solid-pentominoes").first()
    solids = load(packings_model([packing], fmt, unit=10, gap=1), fmt)
    for name, mesh in solids.items():
        assert mesh.is_watertight, name
        assert mesh.volume < volume(5 * 1000, fmt).expected
    # The I (a 1x1x5 bar) shrinks by half the gap on every side: 9 x 9 x 49 mm.
    assert solids["I"].volume == volume(9 * 9 * 49, fmt)


def test_inset_volume_of_an_l_tile():
    # An L tromino as a tile 10 mm thick, every face 0.5 mm in: an L of area
    # 19 x 9 + 9 x 10 = 261 mm^2, 9 mm thick.
    mesh = trimesh.Trimesh(*cube_surface([(0, 0), (1, 0), (0, 1)], unit=10, gap=1))
    assert mesh.is_watertight and mesh.volume == pytest.approx(261 * 9)


def test_pieces_side_by_side_and_printable():
    solids = load(pieces_model(pieces("soma").items(), "stl", unit=8, gap=0.2), "stl")
    assert sorted(solids) == sorted("VLTZABP")
    assert all(mesh.is_watertight for mesh in solids.values())
    # Laid out on the bed, none overlapping.
    boxes = [mesh.bounds for mesh in solids.values()]
    assert min(b[0][2] for b in boxes) == pytest.approx(0.1)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert (a[1] <= b[0]).any() or (b[1] <= a[0]).any()
    # Exact cubes: every pentacube has volume 5 units^3.
    exact = load(pieces_model(pieces("pentacubes").items(), "glb", unit=10), "glb")
    assert len(exact) == 29
    assert all(m.volume == volume(5000, "glb") for m in exact.values())


def test_mirror_pieces_print_as_drawn():
    # Seen from above, a layer looks like its picture: the picture's y runs down.
    (solid,) = load(pieces_model([("L", [(0, 0), (0, 1), (0, 2), (1, 2)])], "stl"), "stl").values()
    foot = [v for v in solid.vertices if v[0] > 10]  # the cell (1, 2), right of the bar
    assert max(v[1] for v in foot) == pytest.approx(10)  # at the bottom of the picture


def test_errors():
    with pytest.raises(PolyformError, match="format"):
        pieces_model([[(0, 0, 0)]], "ply")
    with pytest.raises(PolyformError, match="gap"):
        pieces_model([[(0, 0, 0)]], "stl", unit=1, gap=1)
    with pytest.raises(PolyformError, match="unit"):
        pieces_model([[(0, 0, 0)]], "stl", unit=0)
    with pytest.raises(PolyformError):
        packings_model([], "stl")


def test_commands_write_models(tmp_path, cli):
    model = tmp_path / "packing.glb"
    result = cli("tile", "3x4x5", "--pieces", "solid-pentominoes", "--limit", "1", "-o", str(model))
    assert result.returncode == 0, result.stderr
    assert len(load(model.read_bytes(), "glb")) == 12
    pentacubes = tmp_path / "pentacubes.stl"
    result = cli("enumerate", "5", "--dim", "3", "--format", "stl", "-o", str(pentacubes),
                 "--unit", "12", "--gap", "0.3", "--quiet")  # fmt: skip
    assert result.returncode == 0, result.stderr
    solids = load(pentacubes.read_bytes(), "stl")
    assert len(solids) == 23 and all(m.is_watertight for m in solids.values())
    solutions = tmp_path / "s.jsonl"
    cli("tile", "2x3x2", "--pieces", "free:3", "--reuse", "--limit", "3", "-o", str(solutions))
    drawn = tmp_path / "s.obj"
    result = cli("draw", str(solutions), "-o", str(drawn))
    assert result.returncode == 0, result.stderr
    assert all(name.startswith(("1/", "2/", "3/")) for name in load(drawn.read_bytes(), "obj"))


MISSING = """
import sys
sys.modules["trimesh"] = None  # as if the mesh extra were not installed
from polyforms.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_missing_extra_is_one_line_and_no_file(tmp_path):
    target = tmp_path / "box.stl"
    result = subprocess.run(
        [sys.executable, "-c", MISSING, "tile", "2x2x2", "--pieces", "free:1", "--reuse",
         "--limit", "1", "-o", str(target)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert 'pip install "polyforms[mesh]"' in result.stderr
    assert not target.exists()
    assert issubclass(MeshLibraryMissing, PolyformError)


def test_help_does_not_import_the_mesh_library():
    code = "import sys; from polyforms.cli import build_parser; build_parser(); "
    code += (
        "print(sorted(m for m in ('numpy', 'trimesh', 'polyforms.draw.mesh') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]"

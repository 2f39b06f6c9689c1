"""SVG pictures: valid XML, the right shapes, exact areas, deterministic bytes, and pixels."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polyforms
from polyforms import (
    Polyform,
    PolyformError,
    catalogue_svg,
    exploded_svg,
    packing_svg,
    piece_colour,
    pieces,
    polyform_svg,
    queens_svg,
    region_svg,
    tile,
    tiling_svg,
    tilings_sheet_svg,
    write_catalogue,
)
from polyforms.draw.plane import PENTOMINO_COLOURS, boundary_loops
from polyforms.errors import ParseError
from polyforms.files.drawfile import draw_file
from polyforms.files.solutions import placements_from_record

SVG = "{http://www.w3.org/2000/svg}"

sys.path.insert(0, str(Path(__file__).parent))
from _svg_check import parse_every_svg  # noqa: E402


@pytest.fixture(autouse=True)
def _every_svg_is_xml(monkeypatch):
    """Each picture a test here draws is read back by an XML parser as it is made."""
    parse_every_svg(monkeypatch)


# A tiling of the 6x10 rectangle by the twelve pentominoes (checked below).
TILING_6x10 = """
FIIIIILLLL
FFFNWWTTTL
YFNNXWWTZZ
YYNXXXWTZV
YUNUXPPZZV
YUUUPPPVVV
"""


def fixed_tiling():
    from polyforms import parse_lettered

    return list(parse_lettered(TILING_6x10).items())


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def path_area(d: str) -> float:
    """Signed area (shoelace) of a path of M/H/V/L/Z commands: holes count negative."""
    total = 0.0
    x = y = start_x = start_y = 0.0
    for command, args in re.findall(r"([MHVLZ])([^MHVLZ]*)", d):
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if command == "M":
            x, y = start_x, start_y = numbers
            continue
        if command == "Z":
            nx, ny = start_x, start_y
        elif command == "H":
            nx, ny = numbers[0], y
        elif command == "V":
            nx, ny = x, numbers[0]
        else:
            nx, ny = numbers
        total += x * ny - nx * y
        x, y = nx, ny
    return total / 2


def unit_segments(d: str, cell: float) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """The unit edges covered by a path of open M..H / M..V segments, in cell units."""
    edges = set()
    for x, y, command, end in re.findall(r"M(-?[\d.]+) (-?[\d.]+)([HV])(-?[\d.]+)", d):
        x, y, end = float(x) / cell, float(y) / cell, float(end) / cell
        if command == "H":
            for k in range(int(min(x, end)), int(max(x, end))):
                edges.add(((k, int(y)), (k + 1, int(y))))
        else:
            for k in range(int(min(y, end)), int(max(y, end))):
                edges.add(((int(x), k), (int(x), k + 1)))
    return edges


# -- boundaries ----------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=30))
def test_boundary_loops_enclose_exactly_the_cells(cells):
    from polyforms.draw.svg import _loops_path

    loops = boundary_loops(cells)
    assert path_area(_loops_path(loops, 1)) == len(cells)
    for loop in loops:
        # Axis-parallel, closed, no point where the loop goes straight on.
        for k, (x, y) in enumerate(loop):
            nx, ny = loop[(k + 1) % len(loop)]
            px, py = loop[k - 1]
            assert (x == nx) != (y == ny)
            assert not (px == x == nx or py == y == ny)
    # Every corner of a loop is visited once (each loop is simple).
    assert all(len(set(loop)) == len(loop) for loop in loops)


def test_pinch_corner_turns_right():
    # Two cells meeting only at a corner give two separate squares.
    assert boundary_loops([(0, 0), (1, 1)]) == [
        [(0, 0), (1, 0), (1, 1), (0, 1)],
        [(1, 1), (2, 1), (2, 2), (1, 2)],
    ]


# -- one polyform --------------------------------------------------------------------


def test_polyform_with_a_hole():
    ring = Polyform.from_ascii("###\n#.#\n###")
    svg = polyform_svg(ring, cell=10)
    root = parse(svg)
    (piece,) = by_class(root, "piece")
    assert path_area(piece.get("d")) == 8 * 10 * 10  # the hole is cut out
    assert piece.get("d").count("M") == 2  # outer edge and hole edge
    joins = by_class(root, "joins")[0].get("d")
    # Thin lines between cells: the 8 cells of a ring share 8 edges.
    assert len(unit_segments(joins, 10)) == 8
    assert ring._repr_svg_() == polyform_svg(ring)
    assert svg._repr_svg_() == str(svg)


def test_single_cell_has_no_inner_lines():
    root = parse(polyform_svg([(0, 0)]))
    assert len(by_class(root, "piece")) == 1
    assert by_class(root, "joins") == []


def test_named_polyform_takes_its_colour():
    svg = polyform_svg(pieces("pentominoes")["X"], name="X")
    assert f'fill="{PENTOMINO_COLOURS["X"]}"' in svg
    assert 'data-piece="X"' in svg


def test_polycube_is_drawn_isometrically():
    svg = polyform_svg(pieces("soma")["P"])
    faces = by_class(parse(svg), "face")
    # The tripod: 4 cubes; visible faces are those with no cube beside them in +x, +y, +z.
    assert len(faces) == visible_faces(pieces("soma")["P"].cells)


def visible_faces(cells) -> int:
    filled = set(map(tuple, cells))
    steps = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    return sum(1 for c in filled for s in steps if tuple(a + b for a, b in zip(c, s)) not in filled)


# -- catalogue sheets ----------------------------------------------------------------


def test_catalogue_sheet_layout_and_labels():
    items = pieces("pentominoes")
    svg = catalogue_svg(items, columns=4, symmetry=True)
    root = parse(svg)
    shapes = by_class(root, "piece")
    assert len(shapes) == 12
    assert [s.get("data-piece") for s in shapes] == list("FILNPTUVWXYZ")
    for shape, piece in zip(shapes, items.values()):
        assert path_area(shape.get("d")) == piece.size * 12 * 12
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts[0] == "1 F none" and texts[9] == "10 X full"
    # Four columns and three rows of labels.
    assert len({t.get("x") for t in root.iter(f"{SVG}text")}) == 4
    assert len({t.get("y") for t in root.iter(f"{SVG}text")}) == 3


def test_large_sheet_stays_small():
    octominoes = list(polyforms.polyominoes(8, kind="free"))
    svg = catalogue_svg(octominoes, kind="free")
    root = parse(svg)
    assert len(by_class(root, "piece")) == 369
    # One path per polyomino plus one path of thin lines for the whole sheet.
    assert len(list(root.iter(f"{SVG}path"))) == 369 + 1
    assert len(svg) < 120_000
    assert "369 free polyforms" in svg


def test_write_catalogue_svg(tmp_path):
    target = tmp_path / "tetrominoes.svg"
    assert write_catalogue(iter(pieces("tetrominoes").values()), target, "svg") == 5
    assert len(by_class(parse(target.read_text()), "piece")) == 5


def test_catalogue_of_polycubes():
    svg = catalogue_svg(pieces("soma"), cell=10)
    root = parse(svg)
    assert len(by_class(root, "packing")) == 7
    expected = sum(visible_faces(p.cells) for p in pieces("soma").values())
    assert len(by_class(root, "face")) == expected


def test_catalogue_errors():
    with pytest.raises(PolyformError):
        catalogue_svg([])
    with pytest.raises(PolyformError):
        catalogue_svg([pieces("soma")["V"], pieces("pentominoes")["F"]])
    with pytest.raises(PolyformError):
        catalogue_svg(["not a polyform"])
    with pytest.raises(PolyformError):
        catalogue_svg(pieces("pentominoes"), columns=0)


# -- tilings -------------------------------------------------------------------------


def test_fixture_is_a_tiling_of_the_rectangle():
    placements = fixed_tiling()
    cells = [c for _, cs in placements for c in cs]
    assert sorted(cells) == sorted((x, y) for x in range(10) for y in range(6))
    shapes = {name: Polyform(cs).canonical() for name, cs in placements}
    assert shapes == {name: p.canonical() for name, p in pieces("pentominoes").items()}


def test_tiling_pieces_colours_and_lines():
    placements = fixed_tiling()
    region = [(x, y) for x in range(10) for y in range(6)]
    svg = tiling_svg(placements, region, cell=20)
    root = parse(svg)
    shapes = by_class(root, "piece")
    assert len(shapes) == 12
    for shape in shapes:
        assert shape.get("fill") == PENTOMINO_COLOURS[shape.get("data-piece")]
        assert path_area(shape.get("d")) == 5 * 400
    # Thin lines only inside pieces: exactly the unit edges between two cells of one piece.
    owner = {c: name for name, cs in placements for c in cs}
    inside = set()
    for (x, y), name in owner.items():
        if owner.get((x + 1, y)) == name:
            inside.add(((x + 1, y), (x + 1, y + 1)))
        if owner.get((x, y + 1)) == name:
            inside.add(((x, y + 1), (x + 1, y + 1)))
    assert unit_segments(by_class(root, "joins")[0].get("d"), 20) == inside
    (edge,) = by_class(root, "region")
    assert path_area(edge.get("d")) == 60 * 400
    assert by_class(root, "uncovered") == []


def test_tiling_with_holes_and_uncovered_cells():
    region = [(x, y) for x in range(4) for y in range(3) if (x, y) != (1, 1)]
    placements = [("I", [(0, 0), (1, 0), (2, 0)]), ("L", [(3, 0), (3, 1), (3, 2), (2, 2)])]
    root = parse(tiling_svg(placements, region, cell=10))
    (uncovered,) = by_class(root, "uncovered")
    assert path_area(uncovered.get("d")) == 4 * 100  # (0,1), (0,2), (1,2), (2,1)
    (edge,) = by_class(root, "region")
    assert path_area(edge.get("d")) == 11 * 100  # the hole at (1, 1) is not in the region


def test_colours_are_stable_per_name():
    one = tiling_svg([("H07", [(0, 0)]), ("H08", [(1, 0)])])
    two = tiling_svg([("H08", [(5, 5)]), ("H07", [(6, 5)])])

    def fills(svg):
        return {s.get("data-piece"): s.get("fill") for s in by_class(parse(svg), "piece")}

    assert fills(one) == fills(two)
    assert piece_colour("H07") != piece_colour("H08")
    assert tiling_svg([("A", [(0, 0)])], colours={"A": "#123456"}).count("#123456") == 1


def test_sheet_of_tilings():
    placements = fixed_tiling()
    mirrored = [(name, [(9 - x, y) for x, y in cells]) for name, cells in placements]
    svg = tilings_sheet_svg([placements, mirrored] * 3, columns=4)
    root = parse(svg)
    assert len(by_class(root, "tiling")) == 6
    assert len(by_class(root, "piece")) == 72
    assert [t.text for t in root.iter(f"{SVG}text")] == ["1", "2", "3", "4", "5", "6"]
    assert len({t.get("x") for t in root.iter(f"{SVG}text")}) == 4


def test_objects_with_piece_cells_and_region_attributes():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Placed:
        piece: str
        cells: tuple

    @dataclass(frozen=True)
    class Area:
        cells: tuple

    class Solution(tuple):
        region = Area(((0, 0), (1, 0), (2, 0)))

    solution = Solution([Placed("I", ((0, 0), (1, 0)))])
    root = parse(tiling_svg(solution, cell=20))
    assert len(by_class(root, "piece")) == 1
    assert path_area(by_class(root, "uncovered")[0].get("d")) == 20 * 20  # cell (2, 0)
    assert region_svg(solution.region) == region_svg([(0, 0), (1, 0), (2, 0)])


def test_tiling_errors():
    with pytest.raises(PolyformError):
        tiling_svg([])
    with pytest.raises(PolyformError):
        tiling_svg(["F"])
    with pytest.raises(PolyformError):
        tiling_svg([("A", [(0, 0)]), ("B", [(1, 0, 0)])])
    with pytest.raises(PolyformError):
        tilings_sheet_svg([])


def test_region_picture():
    cells = [(x, y) for x in range(8) for y in range(8) if not (3 <= x <= 4 and 3 <= y <= 4)]
    root = parse(region_svg(cells, cell=10))
    (group,) = by_class(root, "region")
    area, _, edge = group.findall(f"{SVG}path")
    assert path_area(area.get("d")) == 60 * 100
    assert edge.get("d").count("M") == 2
    assert len(by_class(parse(region_svg([(0, 0, 0), (1, 0, 0)])), "face")) == 5


# -- 3D ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(1, 1, 1), (2, 2, 2), (3, 4, 5)])
def test_box_shows_three_sides(size):
    a, b, c = size
    cells = [(x, y, z) for x in range(a) for y in range(b) for z in range(c)]
    half = len(cells) // 2
    placements = [("A", cells[:half]), ("B", cells[half:])] if half else [("A", cells)]
    faces = by_class(parse(packing_svg(placements)), "face")
    assert len(faces) == a * b + b * c + c * a


def test_packing_faces_are_painted_far_to_near():
    bottom = [(x, y, 0) for x in range(2) for y in range(2)]
    top = [(x, y, 1) for x in range(2) for y in range(2)]
    faces = by_class(parse(packing_svg([("A", bottom), ("B", top)])), "face")
    names = [f.get("data-piece") for f in faces]
    assert names.count("A") == 4 and names.count("B") == 8  # A shows two sides only
    # Painter's order, not piece order: the nearest cube (1, 1, 1), of B, comes last
    # with its three faces, after faces of A.
    assert names[-3:] == ["B", "B", "B"] and "A" in names[names.index("B") :]
    with pytest.raises(PolyformError):
        packing_svg([("A", [(0, 0, 0)]), ("B", [(0, 0, 0)])])


def test_exploded_layers():
    cells = [(x, y, z) for x in range(3) for y in range(2) for z in range(3)]
    placements = [("A", [c for c in cells if c[0] < 2]), ("B", [c for c in cells if c[0] == 2])]
    root = parse(exploded_svg(placements, labels=False))
    assert len(by_class(root, "packing")) == 3
    assert [t.text for t in root.iter(f"{SVG}text")] == ["z = 0", "z = 1", "z = 2"]
    # With letters (the default at 20 pixels): both pieces named on each of the 3 slabs.
    lettered = parse(exploded_svg(placements))
    assert [t.text for t in by_class(lettered, "label")] == ["A", "B"] * 3
    # Each slab of 3x2 shows its top (6), its +x side (2) and its +y side (3).
    assert len(by_class(root, "face")) == 3 * (6 + 2 + 3)
    across_x = parse(exploded_svg(placements, axis=0, labels=False))
    assert [t.text for t in across_x.iter(f"{SVG}text")] == ["x = 0", "x = 1", "x = 2"]
    with pytest.raises(PolyformError):
        exploded_svg(placements, axis=3)


def test_sheet_of_packings():
    cube = [(x, y, z) for x in range(2) for y in range(2) for z in range(2)]
    root = parse(tilings_sheet_svg([[("A", cube[:4]), ("B", cube[4:])]] * 3, columns=2))
    assert len(by_class(root, "packing")) == 3
    assert len(by_class(root, "face")) == 3 * 12


# -- piece letters, sizes and captions --------------------------------------------------


def label_cells(root: ET.Element, cell: float, margin: float) -> dict[str, tuple[int, int]]:
    """Piece name -> the cell under each letter's anchor point (its centre, above the baseline)."""
    found = {}
    for text in by_class(root, "label"):
        x = float(text.get("x")) - margin
        y = float(text.get("y")) - margin - 0.3 * float(text.get("font-size"))
        found[text.text] = (int(x // cell), int(y // cell))
    return found


def test_one_tiling_is_readable_and_lettered():
    placements = fixed_tiling()
    svg = tiling_svg(placements)
    root = parse(svg)
    # The default cell gives a picture about 350 pixels wide for 6x10, not 120.
    assert (root.get("width"), root.get("height")) == ("352", "224")
    labels = by_class(root, "label")
    assert sorted(t.text for t in labels) == sorted(name for name, _ in placements)
    assert all(t.get("data-piece") == t.text for t in labels)
    # Each letter lies in a cell of its own piece; a letter is about half a cell high.
    owner = {c: name for name, cs in placements for c in cs}
    for name, spot in label_cells(root, 32, 16).items():
        assert owner[spot] == name
    assert {float(t.get("font-size")) for t in labels} == {17.6}
    assert by_class(root, "caption") == [] and "<text" not in svg.split('class="labels"')[0]
    # The X's letter is in its centre, the deepest cell.
    x_cells = dict(placements)["X"]
    centre = tuple(sorted(x_cells)[2])
    assert label_cells(root, 32, 16)["X"] == centre


def test_letters_on_and_off():
    placements = fixed_tiling()
    assert by_class(parse(tiling_svg(placements, labels=False)), "label") == []
    # Small cells have no letters by default, but they can be asked for.
    assert by_class(parse(tiling_svg(placements, cell=10)), "label") == []
    assert len(by_class(parse(tiling_svg(placements, cell=10, labels=True)), "label")) == 12
    # Letters contrast with their piece: white on the darkest fills, ink on the others.
    from polyforms.draw.svg import INK, PAPER, _luminance

    for text in by_class(parse(tiling_svg(placements)), "label"):
        fill = PENTOMINO_COLOURS[text.text]
        # Equal contrast with ink (#222) and white at a luminance of 0.21.
        assert text.get("fill") == (PAPER if _luminance(fill) < 0.21 else INK), text.text


def test_sheet_captions_only_for_several():
    placements = fixed_tiling()
    one = parse(tilings_sheet_svg([placements]))
    assert len(by_class(one, "tiling")) == 1
    texts = [t for t in one.iter(f"{SVG}text")]
    assert [t.get("class") for t in texts] == ["label"] * 12  # letters, no caption "1"
    assert parse(tilings_sheet_svg([placements])).get("width") == "352"
    several = parse(tilings_sheet_svg([placements] * 4, columns=2))
    assert [t.text for t in several.iter(f"{SVG}text")] == ["1", "2", "3", "4"]
    lettered = parse(tilings_sheet_svg([placements] * 2, cell=16))
    assert len(by_class(lettered, "label")) == 24
    assert len(list(lettered.iter(f"{SVG}text"))) == 24 + 2
    forced = parse(tilings_sheet_svg([placements], captions=True))
    assert [t.text for t in forced.iter(f"{SVG}text")] == ["1"]  # cell 10: no letters


def test_packing_letters_one_per_piece():
    cube = [(x, y, z) for x in range(2) for y in range(2) for z in range(2)]
    packing = [("A", cube[:4]), ("B", cube[4:])]
    root = parse(packing_svg(packing))
    assert [t.text for t in by_class(root, "label")] == ["A", "B"]
    assert by_class(parse(packing_svg(packing, labels=False)), "label") == []
    # A piece hidden from view entirely gets no letter; an unnamed piece neither.
    hidden = [("A", [(0, 0, 0)]), ("B", [c for c in cube if c != (0, 0, 0)])]
    assert [t.text for t in by_class(parse(packing_svg(hidden)), "label")] == ["B"]
    assert by_class(parse(region_svg(cube)), "label") == []
    sheet = parse(tilings_sheet_svg([packing] * 3, cell=16))
    assert [t.text for t in by_class(sheet, "label")] == ["A", "B"] * 3


# CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), from sRGB through CIELAB (D65).


def srgb_lab(colour: str, simulate=None) -> tuple[float, float, float]:
    linear = [c / 255 for c in hex_rgb(colour)]
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in linear]
    if simulate is not None:
        linear = [max(0.0, min(1.0, sum(m * v for m, v in zip(row, linear)))) for row in simulate]
    r, g, b = linear
    xyz = (
        (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047,
        0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
        (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883,
    )
    edge = 6 / 29
    fx, fy, fz = (t ** (1 / 3) if t > edge**3 else t / (3 * edge**2) + 4 / 29 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1, lab2) -> float:
    import math

    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    mean_c = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_c**7 / (mean_c**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = (math.degrees(math.atan2(b, a)) % 360 for a, b in ((a1, b1), (a2, b2)))
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2 - c1
    d_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    mean_l, mean_cp = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        mean_h = h1 + h2
    elif abs(h1 - h2) <= 180:
        mean_h = (h1 + h2) / 2
    else:
        mean_h = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(mean_h - 30))
        + 0.24 * math.cos(math.radians(2 * mean_h))
        + 0.32 * math.cos(math.radians(3 * mean_h + 6))
        - 0.20 * math.cos(math.radians(4 * mean_h - 63))
    )
    rotation = (
        -2
        * math.sqrt(mean_cp**7 / (mean_cp**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((mean_h - 275) / 25) ** 2))))
    )
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    s_c, s_h = 1 + 0.045 * mean_cp, 1 + 0.015 * mean_cp * t
    return math.sqrt(
        (d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + rotation * d_c / s_c * d_h / s_h
    )


def test_ciede2000_reference_pairs():
    # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7 and 17.
    assert round(ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)), 4) == 2.0425
    assert round(ciede2000((50, 0, 0), (50, -1, 2)), 4) == 2.3669
    assert round(ciede2000((50, 2.5, 0), (73, 25, -18)), 4) == 27.1492


# Dichromat vision in linear sRGB (Machado, Oliveira and Fernandes 2009, severity 1).
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                (-0.011820, 0.042940, 0.968881))  # fmt: skip
PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
              (-0.003882, -0.048116, 1.051998))  # fmt: skip


def least_difference(palette: dict[str, str], simulate=None) -> tuple[float, str, str]:
    import itertools

    labs = {name: srgb_lab(colour, simulate) for name, colour in palette.items()}
    return min((ciede2000(labs[a], labs[b]), a, b) for a, b in itertools.combinations(labs, 2))


def test_palette_neighbours_are_easy_to_tell_apart():
    from polyforms.draw.plane import PALETTES

    assert set(PENTOMINO_COLOURS) == set("FILNPTUVWXYZ")
    # A CIEDE2000 difference of about 10 is plain at a glance; every pair is twice that.
    difference, *pair = least_difference(PENTOMINO_COLOURS)
    assert difference > 22, pair
    safe = PALETTES["colour-blind"]
    assert set(safe) == set(PENTOMINO_COLOURS) and len(set(safe.values())) == 12
    assert least_difference(safe)[0] > 18
    for vision in (DEUTERANOPIA, PROTANOPIA):
        difference, *pair = least_difference(safe, vision)
        assert difference > 11, pair
    # The default palette is for trichromats: under deuteranopia it has near-twins.
    assert least_difference(PENTOMINO_COLOURS, DEUTERANOPIA)[0] < 5
    assert tiling_svg([("F", [(0, 0)])], colours="colour-blind").count(safe["F"]) == 1
    with pytest.raises(PolyformError, match="palette"):
        tiling_svg([("F", [(0, 0)])], colours="sepia")


def test_letters_contrast_with_every_fill():
    from polyforms.draw.svg import _luminance, _text_colour

    def contrast(a: str, b: str) -> float:
        light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
        return (light + 0.05) / (dark + 0.05)

    from polyforms.draw.plane import PALETTES

    for palette in PALETTES.values():
        for colour in palette.values():
            # WCAG's 3:1 for large text; letters are half a cell high.
            assert contrast(_text_colour(colour), colour) >= 3, colour


# -- distinct tilings in a steady orientation -----------------------------------------

BOARD_8x8_MINUS_CENTRE = "\n".join(
    "".join("." if 3 <= x <= 4 and 3 <= y <= 4 else "#" for x in range(8)) for y in range(8)
)


def check_steady(problem, representatives) -> list:
    """Every steady image is in its representative's class, is the same for every member of
    the class, and has the least steady key of the class; the classes stay distinct."""
    shown = []
    for tiling in representatives:
        steady = problem.steady(tiling)
        images = [problem.image(tiling, g) for g in range(len(problem.group))]
        assert problem.canonical(steady) == problem.canonical(tiling)
        assert problem.steady_key(steady) == min(map(problem.steady_key, images))
        # Every member of the class shows the same image (a sample of them in large groups).
        assert all(problem.steady(image) == steady for image in images[:: len(images) // 8 or 1])
        assert steady.region == problem.region
        shown.append(steady)
    assert len({problem.canonical(s) for s in shown}) == len(shown)
    return shown


def test_steady_rectangle_puts_the_i_top_left():
    problem = tile("5x12", "pentominoes")
    assert problem.steady_piece == "I"
    shown = check_steady(problem, problem.solutions(distinct=True, limit=40))
    for steady in shown:
        cells = dict(steady)["I"]
        xs, ys = [x for x, _ in cells], [y for _, y in cells]
        # The rule as the eye sees it: the I in the top-left quarter (by its centre).
        assert (min(xs) + max(xs)) / 2 <= 5.5 and (min(ys) + max(ys)) / 2 <= 2
    representatives = list(problem.solutions(distinct=True, limit=40))
    assert sum(a != b for a, b in zip(representatives, shown)) > 0  # it did reorient some


def test_steady_square_with_a_hole_all_classes():
    problem = tile(BOARD_8x8_MINUS_CENTRE, "pentominoes")
    assert len(problem.group) == 8
    representatives = list(problem.solutions(distinct=True))
    shown = check_steady(problem, representatives)
    assert len(shown) == 65 == problem.count(distinct=True)
    # The I's first cell in reading order is the least it can be for its class.
    for steady in shown:
        first = min(c[::-1] for c in dict(steady)["I"])
        assert first[0] <= 3


def test_steady_in_3d_and_with_reuse():
    boxes = tile("2x3x2", "free:3", reuse=True)  # no breaker: 73 tilings, 10 classes
    representatives = list(boxes.solutions(distinct=True))
    assert len(check_steady(boxes, representatives)) == 10
    every = list(boxes.solutions())
    assert {boxes.canonical(boxes.steady(t)) for t in every} == {
        boxes.canonical(t) for t in representatives
    }
    assert len({boxes.steady(t) for t in every}) == 10  # one steady image per class
    soma = tile("3x3x3", "soma")  # one-sided pieces, reflections swap A and B
    assert soma.steady_piece == "L" and len(soma.group) == 48
    check_steady(soma, soma.solutions(distinct=True, limit=12))


def test_steady_without_a_piece_fixed_by_the_group_is_the_least_image():
    problem = tile("2x2", "dominoes", reuse=True)  # every piece is fixed: dominoes are free
    assert problem.steady_piece is not None
    from polyforms.tiling.symmetry_breaking import SymmetryBreaking

    class NoFixedPiece:
        steady_piece = None
        steady_key = SymmetryBreaking.steady_key

    for tiling in problem.solutions():
        key = NoFixedPiece().steady_key(tiling)
        assert key == ((), tuple(sorted(tiling)))


def test_tile_command_draws_distinct_tilings_steadily(tmp_path, cli):
    picture = tmp_path / "distinct.svg"
    result = cli(
        "tile", "5x12", "--pieces", "pentominoes", "--distinct", "--limit", "6",
        "-o", str(picture), "--quiet",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    problem = tile("5x12", "pentominoes")
    expected = [problem.steady(t) for t in problem.solutions(distinct=True, limit=6)]
    expected_svg = tilings_sheet_svg(expected, region_cells=problem.region.cells)
    assert picture.read_text() == expected_svg
    listing = cli("tile", "5x12", "--pieces", "pentominoes", "--distinct", "--limit", "2")
    canonical = [str(t) for t in problem.solutions(distinct=True, limit=2)]
    assert listing.stdout == "".join(t + "\n\n" for t in canonical)  # text stays canonical
    steady = cli("tile", "5x12", "--pieces", "pentominoes", "--distinct", "--limit", "2",
                 "--steady")  # fmt: skip
    assert steady.stdout == "".join(str(t) + "\n\n" for t in expected[:2])
    plain = tmp_path / "plain.svg"
    cli("tile", "5x12", "--pieces", "pentominoes", "--distinct", "--limit", "6",
        "--no-steady", "--no-labels", "-o", str(plain))  # fmt: skip
    canonical_svg = tilings_sheet_svg(
        list(problem.solutions(distinct=True, limit=6)),
        region_cells=problem.region.cells,
        labels=False,
    )
    assert plain.read_text() == canonical_svg != expected_svg


# -- N queens ------------------------------------------------------------------------


def test_queens_board():
    queens = [(0, 0), (1, 4), (2, 7), (3, 5), (4, 2), (5, 6), (6, 1), (7, 3)]
    root = parse(queens_svg(8, queens, cell=10))
    assert len(by_class(root, "queen")) == 8
    (dark,) = by_class(root, "dark")
    assert path_area(dark.get("d")) == 32 * 100
    with pytest.raises(PolyformError):
        queens_svg(4, [(0, 4)])
    with pytest.raises(PolyformError):
        queens_svg(0, [])
    assert len(by_class(parse(queens_svg(1, [(0, 0)])), "queen")) == 1


def test_queens_from_the_exact_cover_example():
    from polyforms.puzzles.examples import queens, two_queens

    solution = queens(8).first()
    assert len(by_class(parse(queens_svg(8, solution)), "queen")) == 8
    doubled = two_queens(6).first()
    assert len(by_class(parse(queens_svg(6, doubled)), "queen")) == 12


# -- determinism ---------------------------------------------------------------------

DRAW_ALL = """
import sys
import polyforms as pf
tiling = [(k, v) for k, v in pf.parse_lettered(sys.argv[1]).items()]
cube = [(x, y, z) for x in range(2) for y in range(2) for z in range(2)]
packing = [("A", cube[:3]), ("B", cube[3:6]), ("C", cube[6:])]
out = [
    pf.polyform_svg(pf.Polyform.from_ascii("###\\n#.#\\n###")),
    pf.catalogue_svg(pf.pieces("hexominoes"), symmetry=True),
    pf.catalogue_svg(pf.pieces("soma")),
    pf.tiling_svg(tiling, {c for _, cs in tiling for c in cs}),
    pf.tilings_sheet_svg([tiling, tiling], columns=1),
    pf.packing_svg(packing),
    pf.exploded_svg(packing),
    pf.region_svg({(0, 0), (1, 0), (1, 1)}),
    pf.queens_svg(5, [(0, 0), (1, 2), (2, 4), (3, 1), (4, 3)]),
]
sys.stdout.write("\\n".join(out))
"""


def test_same_input_same_bytes_across_processes():
    root = str(Path(polyforms.__file__).resolve().parent.parent)
    outputs = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=root)
        result = subprocess.run(
            [sys.executable, "-c", DRAW_ALL, TILING_6x10],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1
    (text,) = outputs
    assert text.count("<svg") == 9
    for document in text.split("\n"):
        parse(document)  # every picture is well-formed XML
        assert not re.search(r"\d\.\d{3}", document)  # at most two decimals


# -- solution records and files ------------------------------------------------------


def test_placements_from_record_shapes():
    cells = [[0, 0], [1, 0]]
    expected = [("I", ((0, 0), (1, 0)))]
    assert placements_from_record({"placements": [{"piece": "I", "cells": cells}]}) == expected
    assert placements_from_record({"placements": [{"name": "I", "cells": cells}]}) == expected
    assert placements_from_record({"placements": [["I", cells]]}) == expected
    assert placements_from_record({"placements": {"I": cells}}) == expected
    for bad in ({}, {"placements": [{"cells": cells}]}, {"placements": [["I"]]}, []):
        with pytest.raises(PolyformError):
            placements_from_record(bad)


def write_solutions(path: Path, solutions, region=None) -> None:
    with path.open("w") as out:
        for placements in solutions:
            record = {
                "placements": [{"piece": n, "cells": [list(c) for c in cs]} for n, cs in placements]
            }
            if region is not None:
                record["region"] = [list(c) for c in region]
            out.write(json.dumps(record) + "\n")


def test_draw_file_catalogues(tmp_path):
    items = list(pieces("hexominoes").values())
    for fmt in ("jsonl", "csv", "txt"):
        target = tmp_path / f"h.{fmt}"
        write_catalogue(iter(items), target, fmt)
        root = parse(draw_file(target, columns=7, limit=20))
        assert len(by_class(root, "piece")) == 20
    target = tmp_path / "soma.txt"
    write_catalogue(iter(pieces("soma").values()), target, "txt")
    assert len(by_class(parse(draw_file(target, dim=3)), "packing")) == 7


def test_draw_file_solutions(tmp_path):
    placements = fixed_tiling()
    region = [(x, y) for x in range(10) for y in range(6)]
    many = tmp_path / "many.jsonl"
    write_solutions(many, [placements] * 5, region)
    root = parse(draw_file(many, columns=2))
    assert len(by_class(root, "tiling")) == 5 and len(by_class(root, "region")) == 5
    assert len(by_class(parse(draw_file(many, limit=1)), "tiling")) == 1
    cube = [(x, y, z) for x in range(2) for y in range(2) for z in range(2)]
    packed = tmp_path / "cube.jsonl"
    write_solutions(packed, [[("A", cube[:4]), ("B", cube[4:])]])
    assert len(by_class(parse(draw_file(packed)), "face")) == 12
    assert len(by_class(parse(draw_file(packed, exploded=True)), "packing")) == 2
    broken = tmp_path / "broken.jsonl"
    broken.write_text(many.read_text().splitlines()[0] + "\n{not json\n")
    with pytest.raises(ParseError, match="line 2"):
        draw_file(broken)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(ParseError):
        draw_file(empty)


def test_draw_command(tmp_path, cli):
    placements = fixed_tiling()
    solutions = tmp_path / "s.jsonl"
    write_solutions(solutions, [placements] * 3)
    result = cli("draw", str(solutions), "-o", str(tmp_path / "s.svg"), "--columns", "3")
    assert result.returncode == 0, result.stderr
    assert len(by_class(parse((tmp_path / "s.svg").read_text()), "tiling")) == 3
    result = cli("enumerate", "5", "--format", "jsonl", "-o", str(tmp_path / "p.jsonl"), "--quiet")
    assert result.returncode == 0, result.stderr
    result = cli("draw", str(tmp_path / "p.jsonl"), "--symmetry")
    assert result.returncode == 0, result.stderr
    assert "12 free polyforms" in result.stdout and ">10 none<" not in result.stdout
    assert len(by_class(parse(result.stdout), "piece")) == 12
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"placements": [["F"]]}\n')
    result = cli("draw", str(bad), "-o", str(tmp_path / "bad.svg"))
    assert result.returncode == 2
    assert result.stderr.startswith(f"polyforms draw: error: {bad}: line 1")
    assert not (tmp_path / "bad.svg").exists()


# -- pixels --------------------------------------------------------------------------


def render(svg: str):
    """The picture as an RGB image, one pixel per SVG unit."""
    cairosvg = pytest.importorskip(
        "cairosvg", reason="cairosvg (the test extra) is needed to render SVG to PNG"
    )
    from PIL import Image

    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    return Image.open(io.BytesIO(png)).convert("RGB")


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[k : k + 2], 16) for k in (1, 3, 5))


def close(a, b, tolerance: int = 6) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def test_pixels_hole_is_background_and_pieces_differ():
    image = render(polyform_svg(Polyform.from_ascii("###\n#.#\n###"), cell=20))
    # Margin 10, cells 20: the hole is the cell whose centre is at (40, 40).
    assert image.getpixel((40, 40)) == (255, 255, 255)
    assert close(image.getpixel((16, 16)), hex_rgb("#9ecae1"))
    tiling = fixed_tiling()
    image = render(tiling_svg(tiling, cell=20, labels=False))
    owner = {c: name for name, cs in tiling for c in cs}
    for (x, y), name in owner.items():
        # Cell centres, away from every line, have their piece's colour.
        assert close(
            image.getpixel((10 + 20 * x + 10, 10 + 20 * y + 10)), hex_rgb(PENTOMINO_COLOURS[name])
        ), (x, y, name)
    assert len({PENTOMINO_COLOURS[n] for n in owner.values()}) == 12


def test_pixels_region_hole_and_uncovered_cells():
    region = [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]
    image = render(tiling_svg([("I", [(0, 0), (1, 0), (2, 0)])], region, cell=20))
    # Margin 10, cells 20: the centre of cell (x, y) is at (20 + 20 x, 20 + 20 y).
    assert close(image.getpixel((20, 20)), hex_rgb(PENTOMINO_COLOURS["I"]))
    assert image.getpixel((40, 40)) == (255, 255, 255)  # the hole
    assert close(image.getpixel((20, 60)), hex_rgb("#ececec"))  # uncovered region cell


def test_pixels_packing_top_and_sides():
    bottom = [(x, y, 0) for x in range(2) for y in range(2)]
    top = [(x, y, 1) for x in range(2) for y in range(2)]
    svg = packing_svg(
        [("A", bottom), ("B", top)], cell=40, colours={"A": "#ff0000", "B": "#0000ff"}
    )
    image = render(svg)
    assert image.size == (179, 200)  # 4 cos 30 edges wide, 4 edges high, half-edge margins
    from polyforms.draw.svg import INK, PAPER, _mix

    # Inside one top cell of B (lightened), and inside the right side of A (darkened).
    assert close(image.getpixel((89, 40)), hex_rgb(_mix("#0000ff", PAPER, 0.12)))
    assert close(image.getpixel((106, 150)), hex_rgb(_mix("#ff0000", INK, 0.3)))
    assert image.getpixel((5, 5)) == (255, 255, 255)


def test_outlines_are_the_polygons_the_lattice_gives_its_cells():
    """A lattice whose page is the square's stretched twice across: every outline,
    inner line and page follows its polygons, not unit squares."""
    from polyforms.draw.svg import _inner_path, _loops_path
    from polyforms.lattice import Lattice, SquareLattice

    class Wide(SquareLattice):
        def to_page(self, vertex):
            return 2 * vertex[0], vertex[1]

        # What the square works out from its page being the cells' own, found again.
        page_box = Lattice.page_box
        cell_centre = Lattice.cell_centre
        cell_anchor = Lattice.cell_anchor

    wide = Wide()
    ring = [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]
    loops = boundary_loops(ring, wide)
    assert loops == boundary_loops(ring)  # the same vertices, placed elsewhere
    assert path_area(_loops_path(loops, 10, lattice=wide)) == 2 * 8 * 100
    # 8 shared sides; the 4 horizontal ones are 2 units long on this page.
    assert len(unit_segments(_inner_path(ring, 1, lattice=wide), 1)) == 4 + 4 * 2

    class Shape:
        cells, lattice = ring, wide

    root = parse(polyform_svg(Shape(), cell=10))
    assert (root.get("width"), root.get("height")) == ("70", "40")
    assert path_area(by_class(root, "piece")[0].get("d")) == 2 * 8 * 100

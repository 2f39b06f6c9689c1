"""Pictures of polyiamonds and polyhexes: true triangles and hexagons.

Every drawing is read back by an XML parser and measured against the
lattice: a piece's outline encloses exactly its cells' area and is as long as
its outer sides (:meth:`polyforms.lattice.Lattice.sides`), its thin lines as
long as its inner sides, each piece is one path, each letter lies inside its
piece, rendered pixels at the cells' centres have the piece's colour, and the
same input gives the same bytes.
"""

from __future__ import annotations

import io
import json
import math
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from polyforms import Polyform, PolyformError, Region, pieces
from polyforms.draw import catalogue_svg, polyform_svg, region_svg, tiling_svg, tilings_sheet_svg
from polyforms.draw.svg import COLOUR_BLIND_COLOURS, PLAIN
from polyforms.errors import ParseError
from polyforms.files.drawfile import draw_file, model_file
from polyforms.files.solutions import Placement, Tiling
from polyforms.lattice import HEX, SQUARE, TRIANGLE

sys.path.insert(0, str(Path(__file__).parent))
from _svg_check import parse_every_svg, parsed, svg_file  # noqa: E402

SQRT3 = math.sqrt(3)
#: The area of one cell in drawing units (edge 1).
CELL_AREA = {"triangle": SQRT3 / 4, "hex": 3 * SQRT3 / 2, "square": 1.0}
LATTICES = [TRIANGLE, HEX]


@pytest.fixture(autouse=True)
def _every_svg_is_xml(monkeypatch):
    """Each picture a test here draws is read back by an XML parser as it is made."""
    parse_every_svg(monkeypatch)


# -- reading paths back ----------------------------------------------------------------


def loops_of(d: str) -> list[list[tuple[float, float]]]:
    """The closed loops of a path of M/H/V/L/Z commands, as page points."""
    loops: list[list[tuple[float, float]]] = []
    x = y = 0.0
    for command, args in re.findall(r"([MHVLZ])([^MHVLZ]*)", d):
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if command == "M":
            x, y = numbers
            loops.append([(x, y)])
        elif command == "H":
            x = numbers[0]
            loops[-1].append((x, y))
        elif command == "V":
            y = numbers[0]
            loops[-1].append((x, y))
        elif command == "L":
            x, y = numbers
            loops[-1].append((x, y))
    return loops


def area(d: str) -> float:
    """Signed area (shoelace) of the closed loops of a path: holes count negative."""
    total = 0.0
    for loop in loops_of(d):
        for (x0, y0), (x1, y1) in zip(loop, loop[1:] + loop[:1]):
            total += x0 * y1 - x1 * y0
    return total / 2


def closed_length(d: str) -> float:
    """The length of a path's closed loops."""
    return sum(math.dist(a, b) for loop in loops_of(d) for a, b in zip(loop, loop[1:] + loop[:1]))


def open_length(d: str) -> float:
    """The length of a path of open runs (M then one H, V or L each)."""
    return sum(math.dist(loop[0], loop[-1]) for loop in loops_of(d))


def inside(point: tuple[float, float], d: str) -> bool:
    """Is the point inside the path's area by the even-odd rule (a ray to the right)?"""
    px, py = point
    crossings = 0
    for loop in loops_of(d):
        for (x0, y0), (x1, y1) in zip(loop, loop[1:] + loop[:1]):
            if (y0 > py) != (y1 > py) and px < x0 + (x1 - x0) * (py - y0) / (y1 - y0):
                crossings += 1
    return crossings % 2 == 1


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def translate(element: ET.Element) -> tuple[float, float]:
    found = re.match(r"translate\((-?[\d.]+),(-?[\d.]+)\)", element.get("transform") or "")
    return (float(found[1]), float(found[2])) if found else (0.0, 0.0)


# -- random shapes -------------------------------------------------------------------


def grow(lattice, start, size: int, rng: random.Random, allowed=None) -> set:
    """A random connected set of ``size`` cells grown from ``start`` (inside ``allowed``)."""
    cells = {start}
    while len(cells) < size:
        frontier = sorted(
            {n for c in cells for n in lattice.neighbours(c)} - cells
            if allowed is None
            else ({n for c in cells for n in lattice.neighbours(c)} & allowed) - cells
        )
        if not frontier:
            break
        cells.add(rng.choice(frontier))
    return cells


def random_polyform(lattice, size: int, seed: int) -> Polyform:
    return Polyform(grow(lattice, lattice.origin, size, random.Random(seed)), lattice=lattice)


def random_tiling(region: Region, seed: int, most: int = 5) -> list[tuple[str, tuple]]:
    """The region cut into random connected pieces, named P0, P1, ... (a tiling by construction)."""
    rng = random.Random(seed)
    left = set(region.cells)
    placed = []
    while left:
        piece = grow(region.lattice, min(left), rng.randint(1, most), rng, left)
        left -= piece
        placed.append((f"P{len(placed)}", tuple(sorted(piece))))
    return placed


def rhombi(rows: int, columns: int) -> list[tuple[str, tuple]]:
    """The parallelogram of triangles cut into its rhombi: ▽ and △ of each place."""
    return [
        (f"R{k}", ((x, y, 0), (x, y, 1)))
        for k, (x, y) in enumerate((x, y) for y in range(rows) for x in range(columns))
    ]


def check_piece(path: ET.Element, cells, lattice, cell: float) -> None:
    """One piece's outline: its cells' area, as long as their outer sides."""
    outer, _ = lattice.sides(cells)
    assert abs(area(path.get("d")) - len(cells) * CELL_AREA[lattice.name] * cell**2) < 0.05 * cell
    assert abs(closed_length(path.get("d")) - len(outer) * cell) < 0.05 * len(outer)


# -- one polyform --------------------------------------------------------------------


@pytest.mark.parametrize("lattice", LATTICES, ids=lambda lat: lat.name)
@pytest.mark.parametrize("seed", range(12))
def test_a_random_polyform_is_its_cells_outlined(lattice, seed):
    polyform = random_polyform(lattice, 1 + seed % 9, seed)
    svg = polyform_svg(polyform, cell=20)
    root = parsed(svg)
    (piece,) = by_class(root, "piece")
    check_piece(piece, polyform.cells, lattice, 20)
    _, inner = lattice.sides(polyform.cells)
    joins = by_class(root, "joins")
    length = open_length(joins[0].get("d")) if joins else 0.0
    assert abs(length - len(inner) * 20) < 0.05 * max(1, len(inner))
    assert svg == polyform_svg(polyform, cell=20)  # deterministic
    assert polyform._repr_svg_() == polyform_svg(polyform)
    # Bare cells and a lattice name draw the same picture as the Polyform.
    assert polyform_svg(list(polyform.cells), lattice=lattice.name, cell=20) == svg


def test_the_picture_fits_the_polygons():
    """A hexagon is sqrt 3 wide and 2 high; a triangle 1 wide and sqrt 3 / 2 high
    (at 20 pixels an edge, with half a cell of margin each side)."""
    root = parsed(polyform_svg([(0, 0)], lattice="hex", cell=20))
    assert (root.get("width"), root.get("height")) == (str(math.ceil(20 * SQRT3 + 20)), "60")
    root = parsed(polyform_svg([(0, 0, 1)], lattice="triangle", cell=20))
    assert (root.get("width"), root.get("height")) == ("40", str(math.ceil(10 * SQRT3 + 20)))


def test_a_triangle_is_not_a_cube():
    """Triangle cells have three numbers: with their lattice they are flat, never isometric."""
    svg = polyform_svg(Polyform([(0, 0, 0), (0, 0, 1), (1, 0, 0)], lattice="triangle"))
    assert 'class="piece"' in svg and "packing" not in svg
    assert "packing" in polyform_svg([(0, 0, 0), (0, 0, 1)])  # bare: cubes, as always


def test_cells_the_lattice_refuses():
    with pytest.raises(PolyformError, match="third coordinate"):
        polyform_svg([(0, 0, 2)], lattice="triangle")
    with pytest.raises(PolyformError, match="2 coordinates"):
        polyform_svg([(0, 0, 0)], lattice="hex")
    with pytest.raises(PolyformError, match="no cells"):
        polyform_svg([], lattice="hex")
    with pytest.raises(PolyformError, match="unknown lattice"):
        polyform_svg([(0, 0)], lattice="pentagon")


def test_square_pictures_are_unchanged_by_naming_the_lattice():
    ring = [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]
    assert polyform_svg(ring) == polyform_svg(ring, lattice="square")
    assert region_svg(ring) == region_svg(ring, lattice=SQUARE)
    placed = [("I", [(0, 0), (1, 0)]), ("L", [(0, 1), (1, 1)])]
    assert tiling_svg(placed) == tiling_svg(placed, lattice="square")


# -- catalogue sheets ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "count"), [("hexiamonds", 12), ("heptiamonds", 24), ("pentahexes", 22)]
)
def test_catalogue_sheets_of_named_sets(name, count):
    shapes = pieces(name)
    svg = catalogue_svg(shapes, symmetry=True)
    root = parsed(svg)
    paths = by_class(root, "piece")
    assert len(paths) == count == len(root.findall(".//{http://www.w3.org/2000/svg}text"))
    lattice = next(iter(shapes.values())).lattice
    for path, (letter, shape) in zip(paths, shapes.items()):
        assert path.get("data-piece") == letter
        check_piece(path, shape.cells, lattice, 12)
    assert svg == catalogue_svg(shapes, symmetry=True)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts[0] == f"1 A {shapes['A'].symmetry}"


def test_a_sheet_holds_one_lattice():
    hexagon = Polyform([(0, 0)], lattice="hex")
    with pytest.raises(PolyformError, match="one lattice"):
        catalogue_svg([hexagon, Polyform([(0, 0)])])
    with pytest.raises(PolyformError, match="one dimension"):
        catalogue_svg([Polyform([(0, 0, 0)], lattice="triangle"), Polyform([(0, 0, 0)])])


def test_unnamed_polyiamonds_are_plain():
    shapes = [random_polyform(TRIANGLE, 6, seed) for seed in range(5)]
    root = parsed(catalogue_svg(shapes, columns=2))
    assert len(by_class(root, "piece")) == 5
    fills = {g.get("fill") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("fill")}
    assert PLAIN in fills


# -- regions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lattice"),
    [("3x4", "triangle"), ("tri:4", "triangle"), ("hex:2", "triangle"), ("hex:3", "hex"),
     ("2x5", "hex")],
)  # fmt: skip
def test_regions_are_their_cells_on_a_grid(text, lattice):
    region = Region.parse(text, lattice=lattice)
    svg = region_svg(region, cell=10)
    root = parsed(svg)
    (group,) = by_class(root, "region")
    paths = group.findall("{http://www.w3.org/2000/svg}path")
    outline, grid = paths[0], paths[1]
    outer, inner = region.lattice.sides(region.cells)
    assert abs(area(outline.get("d")) - region.size * CELL_AREA[lattice] * 100) < 1
    assert abs(closed_length(outline.get("d")) - 10 * len(outer)) < 0.05 * len(outer)
    assert abs(open_length(grid.get("d")) - 10 * len(inner)) < 0.05 * len(inner)
    assert region._repr_svg_() == region_svg(region)


def test_collinear_grid_lines_are_merged_into_runs():
    """The 3x4 parallelogram of triangles has 3 + 2 + 5 straight inner lines
    (across its rows, along its columns, along its diagonals): one run each."""
    root = parsed(region_svg(Region.parse("3x4", lattice="triangle")))
    (group,) = by_class(root, "region")
    grid = group.findall("{http://www.w3.org/2000/svg}path")[1]
    assert len(loops_of(grid.get("d"))) == 2 + 3 + 6


# -- tilings -------------------------------------------------------------------------


def check_tiling(svg: str, placed, lattice, cell: float, labels: bool = True) -> None:
    root = parsed(svg)
    paths = by_class(root, "piece")
    assert len(paths) == len(placed)
    cells_of = dict(placed)
    for path in paths:
        check_piece(path, cells_of[path.get("data-piece")], lattice, cell)
    if labels:
        letters = by_class(root, "label")
        assert len(letters) == len(placed)
        outline = {p.get("data-piece"): p.get("d") for p in paths}
        for text in letters:
            size = float(text.get("font-size"))
            middle = (float(text.get("x")), float(text.get("y")) - 0.36 * size)
            assert inside(middle, outline[text.get("data-piece")]), text.get("data-piece")


@pytest.mark.parametrize(
    ("text", "lattice", "seed"),
    [("3x4", "triangle", 0), ("hex:2", "triangle", 1), ("tri:5", "triangle", 2),
     ("4x7", "hex", 3), ("hex:3", "hex", 4), ("3x3", "hex", 5)],
)  # fmt: skip
def test_random_tilings(text, lattice, seed):
    region = Region.parse(text, lattice=lattice)
    placed = random_tiling(region, seed)
    svg = tiling_svg(placed, region, cell=30)
    check_tiling(svg, placed, region.lattice, 30)
    assert svg == tiling_svg(placed, region, cell=30)
    # The region's edge: its outer sides, once round.
    (edge,) = by_class(parsed(svg), "region")
    outer, _ = region.lattice.sides(region.cells)
    assert abs(closed_length(edge.get("d")) - 30 * len(outer)) < 0.05 * len(outer)


def test_the_rhombi_of_a_parallelogram():
    region = Region.parse("3x4", lattice="triangle")
    placed = rhombi(3, 4)
    svg = tiling_svg(placed, region, cell=40)
    check_tiling(svg, placed, TRIANGLE, 40)
    # No cell is left uncovered; the letters fit a triangle (two thirds of a square's).
    assert "uncovered" not in svg
    sizes = {float(t.get("font-size")) for t in by_class(parsed(svg), "label")}
    assert sizes == {round(min(0.55, 1.5 / 2) * 40 * 2 / 3, 2)} | {round(40 * 2 / 3 * 0.5, 2)}


def test_uncovered_cells_and_the_colour_blind_palette():
    region = Region.parse("hex:2", lattice="hex")
    a, b, c, d = region.cells[:4]  # two pairs of neighbours
    placed = [("F", (a, b)), ("I", (c, d))]
    svg = tiling_svg(placed, region, colours="colour-blind", cell=20)
    root = parsed(svg)
    fills = {p.get("data-piece"): p.get("fill") for p in by_class(root, "piece")}
    assert fills == {"F": COLOUR_BLIND_COLOURS["F"], "I": COLOUR_BLIND_COLOURS["I"]}
    (empty,) = by_class(root, "uncovered")
    assert abs(area(empty.get("d")) - 3 * CELL_AREA["hex"] * 400) < 1


def test_a_tiling_value_is_drawn_on_its_regions_lattice():
    region = Region.parse("2x3", lattice="triangle")
    tiling = Tiling([Placement(n, c) for n, c in rhombi(2, 3)], region)
    assert tiling._repr_svg_() == tiling_svg(rhombi(2, 3), region)
    assert tiling._repr_svg_() == tiling_svg(rhombi(2, 3), list(region.cells), lattice="triangle")


def test_a_sheet_of_tilings():
    region = Region.parse("3x3", lattice="hex")
    solutions = [random_tiling(region, seed) for seed in range(4)]
    svg = tilings_sheet_svg(solutions, region_cells=region, columns=2)
    root = parsed(svg)
    assert len(by_class(root, "tiling")) == 4
    assert len(by_class(root, "piece")) == sum(map(len, solutions))
    one = tilings_sheet_svg(solutions[:1], region_cells=list(region.cells), lattice="hex")
    assert one == tiling_svg(solutions[0], region)


def test_pixels_at_the_cells_centres_are_their_pieces_colours():
    """Rendered, each hexagon's and triangle's centre has its piece's fill."""
    cairosvg = pytest.importorskip("cairosvg", reason="cairosvg (the test extra) renders SVG")
    from PIL import Image

    for text, lattice, seed in (("4x5", "hex", 7), ("3x5", "triangle", 8)):
        region = Region.parse(text, lattice=lattice)
        placed = random_tiling(region, seed)
        svg = tiling_svg(placed, region, cell=40, labels=False)
        png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
        image = Image.open(io.BytesIO(png)).convert("RGB")
        root = parsed(svg)
        dx, dy = translate(by_class(root, "tiling")[0])
        fills = {p.get("data-piece"): p.get("fill") for p in by_class(root, "piece")}
        low = (min(c[0] for c in region.cells), min(c[1] for c in region.cells))
        for name, cells in placed:
            want = tuple(int(fills[name][k : k + 2], 16) for k in (1, 3, 5))
            for c in cells:
                # The tiling is drawn with its least x and y moved to 0.
                x, y = region.lattice.cell_centre(
                    region.lattice.translate([c], (-low[0], -low[1]))[0]
                )
                got = image.getpixel((round(dx + 40 * x), round(dy + 40 * y)))
                assert all(abs(a - b) <= 6 for a, b in zip(got, want)), (name, c, got, want)


# -- the draw command ----------------------------------------------------------------


def write_lines(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_draw_file_reads_the_lattice_of_a_catalogue(tmp_path):
    shapes = pieces("hexiamonds")
    records = [{"cells": [list(c) for c in p.cells]} for p in shapes.values()]
    marked = write_lines(
        tmp_path / "hexiamonds.jsonl", [dict(r, lattice="triangle") for r in records]
    )
    bare = write_lines(tmp_path / "bare.jsonl", records)
    pictures = tmp_path / "hexiamonds.txt"
    pictures.write_text("".join(p.to_ascii() + "\n\n" for p in shapes.values()))
    expected = catalogue_svg(list(shapes.values()))
    assert draw_file(marked) == expected
    assert draw_file(bare, lattice="triangle") == expected
    assert draw_file(pictures, lattice=TRIANGLE) == expected
    assert len(by_class(parsed(draw_file(marked, limit=5)), "piece")) == 5
    with pytest.raises(ParseError, match="triangle lattice, not the hex"):
        draw_file(marked, lattice="hex")
    with pytest.raises(PolyformError):  # read as cubes, they are no polycubes
        draw_file(bare)
    with pytest.raises(PolyformError, match="squares and cubes"):
        model_file(marked)
    unknown = write_lines(tmp_path / "odd.jsonl", [{"cells": [[0, 0]], "lattice": "pentagon"}])
    with pytest.raises(ParseError, match="unknown lattice"):
        draw_file(unknown)


def test_draw_file_reads_the_lattice_of_solutions(tmp_path):
    region = Region.parse("3x3", lattice="hex")
    solutions = [random_tiling(region, seed) for seed in (1, 2)]
    records = [
        {"placements": [{"piece": n, "cells": [list(c) for c in cs]} for n, cs in s],
         "region": [list(c) for c in region.cells]}
        for s in solutions
    ]  # fmt: skip
    marked = write_lines(tmp_path / "tilings.jsonl", [dict(r, lattice="hex") for r in records])
    bare = write_lines(tmp_path / "bare.jsonl", records)
    expected = tilings_sheet_svg(solutions, region_cells=region)
    assert draw_file(marked) == expected == draw_file(bare, lattice="hex")
    assert draw_file(marked, limit=1) == tiling_svg(solutions[0], region)
    with pytest.raises(PolyformError, match="nothing to explode"):
        draw_file(marked, exploded=True)


def test_the_draw_command(tmp_path):
    shapes = pieces("pentahexes")
    records = [{"cells": [list(c) for c in p.cells]} for p in shapes.values()]
    source = write_lines(tmp_path / "pentahexes.jsonl", records)
    out = tmp_path / "sheet.svg"

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "polyforms", "draw", str(source), *args],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    done = run("--lattice", "hex", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert len(by_class(svg_file(out), "piece")) == 22
    refused = run("--lattice", "hex", "-o", str(tmp_path / "model.stl"))
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "squares and cubes" in refused.stderr

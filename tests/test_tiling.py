"""Tiling problems against published counts (ORACLES.md), symmetry, and the CLI."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import polyforms as pf
from polyforms import PieceSet, Region, TilingProblem, tile
from polyforms.errors import DisconnectedError, ParseError, TilingError, UnknownNameError
from polyforms.geometry import normalise
from polyforms.puzzles.puzzle_a_day import calendar_problem

EIGHT_MINUS_CENTRE = """
########
########
########
###..###
###..###
########
########
########
"""
EIGHT_MINUS_CORNERS = """
.######.
########
########
########
########
########
########
.######.
"""


def verify(problem: TilingProblem, tiling) -> None:
    """Every placement is an allowed orientation of its piece inside the region, the
    placements cover the region exactly once, and each piece is used within its
    range of copies (``high < 0``: no most)."""
    covered = [c for p in tiling for c in p.cells]
    assert sorted(covered) == list(problem.region.cells)
    uses = Counter(p.piece for p in tiling)
    assert set(uses) <= set(problem.pieces.names)
    for placement in tiling:
        assert normalise(placement.cells) in problem.pieces.orientations[placement.piece]
    for name, (low, high) in problem.pieces.ranges.items():
        assert low <= uses[name] and (high < 0 or uses[name] <= high), name


def burnside_and_classes(problem: TilingProblem) -> None:
    """all = sum over classes of |G| / |stabiliser|; distinct = number of canonical forms."""
    classes = list(problem.solutions(distinct=True))
    order = len(problem.group)
    assert sum(order // len(problem.stabiliser(t)) for t in classes) == problem.count()
    assert len(classes) == problem.count(distinct=True)
    assert len({tuple(t) for t in classes}) == len(classes)
    for t in classes:
        verify(problem, t)
        assert problem.canonical(t) == tuple(t)


# (region, pieces, all, distinct) from ORACLES.md
PENTOMINO_RECTANGLES = [
    ("6x10", 9356, 2339),
    ("5x12", 4040, 1010),
    ("4x15", 1472, 368),
    ("3x20", 8, 2),
]


@pytest.mark.parametrize("box,total,distinct", PENTOMINO_RECTANGLES)
def test_pentomino_rectangles(box, total, distinct):
    problem = tile(box, "pentominoes")
    assert problem.count() == total
    assert problem.count(distinct=True) == distinct


@pytest.mark.parametrize(
    "box",
    [b for b, _, _ in PENTOMINO_RECTANGLES[2:]]
    + [pytest.param(b, marks=pytest.mark.slow) for b, _, _ in PENTOMINO_RECTANGLES[:2]],
)
def test_pentomino_rectangles_burnside(box):
    burnside_and_classes(tile(box, "pentominoes"))


def test_all_solutions_are_tilings_and_canonical_forms_match():
    problem = tile("4x15", "pentominoes")
    everything = list(problem.solutions())
    assert len(everything) == 1472
    for t in everything:
        verify(problem, t)
    assert len({tuple(sorted(t)) for t in everything}) == 1472
    canonical = {problem.canonical(t) for t in everything}
    assert len(canonical) == problem.count(distinct=True) == 368
    # the plain search (no symmetry breaking) agrees
    assert problem.count(symmetry=False) == 1472


def test_eight_by_eight_minus_centre():
    problem = tile(EIGHT_MINUS_CENTRE, "pentominoes")
    assert len(problem.group) == 8
    assert problem.count() == 520
    assert problem.count(distinct=True) == 65
    burnside_and_classes(problem)
    everything = list(problem.solutions())
    assert len({problem.canonical(t) for t in everything}) == 65


def test_eight_by_eight_minus_corners():
    problem = tile(EIGHT_MINUS_CORNERS, "pentominoes")
    assert problem.count() == 17360
    assert problem.count(distinct=True) == 2170


def test_one_sided_three_by_thirty():
    """18 one-sided pentominoes: mirror images of a tiling use the mirror pieces, so the
    reflections of the rectangle still belong to G (46 classes of 184)."""
    problem = tile("3x30", "one-sided-pentominoes")
    assert len(problem.group) == 4
    assert problem.count() == 184
    assert problem.count(distinct=True) == 46
    burnside_and_classes(problem)


def test_reflections_off_keeps_rotations_only():
    problem = tile("3x20", "pentominoes", reflections=False)
    assert [s.transform.is_rotation for s, _ in problem.group] == [True, True]
    burnside_and_classes(problem)


def test_solid_pentominoes_2x3x10():
    problem = tile("2x3x10", "solid-pentominoes")
    assert len(problem.group) == 8
    assert problem.count() == 96
    assert problem.count(distinct=True) == 12
    burnside_and_classes(problem)


@pytest.mark.slow
def test_solid_pentominoes_2x5x6():
    problem = tile("2x5x6", "solid-pentominoes")
    assert problem.count() == 2112
    assert problem.count(distinct=True) == 264


@pytest.mark.slow
def test_solid_pentominoes_3x4x5():
    assert tile("3x4x5", "solid-pentominoes").count(distinct=True) == 3940


def test_soma_distinct():
    problem = tile("3x3x3", "soma")
    assert len(problem.group) == 48
    assert problem.count(distinct=True) == 240


@pytest.mark.slow
def test_soma_all():
    problem = tile("3x3x3", "soma")
    assert problem.count() == 11520
    burnside_and_classes(problem)


def test_squares_by_fixed_tetrominoes_with_reuse():
    problem = tile("4x4", "fixed:4", reuse=True)
    assert problem.count() == 117
    for t in problem.solutions():
        verify(problem, t)
    burnside_and_classes(problem)
    assert problem.to_exactcover().count() == 117


@pytest.mark.parametrize(
    "region,pieces,distinct",
    [
        ("4x6", "free:3", 255),
        ("4x4", "fixed:4", 22),
        ("3x6", "fixed:3", 51),
        ("2x2x3", "free:3", 10),
    ],
)
def test_distinct_counts_of_free_pieces_by_burnside(region, pieces, distinct):
    """Pieces all free: distinct counts by Burnside (each symmetry's fixed tilings
    from orbit options that may reuse a piece), checked against the classes
    listed, each symmetry's term against the listed tilings it fixes."""
    problem = tile(region, pieces, reuse=True)
    burnside_and_classes(problem)
    assert problem.count(distinct=True) == distinct
    every = {tuple(sorted(t)) for t in problem.solutions()}
    for g in range(1, len(problem.group)):
        # 4x4 by the fixed tetrominoes: two L pinwheels cover the same cells with
        # the same piece orbit, and are two orbit options (a quarter turn fixes 5).
        fixed = sum(1 for t in every if tuple(sorted(problem.image(t, g))) == t)
        assert problem.fixed_count(g) == fixed


def test_distinct_tetromino_tilings_of_the_chessboard():
    """19,077,209,438 tilings (an independent dynamic programme agrees), in 2,384,735,766
    classes: a second without listing one."""
    problem = tile("8x8", "tetrominoes", reuse=True)
    total = problem.count()
    assert total == 19077209438
    distinct = problem.count(distinct=True)
    assert distinct == 2384735766
    assert 8 * distinct > total  # the symmetric tilings count in fewer classes


@pytest.mark.slow
def test_squares_by_fixed_pentominoes_with_reuse():
    assert tile("5x5", "fixed:5", reuse=True).count() == 4006


def test_five_tetrominoes_in_four_by_five():
    problem = tile("4x5", "tetrominoes")
    assert problem.impossible is None
    assert problem.count() == 0
    assert problem.to_exactcover().count() == 0


@pytest.mark.slow
def test_octominoes_tiling_their_four_fold_dilation():
    found = 0
    for octomino in pf.polyominoes(8, "free"):
        region = Region(pf.dilate(octomino.cells, 4))
        problem = tile(region, [octomino], reuse=True)
        solution = problem.first()
        if solution is not None:
            verify(problem, solution)
            found += 1
    assert found == 10


def test_calendar_dates():
    jan1, dec25 = calendar_problem(1, 1), calendar_problem("Dec", 25)
    assert jan1.count() == 64
    assert dec25.count() == 92
    for t in dec25.solutions():
        verify(dec25, t)
    assert jan1.to_exactcover().count() == 64


def test_exact_cover_reference_agrees():
    for problem in (tile("3x20", "pentominoes"), calendar_problem(7, 4),
                    tile("3x4", "trominoes", counts={"I": 2, "L": 2})):  # fmt: skip
        xc = problem.to_exactcover()
        assert xc.count() == problem.count() == problem.count(symmetry=False)
        from_xc = {tuple(sorted(s)) for s in xc.solutions()}
        from_kernel = {tuple(sorted(t)) for t in problem.solutions()}
        assert from_xc == from_kernel
    problem = tile("3x4", "trominoes", counts={"I": 2, "L": 2})
    text = problem.to_exactcover().to_dlx()
    assert pf.ExactCover.from_dlx(text).count() == problem.count()


def test_python_twin_agrees(monkeypatch):
    expected = list(calendar_problem(2, 29).solutions())
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    assert list(calendar_problem(2, 29).solutions()) == expected
    assert tile("4x4", "fixed:4", reuse=True).count() == 117
    assert tile("3x20", "pentominoes").count(distinct=True) == 2


def test_jobs_give_the_same_count():
    problem = tile("4x15", "pentominoes")
    assert problem.count(jobs=2) == 1472
    assert problem.count(distinct=True, jobs=2) == 368
    assert problem.count(jobs=2, symmetry=False) == 1472


def test_impossible_inputs_have_reasons():
    assert "20 cells" in tile("5x5", "tetrominoes").impossible
    assert tile("5x5", "tetrominoes").count() == 0
    assert list(tile("5x5", "tetrominoes").solutions()) == []
    # a cell no placement can cover: the lone cell sticking out
    bar = {"I": [(i, 0) for i in range(5)]}
    assert tile("#####\n#....", bar, reuse=True).impossible == (
        "no placement covers the region cell (0, 1)"
    )
    # a piece that fits nowhere: an I pentomino in a 4x4 square
    problem = tile("4x4", {"I": [(i, 0) for i in range(5)], "X": [(0, 0)]},
                   counts={"I": 1, "X": 11})  # fmt: skip
    assert problem.impossible == "piece I fits nowhere in the region"


def test_bad_input_errors():
    with pytest.raises(UnknownNameError, match="known sets: monomino"):
        tile("4x4", "septominoes")
    with pytest.raises(ParseError, match="line 2, column 3"):
        Region.parse("###\n##!\n")
    with pytest.raises(DisconnectedError):
        tile("4x4", "#.#\n###\n\n#.\n.#")
    with pytest.raises(TilingError, match="2D but the region is 3D"):
        tile("2x3x10", "pentominoes")
    with pytest.raises(TilingError):
        tile("4x4", "pentominoes", counts={"Q": 1})


def test_region_forms_and_symmetries():
    assert Region.parse("6x10").shape == (10, 6)
    assert Region.parse("3x4x5").shape == (4, 3, 5)
    assert len(Region.parse("6x10").symmetries()) == 4
    assert len(Region.parse("8x8").symmetries()) == 8
    assert len(Region.parse("3x4x5").symmetries()) == 8
    assert len(Region.parse("3x3x3").symmetries()) == 48
    holes = Region.parse(EIGHT_MINUS_CENTRE)
    assert holes.size == 60 and len(holes.symmetries()) == 8
    two_parts = Region.parse("##..##\n##..##")
    assert len(two_parts.components) == 2
    assert tile(two_parts, "dominoes", reuse=True).count() == 4
    layered = Region.parse("##\n##\n--\n#.\n..")
    assert layered.dim == 3 and layered.size == 5
    for symmetry in holes.symmetries():
        assert symmetry.apply(holes.cells) == holes.cells


def test_piece_files_and_objects():
    text = "FF\n.F\n\n###\n"  # a letter picture and a '#' picture
    pieces = PieceSet.resolve(text)
    assert list(pieces.pieces) == ["F", "2"]
    assert tile("3x3", [pf.Polyform([(0, 0), (1, 0), (2, 0)])], reuse=True).count() == 2
    problem = tile("1x4", {"A": [(0, 0), (1, 0)]}, counts={"A": 2})
    assert problem.count() == 1
    assert str(problem.first()) == "AABB"  # two copies of A, told apart in the picture


def test_solution_picture_and_json():
    tiling = tile("6x10", "pentominoes").first()
    picture = str(tiling)
    assert len(picture.split("\n")) == 6 and set(picture) - {"\n"} == set("FILNPTUVWXYZ")
    record = tiling.to_json()
    assert sorted(p["piece"] for p in record["placements"]) == list("FILNPTUVWXYZ")


# -- command line ---------------------------------------------------------------------


def test_cli_count_and_distinct(cli):
    result = cli("tile", "6x10", "--pieces", "pentominoes", "--count")
    assert (result.returncode, result.stdout) == (0, "9356\n")
    result = cli("tile", "3x20", "--pieces", "pentominoes", "--count", "--distinct")
    assert (result.returncode, result.stdout) == (0, "2\n")
    result = cli("tile", "4x4", "--pieces", "fixed:4", "--reuse", "--count")
    assert result.stdout == "117\n"


def test_cli_impossible_and_errors(cli, tmp_path):
    result = cli("tile", "5x5", "--pieces", "tetrominoes", "--count")
    assert (result.returncode, result.stdout) == (0, "0\n")
    assert "25" in result.stderr
    out = tmp_path / "out.txt"
    result = cli("tile", "5x5", "--pieces", "heptagons", "-o", str(out))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "known sets" in result.stderr
    assert not out.exists()
    bad = tmp_path / "bad.txt"
    bad.write_text("##\n#?\n")
    result = cli("tile", str(bad), "--pieces", "dominoes", "--reuse", "-o", str(out))
    assert result.returncode == 2 and "line 2, column 2" in result.stderr
    assert not out.exists()
    result = cli("tile", "2x3x10", "--pieces", "pentominoes", "--count")
    assert result.returncode == 2 and "3D" in result.stderr


def test_cli_outputs(cli, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(EIGHT_MINUS_CENTRE)
    out = tmp_path / "out.jsonl"
    result = cli("tile", str(board), "--pieces", "pentominoes", "--distinct", "-o", str(out),
                 "--quiet")  # fmt: skip
    assert result.returncode == 0 and result.stdout == ""
    lines = out.read_text().splitlines()
    assert len(lines) == 65
    assert all(len(json.loads(line)["placements"]) == 12 for line in lines)
    result = cli("tile", "-", "--pieces", "dominoes", "--reuse", "--limit", "1", stdin="##\n##\n")
    assert (result.returncode, result.stdout) == (0, "AB\nAB\n\n")
    result = cli("tile", "6x10", "--pieces", "pentominoes", "--limit", "2")
    assert result.stdout.count("\n\n") == 2
    svg = tmp_path / "t.svg"
    result = cli("tile", "3x20", "--pieces", "pentominoes", "--limit", "1", "-o", str(svg))
    assert result.returncode == 0 and "<svg" in svg.read_text()
    assert svg.read_text().count('class="piece"') == 12


def test_cli_calendar(cli):
    result = cli("calendar", "Dec", "25", "--count")
    assert (result.returncode, result.stdout) == (0, "92\n")
    result = cli("calendar", "1", "1", "--limit", "1")
    picture = result.stdout.strip().split("\n")
    assert len(picture) == 7 and sum(row.count("*") for row in picture) == 2


def test_notebook_pictures_of_regions_and_tilings():
    import xml.etree.ElementTree as ET

    region = Region.parse("###\n#.#\n###")
    assert ET.fromstring(region._repr_svg_()).tag.endswith("svg")
    tiling = pf.tile("2x5", "free:5", reuse=True).first()
    svg = tiling._repr_svg_()
    assert svg.count('class="piece"') == 2


def _random_instances(seed: int, kinds: tuple[str, ...], trials: int):
    """Small boxes with random sets of distinct small polyominoes of matching area."""
    import random

    rng = random.Random(seed)
    shapes = {}
    for kind in kinds:
        for n in (1, 2, 3, 4):
            for name, poly in pf.pieces(f"{kind}:{n}").items():
                shapes[f"{n}{name}"] = poly
    names = sorted(shapes)
    boxes = [(2, 2), (2, 3), (3, 3), (2, 4), (3, 4), (4, 4), (2, 5), (3, 5), (2, 6)]
    for _ in range(trials):
        w, h = rng.choice(boxes)
        for _ in range(200):
            chosen = rng.sample(names, rng.randint(1, 6))
            if sum(shapes[n].size for n in chosen) == w * h:
                yield f"{w}x{h}", {n: shapes[n] for n in chosen}
                break


def _fixed_by_listing(problem: TilingProblem) -> list[int]:
    """For each g in G, the listed tilings that g maps onto themselves."""
    everything = [tuple(sorted(t)) for t in problem.solutions()]
    return [sum(problem.image(t, g) == t for t in everything) for g in range(len(problem.group))]


@pytest.mark.parametrize("engine", ["bitset", "dlx"])
def test_burnside_count_matches_canonical_forms(engine):
    """count(distinct=True) goes through Burnside (tilings fixed by each g, counted on
    orbit options) and nested symmetry breaking; listing canonical forms is independent.
    The instances include tilings with symmetries, so fixed_count is not always 0."""
    symmetric = 0
    for region, shapes in _random_instances(1, ("free",), 120):
        problem = tile(region, shapes, engine=engine)
        if problem.impossible:
            continue
        classes = list(problem.solutions(distinct=True))
        assert problem.count(distinct=True) == len(classes)
        assert problem.count() == problem.count(symmetry=False)
        fixed = [problem.fixed_count(g) for g in range(len(problem.group))]
        assert fixed == _fixed_by_listing(problem)
        assert sum(fixed) == len(problem.group) * len(classes)  # Burnside
        symmetric += any(fixed[1:])
    assert symmetric > 0


def test_burnside_with_pieces_swapped_by_reflections():
    """One-sided pieces: a reflection maps L to J, so a tiling fixed by it holds the
    mirror pair as one orbit option."""
    symmetric = 0
    for region, shapes in _random_instances(2, ("one-sided",), 120):
        problem = tile(region, pf.PieceSet(shapes, kind="one-sided"))
        if problem.impossible:
            continue
        classes = list(problem.solutions(distinct=True))
        assert problem.count(distinct=True) == len(classes)
        fixed = [problem.fixed_count(g) for g in range(len(problem.group))]
        assert fixed == _fixed_by_listing(problem)
        assert sum(fixed) == len(problem.group) * len(classes)
        symmetric += any(fixed[1:])
    assert symmetric > 0


def test_nested_breaking_plan_counts_everything():
    """The plan's weighted restricted counts add up to the unrestricted count."""
    problem = tile("5x12", "pentominoes")
    assert len(problem.symmetry_breaking.plan) > 1  # the breaker has placements with symmetries
    assert problem.count() == problem.count(symmetry=False) == 4040
    # Below the top level a breaker with no fixed placements ends the nesting.
    boxed = tile("2x3x10", "solid-pentominoes")
    [(allowed, weight)] = boxed.symmetry_breaking.plan
    assert len(allowed) == 2 and weight == len(boxed.group)
    assert boxed.count() == boxed.count(symmetry=False) == 96
    soma = tile("3x3x3", "soma")
    assert soma.count(distinct=True) == 240
    assert [soma.fixed_count(g) for g in range(1, 48)] == [0] * 47


def test_the_parts_of_a_problem_are_given_what_they_need():
    """Symmetry breaking and open cells are built from a layout and its searches
    alone, and answer as the problem that holds them does."""
    from polyforms.tiling import OpenCells, SymmetryBreaking
    from polyforms.tiling.engines import Searches
    from polyforms.tiling.layout import build_layout

    region, pieces = Region.parse("5x12"), PieceSet.resolve("pentominoes")
    layout = build_layout(region, pieces)
    breaking = SymmetryBreaking(layout, Searches(layout, "first", "bitset"))
    problem = tile("5x12", "pentominoes")
    assert (layout.order, layout.placements) == (problem.order, problem.placements)
    assert breaking.plan == problem.symmetry_breaking.plan
    assert breaking.restrictions() == problem.symmetry_breaking.restrictions()
    assert [breaking.fixed_count(g) for g in range(4)] == [4040, 0, 0, 0]
    first = problem.first()
    assert breaking.canonical(first) == problem.canonical(first)
    opened = build_layout(Region.parse("1x4"), PieceSet.resolve("dominoes"), open=2)
    searches = Searches(opened, "first", "dlx")
    cells = OpenCells(opened, searches, SymmetryBreaking(opened, searches))
    assert cells.count_by_open() == tile("1x4", "dominoes", open=2).count_by_open()

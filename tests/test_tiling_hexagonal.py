"""Tiling regions of the triangular and hexagonal lattices: the published counts
of the hexiamonds, an independent brute-force tiler (``_brute_plane``) on small
random regions for all and distinct counts on both twins of the kernel,
Burnside against canonical forms, files and the command line."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from polyforms import Region, tile
from polyforms.errors import TilingError
from polyforms.files.solutions import read_solutions
from polyforms.lattice import HEX, TRIANGLE
from polyforms.piece_sets import PieceSet

sys.path.insert(0, str(Path(__file__).parent))  # the oracle lives beside the tests
from _brute_plane import orbits, region_symmetries, symmetries, tilings  # noqa: E402

BACKENDS = ("compiled", "python")


@pytest.fixture(params=BACKENDS)
def backend(request, monkeypatch, require_compiled):
    """Each test once on the compiled kernel and once on its readable twin."""
    if request.param == "python":
        monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    else:
        require_compiled("tiling")
    return request.param


# -- the published counts -------------------------------------------------------------

# The 12 hexiamonds (ORACLES.md): 156 distinct tilings of the 6x6 rhombus, 74 of the
# 4x9 parallelogram, none of the 3x12 one. No tiling of these is symmetric, so all
# of them are the distinct ones times the order of the region's group (4, 2, 2):
# checked here by Burnside (the fixed counts of the other symmetries are 0).
HEXIAMOND_COUNTS = [("6x6", 156, 4), ("4x9", 74, 2), ("9x4", 74, 2), ("3x12", 0, 2)]


# The 6x6 rhombus takes 16 s on the readable twin: test_hexiamonds_on_the_twin (slow).
@pytest.mark.parametrize(
    "backend,shape,distinct,order",
    [
        (backend, *case)
        for backend in BACKENDS
        for case in HEXIAMOND_COUNTS
        if (backend, case[0]) != ("python", "6x6")
    ],
    indirect=["backend"],
)
def test_hexiamonds_in_parallelograms(backend, shape, distinct, order):
    problem = tile(shape, "hexiamonds")
    assert problem.region.lattice is TRIANGLE and problem.region.size == 72
    assert len(problem.group) == order
    assert problem.count(distinct=True) == distinct
    assert [problem.fixed_count(g) for g in range(1, order)] == [0] * (order - 1)
    assert problem.count() == distinct * order
    if backend == "compiled":
        assert problem.count(symmetry=False) == distinct * order
        listed = list(problem.solutions(distinct=True))
        assert len(listed) == distinct
        assert len({problem.canonical(t) for t in listed}) == distinct


@pytest.mark.slow
def test_hexiamonds_on_the_twin(monkeypatch):
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    problem = tile("6x6", "hexiamonds")
    assert problem.count(distinct=True) == 156 and problem.count() == 624


def test_the_rhombus_through_exact_cover():
    problem = tile("6x6", "hexiamonds", engine="dlx")
    assert problem.count() == 624
    assert problem.to_exactcover().count() == 624


def test_dlx_text_of_a_tiling_problem_round_trips():
    from polyforms.exactcover.problem import ExactCover

    problem = tile("4x9", "hexiamonds")
    text = problem.to_exactcover().to_dlx()
    assert ExactCover.from_dlx(text).count() == 148


# -- the brute-force oracle -----------------------------------------------------------


def test_the_oracle_group_is_the_lattice_group():
    """The brute force's twelve maps are the lattice's twelve symmetries (as sets)."""
    for lattice, triangles in ((TRIANGLE, True), (HEX, False)):
        cells = list(lattice.frame_cells([(0, 0), (2, 2)]))
        mine = {tuple(move(c) for c in cells) for move in symmetries(triangles)}
        theirs = {tuple(t(c) for c in cells) for t in lattice.transforms}
        assert mine == theirs and len(mine) == 12


def _random_region(rng: random.Random, lattice) -> list:
    """A small parallelogram, triangle or hexagon, less up to two random cells (on the
    triangular lattice, rhombi: ▽ and △ stay as balanced as most pieces need)."""
    if lattice is TRIANGLE:
        shapes = ["1x3", "2x2", "2x3", "3x2", "2x4", "3x3", "tri:3", "tri:4", "hex:1"]
    else:
        shapes = ["2x3", "3x3", "3x4", "4x3", "4x4", "hex:2", "tri:4", "tri:5"]
    cells = list(Region.parse(rng.choice(shapes), lattice=lattice).cells)
    for _ in range(rng.choice([0, 0, 1, 2])):
        cell = rng.choice(cells)
        for hole in [cell, (*cell[:2], 1 - cell[2])] if lattice is TRIANGLE else [cell]:
            if hole in cells and len(cells) > 2:
                cells.remove(hole)
    return cells


def _random_pieces(rng: random.Random, lattice) -> tuple[dict, dict]:
    """Pieces and their copy ranges: free:K with any number of copies, or a few
    pieces with ranges."""
    size = rng.choice([2, 3, 4, 4] if lattice is TRIANGLE else [2, 2, 3, 3])
    shapes = {
        name: p.cells
        for name, p in PieceSet.resolve(f"free:{size}", lattice=lattice).pieces.items()
    }
    if rng.random() < 0.6:
        return shapes, {name: (0, None) for name in shapes}
    ranges = {}
    for name in shapes:
        low = rng.choice([0, 0, 1])
        ranges[name] = (low, low + rng.randint(1, 4))
    return shapes, ranges


def _problem(cells, lattice, shapes, ranges, rotations=True, reflections=True):
    counts = {name: (low, high) for name, (low, high) in ranges.items()}
    return tile(
        Region(cells, lattice=lattice), shapes, counts=counts, rotations=rotations,
        reflections=reflections,
    )  # fmt: skip


@pytest.mark.parametrize("lattice", [TRIANGLE, HEX], ids=["triangle", "hex"])
def test_random_regions_against_the_brute_force(backend, lattice):
    rng = random.Random(4401 if lattice is TRIANGLE else 4402)
    seen_tilings = seen_classes = 0
    for _ in range(40 if backend == "compiled" else 15):
        cells = Region(_random_region(rng, lattice), lattice=lattice).cells  # normal position
        shapes, ranges = _random_pieces(rng, lattice)
        rotations = rng.random() > 0.15
        reflections = rng.random() > 0.3
        found = tilings(cells, shapes, ranges, rotations, reflections)
        classes = orbits(cells, found, shapes, rotations, reflections)
        problem = _problem(cells, lattice, shapes, ranges, rotations, reflections)
        assert problem.count() == len(found), (cells, ranges)
        listed = {frozenset((p.piece, frozenset(p.cells)) for p in t) for t in problem.solutions()}
        assert listed == found
        assert problem.count(distinct=True) == len(classes), (cells, ranges)
        distinct = list(problem.solutions(distinct=True))
        assert len(distinct) == len(classes)
        keys = [frozenset((p.piece, frozenset(p.cells)) for p in t) for t in distinct]
        assert all(sum(key in c for key in keys) == 1 for c in classes)  # one per class
        seen_tilings += len(found)
        seen_classes += len(classes)
    least = 20 if backend == "compiled" else 5
    assert seen_tilings > least and seen_classes > least  # the oracle saw real work


# Named sets, each piece at most once, where some tilings exist: (set, region, tilings).
ONCE = {
    TRIANGLE: [("hexiamonds", "2x6", 8), ("hexiamonds", "3x4", 22), ("hexiamonds", "3x6", 178),
               ("hexiamonds", "hex:1", 1), ("tetriamonds", "2x2", 0), ("hexiamonds", "tri:6", 0)],
    HEX: [("trihexes", "tri:3", 3), ("tetrahexes", "2x6", 2), ("tetrahexes", "3x4", 8),
          ("tetrahexes", "4x7", 18)],
}  # fmt: skip


@pytest.mark.parametrize("lattice", [TRIANGLE, HEX], ids=["triangle", "hex"])
def test_pieces_used_once_against_the_brute_force(backend, lattice):
    """Each piece at most once (the symmetry-broken searches, Burnside's fixed
    counts); the tilings counted here are the brute force's."""
    for name, shape, expected in ONCE[lattice]:
        problem = tile(shape, name, optional=True, lattice=lattice)
        shapes = {n: p.cells for n, p in problem.pieces.pieces.items()}
        cells = problem.region.cells
        found = tilings(cells, shapes, dict.fromkeys(shapes, (0, 1)))
        classes = orbits(cells, found, shapes)
        assert problem.count() == len(found) == expected, (name, shape)
        assert problem.count(distinct=True) == len(classes), (name, shape)
        assert problem.count(symmetry=False) == len(found)
        assert len(list(problem.solutions(distinct=True))) == len(classes)
    # Each piece exactly once: the tetrahexes in the 4x7 parallelogram.
    if lattice is HEX:
        problem = tile("4x7", "tetrahexes")
        assert problem.count() == 18 and problem.count(distinct=True) == 9


@pytest.mark.parametrize("lattice", [TRIANGLE, HEX], ids=["triangle", "hex"])
def test_burnside_against_canonical_forms(lattice):
    """The distinct count by Burnside (the tilings each symmetry fixes, averaged)
    equals the number of canonical forms of all tilings, and the brute force's
    own Burnside sum over the region's symmetries."""
    cases = (
        [("hex:1", "free:2"), ("tri:4", "free:4"), ("2x3", "free:3"), ("hex:1", "free:3"),
         ("tri:4", "free:2")]
        if lattice is TRIANGLE
        else [("4x4", "free:2"), ("3x4", "free:3"), ("tri:4", "free:2"), ("tri:5", "free:3"),
              ("hex:2", "free:1")]
    )  # fmt: skip
    symmetric = 0
    for shape, pieces in cases:
        problem = tile(shape, pieces, reuse=True, lattice=lattice)
        order = len(problem.group)
        fixed = [problem.count()] + [problem.fixed_count(g) for g in range(1, order)]
        assert sum(fixed) % order == 0
        canonical = {problem.canonical(t) for t in problem.solutions()}
        assert sum(fixed) // order == len(canonical) == problem.count(distinct=True)
        # The oracle: tilings fixed by each of its own region symmetries.
        cells = problem.region.cells
        shapes = {n: p.cells for n, p in problem.pieces.pieces.items()}
        found = tilings(cells, shapes, {n: (0, None) for n in shapes})
        maps = region_symmetries(cells)
        assert len(maps) == order
        fixed_by = [
            sum(1 for s in found if frozenset(frozenset(map(m, c)) for _, c in s)
                == frozenset(c for _, c in s))
            for m in maps
        ]  # fmt: skip
        assert sorted(fixed_by) == sorted(fixed)
        symmetric += sum(fixed[1:])
    assert symmetric > 0  # tilings fixed by some symmetry were seen


def test_the_twins_agree_on_the_order_of_tilings(monkeypatch, require_compiled):
    """The compiled kernel and its twin list the same tilings in the same order, with
    three and six neighbours a cell (the flood fill of dead areas included)."""
    require_compiled("tiling")
    cases = [("3x4", "hexiamonds", TRIANGLE, True), ("tri:3", "trihexes", HEX, True),
             ("4x9", "hexiamonds", TRIANGLE, False), ("4x7", "tetrahexes", HEX, False),
             ("tri:5", "free:3", HEX, None), ("2x4", "free:4", TRIANGLE, None)]  # fmt: skip
    for shape, pieces, lattice, optional in cases:
        how = {"reuse": True} if optional is None else {"optional": optional}
        problem = tile(shape, pieces, lattice=lattice, **how)
        compiled = list(problem.solutions()), problem.count(), problem.count(distinct=True)
        with monkeypatch.context() as m:
            m.setenv("POLYFORMS_BACKEND", "python")
            problem = tile(shape, pieces, lattice=lattice, **how)
            python = list(problem.solutions()), problem.count(), problem.count(distinct=True)
        assert compiled == python and compiled[0], (shape, pieces)


def test_pieces_and_region_of_different_lattices_are_refused():
    with pytest.raises(TilingError, match="triangle lattice but the region is of the hex"):
        tile(Region.parse("3x3", lattice="hex"), PieceSet.resolve("hexiamonds"))


# -- pictures and files ---------------------------------------------------------------


def test_steady_and_pictures_use_the_lattice():
    problem = tile("6x6", "hexiamonds")
    first = next(problem.solutions(distinct=True))
    text = first.to_ascii()
    marks = TRIANGLE.parse_picture(text)
    assert {cell: mark for cell, mark in marks if mark != "."} == {
        cell: p.piece for p in first for cell in p.cells
    }
    steady = problem.steady(first)
    assert problem.canonical(steady) == problem.canonical(first)
    assert len(first.adjacency().edges) > 11  # touching pieces, by the lattice's neighbours


@pytest.mark.parametrize("shape,pieces,lattice", [("4x9", "hexiamonds", "triangle"),
                                                  ("4x7", "tetrahexes", "hex")])  # fmt: skip
def test_solutions_files_round_trip(tmp_path, shape, pieces, lattice):
    problem = tile(shape, pieces, lattice=lattice)
    path = tmp_path / "tilings.jsonl"
    written = problem.write(path, "jsonl", distinct=True)
    lines = path.read_text().splitlines()
    assert written == len(lines) > 0
    assert all(json.loads(line)["lattice"] == lattice for line in lines)
    with open(path) as stream:
        back = list(read_solutions(stream, lattices=True))
    listed = list(problem.solutions(distinct=True))
    assert [b[2].name for b in back] == [lattice] * len(listed)
    assert [sorted(b[0]) for b in back] == [sorted((p.piece, p.cells) for p in t) for t in listed]
    # The picture format parses back to the same cells and pieces.
    text = tmp_path / "tilings.txt"
    problem.write(text, "txt", distinct=True, limit=3)
    blocks = [b for b in text.read_text().split("\n\n") if b.strip()]
    found = problem.region.lattice
    for block, tiling in zip(blocks, listed):
        marks = {cell: mark for cell, mark in found.parse_picture(block)}
        placed = {cell: p.piece for p in tiling for cell in p.cells}
        assert found.normalise(marks) == found.normalise(placed)
        assert len(set(marks.values())) == len(tiling)


def test_a_record_with_cells_of_another_lattice_is_refused():
    from polyforms.errors import ParseError

    line = '{"lattice":"triangle","placements":[{"piece":"A","cells":[[0,0],[1,0]]}]}'
    with pytest.raises(ParseError, match="line 1"):
        list(read_solutions(io.StringIO(line), lattices=True))
    line = '{"lattice":"hexagon","placements":[{"piece":"A","cells":[[0,0],[1,0]]}]}'
    with pytest.raises(ParseError, match="unknown lattice"):
        list(read_solutions(io.StringIO(line), lattices=True))


def test_square_files_are_unchanged():
    problem = tile("2x4", "dominoes", reuse=True)
    assert next(problem.solutions()).to_jsonl().startswith('{"placements":')


# -- the command line -----------------------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "polyforms", "tile", *args], capture_output=True, text=True
    )


def test_command_line_counts():
    found = _run("6x6", "--lattice", "triangle", "--pieces", "hexiamonds", "--count", "--distinct")
    assert (found.returncode, found.stdout, found.stderr) == (0, "156\n", "")
    # A named set of polyiamonds brings its lattice.
    found = _run("4x9", "--pieces", "hexiamonds", "--count")
    assert found.stdout == "148\n"
    found = _run("hex:3", "--lattice", "hex", "--pieces", "free:2", "--reuse", "--count",
                 "--jobs", "2")  # fmt: skip
    assert found.stdout == "0\n"  # 19 hexagons: odd
    found = _run("4x7", "--lattice", "hex", "--pieces", "tetrahexes", "--count", "--distinct")
    assert found.stdout == f"{tile('4x7', 'tetrahexes').count(distinct=True)}\n"


@pytest.mark.parametrize(
    "args,message",
    [
        (("6x6", "--lattice", "hexagon", "--pieces", "hexiamonds"), "invalid choice: 'hexagon'"),
        (("2x3x4", "--lattice", "triangle", "--pieces", "hexiamonds"), "a box has two sides"),
        (("6x6", "--lattice", "hex", "--pieces", "hexiamonds"),
         "the set hexiamonds is of the triangle lattice, not of the hex lattice"),
        (("6x10", "--lattice", "triangle", "--pieces", "pentominoes"),
         "the set pentominoes is of the square lattice, not of the triangle lattice"),
        (("3x4x5", "--lattice", "square", "--pieces", "soma"), "of the cube lattice"),
        (("nofile.txt", "--lattice", "triangle", "--pieces", "hexiamonds"),
         "no such file, and not a shape like 6x6, tri:N or hex:N"),
    ],
)  # fmt: skip
def test_command_line_refusals(args, message):
    found = _run(*args, "--count")
    assert found.returncode == 2 and found.stdout == ""
    assert found.stderr.count("\n") == 1 and message in found.stderr, found.stderr


@pytest.mark.parametrize("cap", [0, 1, 3, 5])
def test_dead_areas_are_pruned_rightly_with_three_and_six_neighbours(backend, cap, monkeypatch):
    """The kernel's test of isolated empty areas (up to ``cap`` cells, by flood fill
    over the neighbour lists) keeps every tiling on both lattices."""
    from polyforms.tiling import layout

    monkeypatch.setattr(layout, "flood_cap", lambda ncells, least: cap)
    cases = [("3x4", "hexiamonds", TRIANGLE, 22), ("2x4", "free:4", TRIANGLE, None),
             ("3x4", "tetrahexes", HEX, 8), ("tri:5", "free:3", HEX, None)]  # fmt: skip
    for shape, pieces, lattice, expected in cases:
        how = {"reuse": True} if expected is None else {"optional": True}
        problem = tile(shape, pieces, lattice=lattice, **how)
        shapes = {n: p.cells for n, p in problem.pieces.pieces.items()}
        bounds = (0, None) if expected is None else (0, 1)
        found = tilings(problem.region.cells, shapes, dict.fromkeys(shapes, bounds))
        assert problem.count() == len(found) > 0
        assert expected is None or len(found) == expected


def test_pieces_that_know_their_lattice_tell_the_region_text():
    problem = tile("6x6", PieceSet.resolve("hexiamonds"))
    assert problem.region.lattice is TRIANGLE and problem.count(distinct=True) == 156


@pytest.mark.parametrize(
    "shape,pieces,lattice", [("2x2", "free:2", TRIANGLE), ("tri:3", "free:2", HEX)]
)
def test_open_cells_against_the_brute_force(backend, shape, pieces, lattice):
    """Tilings by open set (``count_by_open``): the brute force tiles the region less
    each set of open cells; ``count(open=K)`` is their sum."""
    from itertools import combinations

    problem = tile(shape, pieces, reuse=True, open=2, lattice=lattice)
    shapes = {n: p.cells for n, p in problem.pieces.pieces.items()}
    cells = problem.region.cells
    expected = {}
    for opened in combinations(cells, 2):
        rest = [c for c in cells if c not in opened]
        found = len(tilings(rest, shapes, dict.fromkeys(shapes, (0, None))))
        if found:
            expected[tuple(sorted(opened))] = found
    assert problem.count_by_open() == expected
    assert problem.count() == sum(expected.values()) > 0
    listed = list(problem.solutions())
    assert len(listed) == problem.count() and all(len(t.open) == 2 for t in listed)


def test_long_runs_on_the_job_layer(tmp_path):
    """--jobs, --checkpoint and --estimate on the triangular lattice; a split
    listing is byte-identical to a one-process one."""
    one = _run("4x9", "--pieces", "hexiamonds", "--distinct", "--format", "jsonl")
    two = _run("4x9", "--pieces", "hexiamonds", "--distinct", "--format", "jsonl", "--jobs", "2")
    assert one.returncode == two.returncode == 0 and one.stdout == two.stdout
    assert len(one.stdout.splitlines()) == 74
    journal = tmp_path / "count.ckpt"
    for _ in range(2):  # the second run resumes from the finished journal
        found = _run("6x6", "--pieces", "hexiamonds", "--count", "--jobs", "2",
                     "--checkpoint", str(journal))  # fmt: skip
        assert (found.returncode, found.stdout) == (0, "624\n")
    found = _run("6x6", "--pieces", "hexiamonds", "--estimate")
    assert found.returncode == 0 and "tilings" in found.stdout


@pytest.mark.parametrize("lattice, pieces", [("triangle", "hexiamonds"), ("hex", "tetrahexes")])
def test_a_picture_file_draws_the_region_lattice_not_cubes(tmp_path, lattice, pieces):
    # A triangle is three numbers like a cube: the sheet must be drawn on the
    # region's lattice, as the library draws the same tilings.
    from polyforms.draw.plane import tilings_sheet_svg

    region = "6x6" if lattice == "triangle" else "4x7"
    out = tmp_path / "sheet.svg"
    found = _run(region, "--lattice", lattice, "--pieces", pieces, "--limit", "2", "-o", str(out))
    assert found.returncode == 0, found.stderr
    problem = tile(Region.parse(region, lattice=lattice), pieces)
    solutions = problem.solutions()
    expected = tilings_sheet_svg(
        [next(solutions), next(solutions)], region_cells=problem.region.cells, lattice=lattice
    )
    assert out.read_text() == expected

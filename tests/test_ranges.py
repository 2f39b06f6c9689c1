"""Copies as ranges (``counts={"I": (0, 2)}``, ``optional``), open cells and distinct
tilings, against a brute-force tiler on small random boards."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from polyforms import tile
from polyforms.errors import ParseError, TilingError
from polyforms.piece_sets import PieceSet, parse_copies

# The oracle lives beside the tests (pytest runs with --import-mode=importlib).
sys.path.insert(0, str(Path(__file__).parent))
from _brute_tiling import orbit_count, tilings  # noqa: E402

SHAPES = {
    "a": [(0, 0)],
    "b": [(0, 0), (1, 0)],
    "c": [(0, 0), (1, 0), (2, 0)],
    "d": [(0, 0), (1, 0), (0, 1)],
    "e": [(0, 0), (1, 0), (2, 0), (3, 0)],
    "f": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "g": [(0, 0), (1, 0), (2, 0), (1, 1)],
    "h": [(1, 0), (2, 0), (0, 1), (1, 1)],
    "i": [(0, 0), (1, 0), (2, 0), (0, 1)],
}


def _instance(rng: random.Random):
    width, height = rng.choice([(3, 3), (3, 4), (4, 4), (2, 5)])
    region = [(x, y) for x in range(width) for y in range(height) if rng.random() < 0.9]
    names = sorted(rng.sample(sorted(SHAPES), rng.randint(1, 3)))
    shapes = {n: SHAPES[n] for n in names}
    ranges = {}
    for name in names:
        low = rng.choice([0, 0, 1, 1, 2])
        high = rng.choice([low, low + 1, low + 2, None, 0])  # 0: impossible unless low is 0
        ranges[name] = (low, high)
    return region, shapes, ranges, rng.choice([0, 0, 1, 2]), rng.random() < 0.6


def _as_brute(problem, tiling):
    placed = frozenset((p.piece, frozenset(p.cells)) for p in tiling)
    return placed, frozenset(getattr(tiling, "open", ()))


def _problem(region, shapes, ranges, open_cells, reflections, **options):
    counts = {}
    for name, (low, high) in ranges.items():
        if low > (high if high is not None else low):
            counts[name] = (low, low)  # an empty range is refused: keep the case possible
        else:
            counts[name] = (low, high)
    return counts, tile(
        region, shapes, counts=counts, open=open_cells, reflections=reflections, **options
    )


@pytest.mark.parametrize("seed", range(60))
def test_ranges_and_open_cells_against_brute_force(seed, monkeypatch):
    rng = random.Random(seed)
    region, shapes, ranges, open_cells, reflections = _instance(rng)
    counts, problem = _problem(region, shapes, ranges, open_cells, reflections)
    expected = tilings(region, shapes, counts, open_cells, reflections)
    found = {_as_brute(problem, t) for t in problem.solutions()}
    assert found == expected
    assert problem.count() == len(expected)
    assert problem.to_exactcover().count() == len(expected)
    assert tile(region, shapes, counts=counts, open=open_cells, reflections=reflections,
                engine="dlx").count() == len(expected)  # fmt: skip
    assert problem.count(distinct=True) == orbit_count(region, expected, shapes, reflections)
    assert len(list(problem.solutions(distinct=True))) == problem.count(distinct=True)
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    _, twin = _problem(region, shapes, ranges, open_cells, reflections)
    assert twin.count() == len(expected)
    assert [_as_brute(twin, t) for t in twin.solutions()] == [
        _as_brute(problem, t) for t in problem.solutions()
    ]


@pytest.mark.parametrize("seed", range(40))
def test_memoized_counts_of_free_pieces_against_brute_force(seed, monkeypatch):
    """Every piece free (``0..``): counts memoize by board (both twins, both
    branching rules; a memo of a few boards starts over often); the counts equal
    the brute-force tiler's, and the distinct counts its orbits."""
    rng = random.Random(1000 + seed)
    width, height = rng.choice([(3, 4), (4, 4), (2, 6), (3, 5)])
    region = [(x, y) for x in range(width) for y in range(height) if rng.random() < 0.95]
    others = rng.sample(sorted(set(SHAPES) - {"a"}), rng.randint(0, 2))
    names = sorted({rng.choice("bcd"), *others})  # a small piece: half the boards tile
    shapes = {n: SHAPES[n] for n in names}
    counts = {n: (0, None) for n in names}
    reflections = rng.random() < 0.6
    expected = tilings(region, shapes, counts, 0, reflections)
    for strategy in ("first", "mrv"):
        problem = tile(region, shapes, counts=counts, reflections=reflections, strategy=strategy)
        assert problem.count() == len(expected)
        search = problem.searches.over().search
        assert search.memo_ok
        search.memo_entries = 2
        assert search.count() == len(expected)
    assert problem.count(distinct=True) == orbit_count(region, expected, shapes, reflections)
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    twin = tile(region, shapes, counts=counts, reflections=reflections)
    assert twin.count() == len(expected)


def test_the_mrv_kernel_meets_lower_bounds():
    for seed in range(20):
        rng = random.Random(seed)
        region, shapes, ranges, open_cells, reflections = _instance(rng)
        counts, first = _problem(region, shapes, ranges, open_cells, reflections)
        _, mrv = _problem(region, shapes, ranges, open_cells, reflections, strategy="mrv")
        assert mrv.count() == first.count()


def test_impossible_ranges_and_zero_copies():
    assert tile("2x5", "pentominoes", counts={"I": (3, 4)}, optional=True).count() == 0
    assert "at least 15 cells" in tile("2x5", "pentominoes", counts={"I": (3, 4)},
                                       optional=True).impossible  # fmt: skip
    assert "at most 4 cells" in tile("2x3", "dominoes", counts={"I": (0, 2)}).impossible
    # every range met in area, yet no choice of copies gives 64 cells: seen at once
    problem = tile("8x8", "pentominoes", counts={"I": (0, 2)}, optional=True)
    assert "no choice of copies covers exactly 64 of" in problem.impossible
    assert tile("2x3", {"T": [(0, 0), (1, 0), (2, 0)], "D": [(0, 0), (1, 0)]},
                counts={"T": (0, 1), "D": (0, 1)}).impossible  # fmt: skip
    assert tile("1x4", "dominoes", counts={"I": 0}, open=4).count() == 1
    assert tile("1x4", "dominoes", counts={"I": (0, 0)}).count() == 0
    with pytest.raises(TilingError, match="empty range"):
        tile("2x2", "dominoes", counts={"I": (3, 1)})
    with pytest.raises(TilingError, match="open must be"):
        tile("2x2", "dominoes", open=5)


def test_optional_and_ranges_on_known_sets():
    # 3x5 by three different pentominoes: 28 tilings (the brute force agrees).
    shapes = {
        name: [c for c in p.cells] for name, p in PieceSet.resolve("pentominoes").pieces.items()
    }
    expected = tilings([(x, y) for x in range(5) for y in range(3)], shapes,
                       {n: (0, 1) for n in shapes})  # fmt: skip
    assert tile("3x5", "pentominoes", optional=True).count() == len(expected) == 28
    # "with one or two copies of the I": 2x5 is two I's, one tiling (copies are alike)
    assert tile("2x5", "pentominoes", counts={"I": (1, 2)}, optional=True).count() == 1
    assert tile("2x5", "pentominoes", counts={"I": 1}, optional=True).count() == 0


def test_distinct_when_the_set_is_not_closed():
    """Issue 12, item 9: the domino and the S tetromino in 3x4, any number of copies,
    no reflections: 7 classes under the region's symmetries (rotations alone: 9)."""
    shapes = {"D": [(0, 0), (1, 0)], "S": [(1, 0), (2, 0), (0, 1), (1, 1)]}
    problem = tile("3x4", shapes, reuse=True, reflections=False)
    assert not problem.closed and len(problem.group) == 2
    assert problem.count() == 14
    assert problem.count(distinct=True) == 7
    region = [(x, y) for x in range(4) for y in range(3)]
    every = tilings(region, shapes, {"D": (0, None), "S": (0, None)}, reflections=False)
    assert orbit_count(region, every, shapes, reflections=False) == 7
    listed = list(problem.solutions(distinct=True))
    assert len(listed) == 7
    assert len({problem.canonical_valid(t) for t in listed}) == 7


def test_parse_copies():
    assert parse_copies("I=0..2, X=1") == {"I": (0, 2), "X": (1, 1)}
    assert parse_copies("L=2..") == {"L": (2, None)}
    for bad in ("I", "I=", "=2", "I=a", "I=-1", "I=1..x"):
        with pytest.raises(ParseError):
            parse_copies(bad)

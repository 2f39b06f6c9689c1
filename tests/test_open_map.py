"""Open-cell maps (``open_map_svg``, ``tile ... --by-open -o map.svg``): well-formed SVG,
one cell shape per board cell, each cell's count against an independent brute-force
tiler (``_brute_tiling`` on squares, ``_brute_plane`` on triangles and hexagons), and
colours whose lightness follows the counts."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from polyforms import Region, tile
from polyforms.draw import open_counts, open_map_svg
from polyforms.errors import PolyformError

sys.path.insert(0, str(Path(__file__).parent))
import _brute_plane  # noqa: E402
from _brute_tiling import tilings  # noqa: E402
from _svg_check import SVG, parsed, svg_file  # noqa: E402
from test_ranges import SHAPES  # noqa: E402


def _luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``, written here afresh (the oracle of order)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _cells_of(root) -> dict[tuple[int, ...], tuple[int, str]]:
    """Each ``<path class="cell">`` of a map: its cell -> (count, fill)."""
    found = {}
    for path in root.iter(f"{SVG}path"):
        if path.get("class") == "cell":
            cell = tuple(int(v) for v in path.get("data-cell").split(","))
            assert cell not in found, cell
            found[cell] = (int(path.get("data-count")), path.get("fill"))
    return found


def _per_cell(open_sets) -> dict:
    """The brute force's tilings summed per open cell."""
    counts: dict = {}
    for opened in open_sets:
        for cell in opened:
            counts[cell] = counts.get(cell, 0) + 1
    return counts


def _check_order(cells: dict) -> None:
    """Lightness rises with the count: never darker for a larger count (up to the
    rounding of a colour to whole bytes), lighter from the least to the greatest."""
    ranked = sorted(cells.values())
    for (low, low_fill), (high, high_fill) in zip(ranked, ranked[1:]):
        assert _luminance(low_fill) <= _luminance(high_fill) + 1e-3, (low, high)
    if ranked[0][0] < ranked[-1][0]:
        assert _luminance(ranked[0][1]) + 0.1 < _luminance(ranked[-1][1])


@pytest.mark.parametrize("seed", range(12))
def test_square_maps_against_brute_force(seed):
    rng = random.Random(4600 + seed)
    width, height = rng.choice([(3, 3), (3, 4), (2, 5), (4, 4)])
    region = [(x, y) for x in range(width) for y in range(height)]
    names = sorted(rng.sample(sorted(SHAPES), rng.randint(1, 3)))
    shapes = {n: SHAPES[n] for n in names}
    counts = {n: rng.choice([(0, None), (0, 1), (1, 2)]) for n in names}
    open_cells = rng.choice([1, 2])
    problem = tile(region, shapes, counts=counts, open=open_cells)
    expected = _per_cell(opened for _, opened in tilings(region, shapes, counts, open_cells))
    cells = _cells_of(parsed(open_map_svg(problem.count_by_open(), problem.region)))
    assert set(cells) == set(region)  # one shape per board cell
    assert {c: n for c, (n, _) in cells.items()} == {c: expected.get(c, 0) for c in region}
    _check_order(cells)


@pytest.mark.parametrize(
    ("lattice", "board", "shape", "open_cells"),
    [
        ("triangle", "2x3", [(0, 0, 0), (0, 0, 1)], 2),  # diamonds in a parallelogram
        ("triangle", "hex:1", [(0, 0, 0), (0, 0, 1)], 2),
        ("hex", "hex:2", [(0, 0), (1, 0), (1, 1)], 1),  # bent trihexes in a hexagon
        ("hex", "3x3", [(0, 0), (1, 0)], 1),
    ],
)
def test_triangle_and_hexagon_maps_against_brute_force(lattice, board, shape, open_cells):
    region = Region.parse(board, lattice=lattice)
    cells = sorted(region.cells)
    problem = tile(region, {"s": shape}, reuse=True, open=open_cells, lattice=lattice)
    monomino = [cells[0][:2] + (0,) * (len(cells[0]) - 2)] if lattice == "triangle" else [(0, 0)]
    found = _brute_plane.tilings(
        cells, {"s": shape, ".": monomino}, {"s": (0, None), ".": (open_cells, open_cells)}
    )
    expected = _per_cell(
        [c for name, placed in tiling if name == "." for c in placed] for tiling in found
    )
    assert expected  # the board has tilings: the map has counts to show
    drawn = _cells_of(parsed(open_map_svg(problem.count_by_open(), problem.region)))
    assert set(drawn) == set(cells)
    assert {c: n for c, (n, _) in drawn.items()} == {c: expected.get(c, 0) for c in cells}
    _check_order(drawn)


def test_the_legend_runs_from_zero_to_the_greatest_count():
    problem = tile("3x7", "pentominoes", optional=True, open=1)
    root = parsed(open_map_svg(problem.count_by_open(), problem.region))
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
    swatches = [(int(r.get("data-count")), r.get("fill")) for r in legend.iter(f"{SVG}rect")]
    most = max(n for n, _ in _cells_of(root).values())
    assert [n for n, _ in swatches] == sorted(n for n, _ in swatches)
    assert swatches[0][0] == 0 and swatches[-1][0] == most
    _check_order(dict(enumerate(swatches)))


def test_open_counts_sums_the_open_sets_holding_each_cell():
    rows = [(((0, 0), (1, 0)), 2), (((1, 0), (2, 0)), 5), (((0, 0), (2, 0)), 0)]
    assert open_counts(rows, [(0, 0), (1, 0), (2, 0), (3, 0)]) == {
        (0, 0): 2, (1, 0): 7, (2, 0): 5, (3, 0): 0,
    }  # fmt: skip
    with pytest.raises(PolyformError, match="not a cell of the board"):
        open_counts(rows, [(0, 0), (1, 0)])


def test_a_box_of_cubes_and_an_empty_board_are_refused():
    with pytest.raises(PolyformError, match="plane board"):
        open_map_svg({}, [(0, 0, 0), (1, 0, 0)])
    with pytest.raises(PolyformError, match="empty"):
        open_map_svg({}, [])


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "polyforms", *args], capture_output=True, text=True, cwd=cwd
    )


def test_the_command_line_draws_the_map_by_the_file_ending(tmp_path):
    done = _run("tile", "2x5", "--pieces", "free:3", "--reuse", "--open", "1", "--by-open",
                "-o", "map.svg", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    region = [(x, y) for x in range(5) for y in range(2)]  # 2 rows of 5
    trominoes = {"I": [(0, 0), (1, 0), (2, 0)], "L": [(0, 0), (1, 0), (0, 1)]}
    every = tilings(region, trominoes, {"I": (0, None), "L": (0, None)}, 1)
    expected = _per_cell(opened for _, opened in every)
    cells = _cells_of(svg_file(tmp_path / "map.svg"))
    assert {c: n for c, (n, _) in cells.items()} == {c: expected.get(c, 0) for c in region}
    assert "open sets" in done.stderr  # the summary, as for a table


def test_the_command_line_refuses_a_distinct_map_before_the_search(tmp_path):
    done = _run("tile", "2x5", "--pieces", "free:3", "--reuse", "--open", "1", "--by-open",
                "--distinct", "-o", "map.svg", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "drop --distinct" in done.stderr
    assert not (tmp_path / "map.svg").exists()
    done = _run("tile", "2x5", "--pieces", "free:3", "--reuse", "--open", "1", "--by-open",
                "--format", "txt", "-o", "map.txt", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2 and "jsonl, csv or svg" in done.stderr

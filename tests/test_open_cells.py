"""Open cells counted by open set in one search (``count_by_open``, ``--by-open``):
against a brute-force tiler, and on the calendar board against per-date searches."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from polyforms import tile
from polyforms.errors import TilingError
from polyforms.puzzles.puzzle_a_day import calendar_counts, calendar_problem

sys.path.insert(0, str(Path(__file__).parent))
from _brute_tiling import orbit_count, tilings  # noqa: E402
from test_ranges import SHAPES  # noqa: E402


@pytest.mark.parametrize("seed", range(30))
def test_by_open_against_brute_force(seed):
    rng = random.Random(1000 + seed)
    width, height = rng.choice([(3, 3), (3, 4), (2, 5), (4, 4)])
    region = [(x, y) for x in range(width) for y in range(height)]
    names = sorted(rng.sample(sorted(SHAPES), rng.randint(1, 3)))
    shapes = {n: SHAPES[n] for n in names}
    counts = {n: rng.choice([(0, None), (0, 1), (1, 2), (1, 1)]) for n in names}
    open_cells = rng.choice([1, 2, 3])
    problem = tile(region, shapes, counts=counts, open=open_cells)
    every = tilings(region, shapes, counts, open_cells)
    expected: dict = {}
    for _, opened in every:
        key = tuple(sorted(opened))
        expected[key] = expected.get(key, 0) + 1
    assert problem.count_by_open() == dict(sorted(expected.items()))
    assert sum(problem.count_by_open().values()) == problem.count()
    # distinct: classes of open sets, and in each the classes of tilings
    by_class = problem.count_by_open(distinct=True)
    symmetries = [s for s, _ in problem.region_group]
    grouped: dict = {}
    for solution in every:
        least = min(tuple(sorted(s(c) for c in solution[1])) for s in symmetries)
        grouped.setdefault(least, set()).add(solution)
    assert by_class == {
        key: orbit_count(region, members, shapes) for key, members in sorted(grouped.items())
    }


def test_by_open_needs_open_cells():
    with pytest.raises(TilingError, match="open cells"):
        tile("2x2", "dominoes", reuse=True).count_by_open()


def test_calendar_every_date_in_one_search():
    counts = {(m, d): n for m, d, n in calendar_counts()}
    assert len(counts) == 372
    assert round(sum(counts.values()) / 372, 2) == 67.37
    assert max(counts.values()) == 216 == counts[1, 25]
    assert counts[12, 25] == 92 and counts[1, 1] == 64
    # the one-search answers agree with one search per date
    for month, day in random.Random(5).sample(sorted(counts), 6):
        assert calendar_problem(month, day).count() == counts[month, day]


@pytest.fixture
def _run(capsys, monkeypatch, tmp_path):
    """Run the command line in-process in ``tmp_path``: (returncode, stdout, stderr)."""
    from polyforms.cli import main

    monkeypatch.chdir(tmp_path)

    def run(*args: str, cwd: Path) -> SimpleNamespace:
        code = main(list(args))
        out, err = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out, stderr=err)

    return run


def test_command_line_by_open(tmp_path, _run):
    done = _run("tile", "1x4", "--pieces", "dominoes", "--open", "2", "--by-open", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == 6 and rows[0] == {"open": [[0, 0], [1, 0]], "tilings": 1}
    assert "6 open sets: 3 with no tiling, 3 with exactly one" in done.stderr
    done = _run("tile", "1x4", "--pieces", "dominoes", "--open", "2", "--by-open",
                "--distinct", "-o", "pairs.csv", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "pairs.csv").read_text().splitlines() == [
        "open,tilings",
        '"[[0,0],[1,0]]",1',
        '"[[0,0],[2,0]]",0',
        '"[[0,0],[3,0]]",1',
        '"[[1,0],[2,0]]",0',
    ]
    done = _run("tile", "1x4", "--pieces", "dominoes", "--by-open", cwd=tmp_path)
    assert done.returncode == 2 and "--by-open needs --open" in done.stderr
    done = _run("tile", "1x3", "--pieces", "dominoes", "--open", "1", "--format", "jsonl",
                cwd=tmp_path)  # fmt: skip
    assert json.loads(done.stdout.splitlines()[0])["open"] == [[2, 0]]
    done = _run("tile", "2x5", "--pieces", "pentominoes", "--copies", "I=1..2", "--optional",
                "--count", cwd=tmp_path)  # fmt: skip
    assert done.stdout == "1\n"
    done = _run("tile", "2x5", "--pieces", "pentominoes", "--copies", "I=x", cwd=tmp_path)
    assert done.returncode == 2 and "bad copies item" in done.stderr


def test_calendar_command_uses_every_date(tmp_path, _run):
    done = _run("calendar", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 372 and "Dec 25 92" in lines and "Jan 25 216" in lines

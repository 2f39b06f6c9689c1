"""Worked examples against published counts (ORACLES.md, "Exact cover").

Sources: N queens OEIS A000170; two queens per row and column, at most two per
diagonal OEIS A225623 (seed 001); Bell numbers OEIS A000110 (seed 004,
problem 1); Langford pairs, both orientations, 2 * OEIS A014552; 4x4 Sudoku
grids: 288.
"""

from __future__ import annotations

from collections import Counter

import pytest

import polyforms as pf
from polyforms._backend import compiled
from polyforms.errors import ParseError
from polyforms.puzzles.examples import (
    langford,
    queens,
    set_partitions,
    sudoku,
    sudoku_grid,
    two_queens,
)

BACKENDS = ["python"] + (["compiled"] if compiled("dlx") is not None else [])

QUEENS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]  # A000170, n=1..
TWO_QUEENS = {2: 1, 3: 2, 4: 11, 5: 92, 6: 1097, 7: 19448, 8: 477136}  # A225623
BELL = {1: 1, 2: 2, 3: 5, 4: 15, 5: 52, 6: 203, 7: 877, 8: 4140, 9: 21147, 10: 115975,
        11: 678570, 12: 4213597}  # fmt: skip
LANGFORD = {1: 0, 2: 0, 3: 2, 4: 2, 5: 0, 6: 0, 7: 52, 8: 300}

HARD_SUDOKU = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


@pytest.mark.parametrize("n", range(1, 11))
def test_queens(n):
    assert queens(n).count() == QUEENS[n - 1]


@pytest.mark.parametrize("n", range(1, 8))
def test_queens_reference(n):
    assert queens(n).count(backend="python") == QUEENS[n - 1]


@pytest.mark.parametrize("n", range(2, 7))
def test_two_queens(n):
    assert two_queens(n).count() == TWO_QUEENS[n]


@pytest.mark.parametrize("n", range(2, 6))
def test_two_queens_reference(n):
    assert two_queens(n).count(backend="python") == TWO_QUEENS[n]


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_queens_solutions_have_two_per_line(backend):
    for solution in two_queens(5).solutions(limit=20, random=1, backend=backend):
        rows = Counter(r for r, c in solution)
        columns = Counter(c for r, c in solution)
        diagonals = Counter(r + c for r, c in solution) + Counter(100 + r - c for r, c in solution)
        assert set(rows.values()) == set(columns.values()) == {2}
        assert max(diagonals.values()) <= 2


@pytest.mark.parametrize("n", range(1, 10))
def test_bell_numbers(n):
    assert set_partitions(n).count() == BELL[n]


@pytest.mark.parametrize("n", range(1, 8))
def test_bell_numbers_reference(n):
    assert set_partitions(n).count(backend="python") == BELL[n]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7])
def test_langford(n):
    assert langford(n).count() == LANGFORD[n]


@pytest.mark.parametrize("backend", BACKENDS)
def test_langford_reference_and_shape(backend):
    xc = langford(7)
    assert xc.count(backend=backend) == 52
    for solution in xc.solutions(limit=5, backend=backend):
        slots = {}
        for k, i in solution:
            slots[i] = slots[i + k + 1] = k
        assert sorted(slots) == list(range(14))


@pytest.mark.parametrize("backend", BACKENDS)
def test_4x4_sudoku_grids(backend):
    assert sudoku("." * 16).count(backend=backend) == 288


@pytest.mark.parametrize("backend", BACKENDS)
def test_hard_sudoku(backend):
    xc = sudoku(HARD_SUDOKU)
    assert xc.count(backend=backend) == 1
    grid = sudoku_grid(xc.first(backend=backend)).splitlines()
    for given, row in zip([HARD_SUDOKU[k : k + 9] for k in range(0, 81, 9)], grid):
        assert all(g in ".0" or g == r for g, r in zip(given, row))
    for line in grid + ["".join(col) for col in zip(*grid)]:
        assert sorted(line) == list("123456789")
    for br in range(3):
        for bc in range(3):
            box = [grid[3 * br + r][3 * bc + c] for r in range(3) for c in range(3)]
            assert sorted(box) == list("123456789")


def test_sudoku_inputs():
    assert sudoku([[0] * 4 for _ in range(4)]).count() == 288
    assert sudoku("11" + "." * 14).count() == 0  # clashing givens: no solution
    assert sudoku("1234341221434321").count() == 1
    with pytest.raises(ParseError):
        sudoku("123")
    with pytest.raises(ParseError):
        sudoku("x" * 16)
    with pytest.raises(ParseError):
        sudoku([[5] * 4] * 4)
    with pytest.raises(pf.ExactCoverError):
        sudoku_grid(None)


def test_nine_by_nine_count_with_few_givens():
    # First row fixed and two more digits: the count is finite and the
    # backends agree (checked on the reference with a limit).
    xc = sudoku("123456789" + "456789123" + "789123456" + "." * 54)
    assert xc.count(limit=500) == xc.count(limit=500, backend="python") == 500


def test_bad_sizes():
    for build in (queens, two_queens, langford, set_partitions):
        with pytest.raises(pf.ExactCoverError):
            build(0)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(11, 13))
def test_queens_slow(n):
    assert queens(n).count() == QUEENS[n - 1]


@pytest.mark.slow
def test_two_queens_7():
    assert two_queens(7).count() == TWO_QUEENS[7]


@pytest.mark.slow
@pytest.mark.parametrize("n", [10, 11])
def test_bell_slow(n):
    assert set_partitions(n).count() == BELL[n]


@pytest.mark.slow
def test_langford_8():
    assert langford(8).count() == 300

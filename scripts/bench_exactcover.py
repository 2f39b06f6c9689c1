"""Benchmark the exact cover engine: both compiled cores against the pure-Python reference.

Usage::

    python scripts/bench_exactcover.py [--runs 5] [--reference-runs 1] [--no-reference]

Prints a Markdown table: instance, size, solutions, the median CPU time of the
count over ``--runs`` runs with the default compiled core (the bitset core for
plain instances) and with the dancing-links core (runs interleaved, so that
the load of a shared machine falls on both alike), the reference's time and
the ratio of the reference to the default. Counts are checked against the
published values (or, with ``limit``, the count must reach it). The instances:

* the 12 pentominoes in a 6x10 box as plain exact cover (12 piece items,
  60 cell items, 2,056 options; no symmetry breaking): 9,356 tilings;
* the 12 pentominoes in the 8x8 square minus its central 2x2 square: 520;
* a hard 9x9 Sudoku (one solution);
* 12 queens (diagonals secondary): 14,200;
* set partitions of {1..10} (1,023 options): Bell(10) = 115,975;
* set partitions of {1..12} (4,095 options): Bell(12) = 4,213,597 (no reference);
* the first 300,000 tilings of 20x20 by pentominoes, reused freely (20,596
  options: a large sparse instance; no reference).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import polyforms as pf
from polyforms.puzzles.examples import queens, set_partitions, sudoku

# The 12 pentominoes, one orientation each (Golomb's letters).
PENTOMINOES = {
    "F": (".##", "##.", ".#."),
    "I": ("#####",),
    "L": ("####", "#..."),
    "N": ("##..", ".###"),
    "P": ("##", "##", "#."),
    "T": ("###", ".#.", ".#."),
    "U": ("#.#", "###"),
    "V": ("#..", "#..", "###"),
    "W": ("#..", "##.", ".##"),
    "X": (".#.", "###", ".#."),
    "Y": ("####", ".#.."),
    "Z": ("##.", ".#.", ".##"),
}

HARD_SUDOKU = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def orientations(picture: tuple[str, ...]) -> list[tuple[tuple[int, int], ...]]:
    """The distinct rotations and reflections of a piece, each normalised."""
    cells = [(r, c) for r, row in enumerate(picture) for c, ch in enumerate(row) if ch == "#"]
    found = set()
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            top = min(r for r, _ in cells)
            left = min(c for _, c in cells)
            found.add(tuple(sorted((r - top, c - left) for r, c in cells)))
        cells = [(r, -c) for r, c in cells]
    return sorted(found)


def pentomino_problem(region: set[tuple[int, int]]) -> pf.ExactCover:
    """Every placement of every pentomino inside ``region``, as plain exact cover.

    Constraints are ints: 0..11 for the pieces, 12 + k for the k-th cell.
    """
    cell_number = {cell: 12 + k for k, cell in enumerate(sorted(region))}
    height = max(r for r, _ in region) + 1
    width = max(c for _, c in region) + 1
    choices = {}
    for piece, (name, picture) in enumerate(PENTOMINOES.items()):
        for shape in orientations(picture):
            for dr in range(height):
                for dc in range(width):
                    placed = [(r + dr, c + dc) for r, c in shape]
                    if all(cell in cell_number for cell in placed):
                        choices[(name, tuple(placed))] = [piece] + [cell_number[c] for c in placed]
    return pf.ExactCover(choices)


def instances():
    """(name, build, expected count, limit of the count, run the reference?)"""
    box = {(r, c) for r in range(6) for c in range(10)}
    holed = {(r, c) for r in range(8) for c in range(8)} - {(3, 3), (3, 4), (4, 3), (4, 4)}
    yield "pentominoes 6x10", lambda: pentomino_problem(box), 9356, None, True
    yield "pentominoes 8x8 minus centre", lambda: pentomino_problem(holed), 520, None, True
    yield "hard Sudoku", lambda: sudoku(HARD_SUDOKU), 1, None, True
    yield "12 queens", lambda: queens(12), 14200, None, True
    yield "set partitions n=10", lambda: set_partitions(10), 115975, None, True
    yield "set partitions n=12", lambda: set_partitions(12), 4213597, None, False
    reuse = lambda: pf.tile("20x20", "pentominoes", reuse=True).to_exactcover()  # noqa: E731
    yield "20x20 pentominoes reused, first 300,000", reuse, 300000, 300000, False


def timed(function):
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each compiled core (median)")
    parser.add_argument("--reference-runs", type=int, default=1, help="reference runs (median)")
    parser.add_argument("--no-reference", action="store_true", help="skip the pure-Python runs")
    parser.add_argument("--only", help="run only instances whose name contains this")
    args = parser.parse_args()

    print(
        f"Python {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )
    print()
    print(
        "| instance | choices | solutions | build s | default core CPU s "
        "| dancing links CPU s | reference s | reference / default |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, build, expected, limit, with_reference in instances():
        if args.only and args.only not in name:
            continue
        problem, build_time, _ = timed(build)
        cpus: dict[str, list[float]] = {"compiled": [], "dlx": []}
        for _ in range(args.runs):
            for backend, times in cpus.items():
                found, _, cpu = timed(lambda p=problem, b=backend, k=limit: p.count(k, backend=b))
                if found != expected:
                    raise SystemExit(f"{name}: {backend} counted {found}, expected {expected}")
                times.append(cpu)
        default, dlx = (statistics.median(t) for t in cpus.values())
        if args.no_reference or not with_reference:
            reference, ratio = "-", "-"
        else:
            times = []
            for _ in range(args.reference_runs):
                found, _, ref_cpu = timed(lambda p=problem, k=limit: p.count(k, backend="python"))
                if found != expected:
                    raise SystemExit(f"{name}: reference counted {found}, expected {expected}")
                times.append(ref_cpu)
            reference = f"{statistics.median(times):.2f}"
            ratio = f"{statistics.median(times) / default:.0f}x"
        print(f"| {name} | {len(problem):,} | {expected:,} | {build_time:.3f} "
              f"| {default:.3f} | {dlx:.3f} | {reference} | {ratio} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()

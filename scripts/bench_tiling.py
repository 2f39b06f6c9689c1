"""Benchmark the tiling search; prints a Markdown table (median of several runs).

Usage: python scripts/bench_tiling.py [--runs N] [--quick]

Each row times one count from a built problem (building is timed separately in
the "build" column): median wall seconds and median CPU seconds (process time,
less disturbed by other jobs on a shared machine). "reference" is the generic
exact-cover engine (compiled dancing links) on the same instance without
symmetry breaking, where it is affordable; the ratio is reference / polyforms.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from polyforms.calendar import calendar_problem  # noqa: E402
from polyforms.tiling import tile  # noqa: E402

EIGHT_MINUS_CENTRE = "\n".join("###..###" if y in (3, 4) else "########" for y in range(8))


def timed(function, runs: int):
    """(result, median wall seconds, median CPU seconds of this process)."""
    walls, cpus, result = [], [], None
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = function()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
    return result, statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="skip the exact-cover reference")
    args = parser.parse_args()
    cases = [
        ("6x10 pentominoes, all", "6x10", "pentominoes", False, 1.5),
        ("6x10 pentominoes, distinct", "6x10", "pentominoes", True, 0.5),
        ("5x12 pentominoes, all", "5x12", "pentominoes", False, None),
        ("5x12 pentominoes, distinct", "5x12", "pentominoes", True, None),
        ("8x8 minus centre, all", EIGHT_MINUS_CENTRE, "pentominoes", False, None),
        ("8x8 minus centre, distinct", EIGHT_MINUS_CENTRE, "pentominoes", True, None),
        ("2x5x6 solid pentominoes, distinct", "2x5x6", "solid-pentominoes", True, None),
        ("3x4x5 solid pentominoes, distinct", "3x4x5", "solid-pentominoes", True, 10.0),
    ]
    print(
        f"machine: {platform.machine()} {platform.processor() or ''}, "
        f"Python {platform.python_version()}, runs={args.runs} (median)"
    )
    print()
    print(
        "| case | count | build s | count s (wall) | count s (CPU) | target s | reference s "
        "| ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, region, pieces, distinct, target in cases:
        problem, build, _ = timed(lambda r=region, p=pieces: tile(r, p), 1)
        found, seconds, cpu = timed(lambda t=problem, d=distinct: t.count(distinct=d), args.runs)
        reference = ratio = "-"
        if not args.quick and not distinct and "3x4x5" not in label:
            xc = problem.to_exactcover()
            check, ref_seconds, _ = timed(xc.count, 1)
            if check != found:
                raise SystemExit(f"{label}: reference counts {check}, polyforms {found}")
            reference, ratio = f"{ref_seconds:.2f}", f"{ref_seconds / seconds:.1f}x"
        print(
            f"| {label} | {found} | {build:.2f} | {seconds:.3f} | {cpu:.3f} | "
            f"{target if target else '-'} | {reference} | {ratio} |",
            flush=True,
        )

    def all_dates():
        return sum(calendar_problem(m, d).count() for m in range(1, 13) for d in range(1, 32))

    total, seconds, cpu = timed(all_dates, 1)
    print(
        f"| calendar, all 372 month-day pairs (build + count) | {total} | - | {seconds:.2f} "
        f"| {cpu:.2f} | 10.0 | - | - |"
    )


if __name__ == "__main__":
    main()

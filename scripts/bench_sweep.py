"""Benchmark counts with free pieces: the sweep over boards, in one and in two
threads, against the memoized search.

Each run is a fresh process (so the memory is the run's own), the three
methods alternated ``--runs`` times; prints a Markdown table of medians: wall
time, peak resident memory, the boards the sweep meets and the nodes the
memoized search enters, and the ratios of the wall times. All give the same
count or the script stops.

Usage::

    python scripts/bench_sweep.py --runs 3
    python scripts/bench_sweep.py --runs 1 --rows 10x10:pentominoes
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

ROWS = ["8x10:pentominoes", "10x10:tetrominoes", "9x10:pentominoes", "2x4x10:free:4"]

_CHILD = """
import json, sys, time
from polyforms.tiling import problem as tiling
from polyforms._backend import kernel
from polyforms.limits import memo_bytes
region, pieces, method = sys.argv[1:4]
spec = tiling.tile(region, pieces, reuse=True)._search()[1]
search = tiling.make_search(spec)
helpers = [tiling.make_search(spec)] if method == "sweep2" else []
began = time.perf_counter()
if method.startswith("sweep"):  # with the budget a count has
    sweep = kernel("tiling").BoardSweep(search, budget=memo_bytes(), helpers=helpers)
    while not sweep.run(1 << 20):
        pass
    found, work = sweep.count, sweep.states
else:
    found, work = search.count(), search.nodes
print(json.dumps({"count": found, "work": work, "seconds": time.perf_counter() - began}))
"""


def _run_measured(row: str, method: str) -> dict:
    """One count in a fresh process: its result, wall time and peak memory (``wait4``)."""
    region, _, pieces = row.partition(":")
    began = time.perf_counter()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the same interpreter, the script on its command line
        os.close(read)
        os.dup2(write, 1)
        os.execv(sys.executable, [sys.executable, "-c", _CHILD, region, pieces, method])
    os.close(write)
    with os.fdopen(read) as pipe:
        out = pipe.read()
    _, status, usage = os.wait4(pid, 0)
    if status:
        sys.exit(f"{row} {method}: status {status}")
    result = json.loads(out)
    result["wall"] = time.perf_counter() - began
    result["rss"] = usage.ru_maxrss * 1024
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", nargs="+", default=ROWS, metavar="REGION:PIECES")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"{platform.node()}, {os.cpu_count()} cores, python {platform.python_version()}, "
          f"load {load:.2f} at the start, {args.runs} alternated runs, medians\n")  # fmt: skip
    print("| count | tilings | sweep | peak memory | sweep, 2 threads | peak memory | boards "
          "| memo search | peak memory | nodes | 2 threads / 1 | sweep / memo |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in args.rows:
        runs: dict[str, list[dict]] = {"sweep": [], "sweep2": [], "memo": []}
        for _ in range(args.runs):
            for method in runs:
                runs[method].append(_run_measured(row, method))
        counts = {r["count"] for rs in runs.values() for r in rs}
        if len(counts) != 1:
            sys.exit(f"{row}: the counts differ: {sorted(counts)}")
        wall = {m: statistics.median(r["wall"] for r in rs) for m, rs in runs.items()}
        rss = {m: statistics.median(r["rss"] for r in rs) / 2**20 for m, rs in runs.items()}
        work = {m: rs[0]["work"] for m, rs in runs.items()}
        if work["sweep"] != work["sweep2"]:
            sys.exit(f"{row}: the sweeps met {work['sweep']:,} and {work['sweep2']:,} boards")
        print(f"| {row} | {counts.pop():,} | {wall['sweep']:.2f} s | {rss['sweep']:,.0f} MB "
              f"| {wall['sweep2']:.2f} s | {rss['sweep2']:,.0f} MB | {work['sweep']:,} "
              f"| {wall['memo']:.2f} s | {rss['memo']:,.0f} MB | {work['memo']:,} "
              f"| {wall['sweep2'] / wall['sweep']:.2f} | {wall['sweep'] / wall['memo']:.2f} |",
              flush=True)  # fmt: skip
    print(f"\nload {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

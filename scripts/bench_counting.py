"""Benchmark counting polyominoes: the transfer matrix against Redelmeier and Knuth's programs.

Prints Markdown tables:

* ``--crossover``: fixed counts in process, Redelmeier's search against the
  transfer matrix (best of several runs), sizes 9 to 16;
* ``--fixed``: fixed counts n = 20..32 by the transfer matrix, each in a fresh
  process: wall and CPU time, peak frontier states and table bytes (as the
  kernel reports them), peak resident memory of the process;
* ``--kinds``: free and one-sided counts (Burnside's lemma), the same columns;
* ``--jobs``: one size with 1 and 2 worker processes, alternated ``--runs``
  times (median wall times and their ratio), and the CPU time of each width
  task with the wall time two idle cores would take for them in the job's
  dispatch order (what a machine shared with other work cannot show);
* ``--symmetric``: CPU time of each Burnside term (one per conjugacy class);
* ``--peer``: the ratio against Knuth's POLYNUM + POLYSLAVE (``polycount N``,
  built by ../shared/peers/build.sh) through ``compare.py``, which alternates
  the two commands and prints medians and the load average.

Usage::

    python scripts/bench_counting.py --crossover --fixed 20 32
    python scripts/bench_counting.py --kinds 20 26
    python scripts/bench_counting.py --jobs 30 --runs 3
    python scripts/bench_counting.py --jobs 28 --jobs-kind free --runs 1
    python scripts/bench_counting.py --symmetric 20 28
    python scripts/bench_counting.py --peer 28 32 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

PEERS = Path(os.environ.get("PEERS", "/tmp/peers"))
COMPARE = Path(os.environ.get("COMPARE", "/work/shared/peers/compare.py"))

# One count in a fresh process: its report and the process's own CPU and peak memory.
_CHILD = """
import json, resource, sys, time
from polyforms.enumeration import transfer
n, kind, jobs = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
start = time.perf_counter()
report = transfer.count_report(n, kind, jobs=jobs)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
children = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"count": report.count, "states": report.states, "memory": report.memory,
                  "wall": wall, "cpu": usage.ru_utime + usage.ru_stime + children.ru_utime,
                  "rss": max(usage.ru_maxrss, children.ru_maxrss) * 1024}))
"""


def _child(n: int, kind: str, jobs: int = 1) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(n), kind, str(jobs)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def _best(function, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def crossover(sizes: range, runs: int) -> None:
    from polyforms.enumeration import redelmeier, transfer

    print("| n | Redelmeier (ms) | transfer matrix (ms) | faster |")
    print("|---:|---:|---:|---|")
    for n in sizes:
        search = _best(lambda n=n: redelmeier.count(n), runs) * 1e3
        sweep = _best(lambda n=n: transfer.count(n), runs) * 1e3
        faster = "transfer matrix" if sweep < search else "Redelmeier"
        print(f"| {n} | {search:.3f} | {sweep:.3f} | {faster} |", flush=True)


def table(sizes: list[int], kinds: list[str]) -> None:
    print("| kind | n | count | wall (s) | CPU (s) | peak states | tables (MB) | peak RSS (MB) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind in kinds:
        for n in sizes:
            found = _child(n, kind)
            print(
                f"| {kind} | {n} | {found['count']} | {found['wall']:.2f} | {found['cpu']:.2f} "
                f"| {found['states']:,} | {found['memory'] / 1e6:.0f} | {found['rss'] / 1e6:.0f} |",
                flush=True,
            )


def two_workers(n: int, runs: int, kind: str) -> None:
    from polyforms.enumeration import transfer

    walls: dict[int, list[float]] = {1: [], 2: []}
    counts = set()
    for _ in range(runs):
        for jobs in (1, 2):
            found = _child(n, kind, jobs)
            counts.add(found["count"])
            walls[jobs].append(found["wall"])
    if len(counts) != 1:
        sys.exit(f"the counts differ between runs: {sorted(counts)}")
    one, two = statistics.median(walls[1]), statistics.median(walls[2])
    print(f"| kind | n | 1 worker wall (s) | 2 workers wall (s) | ratio | load |  ({runs} runs)")
    print("|---|---:|---:|---:|---:|---|")
    print(f"| {kind} | {n} | {one:.2f} | {two:.2f} | {two / one:.2f} | {os.getloadavg()[0]:.2f} |")
    # The same tasks timed one by one (CPU), then dispatched as the job layer
    # does: in the job's order, each to the first free worker.
    cpu = []
    for task in transfer._Job(n, kind).tasks():
        start = time.process_time()
        task.function(*task.args)
        cpu.append((task.id, time.process_time() - start))
    free = [0.0, 0.0]
    for _, seconds in cpu:
        free[free.index(min(free))] += seconds
    total = sum(seconds for _, seconds in cpu)
    shares = ", ".join(f"{name} {100 * seconds / total:.0f} %" for name, seconds in cpu[:5])
    print(
        f"\nCPU per task, in dispatch order: {shares}, ... ({total:.2f} s in all); on two idle "
        f"cores: {max(free):.2f} s, {max(free) / total:.2f} of one worker."
    )


def symmetric(sizes: list[int]) -> None:
    from polyforms.enumeration import burnside as _burnside

    names = {
        ((0, 1), (-1, -1)): "half turn",
        ((0, 1), (1, -1)): "axis mirror",
        ((1, 0), (1, 1)): "diagonal mirror",
        ((1, 0), (1, -1)): "quarter turn",
    }
    print("| n | " + " | ".join(names.values()) + " | all |")
    print("|---:|" + "---:|" * (len(names) + 1))
    for n in sizes:
        cells = []
        for element in names:
            start = time.process_time()
            _burnside.fix(n, 2, element)
            cells.append(time.process_time() - start)
        print(f"| {n} | " + " | ".join(f"{c:.2f}" for c in cells) + f" | {sum(cells):.2f} |")


def peer(sizes: list[int], runs: int) -> None:
    polycount = PEERS / "bin" / "polycount"
    if not polycount.exists():
        sys.exit(f"no {polycount}: build the peers with ../shared/peers/build.sh")
    for n in sizes:
        ours = f"{sys.executable} -m polyforms.cli enumerate {n} --kind fixed --count"
        print(f"### fixed n = {n}: polyforms (A) against POLYNUM + POLYSLAVE (B)", flush=True)
        subprocess.run(
            [sys.executable, str(COMPARE), "-n", str(runs), "--", ours, f"{polycount} {n}"],
            check=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crossover", action="store_true")
    parser.add_argument("--fixed", nargs=2, type=int, metavar=("LO", "HI"))
    parser.add_argument("--kinds", nargs=2, type=int, metavar=("LO", "HI"))
    parser.add_argument("--jobs", type=int, metavar="N", help="1 against 2 workers at size N")
    parser.add_argument("--jobs-kind", default="fixed", choices=["fixed", "one-sided", "free"])
    parser.add_argument("--symmetric", nargs=2, type=int, metavar=("LO", "HI"))
    parser.add_argument("--peer", nargs="+", type=int, metavar="N")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(
        f"<!-- {platform.node()} {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, "
        f"{time.strftime('%Y-%m-%d')} -->"
    )
    if args.crossover:
        crossover(range(9, 17), max(args.runs, 5))
    if args.fixed:
        table(list(range(args.fixed[0], args.fixed[1] + 1, 2)), ["fixed"])
    if args.kinds:
        table(list(range(args.kinds[0], args.kinds[1] + 1, 2)), ["free", "one-sided"])
    if args.jobs:
        two_workers(args.jobs, args.runs, args.jobs_kind)
    if args.symmetric:
        symmetric(list(range(args.symmetric[0], args.symmetric[1] + 1, 2)))
    if args.peer:
        peer(args.peer, args.runs)


if __name__ == "__main__":
    main()

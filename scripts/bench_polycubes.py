"""Benchmark counting fixed polycubes (A001931) against Stanley Dodds's counter.

The peer is the Rust port philthompson/polycubes-dodds, built by
../shared/peers/build.sh as ``dodds-fixed-N-tT`` (N cells, T threads; N is a
constant of the program). Each row times two whole commands the way
``compare.py`` does: one warm-up run of each, then ``--runs`` rounds of A
then B, each run in a fresh ``/bin/sh`` with its output thrown away, CPU time
(user + system of the finished child and the children it waited for) from
``os.wait4`` and wall time from a monotonic clock. It prints the medians and
the median of the round-by-round ratios (a change in the machine's speed
during the call cancels out), and the load average after each row: the
machine is shared, so quote it.

Rows:

* one core: ``polyforms enumerate N --dim 3 --kind fixed --count`` against
  ``dodds-fixed-N-t1`` (CPU ratio); where only a two-thread peer was built
  (n = 15) its CPU time is compared, which is the same work on two threads;
* two cores: the same with ``--jobs 2`` against ``dodds-fixed-N-t2`` (wall ratio).

``--model`` times the fixed count in this process at the sizes it is given
and prints a cost model: seconds per fixed polycube at each size, and the
core-hours of larger sizes at the largest size's rate (the published counts
of OEIS A001931 give the number of polycubes).

``--burnside`` adds, for one-sided and free counts, the CPU time of the
Burnside terms (the counts of symmetric polycubes, one search per class of
rotations) against the fixed count's, in this process.

Usage::

    python scripts/bench_polycubes.py [--sizes 13 14 15] [--runs 3] [--burnside 14 15 16]
                                      [--model 13 14 15]
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import sys
import time
from pathlib import Path

from _children import run_child

PEERS = Path(os.environ.get("PEERS", "/tmp/peers")) / "bin"


def alternate(ours: str, peer: str, runs: int) -> dict[str, float]:
    """Medians of CPU and wall for both commands, and of their round-by-round ratios."""
    run_child(ours)
    run_child(peer)
    rounds = [(run_child(ours)[:2], run_child(peer)[:2]) for _ in range(runs)]
    load = Path("/proc/loadavg").read_text().split()[0]
    return {
        "ours_cpu": statistics.median(a[0] for a, _ in rounds),
        "ours_wall": statistics.median(a[1] for a, _ in rounds),
        "peer_cpu": statistics.median(b[0] for _, b in rounds),
        "peer_wall": statistics.median(b[1] for _, b in rounds),
        "cpu_ratio": statistics.median(a[0] / b[0] for a, b in rounds),
        "wall_ratio": statistics.median(a[1] / b[1] for a, b in rounds),
        "load": float(load),
    }


def _polyforms(n: int, jobs: int) -> str:
    command = [sys.executable, "-m", "polyforms.cli", "enumerate", str(n)]
    command += ["--dim", "3", "--kind", "fixed", "--count"]
    if jobs > 1:
        command += ["--jobs", str(jobs)]
    return " ".join(shlex.quote(part) for part in command)


def peer_table(sizes: list[int], runs: int) -> None:
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; {runs} rounds")
    print()
    print("| n | cores | polyforms CPU (s) | wall (s) | Dodds CPU (s) | wall (s) | ratio | load |")
    print("|---:|---|---:|---:|---:|---:|---|---:|")
    for n in sizes:
        for threads in (1, 2):
            peer = PEERS / f"dodds-fixed-{n}-t{threads}"
            if threads == 1 and not peer.exists():
                peer = PEERS / f"dodds-fixed-{n}-t2"  # the same work, on two threads
            if not peer.exists():
                print(f"| {n} | {threads} | no peer {peer.name} built |||||")
                continue
            found = alternate(_polyforms(n, threads), str(peer), runs)
            what = "CPU" if threads == 1 else "wall"
            ratio = found["cpu_ratio"] if threads == 1 else found["wall_ratio"]
            label = "1 (peer: t2 CPU)" if threads == 1 and peer.name.endswith("t2") else threads
            print(
                f"| {n} | {label} | {found['ours_cpu']:.2f} | {found['ours_wall']:.2f} "
                f"| {found['peer_cpu']:.2f} | {found['peer_wall']:.2f} "
                f"| {ratio:.2f} {what} | {found['load']:.2f} |",
                flush=True,
            )


def burnside_table(sizes: list[int]) -> None:
    from polyforms.enumeration import burnside, redelmeier

    print("| n | fixed count CPU (s) | one-sided terms (s) | share | free terms (s) | share |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        start = time.process_time()
        redelmeier.count(n, 3, "fixed")
        fixed = time.process_time() - start
        row = [f"| {n} | {fixed:.2f}"]
        for kind in ("one-sided", "free"):
            start = time.process_time()
            for element, _ in burnside.terms(3, kind):
                burnside.fix(n, 3, element)
            terms = time.process_time() - start
            row.append(f"{terms:.2f} | {terms / (fixed + terms):.1%}")
        print(" | ".join(row) + " |", flush=True)


# OEIS A001931, fixed polycubes with n cells, n = 13..22, as oeis.org/A001931
# lists them (n = 21 and 22 are the 2024 results of the Rust port of Dodds's
# counter).
A001931 = {
    13: 3_322_769_321,
    14: 24_946_773_111,
    15: 188_625_900_446,
    16: 1_435_074_454_755,
    17: 10_977_812_452_428,
    18: 84_384_157_287_999,
    19: 651_459_315_795_897,
    20: 5_049_008_190_434_659,
    21: 39_269_513_463_794_006,
    22: 306_405_169_166_373_418,
}


def model_table(sizes: list[int], predict: tuple[int, ...] = (16, 17, 19, 20, 22)) -> None:
    """Seconds per fixed polycube measured here, and the core-hours it predicts.

    The counter's work grows with the number of nodes of size n - 4, whose
    ratio to the count moves slowly with n: the rate of the largest measured
    size, applied to larger counts, slightly overestimates them (the measured
    time per polycube falls with n).
    """
    from polyforms.enumeration import redelmeier

    print("| n | fixed polycubes | CPU (s) | ns per polycube |")
    print("|---:|---:|---:|---:|")
    rate = 0.0
    for n in sizes:
        start = time.process_time()
        found = redelmeier.count(n, 3, "fixed")
        seconds = time.process_time() - start
        if found != A001931.get(n, found):
            sys.exit(f"n = {n}: counted {found}, OEIS A001931 says {A001931[n]}")
        rate = seconds / found
        print(f"| {n} | {found:,} | {seconds:.2f} | {rate * 1e9:.3f} |", flush=True)
    print()
    print(f"| n | fixed polycubes | predicted CPU at {rate * 1e9:.3f} ns each |")
    print("|---:|---:|---:|")
    for n in predict:
        seconds = A001931[n] * rate
        when = f"{seconds:,.0f} s" if seconds < 3600 else f"{seconds / 3600:,.1f} core-hours"
        print(f"| {n} | {A001931[n]:,} | {when} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[13, 14, 15])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--burnside", type=int, nargs="*", default=[])
    parser.add_argument("--model", type=int, nargs="*", default=[])
    args = parser.parse_args()
    if args.sizes:
        peer_table(args.sizes, args.runs)
    if args.burnside:
        print()
        burnside_table(args.burnside)
    if args.model:
        print()
        model_table(args.model)


if __name__ == "__main__":
    main()

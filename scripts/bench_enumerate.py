"""Benchmark Redelmeier enumeration: compiled core against the pure-Python reference.

Prints a Markdown table: the median wall time of several runs of each job,
the peak resident memory of the process that ran it, and the time of the
pure-Python reference (``POLYFORMS_BACKEND=python``) where it finishes within
a budget. Every run is a fresh process, so peak memory is that job's alone.

Usage::

    python scripts/bench_enumerate.py              # the whole table (minutes)
    python scripts/bench_enumerate.py --quick      # small sizes only
    python scripts/bench_enumerate.py --big        # only the free catalogues n=16
    python scripts/bench_enumerate.py --targets --jobs 2   # the targets, two processes
    python scripts/bench_enumerate.py --lattices   # polyiamonds and polyhexes (a minute)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# One job, run in a child process: prints {"seconds": ..., "rss_mb": ..., "result": ...}.
_CHILD = r"""
import json, resource, sys, time
from polyforms.enumeration import redelmeier
job, n, dim, kind, jobs, target = json.loads(sys.argv[1])
start = time.perf_counter()
if job == "count":
    result = redelmeier.count(n, dim, kind, jobs=jobs)
else:
    from polyforms.files import catalogue
    from polyforms._atomic import atomic_output
    fmt = job
    index, first = 1, True
    with atomic_output(target) as out:
        for packed in redelmeier.iter_packed(n, dim, kind, jobs=jobs):
            out.write(catalogue.format_packed(packed, n, dim, fmt, kind, index, first))
            index += len(packed) // (dim * n)
            first = False
    result = index - 1
seconds = time.perf_counter() - start
who = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)  # workers of --jobs too
rss = max(resource.getrusage(w).ru_maxrss for w in who) / 1024
print(json.dumps({"seconds": seconds, "rss_mb": rss, "result": result}))
"""


def _environment(python: bool) -> dict[str, str]:
    """A child's environment: this checkout's package, on the readable twin if ``python``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    if python:
        env["POLYFORMS_BACKEND"] = "python"
    else:
        env.pop("POLYFORMS_BACKEND", None)
    return env


def run(job: str, n: int, dim: int, kind: str, jobs: int, python: bool) -> dict:
    env = _environment(python)
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, f"catalogue.{job}")
        args = json.dumps([job, n, dim, kind, jobs, target])
        out = subprocess.run(
            [sys.executable, "-W", "ignore", "-c", _CHILD, args],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(job, n, dim, kind, jobs, repeat):
    runs = [run(job, n, dim, kind, jobs, python=False) for _ in range(repeat)]
    results = {r["result"] for r in runs}
    if len(results) != 1:
        raise SystemExit(f"runs disagree on {job} n={n}: {results}")
    return (
        statistics.median(r["seconds"] for r in runs),
        max(r["rss_mb"] for r in runs),
        runs[0]["result"],
    )


TARGETS = {
    ("count", 2, "fixed", 16): "≤ 0.3 s",
    ("count", 2, "fixed", 18): "≤ 4 s",
    ("count", 3, "fixed", 12): "≤ 0.6 s",
    ("count", 2, "free", 16): "≤ 1 s",
    ("jsonl", 2, "free", 14): "≤ 5 s, ≤ 200 MB",
    ("txt", 2, "free", 16): "≤ 60 s, ≤ 200 MB",
    ("jsonl", 2, "free", 16): "≤ 60 s, ≤ 200 MB",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per job (median)")
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--big", action="store_true", help="only the free catalogues of size 16")
    parser.add_argument("--targets", action="store_true", help="only the rows with a target")
    parser.add_argument("--jobs", type=int, default=1, help="processes per job")
    parser.add_argument(
        "--lattices", action="store_true", help="only polyiamonds and polyhexes (their own table)"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=40.0,
        help="skip a reference run predicted to take longer (seconds)",
    )
    args = parser.parse_args()
    if args.lattices:
        lattice_table(args.repeat)
        return

    groups = [
        ("count", 2, "fixed", range(12, 19)),
        ("count", 3, "fixed", range(9, 13)),
        ("count", 2, "one-sided", range(12, 17)),
        ("count", 2, "free", range(12, 17)),
        ("jsonl", 2, "free", range(10, 15)),
        ("txt", 2, "free", range(10, 15)),
    ]
    if args.quick:
        groups = [
            (job, dim, kind, range(sizes.start, sizes.start + 2))
            for job, dim, kind, sizes in groups
        ]
    if args.big:
        groups = [("txt", 2, "free", range(16, 17)), ("jsonl", 2, "free", range(16, 17))]
    if args.targets:
        groups = [
            (job, dim, kind, range(n, n + 1))
            for job, dim, kind, n in TARGETS
            if n < 16 or job == "count"
        ]

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}, "
        f"Python {platform.python_version()}; jobs={args.jobs}; "
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}; load average at start {os.getloadavg()[0]:.1f}"
    )
    print()
    print("| work | n | result | compiled (median) | peak RSS | reference | ratio | target |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for job, dim, kind, sizes in groups:
        what = "count" if job == "count" else f"catalogue to {job}"
        label = f"{kind} {'polyominoes' if dim == 2 else 'polycubes'} {what}"
        reference_last = compiled_last = None
        for n in sizes:
            seconds, rss, result = measure(job, n, dim, kind, args.jobs, args.repeat)
            reference = "—"
            ratio = ""
            predicted = 0.0
            if reference_last is not None and compiled_last:
                predicted = reference_last * seconds / compiled_last
            elif n == sizes.start:
                predicted = seconds * 200  # the reference is 200-2000 times slower
            if reference_last is not None or n == sizes.start:
                if predicted <= args.budget:
                    ref = run(job, n, dim, kind, 1, python=True)
                    if ref["result"] != result:
                        raise SystemExit(f"reference disagrees on {job} n={n}")
                    reference_last, compiled_last = ref["seconds"], seconds
                    reference = f"{ref['seconds']:.2f} s"
                    ratio = f"{ref['seconds'] / seconds:.0f}×"
                else:
                    reference = f"(~{predicted:.0f} s, not run)"
                    reference_last = None
            target = TARGETS.get((job, dim, kind, n), "")
            print(
                f"| {label} | {n} | {result:,} | {seconds:.3f} s | {rss:.0f} MB | "
                f"{reference} | {ratio} | {target} |",
                flush=True,
            )


# One job on the triangular or hexagonal lattice, in a child process (as _CHILD).
_LATTICE_CHILD = r"""
import json, resource, sys, time
from polyforms.enumeration import generate
from polyforms.files import catalogue
job, n, lattice, kind, target = json.loads(sys.argv[1])
start = time.perf_counter()
if job == "count":
    result = generate.count(n, kind=kind, lattice=lattice)
else:
    result = catalogue.write_polyforms(n, target, job, kind=kind, lattice=lattice)
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "rss_mb": rss, "result": result}))
"""

#: (work, lattice, kind, sizes, the size the reference also runs at or None)
LATTICE_ROWS = [
    ("count", "triangle", "fixed", (16, 18), None),
    ("count", "triangle", "free", (12, 14, 16, 18), 12),
    ("count", "hex", "fixed", (12, 14, 15, 16), None),
    ("count", "hex", "free", (10, 12, 14, 15, 16), 10),
    ("jsonl", "triangle", "free", (12, 14), None),
    ("jsonl", "hex", "free", (10, 11), None),
]
LATTICE_TARGETS = {
    ("count", "triangle", "free", 16): "a few s",
    ("count", "hex", "free", 16): "a few s",
}


def run_lattice(job: str, n: int, lattice: str, kind: str, python: bool) -> dict:
    env = _environment(python)
    with tempfile.TemporaryDirectory() as tmp:
        args = json.dumps([job, n, lattice, kind, os.path.join(tmp, f"catalogue.{job}")])
        out = subprocess.run(
            [sys.executable, "-W", "ignore", "-c", _LATTICE_CHILD, args],
            capture_output=True, text=True, check=True, env=env,
        )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def lattice_table(repeat: int) -> None:
    """The table of polyiamonds and polyhexes: counts (fixed by Redelmeier's search,
    free by Burnside's lemma) and catalogues, with the readable twin at one size."""
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}, "
        f"Python {platform.python_version()}; {time.strftime('%Y-%m-%d %H:%M %Z')}; "
        f"load average at start {os.getloadavg()[0]:.1f}"
    )
    print()
    print("| work | n | result | compiled (median) | peak RSS | reference | target |")
    print("|---|---:|---:|---:|---:|---:|---|")
    names = {"triangle": "polyiamonds", "hex": "polyhexes"}
    for job, lattice, kind, sizes, reference_at in LATTICE_ROWS:
        what = "count" if job == "count" else f"catalogue to {job}"
        for n in sizes:
            runs = [run_lattice(job, n, lattice, kind, False) for _ in range(repeat)]
            if len({r["result"] for r in runs}) != 1:
                raise SystemExit(f"runs disagree on {job} {lattice} n={n}")
            seconds = statistics.median(r["seconds"] for r in runs)
            rss = max(r["rss_mb"] for r in runs)
            reference = "—"
            if n == reference_at:
                ref = run_lattice(job, n, lattice, kind, True)
                if ref["result"] != runs[0]["result"]:
                    raise SystemExit(f"reference disagrees on {job} {lattice} n={n}")
                reference = f"{ref['seconds']:.2f} s"
            target = LATTICE_TARGETS.get((job, lattice, kind, n), "")
            print(
                f"| {kind} {names[lattice]} {what} | {n} | {runs[0]['result']:,} | "
                f"{seconds:.3f} s | {rss:.0f} MB | {reference} | {target} |",
                flush=True,
            )


if __name__ == "__main__":
    main()

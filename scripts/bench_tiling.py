"""Benchmark tiling commands against the peer programs; prints a Markdown table.

Usage: python scripts/bench_tiling.py [--runs N] [--peers DIR] [--rows NAME ...]
       python scripts/bench_tiling.py --in-process [--runs N]

Each row times a whole ``polyforms tile`` command and, where a peer program
solves the same problem, that peer's command, alternately (A B A B ...), and
reports CPU medians (user + system of the finished child) and the median of
the per-pair ratios polyforms / peer, so that a machine whose speed drifts
during the run still compares fairly. The peers are the programs built by
``../shared/peers/build.sh`` (default ``/tmp/peers``); a row whose peer is
missing is timed alone. Quote the ratios with the load average printed.

``--in-process`` instead times the searches inside one Python process, with
the build of each problem timed apart (the kernel without start-up).
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _children import run_child

EIGHT_MINUS_CENTRE = "\n".join("###..###" if y in (3, 4) else "########" for y in range(8))


def _polyforms() -> list[str]:
    found = shutil.which("polyforms")
    return [found] if found else [sys.executable, "-c", "from polyforms.cli import main; main()"]


def _rows(peers: Path, tmp: Path) -> list[tuple[str, list[str], str | None, str]]:
    """(name, polyforms arguments, peer shell command or None, target)."""
    inst, bins = peers / "inst", peers / "bin"
    (tmp / "8x8c.txt").write_text(EIGHT_MINUS_CENTRE + "\n")
    square = tmp / "pento+square.txt"
    pentominoes = subprocess.run(
        [*_polyforms(), "enumerate", "5", "--kind", "free"], capture_output=True, text=True
    ).stdout
    square.write_text(pentominoes.rstrip("\n") + "\n\nQQ\nQQ\n")

    def peer(command: str, binary: str) -> str | None:
        return command if (bins / binary).exists() else None

    return [
        (
            "6x10 distinct",
            ["6x10", "--pieces", "pentominoes", "--count", "--distinct"],
            peer(f"{bins}/pent-rs 6x10", "pent-rs"),
            "<= 1.0x pent-rs",
        ),
        (
            "8x8 minus centre distinct",
            [str(tmp / "8x8c.txt"), "--pieces", "pentominoes", "--count", "--distinct"],
            peer(f"{bins}/pent-rs 8x8", "pent-rs"),
            "<= 1.0x pent-rs",
        ),
        (
            "6x10 all, count",
            ["6x10", "--pieces", "pentominoes", "--count"],
            peer(f"{bins}/ssxcc < {inst}/pento6x10.dlx", "ssxcc"),
            "<= 0.04x SSXCC",
        ),
        (
            "6x6 fixed hexominoes reused, count",
            ["6x6", "--pieces", "fixed:6", "--reuse", "--count"],
            peer(f"{bins}/ssxcc < {inst}/fixed6_6x6.dlx", "ssxcc"),
            "<= 0.5 s",
        ),
        (
            "8x8 pentominoes + square, count",
            ["8x8", "--pieces", str(square), "--count"],
            # SSXCC on the instance with the X in one quadrant: a quarter of the count
            peer(f"{bins}/ssxcc < {inst}/pento8x8sqq.dlx", "ssxcc"),
            "<= 2 s",
        ),
        (
            "3x4x5 solid pentominoes distinct",
            ["3x4x5", "--pieces", "solid-pentominoes", "--count", "--distinct"],
            None,
            "<= 3 s",
        ),
    ]


def _peers_table(args: argparse.Namespace) -> None:
    import tempfile

    tool = _polyforms()
    with tempfile.TemporaryDirectory() as tmp:
        rows = _rows(Path(args.peers), Path(tmp))
        if args.rows:
            rows = [r for r in rows if any(w.lower() in r[0].lower() for w in args.rows)]
        print(
            f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}; {args.runs} runs each, alternating; CPU medians"
        )
        print()
        print(
            "| command | result | polyforms s | peer | peer s | ratio (median of pairs) | target |"
        )
        print("|---|---:|---:|---|---:|---:|---|")
        for name, arguments, peer, target in rows:
            ours, theirs, ratios, result = [], [], [], ""
            run_child([*tool, "tile", *arguments])  # warm-up (bytecode, page cache)
            for _ in range(args.runs):
                seconds, _, output = run_child([*tool, "tile", *arguments])
                result = output.strip().splitlines()[0] if output.strip() else ""
                ours.append(seconds)
                if peer:
                    peer_seconds, _, _ = run_child(peer)
                    theirs.append(peer_seconds)
                    ratios.append(seconds / peer_seconds if peer_seconds else float("nan"))
            peer_name = shlex.split(peer)[0].rsplit("/", 1)[-1] if peer else "-"
            print(
                f"| {name} | {result} | {statistics.median(ours):.3f} | {peer_name} | "
                + (
                    f"{statistics.median(theirs):.3f} | {statistics.median(ratios):.3f}x"
                    if peer
                    else "- | -"
                )
                + f" | {target} |",
                flush=True,
            )
    with open("/proc/loadavg") as f:
        print(f"\nload average after: {' '.join(f.read().split()[:3])}")


def _timed(function, runs: int):
    """(result, median wall seconds, median CPU seconds of this process)."""
    walls, cpus, result = [], [], None
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = function()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
    return result, statistics.median(walls), statistics.median(cpus)


def _in_process_table(args: argparse.Namespace) -> None:
    from polyforms.tiling.problem import tile

    cases = [
        ("6x10 pentominoes, all", "6x10", "pentominoes", False),
        ("6x10 pentominoes, distinct", "6x10", "pentominoes", True),
        ("5x12 pentominoes, all", "5x12", "pentominoes", False),
        ("8x8 minus centre, distinct", EIGHT_MINUS_CENTRE, "pentominoes", True),
        ("2x5x6 solid pentominoes, distinct", "2x5x6", "solid-pentominoes", True),
        ("3x4x5 solid pentominoes, distinct", "3x4x5", "solid-pentominoes", True),
    ]
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, runs={args.runs}")
    print()
    print("| case | count | build s | count s (wall) | count s (CPU) |")
    print("|---|---:|---:|---:|---:|")
    for label, region, pieces, distinct in cases:
        problem, build, _ = _timed(lambda r=region, p=pieces: tile(r, p), 1)
        found, seconds, cpu = _timed(lambda t=problem, d=distinct: t.count(distinct=d), args.runs)
        print(f"| {label} | {found} | {build:.3f} | {seconds:.3f} | {cpu:.3f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command")
    parser.add_argument("--peers", default="/tmp/peers", help="where build.sh put the peers")
    parser.add_argument("--rows", nargs="*", help="only the rows whose names contain these")
    parser.add_argument("--in-process", action="store_true", help="time the searches in process")
    args = parser.parse_args()
    if args.in_process:
        _in_process_table(args)
    else:
        _peers_table(args)


if __name__ == "__main__":
    main()

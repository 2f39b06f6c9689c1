"""Benchmark the hexiamonds in parallelograms against Knuth's SSXCC; prints a Markdown table.

Usage: python scripts/bench_hexiamonds.py [--runs N] [--peers DIR]

The peer's instance is the one Knuth's POLYIAMOND-DLX makes for the same
board and pieces: the script writes its input (the board ``[0-5][0-5]
[0-5][0-5]'`` and the 12 hexiamonds, a triangle ``(x, y, t)`` of polyforms
written ``xy`` for ``t = 0`` and ``xy'`` for ``t = 1``, a reflection of the
page that maps the board and the set onto themselves), and the peer's command
is ``polyiamond-dlx < input | ssxcc``, as a user would run it. SSXCC finds all
the tilings (624 in the rhombus) and has no notion of distinct ones, so the
rows for ``--distinct`` compare with the same peer run.

Each row times the whole ``polyforms tile`` command (start-up included) and
the peer alternately (A B A B ...) and reports CPU medians (user + system of
the finished child) and the median of the per-pair ratios. A second table
times the count alone inside one process (the minimum of the runs), against
the same peer figures. The peers are the programs of ``../shared/peers``
(built into ``/tmp/peers``). Quote the ratios with the load average printed.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _children import run_child

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

# (name, polyforms tile arguments, board rows, board columns)
ROWS = [
    ("6x6 rhombus, all", ["6x6", "--pieces", "hexiamonds", "--count"], 6, 6),
    ("6x6 rhombus, distinct", ["6x6", "--pieces", "hexiamonds", "--count", "--distinct"], 6, 6),
    ("4x9, all", ["4x9", "--pieces", "hexiamonds", "--count"], 4, 9),
    ("4x9, distinct", ["4x9", "--pieces", "hexiamonds", "--count", "--distinct"], 4, 9),
]


def _polyforms() -> list[str]:
    found = shutil.which("polyforms")
    return [found] if found else [sys.executable, "-c", "from polyforms.cli import main; main()"]


def polyiamond_input(rows: int, columns: int) -> str:
    """The input of POLYIAMOND-DLX: the parallelogram of ``rows`` x ``columns``
    rhombi and the 12 hexiamonds (see the module notes for the cells)."""
    from polyforms import PieceSet

    def cell(c: tuple[int, ...]) -> str:
        x, y, t = c
        return f"{DIGITS[x]}{DIGITS[y]}" + ("'" if t else "")

    span = f"[0-{DIGITS[columns - 1]}][0-{DIGITS[rows - 1]}]"
    lines = [f"| the 12 hexiamonds in the {rows}x{columns} parallelogram", f"{span} {span}'"]
    for name, piece in PieceSet.resolve("hexiamonds").pieces.items():
        lines.append(f"{name} " + " ".join(cell(c) for c in piece.cells))
    return "\n".join(lines) + "\n"


def _peer_count(output: str) -> str:
    for line in output.splitlines():
        if line.startswith("Altogether") and "solutions" in line:
            return line.split()[1]
    return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--peers", default="/tmp/peers")
    args = parser.parse_args()
    bins = Path(args.peers) / "bin"
    have_peer = (bins / "polyiamond-dlx").exists() and (bins / "ssxcc").exists()
    tool = _polyforms()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; load {os.getloadavg()[0]:.2f}; {args.runs} runs each, "
        "alternating; CPU medians"
    )
    print()
    print("| command | result | polyforms s | SSXCC s (its count) | ratio (median of pairs) |")
    print("|---|---:|---:|---:|---:|")
    peer_seconds: dict[tuple[int, int], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _, arguments, rows, columns in ROWS:
            board = Path(tmp) / f"hexiamonds{rows}x{columns}.txt"
            board.write_text(polyiamond_input(rows, columns))
            peer = f"{bins}/polyiamond-dlx < {board} | {bins}/ssxcc" if have_peer else None
            ours, theirs, ratios, result, found = [], [], [], "", "-"
            run_child([*tool, "tile", *arguments])  # warm-up (bytecode, page cache)
            for _ in range(args.runs):
                seconds, _, output = run_child([*tool, "tile", *arguments])
                ours.append(seconds)
                result = output.strip()
                if peer:
                    seconds_peer, _, output_peer = run_child(peer)
                    found = _peer_count(output_peer)
                    theirs.append(seconds_peer)
                    ratios.append(seconds / seconds_peer if seconds_peer else float("nan"))
            if theirs:
                peer_seconds[rows, columns] = statistics.median(theirs)
            print(
                f"| `tile {' '.join(arguments)}` | {result} | {statistics.median(ours):.3f} | "
                + (
                    f"{statistics.median(theirs):.3f} ({found}) | "
                    f"{statistics.median(ratios):.3f}x |"
                    if theirs
                    else "- | - |"
                )
            )
    print()
    print("In one process: the count alone (minimum of the runs), the problem built apart.")
    print()
    print("| count | result | build s | count s | SSXCC s | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    from polyforms import tile

    for name, arguments, rows, columns in ROWS:
        distinct = "--distinct" in arguments
        start = time.process_time()
        problem = tile(arguments[0], "hexiamonds")
        build = time.process_time() - start
        times = []
        for _ in range(args.runs):
            start = time.process_time()
            result = problem.count(distinct=distinct)
            times.append(time.process_time() - start)
        peer = peer_seconds.get((rows, columns))
        print(
            f"| {name} | {result} | {build:.3f} | {min(times):.3f} | "
            + (f"{peer:.3f} | {min(times) / peer:.3f}x |" if peer else "- | - |")
        )


if __name__ == "__main__":
    main()

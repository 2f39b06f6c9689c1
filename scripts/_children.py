"""Time a whole command the way the benchmark scripts compare with their peers.

``python scripts/bench_X.py`` puts this folder first on ``sys.path``, so the
scripts import it as ``_children``.
"""

from __future__ import annotations

import os
import subprocess
import time


def run_child(command: list[str] | str) -> tuple[float, float, str]:
    """CPU seconds, wall seconds and output (stdout and stderr) of one command.

    A string runs in ``/bin/sh``. The CPU time is the user and system time of
    the finished child and of the children it waited for (``os.wait4``), so a
    pipeline or a pool of workers counts whole. A failed command ends the
    script with its output.
    """
    shell = isinstance(command, str)
    start = time.perf_counter()
    proc = subprocess.Popen(
        ["/bin/sh", "-c", command] if shell else command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {command}\n{out}")
    return usage.ru_utime + usage.ru_stime, wall, out

"""``--estimate`` prints a forecast and never runs the search, whatever else is
asked (a forecast that cannot tell the tilings: tests/test_numbers.py)."""

from __future__ import annotations

import subprocess
import sys


def _polyforms(*argv: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "polyforms", *argv], capture_output=True, text=True, cwd=cwd
    )


def test_by_open_with_estimate_forecasts_and_writes_no_table(tmp_path):
    result = _polyforms(
        "tile", "5x5", "--pieces", "free:3", "--reuse", "--open", "1", "--by-open",
        "--estimate", "-o", "table.csv", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()] == [
        "nodes", "tilings", "seconds", "probes",
    ]  # fmt: skip
    assert "open set" not in result.stderr  # the by-open summary: the search did not run
    assert list(tmp_path.iterdir()) == []

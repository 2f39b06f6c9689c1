"""What the command line says: ``--estimate`` prints a forecast and never runs the
search, whatever else is asked (one that cannot tell the tilings:
tests/test_numbers.py); every error is one line, whatever names it quotes."""

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


def test_an_error_naming_a_file_with_a_line_break_stays_one_line(tmp_path):
    result = _polyforms(
        "tile", "2x5", "--pieces", "free:2", "--reuse", "--count",
        "--checkpoint", "no\ndir/run.ckpt", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "polyforms tile: error: no\\ndir/run.ckpt: the directory no\\ndir does not exist"
    ]
    assert list(tmp_path.iterdir()) == []

"""Settings read from the environment are checked like arguments: a misspelt value
is one line and exit status 2, never silently another behaviour."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from polyforms import _backend
from polyforms.errors import PolyformError


@pytest.mark.parametrize("value", ["pyton", "cython", "fast", "1"])
def test_an_unknown_backend_is_refused_by_the_library(monkeypatch, value):
    monkeypatch.setenv("POLYFORMS_BACKEND", value)
    with pytest.raises(PolyformError, match=f"POLYFORMS_BACKEND must be .*not '{value}'"):
        _backend.kernel("tiling")


@pytest.mark.parametrize(
    "value,chosen",
    [("", "compiled"), ("compiled", "compiled"), ("Python", "python"), (" reference ", "python")],
)
def test_the_known_backend_values_choose_as_documented(monkeypatch, value, chosen):
    monkeypatch.setenv("POLYFORMS_BACKEND", value)
    assert _backend.backend_name() == chosen


@pytest.mark.parametrize(
    "argv",
    [
        ["enumerate", "5", "--count"],
        ["tile", "2x5", "--pieces", "free:2", "--reuse", "--count"],
    ],
)
def test_an_unknown_backend_is_one_line_and_status_2_from_the_command_line(argv):
    env = {**os.environ, "POLYFORMS_BACKEND": "pyton"}
    result = subprocess.run(
        [sys.executable, "-m", "polyforms", *argv], capture_output=True, text=True, env=env
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"polyforms {argv[0]}: error: POLYFORMS_BACKEND must be 'python' or 'compiled' "
        "(or unset), not 'pyton'"
    ]

"""Forged and damaged files are refused with a typed error by every loader, and the
compiled loaders refuse exactly what their readable twins refuse.

Each forged file is loaded in a child process, so that a loader that crashes
(a segmentation fault in compiled code) fails the test instead of the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

# A child that builds a 5x10 pentomino sweep, saves it part way, forges the saved
# words named on its command line (index=value, ...), and loads the forgery in the
# twin named on the command line; it prints the error's type and message.
CHILD = textwrap.dedent(
    """
    import array, io, sys
    from polyforms import _backend
    from polyforms.errors import PolyformError
    from polyforms.tiling import engines, problem
    from polyforms.tiling import _tiling_py as twin

    which, edits = sys.argv[1], sys.argv[2:]
    spec = problem.tile("5x10", "pentominoes", reuse=True).searches.over().spec
    if which == "compiled":
        kernel, search = _backend.kernel("tiling"), lambda: engines.make_search(spec)
    else:
        kernel, search = twin, lambda: twin.TilingSearch(**spec._asdict())
    sweep = kernel.BoardSweep(search())
    sweep.run(2000)
    out = io.BytesIO()
    sweep.save(out)
    words = array.array("Q", out.getvalue())
    for edit in edits:
        index, value = edit.split("=")
        words[int(index)] = int(value)
    try:
        kernel.BoardSweep(search()).load(io.BytesIO(words.tobytes()))
    except PolyformError as error:
        print(type(error).__name__, error)
    else:
        print("loaded")
    """
)


def _load_forged(which: str, edits: list[str]) -> str:
    env = dict(os.environ)
    env.pop("POLYFORMS_BACKEND", None)
    result = subprocess.run(
        [sys.executable, "-c", CHILD, which, *edits],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip()


# Header words of a saved sweep: 0 magic, 1 words a board, 2 cells, 3 layer being
# swept, 4 count so far, 5 boards swept, 6 moves, 7 layers; then per layer its
# number (8) and its count of boards (9), then its boards.
FORGERIES = [
    (["9=9223372036854775807"], "ends early"),  # 2**63 - 1 boards
    (["9=4611686018427387904"], "ends early"),  # 2**62
    (["9=18446744073709551615"], "ends early"),  # 2**64 - 1
    (["9=281474976710657"], "ends early"),  # just past the most a layer may claim
    (["3=18446744073709551615"], "out of place"),  # the layer being swept
    (["5=18446744073709551615"], "out of range"),  # boards swept
    (["6=9223372036854775808"], "out of range"),  # moves
    # The first board of the first layer (its ways at 10, its one word at 11): cells
    # past the region's 50, or filled in full (no empty cell for the sweep to find),
    # or fewer than its layer's.
    (["11=18446744073709551615"], "not of its layer"),
    (["11=1125899906842623"], "not of its layer"),  # 2**50 - 1
    (["11=1"], "not of its layer"),
]


@pytest.mark.parametrize("edits,why", FORGERIES)
def test_a_forged_sweep_is_refused_alike_by_both_twins(require_compiled, edits, why):
    require_compiled("_tiling")
    seen = {which: _load_forged(which, edits) for which in ("compiled", "python")}
    assert seen["compiled"] == seen["python"]
    assert seen["compiled"].startswith("TilingError") and why in seen["compiled"], seen


def test_an_unforged_sweep_loads_in_both_twins(require_compiled):
    require_compiled("_tiling")
    assert _load_forged("compiled", []) == _load_forged("python", []) == "loaded"

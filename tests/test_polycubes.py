"""The fixed-polycube counter: OEIS A001931, its readable twin against its compiled core,
and the subtree counts of the prefixes the job layer cuts a count into.

A001931 (fixed polycubes) is in data/oeis_counts.csv, which cites the OEIS.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import polyforms as pf
from polyforms.enumeration import _polycubes_py as twin
from polyforms.enumeration import _redelmeier_py as redelmeier_twin
from polyforms.enumeration import redelmeier
from polyforms.errors import PolyformError

ROOT = ((0, 0, 0),)
DATA = Path(__file__).resolve().parent.parent / "data" / "oeis_counts.csv"


def _oeis(sequence: str) -> list[int]:
    """A sequence from n = 1, as data/oeis_counts.csv has it."""
    with DATA.open() as handle:
        rows = csv.DictReader(line for line in handle if not line.startswith("#"))
        found = [(int(r["n"]), int(r["count"])) for r in rows if r["sequence"] == sequence]
    return [count for _, count in sorted(found)]


@pytest.fixture(scope="module")
def a001931() -> list[int]:
    return _oeis("A001931")


# polycubes up to rotation (A000162) and up to rotation and reflection (A038119)
KINDS = {"one-sided": "A000162", "free": "A038119"}


@pytest.mark.parametrize("kind", KINDS)
def test_burnside_counts_on_the_new_counter_match_oeis(kind):
    assert [pf.count(n, 3, kind) for n in range(1, 11)] == _oeis(KINDS[kind])[:10]


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_burnside_counts_on_the_new_counter_match_oeis_slow(kind):
    expected = _oeis(KINDS[kind])
    assert pf.count(len(expected), 3, kind, jobs=2) == expected[-1]


def test_twin_counts_match_oeis(a001931):
    assert [twin.count_prefix(n, (), ROOT) for n in range(1, 9)] == a001931[:8]


def test_compiled_counts_match_oeis(a001931, require_compiled):
    core = require_compiled("polycubes")
    assert [core.count_prefix(n, (), ROOT) for n in range(1, 11)] == a001931[:10]


@pytest.mark.slow
def test_compiled_counts_match_oeis_slow(a001931, require_compiled):
    core = require_compiled("polycubes")
    top = min(len(a001931), 14)
    assert [core.count_prefix(n, (), ROOT) for n in range(11, top + 1)] == a001931[10:top]


@pytest.mark.parametrize("n", [4, 6, 7])
def test_twins_agree_with_redelmeier_below_every_prefix(n, require_compiled):
    """Every node of every depth: the three-level arithmetic equals the visits."""
    core = require_compiled("polycubes")
    for depth in range(n):
        for cells, untried in redelmeier.prefixes(n, 3, depth):
            visited = redelmeier_twin.count_prefix(n, 3, "fixed", cells, untried)
            assert twin.count_prefix(n, cells, untried) == visited
            assert core.count_prefix(n, cells, untried) == visited


def test_compiled_equals_redelmeier_core_on_the_split_prefixes(require_compiled):
    core = require_compiled("polycubes")
    old = require_compiled("redelmeier")
    n = 10
    found = redelmeier.prefixes(n, 3, redelmeier.split_depth(n, 3))
    assert len(found) >= redelmeier.SPLIT_TASKS
    for cells, untried in found[::7]:
        assert core.count_prefix(n, cells, untried) == old.count_prefix(
            n, 3, "fixed", cells, untried
        )


def test_prefix_as_large_as_n_counts_nothing(require_compiled):
    core = require_compiled("polycubes")
    cells = ((0, 0, 0), (1, 0, 0))
    for kernel in (twin, core):
        assert kernel.count_prefix(2, cells, ()) == 0
        assert kernel.count_prefix(3, cells, ((2, 0, 0),)) == 1


@pytest.mark.parametrize(
    "n,cells,untried",
    [
        (0, (), ROOT),
        (4, (), ((0, 0),)),
        (4, (), ((0, 0, -1),)),
        (4, ((9, 0, 0),), ROOT),
    ],
)
def test_bad_prefixes_are_refused(n, cells, untried, require_compiled):
    core = require_compiled("polycubes")
    for kernel in (twin, core):
        with pytest.raises(PolyformError):
            kernel.count_prefix(n, cells, untried)


def test_counts_dispatch_to_the_polycube_kernel(monkeypatch, a001931):
    calls = []
    real = redelmeier._backend.kernel

    def spy(name):
        calls.append(name)
        return real(name)

    monkeypatch.setattr(redelmeier._backend, "kernel", spy)
    assert pf.count(9, dim=3, kind="fixed") == a001931[8]
    assert "polycubes" in calls
    calls.clear()
    prefix = redelmeier.prefixes(7, 3, 2)[0]
    assert redelmeier.count_subtree(prefix, 7, 3) == redelmeier_twin.count_prefix(
        7, 3, "fixed", *prefix
    )
    assert calls == ["polycubes"]


def test_split_count_and_checkpoint_resume(tmp_path, a001931):
    """Subtasks at the fork depth, workers and a journal give the same count."""
    journal = tmp_path / "count.ckpt"
    assert redelmeier.count(10, 3, jobs=2) == a001931[9]
    assert redelmeier.count(10, 3, checkpoint=journal) == a001931[9]
    assert redelmeier.count(10, 3, checkpoint=journal) == a001931[9]  # resumed: all done


def test_python_backend_counts(monkeypatch, a001931):
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    assert [redelmeier.count(n, 3) for n in range(1, 8)] == a001931[:7]
    assert redelmeier.count(6, 3, "one-sided") == 166


def test_subtrees_of_a_depth_add_up(require_compiled):
    core = require_compiled("polycubes")
    n = 9
    total = core.count_prefix(n, (), ROOT)
    for depth in (1, 3, 5):
        parts = [core.count_prefix(n, c, u) for c, u in redelmeier.prefixes(n, 3, depth)]
        assert sum(parts) == total

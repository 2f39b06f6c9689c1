"""Redelmeier's enumeration: OEIS oracles, reference against compiled core, subtasks.

The OEIS tables are in data/oeis_counts.csv (A001168, A000988, A000105,
A001931, A000162, A038119).
"""

from __future__ import annotations

import csv
import importlib
import os
from pathlib import Path

import pytest

from polyforms import redelmeier
from polyforms.errors import PolyformError, UnknownNameError

DATA = Path(__file__).resolve().parent.parent / "data" / "oeis_counts.csv"


def _oeis() -> dict[tuple[int, str], list[int]]:
    table: dict[tuple[int, str], list[int]] = {}
    with DATA.open() as handle:
        rows = csv.DictReader(line for line in handle if not line.startswith("#"))
        for row in rows:
            counts = table.setdefault((int(row["dim"]), row["kind"]), [])
            assert int(row["n"]) == len(counts) + 1
            counts.append(int(row["count"]))
    return table


OEIS = _oeis()


@pytest.fixture
def python_backend(monkeypatch):
    """Force the pure-Python reference for the duration of a test."""
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")


def _compiled_required():
    """The compiled core, or a skip when the reference was forced on purpose.

    The build is part of installation, so a missing extension is a failure,
    not a silent skip.
    """
    if os.environ.get("POLYFORMS_BACKEND", "").strip().lower() in ("python", "py", "reference"):
        pytest.skip("POLYFORMS_BACKEND=python forces the reference; compiled core not tested")
    return importlib.import_module("polyforms._core._redelmeier")


def _cases(max2: int, max3: int):
    return [(n, 2, k) for n in range(1, max2 + 1) for k in redelmeier.KINDS] + [
        (n, 3, k) for n in range(1, max3 + 1) for k in redelmeier.KINDS
    ]


# ---------------------------------------------------------------- reference


@pytest.mark.parametrize("dim,kind,top", [(2, "fixed", 10), (2, "one-sided", 8), (2, "free", 8),
                                          (3, "fixed", 7), (3, "one-sided", 5), (3, "free", 5)])
def test_reference_counts_match_oeis(python_backend, dim, kind, top):
    assert [redelmeier.count(n, dim, kind) for n in range(1, top + 1)] == OEIS[dim, kind][:top]


def test_reference_count_all(python_backend):
    assert redelmeier.count_all(9, 2) == OEIS[2, "fixed"][:9]
    assert redelmeier.count_all(5, 3, "free") == OEIS[3, "free"][:5]


@pytest.mark.parametrize("n,dim,kind", [(6, 2, "fixed"), (7, 2, "free"), (7, 2, "one-sided"),
                                        (4, 3, "fixed"), (5, 3, "free"), (5, 3, "one-sided")])
def test_reference_forms_are_canonical_distinct_and_counted(python_backend, n, dim, kind):
    forms = list(redelmeier.iter_cells(n, dim, kind))
    assert len(forms) == OEIS[dim, kind][n - 1]
    assert len(set(forms)) == len(forms)
    for form in forms:
        assert len(form) == n
        assert list(form) == sorted(form)
        assert all(min(c[i] for c in form) == 0 for i in range(dim))
        assert form == redelmeier.canonical(form, dim, kind)
    # the canonical forms of all fixed polyforms are exactly the listed ones
    fixed = redelmeier.iter_cells(n, dim, "fixed")
    assert {redelmeier.canonical(f, dim, kind) for f in fixed} == set(forms)


def test_canonical_is_invariant_under_the_group():
    form = ((0, 0), (0, 1), (1, 1), (1, 2), (2, 1))  # the F pentomino
    for kind in redelmeier.KINDS:
        target = redelmeier.canonical(form, 2, kind)
        for perm, signs in redelmeier.symmetries(2, kind):
            image = [tuple(s * c[p] for p, s in zip(perm, signs)) for c in form]
            assert redelmeier.canonical(image, 2, kind) == target
    assert len({redelmeier.canonical(
        [tuple(s * c[p] for p, s in zip(perm, signs)) for c in form], 2, "fixed")
        for perm, signs in redelmeier.symmetries(2, "free")}) == 8


@pytest.mark.parametrize("depth", [0, 1, 3, 5])
def test_prefix_subtrees_partition_the_search_in_order(python_backend, depth):
    n, dim = 7, 2
    whole = list(redelmeier.iter_cells(n, dim, "fixed"))
    parts = [
        redelmeier._normalise(cells)
        for prefix in redelmeier.prefixes(n, dim, depth)
        for cells in redelmeier._py_walk(n, dim, prefix)
    ]
    assert parts == whole
    counts = [redelmeier._py_count_fixed(n, dim, p) for p in redelmeier.prefixes(n, dim, depth)]
    assert sum(counts) == len(whole)


def test_reference_jobs_and_progress_do_not_change_results(python_backend, capsys):
    single = list(redelmeier.iter_cells(8, 2, "free"))
    assert list(redelmeier.iter_cells(8, 2, "free", jobs=2)) == single
    assert list(redelmeier.iter_cells(8, 2, "free", progress=True)) == single
    assert redelmeier.count(8, 2, "one-sided", jobs=2) == OEIS[2, "one-sided"][7]
    assert redelmeier.count(6, 3, "fixed", jobs=2, progress=True) == OEIS[3, "fixed"][5]
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "subtask" in captured.err


@pytest.mark.parametrize(
    "args,error",
    [((0,), PolyformError), ((-3,), PolyformError), (("5",), PolyformError),
     ((5, 4), PolyformError), ((5, 2, "mirror"), UnknownNameError), ((True,), PolyformError)],
)
def test_bad_arguments_raise_typed_errors(args, error):
    with pytest.raises(error):
        redelmeier.count(*args)
    with pytest.raises(error):
        next(redelmeier.iter_cells(*args))


def test_bad_jobs_raise():
    with pytest.raises(PolyformError):
        redelmeier.count(5, jobs=0)

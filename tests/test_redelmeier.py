"""Redelmeier's enumeration: OEIS oracles, reference against compiled core, subtasks.

The OEIS tables are in data/oeis_counts.csv (A001168, A000988, A000105,
A001931, A000162, A038119).
"""

from __future__ import annotations

import csv
import os
import sys
from pathlib import Path

import pytest

from polyforms import _backend  # the twin pattern's one choice of kernels
from polyforms.enumeration import _redelmeier_py as twin
from polyforms.enumeration import redelmeier
from polyforms.enumeration.search_tree import image
from polyforms.errors import PolyformError, UnknownNameError
from polyforms.geometry import normalise, signed_permutations
from polyforms.jobs import LongRun

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


def _cases(max2: int, max3: int):
    return [(n, 2, k) for n in range(1, max2 + 1) for k in redelmeier.KINDS] + [
        (n, 3, k) for n in range(1, max3 + 1) for k in redelmeier.KINDS
    ]


# ---------------------------------------------------------------- reference


@pytest.mark.parametrize(
    "dim,kind,top",
    [
        (2, "fixed", 10),
        (2, "one-sided", 8),
        (2, "free", 8),
        (3, "fixed", 7),
        (3, "one-sided", 5),
        (3, "free", 5),
    ],
)
def test_reference_counts_match_oeis(python_backend, dim, kind, top):
    assert [redelmeier.count(n, dim, kind) for n in range(1, top + 1)] == OEIS[dim, kind][:top]


def test_reference_count_all(python_backend):
    assert redelmeier.count_all(9, 2) == OEIS[2, "fixed"][:9]
    assert redelmeier.count_all(5, 3, "free") == OEIS[3, "free"][:5]


@pytest.mark.parametrize(
    "n,dim,kind",
    [
        (6, 2, "fixed"),
        (7, 2, "free"),
        (7, 2, "one-sided"),
        (4, 3, "fixed"),
        (5, 3, "free"),
        (5, 3, "one-sided"),
    ],
)
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
        for perm, signs in signed_permutations(2, kind):
            image = [tuple(s * c[p] for p, s in zip(perm, signs)) for c in form]
            assert redelmeier.canonical(image, 2, kind) == target
    assert (
        len(
            {
                redelmeier.canonical(
                    [tuple(s * c[p] for p, s in zip(perm, signs)) for c in form], 2, "fixed"
                )
                for perm, signs in signed_permutations(2, "free")
            }
        )
        == 8
    )


@pytest.mark.parametrize("depth", [0, 1, 3, 5])
def test_prefix_subtrees_partition_the_search_in_order(python_backend, depth):
    n, dim = 7, 2
    whole = list(redelmeier.iter_cells(n, dim, "fixed"))
    parts = [
        normalise(cells)
        for prefix in redelmeier.prefixes(n, dim, depth)
        for cells in twin.walk(n, dim, *prefix)
    ]
    assert parts == whole
    counts = [twin.count_prefix(n, dim, "fixed", *p) for p in redelmeier.prefixes(n, dim, depth)]
    assert sum(counts) == len(whole)


def test_reference_jobs_and_progress_do_not_change_results(python_backend, capsys):
    single = list(redelmeier.iter_cells(8, 2, "free"))
    assert list(redelmeier.iter_cells(8, 2, "free", jobs=2)) == single
    assert list(redelmeier.iter_cells(8, 2, "free", progress=True)) == single
    assert redelmeier.count(8, 2, "one-sided", jobs=2) == OEIS[2, "one-sided"][7]
    assert redelmeier.count(6, 3, "fixed", jobs=2, progress=True) == OEIS[3, "fixed"][5]
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("backend", ["python", "compiled"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_reports_every_subtask(monkeypatch, backend, jobs, require_compiled):
    if backend == "python":
        monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    else:
        require_compiled("redelmeier")
    for run, expected in (
        (lambda seen: redelmeier.count(9, 2, "fixed", jobs=jobs, progress=seen.append),
         OEIS[2, "fixed"][8]),
        (lambda seen: sum(
            1 for _ in redelmeier.iter_cells(8, 2, "free", jobs=jobs, progress=seen.append)
        ), OEIS[2, "free"][7]),
    ):  # fmt: skip
        seen = []
        assert run(seen) == expected
        assert seen[0].done == 0 and seen[-1].done == seen[-1].total > 1
        assert seen[-1].fraction == 1.0 and seen[-1].eta == 0
        fractions = [p.fraction for p in seen]
        assert fractions == sorted(fractions)
        assert [p.done for p in seen] == list(range(len(seen)))


@pytest.mark.parametrize(
    "args,error",
    [
        ((0,), PolyformError),
        ((-3,), PolyformError),
        (("5",), PolyformError),
        ((5, 4), PolyformError),
        ((5, 2, "mirror"), UnknownNameError),
        ((True,), PolyformError),
    ],
)
def test_bad_arguments_raise_typed_errors(args, error):
    with pytest.raises(error):
        redelmeier.count(*args)
    with pytest.raises(error):
        next(redelmeier.iter_cells(*args))


def test_bad_jobs_raise():
    with pytest.raises(PolyformError):
        redelmeier.count(5, jobs=-1)


# ---------------------------------------------------------------- compiled core

_FIXED_WALKS: dict[tuple[int, int], list] = {}


def _reference_forms(n: int, dim: int, kind: str) -> list:
    """The reference catalogue, from one cached walk of the fixed polyforms."""
    if (n, dim) not in _FIXED_WALKS:
        _FIXED_WALKS[n, dim] = list(twin.forms(n, dim, "fixed", (), ((0,) * dim,)))
    fixed = _FIXED_WALKS[n, dim]
    if kind == "fixed":
        return fixed
    group = signed_permutations(dim, kind)
    return [form for form in fixed if twin.is_least(form, group)]


@pytest.mark.parametrize("n,dim,kind", _cases(10, 7))
def test_compiled_counts_equal_reference(n, dim, kind, require_compiled):
    core = require_compiled("redelmeier")
    expected = len(_reference_forms(n, dim, kind))
    assert redelmeier.count(n, dim, kind) == expected  # Burnside for free, one-sided
    root = ((0,) * dim,)
    assert core.count_prefix(n, dim, kind, (), root) == expected  # canonical filter


@pytest.mark.parametrize("n,dim,kind", _cases(8, 6))
def test_compiled_catalogue_equals_reference_in_order(n, dim, kind, require_compiled):
    require_compiled("redelmeier")
    assert list(redelmeier.iter_cells(n, dim, kind)) == _reference_forms(n, dim, kind)


@pytest.mark.slow
@pytest.mark.parametrize("n,dim,kind", [(n, 3, k) for n in (7, 8) for k in redelmeier.KINDS])
def test_compiled_catalogue_equals_reference_3d_slow(n, dim, kind, require_compiled):
    require_compiled("redelmeier")
    assert list(redelmeier.iter_cells(n, dim, kind)) == _reference_forms(n, dim, kind)


@pytest.mark.parametrize(
    "dim,kind,top", [(2, k, 14) for k in redelmeier.KINDS] + [(3, k, 9) for k in redelmeier.KINDS]
)
def test_compiled_counts_match_oeis(dim, kind, top, require_compiled):
    require_compiled("redelmeier")
    assert [redelmeier.count(n, dim, kind) for n in range(1, top + 1)] == OEIS[dim, kind][:top]


@pytest.mark.slow
@pytest.mark.parametrize(
    "dim,kind,top", [(2, k, 17) for k in redelmeier.KINDS] + [(3, k, 11) for k in redelmeier.KINDS]
)
def test_compiled_counts_match_oeis_slow(dim, kind, top, require_compiled):
    require_compiled("redelmeier")
    assert redelmeier.count(top, dim, kind) == OEIS[dim, kind][top - 1]


def test_compiled_count_all_matches_oeis(require_compiled):
    require_compiled("redelmeier")
    assert redelmeier.count_all(14, 2) == OEIS[2, "fixed"][:14]
    assert redelmeier.count_all(9, 3) == OEIS[3, "fixed"][:9]
    assert redelmeier.count_all(10, 2, "free") == OEIS[2, "free"][:10]


def test_compiled_free_catalogue_size_14_is_canonical_and_counted(require_compiled):
    require_compiled("redelmeier")
    total = 0
    for form in redelmeier.iter_cells(11, 2, "free"):
        total += 1
        if total % 997 == 0:  # a sample: the reference canonical form agrees
            assert form == redelmeier.canonical(form, 2, "free")
    assert total == OEIS[2, "free"][10]


@pytest.mark.parametrize("chunk", [1, 3, 1000])
def test_compiled_chunks_do_not_change_the_stream(chunk, require_compiled):
    core = require_compiled("redelmeier")
    whole = [f for part in core.iter_chunks(8, 2, "free", (), ((0, 0),)) for f in part]
    parts = list(core.iter_chunks(8, 2, "free", (), ((0, 0),), chunk=chunk))
    assert all(0 < len(part) <= chunk for part in parts)
    assert [f for part in parts for f in part] == whole


@pytest.mark.parametrize("dim,depth", [(2, 3), (3, 2)])
def test_compiled_prefixes_equal_reference_prefixes(dim, depth, require_compiled):
    core = require_compiled("redelmeier")
    n = 7 if dim == 2 else 5
    for prefix in redelmeier.prefixes(n, dim, depth):
        reference = [normalise(c) for c in twin.walk(n, dim, *prefix)]
        assert core.count_prefix(n, dim, "fixed", *prefix) == len(reference)
        assert core.unpack(n, dim, core.pack_prefix(n, dim, "fixed", *prefix)) == reference
        for kind in ("one-sided", "free"):
            assert core.count_prefix(n, dim, kind, *prefix) == twin.count_prefix(
                n, dim, kind, *prefix
            )


def test_compiled_jobs_and_progress_do_not_change_results(capsys, require_compiled):
    require_compiled("redelmeier")
    single = list(redelmeier.iter_cells(10, 2, "free"))
    assert list(redelmeier.iter_cells(10, 2, "free", jobs=2)) == single
    assert list(redelmeier.iter_cells(10, 2, "free", progress=True)) == single
    cubes = list(redelmeier.iter_cells(7, 3, "one-sided"))
    assert list(redelmeier.iter_cells(7, 3, "one-sided", jobs=2)) == cubes
    for kind in redelmeier.KINDS:
        assert redelmeier.count(13, 2, kind, jobs=2) == OEIS[2, kind][12]
    assert redelmeier.count(9, 3, "fixed", jobs=2, progress=True) == OEIS[3, "fixed"][8]
    assert capsys.readouterr().out == ""


# ---------------------------------------------------------------- Burnside


@pytest.mark.parametrize(
    "n,dim",
    [(n, 2) for n in range(1, 10)]
    + [(n, 3) for n in range(1, 6)]
    + [pytest.param(n, d, marks=pytest.mark.slow) for n, d in ((10, 2), (11, 2), (6, 3), (7, 3))],
)
def test_burnside_symmetric_counts_twin_and_brute_force(n, dim, monkeypatch, require_compiled):
    require_compiled("redelmeier")
    from polyforms.enumeration import burnside

    fixed = _reference_forms(n, dim, "fixed")
    for element in set(burnside.classes(dim).values()):
        if element == (tuple(range(dim)), (1,) * dim):
            continue
        perm, signs = element
        brute = sum(1 for f in fixed if image(f, perm, signs) == f)
        assert burnside.fix(n, dim, element) == brute  # compiled
        with monkeypatch.context() as forced:
            forced.setenv("POLYFORMS_BACKEND", "python")
            assert burnside.fix(n, dim, element) == brute  # the readable twin


@pytest.mark.parametrize("n,dim", [(14, 2), (7, 3)])
def test_burnside_invariant_counts_twin_agrees_beyond_brute_force(
    n, dim, monkeypatch, require_compiled
):
    """Sizes where the voltage pruning cuts many branches: compiled == readable twin."""
    require_compiled("redelmeier")
    from polyforms.enumeration import burnside

    for element in set(burnside.classes(dim).values()):
        if element == (tuple(range(dim)), (1,) * dim):
            continue
        compiled = burnside.fix(n, dim, element)
        with monkeypatch.context() as forced:
            forced.setenv("POLYFORMS_BACKEND", "python")
            assert burnside.fix(n, dim, element) == compiled


def test_burnside_reference_kernel_counts_kinds(python_backend):
    from polyforms.enumeration import burnside

    for kind in ("one-sided", "free"):
        got = [burnside.count(n, 2, kind, OEIS[2, "fixed"][n - 1]) for n in range(1, 11)]
        assert got == OEIS[2, kind][:10]
        got = [burnside.count(n, 3, kind, OEIS[3, "fixed"][n - 1]) for n in range(1, 7)]
        assert got == OEIS[3, kind][:6]


# ---------------------------------------------------------------- without the extension


def test_package_works_without_the_extension_with_one_warning():
    import subprocess

    code = (
        "import sys, warnings\n"
        "sys.modules['polyforms._core._redelmeier'] = None\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    from polyforms.enumeration import redelmeier\n"
        "    print(redelmeier.count(6, 2, 'free'), redelmeier.count(7), "
        "len(list(redelmeier.iter_cells(5, 3, 'free'))))\n"
        "print(sum('compiled core is not built' in str(w.message) for w in caught))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "POLYFORMS_BACKEND"}
    root = Path(__file__).resolve().parent.parent
    env["PYTHONPATH"] = str(root) + os.pathsep + env.get("PYTHONPATH", "")
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=root, check=True
    )
    assert result.stdout.split() == ["35", "760", "23", "1"]


@pytest.mark.parametrize("backend", ["python", "compiled"])
@pytest.mark.parametrize(
    "n,dim,kind,jobs",
    [(8, 2, "free", 1), (8, 2, "one-sided", 2), (6, 3, "free", 1), (6, 3, "fixed", 2)],
)
def test_packed_chunks_hold_the_catalogue(
    monkeypatch, backend, n, dim, kind, jobs, require_compiled
):
    if backend == "python":
        monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    else:
        require_compiled("redelmeier")
    packed = b"".join(redelmeier.iter_packed(n, dim, kind, jobs=jobs, chunk=50))
    forms = _reference_forms(n, dim, kind)
    flat = [v for form in forms for cell in form for v in cell]
    assert list(packed) == flat


@pytest.mark.parametrize("backend", ["python", "compiled"])
@pytest.mark.parametrize("n,dim,depth", [(8, 2, 4), (6, 3, 3)])
def test_subtrees_add_up_to_the_whole(monkeypatch, backend, n, dim, depth, require_compiled):
    if backend == "python":
        monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    else:
        require_compiled("redelmeier")
    pieces = redelmeier.prefixes(n, dim, depth)
    for kind in redelmeier.KINDS:
        counts = [redelmeier.count_subtree(p, n, dim, kind) for p in pieces]
        assert sum(counts) == OEIS[dim, kind][n - 1]
        forms = [f for p in pieces for f in redelmeier.iter_subtree(p, n, dim, kind)]
        assert forms == _reference_forms(n, dim, kind)


@pytest.mark.parametrize(
    "prefix", [None, (((0, 0), (1, 0)), ()), (((0, 0, 0),), ()), ("ab", "cd"), ((), [(0,)])]
)
def test_bad_prefixes_raise(prefix):
    with pytest.raises(PolyformError):
        redelmeier.count_subtree(prefix, 2, 2)
    with pytest.raises(PolyformError):
        next(redelmeier.iter_subtree(prefix, 2, 2))


@pytest.mark.parametrize(
    ("n", "dim", "kind", "what", "listing"),
    [
        (14, 2, "fixed", "count", "pack"),
        (14, 2, "free", "pack", "jsonl"),
        (9, 3, "free", "pack", "txt"),
        (12, 3, "fixed", "count", "pack"),
    ],
)
def test_subtask_weights_follow_the_work(n, dim, kind, what, listing, require_compiled):
    # A subtask's weight is its subtree cut five cells short, scaled; its work is
    # the nodes of size n - 1 plus what it lists (counted here in full). Weights
    # share the work out closely enough for the progress bar's ETA: the running
    # share of the weights stays within 0.05 of the running share of the work.
    kernel = require_compiled("redelmeier")
    job = redelmeier.SearchJob(what, n, dim, kind, listing=listing)
    tasks = job.tasks()
    work = []
    for task in tasks:
        cells, untried = task.args[3]
        listed = kernel.count_prefix(n, dim, kind, cells, untried) if job.output_cost else 0
        work.append(
            kernel.count_prefix(n - 1, dim, "fixed", cells, untried) + job.output_cost * listed
        )
    assert len(tasks) >= 60 and min(task.weight for task in tasks) >= 1.0
    whole, total = sum(task.weight for task in tasks), sum(work)
    running_weight = running_work = 0.0
    worst = 0.0
    for task, size in zip(tasks, work):
        running_weight += task.weight / whole
        running_work += size / total
        worst = max(worst, abs(running_weight - running_work))
    assert worst < 0.05
    # and no sizeable subtask is weighed wrong by more than a factor 3
    for task, size in zip(tasks, work):
        if size / total > 0.005:
            assert 1 / 3 < (task.weight / whole) / (size / total) < 3, task.id


@pytest.mark.parametrize(("n", "dim"), [(10, 3), (11, 3), (9, 2), (16, 2)])
def test_weighing_never_counts_a_whole_subtree(monkeypatch, n, dim, require_compiled):
    """The parent weighs subtasks before any worker starts: never by counting a
    subtree in full (3D n = 10 once took 3.6 s of the parent's time so)."""
    kernel = require_compiled("redelmeier")
    asked = []

    class Spy:
        def count_prefix(self, size, dim_, kind, cells, untried):
            asked.append((size, len(cells)))
            return kernel.count_prefix(size, dim_, kind, cells, untried)

    chosen = _backend.kernel
    monkeypatch.setattr(
        _backend, "kernel", lambda name: Spy() if name == "redelmeier" else chosen(name)
    )
    tasks = redelmeier.SearchJob("pack", n, dim, "free", listing="jsonl").tasks()
    assert len(tasks) > 1 and asked
    assert all(size < n - 1 for size, _ in asked)  # short of both counts a subtask makes
    assert all(size > depth for size, depth in asked)  # and beyond the prefix


def test_trusted_searches_give_what_the_checked_functions_give():
    """search_* skip the checks of count, iter_cells, iter_packed and estimate (their
    callers have made them) and give the same results."""
    for kind in redelmeier.KINDS:
        assert redelmeier.search_count(8, 2, kind) == redelmeier.count(8, 2, kind)
        cells = list(redelmeier.search_cells(6, 3, kind, LongRun(jobs=2)))
        assert cells == list(redelmeier.iter_cells(6, 3, kind))
        packed = b"".join(redelmeier.search_packed(9, 2, kind, chunk=100))
        assert packed == b"".join(redelmeier.iter_packed(9, 2, kind))
    # the same probes (eight, at the least budget) from the same seed
    trusted, checked = redelmeier.search_estimate(10, 2, 0.0), redelmeier.estimate(10, 2, 0.0)
    assert trusted.probes == checked.probes == 8 and trusted[:2] == checked[:2]
    with pytest.raises(PolyformError):
        redelmeier.iter_packed(128, 2).__next__()


def test_a_search_job_cuts_at_the_split_depth():
    job = redelmeier.SearchJob("pack", 12, 2, "free")
    tasks = job.tasks()
    depth = redelmeier.split_depth(12, 2)
    assert {len(task.args[3][0]) for task in tasks} == {depth}
    assert len(tasks) >= redelmeier.SPLIT_TASKS
    chunks = b"".join(task.function(*task.args) for task in tasks)
    assert chunks == b"".join(redelmeier.iter_packed(12, 2, "free"))
    assert redelmeier.split_depth(5, 2) == 0  # too small to cut

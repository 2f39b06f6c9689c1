"""The transfer-matrix counter: OEIS oracles, the compiled core against its twin,
against Redelmeier, the job layer, memory and the command line."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

import polyforms as pf
from polyforms import jobs
from polyforms.enumeration import _transfer_py, redelmeier, transfer
from polyforms.errors import TooLargeError, UnknownNameError

DATA = Path(__file__).resolve().parent.parent / "data" / "oeis_counts.csv"


def _oeis() -> dict[str, list[int]]:
    """{kind: [count for n = 1, 2, ...]} of polyominoes (A001168, A000988, A000105; cited there)."""
    table: dict[str, list[int]] = {}
    with DATA.open() as handle:
        for row in csv.DictReader(line for line in handle if not line.startswith("#")):
            if row["dim"] == "2":
                counts = table.setdefault(row["kind"], [])
                assert int(row["n"]) == len(counts) + 1
                counts.append(int(row["count"]))
    return table


OEIS = _oeis()


@pytest.fixture
def core(require_compiled):
    """The compiled transfer-matrix core: a missing one fails (see ``require_compiled``)."""
    return require_compiled("transfer")


def test_the_oracle_reaches_size_28():
    assert len(OEIS["fixed"]) >= 28 and len(OEIS["free"]) >= 28 and len(OEIS["one-sided"]) >= 30


@pytest.mark.parametrize("n", range(1, 23))
def test_fixed_counts_match_a001168(n):
    assert transfer.count(n) == OEIS["fixed"][n - 1]


@pytest.mark.slow
@pytest.mark.parametrize("n", range(23, 29))
def test_fixed_counts_match_a001168_to_28(n):
    assert transfer.count(n) == OEIS["fixed"][n - 1]


@pytest.mark.parametrize("kind", ["one-sided", "free"])
def test_free_and_one_sided_counts_match_oeis(kind):
    assert [transfer.count(n, kind) for n in range(1, 17)] == OEIS[kind][:16]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["one-sided", "free"])
@pytest.mark.parametrize("n", range(17, 29))
def test_free_and_one_sided_counts_match_oeis_to_28(kind, n):
    assert transfer.count(n, kind) == OEIS[kind][n - 1]


def test_one_sweep_counts_every_smaller_size_too(core):
    """Pruning keeps every polyomino of at most n cells, so a sweep counts all sizes up to n."""
    n = 14
    totals = [0] * (n + 1)
    for width in range(1, (n + 1) // 2 + 1):
        square, tall, _, _ = core.count_width(n, width)
        totals = [t + s + 2 * u for t, s, u in zip(totals, square, tall)]
    assert totals[1:] == OEIS["fixed"][:n]


@pytest.mark.parametrize("n", range(1, 13))
def test_compiled_core_agrees_with_the_twin(n, core):
    for width in range(1, (n + 1) // 2 + 1):
        mine, theirs = core.count_width(n, width), _transfer_py.count_width(n, width)
        assert mine[:3] == theirs[:3], (n, width)  # counts and peak states; bytes differ


def test_wide_and_modular_counts_agree_with_the_twin(core):
    for n, width in [(9, 3), (11, 4), (12, 6)]:
        for options in ({"wide": True}, {"modulus": 1_000_003}, {"modulus": 7}):
            assert (
                core.count_width(n, width, **options)[:3]
                == _transfer_py.count_width(n, width, **options)[:3]
            )


def test_modular_counts_are_the_counts_reduced(core):
    square, tall, _, _ = core.count_width(16, 6)
    square_p, tall_p, _, _ = core.count_width(16, 6, 1_000_003)
    assert [v % 1_000_003 for v in square + tall] == square_p + tall_p


@pytest.mark.parametrize("n", range(1, 17))
def test_the_wide_frontier_counts_as_the_narrow_one(n, core):
    """The base-5 frontier of widths above 20, forced on small boxes: the same sweep."""
    for width in range(1, (n + 1) // 2 + 1):
        for wide in (False, True):
            narrow = core.count_width(n, width, wide=wide)
            assert core.count_width(n, width, wide=wide, base5=True)[:3] == narrow[:3]


def test_the_wide_frontier_at_the_widest_narrow_boxes(core):
    for n, width in [(31, 16), (39, 20), (40, 20)]:
        narrow = core.count_width(n, width, wide=True)
        assert core.count_width(n, width, wide=True, base5=True)[:3] == narrow[:3]


@pytest.mark.slow
def test_a_box_21_wide_agrees_with_the_twin(core):
    """Width 21 (n = 41) needs the wide frontier in the core; the twin has no packing (38 s)."""
    mine = core.count_width(41, 21, wide=True)
    assert mine[:3] == _transfer_py.count_width(41, 21, wide=True)[:3]


@pytest.mark.parametrize("widths", [(1, 12), (21, 26)])
def test_the_bounds_agree_on_random_frontiers(widths, core):
    """cells_needed / cells_used of the core read the packed fields as the twin reads labels
    (in one word up to 20 cells, in two above)."""
    rng = random.Random(13)
    for _ in range(3000):
        width = rng.randint(*widths)
        frontier = _random_frontier(rng, width)
        touched, row, col = rng.randint(0, 3), rng.randint(0, 12), rng.randint(0, width - 1)
        args = (frontier, touched, width, row, col)
        assert core.cells_needed(*args) == _transfer_py.cells_needed(*args), args
        args = (frontier, width, row, col)
        assert core.cells_used(*args) == _transfer_py.cells_used(*args), args


def _random_frontier(rng: random.Random, width: int) -> tuple[int, ...]:
    """A non-crossing labelling: components nest like parentheses (a stack of open ones)."""
    cells, stack, labels = [], [], 0
    for _ in range(width):
        choice = rng.random()
        if choice < 0.35:
            cells.append(0)
        elif choice < 0.55 or not stack:
            labels += 1
            stack.append(labels)
            cells.append(labels)
        elif choice < 0.8:
            cells.append(stack[-1])
        else:
            cells.append(stack.pop())
    names: dict[int, int] = {}
    return tuple(0 if v == 0 else names.setdefault(v, len(names) + 1) for v in cells)


@pytest.mark.parametrize("kind", ["fixed", "one-sided", "free"])
def test_transfer_matrix_agrees_with_redelmeier(kind):
    for n in range(1, 13):
        assert transfer.count(n, kind) == redelmeier.count(n, 2, kind)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fixed", "one-sided", "free"])
def test_transfer_matrix_agrees_with_redelmeier_to_16(kind):
    for n in range(13, 17):
        assert transfer.count(n, kind) == redelmeier.count(n, 2, kind)


def test_count_chooses_the_transfer_matrix_where_it_is_faster():
    from polyforms.enumeration.generate import count_method

    assert count_method(transfer.CROSSOVER - 1, 2, "redelmeier") == "redelmeier"
    assert count_method(transfer.CROSSOVER, 2, "redelmeier") == "transfer-matrix"
    assert count_method(30, 3, "redelmeier") == "redelmeier"
    assert count_method(30, 2, "redelmeier", filtered=True) == "redelmeier"
    assert pf.count(21, kind="fixed") == OEIS["fixed"][20]
    assert pf.count(14, kind="free", method="transfer-matrix") == OEIS["free"][13]


def test_catalogues_and_other_counts_refuse_the_transfer_matrix():
    with pytest.raises(UnknownNameError, match="only counts"):
        pf.enumerate_polyforms(8, method="transfer-matrix")
    with pytest.raises(UnknownNameError, match="2D"):
        pf.count(6, dim=3, method="transfer-matrix")
    with pytest.raises(UnknownNameError, match="filters"):
        pf.count(8, method="transfer-matrix", holes=True)
    with pytest.raises(TooLargeError, match="up to size 51"):
        transfer.count(52)


def test_sizes_above_the_machine_are_refused_in_one_line(cli, monkeypatch):
    """n = 45 is exact in principle (widths to 23 fit the base-5 frontier); here it is too big."""
    with pytest.raises(TooLargeError, match="hours|GiB"):
        transfer.count(45)
    done = cli("enumerate", "45", "--kind", "fixed", "--count")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "hours" in done.stderr or "GiB" in done.stderr


def test_a_run_that_would_exceed_memory_is_refused(monkeypatch):
    monkeypatch.setattr(transfer, "available_memory", lambda: 1 << 20)
    with pytest.raises(TooLargeError, match="GiB"):
        transfer.count(20)
    assert transfer.count(20, force=True) == OEIS["fixed"][19]


def test_report_gives_peak_states_and_memory():
    report = transfer.count_report(18, "free")
    assert report.count == OEIS["free"][17] and report.fixed == OEIS["fixed"][17]
    assert report.states > 1000 and report.memory > report.states
    assert transfer.memory_needed(32) > transfer.memory_needed(28) > 0


def test_estimate_says_states_count_and_time():
    from polyforms.enumeration.generate import estimate

    found = estimate(22, kind="fixed", method="transfer-matrix", counting=True)
    assert 0.8 < found.solutions / OEIS["fixed"][21] < 1.2
    assert found.nodes > 1000 and found.seconds > 0 and found.probes == 2


def test_widths_run_as_subtasks_on_two_processes():
    assert transfer.count(19, jobs=2) == OEIS["fixed"][18]
    assert transfer.count(15, "free", jobs=2) == OEIS["free"][14]


def test_a_checkpointed_count_resumes(in_process, tmp_path):
    path = tmp_path / "count.journal"
    with pytest.raises(jobs.Interrupted) as stopped:  # an interrupted run: four widths done
        transfer.count(20, checkpoint=path, executor=in_process(5))
    assert stopped.value.done == 4
    assert len(path.read_text().splitlines()) == 5  # header + four tasks
    resumed = in_process()
    assert transfer.count(20, checkpoint=path, executor=resumed) == OEIS["fixed"][19]
    assert len(resumed.ran) == stopped.value.total - 4  # only the widths not journalled
    again = in_process()
    assert transfer.count(20, checkpoint=path, executor=again) == OEIS["fixed"][19]
    assert again.ran == []  # all from the journal


def test_burnside_terms_are_subtasks_too(in_process, tmp_path):
    """Free and one-sided counts: the symmetric terms run as tasks beside the widths,
    the same count in process, on two workers and from a journal."""
    alone = in_process()
    assert transfer.count(18, "free", executor=alone) == OEIS["free"][17]
    ids = [task.id for task in alone.ran]
    assert any(i.startswith("s") for i in ids) and any(i.startswith("w") for i in ids)
    assert transfer.count(18, "free", jobs=2) == OEIS["free"][17]
    path = tmp_path / "free.journal"
    with pytest.raises(jobs.Interrupted) as stopped:  # interrupted after five tasks
        transfer.count(18, "free", checkpoint=path, executor=in_process(6))
    assert stopped.value.done == 5
    with pytest.raises(jobs.CheckpointError, match="another command"):
        transfer.count(18, "fixed", checkpoint=path)  # journals of different kinds never mix
    assert transfer.count(18, "free", checkpoint=path) == OEIS["free"][17]
    assert transfer.count(18, "one-sided", jobs=2) == OEIS["one-sided"][17]


def test_command_line_counts_and_refuses(cli):
    done = cli("enumerate", "20", "--kind", "fixed", "--count", "--method", "transfer-matrix")
    assert done.returncode == 0 and done.stdout == f"{OEIS['fixed'][19]}\n"
    done = cli("enumerate", "16", "--kind", "one-sided", "--count", "--jobs", "2")
    assert done.returncode == 0 and done.stdout == f"{OEIS['one-sided'][15]}\n"
    done = cli("enumerate", "12", "--method", "transfer-matrix")
    assert done.returncode == 2 and "only counts" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    done = cli("enumerate", "26", "--kind", "fixed", "--count", "--estimate")
    assert done.returncode == 0 and "memory" in done.stdout and "nodes" in done.stdout


def test_more_jobs_than_cores_are_capped_before_the_memory_check(monkeypatch):
    """The memory a count needs was reckoned for every job asked, not the worker
    processes it gets: --jobs 99999 was refused for 390 GiB at n = 14."""
    from polyforms.jobs import executors

    monkeypatch.setattr(executors, "available_cores", lambda: 2)
    with pytest.warns(RuntimeWarning, match="99999 worker processes asked for but 2 cores"):
        assert transfer.count(14, jobs=99999) == 7204874  # A001168


def test_the_counters_reach_is_checked_on_every_path():
    """sweep and sweep_estimate trust n and kind (their callers check them) but
    still refuse a size beyond MAX_SIZE, whichever way the call came."""
    beyond = transfer.MAX_SIZE + 1
    for call in (
        lambda: transfer.sweep(beyond),
        lambda: transfer.sweep_estimate(beyond),
        lambda: transfer.estimate(beyond),
        lambda: transfer.memory_needed(beyond),
        lambda: pf.count(beyond, method="transfer-matrix"),
    ):
        with pytest.raises(TooLargeError, match=f"up to size {transfer.MAX_SIZE}"):
            call()
    assert transfer.sweep(12, "free").count == transfer.count(12, "free") == OEIS["free"][11]

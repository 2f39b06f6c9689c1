"""The sweep over boards: counts with free pieces, board layer by board layer.

Checked against the depth-first search with and without its memo, twin
against twin (the same boards and moves), across a save and a load in either
twin, and through the long-run options: progress, checkpoint, signals.
"""

from __future__ import annotations

import array
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from polyforms import jobs, tile
from polyforms.errors import PolyformError, TilingError
from polyforms.jobs import executors as _executors
from polyforms.tiling import _tiling_py as twin
from polyforms.tiling import counting
from polyforms.tiling import sweep as _sweep
from polyforms.tiling.engines import make_search

BOARDS = [
    ("5x10", "pentominoes"),
    ("6x6", "tetrominoes"),
    ("4x9", "free:3"),
    ("3x3x4", "free:3"),
    ("\n".join(["#####", "#####", "##.##", "#####", "#####"]), "tetrominoes"),
    ("\n".join("#" * k for k in range(8, 0, -1)), "free:3"),
    ("2x17", "free:3"),
]


def _spec(region, pieces):
    return tile(region, pieces, reuse=True).searches.over().spec


def _swept(sweep, step: int = 1000) -> int:
    while not sweep.run(step):
        pass
    return sweep.count


def _saved(sweep) -> bytes:
    out = io.BytesIO()
    sweep.save(out)
    return out.getvalue()


def _threaded(compiled, spec, threads: int):
    """A compiled sweep of ``spec`` in ``threads`` threads."""
    helpers = [make_search(spec) for _ in range(threads - 1)]
    return compiled.BoardSweep(make_search(spec), helpers=helpers)


@pytest.mark.parametrize("region,pieces", BOARDS)
def test_twins_sweep_the_same_boards_to_the_count_of_the_search(require_compiled, region, pieces):
    """The readable twin, and the compiled sweep in 1, 2 and 3 threads."""
    compiled = require_compiled("_tiling")
    spec = _spec(region, pieces)
    truth = twin.TilingSearch(**spec._asdict()).count()  # depth first, memoized
    if truth < 200_000:  # and the whole tree, where that is quick
        whole = make_search(spec)
        whole.memo = False
        assert whole.count() == truth
    ours = twin.BoardSweep(twin.TilingSearch(**spec._asdict()))
    assert _swept(ours, 7) == truth
    assert ours.states > 1 and ours.fraction == 1.0 and ours.live == 0
    for threads in (1, 2, 3):
        theirs = _threaded(compiled, spec, threads)
        assert theirs.threads == threads
        assert _swept(theirs, 5) == truth
        assert (ours.states, ours.moves) == (theirs.states, theirs.moves)
        assert theirs.fraction == 1.0 and theirs.live == 0


def test_the_front_of_a_region_is_a_cross_section_across_its_fill_order():
    assert (
        twin.sweep_front(_spec("6x9", "pentominoes").ncells, _spec("6x9", "pentominoes").neighbours)
        == 6
    )
    spec = _spec("2x4x10", "free:4")
    assert twin.sweep_front(spec.ncells, spec.neighbours) == 8
    assert twin.sweep_front(spec.ncells, None) == 0


@pytest.mark.parametrize("region,pieces", [("6x9", "pentominoes"), ("6x8", "tetrominoes")])
def test_the_fraction_of_a_sweep_foresees_its_boards(require_compiled, region, pieces):
    """From a quarter of the boards on, boards swept / fraction is within 20 % of
    the boards the sweep ends with, in both twins. (Taking every layer to come as
    large as the one being swept, without the fall at the end, read up to 1.38
    times the boards on 6x9 by the pentominoes.)"""
    compiled = require_compiled("_tiling")
    spec = _spec(region, pieces)
    for kernel in (compiled, twin):
        sweep = kernel.BoardSweep(kernel.TilingSearch(**spec._asdict()))
        seen = []
        while not sweep.run(64):
            seen.append((sweep.states, sweep.fraction))
        assert sweep.fraction == 1.0
        late = [states / fraction / sweep.states for states, fraction in seen
                if states >= sweep.states / 4]  # fmt: skip
        assert len(late) > 20
        assert 0.8 <= min(late) and max(late) <= 1.2, (kernel.__name__, min(late), max(late))


@pytest.mark.parametrize("region,pieces", BOARDS[:4])
@pytest.mark.parametrize("cut", [1, 3, 2])  # a third of the boards, two thirds, half
def test_a_saved_sweep_goes_on_in_either_twin(require_compiled, region, pieces, cut):
    compiled = require_compiled("_tiling")
    spec = _spec(region, pieces)
    whole = compiled.BoardSweep(make_search(spec))
    truth = _swept(whole)
    makers = [
        lambda: twin.BoardSweep(twin.TilingSearch(**spec._asdict())),
        lambda: compiled.BoardSweep(make_search(spec)),
        lambda: _threaded(compiled, spec, 2),
        lambda: _threaded(compiled, spec, 3),
    ]
    for first in makers:
        sweep = first()
        sweep.run(whole.states * cut // 4)
        live = sweep.live
        saved = _saved(sweep)
        for second in makers:
            again = second()
            again.load(io.BytesIO(saved))
            assert again.live == live and again.filled == sweep.filled
            assert _swept(again, 13) == truth
            assert (again.states, again.moves) == (whole.states, whole.moves)


def test_a_damaged_saved_sweep_is_refused(require_compiled):
    compiled = require_compiled("_tiling")
    spec = _spec("5x10", "pentominoes")
    sweep = compiled.BoardSweep(make_search(spec))
    sweep.run(2000)
    data = _saved(sweep)
    other = _spec("6x10", "pentominoes")
    for module, search in [
        (compiled, make_search),
        (twin, lambda s: twin.TilingSearch(**s._asdict())),
    ]:
        for damaged, why in [
            (data[:-5], "ends early"),
            (data + b"\0", "past its end"),
            (b"\0" * 8 + data[8:], "not a saved sweep"),
            (_first_layer_twice(data, spec), "a layer twice"),
        ]:
            with pytest.raises(TilingError, match=why):
                module.BoardSweep(search(spec)).load(io.BytesIO(damaged))
        with pytest.raises(TilingError, match="not a saved sweep of this search"):
            module.BoardSweep(search(other)).load(io.BytesIO(data))


def _first_layer_twice(data: bytes, spec) -> bytes:
    """A saved sweep with its first layer written twice (it would count its boards twice)."""
    words = array.array("Q", data)
    stride = (spec.ncells + 63) // 64 + 1
    end = 8 + 2 + words[9] * stride
    words[7] += 1
    return (words[:end] + words[8:end] + words[end:]).tobytes()


def test_a_sweep_in_threads_needs_a_search_of_the_same_problem_for_each(require_compiled):
    compiled = require_compiled("_tiling")
    spec = _spec("5x10", "pentominoes")
    search, other = make_search(spec), make_search(spec)
    restricted = make_search(spec)
    restricted.restrict([0])
    for helpers, why in [
        ([search], "a search of its own"),
        ([other, other], "a search of its own"),
        ([make_search(_spec("6x10", "pentominoes"))], "same problem"),
        ([make_search(_spec("5x10", "tetrominoes"))], "same problem"),
        ([restricted], "restricted alike"),
        ([twin.TilingSearch(**spec._asdict())], "compiled kernel"),
    ]:
        with pytest.raises(TilingError, match=why):
            compiled.BoardSweep(search, helpers=helpers)
    search.restrict([0])
    alone = make_search(spec)
    alone.restrict([0])
    assert _swept(compiled.BoardSweep(search, helpers=[restricted])) == alone.count()


def test_signals_between_the_phases_of_a_threaded_sweep_lose_nothing(require_compiled):
    """SIGINT every few milliseconds, its handler raising KeyboardInterrupt: a
    sweep in two threads is stopped again and again (while a table doubles,
    or between two runs), taken up each time, and ends with the count, the
    boards and the moves of a sweep left alone. (A sweep stopped while it
    doubles a table starts that doubling over: the signals come less and
    less often, or those of 8x10's larger tables would stop it for ever.)"""
    compiled = require_compiled("_tiling")
    spec = _spec("8x10", "pentominoes")  # tables past a slice of a doubling
    alone = _threaded(compiled, spec, 2)
    truth = _swept(alone, 1 << 20)
    sweep = _threaded(compiled, spec, 2)
    armed, stops, stop = [False], 0, threading.Event()

    def handler(signum, frame) -> None:
        if armed[0]:  # only inside the try below
            armed[0] = False
            raise KeyboardInterrupt

    def pester() -> None:  # a stopped doubling starts over: each signal waits longer
        wait = 0.002
        while not stop.wait(wait):
            os.kill(os.getpid(), signal.SIGINT)
            wait *= 1.1

    previous = signal.signal(signal.SIGINT, handler)
    pest = threading.Thread(target=pester)
    pest.start()
    try:
        while True:
            try:
                armed[0] = True
                if sweep.run(20000):
                    break
            except KeyboardInterrupt:
                stops += 1
            finally:
                armed[0] = False
    finally:
        stop.set()
        pest.join()
        time.sleep(0.01)  # a signal still on its way meets the disarmed handler
        signal.signal(signal.SIGINT, previous)
    assert stops >= 5
    assert sweep.count == truth == 75996685446347
    assert (sweep.states, sweep.moves) == (alone.states, alone.moves)


def test_jobs_sweep_a_count_in_threads(require_compiled, monkeypatch):
    require_compiled("_tiling")
    threads: list[int] = []
    start = _sweep._Sweeps._start

    def counted(self, part):
        sweep = start(self, part)
        threads.append(sweep.threads)
        return sweep

    monkeypatch.setattr(_sweep._Sweeps, "_start", counted)
    monkeypatch.setattr(_executors, "available_cores", lambda: 3)
    problem = tile("6x10", "pentominoes", reuse=True)
    for jobs_, expected in [(2, 2), (0, 3), (1, None)]:  # jobs=1: no long-run option, no driver
        threads.clear()
        assert problem.count(jobs=jobs_) == 7845888732
        assert threads == ([expected] if expected else [])
    threads.clear()
    assert problem.count(jobs=1, progress=lambda p: None) == 7845888732
    assert threads == [1]
    threads.clear()
    with pytest.warns(RuntimeWarning, match="5 threads asked for but 3 cores: using 3"):
        assert problem.count(jobs=5) == 7845888732
    assert threads == [3]


def test_past_2_to_the_64_the_sweep_widens_its_ways_and_counts_exactly(require_compiled):
    """5x27 by the trominoes has more tilings than 64 bits hold: the compiled
    sweep, in one thread or two, widens its ways to 128 bits and counts them
    as the readable twin's sweep and memoized search do; its saves then carry
    the high words, and each twin takes up the other's, narrow or wide."""
    compiled = require_compiled("_tiling")
    spec = _spec("5x27", "free:3")
    exact = twin.TilingSearch(**spec._asdict()).count()
    assert exact >= 1 << 64
    assert _swept(twin.BoardSweep(twin.TilingSearch(**spec._asdict()))) == exact
    for threads in (1, 2):
        sweep = _threaded(compiled, spec, threads)
        assert not sweep.wide
        assert _swept(sweep, 50) == exact and sweep.wide
        assert _swept(_threaded(compiled, spec, threads), 1 << 20) == exact  # wide within a run
    assert tile("5x27", "free:3", reuse=True).count() == exact
    assert tile("5x27", "free:3", reuse=True).count(jobs=2) == exact

    def most(sweep) -> int:  # the twin's largest ways held
        return max((w for layer in sweep._layers.values() for w in layer.values()), default=0)

    def part_way(sweep, wide: bool):
        while not (sweep.wide if wide else most(sweep) >> 50):
            sweep.run(20)
        return sweep

    def fresh(kernel, threads=1):
        if kernel is twin:
            return twin.BoardSweep(twin.TilingSearch(**spec._asdict()))
        return _threaded(compiled, spec, threads)

    wide_magic = array.array("Q", [twin.SWEEP_MAGIC_WIDE]).tobytes()
    compiled_wide = _saved(part_way(fresh(compiled), True))
    assert compiled_wide.startswith(wide_magic)
    late = part_way(fresh(twin), False)
    twin_late = _saved(late)  # ways past 2**50, narrow
    assert most(late) < 1 << 64 and not twin_late.startswith(wide_magic)
    for data in (compiled_wide, twin_late):
        for kernel, threads in ((twin, 1), (compiled, 1), (compiled, 2)):
            sweep = fresh(kernel, threads)
            sweep.load(io.BytesIO(data))
            if kernel is compiled:
                assert sweep.wide  # loaded so, or widened for the large ways
            assert _swept(sweep, 100) == exact
    twin_wide = fresh(twin)
    while not (most(twin_wide) >> 64 or twin_wide._total >> 64):  # the last board, or done
        twin_wide.run(1)
    data = _saved(twin_wide)
    assert data.startswith(wide_magic)  # some ways past 2**64 - 1
    sweep = fresh(compiled)
    sweep.load(io.BytesIO(data))
    assert _swept(sweep) == exact


def test_sums_at_the_edges_of_64_and_128_bits(require_compiled):
    """Hand-made saves of 4x9 by the trominoes at its last layer (the full board):
    a narrow sweep whose count passes 2**64 - 1 saves it whole; sums past
    2**128 - 1, of the counts of two threads or of one thread's boards, are
    refused, not wrapped round to 0."""
    compiled = require_compiled("_tiling")
    spec = _spec("4x9", "free:3")
    n, low = spec.ncells, (1 << 64) - 1
    assert n <= 64  # a board is one word

    def save(found: int, ways: list[int], wide: bool) -> io.BytesIO:
        head = [twin.SWEEP_MAGIC_WIDE if wide else twin.SWEEP_MAGIC, 1, n, n]
        head += [found & low, 0, 0, 1] + ([found >> 64] if wide else [])
        boards = [n, len(ways)]
        for w in ways:
            boards += [w & low, (1 << n) - 1] + ([w >> 64] if wide else [])
        return io.BytesIO(array.array("Q", head + boards).tobytes())

    sweep = compiled.BoardSweep(make_search(spec))
    sweep.load(save(low, [5], False))
    assert _swept(sweep) == (1 << 64) + 4 and not sweep.wide
    again = compiled.BoardSweep(make_search(spec))
    again.load(io.BytesIO(_saved(sweep)))
    assert _swept(again) == (1 << 64) + 4
    top = (1 << 128) - 1
    for threads in (1, 2):
        for found, ways in ((1, [top]), (0, [1, top])):
            sweep = _threaded(compiled, spec, threads)
            sweep.load(save(found, ways, True))
            with pytest.raises(TilingError, match="2\\*\\*128"):
                _swept(sweep)


def test_a_count_past_2_to_the_64_resumes_from_its_wide_checkpoint(
    require_compiled, monkeypatch, tmp_path
):
    """Stopped at one progress report after another, a 7x27 count by trominoes
    saves its sweep, narrow before its ways widen and wide after, and the same
    call goes on from each save to the OEIS count."""
    require_compiled("_tiling")
    monkeypatch.setattr(_sweep, "STEP_SECONDS", 0.0)
    monkeypatch.setattr(_sweep.time, "monotonic", iter(range(0, 1 << 40, 10)).__next__)
    problem = tile("7x27", "free:3", reuse=True)
    kinds = set()
    for stop in range(1, 720, 37):  # 64 boards a step: about 680 steps, wide from the 350th
        path = tmp_path / f"run{stop}.ckpt"
        _, progress = _first_progress_and_stop(stop)
        try:
            problem.count(checkpoint=path, progress=progress)
            break  # done before that report
        except jobs.Interrupted:
            pass
        data = path.read_bytes().partition(b"\n")[2]
        kinds.add(data[:8] == array.array("Q", [twin.SWEEP_MAGIC_WIDE]).tobytes())
        assert problem.count(checkpoint=path) == 43734844458505039459034141789
    assert kinds == {False, True}


def test_a_sweep_needs_free_pieces(require_compiled):
    compiled = require_compiled("_tiling")
    spec = tile("5x4", "pentominoes", optional=True).searches.over().spec
    for search in [make_search(spec), twin.TilingSearch(**spec._asdict())]:
        module = twin if isinstance(search, twin.TilingSearch) else compiled
        with pytest.raises(TilingError, match="free pieces"):
            module.BoardSweep(search)


def test_past_its_memory_a_sweep_stops_and_the_count_goes_on_by_the_search(
    require_compiled, monkeypatch
):
    """Both twins raise MemoryError past the budget; a count then searches
    depth first with its memo, and gets the same number."""
    compiled = require_compiled("_tiling")
    spec = _spec("7x10", "pentominoes")
    helper = make_search(spec)
    for sweep in [
        compiled.BoardSweep(make_search(spec), budget=1 << 20),
        compiled.BoardSweep(make_search(spec), budget=1 << 20, helpers=[helper]),
        twin.BoardSweep(twin.TilingSearch(**spec._asdict()), budget=1 << 20),
    ]:
        with pytest.raises(MemoryError):
            _swept(sweep, 1 << 16)
    monkeypatch.setattr(counting, "memo_bytes", lambda: 1 << 20)
    monkeypatch.setattr(_sweep, "memo_bytes", lambda: 1 << 20)
    seen: list = []
    with pytest.warns(RuntimeWarning, match="memory .*counting by the search instead"):
        assert tile("7x10", "pentominoes", reuse=True).count() == 756605877809
    with pytest.warns(RuntimeWarning, match="counting by the search instead"):
        assert tile("7x10", "pentominoes", reuse=True).count(progress=seen.append) == 756605877809
    assert seen and all(isinstance(p, jobs.Progress) and p.unit == "subtasks" for p in seen)


def test_a_sweep_saved_by_an_earlier_run_is_kept_when_it_outgrows_the_memory(
    require_compiled, monkeypatch, tmp_path
):
    """The budget follows the memory free when a count starts, so it can be
    smaller than when a sweep was saved: such a sweep is refused, whether it
    does not fit as loaded or outgrows the budget later, and its file left as
    it was, to go on once the memory is there. A sweep this run began and
    saved is removed, and the count goes on by the search, with a warning."""
    compiled = require_compiled("_tiling")
    monkeypatch.setattr(_sweep, "STEP_SECONDS", 0.01)
    path = tmp_path / "run.ckpt"
    problem = tile("8x10", "pentominoes", reuse=True)
    _, progress = _first_progress_and_stop(6)
    with pytest.raises(jobs.Interrupted):
        problem.count(checkpoint=path, progress=progress)
    saved = path.read_bytes()
    loaded = compiled.BoardSweep(make_search(_spec("8x10", "pentominoes")))
    with open(path, "rb") as handle:
        handle.readline()
        loaded.load(handle)
    for budget in [1 << 16, loaded.size * 2]:  # too small to load; too small to go on
        assert budget < 32 << 20  # the tables reach 60 MB
        monkeypatch.setattr(_sweep, "memo_bytes", lambda budget=budget: budget)
        with pytest.raises(jobs.CheckpointError, match="POLYFORMS_MEMO.*remove the file"):
            problem.count(checkpoint=path)
        assert path.read_bytes() == saved
    monkeypatch.setattr(_sweep, "memo_bytes", lambda: 1 << 30)
    assert problem.count(checkpoint=path) == 75996685446347

    monkeypatch.setattr(_sweep, "SAVE_SECONDS", 0.0)  # a save at every step
    monkeypatch.setattr(_sweep, "SAVE_SHARE", 0)
    monkeypatch.setattr(_sweep, "memo_bytes", lambda: 4 << 20)
    monkeypatch.setattr(counting, "memo_bytes", lambda: 4 << 20)
    fresh = tmp_path / "fresh.ckpt"
    with pytest.warns(RuntimeWarning, match="counting by the search instead"):
        assert tile("7x10", "pentominoes", reuse=True).count(checkpoint=fresh) == 756605877809
    assert b'"sweep"' not in fresh.read_bytes().partition(b"\n")[0]  # the job layer's journal


def _first_progress_and_stop(after: int):
    """A progress callback that stops the run (as Ctrl-C would) at its ``after``-th call."""
    calls = []

    def progress(p: jobs.Progress) -> None:
        calls.append(p)
        if len(calls) == after:
            raise KeyboardInterrupt

    return calls, progress


def test_a_count_by_sweeps_resumes_from_its_checkpoint(require_compiled, monkeypatch, tmp_path):
    """Stopped by a signal, a sweep saves itself (it is small); the same call
    goes on from there to the count of an uninterrupted run, and a finished
    checkpoint answers at once."""
    require_compiled("_tiling")
    monkeypatch.setattr(_sweep, "STEP_SECONDS", 0.01)
    path = tmp_path / "run.ckpt"
    problem = tile("8x10", "pentominoes", reuse=True)
    calls, progress = _first_progress_and_stop(5)
    with pytest.raises(jobs.Interrupted) as stopped:
        problem.count(checkpoint=path, progress=progress)
    assert stopped.value.exit_status == 130 and stopped.value.saved == 0
    assert "saved in the checkpoint" in stopped.value.message("run it again")
    header = json.loads(path.read_bytes().partition(b"\n")[0])
    assert header["sweep"] == 1 and header["part"] == 0
    where = stopped.value.done
    assert 0 < where < 80 and all(p.unit == "cells" for p in calls)
    resumed = []
    assert problem.count(checkpoint=path, progress=resumed.append) == 75996685446347
    assert resumed[0].done >= where  # it went on from where it stopped
    assert resumed[-1].fraction == 1.0 and resumed[-1].eta == 0.0
    header = json.loads(path.read_bytes().partition(b"\n")[0])
    assert header["part"] == 1 and header["found"] == 75996685446347
    began = time.monotonic()
    assert problem.count(checkpoint=path) == 75996685446347
    assert time.monotonic() - began < 0.5


def test_a_large_sweep_is_not_saved_at_a_signal(require_compiled, monkeypatch, tmp_path):
    """Saving gigabytes would outlast the two seconds a stop may take: above
    SAVE_AT_STOP the last periodic save stands, and the message says how old it is."""
    require_compiled("_tiling")
    monkeypatch.setattr(_sweep, "STEP_SECONDS", 0.01)
    monkeypatch.setattr(_sweep, "SAVE_AT_STOP", 0)
    path = tmp_path / "run.ckpt"
    calls, progress = _first_progress_and_stop(4)
    with pytest.raises(jobs.Interrupted) as stopped:
        tile("8x10", "pentominoes", reuse=True).count(checkpoint=path, progress=progress)
    assert stopped.value.saved == float("inf")
    assert stopped.value.message("run it again").endswith(", nothing saved yet")
    assert not path.exists()  # stopped before its first save: nothing written


def test_a_sweep_checkpoint_of_another_count_or_damaged_is_refused(
    require_compiled, monkeypatch, tmp_path
):
    require_compiled("_tiling")
    monkeypatch.setattr(_sweep, "STEP_SECONDS", 0.0)
    path = tmp_path / "run.ckpt"
    _, progress = _first_progress_and_stop(1)
    with pytest.raises(jobs.Interrupted):
        tile("6x10", "pentominoes", reuse=True).count(checkpoint=path, progress=progress)
    before = path.read_bytes()
    with pytest.raises(PolyformError, match="another command"):
        tile("5x10", "pentominoes", reuse=True).count(checkpoint=path)
    for damaged, why in [
        (b"hello\n", "not a polyforms checkpoint"),
        (before[:-3], "ends early"),
        (before + b"x", "past its end"),
        (before.replace(b'"part": 0', b'"part": 7'), "damaged sweep header"),
    ]:
        path.write_bytes(damaged)
        with pytest.raises(PolyformError, match=why):
            tile("6x10", "pentominoes", reuse=True).count(checkpoint=path)
        assert path.read_bytes() == damaged  # left as it was


def test_a_journal_of_the_job_layer_goes_on_in_the_job_layer(require_compiled, tmp_path):
    """A count journalled by subtasks (an executor given) resumes by subtasks
    even where a count would sweep."""
    require_compiled("_tiling")
    path = tmp_path / "run.ckpt"
    problem = tile("6x10", "pentominoes", reuse=True)
    assert problem.count(checkpoint=path, executor=jobs.InProcess()) == 7845888732
    journal = path.read_bytes()
    assert b'"sweep"' not in journal.partition(b"\n")[0]
    assert problem.count(checkpoint=path) == 7845888732
    assert path.read_bytes() == journal  # read, not replaced by a sweep


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc")
@pytest.mark.parametrize(
    "signum,status,jobs_",
    [(signal.SIGINT, 130, 1), (signal.SIGTERM, 143, 1), (signal.SIGHUP, 129, 1),
     (signal.SIGINT, 130, 2), (signal.SIGTERM, 143, 2)],
)  # fmt: skip
def test_signals_stop_a_sweep_and_it_resumes(
    require_compiled, cli, tmp_path, signum, status, jobs_
):
    require_compiled("_tiling")  # the readable twin takes minutes over 8x10
    path = tmp_path / "run.ckpt"
    command = [
        sys.executable, "-m", "polyforms.cli", "tile", "8x10", "--pieces", "pentominoes",
        "--reuse", "--count", "--checkpoint", str(path), "--jobs", str(jobs_),
    ]  # fmt: skip
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    time.sleep(0.8)  # started (0.3 s), not done (8x10 sweeps in 1.4 s in two threads)
    sent = time.monotonic()
    os.kill(child.pid, signum)
    out, err = child.communicate(timeout=10)
    assert time.monotonic() - sent < 2.0
    assert child.returncode == status, err
    assert out == "" and "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith("polyforms tile: interrupted by SIG") and "cells" in err
    assert "run the same command again to resume" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.ckpt"]  # no temporary file
    done = cli(*command[3:])
    assert done.returncode == 0 and done.stdout == "75996685446347\n", done.stderr


def test_a_signal_waits_for_the_step_of_the_readable_sweep(monkeypatch, tmp_path):
    """The readable twin's sweep is not stopped in the middle of a board (some of
    its moves made, the board still to do): SIGINT, sent while it runs, ends
    the run after its step, the save goes on to the right count."""
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    path = tmp_path / "run.ckpt"
    problem = tile("6x10", "pentominoes", reuse=True)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(jobs.Interrupted) as stopped:
            problem.count(checkpoint=path)
    finally:
        timer.cancel()
    assert stopped.value.saved == 0 and 0 < stopped.value.done < 60
    assert problem.count(checkpoint=path) == 7845888732


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_checkpoint_the_sweep_cannot_use_is_refused_before_counting(tmp_path, monkeypatch):
    """A FIFO as the checkpoint would block the count for ever (the sweep reads
    it), and a missing directory would be met only at the first save, after the
    count had run: both are refused before any work."""
    calls: list = []
    monkeypatch.setattr(_sweep._Sweeps, "_start", lambda self, part: calls.append(part))
    problem = tile("3x10", "pentominoes", reuse=True)
    fifo = tmp_path / "f.ckpt"
    os.mkfifo(fifo)
    with pytest.raises(jobs.CheckpointError, match="not a regular file"):
        problem.count(checkpoint=fifo)
    with pytest.raises(PolyformError, match="does not exist"):
        problem.count(checkpoint=tmp_path / "missing" / "z.ckpt")
    assert calls == []  # no sweep started

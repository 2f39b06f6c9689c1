"""Long runs on the job layer: 1 and 2 local workers, a 2-worker Dask LocalCluster,
the ETA the progress bar would show, and --estimate against the truth.

Usage::

    python scripts/bench_parallel.py [--runs 3] [--rows NAME ...] [--no-dask]

For each row it prints the median wall time with one worker (in-process,
unsplit: the plain search), with two worker processes and with a two-worker
Dask LocalCluster (``--dask local``'s, started before timing), the median
ratios to one worker (one worker and a parallel run take turns in each round,
and a round's ratios compare its own runs, so a change in the machine's speed
meanwhile cancels out), the tail of each parallel run (seconds from the first
worker going idle for good to the end of the run: the cost of lopsided
subtasks), the ETA the run reported at 10 %, 25 % and 50 % of its real time
as a fraction of the real total (1.00 is perfect), and the ``--estimate``
figure against the true count. The ETA comes from runs with two workers
(medians of ``--runs``).
The "pair" column is the row's own ceiling: its one-worker run done twice at
once in two forked processes (nothing cut, sent or merged), over twice one
run, taking turns with the other two in each round. Two cores of a virtual
machine do not give two of one: on the Intel host of 2026-11-27 this read
0.44-0.78 on 8x8 + square within a minute, median about 0.55. A parallel
ratio at or below the pair is as good as the machine allows; the difference
is what the job layer costs (planning, messages, the last subtask).
Everything runs in this process through the library API, as the command
line does. Output files are removed after each run, outside its time (the
command does not remove them; deleting 2 GB takes the system about 1 s).

At the start and the end it prints what two processes of a pure CPU loop
take against the same loops one after the other: how the machine shares its
cores at that time, for a loop that touches little memory.

The Dask cluster runs only while its column is timed: idle, its scheduler,
nanny and worker processes still wake up many times a second, which made
two worker processes 3 % slower on 8x8 + square (0.68 s against 0.66 s) and
one worker 0.5 %. Its column's ratios compare it with one-worker runs made
while it was up.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import polyforms as pf
from polyforms import jobs
from polyforms.enumeration import generate as enumeration
from polyforms.enumeration import redelmeier
from polyforms.files import catalogue


def _square_set():
    shapes = dict(pf.pieces("pentominoes"))
    shapes["Q"] = pf.Polyform([(0, 0), (0, 1), (1, 0), (1, 1)])
    return shapes


# Files a row wrote, removed after the timed call.
_WRITTEN: list[str] = []
# Where rows write their files: this process's temporary directory; a child of
# the "pair" column writes in one of its own.
_WHERE: list[str] = []


def _remove_written() -> None:
    while _WRITTEN:
        os.unlink(_WRITTEN.pop())


def _rows():
    def tile_345(**long_run):
        return pf.tile("3x4x5", "solid-pentominoes").count(distinct=True, **long_run)

    def square_8x8(**long_run):
        return pf.tile("8x8", _square_set()).count(**long_run)

    def fixed_18(**long_run):
        return redelmeier.count(18, **long_run)

    def free_16(**long_run):
        target = os.path.join(_WHERE[0], "free16.jsonl")
        _WRITTEN.append(target)
        return catalogue.write_polyforms(16, target, "jsonl", kind="free", **long_run)

    exact_cover = pf.tile("6x10", "pentominoes").to_exactcover()

    def solve_6x10(**long_run):
        return exact_cover.count(**long_run)

    def listing_6x10(**long_run):
        target = os.path.join(_WHERE[0], "6x10.txt")
        _WRITTEN.append(target)
        return pf.tile("6x10", "pentominoes").write(target, "txt", **long_run)

    return {
        "tile 6x10 -o x.txt (listing)": (
            listing_6x10, 9356, lambda: pf.tile("6x10", "pentominoes").estimate().solutions, 9356
        ),
        "solve 6x10 --count (exact cover)": (
            solve_6x10, 9356, lambda: exact_cover.estimate().solutions, 9356
        ),
        "tile 3x4x5 --distinct --count": (
            tile_345, 3940,
            lambda: pf.tile("3x4x5", "solid-pentominoes").estimate().solutions, 31520,
        ),
        "8x8 pentominoes + square --count": (
            square_8x8, 129168, lambda: pf.tile("8x8", _square_set()).estimate().solutions, 129168
        ),
        "enumerate 18 --kind fixed --count": (
            fixed_18, 1540820542, lambda: redelmeier.estimate(18).solutions, 1540820542
        ),
        "enumerate 16 --kind free -o x.jsonl": (
            free_16, 13079255, lambda: enumeration.estimate(16, kind="free").solutions, 13079255
        ),
    }  # fmt: skip


#: The setup of the "pair" column: the row's one-worker run in two processes at once
#: (its time is halved: twice the work).
_PAIR: dict = {}


def _time(run, runs: int, setups: dict[str, dict]) -> tuple[dict[str, tuple], object]:
    """For each setup (long-run options, ``{}`` for one worker): the median wall time,
    the median ratio to one worker and the median tail of its executor (seconds from
    the first worker going idle for good to the end; 0 without one); and the result,
    the same for all.

    The setups take turns within each round, so a change in the machine's speed
    during the runs (other work, the host's load) reaches all of them alike and a
    ratio compares runs made side by side.
    """
    times: dict[str, list[float]] = {name: [] for name in setups}
    tails: dict[str, list[float]] = {name: [] for name in setups}
    results = set()
    for _ in range(runs):
        for name, long_run in setups.items():
            start = time.perf_counter()
            if long_run is _PAIR:
                _in_two_processes(run)
                times[name].append((time.perf_counter() - start) / 2)  # twice the work
            else:
                results.add(run(**long_run))
                times[name].append(time.perf_counter() - start)
            _remove_written()
            executor = long_run.get("executor")
            tails[name].append(executor.tail if executor is not None else 0.0)
    assert len(results) == 1, results
    one = times[next(iter(setups))]
    cells = {
        name: (
            statistics.median(times[name]),
            statistics.median(t / o for t, o in zip(times[name], one)),
            statistics.median(tails[name]),
        )
        for name in setups
    }
    return cells, results.pop()


def _in_two_processes(run) -> None:
    """Run ``run()`` (one worker, in-process) in two forked processes at once, each
    writing its files in a directory of its own, and wait for both.

    Twice the work on two cores with nothing shared, cut or sent: the wall time
    over twice one run is the best ratio a parallel run of this row can read on
    the machine at that time (its cores' and memory's own contention; a pure
    Python loop, which touches little memory, reads lower).
    """
    places = [tempfile.mkdtemp() for _ in range(2)]
    failed = _at_once(_run_in, [(run, place) for place in places])
    for place in places:
        for name in os.listdir(place):
            os.unlink(os.path.join(place, name))
        os.rmdir(place)
    if failed:
        raise SystemExit("a run of the pair failed")


def _run_in(run, place: str) -> None:
    _WHERE[0] = place
    run()


def _at_once(target, calls: list[tuple]) -> bool:
    """Run ``target(*args)`` for each ``args`` of ``calls`` in forked processes at
    once and wait for all; True if any failed."""
    import multiprocessing

    context = multiprocessing.get_context("fork" if os.name == "posix" else None)
    workers = [context.Process(target=target, args=args) for args in calls]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return any(worker.exitcode for worker in workers)


def _eta_shares(run, runs: int) -> list[float | None]:
    """Predicted total at 10, 25 and 50 % of the real time, over the real time
    (medians of ``runs`` runs; None where no ETA was shown yet in most).

    The prediction at a moment is the time since the call began plus the ETA
    then shown: what a user reading the bar expects. (The bar's own elapsed
    time starts after the plan, so elapsed + ETA leaves the planning out; an
    exact-cover count plans for a sixth of its 1.3 seconds.)
    """
    found = [_eta_run(run) for _ in range(runs)]
    medians: list[float | None] = []
    for k in range(3):
        shown = [shares[k] for shares in found if shares[k] is not None]
        medians.append(statistics.median(shown) if len(shown) * 2 > runs else None)
    return medians


def _eta_run(run) -> list[float | None]:
    seen: list[tuple[float, jobs.Progress]] = []
    start = time.perf_counter()
    run(jobs=2, progress=lambda progress: seen.append((time.perf_counter() - start, progress)))
    total = time.perf_counter() - start
    _remove_written()
    shares: list[float | None] = []
    for share in (0.10, 0.25, 0.50):
        before = [(at, p.eta) for at, p in seen if at <= share * total and p.eta is not None]
        shares.append(None if not before else (before[-1][0] + before[-1][1]) / total)
    return shares


def _spin(n: int = 5_000_000) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def _machine_scaling(rounds: int = 5) -> float:
    """Two processes of a pure CPU loop against the same loops one after the other
    (median ratio of ``rounds``): what two cores give at best on this machine now.
    On the project's 2-core VM it ranged 0.46-0.62 within minutes (median
    0.50-0.52), so a ratio of a row is only as steady as this."""
    ratios = []
    for _ in range(rounds):
        start = time.perf_counter()
        _spin()
        _spin()
        serial = time.perf_counter() - start
        start = time.perf_counter()
        _at_once(_spin, [(), ()])
        ratios.append((time.perf_counter() - start) / serial)
    return statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per cell (median)")
    parser.add_argument("--rows", nargs="*", help="only rows whose name contains one of these")
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask column")
    args = parser.parse_args()
    _WHERE.append(tempfile.mkdtemp())
    rows = _rows()
    if args.rows:
        rows = {k: v for k, v in rows.items() if any(word in k for word in args.rows)}
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {args.runs} runs per cell (median)")
    print(f"two processes of a pure CPU loop: {_machine_scaling():.2f} of one after the other")
    header = (
        f"{'row':38} {'1 worker':>9} {'2 procs':>9} {'ratio':>6} {'pair':>6} {'tail':>6} "
        f"{'dask 2':>9} "
        f"{'ratio':>6} {'tail':>6} {'ETA@10%':>8} {'ETA@25%':>8} {'ETA@50%':>8} {'estimate':>9}"
    )
    print(header)
    for name, (run, truth, estimate, estimate_truth) in rows.items():
        with jobs.Processes(2) as processes:
            setups = {"one": {}, "procs": {"executor": processes}, "pair": _PAIR}
            found, result = _time(run, args.runs, setups)
        assert result == truth, (name, result)
        if not args.no_dask:
            # What --dask local runs; started before timing (it takes 1-2 s).
            with jobs.Dask("local", workers=2) as cluster:
                jobs.run_sum(jobs.StaticJob("start", [jobs.Task("0", abs, (0,))]), executor=cluster)
                on_dask, result = _time(run, args.runs, {"one": {}, "dask": {"executor": cluster}})
            assert result == truth, (name, result)
            found["dask"] = on_dask["dask"]
        one, _, _ = found["one"]
        two, two_ratio, two_tail = found["procs"]
        _, pair_ratio, _ = found["pair"]
        dask, dask_ratio, dask_tail = found.get("dask", (float("nan"),) * 3)
        etas = _eta_shares(run, args.runs)
        guess = estimate() / estimate_truth
        cells = " ".join(f"{e:8.2f}" if e is not None else f"{'-':>8}" for e in etas)
        print(
            f"{name:38} {one:8.2f}s {two:8.2f}s {two_ratio:6.2f} {pair_ratio:6.2f} "
            f"{two_tail:5.2f}s {dask:8.2f}s {dask_ratio:6.2f} {dask_tail:5.2f}s "
            f"{cells} {guess:9.2f}"
        )
    print(f"two processes of a pure CPU loop: {_machine_scaling():.2f} of one after the other")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

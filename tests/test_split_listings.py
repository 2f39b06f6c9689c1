"""Listings, coloured counts and exact-cover estimates on the job layer.

Tiling listings and ``polyforms solve`` listings written by subtasks must be
byte-identical to one process on every executor, resume from a checkpoint
running only the missing subtasks, and leave no partial file when stopped.
"""

from __future__ import annotations

import itertools
import os
import signal
import statistics
import sys
import time

import pytest

import polyforms as pf
from polyforms import jobs
from polyforms.exactcover import Coloured, ExactCover, solve_listing
from polyforms.exactcover.cores import engine_for, new_search
from polyforms.exactcover.flat import numbered
from polyforms.exactcover.listings import SolveListingJob
from polyforms.files.chunks import split_chunk
from polyforms.files.solutions import write_tilings
from polyforms.tiling.listings import TilingListingJob

# The 8x8 board without its central 2x2: 65 classes of pentomino tilings, listed
# by two restricted searches (breaker placements with trivial and order-2 stabilisers).
CENTRE_HOLE = "\n".join(["#" * 8] * 3 + ["###..###"] * 2 + ["#" * 8] * 3) + "\n"


def _one_process(problem, path, fmt, distinct, steady=False) -> bytes:
    tilings = problem.solutions(distinct=distinct)
    if steady:
        tilings = map(problem.steady, tilings)
    write_tilings(tilings, path, fmt)
    return path.read_bytes()


LISTINGS = [
    # (region, pieces, options, distinct, fmt, steady)
    (CENTRE_HOLE, "pentominoes", {}, True, "txt", False),
    (CENTRE_HOLE, "pentominoes", {}, True, "jsonl", True),
    ("3x5", "tetrominoes", {"optional": True, "open": 3}, False, "jsonl", False),
    ("4x5", "free:4", {"reuse": True}, True, "txt", False),
]


def test_tiling_listings_are_byte_identical_on_every_executor(tmp_path, executors):
    for region, pieces, options, distinct, fmt, steady in LISTINGS:
        problem = pf.tile(region, pieces, **options)
        expected = _one_process(problem, tmp_path / f"one.{fmt}", fmt, distinct, steady)
        tilings = problem.count(distinct=distinct)
        assert expected.count(b"\n" if fmt == "jsonl" else b"\n\n") == tilings > 0
        for k, (name, long_run) in enumerate(executors().items()):
            target = tmp_path / f"out{k}.{fmt}"
            written = problem.write(target, fmt, distinct=distinct, steady=steady, **long_run)
            assert target.read_bytes() == expected, (region[:5], pieces, name)
            assert written == tilings, (region[:5], pieces, name)
        # the tilings themselves, read back from the subtasks' chunks, in the same order
        split = list(problem.solutions(distinct=distinct, jobs=2))
        assert [tuple(t) for t in split] == [tuple(t) for t in problem.solutions(distinct)]


def children(search, prefix: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The prefixes one level below ``prefix``, in the order the kernel's search takes them."""
    return [prefix + (p,) for p in search.branch(prefix) or ()]


def test_a_listing_is_split_in_search_order():
    problem = pf.tile(CENTRE_HOLE, "pentominoes")
    job = TilingListingJob(problem, True, "txt", False, children)
    planned = jobs.plan(job, 2)
    parts = [task.args[3] for task in planned]
    assert len(planned) > 16 and parts == sorted(parts) and set(parts) == {0, 1}
    body = b"".join(split_chunk(task.function(*task.args))[1] for task in planned)
    assert body.count(b"\n\n") == 65


def test_a_solve_listing_is_weighed_and_refined_in_search_order():
    # Knuth's probes weigh its subtasks; jobs.plan cuts the heavy ones, whose
    # children come in search order, so the chunks still make the listing.
    from polyforms.exactcover.dlxformat import format_solution

    problem = pf.examples.queens(8)
    texts = [" ".join(map(str, problem.constraints_of(c))) for c in problem.choices]
    index = {choice: o for o, choice in enumerate(problem.choices)}
    expected = "".join(
        format_solution(texts, [index[c] for c in solution]) for solution in problem.solutions()
    ).encode()
    job = SolveListingJob(problem, texts)
    assert len({task.weight for task in job.tasks()}) > 1
    planned = jobs.plan(job, 32)  # tasks above 1/128 of the whole are cut
    assert any("." in task.id for task in planned)
    body = b"".join(split_chunk(task.function(*task.args))[1] for task in planned)
    assert body == expected


def test_solve_listings_are_byte_identical_on_every_executor(tmp_path, executors):
    from polyforms.exactcover.dlxformat import format_solution

    for problem in (pf.examples.queens(8), ExactCover.from_dlx(pf.examples.queens(6).to_dlx())):
        texts = [" ".join(map(str, problem.constraints_of(c))) for c in problem.choices]
        index = {choice: o for o, choice in enumerate(problem.choices)}
        expected = "".join(
            format_solution(texts, [index[c] for c in solution]) for solution in problem.solutions()
        ).encode()
        for k, (name, long_run) in enumerate(executors().items()):
            target = tmp_path / f"solve{k}.txt"
            written = solve_listing(problem, texts, target, long_run)
            assert target.read_bytes() == expected, name
            assert written == problem.count()


def test_cli_listings_split_give_the_same_output(cli, tmp_path):
    one = cli("solve", "-", stdin=pf.examples.queens(6).to_dlx())
    two = cli("solve", "-", "--jobs", "2", stdin=pf.examples.queens(6).to_dlx())
    assert two.returncode == 0 and two.stdout == one.stdout and one.stdout.count("\n\n") == 4
    target = tmp_path / "distinct.txt"
    done = cli("tile", "4x5", "--pieces", "free:4", "--reuse", "--distinct", "-o", str(target),
               "--jobs", "2", "--checkpoint", str(tmp_path / "run.ckpt"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    alone = cli("tile", "4x5", "--pieces", "free:4", "--reuse", "--distinct")
    assert target.read_text() == alone.stdout


def test_a_tiling_listing_resumes_to_the_same_bytes(in_process, tmp_path):
    problem = pf.tile(CENTRE_HOLE, "pentominoes")
    expected = _one_process(problem, tmp_path / "expected.txt", "txt", True)
    target, journal = tmp_path / "out.txt", tmp_path / "out.ckpt"
    with pytest.raises(jobs.Interrupted) as stopped:
        problem.write(target, "txt", distinct=True, checkpoint=journal, executor=in_process(12))
    assert not target.exists()  # nothing half-written at the destination
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []
    assert stopped.value.done == 11 < stopped.value.total  # the subtasks before the 12th
    resumed = in_process()
    assert problem.write(target, "txt", distinct=True, checkpoint=journal, executor=resumed) == 65
    assert target.read_bytes() == expected
    # only the subtasks not journalled ran again
    assert len(resumed.ran) == stopped.value.total - stopped.value.done


def test_a_solve_listing_resumes_to_the_same_bytes(in_process, tmp_path):
    problem = pf.examples.queens(8)
    texts = [str(o) for o in range(len(problem))]
    expected, journal = tmp_path / "expected.txt", tmp_path / "solve.ckpt"
    solve_listing(problem, texts, expected, {"jobs": 1, "progress": lambda _: None})
    target = tmp_path / "out.txt"
    with pytest.raises(jobs.Interrupted) as stopped:
        solve_listing(problem, texts, target, {"checkpoint": journal, "executor": in_process(5)})
    assert not target.exists()
    assert stopped.value.done == 4 < stopped.value.total
    resumed = in_process()
    assert solve_listing(problem, texts, target, {"checkpoint": journal, "executor": resumed}) == 92
    assert target.read_bytes() == expected.read_bytes()
    assert len(resumed.ran) == stopped.value.total - stopped.value.done


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigint_stops_a_split_tiling_listing_and_leaves_no_file(tmp_path, processes):
    target = tmp_path / "tilings.txt"
    pieces = tmp_path / "pieces.txt"
    shapes = [str(shape) for shape in pf.pieces("pentominoes").values()]
    pieces.write_text("\n\n".join([*shapes, "QQ\nQQ"]) + "\n")
    command = [
        sys.executable, "-m", "polyforms.cli", "tile", "8x8", "--pieces", str(pieces),
        "-o", str(target), "--jobs", "2",
    ]  # fmt: skip
    child, workers = processes.start_with_workers(command, wait=30)
    assert len(workers) == 2, "the two workers never started"
    time.sleep(0.5)
    sent = time.monotonic()
    os.killpg(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=10)
    assert time.monotonic() - sent < 2.0
    assert child.returncode == 130, err
    assert out == "" and err.count("\n") == 1 and "subtasks done" in err, err
    assert all(processes.stat(pid)[0] in ("Z", "gone") for pid in workers)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pieces.txt"]  # no output, no .part


def test_coloured_counts_split_resume_and_agree(in_process, tmp_path, executors):
    words = ["ab", "ba", "aa", "bb", "ca", "ac", "cc", "bc", "cb", "abc", "bca", "cab"]
    problem = pf.examples.word_squares(words)
    # the cells are secondary constraints with colours: Algorithm C
    assert any(isinstance(k, Coloured) for c in problem.choices for k in problem.constraints_of(c))
    two = [word for word in words if len(word) == 2]  # the length word_squares takes
    brute = sum(
        1
        for a, b in itertools.product(two, repeat=2)
        if a[0] + b[0] in two and a[1] + b[1] in two and len({a, b, a[0] + b[0], a[1] + b[1]}) == 4
    )
    truth = problem.count()
    assert truth == brute == 30
    for name, long_run in executors().items():
        assert problem.count(**long_run) == truth, name
    journal = tmp_path / "colours.ckpt"
    with pytest.raises(jobs.Interrupted) as stopped:
        problem.count(checkpoint=journal, executor=in_process(3))
    assert stopped.value.done == 2 < stopped.value.total  # really split
    resumed = in_process()
    assert problem.count(checkpoint=journal, executor=resumed) == truth
    assert len(resumed.ran) == stopped.value.total - stopped.value.done


def test_exact_cover_estimate_is_unbiased():
    """Mean of many estimates (fixed seeds) within a few percent of the true size."""
    problem = pf.examples.queens(10)
    search = whole_search(problem)
    truth_solutions, truth_nodes = search.count(), search.nodes
    assert truth_solutions == 724  # A000170
    found = [problem.estimate(budget=0, seed=seed) for seed in range(150)]
    solutions = statistics.fmean(e.solutions for e in found)
    nodes = statistics.fmean(e.nodes for e in found)
    assert abs(solutions / truth_solutions - 1) < 0.05
    assert abs(nodes / truth_nodes - 1) < 0.05
    assert all(e.probes >= 2 for e in found)


def whole_search(problem: ExactCover):
    """The search of ``problem.count()`` on the default core, built from the problem's
    description: :func:`numbered` numbers the items and options as ExactCover
    does (the primary items in order, then the secondary ones)."""
    secondary = [k for k in problem.constraints if problem.is_secondary(k)]
    primary = [k for k in problem.constraints if not problem.is_secondary(k)]
    choices = {choice: problem.constraints_of(choice) for choice in problem.choices}
    flat = numbered(choices, secondary, None, primary).flat
    return new_search(engine_for(None, flat), flat, [], [])


def test_exact_cover_estimates_are_near_the_truth(cli):
    small = pf.examples.queens(8).estimate()
    search = whole_search(pf.examples.queens(8))
    # the tree is shallow: one exact count, of the whole search
    assert (small.solutions, small.nodes) == (search.count(), search.nodes) == (92, 1223)
    assert small.probes >= 2 and 0 < small.seconds < 1.0  # a count of 1223 nodes
    dlx = pf.examples.queens(12).to_dlx()
    result = cli("solve", "-", "--estimate", stdin=dlx)
    assert result.returncode == 0, result.stderr
    lines = [line.split() for line in result.stdout.splitlines()]
    assert [words[0] for words in lines] == ["nodes", "solutions", "seconds", "probes"]
    assert 14200 / 2 < float(lines[1][1]) < 14200 * 2  # A000170


def test_executors_measure_the_tail(dask_client):
    job = jobs.StaticJob(
        "tail", [jobs.Task("0", time.sleep, (0.6,)), jobs.Task("1", time.sleep, (0.0,))]
    )
    ran = [("0", None), ("1", None)]  # (task id, what time.sleep returns), in merge order
    with jobs.Processes(2) as processes:
        assert [(task.id, result) for task, result in jobs.run(job, executor=processes)] == ran
        assert 0.3 < processes.tail < 5
    on_dask = jobs.Dask(dask_client)
    assert [(task.id, result) for task, result in jobs.run(job, executor=on_dask)] == ran
    assert 0.3 < on_dask.tail < 5
    alone = jobs.InProcess()
    assert [(task.id, result) for task, result in jobs.run(job, executor=alone)] == ran
    assert alone.tail == 0.0

"""The job layer: ordered merging on every executor, resume, signals, planning, Knuth's estimator.

The toy search lists the binary strings of length L with no two adjacent 1s;
there are F(L + 2) of them (Fibonacci numbers: the oracle). A task is a prefix;
its children are the prefix extended by "0" and, if allowed, "1".
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from polyforms import jobs
from polyforms.errors import PolyformError
from polyforms.files.chunks import counted_chunk, write_chunk
from polyforms.jobs import (
    Checkpoint,
    CheckpointError,
    Continued,
    Dask,
    Estimate,
    InProcess,
    Interrupted,
    JobError,
    Pieces,
    Processes,
    Progress,
    Spooled,
    StaticJob,
    Task,
    estimate_partial,
    estimate_tree,
    estimate_weights,
    executor_from,
    plan,
    progress_bar,
    run,
    run_sum,
)
from polyforms.jobs import dask_cluster as _dask_cluster
from polyforms.jobs import executors as _executors
from polyforms.jobs import transport as _transport
from polyforms.jobs.checkpoint import plan_digest
from polyforms.jobs.dask_cluster import Batches
from polyforms.jobs.progress import RUNNING_CAP

# --------------------------------------------------------------------------
# The toy search (module level, so that tasks pickle)


def fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def completions(length: int, prefix: str) -> int:
    """Strings of ``length`` with no "11" that start with ``prefix``."""
    if "11" in prefix or len(prefix) > length:
        return 0
    zero, one = (0, 1) if prefix.endswith("1") else (1, 0)
    for _ in range(length - len(prefix)):
        zero, one = zero + one, zero
    return zero + one


def strings(length: int, prefix: str) -> list[str]:
    if "11" in prefix:
        return []
    if len(prefix) == length:
        return [prefix]
    return strings(length, prefix + "0") + strings(length, prefix + "1")


def tree_children(node: tuple[int, str]) -> list[tuple[int, str]]:
    """The toy search tree for estimate_tree: nodes are (length, prefix)."""
    length, prefix = node
    if len(prefix) == length:
        return []
    return [(length, prefix + c) for c in "01" if "11" not in prefix + c]


def subtree_nodes(length: int, prefix: str) -> int:
    return sum(completions(k, prefix) for k in range(len(prefix), length + 1))


def _trace(task_id: str, options: dict) -> None:
    """Test hooks: log each run as a file, interrupt, fail or slow down at chosen ids."""
    if options.get("log"):
        Path(options["log"], f"{task_id}@{os.getpid()}@{time.monotonic_ns()}").touch()
    if task_id == options.get("stop_at"):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(10)  # the handler raises Interrupted out of this sleep
    if task_id == options.get("fail_at"):
        raise RuntimeError(f"failure injected in {task_id}")
    if task_id == options.get("die_at"):
        os._exit(3)
    if task_id in options.get("slow", ()):
        time.sleep(0.3)


def count_task(length: int, prefix: str, task_id: str, options: dict) -> int:
    _trace(task_id, options)
    return completions(length, prefix)


def lines_task(length: int, prefix: str, task_id: str, options: dict) -> bytes:
    _trace(task_id, options)
    return "".join(s + "\n" for s in strings(length, prefix)).encode()


def knuth_weight(task: Task, probes: int, seed: int) -> Estimate:
    length, prefix = task.args[:2]
    return estimate_tree(tree_children, (length, prefix), probes=probes, seed=seed)


class FibJob:
    """Count (or list) the strings of ``length``, cut at prefixes of length ``depth``."""

    def __init__(self, length: int, *, output: bool = False, depth: int = 2, **options):
        self.length, self.output, self.depth, self.options = length, output, depth, options
        self.key = f"fib {length} {'lines' if output else 'count'} depth {depth}"

    def _task(self, task_id: str, prefix: str) -> Task:
        function = lines_task if self.output else count_task
        weight = float(subtree_nodes(self.length, prefix))
        return Task(task_id, function, (self.length, prefix, task_id, self.options), weight)

    def tasks(self) -> list[Task]:
        prefixes = [""]
        for _ in range(self.depth):
            prefixes = [p + c for p in prefixes for c in "01" if "11" not in p + c]
        return [self._task(str(k), p) for k, p in enumerate(prefixes)]

    def refine(self, task: Task) -> list[Task] | None:
        prefix = task.args[1]
        if len(prefix) >= self.length:
            return None
        kids = [prefix + c for c in "01" if "11" not in prefix + c]
        return [self._task(f"{task.id}.{k}", kid) for k, kid in enumerate(kids)]


def group_task(length: int, prefixes: list[str], budget: int, task_id: str, options: dict):
    """Count below each prefix in turn; past ``budget`` prefixes, hand the rest back
    in two groups (a subtask that stopped early, :class:`Continued`)."""
    _trace(task_id, options)
    done = sum(completions(length, p) for p in prefixes[:budget])
    rest = prefixes[budget:]
    if not rest:
        return done
    groups = [g for g in (rest[: len(rest) // 2], rest[len(rest) // 2 :]) if g]
    return Continued(done, groups, [float(len(g)) for g in groups])


class GroupJob:
    """Fibonacci counts whose tasks stop after ``budget`` prefixes and are resumed."""

    def __init__(self, length: int, depth: int, budget: int, *, resumable=True, **options):
        self.length, self.depth, self.budget, self.options = length, depth, budget, options
        self.key = f"fib groups {length} {depth} {budget}"
        if not resumable:
            self.resume = None

    def _task(self, task_id: str, prefixes: list[str], weight: float) -> Task:
        args = (self.length, prefixes, self.budget, task_id, self.options)
        return Task(task_id, group_task, args, weight)

    def tasks(self) -> list[Task]:
        prefixes = [""]
        for _ in range(self.depth):
            prefixes = [p + c for p in prefixes for c in "01" if "11" not in p + c]
        half = len(prefixes) // 2
        rest = len(prefixes) - half
        return [self._task("0", prefixes[:half], half), self._task("1", prefixes[half:], rest)]

    def resume(self, task: Task, rest: list, weights: list) -> list[Task]:
        return [
            self._task(f"{task.id}.c{k}", group, weight)
            for k, (group, weight) in enumerate(zip(rest, weights))
        ]


def hook(job: FibJob, workers: int, name: str, *positions: int) -> list[str]:
    """Set test hook ``name`` on the planned tasks at ``positions``; return their ids."""
    ids = [plan(job, workers)[k].id for k in positions]
    job.options[name] = set(ids) if name == "slow" else ids[0]
    return ids


def all_lines(length: int) -> bytes:
    return "".join(s + "\n" for s in strings(length, "")).encode()


def runs_per_id(log: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for path in log.iterdir():
        task_id = path.name.split("@")[0]
        counts[task_id] = counts.get(task_id, 0) + 1
    return counts


# --------------------------------------------------------------------------
# Ordered results on every executor


# Dask's worker processes unpickle this module's toy tasks by name ("tests.test_jobs"),
# so they must find the repository root on their path. Spawned processes take
# the parent's sys.path (pytest's importlib mode does not add the root to it).
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.append(_ROOT)


@pytest.fixture(scope="module")
def dask_client(dask_client):
    """conftest's cluster, whose spawned workers must also import this module by
    name to unpickle its tasks."""
    dask_client.run(sys.path.insert, 0, str(Path(__file__).parent))
    dask_client.run(sys.path.insert, 0, str(Path(__file__).parent.parent))
    return dask_client


def test_counts_match_fibonacci_in_process():
    for length in (0, 1, 2, 5, 12):
        depth = min(2, length)
        assert run_sum(FibJob(length, depth=depth)) == fibonacci(length + 2)


@pytest.mark.parametrize("make", [InProcess, lambda: Processes(2)], ids=["inprocess", "processes"])
def test_results_come_in_merge_order(make):
    # Early tasks are slow, so later ones finish first and must be held back.
    job = FibJob(12, output=True, depth=3)
    with make() as executor:
        hook(job, executor.workers, "slow", 0, 1)
        pairs = list(run(job, executor=executor))
        ids = [task.id for task, _ in pairs]
        assert ids == [task.id for task in plan(job, executor.workers)]
        assert b"".join(result for _, result in pairs) == all_lines(12)
        assert run_sum(FibJob(16), executor=executor) == fibonacci(18)


def test_ahead_bounds_the_run_and_keeps_the_order():
    job = FibJob(12, output=True, depth=3)
    with Processes(2) as executor:
        hook(job, executor.workers, "slow", 0)
        assert b"".join(r for _, r in run(job, executor=executor, ahead=2)) == all_lines(12)


def test_dask_gives_the_same_results(dask_client):
    executor = Dask(dask_client)
    assert executor.workers == 2
    output = b"".join(r for _, r in run(FibJob(12, output=True), executor=executor))
    assert output == all_lines(12)
    assert run_sum(FibJob(16), executor=dask_client) == fibonacci(18)  # a bare Client
    assert run_sum(FibJob(16), executor=executor_from(dask=dask_client)) == fibonacci(18)
    assert dask_client.status == "running"  # a caller's client is left open


def _sum_of(data: bytes, k: int) -> int:
    assert type(data) in (bytes, jobs.Shared)
    return sum(data) * k


def _shared_job(blobs: list[bytes], tasks: int) -> StaticJob:
    """Tasks k = 0 .. tasks - 1 taking the blob k % len(blobs) as Shared bytes."""
    shared = [jobs.Shared(blob) for blob in blobs]
    calls = [Task(str(k), _sum_of, (shared[k % len(shared)], k)) for k in range(tasks)]
    return StaticJob("shared", calls)


def _watched(executor: Processes, monkeypatch) -> list[int]:
    """Start ``executor``'s workers; return the list of the sizes of the messages
    sent to them from now on."""
    executor.submit(Task("0", abs, (0,)))
    executor.next_result()
    sent: list[int] = []
    for worker in executor._pool:
        send = worker.conn.send_bytes
        monkeypatch.setattr(
            worker.conn, "send_bytes", lambda b, send=send: (sent.append(len(b)), send(b))
        )
    return sent


def test_shared_bytes_go_to_each_worker_once(monkeypatch, dask_client):
    """A task's Shared argument reaches a worker process once (until it has kept
    _SHARED_KEPT newer ones: then again), a Dask batch once; every executor
    gives the same."""
    blobs = [bytes([k + 1]) * 1000 for k in range(_transport.SHARED_KEPT + 2)]
    two = sum(sum(blobs[k % 2]) * k for k in range(40))
    assert run_sum(_shared_job(blobs[:2], 40)) == two
    with Processes(2) as executor:
        sent = _watched(executor, monkeypatch)
        assert run_sum(_shared_job(blobs[:2], 40), executor=executor) == two
        assert sum(size > 1000 for size in sent) <= 4  # two blobs, two workers
        assert max(sent) < 1200 and min(sent) < 200  # tasks carry a key, not the blob
    # More blobs in turn than a worker keeps: each comes again after it was dropped.
    ten = sum(sum(blobs[k % len(blobs)]) * k for k in range(60))
    with Processes(1) as executor:
        sent = _watched(executor, monkeypatch)
        assert run_sum(_shared_job(blobs, 60), executor=executor) == ten
        assert sum(size > 1000 for size in sent) == 60
        assert len(executor._pool[0].shared) == _transport.SHARED_KEPT
    assert run_sum(_shared_job(blobs, 60), executor=Dask(dask_client)) == ten


class _Batching:
    """A run's side of :class:`~polyforms.jobs.dask_cluster.Batches`, as
    :class:`Dask` drives it: tasks submitted while there is room, each batch
    recorded when it is due, instead of being sent."""

    def __init__(self, workers: int = 2) -> None:
        self.batches, self.workers = Batches(), workers
        self.out: list[list[Task]] = []  # sent, not back
        self.sent: list[list[Task]] = []

    @property
    def in_flight(self) -> int:
        return len(self.batches.filling) + sum(map(len, self.out))

    @property
    def capacity(self) -> int:
        return self.batches.capacity(self.workers, self.in_flight, len(self.out))

    def submit(self, task: Task) -> None:
        if self.batches.add(task, None, self.workers):
            batch = [task for task, _ in self.batches.take()]
            self.out.append(batch)
            self.sent.append(batch)


def test_dask_batches_shrink_towards_the_end():
    """With a plan, the first batches hold `batch` tasks at most, and no more than
    the floor's weight; once one is back, a batch takes a guided share of the
    weight left (not under the floor, not over what a worker does in
    batch_seconds), and two batches a worker are out at most."""
    pytest.importorskip("distributed")
    assert isinstance(Dask("local", workers=2).batches, Batches)  # nothing starts yet
    run = _Batching()
    assert run.capacity == 2 * Batches.batch * 2  # no plan: batches of `batch`
    run.batches.expect(400.0, run.workers)
    tasks = iter([Task(str(k), abs, (k,), 1.0) for k in range(400)])
    while run.in_flight < run.capacity:
        run.submit(next(tasks))
    assert [len(batch) for batch in run.sent] == [4, 4, 4, 4]  # two batches a worker, then wait
    run.out.clear()
    run.batches.came_back(16.0, 1.0)  # back: 16 weight a second
    run.submit(next(tasks))
    assert run.batches.send_weight == 16.0  # paced: less than the guided 384 / 8

    heavy = _Batching()
    heavy.batches.expect(400.0, heavy.workers)  # the floor: 400 / (16 * 2) = 12.5
    for k in range(3):
        heavy.submit(Task(str(k), abs, (k,), 20.0))
    assert [len(batch) for batch in heavy.sent] == [1, 1, 1]  # heavier than the floor: alone

    run = _Batching()
    run.batches.expect(400.0, run.workers)
    run.batches.came_back(1000.0, 1.0)
    for k in range(400):
        run.out.clear()
        run.submit(Task(str(k), abs, (k,), 1.0))
    sizes = [len(batch) for batch in run.sent]
    assert sizes[0] == 400 // (Batches.guide * 2)  # guided: 50
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] == 13  # never under the floor, 400 / (16 * 2)
    assert sum(sizes) + len(run.batches.filling) == 400


def test_dask_counts_past_64_bits(dask_client):
    """On a cluster a tiling count takes the memoized search (no sweep): a subtask
    whose tilings pass the kernel's 64-bit counter hands its children back (it
    was an error) and the count is exact: 2 x 100 by dominoes, Fibonacci(101)."""
    from polyforms import tile

    assert tile("2x100", "free:2", reuse=True).count(executor=dask_client) == fibonacci(101)


def _raises(kind: str, k: int) -> int:
    if k == 2:
        raise {"typed": PolyformError, "memory": MemoryError, "fault": RuntimeError}[kind](kind)
    return k


def _failures_logged(client) -> int:
    logs = client.get_worker_logs()
    return sum("Compute Failed" in message for lines in logs.values() for _, message in lines)


@pytest.mark.parametrize("kind", ["typed", "memory"])
def test_dask_reports_a_callers_error_without_worker_tracebacks(dask_client, kind):
    """A subtask's PolyformError or MemoryError reaches the caller, naming the
    subtask, and no worker logs a traceback of it on the terminal ("Compute
    Failed"); a fault (any other error) is still logged by the worker."""
    error = {"typed": PolyformError, "memory": MemoryError}[kind]
    job = StaticJob(f"raises {kind}", [Task(str(k), _raises, (kind, k)) for k in range(4)])
    before = _failures_logged(dask_client)
    with pytest.raises(error, match=kind) as raised:
        run_sum(job, executor=dask_client)
    assert "in subtask 2, on dask" in getattr(raised.value, "__notes__", ["in subtask 2, on dask"])
    assert _failures_logged(dask_client) == before
    fault = StaticJob("raises fault", [Task(str(k), _raises, ("fault", k)) for k in range(4)])
    with pytest.raises(RuntimeError, match="fault"):
        run_sum(fault, executor=dask_client)
    deadline = time.monotonic() + 5
    while _failures_logged(dask_client) == before and time.monotonic() < deadline:
        time.sleep(0.05)  # the worker's log reaches the scheduler a moment later
    assert _failures_logged(dask_client) > before


def test_dask_error_cancels_and_keeps_the_client(dask_client):
    job = FibJob(12, depth=3)
    (failing,) = hook(job, 2, "fail_at", 3)
    with pytest.raises(RuntimeError, match=f"failure injected in {failing}"):
        run_sum(job, executor=dask_client)
    assert dask_client.status == "running"
    assert run_sum(FibJob(12, depth=3), executor=dask_client) == fibonacci(14)


def _worker_setting(name: str) -> object:
    import dask

    return dask.config.get(name)


def _worker_kept_memory() -> bool:
    return _dask_cluster._malloc_kept


def test_dask_local_cluster_is_started_and_closed(monkeypatch):
    pytest.importorskip("distributed")
    with executor_from(jobs=2, dask="local") as executor:
        assert isinstance(executor, Dask) and executor.workers == 2
        output = b"".join(r for _, r in run(FibJob(11, output=True), executor=executor))
        assert output == all_lines(11)
        # Its workers are on this machine: large results come as files, when asked.
        monkeypatch.setattr(_transport, "SPOOL_BYTES", 1)
        spooled = list(run(FibJob(11, output=True), executor=executor, files=True))
        assert all(isinstance(result, Spooled) for _, result in spooled)
        spool = os.path.dirname(spooled[0][1].path)
        assert b"".join(result.read() for _, result in spooled) == all_lines(11)
        # ... and their malloc keeps freed memory (tasks run in a thread there).
        assert set(executor.client.run(_worker_kept_memory).values()) == {True}
        # ... and they run with our quieter timers (the config reaches the workers).
        ticks = executor.client.run(_worker_setting, "distributed.admin.tick.interval")
        assert set(ticks.values()) == {
            _dask_cluster.LOCAL_CLUSTER_CONFIG["distributed.admin.tick.interval"]
        }
    assert executor.client is None and executor.cluster is None
    assert not os.path.exists(spool)  # the spool went with the cluster
    # Owned by run (an address string): started and closed within the run.
    assert run_sum(FibJob(12), executor="local") == fibonacci(14)


def _memo_sharers() -> int:
    from polyforms import limits

    return limits.memo_sharers


def test_workers_share_the_memory_of_tiling_memos(dask_client):
    """Each worker process of a run gives its tiling memos its share of the
    machine's memory (limits.memo_bytes); a Dask worker takes its machine's cores
    as the sharers; the run's own process keeps it all."""
    tasks = [Task(str(k), _memo_sharers, ()) for k in range(4)]
    with Processes(2) as executor:
        assert {result for _, result in executor.map_unordered(tasks)} == {2}
    shared = list(run(StaticJob("sharers", tasks), executor=dask_client))
    assert {result for _, result in shared} == {jobs.available_cores()}
    assert _memo_sharers() == 1


@pytest.mark.parametrize("answer", [None, b"HTTP/1.1 400 Bad Request\r\n\r\n"])
def test_a_server_that_is_not_dask_is_one_line_in_time(monkeypatch, capsys, answer):
    """A server that accepts the connection and never answers (dask's timeout
    covers the connection only: Client() waited for ever), or answers as
    something else (dask read an HTTP reply as a 3 EiB frame: a traceback)."""
    pytest.importorskip("distributed")
    import socket

    from polyforms import cli

    monkeypatch.setattr(_dask_cluster, "CONNECT_SECONDS", 1)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = server.accept()
                held.append(conn)
                if answer:
                    conn.recv(64)
                    conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        start = time.monotonic()
        assert cli.main(["tile", "4x5", "--pieces", "free:4", "--count", "--dask", address]) == 2
        assert time.monotonic() - start < 8
    finally:
        server.close()
        for conn in held:
            conn.close()
    error = capsys.readouterr().err
    assert error.startswith(f"polyforms tile: error: cannot reach dask at {address}: ")
    assert error.count("\n") == 1


def test_more_local_dask_workers_than_cores_are_capped(monkeypatch):
    """As for --jobs: --dask local --jobs 99999 planned for 99,999 workers (for
    ever) before it would have started them all on two cores."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(_executors, "available_cores", lambda: 3)
    with pytest.warns(RuntimeWarning, match="99999 dask workers asked for but 3 cores"):
        executor = Dask("local", workers=99999)
    assert executor.workers == 3
    assert Dask("tcp://127.0.0.1:8786", workers=99999)._hint == 99999  # a cluster elsewhere


def test_dask_missing_is_a_typed_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # makes the import fail
    with pytest.raises(JobError, match=r'pip install "polyforms\[dask\]"') as error:
        Dask("local")
    assert isinstance(error.value, PolyformError) and "\n" not in str(error.value)
    with pytest.raises(JobError):
        executor_from(jobs=2, dask="tcp://127.0.0.1:8786")


def test_dask_address_errors_are_one_line(monkeypatch, capsys):
    distributed = pytest.importorskip("distributed")
    from polyforms import cli

    tries: list = []

    def unreachable(address, timeout=None):
        tries.append((address, timeout))
        raise OSError(f"Timed out trying to connect to {address} after {timeout} s")

    monkeypatch.setattr(distributed, "Client", unreachable)
    command = ["tile", "6x10", "--pieces", "pentominoes", "--count", "--dask"]
    assert cli.main([*command, "tcp://127.0.0.1:1"]) == 2
    # One attempt (asking for the cluster's threads tried again, after 30 s each).
    assert tries == [("tcp://127.0.0.1:1", _dask_cluster.CONNECT_SECONDS)]
    error = capsys.readouterr().err
    assert error.startswith("polyforms tile: error: cannot reach dask at tcp://127.0.0.1:1")
    assert error.count("\n") == 1
    monkeypatch.undo()
    assert cli.main([*command, ""]) == 2
    error = capsys.readouterr().err
    expected = "not a dask scheduler address: missing port number in address ''"
    assert error == f"polyforms tile: error: {expected}\n"


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="no SIGINT")
def test_the_command_closes_what_it_opened_through_a_ctrl_c():
    """The command line closes its executor and bar last first when it ends, with
    Ctrl-C ignored meanwhile (stopping a LocalCluster takes up to a second)."""
    from polyforms import cli

    closed: list[str] = []

    def executor_close() -> None:
        os.kill(os.getpid(), signal.SIGINT)  # would raise KeyboardInterrupt here
        time.sleep(0.05)
        closed.append("executor")

    class CtrlC(Exception):
        pass

    def ctrl_c(signum, frame):
        raise CtrlC  # what Python's own handler does, without stopping pytest

    before = signal.signal(signal.SIGINT, ctrl_c)
    try:
        cli._close_all([executor_close, lambda: closed.append("bar")])
        assert closed == ["bar", "executor"]
        assert signal.getsignal(signal.SIGINT) is ctrl_c
    finally:
        signal.signal(signal.SIGINT, before)


def test_importing_jobs_does_not_import_dask():
    code = (
        "import sys, polyforms.jobs.runner, polyforms.jobs.processes, polyforms.jobs.dask_cluster\n"
        "print(sorted({'dask', 'distributed'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_run_in_this_process_imports_no_worker_machinery():
    """A split run in this process (what a progress bar asks for) and a short bar
    leave multiprocessing (11 ms) and tqdm (26 ms) unimported."""
    code = textwrap.dedent(
        """
        import sys
        import polyforms as pf
        from polyforms import jobs
        with jobs.progress_bar(True, delay=60) as bar:
            assert pf.tile("5x12", "pentominoes").count(progress=bar) == 4040
        print(sorted({"multiprocessing", "tqdm"} & set(sys.modules)))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_executor_from_and_processes_cap():
    assert isinstance(executor_from(), InProcess) and isinstance(executor_from(1), InProcess)
    assert executor_from(2).workers == min(2, jobs.available_cores())
    assert Processes(0).workers == jobs.available_cores()
    with pytest.warns(RuntimeWarning, match="cores"):
        capped = Processes(jobs.available_cores() + 5)
    assert capped.workers == jobs.available_cores() and "cores" in capped.note
    with pytest.raises(JobError):
        Processes(-1)


# --------------------------------------------------------------------------
# Errors in tasks and dead workers


def test_task_error_propagates_and_workers_are_reaped(tmp_path):
    executor = Processes(2)
    job = FibJob(14, depth=3)
    (failing,) = hook(job, executor.workers, "fail_at", 2)
    with pytest.raises(RuntimeError, match=f"failure injected in {failing}"):
        run_sum(job, executor=executor)
    assert executor.pids == []  # closed after the error, even though the caller owns it
    assert run_sum(FibJob(14, depth=3), executor=executor) == fibonacci(16)  # it restarts
    executor.close()


@pytest.mark.parametrize("make", [InProcess, lambda: Processes(2)], ids=["inprocess", "processes"])
def test_tasks_that_stop_early_are_resumed_and_add_up(make):
    job = GroupJob(14, depth=6, budget=3)
    seen: list[Progress] = []
    with make() as executor:
        assert run_sum(job, executor=executor, progress=seen.append) == fibonacci(16)
    assert seen[-1].done == seen[-1].total > len(plan(job, 1))  # the rest ran as new tasks
    assert seen[-1].fraction == 1.0


def test_a_stopped_task_counts_as_done_what_it_did():
    """Progress counts a task that stopped early as the weight it did, not its
    whole weight while its children wait. GroupJob's weights are its prefixes:
    21 in all, tasks of 10 and 11 that count 3 each and hand back the rest."""
    seen: list[Progress] = []
    assert run_sum(GroupJob(14, depth=6, budget=3), progress=seen.append) == fibonacci(16)
    counted = [0, 3, 6, 9, 12, 15, 18, 19, 20, 21]  # prefixes counted after each task
    assert [p.fraction for p in seen] == pytest.approx([k / 21 for k in counted])


def test_settled_weights_of_a_stopped_task():
    from polyforms.jobs.runner import settled

    def tasks(*weights):
        return [Task(str(k), abs, (0,), w) for k, w in enumerate(weights)]

    # (done, growth of the whole): the task's estimate less its children's ...
    assert settled(10.0, tasks(3.0, 4.0), None) == (3.0, 0.0)
    assert settled(10.0, tasks(8.0, 4.0), None) == (0.0, 2.0)
    # ... or the share it says it did, its children replacing the rest
    assert settled(10.0, tasks(3.0, 4.0), 0.25) == (2.5, -0.5)
    assert settled(10.0, tasks(), 1.5) == (10.0, 0.0)


def test_a_resumed_run_starts_with_the_pace_of_the_runs_before(tmp_path):
    """Each journal line says how long the runs had worked when its task ended, so
    a resumed run shows an ETA before it finishes a task of its own."""
    journal = tmp_path / "fib.ckpt"
    job = FibJob(14, depth=3)
    hook(job, 1, "slow", 0, 1, 2)
    job.options["stop_at"] = plan(job, 1)[3].id
    with pytest.raises(Interrupted):
        run_sum(job, checkpoint=journal)
    times = [json.loads(line)["t"] for line in journal.read_text().splitlines()[1:]]
    assert len(times) == 3 and times == sorted(times) and times[0] >= 0.3  # 3 slow tasks
    seen: list[Progress] = []
    assert run_sum(FibJob(14, depth=3), checkpoint=journal, progress=seen.append) == fibonacci(16)
    first = seen[0]
    assert first.done == 3 and first.eta == pytest.approx(
        times[-1] * (1 - first.fraction) / first.fraction
    )
    later = [json.loads(line)["t"] for line in journal.read_text().splitlines()[4:]]
    assert later and min(later) >= times[-1]  # the work of both runs


def test_stopped_tasks_resume_from_the_journal(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    journal = tmp_path / "groups.ckpt"
    job = GroupJob(14, depth=6, budget=3, log=str(log), stop_at="0.c1.c0")
    before: list[Progress] = []
    with pytest.raises(Interrupted):
        run_sum(job, checkpoint=journal, progress=before.append)
    entries = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    assert any("rest" in entry for entry in entries)
    resumed = GroupJob(14, depth=6, budget=3, log=str(log))
    after: list[Progress] = []
    assert run_sum(resumed, checkpoint=journal, progress=after.append) == fibonacci(16)
    # the journal gives back the progress the run had made
    assert after[0].fraction == pytest.approx(before[-1].fraction) and after[0].fraction > 0
    counts = runs_per_id(log)
    assert counts.pop("0.c1.c0") == 2  # interrupted once, then run to the end
    assert set(counts.values()) == {1}  # nothing else ran twice
    assert run_sum(resumed, checkpoint=journal) == fibonacci(16)  # answers at once
    assert sum(runs_per_id(log).values()) == sum(counts.values()) + 2


def test_a_task_stopping_early_needs_a_job_that_resumes():
    with pytest.raises(JobError, match="cannot resume"):
        run_sum(GroupJob(10, depth=4, budget=1, resumable=False))


def test_dead_worker_is_a_job_error():
    job = FibJob(10, depth=2)
    (dying,) = hook(job, 2, "die_at", 1)
    with pytest.raises(JobError, match=rf"died \(exit status 3\) .* subtask {dying}$"):
        run_sum(job, executor=Processes(2))


def test_a_task_sent_to_a_dead_worker_is_a_job_error():
    """A worker that died between tasks (here killed while idle) is found when the
    next task is sent to it: a JobError, not the pipe's BrokenPipeError (which CI
    once got from the test above, the dying worker's queued task being sent as it
    died)."""
    executor = Processes(2)
    try:
        executor.submit(Task("0", abs, (1,)))
        assert executor.next_result()[1] == 1
        victim = executor._pool[1].process
        os.kill(victim.pid, signal.SIGKILL)
        victim.join(5)
        with pytest.raises(JobError, match=r"died \(exit status -9\) before it took subtask"):
            for k in range(1, 5):
                executor.submit(Task(str(k), abs, (k,)))
    finally:
        executor.close()
    assert executor.pids == []


def test_unsendable_task_is_a_job_error():
    job = StaticJob("lambda", [Task("0", lambda: 1)])
    with pytest.raises(JobError, match="cannot be sent"):
        run_sum(job, executor=Processes(2))


def test_unsendable_task_is_a_job_error_on_dask(dask_client):
    job = StaticJob("lambda", [Task("0", lambda: 1)])
    with pytest.raises(JobError, match="subtask 0 cannot be sent"):
        run_sum(job, executor=Dask(dask_client))
    assert run_sum(FibJob(10), executor=dask_client) == fibonacci(12)


# --------------------------------------------------------------------------
# Checkpoints and resume


def test_resume_after_interruption_runs_nothing_twice(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    journal = tmp_path / "fib.ckpt"
    job = FibJob(14, depth=3, log=str(log))
    (stopped,) = hook(job, 1, "stop_at", 3)
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(Interrupted) as stop:
        run_sum(job, checkpoint=journal)
    assert stop.value.signum == signal.SIGINT and stop.value.exit_status == 130
    total = len(plan(job, 1))
    assert stop.value.done == 3 and stop.value.total == total
    assert signal.getsignal(signal.SIGINT) is before  # restored
    header = json.loads(journal.read_text().splitlines()[0])
    digest = plan_digest(plan(job, 1))
    assert header == {"polyforms-checkpoint": 1, "key": job.key, "workers": 1, "plan": digest}

    resumed = FibJob(14, depth=3, log=str(log))  # same key, no injected stop
    seen = []
    assert run_sum(resumed, checkpoint=journal, progress=seen.append) == fibonacci(16)
    assert seen[0].done == 3 and seen[-1].done == total
    counts = runs_per_id(log)
    assert counts.pop(stopped) == 2  # interrupted once, then run to the end
    assert set(counts.values()) == {1} and len(counts) == total - 1
    # A finished journal answers at once, running nothing.
    assert run_sum(resumed, checkpoint=Checkpoint(journal, resumed.key)) == fibonacci(16)
    assert sum(runs_per_id(log).values()) == total + 1


def test_resume_output_chunks_after_a_worker_error(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    journal = tmp_path / "lines.ckpt"
    job = FibJob(13, output=True, depth=3, log=str(log))
    (failing,) = hook(job, 2, "fail_at", 4)
    hook(job, 2, "slow", 5)
    with pytest.raises(RuntimeError):
        list(run(job, executor=Processes(2), checkpoint=journal, ahead=3))
    finished = {json.loads(line)["id"] for line in journal.read_text().splitlines()[1:]}
    assert finished and failing not in finished
    assert {p.name for p in (tmp_path / "lines.ckpt.chunks").iterdir()} == finished

    resumed = FibJob(13, output=True, depth=3, log=str(log))
    output = b"".join(r for _, r in run(resumed, executor=Processes(2), checkpoint=journal))
    assert output == all_lines(13)
    counts = runs_per_id(log)
    assert all(counts[task_id] == 1 for task_id in finished)
    checkpoint = Checkpoint(journal, resumed.key)
    checkpoint.remove()
    assert not journal.exists() and not (tmp_path / "lines.ckpt.chunks").exists()


def test_large_results_come_through_files_when_asked(monkeypatch, tmp_path):
    monkeypatch.setattr(_transport, "SPOOL_BYTES", 1)  # forked workers see it too
    job = FibJob(13, output=True, depth=3)
    # Asked for: the worker processes leave every result in a file, the parent
    # copies them (the kernel's copy into a real file, Python's into a BytesIO).
    executor = Processes(2)
    target, memory, spools = tmp_path / "out", io.BytesIO(), set()
    with open(target, "wb") as out:
        for _, result in run(job, executor=executor, files=True):
            assert isinstance(result, Spooled) and os.path.exists(result.path)
            spools.add(os.path.dirname(result.path))
            mirror = Spooled(result.path + ".copy", result.size)
            os.link(result.path, mirror.path)
            mirror.copy_to(memory)
            result.copy_to(out)
            assert not os.path.exists(result.path) and not os.path.exists(mirror.path)
    assert target.read_bytes() == memory.getvalue() == all_lines(13)
    executor.close()
    assert len(spools) == 1 and not os.path.exists(spools.pop())  # the spool went with the pool
    # Not asked for: bytes, the same.
    results = [result for _, result in run(job, executor=Processes(2))]
    assert all(isinstance(result, bytes) for result in results)
    assert b"".join(results) == all_lines(13)


def test_no_spool_directory_outlives_its_run(monkeypatch, tmp_path):
    """Runs that make their own executor close it, spool and all; an executor
    dropped unclosed takes its spool with it when collected."""
    import gc
    import tempfile

    import polyforms as pf
    from polyforms.files.catalogue import write_polyforms

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert pf.count(12, kind="fixed", jobs=2) == 505861
    write_polyforms(9, tmp_path / "nine.jsonl", "jsonl", kind="free", jobs=2)
    assert [p.name for p in tmp_path.iterdir()] == ["nine.jsonl"]
    executor = Processes(2)
    assert run_sum(FibJob(12), executor=executor) == fibonacci(14)
    spool = executor.spool
    assert spool is not None and os.path.isdir(spool)
    del executor
    gc.collect()
    assert not os.path.exists(spool)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_leaves_the_spool_alone():
    """A spool's finalizer runs at the exit of any process forked from its owner;
    only the owner's removes the directory."""
    with Processes(2) as executor:
        assert run_sum(FibJob(10), executor=executor) == fibonacci(12)
        spool = executor.spool
        child = os.fork()
        if child == 0:  # what a forked child's exit hooks would do
            try:
                executor._spool_finalizer()
            finally:
                os._exit(0)
        os.waitpid(child, 0)
        assert os.path.isdir(spool)
    assert not os.path.exists(spool)


def test_counted_chunks_are_written_without_their_count(tmp_path):
    out = io.BytesIO()
    assert write_chunk(out, counted_chunk(0, b""), skip=1) == 0  # nothing to skip
    assert write_chunk(out, counted_chunk(2, b"\nab\n\ncd"), skip=1) == 2
    path = tmp_path / "chunk"
    path.write_bytes(counted_chunk(12, b"\nef"))
    assert write_chunk(out, Spooled(str(path), 6, owned=False)) == 12
    assert out.getvalue() == b"ab\n\ncd\nef" and path.exists()


def test_spooled_copies_exactly_its_bytes(monkeypatch, tmp_path):
    import errno

    source = tmp_path / "spooled"
    source.write_bytes(b"0123456789")
    # Into a real file (the kernel's copy) and into a BytesIO (Python's): the
    # bytes from start to size, not to the end of the file.
    target = tmp_path / "out"
    with open(target, "wb") as out:
        out.write(b">")
        Spooled(str(source), 8, owned=False).copy_to(out, 2)
    memory = io.BytesIO()
    Spooled(str(source), 8, owned=False).copy_to(memory, 2)
    assert target.read_bytes() == b">234567" and memory.getvalue() == b"234567"
    # A source shorter than its size is an error, not short output.
    with open(target, "wb") as out, pytest.raises(JobError, match="2 bytes shorter"):
        Spooled(str(source), 12, owned=False).copy_to(out)

    # A kernel copy refused before the first byte (a sandbox's EPERM): Python
    # copies; a full disk is an error at once.
    def refuse(*args):
        raise PermissionError(errno.EPERM, "not here")

    monkeypatch.setattr(os, "copy_file_range", refuse)
    with open(target, "wb") as out:
        Spooled(str(source), 10, owned=False).copy_to(out)
    assert target.read_bytes() == b"0123456789"

    def full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "copy_file_range", full)
    with open(target, "wb") as out, pytest.raises(OSError, match="No space"):
        Spooled(str(source), 10, owned=False).copy_to(out)


def pieces_task(words: int) -> Pieces:
    """A result made in pieces, one word a piece."""
    return Pieces(b"word %d\n" % k for k in range(words))


def test_a_result_in_pieces_is_the_pieces_joined(monkeypatch):
    job = StaticJob("pieces", [Task(str(k), pieces_task, (k,)) for k in range(6)])
    expected = [b"".join(b"word %d\n" % i for i in range(k)) for k in range(6)]
    assert [result for _, result in run(job)] == expected  # in process: joined
    with Processes(2) as processes:
        # Under the spool limit (256 KiB): bytes through the pipe.
        assert [result for _, result in run(job, executor=processes, files=True)] == expected
    # Over it: a spool file written as the pieces come (two words and more).
    monkeypatch.setattr(_transport, "SPOOL_BYTES", 14)
    with Processes(2) as processes:
        results = [result for _, result in run(job, executor=processes, files=True)]
        assert [type(result) for result in results] == [bytes, bytes] + [Spooled] * 4
        assert [r if isinstance(r, bytes) else r.read() for r in results] == expected


def test_a_result_in_pieces_survives_a_spool_that_fills_up(monkeypatch, tmp_path):
    """A spool that takes part of a result then fails (a full disk): the worker
    reads back what it wrote and sends the whole by pipe; no file is left."""
    import builtins
    import errno

    class Filling(io.FileIO):
        def write(self, data):
            taken = getattr(self, "taken", 0)
            if taken >= 20:
                raise OSError(errno.ENOSPC, "No space left on device")
            part = super().write(bytes(data[: 20 - taken]))  # a short write first
            self.taken = taken + part
            return part

    def fake_open(path, mode="r", *args, **kwargs):
        if mode == "wb":
            return Filling(path, "wb")
        return builtins.open(path, mode, *args, **kwargs)

    monkeypatch.setattr(_transport, "open", fake_open, raising=False)
    whole = _transport.spooled_result(pieces_task(9), str(tmp_path), 8)
    assert whole == b"".join(b"word %d\n" % k for k in range(9))
    assert list(tmp_path.iterdir()) == []
    # No spool directory at all, or a result under the limit: bytes.
    three = b"word 0\nword 1\nword 2\n"
    assert _transport.spooled_result(pieces_task(3), None, 1) == three
    assert _transport.spooled_result(pieces_task(3), str(tmp_path), 100) == three
    monkeypatch.undo()
    spooled = _transport.spooled_result(pieces_task(9), str(tmp_path), 8)
    assert isinstance(spooled, Spooled) and spooled.read() == whole

    # The task's own error (an OSError too) comes out as it is, its file removed.
    def failing():
        yield from pieces_task(5).pieces
        raise FileNotFoundError("the task's own")

    with pytest.raises(FileNotFoundError, match="the task's own"):
        _transport.spooled_result(Pieces(failing()), str(tmp_path), 8)
    assert list(tmp_path.iterdir()) == []


def test_spooled_results_are_journalled_and_resumed(monkeypatch, tmp_path):
    monkeypatch.setattr(_transport, "SPOOL_BYTES", 1)
    journal = tmp_path / "lines.ckpt"
    job = FibJob(13, output=True, depth=3)
    first = b"".join(r for _, r in run(job, executor=Processes(2), checkpoint=journal))
    assert first == all_lines(13)
    chunks = tmp_path / "lines.ckpt.chunks"
    assert sorted(os.listdir(chunks)) == sorted(task.id for task in plan(job, 2))
    # From the journal, as files that stay where they are.
    again = []
    for _, result in run(job, executor=Processes(2), checkpoint=journal, files=True):
        assert isinstance(result, Spooled) and not result.owned
        again.append(result.read())
    assert b"".join(again) == first and len(os.listdir(chunks)) == len(again)


def test_signal_while_the_consumer_runs_stops_the_workers_at_once():
    executor = Processes(2)
    before = signal.getsignal(signal.SIGTERM)
    results = run(FibJob(14, depth=3), executor=executor)
    next(results)
    assert len(executor.pids) == 2
    with pytest.raises(Interrupted) as stop:
        os.kill(os.getpid(), signal.SIGTERM)  # lands here, outside the generator
        time.sleep(10)
    assert stop.value.exit_status == 143 and 1 <= stop.value.done < stop.value.total
    assert executor.pids == []  # already reaped, before the generator is closed
    assert signal.getsignal(signal.SIGTERM) == before
    with pytest.raises(Interrupted):
        next(results)  # asking for more after the interruption raises it again


def test_truncated_last_line_is_dropped(tmp_path):
    journal = tmp_path / "fib.ckpt"
    job = FibJob(12, depth=3)
    assert run_sum(job, checkpoint=journal) == fibonacci(14)
    data = journal.read_bytes()
    lines = data.splitlines(keepends=True)
    journal.write_bytes(data[:-5])  # a crash in the middle of the last line
    checkpoint = Checkpoint(journal, job.key)
    checkpoint.open(1)
    checkpoint.close()
    assert journal.read_bytes() == b"".join(lines[:-1])  # truncated away
    assert len(checkpoint.entries) == len(lines) - 2
    assert run_sum(job, checkpoint=journal) == fibonacci(14)  # the lost task runs again
    assert journal.read_bytes().count(b"\n") == len(lines)


def test_a_journal_of_another_plan_is_refused(tmp_path):
    """A subtask id names a subtree of its plan: a journal whose plan differs (a
    version of polyforms that splits or weighs otherwise) is refused, not merged
    into a wrong total. A journal without a plan (earlier versions) is taken."""
    journal = tmp_path / "fib.ckpt"
    job = FibJob(12, depth=3)
    assert run_sum(job, checkpoint=journal) == fibonacci(14)
    lines = journal.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    assert header["plan"] == plan_digest(plan(job, 1))
    for planned in ("0123456789abcdef", None):
        if planned is None:
            del header["plan"]
        else:
            header["plan"] = planned
        journal.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
        if planned is None:
            assert run_sum(job, checkpoint=journal) == fibonacci(14)
        else:
            with pytest.raises(CheckpointError, match="planned otherwise"):
                run_sum(job, checkpoint=journal)
    # Weights are part of the plan: the same ids weighed otherwise are refused.
    journal.unlink()
    assert run_sum(job, checkpoint=journal) == fibonacci(14)
    reweighed = FibJob(12, depth=3)
    reweighed.tasks = lambda: [replace(t, weight=t.weight * 3) for t in FibJob.tasks(reweighed)]
    with pytest.raises(CheckpointError, match="planned otherwise"):
        run_sum(reweighed, checkpoint=journal)


def test_garbled_last_line_is_dropped_but_not_a_middle_one(tmp_path):
    journal = tmp_path / "fib.ckpt"
    job = FibJob(12, depth=3)
    run_sum(job, checkpoint=journal)
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines) + b"{garbage\n")
    assert run_sum(job, checkpoint=journal) == fibonacci(14)
    journal.write_bytes(b"".join(lines[:2]) + b"{garbage\n" + b"".join(lines[2:]))
    with pytest.raises(CheckpointError, match="corrupt at line 3"):
        run_sum(job, checkpoint=journal)


def test_a_subtask_journalled_twice_or_nested_too_deep_is_corrupt(tmp_path):
    """A run journals a count's subtask once: a second line for it (appended by
    hand, say) is refused rather than taken (it changed the count silently);
    JSON nested past Python's recursion limit is a damaged line too."""
    journal = tmp_path / "fib.ckpt"
    job = FibJob(12, depth=3)
    run_sum(job, checkpoint=journal)
    lines = journal.read_bytes().splitlines(keepends=True)
    first = json.loads(lines[1])
    again = json.dumps({"id": first["id"], "result": first["result"] + 1}).encode()
    journal.write_bytes(b"".join(lines) + again + b"\n")
    with pytest.raises(CheckpointError, match=f"corrupt at line {len(lines) + 1}"):
        run_sum(job, checkpoint=journal)
    nested = b'{"id": "0", "result": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    journal.write_bytes(b"".join(lines[:2]) + nested + b"".join(lines[2:]))
    with pytest.raises(CheckpointError, match="corrupt at line 3"):
        run_sum(job, checkpoint=journal)
    journal.write_bytes(b"".join(lines) + nested)  # the last line: dropped as cut short
    assert run_sum(job, checkpoint=journal) == fibonacci(14)


def test_an_output_chunk_damaged_on_disk_is_a_checkpoint_error(tmp_path):
    journal = tmp_path / "lines.ckpt"
    job = FibJob(12, output=True, depth=3)
    for _, chunk in run(job, checkpoint=journal):
        write_chunk(io.BytesIO(), chunk)
    side = sorted((tmp_path / "lines.ckpt.chunks").iterdir())[0]
    data = side.read_bytes()
    side.write_bytes(b"x" * 3 + data[3:])  # same size: the journal's check passes
    with pytest.raises(CheckpointError, match="not its count"):
        for _, chunk in run(job, checkpoint=journal):
            write_chunk(io.BytesIO(), chunk)


def test_checkpoint_of_another_command_is_refused(tmp_path):
    journal = tmp_path / "fib.ckpt"
    run_sum(FibJob(10), checkpoint=journal)
    before = journal.read_bytes()
    with pytest.raises(CheckpointError, match="belongs to another command") as error:
        run_sum(FibJob(11), checkpoint=journal)
    assert str(journal) in str(error.value) and "\n" not in str(error.value)
    other = tmp_path / "notes.txt"
    other.write_text("my notes, no newline")
    with pytest.raises(CheckpointError, match="not a polyforms checkpoint"):
        run_sum(FibJob(10), checkpoint=other)
    assert other.read_text() == "my notes, no newline" and journal.read_bytes() == before


def test_a_checkpoint_in_a_missing_directory_is_one_typed_error(tmp_path):
    """It was a bare FileNotFoundError from os.open (the command line printed
    "No such file or directory: PATH" without saying which part is missing)."""
    missing = tmp_path / "nowhere" / "fib.ckpt"
    with pytest.raises(PolyformError, match="nowhere does not exist") as error:
        run_sum(FibJob(10), checkpoint=missing)
    assert str(missing) in str(error.value) and not missing.parent.exists()


def _journal(path, key: str, *entries: dict) -> None:
    header = {"polyforms-checkpoint": 1, "key": key, "workers": 1}
    path.write_text("".join(json.dumps(line) + "\n" for line in (header, *entries)))


@pytest.mark.parametrize(
    "entry",
    [
        {"id": "0", "result": 3, "rest": "zzz", "weights": [1.0]},
        {"id": "0", "result": 3, "rest": [["01"]], "weights": []},
        {"id": "0", "result": 3, "rest": [["01"]], "weights": ["a"]},
        {"id": "0", "result": 3, "rest": [["01"]], "weights": [1.0], "done": "x"},
        {"id": "0", "rest": [["01"]], "weights": [1.0]},
        {"id": 7, "result": 3},
        ["0", 3],
    ],
    ids=["rest", "weights-short", "weights-text", "done-text", "no-result", "id", "list"],
)
def test_a_journal_line_of_the_wrong_shape_is_refused(tmp_path, entry):
    """Valid JSON that no run writes (an edited or damaged journal) is refused in
    one line, not a traceback from deep inside the run."""
    journal = tmp_path / "groups.ckpt"
    job = GroupJob(14, depth=6, budget=3)
    _journal(journal, job.key, entry)
    with pytest.raises(CheckpointError, match="is corrupt at line 2"):
        run_sum(job, checkpoint=journal)


def test_a_journalled_result_of_the_wrong_kind_is_refused(tmp_path):
    journal = tmp_path / "groups.ckpt"
    job = GroupJob(14, depth=6, budget=3)
    for wrong in ("three", 2.5, True):
        _journal(journal, job.key, {"id": "0", "result": wrong})
        with pytest.raises(CheckpointError, match="result of subtask 0 is not a count"):
            run_sum(job, checkpoint=journal)
    chunks = FibJob(12, output=True)
    chunks.chunks = True
    _journal(journal, chunks.key, {"id": plan(chunks)[0].id, "result": 12})
    with pytest.raises(CheckpointError, match="holds no output chunk"):
        list(run(chunks, checkpoint=journal))


def test_a_journalled_rest_the_job_cannot_read_is_refused(tmp_path):
    journal = tmp_path / "groups.ckpt"
    job = GroupJob(14, depth=6, budget=3)
    job.resume = lambda task, rest, weights: [] if rest == [] else rest[0]["no such key"]
    _journal(journal, job.key, {"id": "0", "result": 3, "rest": [["01"]], "weights": [1.0]})
    with pytest.raises(CheckpointError, match="rest of subtask 0 in it cannot be taken up"):
        run_sum(job, checkpoint=journal)


def test_a_rest_the_job_refuses_is_not_journalled(tmp_path):
    """A task that hands back a rest its job cannot take up (here the job's own
    ``resume`` fails on it) stops the run before the journal keeps it: a rerun
    would otherwise meet it as a damaged checkpoint."""
    journal = tmp_path / "groups.ckpt"
    job = GroupJob(14, depth=6, budget=3)

    def resume(task, rest, weights):
        raise ValueError("no such prefix")

    job.resume = resume
    with pytest.raises(ValueError, match="no such prefix"):
        run_sum(job, checkpoint=journal)
    entries = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    assert not any("rest" in entry for entry in entries)
    assert run_sum(GroupJob(14, depth=6, budget=3), checkpoint=journal) == fibonacci(16)


def test_checkpoint_in_use_is_refused(tmp_path):
    journal = tmp_path / "fib.ckpt"
    held = Checkpoint(journal, "k")
    held.open(1)
    code = textwrap.dedent(f"""
        from polyforms.jobs import Checkpoint, CheckpointError
        try:
            Checkpoint({str(journal)!r}, "k").open(1)
        except CheckpointError as error:
            print(error)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    held.close()
    assert "in use" in out.stdout


def test_results_must_survive_json(tmp_path):
    job = StaticJob("pairs", [Task("0", divmod, (7, 2))])
    assert list(run(job))[0][1] == (3, 1)
    with pytest.raises(JobError, match="cannot be journalled"):
        run_sum(job, checkpoint=tmp_path / "pairs.ckpt")


# --------------------------------------------------------------------------
# Signals in a real process


SCRIPT = """
import os, sys, time
from polyforms.jobs import Interrupted, Processes, StaticJob, Task, run_sum

def slow(i, pid_dir):
    open(os.path.join(pid_dir, str(os.getpid())), "w").close()
    time.sleep(60)
    return i

job = StaticJob("slow", [Task(str(i), slow, (i, sys.argv[1])) for i in range(8)])
try:
    print(run_sum(job, executor=Processes(2)))
except Interrupted as stop:
    print(stop.message("run the same command to resume"), file=sys.stderr)
    sys.exit(stop.exit_status)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_stops_run_cleanly(tmp_path, signum):
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 20
    while len(os.listdir(tmp_path)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    workers = [int(name) for name in os.listdir(tmp_path)]
    assert len(workers) == 2 and all(map(_alive, workers))
    if signum == signal.SIGINT:
        os.killpg(child.pid, signum)  # like Ctrl-C: the whole process group
    else:
        os.kill(child.pid, signum)
    start = time.monotonic()
    _, err = child.communicate(timeout=10)
    assert time.monotonic() - start < 2.5
    assert child.returncode == 128 + signum
    name = signal.Signals(signum).name
    assert err.splitlines() == [
        f"interrupted by {name}: 0 of 8 subtasks done; run the same command to resume"
    ]
    assert not any(map(_alive, workers))


# --------------------------------------------------------------------------
# Planning


def test_plan_is_deterministic_and_covers_the_search():
    job = FibJob(18, depth=1)
    first, second = plan(job, 2), plan(job, 2)
    assert [(t.id, t.args, t.weight) for t in first] == [(t.id, t.args, t.weight) for t in second]
    assert len(first) >= 16
    assert sum(completions(18, t.args[1]) for t in first) == fibonacci(20)
    prefixes = [t.args[1] for t in first]
    assert prefixes == sorted(prefixes)  # children replaced their parents in place
    for task in first:  # ids extend the ids of the tasks they came from
        assert task.id.split(".")[0] in {"0", "1"}


def test_plan_for_a_huge_cluster_stops_at_max_tasks():
    """Enough tasks for every worker, but no more than ``max_tasks``: a checkpoint's
    header saying 100,000 workers kept the plan splitting for minutes."""
    job = FibJob(40, depth=1)
    start = time.monotonic()
    tasks = plan(job, 10**6, max_tasks=300)
    assert 300 <= len(tasks) < 310 and time.monotonic() - start < 5
    prefixes = [t.args[1] for t in tasks]
    assert prefixes == sorted(prefixes)  # still in merge order
    assert sum(completions(40, p) for p in prefixes) == fibonacci(42)  # they cover the search


def test_plan_refines_heavy_tasks():
    # The first task holds more than half: the plan must cut it down.
    lopsided = StaticJob(
        "lopsided",
        [Task(str(k), count_task, (20, p, str(k), {})) for k, p in enumerate(["0", "100", "101"])],
        refiner=FibJob(20).refine,
    )
    lopsided = StaticJob(
        "lopsided", estimate_weights(lopsided.tasks(), knuth_weight, probes=64), lopsided.refiner
    )
    tasks = plan(lopsided, 2)
    whole = sum(t.weight for t in tasks)
    assert max(t.weight for t in tasks) <= whole / 8
    assert sum(completions(20, t.args[1]) for t in tasks) == fibonacci(22)
    assert plan(StaticJob("flat", lopsided.tasks()), 2) == list(lopsided.tasks())


def test_plan_checks_ids():
    with pytest.raises(JobError, match="two tasks"):
        plan(StaticJob("dup", [Task("1", abs, (1,)), Task("1", abs, (2,))]))
    with pytest.raises(JobError, match="bad task id"):
        plan(StaticJob("slash", [Task("a/b", abs, (1,))]))
    with pytest.raises(JobError, match="must have an id"):
        plan(StaticJob("bad child", [Task("1", abs, (1,))], lambda t: [Task("2", abs, (1,))]))


# --------------------------------------------------------------------------
# Progress and Interrupted


def test_progress_records():
    seen: list[Progress] = []
    run_sum(FibJob(14, depth=3), progress=seen.append)
    assert seen[0].done == 0 and seen[-1].done == seen[-1].total == len(seen) - 1
    assert [p.fraction for p in seen] == sorted(p.fraction for p in seen)
    assert seen[-1].fraction == pytest.approx(1.0) and seen[-1].eta == 0.0
    assert all(p.eta is None or p.eta >= 0 for p in seen)


class _Staggered(jobs.Executor):
    """One worker that runs a task the moment it is asked for its result, but says
    the task started ``lags[id]`` seconds before it became the running one: the
    part of the running task done so far is then known in advance."""

    def __init__(self, lags: dict[str, float]) -> None:
        self.lags, self.queue, self.since = lags, [], {}

    @property
    def in_flight(self) -> int:
        return len(self.queue)

    def _head_starts(self) -> None:
        if self.queue and self.queue[0].id not in self.since:
            self.since[self.queue[0].id] = time.monotonic() - self.lags[self.queue[0].id]

    def submit(self, task: Task, tag: str = "") -> None:
        self.queue.append(task)
        self._head_starts()

    def running(self) -> list[tuple[Task, float]]:
        return [(self.queue[0], self.since[self.queue[0].id])] if self.queue else []

    def next_result(self) -> tuple[Task, object]:
        task = self.queue.pop(0)
        self._head_starts()
        return task, task.function(*task.args)

    def close(self) -> None:
        self.queue.clear()


def test_progress_credits_the_running_part_of_subtasks():
    """The fraction done counts what the running subtask has done so far: its time
    running times the weight per busy second of the finished ones, at most
    RUNNING_CAP of its weight (3x4x5 --distinct, two workers: the ETA at a quarter
    of the run was 1.7x the truth while the first long subtasks ran, uncredited)."""
    tasks = [Task("0", abs, (1,), 1.0), Task("1", abs, (2,), 1.0), Task("2", abs, (3,), 2.0)]
    # Task 0 took 0.5 s for weight 1 (2 a second); task 1 has run 0.25 s when it
    # ends, so it is half done; task 2 has run far longer than its weight says.
    staggered = _Staggered({"0": 0.5, "1": 0.25, "2": 100.0})
    seen: list[Progress] = []
    assert run_sum(StaticJob("staggered", tasks), executor=staggered, progress=seen.append) == 6
    assert [p.done for p in seen] == [0, 1, 2, 3]
    assert seen[0].fraction == 0.0
    assert seen[1].fraction == pytest.approx((1 + 0.5) / 4, abs=0.02)  # without: 1/4
    assert seen[2].fraction == pytest.approx((2 + RUNNING_CAP * 2) / 4, abs=1e-6)
    assert seen[2].eta > 0 and seen[3].fraction == 1.0
    # An executor that cannot say what runs gets finished subtasks only.
    seen.clear()
    run_sum(StaticJob("staggered", tasks), executor=InProcess(), progress=seen.append)
    assert [p.fraction for p in seen] == [0.0, 0.25, 0.5, 1.0]


def test_worker_processes_say_what_runs_since_when():
    with Processes(2) as processes:
        before = time.monotonic()
        for k, seconds in enumerate((0.2, 0.8, 0.2)):
            processes.submit(Task(str(k), time.sleep, (seconds,)))
        running = processes.running()
        assert sorted(task.id for task, _ in running) == ["0", "1"]  # 2 queued behind 0
        assert all(before <= since <= time.monotonic() for _, since in running)
        finished, _ = processes.next_result()
        running = {task.id: since for task, since in processes.running()}
        assert finished.id == "0" and sorted(running) == ["1", "2"]
        assert running["2"] >= before + 0.2  # it started when the worker took it up
        processes.next_result(), processes.next_result()
        assert processes.running() == []


def test_progress_bar_only_when_asked():
    quiet, loud = io.StringIO(), io.StringIO()
    with progress_bar(None, quiet) as bar:  # not a terminal: nothing
        run_sum(FibJob(10), progress=bar)
    with progress_bar(True, loud, label="fib") as bar:
        run_sum(FibJob(10), progress=bar)
    assert quiet.getvalue() == ""
    assert "fib: " in loud.getvalue() and "subtasks" in loud.getvalue()


def test_progress_bar_starts_at_the_fraction_done():
    """A resumed run's bar is first drawn at what the journal holds, not at 0 %."""
    out = io.StringIO()
    with progress_bar(True, out) as bar:
        bar(Progress(12, 87, 0.67, 0.0, 0.2))
    drawn = [line for line in out.getvalue().replace("\r", "\n").split("\n") if "%" in line]
    assert drawn and all(line.lstrip().startswith("67%") for line in drawn), drawn


def test_progress_bar_waits_its_delay():
    early, late = io.StringIO(), io.StringIO()
    with progress_bar(True, early, delay=60.0) as bar:  # the run ends first: nothing
        run_sum(FibJob(10), progress=bar)
    with progress_bar(True, late, delay=0.5) as bar:
        bar(Progress(1, 4, 0.25, 0.4, 1.2))  # before the delay: nothing yet
        assert late.getvalue() == ""
        bar(Progress(2, 4, 0.5, 0.6, 0.6))
    assert early.getvalue() == ""
    assert "2/4 subtasks" in late.getvalue()


def pause(seconds: float) -> int:
    time.sleep(seconds)
    return 1


def test_progress_bar_ticks_while_a_subtask_runs():
    """A subtask of minutes must not freeze the bar: the elapsed time goes on."""
    out = io.StringIO()
    with progress_bar(True, out) as bar:
        assert run_sum(StaticJob("pause", [Task("0", pause, (2.3,))]), progress=bar) == 1
    shown = out.getvalue()
    assert "0/1 subtasks, 00:00 elapsed" in shown
    assert "0/1 subtasks, 00:01 elapsed" in shown and "0/1 subtasks, 00:02 elapsed" in shown
    assert not [t for t in threading.enumerate() if t.name == "polyforms-progress"]


def test_progress_bar_tick_counts_the_eta_down():
    out = io.StringIO()
    with progress_bar(True, out) as bar:
        bar.tick()  # nothing reported yet: nothing drawn
        assert out.getvalue() == ""
        bar(Progress(1, 4, 0.25, 10.0, 30.0))
        bar.tick(now=time.monotonic() + 4.5)  # as if 4.5 s had passed
        assert "00:14 elapsed, ETA 00:25" in out.getvalue()
        # Past the ETA with no result: the pace so far, the wait counted (30 s x 50.2 / 10).
        bar.tick(now=time.monotonic() + 40.2)
        assert "00:50 elapsed, ETA 02:30" in out.getvalue()


def test_interrupted_message():
    stop = Interrupted(signal.SIGTERM, 12, 40)
    assert isinstance(stop, KeyboardInterrupt) and stop.exit_status == 143
    assert stop.message("run the same command to resume") == (
        "interrupted by SIGTERM: 12 of 40 subtasks done; run the same command to resume"
    )
    assert Interrupted(signal.SIGHUP, 0, 1).exit_status == 129


# --------------------------------------------------------------------------
# Knuth's estimator


def lopsided_tree(seed: int = 7) -> dict[int, list[int]]:
    """A random tree whose branching shrinks with depth, unevenly."""
    rng = random.Random(seed)
    tree: dict[int, list[int]] = {0: []}
    frontier, depth = [0], 0
    while frontier and depth < 12:
        nxt = []
        for node in frontier:
            degree = rng.choice([0, 1, 2, 3, 4] if depth < 6 else [0, 0, 1, 2])
            for _ in range(degree):
                child = len(tree)
                tree[child] = []
                tree[node].append(child)
                nxt.append(child)
        frontier, depth = nxt, depth + 1
    return tree


@pytest.mark.parametrize("which", ["fibonacci", "lopsided"])
def test_estimator_is_unbiased(which):
    if which == "fibonacci":
        length = 14
        children, root = tree_children, (length, "")
        nodes = subtree_nodes(length, "")
        leaves = fibonacci(length + 2)
    else:
        tree = lopsided_tree()
        children, root = tree.__getitem__, 0
        nodes = len(tree)
        leaves = sum(not kids for kids in tree.values())
    estimate = estimate_tree(children, root, probes=20_000, seed=1)
    assert estimate.probes == 20_000
    assert estimate.nodes == pytest.approx(nodes, rel=0.03)
    assert estimate.solutions == pytest.approx(leaves, rel=0.05)
    assert abs(estimate.nodes - nodes) < 4 * estimate.nodes_error
    assert estimate_tree(children, root, probes=50, seed=3) == estimate_tree(
        children, root, probes=50, seed=3
    )


def test_estimator_counts_solution_leaves_only():
    length = 10
    # Solutions: strings ending in "0"; there are F(length + 1) of them.
    estimate = estimate_tree(
        tree_children, (length, ""), probes=20_000, seed=2, is_solution=lambda n: n[1][-1] == "0"
    )
    assert estimate.solutions == pytest.approx(fibonacci(length + 1), rel=0.05)


def test_estimate_weights_depend_on_the_id_only():
    tasks = FibJob(16, depth=2).tasks()
    weighted = estimate_weights(tasks, knuth_weight, probes=16)
    again = estimate_weights(list(reversed(tasks)), knuth_weight, probes=16)
    assert [t.weight for t in weighted] == [t.weight for t in reversed(again)]
    assert all(t.weight > 0 for t in weighted)


def test_partial_estimate_stays_unbiased_when_counts_give_up():
    # Counts of subtrees over 30 nodes give up (as a timed count does on a slow
    # subtree): the probes walk on below them, and the mean is still the truth.
    length = 14
    root = (length, "")
    total_nodes, total_leaves = subtree_nodes(length, ""), fibonacci(length + 2)

    def count(node, give_up):
        nodes = subtree_nodes(*node)
        if nodes > 30 and give_up != math.inf:
            return None
        return completions(*node), nodes, 0.001 * nodes

    assert total_nodes > 30  # the root's count gives up
    found = [
        estimate_partial(tree_children, count, root, depth=0, budget=0, min_probes=2000, seed=seed)
        for seed in range(5)
    ]
    assert statistics.fmean(e.nodes for e in found) == pytest.approx(total_nodes, rel=0.02)
    assert statistics.fmean(e.solutions for e in found) == pytest.approx(total_leaves, rel=0.02)
    assert all(e.seconds == pytest.approx(0.001 * e.nodes) for e in found)


def test_long_run_options_are_one_immutable_value():
    import copy
    import pickle

    from polyforms.jobs import LongRun

    options = LongRun(jobs=2, checkpoint="count.ckpt")
    assert options == LongRun(2, None, "count.ckpt", None) != LongRun(jobs=2)
    assert hash(options) == hash(LongRun(2, None, "count.ckpt"))
    assert pickle.loads(pickle.dumps(options)) == options == copy.copy(options)
    assert options.split and not LongRun().split
    with pytest.raises(AttributeError):
        options.jobs = 1  # type: ignore[misc]
    with pytest.raises(PolyformError):
        LongRun(jobs=-1)

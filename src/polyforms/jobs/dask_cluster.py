"""The Dask executor: :class:`Dask` runs tasks on a dask.distributed cluster.

Consecutive tasks go to the cluster in batches, one dask task each, sized by
the planned weight (guided self-scheduling): every dask task costs the
scheduler, the client and the worker some CPU, on the cores the tasks run on.
A cluster of our own (``"local"``) runs on this machine, so its workers hand
large results back as spool files (:mod:`.transport`), as local worker
processes do. Nothing here imports dask until a :class:`Dask` is made.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from .. import limits
from ..errors import PolyformError
from . import transport
from .executors import Executor, available_cores, capped_workers, is_dask_client
from .tasks import JobError, Task
from .transport import make_spool, pickled_task, remove_spool, spooled_result, unpickled_task

__all__ = ["Batches", "Dask"]

_DASK_HINT = 'the dask executor needs dask.distributed: pip install "polyforms[dask]"'


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise JobError(_DASK_HINT) from None
    return distributed


#: Seconds to reach a Dask scheduler given by address before giving up: dask's
#: own default (30 s) may be paid twice before the error, so a mistyped address
#: would keep the command waiting for a minute.
CONNECT_SECONDS = 10


def _remote_client(distributed: Any, address: str) -> Any:
    """A client of the Dask scheduler at ``address``, or a :class:`~polyforms.jobs.JobError`
    within about :data:`CONNECT_SECONDS`.

    Dask's own timeout covers the TCP connection only: a server that accepts it
    and never answers would keep ``Client()`` waiting for ever, so the client is
    made in a thread given that long (left behind, a daemon, if it never returns).
    Whatever else answers (a web server, say) makes dask fail in its own ways
    (an HTTP reply read as a message length, for one): all of them are "cannot
    reach dask".
    """
    made: dict[str, Any] = {}

    def connect() -> None:
        try:
            made["client"] = distributed.Client(address, timeout=CONNECT_SECONDS)
        except BaseException as error:  # handed to the caller's thread
            made["error"] = error

    thread = threading.Thread(target=connect, name="polyforms-dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + 2)
    if thread.is_alive():
        raise JobError(
            f"cannot reach dask at {address}: no answer from a dask scheduler "
            f"in {CONNECT_SECONDS} s"
        )
    error = made.get("error")
    if isinstance(error, (ValueError, TypeError)):  # no port, unknown protocol
        raise JobError(f"not a dask scheduler address: {error}") from None
    if isinstance(error, Exception):
        text = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        raise JobError(f"cannot reach dask at {address}: {text}") from None
    if error is not None:
        raise error  # KeyboardInterrupt and the like
    return made["client"]


#: Settings for a LocalCluster of our own. Nobody reads its workers'
#: statistical profiles (sampled every 10 ms by default), which cost the workers
#: CPU, so they are off. Its timers (the event loops' tick, system monitors,
#: workers' memory checks) run a few times a second by default and keep an
#: idle cluster busy on the cores the tasks run on; slowed down, they delay
#: only what nobody reads here (dashboards, warnings of a blocked loop), and
#: memory is still checked every second.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}


class Batches:
    """How consecutive tasks are cut into batches, one dask task each (guided
    self-scheduling), with the batch being filled.

    Every dask task costs the scheduler, the client and the worker a few
    milliseconds of CPU, on the cores the tasks run on, while subtasks may take
    only milliseconds: a fixed small batch spends a worker's time on that
    overhead, a fixed large one leaves the last batches on one worker while the
    others idle. So: without a plan (:meth:`expect`) a batch holds
    :attr:`batch` tasks. With one, the first batches (until one has come back,
    :meth:`came_back`) hold :attr:`batch` tasks at most and stop at the floor,
    the planned weight / (:attr:`floor` * workers), as a run may begin with
    heavy tasks. Then a batch takes consecutive tasks until they weigh the
    weight not yet sent / (:attr:`guide` * workers), but at least the floor: big
    batches first, small ones at the end; yet no more than a worker does in
    :attr:`batch_seconds` at the pace of the batches so far (the fraction done
    moves only when a batch comes back), nor more than :attr:`max_batch` tasks.

    Examples
    --------
    >>> batches = Batches()
    >>> batches.expect(400.0, workers=2)  # the floor: 400 / (16 * 2) = 12.5
    >>> [batches.add(Task(str(k), abs, (k,), 5.0), None, workers=2) for k in range(3)]
    [False, False, True]
    >>> [task.id for task, _ in batches.take()]
    ['0', '1', '2']
    """

    batch = 4
    guide = 4
    floor = 16
    batch_seconds = 1.0
    max_batch = 64

    def __init__(self) -> None:
        #: The batch being filled: each task with what travels with it.
        self.filling: list[tuple[Task, Any]] = []
        self.left = 0.0  # the planned weight not yet sent
        #: The weight and the number of tasks at which the batch being filled is sent.
        self.send_weight, self.send_tasks = math.inf, self.batch
        self.forget_plan()

    def forget_plan(self) -> None:
        """Back to no plan, no pace (a new run)."""
        self.floor_weight: float | None = None  # the least weight of a batch; None: no plan
        self.weighed, self.took = 0.0, 0.0  # weight and seconds of the batches back

    def expect(self, weight: float, workers: int) -> None:
        """The run plans tasks of ``weight`` in all, for ``workers``."""
        if weight > 0:
            self.left = weight
            self.floor_weight = weight / (self.floor * workers)

    def capacity(self, workers: int, in_flight: int, out: int) -> int:
        """Tasks the run may have in flight with ``out`` batches out: two batches a
        worker, one running, one waiting on the worker, so that a worker never
        waits for a round trip through the scheduler. Without a plan batches of
        :attr:`batch` tasks; with one, room for another task while fewer than
        two batches a worker are out."""
        if self.floor_weight is None:
            return 2 * self.batch * workers
        return in_flight + int(out < 2 * workers)

    def add(self, task: Task, item: Any, workers: int) -> bool:
        """Put ``task`` (with ``item``, what travels with it) in the batch being
        filled; True when that batch is to be sent now."""
        if not self.filling:
            self._open(workers)
        self.filling.append((task, item))
        weight = sum(queued.weight for queued, _ in self.filling)  # 64 tasks at most
        return weight >= self.send_weight or len(self.filling) >= self.send_tasks

    def take(self) -> list[tuple[Task, Any]]:
        """The batch being filled, taken out: its weight is no longer left to send."""
        batch, self.filling = self.filling, []
        self.left -= sum(task.weight for task, _ in batch)
        return batch

    def came_back(self, weight: float, seconds: float) -> None:
        """A batch of tasks of ``weight`` came back after ``seconds`` of work: the pace."""
        self.took += seconds
        self.weighed += weight

    def _open(self, workers: int) -> None:
        """Set the weight and the number of tasks at which the batch begun now is sent."""
        self.send_weight, self.send_tasks = math.inf, self.batch
        if self.floor_weight is None:
            return
        if not self.took:  # small batches until the pace is known
            self.send_weight = self.floor_weight
            return
        guided = max(self.left / (self.guide * workers), self.floor_weight)
        paced = self.weighed / self.took * self.batch_seconds
        self.send_weight, self.send_tasks = min(guided, paced), self.max_batch


class Dask(Executor):
    """Run tasks on a dask.distributed cluster, a few consecutive tasks per dask task.

    ``client_or_address`` is a ``distributed.Client`` (left open at ``close``),
    a scheduler address such as ``"tcp://host:8786"``, or ``"local"``: a
    LocalCluster of ``workers`` single-threaded processes, started on first use
    and closed with the client by ``close``. Consecutive submitted tasks go as
    one dask task (a batch: how many, see :class:`Batches`), keyed ``tag-id`` by
    its first task's id, with ``pure=False``; ``close`` cancels those still
    running.

    Raises
    ------
    JobError
        dask.distributed is not installed (the message says what to install).
    """

    @property
    def capacity(self) -> int:
        """Two batches a worker (:meth:`Batches.capacity`)."""
        return self.batches.capacity(self.workers, self.in_flight, len(self._futures))

    def expect(self, weight: float) -> None:
        self.batches.expect(weight, self.workers)

    def __init__(self, client_or_address: Any = "local", workers: int = 2) -> None:
        _distributed()
        if not (isinstance(client_or_address, str) or is_dask_client(client_or_address)):
            raise JobError(f"not a dask Client or address: {client_or_address!r}")
        self._target = client_or_address
        self._hint = max(1, int(workers))
        self.note: str | None = None
        if client_or_address == "local":  # its workers are processes of this machine
            self._hint, self.note = capped_workers(self._hint, "dask workers", stacklevel=2)
        self._counted: int | None = None  # the cluster's threads, asked once per run
        self._client: Any = None
        self._cluster: Any = None
        self._completed: Any = None
        # The batches, and the one being filled: each task with its message and
        # its Shared bytes.
        self.batches = Batches()
        self._tag = "polyforms"  # the key prefix of the run's batches
        self._futures: dict[str, tuple[Any, list[Task]]] = {}
        self._finished: deque[tuple[Task, Any]] = deque()  # results of a batch, not yet taken
        self._spool: str | None = None  # for large results, with a cluster of our own

    def start_run(self) -> None:
        super().start_run()
        self._counted = None  # the cluster may have grown or shrunk since the last run
        self.batches.forget_plan()  # until expect()

    @property
    def client(self) -> Any:
        """The ``distributed.Client`` the batches go through (the one given, or one
        made on the first batch); None before that and after :meth:`close`."""
        return self._client

    @property
    def cluster(self) -> Any:
        """The ``LocalCluster`` this executor started for ``"local"``, else None."""
        return self._cluster

    @property
    def workers(self) -> int:  # type: ignore[override]
        """The worker threads of the cluster, asked once per run: the question is a
        round trip to the scheduler, and the run loop reads :attr:`capacity` (hence
        this) before every submission."""
        if self._target == "local":
            return self._hint
        if self._counted is None:
            client = self._connect()  # cannot reach it: a JobError, once
            self._counted = self._hint
            with contextlib.suppress(Exception):
                self._counted = sum(client.nthreads().values()) or self._hint
        return self._counted

    @property
    def in_flight(self) -> int:
        running = sum(len(tasks) for _, tasks in self._futures.values())
        return len(self.batches.filling) + running + len(self._finished)

    def _connect(self) -> Any:
        if self._client is None:
            distributed = _distributed()
            if not isinstance(self._target, str):
                self._client = self._target
            elif self._target == "local":
                import logging

                import dask

                # Our own cluster is an implementation detail: its INFO and its
                # shutdown warnings ("lose already computed tasks") are noise here.
                logging.getLogger("distributed").setLevel(logging.ERROR)
                with dask.config.set(LOCAL_CLUSTER_CONFIG):
                    self._cluster = distributed.LocalCluster(
                        n_workers=self._hint,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=":0",  # any free port: several clusters may run
                        silence_logs=logging.ERROR,
                    )
                self._client = distributed.Client(self._cluster)
                # Its workers run on this machine: large results (a catalogue's
                # chunks, gigabytes in all) come back as files, as from
                # Processes, not through the scheduler's sockets.
                self._spool = make_spool(self)
            else:
                self._client = _remote_client(distributed, self._target)
            # The results come with the futures, fetched by the client's event loop
            # as they finish: asking each future for its result is another round trip.
            self._completed = distributed.as_completed(
                loop=self._client.loop, with_results=True, raise_errors=False
            )
        return self._client

    def submit(self, task: Task, tag: str = "") -> None:
        # Each task is pickled on its own: dask walks every nested argument looking
        # for futures, which costs seconds for a tiling spec of thousands of tuples.
        payload, shared = pickled_task(task)
        self._tag = tag or self._tag
        if self.batches.add(task, (payload, shared), self.workers):
            self._send()

    def _send(self) -> None:
        client = self._connect()
        batch = self.batches.take()
        tasks = [task for task, _ in batch]
        calls = [(task.id, payload) for task, (payload, _) in batch]
        shared = {key: bytes(data) for _, (_, held) in batch for key, data in held.items()}
        key = f"{self._tag}-{tasks[0].id}"
        future = client.submit(
            _call_pickled, calls, self._spool, transport.SPOOL_BYTES, shared, key=key, pure=False
        )
        self._futures[future.key] = (future, tasks)
        self._completed.add(future)

    def next_result(self) -> tuple[Task, Any]:
        if not self._finished:
            if self.batches.filling:
                self._send()  # a part batch rather than an idle worker
            future, outcome = next(self._completed)
            _, tasks = self._futures.pop(future.key)
            if future.status != "finished":
                # An error comes as (type, exception, traceback); a cancellation as
                # the exception. The worker noted which subtask raised it.
                if future.status == "error":
                    raise outcome[1].with_traceback(outcome[2])
                raise outcome
            where, results, seconds = outcome
            if results and isinstance(results[-1], _Failed):
                raise results[-1].error
            self._ended(where)
            self.batches.came_back(sum(task.weight for task in tasks), seconds)
            self._finished.extend(zip(tasks, results))
        return self._finished.popleft()

    def close(self) -> None:
        futures = [future for future, _ in self._futures.values()]
        self._futures.clear()
        self.batches.filling.clear()
        self._finished.clear()
        client, cluster = self._client, self._cluster
        with contextlib.suppress(Exception):
            if futures:
                client.cancel(futures, force=True)
        if self._completed is not None:
            self._completed.clear()
        if isinstance(self._target, str) and client is not None:
            self._client = self._cluster = self._completed = None
            with contextlib.suppress(Exception):
                client.close()
            with contextlib.suppress(Exception):
                if cluster is not None:
                    cluster.close()
        remove_spool(self)


_malloc_kept = False  # in a worker of our own Dask cluster: _keep_freed_memory done


def _keep_freed_memory() -> None:
    """In a worker of our own Dask cluster, have glibc's malloc keep freed memory.

    Dask runs tasks in a thread, and glibc hands the free top of a thread's
    arena back to the system at each free, so a catalogue subtask's buffers
    would be zero-filled again page by page for every piece it formats, in
    system time a worker process (main arena) does not pay. With 64 MiB kept at
    the top of an arena and blocks under 32 MiB taken from arenas, not mapped
    afresh, a worker of the cluster formats as a worker process does. A worker
    of someone else's cluster is left as it is; without glibc nothing changes.
    """
    global _malloc_kept
    _malloc_kept = True
    import ctypes

    with contextlib.suppress(OSError, AttributeError, TypeError):  # TypeError: Windows
        mallopt = ctypes.CDLL(None).mallopt
        mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        mallopt(-1, 64 << 20)  # M_TRIM_THRESHOLD
        mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD


@dataclass(frozen=True)
class _Failed:
    """A batch's last result when its task raised an error that is not a fault
    (see :func:`_call_pickled`)."""

    error: BaseException


def _call_pickled(
    calls: list[tuple[str, bytes]],
    spool: str | None = None,
    limit: int = transport.SPOOL_BYTES,
    shared: dict[str, bytes] | None = None,
) -> tuple[str, list[Any], float]:
    """Run a batch of tasks, each shipped as its id and ``pickle.dumps((function, args))``
    (see :meth:`Dask.submit`), their :class:`~polyforms.jobs.Shared` arguments in ``shared``.
    Return the worker's address (for :attr:`~polyforms.jobs.Executor.tail`), the results in
    order, large bytes as files in ``spool`` when given (a cluster on this
    machine), and the seconds they took (the pace of batches). An error names
    its subtask (Python >= 3.11)."""
    if spool is not None and not _malloc_kept:
        _keep_freed_memory()
    # Workers of a cluster usually fill the cores of their machine: each tiling
    # memo takes its share of the memory.
    limits.memo_sharers = max(limits.memo_sharers, available_cores())
    results = []
    start = time.perf_counter()
    for task_id, payload in calls:
        function, args = unpickled_task(payload, shared or {})
        try:
            results.append(spooled_result(function(*args), spool, limit))
        except Exception as error:
            if hasattr(error, "add_note"):
                error.add_note(f"in subtask {task_id}, on dask")
            if not isinstance(error, (PolyformError, MemoryError)):
                raise  # a fault: the worker logs it, with its traceback
            # The caller's error, or too little memory: the run says so in one
            # line. Raised, it would first be logged with its traceback by the
            # worker ("Compute Failed") on the terminal of a local cluster.
            results.append(_Failed(error))
            break
    try:
        from distributed import get_worker

        where = get_worker().address
    except (ImportError, ValueError):
        where = ""
    return where, results, time.perf_counter() - start

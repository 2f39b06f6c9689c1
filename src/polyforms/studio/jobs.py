"""The studio's runs: each in a process of its own, watched by a thread, stoppable.

A count may take hours inside the compiled kernel, which a thread cannot
interrupt; a process can be ended at once. The processes are forked by a
*forkserver* that imported the tiling library once (``set_forkserver_preload``),
so a job starts in milliseconds, and the server's own threads are never
forked. :class:`Jobs` keeps the runs by id, the finished ones with their
results (the last :data:`MAX_KEPT`, so a reloaded page finds them), the server
pushes a run's state to the page as it changes (:mod:`polyforms.studio.app`),
and :meth:`Jobs.stop` ends a run within :data:`STOP_SECONDS`.
"""

from __future__ import annotations

import multiprocessing
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import PolyformError
from .puzzle import Puzzle
from .work import KINDS

__all__ = ["MAX_RUNNING", "STOP_SECONDS", "Job", "Jobs"]

#: Runs at once (each a process, each a core while it counts).
MAX_RUNNING = 2
#: Jobs remembered with their results, the oldest finished forgotten first (a
#: page of 48 pictures is a few hundred KB: a dozen stay well under 10 MB).
MAX_KEPT = 12
#: How long :meth:`Jobs.stop` waits for SIGTERM before SIGKILL.
STOP_SECONDS = 1.0

_context_lock = threading.Lock()
_context = None


def _forkserver():
    """The multiprocessing context of the job processes (made once)."""
    global _context
    with _context_lock:
        if _context is None:
            methods = multiprocessing.get_all_start_methods()
            _context = multiprocessing.get_context(
                "forkserver" if "forkserver" in methods else "spawn"
            )
            if "forkserver" in methods:
                _context.set_forkserver_preload(["polyforms.studio._preload"])
        return _context


@dataclass
class Job:
    """One run: its kind, its process, and what it ended with."""

    id: str
    kind: str
    params: dict
    process: Any = None
    state: str = "running"  # running, done, error, stopped
    result: Any = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    seconds: float | None = None
    progress: dict | None = None  # fraction, eta, elapsed, done, total, unit of a count

    def to_json(self) -> dict[str, Any]:
        elapsed = self.seconds if self.seconds is not None else time.monotonic() - self.started
        return {
            "id": self.id, "kind": self.kind, "params": self.params, "state": self.state,
            "seconds": round(elapsed, 3), "result": self.result, "error": self.error,
            "progress": self.progress,
        }  # fmt: skip


class Jobs:
    """The runs of one studio server."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.jobs: dict[str, Job] = {}

    def start(self, kind: str, puzzle: Puzzle, params: dict) -> Job:
        """Start a run of ``kind`` (:data:`~polyforms.studio.work.KINDS`) in a new process.

        Raises
        ------
        PolyformError
            Unknown kind, or :data:`MAX_RUNNING` runs already going.
        """
        if kind not in KINDS:
            raise PolyformError(f"unknown job {kind[:20]!r}; choose {', '.join(KINDS)}")
        context = _forkserver()
        with self.lock:
            running = sum(1 for job in self.jobs.values() if job.state == "running")
            if running >= MAX_RUNNING:
                raise PolyformError(f"{running} runs are going: stop one first")
            self._forget_old()
            job = Job(secrets.token_hex(8), kind, params)
            receiver, sender = context.Pipe(duplex=False)
            job.process = context.Process(
                target=_run, args=(kind, puzzle.to_json(), params, sender), daemon=True,
                name=f"polyforms-studio-{kind}",
            )  # fmt: skip
            job.process.start()
            sender.close()
            self.jobs[job.id] = job
        threading.Thread(target=self._watch, args=(job, receiver), daemon=True).start()
        return job

    def warm_up(self) -> None:
        """Start the forkserver and its imports now, in a thread: the first run then
        starts in milliseconds, not the half second the forkserver takes to start."""

        def start() -> None:
            process = _forkserver().Process(target=_nothing, daemon=True)
            process.start()
            process.join()

        threading.Thread(target=start, daemon=True, name="polyforms-studio-warm").start()

    def _watch(self, job: Job, receiver) -> None:
        """File the run's progress messages as they come, then its last message (or its end)."""
        try:
            state, value, seconds = receiver.recv()
            while state == "progress":
                job.progress = value
                state, value, seconds = receiver.recv()
        except (EOFError, OSError):
            state, value, seconds = "error", "the run ended without a result", None
        finally:
            receiver.close()
        job.process.join(STOP_SECONDS)
        with self.lock:
            if job.state != "running":  # stopped meanwhile
                return
            # The result before the state: a reader who sees the run ended sees its result.
            job.seconds = seconds if seconds is not None else time.monotonic() - job.started
            if state == "done":
                job.result = value
            else:
                job.error = value
            job.state = state

    def _forget_old(self) -> None:
        finished = [job for job in self.jobs.values() if job.state != "running"]
        for job in finished[: max(0, len(self.jobs) - MAX_KEPT + 1)]:
            del self.jobs[job.id]

    def get(self, job_id: str) -> Job | None:
        with self.lock:
            return self.jobs.get(job_id)

    def listing(self) -> list[dict[str, Any]]:
        """Every remembered job, oldest first, without results (a reload finds them)."""
        with self.lock:
            return [{**job.to_json(), "result": None} for job in self.jobs.values()]

    def stop(self, job_id: str) -> Job | None:
        """End a run: SIGTERM, then SIGKILL after :data:`STOP_SECONDS`."""
        job = self.get(job_id)
        if job is None:
            return None
        with self.lock:
            if job.state != "running":
                return job
            job.state = "stopped"
            job.seconds = time.monotonic() - job.started
        _end(job.process)
        return job

    def stop_all(self) -> None:
        """End every run (the server is stopping)."""
        for job_id in list(self.jobs):
            self.stop(job_id)


def _end(process) -> None:
    process.terminate()
    process.join(STOP_SECONDS)
    if process.is_alive():
        process.kill()
        process.join(STOP_SECONDS)


def _nothing() -> None:
    pass


def _run(kind: str, puzzle_json: dict, params: dict, connection) -> None:
    from .work import run

    run(kind, puzzle_json, params, connection)

"""Shared test fixtures: the cited oracle tables in data/ (each file names its sources)."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "data"


def read_table(name: str) -> dict[str, list[int]]:
    """Rows of ``data/<name>`` keyed by their first column; terms start at n = 1."""
    lines = [line for line in (DATA / name).read_text().splitlines() if not line.startswith("#")]
    rows = csv.reader(lines)
    header = next(rows)
    first = header.index("1")
    return {row[0]: [int(v) for v in row[first:] if v != ""] for row in rows}


@pytest.fixture(scope="session")
def oracle():
    """``oracle("file.csv")`` -> {row name: [term for n = 1, 2, ...]}."""
    return read_table


def run_cli(*args: str, stdin: str | None = None, cwd: str | os.PathLike | None = None):
    """Run ``python -m polyforms.cli ARGS`` in a subprocess; return the CompletedProcess."""
    import polyforms

    # The child must import the same polyforms as the tests (installed or in-tree).
    package_root = str(Path(polyforms.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "polyforms.cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )


@pytest.fixture(scope="session")
def cli():
    """``cli(*args, stdin=None, cwd=None)`` runs the command line in a subprocess."""
    return run_cli


@pytest.fixture(scope="session")
def require_compiled():
    """``require_compiled("tiling")`` returns the compiled core of a kernel (a name
    of ``polyforms._backend.KERNELS``); a missing one fails.

    The build is part of installation, so a kernel that is not there is a
    failure, not a silent pass, unless POLYFORMS_BACKEND=python forces the
    reference on purpose (then the test is skipped with that reason).
    """
    from polyforms import _backend  # the twin pattern's one choice of kernels

    def require(name: str):
        if _backend.backend_name() == "python":
            pytest.skip("POLYFORMS_BACKEND=python forces the reference")
        if os.environ.get("POLYFORMS_EXPECT_PURE"):
            pytest.skip("installed without a compiler on purpose (POLYFORMS_EXPECT_PURE)")
        core = _backend.compiled(name)
        if core is None:
            pytest.fail(f"the compiled core of the {name} kernel is not built")
        return core

    return require


def _stat(pid: int | str) -> tuple[str, int]:
    """(state, parent pid) of a process from /proc; ("gone", 0) when it has gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return "gone", 0
    return fields[0], int(fields[1])


def _live_children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` and that are not zombies (Linux /proc)."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        state, parent = _stat(entry)
        if parent == pid and state not in ("Z", "gone"):
            found.append(int(entry))
    return found


def _start_with_workers(
    command: list[str], wait: float, env: dict | None = None
) -> tuple[subprocess.Popen, list[int]]:
    """Start ``command`` in a session of its own; wait up to ``wait`` seconds for two
    live children (its workers). Returns the process and the children found."""
    child = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=env,
    )
    deadline = time.monotonic() + wait
    while len(_live_children(child.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    return child, _live_children(child.pid)


@pytest.fixture(scope="session")
def processes():
    """``processes.stat(pid)`` -> (state, parent pid); ``processes.live_children(pid)``:
    the pids of its children that are not zombies (Linux /proc);
    ``processes.start_with_workers(command, wait, env=None)`` -> (process, its workers)."""
    import types

    return types.SimpleNamespace(
        stat=_stat, live_children=_live_children, start_with_workers=_start_with_workers
    )


@pytest.fixture
def interrupt_at(monkeypatch):
    """``interrupt_at(module, name, stop_at, ran)`` wraps the task function
    ``module.name`` so that it appends its arguments to ``ran`` and sends SIGINT
    to this process on run ``stop_at`` (an interruption at a chosen subtask)."""

    def wrap(module, name: str, stop_at: int, ran: list) -> None:
        original = getattr(module, name)

        def counted(*args):
            ran.append(args)
            if len(ran) == stop_at:
                os.kill(os.getpid(), signal.SIGINT)
            return original(*args)

        monkeypatch.setattr(module, name, counted)

    return wrap


@pytest.fixture
def in_process():
    """``in_process(stop_at=None)``: an executor of the job layer that runs each task
    in this process (:class:`polyforms.jobs.InProcess`) and keeps the tasks it
    finished, in order, in its ``ran``; with ``stop_at``, it sends SIGINT to this
    process as task ``stop_at`` starts, which then never finishes (an
    interruption at a chosen subtask, as Ctrl-C makes one). Pass it as
    ``executor=`` to any long run."""
    from polyforms import jobs

    class Recording(jobs.InProcess):
        def __init__(self, stop_at: int | None = None) -> None:
            super().__init__()
            self.stop_at, self.started, self.ran = stop_at, 0, []

        def next_result(self):
            self.started += 1
            if self.started == self.stop_at:
                os.kill(os.getpid(), signal.SIGINT)  # handled as the task's call starts
            task, result = super().next_result()
            self.ran.append(task)
            return task, result

    return Recording


@pytest.fixture(scope="module")
def dask_client():
    """A 2-worker Dask LocalCluster for a test module (skipped without distributed)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture
def executors(dask_client):
    """A function giving fresh long-run options for each executor: in process, 2 local
    processes and the Dask cluster."""
    from polyforms import jobs

    def make() -> dict[str, dict]:
        return {
            "in-process": {"progress": lambda _: None},
            "2 processes": {"jobs": 2},
            "dask": {"executor": jobs.Dask(dask_client)},
        }

    return make

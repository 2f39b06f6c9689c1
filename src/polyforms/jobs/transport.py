"""How a task reaches a worker and how its result comes back.

A task travels as one pickled message, ``(function, args)``, with its
:class:`~polyforms.jobs.Shared` arguments left out and sent apart, once per
worker (:func:`pickled_task`, :func:`unpickled_task`). A large bytes result
comes back as a file in the run's spool directory, a
:class:`~polyforms.jobs.Spooled`, rather than through the pipe or socket
(:func:`spooled_result`). Both local worker processes and Dask workers on this
machine use them.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pickle
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from .tasks import JobError, Pieces, Shared, Spooled, Task

#: A worker hands back a bytes result at least this long through a file in the
#: run's spool directory, not the pipe (see :class:`~polyforms.jobs.Spooled`).
#: Read when a pool starts, and passed on to its workers: a lowered one reaches
#: every kind of worker.
SPOOL_BYTES = 256 * 1024

#: Shared bytes a worker process keeps, the most recent; the parent keeps the
#: same list for each worker (both see the same messages in the same order).
SHARED_KEPT = 8


class _SharedRef(NamedTuple):
    """Stands for a :class:`~polyforms.jobs.Shared` argument in a task's message."""

    key: str


def pickled_task(task: Task) -> tuple[bytes, dict[str, Shared]]:
    """``(function, args)`` of ``task`` pickled for a worker process or a Dask worker,
    its :class:`~polyforms.jobs.Shared` arguments left out (stood for by their
    keys) and returned apart, by key."""
    shared = {arg.key: arg for arg in task.args if type(arg) is Shared}
    args = task.args
    if shared:
        args = tuple(_SharedRef(arg.key) if type(arg) is Shared else arg for arg in args)
    try:
        return pickle.dumps((task.function, args), protocol=pickle.HIGHEST_PROTOCOL), shared
    except Exception as error:
        raise JobError(f"subtask {task.id} cannot be sent to a worker: {error}") from None


def unpickled_task(message: bytes, shared: dict[str, bytes]) -> tuple[Callable[..., Any], tuple]:
    """The function and arguments of a task's message, its shared bytes put back."""
    function, args = pickle.loads(message)
    if any(type(arg) is _SharedRef for arg in args):
        args = tuple(shared[arg.key] if type(arg) is _SharedRef else arg for arg in args)
    return function, args


def keep_recent(kept: dict[str, Any], key: str, value: Any) -> None:
    """Add ``key`` to ``kept``, dropping the oldest beyond :data:`SHARED_KEPT`."""
    kept[key] = value
    while len(kept) > SHARED_KEPT:
        del kept[next(iter(kept))]


def make_spool(owner: Any) -> str:
    """A new spool directory for ``owner``'s workers; removed by :func:`remove_spool`,
    or when ``owner`` is garbage-collected or the interpreter exits unclosed."""
    import tempfile
    import weakref

    path = tempfile.mkdtemp(prefix="polyforms-spool-")
    owner._spool_finalizer = weakref.finalize(owner, _rmtree_in, os.getpid(), path)
    return path


def _rmtree_in(pid: int, path: str) -> None:
    """Remove ``path`` if this is process ``pid``: a child forked by the caller
    (not our workers, which end without exit hooks) must not, at its exit,
    remove the directory its parent still uses."""
    if os.getpid() == pid:
        import shutil

        shutil.rmtree(path, ignore_errors=True)


def remove_spool(owner: Any) -> None:
    """Remove the spool directory :func:`make_spool` made for ``owner``, if any."""
    finalizer = getattr(owner, "_spool_finalizer", None)
    owner._spool = owner._spool_finalizer = None
    if finalizer is not None:
        finalizer()  # once: removes the directory and forgets it


def spooled_result(result: Any, spool: str | None, limit: int) -> Any:
    """``result`` as a task hands it back: a :class:`~polyforms.jobs.Spooled` file
    holding it when it is bytes or :class:`~polyforms.jobs.Pieces` of at least
    ``limit`` and the process has a spool directory (that of its pool, on the
    same machine); else as it is, :class:`~polyforms.jobs.Pieces` joined. The
    limit comes from the parent (:data:`SPOOL_BYTES` when the pool started)."""
    if spool is None:
        return result.join() if isinstance(result, Pieces) else result
    if isinstance(result, Pieces):
        return _spooled_pieces(iter(result.pieces), spool, limit)
    if isinstance(result, (bytes, bytearray)) and len(result) >= limit:
        return _spooled_pieces(iter((result,)), spool, limit)
    return result


def _spooled_pieces(pieces: Iterator[bytes], spool: str, limit: int) -> Any:
    """Pieces of a result joined if they stay under ``limit``, else a spool file
    written piece by piece (joined in memory if the spool cannot take them)."""
    head: list[bytes] = []
    size = 0
    for piece in pieces:
        head.append(piece)
        size += len(piece)
        if size >= limit:
            break
    else:
        return b"".join(head)
    import tempfile

    rest = itertools.chain(head, pieces)
    try:
        handle, path = tempfile.mkstemp(dir=spool)
    except OSError:
        return b"".join(rest)  # the spool is gone: the pipe still works
    done = 0  # bytes in the file
    try:
        with open(handle, "wb", buffering=0) as stream:
            for piece in rest:  # an error of the task's own comes out of here
                pending = memoryview(piece)
                try:
                    while pending:
                        wrote = stream.write(pending)
                        pending, done = pending[wrote:], done + wrote
                except OSError:  # a full disk, say: read back what it took, send by pipe
                    stream.close()
                    with open(path, "rb") as written:
                        whole = written.read(done)
                    os.unlink(path)
                    return whole + bytes(pending) + b"".join(rest)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    return Spooled(path, done)

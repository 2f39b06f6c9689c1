"""The task protocol: what a job hands the job layer, and what its tasks hand back.

A *job* (:class:`Job`, :class:`StaticJob`) lists :class:`Task` objects in merge
order; a task is a module-level function and its arguments, so that it pickles
by reference and runs anywhere. A task returns its result, or :class:`Continued`
when it stopped with work left; a result of many bytes may be made as
:class:`Pieces`, and comes back from a worker process as a :class:`Spooled`
file. Arguments that many tasks share travel once as :class:`Shared` bytes.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import io
import math
import os
import re
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import IO, Any, Protocol

from ..errors import PolyformError

__all__ = [
    "CheckpointError",
    "Continued",
    "Job",
    "JobError",
    "Pieces",
    "Shared",
    "Spooled",
    "StaticJob",
    "Task",
]


class JobError(PolyformError):
    """A job cannot run as asked: bad task or plan, missing optional dependency, dead worker."""


class CheckpointError(JobError):
    """A checkpoint file belongs to another command, is in use, or is not a checkpoint."""


@dataclass(frozen=True)
class Task:
    """One subtask: ``function(*args)`` gives its result.

    Parameters
    ----------
    id : str
        Stable id such as ``"3"`` or ``"3.1.4"``: dot-separated words of letters,
        digits, ``_`` and ``-``; a child's id is its parent's id plus ``".k"``.
    function : callable
        A module-level function, so that it pickles by reference.
    args : tuple
    weight : float
        Estimated size (for example nodes of the subtree); drives planning and progress.
    """

    id: str
    function: Callable[..., Any]
    args: tuple = ()
    weight: float = 1.0


@dataclass(frozen=True)
class Continued:
    """The result of a subtask that stopped with work left (counts only).

    ``result`` is what it did (added to the sum like any result); ``rest``
    describes what is left, as JSON values, and ``weights`` estimates each
    item of it. The job's ``resume(task, rest, weights)`` turns them into new
    tasks with ids ``task.id + ".cK"``; a checkpoint journals them all, so a
    resumed run takes up the same new tasks. ``done``, if known, is the share
    (0 to 1) of the task's own weight that it did; progress counts that much
    of it as done (without it: the task's weight less the rest's).
    """

    result: Any
    rest: list
    weights: list
    done: float | None = None


class Job(Protocol):
    """What :func:`~polyforms.jobs.run` needs: a ``key`` and the deterministic split ``tasks()``.

    ``key`` names the work (command and parameters) and is written into
    checkpoints. ``tasks()`` lists the tasks in merge order. A job may also
    define ``refine(task) -> Sequence[Task] | None``: the children of a task in
    merge order, whose results concatenated (summed) equal the task's result,
    or None if it cannot be split. :func:`~polyforms.jobs.plan` uses it to
    balance the work. A job whose results are summed may let a task stop early
    with a :class:`Continued` result; it then defines ``resume(task, rest,
    weights) -> Sequence[Task]``, the tasks that do the rest (ids ``task.id +
    ".cK"``), which run after the planned ones. A job whose results are bytes
    (chunks of output) says so with ``chunks = True``: a journal that gives one
    of its tasks anything else is damaged (:class:`CheckpointError`).
    """

    key: str

    def tasks(self) -> Sequence[Task]: ...


@dataclass(frozen=True)
class StaticJob:
    """A job from a list of tasks and an optional ``refiner(task)``."""

    key: str
    task_list: Sequence[Task]
    refiner: Callable[[Task], Sequence[Task] | None] | None = None

    def tasks(self) -> Sequence[Task]:
        return self.task_list

    def refine(self, task: Task) -> Sequence[Task] | None:
        return None if self.refiner is None else self.refiner(task)


#: Task ids name side files of a checkpoint, so they are kept to safe characters.
TASK_ID = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\Z")


def check_tasks(tasks: Sequence[Task], parent: str | None = None) -> None:
    """Raise :class:`JobError` unless ``tasks`` are tasks with distinct well-formed
    ids (extending ``parent``'s, if given) and finite weights at least 0."""
    seen: set[str] = set()
    for task in tasks:
        if not isinstance(task, Task) or not isinstance(task.id, str) or not TASK_ID.match(task.id):
            raise JobError(f"bad task id {getattr(task, 'id', task)!r}: use words like 3.1.4")
        if parent is not None and not task.id.startswith(parent + "."):
            raise JobError(f"child {task.id!r} of task {parent!r} must have an id {parent}.k")
        if task.id in seen:
            raise JobError(f"two tasks have the id {task.id!r}")
        if not (math.isfinite(task.weight) and task.weight >= 0):
            raise JobError(f"task {task.id!r} has weight {task.weight!r}; weights are >= 0")
        seen.add(task.id)


class Shared(bytes):
    """Bytes that many tasks of a job take as an argument (a tiling count's spec,
    tens of kilobytes). A worker process gets them once, not with every task,
    and a Dask batch once for all its tasks; a task run in this process sees
    them as the bytes they are. Only a task's own arguments are looked at, not
    what they hold."""

    @functools.cached_property
    def key(self) -> str:
        return hashlib.sha1(self).hexdigest()


class Pieces:
    """A task's bytes result made piece by piece: its value is the pieces joined.

    A worker with a spool directory writes the pieces to a spool file as they
    come, so a result of many megabytes is never whole in its memory: a chunk
    of a catalogue formatted whole would come into fresh memory that the
    system zero-fills page by page, which costs more than the formatting.
    Everywhere else (this process, a remote cluster) the pieces are joined.
    """

    __slots__ = ("pieces",)

    def __init__(self, pieces: Iterable[bytes]) -> None:
        self.pieces = pieces

    def join(self) -> bytes:
        return b"".join(self.pieces)


#: What copy_file_range answers when it cannot copy between two files (other file
#: systems on older kernels, special files): Python copies instead.
_NO_KERNEL_COPY = {errno.EXDEV, errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EBADF}
#: Errors that Python's copy would meet too: raised at once.
_FATAL = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG}


def open_regular(path: str) -> IO[bytes]:
    """Open ``path`` to read, only if it is a regular file and not a symbolic link.

    Chunk and spool files live in folders of the job layer's own, which a
    hostile user of a shared folder could plant links in: such a link would
    copy an outside file's bytes into the output. ``O_NOFOLLOW`` refuses a link
    as the file is opened, and the check is made on the opened file, so it
    cannot be swapped between a check and the open.

    Raises
    ------
    CheckpointError
        ``path`` is a link, a directory, a FIFO or a device.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = regular_descriptor(path, flags, "not a file of this run")
    except OSError as error:
        if error.errno == errno.ELOOP:  # O_NOFOLLOW met a link
            raise CheckpointError(f"{path} is a symbolic link, not a file of this run") from None
        raise
    return os.fdopen(fd, "rb")


def regular_descriptor(path: str, flags: int, why: str) -> int:
    """A descriptor of ``path`` opened with ``flags``, without blocking (reading a
    FIFO would wait for ever), refused with :class:`CheckpointError` ("PATH is
    not a regular file, WHY") unless the opened file is a regular file. OSError
    passes."""
    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise CheckpointError(f"{path} is not a regular file, {why}")
    return fd


class Spooled:
    """A bytes result that a worker process left in a file, for the parent to copy.

    Through the pipe, a result is copied into the pipe, out of it, into a
    buffer and by unpickling into a bytes object, on the parent's CPU and
    the cores the workers need. From a file, :meth:`copy_to` has the kernel
    copy it to the output (``os.copy_file_range``). The job layer hands these
    only to consumers that ask for them (``files=True``); everyone else gets
    the bytes from :meth:`read`.
    """

    __slots__ = ("path", "size", "owned")

    def __init__(self, path: str, size: int, owned: bool = True) -> None:
        self.path, self.size, self.owned = path, size, owned  # owned: deleted once used

    def __len__(self) -> int:
        return self.size

    def _done(self) -> None:
        if self.owned:
            with contextlib.suppress(OSError):
                os.unlink(self.path)

    def read(self) -> bytes:
        """The bytes (the file is then deleted, if the result owns it)."""
        with open_regular(self.path) as handle:
            data = handle.read()
        self._done()
        return data

    def head(self) -> bytes:
        """The first line, newline included: where a chunk keeps its count."""
        with open_regular(self.path) as handle:
            return handle.readline(64)

    def copy_to(self, stream: Any, start: int = 0) -> None:
        """Append the bytes from offset ``start`` to ``size`` to the binary ``stream``.

        The kernel copies into plain files (``io.FileIO`` and the buffered
        writers over one); any other stream, a kernel that refuses before the
        first byte, or one that stops early, gets the rest copied by Python.
        A source shorter than ``size`` is an error (:class:`JobError`).
        """
        with open_regular(self.path) as source:
            start = self._kernel_copy(source, stream, start)
            self._python_copy(source, stream, start)
        self._done()

    def _kernel_copy(self, source: IO, stream: Any, start: int) -> int:
        """Copy what the kernel will from ``start`` on; return where it stopped."""
        if not isinstance(stream, (io.FileIO, io.BufferedWriter, io.BufferedRandom)):
            return start
        stream.flush()
        left = whole = self.size - start
        try:
            out = stream.fileno()
            while left > 0:
                copied = os.copy_file_range(source.fileno(), out, left, start)
                if copied == 0:
                    break  # the source ends early: Python finds how short
                start, left = start + copied, left - copied
        except (AttributeError, io.UnsupportedOperation):
            pass  # no copy_file_range on this system
        except OSError as error:
            # Refused before the first byte (another file system, a sandbox's
            # EPERM): Python copies. A full disk, or a failure part way: the
            # error stands.
            if error.errno in _FATAL or (left < whole and error.errno not in _NO_KERNEL_COPY):
                raise
        return start

    def _python_copy(self, source: IO, stream: Any, start: int) -> None:
        """Copy the bytes from ``start`` to ``size`` block by block."""
        left = self.size - start
        source.seek(start)
        while left > 0:
            block = source.read(min(left, 1 << 20))
            if not block:
                raise JobError(
                    f"a spooled result is {left} bytes shorter than its {self.size}: {self.path}"
                )
            view = memoryview(block)
            while view:  # a raw file may take part of a block
                view = view[stream.write(view) :]
            left -= len(block)

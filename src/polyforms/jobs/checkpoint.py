"""The checkpoint: a journal of finished tasks, from which an interrupted run resumes.

A :class:`Checkpoint` is one file of JSON lines, a header then one line per
finished task, with output chunks (bytes results) in side files beside it.
Each line is written whole and synced before the next task's, so a crash loses
at most the line being written, which the next opening drops.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import secrets
import stat
import tempfile
from collections.abc import Sequence
from typing import Any

from .._atomic import check_output_path
from ..limits import MAX_HEADER_LINE, MAX_JOURNAL_LINE
from .tasks import (
    TASK_ID,
    CheckpointError,
    Continued,
    JobError,
    Spooled,
    Task,
    open_regular,
    regular_descriptor,
)

__all__ = ["Checkpoint"]

_HEADER = b'{"polyforms-checkpoint": '
#: Bytes of a header line besides its key: the other fields (a sweep's count so far
#: may have dozens of digits).
_HEADER_ROOM = 256


def check_apart(output: Any, checkpoint: Any) -> None:
    """Raise :class:`~polyforms.jobs.CheckpointError` if ``checkpoint`` names the
    file ``output`` writes.

    The finished output would replace the journal (or a journal the output),
    and the next run with that checkpoint would be refused or start over.
    ``None`` and ``"-"`` (standard output) are always apart.
    """
    if checkpoint is None or not isinstance(output, (str, bytes, os.PathLike)):
        return  # no checkpoint, no output file, or a stream
    if os.fsdecode(os.fspath(output)) == "-":
        return
    same = os.path.realpath(output) == os.path.realpath(checkpoint)
    if not same:
        with contextlib.suppress(OSError):
            same = os.path.samefile(output, checkpoint)  # hard links
    if same:
        raise CheckpointError(
            f"the checkpoint {os.fspath(checkpoint)} is the output file: give it another name"
        )


class Checkpoint:
    """A journal of finished tasks at ``path``, for resuming the job named ``key``.

    The first line is a JSON header ``{"polyforms-checkpoint": 1, "key": KEY,
    "workers": W, "plan": P}`` (W: the worker count the plan was made for,
    reused on resume so the task ids match; P: a digest of the planned ids and
    weights, which must match on resume: a subtask id of another plan may name
    another subtree); then one JSON line per finished task,
    ``{"id": ID, "result": R}`` for JSON results or ``{"id": ID, "bytes": NAME,
    "size": N}`` for bytes, stored in ``PATH.chunks/NAME`` (written to a temporary
    name and renamed before the line is appended); a task that stopped early
    (:class:`~polyforms.jobs.Continued`) adds ``"rest"``, ``"weights"`` and, if known,
    ``"done"``; ``"t"`` is the seconds of work of the journal's runs when the
    task ended (a resumed run's first ETA comes from it). Each line is one ``write``
    followed by fsync; on opening, a last line cut short by a crash is dropped
    and truncated away. The file is locked while open. A finished journal is
    kept (re-running returns the result at once); :meth:`remove` deletes it.
    """

    def __init__(self, path: str | os.PathLike[str], key: str) -> None:
        name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
        if not isinstance(name, str) or not name:  # 5, b"x", ""
            raise CheckpointError(f"a checkpoint is a file name, not {path!r:.40}")
        if len(json.dumps(key)) > MAX_HEADER_LINE - _HEADER_ROOM:
            # the header would pass the bound its reader takes it at (another file)
            raise CheckpointError(
                f"the key of this job is too long for a checkpoint ({len(key)} characters; "
                f"a header line holds {MAX_HEADER_LINE} bytes)"
            )
        self.path = name
        self.key = key
        self.chunks = self.path + ".chunks"
        self.entries: dict[str, dict] = {}
        self._fd: int | None = None
        self._header: dict | None = None
        self._workers = 1

    def open(self, workers: int) -> int:
        """Open or create the journal, load its entries; return the planned worker
        count. A new journal's header is written by :meth:`begin`.

        Raises
        ------
        CheckpointError
            The file belongs to another key, is not a checkpoint, or is in use.
        """
        try:
            fd = open_checkpoint(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND)
        except OSError as error:
            check_output_path(self.path)  # names the missing directory, the permission, ...
            raise CheckpointError(f"{self.path}: cannot open it ({error.strerror})") from None
        try:
            with contextlib.suppress(ImportError):
                import fcntl  # a POSIX record lock: unlike flock, forked workers do not hold it

                try:
                    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    raise CheckpointError(f"{self.path} is in use by another run") from None
            # Read through this fd: closing another fd of the file would drop the lock.
            os.lseek(fd, 0, os.SEEK_SET)
            reader = _LineReader(fd)
            header, keep = self._parse(reader)
            if keep < reader.total:
                os.ftruncate(fd, keep)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        self._fd, self._header = fd, header
        recorded = header and header.get("workers")
        self._workers = recorded if isinstance(recorded, int) and recorded > 0 else workers
        return self._workers

    def begin(self, plan: str) -> None:
        """Write a new journal's header with ``plan`` (:func:`plan_digest` of the
        tasks planned), or check an old journal's: its results belong to the
        subtasks of its own plan (journals without one, of earlier versions, are
        taken as they are)."""
        assert self._fd is not None, "open() first"
        if self._header is None:
            self._header = {
                "polyforms-checkpoint": 1, "key": self.key, "workers": self._workers, "plan": plan
            }  # fmt: skip
            _append(self._fd, (json.dumps(self._header) + "\n").encode())
        elif self._header.get("plan", plan) != plan:
            raise CheckpointError(
                f"{self.path} was planned otherwise (by another version of polyforms?): "
                "remove it to start again"
            )

    def _parse(self, reader: _LineReader) -> tuple[dict | None, int]:
        """The header (None if there is none yet) and the length of the sound part.

        The file is read a line at a time, each line bounded: the header by
        :data:`~polyforms.limits.MAX_HEADER_LINE`, the others by
        :data:`~polyforms.limits.MAX_JOURNAL_LINE` (past it a line is corrupt),
        so a large file that is no journal is refused after a few kilobytes.
        """
        self.entries = {}
        try:
            first = reader.line(MAX_HEADER_LINE)
        except _LineTooLong:
            raise CheckpointError(f"{self.path} is not a polyforms checkpoint") from None
        if first is None:  # no whole line: whatever follows the last newline is a cut line
            if _HEADER.startswith(reader.rest[: len(_HEADER)]):
                return None, 0  # empty, or the header was being written
            raise CheckpointError(f"{self.path} is not a polyforms checkpoint")
        header = checked_header(self.path, first, self.key)
        keep = len(first) + 1
        number, line = 2, self._line(reader, 2)
        while line is not None:
            following = self._line(reader, number + 1)  # a garbled line is dropped if last
            if not self._take(line, number, last=following is None):
                break
            keep += len(line) + 1
            number, line = number + 1, following
        return header, keep

    def _line(self, reader: _LineReader, number: int) -> bytes | None:
        """Line ``number`` of the journal (None: no whole line left); past
        :data:`~polyforms.limits.MAX_JOURNAL_LINE` it is corrupt."""
        try:
            return reader.line(MAX_JOURNAL_LINE)
        except _LineTooLong:
            raise CheckpointError(
                f"{self.path} is corrupt at line {number} "
                f"(longer than {MAX_JOURNAL_LINE >> 20} MiB)"
            ) from None

    def _take(self, line: bytes, number: int, last: bool) -> bool:
        """Take up the journal's line ``number``; False for a last line garbled by
        a crash (dropped), CheckpointError for any other line no run writes."""
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):  # (RecursionError: nested 100,000 deep)
            if last:
                return False
            raise CheckpointError(f"{self.path} is corrupt at line {number}") from None
        if not _sound(entry):  # valid JSON that no run of ours writes: edited or damaged
            raise CheckpointError(f"{self.path} is corrupt at line {number}")
        task_id = entry["id"]
        if task_id in self.entries and "bytes" not in entry:
            # A run journals a subtask once; only an output chunk whose side
            # file was lost is run, and journalled, again.
            raise CheckpointError(f"{self.path} is corrupt at line {number}")
        if "bytes" in entry and not self._chunk_ok(entry):
            self.entries.pop(task_id, None)  # its side file is lost: run it again
            return True
        self.entries[task_id] = entry
        return True

    def _chunk_ok(self, entry: dict) -> bool:
        """Whether the side file of ``entry`` is there whole (else its task runs again).

        Raises
        ------
        CheckpointError
            The side file, or the folder of side files, is a link or not a plain
            file or directory: planted by someone else, never written by a run.
        """
        name = entry.get("bytes")
        if not isinstance(name, str) or not TASK_ID.match(name):
            return False
        try:
            _check_private_directory(self.chunks)
            info = os.lstat(os.path.join(self.chunks, name))
        except FileNotFoundError:
            return False
        if not stat.S_ISREG(info.st_mode):
            raise CheckpointError(
                f"{os.path.join(self.chunks, name)} is a link or not a regular file: "
                "not a chunk of this run"
            )
        return info.st_size == entry.get("size")

    def record(self, task_id: str, result: Any, seconds: float | None = None) -> None:
        """Journal the result of a finished task (bytes go to a side file), and the
        ``seconds`` of work the journal's runs had done when it ended.

        Raises
        ------
        JobError
            A result that is neither bytes nor survives JSON unchanged (a tuple, say).
        """
        if self._fd is None:
            raise JobError(f"checkpoint {self.path} is not open")
        if isinstance(result, Continued):
            entry = {
                "id": task_id,
                "result": self._as_json(task_id, result.result),
                "rest": self._as_json(task_id, result.rest),
                "weights": self._as_json(task_id, result.weights),
            }
            if result.done is not None and math.isfinite(result.done):
                entry["done"] = float(result.done)
        elif isinstance(result, (bytes, bytearray, memoryview, Spooled)):
            self._write_side_file(task_id, result)
            entry = {"id": task_id, "bytes": task_id, "size": len(result)}
        else:
            entry = {"id": task_id, "result": self._as_json(task_id, result)}
        if seconds is not None and math.isfinite(seconds):
            entry["t"] = round(seconds, 6)
        line = (json.dumps(entry, separators=(",", ":")) + "\n").encode()
        if len(line) > MAX_JOURNAL_LINE:  # the next opening would refuse the journal
            raise JobError(
                f"the result of subtask {task_id} takes {len(line) >> 20} MiB as JSON, more "
                f"than a line of checkpoint {self.path} holds ({MAX_JOURNAL_LINE >> 20} MiB)"
            )
        _append(self._fd, line)
        self.entries[task_id] = entry

    def _write_side_file(
        self, task_id: str, result: bytes | bytearray | memoryview | Spooled
    ) -> None:
        """Store a bytes result as ``PATH.chunks/ID``, synced, under its final name
        only once whole (a crash leaves a ``.part`` file, which no entry names)."""
        _make_private_directory(self.chunks)
        final = os.path.join(self.chunks, task_id)
        # The temporary file has a name nobody can foresee. A worker's file is
        # renamed to it (a rename replaces a directory entry, never a file a
        # link points to); otherwise it is made anew with O_CREAT | O_EXCL, so
        # nothing planted under its name is ever opened. Renaming it to
        # ``final`` likewise replaces the entry itself.
        part = None
        if isinstance(result, Spooled) and result.owned:
            part = _renamed_into(result.path, self.chunks, task_id)
        if part is not None:
            fd, written = os.open(part, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)), True
        else:
            fd, part = tempfile.mkstemp(prefix=task_id + ".", suffix=".part", dir=self.chunks)
            written = False
        try:
            with os.fdopen(fd, "r+b") as handle:
                if not written and isinstance(result, Spooled):
                    result.copy_to(handle)
                elif not written:
                    handle.write(result)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(part, final)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(part)
            raise
        _fsync_directory(self.chunks)

    @property
    def seconds(self) -> float:
        """The seconds of work of the runs that wrote the journal (0 if it does not say)."""
        return max((entry.get("t", 0.0) for entry in self.entries.values()), default=0.0)

    @staticmethod
    def _as_json(task_id: str, value: Any) -> Any:
        try:
            same = json.loads(json.dumps(value)) == value
        except (TypeError, ValueError):
            same = False
        if not same:
            raise JobError(
                f"the result of subtask {task_id} cannot be journalled as JSON: "
                f"{type(value).__name__} (use int, str, list, dict or bytes)"
            )
        return value

    def continued(self, task_id: str) -> Continued | None:
        """The :class:`~polyforms.jobs.Continued` a journalled task that stopped
        early returned, else None."""
        entry = self.entries[task_id]
        if "rest" not in entry:
            return None
        # no "done" in a journal of an older version: the run goes by the weights
        return Continued(entry["result"], entry["rest"], entry["weights"], entry.get("done"))

    def result(self, task_id: str, files: bool = False) -> Any:
        """The journalled result of a task (bytes are read from the side file).

        With ``files``, bytes come as a :class:`~polyforms.jobs.Spooled`
        view of the side file instead (which stays).
        """
        entry = self.entries[task_id]
        if "bytes" in entry:
            path = os.path.join(self.chunks, entry["bytes"])
            if files:
                return Spooled(path, entry["size"], owned=False)
            with open_regular(path) as handle:
                return handle.read()
        return entry["result"]

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def remove(self) -> None:
        """Close and delete the journal and its side directory."""
        self.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        import shutil

        shutil.rmtree(self.chunks, ignore_errors=True)


def open_checkpoint(path: str, flags: int) -> int:
    """A descriptor of the checkpoint file ``path`` opened with ``flags``, without
    blocking (reading a FIFO would wait for ever); CheckpointError unless it is a
    regular file (/dev/null, a pipe: nothing to resume from). OSError passes."""
    return regular_descriptor(path, flags, "as a checkpoint must be")


def plan_digest(tasks: Sequence[Task]) -> str:
    """A digest of planned ``tasks``: their ids and weights (to 6 digits: the
    compiled and readable kernels' estimates may differ in the last bits)."""
    text = "\n".join(f"{task.id} {task.weight:.6g}" for task in tasks)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def checked_header(path: str, line: bytes, key: str) -> dict:
    """The header of the checkpoint ``path`` from its first ``line``, if it is
    one of this version for the job ``key``; else :class:`~polyforms.jobs.CheckpointError`."""
    try:
        if len(line.rstrip(b"\n")) > MAX_HEADER_LINE:
            raise ValueError("no header of ours is so long")
        header = json.loads(line)
        version = header["polyforms-checkpoint"]
    except (ValueError, TypeError, KeyError, RecursionError):
        raise CheckpointError(f"{path} is not a polyforms checkpoint") from None
    if version != 1:
        raise CheckpointError(f"{path} is a checkpoint of another polyforms version")
    if header.get("key") != key:
        raise CheckpointError(
            f"{path} belongs to another command ({header.get('key')}); "
            "remove it or choose another checkpoint file"
        )
    return header


class _LineTooLong(Exception):
    """A line passed the bound :meth:`_LineReader.line` was given."""


class _LineReader:
    """The lines of a file, read from a descriptor in chunks, none held longer than asked.

    ``total`` is the bytes read so far; ``rest`` what follows the last newline
    once :meth:`line` has returned None (the whole file is read then).
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.start = 0  # where the next line starts in the buffer
        self.scanned = 0  # the buffer has no newline from ``start`` up to here
        self.total = 0

    def line(self, limit: int) -> bytes | None:
        """The next line without its newline; None when no whole line is left.

        Raises
        ------
        _LineTooLong
            The line is longer than ``limit`` bytes (read no further than that).
        """
        while True:
            at = self.buffer.find(b"\n", max(self.start, self.scanned))
            if at >= 0:
                if at - self.start > limit:
                    raise _LineTooLong
                line = bytes(self.buffer[self.start : at])
                self.start = self.scanned = at + 1
                return line
            if len(self.buffer) - self.start > limit:
                raise _LineTooLong
            if self.start:  # move the part line down, once per line at most
                del self.buffer[: self.start]
                self.start = 0
            self.scanned = len(self.buffer)
            chunk = os.read(self.fd, max(1 << 12, min(1 << 20, limit + 1)))
            if not chunk:
                return None
            self.total += len(chunk)
            self.buffer += chunk

    @property
    def rest(self) -> bytes:
        return bytes(self.buffer[self.start :])


def _is_real(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return _is_real(value) and math.isfinite(value)


def _sound(entry: Any) -> bool:
    """Has a journal line the shape :meth:`Checkpoint.record` gives it?"""
    if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
        return False
    if "t" in entry and not (_is_number(entry["t"]) and entry["t"] >= 0):
        return False
    if "bytes" in entry:
        return True  # its side file is checked apart (a lost one is run again)
    if "result" not in entry:
        return False
    if "rest" not in entry:
        return True
    rest, weights = entry["rest"], entry.get("weights")
    return (
        isinstance(rest, list)
        and isinstance(weights, list)
        and len(rest) == len(weights)
        and all(_is_real(w) and w >= 0 for w in weights)  # inf: an estimate that overflowed
        and ("done" not in entry or _is_number(entry["done"]))
    )


def _append(fd: int, line: bytes) -> None:
    written = os.write(fd, line)  # one write of the whole line (retried only if short)
    while written < len(line):
        written += os.write(fd, line[written:])
    os.fsync(fd)


def _fsync_directory(path: str) -> None:
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _renamed_into(source: str, directory: str, task_id: str) -> str | None:
    """Rename the file ``source`` into ``directory`` under a fresh name nobody can
    foresee; return that name, or None when it cannot be renamed (another file
    system: the caller copies it)."""
    target = os.path.join(directory, f"{task_id}.{secrets.token_hex(8)}.part")
    try:
        os.replace(source, target)
    except OSError:
        return None
    return target


def _make_private_directory(path: str) -> None:
    """Create the folder of side files readable by its owner alone (0700), or
    check the one there is a plain directory."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        _check_private_directory(path)


def _check_private_directory(path: str) -> None:
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise CheckpointError(
            f"{path} is a link or not a directory: a checkpoint keeps its chunks in a "
            "folder of its own"
        )

"""Counts with free pieces by the sweep over boards: progress, signals, checkpoints.

When every piece may be used any number of times (or not at all), a tiling
count runs as a :class:`~polyforms.tiling._tiling_py.BoardSweep` (one per restricted
search of the count) instead of a depth-first search, in one process: it
visits the same boards as the memoized search, but keeps only the layers of
boards ahead of it (10x10 by the pentominoes with reuse: 1.9 GB at most,
where the memo grew to 12 GB). Its work does not split into independent
subtrees, but each layer does, by the boards' hashes: ``jobs`` runs the
compiled sweep in that many threads (``0``: a thread per core), each with
its search. A Dask executor (a cluster) sends the count to the job layer
instead.

It honours the options of every long search (:class:`polyforms.jobs.LongRun`):

* ``progress``: the share of boards swept, estimated by
  :attr:`BoardSweep.fraction` (the layers to come as large as the one being
  swept, shrinking near the end as they do in boxes), and an ETA from the
  pace of this run;
* ``checkpoint``: the sweep is saved to the file every :data:`SAVE_SECONDS`
  or more (at least :data:`SAVE_SHARE` times as long as the last save took),
  by writing a new file and renaming it onto the old, so a crash leaves the
  last save whole; the same call with the same file goes on from there. The
  file is a JSON header line (the job layer's, with ``"sweep"``) and the
  sweep's binary :meth:`BoardSweep.save`; a journal of the job layer with
  the same key is left to the job layer, which wrote it;
* SIGINT, SIGTERM and SIGHUP raise :class:`SweepInterrupted` (a
  :class:`polyforms.jobs.Interrupted`) between two steps of the sweep, at most
  :data:`STEP_SECONDS` apart; the sweep is saved then if that is quick (below
  :data:`SAVE_AT_STOP` bytes), otherwise the last save stands.

Cost: each board swept costs a few passes over its words (copied, hashed,
stored), and a board is the whole region, ``ncells / 64`` words, so a sweep
costs ``boards * ncells / 64`` word operations at least. Where its layers hold
a board or two (a long region filled by few ways) that is ``ncells**2 / 64``:
200x200 by the monomino, 40,000 boards of 625 words, takes 0.1 s to sweep;
1x640,000, 18 s; the largest region a tiling takes
(:data:`~polyforms.limits.MAX_REGION_CELLS`) about 45 s. A layer's table starts
with room for few boards when boards are wide, so that such a layer costs its
boards and not the slots of a table sized for thousands.

If the sweep would pass its memory budget (:func:`polyforms.limits.memo_bytes`),
:func:`count` raises MemoryError, having removed the checkpoint it wrote: the
count then goes to the job layer (whose memo starts over when full). A
checkpoint that an earlier run saved is never removed so: the count is
refused with :class:`~polyforms.jobs.CheckpointError` instead, which says how
to give the sweep more memory (the budget follows the memory free at the
start, and may be smaller than when the sweep was saved).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import time
from collections.abc import Callable
from typing import Any

from .._atomic import atomic_output, check_output_path
from .._stop import note_signal
from ..jobs import runner as _jobs
from ..jobs.checkpoint import Checkpoint, checked_header, open_checkpoint
from ..jobs.executors import capped_workers
from ..jobs.options import LongRun
from ..jobs.progress import Progress, progress_callback
from ..jobs.tasks import CheckpointError
from ..limits import MAX_HEADER_LINE, memo_bytes
from . import _tiling_py

#: Seconds between two saves of a sweep to its checkpoint, at least ...
SAVE_SECONDS = 60.0
#: ... and at least this many times the last save's seconds (writing gigabytes).
SAVE_SHARE = 20
#: Seconds the sweep runs between two looks at signals and progress.
STEP_SECONDS = 0.2
#: A sweep whose tables take up to this many bytes is saved when a signal stops
#: it: its file is about a fifth of that (9x10 half done: tables of 288 MB,
#: saved in 56 MB in 0.46 s).
SAVE_AT_STOP = 128 << 20


class SweepInterrupted(_jobs.Interrupted):
    """A signal stopped a sweep; ``done`` of ``total`` cells were filled in its
    layer. ``saved``: None without a checkpoint, else the seconds of work the
    checkpoint lacks (0: saved as it stopped; ``math.inf``: nothing saved yet)."""

    def __init__(self, signum: int, cells: int, ncells: int, saved: float | None) -> None:
        super().__init__(signum, cells, ncells)
        self.saved = saved

    def message(self, resume_hint: str | None = None) -> str:
        text = _jobs.Interrupted.message(self).partition(":")[0]
        text += f": the sweep had filled {self.done} of {self.total} cells"
        if self.saved is None:
            return text
        if self.saved == math.inf:
            return text + ", nothing saved yet"
        if self.saved == 0:
            text += ", saved in the checkpoint"
        else:
            text += f", the checkpoint holds it as of {self.saved:.0f} s before"
        return f"{text}; {resume_hint}" if resume_hint else text


def count(
    kernels: Any,
    search: Any,
    restrictions: list,
    key: str,
    options: LongRun,
    make: Callable[[], Any] | None = None,
) -> int | None:
    """The count of ``search`` over ``restrictions`` (placements left out, weight)
    by sweeps; None if the checkpoint is a journal of the job layer, where the
    count must go on. MemoryError past the budget (see the module notes).

    ``kernels`` is the module of the tiling kernel (compiled or the twin),
    ``key`` the count's job key, ``options`` the long-run options of the call
    (its ``jobs``, ``checkpoint`` and ``progress``; an executor sends the count
    to the job layer instead); ``make`` builds another search of the same spec, one
    for each thread past the first (the compiled kernel's sweep only: the
    twin's is plain Python, and runs in one).
    """
    checkpoint, jobs = options.checkpoint, options.jobs
    path = None if checkpoint is None else Checkpoint(checkpoint, key).path  # a file name
    threads = 1
    if make is not None and kernels is not _tiling_py:
        threads, _ = capped_workers(1 if jobs is None else jobs, "threads", stacklevel=5)
    helpers = [make() for _ in range(threads - 1)] if make is not None else []
    run = _Sweeps(kernels, search, restrictions, key, path, options.progress, helpers)
    try:
        return run.count()
    except MemoryError as error:
        if path is not None and run.resumed:
            raise CheckpointError(
                f"{path}: {error} (POLYFORMS_MEMO) to go on with the sweep saved there: "
                "give it more, or remove the file to count by the search"
            ) from None
        if path is not None and run.ours:
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
        raise


class _Sweeps:
    def __init__(
        self,
        kernels: Any,
        search: Any,
        restrictions: list,
        key: str,
        path: str | None,
        progress: Any,
        helpers: list,
    ) -> None:
        self.kernels, self.search, self.restrictions = kernels, search, restrictions
        self.helpers = helpers
        self.key, self.path = key, path
        self.progress, self.bar = progress_callback(progress)
        self.ours = False  # the checkpoint file is a sweep's (ours to replace) ...
        self.resumed = False  # ... saved by an earlier run (never removed)
        self.part, self.found = 0, 0
        self.sweep: Any = None
        self.saved_at: float | None = None
        self.save_every = SAVE_SECONDS
        self.saving = False
        # The readable twin's sweep is plain Python: an exception raised in the
        # middle of a board would leave some of its moves made, and a save then
        # would count them twice. Signals wait for its step to end (at most
        # STEP_SECONDS), as for the few lines that close a part; the compiled
        # sweep sees them only between boards.
        self.inside = False
        self.signum: int | None = None
        self.ncells = search.ncells

    # -- the checkpoint -------------------------------------------------------------

    def _header(self) -> dict:
        return {"polyforms-checkpoint": 1, "key": self.key, "sweep": 1,
                "part": self.part, "found": self.found}  # fmt: skip

    def _open(self) -> bool:
        """Take up the checkpoint if it holds a sweep; False if it is a journal
        of the job layer (the count then goes there)."""
        assert self.path is not None
        # Before any work: the saves must be able to replace or create the file
        # (a missing directory would otherwise be met at the first save) ...
        check_output_path(self.path)
        try:  # ... and it must be a file (reading a FIFO would block for ever).
            fd = open_checkpoint(self.path, os.O_RDONLY)
        except FileNotFoundError:
            self.ours = True
            return True
        except OSError as error:
            raise CheckpointError(f"{self.path}: cannot read it ({error.strerror})") from None
        with open(fd, "rb") as handle:
            first = handle.readline(MAX_HEADER_LINE + 1)  # longer: not a checkpoint
            if not first:
                self.ours = True
                return True
            header = checked_header(self.path, first, self.key)
            if not header.get("sweep"):
                return False
            part, found = header.get("part"), header.get("found")
            if (
                type(part) is not int
                or type(found) is not int
                or not 0 <= part <= len(self.restrictions)
                or found < 0
            ):
                raise CheckpointError(f"{self.path}: a damaged sweep header")
            self.ours = self.resumed = True
            self.part, self.found = part, found
            if part < len(self.restrictions):
                sweep = self._start(part)
                try:
                    sweep.load(handle)
                except MemoryError:
                    raise  # not a damaged file: count() says what to do
                except Exception as error:
                    raise CheckpointError(f"{self.path}: {error}") from None
                self.sweep = sweep  # only once whole: a signal in the load saves nothing
        self.saved_at = time.monotonic()
        return True

    def _save(self) -> None:
        assert self.path is not None
        began = time.monotonic()
        self.saving = True
        try:
            with atomic_output(self.path, "wb") as out:
                out.write((json.dumps(self._header()) + "\n").encode())
                if self.sweep is not None:
                    self.sweep.save(out)
        finally:
            self.saving = False
        now = time.monotonic()
        self.saved_at = now
        self.save_every = max(SAVE_SECONDS, SAVE_SHARE * (now - began))

    # -- the run -------------------------------------------------------------------

    def _start(self, part: int) -> Any:
        excluded, _ = self.restrictions[part]
        if not (len(self.restrictions) == 1 and not excluded):
            for search in [self.search, *self.helpers]:
                search.restrict(excluded)
        if not self.helpers:
            return self.kernels.BoardSweep(self.search, budget=memo_bytes())
        return self.kernels.BoardSweep(self.search, budget=memo_bytes(), helpers=self.helpers)

    def _on_signal(self, signum: int, frame: object) -> None:
        note_signal(stopping=True)
        if self.signum is not None or self.saving or self.inside:
            self.signum = self.signum or signum  # stop after the save or step under way
            return
        self.signum = signum
        raise KeyboardInterrupt

    def count(self) -> int | None:
        previous = _jobs.handle_signals(self._on_signal)
        try:
            return self._count()
        except KeyboardInterrupt:
            raise self._interrupted(signal.SIGINT) from None
        finally:
            _jobs.restore_signals(previous)
            if self.bar is not None:
                self.bar.close()

    def _interrupted(self, default: int) -> SweepInterrupted:
        signum = self.signum or default
        sweep, lag = self.sweep, None
        if self.path is not None:
            lag = math.inf if self.saved_at is None else time.monotonic() - self.saved_at
            if self.ours and sweep is not None and sweep.size <= SAVE_AT_STOP:
                self.signum = signum  # a second signal waits for the save
                try:
                    self._save()
                    lag = 0.0
                except OSError:
                    pass
        ncells = self.ncells
        cells = ncells if sweep is None else min(sweep.filled, ncells)
        return SweepInterrupted(signum, cells, ncells, lag)

    def _count(self) -> int | None:
        if self.path is not None and not self._open():
            return None
        began = time.monotonic()
        start_fraction = self._fraction()
        steps = 1 << 12
        reported = 0.0
        while self.part < len(self.restrictions):
            if self.sweep is None:
                self.sweep = self._start(self.part)
            while True:
                t = time.monotonic()
                self.inside = isinstance(self.sweep, _tiling_py.BoardSweep)
                try:
                    done = self.sweep.run(steps)
                finally:
                    self.inside = False
                if self.signum is not None:
                    raise KeyboardInterrupt  # it came during the step
                spent = time.monotonic() - t
                if spent < STEP_SECONDS / 2 and steps < 1 << 24:
                    steps *= 2
                elif spent > STEP_SECONDS * 2 and steps > 64:
                    steps //= 2
                if done:
                    break
                now = time.monotonic()
                if self.progress is not None and now - reported >= STEP_SECONDS:
                    reported = now
                    self._report(now - began, start_fraction)
                if self.path is not None and now - (self.saved_at or began) >= self.save_every:
                    self._save()
                    if self.signum is not None:
                        raise KeyboardInterrupt  # it came during the save
            self.inside = True  # the part's count moves to ``found``: no signal between
            self.found += self.sweep.count * self.restrictions[self.part][1]
            self.part += 1
            self.sweep = None
            self.inside = False
            if self.signum is not None:
                raise KeyboardInterrupt
            if self.path is not None and self.part == len(self.restrictions):
                self._save()  # finished: the same call again answers at once
        if self.progress is not None:
            self._report(time.monotonic() - began, start_fraction)
        return self.found

    def _fraction(self) -> float:
        parts = len(self.restrictions)
        inside = self.sweep.fraction if self.sweep is not None else 0.0
        return min(1.0, (self.part + inside) / parts) if parts else 1.0

    def _report(self, elapsed: float, start: float) -> None:
        fraction = self._fraction()
        eta = None
        if fraction >= 1.0:
            eta = 0.0
        elif fraction > start and elapsed > 0:
            eta = elapsed * (1.0 - fraction) / (fraction - start)
        ncells = self.ncells
        cells = ncells if self.sweep is None else min(self.sweep.filled, ncells)
        self.progress(Progress(cells, ncells, fraction, elapsed, eta, "cells"))

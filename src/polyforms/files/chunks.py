"""The chunks of a listing written by subtasks: each holds its item count, then their text.

A split listing (a catalogue, a tiling listing) has each subtask return one
chunk, ``b"COUNT\\n"`` then the text of its COUNT items, and writes the chunks
to its output in merge order (:func:`write_chunk`), counting the items as it
goes. A chunk is the result a checkpoint journals in a side file, so a count
that is not a number can only come from a side file damaged on disk.
"""

from __future__ import annotations

from typing import IO, Any

from ..jobs.tasks import CheckpointError, Spooled

__all__ = ["ahead_of", "counted_chunk", "split_chunk", "write_chunk", "write_listing"]


def counted_chunk(count: int, body: bytes) -> bytes:
    """A listing's chunk: ``b"COUNT\\n"`` (how many items it holds), then their text.

    Examples
    --------
    >>> counted_chunk(2, b"ab\\ncd\\n")
    b'2\\nab\\ncd\\n'
    >>> split_chunk(counted_chunk(2, b"ab\\ncd\\n"))
    (2, b'ab\\ncd\\n')
    """
    return b"%d\n" % count + body


def split_chunk(chunk: bytes) -> tuple[int, bytes]:
    """The count and the text of a :func:`counted_chunk`."""
    head, _, body = chunk.partition(b"\n")
    return chunk_count(head), body


def chunk_count(head: bytes) -> int:
    """The count a chunk's first line gives. Only a side file of a checkpoint
    edited or damaged on disk can hold another first line (what a crash cuts
    short is found by its size and run again)."""
    text = head.rstrip(b"\n")
    if not text.isdigit():
        raise CheckpointError(
            f"an output chunk starts with {bytes(text[:20])!r}, not its count: a checkpoint's "
            "side file damaged? remove the checkpoint to start again"
        )
    return int(text)


def write_chunk(out: IO[bytes], chunk: bytes | Spooled, skip: int = 0) -> int:
    """Append the body of a :func:`counted_chunk` to the binary ``out``; return its count.

    A chunk holding items loses the first ``skip`` bytes of its body (the
    separator that a txt file's first picture goes without). A
    :class:`~polyforms.jobs.Spooled` chunk is copied by the kernel, not read;
    either way the kernel is asked to start writing it to the disk.
    """
    from .._atomic import start_writeback

    if isinstance(chunk, Spooled):
        head = chunk.head()
    else:
        head = bytes(chunk[: chunk.index(b"\n") + 1])
    count = chunk_count(head)
    start = len(head) + (skip if count else 0)
    if isinstance(chunk, Spooled):
        chunk.copy_to(out, start)
    else:
        out.write(memoryview(chunk)[start:])
    start_writeback(out)
    return count


def write_listing(
    job: Any, path: Any, run: Any, *, per_worker: int = 8, skip_first: int = 0
) -> int:
    """Write the chunks of the listing ``job`` in merge order to ``path`` (None:
    standard output), atomically, through the job layer; return how many items.

    Parameters
    ----------
    job
        A job whose results are chunks (:class:`polyforms.jobs.Job` with
        ``chunks = True``).
    path
        The output file, or None.
    run : polyforms.jobs.LongRun
        How to run it: workers, executor, checkpoint, progress.
    per_worker
        Tasks run ahead of the oldest unwritten one, per worker (:func:`ahead_of`).
    skip_first
        Lines left out of the output's first chunk (a txt catalogue's leading
        blank line).
    """
    from .._atomic import atomic_output
    from ..jobs.checkpoint import check_apart

    check_apart(path, run.checkpoint)
    written = 0
    with atomic_output(path, "wb") as out:
        for _, chunk in run.run(job, ahead=ahead_of(run, per_worker), files=True):
            written += write_chunk(out, chunk, skip=0 if written else skip_first)
    return written


def ahead_of(run: Any, per_worker: int = 8) -> int:
    """Tasks a listing runs ahead of the oldest chunk not yet taken: they bound the
    chunks kept in memory. ``per_worker`` a worker, and at least two workers'
    worth (:func:`polyforms.jobs.run` never goes below the executor's capacity,
    which for Dask is two batches of four a worker)."""
    # An executor given as a dask client, an address or a number of workers is made
    # into one by the run; the run's floor (its capacity) covers its workers.
    workers = getattr(run.executor, "workers", None) if run.executor is not None else run.jobs
    return per_worker * max(workers or 2, 2)

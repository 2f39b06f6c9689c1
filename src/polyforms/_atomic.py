"""Write a file so that the target path never holds a partial result."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import IO

__all__ = ["atomic_output"]


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str] | None, mode: str = "w") -> Iterator[IO]:
    """Yield a file to write; on success it replaces ``path``, on failure it vanishes.

    ``path`` of None or ``"-"`` writes to standard output instead. The file is
    written beside the target (same directory, so the final rename is atomic)
    and renamed into place only when the ``with`` block ends without error.
    Text mode writes ``\\n`` line ends on every platform, for byte-identical files.

    Raises
    ------
    OSError
        If the directory does not exist or is not writable (before anything is written).
    """
    if path is None or str(path) == "-":
        yield sys.stdout.buffer if "b" in mode else sys.stdout
        return
    target = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(target))
    if os.path.isdir(target):
        raise IsADirectoryError(21, "is a directory, not a file", target)
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(target)}.", suffix=".part", dir=directory
        )
    except OSError as error:  # name the target, not the temporary file
        raise OSError(error.errno, f"cannot write there ({error.strerror})", target) from None
    try:
        newline = None if "b" in mode else "\n"
        encoding = None if "b" in mode else "utf-8"
        with os.fdopen(handle, mode, newline=newline, encoding=encoding) as stream:
            yield stream
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise

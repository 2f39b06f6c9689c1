"""Readable twin of the compiled catalogue formatter (:mod:`polyforms._core._catalogue`).

:func:`format_polyform` is the specification of one catalogue record (see
:mod:`polyforms.files.catalogue` for the formats); :func:`format_chunk`, with the
arguments and result of its compiled twin, formats a packed chunk of
polyforms record by record.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator

from ..errors import UnknownNameError
from ..polyform import Polyform
from . import _redelmeier_py

__all__ = ["filter_chunk", "format_chunk", "format_polyform", "unpack"]


def format_polyform(polyform: Polyform, fmt: str, kind: str = "free", index: int = 1) -> str:
    """One polyform as it appears in a catalogue file of format ``fmt`` (with its newline).

    Examples
    --------
    >>> p = Polyform.from_ascii("##\\n#.")
    >>> format_polyform(p, "jsonl")
    '{"cells":[[0,0],[0,1],[1,0]],"size":3,"kind":"free","symmetry":"diagonal-mirror","holes":0}\\n'
    >>> format_polyform(p, "csv", index=7)
    '7,3,free,diagonal-mirror,0,0:0 0:1 1:0\\n'
    """
    if fmt == "txt":
        return polyform.to_ascii(layout="side") + "\n"
    if fmt == "jsonl":
        cells = ",".join("[" + ",".join(map(str, cell)) + "]" for cell in polyform.cells)
        return (
            f'{{"cells":[{cells}],"size":{polyform.size},"kind":{json.dumps(kind)},'
            f'"symmetry":{json.dumps(polyform.symmetry)},"holes":{polyform.holes}}}\n'
        )
    if fmt == "csv":
        cells = " ".join(":".join(map(str, cell)) for cell in polyform.cells)
        row = (index, polyform.size, kind, polyform.symmetry, polyform.holes, cells)
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerow(row)
        return buffer.getvalue()
    raise UnknownNameError(f"unknown format {fmt!r}; choose one of txt, jsonl, csv")


def unpack(packed: bytes, n: int, dim: int) -> Iterator[Polyform]:
    """The polyforms of a packed chunk (inverse of :func:`polyforms.files.catalogue.pack`)."""
    for cells in _redelmeier_py.unpack(n, dim, packed):
        yield Polyform._trusted(cells, dim)


def _check_range(packed: bytes, n: int, dim: int) -> None:
    """Every coordinate in 0..n-1 (as the compiled twin requires; a negative byte
    reads as 128 or more)."""
    for start in range(0, len(packed), n * dim):
        if max(packed[start : start + n * dim], default=0) >= n:
            raise ValueError(
                f"polyform {start // (n * dim)} of the chunk has a coordinate outside "
                f"0..{n - 1}: not a connected polyform in normal position"
            )


def format_chunk(
    packed: bytes,
    n: int,
    dim: int,
    fmt: str,
    kind: str,
    first_index: int = 1,
    first_in_file: bool = True,
    counted: bool = False,
) -> bytes:
    """Format every polyform of a packed chunk (``dim`` signed bytes per cell).

    ``first_index`` numbers csv rows; ``first_in_file`` says whether a txt
    picture needs a blank line before it; ``counted`` starts the text with
    the number of polyforms and a newline (:func:`polyforms.jobs.runner.counted_chunk`).
    Returns UTF-8 bytes, as the compiled twin does.
    """
    _check_range(packed, n, dim)
    parts = [f"{len(packed) // (n * dim)}\n"] if counted else []
    for index, polyform in enumerate(unpack(packed, n, dim), start=first_index):
        if fmt == "txt" and (index > first_index or not first_in_file):
            parts.append("\n")
        parts.append(format_polyform(polyform, fmt, kind, index))
    return "".join(parts).encode()


def filter_chunk(packed: bytes, n: int, dim: int, holes: int, symmetry) -> bytes:
    """The polyforms of a packed chunk that pass the catalogue filters, packed again.

    ``holes``: -1 keeps all, 0 those without holes, 1 those with holes;
    ``symmetry``: None keeps all, else a 2D class name or a 3D group order
    (as :attr:`polyforms.Polyform.symmetry` gives them).
    """
    _check_range(packed, n, dim)
    stride = n * dim
    kept = []
    for start, polyform in zip(range(0, len(packed), stride), unpack(packed, n, dim)):
        if symmetry is not None and polyform.symmetry != symmetry:
            continue
        if holes >= 0 and (polyform.holes > 0) != (holes > 0):
            continue
        kept.append(bytes(packed[start : start + stride]))
    return b"".join(kept)

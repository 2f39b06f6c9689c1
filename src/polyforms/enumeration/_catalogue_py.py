"""Readable twin of the compiled catalogue formatter (:mod:`polyforms._core._catalogue`).

:func:`format_chunk` and :func:`filter_chunk` have the arguments and results of
their compiled twins: they unpack a chunk (:mod:`polyforms.enumeration.records`),
then format each polyform as :func:`~polyforms.enumeration.records.format_polyform`
specifies, or test it against the catalogue filters.
"""

from __future__ import annotations

from .records import format_polyform, unpack

__all__ = ["filter_chunk", "format_chunk"]


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
    the number of polyforms and a newline (:func:`polyforms.files.chunks.counted_chunk`).
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

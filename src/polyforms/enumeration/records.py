"""Listed polyforms as records: packed bytes, and the text of one catalogue record.

Packed chunks are how polyforms pass between Redelmeier's search, the
catalogue filters and the catalogue writers without a Python object per
polyform: each polyform is its ``n`` sorted cells in normal position, each
cell ``dim`` signed bytes (its coordinates). The compiled kernels
(:mod:`polyforms._core._redelmeier`, :mod:`polyforms._core._catalogue`) read
and write the same bytes; their readable twins and the writers of
:mod:`polyforms.files.catalogue` share the functions here.

:func:`format_polyform` is the specification of one catalogue record, which
the compiled formatter reproduces byte for byte (see
:mod:`polyforms.files.catalogue` for the formats).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator

from ..errors import UnknownNameError
from ..polyform import Polyform

__all__ = ["format_polyform", "pack", "pack_cells", "unpack", "unpack_cells"]

Cell = tuple[int, ...]
Form = tuple[Cell, ...]


def pack_cells(forms: Iterable[Form]) -> bytes:
    """Pack polyforms given as sorted cell tuples, ``dim`` signed bytes per cell.

    Examples
    --------
    >>> pack_cells([((0, 0), (-1, 1))])
    b'\\x00\\x00\\xff\\x01'
    """
    return bytes(v & 0xFF for form in forms for cell in form for v in cell)


def pack(polyforms: Iterable[Polyform]) -> bytes:
    """Pack polyforms of one size and dimension as signed bytes (inverse of :func:`unpack`).

    Examples
    --------
    >>> pack([Polyform([(0, 0), (1, 0)])])
    b'\\x00\\x00\\x01\\x00'
    """
    return pack_cells(p.cells for p in polyforms)


def unpack_cells(n: int, dim: int, packed: bytes) -> list[Form]:
    """Polyforms (sorted cell tuples) from packed cells, ``dim`` bytes per cell.

    Examples
    --------
    >>> unpack_cells(2, 2, b'\\x00\\x00\\xff\\x01')
    [((0, 0), (-1, 1))]
    """
    values = [v - 256 if v > 127 else v for v in packed]
    stride = n * dim
    return [
        tuple(tuple(values[start + i : start + i + dim]) for i in range(0, stride, dim))
        for start in range(0, len(values), stride)
    ]


def unpack(packed: bytes, n: int, dim: int) -> Iterator[Polyform]:
    """The polyforms of a packed chunk of connected polyforms in normal position
    (inverse of :func:`pack`); they are trusted, not checked."""
    for cells in unpack_cells(n, dim, packed):
        yield Polyform._trusted(cells, dim)


def format_polyform(polyform: Polyform, fmt: str, kind: str = "free", index: int = 1) -> str:
    """One polyform as it appears in a catalogue file of format ``fmt`` (with its newline).

    Examples
    --------
    >>> p = Polyform.from_ascii("##\\n#.")
    >>> format_polyform(p, "jsonl")
    '{"cells":[[0,0],[0,1],[1,0]],"size":3,"kind":"free","symmetry":"diagonal-mirror","holes":0}\\n'
    >>> format_polyform(p, "csv", index=7)
    '7,3,free,diagonal-mirror,0,0:0 0:1 1:0\\n'

    A polyiamond or polyhex record ends with its lattice (a square or cube
    record has none: its cells say it):

    >>> format_polyform(Polyform([(0, 0), (1, 0)], lattice="hex"), "csv")
    '1,2,free,two-mirrors,0,0:0 1:0,hex\\n'
    """
    named = polyform.lattice.name not in ("square", "cube")
    if fmt == "txt":
        return polyform.to_ascii(layout="side") + "\n"
    if fmt == "jsonl":
        cells = ",".join("[" + ",".join(map(str, cell)) + "]" for cell in polyform.cells)
        return (
            f'{{"cells":[{cells}],"size":{polyform.size},"kind":{json.dumps(kind)},'
            f'"symmetry":{json.dumps(polyform.symmetry)},"holes":{polyform.holes}'
            + (f',"lattice":{json.dumps(polyform.lattice.name)}}}\n' if named else "}\n")
        )
    if fmt == "csv":
        cells = " ".join(":".join(map(str, cell)) for cell in polyform.cells)
        row = (index, polyform.size, kind, polyform.symmetry, polyform.holes, cells)
        if named:
            row += (polyform.lattice.name,)
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerow(row)
        return buffer.getvalue()
    raise UnknownNameError(f"unknown format {fmt!r}; choose one of txt, jsonl, csv")

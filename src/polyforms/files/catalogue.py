"""Catalogue files: write and read streams of polyforms as txt, jsonl or csv.

Formats
-------
txt
    ASCII pictures separated by one blank line; a 3D polyform shows its
    z-layers side by side, two spaces apart.
jsonl
    One JSON object per line with keys, in this order, ``cells`` (list of
    coordinate lists), ``size``, ``kind``, ``symmetry`` and ``holes``.
csv
    A header line, then one row per polyform: ``index,size,kind,symmetry,
    holes,cells`` with cells written as ``x:y`` (or ``x:y:z``) joined by spaces.

Polyiamonds and polyhexes say their lattice (``triangle`` or ``hex``), which
their cells do not (a hexagon's look like a square's, a triangle's like a
cube's): a last ``lattice`` key in jsonl, a last ``lattice`` column in csv,
and a first line ``lattice: NAME`` before the pictures in txt. Square and cube
catalogues have none of these.

Every writer streams (nothing is held in memory), goes through
:func:`polyforms._atomic.atomic_output` so an interrupted run never leaves a
partial file at the target path, and is deterministic: the same stream gives
byte-identical files.
"""

from __future__ import annotations

import csv
import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from .. import _backend
from .._atomic import atomic_output, check_output_path, start_writeback
from .._textio import iter_lines, load_json, shorten
from ..enumeration.records import format_polyform, pack, unpack
from ..errors import (
    ParseError,
    PolyformError,
    TooLargeError,
    UnknownNameError,
    WrongTypeError,
)
from ..jobs.options import LongRun
from ..limits import MAX_REGION_CELLS, SVG_LIMIT
from ..polyform import Polyform, count_marks, parse_picture

__all__ = [
    "FORMATS",
    "format_packed",
    "format_polyform",
    "pack",
    "read_catalogue",
    "unpack",
    "write_catalogue",
    "write_packed",
    "write_polyforms",
]

FORMATS = ("txt", "jsonl", "csv", "svg")

_CSV_HEADER = ("index", "size", "kind", "symmetry", "holes", "cells")
#: What the first line of a txt catalogue of polyiamonds or polyhexes starts with.
_TXT_LATTICE = "lattice: "


def _named_lattice(polyform: Polyform | None) -> str | None:
    """The lattice a catalogue file names for this polyform: None for squares and cubes."""
    if polyform is None or polyform.lattice.name in ("square", "cube"):
        return None
    return polyform.lattice.name


def format_packed(
    packed: bytes,
    n: int,
    dim: int,
    fmt: str,
    kind: str = "free",
    first_index: int = 1,
    first_in_file: bool = True,
) -> str:
    """Format a packed chunk: the text :func:`format_polyform` gives for each polyform in turn.

    A packed chunk holds connected polyforms of ``n`` cells in normal position
    (as :func:`pack` gives them), each cell as ``dim`` signed bytes; a chunk
    with a coordinate outside ``0..n-1`` raises ValueError, and the hole count
    of a disconnected set of cells (``Polyform(..., check=False)``) is not
    defined here. This is the fast path for large catalogues: the
    compiled kernel formats a chunk without a Python object per polyform.
    ``first_index`` numbers csv rows; ``first_in_file`` says whether a txt
    picture needs a blank line before it.
    """
    kernel = _backend.kernel("catalogue")
    return kernel.format_chunk(packed, n, dim, fmt, kind, first_index, first_in_file).decode()


def write_catalogue(
    polyforms: Iterable[Polyform],
    path: str | os.PathLike[str] | None,
    fmt: str = "txt",
    *,
    kind: str = "free",
    progress: Callable[[int], None] | None = None,
    force: bool = False,
) -> int:
    """Write ``polyforms`` to ``path`` (``None`` or ``"-"``: stdout); return how many.

    Parameters
    ----------
    polyforms : iterable of Polyform
        Consumed once, as a stream.
    path : path, "-" or None
        The target; written atomically.
    fmt : {"txt", "jsonl", "csv", "svg"}
        ``svg`` draws a catalogue sheet (:func:`polyforms.draw.plane.catalogue_svg`).
    kind : str
        Recorded in jsonl and csv rows.
    progress : callable, optional
        Called with 1 after each polyform written (for example a tqdm bar's
        ``update``).
    force : bool
        Draw an SVG sheet of more than :data:`polyforms.limits.SVG_LIMIT`
        polyforms or :data:`polyforms.draw.plane.CELL_LIMIT` cells (a sheet is
        laid out whole, in memory).

    Raises
    ------
    UnknownNameError
        Unknown format.
    TooLargeError
        An SVG sheet beyond the limit, without ``force``.
    WrongTypeError
        An item that is not a Polyform.
    OSError
        The target directory is missing or not writable (no file is left behind).
    """
    if fmt not in FORMATS:
        raise UnknownNameError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    stream = iter(polyforms)
    first = next(stream, None)  # its lattice heads a csv or txt file
    named = None if first is None else _named_lattice(_checked(first))
    if first is not None:
        stream = itertools.chain([first], stream)
    if fmt == "svg":
        from ..draw.plane import catalogue_svg

        items = []  # a sheet is laid out as a whole: bounded unless forced
        for polyform in stream:
            items.append(_checked(polyform))
            if len(items) > SVG_LIMIT and not force:
                raise TooLargeError(
                    f"an SVG sheet of more than {SVG_LIMIT:,} polyforms is too large to draw; "
                    "write txt, jsonl or csv, or use force=True (--force)"
                )
        with atomic_output(path) as out:
            out.write(catalogue_svg(items, kind=kind, force=force))
        return len(items)
    written = 0
    with atomic_output(path) as out:
        if fmt == "csv":
            out.write(",".join(_CSV_HEADER + (("lattice",) if named else ())) + "\n")
        separator = ""
        if fmt == "txt" and named:
            out.write(f"{_TXT_LATTICE}{named}\n")
            separator = "\n"
        for written, polyform in enumerate(stream, start=1):
            if fmt == "txt":
                out.write(separator)
                separator = "\n"
            out.write(format_polyform(_checked(polyform), fmt, kind, written))
            if progress:
                progress(1)
    return written


def _checked(polyform: object) -> Polyform:
    if not isinstance(polyform, Polyform):
        raise WrongTypeError(f"a catalogue holds Polyform objects, not {type(polyform).__name__}")
    return polyform


def write_packed(
    chunks: Iterable[bytes],
    n: int,
    dim: int,
    path: str | os.PathLike[str] | None,
    fmt: str = "txt",
    *,
    kind: str = "free",
    progress: Callable[[int], None] | None = None,
) -> int:
    """Write packed chunks of polyforms (see :func:`format_packed`); return how many.

    The same bytes as :func:`write_catalogue` gives for the same polyforms,
    without a Python object per polyform. ``progress`` is called with the
    number of polyforms in each chunk written.
    """
    if fmt not in ("txt", "jsonl", "csv"):
        raise UnknownNameError(f"unknown format {fmt!r}; choose one of txt, jsonl, csv")
    stride = n * dim
    written = 0
    kernel = _backend.kernel("catalogue")
    with atomic_output(path, "wb") as out:  # the kernel's bytes go out as they are
        if fmt == "csv":
            out.write((",".join(_CSV_HEADER) + "\n").encode())
        for chunk in chunks:
            out.write(kernel.format_chunk(chunk, n, dim, fmt, kind, written + 1, written == 0))
            start_writeback(out)
            written += len(chunk) // stride
            if progress:
                progress(len(chunk) // stride)
    return written


def write_polyforms(
    n: int,
    path: str | os.PathLike[str] | None,
    fmt: str = "txt",
    *,
    dim: int = 2,
    kind: str = "free",
    method: str = "redelmeier",
    holes: bool | None = None,
    symmetry: str | int | None = None,
    force: bool = False,
    jobs: int = 1,
    progress: Any = None,
    executor: Any = None,
    checkpoint: Any = None,
    lattice: Any = None,
) -> int:
    """Write the catalogue of the polyforms of size ``n`` to ``path``; return how many.

    The one call behind ``polyforms enumerate N -o FILE``. The request is
    checked and its search chosen once, by
    :func:`~polyforms.enumeration.generate.plan_listing`; then the fast path is
    taken when it can be (Redelmeier, a text format: packed chunks from the
    compiled search, through the compiled filter if any, straight to the
    compiled formatter, no Python object per polyform), and otherwise the
    polyforms stream through :func:`write_catalogue`. Both give the same bytes.

    Parameters
    ----------
    n, dim, kind, method, holes, symmetry, force, jobs, progress, executor, checkpoint, lattice
        As for :func:`polyforms.enumeration.generate.enumerate_polyforms`: the search runs
        on the job layer, and with a checkpoint an interrupted run resumes and
        writes the same bytes.
    path, fmt
        As for :func:`write_catalogue`.
    """
    from ..enumeration import generate as enumeration

    if fmt not in FORMATS:
        raise UnknownNameError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    check_output_path(path)
    listing = enumeration.plan_listing(
        n, dim, kind, method, holes=holes, symmetry=symmetry, force=force, lattice=lattice
    )  # checks every argument before any work
    dim = listing.dim  # lattice="cube" is dim 3
    if fmt == "svg" and not force:
        guess = enumeration.estimate_catalogue(n, dim, kind, listing.lattice)
        if not listing.filtered and guess > 2 * SVG_LIMIT:
            raise TooLargeError(
                f"an SVG sheet of the size-{n} polyforms would hold about {guess:.2g} of them "
                f"(limit {SVG_LIMIT:,}); write txt, jsonl or csv, or use --force"
            )
    if checkpoint is not None:
        from ..jobs.checkpoint import check_apart

        check_apart(path, checkpoint)
    options = LongRun(jobs, executor, checkpoint, progress)
    if listing.packed and fmt != "svg":
        if options.split and fmt in ("txt", "jsonl") and not listing.filtered:
            from ..enumeration.redelmeier import split_depth

            if split_depth(n, dim) > 0:  # the subtasks format their polyforms too
                return _write_formatted(listing, fmt, path, options)
        return write_packed(listing.chunks(options), n, dim, path, fmt, kind=kind)
    return write_catalogue(listing.polyforms(options), path, fmt, kind=kind, force=force)


#: Polyforms per piece of a formatted subtask's chunk (jsonl, n = 16: about 650 kB).
_PIECE = 4096


def _formatted_task(n: int, dim: int, kind: str, prefix, fmt: str, search):
    """A subtask of a split catalogue: its polyforms searched *and* formatted.

    Formatting is a large share of a catalogue's work (about a third of a
    free jsonl catalogue's), so the workers do it. ``search(n, dim, kind,
    prefix)`` is the task function of Redelmeier's :class:`SearchJob` that
    packs the subtree below ``prefix``. A txt chunk starts with the blank line
    that separates it from the one before (the first is dropped when
    writing). The chunk is counted (:func:`polyforms.files.chunks.counted_chunk`)
    and comes in :class:`~polyforms.jobs.Pieces` of :data:`_PIECE`
    polyforms, which a worker writes to its spool file as they come.
    """
    from ..jobs.tasks import Pieces

    packed = search(n, dim, kind, prefix)
    format_chunk = _backend.kernel("catalogue").format_chunk
    stride = n * dim
    step = _PIECE * stride

    def pieces() -> Iterator[bytes]:
        yield b"%d\n" % (len(packed) // stride)
        view = memoryview(packed)
        for start in range(0, len(packed), step):
            yield format_chunk(view[start : start + step], n, dim, fmt, kind, 1, False)

    return Pieces(pieces())


def _write_formatted(listing, fmt: str, path, options: LongRun) -> int:
    """Write a txt or jsonl catalogue whose chunks the subtasks formatted, in order."""
    from .chunks import write_listing

    job = _FormattedJob(listing.n, listing.dim, listing.kind, fmt)
    # txt: no blank line before the first picture
    skip = 1 if fmt == "txt" else 0
    return write_listing(job, path, options, per_worker=4, skip_first=skip)


class _FormattedJob:
    """Redelmeier's catalogue job (:class:`~polyforms.enumeration.redelmeier.SearchJob`)
    whose tasks also format their polyforms: each runs :func:`_formatted_task`
    with the search task's arguments, its format and its function."""

    def __init__(self, n: int, dim: int, kind: str, fmt: str) -> None:
        from ..enumeration.redelmeier import SearchJob

        self.inner = SearchJob("pack", n, dim, kind, listing=fmt)
        self.fmt = fmt
        # "counted": the chunks start with their count (journals of earlier chunks differ)
        self.key = f"catalogue {fmt} counted n={n} dim={dim} kind={kind}"
        self.chunks = True  # its results are output chunks (see jobs.Job)

    def _wrap(self, task):
        from ..jobs.tasks import Task

        return Task(task.id, _formatted_task, (*task.args, self.fmt, task.function), task.weight)

    def tasks(self):
        return [self._wrap(task) for task in self.inner.tasks()]

    def refine(self, task):
        children = self.inner.refine(task)  # reads task.args[3], the prefix
        return None if children is None else [self._wrap(child) for child in children]


def read_catalogue(
    path: str | os.PathLike[str], fmt: str | None = None, dim: int = 2, lattice: Any = None
) -> Iterator[Polyform]:
    """Read a catalogue file back as a stream of polyforms.

    Parameters
    ----------
    path : path
    fmt : {"txt", "jsonl", "csv"}, optional
        Guessed from the file name's ending when omitted.
    dim : {2, 3}
        Only for txt files, whose pictures do not say their dimension.
    lattice : Lattice or str, optional
        Only for txt files without a ``lattice:`` line: the lattice of their
        pictures (by default that of ``dim``). A file that names its lattice
        is read on it.

    Raises
    ------
    ParseError
        A malformed line or picture, or one whose cells are no polyform (the
        message names the file and the line).
    """
    lines = iter_lines(path, "catalogue file")  # a missing file is named first
    fmt = fmt or os.path.splitext(os.fspath(path))[1].lstrip(".").lower()
    if fmt not in ("txt", "jsonl", "csv"):
        lines.close()
        raise UnknownNameError(
            f"cannot tell the catalogue format of {os.fspath(path)[:80]!r} (txt, jsonl or csv)"
        )
    try:
        yield from _READERS[fmt](lines, lattice if fmt == "txt" and lattice else dim)
    except PolyformError as error:
        shown, message = shorten(os.fspath(path)), str(error)
        if not message.startswith(f"{shown}: "):  # the reader of lines names the file itself
            message = f"{shown}: {message}"
        raise ParseError(message) from None


def _read_jsonl(stream: IO[str], dim: int) -> Iterator[Polyform]:
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            record = load_json(line)
            polyform = Polyform(record["cells"], lattice=record.get("lattice"))
        except (ValueError, KeyError, TypeError) as error:
            raise ParseError(f"line {number}: not a catalogue record ({error})") from None
        yield polyform


def _read_csv(stream: IO[str], dim: int) -> Iterator[Polyform]:
    rows = csv.reader(stream)
    header = next(rows, None)
    if header is None or tuple(header) not in (_CSV_HEADER, (*_CSV_HEADER, "lattice")):
        raise ParseError(f"line 1: expected the header {','.join(_CSV_HEADER)}")
    named = len(header) > len(_CSV_HEADER)
    for number, row in enumerate(rows, start=2):
        try:
            cells = [tuple(int(c) for c in cell.split(":")) for cell in row[5].split()]
            polyform = Polyform(cells, lattice=row[6] if named else None)
        except (ValueError, IndexError) as error:
            raise ParseError(f"line {number}: not a catalogue row ({error})") from None
        yield polyform


#: The most characters one picture of a txt catalogue may take: a picture ends
#: only at a blank line and is held whole before it is read (16 Mi characters; a
#: square of a million cells, the largest region, takes one).
_PICTURE_CHARACTERS = 1 << 24


def _read_txt(stream: IO[str], dim: Any) -> Iterator[Polyform]:
    # ``dim``: 2, 3 or a lattice; a first line "lattice: NAME" names the lattice.
    block: list[str] = []
    held = marked = 0
    for number, line in enumerate(itertools.chain(stream, ["\n"]), start=1):
        if line.strip():
            block.append(line.rstrip("\n"))
            held += len(line)
            marked += count_marks(line)
            if held > _PICTURE_CHARACTERS or marked > MAX_REGION_CELLS:
                raise TooLargeError(
                    f"the picture at line {number - len(block) + 1} is larger than a catalogue "
                    f"holds ({_PICTURE_CHARACTERS:,} characters, {MAX_REGION_CELLS:,} cells)"
                )
        elif block:
            if number == len(block) + 1 and len(block) == 1 and block[0].startswith(_TXT_LATTICE):
                dim = block[0][len(_TXT_LATTICE) :].strip()  # the file's first line
                block, held, marked = [], 0, 0
                continue
            try:
                polyform = _txt_picture(block, dim)
            except PolyformError as error:
                raise ParseError(f"the picture at line {number - len(block)}: {error}") from None
            yield polyform
            block, held, marked = [], 0, 0


def _txt_picture(rows: list[str], dim: Any) -> Polyform:
    if dim == 2:
        return Polyform.from_ascii("\n".join(rows))
    if dim != 3:  # a lattice, or its name
        return Polyform.from_ascii("\n".join(rows), lattice=dim)
    layers = [row.split("  ") for row in rows]  # z-layers side by side
    cells = [
        (x, y, z)
        for y, row in enumerate(layers)
        for z, layer in enumerate(row)
        for (x, _), _mark in parse_picture(layer)
    ]
    if not cells:
        raise ParseError("a picture with no cells")
    return Polyform(cells)


_READERS = {"jsonl": _read_jsonl, "csv": _read_csv, "txt": _read_txt}

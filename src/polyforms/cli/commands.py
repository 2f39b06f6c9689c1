"""What each ``polyforms`` command does: one library call, its result written.

``run_<name>(args)`` takes the arguments :func:`polyforms.cli.build_parser`
parsed for the command and returns its exit status; an error propagates to
:func:`polyforms.cli.main`, which reports it in one line. Each run imports
what it calls only then, so that a short command starts quickly.
"""

from __future__ import annotations

import argparse
import math
import sys

from ..errors import PolyformError
from . import MODEL_FORMATS, say

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..jobs.options import LongRun

__all__ = ["RUNS"]

#: Seconds a run lasts before the progress bar a terminal gets unasked appears.
_BAR_DELAY = 0.5


def long_run(args: argparse.Namespace) -> LongRun:
    """The long-run options (``--jobs``, ``--dask``, ``--checkpoint``, ``--progress``)
    as the library's one value, :class:`polyforms.jobs.LongRun`.

    The executors are imported only when an option needs them here (Dask, a
    bar): a short count starts without them.
    """
    from ..jobs.options import LongRun

    shown = args.progress if args.progress is not None else sys.stderr.isatty()
    executor = bar = None
    if args.dask is not None or shown:
        from .. import jobs

        if args.dask is not None:
            workers = args.jobs if args.jobs != 1 else 2
            executor = jobs.executor_from(workers, dask=args.dask)
            args.closers.append(executor.close)  # a cluster we start ends with the command
        if shown:
            # On a terminal, unasked, the bar waits half a second: a short run draws
            # nothing. --progress shows it at once.
            bar = jobs.progress_bar(True, delay=_BAR_DELAY if args.progress is None else 0.0)
            args.closers.append(bar.close)
    return LongRun(args.jobs, executor, args.checkpoint, bar)


def run_enumerate(args: argparse.Namespace) -> int:
    """``polyforms enumerate``: the estimate, the count, or the catalogue of size N."""
    from ..enumeration import generate as enumeration

    args.dim, lattice = _enumerate_lattice(args.dim, args.lattice)
    options = dict(
        dim=args.dim, kind=args.kind, method=args.method, force=args.force,
        holes=args.holes, symmetry=args.symmetry,
    )  # fmt: skip
    if lattice is not None:  # square and cube output stays as it was without the option
        options["lattice"] = lattice
    if args.estimate:
        found = enumeration.estimate(
            args.n, args.dim, args.kind, method=args.method, counting=args.count, lattice=lattice
        )
        _print_estimate(found, "polyforms")
        if args.count:
            filtered = args.holes is not None or args.symmetry is not None
            memory = enumeration.count_memory(args.n, args.dim, args.method, filtered)
            if memory is not None:
                # nodes are the peak frontier states of one sweep; this is what they take
                sys.stdout.write(f"memory    {memory:.3g} bytes\n")
        return 0
    if args.count:
        sys.stdout.write(f"{enumeration.count(args.n, **options, **long_run(args).keywords)}\n")
        return 0
    from ..files import catalogue
    from .arguments import format_from_path

    formats = (*catalogue.FORMATS, *MODEL_FORMATS)
    fmt = args.format or format_from_path(args.output, formats, "txt")
    _refuse_binary_terminal(fmt, args.output)
    if fmt in MODEL_FORMATS:
        if lattice is not None:
            raise PolyformError(
                f"{fmt} models are of polyominoes and polycubes, not --lattice {lattice}"
            )
        from ..draw.mesh import write_pieces

        stream = enumeration.enumerate_polyforms(args.n, **options, **long_run(args).keywords)
        write_pieces(stream, args.output, fmt, unit=args.unit, gap=args.gap, force=args.force)
        return 0
    catalogue.write_polyforms(args.n, args.output, fmt, **options, **long_run(args).keywords)
    return 0


def _enumerate_lattice(dim: int | None, lattice: str | None) -> tuple[int, str | None]:
    """``--dim`` and ``--lattice`` together: the dimension, and the triangular or
    hexagonal lattice (None for squares and cubes). ``--lattice cube`` is ``--dim 3``.

    Raises
    ------
    PolyformError
        The two disagree (``--dim 3 --lattice hex``).
    """
    if lattice is None:
        return dim or 2, None
    dimension = 3 if lattice == "cube" else 2
    if dim is not None and dim != dimension:
        raise PolyformError(f"--dim {dim} does not match --lattice {lattice} ({dimension}D)")
    return dimension, None if lattice in ("square", "cube") else lattice


#: The formats whose files are binary (GLB); the others are text.
_BINARY_FORMATS = ("glb",)


def _refuse_binary_terminal(fmt: str | None, output: str | None) -> None:
    """Refuse, before any work, to write a binary format to standard output when
    that is a terminal: the bytes would garble it and help nobody."""
    if fmt not in _BINARY_FORMATS or output not in (None, "-"):
        return
    try:
        terminal = sys.stdout.isatty()
    except (AttributeError, ValueError):  # no stdout, or closed
        terminal = False
    if terminal:
        raise PolyformError(
            f"{fmt} is a binary format and standard output is a terminal; give -o FILE"
        )


def _print_estimate(estimate, what: str) -> None:
    """The lines of ``--estimate``: the search's nodes, its solutions, time and probes."""
    # nan: the probes met no solution to scale from (a warning says so)
    solutions = "unknown" if math.isnan(estimate.solutions) else f"{estimate.solutions:.3g}"
    sys.stdout.write(
        f"nodes     {estimate.nodes:.3g}\n"
        f"{what:<9} {solutions}\n"
        f"seconds   {estimate.seconds:.3g}\n"
        f"probes    {estimate.probes}\n"
    )


def run_draw(args: argparse.Namespace) -> int:
    """``polyforms draw``: a catalogue or solutions file drawn as SVG, or as a 3D model."""
    from .._atomic import check_output_path
    from ..files.drawfile import draw_file, model_file
    from .arguments import format_from_path

    check_output_path(args.output)
    fmt = args.format or format_from_path(args.output, ("svg", *MODEL_FORMATS), "svg")
    _refuse_binary_terminal(fmt, args.output)
    if fmt in MODEL_FORMATS:
        picture = model_file(
            args.file, fmt, unit=args.unit, gap=args.gap, columns=args.columns,
            dim=args.dim, limit=args.limit, colours=args.palette, force=args.force,
            lattice=args.lattice,
        )  # fmt: skip
    else:
        picture = draw_file(
            args.file, columns=args.columns, cell=args.cell, symmetry=args.symmetry,
            dim=args.dim, exploded=args.exploded, limit=args.limit, labels=args.labels,
            colours=args.palette, force=args.force, lattice=args.lattice,
        )  # fmt: skip
    picture.save(args.output)
    return 0


def run_solve(args: argparse.Namespace) -> int:
    """``polyforms solve``: the estimate, the count or the solutions of a DLX problem."""
    from ..exactcover.dlxformat import format_solution
    from .arguments import read_dlx

    problem = read_dlx(args.file)
    if args.estimate:
        _print_estimate(problem.estimate(), "solutions")
        return 0
    options = long_run(args)
    if args.count:
        sys.stdout.write(f"{problem.count(limit=args.limit, **options.keywords)}\n")
        return 0
    texts = [" ".join(map(str, problem.constraints_of(choice))) for choice in problem.choices]
    if args.limit is None and options.split:
        from ..exactcover.listings import solve_listing

        solve_listing(problem, texts, None, options)
        return 0
    for solution in problem.solutions(limit=args.limit):
        sys.stdout.write(format_solution(texts, solution))
    return 0


def run_tile(args: argparse.Namespace) -> int:
    """``polyforms tile``: the estimate, the count, the by-open table or the tilings."""
    from ..files.solutions import FORMATS
    from ..tiling import by_open_summary, tile
    from .arguments import format_from_path, read_tile_inputs

    if args.by_open:
        if not args.open:
            raise PolyformError("--by-open needs --open K")
        fmt = args.format or format_from_path(args.output, ("jsonl", "csv", "svg"), "jsonl")
        if fmt not in ("jsonl", "csv", "svg"):
            raise PolyformError(f"--by-open writes jsonl, csv or svg (a map), not {fmt}")
        if fmt == "svg" and args.distinct:
            raise PolyformError("an open-cell map (svg) counts every open set: drop --distinct")
    else:
        fmt = None if args.count else args.format or format_from_path(args.output, FORMATS, "txt")
        if fmt == "csv":
            raise PolyformError("csv is the format of --by-open; tilings are txt, jsonl or svg")
    if args.output is not None:  # a count never writes: the atomic writer stays unimported
        from .._atomic import check_output_path

        check_output_path(args.output)
    _refuse_binary_terminal(fmt, args.output)
    region, piece_set = read_tile_inputs(args)
    problem = tile(region, piece_set, open=args.open)
    if problem.impossible:
        say(f"polyforms tile: no tiling: {problem.impossible}")
    if args.estimate:  # never runs the search, whatever else is asked
        _print_estimate(problem.estimate(), "tilings")
        if problem.memoized:
            say(
                "polyforms tile: note: every piece is free, so --count sweeps boards and "
                "skips most of this tree: the nodes and seconds are an upper bound"
            )
        return 0
    if args.by_open:
        from ..files.by_open import write_by_open
        from ..tiling import by_open_rows

        rows = by_open_rows(problem, problem.count_by_open(args.distinct), args.distinct)
        if fmt == "svg":
            from ..draw.open_map import open_map_svg

            open_map_svg(rows, problem.region, labels=args.labels, force=args.force).save(
                args.output
            )
        else:
            write_by_open(rows, args.output, fmt)
        say(f"polyforms tile: {by_open_summary(rows, args.distinct)}")
        return 0
    if args.count:
        if args.limit is None:
            total = problem.count(distinct=args.distinct, **long_run(args).keywords)
        else:
            total = sum(1 for _ in problem.solutions(distinct=args.distinct, limit=args.limit))
        sys.stdout.write(f"{total}\n")
        return 0
    problem.write(
        args.output, fmt, distinct=args.distinct, steady=args.steady, limit=args.limit,
        columns=args.columns, labels=args.labels, colours=args.palette, unit=args.unit,
        gap=args.gap, **long_run(args).keywords, **_drawing_force(fmt, args.force),
    )  # fmt: skip
    return 0


def _drawing_force(fmt: str | None, force: bool) -> dict:
    """``force`` for the writers of pictures and models, which alone take it."""
    from ..files.solutions import PICTURE_FORMATS

    return {"force": force} if fmt in PICTURE_FORMATS else {}


def run_calendar(args: argparse.Namespace) -> int:
    """``polyforms calendar``: the count of every date, or one date's count or solutions."""
    from ..puzzles.puzzle_a_day import calendar_text

    for text in calendar_text(args.month, args.day, count=args.count, limit=args.limit):
        sys.stdout.write(text)
    return 0


def run_studio(args: argparse.Namespace) -> int:
    """``polyforms studio``: serve the web app until Ctrl-C (:mod:`polyforms.studio`)."""
    from ..studio.server import serve

    serve(args.file, host=args.host, port=args.port, browser=not args.no_browser, say=say)
    return 0


#: The run of each command, by name.
RUNS = {
    "enumerate": run_enumerate,
    "draw": run_draw,
    "solve": run_solve,
    "tile": run_tile,
    "calendar": run_calendar,
    "studio": run_studio,
}

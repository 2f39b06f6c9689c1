"""The ``polyforms`` command: parse arguments, call the library, report errors.

Each subcommand is a pair of functions: ``_add_<name>(subparsers)`` here
declares its arguments, and ``run_<name>(args)`` in
:mod:`polyforms.cli.commands` makes its library call and writes the result;
:mod:`polyforms.cli.checks` checks, between the two, what no option can check
alone. Nothing computes anything. This module is all that ``polyforms --help``
imports; the commands and the library are imported when a command runs.

Every :class:`~polyforms.errors.PolyformError` (and a few ``OSError`` cases)
becomes one line on stderr and exit status 2 (:mod:`polyforms.cli.running`, which
runs a parsed command); no traceback reaches the user.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from ..errors import PolyformError

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose usage errors are one line on stderr, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        from .._textio import shorten

        # argparse quotes the value it refuses whole ("invalid choice: '...'"): cut it.
        say(f"{self.prog}: error: {shorten(message, 300)}")
        raise SystemExit(2)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse asks shutil for the width each time it makes a formatter (once an
        # argument declared); shutil imports bz2 and lzma, milliseconds of every run.
        return self.formatter_class(prog=self.prog, width=_columns() - 2)


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size gives it: $COLUMNS, else
    the size of standard output's terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{_shown(text)} must be at least 1")
    return value


def _shown(text: str) -> str:
    """An argument as a message shows it: quoted, at most 40 characters, controls escaped."""
    from .._textio import shorten

    return repr(shorten(text, 40))


def _whole_in(low: int, high: int) -> Callable[[str], int]:
    """The type of an integer option from ``low`` to ``high``: both ends are in its
    message, so that a number out of range never reaches the library (a limit of
    10**20 would end in ``itertools.islice`` with a traceback)."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} must be at least {low:,} and at most {high:,}"
            )
        return value

    return whole


#: The ranges of the integer options. --open: the cells of the largest region
#: (polyforms.limits.MAX_REGION_CELLS); --limit: what a count of solutions holds
#: (a signed 64-bit integer) and islice takes. A test keeps them equal to the library's.
_MOST_OPEN = 1_000_000
_MOST_LIMIT = 10**18
_MOST_COLUMNS = 10_000
_MOST_CELL = 1_000  # pixels
_MOST_JOBS = 100_000


def _jobs_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{_shown(text)} must be 0 (every core) or more")
    if value > _MOST_JOBS:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} must be at most {_MOST_JOBS:,} (0 is every core)"
        )
    return value


def _add_long_run(p: argparse.ArgumentParser, what: str) -> None:
    """The options every long-running command takes (the job layer, polyforms.jobs.runner)."""
    group = p.add_argument_group(
        "long runs",
        f"{what} is cut into subtasks; the result is the same whatever runs them, "
        "and an interrupted run resumes from its checkpoint.",
    )
    group.add_argument(
        "--jobs",
        type=_jobs_count,
        default=1,
        metavar="N",
        help="local worker processes (default 1; 0: every core); a count whose "
        "pieces are all free sweeps its boards in N threads instead",
    )
    group.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run the subtasks on a Dask cluster: a scheduler address "
        "(tcp://host:8786), or 'local' for a LocalCluster of --jobs workers "
        '(needs pip install "polyforms[dask]")',
    )
    group.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="journal finished subtasks in FILE; the same command with the "
        "same FILE resumes after an interruption",
    )
    group.add_argument(
        "--estimate",
        action="store_true",
        help="do not run: print the estimated size of the search (Knuth's "
        "random probes), its solutions and time",
    )
    bar = group.add_mutually_exclusive_group()
    bar.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="show a progress bar with ETA on stderr from the start, even when it is "
        "not a terminal",
    )
    bar.add_argument(
        "--quiet",
        dest="progress",
        action="store_false",
        help="no progress bar (default: a bar when stderr is a terminal, once the run "
        "has lasted half a second)",
    )


# -- enumerate -----------------------------------------------------------------------


# The 2D symmetry classes (polyform.SYMMETRY_CLASSES; a test keeps the two equal),
# written out so that --help need not import the geometry.
_SYMMETRY_CLASSES = (
    "none", "axis-mirror", "diagonal-mirror", "rotation-180",
    "axis-mirrors", "diagonal-mirrors", "rotation-90", "full",
)  # fmt: skip


def _add_enumerate(subparsers) -> None:
    p = subparsers.add_parser(
        "enumerate",
        help="list or count the polyominoes / polycubes / polyiamonds / polyhexes of a size",
        description="List or count every polyomino (or polycube, --dim 3; polyiamond, "
        "--lattice triangle; polyhex, --lattice hex) of N cells. "
        "Output goes to stdout unless -o FILE is given; a file is written atomically.",
        epilog="examples:  polyforms enumerate 10 --kind free --count   (prints 4655)\n"
        "           polyforms enumerate 8 --format jsonl -o free8.jsonl",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("n", type=_positive_int, metavar="N", help="number of cells")
    p.add_argument(
        "--dim",
        type=int,
        choices=(2, 3),
        default=None,
        help="2 for polyominoes (default), 3 for polycubes",
    )
    p.add_argument(
        "--lattice",
        choices=("square", "cube", "triangle", "hex"),
        default=None,
        help="square (polyominoes, default), cube (polycubes: --dim 3), triangle "
        "(polyiamonds) or hex (polyhexes)",
    )
    p.add_argument(
        "--kind",
        choices=("fixed", "one-sided", "free"),
        default="free",
        help="identify images under no symmetry, rotations, or all (default free)",
    )
    p.add_argument(
        "--method",
        choices=("redelmeier", "naive", "transfer-matrix"),
        default="redelmeier",
        help="Redelmeier's algorithm (default, streams; its 2D counts switch to the "
        "transfer matrix where that is faster), grow-and-dedupe, or Jensen's transfer "
        "matrix (2D counts only, up to 51 cells: with --count)",
    )
    p.add_argument("--count", action="store_true", help="print only the number")
    p.add_argument(
        "--format",
        choices=("txt", "jsonl", "csv", "svg", *MODEL_FORMATS),
        default=None,
        help="output format (default: from the -o file's ending, else txt); stl, obj and "
        "glb are 3D models of the pieces for printing",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    _add_model_options(p)
    holes = p.add_mutually_exclusive_group()
    holes.add_argument(
        "--holes",
        dest="holes",
        action="store_true",
        default=None,
        help="keep only polyominoes with holes",
    )
    holes.add_argument(
        "--no-holes", dest="holes", action="store_false", help="keep only polyominoes without holes"
    )
    p.add_argument(
        "--symmetry",
        metavar="CLASS",
        help="keep only one symmetry class: "
        + ", ".join(_SYMMETRY_CLASSES)
        + " (2D), or the group order (3D)",
    )
    p.add_argument(
        "--force", action="store_true", help="allow an output or search estimated to be enormous"
    )
    _add_long_run(p, "The search")


# -- draw ----------------------------------------------------------------------------


#: The 3D model formats (polyforms.draw.mesh.MESH_FORMATS), written out so that --help
#: need not import the mesh module.
MODEL_FORMATS = ("stl", "obj", "glb")


def _add_picture_options(p: argparse.ArgumentParser) -> None:
    """Piece letters and the palette of SVG pictures."""
    letters = p.add_mutually_exclusive_group()
    letters.add_argument(
        "--labels",
        dest="labels",
        action="store_true",
        default=None,
        help="svg: write each piece's name in it (default: when the cells are large enough)",
    )
    letters.add_argument(
        "--no-labels", dest="labels", action="store_false", help="svg: no piece names"
    )
    p.add_argument(
        "--palette",
        choices=("default", "colour-blind"),
        default=None,
        help="colours of the pentomino letters; colour-blind keeps every two apart also "
        "for red-green colour blindness",
    )


#: The sizes of a model in millimetres (polyforms.draw.mesh.MIN_UNIT ... MAX_GAP),
#: written out so that --help need not import the mesh module; a test keeps them equal.
_UNITS = (0.01, 1000.0)
_GAPS = (0.001, 100.0)


def _add_model_options(p: argparse.ArgumentParser) -> None:
    """Sizes of 3D models (stl, obj, glb)."""
    p.add_argument(
        "--unit",
        type=_unit,
        default=10.0,
        metavar="MM",
        help=f"stl/obj/glb: edge of a cube in millimetres, {_UNITS[0]:g} to {_UNITS[1]:g} "
        "(default 10)",
    )
    p.add_argument(
        "--gap",
        type=_gap,
        default=0.0,
        metavar="MM",
        help=f"stl/obj/glb: play between touching pieces in millimetres, 0 or {_GAPS[0]:g} "
        f"to {_GAPS[1]:g}, less than the unit (default 0)",
    )


def _millimetres(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a number") from None
    return value


def _unit(text: str) -> float:
    value = _millimetres(text)
    if not _UNITS[0] <= value <= _UNITS[1]:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} must be a size from {_UNITS[0]:g} to {_UNITS[1]:g} mm"
        )
    return value


def _gap(text: str) -> float:
    value = _millimetres(text)
    if not (value == 0 or _GAPS[0] <= value <= _GAPS[1]):
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} must be 0 or a size from {_GAPS[0]:g} to {_GAPS[1]:g} mm"
        )
    return value


def _add_draw(subparsers) -> None:
    p = subparsers.add_parser(
        "draw",
        help="draw a catalogue or a solutions file as SVG, or as a 3D model",
        description="Draw a file as an SVG picture. A catalogue (.txt, .csv, or .jsonl whose "
        "records have 'cells', as written by `polyforms enumerate`) becomes a sheet of "
        "labelled polyforms. A .jsonl file whose records have 'placements' (tiling "
        "solutions, as written by `polyforms tile --format jsonl`) becomes one tiling, or a "
        "numbered sheet of several; 3D packings are drawn isometrically. With -o FILE.stl, "
        ".obj or .glb (or --format), a 3D model instead: the pieces of a catalogue side by "
        "side, or each packing with one solid per piece (needs pip install "
        '"polyforms[mesh]").',
        epilog="examples:  polyforms draw free8.jsonl -o free8.svg --columns 20\n"
        "           polyforms draw tilings.jsonl --limit 12 --columns 4 -o tilings.svg\n"
        "           polyforms draw packings.jsonl --limit 1 --gap 0.2 -o packing.stl",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "file", metavar="FILE", help="catalogue (.txt/.csv/.jsonl) or solutions (.jsonl) file"
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE.svg",
        default="-",
        help="write the SVG (or model) to this file (default stdout)",
    )
    p.add_argument(
        "--format",
        choices=("svg", *MODEL_FORMATS),
        default=None,
        help="svg, or a 3D model (default: from the -o file's ending, else svg)",
    )
    p.add_argument(
        "--columns",
        type=_whole_in(1, _MOST_COLUMNS),
        metavar="N",
        help="items per row of a sheet (default about twice as many as rows)",
    )
    p.add_argument(
        "--cell",
        type=_whole_in(1, _MOST_CELL),
        metavar="PX",
        help="side of a cell in pixels (default 12 for catalogues, 10 for sheets of "
        "solutions, 16 to 32 for one solution)",
    )
    p.add_argument(
        "--limit", type=_whole_in(1, _MOST_LIMIT), metavar="K", help="draw only the first K items"
    )
    p.add_argument(
        "--symmetry", action="store_true", help="catalogues: add the symmetry class to each label"
    )
    p.add_argument(
        "--dim",
        type=int,
        choices=(2, 3),
        default=2,
        help="dimension of the pictures in a .txt catalogue (default 2)",
    )
    p.add_argument(
        "--exploded",
        action="store_true",
        help="3D solutions: draw the first packing layer by layer",
    )
    p.add_argument(
        "--lattice",
        choices=("square", "triangle", "hex"),
        default=None,
        help="the lattice of the file's cells when its records do not name it "
        "(default: the file's 'lattice' field, else squares or cubes)",
    )
    _add_picture_options(p)
    _add_model_options(p)
    _add_drawing_force(p)


def _add_drawing_force(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--force",
        action="store_true",
        help="draw a picture or model of more than 20,000 pieces or 250,000 cells "
        "(polyforms.draw.PIECE_LIMIT, CELL_LIMIT)",
    )


def _add_solve(subparsers) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve an exact cover problem in Knuth's DLX format",
        description="Solve an exact cover problem written in Knuth's DLX format. Each "
        "solution is printed as its options, one per line, followed by a blank line.",
    )
    parser.add_argument("file", metavar="FILE.dlx", help="the problem; - reads standard input")
    parser.add_argument("--count", action="store_true", help="print the number of solutions only")
    parser.add_argument(
        "--limit", type=_whole_in(1, _MOST_LIMIT), metavar="K", help="stop after K solutions"
    )
    _add_long_run(parser, "A count or a listing (without --limit)")


# -- tile ------------------------------------------------------------------------------


def _add_tile(subparsers) -> None:
    p = subparsers.add_parser(
        "tile",
        help="tile a region or box with a set of pieces; count or list the tilings",
        description="Tile REGION with the pieces of SET. REGION is a box (6x10, 3x4x5), a "
        "file holding an ASCII picture (# or letters for cells, . or space outside; 3D "
        "layers separated by a line --), or - for standard input. SET is a named set, "
        "free:N, one-sided:N, fixed:N, or a file of ASCII pictures. A picture written "
        "in the argument itself must hold a line break; any other name must be a file.",
        epilog="examples:  polyforms tile 6x10 --pieces pentominoes --count   (prints 9356)\n"
        "           polyforms tile 6x10 --pieces pentominoes --count --distinct   (2339)\n"
        "           polyforms tile 3x4x5 --pieces solid-pentominoes --limit 1\n"
        "           polyforms tile 8x8 --pieces pentominoes --copies 'I=0..2,X=1' --count\n"
        "           polyforms tile board.txt --pieces set.txt --open 2 --by-open -o pairs.csv\n"
        "           polyforms tile 6x6 --pieces hexiamonds --count --distinct   (156)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "region",
        metavar="REGION",
        help="HxW, HxWxD, tri:N, hex:N, a picture file, -, or a BurrTools FILE.xmpuzzle "
        "(its result shape and pieces)",
    )
    p.add_argument(
        "--pieces", metavar="SET", help="the piece set (a REGION.xmpuzzle file brings its own)"
    )
    p.add_argument(
        "--lattice",
        choices=("square", "cube", "triangle", "hex"),
        default=None,
        help="the cells of REGION and SET: squares, cubes, triangles or hexagons (default: "
        "the lattice of a named SET, such as triangle for hexiamonds; else square or cube "
        "from the region); on triangle and hex, HxW is a parallelogram of H rows of W "
        "rhombi or hexagons, tri:N and hex:N a triangle and a hexagon of side N",
    )
    p.add_argument("--reuse", action="store_true", help="any number of copies of each piece")
    p.add_argument(
        "--optional", action="store_true", help="each piece may be left out (0..1 copies)"
    )
    p.add_argument(
        "--copies",
        metavar="SPEC",
        help="copies per piece: NAME=K, NAME=LO..HI or NAME=LO.., joined by commas "
        "(other pieces: once, or as --reuse / --optional say)",
    )
    p.add_argument(
        "--open",
        type=_whole_in(0, _MOST_OPEN),
        default=0,
        metavar="K",
        help="leave exactly K cells of the region uncovered",
    )
    p.add_argument(
        "--by-open",
        action="store_true",
        help="with --open: count the tilings of every set of open cells in one search; one "
        "row per set (jsonl or csv), or a map of the board coloured by the tilings that "
        "leave each cell open (svg); a summary on stderr",
    )
    p.add_argument(
        "--no-rotations", dest="rotations", action="store_false", help="do not turn the pieces"
    )
    p.add_argument(
        "--no-reflections", dest="reflections", action="store_false", help="do not flip the pieces"
    )
    _add_tile_output(p)
    _add_long_run(p, "A count or a listing (without --limit)")


def _add_tile_output(p: argparse.ArgumentParser) -> None:
    """What ``tile`` prints: a count, or the tilings in a format."""
    p.add_argument("--count", action="store_true", help="print only the number of tilings")
    p.add_argument(
        "--distinct",
        action="store_true",
        help="one tiling per class under the symmetries of the region",
    )
    p.add_argument(
        "--limit", type=_whole_in(1, _MOST_LIMIT), metavar="K", help="stop after K tilings"
    )
    p.add_argument(
        "--format",
        choices=("txt", "jsonl", "csv", "svg", *MODEL_FORMATS),
        default=None,
        help="output format (default: from the -o file's ending, else txt); stl, obj and "
        "glb are 3D models with one solid per piece; csv only with --by-open",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument(
        "--columns",
        type=_whole_in(1, _MOST_COLUMNS),
        metavar="N",
        help="svg: tilings per row of the page",
    )
    steady = p.add_mutually_exclusive_group()
    steady.add_argument(
        "--steady",
        dest="steady",
        action="store_true",
        default=None,
        help="--distinct: show each class as its image with the longest piece (the I) "
        "nearest the top-left (default for svg and models; txt and jsonl list the least "
        "image)",
    )
    steady.add_argument(
        "--no-steady",
        dest="steady",
        action="store_false",
        help="--distinct: show each class as its least image",
    )
    _add_picture_options(p)
    _add_model_options(p)
    _add_drawing_force(p)


# -- calendar --------------------------------------------------------------------------


def _add_calendar(subparsers) -> None:
    p = subparsers.add_parser(
        "calendar",
        help="A-Puzzle-A-Day: solutions for a date, or the count for every date",
        description="The A-Puzzle-A-Day board: cover every cell but one month and one day "
        "with its eight pieces. With MONTH DAY, print the solutions (the open date cells "
        "marked *); without, print 'month day count' for all 372 month-day pairs.",
        epilog="examples:  polyforms calendar Dec 25 --count   (prints 92)\n"
        "           polyforms calendar 1 1 --limit 1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("month", nargs="?", metavar="MONTH", help="1-12 or Jan ... Dec")
    p.add_argument("day", nargs="?", metavar="DAY", help="1-31")
    p.add_argument("--count", action="store_true", help="print only the number of solutions")
    p.add_argument(
        "--limit", type=_whole_in(1, _MOST_LIMIT), metavar="K", help="stop after K solutions"
    )


def _add_studio(subparsers) -> None:
    p = subparsers.add_parser(
        "studio",
        help="a local web app: draw a board, pick pieces, count and see tilings",
        description="Serve the studio on 127.0.0.1 and open it in the browser; Ctrl-C stops. "
        'Needs the studio extra: pip install "polyforms[studio]".',
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="a saved puzzle (JSON) to open")
    p.add_argument("--port", type=_whole_in(1, 65535), metavar="N", help="default: a free one")
    p.add_argument("--host", default="127.0.0.1", metavar="H", help="serve on H (a warning)")
    p.add_argument("--no-browser", action="store_true", help="print the address only")


# The subcommands, in the order of --help: name -> the function declaring its arguments.
_COMMANDS: dict[str, Callable[..., None]] = {
    "enumerate": _add_enumerate,
    "draw": _add_draw,
    "solve": _add_solve,
    "tile": _add_tile,
    "calendar": _add_calendar,
    "studio": _add_studio,
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of ``command`` alone (a run needs only
    its own: declaring the others' options is a few milliseconds of start-up)."""
    from .. import __version__

    parser = _Parser(
        prog="polyforms",
        description="Polyominoes and polycubes: enumerate, tile, solve exact cover, draw.",
    )
    parser.add_argument("--version", action="version", version=f"polyforms {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for name, add in _COMMANDS.items():
        if command is None or name == command:
            add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    import warnings

    if sys.stderr is None:
        # Started with stderr closed (``2>&-``): Python then has no sys.stderr, and
        # the first message or bar would end the command with a traceback nobody
        # sees (exit 1) before its result is written. The messages go nowhere instead.
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - kept for the process's life

    def one_line(message, category, filename, lineno, file=None, line=None) -> None:
        say(f"polyforms: warning: {message}")

    warnings.showwarning = one_line  # a user sees one line, not our source code
    tokens = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(tokens[0] if tokens and tokens[0] in _COMMANDS else None)
    import re

    for token in tokens:
        # argparse would take "-5x10" for an unknown option and report a missing REGION.
        if re.fullmatch(r"-\d+(\s*[xX×]\s*-?\d+)+", token):
            parser.error(f"box sides must be positive, not {token!r}")
    args = parser.parse_args(argv)
    from .running import run_command

    return run_command(args)


def say(message: str) -> None:
    """Write one line of the command's to stderr, if stderr takes it (``2>/dev/full``
    must not turn an error or a warning into a traceback). Control characters in
    it (a file name with a line break, say) are written as escapes: one line.

    Used by :mod:`polyforms.cli.commands` for the notes a command adds.
    """
    if not message.isprintable():  # a name given with a line break or a control
        from .._textio import escape_controls

        message = escape_controls(message)
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _close_all(closers: list[Callable[[], object]]) -> None:
    """Close what a command opened, last first, with Ctrl-C ignored meanwhile: a
    LocalCluster takes up to a second to stop, and a Ctrl-C then would end the
    command with a traceback (each close is bounded; SIGTERM still kills)."""
    if not closers:
        return
    import signal
    import threading

    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main_thread else None
    try:
        while closers:
            closers.pop()()
    finally:
        if main_thread:
            # None: a handler not set from Python, which Python cannot put back.
            signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)

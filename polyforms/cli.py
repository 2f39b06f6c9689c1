"""The ``polyforms`` command: parse arguments, call the library, report errors.

Each subcommand is a pair of functions, ``_add_<name>(subparsers)`` which
declares its arguments and ``_run_<name>(args)`` which calls the library and
writes the result. Nothing here computes anything.

Every :class:`~polyforms.errors.PolyformError` (and a few ``OSError`` cases)
becomes one line on stderr and exit status 2; no traceback reaches the user.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from .errors import PolyformError

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose usage errors are one line on stderr, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


# Subcommands register here: name -> (add_parser, run). Order is the --help order.
_COMMANDS: dict[str, tuple[Callable[..., None], Callable[[argparse.Namespace], int | None]]] = {}


def _command(name: str):
    """Decorator pairing ``_add_<name>`` with the ``_run_<name>`` it decorates."""

    def register(run: Callable[[argparse.Namespace], int | None]):
        _COMMANDS[name] = (globals()[f"_add_{name}"], run)
        return run

    return register


# -- enumerate -----------------------------------------------------------------------


def _add_enumerate(subparsers) -> None:
    from .polyform import SYMMETRY_CLASSES

    p = subparsers.add_parser(
        "enumerate",
        help="list or count the polyominoes / polycubes of a size",
        description="List or count every polyomino (or polycube, --dim 3) of N cells. "
        "Output goes to stdout unless -o FILE is given; a file is written atomically.",
        epilog="examples:  polyforms enumerate 10 --kind free --count   (prints 4655)\n"
        "           polyforms enumerate 8 --format jsonl -o free8.jsonl",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("n", type=_positive_int, metavar="N", help="number of cells")
    p.add_argument("--dim", type=int, choices=(2, 3), default=2,
                   help="2 for polyominoes (default), 3 for polycubes")
    p.add_argument("--kind", choices=("fixed", "one-sided", "free"), default="free",
                   help="identify images under no symmetry, rotations, or all (default free)")
    p.add_argument("--method", choices=("redelmeier", "naive"), default="redelmeier",
                   help="Redelmeier's algorithm (default, streams) or grow-and-dedupe")
    p.add_argument("--count", action="store_true", help="print only the number")
    p.add_argument("--format", choices=("txt", "jsonl", "csv", "svg"), default=None,
                   help="output format (default: from the -o file's ending, else txt)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="N",
                   help="processes for the search (same output as one)")
    holes = p.add_mutually_exclusive_group()
    holes.add_argument("--holes", dest="holes", action="store_true", default=None,
                       help="keep only polyominoes with holes")
    holes.add_argument("--no-holes", dest="holes", action="store_false",
                       help="keep only polyominoes without holes")
    p.add_argument("--symmetry", metavar="CLASS",
                   help="keep only one symmetry class: " + ", ".join(SYMMETRY_CLASSES)
                   + " (2D), or the group order (3D)")
    p.add_argument("--force", action="store_true",
                   help="allow an output or search estimated to be enormous")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def _symmetry_filter(text: str | None, dim: int):
    from .errors import UnknownNameError
    from .polyform import SYMMETRY_CLASSES

    if text is None:
        return None
    if dim == 2:
        if text not in SYMMETRY_CLASSES:
            raise UnknownNameError(
                f"unknown symmetry class {text!r}; choose one of {', '.join(SYMMETRY_CLASSES)}"
            )
        return text
    if not text.isdigit() or int(text) not in (1, 2, 3, 4, 6, 8, 12, 16, 24, 48):
        raise UnknownNameError(f"3D symmetry is the order of the group (1 to 48), not {text!r}")
    return int(text)


@_command("enumerate")
def _run_enumerate(args: argparse.Namespace) -> int:
    from . import catalogue
    from . import enumerate as enumeration

    symmetry = _symmetry_filter(args.symmetry, args.dim)
    fmt = args.format or _format_from_path(args.output, catalogue.FORMATS, "txt")
    filtered = args.holes is not None or symmetry is not None
    progress = not args.quiet
    if args.count and not filtered:
        total = enumeration.count(args.n, args.dim, args.kind, args.method,
                                  jobs=args.jobs, progress=progress, force=args.force)
        print(total)
        return 0
    stream = enumeration.enumerate_polyforms(args.n, args.dim, args.kind, args.method,
                                             jobs=args.jobs, progress=progress,
                                             force=args.force)
    if args.holes is not None:
        stream = (p for p in stream if (p.holes > 0) == args.holes)
    if symmetry is not None:
        stream = (p for p in stream if p.symmetry == symmetry)
    if args.count:
        print(sum(1 for _ in stream))
        return 0
    catalogue.write_catalogue(stream, args.output, fmt, kind=args.kind,
                              progress=_progress_bar("written", progress))
    return 0


def _format_from_path(path: str | None, formats: tuple[str, ...], default: str) -> str:
    """The format named by the output file's ending, or ``default``."""
    from .errors import UnknownNameError

    if not path or path == "-":
        return default
    ending = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if ending in formats:
        return ending
    if ending:
        raise UnknownNameError(
            f"cannot tell the format from {path!r}; give --format ({', '.join(formats)})"
        )
    return default


def _progress_bar(unit: str, enabled: bool):
    """A wrapper showing a tqdm counter on stderr once a run passes one second."""
    if not enabled:
        return None
    from tqdm import tqdm

    return lambda items: tqdm(items, unit=f" {unit}", unit_scale=True, delay=1.0,
                              leave=False, file=sys.stderr)


def _add_solve(subparsers) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve an exact cover problem in Knuth's DLX format",
        description="Solve an exact cover problem written in Knuth's DLX format. Each "
        "solution is printed as its options, one per line, followed by a blank line.",
    )
    parser.add_argument("file", metavar="FILE.dlx", help="the problem; - reads standard input")
    parser.add_argument("--count", action="store_true", help="print the number of solutions only")
    parser.add_argument("--limit", type=_positive_int, metavar="K", help="stop after K solutions")


@_command("solve")
def _run_solve(args: argparse.Namespace) -> int:
    from .exactcover import ExactCover

    if args.file == "-":
        text = sys.stdin.read()
    else:
        with open(args.file, encoding="utf-8") as handle:
            text = handle.read()
    problem = ExactCover.from_dlx(text)
    if args.count:
        sys.stdout.write(f"{problem.count(limit=args.limit)}\n")
        return 0
    options = [" ".join(map(str, problem.constraints_of(choice))) for choice in problem.choices]
    out = sys.stdout
    for solution in problem.solutions(limit=args.limit):
        out.write("".join(options[choice] + "\n" for choice in solution) + "\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="polyforms",
        description="Polyominoes and polycubes: enumerate, tile, solve exact cover, draw.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for add, _ in _COMMANDS.values():
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _, run = _COMMANDS[args.command]
    try:
        return run(args) or 0
    except PolyformError as error:
        sys.stderr.write(f"polyforms {args.command}: error: {error}\n")
        return 2
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python's
        # final flush of stdout from complaining.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        sys.stderr.write(f"polyforms {args.command}: error: {error.strerror or error}{where}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"polyforms {args.command}: interrupted\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

"""The ``polyforms`` command: parse arguments, call the library, report errors.

Each subcommand is a pair of functions, ``_add_<name>(subparsers)`` which
declares its arguments and ``_run_<name>(args)`` which calls the library and
writes the result. Nothing here computes anything.

Every :class:`~polyforms.errors.PolyformError` (and a few ``OSError`` cases)
becomes one line on stderr and exit status 2; no traceback reaches the user.
"""

from __future__ import annotations

import argparse
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
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        sys.stderr.write(f"polyforms {args.command}: error: {error.strerror or error}{where}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"polyforms {args.command}: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

"""What the options of ``polyforms`` accept, and the groups of options that several
commands share: the long-run options, piece letters and palettes, model sizes.

Each value is checked as argparse reads it, so that a number out of range is one
line of usage error (exit status 2) and never reaches the library. Only argparse is
imported: ``polyforms --help`` stays quick.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["MODEL_FORMATS"]


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


def _add_drawing_force(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--force",
        action="store_true",
        help="draw a picture or model of more than 20,000 pieces or 250,000 cells "
        "(polyforms.draw.PIECE_LIMIT, CELL_LIMIT)",
    )

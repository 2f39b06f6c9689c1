"""Running one parsed ``polyforms`` command: the checks across its options, the
command's run (:mod:`polyforms.cli.commands`), and every error, signal and
interruption turned into one line on stderr and an exit status.

Imported by :func:`polyforms.cli.main` once the arguments are parsed, so that
``polyforms --help`` does without it.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import PolyformError
from . import _close_all, say

__all__ = ["run_command"]


def run_command(args: argparse.Namespace) -> int:
    """Run the command ``args`` names; return the exit status (0, 2 for an error,
    130 or the signal's for an interruption)."""
    args.closers = []  # what the command opened that must end with it, last first
    from .checks import check_together

    try:
        check_together(args)
    except PolyformError as error:
        say(f"polyforms {args.command}: error: {error}")
        return 2
    from .._stop import SignalExit, stop_signals
    from .commands import RUNS

    run = RUNS[args.command]

    def stopped(signum: int) -> None:  # the watchdog's line, when a search is stuck
        import signal

        hint = ""
        if getattr(args, "checkpoint", None):  # whole lines only: the journal is sound
            hint = f"; run the same command again to resume from {args.checkpoint}"
        say(f"polyforms {args.command}: interrupted by {signal.Signals(signum).name}{hint}")

    try:
        with stop_signals(say=stopped):
            try:
                return run(args) or 0
            finally:
                # Before any message: a progress bar clears its line as it closes,
                # and the message would otherwise be written after the bar, on its line.
                _close_all(args.closers)
    except SignalExit as stop:
        import signal

        say(f"polyforms {args.command}: interrupted by {signal.Signals(stop.signum).name}")
        return int(stop.code)  # type: ignore[arg-type]
    except PolyformError as error:
        say(f"polyforms {args.command}: error: {error}")
        return 2
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python's
        # final flush of stdout from complaining.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        say(f"polyforms {args.command}: error: {error.strerror or error}{where}")
        return 2
    except KeyboardInterrupt as stop:
        if hasattr(stop, "exit_status"):  # jobs.Interrupted: workers stopped, journal flushed
            hint = None
            if getattr(args, "checkpoint", None):
                hint = "run the same command again to resume from " + args.checkpoint
            say(f"polyforms {args.command}: {stop.message(hint)}")
            return stop.exit_status
        say(f"polyforms {args.command}: interrupted")
        return 130

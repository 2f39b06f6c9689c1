"""How the command line stops on SIGINT, SIGTERM and SIGHUP, wherever it is.

:func:`stop_signals` is held around a whole command. Inside it SIGTERM and
SIGHUP raise :class:`SignalExit` (a second one ends the process at once,
removing the temporary files of :mod:`polyforms._atomic`), and a watchdog
thread ends a command whose main thread is stuck in a compiled search that
never returns to Python. The job layer and the board sweep install their own
handlers while they run; they call :func:`note_signal` so that the watchdog
knows the main thread took the signal, and so that a second signal sent with
the first is not taken for another stop while they clean up.

Kept apart from :mod:`polyforms._atomic` (which imports it) because every
command holds it: it imports nothing the command line does not need.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator

__all__ = ["SignalExit", "note_signal", "part_of_a_stop", "stop_signals"]


class SignalExit(SystemExit):
    """SIGTERM or SIGHUP arrived inside :func:`stop_signals` or while an
    :func:`~polyforms._atomic.atomic_output` was open.

    Raised by the handler installed, in the main thread, so that every
    ``finally`` and ``except BaseException`` cleanup runs. ``code`` is ``128 +
    signum`` (143 for SIGTERM, 129 for SIGHUP): uncaught, the process exits
    with that status and no traceback. ``signum`` is the signal number.
    """

    def __init__(self, signum: int):
        super().__init__(128 + signum)
        self.signum = signum


#: Seconds a signal may wait for the main thread to take it (see :func:`stop_signals`).
STUCK_SECONDS = 1.5
#: Seconds after a run began to stop on a signal during which more are ignored
#: (see :func:`note_signal`).
STOP_GRACE = 2.0
_WATCHED = frozenset(
    int(getattr(signal, name)) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
_taken = 0  # signals a Python handler of ours has taken (note_signal)
_stopping_since = float("-inf")  # when a run began to stop on a signal
_fired = False  # stop_signals' handler has raised SignalExit


def note_signal(stopping: bool = False) -> None:
    """Say that a Python-level handler took a signal: the main thread is running
    Python code, not stuck in a compiled search, and stops by itself.

    ``stopping``: the handler's run (the job layer's, a board sweep's) stops on
    it and puts back the handlers it replaced as it ends. A second signal sent
    with the first then reached those handlers during the run's cleanup: it
    raised SystemExit inside the closing generator ("Exception ignored in
    ..."), or ended the command without its line or with another status. The
    handlers of this module and of :mod:`polyforms._atomic` take such a
    signal, within :data:`STOP_GRACE` seconds, as part of the same stop.
    """
    global _taken, _stopping_since
    _taken += 1
    if stopping:
        _stopping_since = time.monotonic()


def part_of_a_stop() -> bool:
    """Is a run stopping on a signal taken less than :data:`STOP_GRACE` s ago?"""
    return time.monotonic() - _stopping_since < STOP_GRACE


def _remove_temporaries() -> None:
    atomic = sys.modules.get("polyforms._atomic")  # not loaded: no temporary file
    if atomic is not None:
        atomic._remove_temporaries()


def _on_stop_signal(signum: int, frame: object) -> None:
    global _fired
    note_signal()
    if part_of_a_stop():
        return
    if _fired:  # a second signal: do not wait for the cleanup
        _remove_temporaries()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    _fired = True
    raise SignalExit(signum)


def _interrupt(signum: int, frame: object) -> None:
    """Python's own SIGINT handler, saying that it ran, and quiet while a run
    stops on an earlier signal."""
    note_signal()
    if not part_of_a_stop():
        raise KeyboardInterrupt


@contextlib.contextmanager
def stop_signals(say: Callable[[int], object] | None = None) -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`SignalExit` inside the block (when their
    handler is the default one), and SIGINT raises KeyboardInterrupt as
    Python's own handler does. A count without the job layer was otherwise
    ended by SIGTERM itself, silently. A block that ends on a signal leaves
    the three ignored: the command is on its way out, and one more sent with
    the first must not end it by the default action (without its line, with
    another status).

    With ``say``, a watchdog thread also learns of every one of them at once
    (``signal.set_wakeup_fd``). Python runs a handler only between two
    bytecodes of the main thread, so inside a compiled search that does not
    poll (a transfer-matrix sweep: 45 s; a Redelmeier count) a signal waited
    for the search's end. If no handler of ours has taken it after
    :data:`STUCK_SECONDS`, the watchdog removes the temporary files, calls
    ``say(signum)`` (the command's one line) and ends the process with ``128 +
    signum``. Worker processes and journals need no more: workers end when
    their parent's pipes close, and a journal is only ever appended whole
    lines. Only the main thread can do any of this: elsewhere nothing is set.
    """
    global _fired
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _fired = False
    installed: dict[int, object] = {}
    handlers = {signum: _on_stop_signal for signum in _WATCHED if signum != signal.SIGINT}
    handlers[signal.SIGINT] = _interrupt
    for signum, handler in handlers.items():
        previous = signal.getsignal(signum)
        default = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
        if previous is default:
            signal.signal(signum, handler)
            installed[signum] = previous
    watch = _Watchdog(say) if say is not None else None
    taken = _taken
    try:
        yield
    finally:
        if watch is not None:
            watch.stop()
        ending = _taken != taken
        for signum, previous in installed.items():
            with contextlib.suppress(ValueError, OSError):
                signal.signal(signum, signal.SIG_IGN if ending else previous)  # type: ignore[arg-type]


class _Watchdog:
    def __init__(self, say: Callable[[int], object]) -> None:
        self.say = say
        self.done = threading.Event()
        self.read, self.write = os.pipe()
        os.set_blocking(self.write, False)
        self.previous_fd: int | None = None
        try:
            self.previous_fd = signal.set_wakeup_fd(self.write, warn_on_full_buffer=False)
        except (ValueError, OSError):  # no such call here
            self.close_pipe()
            return
        self.thread = threading.Thread(target=self.run, name="polyforms-watchdog", daemon=True)
        self.thread.start()

    def run(self) -> None:
        while True:
            try:
                data = os.read(self.read, 64)
            except OSError:
                return
            if not data or self.done.is_set():
                return
            stops = [signum for signum in data if signum in _WATCHED]
            if not stops:
                continue  # a signal someone else handles (SIGWINCH, say)
            before = _taken
            if self.done.wait(STUCK_SECONDS):
                return
            if _taken == before:  # the main thread has not run a handler: stuck
                _remove_temporaries()
                with contextlib.suppress(Exception):
                    self.say(stops[0])
                os._exit(128 + stops[0])

    def stop(self) -> None:
        if self.previous_fd is None:
            return
        self.done.set()
        with contextlib.suppress(ValueError, OSError):
            signal.set_wakeup_fd(self.previous_fd)
        with contextlib.suppress(OSError):
            os.write(self.write, b"\0")  # wakes the thread, which sees done
        self.thread.join(1.0)
        self.close_pipe()

    def close_pipe(self) -> None:
        for fd in (self.read, self.write):
            with contextlib.suppress(OSError):
                os.close(fd)


def _after_fork_in_child() -> None:
    # The parent's watchdog pipe must not hear this process's signals.
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

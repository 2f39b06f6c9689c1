"""Start the studio: check the extra, read the puzzle, pick a port, serve until Ctrl-C.

Starlette and uvicorn (the ``studio`` extra) are imported only here and in
:mod:`polyforms.studio.app`, so the rest of polyforms never needs them.
"""

from __future__ import annotations

import importlib.util
import secrets
import socket
import threading
import webbrowser
from collections.abc import Callable

from ..errors import PolyformError

__all__ = ["LOOPBACK", "check_installed", "free_port", "serve", "studio_url"]

LOOPBACK = "127.0.0.1"


def check_installed() -> None:
    """Raise a one-line :class:`PolyformError` when the ``studio`` extra is missing."""
    missing = [name for name in ("starlette", "uvicorn") if importlib.util.find_spec(name) is None]
    if missing:
        raise PolyformError(
            f'the studio needs {" and ".join(missing)}: pip install "polyforms[studio]"'
        )


def free_port(host: str = LOOPBACK) -> int:
    """A port free on ``host`` now (the system's choice)."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.bind((host, 0))
            return probe.getsockname()[1]
    except OSError as error:
        raise PolyformError(f"cannot serve on {host}: {error.strerror or error}") from None


def _check_port(host: str, port: int) -> int:
    """``port`` if it can be bound on ``host`` now, else a one-line error."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        reason = error.strerror or error
        raise PolyformError(f"cannot serve on {host} port {port}: {reason}") from None
    return port


def studio_url(host: str, port: int, token: str) -> str:
    """The page's address, the token in its fragment (never sent to the server)."""
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = LOOPBACK
    return f"http://{shown}:{port}/#token={token}"


def serve(
    path: str | None = None,
    *,
    host: str = LOOPBACK,
    port: int | None = None,
    browser: bool = True,
    say: Callable[[str], object] = print,
) -> None:
    """Serve the studio until Ctrl-C (or SIGTERM), then stop every run.

    Raises
    ------
    PolyformError
        The extra is missing, or ``path`` is not a puzzle; OSError: the port is taken.
    """
    check_installed()
    from .puzzle_files import read_puzzle

    puzzle = read_puzzle(path) if path is not None else None
    import uvicorn

    from .._stop import note_signal
    from .app import create_app

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame) -> None:
            note_signal()  # the watchdog of polyforms._stop: this process is not stuck
            app.state.closing.set()  # end the event streams, or uvicorn waits for them
            super().handle_exit(sig, frame)

    token = secrets.token_urlsafe(24)
    port = free_port(host) if port is None else _check_port(host, port)
    app = create_app(token, puzzle, path)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    server = Server(config)
    url = studio_url(host, port, token)
    if host != LOOPBACK:
        say(f"polyforms studio: warning: serving on {host}: other machines can reach the port")
    print(url, flush=True)  # on stdout, alone: a script can read it
    say("polyforms studio: serving; Ctrl-C stops")
    if browser:

        def open_when_up() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=open_when_up, daemon=True).start()
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has stopped
        pass
    say("polyforms studio: stopped")

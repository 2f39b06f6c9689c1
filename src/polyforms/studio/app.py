"""The studio's web application: the page's static files and a JSON API.

Every ``/api/`` request must carry the session's token in the ``X-Studio-Token``
header (the page reads it from the URL fragment, which the browser never
sends): without it, 403. Another user of the machine, or a web page in the
same browser, can reach the port but not drive the studio. The one exception
is a run's event stream, which a browser's ``EventSource`` opens without
headers: it carries the token in its query (``?token=``), and only that route
reads it there. Request bodies are bounded (:data:`MAX_BODY`), boards by
:mod:`polyforms.studio.puzzle`, and the only file the server touches is the
one named on the command line, read at start-up and written by an explicit
save.

=========================  ======  =========================================
route                      method  what
=========================  ======  =========================================
``/api/info``              GET     piece sets by lattice, the opened puzzle
``/api/grid``              POST    the drawing grid's (or a piece's) cells and polygons
``/api/puzzle``            POST    check a puzzle (one read in the browser)
``/api/save``              POST    write the puzzle to the opened file
``/api/jobs``              POST    start a count, estimate, list or by-open run
``/api/jobs``              GET     the runs (a reloaded page finds them)
``/api/jobs/{id}``         GET     a run's state, seconds and result
``/api/jobs/{id}/events``  GET     the run's state pushed as it changes (SSE)
``/api/jobs/{id}/stop``    POST    end a run (within 2 s)
``/api/pieces``            POST    the pieces as a sheet or model (studio.print_api)
=========================  ======  =========================================
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import threading
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..draw.svg import PALETTES
from ..errors import PolyformError, WrongTypeError
from .jobs import Jobs
from .print_api import print_routes
from .puzzle import LATTICES, Puzzle, grid_cells, piece_cells, set_lattices
from .puzzle_files import puzzle_from_json, write_puzzle
from .requests import MAX_BODY, Refused, read_json
from .solid_api import solid_routes
from .work import MAX_LISTED, MAX_PAGE

__all__ = ["MAX_BODY", "TOKEN_HEADER", "create_app"]

TOKEN_HEADER = "x-studio-token"
#: The one route that takes the token in its query: a run's event stream.
EVENTS_PATH = re.compile(r"^/api/jobs/[0-9a-f]{1,32}/events$")
#: Seconds between two looks at a run by its event stream.
PUSH_SECONDS = 0.1
#: Seconds of quiet after which the stream sends the run's state anyway (its clock).
BEAT_SECONDS = 1.0


class TokenGuard:
    """ASGI middleware: ``/api/`` requests without the token get 403, bodies
    announced larger than :data:`MAX_BODY` get 413, before the app reads them."""

    def __init__(self, app, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            headers = dict(scope["headers"])
            given = headers.get(TOKEN_HEADER.encode(), b"")
            if not given and EVENTS_PATH.match(scope["path"]):
                given = _query_token(scope.get("query_string", b""))
            if not secrets.compare_digest(given, self.token):
                await JSONResponse({"error": "missing or wrong token"}, 403)(scope, receive, send)
                return
            length = headers.get(b"content-length", b"0")
            if not length.isdigit() or int(length) > MAX_BODY:
                message = f"the request is larger than {MAX_BODY >> 10} KiB"
                await JSONResponse({"error": message}, 413)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _query_token(query: bytes) -> bytes:
    """The ``token`` of a query string, or empty."""
    from urllib.parse import parse_qs

    values = parse_qs(query.decode("latin-1")).get("token", [""])
    return values[0].encode("latin-1", "replace")


def _event_stream(job, closing: threading.Event) -> StreamingResponse:
    """The run's state as server-sent events: one ``data:`` line of its JSON each
    time its state or progress changes (at most every :data:`PUSH_SECONDS`, at
    least every :data:`BEAT_SECONDS`), the last one, with the result, when it ends.
    The stream also ends once ``closing`` is set: the server stops only when its
    responses are complete, and then stops the runs."""

    async def events():
        shown, quiet = None, 0.0
        while not closing.is_set():
            running = job.state == "running"
            now = (job.state, id(job.progress))
            if now != shown or quiet >= BEAT_SECONDS or not running:
                value = job.to_json() if not running else {**job.to_json(), "result": None}
                yield f"data: {json.dumps(value, separators=(',', ':'))}\n\n"
                shown, quiet = now, 0.0
            if not running:
                return
            await asyncio.sleep(PUSH_SECONDS)
            quiet += PUSH_SECONDS

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


def _job_params(kind: str, value: object) -> dict[str, Any]:
    """The checked parameters of a run."""
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise WrongTypeError("params must be a JSON object")
    params: dict[str, Any] = {}
    distinct = value.get("distinct", False)
    if not isinstance(distinct, bool):
        raise WrongTypeError("distinct must be true or false")
    if kind in ("count", "list"):
        params["distinct"] = distinct
    if kind == "count":
        params["ask_over"] = _ask_over(value.get("ask_over"))
    if kind == "list":
        offset, limit = value.get("offset", 0), value.get("limit", 12)
        for name, number, low, high in (
            ("offset", offset, 0, MAX_LISTED - 1), ("limit", limit, 1, MAX_PAGE)
        ):  # fmt: skip
            if isinstance(number, bool) or not isinstance(number, int):
                raise WrongTypeError(f"{name} must be a whole number")
            if not low <= number <= high:
                raise PolyformError(f"{name} must be from {low} to {high}, not {number}")
        if offset + limit > MAX_LISTED:
            raise PolyformError(f"a listing shows at most the first {MAX_LISTED:,} tilings")
        params.update(offset=offset, limit=limit)
        palette = value.get("palette", "default")
        if palette not in PALETTES:
            shown = str(palette)[:20]
            raise PolyformError(f"palette must be one of {', '.join(PALETTES)}, not {shown!r}")
        params["palette"] = palette
    return params


def _ask_over(value: object) -> float | None:
    """The seconds over which a count asks first (None: it never asks)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1e9:
        raise WrongTypeError("ask_over must be a number of seconds or null")
    return float(value)


def create_app(token: str, puzzle: Puzzle | None = None, path: str | None = None) -> Starlette:
    """The studio application guarded by ``token``, showing ``puzzle`` (read from
    ``path``, where a save writes it back) at first."""
    jobs = Jobs()
    closing = threading.Event()  # set when the server begins to stop (server.py)
    static = resources.files("polyforms.studio") / "static"
    routes = [
        *_puzzle_routes({"puzzle": puzzle}, path, static),
        *_job_routes(jobs, closing),
        *solid_routes(),  # 3D: boxes, export, BurrTools files (studio.solid_api)
        *print_routes(),  # the pieces to print or cut out (studio.print_api)
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ]

    async def refused(request: Request, error: Exception) -> JSONResponse:
        if isinstance(error, Refused):
            return JSONResponse({"error": str(error)}, error.status)
        return JSONResponse({"error": str(error)}, 400)

    async def failed(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"error": f"{error.strerror or error}: {path}"}, 500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        jobs.warm_up()
        yield
        jobs.stop_all()  # the server is stopping: no run outlives it

    app = Starlette(
        routes=routes,
        exception_handlers={Refused: refused, PolyformError: refused, OSError: failed},
        lifespan=lifespan,
    )
    app.state.jobs = jobs
    app.state.closing = closing
    app.add_middleware(TokenGuard, token=token)
    return app


def _puzzle_routes(state: dict, path: str | None, static: Any) -> list[Route]:
    """The page, its facts, board grids, and checking and saving a puzzle; ``state``
    holds the puzzle last opened or saved (``path``: the file a save writes)."""

    async def index(request: Request) -> FileResponse:
        return FileResponse(str(static / "index.html"), headers={"Cache-Control": "no-store"})

    async def info(request: Request) -> JSONResponse:
        opened = state["puzzle"]
        return JSONResponse({
            "lattices": list(LATTICES),
            "sets": set_lattices(),
            "file": os.path.basename(path) if path else None,
            "puzzle": opened.to_json() if opened else None,
            "max_page": MAX_PAGE,
        })  # fmt: skip

    async def check(request: Request) -> JSONResponse:
        return JSONResponse(puzzle_from_json(await read_json(request)).to_json())

    async def save(request: Request) -> JSONResponse:
        if path is None:
            raise Refused(409, "no file was opened: start the studio with a FILE to save to")
        checked = puzzle_from_json(await read_json(request))
        write_puzzle(checked, path)
        state["puzzle"] = checked
        return JSONResponse({"saved": os.path.basename(path)})

    return [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/grid", _grid, methods=["POST"]),
        Route("/api/puzzle", check, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
    ]


async def _grid(request: Request) -> JSONResponse:
    """The cells of a board (rows and columns) or of a drawn piece, with their polygons."""
    value = await read_json(request)
    if not isinstance(value, dict):
        raise WrongTypeError("a grid is asked as a JSON object")
    lattice = value.get("lattice", "square")
    if "cells" in value:  # a drawn piece's picture
        cells = piece_cells(lattice, value["cells"])
    else:
        cells = grid_cells(lattice, value.get("rows"), value.get("cols"))
    from ..lattice import lattice as find_lattice

    found = find_lattice(lattice)
    shapes = [
        [list(cell), [list(found.to_page(v)) for v in found.cell_polygon(cell)]] for cell in cells
    ]
    return JSONResponse({"lattice": lattice, "cells": shapes})


def _job_routes(jobs: Jobs, closing: threading.Event) -> list[Route]:
    """Starting runs, their state (asked or pushed as events) and stopping them."""

    async def start(request: Request) -> JSONResponse:
        value = await read_json(request)
        if not isinstance(value, dict):
            raise WrongTypeError("a run is asked as a JSON object")
        kind = value.get("kind")
        if not isinstance(kind, str):
            raise WrongTypeError("kind must be a string")
        checked = puzzle_from_json(value.get("puzzle"))
        job = jobs.start(kind, checked, _job_params(kind, value.get("params")))
        return JSONResponse(job.to_json(), 202)

    async def listing(request: Request) -> JSONResponse:
        return JSONResponse({"jobs": jobs.listing()})

    def found(request: Request):
        job = jobs.get(request.path_params["job"])
        if job is None:
            raise Refused(404, "no such run")
        return job

    async def status(request: Request) -> JSONResponse:
        return JSONResponse(found(request).to_json())

    async def events(request: Request) -> StreamingResponse:
        return _event_stream(found(request), closing)

    async def stop(request: Request) -> JSONResponse:
        job = jobs.stop(request.path_params["job"])
        if job is None:
            raise Refused(404, "no such run")
        return JSONResponse(job.to_json())

    return [
        Route("/api/jobs", start, methods=["POST"]),
        Route("/api/jobs", listing, methods=["GET"]),
        Route("/api/jobs/{job}", status),
        Route("/api/jobs/{job}/events", events),
        Route("/api/jobs/{job}/stop", stop, methods=["POST"]),
    ]

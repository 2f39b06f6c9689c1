"""polyforms studio's live runs and drawn pieces through Starlette's TestClient:
the event stream of a run, the runs a reloaded page finds, the forecast a long
count asks with, and pieces drawn in the page.

The counts are the literature's: 6x10 by the pentominoes, 2339 essentially
different tilings (Haselgrove 1960), 3x20 2 (8 tilings); 2xn by dominoes and 2x2 squares, the
Jacobsthal numbers (OEIS A001045: 1, 1, 3, 5, 11, 21, 43) checked here also by
a brute force.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 in its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from _studio_api import board  # noqa: E402

import polyforms  # noqa: E402
from polyforms.studio import Puzzle, read_puzzle  # noqa: E402
from polyforms.studio.app import TOKEN_HEADER, create_app  # noqa: E402
from polyforms.studio.jobs import MAX_KEPT  # noqa: E402

TOKEN = "live-token-0123456789"
HEADERS = {TOKEN_HEADER: TOKEN}
DOMINO = {"name": "D", "cells": [[0, 0], [1, 0]]}
SQUARE = {"name": "O", "cells": [[0, 0], [1, 0], [0, 1], [1, 1]]}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(TOKEN), headers=HEADERS) as client:
        yield client


def start(client, kind: str, puzzle: dict, params: dict | None = None) -> dict:
    started = client.post("/api/jobs", json={"kind": kind, "puzzle": puzzle, "params": params})
    assert started.status_code == 202, started.text
    return started.json()


def events(client, job_id: str, **options) -> list[dict]:
    """The run's event stream read to its end (the server closes it when the run ends)."""
    response = client.get(f"/api/jobs/{job_id}/events", **options)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    blocks = [block for block in response.text.split("\n\n") if block]
    assert all(block.startswith("data: ") for block in blocks)
    return [json.loads(block.removeprefix("data: ")) for block in blocks]


def wait(client, job_id: str, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    job = client.get(f"/api/jobs/{job_id}").json()
    while job["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.02)
        job = client.get(f"/api/jobs/{job_id}").json()
    return job


# -- the event stream -------------------------------------------------------------------


def test_the_event_stream_pushes_the_run_to_its_result(client):
    job = start(client, "count", board(6, 10), {"distinct": True})
    pushed = events(client, job["id"])
    assert pushed[-1]["state"] == "done" and pushed[-1]["result"]["total"] == 2339
    assert all(event["state"] == "running" for event in pushed[:-1])
    assert all(event["result"] is None for event in pushed[:-1])


def test_the_event_stream_takes_the_token_in_its_query_and_only_there():
    with TestClient(create_app(TOKEN)) as bare:
        started = bare.post(
            "/api/jobs", headers=HEADERS, json={"kind": "count", "puzzle": board(3, 20)}
        ).json()
        url = f"/api/jobs/{started['id']}/events"
        assert bare.get(url).status_code == 403
        assert bare.get(url, params={"token": "wrong"}).status_code == 403
        assert bare.get(f"/api/jobs/{started['id']}", params={"token": TOKEN}).status_code == 403
        assert bare.get("/api/jobs", params={"token": TOKEN}).status_code == 403
        pushed = events(bare, started["id"], params={"token": TOKEN})
        assert pushed[-1]["result"]["total"] == 2 * 4  # 2 classes, 4 tilings each (ORACLES.md)
        assert bare.get("/api/jobs/0123456789abcdef/events", headers=HEADERS).status_code == 404


def test_a_stopped_run_ends_its_stream_within_two_seconds(client):
    long = board(10, 10, "tetrominoes", copies=5)
    job = start(client, "count", long)
    stopped_at = []

    def stop_soon() -> None:
        time.sleep(0.5)
        stopped_at.append(time.monotonic())
        client.post(f"/api/jobs/{job['id']}/stop")

    threading.Thread(target=stop_soon).start()
    pushed = events(client, job["id"])
    assert time.monotonic() - stopped_at[0] < 2
    assert pushed[-1]["state"] == "stopped" and pushed[0]["state"] == "running"


# -- what a reloaded page finds -------------------------------------------------------


def test_finished_runs_keep_their_results_up_to_a_bound():
    with TestClient(create_app(TOKEN), headers=HEADERS) as client:
        first = start(client, "count", board(6, 10), {"distinct": True})
        assert wait(client, first["id"])["result"]["total"] == 2339
        listed = client.get("/api/jobs").json()["jobs"]
        assert [job["id"] for job in listed] == [first["id"]]
        assert listed[0]["result"] is None  # the list is light; the run holds the result
        assert client.get(f"/api/jobs/{first['id']}").json()["result"]["total"] == 2339
        later = []
        for _ in range(MAX_KEPT):
            later.append(start(client, "count", board(3, 20))["id"])
            wait(client, later[-1])
        kept = [job["id"] for job in client.get("/api/jobs").json()["jobs"]]
        assert kept == later and len(kept) == MAX_KEPT
        assert client.get(f"/api/jobs/{first['id']}").status_code == 404


# -- a long count asks first -----------------------------------------------------------


def test_a_count_forecast_as_long_asks_first(client):
    asked = wait(client, start(client, "count", board(6, 10), {"ask_over": 0})["id"])
    forecast = asked["result"]["forecast"]
    assert "total" not in asked["result"] and forecast["seconds"] > 0
    assert forecast["tilings"] > 0 and forecast["nodes"] > 0
    went_on = wait(client, start(client, "count", board(6, 10), {"ask_over": None})["id"])
    assert went_on["result"]["total"] == 9356
    short = wait(client, start(client, "count", board(3, 20), {"ask_over": 1000})["id"])
    assert short["result"]["total"] == 2 * 4


@pytest.mark.parametrize("ask_over", ["soon", -1, True, [1]])
def test_a_bad_ask_over_is_one_line(client, ask_over):
    response = client.post(
        "/api/jobs",
        json={"kind": "count", "puzzle": board(3, 20), "params": {"ask_over": ask_over}},
    )
    assert response.status_code == 400
    assert "ask_over must be a number of seconds" in response.json()["error"]


# -- pieces drawn in the page ----------------------------------------------------------


def brute_force_tilings(rows: int, cols: int, shapes: list[list[list[int]]]) -> int:
    """Tilings of a rows x cols box by any number of each shape in every orientation:
    fill the first empty cell (row by row) with each placement covering it."""
    orientations = set()
    for cells in shapes:
        for turn in range(4):
            for flip in (False, True):
                placed = [(x, y) for x, y in cells]
                for _ in range(turn):
                    placed = [(-y, x) for x, y in placed]
                if flip:
                    placed = [(-x, y) for x, y in placed]
                low = min(placed, key=lambda c: (c[1], c[0]))
                orientations.add(tuple(sorted((x - low[0], y - low[1]) for x, y in placed)))

    def fill(empty: frozenset) -> int:
        if not empty:
            return 1
        x0, y0 = min(empty, key=lambda c: (c[1], c[0]))
        total = 0
        for shape in orientations:
            cover = {(x0 + x, y0 + y) for x, y in shape}
            if cover <= empty:
                total += fill(empty - cover)
        return total

    return fill(frozenset((x, y) for x in range(cols) for y in range(rows)))


def test_drawn_pieces_count_like_named_ones(client):
    # 2x5 by dominoes and 2x2 squares, any number of each: 21 (A001045).
    assert brute_force_tilings(2, 5, [DOMINO["cells"], SQUARE["cells"]]) == 21
    drawn = board(2, 5, "", custom=[DOMINO, SQUARE], counts="D=0..,O=0..")
    assert wait(client, start(client, "count", drawn)["id"])["result"]["total"] == 21
    # Copies apply to drawn pieces: five dominoes alone, 2x5: 8 (Fibonacci).
    dominoes = board(2, 5, "", custom=[DOMINO], copies=5)
    assert brute_force_tilings(2, 5, [DOMINO["cells"]]) == 8
    assert wait(client, start(client, "count", dominoes)["id"])["result"]["total"] == 8
    # Beside a named set: the 12 pentominoes and a drawn 2x2 square tile 8x8 in
    # 16,146 essentially different ways (Knuth 2000, "Dancing links").
    with_square = board(8, 8, custom=[{**SQUARE, "name": "Q"}])
    job = wait(client, start(client, "count", with_square, {"distinct": True})["id"], 60)
    assert job["result"]["total"] == 16146


def test_drawn_pieces_list_as_pictures_with_their_names(client):
    drawn = board(2, 5, "", custom=[DOMINO, SQUARE], counts="D=0..,O=1..")
    listed = wait(client, start(client, "list", drawn, {"limit": 48})["id"])["result"]
    assert len(listed["svgs"]) == 21 - 8  # the tilings with at least one square
    assert all(">O<" in svg for svg in listed["svgs"])


@pytest.mark.parametrize(
    "custom, message",
    [
        ("D", "custom must be a list of pieces"),
        ([{"name": "D D", "cells": [[0, 0]]}], "a piece's name is 1 to 12 letters"),
        ([DOMINO, DOMINO], "two drawn pieces are called 'D'"),
        ([{"name": "D", "cells": [[0, 0], [2, 0]]}], "piece D: the 2 cells are not connected"),
        ([{"name": "D", "cells": []}], "piece D has no cells"),
        ([{"name": "X", "cells": [[0, 0]]}], "the pentominoes have a piece called 'X'"),
        ([{"name": "D", "cells": [[0, 0, 0]]}], "a cell is a list of 2"),
        ([{"name": f"P{i}", "cells": [[0, 0]]} for i in range(41)], "at most 40 pieces"),
    ],
)
def test_bad_drawn_pieces_are_one_line(client, custom, message):
    response = client.post("/api/puzzle", json={**board(2, 5), "custom": custom})
    assert response.status_code == 400
    error = response.json()["error"]
    assert message in error and "\n" not in error


def test_counts_may_name_drawn_pieces_and_only_known_ones(client):
    ok = client.post("/api/puzzle", json=board(2, 5, "", custom=[DOMINO], counts="D=0..5"))
    assert ok.status_code == 200 and ok.json()["counts"] == "D=0..5"
    bad = client.post("/api/puzzle", json=board(2, 5, "", custom=[DOMINO], counts="Q=1"))
    assert "not among the drawn pieces: 'Q'" in bad.json()["error"]
    both = client.post("/api/puzzle", json=board(2, 5, custom=[DOMINO], counts="Q=1"))
    assert "not among the pentominoes and drawn pieces: 'Q'" in both.json()["error"]
    none = client.post("/api/puzzle", json=board(2, 5, ""))
    assert none.status_code == 400 and "unknown piece set ''" in none.json()["error"]


def test_drawn_pieces_save_and_open(tmp_path):
    path = tmp_path / "drawn.json"
    drawn = board(2, 5, "", custom=[DOMINO, SQUARE], counts="D=0..,O=0..")
    path.write_text(json.dumps(Puzzle.from_json(board(6, 10)).to_json()))
    with TestClient(create_app(TOKEN, read_puzzle(path), str(path)), headers=HEADERS) as client:
        assert client.post("/api/save", json=drawn).json() == {"saved": "drawn.json"}
    again = read_puzzle(path)
    assert again == Puzzle.from_json(drawn)
    assert again.to_json()["custom"] == [DOMINO, {**SQUARE, "cells": sorted(SQUARE["cells"])}]


def test_a_piece_picture_is_its_cells_polygons(client):
    shape = client.post("/api/grid", json={"lattice": "hex", "cells": [[0, 0], [1, 0]]}).json()
    assert [cell for cell, _ in shape["cells"]] == [[0, 0], [1, 0]]
    assert all(len(points) == 6 for _, points in shape["cells"])
    too_many = [[x, y] for x in range(9) for y in range(9)]
    response = client.post("/api/grid", json={"lattice": "square", "cells": too_many})
    assert response.status_code == 400 and "more than 64 cells" in response.json()["error"]


def test_ctrl_c_stops_the_server_while_a_page_follows_a_run():
    import httpx

    src = str(Path(polyforms.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get(
        "PYTHONPATH")]))}  # fmt: skip
    server = subprocess.Popen(
        [sys.executable, "-m", "polyforms", "studio", "--no-browser"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        base, token = server.stdout.readline().strip().split("/#token=")
        deadline = time.monotonic() + 10
        while True:
            try:
                httpx.get(base + "/api/info")
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        long = board(10, 10, "tetrominoes", copies=5)
        started = {"kind": "count", "puzzle": long}
        job = httpx.post(base + "/api/jobs", headers={TOKEN_HEADER: token}, json=started).json()
        with httpx.stream("GET", f"{base}/api/jobs/{job['id']}/events?token={token}") as stream:
            lines = stream.iter_lines()  # kept: a dropped iterator closes the connection
            first = next(lines)
            assert first.startswith("data: ") and json.loads(first[6:])["state"] == "running"
            began = time.monotonic()
            server.send_signal(signal.SIGINT)
            assert server.wait(timeout=10) == 0
            assert not stream.is_closed
        assert time.monotonic() - began < 5
        assert server.stderr.read().endswith("polyforms studio: stopped\n")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()

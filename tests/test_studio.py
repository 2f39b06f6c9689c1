"""polyforms studio's JSON API through Starlette's TestClient, and its command.

The counts are the literature's (6x10 by the pentominoes: 9356 tilings, 2339
essentially different; Haselgrove 1960); the by-open map is checked against
:meth:`polyforms.TilingProblem.count_by_open`.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
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
from _studio_api import board, run_to_end  # noqa: E402

import polyforms  # noqa: E402
from polyforms.studio import Puzzle, read_puzzle  # noqa: E402
from polyforms.studio.app import MAX_BODY, TOKEN_HEADER, create_app  # noqa: E402

TOKEN = "test-token-0123456789"
HEADERS = {TOKEN_HEADER: TOKEN}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(TOKEN), headers=HEADERS) as client:
        yield client


def run(client, kind: str, puzzle: dict, params: dict | None = None, timeout: float = 30) -> dict:
    return run_to_end(client, kind, puzzle, params, timeout)


# -- the token -------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, {TOKEN_HEADER: "wrong"}, {TOKEN_HEADER: TOKEN + "x"}])
@pytest.mark.parametrize(
    "method, path", [("GET", "/api/info"), ("GET", "/api/jobs"), ("POST", "/api/jobs"),
                     ("POST", "/api/grid"), ("POST", "/api/save"), ("GET", "/api/jobs/x")],
)  # fmt: skip
def test_every_api_call_needs_the_token(headers, method, path):
    with TestClient(create_app(TOKEN)) as bare:
        response = bare.request(method, path, headers=headers, json={})
    assert response.status_code == 403
    assert response.json() == {"error": "missing or wrong token"}


def test_the_page_and_its_files_need_no_token():
    bare = TestClient(create_app(TOKEN))
    page = bare.get("/")
    assert page.status_code == 200 and "polyforms studio" in page.text
    files = ("studio.js", "pieces.js", "studio.css")
    for name in files:
        assert bare.get(f"/static/{name}").status_code == 200
    shipped = [page.text] + [bare.get(f"/static/{n}").text for n in files]
    for text in shipped:  # no CDN, no remote file: everything is in the package
        assert not re.search(r"""(src|href|url)\s*[=(]\s*["']?(https?:)?//""", text)


def test_info_lists_the_plane_sets_by_lattice(client):
    info = client.get("/api/info").json()
    assert info["sets"]["pentominoes"] == "square"
    assert info["sets"]["hexiamonds"] == "triangle"
    assert info["sets"]["tetrahexes"] == "hex"
    assert "soma" not in info["sets"]  # 3D: not drawn yet
    assert info["puzzle"] is None and info["file"] is None


# -- bounds ---------------------------------------------------------------------------


def test_a_body_too_large_is_refused_unread(client):
    response = client.post("/api/puzzle", content=b" " * (MAX_BODY + 1))
    assert response.status_code == 413


@pytest.mark.parametrize(
    "change, message",
    [
        ({"cells": []}, "the board has no cells"),
        ({"cells": [[0, 0]] * 2}, "a cell is on the board twice"),
        ({"cells": [[0, 0, 0]]}, "a cell is a list of 2"),
        ({"cells": [[0, -1]]}, "a cell is a list of 2"),
        ({"cells": [[x, y] for x in range(200) for y in range(101)]}, "more than the 20,000"),
        ({"rows": 101}, "rows must be from 1 to 100"),
        ({"pieces": "kittens"}, "unknown piece set"),
        ({"pieces": "hexiamonds"}, "not drawn on the square lattice"),
        ({"copies": 0}, "copies must be from 1 to 100"),
        ({"open": 61}, "open must be from 0 to 60"),
        ({"rotations": "yes"}, "rotations must be true or false"),
    ],
)
def test_a_bad_puzzle_is_one_line(client, change, message):
    response = client.post("/api/puzzle", json={**board(6, 10), **change})
    assert response.status_code == 400
    error = response.json()["error"]
    assert message in error and "\n" not in error


@pytest.mark.parametrize(
    "params, message",
    [
        ({"limit": 1000}, "limit must be from 1 to 48"),
        ({"offset": -1}, "offset must be from 0"),
        ({"offset": 19_990, "limit": 20}, "at most the first 20,000"),
        ({"distinct": 1}, "distinct must be true or false"),
    ],
)
def test_listing_bounds(client, params, message):
    response = client.post("/api/jobs", json={"kind": "list", "puzzle": board(6, 10),
                                              "params": params})  # fmt: skip
    assert response.status_code == 400 and message in response.json()["error"]


def test_grid_bounds_and_shapes(client):
    assert client.post("/api/grid", json={"lattice": "square", "rows": 0, "cols": 3}).status_code \
        == 400  # fmt: skip
    assert client.post("/api/grid", json={"lattice": "cube", "rows": 2, "cols": 3}).status_code \
        == 400  # fmt: skip
    square = client.post("/api/grid", json={"lattice": "square", "rows": 6, "cols": 10}).json()
    assert len(square["cells"]) == 60
    assert square["cells"][0] == [[0, 0], [[0, 0], [1, 0], [1, 1], [0, 1]]]
    triangles = client.post("/api/grid", json={"lattice": "triangle", "rows": 6, "cols": 6})
    assert len(triangles.json()["cells"]) == 72
    assert all(len(points) == 3 for _, points in triangles.json()["cells"])
    hexagons = client.post("/api/grid", json={"lattice": "hex", "rows": 4, "cols": 7}).json()
    assert len(hexagons["cells"]) == 28 and all(len(p) == 6 for _, p in hexagons["cells"])


# -- runs -----------------------------------------------------------------------------


def test_count_6x10_pentominoes(client):
    every = run(client, "count", board(6, 10), {"distinct": False})
    distinct = run(client, "count", board(6, 10), {"distinct": True})
    assert every["state"] == "done" and every["result"]["total"] == 9356
    assert distinct["state"] == "done" and distinct["result"]["total"] == 2339


def test_counts_follow_the_board_and_options(client):
    # 3x20 has 2 essentially different tilings (8 in all); without reflections each
    # piece keeps the hand it is drawn with, and none of the 8 fits (the library says 0).
    assert run(client, "count", board(3, 20), {"distinct": True})["result"]["total"] == 2
    no_flips = board(3, 20, reflections=False)
    expected = polyforms.tile("3x20", "pentominoes", reflections=False).count()
    assert run(client, "count", no_flips, {"distinct": False})["result"]["total"] == expected
    wrong_area = run(client, "count", board(5, 5))
    assert wrong_area["result"]["impossible"] == "the pieces cover 60 cells but the region has 25"


def test_a_listing_is_pages_of_svg_pictures_with_letters(client):
    first = run(client, "list", board(6, 10), {"distinct": True, "offset": 0, "limit": 3})
    assert first["state"] == "done", first
    pictures = first["result"]["svgs"]
    assert len(pictures) == 3 and first["result"]["more"]
    expected = polyforms.tile("6x10", "pentominoes")
    wanted = [expected.steady(t) for t in expected.solutions(distinct=True, limit=4)]
    for svg, tiling in zip(pictures, wanted):
        assert svg.startswith("<svg") and svg.count("<text") == 12
        assert svg == polyforms.tiling_svg(tiling, expected.region, labels=True)
    second = run(client, "list", board(6, 10), {"distinct": True, "offset": 3, "limit": 1})
    assert second["result"]["svgs"] == [
        polyforms.tiling_svg(wanted[3], expected.region, labels=True)
    ]
    last = run(client, "list", board(3, 20), {"distinct": False, "offset": 0, "limit": 12})
    assert len(last["result"]["svgs"]) == 8 and not last["result"]["more"]


def test_by_open_heat_map_matches_the_library(client):
    # A 3x7 board with a knocked-out corner, the tetrominoes (20 cells) and one open cell:
    # the board's cells are not at the origin, so the map is moved back to them.
    puzzle = board(3, 7, "tetrominoes", open=1)
    puzzle["cells"] = [cell for cell in puzzle["cells"] if cell != [0, 0]] + [[7, 2]]
    puzzle["cols"] = 8
    job = run(client, "by-open", puzzle)
    assert job["state"] == "done", job
    region = polyforms.Region(puzzle["cells"])
    counts = polyforms.tile(region, "tetrominoes", open=1).count_by_open()
    shift = (min(x for x, _ in puzzle["cells"]), min(y for _, y in puzzle["cells"]))
    expected = {tuple(c): 0 for c in puzzle["cells"]}
    for (opened,), total in counts.items():
        expected[(opened[0] + shift[0], opened[1] + shift[1])] += total
    assert {tuple(cell): total for cell, total in job["result"]["heat"]} == expected
    assert sum(expected.values()) > 0
    assert job["result"]["summary"].startswith("21 open sets:")
    refused = run(client, "by-open", board(6, 10))
    assert refused["state"] == "error" and "needs open cells" in refused["error"]


def test_triangle_and_hex_boards_count(client):
    cells = client.post("/api/grid", json={"lattice": "triangle", "rows": 6, "cols": 6}).json()
    puzzle = {"lattice": "triangle", "rows": 6, "cols": 6, "pieces": "hexiamonds",
              "cells": [cell for cell, _ in cells["cells"]]}  # fmt: skip
    # ORACLES.md: 156 distinct tilings of the 6x6 rhombus, none of them symmetric,
    # so 156 times the rhombus's 4 symmetries in all.
    assert run(client, "count", puzzle)["result"]["total"] == 156 * 4


def test_stop_ends_a_long_run_within_two_seconds(client, capfd):
    long = board(10, 10, "tetrominoes", copies=5)
    started = client.post("/api/jobs", json={"kind": "count", "puzzle": long}).json()
    time.sleep(0.5)
    assert client.get(f"/api/jobs/{started['id']}").json()["state"] == "running"
    began = time.monotonic()
    stopped = client.post(f"/api/jobs/{started['id']}/stop").json()
    assert time.monotonic() - began < 2
    assert stopped["state"] == "stopped"
    job = client.app.state.jobs.get(started["id"])
    assert not job.process.is_alive()
    listed = client.get("/api/jobs").json()["jobs"]
    assert any(j["id"] == started["id"] and j["state"] == "stopped" for j in listed)
    # The stopped process ends quietly: no traceback on the server's terminal.
    assert "Traceback" not in capfd.readouterr().err


# -- files ----------------------------------------------------------------------------


def test_save_and_open_round_trip(tmp_path):
    path = tmp_path / "puzzle.json"
    first = Puzzle.from_json(board(6, 10, copies=1, open=0))
    path.write_text(json.dumps(first.to_json()))
    with TestClient(create_app(TOKEN, read_puzzle(path), str(path)), headers=HEADERS) as client:
        info = client.get("/api/info").json()
        assert info["file"] == "puzzle.json" and info["puzzle"] == first.to_json()
        changed = {
            **board(8, 8),
            "cells": [
                [x, y]
                for x in range(8)
                for y in range(8)
                if (x, y) not in {(3, 3), (3, 4), (4, 3), (4, 4)}
            ],
        }
        assert client.post("/api/save", json=changed).json() == {"saved": "puzzle.json"}
        assert client.get("/api/info").json()["puzzle"]["cells"] == sorted(changed["cells"])
    again = read_puzzle(path)
    assert again == Puzzle.from_json(changed) and len(again.cells) == 60


def test_save_without_a_file_is_refused(client):
    response = client.post("/api/save", json=board(6, 10))
    assert response.status_code == 409
    assert "start the studio with a FILE" in response.json()["error"]


# -- the command ----------------------------------------------------------------------


def _env() -> dict:
    root = str(Path(polyforms.__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get(
        "PYTHONPATH")]))}  # fmt: skip


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "No such file or directory"),
        ("{", "not JSON"),
        ('{"lattice": "square", "rows": 2, "cols": 2, "cells": [], "pieces": "dominoes"}',
         "the board has no cells"),
    ],
)  # fmt: skip
def test_a_bad_file_is_one_line_and_exit_2(tmp_path, content, message):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    done = subprocess.run(
        [sys.executable, "-m", "polyforms", "studio", str(path), "--no-browser"],
        capture_output=True, text=True, env=_env(), timeout=30,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr
    assert done.stderr.startswith("polyforms studio: error:")


def test_the_missing_extra_is_one_line(monkeypatch, capsys):
    import importlib.util

    from polyforms.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "uvicorn" else real(name, *a))  # fmt: skip
    assert main(["studio", "--no-browser"]) == 2
    assert capsys.readouterr().err == (
        'polyforms studio: error: the studio needs uvicorn: pip install "polyforms[studio]"\n'
    )


def test_the_command_serves_with_a_token_and_stops_on_ctrl_c():
    import httpx

    server = subprocess.Popen(
        [sys.executable, "-m", "polyforms", "studio", "--no-browser"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
    )  # fmt: skip
    try:
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and "/#token=" in url
        base, token = url.split("/#token=")
        deadline = time.monotonic() + 10
        while True:
            try:
                assert httpx.get(base + "/api/info").status_code == 403
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        info = httpx.get(base + "/api/info", headers={TOKEN_HEADER: token})
        assert info.status_code == 200
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=10) == 0
        err = server.stderr.read()
        assert err.endswith("polyforms studio: stopped\n"), err
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_host_other_than_loopback_warns():
    from polyforms.studio.server import studio_url

    assert studio_url("0.0.0.0", 8000, "t") == "http://127.0.0.1:8000/#token=t"
    done = subprocess.run(
        [sys.executable, "-m", "polyforms", "studio", "--host", "256.0.0.1", "--port", "8000"],
        capture_output=True, text=True, env=_env(), timeout=30,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.startswith("polyforms studio: error: cannot serve")


# -- per-piece copies -------------------------------------------------------------------


def test_per_piece_counts_as_the_command_reads_them(client):
    from polyforms.piece_sets import parse_copies

    # 8x8 minus its centre, the pentominoes with up to two I and exactly one X
    # (polyforms tile --copies 'I=0..2,X=1'), the others optional.
    cells = [[x, y] for x in range(8) for y in range(8) if not (3 <= x <= 4 and 3 <= y <= 4)]
    puzzle = {**board(8, 8), "cells": cells, "counts": "I=0..2, X=1", "optional": True}
    expected = polyforms.tile(
        polyforms.Region(cells), "pentominoes", counts=parse_copies("I=0..2,X=1"), optional=True
    ).count()
    job = run(client, "count", puzzle)
    assert job["state"] == "done" and job["result"]["total"] == expected
    assert expected > 520  # more than the 520 tilings with each piece once
    checked = client.post("/api/puzzle", json=puzzle).json()
    assert checked["counts"] == "I=0..2, X=1"


@pytest.mark.parametrize(
    "counts, message",
    [
        ("Q=1", "counts name pieces not among the pentominoes: 'Q'"),
        ("I=two", "bad copies item 'I=two'"),
        ("I=1,I=2", "piece 'I' is given copies twice"),
        (7, "counts must be text"),
        ("I=1," * 600, "longer than 2,000 characters"),
    ],
)
def test_bad_per_piece_counts_are_one_line(client, counts, message):
    response = client.post("/api/puzzle", json={**board(6, 10), "counts": counts})
    assert response.status_code == 400
    assert message in response.json()["error"] and "\n" not in response.json()["error"]


# -- progress ---------------------------------------------------------------------------


def test_a_count_reports_its_progress_and_eta(client):
    long = board(10, 10, "tetrominoes", copies=5)
    job = client.post("/api/jobs", json={"kind": "count", "puzzle": long}).json()
    assert job["progress"] is None
    deadline = time.monotonic() + 10
    while job["progress"] is None:  # the first report comes before the first subtask
        assert time.monotonic() < deadline, "no progress within 10 s"
        time.sleep(0.1)
        job = client.get(f"/api/jobs/{job['id']}").json()
    progress = job["progress"]
    assert job["state"] == "running"
    assert 0 <= progress["fraction"] <= 1
    assert progress["eta"] is None or progress["eta"] >= 0
    assert 0 <= progress["done"] <= progress["total"] and progress["unit"] == "subtasks"
    assert progress["total"] > 1 and progress["elapsed"] >= 0
    client.post(f"/api/jobs/{job['id']}/stop")
    # A finished count's last report says it is whole, with its ETA of 0.
    done = run(client, "count", board(6, 10))
    assert done["result"]["total"] == 9356
    last = done["progress"]
    assert last["done"] == last["total"] > 1 and last["fraction"] == 1 and last["eta"] == 0


# -- palette and export -------------------------------------------------------------------


def test_the_colour_blind_palette_and_the_export_of_a_page(client):
    job = run(client, "list", board(6, 10), {"distinct": True, "limit": 2,
                                              "palette": "colour-blind"})  # fmt: skip
    assert job["state"] == "done", job
    expected = polyforms.tile("6x10", "pentominoes")
    wanted = [expected.steady(t) for t in expected.solutions(distinct=True, limit=2)]
    for svg, tiling in zip(job["result"]["svgs"], wanted, strict=True):
        assert svg == polyforms.tiling_svg(tiling, expected.region, labels=True,
                                           colours="colour-blind")  # fmt: skip
        assert svg != polyforms.tiling_svg(tiling, expected.region, labels=True)
    assert job["result"]["txt"] == "".join(t.to_ascii() + "\n\n" for t in wanted)
    lines = job["result"]["jsonl"].splitlines()
    assert len(lines) == 2 and all(len(json.loads(line)["placements"]) == 12 for line in lines)
    refused = client.post("/api/jobs", json={"kind": "list", "puzzle": board(6, 10),
                                             "params": {"palette": "neon"}})  # fmt: skip
    assert refused.status_code == 400
    assert "palette must be one of default, colour-blind" in refused.json()["error"]

"""The studio's pieces to print (``/api/pieces``) through Starlette's TestClient.

The piece counts are the sets' own (12 pentominoes, 7 Soma pieces of 27 cubes in
all: Hein's cube); the STL's volume is checked by trimesh, independently of the
mesh code's cube count.
"""

from __future__ import annotations

import io
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from _svg_check import parsed  # noqa: E402

from polyforms.studio.app import TOKEN_HEADER, create_app  # noqa: E402

TOKEN = "print-test-token"


def plane(**options) -> dict:
    cells = [[x, y] for y in range(6) for x in range(10)]
    return {"lattice": "square", "rows": 6, "cols": 10, "cells": cells,
            "pieces": "pentominoes", **options}  # fmt: skip


def soma() -> dict:
    cells = [[x, y, z] for x in range(3) for y in range(3) for z in range(3)]
    return {"lattice": "cube", "rows": 3, "cols": 3, "layers": 3, "cells": cells, "pieces": "soma"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(TOKEN), headers={TOKEN_HEADER: TOKEN}) as client:
        yield client


def pieces_of(root) -> list:
    return [e for e in root.iter() if e.get("class") == "piece"]


def test_the_pentominoes_sheet_is_in_millimetres(client):
    answer = client.post("/api/pieces", json={"puzzle": plane(), "cell": 15})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("image/svg+xml")
    root = parsed(answer.text)
    assert len(pieces_of(root)) == 12
    assert {e.get("data-piece") for e in pieces_of(root)} == set("FILNPTUVWXYZ")
    width, height = root.get("width"), root.get("height")
    assert width.endswith("mm") and height.endswith("mm")
    # The viewBox draws a cell 24 units long: 15 mm on paper.
    box = [float(v) for v in root.get("viewBox").split(",")]
    assert float(width[:-2]) == pytest.approx(box[2] * 15 / 24, abs=0.01)
    assert float(height[:-2]) == pytest.approx(box[3] * 15 / 24, abs=0.01)
    assert float(width[:-2]) <= 190


def test_copies_and_drawn_pieces_are_printed(client):
    asked = plane(copies=2, counts="X=1,I=0..3", custom=[{"name": "D", "cells": [[0, 0], [1, 0]]}])
    root = parsed(client.post("/api/pieces", json={"puzzle": asked}).text)
    names = [e.get("data-piece") for e in pieces_of(root)]
    assert names.count("X") == 1 and names.count("I") == 3 and names.count("D") == 2
    assert names.count("F") == 2 and len(names) == 10 * 2 + 1 + 3 + 2


def test_the_hexiamonds_sheet(client):
    cells = [[x, y, t] for x in range(9) for y in range(4) for t in range(2)]
    puzzle = {"lattice": "triangle", "rows": 4, "cols": 9, "cells": cells, "pieces": "hexiamonds"}
    root = parsed(client.post("/api/pieces", json={"puzzle": puzzle}).text)
    assert len(pieces_of(root)) == 12


def test_the_soma_pieces_as_an_stl_model(client):
    trimesh = pytest.importorskip("trimesh")
    body = {"puzzle": soma(), "format": "stl", "edge": 10, "gap": 0}
    answer = client.post("/api/pieces", json=body)
    assert answer.status_code == 200, answer.text
    scene = trimesh.load(io.BytesIO(answer.content), file_type="stl")
    solids = list(scene.geometry.values())
    assert len(solids) == 7
    assert sum(s.volume for s in solids) == pytest.approx(27 * 10**3)
    svg = client.post("/api/pieces", json={"puzzle": soma(), "format": "svg"})
    assert svg.status_code == 200 and parsed(svg.text).get("width")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"puzzle": plane(), "format": "stl"}, "format must be one of svg"),
        ({"puzzle": plane(), "cell": 1000}, "cell must be a number of millimetres"),
        ({"puzzle": plane(), "cell": "big"}, "cell must be a number of millimetres"),
        ({"puzzle": soma(), "format": "stl", "edge": -1}, "edge must be"),
        ({"puzzle": plane(copies=100)}, "more than 500 pieces"),
        ({"puzzle": {"lattice": "square"}}, "rows"),
        ([1, 2], "pieces are asked as a JSON object"),
    ],
)
def test_bad_requests_are_one_line(client, body, message):
    answer = client.post("/api/pieces", json=body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert message in error and "\n" not in error


def test_pieces_need_the_token():
    with TestClient(create_app(TOKEN)) as bare:
        assert bare.post("/api/pieces", json={"puzzle": plane()}).status_code == 403


def finished(client, kind: str, puzzle: dict, params: dict | None = None) -> dict:
    import time

    job = client.post("/api/jobs", json={"kind": kind, "puzzle": puzzle, "params": params}).json()
    deadline = time.monotonic() + 30
    while job["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.02)
        job = client.get(f"/api/jobs/{job['id']}").json()
    assert job["state"] == "done", job
    return job["result"]


def test_a_listing_page_exports_as_one_svg_sheet(client):
    params = {"distinct": True, "offset": 0, "limit": 5, "palette": "colour-blind"}
    result = finished(client, "list", plane(), params)
    root = parsed(result["sheet"])
    assert sum(1 for e in root.iter() if e.get("class") == "tiling") == 5
    assert len(pieces_of(root)) == 5 * 12
    from polyforms.draw import piece_colour

    fills = {e.get("data-piece"): e.get("fill") for e in pieces_of(root)}
    assert fills["X"] == piece_colour("X", "colour-blind")


def test_the_by_open_heat_map_exports_as_svg(client):
    # 3x5 plus one cell: a region of 16 cells for three pentominoes and one cell open.
    import polyforms

    cells = [[x, y] for y in range(3) for x in range(5)] + [[5, 0]]
    puzzle = {"lattice": "square", "rows": 3, "cols": 6, "cells": cells,
              "pieces": "pentominoes", "optional": True, "open": 1}  # fmt: skip
    result = finished(client, "by-open", puzzle)
    root = parsed(result["svg"])
    counted = {e.get("data-cell"): int(e.get("data-count")) for e in root.iter()
               if e.get("class") == "cell"}  # fmt: skip
    problem = polyforms.tile(
        polyforms.Region([tuple(c) for c in cells]), "pentominoes", optional=True, open=1
    )
    assert len(counted) == 16
    assert sum(counted.values()) == sum(problem.count_by_open().values())

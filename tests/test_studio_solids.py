"""polyforms studio's boxes of cubes through Starlette's TestClient: box puzzles, solid
piece sets, layer listings, model export and BurrTools files.

The counts are ORACLES.md's: the Soma cube 3x3x3, 11,520 packings and 240
essentially different; the 12 solid pentominoes in 2x3x10, 2x5x6 and 3x4x5:
96 / 12, 2,112 / 264, 31,520 / 3,940. The sizes of the solid sets are the
literature's (7 Soma pieces; 8 tetracubes and 29 pentacubes, OEIS A038119).
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 in its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from _studio_api import run_to_end  # noqa: E402

import polyforms  # noqa: E402
from polyforms.studio import Puzzle, puzzle_from_json, read_puzzle, write_puzzle  # noqa: E402
from polyforms.studio.app import MAX_BODY, TOKEN_HEADER, create_app  # noqa: E402
from polyforms.studio.solids import SolidPuzzle  # noqa: E402

TOKEN = "test-token-solids"
HEADERS = {TOKEN_HEADER: TOKEN}


def box(rows: int, cols: int, layers: int, pieces: str = "solid-pentominoes", **options) -> dict:
    cells = [[x, y, z] for z in range(layers) for y in range(rows) for x in range(cols)]
    return {"lattice": "cube", "rows": rows, "cols": cols, "layers": layers, "cells": cells,
            "pieces": pieces, **options}  # fmt: skip


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(TOKEN), headers=HEADERS) as client:
        yield client


def run(client, kind: str, puzzle: dict, params: dict | None = None, timeout: float = 60) -> dict:
    """Start a run and poll it to its end; return its result."""
    job = run_to_end(client, kind, puzzle, params, timeout)
    assert job["state"] == "done", job
    return job["result"]


def soma_file(path) -> bytes:
    from polyforms.files.burrtools import write_xmpuzzle
    from polyforms.piece_sets import PieceSet, pieces

    soma = PieceSet(pieces("soma", dim=3), reflections=False)
    write_xmpuzzle(path, polyforms.Region.box(3, 3, 3), soma)
    return path.read_bytes()


# -- the token and the bounds ------------------------------------------------------------


@pytest.mark.parametrize(
    "method, path", [("GET", "/api/solids"), ("POST", "/api/box"), ("POST", "/api/export"),
                     ("POST", "/api/xmpuzzle"), ("POST", "/api/xmpuzzle/read")],
)  # fmt: skip
def test_every_3d_route_needs_the_token(method, path):
    with TestClient(create_app(TOKEN)) as bare:
        response = bare.request(method, path, headers={TOKEN_HEADER: "wrong"}, json={})
    assert response.status_code == 403


def test_the_solid_sets_and_presets(client):
    info = client.get("/api/solids").json()
    assert info["sets"] == {"solid-pentominoes": 12, "tetracubes": 8, "soma": 7, "pentacubes": 29}
    assert "3x4x5" in info["presets"] and "2x5x6" in info["presets"]
    # The plane sets stay apart: the board's lattice picks which list the page shows.
    assert "soma" not in client.get("/api/info").json()["sets"]


def test_a_box_is_drawn_as_its_layers_side_by_side(client):
    grid = client.post("/api/box", json={"rows": 3, "cols": 4, "layers": 5}).json()
    cells = [tuple(cell) for cell, _ in grid["cells"]]
    assert sorted(cells) == sorted(polyforms.Region.parse("3x4x5").cells)
    squares = [tuple(map(tuple, corners)) for _, corners in grid["cells"]]
    assert len(set(squares)) == 60  # no two cells drawn on one square
    for (x, y, z), corners in zip(cells, squares):
        left, top = corners[0]
        assert corners == ((left, top), (left + 1, top), (left + 1, top + 1), (left, top + 1))
        assert (left, top) == (5 * z + x, y)  # z = 0 at the left, four columns and a gap
    for sizes, message in [((0, 3, 3), "rows must be from 1 to 40"),
                           ((3, 3, 41), "layers must be from 1 to 40"),
                           ((40, 40, 40), "more than 20,000 cells")]:  # fmt: skip
        answer = client.post("/api/box", json=dict(zip(("rows", "cols", "layers"), sizes)))
        assert answer.status_code == 400 and message in answer.json()["error"]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"cells": [[4, 0, 0]]}, "a cell is [x, y, z] inside the 4x3x5 box"),
        ({"cells": [[0, 0]]}, "a cell is [x, y, z]"),
        ({"cells": [[0, 0, 0]] * 2}, "a cell is on the board twice"),
        ({"cells": []}, "the board has no cells"),
        ({"layers": 0}, "layers must be from 1 to 40"),
        ({"pieces": "pentominoes"}, "unknown solid piece set 'pentominoes'"),
        ({"pieces": "own"}, "own pieces need shapes"),
        ({"pieces": "own", "shapes": [{"name": "A", "cells": [[0, 0, 0]]}] * 2},
         "two shapes have the same name"),
        ({"pieces": "own", "shapes": [{"name": "A,B", "cells": [[0, 0, 0]]}]},
         "a shape's name is 1-20 letters"),
        ({"counts": "Q=1"}, "counts name pieces not among the solid-pentominoes: 'Q'"),
        ({"reflections": "no"}, "reflections must be true or false"),
    ],
)  # fmt: skip
def test_a_bad_box_puzzle_is_one_line(client, change, message):
    response = client.post("/api/puzzle", json={**box(3, 4, 5), **change})
    assert response.status_code == 400
    error = response.json()["error"]
    assert message in error and "\n" not in error


def test_plane_puzzles_read_and_write_as_before(tmp_path):
    plane = {"lattice": "square", "rows": 2, "cols": 2, "cells": [[0, 0], [0, 1], [1, 0], [1, 1]],
             "pieces": "dominoes"}  # fmt: skip
    path = tmp_path / "plane.json"
    path.write_text(json.dumps(plane))
    read = read_puzzle(path)
    assert type(read) is Puzzle
    assert list(read.to_json()) == [
        "format", "version", "lattice", "rows", "cols", "cells", "pieces", "rotations",
        "reflections", "copies", "counts", "optional", "open",
    ]  # fmt: skip
    write_puzzle(read, path)
    assert "layers" not in path.read_text() and read_puzzle(path) == read


def test_a_box_puzzle_round_trips_through_json(tmp_path):
    puzzle = puzzle_from_json(box(2, 3, 10, counts="X=1", optional=True))
    assert isinstance(puzzle, SolidPuzzle) and puzzle.layers == 10
    path = tmp_path / "box.json"
    write_puzzle(puzzle, path)
    assert read_puzzle(path) == puzzle
    assert json.loads(path.read_text())["layers"] == 10


# -- runs -----------------------------------------------------------------------------------


def test_soma_cube_counts(client):
    soma = box(3, 3, 3, "soma")
    assert run(client, "count", soma, {"distinct": False})["total"] == 11520
    assert run(client, "count", soma, {"distinct": True})["total"] == 240


@pytest.mark.parametrize("rows, cols, layers, every, distinct",
                         [(2, 3, 10, 96, 12), (2, 5, 6, 2112, 264)])  # fmt: skip
def test_solid_pentominoes_in_boxes(client, rows, cols, layers, every, distinct):
    puzzle = box(rows, cols, layers)
    assert run(client, "count", puzzle, {"distinct": True})["total"] == distinct
    assert run(client, "count", puzzle, {"distinct": False})["total"] == every


def test_solid_pentominoes_in_3x4x5_distinct(client):
    assert run(client, "count", box(3, 4, 5), {"distinct": True})["total"] == 3940


def test_a_hole_and_the_estimate(client):
    holed = box(2, 3, 10)
    holed["cells"].remove([1, 1, 4])
    answer = run(client, "count", holed)
    assert answer["impossible"] == "the pieces cover 60 cells but the region has 59"
    estimate = run(client, "estimate", box(2, 3, 10))
    assert estimate["tilings"] > 0 and estimate["nodes"] > 0


def test_a_listing_is_layer_pictures_and_cubes_for_the_3d_view(client):
    from polyforms.draw.isometric import exploded_svg
    from polyforms.draw.svg import piece_colour

    result = run(client, "list", box(3, 3, 3, "soma"), {"distinct": True, "limit": 3,
                                                       "palette": "colour-blind"})  # fmt: skip
    assert len(result["svgs"]) == 3 and result["more"] and result["size"] == [3, 3, 3]
    expected = polyforms.tile("3x3x3", "soma")
    wanted = [expected.steady(t) for t in expected.solutions(distinct=True, limit=3)]
    for svg, placed, tiling in zip(result["svgs"], result["placements"], wanted, strict=True):
        pairs = [(p.piece, [list(c) for c in p.cells]) for p in tiling]
        assert placed == [list(pair) for pair in pairs]
        assert svg == exploded_svg(pairs, labels=True, colours="colour-blind")
        assert svg.count("z = ") == 3
        # Each packing fills the box, every cube once, each piece of the set once.
        cubes = Counter(tuple(c) for _, cells in placed for c in cells)
        assert set(cubes) == set(polyforms.Region.box(3, 3, 3).cells)
        assert max(cubes.values()) == 1 and sorted(n for n, _ in placed) == list("ABLPTVZ")
    assert result["colours"] == {n: piece_colour(n, "colour-blind") for n in "ABLPTVZ"}
    assert result["txt"].count("--") == 3 * 2 and len(result["jsonl"].splitlines()) == 3


# -- export ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def packing(client):
    return run(client, "list", box(3, 3, 3, "soma"), {"limit": 1})["placements"][0]


@pytest.mark.parametrize("fmt, starts", [("stl", b"solid "), ("obj", b"# polyforms"),
                                         ("glb", b"glTF"), ("svg", b"<svg")])  # fmt: skip
def test_export_a_packing(client, packing, fmt, starts):
    pytest.importorskip("trimesh")
    response = client.post("/api/export", json={"format": fmt, "placements": packing})
    assert response.status_code == 200, response.text
    assert response.content.startswith(starts)
    assert f'filename="packing.{fmt}"' in response.headers["content-disposition"]
    if fmt == "stl":  # one solid per piece
        assert response.text.count("endsolid") == 7


@pytest.mark.parametrize(
    "body, message",
    [
        ({"format": "png"}, "format must be one of stl, obj, glb, svg"),
        ({"format": "svg", "placements": []}, "placements must be a list"),
        ({"format": "svg", "placements": [["A", [[0, 0]]]]}, "a cube is [x, y, z]"),
        ({"format": "svg", "placements": [["A", [[0, 0, -1]]]]}, "each from 0 to 1000"),
        ({"format": "svg", "palette": "neon", "placements": [["A", [[0, 0, 0]]]]},
         "palette must be one of"),
    ],
)  # fmt: skip
def test_a_bad_export_is_one_line(client, body, message):
    response = client.post("/api/export", json=body)
    assert response.status_code == 400 and message in response.json()["error"]


def test_export_without_trimesh_says_how_to_install_it(client, packing, monkeypatch):
    monkeypatch.setitem(sys.modules, "trimesh", None)  # import trimesh now fails
    response = client.post("/api/export", json={"format": "stl", "placements": packing})
    assert response.status_code == 400
    assert response.json()["error"] == (
        '3D models (stl, obj, glb) need the mesh extra: pip install "polyforms[mesh]"'
    )
    svg = client.post("/api/export", json={"format": "svg", "placements": packing})
    assert svg.status_code == 200  # the layers need no trimesh


# -- BurrTools files ----------------------------------------------------------------------------


def test_a_burrtools_file_opens_as_a_box_puzzle_and_counts(client, tmp_path):
    data = soma_file(tmp_path / "soma.xmpuzzle")
    response = client.post("/api/xmpuzzle/read", content=data,
                           headers={"x-file-name": "soma.xmpuzzle"})  # fmt: skip
    assert response.status_code == 200, response.text
    puzzle = response.json()
    assert puzzle["lattice"] == "cube" and puzzle["pieces"] == "own"
    assert (puzzle["rows"], puzzle["cols"], puzzle["layers"]) == (3, 3, 3)
    assert len(puzzle["cells"]) == 27 and len(puzzle["shapes"]) == 7
    assert puzzle["reflections"] is False  # BurrTools turns pieces, never mirrors them
    assert run(client, "count", puzzle, {"distinct": True})["total"] == 240
    assert run(client, "count", puzzle, {"distinct": False})["total"] == 11520


@pytest.mark.parametrize(
    "data, status, message",
    [
        (b"not a puzzle", 400, "bad.xmpuzzle: not XML"),
        (gzip.compress(b"<puzzle><gridType type='3'/></puzzle>"), 400, "grid type 3 is not read"),
        (b"x" * (MAX_BODY + 1), 413, "larger than"),
    ],
)
def test_a_bad_burrtools_file_is_one_line(client, data, status, message):
    response = client.post("/api/xmpuzzle/read", content=data,
                           headers={"x-file-name": "bad.xmpuzzle"})  # fmt: skip
    assert response.status_code == status
    assert message in response.json()["error"] and "\n" not in response.json()["error"]


def test_a_box_puzzle_downloads_as_a_burrtools_file(client, tmp_path):
    from polyforms.files.burrtools import read_xmpuzzle

    response = client.post("/api/xmpuzzle", json=box(2, 3, 10))
    assert response.status_code == 200 and response.content[:2] == b"\x1f\x8b"
    path = tmp_path / "box.xmpuzzle"
    path.write_bytes(response.content)
    found = read_xmpuzzle(path)
    assert found.region.size == 60 and len(found.pieces.names) == 12
    assert polyforms.tile(found.region, found.pieces).count(distinct=True) == 12
    plane = {"lattice": "square", "rows": 2, "cols": 2, "cells": [[0, 0], [1, 0]],
             "pieces": "dominoes"}  # fmt: skip
    refused = client.post("/api/xmpuzzle", json=plane)
    assert refused.status_code == 400 and "a BurrTools file holds cubes" in refused.text


def test_a_burrtools_file_opened_at_start_saves_back_as_one(tmp_path):
    from polyforms.files.burrtools import read_xmpuzzle

    path = tmp_path / "soma.xmpuzzle"
    soma_file(path)
    with TestClient(create_app(TOKEN, read_puzzle(path), str(path)), headers=HEADERS) as client:
        info = client.get("/api/info").json()
        assert info["file"] == "soma.xmpuzzle" and info["puzzle"]["pieces"] == "own"
        assert len(info["puzzle"]["shapes"]) == 7
        plane = {"lattice": "square", "rows": 1, "cols": 2, "cells": [[0, 0], [1, 0]],
                 "pieces": "dominoes"}  # fmt: skip
        before = path.read_bytes()
        refused = client.post("/api/save", json=plane)
        assert refused.status_code == 400 and "a BurrTools file holds cubes" in refused.text
        assert path.read_bytes() == before  # a refused save leaves the file alone
        assert client.post("/api/save", json=box(2, 3, 10)).json() == {"saved": "soma.xmpuzzle"}
    found = read_xmpuzzle(path)
    assert found.region.size == 60
    assert polyforms.tile(found.region, found.pieces).count(distinct=True) == 12


def test_the_command_refuses_a_bad_burrtools_file_in_one_line(tmp_path):
    import os
    from pathlib import Path

    root = str(Path(polyforms.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get(
        "PYTHONPATH")]))}  # fmt: skip
    path = tmp_path / "bad.xmpuzzle"
    path.write_bytes(b"\x1f\x8bnot gzip")
    done = subprocess.run(
        [sys.executable, "-m", "polyforms", "studio", str(path), "--no-browser"],
        capture_output=True, text=True, env=env, timeout=30,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("polyforms studio: error:") and "bad.xmpuzzle" in done.stderr


def test_by_open_heat_map_of_a_box_matches_the_library(client):
    # The Soma pieces (27 cubes) in 2x2x7 with one cube open, the board not at the
    # origin of its box: the map comes back in the board's own cells.
    cells = [[x, y, z] for x in range(1, 8) for y in range(1, 3) for z in range(2)]
    puzzle = {**box(3, 8, 2, "soma"), "cells": cells, "open": 1}
    result = run(client, "by-open", puzzle)
    counts = polyforms.tile(polyforms.Region(cells, lattice="cube"), "soma", open=1)
    expected = {tuple(c): 0 for c in cells}
    for (opened,), total in counts.count_by_open().items():
        expected[(opened[0] + 1, opened[1] + 1, opened[2])] += total
    assert {tuple(cell): total for cell, total in result["heat"]} == expected
    assert sum(expected.values()) > 0


@pytest.mark.parametrize("layers, tilings", [(1, 2), (2, 9), (3, 32), (4, 121)])
def test_copies_of_an_own_piece(client, layers, tilings):
    # Dominoes of two cubes in the 2x2xn box: OEIS A006253 (2, 9, 32, 121).
    domino = {"name": "D", "cells": [[0, 0, 0], [1, 0, 0]]}
    puzzle = box(2, 2, layers, "own", shapes=[domino], copies=2 * layers)
    assert run(client, "count", puzzle)["total"] == tilings
    by_name = {**puzzle, "copies": 1, "counts": f"D={2 * layers}"}
    assert run(client, "count", by_name)["total"] == tilings


def test_the_3d_files_of_the_page_are_shipped_and_local():
    import re

    bare = TestClient(create_app(TOKEN))
    page = bare.get("/").text
    for name in ("view3d.js", "solids.js", "solids.css"):
        assert f"/static/{name}" in page
        answer = bare.get(f"/static/{name}")
        assert answer.status_code == 200 and len(answer.text) > 100
        assert not re.search(r"""(src|href|url)\s*[=(]\s*["']?(https?:)?//""", answer.text)

"""Hostile and careless input that needs more than a row of test_bad_input's tables.

Standard output closed or a terminal, names that would break an output file in
every format that carries names, the limits of a drawing with and without
``force``, lines without end, the forms of a Dask address, and inline pictures.
Each table has one row a case.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import polyforms as pf
from polyforms import _textio, cli
from polyforms.cli import checks
from polyforms.draw import mesh
from polyforms.errors import ParseError, PolyformError, TooLargeError
from polyforms.files.solutions import Placement, Tiling

sys.path.insert(0, str(Path(__file__).parent))
from _svg_check import parse_every_svg, parsed, svg_file  # noqa: E402

PACKAGE_ROOT = str(Path(pf.__file__).resolve().parent.parent)
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [PACKAGE_ROOT, os.environ.get("PYTHONPATH")])),
}
COMMAND = [sys.executable, "-m", "polyforms.cli"]

#: Names a Python caller may give a piece, which no output file can carry as they are.
HOSTILE_NAMES = ["A\nv 0 0 0\nf 1 1 1", "\x01", "\ud800", "B\r\nsolid x", "<&\"'>", "\x00"]


@pytest.fixture(autouse=True)
def _every_svg_is_xml(monkeypatch):
    parse_every_svg(monkeypatch)


def _has_trimesh() -> bool:
    import importlib.util

    return importlib.util.find_spec("trimesh") is not None


# -- standard output closed (>&-) ---------------------------------------------------------

CLOSED_STDOUT = [
    # (arguments, exit status, the line on stderr or None, a file it must write)
    (["enumerate", "3"], 2, "polyforms enumerate: error: standard output is closed; give -o FILE"),
    (["enumerate", "3", "--count"], 2, "polyforms enumerate: error: standard output is closed"),
    (["tile", "2x2", "--pieces", "dominoes", "--reuse", "--count"], 2,
     "polyforms tile: error: standard output is closed"),
    (["tile", "2x2", "--pieces", "dominoes", "--reuse", "-o", "-"], 2,
     "polyforms tile: error: standard output is closed; give -o FILE"),
    (["calendar", "Jan", "1", "--count"], 2,
     "polyforms calendar: error: standard output is closed"),
    (["solve", "-", "--count"], 2, "polyforms solve: error: standard output is closed"),
    (["draw", "-"], 2, "polyforms draw: error: standard output is closed; give -o FILE"),
    (["enumerate", "5", "-o", "out.jsonl"], 0, None),
    (["tile", "2x2", "--pieces", "dominoes", "--reuse", "-o", "out.txt"], 0, None),
]  # fmt: skip


@pytest.mark.parametrize(
    "args,status,line", CLOSED_STDOUT, ids=[" ".join(c[0]) for c in CLOSED_STDOUT]
)
def test_a_closed_stdout_is_one_line_unless_nothing_goes_there(tmp_path, args, status, line):
    result = subprocess.run(
        [*COMMAND, *args], env=ENV, cwd=tmp_path, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        text=True, timeout=120, preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    assert result.returncode == status, result.stderr
    if line is None:
        assert result.stderr == ""
        assert (tmp_path / args[args.index("-o") + 1]).stat().st_size > 0
    else:
        assert result.stderr == line + "\n"
        assert os.listdir(tmp_path) == []


# -- binary output to a terminal -----------------------------------------------------------

TERMINAL = [
    # (arguments, refused)
    (["enumerate", "3", "--dim", "3", "--format", "glb"], True),
    (["tile", "1x2x1", "--pieces", "dominoes", "--format", "glb", "-o", "-"], True),
    (["draw", "-", "--format", "glb"], True),
    (["enumerate", "2", "--format", "txt"], False),
]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("args,refused", TERMINAL, ids=[" ".join(a) for a, _ in TERMINAL])
def test_binary_output_is_not_written_to_a_terminal(args, refused):
    terminal, other_end = os.openpty()
    try:
        result = subprocess.run(
            [*COMMAND, *args], env=ENV, stdout=other_end, stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL, text=True, timeout=120,
        )  # fmt: skip
    finally:
        os.close(other_end)
    os.set_blocking(terminal, False)
    try:
        shown = os.read(terminal, 1 << 16)
    except OSError:  # nothing was written (EAGAIN, or EIO once the other end closed)
        shown = b""
    finally:
        os.close(terminal)
    if refused:
        assert result.returncode == 2
        assert result.stderr.endswith(
            "error: glb is a binary format and standard output is a terminal; give -o FILE\n"
        )
        assert result.stderr.count("\n") == 1 and shown == b""
    else:
        assert result.returncode == 0 and shown


# -- names in every output format ------------------------------------------------------


def test_every_svg_of_hostile_names_is_xml_and_keeps_each_name_visible():
    placements = [(name, [(k, 0)]) for k, name in enumerate(HOSTILE_NAMES)]
    cubes = [(name, [(k, 0, 0)]) for k, name in enumerate(HOSTILE_NAMES)]
    pictures = [
        pf.tiling_svg(placements, labels=True),
        pf.tilings_sheet_svg([placements, placements], labels=True),
        pf.catalogue_svg([(name, pf.Polyform([(0, 0)])) for name in HOSTILE_NAMES]),
        pf.packing_svg(cubes, labels=True),
        pf.exploded_svg(cubes, labels=True),
        pf.polyform_svg([(0, 0)], name="\ud800\x01"),
    ]
    for picture in pictures:
        root = parsed(picture)  # the fixture parsed it as well, as it was made
        named = {e.get("data-piece") for e in root.iter() if e.get("data-piece")}
        if len(named) > 1:
            assert {"\\x01", "\\ud800", "\\x00", "<&\"'>", "A\nv 0 0 0\nf 1 1 1"} <= named


# OBJ and STL statements: each line of a model file starts with one of them.
OBJ_STATEMENTS = ("#", "o ", "v ", "vn ", "vt ", "f ", "g ", "usemtl ", "mtllib ", "s ")
STL_STATEMENTS = ("solid", "facet normal", "outer loop", "vertex", "endloop", "endfacet",
                  "endsolid")  # fmt: skip


def _glb_names(data: bytes) -> list[str]:
    length = struct.unpack("<I", data[12:16])[0]
    document = json.loads(data[20 : 20 + length].decode("utf-8"))
    return [node["name"] for node in document["nodes"] if "name" in node]


@pytest.mark.skipif(not _has_trimesh(), reason="needs the mesh extra")
@pytest.mark.parametrize("build", ["packings", "pieces"])
def test_model_files_keep_every_hostile_name_on_its_line(build):
    cubes = [(name, [(2 * k, 0, 0)]) for k, name in enumerate(HOSTILE_NAMES)]

    def model(fmt: str) -> bytes:
        if build == "packings":
            return mesh.packings_model([cubes], fmt)
        return mesh.pieces_model(cubes, fmt)

    obj = model("obj").decode("utf-8")
    assert all(line.startswith(OBJ_STATEMENTS) for line in obj.splitlines() if line), obj[:400]
    objects = [line[2:] for line in obj.splitlines() if line.startswith("o ")]
    assert len(objects) == len(HOSTILE_NAMES) and "A\\nv 0 0 0\\nf 1 1 1" in objects
    stl = model("stl").decode("utf-8")
    assert all(line.startswith(STL_STATEMENTS) for line in stl.splitlines() if line), stl[:400]
    assert stl.count("\nendsolid") == len(HOSTILE_NAMES)
    assert "\\ud800" in _glb_names(model("glb"))


def test_text_listings_carry_hostile_names_safely():
    region = pf.Region.box(1, 3)
    tiling = Tiling(
        [Placement("\n", ((0, 0),)), Placement(".", ((1, 0),)), Placement("\ud800", ((2, 0),))],
        region,
    )
    assert tiling.to_ascii() == "ABA"  # none of the names can stand in a picture
    assert json.loads(tiling.to_jsonl())["placements"][0]["piece"] == "\n"
    plain = Tiling([Placement("F", ((0, 0),)), Placement("+", ((1, 0), (2, 0)))], region)
    assert plain.to_ascii() == "F++"


NAMES = [
    # (a name in a solutions file, the name read, or None: refused)
    ("F", "F"),
    (12, "12"),
    ("H 01 é", "H 01 é"),
    ("x" * 100, "x" * 100),
    ("x" * 101, None),
    ("", None),
    ("A\tB", None),
    ("\u2028", None),
    ("\u200b", None),  # a format character: invisible
    (True, None),
    (None, None),
]


@pytest.mark.parametrize("name,read", NAMES, ids=[repr(n)[:20] for n, _ in NAMES])
def test_names_read_from_files_are_checked(name, read):
    line = json.dumps({"placements": [{"piece": name, "cells": [[0, 0]]}]})
    records = pf.read_solutions([line], "s.jsonl")
    if read is None:
        with pytest.raises(ParseError) as error:
            list(records)
        assert str(error.value).startswith("s.jsonl: line 1: not a solution record (")
        assert "\n" not in str(error.value) and len(str(error.value)) < 300
    else:
        assert next(records)[0] == [(read, ((0, 0),))]


# -- the limits of a drawing -------------------------------------------------------------


def _monominoes(count: int) -> dict:
    return {"placements": {str(k): [[k % 200, k // 200]] for k in range(count)}}


def test_a_solutions_file_too_large_to_draw_is_refused_as_it_is_read(tmp_path, monkeypatch):
    from polyforms.files import drawfile

    big = tmp_path / "big.jsonl"
    with open(big, "w") as stream:
        for _ in range(1000):  # each line a tiling of 100 pieces: 100,000 in all
            stream.write(json.dumps(_monominoes(100)) + "\n")
    read: list = []
    reader = drawfile.read_solutions

    def counting(*args, **kwargs):
        for record in reader(*args, **kwargs):
            read.append(record)
            yield record

    monkeypatch.setattr(drawfile, "read_solutions", counting)
    with pytest.raises(TooLargeError, match="more than 20,000 pieces"):
        pf.draw_file(big)
    assert len(read) == 201  # the file is read no further than the limit
    assert parsed(pf.draw_file(big, limit=3)).tag.endswith("svg")


def test_force_draws_past_the_limits():
    placements = [(str(k % 5), [(k % 200, k // 200)]) for k in range(20_001)]
    with pytest.raises(TooLargeError):
        pf.tiling_svg(placements)
    picture = pf.tiling_svg(placements, force=True, labels=False)
    assert picture.count('class="piece"') == 20_001


def test_the_command_line_refuses_a_drawing_too_large_and_force_draws_it(tmp_path):
    (tmp_path / "big.jsonl").write_text(json.dumps(_monominoes(20_001)) + "\n")
    refused = subprocess.run(
        [*COMMAND, "draw", "big.jsonl", "-o", "big.svg"], env=ENV, cwd=tmp_path,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("polyforms draw: error: a picture or model of more than")
    assert refused.stderr.count("\n") == 1 and not (tmp_path / "big.svg").exists()
    forced = subprocess.run(
        [*COMMAND, "draw", "big.jsonl", "-o", "big.svg", "--force"], env=ENV, cwd=tmp_path,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert forced.returncode == 0, forced.stderr
    assert len(svg_file(tmp_path / "big.svg").findall(".//*[@class='piece']")) == 20_001


def test_the_limits_are_those_documented():
    from polyforms import draw
    from polyforms.limits import SVG_LIMIT

    assert draw.PIECE_LIMIT == SVG_LIMIT == 20_000
    assert draw.CELL_LIMIT == 250_000


# -- lines without end, pictures without end ---------------------------------------------


def test_a_line_without_end_is_refused_once_it_passes_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(_textio, "MAX_LINE_CHARACTERS", 1000)
    monkeypatch.setattr(_textio, "_BLOCK", 64)
    path = tmp_path / "long.jsonl"
    path.write_text("short\n" + "x" * 5000 + "\nnever read\n")
    lines = _textio.iter_lines(path)
    assert next(lines) == "short\n"
    with pytest.raises(_textio.InputFileError, match=r"long.jsonl: line 2 is longer than 1,000"):
        next(lines)


def test_count_marks_counts_what_a_picture_marks():
    from polyforms.polyform import count_marks, parse_picture

    for picture in ["#", "A.\nAB\n--\n#.", "é#.x\n 9 ", "..\n#  \n"]:
        assert count_marks(picture) == len(parse_picture(picture)), picture
    assert count_marks("") == 0 and count_marks("é_#.x") == 3  # "_" is no mark


# -- --dask addresses ----------------------------------------------------------------------

DASK_ADDRESSES = [
    # (address, what is wrong or None)
    ("local", None),
    ("tcp://127.0.0.1:8786", None),
    ("scheduler.example.org:8786", None),
    ("tls://host:1", None),
    ("tcp://[::1]:8786", None),
    ("", "missing port number in address ''"),
    ("notaurl", "missing port number in address 'notaurl' (give local"),
    ("locl", "missing port number"),
    ("tcp://host", "missing port number"),
    ("http://host:80", "unknown scheme 'http'"),
    ("host:0", "port '0' is not from 1 to 65535"),
    ("host:65536", "port '65536'"),
    ("host:8x", "port '8x'"),
    (":8786", "missing port number"),
    ("a b:1", "bad host 'a b'"),
    ("tcp://::1:8786", "missing port number"),
    ("x" * 1000 + ":1", None),
]


@pytest.mark.parametrize("address,problem", DASK_ADDRESSES, ids=[a[:30] for a, _ in DASK_ADDRESSES])
def test_dask_addresses_are_checked_by_their_form(address, problem):
    found = checks.dask_address_problem(address)
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith(problem), found


# -- the command line's ranges are the library's -------------------------------------------


def test_the_command_line_ranges_are_those_of_the_library():
    from polyforms.limits import MAX_REGION_CELLS

    assert cli._UNITS == (mesh.MIN_UNIT, mesh.MAX_UNIT)
    assert cli._GAPS == (mesh.MIN_GAP, mesh.MAX_GAP)
    assert cli._MOST_OPEN == MAX_REGION_CELLS
    assert cli._MOST_LIMIT <= sys.maxsize  # itertools.islice takes it


# -- inline pictures and files -------------------------------------------------------------

INLINE = [
    # (REGION, --pieces, exit status, what stdout or stderr holds)
    ("##\n##", "dominoes", 0, "2\n"),
    ("2x2", "##\n", 0, "2\n"),
    ("2x2", "AA\n\nB\nB", 0, "8\n"),  # two dominoes, A and B, each any number of times
    ("##", "dominoes", 2, "error: no such file, and not a shape like 6x10 or 3x4x5: ##"),
    ("2x2", "##", 2, "error: unknown piece set '##', and no such file"),
]


@pytest.mark.parametrize("region,pieces,status,shown", INLINE, ids=range(len(INLINE)))
def test_an_inline_picture_needs_a_line_break(cli, tmp_path, region, pieces, status, shown):
    result = cli("tile", region, "--pieces", pieces, "--count", "--reuse", cwd=tmp_path)
    assert result.returncode == status, result.stderr
    if status == 0:
        assert result.stdout == shown
    else:
        assert shown in result.stderr and result.stderr.count("\n") == 1


def test_an_existing_file_is_always_a_file(cli, tmp_path):
    (tmp_path / "6x10").write_text("###\n")
    (tmp_path / "pentominoes").write_text("#\n")
    result = cli("tile", "6x10", "--pieces", "pentominoes", "--reuse", "--count", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "1\n"), result.stderr


def test_errors_from_the_library_stay_typed():
    with pytest.raises(PolyformError):
        mesh.pieces_model([[(0, 0, 0)]], "stl", unit=5, gap=5)

"""Catalogues of polyiamonds and polyhexes: they name their lattice and read back on it;
``polyforms enumerate --lattice``: its counts (checked against the OEIS) and its refusals."""

from __future__ import annotations

import json

import pytest

from polyforms import Polyform
from polyforms.enumeration.generate import enumerate_polyforms
from polyforms.files.catalogue import read_catalogue, write_catalogue, write_polyforms


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "txt"])
@pytest.mark.parametrize("kind", ["free", "one-sided"])
@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_catalogues_read_back_to_the_same_polyforms(tmp_path, lattice, kind, fmt):
    target = tmp_path / f"cat.{fmt}"
    written = write_polyforms(6, target, fmt, kind=kind, lattice=lattice)
    listed = list(enumerate_polyforms(6, kind=kind, lattice=lattice))
    assert written == len(listed)
    back = list(read_catalogue(target))  # the lattice comes from the file
    assert back == listed
    assert all(p.lattice.name == lattice for p in back)


def test_records_name_the_lattice(tmp_path):
    write_polyforms(5, tmp_path / "c.jsonl", "jsonl", lattice="triangle")
    records = [json.loads(line) for line in (tmp_path / "c.jsonl").read_text().splitlines()]
    assert len(records) == 4  # A000577
    assert {r["lattice"] for r in records} == {"triangle"}
    assert list(records[0]) == ["cells", "size", "kind", "symmetry", "holes", "lattice"]
    write_polyforms(5, tmp_path / "c.csv", "csv", lattice="hex")
    lines = (tmp_path / "c.csv").read_text().splitlines()
    assert lines[0] == "index,size,kind,symmetry,holes,cells,lattice"
    assert len(lines) == 1 + 22 and all(line.endswith(",hex") for line in lines[1:])
    write_polyforms(4, tmp_path / "c.txt", "txt", lattice="hex")
    assert (tmp_path / "c.txt").read_text().startswith("lattice: hex\n\n")


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "txt"])
def test_square_and_cube_catalogues_do_not_change(tmp_path, fmt):
    plain, named = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
    write_polyforms(6, plain, fmt)
    write_polyforms(6, named, fmt, lattice="square")
    assert plain.read_bytes() == named.read_bytes()
    assert b"lattice" not in plain.read_bytes()
    write_polyforms(4, plain, fmt, dim=3)
    write_polyforms(4, named, fmt, lattice="cube")
    assert plain.read_bytes() == named.read_bytes()


def test_a_txt_catalogue_without_its_lattice_line_is_read_on_the_lattice_given(tmp_path):
    hexes = [Polyform([(0, 0), (1, 0), (0, 1)], lattice="hex")]
    target = tmp_path / "h.txt"
    write_catalogue(hexes, target, "txt")
    text = target.read_text()
    (tmp_path / "bare.txt").write_text(text.split("\n\n", 1)[1])
    assert list(read_catalogue(tmp_path / "bare.txt", lattice="hex")) == hexes


def test_an_empty_filtered_catalogue_is_still_written(tmp_path):
    target = tmp_path / "none.jsonl"
    assert write_polyforms(5, target, "jsonl", lattice="triangle", symmetry="full") == 0
    assert target.read_text() == ""


def test_svg_sheet_of_polyhexes(tmp_path):
    # draw/ draws the cells of each polyform's own lattice (its cell polygons)
    target = tmp_path / "sheet.svg"
    assert write_polyforms(4, target, "svg", lattice="hex") == 7
    assert target.read_text().startswith("<svg")


@pytest.mark.parametrize(
    "args, expected",
    [
        (["6", "--lattice", "triangle", "--kind", "free", "--count"], "12"),  # A000577
        (["8", "--lattice", "triangle", "--kind", "one-sided", "--count"], "120"),  # A006534
        (["8", "--lattice", "triangle", "--kind", "fixed", "--count"], "675"),  # A001420
        (["6", "--lattice", "hex", "--kind", "free", "--count"], "82"),  # A000228
        (["6", "--lattice", "hex", "--kind", "one-sided", "--count"], "147"),  # A006535
        (["6", "--lattice", "hex", "--kind", "fixed", "--count"], "814"),  # A001207
        (["7", "--lattice", "hex", "--method", "naive", "--count"], "333"),  # A000228
        (["9", "--lattice", "triangle", "--holes", "--count"], "1"),  # A070764
        (["8", "--lattice", "hex", "--holes", "--count"], "13"),  # A038144
        (["5", "--lattice", "cube", "--kind", "one-sided", "--count"], "29"),  # A000162
        (["5", "--lattice", "square", "--count"], "12"),  # A000105
    ],
)
def test_counts_on_the_command_line(cli, args, expected):
    result = cli("enumerate", *args, "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected + "\n"


def test_catalogue_on_the_command_line(cli, tmp_path):
    target = tmp_path / "hexiamonds.jsonl"
    result = cli("enumerate", "6", "--lattice", "triangle", "--kind", "free", "-o", str(target))
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in target.read_text().splitlines()]
    assert len(records) == 12 and {r["lattice"] for r in records} == {"triangle"}


@pytest.mark.parametrize(
    "args, message",
    [
        (["6", "--lattice", "hex", "--method", "transfer-matrix", "--count"], "hex lattice"),
        (["6", "--lattice", "hexagon", "--count"], "invalid choice: 'hexagon'"),
        (["6", "--lattice", "hex", "--dim", "3", "--count"], "--dim 3 does not match"),
        (["6", "--lattice", "cube", "--dim", "2", "--count"], "--dim 2 does not match"),
        (["6", "--lattice", "triangle", "--symmetry", "rotation-90"], "unknown symmetry class"),
        (["6", "--lattice", "hex", "--estimate"], "hex lattice"),
        (["6", "--lattice", "hex", "-o", "x.stl"], "polyominoes and polycubes"),
    ],
)
def test_bad_combinations_are_one_line_and_exit_2(cli, tmp_path, args, message):
    result = cli("enumerate", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert message in result.stderr


def test_the_command_runs_on_the_job_layer(cli, tmp_path):
    result = cli("enumerate", "10", "--lattice", "hex", "--count", "--jobs", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "30490\n"  # A000228
    alone, split = tmp_path / "alone.txt", tmp_path / "split.txt"
    journal = tmp_path / "run.journal"
    for target, extra in ((alone, []), (split, ["--jobs", "2", "--checkpoint", str(journal)])):
        args = ["enumerate", "9", "--lattice", "triangle", "-o", str(target), "--quiet", *extra]
        result = cli(*args)
        assert result.returncode == 0, result.stderr
    assert split.read_bytes() == alone.read_bytes()
    assert len(list(read_catalogue(alone))) == 160  # A000577

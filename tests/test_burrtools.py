"""BurrTools ``.xmpuzzle`` files: a hand-made Soma cube read, counted and written back.

The Soma cube's counts are the literature's (ORACLES.md: 11,520 assemblies of the
3x3x3 cube, 240 up to its 48 symmetries; Conway and Guy, Winning Ways).
"""

from __future__ import annotations

import gzip

import pytest

import polyforms
from polyforms.cli import main
from polyforms.errors import PolyformError
from polyforms.files.burrtools import MAX_XML_BYTES, read_xmpuzzle, write_xmpuzzle

# The seven Soma pieces as BurrTools stores them: x fastest, then y, then z;
# "#1" is a filled cell of colour 1 (read as filled).
SOMA_SHAPES = [
    ("V", (2, 2, 1), "##1#_"),
    ("L", (3, 2, 1), "####__"),
    ("T", (3, 2, 1), "###_#_"),
    ("Z", (3, 2, 1), "_####_"),
    ("A", (2, 2, 2), "###__#__"),
    ("B", (2, 2, 2), "###___#_"),
    ("P", (2, 2, 2), "###_#___"),
    ("cube", (3, 3, 3), "#" * 27),
]


def xml(shapes=SOMA_SHAPES, problem=None, grid=0, head="") -> str:
    voxels = "".join(
        f'<voxel x="{x}" y="{y}" z="{z}" type="0" name="{name}">{text}</voxel>'
        for name, (x, y, z), text in shapes
    )
    if problem is None:
        used = "".join(f'<shape id="{i}" count="1"/>' for i in range(len(shapes) - 1))
        problem = f'<problem name="soma"><shapes>{used}</shapes><result id="{len(shapes) - 1}"/>' \
            "</problem>"  # fmt: skip
    return (
        f'<?xml version="1.0"?>{head}<puzzle version="2"><gridType type="{grid}"/><colors/>'
        f"<shapes>{voxels}</shapes><problems>{problem}</problems><comment/></puzzle>"
    )


@pytest.fixture
def soma(tmp_path):
    path = tmp_path / "soma.xmpuzzle"
    path.write_bytes(gzip.compress(xml().encode()))
    return path


def test_the_soma_cube_reads_and_counts(soma):
    puzzle = read_xmpuzzle(soma)
    assert puzzle.name == "soma" and puzzle.region.size == 27
    assert list(puzzle.pieces.pieces) == ["V", "L", "T", "Z", "A", "B", "P"]
    assert all(puzzle.pieces.ranges[name] == (1, 1) for name in puzzle.pieces.pieces)
    named = polyforms.tile("3x3x3", "soma").region.cells
    assert sorted(puzzle.region.cells) == sorted(named)
    problem = polyforms.tile(puzzle.region, puzzle.pieces)
    assert problem.count() == 11520
    assert problem.count(distinct=True) == 240


def test_the_writer_round_trips(soma, tmp_path):
    first = read_xmpuzzle(soma)
    again_path = tmp_path / "again.xmpuzzle"
    write_xmpuzzle(again_path, first.region, first.pieces, "soma")
    assert again_path.read_bytes()[:2] == b"\x1f\x8b"
    again = read_xmpuzzle(again_path)
    assert sorted(again.region.cells) == sorted(first.region.cells)
    assert again.pieces.ranges == first.pieces.ranges
    for name, piece in first.pieces.pieces.items():
        assert again.pieces.pieces[name].canonical() == piece.canonical()
    assert polyforms.tile(again.region, again.pieces).count(distinct=True) == 240
    # Ranges, and a piece of any number of copies (as many as fit), written back.
    from polyforms.piece_sets import PieceSet

    ranged = PieceSet(first.pieces.pieces, {"V": (0, 2), "L": (1, None)})
    write_xmpuzzle(again_path, first.region, ranged)
    text = gzip.decompress(again_path.read_bytes()).decode()
    assert '<shape id="0" min="0" max="2" />' in text
    assert '<shape id="1" min="1" max="6" />' in text
    assert read_xmpuzzle(again_path).pieces.ranges["V"] == (0, 2)


def test_min_and_max_copies_are_ranges(tmp_path):
    problem = ('<problem><shapes><shape id="0" min="0" max="3"/><shape id="1" count="2"/>'
               '</shapes><result id="2"/></problem>')  # fmt: skip
    shapes = [("I", (2, 1, 1), "##"), ("O", (2, 2, 1), "####"), ("box", (2, 2, 3), "#" * 12)]
    path = tmp_path / "bars.xmpuzzle"
    path.write_bytes(gzip.compress(xml(shapes, problem).encode()))
    puzzle = read_xmpuzzle(path)
    assert puzzle.pieces.ranges == {"I": (0, 3), "O": (2, 2)}
    # 2x2x3 by two squares and up to three bars: checked against the named-piece run.
    expected = polyforms.tile(puzzle.region, puzzle.pieces).count()
    assert expected > 0


def test_polyforms_tile_reads_an_xmpuzzle(soma, capsys):
    assert main(["tile", str(soma), "--count"]) == 0
    assert capsys.readouterr().out == "11520\n"
    assert main(["tile", str(soma), "--count", "--distinct"]) == 0
    assert capsys.readouterr().out == "240\n"
    assert main(["tile", str(soma), "--pieces", "soma", "--count"]) == 2
    assert capsys.readouterr().err == (
        "polyforms tile: error: a .xmpuzzle file brings its pieces and counts: drop --pieces\n"
    )
    assert main(["tile", "3x3x3", "--count"]) == 2
    assert "the argument --pieces is required" in capsys.readouterr().err


def _bomb() -> bytes:
    """A few hundred KB of gzip that would unzip to more than the bound."""
    import zlib

    zeros = bytes(1 << 20)
    pack = zlib.compressobj(1, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    out = b"".join(pack.compress(zeros) for _ in range((MAX_XML_BYTES >> 20) + 8))
    return out + pack.flush()


@pytest.mark.parametrize(
    "content, message",
    [
        (xml(grid=2).encode(), "grid type 2 is not read; only the cube grid (0) is"),
        (b"\x1f\x8b\x08\x00garbage", "not a gzipped BurrTools file"),
        (b"<puzzle", "not XML"),
        (b"<html/>", "not a BurrTools puzzle (the root is <html>)"),
        (xml(head='<!DOCTYPE p [<!ENTITY a "aaaa">]>').encode(), "document type declaration"),
        (xml([("V", (2, 2, 1), "##")] + SOMA_SHAPES[1:]).encode(), "needs 4 cells of _, # or +"),
        (xml([("V", (2, 2, 1), "##x_")] + SOMA_SHAPES[1:]).encode(), "needs 4 cells"),
        (xml(SOMA_SHAPES[:-1] + [("cube", (1000, 1000, 2), "#")]).encode(),
         "a voxel space of 1000x1000x2 is more than 1,000,000 cells"),
        (xml(SOMA_SHAPES[:-1] + [("cube", (3, 3, 3), "+" * 27)]).encode(), "variable voxels (+)"),
        (xml(problem='<problem><result id="99"/></problem>').encode(), "shape 99 is not defined"),
        (xml(problem='<problem><shapes><shape id="0" count="x"/></shapes><result id="7"/>'
                     "</problem>").encode(), "count must be a whole number, not 'x'"),
        (xml(problem="").encode(), "the file defines no problem"),
        (_bomb(), f"unzips to more than {MAX_XML_BYTES >> 20} MiB of XML"),
    ],
)  # fmt: skip
def test_bad_files_are_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "bad.xmpuzzle"
    path.write_bytes(content)
    with pytest.raises(PolyformError) as caught:
        read_xmpuzzle(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert str(caught.value).startswith(str(path))
    assert main(["tile", str(path), "--count"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_a_missing_file_is_one_line(tmp_path, capsys):
    assert main(["tile", str(tmp_path / "none.xmpuzzle"), "--count"]) == 2
    assert capsys.readouterr().err.startswith("polyforms tile: error: No such file")

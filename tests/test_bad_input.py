"""Every user mistake: one clear line, exit status 2, nothing damaged (table-driven).

For the command line each case runs ``polyforms`` in a scratch directory that
holds a few files (one of them read-only, one a symlink) and checks the exit
status, that stderr is one line without a traceback, that stdout is empty, and
that the directory's listing, every file's bytes and every file's mode are
exactly as before. For the library each case checks the exception's type.
"""

from __future__ import annotations

import io
import os
import stat
import sys

import pytest

import polyforms as pf
from polyforms._textio import InputFileError
from polyforms.cli import arguments
from polyforms.draw import mesh
from polyforms.errors import (
    DLXFormatError,
    ExactCoverError,
    ParseError,
    PolyformError,
    TilingError,
    TooLargeError,
    UnknownNameError,
    WrongTypeError,
)
from polyforms.files import catalogue
from polyforms.files.solutions import placements_from_record

# name -> bytes of the files in the scratch directory
FILES = {
    "ok.txt": b"#.\n##\n",
    "latin1.txt": "caf\xe9 ##\n".encode("latin-1"),
    "bom.dlx": b"\xef\xbb\xbfa b\na\nb\n",
    "empty.txt": b"",
    "letters.txt": b"AAA",
    "apart.txt": b"#.#\n",
    "odd.txt": b"#?#\n",
    "bad.jsonl": b'{"placements": 5}\n',
    "huge.jsonl": b'{"cells": [[0, 1e400]]}\n',
    "keep.jsonl": b'{"cells":[[0,0]],"size":1,"kind":"free","symmetry":"full","holes":0}\n',
    # Hostile input (issue 43): nesting too deep for the parser, names no output can carry.
    "deep.jsonl": b"[" * 100_000 + b"\n",
    "deepcat.jsonl": b'{"cells":' + b"[" * 100_000 + b"\n",
    "control.jsonl": b'{"placements":[{"piece":"\\u0001","cells":[[0,0]]}]}\n',
    "newline.jsonl": b'{"placements":{"A\\nv 0 0 0\\nf 1 1 1":[[0,0,0]]}}\n',
    "surrogate.jsonl": b'{"placements":[["\\ud800",[[0,0]]]]}\n',
    "longname.jsonl": b'{"placements":{"' + b"x" * 101 + b'":[[0,0]]}}\n',
    "half.jsonl": b'{"placements":{"A":[[0,0.5]]}}\n',
}
READ_ONLY = "keep.jsonl"

CLI_CASES = [
    # (arguments, words the one line must contain)
    (["enumerate", "0"], "at least 1"),
    (["enumerate", "1000", "--count"], "beyond the limit"),
    (["enumerate", "15", "--format", "svg"], "limit"),
    (["enumerate", "5", "--kind", "mirror"], "invalid choice"),
    (["enumerate", "5", "--dim", "3", "--symmetry", "²"], "order of its group"),
    (["enumerate", "5", "--symmetry", "odd"], "unknown symmetry class"),
    (["enumerate", "5", "-o", ""], "empty"),
    (["enumerate", "5", "-o", "newdir/"], "newdir"),
    (["enumerate", "5", "-o", "nodir/x.txt"], "does not exist"),
    (["enumerate", "5", "-o", "ok.txt/x"], "ok.txt"),
    (["enumerate", "5", "-o", "x.png"], "cannot tell the format"),
    (["enumerate", "5", "--jobs", "-1"], "0 (every core) or more"),
    (["enumerate", "5", "--jobs", "1.5"], "whole number"),
    (["enumerate", "5", "--method", "transfer"], "invalid choice"),
    (["tile", "99999999999x99999999999", "--pieces", "pentominoes", "--count"], "limit"),
    (["tile", "-5x10", "--pieces", "pentominoes"], "positive"),
    (["tile", "0x10", "--pieces", "pentominoes"], "positive"),
    (["tile", "latin1.txt", "--pieces", "pentominoes"], "not UTF-8"),
    (["tile", "6x10", "--pieces", "latin1.txt"], "not UTF-8"),
    (["tile", "6x10", "--pieces", "empty.txt"], "no pieces"),
    (["tile", "6x10", "--pieces", "nosuchset"], "unknown piece set"),
    (["tile", "6x10", "--pieces", "pentominoes", "-o", "newdir/"], "newdir"),
    (["tile", "6x10", "--pieces", "pentominoes", "--limit", "0"], "at least 1"),
    (["tile", "nosuchdir/"], "required"),
    (["solve", "latin1.txt"], "not UTF-8"),
    (["solve", "missing.dlx"], "no such DLX file"),
    (["solve", "."], "directory"),
    (["solve", "ok.txt"], "ok.txt: line"),
    (["tile", "odd.txt", "--pieces", "dominoes"], "odd.txt: line 1, column 2"),
    (["tile", "2x2", "--pieces", "apart.txt"], "apart.txt: the cells"),
    (["solve", "missing.dlx", "--estimate"], "no such DLX file"),
    (["draw", "latin1.txt"], "not UTF-8"),
    (["draw", "bad.jsonl"], "not a solution record"),
    (["draw", "huge.jsonl"], "whole numbers"),
    (["draw", "."], "directory"),
    (["draw", "missing.txt"], "no such"),
    (["draw", "ok.txt", "-o", "o.png"], "cannot tell the format"),
    (["draw", "ok.txt", "-o", READ_ONLY], READ_ONLY),
    (["calendar", "²", "1"], "unknown month"),
    (["calendar", "Jan", "1.9"], "whole number"),
    (["calendar", "13", "1"], "1 to 12"),
    (["calendar", "Jan"], "both"),
    # Issue 43: hostile and careless input. A REGION or --pieces that is neither
    # a shape or set name, nor a file, nor -, is an error, not a one-line picture.
    (["tile", "nofile.txt", "--pieces", "pentominoes", "--count"],
     "no such file, and not a shape like 6x10 or 3x4x5: nofile.txt"),
    (["tile", "2x3x4x5", "--pieces", "pentominoes", "--count"], "not a shape like 6x10"),
    (["tile", "6x10", "--pieces", "nofile.txt", "--count"],
     "unknown piece set 'nofile.txt', and no such file"),
    (["tile", "6x10", "--pieces", "###", "--count"], "and no such file"),
    # Names no output file can carry are refused where they are read.
    (["draw", "control.jsonl", "-o", "out.svg"], "piece name '\\x01' holds a character"),
    (["draw", "newline.jsonl", "-o", "out.obj"], "not printable"),
    (["draw", "surrogate.jsonl"], "piece name '\\ud800' holds a character"),
    (["draw", "longname.jsonl"], "longer than 100 characters"),
    (["draw", "half.jsonl", "-o", "out.stl"], "whole numbers"),
    # Sizes of a model: finite, in range, the gap less than the unit.
    (["enumerate", "3", "--dim", "3", "-o", "u.stl", "--unit", "1e308"],
     "'1e308' must be a size from 0.01 to 1000 mm"),
    (["enumerate", "3", "--dim", "3", "-o", "u.stl", "--unit", "inf"], "from 0.01 to 1000"),
    (["enumerate", "3", "--dim", "3", "-o", "u.stl", "--gap", "nan"],
     "must be 0 or a size from 0.001 to 100 mm"),
    (["enumerate", "3", "--dim", "3", "-o", "u.stl", "--gap", "1e-9"], "0 or a size"),
    (["tile", "1x2", "--pieces", "dominoes", "-o", "u.obj", "--unit", "5", "--gap", "5"],
     "the gap (5 mm) must be less than the unit (5 mm)"),
    # Month names match whole.
    (["calendar", "Junk", "1"], "unknown month 'Junk'; use 1-12, Jan"),
    (["calendar", "Sept", "1", "--count"], "unknown month"),
    # JSON nested beyond the parser's depth.
    (["draw", "deep.jsonl"], "nested too deep"),
    (["draw", "deepcat.jsonl", "--format", "stl"], "nested too deep"),
    # Every integer option has a range, checked as it is parsed.
    (["draw", "keep.jsonl", "--limit", "99999999999999999999"],
     "must be at least 1 and at most 1,000,000,000,000,000,000"),
    (["draw", "keep.jsonl", "--columns", "0"], "must be at least 1 and at most 10,000"),
    (["draw", "keep.jsonl", "--cell", "1" + "0" * 400], "at most 1,000"),
    (["tile", "4x5", "--pieces", "free:4", "--count", "--open", "-3"],
     "must be at least 0 and at most 1,000,000"),
    (["tile", "4x5", "--pieces", "free:4", "--columns", "99999"], "at most 10,000"),
    (["solve", "bom.dlx", "--limit", "1e3"], "'1e3' is not a whole number"),
    (["calendar", "Jan", "1", "--limit", "-1"], "at least 1"),
    (["tile", "4x5", "--pieces", "free:4", "--count", "--jobs", "99999999999999999999"],
     "must be at most 100,000"),
    # --dask is checked whether or not the run would split.
    (["tile", "4x5", "--pieces", "free:4", "--estimate", "--dask", "notaurl"],
     "not a dask scheduler address: missing port number in address 'notaurl'"),
    (["tile", "1x5", "--pieces", "dominoes", "--reuse", "--open", "1", "--by-open",
      "--dask", "tcp://h:0"], "port '0' is not from 1 to 65535"),
    (["enumerate", "5", "--count", "--dask", "http://h:80"], "unknown scheme 'http'"),
    (["solve", "bom.dlx", "--limit", "1", "--dask", "ho st:80"], "bad host 'ho st'"),
    # Numbers of thousands of digits, which int() refuses past 4,300.
    (["calendar", "Jan", "9" * 5000], "day must be a whole number from 1 to 31"),
    (["tile", "9" * 5000 + "x10", "--pieces", "pentominoes", "--count"],
     "beyond the limit of 1,000,000 cells"),
    (["enumerate", "9" * 5000], "is not a whole number"),
    (["enumerate", "3", "--kind", "k" * 3000], "invalid choice"),
    (["enumerate", "3", "-o", "x" * 300 + ".png"], "cannot tell the format"),
    # Pictures past the limits of a drawing are refused as their input comes.
    (["tile", "150x150", "--pieces", "monomino", "--reuse", "--limit", "1", "-o", "big.svg"],
     "more than 20,000 pieces"),
    (["tile", "150x150", "--pieces", "monomino", "--reuse", "--limit", "1", "-o", "big.glb"],
     "more than 20,000 pieces"),
]  # fmt: skip


def _snapshot(folder) -> dict:
    found = {}
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        info = os.lstat(path)
        content = None
        if stat.S_ISREG(info.st_mode):
            with open(path, "rb") as handle:
                content = handle.read()
        found[entry] = (stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode), content)
    return found


@pytest.fixture
def scratch(tmp_path):
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / READ_ONLY).chmod(0o444)
    (tmp_path / "link.txt").symlink_to("ok.txt")
    return tmp_path


@pytest.mark.parametrize("args,words", CLI_CASES, ids=[" ".join(a)[:40] for a, _ in CLI_CASES])
def test_cli_mistakes_are_one_line_and_exit_2(cli, scratch, args, words):
    if args[-1] == READ_ONLY and os.geteuid() == 0:
        pytest.skip("root may write a read-only file")
    before = _snapshot(scratch)
    result = cli(*args, cwd=scratch)
    assert result.returncode == 2, (result.stdout[:200], result.stderr)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert words in result.stderr, result.stderr
    assert len(result.stderr) < 400
    assert _snapshot(scratch) == before


def test_a_memo_size_that_is_not_a_size_is_one_line(cli, scratch, monkeypatch):
    monkeypatch.setenv("POLYFORMS_MEMO", "lots")
    result = cli("tile", "4x5", "--pieces", "free:4", "--reuse", "--count", cwd=scratch)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "POLYFORMS_MEMO must be a size such as 4G or 512M, not 'lots'" in result.stderr


def test_long_names_are_cut_in_messages(cli, scratch):
    long = "x" * 100_000
    result = cli("tile", "6x10", "--pieces", long, cwd=scratch)
    assert result.returncode == 2 and len(result.stderr) < 400


def test_a_byte_order_mark_and_crlf_are_accepted(cli, scratch):
    result = cli("solve", "bom.dlx", "--count", cwd=scratch)
    assert result.returncode == 0 and result.stdout == "1\n", result.stderr
    (scratch / "crlf.txt").write_bytes(b"###\r\n#.#\r\n###\r\n")
    result = cli("tile", "crlf.txt", "--pieces", "fixed:1", "--reuse", "--count", cwd=scratch)
    assert result.returncode == 0 and result.stdout == "1\n", result.stderr


def test_a_one_line_pieces_file_is_a_picture_not_a_set_name(cli, scratch):
    result = cli("tile", "1x6", "--pieces", "letters.txt", "--reuse", "--count", cwd=scratch)
    assert result.returncode == 0 and result.stdout == "1\n", result.stderr


def test_3d_rows_of_spaces_keep_the_layers_aligned(cli, scratch):
    """A vertical domino: the first layer's top row is spaces, not nothing."""
    for top in ("  ", ".."):
        (scratch / "r.txt").write_text(f"{top}\n #\n--\n..\n.#\n")
        result = cli("tile", "r.txt", "--pieces", "free:2", "--count", cwd=scratch)
        assert result.stdout == "1\n", (top, result.stderr)


LIBRARY_CASES = [
    (lambda: pf.count(1000), TooLargeError),
    (lambda: pf.count(0), PolyformError),
    (lambda: pf.count(5, kind="mirror"), UnknownNameError),
    (lambda: pf.count(5, jobs=-1), PolyformError),
    (lambda: pf.count(5, jobs=1.5), PolyformError),
    (lambda: pf.ExactCover({"a": [1]}, multiplicity={1: 2**40}), ExactCoverError),
    (lambda: pf.ExactCover({"a": [1]}, multiplicity=5), WrongTypeError),
    (lambda: pf.ExactCover([("a", [1])]), WrongTypeError),
    (lambda: pf.ExactCover.from_dlx(None), WrongTypeError),
    (lambda: pf.ExactCover.from_dlx("a\nb\n"), DLXFormatError),
    (lambda: list(pf.ExactCover({"a": [1]}).solutions(limit=-1)), PolyformError),
    (lambda: pf.Polyform.from_ascii(123), WrongTypeError),
    (lambda: pf.Polyform([(0, 0.5)]), WrongTypeError),
    (lambda: pf.Polyform([(0, 0), (5, 5)]), PolyformError),
    (lambda: pf.Polyform.from_ascii("#?"), ParseError),
    (lambda: pf.write_catalogue([1, 2], os.devnull, "jsonl"), WrongTypeError),
    (lambda: pf.calendar_problem("Jan", 1.9), TilingError),
    (lambda: pf.calendar_problem("Jan", 32), TilingError),
    (lambda: pf.tile("2x2x2", "pentominoes"), TilingError),
    (lambda: pf.tile([(0, float("inf"))], "dominoes"), WrongTypeError),
    (lambda: pf.Region.box(10**6, 10**6), TooLargeError),
    (lambda: list(pf.tile("2x2", "dominoes", reuse=True).solutions(limit=-1)), PolyformError),
    (lambda: list(catalogue.read_catalogue("/nonexistent/x.jsonl")), PolyformError),
    # Issue 43: hostile and careless input.
    (lambda: arguments.read_region("nofile.txt"), InputFileError),
    (lambda: arguments.read_piece_set("nofile.txt"), UnknownNameError),
    (lambda: pf.Region.parse("#" * 1_000_001), TooLargeError),
    (lambda: pf.calendar_problem("Junk", 1), TilingError),
    (lambda: pf.calendar_problem("J", 1), TilingError),
    (lambda: placements_from_record({"placements": {"\x01": [[0, 0]]}}), ParseError),
    (lambda: placements_from_record({"placements": {"A\nv 0 0 0": [[0, 0]]}}), ParseError),
    (lambda: placements_from_record({"placements": [["\ud800", [[0, 0]]]]}), ParseError),
    (lambda: placements_from_record({"placements": [[["A"], [[0, 0]]]]}), ParseError),
    (lambda: list(pf.read_solutions(io.StringIO("[" * 100_000), "x.jsonl")), ParseError),
    (lambda: mesh.cube_surface([(0.5, 0, 0)]), WrongTypeError),
    (lambda: mesh.cube_surface([(0, 0, 0)], unit=1e308), PolyformError),
    (lambda: mesh.cube_surface([(0, 0, 0)], unit=float("nan")), PolyformError),
    (lambda: mesh.cube_surface([(0, 0, 0)], unit=10, gap=1e-9), PolyformError),
    (lambda: mesh.pieces_model([[(0, 0)]] * 20_001, "stl"), TooLargeError),
    (lambda: pf.tiling_svg([("A", [(0.5, 0)])]), WrongTypeError),
    (lambda: pf.tiling_svg([(str(k), [(k, 0)]) for k in range(20_001)]), TooLargeError),
    (lambda: pf.tilings_sheet_svg(iter(lambda: [("A", [(0, 0)])], None)), TooLargeError),
    (lambda: pf.region_svg(pf.Region.box(600, 600)), TooLargeError),
    (lambda: pf.queens_svg(10**5, []), TooLargeError),
    (lambda: pf.packing_svg([("A", [(k, 0, 0) for k in range(250_001)])]), TooLargeError),
    (lambda: pf.examples.queens(10**6), TooLargeError),
    (lambda: pf.examples.set_partitions(10**9), TooLargeError),
    (lambda: pf.examples.langford(True), WrongTypeError),
]


@pytest.mark.parametrize("call,error", LIBRARY_CASES, ids=range(len(LIBRARY_CASES)))
def test_library_raises_typed_errors(call, error):
    with pytest.raises(error) as raised:
        call()
    assert isinstance(raised.value, PolyformError)
    assert len(str(raised.value)) < 300 and "\n" not in str(raised.value)


def test_a_tiling_problem_of_too_many_placements_is_refused_before_building(monkeypatch):
    """100x100x100 by the solid pentominoes, reused, would have had 179 million
    placements (24 GB), built until memory ran out; the bound is checked first.
    Here with the limit lowered: 6x10 by the pentominoes has 2,056 placements."""
    from polyforms.tiling import layout as tiling

    assert len(pf.tile("6x10", "pentominoes").placements) == 2056
    monkeypatch.setattr(tiling, "MAX_PLACEMENTS", 2055)
    with pytest.raises(TooLargeError, match=r"up to [\d,]+ placements .* limit of 2,055"):
        pf.tile("6x10", "pentominoes")
    # The bound is exact for a box, and the area mismatch builds nothing.
    monkeypatch.setattr(tiling, "MAX_PLACEMENTS", 2056)
    assert len(pf.tile("6x10", "pentominoes").placements) == 2056
    monkeypatch.setattr(tiling, "MAX_PLACEMENTS", 0)
    assert pf.tile("5x5", "pentominoes").impossible


def test_wrong_types_are_also_type_errors():
    with pytest.raises(TypeError):
        pf.Polyform(5)
    with pytest.raises(ValueError):
        pf.Polyform([(0, 0), (5, 5)])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/full")
@pytest.mark.parametrize("stderr", ["full", "closed"])
def test_a_stderr_that_takes_nothing_does_not_lose_the_result(stderr):
    """With stderr closed (``2>&-``) or full (``2>/dev/full``) the progress bar and
    the messages cannot be written: the count still reaches stdout, and an error
    is still exit status 2 (both ended in an unseen traceback, exit 1, before)."""
    import subprocess
    from pathlib import Path

    root = str(Path(pf.__file__).resolve().parent.parent)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
    }

    def run(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "polyforms.cli", *args]
        if stderr == "full":
            with open("/dev/full", "w") as full:
                return subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=full,
                                      text=True, timeout=120)  # fmt: skip
        return subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, timeout=120,
                              preexec_fn=lambda: os.close(2))  # fmt: skip

    counted = run("enumerate", "12", "--kind", "free", "--count", "--jobs", "2", "--progress")
    assert (counted.returncode, counted.stdout) == (0, "63600\n")
    plain = run("enumerate", "8", "--kind", "free", "--count")
    assert (plain.returncode, plain.stdout) == (0, "369\n")
    refused = run("enumerate", "0")
    assert (refused.returncode, refused.stdout) == (2, "")

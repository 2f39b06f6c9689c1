"""Every user mistake: one clear line, exit status 2, nothing damaged (table-driven).

For the command line each case runs ``polyforms`` in a scratch directory that
holds a few files (one of them read-only, one a symlink) and checks the exit
status, that stderr is one line without a traceback, that stdout is empty, and
that the directory's listing, every file's bytes and every file's mode are
exactly as before. For the library each case checks the exception's type.
"""

from __future__ import annotations

import os
import stat
import sys

import pytest

import polyforms as pf
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
]


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

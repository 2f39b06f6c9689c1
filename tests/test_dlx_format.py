"""Knuth's DLX text format: reading, writing, round trips, errors, `polyforms solve`."""

from __future__ import annotations

import io
import sys

import pytest

import polyforms as pf
from polyforms.cli import main
from polyforms.errors import DLXFormatError

KNUTH_TEXT = """\
| The example of Knuth's "Dancing links" (2000), with g secondary
a b c d e f | g
c e
a d g
b c f
a d f
b g
d e g
"""


def test_read_knuth_example():
    xc = pf.ExactCover.from_dlx(KNUTH_TEXT)
    assert xc.choices == [0, 1, 2, 3, 4, 5]
    assert xc.constraints == list("abcdefg")
    assert xc.is_secondary("g") and not xc.is_secondary("a")
    assert xc.constraints_of(1) == ["a", "d", "g"]
    assert list(xc.solutions()) == [[0, 3, 4]]


def test_bounds_and_round_trip():
    text = "2|a 1:3|b c | 0:2|s t\na b\na c s\nb s t\na b c\nb t\n"
    xc = pf.ExactCover.from_dlx(text)
    assert xc.bounds("a") == (2, 2)
    assert xc.bounds("b") == (1, 3)
    assert xc.bounds("s") == (0, 2)
    assert xc.bounds("t") == (0, 1)
    assert xc.to_dlx() == text
    again = pf.ExactCover.from_dlx(xc.to_dlx())
    assert sorted(again.solutions()) == sorted(xc.solutions())


def test_items_without_options_are_kept():
    xc = pf.ExactCover.from_dlx("a b\na\n")
    assert xc.constraints == ["a", "b"]
    assert xc.count() == 0
    assert xc.to_dlx() == "a b\na\n"


def test_arbitrary_constraints_get_short_names_and_a_mapping():
    xc = pf.examples.queens(5)
    text = xc.to_dlx()
    assert "| x1 = ('row', 0)" in text.splitlines()
    assert all(len(token) <= 8 for line in text.splitlines() if not line.startswith("|")
               for token in line.split())  # fmt: skip
    back = pf.ExactCover.from_dlx(text)
    assert back.count() == xc.count() == 10
    assert len(back.choices) == len(xc.choices)
    names = {f"x{k + 1}": c for k, c in enumerate(xc.constraints)}
    for o, choice in enumerate(xc.choices):
        assert [names[x] for x in back.constraints_of(o)] == xc.constraints_of(choice)
        for x in back.constraints_of(o):
            assert back.bounds(x) == xc.bounds(names[x])
            assert back.is_secondary(x) == xc.is_secondary(names[x])


def test_multiplicity_round_trip_two_queens():
    xc = pf.examples.two_queens(4)
    assert pf.ExactCover.from_dlx(xc.to_dlx()).count() == 11


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("a b\na c\n", 2, "unknown item 'c'"),
        ("| only a comment\n\n", 3, "missing item line"),
        ("", 1, "missing item line"),
        ("a b a\na\n", 1, "duplicate item 'a'"),
        ("a b | a\na\n", 1, "duplicate item 'a'"),
        ("a b\n| comment\na a\n", 3, "appears twice"),
        ("a b\na b:1\n", 2, "colours"),
        ("abcdefghi b\na\n", 1, "bad item name"),
        ("x|a b\na\n", 1, "bad bounds"),
        ("3:2|a b\na\n", 1, "bounds"),
        ("a | 1:2|b\na\n", 1, "lower bound"),
        ("| s\n", 2, "missing item line"),
        ("| a b\n", 2, "missing item line"),
        ("a | b | c\na\n", 1, "more than one"),
    ],
)
def test_bad_files_name_the_line(text, line, words):
    with pytest.raises(DLXFormatError, match=f"line {line}: .*{words}|line {line}: {words}"):
        pf.ExactCover.from_dlx(text)


def test_empty_option_in_the_api():
    # An option with no items cannot be written in the format (blank lines are
    # skipped, as in Knuth's programs); the API rejects one.
    with pytest.raises(pf.ExactCoverError, match="empty option"):
        pf.ExactCover({"A": ["a"], "B": []})


def test_cli_solve_file(tmp_path, capsys):
    path = tmp_path / "knuth.dlx"
    path.write_text(KNUTH_TEXT)
    assert main(["solve", str(path)]) == 0
    assert capsys.readouterr().out == "c e\na d f\nb g\n\n"
    assert main(["solve", str(path), "--count"]) == 0
    assert capsys.readouterr().out == "1\n"


def test_cli_solve_stdin_count_and_limit(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(pf.examples.queens(6).to_dlx()))
    assert main(["solve", "-", "--count"]) == 0
    assert capsys.readouterr().out == "4\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(pf.examples.queens(6).to_dlx()))
    assert main(["solve", "-", "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n\n") == 2
    monkeypatch.setattr(sys, "stdin", io.StringIO(pf.examples.queens(6).to_dlx()))
    assert main(["solve", "-", "--count", "--limit", "3"]) == 0
    assert capsys.readouterr().out == "3\n"


def test_cli_solve_errors(tmp_path, capsys):
    bad = tmp_path / "bad.dlx"
    bad.write_text("a b\na c\n")
    assert main(["solve", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"polyforms solve: error: {bad}: line 2: unknown item 'c'")
    assert err.count("\n") == 1
    assert main(["solve", str(tmp_path / "missing.dlx")]) == 2
    assert "missing.dlx: no such DLX file" in capsys.readouterr().err

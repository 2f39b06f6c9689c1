"""`polyforms enumerate` through a subprocess: the issue's examples and every bad input."""

import json

import pytest


@pytest.mark.parametrize(
    "args, expected",
    [
        (["10", "--kind", "free", "--count"], "4655"),
        (["8", "--kind", "one-sided", "--count"], "704"),
        (["5", "--dim", "3", "--kind", "one-sided", "--count"], "29"),
        (["5", "--dim", "3", "--kind", "free", "--count"], "23"),
        (["9", "--kind", "free", "--method", "naive", "--count"], "1285"),
        (["9", "--holes", "--count"], "37"),
        (["9", "--no-holes", "--count"], "1248"),
        (["9", "--symmetry", "diagonal-mirror", "--count"], "26"),
        (["4", "--dim", "3", "--symmetry", "6", "--count"], "1"),
    ],
)
def test_counts(cli, args, expected):
    result = cli("enumerate", *args, "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected + "\n"


def test_jsonl_catalogue_file(cli, tmp_path):
    target = tmp_path / "free8.jsonl"
    result = cli("enumerate", "8", "--kind", "free", "--format", "jsonl", "-o", str(target))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    lines = target.read_text().splitlines()
    assert len(lines) == 369
    records = [json.loads(line) for line in lines]
    assert {r["size"] for r in records} == {8}
    assert sum(r["holes"] for r in records) == 6
    again = tmp_path / "again.jsonl"
    cli("enumerate", "8", "-o", str(again))  # format from the file name
    assert again.read_bytes() == target.read_bytes()


def test_ascii_pictures_on_stdout(cli):
    result = cli("enumerate", "6", "--kind", "free")
    assert result.returncode == 0
    pictures = result.stdout.strip("\n").split("\n\n")
    assert len(pictures) == 35
    assert all(p.count("#") == 6 for p in pictures)


def test_csv(cli, tmp_path):
    target = tmp_path / "one-sided5.csv"
    assert cli("enumerate", "5", "--kind", "one-sided", "-o", str(target)).returncode == 0
    lines = target.read_text().splitlines()
    assert lines[0] == "index,size,kind,symmetry,holes,cells" and len(lines) == 19


@pytest.mark.parametrize(
    "args, message",
    [
        (["0"], "at least 1"),
        (["-3"], "at least 1"),
        (["five"], "not a whole number"),
        (["5", "--kind", "mirror"], "invalid choice"),
        (["5", "--method", "fast"], "invalid choice"),
        (["5", "--format", "pdf"], "invalid choice"),
        (["5", "--dim", "4"], "invalid choice"),
        (["5", "--symmetry", "round"], "unknown symmetry class"),
        (["5", "--dim", "3", "--symmetry", "5"], "group"),
        (["30"], "force"),
        (["36", "--count"], "force"),  # free n = 36: over an hour by the model
        (["5", "--jobs", "-1"], "0 (every core) or more"),
        (["5", "-o", "out.pdf"], "format"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, tmp_path, args, message):
    result = cli("enumerate", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_leaves_nothing(cli, tmp_path):
    result = cli("enumerate", "5", "-o", str(tmp_path / "missing" / "out.txt"))
    assert result.returncode == 2 and "missing" in result.stderr
    assert "Traceback" not in result.stderr
    result = cli("enumerate", "5", "-o", str(tmp_path))
    assert result.returncode == 2 and "directory" in result.stderr


def test_help_explains(cli):
    result = cli("enumerate", "--help")
    assert result.returncode == 0
    for word in ("--kind", "--method", "--count", "--jobs", "--holes", "--symmetry", "--force"):
        assert word in result.stdout


@pytest.mark.parametrize("fmt", ["txt", "jsonl", "csv"])
@pytest.mark.parametrize(
    "args",
    [
        ["8", "--kind", "free"],
        ["5", "--dim", "3", "--kind", "one-sided"],
        ["6", "--kind", "fixed", "--jobs", "2"],
    ],
)
def test_packed_fast_path_writes_the_same_bytes_as_the_library(cli, tmp_path, fmt, args):
    import polyforms as pf

    fast = tmp_path / f"fast.{fmt}"
    assert cli("enumerate", *args, "-o", str(fast), "--quiet").returncode == 0
    n, dim = int(args[0]), 3 if "--dim" in args else 2
    kind = args[args.index("--kind") + 1]
    slow = tmp_path / f"slow.{fmt}"
    pf.write_catalogue(pf.enumerate_polyforms(n, dim, kind), slow, fmt, kind=kind)
    assert fast.read_bytes() == slow.read_bytes()

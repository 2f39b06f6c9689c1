"""The examples of the README and of the guide run and print what they show;
docs/ holds what scripts/figures.py makes.

Every line ``$ COMMAND`` inside a plain code block (a fence with no language)
of README.md, then of docs/guide.md (the command line by example), is run, in
order, in one scratch directory, and what it prints is compared with the lines
shown under it, up to the next ``$`` line or the end of the block:

* ``polyforms ARGS`` runs the command line of the installed package; what it
  prints on stderr comes before what it prints on stdout (as on a terminal,
  where the one warning line of ``tile 5x5`` appears before the count), and
  its exit status must be 0.
* ``cat FILE`` with lines under it creates FILE holding those lines (the
  README's way of showing an input file); ``wc -l FILE`` and ``head -N FILE``
  are done here in Python.
* Blank lines at the end of an output are not compared.

The documented subset: commands in :data:`SLOW` (each several seconds) run
only with ``pytest -m slow``; commands that write 3D models are skipped when
trimesh (the mesh extra) is not installed, and ``--dask`` ones without Dask.
"""

from __future__ import annotations

import filecmp
import importlib.util
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _svg_check import svg_file  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide.md"
#: The shown pages, in the order their commands run, and the folder their pictures are under.
PAGES = ((README, ROOT), (GUIDE, ROOT / "docs"))

#: Shown commands left to ``pytest -m slow`` (seconds on a 2-core machine).
SLOW = {
    "polyforms tile 3x4x5 --pieces solid-pentominoes --count --distinct",  # 9 s
}


def shown_commands(text: str) -> list[tuple[str, list[str]]]:
    """(command, the output lines shown under it) for each ``$`` line of the plain code blocks."""
    found: list[tuple[str, list[str]]] = []
    fence = None  # outside a block; inside, its language ("" for a plain block)
    for line in text.splitlines():
        if line.startswith("```"):
            fence = line[3:].strip() if fence is None else None
            if fence is not None:
                found.append(("", []))  # a new block: output never runs on from the last
            continue
        if fence != "":
            continue
        if line.startswith("$ "):
            found.append((line[2:].strip(), []))
        else:
            found[-1][1].append(line)
    return [(command, lines) for command, lines in found if command]


def test_the_parser_reads_blocks():
    text = "```\n$ a\nx\n\n$ b\n```\n\n```python\n$ c\n```\nprose\n```\n$ d\ny\n```\n"
    assert shown_commands(text) == [("a", ["x", ""]), ("b", []), ("d", ["y"])]


COMMANDS = [
    found for page, _ in PAGES for found in shown_commands(page.read_text(encoding="utf-8"))
]


def _id(command: str) -> str:
    return re.sub(r"\s+", "_", command)[:60]


def _needs(command: str) -> str | None:
    """Why a command cannot run here, or None."""
    model = re.search(r"\.(stl|obj|glb)\b|--format (stl|obj|glb)", command)
    if model and importlib.util.find_spec("trimesh") is None:
        return 'needs the mesh extra (pip install ".[mesh]")'
    if "--dask" in command and importlib.util.find_spec("distributed") is None:
        return "needs Dask (the dask extra)"
    return None


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("readme")


def run_shown(command: str, shown: list[str], where: Path, run_cli) -> None:
    words = shlex.split(command)
    expected = "\n".join(shown).rstrip("\n")
    if words[0] == "polyforms":
        result = run_cli(*words[1:], cwd=where)
        assert result.returncode == 0, f"{command}: exit {result.returncode}\n{result.stderr}"
        actual = result.stderr + result.stdout
        for word in words:  # every picture a shown command writes is read back as XML
            if word.endswith(".svg"):
                svg_file(where / word)
    elif words[0] == "cat" and len(words) == 2:
        path = where / words[1]
        if not path.exists():  # the README shows an input file: make it
            path.write_text(expected + "\n", encoding="utf-8")
        actual = path.read_text(encoding="utf-8")
    elif words[:2] == ["wc", "-l"] and len(words) == 3:
        lines = (where / words[2]).read_bytes().count(b"\n")
        actual = f"{lines} {words[2]}"
    elif words[0] == "head" and re.fullmatch(r"-\d+", words[1]) and len(words) == 3:
        with open(where / words[2], encoding="utf-8", errors="replace") as stream:
            actual = "".join(line for _, line in zip(range(int(words[1][1:])), stream))
    else:
        raise AssertionError(f"the test cannot run the shown {command!r}; add it to run_shown")
    assert actual.rstrip("\n") == expected, f"$ {command}"


@pytest.mark.parametrize("index", range(len(COMMANDS)), ids=[_id(c) for c, _ in COMMANDS])
def test_readme_command(index, workdir, cli):
    command, shown = COMMANDS[index]
    if command in SLOW:
        pytest.skip("slow: run with pytest -m slow")
    reason = _needs(command)
    if reason:
        pytest.skip(reason)
    run_shown(command, shown, workdir, cli)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(SLOW))
def test_readme_slow_command(command, tmp_path, cli):
    shown = [lines for c, lines in COMMANDS if c == command]
    assert shown, f"{command!r} is no longer shown in the README or the guide: update SLOW"
    run_shown(command, shown[0], tmp_path, cli)


def test_figures_are_what_the_script_makes(tmp_path):
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "figures.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    made = sorted(p.name for p in tmp_path.glob("*.svg"))
    assert made and set(made) <= {p.name for p in (ROOT / "docs").glob("*.svg")}
    for name in made:
        svg_file(tmp_path / name)
    docs = ROOT / "docs"
    differ = [name for name in made if not filecmp.cmp(tmp_path / name, docs / name, False)]
    assert differ == [], "run python scripts/figures.py to make the pictures in docs/ again"


def test_readme_pictures_exist_and_shown_sheet_command(tmp_path, cli):
    pictures = 0
    for page, folder in PAGES:
        for picture in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            path = folder / picture
            assert path.is_file() and path.parent == ROOT / "docs", f"{page.name}: {picture}"
            if picture.endswith(".png"):  # a screenshot: a PNG file, small
                data = path.read_bytes()
                assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) < 400_000, picture
            else:
                svg_file(path)
            pictures += 1
    assert pictures >= 4
    # The heptomino sheet is what the command the guide names draws.
    command = "polyforms enumerate 7 --kind free --format svg -o heptominoes.svg"
    assert f"`{command}`" in GUIDE.read_text(encoding="utf-8")
    result = cli(*shlex.split(command)[1:], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert filecmp.cmp(tmp_path / "heptominoes.svg", ROOT / "docs" / "heptominoes.svg", False)

"""The compiled tiling kernel's sources: its parts, and its two loops from one template."""

from __future__ import annotations

import fnmatch
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "src" / "polyforms" / "_core"


def _generator():
    spec = importlib.util.spec_from_file_location(
        "gen_tiling_loops", ROOT / "scripts" / "gen_tiling_loops.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _included() -> list[str]:
    return re.findall(r'^include "([^"]+)"$', (CORE / "_tiling.pyx").read_text(), re.M)


def test_generated_loops_are_the_templates():
    """_tiling_loops.pxi is what the template gives: edit the template, then run
    scripts/gen_tiling_loops.py."""
    generator = _generator()
    assert (CORE / "_tiling_loops.pxi").read_text() == generator.render()


def test_both_loops_come_from_the_template():
    text = (CORE / "_tiling_loops.pxi").read_text()
    heads = re.findall(r"^cdef int (\w+)\(TilingSearch self", text, re.M)
    assert heads == ["run_lists", "run_first1"]


def test_a_shared_line_reaches_both_variants_and_a_marked_one_only_its_own():
    generator = _generator()
    template = "A {{found}}\n{{if first1}}\nB\n{{else}}\nC\n{{endif}}\n## note\nD\n"
    lists = generator.expand(template, generator.VARIANTS["lists"])
    first1 = generator.expand(template, generator.VARIANTS["first1"])
    assert lists == "A self.found\nC\nD\n"
    assert first1 == "A found\nB\nD\n"


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{{else}}\n", "else without its if"),
        ("{{endif}}\n", "endif without its if"),
        ("{{if lists}}\nA\n", "without its endif"),
        ("{{unknown}}\n", "no value for 'unknown'"),
    ],
)
def test_a_malformed_template_is_refused(template, message):
    generator = _generator()
    with pytest.raises(ValueError, match=message):
        generator.expand(template, generator.VARIANTS["lists"])


def test_every_part_is_included_once_and_each_is_short():
    included = _included()
    parts = sorted(path.name for path in CORE.glob("_tiling_*.pxi"))
    assert sorted(included) == parts
    assert len(set(included)) == len(included)
    for name in ["_tiling.pyx", *parts, "_tiling_loops.pxi.in"]:
        lines = (CORE / name).read_text().count("\n")
        assert lines <= 700, f"{name}: {lines} lines"


def test_the_parts_ship_with_the_package():
    """The sdist must carry every part (a build from it compiles _tiling.pyx) and the
    template; package data puts them there."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    section = pyproject.split("[tool.setuptools.package-data]", 1)[1]
    patterns = re.findall(
        r'"([^"]+)"', re.search(r"^polyforms = \[(.*?)\]", section, re.M | re.S)[1]
    )
    for name in ["_tiling.pyx", *_included(), "_tiling_loops.pxi.in"]:
        assert any(fnmatch.fnmatch(f"_core/{name}", p) for p in patterns), name
